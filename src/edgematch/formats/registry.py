"""The registry of file formats: detection by content and extension, and dispatch.

Each format module registers a :class:`PuzzleFormat` and/or :class:`BoardFormat`.  A
format's ``sniff`` returns True only when the text can belong to that format alone, so that
auto-detection never guesses: when no format or more than one claims a text, the user is
asked for ``--format``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..model import Board, Puzzle

MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class PuzzleFormat:
    name: str
    description: str
    read: Callable[[str, str], Puzzle]  # (text, source name) -> Puzzle
    write: Callable[[Puzzle], str]
    sniff: Callable[[str], bool]
    extensions: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class BoardFormat:
    name: str
    description: str
    read: Callable[[str, str, Puzzle], Board]  # (text, source name, puzzle) -> Board
    write: Callable[[Board], str]
    sniff: Callable[[str], bool]
    extensions: tuple[str, ...] = field(default_factory=tuple)


PUZZLE_FORMATS: dict[str, PuzzleFormat] = {}
BOARD_FORMATS: dict[str, BoardFormat] = {}


def register_puzzle_format(fmt: PuzzleFormat) -> PuzzleFormat:
    PUZZLE_FORMATS[fmt.name] = fmt
    return fmt


def register_board_format(fmt: BoardFormat) -> BoardFormat:
    BOARD_FORMATS[fmt.name] = fmt
    return fmt


def read_text(path: str | os.PathLike) -> str:
    """A file's text, or an :class:`InputError` naming the file and what is wrong with it."""
    p = Path(path)
    source = str(path)
    if not p.exists():
        raise InputError("no such file", source)
    if p.is_dir():
        raise InputError("is a directory, not a file", source)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"file is too large ({size} bytes)", source)
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", source) from None
    if b"\0" in data:
        raise InputError("binary data, not a text file", source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", source) from None
    if not text.strip():
        raise InputError("file is empty", source)
    return text


def _choose(formats: dict, text: str, source: str, fmt: str | None, what: str):
    if fmt is not None:
        if fmt not in formats:
            raise InputError(f"unknown {what} format '{fmt}' (known: {', '.join(sorted(formats))})", source)
        return formats[fmt]
    ext = "".join(Path(source).suffixes[-1:]).lower()
    claims = [f for f in formats.values() if _safe_sniff(f, text)]
    if len(claims) == 1:
        return claims[0]
    by_ext = [f for f in claims or formats.values() if ext and ext in f.extensions]
    if len(by_ext) == 1:
        return by_ext[0]
    if not claims:
        raise InputError(f"cannot tell the {what} format; give --format ({', '.join(sorted(formats))})", source)
    raise InputError(
        f"the {what} format is ambiguous ({', '.join(sorted(f.name for f in claims))}); give --format", source
    )


def _safe_sniff(fmt, text: str) -> bool:
    try:
        return bool(fmt.sniff(text))
    except Exception:  # a sniffer that trips over garbage simply does not claim the text
        return False


def detect_puzzle_format(text: str, source: str = "<text>", fmt: str | None = None) -> PuzzleFormat:
    return _choose(PUZZLE_FORMATS, text, source, fmt, "puzzle")


def detect_board_format(text: str, source: str = "<text>", fmt: str | None = None) -> BoardFormat:
    return _choose(BOARD_FORMATS, text, source, fmt, "board")


def parse_puzzle(text: str, source: str = "<text>", fmt: str | None = None) -> Puzzle:
    """A puzzle from text in the given (or detected) format."""
    return detect_puzzle_format(text, source, fmt).read(text, source)


def parse_board(text: str, puzzle: Puzzle, source: str = "<text>", fmt: str | None = None) -> Board:
    """A board of ``puzzle`` from text in the given (or detected) format."""
    return detect_board_format(text, source, fmt).read(text, source, puzzle)


def read_puzzle(path: str | os.PathLike, fmt: str | None = None) -> Puzzle:
    """A puzzle from a file."""
    return parse_puzzle(read_text(path), str(path), fmt)


def read_board(path: str | os.PathLike, puzzle: Puzzle, fmt: str | None = None) -> Board:
    """A board from a file, or from a viewer URL given instead of a path."""
    text = str(path)
    if text.startswith(("http://", "https://")):
        return parse_board(text, puzzle, "<url>", fmt or "bucas")
    return parse_board(read_text(path), puzzle, text, fmt)


def format_puzzle(puzzle: Puzzle, fmt: str = "edgematch") -> str:
    if fmt not in PUZZLE_FORMATS:
        raise InputError(f"unknown puzzle format '{fmt}' (known: {', '.join(sorted(PUZZLE_FORMATS))})")
    return PUZZLE_FORMATS[fmt].write(puzzle)


def format_board(board: Board, fmt: str = "edgematch") -> str:
    if fmt not in BOARD_FORMATS:
        raise InputError(f"unknown board format '{fmt}' (known: {', '.join(sorted(BOARD_FORMATS))})")
    return BOARD_FORMATS[fmt].write(board)


def write_puzzle(puzzle: Puzzle, path: str | os.PathLike, fmt: str | None = None) -> None:
    Path(path).write_text(format_puzzle(puzzle, fmt or format_for_extension(path, PUZZLE_FORMATS)))


def write_board(board: Board, path: str | os.PathLike, fmt: str | None = None) -> None:
    Path(path).write_text(format_board(board, fmt or format_for_extension(path, BOARD_FORMATS)))


def format_for_extension(path, formats: dict) -> str:
    """The format a file name's extension implies, or our own format when none does."""
    ext = "".join(Path(str(path)).suffixes[-1:]).lower()
    matches = [f.name for f in formats.values() if ext in f.extensions]
    return matches[0] if len(matches) == 1 else "edgematch"
