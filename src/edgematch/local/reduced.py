"""The reduced exact method of section 5: search one colour of the checkerboard, fill the
other colour by the assignment.

Squares of one checkerboard colour are pairwise non-adjacent, and so are those of the
other: every join links a "black" square to a "white" one.  Once the black squares hold
tiles, the best way to fill the white squares with the remaining tiles is a maximum-weight
assignment (section 3), so an exhaustive search needs to enumerate only the placements
of the black half: ``(n^2)! / (n^2/2)! * 4^(n^2/2)`` instead of ``(n^2)! * 4^(n^2)``
(Schaus & Deville 2008, section 5).

:func:`reduced_exact` is a compiled branch and bound over the black squares (row-major
order, every tile in every rotation that fits the border).  Its bound: each white square
can at best match, against the tiles already placed around it, the most sides any unused
tile matches there, plus one per side still facing an empty black square.  With
``target=None`` it looks for the best score (``complete`` then means the score is the
optimum); with a target (the maximum score by default in :func:`reduced_solve`) it prunes
every branch that cannot reach it and stops at the first board that does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..engines.base import Limits, SliceDriver, SliceReport
from ..engines.result import SearchResult
from ..errors import InputError
from ..model import Board, Puzzle
from ..model import tiles as T
from .hungarian import min_cost_assignment
from .kernels import FORBIDDEN
from .tables import build_tables

SLICE_NODES = 100_000
# state slots
DEPTH, NODES, LEAVES, BEST, DONE = range(5)
RUNNING, FINISHED, EXHAUSTED = 0, 1, 2


@dataclass
class ReducedResult:
    best_score: int
    best_board: Board | None
    complete: bool  # the whole reduced space was searched (best_score is optimal / no solution reaches the target)
    nodes: int
    leaves: int  # placements of the whole black half that were completed by the assignment
    seconds: float
    stopped_by: str | None
    colour: int

    @property
    def solved(self) -> bool:
        return self.best_board is not None and self.best_score == self.best_board.puzzle.max_score


@njit(cache=True)
def _optimistic(w, tile, rot, used, rotated, neighbours, fit, outer_mask, n_tiles):
    """Most sides of white square ``w`` any unused tile can match (empty neighbours count as matched)."""
    best = 0
    free_sides = 0
    for s in range(4):
        nb = neighbours[w, s]
        if nb >= 0 and tile[nb] < 0:
            free_sides += 1
    for t in range(n_tiles):
        if used[t]:
            continue
        mask = fit[t, outer_mask[w]]
        if mask == 0:
            continue
        for r in range(4):
            if not mask & (1 << r):
                continue
            m = 0
            for s in range(4):
                nb = neighbours[w, s]
                if nb >= 0 and tile[nb] >= 0:
                    c = rotated[t, r, s]
                    if c != 0 and c == rotated[tile[nb], rot[nb], (s + 2) % 4]:
                        m += 1
            if m > best:
                best = m
    return best + free_sides


@njit(cache=True)
def _hint_joins(q, t, r, tile, rot, rotated, neighbours, is_hint):
    """(joins of q with hinted squares, how many of them match with tile t in rotation r)."""
    count = 0
    matched = 0
    for s in range(4):
        nb = neighbours[q, s]
        if nb >= 0 and is_hint[nb]:
            count += 1
            c = rotated[t, r, s]
            if c != 0 and c == rotated[tile[nb], rot[nb], (s + 2) % 4]:
                matched += 1
    return count, matched


@njit(cache=True)
def reduced_search(
    order,
    whites,
    cand_start,
    cand_tile,
    cand_rot,
    rotated,
    neighbours,
    fit,
    outer_mask,
    is_hint,
    white_index,
    tile,
    rot,
    used,
    opt,
    saved_opt,
    next_idx,
    hint_bound,
    state,
    best_tile,
    best_rot,
    target,
    node_limit,
):
    """Resumable branch and bound over the black squares of ``order`` (see the module docstring)."""
    D = order.shape[0]
    n_tiles = used.shape[0]
    k = whites.shape[0]
    pieces = np.empty(k, np.int64)
    weights = np.empty((k, k), np.int64)
    best_r = np.empty((k, k), np.int64)
    cost = np.empty((max(k, 1), max(k, 1)), np.int64)
    assign = np.empty(max(k, 1), np.int64)
    u = np.empty(k + 1, np.int64)
    v = np.empty(k + 1, np.int64)
    p = np.empty(k + 1, np.int64)
    way = np.empty(k + 1, np.int64)
    minv = np.empty(k + 1, np.int64)
    usedc = np.empty(k + 1, np.bool_)
    depth = state[DEPTH]
    nodes = 0
    while nodes < node_limit:
        if depth == D:
            # a leaf: fill the white squares by the assignment
            state[LEAVES] += 1
            m = 0
            for t in range(n_tiles):
                if not used[t]:
                    pieces[m] = t
                    m += 1
            for i in range(k):
                t = pieces[i]
                for j in range(k):
                    w = whites[j]
                    mask = fit[t, outer_mask[w]]
                    bw = -1
                    br = -1
                    for r in range(4):
                        if mask & (1 << r):
                            mm = 0
                            for s in range(4):
                                nb = neighbours[w, s]
                                if nb >= 0 and tile[nb] >= 0:
                                    c = rotated[t, r, s]
                                    if c != 0 and c == rotated[tile[nb], rot[nb], (s + 2) % 4]:
                                        mm += 1
                            if mm > bw:
                                bw = mm
                                br = r
                    weights[i, j] = bw
                    best_r[i, j] = br
                    cost[i, j] = FORBIDDEN if bw < 0 else -bw
            total = 0
            if k > 0:
                min_cost_assignment(cost, k, assign, u, v, p, way, minv, usedc)
                for i in range(k):
                    total += weights[i, assign[i]]
            score = total + hint_bound[0]
            if score > state[BEST]:
                state[BEST] = score
                for x in range(tile.shape[0]):
                    best_tile[x] = tile[x]
                    best_rot[x] = rot[x]
                for i in range(k):
                    best_tile[whites[assign[i]]] = pieces[i]
                    best_rot[whites[assign[i]]] = best_r[i, assign[i]]
                if target > 0 and score >= target:
                    state[DONE] = FINISHED
                    break
            # backtrack from the leaf
            if D == 0:
                state[DONE] = EXHAUSTED
                break
            depth -= 1
            q0 = order[depth]
            _undo(depth, q0, tile, rot, used, opt, saved_opt, neighbours, white_index, hint_bound, rotated, is_hint)
            continue
        q = order[depth]
        i = next_idx[depth]
        end = cand_start[depth + 1]
        placed = False
        goal = target if target > 0 else state[BEST] + 1
        while i < end:
            t = cand_tile[i]
            r = cand_rot[i]
            i += 1
            if used[t]:
                continue
            count, matched = _hint_joins(q, t, r, tile, rot, rotated, neighbours, is_hint)
            tile[q] = t
            rot[q] = r
            used[t] = True
            bound = hint_bound[0] - (count - matched)
            for s in range(4):
                nb = neighbours[q, s]
                saved_opt[depth, s] = -1
                if nb >= 0 and white_index[nb] >= 0:
                    saved_opt[depth, s] = opt[white_index[nb]]
            for s in range(4):
                nb = neighbours[q, s]
                if nb >= 0 and white_index[nb] >= 0:
                    opt[white_index[nb]] = _optimistic(
                        nb, tile, rot, used, rotated, neighbours, fit, outer_mask, n_tiles
                    )
            total_opt = 0
            for j in range(k):
                total_opt += opt[j]
            nodes += 1
            if bound + total_opt >= goal:
                hint_bound[0] = bound
                next_idx[depth] = i
                depth += 1
                if depth < D:
                    next_idx[depth] = cand_start[depth]
                placed = True
                break
            # pruned: restore
            for s in range(4):
                nb = neighbours[q, s]
                if nb >= 0 and white_index[nb] >= 0:
                    opt[white_index[nb]] = saved_opt[depth, s]
            used[t] = False
            tile[q] = -1
        if placed:
            continue
        next_idx[depth] = end
        if depth == 0:
            state[DONE] = EXHAUSTED
            break
        depth -= 1
        q0 = order[depth]
        _undo(depth, q0, tile, rot, used, opt, saved_opt, neighbours, white_index, hint_bound, rotated, is_hint)
    state[DEPTH] = depth
    state[NODES] += nodes


@njit(cache=True)
def _undo(depth, q, tile, rot, used, opt, saved_opt, neighbours, white_index, hint_bound, rotated, is_hint):
    count, matched = _hint_joins(q, tile[q], rot[q], tile, rot, rotated, neighbours, is_hint)
    hint_bound[0] += count - matched
    for s in range(4):
        nb = neighbours[q, s]
        if nb >= 0 and white_index[nb] >= 0:
            opt[white_index[nb]] = saved_opt[depth, s]
    used[tile[q]] = False
    tile[q] = -1


def reduced_exact(
    puzzle: Puzzle,
    colour: int = 0,
    target: int | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    seed: int | None = None,
) -> ReducedResult:
    """Branch and bound over one checkerboard colour, the other filled by the assignment.

    ``colour``: 0 searches the squares with even row + column, 1 the others.  ``target``:
    stop at the first board reaching it and prune every branch that cannot (None: look for
    the best score).  ``seed`` shuffles the candidate order (None: tile order).
    """
    if colour not in (0, 1):
        raise InputError("colour must be 0 or 1")
    t = build_tables(puzzle)
    n = puzzle.n_squares
    black = (t.parity == colour) & ~t.fixed
    white = (t.parity != colour) & ~t.fixed
    order = np.flatnonzero(black).astype(np.int64)
    whites = np.flatnonzero(white).astype(np.int64)
    white_index = np.full(n, -1, np.int64)
    white_index[whites] = np.arange(len(whites))
    is_hint = t.fixed.copy()
    hint_tiles = {h.tile for h in puzzle.hints}
    rng = np.random.default_rng(seed) if seed is not None else None
    starts, tiles_, rots_ = [0], [], []
    for sq in order:
        pairs = []
        for candidate in range(puzzle.n_tiles):
            if candidate in hint_tiles:
                continue
            mask = int(t.fit[candidate, t.outer_mask[sq]])
            pairs += [(candidate, r) for r in T.distinct_rotations(puzzle.tiles[candidate]) if mask >> r & 1]
        if rng is not None:
            pairs = [pairs[i] for i in rng.permutation(len(pairs))]
        tiles_ += [a for a, _ in pairs]
        rots_ += [b for _, b in pairs]
        starts.append(len(tiles_))
    board = Board.from_hints(puzzle)
    tile = board.tiles.astype(np.int64)
    rot = board.rotations.astype(np.int64)
    used = np.zeros(puzzle.n_tiles, np.bool_)
    used[tile[tile >= 0]] = True
    # joins between two hints are settled; joins between a hint and a black square start optimistic
    base = 0
    black_hint_joins = 0
    for q in range(n):
        for s in (1, 2):  # E, S: each join once
            nb = int(t.neighbours[q, s])
            if nb < 0:
                continue
            if is_hint[q] and is_hint[nb]:
                c = t.rotated[tile[q], rot[q], s]
                base += int(c != 0 and c == t.rotated[tile[nb], rot[nb], (s + 2) % 4])
            elif (is_hint[q] and black[nb]) or (is_hint[nb] and black[q]):
                black_hint_joins += 1
    hint_bound = np.array([base + black_hint_joins], np.int64)
    opt = np.zeros(len(whites), np.int64)
    for j, w in enumerate(whites):
        opt[j] = _optimistic(int(w), tile, rot, used, t.rotated, t.neighbours, t.fit, t.outer_mask, puzzle.n_tiles)
    saved_opt = np.zeros((max(len(order), 1), 4), np.int64)
    next_idx = np.zeros(len(order) + 1, np.int64)
    state = np.zeros(5, np.int64)
    state[BEST] = -1
    best_tile, best_rot = tile.copy(), rot.copy()
    cand_start = np.array(starts, np.int64)
    cand_tile, cand_rot = np.array(tiles_, np.int64), np.array(rots_, np.int64)
    goal = 0 if target is None else int(target)

    def run_slice(want: int) -> SliceReport:
        before = int(state[NODES])
        reduced_search(
            order,
            whites,
            cand_start,
            cand_tile,
            cand_rot,
            t.rotated,
            t.neighbours,
            t.fit,
            t.outer_mask,
            is_hint,
            white_index,
            tile,
            rot,
            used,
            opt,
            saved_opt,
            next_idx,
            hint_bound,
            state,
            best_tile,
            best_rot,
            goal,
            want,
        )
        return SliceReport(nodes=int(state[NODES]) - before, finished=state[DONE] in (FINISHED, EXHAUSTED))

    # the driver owns the time and node limits, as for every engine
    search = SearchResult(solver="reduced")
    started = time.perf_counter()
    SliceDriver(search, Limits(time=time_limit, nodes=node_limit), first_budget=SLICE_NODES).run(run_slice)
    stopped_by = {FINISHED: "target", EXHAUSTED: None}.get(int(state[DONE]), str(search.stopped_by))
    best_board = None
    if state[BEST] >= 0:
        best_board = Board(puzzle, best_tile.astype(np.int32), best_rot.astype(np.int8))
        if best_board.score() != int(state[BEST]):
            raise RuntimeError(
                f"internal error: reduced search scored {int(state[BEST])}, the board scores {best_board.score()}"
            )
    return ReducedResult(
        int(state[BEST]),
        best_board,
        state[DONE] == EXHAUSTED,
        int(state[NODES]),
        int(state[LEAVES]),
        time.perf_counter() - started,
        stopped_by,
        colour,
    )


def reduced_solve(
    puzzle: Puzzle, colour: int = 0, time_limit: float | None = None, node_limit: int | None = None
) -> ReducedResult:
    """The first solution (every join matched) found by the reduced method, if any."""
    return reduced_exact(puzzle, colour, puzzle.max_score, time_limit, node_limit)
