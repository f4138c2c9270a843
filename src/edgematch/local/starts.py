"""Starting boards for local search: random, and completion of partial boards.

Local search needs a complete board whose tiles stand on squares of their own kind with
grey facing outside (see :mod:`.state`).  :func:`random_start` draws one uniformly among
those (hints in place); :func:`complete_randomly` fills the empty squares of a partial
board (the deepest board of a search that found no solution) with the remaining tiles.
The CP-based start is in :mod:`.relaxed`, the backtracking one in :mod:`.backtrack_start`.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..model import EMPTY, Board, Puzzle
from ..model.squares import square_name
from .tables import build_tables


def _generator(rng) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def square_kinds(puzzle: Puzzle) -> np.ndarray:
    """Number of outer sides of every square (0 inner, 1 edge, 2 corner)."""
    t = build_tables(puzzle)
    return (t.neighbours < 0).sum(axis=1)


def complete_randomly(board: Board, rng=None) -> Board:
    """A copy of ``board`` with every empty square filled by an unused tile of its kind,
    at random, in a rotation that fits the border (hints are placed if missing).

    Raises :class:`InputError` when the placed tiles leave no tile of the right kind for
    some empty square (only possible when the board already misplaces a tile's kind).
    """
    rng = _generator(rng)
    puzzle = board.puzzle
    t = build_tables(puzzle)
    result = board.copy()
    for h in puzzle.hints:
        if result.tiles[h.square] == EMPTY and h.tile not in set(result.tiles.tolist()):
            result.place(h.square, h.tile, h.rotation)
    used = np.zeros(puzzle.n_tiles, dtype=bool)
    used[result.tiles[result.tiles != EMPTY]] = True
    kinds = square_kinds(puzzle)
    tile_kinds = np.minimum(puzzle.kinds.astype(np.int64), 2)
    for kind in (2, 1, 0):
        holes = np.flatnonzero((result.tiles == EMPTY) & (kinds == kind))
        free = np.flatnonzero(~used & (tile_kinds == kind))
        if len(free) < len(holes):
            raise InputError(
                f"cannot complete the board: {len(holes)} empty squares of kind {kind} "
                f"(first {square_name(int(holes[0]), puzzle.width)}) but {len(free)} unused tiles fit"
            )
        chosen = rng.permutation(free)[: len(holes)]
        for q, tile in zip(holes, chosen):
            fits = np.flatnonzero((t.fit[tile, t.outer_mask[q]] >> np.arange(4)) & 1)
            if not len(fits):
                raise InputError(f"tile {tile + 1} fits no rotation on {square_name(int(q), puzzle.width)}")
            result.place(int(q), int(tile), int(rng.choice(fits)))
            used[tile] = True
    return result


def random_start(puzzle: Puzzle, rng=None) -> Board:
    """A random complete board: hints placed, every other tile on a random square of its
    kind (corner, edge, inner) in a random rotation that shows grey outside."""
    return complete_randomly(Board.from_hints(puzzle), rng)
