"""The compiled loop of the tabu search with the assignment neighbourhood (Algorithm 1).

One call runs up to ``max_moves`` moves and returns, so that Python can watch the clock,
report progress and checkpoint between calls.  All state lives in arrays owned by the
caller (board, best board, tabu lists, random generator, counters): a call can stop
anywhere and the next call, or a run resumed from a checkpoint of those arrays, goes on
exactly as if it had never stopped.

One move (Schaus & Deville 2008, sections 3 and 4):

1. choose a set S of non-edge-adjacent, non-hint squares whose positions are not tabu
   (random order, most violated first, or one colour of the checkerboard);
2. weight every (piece of S, hole of S) pair with its best fitting rotation; arcs that
   would undo a recent move (piece now on ``j`` back to ``i``) get a prohibitive cost;
3. solve the assignment exactly (Hungarian method) and apply it;
4. make the positions of S tabu, and each reverse arc ``(new, old)`` of a moved piece, for
   tenures drawn between their bounds;
5. a plateau (no progress for ``plateau_length`` moves) triggers a diversification of
   random swap-and-rotate moves; after ``intensify_after`` plateaus without a new best the
   best board is restored (intensification).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .hungarian import min_cost_assignment
from .kernels import (
    FORBIDDEN,
    SCALE,
    TABU,
    all_matches,
    assignment_weights,
    hole_needs,
    weighted_assignment_weights,
    place_assignment,
    random_fitting_rotation,
    swap_rotate,
)
from .rng import below, between, shuffle

# counters (one int64 array, saved in checkpoints)
# BEST, BEST_MOVE: best of the current segment (the whole run unless restarts are on);
# RUN_BEST, SEGMENT, SEGMENT_START are kept by the Python driver (restarts).
(MOVES, SCORE, BEST, PLATEAU_REF, LAST_PROGRESS, PLATEAUS, INTENSIFICATIONS, DIVERSIFICATIONS, BEST_MOVE, CHANGES,
 LOCAL, BUMPS, RUN_BEST, SEGMENT, SEGMENT_START) = range(15)
N_COUNTERS = 15

# integer parameters (see TabuParams)
(P_SIZE_MIN, P_SIZE_MAX, P_SELECTION, P_POS_MIN, P_POS_MAX, P_ARC_MIN, P_ARC_MAX, P_PLATEAU,
 P_DIV_MOVES, P_DIV_ROTATION, P_INTENSIFY, P_MAX_INTENSIFY, P_TIE_RANDOM, P_FORCE, P_ACCEPT_SLACK,
 P_PENALTY, P_PENALTY_DECAY) = range(17)
N_PARAMS = 17

SEL_RANDOM, SEL_VIOLATED, SEL_CHECKERBOARD = 0, 1, 2
#: penalties stop growing here, so that weights * SCALE stays far below the TABU cost
MAX_SIDE_WEIGHT = 4096
ROT_BEST, ROT_RANDOM = 0, 1

#: return codes
BATCH_DONE, TARGET_REACHED, INTENSIFICATIONS_DONE = 0, 1, 2


@njit(cache=True)
def arc_slot(a, b, n, size):
    """Index of the arc (a -> b) in the arc tabu table (exact when n * n <= size)."""
    return (np.int64(a) * n + b) % size


@njit(cache=True)
def select_holes(selection, size, neighbours, parity, inner_sides, matched, movable, n_movable,
                 tabu_pos, it, rng, order, scratch, mark, squares):
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
def diversify(rotated, neighbours, fit, outer_mask, tile, rot, matched, movable, n_movable, moves,
              rotation_mode, rng):
    """``moves`` random swap-and-rotate moves between squares of the same kind; score change."""
    delta = 0
    if n_movable < 2:
        return 0
    for _ in range(moves):
        a = -1
        b = -1
        for attempt in range(100):
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


@njit(cache=True)
def tabu_run(rotated, neighbours, outer_mask, fit, parity, inner_sides, movable,
             tile, rot, matched, best_tile, best_rot, local_tile, local_rot, tabu_pos, tabu_arc, rng, counters,
             side_weights, params, max_moves, target):
    """Run moves until ``counters[MOVES] == max_moves``, the target or the intensification limit."""
    n = tile.shape[0]
    n_movable = movable.shape[0]
    arc_size = tabu_arc.shape[0]
    order = np.empty(n, dtype=np.int64)
    scratch = np.empty(n, dtype=np.int64)
    mark = np.zeros(n, dtype=np.int64)
    squares = np.empty(n, dtype=np.int64)
    pieces = np.empty(n, dtype=np.int64)
    offsets = np.zeros(n, dtype=np.int64)
    size_cap = max(params[P_SIZE_MAX], 2)
    needs = np.empty((size_cap, 4), dtype=np.int64)
    weights = np.empty((size_cap, size_cap), dtype=np.int64)
    best_r = np.empty((size_cap, size_cap), dtype=np.int64)
    cost = np.empty((size_cap, size_cap), dtype=np.int64)
    assign = np.empty(size_cap, dtype=np.int64)
    u = np.empty(size_cap + 1, dtype=np.int64)
    v = np.empty(size_cap + 1, dtype=np.int64)
    p = np.empty(size_cap + 1, dtype=np.int64)
    way = np.empty(size_cap + 1, dtype=np.int64)
    minv = np.empty(size_cap + 1, dtype=np.int64)
    used = np.empty(size_cap + 1, dtype=np.bool_)

    tie_random = params[P_TIE_RANDOM] != 0
    penalised = params[P_PENALTY] > 0
    while counters[MOVES] < max_moves:
        it = counters[MOVES]
        size = between(rng, params[P_SIZE_MIN], params[P_SIZE_MAX])
        k = select_holes(params[P_SELECTION], size, neighbours, parity, inner_sides, matched, movable,
                         n_movable, tabu_pos, it, rng, order, scratch, mark, squares)
        changed = False
        if k >= 2:
            for j in range(k):
                pieces[j] = tile[squares[j]]
                offsets[j] = below(rng, 4) if tie_random else 0
            hole_needs(rotated, neighbours, tile, rot, squares, k, needs)
            if penalised:
                weighted_assignment_weights(rotated, fit, outer_mask, pieces, squares, needs, side_weights, k,
                                            weights, best_r, offsets)
            else:
                assignment_weights(rotated, fit, outer_mask, pieces, squares, needs, k, weights, best_r, offsets)
            noise_cap = SCALE // (k + 1)
            for i in range(k):
                for j in range(k):
                    w = weights[i, j]
                    if w < 0:
                        cost[i, j] = FORBIDDEN
                        continue
                    c = -w * SCALE
                    if tie_random:
                        c -= below(rng, noise_cap)
                    if i != j and tabu_arc[arc_slot(squares[i], squares[j], n, arc_size)] > it:
                        c += TABU
                    cost[i, j] = c
            for f in range(min(params[P_FORCE], k)):  # these pieces must leave their square
                i = below(rng, k)
                cost[i, i] += TABU
            min_cost_assignment(cost, k, assign, u, v, p, way, minv, used)
            for i in range(k):
                j = assign[i]
                if j != i or best_r[i, j] != rot[squares[i]]:
                    changed = True
            if changed:
                counters[SCORE] += place_assignment(rotated, neighbours, tile, rot, matched, squares, pieces, k,
                                                    assign, best_r)
            for i in range(k):
                j = assign[i]
                if j != i:
                    tabu_arc[arc_slot(squares[j], squares[i], n, arc_size)] = it + between(
                        rng, params[P_ARC_MIN], params[P_ARC_MAX])
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
            if penalised:
                bump_penalties(rotated, neighbours, tile, rot, side_weights, params[P_PENALTY], counters,
                               params[P_PENALTY_DECAY])
            counters[SCORE] += diversify(rotated, neighbours, fit, outer_mask, tile, rot, matched, movable,
                                         n_movable, params[P_DIV_MOVES], params[P_DIV_ROTATION], rng)
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
    return BATCH_DONE
