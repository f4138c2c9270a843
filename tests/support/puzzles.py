"""Planted puzzles: a random coloured grid cut into tiles, shuffled and turned.

Every planted puzzle has at least one solution (the grid it was cut from), so tests can
check a solver or a format against a board known to be right without running an engine.
The Hypothesis strategies draw such puzzles and (partial) boards of every shape.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from edgematch import Board, Puzzle


def planted(width: int, height: int, colours: int, seed: int, hints: int = 0, empty: float = 0.0,
            name: str | None = None):
    """``(puzzle, board)``: a random ``width`` x ``height`` puzzle and its planted solution.

    ``hints`` squares of the solution become hints; each other square is left empty with
    probability ``empty`` (so ``empty=0`` gives the complete solution).
    """
    rng = np.random.default_rng(seed)
    horizontal = rng.integers(1, colours + 1, size=(height, width + 1))
    vertical = rng.integers(1, colours + 1, size=(height + 1, width))
    horizontal[:, 0] = horizontal[:, -1] = 0
    vertical[0, :] = vertical[-1, :] = 0
    solved = np.array([(vertical[r, c], horizontal[r, c + 1], vertical[r + 1, c], horizontal[r, c])
                       for r in range(height) for c in range(width)])
    order = rng.permutation(width * height)  # tile order[i] goes on square i
    turns = rng.integers(0, 4, size=width * height)
    tiles = np.zeros_like(solved)
    for square, tile in enumerate(order):
        tiles[tile] = np.roll(solved[square], -turns[square])
    hinted = {int(sq): (int(order[sq]), int(turns[sq])) for sq in rng.choice(width * height, hints, replace=False)}
    puzzle = Puzzle(tiles, width, height, hinted, name=f"planted-{seed}" if name is None else name)
    board = Board(puzzle)
    for square in range(width * height):
        if square in hinted or rng.random() >= empty:
            board.place(square, int(order[square]), int(turns[square]))
    return puzzle, board


@st.composite
def puzzles(draw, min_side: int = 2, max_side: int = 8, hints: bool = True, square: bool = False,
            wide: bool = False, max_colours: int = 9):
    """Random valid puzzles: sides ``min_side``..``max_side`` (rectangular unless ``square``;
    W >= H if ``wide``), up to 3 hints."""
    width = draw(st.integers(min_side, max_side))
    height = width if square else draw(st.integers(min_side, width if wide else max_side))
    colours = draw(st.integers(1, max_colours))
    n_hints = draw(st.integers(0, 3)) if hints else 0
    seed = draw(st.integers(0, 2**32 - 1))
    return planted(width, height, colours, seed, n_hints, name=draw(st.sampled_from(["", "random", "a b"])))[0]


@st.composite
def boards(draw, min_side: int = 2, max_side: int = 8):
    """Random boards (complete or partial) of random planted puzzles."""
    width = draw(st.integers(min_side, max_side))
    height = draw(st.integers(min_side, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    empty = draw(st.sampled_from([0.0, 0.3, 1.0]))
    return planted(width, height, draw(st.integers(1, 9)), seed, empty=empty)[1]
