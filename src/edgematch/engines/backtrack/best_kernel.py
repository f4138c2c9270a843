"""The compiled best-score search: backtracking that tolerates invalid joins.

Same resumable, iterative design as :mod:`.kernel` (state in caller-owned arrays, node
budgets, status codes), plus:

* phases per depth (see :mod:`.plan`): exact fits first, then placements that mismatch
  one known side, two, ... as long as the cumulative number of invalid joins stays within
  ``allowed[d]`` (the schedule, already translated to search depths);
* the score of the current board (matched inner joins) kept incrementally; every
  improvement is copied into ``best_board`` and the search stops when it reaches
  ``target``;
* an optional colour-priority rule: a depth ``d`` may only be passed if the tiles placed
  so far carry at least ``prio_min[d]`` sides of the prioritised colours
  (``prio_w[tile]`` sides each).

``state`` holds ``[depth, start_depth, leaf_depth, fresh, best_score]``.  Unlike the
exact kernel, squares deeper than the current depth are kept empty (-1), so that a copy
of ``board`` is always a clean partial board.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba import uint64 as U

from .kernel import BUDGET, FINISHED, TARGET, colour, placement
from .plan import P_BASE, P_CHK, P_ERR, P_KEY, P_NCHK, P_NKEY


@njit(inline="always")
def first_fit(cand, first, after, used, taken, pmask, prio_w, placed_prio, need, prio_sorted):
    """The first entry of ``cand[first:after]`` whose tile is free (``taken`` counts as
    used: the tile about to be placed) and keeps the priority bound, or ``after``: the
    look into a child's list before descending, so that a dead child costs no descent."""
    while first < after:
        q = (cand[U(first)] & pmask) >> 2
        if prio_w is not None and placed_prio + prio_w[U(q)] < need:
            if prio_sorted:
                return after
            first += 1
            continue
        if not used[U(q)] and q != taken:
            return first
        first += 1
    return after


@njit(cache=True)
def endgame_cap(max_score, best_complete, floor):
    """The invalid joins the endgame's depths allow once the best complete board scores
    ``best_complete`` (-1: none yet): only better boards, or boards of at least ``floor``
    (the save threshold, so that they are all found), are completed."""
    return max_score - min(best_complete + 1, floor)


@njit(cache=True)
def phase_range(phases, d, j, board, pcol, starts, cmask):
    """Candidate range ``(first, end)`` of phase ``j`` at depth ``d`` (outside the hot loop;
    the loop has the same code inline, as in :mod:`.kernel`)."""
    k = phases[U(d), U(j), P_BASE]
    n = phases[U(d), U(j), P_NKEY]
    for i in range(n):
        col = P_KEY + 3 * i
        k += (
            colour(pcol, board[U(phases[U(d), U(j), col])], phases[U(d), U(j), col + 1], cmask)
            * phases[U(d), U(j), col + 2]
        )
    return starts[U(k)], starts[U(k + 1)]


