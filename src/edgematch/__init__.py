"""edgematch: model, generate, solve, count, optimise, check and draw edge-matching puzzles.

>>> import edgematch
>>> puzzle = edgematch.load("e2")
>>> puzzle.width, puzzle.height, puzzle.n_tiles
(16, 16, 256)
"""

from .api import count, estimate, generate, optimize, resume, search, solve
from .engines.base import Limits, StopFlag, StopReason
from .engines.result import SearchResult
from .errors import InputError
from .formats import (
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
    read_board,
    read_puzzle,
    write_board,
    write_puzzle,
)
from .loading import load, load_board
from .model import EMPTY, Board, Hint, Puzzle, Verification, parse_square, square_name

__version__ = "0.1.0"

__all__ = [
    "Board",
    "EMPTY",
    "Hint",
    "InputError",
    "Limits",
    "Puzzle",
    "SearchResult",
    "StopFlag",
    "StopReason",
    "Verification",
    "count",
    "estimate",
    "format_board",
    "format_puzzle",
    "generate",
    "load",
    "load_board",
    "optimize",
    "parse_board",
    "parse_puzzle",
    "parse_square",
    "read_board",
    "read_puzzle",
    "resume",
    "search",
    "solve",
    "square_name",
    "write_board",
    "write_puzzle",
]
