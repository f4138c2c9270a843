"""The CP start of section 5: solve the puzzle with the joins of k squares relaxed.

Schaus & Deville relax the joins of k pairwise non-adjacent squares (chosen at random),
solve the relaxed problem with CP under a time limit, and fill the relaxed squares
optimally with the assignment move.  When CP finds no solution in time they complete "the
largest partial assignment (deepest node of the search tree)" at random.

Two exact engines solve the relaxed problem here:

* ``dfs`` (default): a compiled depth-first search in row-scan order over the non-relaxed
  squares, candidates (tile, fitting rotation) in a random order per square, every join
  between two placed squares checked.  A relaxed square stays empty during the search, so
  the joins around it are free, exactly as in the relaxed problem; the search is complete
  (given time it proves the relaxed problem has no solution) and it remembers its deepest
  board, which the paper's fallback needs.  It differs from the paper's Gecode model in the
  branching: a fixed scan order instead of first-fail on the (piece, orientation) domains.
* ``cpsat``: the CP model (tile and colour variables, table constraints, AllDifferent)
  solved by OR-Tools CP-SAT.  CP-SAT does not expose a deepest node, so without a
  solution the start falls back to a random board; on the 16x16 the model is too large for
  CP-SAT to find a solution within a minute on two cores, so it is meant for small puzzles.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from ortools.sat.python import cp_model

from ..engines.base import Limits, SliceDriver, SliceReport
from ..engines.result import SearchResult
from ..errors import InputError
from ..model import Board, Puzzle
from ..model import tiles as T
from .neighbourhood import assignment_move
from .rng import below, seed_state
from .starts import complete_randomly
from .state import LocalState
from .tables import build_tables

ENGINES = ("dfs", "cpsat")
DEPTH, NODES, DEEPEST, DONE = range(4)
RUNNING, SOLVED, EXHAUSTED = 0, 1, 2
SLICE_NODES = 1_000_000


@dataclass
class RelaxedStart:
    """A starting board from the relaxed problem and how it was obtained."""

    board: Board
    relaxed: list[int]
    solved: bool  # the relaxed problem was solved (every non-relaxed join matches)
    placed: int  # squares of the deepest / solved board placed by the engine (hints included)
    cp_score: int  # score of that board before completion and assignment
    seconds: float
    status: str  # solved, exhausted (no solution exists), time, nodes, interrupted
    nodes: int = 0
    engine: str = "dfs"
    info: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {
            "kind": "cp",
            "engine": self.engine,
            "relaxed": len(self.relaxed),
            "solved": self.solved,
            "placed": self.placed,
            "cp_score": self.cp_score,
            "score": self.board.score(),
            "seconds": round(self.seconds, 3),
            "status": self.status,
            "nodes": self.nodes,
            **self.info,
        }


def choose_relaxed_squares(puzzle: Puzzle, count: int, rng) -> list[int]:
    """``count`` pairwise non-adjacent, non-hint squares at random (fewer if impossible)."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    t = build_tables(puzzle)
    chosen: list[int] = []
    taken = np.zeros(puzzle.n_squares, dtype=bool)
    for q in rng.permutation(puzzle.n_squares):
        if len(chosen) >= count:
            break
        if t.fixed[q] or any(taken[nb] for nb in t.neighbours[q] if nb >= 0):
            continue
        taken[q] = True
        chosen.append(int(q))
    return sorted(chosen)


def relaxed_cp_start(
    puzzle: Puzzle,
    relax: int = 0,
    time_limit: float = 30.0,
    rng=None,
    engine: str = "dfs",
    relaxed: list[int] | None = None,
    node_limit: int | None = None,
    restart_nodes: int | None = None,
    stop=None,
) -> RelaxedStart:
    """A complete start board from the relaxed problem (see the module docstring).

    ``stop``: an object with ``is_set()`` (an :class:`~edgematch.engines.base.StopFlag`),
    polled between slices of the depth-first search; once set, the search ends with status
    ``interrupted`` and its deepest board is completed as after a time-out.
    """
    if relax < 0:
        raise InputError("the number of relaxed squares must not be negative")
    if time_limit is None or time_limit <= 0:
        raise InputError("the time limit of the relaxed search must be positive")
    if engine not in ENGINES:
        raise InputError(f"unknown relaxed-problem engine '{engine}' (known: {', '.join(ENGINES)})")
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    if relaxed is None:
        relaxed = choose_relaxed_squares(puzzle, relax, rng)
    relaxed = sorted(int(q) for q in relaxed)
    if engine == "cpsat":
        board, solved, seconds, status, nodes = _solve_cpsat(puzzle, relaxed, time_limit, rng)
        restarts = 0
    else:
        board, solved, seconds, status, nodes, restarts = _solve_dfs(
            puzzle, relaxed, time_limit, rng, node_limit, restart_nodes, stop
        )
    placed = board.n_placed
    cp_score = board.score()
    completed = complete_randomly(board, rng)
    if solved and len(relaxed) >= 2:  # fill the relaxed squares optimally
        state = LocalState.from_board(completed)
        assignment_move(state, relaxed)
        completed = state.to_board()
    return RelaxedStart(
        completed, relaxed, solved, placed, cp_score, seconds, status, nodes, engine, {"restarts": restarts}
    )


