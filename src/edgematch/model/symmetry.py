"""Symmetry breaking by board rotation, shared by every exact engine.

A raw count treats a whole-board rotation of a solution as another solution. Fixing the
lowest-numbered corner tile ``c`` on the top-left corner (square boards) leaves exactly one
of the four rotations of every solution, so the count divides the raw count by exactly 4,
whatever symmetric or duplicate tiles the puzzle has. On a rectangular board only the half
turn maps solutions to solutions: ``c`` may stand on either top corner and the count is
half the raw count.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..errors import InputError
from . import tiles as T
from .board import EMPTY, Board
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


# ---------------------------------------------------------------------- whole-board turns
def board_turns(puzzle: Puzzle) -> list[int]:
    """The quarter turns that map the board onto a board of the same size: all four on a
    square board, none and the half turn otherwise."""
    return [0, 1, 2, 3] if puzzle.width == puzzle.height else [0, 2]


def turn_square(square: int, width: int, height: int, turns: int) -> int:
    """Where ``square`` of a ``width`` x ``height`` board lies after the board is turned
    ``turns`` quarter turns clockwise (a quarter turn swaps width and height)."""
    for _ in range(turns % 4):
        row, col = divmod(square, width)
        square = col * height + (height - 1 - row)
        width, height = height, width
    return square


def turned_puzzle(puzzle: Puzzle, turns: int) -> Puzzle:
    """The puzzle with its board turned ``turns`` quarter turns clockwise: the same tiles,
    each hint on its turned square and turned with it.  Searching it with the same scan
    order is a different search of the same puzzle (the hints sit elsewhere along the
    order); :func:`turned_board` maps its boards back."""
    turns %= 4
    if turns == 0:
        return puzzle
    width, height = (puzzle.height, puzzle.width) if turns % 2 else (puzzle.width, puzzle.height)
    hints = [
        Hint(turn_square(h.square, puzzle.width, puzzle.height, turns), h.tile, (h.rotation + turns) % 4)
        for h in puzzle.hints
    ]
    return Puzzle(puzzle.tiles, width, height, hints, puzzle.name)


def turned_board(board: Board, target: Puzzle, turns: int) -> Board:
    """``board`` turned ``turns`` quarter turns clockwise, as a board of ``target`` (the
    turned puzzle, or the original one when turning back)."""
    source = board.puzzle
    tiles = np.full(target.n_squares, EMPTY, np.int32)
    rotations = np.zeros(target.n_squares, np.int8)
    placed = np.flatnonzero(board.tiles >= 0)
    moved = turned_squares(source.width, source.height, turns % 4)[placed]
    tiles[moved] = board.tiles[placed]
    rotations[moved] = (board.rotations[placed].astype(np.int64) + turns) % 4
    return Board(target, tiles, rotations)


@lru_cache(maxsize=64)
def turned_squares(width: int, height: int, turns: int) -> np.ndarray:
    """Where each square goes when the board turns (:func:`turn_square` for all, once per
    board size: a search saving thousands of boards a second turns each one back)."""
    moved = np.array([turn_square(s, width, height, turns) for s in range(width * height)], np.int64)
    moved.setflags(write=False)
    return moved
