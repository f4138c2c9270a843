"""Verhaard's good group: tiles kept back for the last squares of the scan order.

A break-schedule search fails at the end of the board, where the tiles left over are
whatever the first 200-odd squares did not want.  Louis Verhaard's remedy was to choose
in advance a group of tiles that tile well together and to keep it for the end.  Here
the group has as many corner, edge and inner tiles as the last ``size`` squares of the
order need, and every candidate list tries its tiles last: the search uses them only
where no other tile fits, so that they are what is left when the end comes.  (Forbidding
them outright before the last squares was tried first: it breaks the colour balance of
the rest, so that the frame, which must match exactly, often cannot be closed:
docs/backtracking.md gives the scores.)

"Tile well together" is measured by the group's colour concentration: the sum over
colours of (sides of that colour in the group) squared, i.e. (up to a constant) the
number of pairs of equal sides the group can join among itself.  A hill climb from a
seeded random group swaps one tile in for one of the same kind while that sum grows, so
that every seed (every restart, every worker) keeps its own group.
"""

from __future__ import annotations

import numpy as np

from ...errors import InputError
from ...model import Puzzle
from ...model import tiles as T


def square_kinds(puzzle: Puzzle, squares: np.ndarray) -> np.ndarray:
    """The kind (:data:`~edgematch.model.tiles.INNER`, ``EDGE``, ``CORNER``) each square needs."""
    return np.array([T.square_kind(int(q), puzzle.width, puzzle.height) for q in squares], np.int64)


def colour_sides(puzzle: Puzzle) -> np.ndarray:
    """(tiles, colours): sides of each colour per tile, grey left out."""
    sides = np.zeros((puzzle.n_tiles, int(puzzle.tiles.max()) + 1), np.int64)
    np.add.at(sides, (np.repeat(np.arange(puzzle.n_tiles), 4), puzzle.tiles.reshape(-1)), 1)
    sides[:, T.GREY] = 0
    return sides


def concentration(puzzle: Puzzle, tiles) -> int:
    """The group's measure: sum over colours of its sides of that colour, squared."""
    return int((colour_sides(puzzle)[np.asarray(tiles, np.int64)].sum(axis=0) ** 2).sum())


def good_group(puzzle: Puzzle, squares: np.ndarray, size: int, seed: int | None) -> np.ndarray:
    """The tiles kept for the last ``size`` of ``squares`` (sorted tile ids)."""
    squares = np.asarray(squares, np.int64)
    if not 0 < size <= len(squares):
        raise InputError(f"the good group must keep 1..{len(squares)} tiles (the squares searched), not {size}")
    need = np.bincount(square_kinds(puzzle, squares[len(squares) - size :]), minlength=5)
    kinds = puzzle.kinds
    free = np.ones(puzzle.n_tiles, bool)
    for hint in puzzle.hints:
        free[hint.tile] = False
    rng = np.random.default_rng(0 if seed is None else seed)
    chosen = np.zeros(puzzle.n_tiles, bool)
    for kind in np.flatnonzero(need):
        pool = np.flatnonzero(free & (kinds == kind))
        if len(pool) < need[kind]:
            raise InputError(
                f"the good group needs {need[kind]} tiles with {kind} grey sides, the puzzle has {len(pool)}"
            )
        chosen[rng.choice(pool, size=int(need[kind]), replace=False)] = True
    sides = colour_sides(puzzle)
    total = sides[chosen].sum(axis=0)
    for _ in range(4 * puzzle.n_tiles):  # each pass takes the best swap; a few hundred at most
        best_gain, best_swap = 0, None
        for kind in np.flatnonzero(need):
            inside = np.flatnonzero(chosen & (kinds == kind))
            outside = np.flatnonzero(free & ~chosen & (kinds == kind))
            if not len(outside):
                continue
            diff = sides[outside][None, :, :] - sides[inside][:, None, :]  # (in, out, colours)
            gain = (diff**2 + 2 * total * diff).sum(axis=2)
            i, o = np.unravel_index(int(np.argmax(gain)), gain.shape)
            if gain[i, o] > best_gain:
                best_gain, best_swap = int(gain[i, o]), (inside[i], outside[o])
        if best_swap is None:
            break
        leaving, entering = best_swap
        chosen[leaving], chosen[entering] = False, True
        total += sides[entering] - sides[leaving]
    return np.flatnonzero(chosen)