# --------------------------------------------------------------------------- depth-first search
def _index(puzzle: Puzzle, order: np.ndarray, rng):
    """Candidate (tile, rotation) lists per depth, bucketed by the colours they show on the
    (up to two) sides whose neighbours are always placed before that depth.

    In a fixed order, whether a neighbour is placed when a square is reached does not
    change during the search (earlier in the order, or a hint: placed; later or relaxed:
    empty), so each depth has fixed "key sides"; the search reads the neighbours' colours
    on them and visits only the bucket of candidates that show those colours.  Any further
    placed neighbour (a hint below, say) is checked per candidate.
    """
    t = build_tables(puzzle)
    dense = np.zeros(int(puzzle.tiles.max()) + 1, np.int64)  # colour -> small index (grey 0)
    for i, colour in enumerate(puzzle.colours):
        dense[colour] = i + 1
    n_colours = len(puzzle.colours) + 1
    two_keys = n_colours * n_colours <= 4096  # else bucket by one side only (memory)
    position = np.full(puzzle.n_squares, -1)
    position[order] = np.arange(len(order))
    hint_tiles = {h.tile for h in puzzle.hints}
    D = len(order)
    key_sides = np.full((D, 2), -1, np.int64)
    extra_sides = np.zeros((D, 4), np.bool_)
    n_keys = n_colours * n_colours
    bucket_start = np.zeros((D, n_keys + 1), np.int64)
    # the distinct fitting (tile, rotation) placements of each border class
    placements: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for mask_q in np.unique(t.outer_mask[order]) if D else []:
        pairs = []
        for tile in range(puzzle.n_tiles):
            if tile in hint_tiles:
                continue
            mask = int(t.fit[tile, mask_q])
            seen = set()
            for r in range(4):
                if mask >> r & 1:
                    view = tuple(int(c) for c in t.rotated[tile, r])
                    if view not in seen:
                        seen.add(view)
                        pairs.append((tile, r))
        arr = np.array(pairs, np.int64).reshape(-1, 2)
        placements[int(mask_q)] = (arr[:, 0], arr[:, 1])
    tiles_parts, rots_parts = [], []
    base = 0
    for d, q in enumerate(order):
        placed_sides = [
            s
            for s in range(4)
            if t.neighbours[q, s] >= 0 and (t.fixed[t.neighbours[q, s]] or 0 <= position[t.neighbours[q, s]] < d)
        ]
        keys = placed_sides[:2] if two_keys else placed_sides[:1]
        for i, side in enumerate(keys):
            key_sides[d, i] = side
        for side in placed_sides[len(keys) :]:
            extra_sides[d, side] = True
        tiles, rots = placements[int(t.outer_mask[q])]
        key = np.zeros(len(tiles), np.int64)
        for side in keys:
            key = key * n_colours + dense[t.rotated[tiles, rots, side]]
        if len(keys) == 1:
            key = key * n_colours
        shuffled = rng.permutation(len(tiles))
        ordered = shuffled[np.argsort(key[shuffled], kind="stable")]
        tiles_parts.append(tiles[ordered])
        rots_parts.append(rots[ordered])
        counts = np.bincount(key, minlength=n_keys)
        bucket_start[d, 1:] = np.cumsum(counts)
        bucket_start[d] += base
        base += len(tiles)
    cand_tile = np.concatenate(tiles_parts) if tiles_parts else np.zeros(0, np.int64)
    cand_rot = np.concatenate(rots_parts) if rots_parts else np.zeros(0, np.int64)
    return key_sides, extra_sides, bucket_start, cand_tile, cand_rot, n_colours, dense


@njit(cache=True)
def shuffle_buckets(bucket_start, cand_tile, cand_rot, rng):
    """A new random order inside every bucket (for a restart of the search)."""
    for d in range(bucket_start.shape[0]):
        for key in range(bucket_start.shape[1] - 1):
            lo = bucket_start[d, key]
            hi = bucket_start[d, key + 1]
            for i in range(hi - 1, lo, -1):
                j = lo + below(rng, i - lo + 1)
                cand_tile[i], cand_tile[j] = cand_tile[j], cand_tile[i]
                cand_rot[i], cand_rot[j] = cand_rot[j], cand_rot[i]


