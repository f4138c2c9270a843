"""The compiled exact search: count, first-k and enumerate, resumable.

One iterative loop with an explicit stack (``cur[d]``, ``end[d]``: the next candidate and
the end of the candidate list at each depth) and no recursion.  All state lives in arrays
owned by the caller, so the kernel can stop at any node and be called again to go on
exactly where it stopped.  Python uses that single mechanism for node budgets, time
limits, the progress line, Ctrl-C and draining the solution buffer: it calls the kernel
with a budget of nodes, looks at the clock, prints, and calls again.

Counts inside one call are int64 (2**63 nodes would take thousands of years at 10**8
nodes per second); the caller adds each call's counts to Python integers, so totals are
exact however long a search runs.

Entries of ``cand`` and ``board`` are packed codes or placements (see
:class:`.plan.KernelTables`): with codes, ``pcol`` is None and a colour is a shift and a
mask of the entry (:func:`colour`), the tile ``(code & pmask) >> 2``; with placements,
``pmask`` is -1 and colours are looked up in ``pcol``.  Numba compiles one kernel for each
form, with the other's code pruned.

The board holds the entries (placement ``tile * 4 + rotation``, or its code) of depths ``< d``; squares of
deeper depths may hold stale values (they are overwritten before they are read); hints
never change.

Speed notes: per-depth data is packed in one int64 row (see the ``P_*`` columns of
:mod:`.plan`) so that few arrays compete for registers, and indices are cast to unsigned
(``U``) where they are known to be non-negative, which drops Numba's negative-index
wraparound code from the hot loop; the look-up is written out inline.  Together these
took the kernel from about a third of the speed of the same loop in C to parity with it.
After placing a tile the kernel looks into the child's list at once: a child without a
free tile is a dead end known before descending (no used flag set and cleared), and a
child with one is entered with that tile, skipping a turn of the scanning loop.

Status codes returned: 0 finished (the subtree below the start depth is exhausted),
1 node budget used up, 2 solution buffer full or the requested number of solutions
reached.  ``state`` holds ``[depth, start_depth, leaf_depth, fresh]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba import uint64 as U

from .plan import P_BASE, P_CHK, P_KEY, P_NCHK, P_NKEY

FINISHED = 0
BUDGET = 1
SOLUTIONS = 2
TARGET = 3


@njit(inline="always")
def colour(pcol, entry, side, cmask):
    """Colour an entry shows on ``side`` (a bit shift when ``pcol`` is None: packed codes)."""
    if pcol is None:
        return (entry >> side) & cmask
    return pcol[U(entry * 4 + side)]


@njit(inline="always")
def placement(entry, pmask):
    """The placement of an entry (-1 stays -1)."""
    return entry if entry < 0 else entry & pmask


@njit(cache=True)
def key_range(rows, d, board, pcol, starts, cmask):
    """Candidate range ``(first, end)`` of row ``d``, from the colours of its key sides.

    Used outside the hot loop only: the loop repeats this code inline, because a call
    returning a tuple there cost about a third of the speed.
    """
    k = rows[U(d), P_BASE]
    n = rows[U(d), P_NKEY]
    if n > 0:
        k += colour(pcol, board[U(rows[U(d), P_KEY])], rows[U(d), P_KEY + 1], cmask) * rows[U(d), P_KEY + 2]
        if n > 1:
            k += colour(pcol, board[U(rows[U(d), P_KEY + 3])], rows[U(d), P_KEY + 4], cmask) * rows[U(d), P_KEY + 5]
            if n > 2:
                k += colour(pcol, board[U(rows[U(d), P_KEY + 6])], rows[U(d), P_KEY + 7], cmask) * rows[U(d), P_KEY + 8]
                if n > 3:
                    k += (
                        colour(pcol, board[U(rows[U(d), P_KEY + 9])], rows[U(d), P_KEY + 10], cmask)
                        * rows[U(d), P_KEY + 11]
                    )
    return starts[U(k)], starts[U(k + 1)]


@njit(cache=True, nogil=True)
def exact_search(
    cand,
    starts,
    pcol,
    order,
    rows,
    board,
    used,
    cur,
    end,
    state,
    node_budget,
    max_solutions,
    out,
    nodes_per_depth,
    checks,
    cmask,
    pmask,
):
    """Run until the subtree is exhausted, ``node_budget`` nodes are placed, or
    ``max_solutions`` leaves are reached (-1: no limit) or ``out`` is full.

    ``rows`` is the plan's phase-0 table (one packed row per depth).  Leaves are boards
    with ``leaf_depth`` squares of the order filled (the full order for solutions, fewer
    to enumerate the prefixes of a split).  When ``out`` has rows, each leaf's board
    (placement per square, -1 empty) is copied into the next row.
    ``checks`` is ``rows`` when some depth compares sides explicitly (key spaces too
    large for a table), else None: Numba then compiles the comparison away.
    Returns ``(nodes, leaves, rows_written, status)``.
    """
    d = state[0]
    start = state[1]
    last = state[2] - 1
    if state[3] == 1:
        cur[U(d)], end[U(d)] = key_range(rows, d, board, pcol, starts, cmask)
        state[3] = 0
    record = out.shape[0] > 0
    nodes = np.int64(0)
    leaves = np.int64(0)
    written = 0
    n_squares = board.shape[0]
    while True:
        i = cur[U(d)]
        hi = end[U(d)]
        found = -1
        n_check = rows[U(d), P_NCHK]
        while i < hi:
            p = cand[U(i)]
            i += 1
            if used[U((p & pmask) >> 2)]:
                continue
            if checks is not None and n_check > 0:
                ok = True
                for c in range(n_check):
                    col = P_CHK + 4 * c
                    mine = colour(pcol, p, checks[U(d), col + 2], cmask)
                    theirs = colour(pcol, board[U(checks[U(d), col])], checks[U(d), col + 1], cmask)
                    if mine != theirs:
                        ok = False
                        break
                if not ok:
                    continue
            found = p
            break
        if found < 0:
            if d == start:
                state[0] = d
                return nodes, leaves, written, FINISHED
            d -= 1
            used[U((board[U(order[U(d)])] & pmask) >> 2)] = 0
            continue
        cur[U(d)] = i
        # Place ``found`` at d; while the child's list yields a free tile at once, go
        # straight down with it, without a turn of the scanning loop above.
        while True:
            nodes += 1
            nodes_per_depth[U(d)] += 1
            if d == last:
                leaves += 1
                if record:
                    square = order[U(d)]
                    board[U(square)] = found
                    for s in range(n_squares):
                        out[U(written), U(s)] = placement(board[U(s)], pmask)
                    board[U(square)] = -1
                    written += 1
                    if written == out.shape[0]:
                        state[0] = d
                        return nodes, leaves, written, SOLUTIONS
                if max_solutions >= 0 and leaves >= max_solutions:
                    state[0] = d
                    return nodes, leaves, written, SOLUTIONS
                if nodes >= node_budget:
                    state[0] = d
                    return nodes, leaves, written, BUDGET
                break
            board[U(order[U(d)])] = found
            e = d + 1
            k = rows[U(e), P_BASE]
            n = rows[U(e), P_NKEY]
            if n > 0:
                k += colour(pcol, board[U(rows[U(e), P_KEY])], rows[U(e), P_KEY + 1], cmask) * rows[U(e), P_KEY + 2]
                if n > 1:
                    k += (
                        colour(pcol, board[U(rows[U(e), P_KEY + 3])], rows[U(e), P_KEY + 4], cmask)
                        * rows[U(e), P_KEY + 5]
                    )
                    if n > 2:
                        k += (
                            colour(pcol, board[U(rows[U(e), P_KEY + 6])], rows[U(e), P_KEY + 7], cmask)
                            * rows[U(e), P_KEY + 8]
                        )
                        if n > 3:
                            k += (
                                colour(pcol, board[U(rows[U(e), P_KEY + 9])], rows[U(e), P_KEY + 10], cmask)
                                * rows[U(e), P_KEY + 11]
                            )
            first = starts[U(k)]
            after = starts[U(k + 1)]
            # Descend only if the child's list holds a tile still free (``found``'s own
            # tile counts as taken): otherwise the child is a dead end known now, so the
            # tile is never marked used and the search stays at depth d (the node is
            # placed and counted all the same).
            t = (found & pmask) >> 2
            while first < after:
                q = (cand[U(first)] & pmask) >> 2
                if not used[U(q)] and q != t:
                    break
                first += 1
            if first >= after:
                if nodes >= node_budget:
                    state[0] = d
                    return nodes, leaves, written, BUDGET
                break
            used[U(t)] = 1
            d = e
            end[U(d)] = after
            cur[U(d)] = first
            if nodes >= node_budget:
                state[0] = d
                return nodes, leaves, written, BUDGET
            if checks is not None and rows[U(d), P_NCHK] > 0:
                break  # the scanning loop applies the explicit side checks
            found = cand[U(first)]
            cur[U(d)] = first + 1
