"""The compiled loop of the tabu search with the assignment neighbourhood (Algorithm 1).

A move is two compiled pieces with the assignment solved between them:
:func:`prepare_move` (steps 1 and 2 below: choose S, build the weight matrix) and
:func:`apply_move` (steps 3 to 5: place the pieces, tabu lists, plateau, diversification,
intensification, incremental score).  :func:`tabu_run` loops over both with the compiled
Hungarian method in between (``assignment="compiled"``); :func:`tabu_step` finishes one
move and prepares the next so that Python can call
``scipy.optimize.linear_sum_assignment`` in between (``assignment="scipy"``, driven from
:mod:`.tabu`).  Both modes run the same algorithm on the same matrices.

One call of :func:`tabu_run` runs up to ``max_moves`` moves and returns, so that Python
can watch the clock, report progress and checkpoint between calls.  All state lives in
arrays owned by the caller (board, best board, tabu lists, random generator, counters): a
call can stop after any move and the next call, or a run resumed from a checkpoint of
those arrays, goes on exactly as if it had never stopped.

One move (Schaus & Deville 2008, sections 3 and 4):

1. choose a set S of non-edge-adjacent, non-hint squares whose positions are not tabu
   (random order, most violated first, or one colour of the checkerboard);
2. weight every (piece of S, hole of S) pair with its best fitting rotation; arcs that
   would undo a recent move (piece now on ``j`` back to ``i``) get a prohibitive cost;
3. solve the maximum-weight assignment exactly and apply it;
4. make the positions of S tabu, and each reverse arc ``(new, old)`` of a moved piece, for
   tenures drawn between their bounds;
5. a plateau (no progress for ``plateau_length`` moves) triggers a diversification of
   random swap-and-rotate moves; after ``intensify_after`` plateaus without a new best the
   best board is restored (intensification).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hungarian import max_weight_assignment
from .kernels import (
    FORBIDDEN,
    SCALE,
    TABU,
    all_matches,
    assignment_weights,
    hole_needs,
    place_assignment,
    random_fitting_rotation,
    swap_rotate,
    weighted_assignment_weights,
)
from .rng import below, between, shuffle

# counters (one int64 array, saved in checkpoints)
# BEST, BEST_MOVE: best of the current segment (the whole run unless restarts are on);
# RUN_BEST, SEGMENT, SEGMENT_START are kept by the Python driver (restarts).
(
    MOVES,
    SCORE,
    BEST,
    PLATEAU_REF,
    LAST_PROGRESS,
    PLATEAUS,
    INTENSIFICATIONS,
    DIVERSIFICATIONS,
    BEST_MOVE,
    CHANGES,
    LOCAL,
    BUMPS,
    RUN_BEST,
    SEGMENT,
    SEGMENT_START,
) = range(15)
N_COUNTERS = 15

# integer parameters (see TabuParams)
(
    P_SIZE_MIN,
    P_SIZE_MAX,
    P_SELECTION,
    P_POS_MIN,
    P_POS_MAX,
    P_ARC_MIN,
    P_ARC_MAX,
    P_PLATEAU,
    P_DIV_MOVES,
    P_DIV_ROTATION,
    P_INTENSIFY,
    P_MAX_INTENSIFY,
    P_TIE_RANDOM,
    P_FORCE,
    P_ACCEPT_SLACK,
    P_PENALTY,
    P_PENALTY_DECAY,
) = range(17)
N_PARAMS = 17

SEL_RANDOM, SEL_VIOLATED, SEL_CHECKERBOARD = 0, 1, 2
#: penalties stop growing here, so that weights * SCALE stays far below the TABU cost
MAX_SIDE_WEIGHT = 4096
ROT_BEST, ROT_RANDOM = 0, 1

#: return codes (MOVE_DONE: a move is finished and the run goes on; MOVE_PENDING: a move is
#: prepared and waits for its assignment)
BATCH_DONE, TARGET_REACHED, INTENSIFICATIONS_DONE, MOVE_DONE, MOVE_PENDING = 0, 1, 2, 3, 4


@njit(cache=True)
def arc_slot(a, b, n, size):
    """Index of the arc (a -> b) in the arc tabu table (exact when n * n <= size)."""
    return (np.int64(a) * n + b) % size


@njit(cache=True)
def select_holes(
    selection,
    size,
    neighbours,
    parity,
    inner_sides,
    matched,
    movable,
    n_movable,
    tabu_pos,
    it,
    rng,
    order,
    scratch,
    mark,
    squares,
):
    """Choose up to ``size`` pairwise non-adjacent squares; returns how many were chosen.

    Tabu positions are skipped; only when fewer than two squares could be chosen that way
    are tabu positions admitted (a move needs two holes).
    """
    m = 0
    if selection == SEL_CHECKERBOARD:
        colour = below(rng, 2)
        for idx in range(n_movable):
            q = movable[idx]
            if parity[q] == colour:
                order[m] = q
                m += 1
    else:
        for idx in range(n_movable):
            order[idx] = movable[idx]
        m = n_movable
    shuffle(rng, order, m)
    if selection == SEL_VIOLATED:
        # counting sort by violated sides, most violated first, random order within a level
        counts = np.zeros(6, dtype=np.int64)
        for idx in range(m):
            q = order[idx]
            counts[4 - (inner_sides[q] - matched[q])] += 1
        start = 0
        for v in range(5):
            c = counts[v]
            counts[v] = start
            start += c
        for idx in range(m):
            q = order[idx]
            level = 4 - (inner_sides[q] - matched[q])
            scratch[counts[level]] = q
            counts[level] += 1
        for idx in range(m):
            order[idx] = scratch[idx]
    stamp = it + 1
    k = 0
    for pass_ in range(2):
        for idx in range(m):
            if k >= size:
                break
            q = order[idx]
            if mark[q] == stamp:
                continue
            if pass_ == 0 and tabu_pos[q] > it:
                continue
            free = True
            for s in range(4):
                nb = neighbours[q, s]
                if nb >= 0 and mark[nb] == stamp:
                    free = False
                    break
            if free:
                mark[q] = stamp
                squares[k] = q
                k += 1
        if k >= 2:
            break
    return k


@njit(cache=True)
def diversify(rotated, neighbours, fit, outer_mask, tile, rot, matched, movable, n_movable, moves, rotation_mode, rng):
    """``moves`` random swap-and-rotate moves between squares of the same kind; score change."""
    delta = 0
    if n_movable < 2:
        return 0
    for _ in range(moves):
        a = -1
        b = -1
        for _attempt in range(100):
            x = movable[below(rng, n_movable)]
            y = movable[below(rng, n_movable)]
            if x != y and fit[tile[x], outer_mask[y]] != 0 and fit[tile[y], outer_mask[x]] != 0:
                a = x
                b = y
                break
        if a < 0:
            continue
        ra = -1
        rb = -1
        if rotation_mode == ROT_RANDOM:
            # rotations of the tiles as they will stand after the exchange
            ta = tile[a]
            tile[a] = tile[b]
            tile[b] = ta
            ra = random_fitting_rotation(fit, outer_mask, tile, a, rng)
            rb = random_fitting_rotation(fit, outer_mask, tile, b, rng)
            tile[b] = tile[a]
            tile[a] = ta
        delta += swap_rotate(rotated, neighbours, fit, outer_mask, tile, rot, matched, a, b, ra, rb)
    return delta


@njit(cache=True)
def bump_penalties(rotated, neighbours, tile, rot, side_weights, step, counters, decay_every):
    """Make every unmatched join weigh ``step`` more in the assignment (both of its sides),
    and every ``decay_every`` bumps lower all penalties by ``step`` (never below weight 1):
    the breakout / clause-weighting idea, which turns a local optimum of the score into a
    slope of the weighted objective."""
    n = tile.shape[0]
    for q in range(n):
        for s in (1, 2):
            nb = neighbours[q, s]
            if nb < 0:
                continue
            c = rotated[tile[q], rot[q], s]
            if c == 0 or c != rotated[tile[nb], rot[nb], (s + 2) % 4]:
                w = min(side_weights[q, s] + step, MAX_SIDE_WEIGHT)
                side_weights[q, s] = w
                side_weights[nb, (s + 2) % 4] = w
    counters[BUMPS] += 1
    if decay_every > 0 and counters[BUMPS] % decay_every == 0:
        for q in range(n):
            for s in range(4):
                if side_weights[q, s] > 1:
                    side_weights[q, s] = max(1, side_weights[q, s] - step)


@njit(cache=True)
def _save_best(tile, rot, best_tile, best_rot, counters):
    for q in range(tile.shape[0]):
        best_tile[q] = tile[q]
        best_rot[q] = rot[q]
    counters[BEST] = counters[SCORE]
    counters[BEST_MOVE] = counters[MOVES]
    counters[PLATEAUS] = 0


@njit(cache=True)
def _copy_board(src_tile, src_rot, dst_tile, dst_rot):
    for q in range(src_tile.shape[0]):
        dst_tile[q] = src_tile[q]
        dst_rot[q] = src_rot[q]


# work rows of the int64 (N_WORK_ROWS, n_squares) array ``work`` (one per optimize call)
W_ORDER, W_SCRATCH, W_MARK, W_SQUARES, W_PIECES, W_OFFSETS = range(6)
N_WORK_ROWS = 6


@njit(cache=True)
def prepare_move(
    rotated,
    neighbours,
    outer_mask,
    fit,
    parity,
    inner_sides,
    movable,
    tile,
    rot,
    matched,
    tabu_pos,
    tabu_arc,
    rng,
    counters,
    side_weights,
    params,
    work,
    needs,
    raw,
    best_r,
    matrix,
):
    """Steps 1 and 2 of the next move: choose S and price every (piece, hole) pair.

    Returns ``k = |S|``.  When ``k >= 2`` the first ``k * k`` entries of ``matrix`` hold
    the ``k x k`` assignment weights, row-major (row ``i``: the piece now on
    ``work[W_SQUARES, i]``, column ``j``: hole ``work[W_SQUARES, j]``), to be maximised:
    ``matched sides * SCALE + tie-breaking noise``, ``-TABU`` on a tabu arc or a forced
    piece staying put, ``-FORBIDDEN`` where the piece cannot fit the hole's border; and
    ``best_r[i, j]`` the rotation of that pair.  Nothing on the board changes here; the
    move is finished by :func:`apply_move` with the assignment of ``matrix``.
    """
    n = tile.shape[0]
    arc_size = tabu_arc.shape[0]
    squares = work[W_SQUARES]
    pieces = work[W_PIECES]
    offsets = work[W_OFFSETS]
    it = counters[MOVES]
    tie_random = params[P_TIE_RANDOM] != 0
    size = between(rng, params[P_SIZE_MIN], params[P_SIZE_MAX])
    k = select_holes(
        params[P_SELECTION],
        size,
        neighbours,
        parity,
        inner_sides,
        matched,
        movable,
        movable.shape[0],
        tabu_pos,
        it,
        rng,
        work[W_ORDER],
        work[W_SCRATCH],
        work[W_MARK],
        squares,
    )
    if k < 2:
        return k
    for j in range(k):
        pieces[j] = tile[squares[j]]
        offsets[j] = below(rng, 4) if tie_random else 0
    hole_needs(rotated, neighbours, tile, rot, squares, k, needs)
    if params[P_PENALTY] > 0:
        weighted_assignment_weights(
            rotated, fit, outer_mask, pieces, squares, needs, side_weights, k, raw, best_r, offsets
        )
    else:
        assignment_weights(rotated, fit, outer_mask, pieces, squares, needs, k, raw, best_r, offsets)
    noise_cap = SCALE // (k + 1)
    for i in range(k):
        for j in range(k):
            w = raw[i, j]
            if w < 0:
                matrix[i * k + j] = -FORBIDDEN
                continue
            g = w * SCALE
            if tie_random:
                g += below(rng, noise_cap)
            if i != j and tabu_arc[arc_slot(squares[i], squares[j], n, arc_size)] > it:
                g -= TABU
            matrix[i * k + j] = g
    for _forced in range(min(params[P_FORCE], k)):  # these pieces must leave their square
        i = below(rng, k)
        matrix[i * k + i] -= TABU
    return k


@njit(cache=True)
def apply_move(
    rotated,
    neighbours,
    outer_mask,
    fit,
    movable,
    tile,
    rot,
    matched,
    best_tile,
    best_rot,
    local_tile,
    local_rot,
    tabu_pos,
    tabu_arc,
    rng,
    counters,
    side_weights,
    params,
    target,
    work,
    best_r,
    k,
    assign,
):
    """Steps 3 to 5 of the move prepared by :func:`prepare_move` (``k`` holes; piece ``i``
    goes to hole ``assign[i]``; ``k < 2``: no assignment, the move changes nothing).

    Places the pieces, keeps the score, sets the tabu lists and counts the move, then does
    what the counters call for: save a new best, diversify on a plateau, intensify.
    Returns MOVE_DONE, or TARGET_REACHED / INTENSIFICATIONS_DONE when the run must end.
    """
    n = tile.shape[0]
    arc_size = tabu_arc.shape[0]
    squares = work[W_SQUARES]
    it = counters[MOVES]
    changed = False
    if k >= 2:
        for i in range(k):
            j = assign[i]
            if j != i or best_r[i, j] != rot[squares[i]]:
                changed = True
        if changed:
            counters[SCORE] += place_assignment(
                rotated, neighbours, tile, rot, matched, squares, work[W_PIECES], k, assign, best_r
            )
        for i in range(k):
            j = assign[i]
            if j != i:
                tabu_arc[arc_slot(squares[j], squares[i], n, arc_size)] = it + between(
                    rng, params[P_ARC_MIN], params[P_ARC_MAX]
                )
        if params[P_POS_MAX] > 0:
            for j in range(k):
                tabu_pos[squares[j]] = it + between(rng, params[P_POS_MIN], params[P_POS_MAX])
    counters[MOVES] = it + 1
    if changed:
        counters[CHANGES] += 1
    if counters[SCORE] > counters[BEST]:
        _save_best(tile, rot, best_tile, best_rot, counters)
    if counters[SCORE] > counters[PLATEAU_REF]:
        counters[PLATEAU_REF] = counters[SCORE]
        counters[LAST_PROGRESS] = counters[MOVES]
    elif params[P_PLATEAU] > 0 and counters[MOVES] - counters[LAST_PROGRESS] >= params[P_PLATEAU]:
        counters[DIVERSIFICATIONS] += 1
        counters[PLATEAUS] += 1
        slack = params[P_ACCEPT_SLACK]
        if slack >= 0:  # acceptance of the new local optimum, else back to the previous one
            if counters[SCORE] >= counters[LOCAL] - slack:
                _copy_board(tile, rot, local_tile, local_rot)
                counters[LOCAL] = counters[SCORE]
            else:
                _copy_board(local_tile, local_rot, tile, rot)
                counters[SCORE] = all_matches(rotated, neighbours, tile, rot, matched)
        if params[P_PENALTY] > 0:
            bump_penalties(
                rotated, neighbours, tile, rot, side_weights, params[P_PENALTY], counters, params[P_PENALTY_DECAY]
            )
        counters[SCORE] += diversify(
            rotated,
            neighbours,
            fit,
            outer_mask,
            tile,
            rot,
            matched,
            movable,
            movable.shape[0],
            params[P_DIV_MOVES],
            params[P_DIV_ROTATION],
            rng,
        )
        if counters[SCORE] > counters[BEST]:
            _save_best(tile, rot, best_tile, best_rot, counters)
        elif params[P_INTENSIFY] > 0 and counters[PLATEAUS] >= params[P_INTENSIFY]:
            for q in range(n):
                tile[q] = best_tile[q]
                rot[q] = best_rot[q]
            counters[SCORE] = all_matches(rotated, neighbours, tile, rot, matched)
            counters[PLATEAUS] = 0
            counters[INTENSIFICATIONS] += 1
            if slack >= 0:
                _copy_board(tile, rot, local_tile, local_rot)
                counters[LOCAL] = counters[SCORE]
        counters[PLATEAU_REF] = counters[SCORE]
        counters[LAST_PROGRESS] = counters[MOVES]
    if target > 0 and counters[BEST] >= target:
        return TARGET_REACHED
    if params[P_MAX_INTENSIFY] > 0 and counters[INTENSIFICATIONS] >= params[P_MAX_INTENSIFY]:
        return INTENSIFICATIONS_DONE
    return MOVE_DONE


@njit(cache=True)
def tabu_run(
    rotated,
    neighbours,
    outer_mask,
    fit,
    parity,
    inner_sides,
    movable,
    tile,
    rot,
    matched,
    best_tile,
    best_rot,
    local_tile,
    local_rot,
    tabu_pos,
    tabu_arc,
    rng,
    counters,
    side_weights,
    params,
    max_moves,
    target,
    work,
    needs,
    raw,
    best_r,
    matrix,
    assign,
    hungarian,
    used,
):
    """Run moves until ``counters[MOVES] == max_moves``, the target or the intensification
    limit, each solved by the compiled Hungarian method (``assignment="compiled"``).

    ``work, needs, raw, best_r, matrix, assign`` are the work arrays of the move (see
    :func:`prepare_move`), ``hungarian`` (5, |S|max + 1) and ``used`` those of the solver.
    """
    while counters[MOVES] < max_moves:
        k = prepare_move(
            rotated,
            neighbours,
            outer_mask,
            fit,
            parity,
            inner_sides,
            movable,
            tile,
            rot,
            matched,
            tabu_pos,
            tabu_arc,
            rng,
            counters,
            side_weights,
            params,
            work,
            needs,
            raw,
            best_r,
            matrix,
        )
        if k >= 2:
            max_weight_assignment(
                matrix[: k * k].reshape((k, k)),
                k,
                assign,
                hungarian[0],
                hungarian[1],
                hungarian[2],
                hungarian[3],
                hungarian[4],
                used,
            )
        code = apply_move(
            rotated,
            neighbours,
            outer_mask,
            fit,
            movable,
            tile,
            rot,
            matched,
            best_tile,
            best_rot,
            local_tile,
            local_rot,
            tabu_pos,
            tabu_arc,
            rng,
            counters,
            side_weights,
            params,
            target,
            work,
            best_r,
            k,
            assign,
        )
        if code != MOVE_DONE:
            return code
    return BATCH_DONE


@njit(cache=True)
def tabu_step(
    rotated,
    neighbours,
    outer_mask,
    fit,
    parity,
    inner_sides,
    movable,
    tile,
    rot,
    matched,
    best_tile,
    best_rot,
    local_tile,
    local_rot,
    tabu_pos,
    tabu_arc,
    rng,
    counters,
    side_weights,
    params,
    max_moves,
    target,
    work,
    needs,
    raw,
    best_r,
    matrix,
    k,
    assign,
):
    """One compiled call per move of the ``assignment="scipy"`` mode: finish the pending
    move (``k`` holes, solved by SciPy into ``assign``; ``k < 0``: none pending), then
    prepare the next one unless the batch ends.

    Returns ``(MOVE_PENDING, k)`` when a prepared move waits for its assignment (the
    ``k x k`` weights in ``matrix``), else ``(code, -1)`` with the code of
    :func:`tabu_run`.  Moves with fewer than two holes need no assignment and are done
    here.  A batch never ends with a move pending, so the state between batches (what a
    checkpoint saves) is the same as in the compiled mode.
    """
    if k >= 0:
        code = apply_move(
            rotated,
            neighbours,
            outer_mask,
            fit,
            movable,
            tile,
            rot,
            matched,
            best_tile,
            best_rot,
            local_tile,
            local_rot,
            tabu_pos,
            tabu_arc,
            rng,
            counters,
            side_weights,
            params,
            target,
            work,
            best_r,
            k,
            assign,
        )
        if code != MOVE_DONE:
            return code, -1
    while counters[MOVES] < max_moves:
        k = prepare_move(
            rotated,
            neighbours,
            outer_mask,
            fit,
            parity,
            inner_sides,
            movable,
            tile,
            rot,
            matched,
            tabu_pos,
            tabu_arc,
            rng,
            counters,
            side_weights,
            params,
            work,
            needs,
            raw,
            best_r,
            matrix,
        )
        if k >= 2:
            return MOVE_PENDING, k
        code = apply_move(
            rotated,
            neighbours,
            outer_mask,
            fit,
            movable,
            tile,
            rot,
            matched,
            best_tile,
            best_rot,
            local_tile,
            local_rot,
            tabu_pos,
            tabu_arc,
            rng,
            counters,
            side_weights,
            params,
            target,
            work,
            best_r,
            k,
            assign,
        )
        if code != MOVE_DONE:
            return code, -1
    return BATCH_DONE, -1