@njit(cache=True)
def relaxed_dfs(
    order,
    key_sides,
    extra_sides,
    bucket_start,
    cand_tile,
    cand_rot,
    n_colours,
    dense,
    rotated,
    neighbours,
    tile,
    rot,
    used,
    next_idx,
    end_idx,
    state,
    deepest_tile,
    deepest_rot,
    node_limit,
):
    """Depth-first search over the squares of ``order``; resumable (state in the arrays).

    ``next_idx[d] .. end_idx[d]``: the candidates still to try at depth ``d`` (the bucket
    that matches the neighbours' colours on the depth's key sides).
    """
    D = order.shape[0]
    depth = state[DEPTH]
    nodes = 0
    while nodes < node_limit:
        if depth == D:
            state[DONE] = SOLVED
            break
        q = order[depth]
        i = next_idx[depth]
        end = end_idx[depth]
        placed = False
        while i < end:
            t = cand_tile[i]
            r = cand_rot[i]
            i += 1
            if used[t]:
                continue
            ok = True
            for s in range(4):
                if extra_sides[depth, s]:
                    nb = neighbours[q, s]
                    if rotated[t, r, s] != rotated[tile[nb], rot[nb], (s + 2) % 4]:
                        ok = False
                        break
            if ok:
                tile[q] = t
                rot[q] = r
                used[t] = True
                next_idx[depth] = i
                depth += 1
                if depth < D:
                    _open(
                        depth,
                        order,
                        key_sides,
                        bucket_start,
                        n_colours,
                        dense,
                        rotated,
                        neighbours,
                        tile,
                        rot,
                        next_idx,
                        end_idx,
                    )
                nodes += 1
                placed = True
                break
        if placed:
            if depth > state[DEEPEST]:
                state[DEEPEST] = depth
                for x in range(tile.shape[0]):
                    deepest_tile[x] = tile[x]
                    deepest_rot[x] = rot[x]
            continue
        next_idx[depth] = end
        if depth == 0:
            state[DONE] = EXHAUSTED
            break
        depth -= 1
        q0 = order[depth]
        used[tile[q0]] = False
        tile[q0] = -1
    state[DEPTH] = depth
    state[NODES] += nodes


@njit(cache=True)
def _open(depth, order, key_sides, bucket_start, n_colours, dense, rotated, neighbours, tile, rot, next_idx, end_idx):
    """Point depth ``depth`` at the bucket matching its placed neighbours' colours."""
    q = order[depth]
    key = 0
    for i in range(2):
        s = key_sides[depth, i]
        c = 0
        if s >= 0:
            nb = neighbours[q, s]
            c = dense[rotated[tile[nb], rot[nb], (s + 2) % 4]]
        key = key * n_colours + c
    next_idx[depth] = bucket_start[depth, key]
    end_idx[depth] = bucket_start[depth, key + 1]


