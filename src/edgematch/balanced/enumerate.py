"""Every balanced rotation set of a puzzle, one after the other, from a compiled search.

:func:`balanced_batch` is a depth-first search over the tiles in the order of
:mod:`.tables`: each tile takes its options in turn (those of ``tile_options``), and a
branch is cut as soon as a square class is full, or some colour's imbalance is beyond
what the tiles still to come can make up (``rem_lo`` / ``rem_hi`` per dimension,
``rem_sides`` for the sum of a colour's dimensions), or a class can no longer be filled by
them (``able``).  Only the dimensions, classes and colours that the tile just given an
option can change are checked (see ``check_dims``): the rest were checked above.

Like the backtracker's kernel (``engines/backtrack/kernel.py``) it keeps all its state in
caller-owned arrays (the *cursor*) and stops when its output rows are full or a node
budget is spent, so a caller resumes it batch after batch; the order of the sets is
fixed by the puzzle alone.  Another compiled kernel can consume the sets as arrays: the
two-phase solver calls :func:`balanced_batch` for a batch of rows (rotation and square
colour of every tile, indexed by tile) and searches them.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from ..model.puzzle import Puzzle
from ..model.rotation_sets import RotationSet
from .tables import BalanceTables, build_tables

FINISHED = 0
BUDGET = 1
FULL = 2

#: Rotation sets produced per kernel call by :func:`iter_balanced`.
BATCH = 4096
#: Nodes per kernel call when only counting (the call returns to Python that often).
COUNT_BUDGET = 1 << 26


def kernel_tables(tables: BalanceTables) -> tuple:
    """The arrays :func:`balanced_batch` reads, in its order."""
    return (
        tables.order,
        tables.opt_start,
        tables.opt_rotation,
        tables.opt_colour,
        tables.opt_class,
        tables.opt_changes,
        tables.opt_dims,
        tables.opt_values,
        tables.rem_lo,
        tables.rem_hi,
        tables.caps,
        tables.able,
        tables.check_dims_start,
        tables.check_dims,
        tables.check_classes_start,
        tables.check_classes,
        tables.rem_sides,
        tables.check_colours_start,
        tables.check_colours,
        np.int64(tables.per_colour),
    )


def new_cursor(tables: BalanceTables) -> tuple:
    """Fresh search state for :func:`balanced_batch`: ``(choice, imbalance, filled,
    state)``; ``choice[d]`` is the next option to try at depth ``d``, ``state`` is
    ``[depth, fresh, done]``."""
    n = tables.n_tiles
    return (
        np.zeros(n + 1, dtype=np.int64),
        np.zeros(tables.n_dims, dtype=np.int64),
        np.zeros(tables.n_classes, dtype=np.int64),
        np.array([0, 1, 0], dtype=np.int64),
    )


@njit(cache=True)
def balanced_batch(tables, cursor, node_budget, out_rotations, out_colours):
    """Go on with the search until ``out_rotations`` is full (FULL), ``node_budget``
    options have been tried (BUDGET) or every set has been produced (FINISHED).

    Each set found fills the next row of ``out_rotations`` and ``out_colours`` (indexed by
    tile; colours are -1 without parity); with zero rows the sets are only counted.
    Returns ``(sets, nodes, status)``.
    """
    (
        order,
        opt_start,
        opt_rotation,
        opt_colour,
        opt_class,
        opt_changes,
        opt_dims,
        opt_values,
        rem_lo,
        rem_hi,
        caps,
        able,
        dims_start,
        dims,
        classes_start,
        classes,
        rem_sides,
        colours_start,
        colours,
        per,
    ) = tables
    choice, imbalance, filled, state = cursor
    n = order.shape[0]
    record = out_rotations.shape[0] > 0
    found = np.int64(0)
    nodes = np.int64(0)
    if state[2] == 1:
        return found, nodes, FINISHED
    if state[1] == 1:
        state[1] = 0
        imbalance[:] = 0
        filled[:] = 0
        feasible = caps.sum() == n
        for j in range(rem_lo.shape[1]):
            if rem_lo[0, j] > 0 or rem_hi[0, j] < 0:
                feasible = False
        for k in range(caps.shape[0]):
            if able[0, k] < caps[k]:
                feasible = False
        for c in range(rem_sides.shape[1]):
            if rem_sides[0, c] % 2 == 1:
                feasible = False
        for d in range(n):
            if opt_start[d + 1] == opt_start[d]:
                feasible = False
        if not feasible or n == 0:
            state[2] = 1
            return found, nodes, FINISHED
        state[0] = 0
        choice[0] = opt_start[0]
    d = state[0]
    while True:
        o = choice[d]
        if o == opt_start[d + 1]:
            if d == 0:
                state[0] = 0
                state[2] = 1
                return found, nodes, FINISHED
            d -= 1
            u = choice[d] - 1
            for i in range(opt_changes[u]):
                imbalance[opt_dims[u, i]] -= opt_values[u, i]
            filled[opt_class[u]] -= 1
            continue
        choice[d] = o + 1
        k = opt_class[o]
        if filled[k] >= caps[k]:
            continue
        nodes += 1
        for i in range(opt_changes[o]):
            imbalance[opt_dims[o, i]] += opt_values[o, i]
        filled[k] += 1
        ok = True
        for i in range(dims_start[d], dims_start[d + 1]):
            j = dims[i]
            if imbalance[j] + rem_lo[d + 1, j] > 0 or imbalance[j] + rem_hi[d + 1, j] < 0:
                ok = False
                break
        if ok:
            for i in range(classes_start[d], classes_start[d + 1]):
                c = classes[i]
                if caps[c] - filled[c] > able[d + 1, c]:
                    ok = False
                    break
        if ok:
            for i in range(colours_start[d], colours_start[d + 1]):
                c = colours[i]
                spread = 0
                for j in range(c * per, c * per + per):
                    spread += abs(imbalance[j])
                if spread > rem_sides[d + 1, c]:
                    ok = False
                    break
        if ok and d < n - 1:
            d += 1
            choice[d] = opt_start[d]
            if nodes >= node_budget:
                state[0] = d
                return found, nodes, BUDGET
            continue
        if ok:
            if record:
                for e in range(n):
                    t = order[e]
                    chosen = choice[e] - 1
                    out_rotations[found, t] = opt_rotation[chosen]
                    out_colours[found, t] = opt_colour[chosen]
            found += 1
        for i in range(opt_changes[o]):
            imbalance[opt_dims[o, i]] -= opt_values[o, i]
        filled[k] -= 1
        if record and found == out_rotations.shape[0]:
            state[0] = d
            return found, nodes, FULL
        if nodes >= node_budget:
            state[0] = d
            return found, nodes, BUDGET


class BalancedBatches:
    """The balanced rotation sets of a puzzle, a batch of arrays at a time (resumable).

    ``next_batch()`` returns ``(rotations, colours)``, each ``(sets, n_tiles)`` int64 and
    indexed by tile (colours -1 without parity), empty once every set has been produced.
    The arrays are reused by the next call: copy what you keep.  ``nodes`` counts the
    options tried so far.
    """

    def __init__(self, puzzle: Puzzle, parity: bool = False, batch: int = BATCH):
        if batch < 1:
            raise ValueError("batch must be at least 1")
        self.puzzle = puzzle
        self.parity = bool(parity)
        self.tables = build_tables(puzzle, self.parity)
        self.arrays = kernel_tables(self.tables)
        self.cursor = new_cursor(self.tables)
        self.rotations = np.empty((batch, self.tables.n_tiles), dtype=np.int64)
        self.colours = np.empty((batch, self.tables.n_tiles), dtype=np.int64)
        self.nodes = 0

    @property
    def finished(self) -> bool:
        return bool(self.cursor[3][2] == 1)

    def next_batch(self, node_budget: int = 1 << 62) -> tuple[np.ndarray, np.ndarray]:
        """Up to ``batch`` more sets (fewer when the search ends or ``node_budget`` is
        spent first; then call again)."""
        found, nodes, _ = balanced_batch(self.arrays, self.cursor, node_budget, self.rotations, self.colours)
        self.nodes += int(nodes)
        return self.rotations[:found], self.colours[:found]

    def count(self) -> int:
        """How many sets the search still has to produce (it runs to its end)."""
        empty = np.empty((0, self.tables.n_tiles), dtype=np.int64)
        total = 0
        while not self.finished:
            found, nodes, _ = balanced_batch(self.arrays, self.cursor, COUNT_BUDGET, empty, empty)
            total += int(found)
            self.nodes += int(nodes)
        return total


def iter_balanced(puzzle: Puzzle, parity: bool = False, batch: int = BATCH) -> Iterator[RotationSet]:
    """Every balanced rotation set of ``puzzle`` that fits the board, each once, in a
    fixed order (with ``parity`` every tile also gets its square colour); produced
    ``batch`` at a time by the compiled :func:`balanced_batch`."""
    batches = BalancedBatches(puzzle, parity, batch)
    while not batches.finished:
        rotations, colours = batches.next_batch()
        for row in range(len(rotations)):
            yield RotationSet(puzzle, rotations[row].copy(), colours[row].copy() if parity else None)


def count_enumerated(puzzle: Puzzle, parity: bool = False) -> int:
    """The number of balanced rotation sets, by running the search to its end without
    recording them (a check of :func:`~.counting.count_balanced`, feasible while the sets
    number some hundred million)."""
    return BalancedBatches(puzzle, parity, 1).count()


__all__ = [
    "BATCH",
    "BUDGET",
    "FINISHED",
    "FULL",
    "BalancedBatches",
    "balanced_batch",
    "count_enumerated",
    "iter_balanced",
    "kernel_tables",
    "new_cursor",
]
