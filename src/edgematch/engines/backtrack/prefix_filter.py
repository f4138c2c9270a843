"""Candidate lists without the tiles of the search's settled prefix: the same tree, read faster.

Deep in a long search the first depths hardly ever change: on e2 the best search keeps a
prefix of 100-200 tiles for seconds while it searches below it.  Every candidate list still
holds those tiles, and the kernel reads each and rejects it as used, a load and a
mispredicted branch per entry.  Between two slices the driver looks at the depths the
last slice placed tiles at: those below the shallowest one did not change, so they are
taken as settled and the next slice runs on a copy of the tables without their tiles
(libblackwood's adaptive filter does the same between heartbeats).  The kernel is the
same; it gets the filtered tables and the first settled depth as its start depth, so it
stops there instead of backtracking into the prefix, and the driver takes the step back
itself on the full tables.  An entry removed from a list is a tile the kernel would have
skipped as used, so nodes, nodes per depth and every count stay identical (tests).

Between slices every index of the search state (``cur``, ``end``) is an index of the full
tables, so whatever reads the state between slices (checkpoints, splits) sees the same
thing as without the filter.  Measured on one core: ``search e2 --order e2path --schedule
julia:470`` for 40 s, 75.3 to 79.1 million nodes per second (the prototype of this module:
70.0 to 79.9 over the first 2e9 nodes, 74.0 to 78.0 over 3e9); e2dev/bench-hard (row scan,
exact, 1e9 nodes): 97.9 to 101.6.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba import uint64 as U

from .best_kernel import phase_range

#: settled depths end this many depths above the shallowest one the last slice placed at.
#: 0, because a slice that backtracks into its filtered prefix costs only a restart, while
#: each depth left unfiltered costs every slice the reads of its used tiles (a margin of 8
#: took 5.6 % more time on e2 and 6.1 % on e2dev/bench-hard; docs/backtracking.md)
MARGIN = 0
#: filter only when at least this many depths are settled (a copy of the tables for a few
#: tiles fewer is not worth making)
MIN_SETTLED = 8
#: the filter can be switched off (benchmarks measure both)
ENABLED = True


@njit(cache=True)
def full_ranges(phases, phase, lo, hi, board, pcol, starts, cmask, position, cur, end):
    """Turn ``cur`` / ``end`` of depths ``lo .. hi`` from filtered indices back into indices
    of the full tables: each depth's list is looked up again from the board, the next
    entry to try becomes its position in the full list, or the list's end when none is
    left.  ``phase[q]`` is 0 wherever the best kernel runs without phases (its phase stack
    starts at zeros and only the phased loop writes other values)."""
    for q in range(lo, hi + 1):
        after = phase_range(phases, q, phase[U(q)], board, pcol, starts, cmask)[1]
        if cur[U(q)] < end[U(q)]:
            cur[U(q)] = position[U(cur[U(q)])]
        else:
            cur[U(q)] = after
        end[U(q)] = after


@njit(cache=True)
def first_placed(placed_per_depth) -> int:
    """The shallowest depth with nodes (-1: none)."""
    for d in range(placed_per_depth.shape[0]):
        if placed_per_depth[d]:
            return d
    return -1


@njit(cache=True)
def same_tiles(board, order, floor, pmask, tiles) -> bool:
    """True when the first ``floor`` depths hold ``tiles``."""
    if tiles.shape[0] != floor:
        return False
    for d in range(floor):
        if (board[order[d]] & pmask) >> 2 != tiles[d]:
            return False
    return True


@njit(cache=True)
def without_tiles(board, order, floor, pmask, tiles_of, n_tiles, cand, starts):
    """The tables without the tiles of the first ``floor`` depths: ``(tiles, kept_before,
    position, cand, starts)``, ``kept_before[q]`` the entries kept before entry ``q`` (a
    full index turned filtered) and ``position`` the full index of each kept entry."""
    tiles = np.empty(floor, np.int64)
    settled = np.zeros(n_tiles, np.bool_)
    for d in range(floor):
        tiles[d] = (board[order[d]] & pmask) >> 2
        settled[tiles[d]] = True
    n = cand.shape[0]
    kept_before = np.empty(n + 1, np.int64)
    k = 0
    for q in range(n):
        kept_before[q] = k
        if not settled[tiles_of[q]]:
            k += 1
    kept_before[n] = k
    position = np.empty(k, np.int64)
    kept = np.empty(k, cand.dtype)
    for q in range(n):
        if kept_before[q + 1] > kept_before[q]:
            position[kept_before[q]] = q
            kept[kept_before[q]] = cand[q]
    kept_starts = np.empty(starts.shape[0], np.int64)
    for i in range(starts.shape[0]):
        kept_starts[i] = kept_before[starts[i]]
    return tiles, kept_before, position, kept, kept_starts


@njit(cache=True)
def to_filtered(cur, end, lo, hi, kept_before) -> None:
    """Turn ``cur`` / ``end`` of depths ``lo .. hi`` from full indices into filtered ones."""
    for q in range(lo, hi + 1):
        cur[q] = kept_before[cur[q]]
        end[q] = kept_before[end[q]]


class PrefixFilter:
    """Filtered tables for one run of a list kernel, slice by slice.

    ``phases`` is the plan's phase array in kernel form (``(D, P, P_WIDTH)``; the exact
    kernel's rows as ``rows[:, None, :]``) and ``phase`` the kernel's phase stack (zeros for
    the exact kernel): they say which list each depth is reading.
    """

    def __init__(self, tables, order, n_tiles, phases, phase, align: tuple[int, int] | None = None) -> None:
        self.tables = tables
        #: ``(base, step)``: settled prefixes end at ``base + k * step`` (the generated
        #: kernel starts only at its functions' first depths)
        self.align = align
        self.order = order
        self.n_tiles = n_tiles
        self.phases = phases
        self.phase = phase
        self.tiles_of = (tables.cand & tables.pmask) >> 2
        self.floor = -1  # the first settled depth of the running slice (-1: not filtered)
        self.start = -1  # the run's own start depth, while the kernel has the floor as its start
        self.slices = 0  # slices run filtered
        self.fell_back = 0  # of them, slices that backtracked into the settled prefix
        #: the last filtering, as :func:`without_tiles` gives it: (settled tiles, kept_before,
        #: position, cand, starts); its floor is the number of settled tiles
        self.last: tuple | None = None

    def note(self, statistics: dict) -> None:
        """Add this slice's use of the filter to a search's statistics."""
        if self.slices:
            statistics["prefix_filtered_slices"] = statistics.get("prefix_filtered_slices", 0) + self.slices
            statistics["prefix_fallbacks"] = statistics.get("prefix_fallbacks", 0) + self.fell_back
            self.slices = self.fell_back = 0

    def enter(self, board, cur, end, state, placed_per_depth):
        """The ``(cand, starts)`` for the next slice; when they are filtered, the kernel's
        start depth (``state[1]``) is the first settled depth until :meth:`leave`.

        ``placed_per_depth`` holds the last slice's nodes per depth.  The state's indices
        of the settled depths and above stay those of the full tables."""
        self.floor = -1
        placed = first_placed(placed_per_depth) if ENABLED else -1
        if placed < 0 or state[3] == 1:
            return self.tables.cand, self.tables.starts
        depth = int(state[0])
        start = int(state[1])
        floor = min(placed - MARGIN, depth)
        if self.align is not None:
            base, step = self.align
            floor = base + (floor - base) // step * step
        if floor < start + MIN_SETTLED:
            return self.tables.cand, self.tables.starts
        tables = self.tables
        pmask = np.int64(tables.pmask)
        last = self.last
        if last is None or not same_tiles(board, self.order, floor, pmask, last[0]):
            # the same prefix next slice gives the same arrays, objects included, so that a
            # kernel holding a copy of them (the generated one) need not copy them again
            last = self.last = without_tiles(
                board, self.order, floor, pmask, self.tiles_of, self.n_tiles, tables.cand, tables.starts
            )
        to_filtered(cur, end, floor, depth, last[1])
        self.floor = floor
        self.start = start
        state[1] = floor
        self.slices += 1
        return last[3], last[4]

    def leave(self, board, used, cur, end, state, finished: bool, clear: bool) -> bool:
        """Bring the state back to the full tables after a slice; True when the slice ended
        only because it exhausted the first settled depth (the run goes on).

        Then the driver takes the kernel's step back: the square is emptied when ``clear``
        (the best kernel keeps deeper squares empty), the tile of the depth above is
        freed, and the search continues from there on the full tables."""
        floor = self.floor
        if floor < 0:
            return False
        self.floor = -1
        state[1] = self.start
        depth = int(state[0])
        if finished:
            self.fell_back += 1
            if clear:
                board[self.order[floor]] = -1
            depth = floor - 1
            used[(board[self.order[depth]] & self.tables.pmask) >> 2] = 0
            state[0] = depth
            return True
        assert self.last is not None  # enter filtered this slice (floor >= 0)
        tables = self.tables
        full_ranges(
            self.phases,
            self.phase,
            floor,
            depth,
            board,
            tables.pcol,
            tables.starts,
            np.int64(tables.cmask),
            self.last[2],  # the kept entries' positions in the full tables
            cur,
            end,
        )
        return False
