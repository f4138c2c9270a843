"""The compiled second phase of the two-phase search: the backtracker over a batch of
rotation sets, each searched with its rotations fixed.

For every set the plan's candidate tables (built once, with every rotation and, with
parity, split by square colour) are filtered down to the one placement per tile that the
set allows, in one pass over ``cand`` (the tables keep their layout, so the plan's rows
still index them), and the list kernel of the backtracker
(:func:`..backtrack.kernel.exact_search`) searches the board from its hints.  Resumable
like that kernel: the batch position, the freshly-built flag and the search state live in
caller-owned arrays, so a node budget can stop it inside any set.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..backtrack.kernel import BUDGET, FINISHED, SOLUTIONS, exact_search


@njit(cache=True)
def restrict_tables(cand_full, starts_full, cand_colour, canon, rotations, colours, cand, starts):
    """Keep in every candidate list only the placements of each tile ``t`` that show the
    edges of rotation ``rotations[t]`` (``canon[p]`` is placement ``p``'s first rotation
    with the same edges: one placement, or with ``each_rotation`` all that look alike),
    and, where a list belongs to squares of one colour, only tiles of that colour."""
    written = 0
    for k in range(starts_full.shape[0] - 1):
        starts[k] = written
        for i in range(starts_full[k], starts_full[k + 1]):
            p = cand_full[i]
            t = p >> 2
            if canon[p] != rotations[t]:
                continue
            tone = cand_colour[i]
            if tone >= 0 and colours[t] != tone:
                continue
            cand[written] = p
            written += 1
    starts[starts_full.shape[0] - 1] = written


@njit(cache=True)
def search_sets(
    rotation_sets,
    colour_sets,
    n_sets,
    position,
    cand_full,
    starts_full,
    cand_colour,
    canon,
    pcol,
    order,
    rows,
    board0,
    used0,
    cand,
    starts,
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
    set_stats,
):
    """Search sets ``position[0] ..`` of the batch until the batch ends (FINISHED), the
    budget is spent (BUDGET) or solutions are wanted back (SOLUTIONS).

    ``position = [set index, fresh]``: ``fresh`` = 1 when the set's tables are still to be
    built.  ``set_stats = [sets searched to the end, of which with a solution, solutions
    of the set in progress]``.  Returns ``(nodes, leaves, rows_written, status)``.
    """
    nodes = np.int64(0)
    leaves = np.int64(0)
    written = 0
    depth = order.shape[0]
    while position[0] < n_sets:
        i = position[0]
        if position[1] == 1:
            restrict_tables(cand_full, starts_full, cand_colour, canon, rotation_sets[i], colour_sets[i], cand, starts)
            board[:] = board0
            used[:] = used0
            state[0] = 0
            state[1] = 0
            state[2] = depth
            state[3] = 1
            position[1] = 0
            set_stats[2] = 0
        wanted = np.int64(-1) if max_solutions < 0 else max_solutions - leaves
        n, found, w, status = exact_search(
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
            node_budget - nodes,
            wanted,
            out[written:],
            nodes_per_depth,
            checks,
            np.int64(0),  # placements, colours looked up in pcol (no packed codes)
            np.int64(-1),
        )
        nodes += n
        leaves += found
        written += w
        set_stats[2] += found
        if status == FINISHED:
            set_stats[0] += 1
            if set_stats[2] > 0:
                set_stats[1] += 1
            position[0] += 1
            position[1] = 1
            if out.shape[0] > 0 and written == out.shape[0]:
                return nodes, leaves, written, SOLUTIONS
            if max_solutions >= 0 and leaves >= max_solutions:
                return nodes, leaves, written, SOLUTIONS
            if nodes >= node_budget:
                return nodes, leaves, written, BUDGET
            continue
        return nodes, leaves, written, status
    return nodes, leaves, written, FINISHED
