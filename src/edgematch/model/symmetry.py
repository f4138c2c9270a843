"""Symmetry breaking by board rotation, shared by every exact engine.

A raw count treats a whole-board rotation of a solution as another solution. Fixing the
lowest-numbered corner tile ``c`` on the top-left corner (square boards) leaves exactly one
of the four rotations of every solution, so the count divides the raw count by exactly 4,
whatever symmetric or duplicate tiles the puzzle has. On a rectangular board only the half
turn maps solutions to solutions: ``c`` may stand on either top corner and the count is
half the raw count.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import tiles as T
from .puzzle import Hint, Puzzle


def symmetry_variants(puzzle: Puzzle) -> list[Puzzle]:
    """The puzzles whose solutions together are the solutions up to board rotation: the
    puzzle with ``c`` fixed on each allowed corner (one on a square board, two otherwise)."""
    if puzzle.hints:
        raise InputError("symmetry breaking needs a puzzle without hints (hints already fix the orientation)")
    corner_tile = int(np.flatnonzero(puzzle.kinds == T.CORNER)[0])
    width, height = puzzle.width, puzzle.height
    squares = [0] if width == height else [0, width - 1]
    return [
        puzzle.with_hints(
            [Hint(square, corner_tile, T.border_rotations(puzzle.tiles[corner_tile], square, width, height)[0])]
        )
        for square in squares
    ]


def divides_raw_count_by(puzzle: Puzzle) -> int:
    """What symmetry breaking divides the raw count by: 4 on square boards, 2 otherwise."""
    return 4 if puzzle.width == puzzle.height else 2
