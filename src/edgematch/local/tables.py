"""Precomputed arrays of a puzzle that every local-search kernel reads.

Local search makes millions of moves; each must touch only small arrays that Numba can
index directly.  :class:`Tables` computes them once per puzzle:

* ``rotated[t, r, s]``: colour shown on side ``s`` of tile ``t`` after ``r`` quarter turns
  (the convention of :mod:`edgematch.model.tiles`: ``numpy.roll(tile, r)``);
* ``neighbours[q, s]``: the square across side ``s`` of square ``q`` (-1 outside);
* ``outer_mask[q]``: bit ``s`` set when side ``s`` of ``q`` faces the outside;
* ``fit[t, mask]``: bit ``r`` set when tile ``t`` in rotation ``r`` shows grey on exactly
  the sides in ``mask``.  This is how border pieces are kept on the border with grey
  outside: a (piece, square) pair with no fitting rotation is never offered;
* ``fixed[q]``: the square holds a hint (its tile never moves);
* ``inner_sides[q]``: the number of sides of ``q`` that face another square (the most
  joins a tile there can match).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import Puzzle
from ..model import tiles as T


@dataclass(frozen=True)
class Tables:
    puzzle: Puzzle
    rotated: np.ndarray  # (n_tiles, 4, 4) int32
    neighbours: np.ndarray  # (n_squares, 4) int32
    outer_mask: np.ndarray  # (n_squares,) int32
    fit: np.ndarray  # (n_tiles, 16) int32 bitmask of rotations
    fixed: np.ndarray  # (n_squares,) bool
    inner_sides: np.ndarray  # (n_squares,) int32
    parity: np.ndarray  # (n_squares,) int32: (row + col) % 2, the checkerboard colour

    @property
    def n_squares(self) -> int:
        return self.puzzle.n_squares

    @property
    def width(self) -> int:
        return self.puzzle.width


def build_tables(puzzle: Puzzle) -> Tables:
    """The arrays above for ``puzzle`` (cached on the puzzle object)."""
    cached = getattr(puzzle, "_local_tables", None)
    if cached is not None:
        return cached
    W, H = puzzle.width, puzzle.height
    n = puzzle.n_squares
    tiles = np.asarray(puzzle.tiles, dtype=np.int32)
    rotated = np.ascontiguousarray(T.rotated_table(tiles).astype(np.int32))

    rows, cols = np.divmod(np.arange(n), W)
    neighbours = np.full((n, 4), -1, dtype=np.int32)
    neighbours[:, T.N] = np.where(rows > 0, np.arange(n) - W, -1)
    neighbours[:, T.E] = np.where(cols < W - 1, np.arange(n) + 1, -1)
    neighbours[:, T.S] = np.where(rows < H - 1, np.arange(n) + W, -1)
    neighbours[:, T.W] = np.where(cols > 0, np.arange(n) - 1, -1)
    outside = neighbours < 0
    outer_mask = (outside * (1 << np.arange(4))).sum(axis=1).astype(np.int32)

    grey = rotated == T.GREY  # (n_tiles, 4 rot, 4 sides)
    grey_mask = (grey * (1 << np.arange(4))).sum(axis=2)  # (n_tiles, 4 rot)
    fit = np.zeros((len(tiles), 16), dtype=np.int32)
    for mask in range(16):
        fit[:, mask] = ((grey_mask == mask) * (1 << np.arange(4))).sum(axis=1)

    fixed = np.zeros(n, dtype=np.bool_)
    for h in puzzle.hints:
        fixed[h.square] = True
    tables = Tables(
        puzzle=puzzle,
        rotated=rotated,
        neighbours=neighbours,
        outer_mask=outer_mask,
        fit=fit,
        fixed=fixed,
        inner_sides=(~outside).sum(axis=1).astype(np.int32),
        parity=((rows + cols) % 2).astype(np.int32),
    )
    try:
        object.__setattr__(puzzle, "_local_tables", tables)
    except AttributeError:  # pragma: no cover - a puzzle type without a __dict__
        pass
    return tables