@njit(cache=True, nogil=True)
def best_search(
    cand,
    starts,
    pcol,
    order,
    n_phases,
    phases,
    known_joins,
    allowed,
    prio_w,
    prio_min,
    board,
    used,
    cur,
    end,
    phase,
    err_stack,
    match_stack,
    prio_stack,
    state,
    best_board,
    node_budget,
    target,
    nodes_per_depth,
    rows0,
    checks0,
    cmask,
    pmask,
    prio_sorted,
    score_counts,
    saved,
    save_state,
    endgame,
):
    """Returns ``(nodes, complete_boards, status)``; the best score is ``state[4]``.

    ``endgame`` = ``[from_depth, max_score]``: depths from ``from_depth`` on are a branch
    and bound over the last squares.  Each complete board lowers ``allowed`` there to
    :func:`endgame_cap` (the save threshold ``save_state[1]`` as its floor), so that the
    rest of the search only completes better boards or boards worth saving.  A node whose
    errors exceed ``allowed`` takes nothing.  ``from_depth`` beyond the last depth: off.

    Every complete board adds one to ``score_counts[score]``; one scoring at least
    ``save_state[1]`` is also copied into row ``save_state[0]`` of ``saved`` (placement
    codes), and the slice ends (``BUDGET``) once ``saved`` is full, so that the caller
    takes the boards out before the search goes on.

    ``prio_sorted``: every list is sorted by ``prio_w``, largest first, so the first
    candidate below the priority bound ends its list (Blackwood's cut; the same tree as
    skipping every later candidate, which fails the bound too).

    ``prio_w`` is None when no colours are prioritised: Numba then compiles the
    priority test out of the candidate loop.  ``rows0`` is ``phases[:, 0, :]`` made
    contiguous (the exact prefix reads only those rows), and ``checks0`` is ``rows0`` when
    some exact look-up compares sides explicitly, else None (compiled out, as in
    :mod:`.kernel`).
    """
    d = state[0]
    start = state[1]
    last = state[2] - 1
    best = state[4]
    if state[3] == 1:
        phase[U(d)] = 0
        cur[U(d)], end[U(d)] = phase_range(phases, d, 0, board, pcol, starts, cmask)
        state[3] = 0
    nodes = np.int64(0)
    complete = np.int64(0)
    # The exact prefix: depths before the first one whose schedule allows an invalid join
    # (and before the leaf) can only take exact fits, so they run a loop as lean as the
    # exact kernel's: no phases, no error or score stacks to update (both are constants of
    # the depth there, filled in once below), and squares left stale behind the search
    # instead of cleared.  A copy of the board masks those stale squares.
    d0 = start
    if err_stack[U(start)] == 0:
        while d0 < last and allowed[U(d0)] == 0:
            d0 += 1
        for q in range(start + 1, d0 + 1):
            err_stack[U(q)] = 0
            match_stack[U(q)] = match_stack[U(q - 1)] + known_joins[U(q - 1)]
    # The prefix loop below is the exact kernel's loop (chained descent, dead children
    # known before descending) plus one comparison per node: ``e >= e_flag`` sends the
    # rare nodes (a new best score, the target, or the step into ``d0``, where invalid
    # joins start) to the slow branch.  Depths before ``e_flag`` can neither improve the
    # best score nor reach the target, and ``e_flag <= d0`` always.  Written this way
    # the best search on e2 (julia:470, where ~90% of nodes lie before d0) went from
    # about 44 to about 54 million nodes per second.
    e_flag = min(start + 1, d0)
    while e_flag < d0 and match_stack[U(e_flag)] <= best and match_stack[U(e_flag)] < target:
        e_flag += 1
    while True:
        if d < d0:
            i = cur[U(d)]
            hi = end[U(d)]
            found = -1
            while i < hi:
                p = cand[U(i)]
                i += 1
                t = (p & pmask) >> 2
                if used[U(t)]:
                    continue
                if prio_w is not None and prio_stack[U(d)] + prio_w[U(t)] < prio_min[U(d)]:
                    if prio_sorted:
                        i = hi
                        break
                    continue
                if checks0 is not None and checks0[U(d), P_NCHK] > 0:
                    ok = True
                    for c in range(checks0[U(d), P_NCHK]):
                        col = P_CHK + 4 * c
                        mine = colour(pcol, p, checks0[U(d), col + 2], cmask)
                        theirs = colour(pcol, board[U(checks0[U(d), col])], checks0[U(d), col + 1], cmask)
                        if (mine == theirs) != (checks0[U(d), col + 3] == 1):
                            ok = False
                            break
                    if not ok:
                        continue
                found = p
                break
            if found < 0:
                if d == start:
                    state[0] = d
                    return nodes, complete, FINISHED
                d -= 1
                used[U((board[U(order[U(d)])] & pmask) >> 2)] = 0
                continue
            cur[U(d)] = i
            while True:
                nodes += 1
                nodes_per_depth[U(d)] += 1
                board[U(order[U(d)])] = found
                e = d + 1
                k = rows0[U(e), P_BASE]
                n = rows0[U(e), P_NKEY]
                if n > 0:
                    k += (
                        colour(pcol, board[U(rows0[U(e), P_KEY])], rows0[U(e), P_KEY + 1], cmask)
                        * rows0[U(e), P_KEY + 2]
                    )
                    if n > 1:
                        k += (
                            colour(pcol, board[U(rows0[U(e), P_KEY + 3])], rows0[U(e), P_KEY + 4], cmask)
                            * rows0[U(e), P_KEY + 5]
                        )
                        if n > 2:
                            k += (
                                colour(pcol, board[U(rows0[U(e), P_KEY + 6])], rows0[U(e), P_KEY + 7], cmask)
                                * rows0[U(e), P_KEY + 8]
                            )
                            if n > 3:
                                k += (
                                    colour(pcol, board[U(rows0[U(e), P_KEY + 9])], rows0[U(e), P_KEY + 10], cmask)
                                    * rows0[U(e), P_KEY + 11]
                                )
                first = starts[U(k)]
                after = starts[U(k + 1)]
                t = (found & pmask) >> 2
                if e >= e_flag:
                    # rare: a new best score, the target, or the first depth that may err
                    matched = match_stack[U(e)]
                    if matched > best:
                        best = matched
                        state[4] = best
                        for s in range(board.shape[0]):
                            best_board[U(s)] = placement(board[U(s)], pmask)
                        for q in range(e, d0):
                            best_board[U(order[U(q)])] = -1
                    e_flag = min(e + 1, d0)
                    while e_flag < d0 and match_stack[U(e_flag)] <= best and match_stack[U(e_flag)] < target:
                        e_flag += 1
                    if e < d0:
                        placed_prio = 0 if prio_w is None else prio_stack[U(d)] + prio_w[U(t)]
                        first = first_fit(
                            cand, first, after, used, t, pmask, prio_w, placed_prio, prio_min[U(e)], prio_sorted
                        )
                        if first >= after:
                            if matched >= target:
                                state[0] = d
                                return nodes, complete, TARGET
                            if nodes >= node_budget:
                                state[0] = d
                                return nodes, complete, BUDGET
                            break
                    used[U(t)] = 1
                    if prio_w is not None:
                        prio_stack[U(e)] = prio_stack[U(d)] + prio_w[U(t)]
                    d = e
                    phase[U(d)] = 0
                    cur[U(d)] = first
                    end[U(d)] = after
                    if matched >= target:
                        state[0] = d
                        return nodes, complete, TARGET
                    if nodes >= node_budget:
                        state[0] = d
                        return nodes, complete, BUDGET
                    break
                placed_prio = 0 if prio_w is None else prio_stack[U(d)] + prio_w[U(t)]
                first = first_fit(cand, first, after, used, t, pmask, prio_w, placed_prio, prio_min[U(e)], prio_sorted)
                if first >= after:
                    if nodes >= node_budget:
                        state[0] = d
                        return nodes, complete, BUDGET
                    break
                used[U(t)] = 1
                if prio_w is not None:
                    prio_stack[U(e)] = prio_stack[U(d)] + prio_w[U(t)]
                d = e
                cur[U(d)] = first
                end[U(d)] = after
                if nodes >= node_budget:
                    state[0] = d
                    return nodes, complete, BUDGET
                if checks0 is not None and checks0[U(d), P_NCHK] > 0:
                    break
                found = cand[U(first)]
                cur[U(d)] = first + 1
            continue
        j = phase[U(d)]
        i = cur[U(d)]
        hi = end[U(d)]
        found = -1
        prio_before = prio_stack[U(d)]
        need = prio_min[U(d)]
        budget_left = allowed[U(d)] - err_stack[U(d)]
        if budget_left < 0:  # the endgame's bound fell below this board's errors
            i = hi
        elif j == 0 and phases[U(d), 0, P_NCHK] == 0:
            # The common case, exact fits looked up on every known side: a tight loop
            # like the exact kernel's (about 12% faster than the general loop below).
            while i < hi:
                p = cand[U(i)]
                i += 1
                if used[U((p & pmask) >> 2)]:
                    continue
                if prio_w is not None and prio_before + prio_w[U((p & pmask) >> 2)] < need:
                    if prio_sorted:
                        i = hi
                        break
                    continue
                found = p
                break
            if found < 0:
                i = hi
        while found < 0:
            n_check = phases[U(d), U(j), P_NCHK]
            while i < hi:
                p = cand[U(i)]
                i += 1
                t = (p & pmask) >> 2
                if used[U(t)]:
                    continue
                if prio_w is not None and prio_before + prio_w[U(t)] < need:
                    if prio_sorted:
                        i = hi
                        break
                    continue
                if n_check > 0:
                    ok = True
                    for c in range(n_check):
                        col = P_CHK + 4 * c
                        mine = colour(pcol, p, phases[U(d), U(j), col + 2], cmask)
                        theirs = colour(pcol, board[U(phases[U(d), U(j), col])], phases[U(d), U(j), col + 1], cmask)
                        if (mine == theirs) != (phases[U(d), U(j), col + 3] == 1):
                            ok = False
                            break
                    if not ok:
                        continue
                found = p
                break
            if found >= 0:
                break
            j += 1
            if j >= n_phases[U(d)] or phases[U(d), U(j), P_ERR] > budget_left:
                break
            k = phases[U(d), U(j), P_BASE]
            for q in range(phases[U(d), U(j), P_NKEY]):
                col = P_KEY + 3 * q
                k += (
                    colour(pcol, board[U(phases[U(d), U(j), col])], phases[U(d), U(j), col + 1], cmask)
                    * phases[U(d), U(j), col + 2]
                )
            i = starts[U(k)]
            hi = starts[U(k + 1)]
        if found >= 0:
            cur[U(d)] = i
            end[U(d)] = hi
            phase[U(d)] = j
            nodes += 1
            nodes_per_depth[U(d)] += 1
            errs = phases[U(d), U(j), P_ERR]
            errors = err_stack[U(d)] + errs
            matched = match_stack[U(d)] + known_joins[U(d)] - errs
            sq = order[U(d)]
            board[U(sq)] = found
            if matched > best:
                best = matched
                state[4] = best
                for s in range(board.shape[0]):
                    best_board[U(s)] = placement(board[U(s)], pmask)
            if d == last:
                score_counts[U(matched)] += 1
                if endgame[0] <= last:
                    cap = endgame_cap(endgame[1], matched, save_state[1])
                    for q in range(endgame[0], last + 1):
                        if allowed[U(q)] > cap:
                            allowed[U(q)] = cap
                full = False
                if matched >= save_state[1]:
                    row = save_state[0]
                    for s in range(board.shape[0]):
                        saved[U(row), U(s)] = placement(board[U(s)], pmask)
                    save_state[0] = row + 1
                    full = row + 1 >= saved.shape[0]
                board[U(sq)] = -1
                complete += 1
                if full:
                    state[0] = d
                    return nodes, complete, BUDGET
                if matched >= target:
                    state[0] = d
                    return nodes, complete, TARGET
                if nodes >= node_budget:
                    state[0] = d
                    return nodes, complete, BUDGET
                continue
            e = d + 1
            if phases[U(e), 0, P_NCHK] == 0 and (
                n_phases[U(e)] == 1 or phases[U(e), 1, P_ERR] > allowed[U(e)] - errors
            ):
                # Only exact fits can follow: descend only if the child's list holds a
                # tile still free (``found``'s own counts as taken) that keeps the
                # priority bound.  Otherwise the child is a dead end known now, and the
                # loop stays at depth d.
                k = phases[U(e), 0, P_BASE]
                for q in range(phases[U(e), 0, P_NKEY]):
                    col = P_KEY + 3 * q
                    k += (
                        colour(pcol, board[U(phases[U(e), 0, col])], phases[U(e), 0, col + 1], cmask)
                        * phases[U(e), 0, col + 2]
                    )
                first = starts[U(k)]
                after = starts[U(k + 1)]
                t = (found & pmask) >> 2
                placed_prio = 0 if prio_w is None else prio_before + prio_w[U(t)]
                first = first_fit(cand, first, after, used, t, pmask, prio_w, placed_prio, prio_min[U(e)], prio_sorted)
                if first >= after:
                    board[U(sq)] = -1
                    if matched >= target:
                        state[0] = d
                        return nodes, complete, TARGET
                    if nodes >= node_budget:
                        state[0] = d
                        return nodes, complete, BUDGET
                    continue
            used[U((found & pmask) >> 2)] = 1
            d += 1
            err_stack[U(d)] = errors
            match_stack[U(d)] = matched
            if prio_w is not None:
                prio_stack[U(d)] = prio_before + prio_w[U((found & pmask) >> 2)]
            phase[U(d)] = 0
            k = phases[U(d), 0, P_BASE]
            n = phases[U(d), 0, P_NKEY]
            if n > 0:
                k += (
                    colour(pcol, board[U(phases[U(d), 0, P_KEY])], phases[U(d), 0, P_KEY + 1], cmask)
                    * phases[U(d), 0, P_KEY + 2]
                )
                if n > 1:
                    k += (
                        colour(pcol, board[U(phases[U(d), 0, P_KEY + 3])], phases[U(d), 0, P_KEY + 4], cmask)
                        * phases[U(d), 0, P_KEY + 5]
                    )
                    if n > 2:
                        k += (
                            colour(pcol, board[U(phases[U(d), 0, P_KEY + 6])], phases[U(d), 0, P_KEY + 7], cmask)
                            * phases[U(d), 0, P_KEY + 8]
                        )
                        if n > 3:
                            k += (
                                colour(pcol, board[U(phases[U(d), 0, P_KEY + 9])], phases[U(d), 0, P_KEY + 10], cmask)
                                * phases[U(d), 0, P_KEY + 11]
                            )
            cur[U(d)] = starts[U(k)]
            end[U(d)] = starts[U(k + 1)]
            if matched >= target:
                state[0] = d
                return nodes, complete, TARGET
            if nodes >= node_budget:
                state[0] = d
                return nodes, complete, BUDGET
        else:
            phase[U(d)] = j
            cur[U(d)] = i
            end[U(d)] = hi
            board[U(order[U(d)])] = -1
            if d == start:
                state[0] = d
                return nodes, complete, FINISHED
            d -= 1
            used[U((board[U(order[U(d)])] & pmask) >> 2)] = 0
