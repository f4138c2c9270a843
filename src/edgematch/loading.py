"""One way to name a puzzle or a board anywhere a path is accepted.

``load("e2")`` gives a bundled puzzle, ``load("my.txt")`` reads a file; boards likewise
accept a file, a viewer URL or a bundled record board name (``record/Joshua_Blackwood_470``).
A file that exists wins over a bundled name of the same spelling.
"""

from __future__ import annotations

import os
from pathlib import Path

from .data import catalogue, records
from .errors import InputError
from .formats import read_board, read_puzzle
from .model import Board, Puzzle


def load(spec: str | os.PathLike, fmt: str | None = None) -> Puzzle:
    """A puzzle from a bundled name (see ``edgematch info --list``) or a file path."""
    text = str(spec)
    if Path(text).exists():
        return read_puzzle(text, fmt)
    if catalogue.is_bundled(text):
        return catalogue.load_bundled(text)
    raise InputError("no such file or bundled puzzle (try 'edgematch info --list')", text)


def load_board(puzzle: Puzzle, spec: str | os.PathLike, fmt: str | None = None) -> Board:
    """A board of ``puzzle`` from a file, a viewer URL or a bundled record board name."""
    text = str(spec)
    if text.startswith(("http://", "https://")) or Path(text).exists():
        return read_board(text, puzzle, fmt)
    if records.is_record(text):
        return records.load_record(text, puzzle)
    raise InputError("no such file, viewer URL or bundled record board", text)
