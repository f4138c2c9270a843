"""Compiled building blocks of the local search: scores, hole weights, moves.

Everything here works on the arrays of :class:`~.tables.Tables` and on a board held as
two arrays, ``tile[q]`` and ``rot[q]`` per square, plus ``matched[q]``, the number of
sides of square ``q`` whose join is matched.  ``sum(matched) / 2`` is the score; a move
recomputes ``matched`` only for the squares it changed and their neighbours, so the score
is kept incrementally (the tests compare it with :meth:`Board.score` after every kind of
move).

A *hole set* is a set of pairwise non-edge-adjacent squares.  Taking their tiles out
leaves every neighbour of every hole in place, so the joins a tile makes in a hole depend
on that hole alone: the weight of (piece, hole) is the best number of matched sides over
the rotations that fit the hole's border, and the best re-placement of all the pieces is
a maximum-weight assignment (Schaus & Deville 2008, section 3).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rng import below

#: Weights are scaled so that random tie-breaking noise can be added below the unit.
SCALE = np.int64(1) << np.int64(20)
#: Cost of a (piece, hole) pair whose rotation cannot fit the hole's border.
FORBIDDEN = np.int64(1) << np.int64(44)
#: Cost of a tabu arc: worse than any non-tabu choice, better than a forbidden one.
TABU = np.int64(1) << np.int64(38)


# ----------------------------------------------------------------------------- scores
@njit(cache=True)
def square_matches(rotated, neighbours, tile, rot, q):
    """Matched sides of square ``q`` (0 when it is empty)."""
    t = tile[q]
    if t < 0:
        return 0
    r = rot[q]
    m = 0
    for s in range(4):
        nb = neighbours[q, s]
        if nb < 0:
            continue
        u = tile[nb]
        if u < 0:
            continue
        c = rotated[t, r, s]
        if c != 0 and c == rotated[u, rot[nb], (s + 2) % 4]:
            m += 1
    return m


@njit(cache=True)
def all_matches(rotated, neighbours, tile, rot, matched):
    """Fill ``matched`` for every square; return the score."""
    total = 0
    for q in range(tile.shape[0]):
        m = square_matches(rotated, neighbours, tile, rot, q)
        matched[q] = m
        total += m
    return total // 2


@njit(cache=True)
def refresh_around(rotated, neighbours, tile, rot, matched, q):
    """Recompute ``matched`` of ``q`` and of its neighbours."""
    matched[q] = square_matches(rotated, neighbours, tile, rot, q)
    for s in range(4):
        nb = neighbours[q, s]
        if nb >= 0:
            matched[nb] = square_matches(rotated, neighbours, tile, rot, nb)


@njit(cache=True)
def rotation_matches(rotated, neighbours, tile, rot, piece, r, q):
    """Sides ``piece`` in rotation ``r`` would match on ``q`` against the current board."""
    m = 0
    for s in range(4):
        nb = neighbours[q, s]
        if nb < 0:
            continue
        u = tile[nb]
        if u < 0:
            continue
        c = rotated[piece, r, s]
        if c != 0 and c == rotated[u, rot[nb], (s + 2) % 4]:
            m += 1
    return m


# ----------------------------------------------------------------------------- hole weights
@njit(cache=True)
def hole_needs(rotated, neighbours, tile, rot, squares, k, needs):
    """For each hole, the colour each side would have to show to match (-1: cannot match).

    A side cannot match when it faces the outside, an empty square or a grey side.
    """
    for j in range(k):
        q = squares[j]
        for s in range(4):
            nb = neighbours[q, s]
            needs[j, s] = -1
            if nb >= 0:
                u = tile[nb]
                if u >= 0:
                    c = rotated[u, rot[nb], (s + 2) % 4]
                    if c != 0:
                        needs[j, s] = c


@njit(cache=True)
def assignment_weights(rotated, fit, outer_mask, pieces, squares, needs, k, weights, best_rot, offsets):
    """``weights[i, j]``: most sides piece ``i`` matches in hole ``j``; ``best_rot``: in which rotation.

    Only rotations that fit the hole's border are considered; a pair with none gets
    weight -1 and rotation -1.  Among equally good rotations the first one counting
    from ``offsets[i]`` is taken (random offsets break ties at random).
    """
    for i in range(k):
        p = pieces[i]
        start = offsets[i]
        for j in range(k):
            mask = fit[p, outer_mask[squares[j]]]
            best = -1
            best_r = -1
            if mask != 0:
                n0 = needs[j, 0]
                n1 = needs[j, 1]
                n2 = needs[j, 2]
                n3 = needs[j, 3]
                for step in range(4):
                    r = (start + step) & 3
                    if mask & (1 << r):
                        w = (
                            (rotated[p, r, 0] == n0)
                            + (rotated[p, r, 1] == n1)
                            + (rotated[p, r, 2] == n2)
                            + (rotated[p, r, 3] == n3)
                        )
                        if w > best:
                            best = w
                            best_r = r
            weights[i, j] = best
            best_rot[i, j] = best_r


@njit(cache=True)
def weighted_assignment_weights(
    rotated, fit, outer_mask, pieces, squares, needs, side_weights, k, weights, best_rot, offsets
):
    """As :func:`assignment_weights`, but a matched side of hole ``j`` counts
    ``side_weights[squares[j], s]`` instead of 1 (penalised joins, see the tabu kernel)."""
    for i in range(k):
        p = pieces[i]
        start = offsets[i]
        for j in range(k):
            q = squares[j]
            mask = fit[p, outer_mask[q]]
            best = -1
            best_r = -1
            if mask != 0:
                for step in range(4):
                    r = (start + step) & 3
                    if mask & (1 << r):
                        w = 0
                        for s in range(4):
                            if rotated[p, r, s] == needs[j, s]:
                                w += side_weights[q, s]
                        if w > best:
                            best = w
                            best_r = r
            weights[i, j] = best
            best_rot[i, j] = best_r


@njit(cache=True)
def place_assignment(rotated, neighbours, tile, rot, matched, squares, pieces, k, assign, best_rot):
    """Put piece ``i`` into hole ``assign[i]`` in its best rotation; return the score change."""
    before = 0
    for j in range(k):
        before += matched[squares[j]]
    for i in range(k):
        j = assign[i]
        q = squares[j]
        tile[q] = pieces[i]
        rot[q] = best_rot[i, j]
    after = 0
    for j in range(k):
        q = squares[j]
        refresh_around(rotated, neighbours, tile, rot, matched, q)
    for j in range(k):
        after += matched[squares[j]]
    return after - before


# ----------------------------------------------------------------------------- swap and rotate
@njit(cache=True)
def joins_touching(matched, neighbours, a, b, rotated, tile, rot):
    """Matched joins that have ``a`` or ``b`` at one end (a join a-b counted once)."""
    total = matched[a] + matched[b]
    for s in range(4):
        if neighbours[a, s] == b:
            c = rotated[tile[a], rot[a], s]
            if c != 0 and c == rotated[tile[b], rot[b], (s + 2) % 4]:
                total -= 1
    return total


@njit(cache=True)
def best_rotation(rotated, neighbours, fit, outer_mask, tile, rot, q, start):
    """The fitting rotation of the tile on ``q`` that matches most sides (ties: first from ``start``)."""
    p = tile[q]
    mask = fit[p, outer_mask[q]]
    best = -1
    best_r = rot[q]
    for step in range(4):
        r = (start + step) & 3
        if mask & (1 << r):
            w = rotation_matches(rotated, neighbours, tile, rot, p, r, q)
            if w > best:
                best = w
                best_r = r
    return best_r


@njit(cache=True)
def random_fitting_rotation(fit, outer_mask, tile, q, rng):
    mask = fit[tile[q], outer_mask[q]]
    count = 0
    for r in range(4):
        if mask & (1 << r):
            count += 1
    if count == 0:
        return 0
    pick = below(rng, count)
    for r in range(4):
        if mask & (1 << r):
            if pick == 0:
                return r
            pick -= 1
    return 0


@njit(cache=True)
def swap_rotate(rotated, neighbours, fit, outer_mask, tile, rot, matched, a, b, ra, rb):
    """Exchange the tiles of ``a`` and ``b`` and give them rotations ``ra``/``rb``.

    A rotation of -1 means "the best fitting rotation on the new square".  Returns the
    score change.
    """
    before = joins_touching(matched, neighbours, a, b, rotated, tile, rot)
    ta = tile[a]
    tile[a] = tile[b]
    tile[b] = ta
    if ra >= 0:
        rot[a] = ra
    else:
        rot[a] = best_rotation(rotated, neighbours, fit, outer_mask, tile, rot, a, 0)
    if rb >= 0:
        rot[b] = rb
    else:
        rot[b] = best_rotation(rotated, neighbours, fit, outer_mask, tile, rot, b, 0)
    if ra < 0:  # b's new rotation may change what is best on a when they are adjacent
        rot[a] = best_rotation(rotated, neighbours, fit, outer_mask, tile, rot, a, 0)
    refresh_around(rotated, neighbours, tile, rot, matched, a)
    refresh_around(rotated, neighbours, tile, rot, matched, b)
    after = joins_touching(matched, neighbours, a, b, rotated, tile, rot)
    return after - before


@njit(cache=True)
def swap_gain(rotated, neighbours, fit, outer_mask, tile, rot, matched, a, b):
    """Best score change of swapping ``a`` and ``b`` (each in its best fitting rotation),
    without changing the board.  Returns (gain, rotation on a, rotation on b); a gain of
    -1000 when the tiles do not fit each other's squares.
    """
    if fit[tile[a], outer_mask[b]] == 0 or fit[tile[b], outer_mask[a]] == 0:
        return -1000, 0, 0
    before = joins_touching(matched, neighbours, a, b, rotated, tile, rot)
    ta, tb, ra0, rb0 = tile[a], tile[b], rot[a], rot[b]
    tile[a] = tb
    tile[b] = ta
    mask_a = fit[tb, outer_mask[a]]
    mask_b = fit[ta, outer_mask[b]]
    best = -1000
    best_ra = 0
    best_rb = 0
    adjacent = False
    for s in range(4):
        if neighbours[a, s] == b:
            adjacent = True
    for ra in range(4):
        if not mask_a & (1 << ra):
            continue
        for rb in range(4):
            if not mask_b & (1 << rb):
                continue
            rot[a] = ra
            rot[b] = rb
            w = rotation_matches(rotated, neighbours, tile, rot, tb, ra, a) + rotation_matches(
                rotated, neighbours, tile, rot, ta, rb, b
            )
            if adjacent:
                for s in range(4):
                    if neighbours[a, s] == b:
                        c = rotated[tb, ra, s]
                        if c != 0 and c == rotated[ta, rb, (s + 2) % 4]:
                            w -= 1
            if w > best:
                best = w
                best_ra = ra
                best_rb = rb
    tile[a], tile[b], rot[a], rot[b] = ta, tb, ra0, rb0
    return best - before, best_ra, best_rb


@njit(cache=True)
def best_swap_for(rotated, neighbours, fit, outer_mask, fixed, tile, rot, matched, a):
    """The best swap-and-rotate move that moves the tile on ``a``: (partner, gain, ra, rb).

    O(n) partners x 16 rotation pairs: the paper's two-step exploration of the small
    neighbourhood (first the square, then the best partner for it).
    """
    best_gain = -1000
    best_b = -1
    best_ra = 0
    best_rb = 0
    for b in range(tile.shape[0]):
        if b == a or fixed[b]:
            continue
        gain, ra, rb = swap_gain(rotated, neighbours, fit, outer_mask, tile, rot, matched, a, b)
        if gain > best_gain:
            best_gain = gain
            best_b = b
            best_ra = ra
            best_rb = rb
    return best_b, best_gain, best_ra, best_rb
