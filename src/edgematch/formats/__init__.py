"""File formats of the edge-matching community: read, write, detect.

Importing this package registers every format.  Use :func:`read_puzzle`,
:func:`read_board`, :func:`write_puzzle`, :func:`write_board` (files) or
:func:`parse_puzzle`, :func:`parse_board`, :func:`format_puzzle`, :func:`format_board`
(text).  docs/formats.md describes each format with an example.
"""

from . import benoist, bucas, e2dev, heule, julia, native, owen  # noqa: F401  (registration)
from .registry import (
    BOARD_FORMATS,
    PUZZLE_FORMATS,
    detect_board_format,
    detect_puzzle_format,
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
    read_board,
    read_puzzle,
    read_text,
    write_board,
    write_puzzle,
)

__all__ = [
    "BOARD_FORMATS",
    "PUZZLE_FORMATS",
    "detect_board_format",
    "detect_puzzle_format",
    "format_board",
    "format_puzzle",
    "parse_board",
    "parse_puzzle",
    "read_board",
    "read_puzzle",
    "read_text",
    "write_board",
    "write_puzzle",
]