def _solve_dfs(
    puzzle: Puzzle,
    relaxed: list[int],
    time_limit: float,
    rng,
    node_limit: int | None,
    restart_nodes: int | None = None,
    stop=None,
):
    t = build_tables(puzzle)
    relaxed_set = set(relaxed)
    order = np.array([q for q in range(puzzle.n_squares) if q not in relaxed_set and not t.fixed[q]], np.int64)
    key_sides, extra_sides, bucket_start, cand_tile, cand_rot, n_colours, dense = _index(puzzle, order, rng)
    board = Board.from_hints(puzzle)
    tile = board.tiles.astype(np.int64)
    rot = board.rotations.astype(np.int64)
    used = np.zeros(puzzle.n_tiles, dtype=np.bool_)
    used[tile[tile >= 0]] = True
    next_idx = np.zeros(len(order) + 1, np.int64)
    end_idx = np.zeros(len(order) + 1, np.int64)
    state = np.zeros(4, np.int64)
    if len(order):
        _open(
            0, order, key_sides, bucket_start, n_colours, dense, t.rotated, t.neighbours, tile, rot, next_idx, end_idx
        )
    deepest_tile, deepest_rot = tile.copy(), rot.copy()
    hint_tile, hint_rot = tile.copy(), rot.copy()
    shuffle_rng = seed_state(np.random.SeedSequence(int(rng.integers(0, 2**63))))
    restarts = 0
    since_restart = 0

    def run_slice(want: int) -> SliceReport:
        nonlocal restarts, since_restart
        if restart_nodes and since_restart >= restart_nodes:  # a fresh search in a new random order
            tile[:], rot[:] = hint_tile, hint_rot
            used[:] = False
            used[tile[tile >= 0]] = True
            shuffle_buckets(bucket_start, cand_tile, cand_rot, shuffle_rng)
            state[DEPTH] = 0
            _open(
                0,
                order,
                key_sides,
                bucket_start,
                n_colours,
                dense,
                t.rotated,
                t.neighbours,
                tile,
                rot,
                next_idx,
                end_idx,
            )
            restarts += 1
            since_restart = 0
        budget = min(want, restart_nodes - since_restart) if restart_nodes else want
        before = int(state[NODES])
        relaxed_dfs(
            order,
            key_sides,
            extra_sides,
            bucket_start,
            cand_tile,
            cand_rot,
            n_colours,
            dense,
            t.rotated,
            t.neighbours,
            tile,
            rot,
            used,
            next_idx,
            end_idx,
            state,
            deepest_tile,
            deepest_rot,
            budget,
        )
        done = int(state[NODES]) - before
        since_restart += done
        return SliceReport(nodes=done, finished=state[DONE] in (SOLVED, EXHAUSTED))

    # the driver owns the time and node limits and the stop flag, as for every engine
    search = SearchResult(solver="relaxed-dfs")
    driver = SliceDriver(search, Limits(time=time_limit, nodes=node_limit), stop=stop, first_budget=SLICE_NODES)
    started = time.perf_counter()
    driver.run(run_slice)
    # "solved", "exhausted" (the whole space: no solution; restarts only reorder it), else
    # the limit or stop that ended it: "time", "nodes", "interrupted"
    status = {SOLVED: "solved", EXHAUSTED: "exhausted"}.get(int(state[DONE]), str(search.stopped_by))
    seconds = time.perf_counter() - started
    solved = status == "solved"
    if solved:
        result = Board(puzzle, tile.astype(np.int32), rot.astype(np.int8))
    else:
        result = Board(puzzle, deepest_tile.astype(np.int32), deepest_rot.astype(np.int8))
    return result, solved, seconds, status, int(state[NODES]), restarts


# --------------------------------------------------------------------------- CP-SAT
def _solve_cpsat(puzzle: Puzzle, relaxed: list[int], time_limit: float, rng):
    t = build_tables(puzzle)
    relaxed_set = set(relaxed)
    model = cp_model.CpModel()
    n = puzzle.n_squares
    max_colour = int(puzzle.tiles.max())
    kinds = (t.neighbours < 0).sum(axis=1)
    tile_kinds = np.minimum(puzzle.kinds.astype(int), 2)
    hint_tiles = {h.tile for h in puzzle.hints}
    tile_vars = {}
    colour_vars: dict[int, list] = {}
    for q in range(n):
        if q in puzzle.hint_map:
            tile, rotation = puzzle.hint_map[q]
            tile_vars[q] = model.new_constant(tile)
            colour_vars[q] = [model.new_constant(int(c)) for c in T.rotate(puzzle.tiles[tile], rotation)]
            continue
        candidates = [int(x) for x in np.flatnonzero(tile_kinds == kinds[q]) if int(x) not in hint_tiles]
        tile_vars[q] = model.new_int_var_from_domain(cp_model.Domain.FromValues(candidates), f"tile{q}")
        if q in relaxed_set:
            continue
        colours = [model.new_int_var(0, max_colour, f"c{q}_{s}") for s in range(4)]
        colour_vars[q] = colours
        rows = set()
        for tile in candidates:
            mask = int(t.fit[tile, t.outer_mask[q]])
            for r in range(4):
                if mask >> r & 1:
                    rows.add((tile, *(int(c) for c in t.rotated[tile, r])))
        model.add_allowed_assignments([tile_vars[q], *colours], sorted(rows))
    model.add_all_different([tile_vars[q] for q in range(n)])
    for q in range(n):
        for side in (T.E, T.S):
            nb = int(t.neighbours[q, side])
            if nb >= 0 and q in colour_vars and nb in colour_vars:
                model.add(colour_vars[q][side] == colour_vars[nb][(side + 2) % 4])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(rng.integers(0, 2**31 - 1))
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        name = "exhausted" if status == cp_model.INFEASIBLE else "time"
        return Board.from_hints(puzzle), False, solver.WallTime(), name, int(solver.NumBranches())
    board = Board(puzzle)
    for q in range(n):
        tile = int(solver.Value(tile_vars[q]))
        rotation = 0
        if q in colour_vars:
            shown = [int(solver.Value(c)) for c in colour_vars[q]]
            rotation = next(r for r in range(4) if list(T.rotate(puzzle.tiles[tile], r)) == shown)
        board.place(q, tile, rotation)
    for q in relaxed:  # empty, to be filled by the assignment
        board.remove(q)
    return board, True, solver.WallTime(), "solved", int(solver.NumBranches())
