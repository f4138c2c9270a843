"""The very large neighbourhood of Schaus & Deville (2008) and the swap-and-rotate move.

The Python face of the moves, one move per call, for scripts, tests and the reduced exact
method; the tabu search runs the same kernels in compiled code (:mod:`.tabu_kernel`),
its assignments solved by SciPy or by the compiled Hungarian method (its ``assignment``
parameter).

* :func:`choose_holes` picks a set S of pairwise non-edge-adjacent, non-hint squares:
  ``random``; ``violated`` (most unmatched sides first, ties at random); ``checkerboard``
  (squares of one colour of the chessboard only).
* :func:`hole_weights` labels every (piece, hole) arc with the best fitting rotation and
  its number of matched sides (compiled, no Python loop per pair).
* :func:`assignment_move` removes the pieces of S and puts them back by a maximum-weight
  assignment (``scipy.optimize.linear_sum_assignment``): the best of the
  ``|S|! 4^|S|`` ways to do it.
* :func:`swap_rotate_move` / :func:`best_swap_move`: the small neighbourhood (exchange two
  tiles and turn them).

Hints never move; a tile is only offered to squares where one of its rotations shows grey
on exactly the outer sides, so border tiles stay on the border with grey outside.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..errors import InputError
from .kernels import assignment_weights, best_swap_for, hole_needs, place_assignment, swap_gain, swap_rotate
from .state import LocalState
from .tabu_kernel import SEL_CHECKERBOARD, SEL_RANDOM, SEL_VIOLATED, select_holes

SELECTIONS = {"random": SEL_RANDOM, "violated": SEL_VIOLATED, "checkerboard": SEL_CHECKERBOARD}

#: weight given to forbidden arcs for SciPy (any value below -4 * |S| would do)
_FORBIDDEN_WEIGHT = -1_000_000


@dataclass(frozen=True)
class AssignmentMove:
    """What :func:`assignment_move` did: ``destination[i]`` is the hole of the piece of
    ``squares[i]``, ``rotations[i]`` its new rotation, ``gain`` the score change."""

    squares: np.ndarray
    destination: np.ndarray
    rotations: np.ndarray
    gain: int
    weight: int


def _rng_state(rng: np.random.Generator | int | None) -> np.ndarray:
    from .rng import seed_state

    if isinstance(rng, np.random.Generator):
        seq = np.random.SeedSequence(rng.integers(0, 2**63))
    else:
        seq = np.random.SeedSequence(rng)
    return seed_state(seq)


def choose_holes(
    state: LocalState, size: int, strategy: str = "random", rng=None, tabu: np.ndarray | None = None
) -> np.ndarray:
    """Up to ``size`` pairwise non-adjacent, non-hint squares chosen by ``strategy``.

    ``tabu`` is an optional boolean mask of squares not to choose (they are admitted only
    when fewer than two squares could be chosen otherwise).
    """
    if strategy not in SELECTIONS:
        raise InputError(f"unknown hole selection '{strategy}' (known: {', '.join(SELECTIONS)})")
    if size < 1:
        raise InputError("a hole set needs at least one square")
    t = state.tables
    n = state.puzzle.n_squares
    movable = state.movable_squares().astype(np.int64)
    tabu_until = (
        np.zeros(n, dtype=np.int64) if tabu is None else np.where(np.asarray(tabu, bool), 1, 0).astype(np.int64)
    )
    squares = np.empty(n, dtype=np.int64)
    k = select_holes(
        SELECTIONS[strategy],
        int(size),
        t.neighbours,
        t.parity,
        t.inner_sides,
        state.matched,
        movable,
        len(movable),
        tabu_until,
        0,
        _rng_state(rng),
        np.empty(n, np.int64),
        np.empty(n, np.int64),
        np.zeros(n, np.int64),
        squares,
    )
    return squares[:k].copy()


def check_holes(state: LocalState, squares) -> np.ndarray:
    """``squares`` as an array, after checking they form a valid hole set."""
    squares = np.asarray(squares, dtype=np.int64).ravel()
    t = state.tables
    n = state.puzzle.n_squares
    if len(squares) and (squares.min() < 0 or squares.max() >= n):
        raise InputError("a hole is off the board")
    if len(np.unique(squares)) != len(squares):
        raise InputError("a hole is listed twice")
    if t.fixed[squares].any():
        raise InputError("a hint square cannot be a hole (hints never move)")
    chosen = np.zeros(n, dtype=bool)
    chosen[squares] = True
    nbrs = t.neighbours[squares]
    if (chosen[nbrs[nbrs >= 0]]).any():
        raise InputError("holes must not be edge-adjacent")
    return squares


def hole_weights(state: LocalState, squares) -> tuple[np.ndarray, np.ndarray]:
    """(weights, rotations), both (k, k): row i = the piece now on ``squares[i]``, column j
    = hole ``squares[j]``; weight -1 (rotation -1) where the piece cannot fit the hole."""
    squares = check_holes(state, squares)
    k = len(squares)
    t = state.tables
    needs = np.empty((k, 4), dtype=np.int64)
    hole_needs(t.rotated, t.neighbours, state.tile, state.rot, squares, k, needs)
    weights = np.empty((k, k), dtype=np.int64)
    rotations = np.empty((k, k), dtype=np.int64)
    pieces = state.tile[squares].copy()
    assignment_weights(
        t.rotated, t.fit, t.outer_mask, pieces, squares, needs, k, weights, rotations, np.zeros(k, dtype=np.int64)
    )
    return weights, rotations


def assignment_move(state: LocalState, squares, forbidden_arcs=None) -> AssignmentMove:
    """Re-place the pieces of the hole set ``squares`` optimally; applies the move.

    ``forbidden_arcs``: optional iterable of (from square, to square) pairs whose arcs get
    a prohibitive weight (the tabu list on reverse moves).
    """
    squares = check_holes(state, squares)
    k = len(squares)
    weights, rotations = hole_weights(state, squares)
    scored = weights.astype(np.int64).copy()
    scored[weights < 0] = _FORBIDDEN_WEIGHT
    if forbidden_arcs:
        where = {int(q): i for i, q in enumerate(squares)}
        for a, b in forbidden_arcs:
            if int(a) in where and int(b) in where and a != b:
                scored[where[int(a)], where[int(b)]] = _FORBIDDEN_WEIGHT // 2
    rows, cols = linear_sum_assignment(scored, maximize=True)
    destination = np.empty(k, dtype=np.int64)
    destination[rows] = cols
    pieces = state.tile[squares].copy()
    t = state.tables
    gain = place_assignment(
        t.rotated, t.neighbours, state.tile, state.rot, state.matched, squares, pieces, k, destination, rotations
    )
    state.score += int(gain)
    return AssignmentMove(
        squares,
        destination,
        rotations[np.arange(k), destination],
        int(gain),
        int(weights[np.arange(k), destination].sum()),
    )


def swap_rotate_move(state: LocalState, a: int, b: int, ra: int | None = None, rb: int | None = None) -> int:
    """Exchange the tiles of ``a`` and ``b``; ``ra``/``rb`` their new rotations (None: the
    best fitting rotation there).  Returns the score change."""
    t = state.tables
    for q in (a, b):
        if not 0 <= q < state.puzzle.n_squares:
            raise InputError(f"square {q} is off the board")
        if t.fixed[q]:
            raise InputError("a hint square cannot take part in a move (hints never move)")
    if a == b:
        raise InputError("a swap needs two different squares")
    if t.fit[state.tile[a], t.outer_mask[b]] == 0 or t.fit[state.tile[b], t.outer_mask[a]] == 0:
        raise InputError("the two tiles are of different kinds (corner, edge, inner) and cannot be exchanged")
    new_a, new_b = state.tile[b], state.tile[a]
    for tile_, q, r in ((new_a, a, ra), (new_b, b, rb)):
        if r is not None and not (t.fit[tile_, t.outer_mask[q]] >> r) & 1:
            raise InputError(f"rotation {r} does not fit the border of square {q}")
    gain = swap_rotate(
        t.rotated,
        t.neighbours,
        t.fit,
        t.outer_mask,
        state.tile,
        state.rot,
        state.matched,
        a,
        b,
        -1 if ra is None else int(ra),
        -1 if rb is None else int(rb),
    )
    state.score += int(gain)
    return int(gain)


def best_swap_move(state: LocalState, a: int, apply: bool = True) -> tuple[int, int]:
    """The best swap-and-rotate move of the tile on ``a``: (partner square, score change).

    With ``apply`` the move is made (even when it loses score: the caller decides).
    """
    t = state.tables
    if t.fixed[a]:
        raise InputError("a hint square cannot take part in a move (hints never move)")
    b, gain, ra, rb = best_swap_for(
        t.rotated, t.neighbours, t.fit, t.outer_mask, t.fixed, state.tile, state.rot, state.matched, int(a)
    )
    if b < 0 or gain <= -1000:
        return -1, 0
    if apply:
        done = swap_rotate(
            t.rotated,
            t.neighbours,
            t.fit,
            t.outer_mask,
            state.tile,
            state.rot,
            state.matched,
            int(a),
            int(b),
            int(ra),
            int(rb),
        )
        state.score += int(done)
        if done != gain:
            raise RuntimeError(f"internal error: swap predicted {gain}, made {done}")
    return int(b), int(gain)


def swap_move_gain(state: LocalState, a: int, b: int) -> int:
    """Best score change of exchanging ``a`` and ``b`` (not applied)."""
    t = state.tables
    gain, _, _ = swap_gain(t.rotated, t.neighbours, t.fit, t.outer_mask, state.tile, state.rot, state.matched, a, b)
    return int(gain)
