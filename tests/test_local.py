"""Local search: the assignment neighbourhood, swap-and-rotate, the tabu search, starts.

Every score the search keeps incrementally is compared with ``Board.score()`` (the model is
the independent judge); optimality of the assignment move is checked against brute force
over every permutation and rotation of tiny hole sets.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.local import (
    LocalState,
    SearchState,
    TabuParams,
    TabuVLNS,
    assignment_move,
    best_swap_move,
    choose_holes,
    complete_randomly,
    hole_weights,
    random_start,
    swap_rotate_move,
)
from edgematch.local import tabu_kernel as K
from edgematch.local.hungarian import solve
from edgematch.local.neighbourhood import swap_move_gain
from edgematch.local.tables import build_tables
from edgematch.model import EMPTY, Board
from edgematch.model import tiles as T


@pytest.fixture(scope="module")
def puzzle6():
    return generate(6, seed=3, hints=2).puzzle


@pytest.fixture(scope="module")
def puzzle7():
    return generate(7, 5, seed=5, hints="corner").puzzle


def border_ok(board: Board) -> bool:
    """Every tile shows grey exactly on the sides facing the outside."""
    p = board.puzzle
    edges = board.edges()
    for q in range(p.n_squares):
        outer = T.outer_sides(q, p.width, p.height)
        for s in range(4):
            if (edges[q, s] == T.GREY) != outer[s]:
                return False
    return True


def hints_ok(board: Board) -> bool:
    return all(board.tiles[h.square] == h.tile
               and np.array_equal(T.rotate(board.puzzle.tiles[h.tile], int(board.rotations[h.square])),
                                  T.rotate(board.puzzle.tiles[h.tile], h.rotation))
               for h in board.puzzle.hints)


# ----------------------------------------------------------------------------- Hungarian
@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(0, 2**32 - 1), st.sampled_from([3, 50, 10**9]))
def test_compiled_hungarian_matches_scipy(k, seed, spread):
    cost = np.random.default_rng(seed).integers(-spread, spread + 1, size=(k, k))
    assign, total = solve(cost)
    assert sorted(assign.tolist()) == list(range(k))
    assert total == cost[np.arange(k), assign].sum()
    rows, cols = linear_sum_assignment(cost)
    assert total == cost[rows, cols].sum()
    assign, total = solve(cost, maximize=True)  # the form the tabu search uses
    assert sorted(assign.tolist()) == list(range(k))
    assert total == cost[np.arange(k), assign].sum()
    rows, cols = linear_sum_assignment(cost, maximize=True)
    assert total == cost[rows, cols].sum()


def test_hungarian_handles_prohibitive_costs():
    big = 1 << 44
    cost = np.full((5, 5), big, dtype=np.int64)
    np.fill_diagonal(cost, 0)
    cost[0, 1] = cost[1, 0] = -3
    assign, total = solve(cost)
    assert total == -6 + 0 * 3
    assert assign[0] == 1 and assign[1] == 0


# ----------------------------------------------------------------------------- starts and state
def test_random_start_respects_kinds_hints_and_border(puzzle6, puzzle7):
    for puzzle in (puzzle6, puzzle7):
        for seed in range(3):
            board = random_start(puzzle, seed)
            assert board.is_complete and sorted(board.tiles.tolist()) == list(range(puzzle.n_tiles))
            assert border_ok(board) and hints_ok(board)
            state = LocalState.from_board(board)
            assert state.score == board.score()


def test_complete_randomly_keeps_placed_tiles(puzzle6):
    full = random_start(puzzle6, 1)
    partial = full.copy()
    for q in range(0, puzzle6.n_squares, 3):
        if q not in puzzle6.hint_map:
            partial.remove(q)
    done = complete_randomly(partial, 2)
    kept = partial.tiles != EMPTY
    assert np.array_equal(done.tiles[kept], partial.tiles[kept])
    assert done.is_complete and border_ok(done) and hints_ok(done)


def test_from_board_refuses_boards_local_search_cannot_use(puzzle6):
    board = random_start(puzzle6, 0)
    partial = board.copy()
    partial.remove(int(np.flatnonzero(~build_tables(puzzle6).fixed)[0]))
    with pytest.raises(InputError, match="complete"):
        LocalState.from_board(partial)
    kinds = (build_tables(puzzle6).neighbours < 0).sum(axis=1)
    corner, inner = int(np.flatnonzero(kinds == 2)[0]), int(np.flatnonzero(kinds == 0)[0])
    swapped = board.copy()
    swapped.tiles[[corner, inner]] = swapped.tiles[[inner, corner]]
    if corner not in puzzle6.hint_map and inner not in puzzle6.hint_map:
        with pytest.raises(InputError, match="kind"):
            LocalState.from_board(swapped)


def test_from_board_turns_border_tiles_grey_side_out(puzzle6):
    board = random_start(puzzle6, 4)
    q = 1  # top edge square
    assert q not in puzzle6.hint_map
    board.rotations[q] = (board.rotations[q] + 1) % 4
    state = LocalState.from_board(board)
    assert border_ok(state.to_board())


# ----------------------------------------------------------------------------- the assignment move
def brute_force_best(state: LocalState, squares) -> int:
    """Best score over every permutation and rotation of the hole tiles, by Board.score()."""
    board = state.to_board()
    pieces = [int(board.tiles[q]) for q in squares]
    t = state.tables
    best = -1
    for perm in itertools.permutations(pieces):
        choices = []
        for piece, q in zip(perm, squares):
            mask = int(t.fit[piece, t.outer_mask[q]])
            choices.append([r for r in range(4) if mask >> r & 1])
        if not all(choices):
            continue
        for rots in itertools.product(*choices):
            trial = board.copy()
            for piece, q, r in zip(perm, squares, rots):
                trial.tiles[q] = piece
                trial.rotations[q] = r
            best = max(best, trial.score())
    return best


@pytest.mark.parametrize("seed", range(6))
def test_assignment_move_is_optimal_against_brute_force(puzzle6, seed):
    rng = np.random.default_rng(seed)
    state = LocalState.from_board(random_start(puzzle6, seed))
    for size, strategy in ((3, "random"), (4, "violated"), (4, "checkerboard")):
        squares = choose_holes(state, size, strategy, rng)
        expected = brute_force_best(state, squares)
        before = state.score
        move = assignment_move(state, squares)
        assert state.score == expected == state.to_board().score()
        assert move.gain == expected - before >= 0


def test_hole_weights_are_matched_sides_of_the_best_rotation(puzzle7):
    state = LocalState.from_board(random_start(puzzle7, 2))
    squares = choose_holes(state, 6, "random", 3)
    weights, rotations = hole_weights(state, squares)
    board = state.to_board()
    t = state.tables
    for i, qi in enumerate(squares):
        for j, qj in enumerate(squares):
            piece = int(board.tiles[qi])
            fits = [r for r in range(4) if t.fit[piece, t.outer_mask[qj]] >> r & 1]
            if not fits:
                assert weights[i, j] == -1
                continue
            others = {}
            for r in fits:
                trial = board.copy()
                trial.tiles[qj], trial.rotations[qj] = piece, r
                if i != j:
                    trial.remove(qi)  # the piece leaves its own square
                others[r] = sum(1 for m in range(4) if _side_matches(trial, qj, m))
            assert weights[i, j] == max(others.values())
            assert others[int(rotations[i, j])] == weights[i, j]


def _side_matches(board: Board, q: int, side: int) -> bool:
    p = board.puzzle
    nb = build_tables(p).neighbours[q, side]
    if nb < 0 or board.tiles[nb] == EMPTY:
        return False
    e = board.edges()
    return e[q, side] != T.GREY and e[q, side] == e[nb, (side + 2) % 4]


def test_hole_sets_are_non_adjacent_and_avoid_hints(puzzle6):
    state = LocalState.from_board(random_start(puzzle6, 1))
    t = state.tables
    for strategy in ("random", "violated", "checkerboard"):
        for seed in range(10):
            squares = choose_holes(state, 18, strategy, seed)
            assert len(squares) >= 2 and len(set(squares.tolist())) == len(squares)
            assert not t.fixed[squares].any()
            chosen = set(squares.tolist())
            for q in squares:
                assert not any(int(nb) in chosen for nb in t.neighbours[q] if nb >= 0)
            if strategy == "checkerboard":
                assert len(set(t.parity[squares].tolist())) == 1


def test_violated_selection_prefers_violated_squares(puzzle7):
    state = LocalState.from_board(random_start(puzzle7, 6))
    squares = choose_holes(state, 3, "violated", 0)
    worst = state.violations()[~state.tables.fixed].max()
    assert state.violations()[squares[0]] == worst


def test_holes_tabu_mask_is_honoured(puzzle6):
    state = LocalState.from_board(random_start(puzzle6, 1))
    tabu = np.zeros(puzzle6.n_squares, dtype=bool)
    tabu[::2] = True
    for seed in range(5):
        squares = choose_holes(state, 6, "random", seed, tabu=tabu)
        assert not tabu[squares].any()


def test_forbidden_arcs_are_avoided(puzzle6):
    state = LocalState.from_board(random_start(puzzle6, 8))
    squares = choose_holes(state, 5, "random", 1)
    forbidden = [(int(a), int(b)) for a in squares for b in squares if a != b]
    before = state.tile.copy()
    assignment_move(state, squares, forbidden_arcs=forbidden)
    assert np.array_equal(state.tile, before)  # only staying put is allowed


def test_invalid_hole_sets_are_refused(puzzle6):
    state = LocalState.from_board(random_start(puzzle6, 1))
    with pytest.raises(InputError, match="adjacent"):
        assignment_move(state, [7, 8])
    hint = puzzle6.hints[0].square
    with pytest.raises(InputError, match="hint"):
        assignment_move(state, [hint])


# ----------------------------------------------------------------------------- swap and rotate
def test_swap_rotate_gain_matches_board_score(puzzle7):
    state = LocalState.from_board(random_start(puzzle7, 3))
    rng = np.random.default_rng(0)
    movable = state.movable_squares()
    kinds = (state.tables.neighbours < 0).sum(axis=1)
    done = 0
    while done < 40:
        a, b = (int(x) for x in rng.choice(movable, 2, replace=False))
        if kinds[a] != kinds[b]:
            with pytest.raises(InputError):
                swap_rotate_move(state, a, b)
            continue
        predicted = swap_move_gain(state, a, b)
        before = state.to_board().score()
        gain = swap_rotate_move(state, a, b)
        after = state.to_board()
        assert after.score() - before == gain == state.score - before
        assert gain <= predicted
        assert border_ok(after)
        done += 1


def test_best_swap_move_beats_every_other_swap(puzzle7):
    state = LocalState.from_board(random_start(puzzle7, 9))
    a = int(np.argmax(np.where(state.tables.fixed, -1, state.violations())))
    gains = [swap_move_gain(state, a, b) for b in state.movable_squares() if b != a]
    before = state.score
    partner, gain = best_swap_move(state, a)
    assert gain == max(gains)
    assert state.score == before + gain == state.to_board().score()


# ----------------------------------------------------------------------------- the tabu search
def step(search: TabuVLNS, puzzle, state: SearchState, moves: int) -> SearchState:
    return search.optimize(puzzle, state=state, max_moves=state.moves + moves).state


@pytest.mark.parametrize("assignment", ["scipy", "compiled"])
@pytest.mark.parametrize("extra", [{}, {"accept_slack": 1}, {"penalty": 2, "penalty_decay": 3},
                                   {"selection": "checkerboard", "diversify_rotation": "random", "tie_break": "first"},
                                   {"forced_moves": 1}])
def test_tabu_run_keeps_invariants(puzzle7, extra, assignment):
    search = TabuVLNS(seed=1, set_size=3, set_size_max=8, plateau_length=40, intensify_after=3, diversify_moves=3,
                      assignment=assignment, **extra)
    state = search.initial_state(puzzle7)
    for _ in range(25):
        state = step(search, puzzle7, state, 37)
        board, best = state.board(puzzle7), state.best_board(puzzle7)
        assert state.score == board.score()
        assert state.best_score == best.score() >= state.score
        for b in (board, best):
            assert sorted(b.tiles.tolist()) == list(range(puzzle7.n_tiles))
            assert border_ok(b) and hints_ok(b)
    assert state.counters[K.DIVERSIFICATIONS] > 0 and state.counters[K.INTENSIFICATIONS] > 0
    weights = state.side_weights
    t = build_tables(puzzle7)
    for q in range(puzzle7.n_squares):  # a join weighs the same seen from both of its squares
        for side in range(4):
            nb = t.neighbours[q, side]
            if nb >= 0:
                assert weights[q, side] == weights[nb, (side + 2) % 4]
    assert (weights > 1).any() == ("penalty" in extra)


@pytest.mark.parametrize("extra", [{}, {"penalty": 2}, {"forced_moves": 1}])
def test_scipy_and_compiled_assignment_make_the_same_run(puzzle7, extra):
    """Both modes share every step but the solver.  With random tie-breaking the noise in
    the weights makes each move's optimal assignment unique (a tie needs two different
    permutations with equal noise sums), so SciPy and the compiled Hungarian method pick
    the same one, move after move, and the two runs coincide."""
    runs = [TabuVLNS(seed=7, set_size=3, set_size_max=12, plateau_length=40, intensify_after=3, assignment=mode,
                     **extra).optimize(puzzle7, max_moves=2500).state for mode in ("scipy", "compiled")]
    assert runs[0].counters[K.CHANGES] > 100
    for name in ("tile", "rot", "best_tile", "tabu_pos", "tabu_arc", "rng", "counters", "side_weights"):
        assert np.array_equal(getattr(runs[0], name), getattr(runs[1], name)), name


def test_penalties_weigh_unmatched_joins():
    from edgematch.local.kernels import assignment_weights, weighted_assignment_weights

    puzzle = generate(6, seed=8).puzzle
    state = LocalState.from_board(random_start(puzzle, 1))
    t = state.tables
    counters = np.zeros(K.N_COUNTERS, dtype=np.int64)
    side_weights = np.ones((puzzle.n_squares, 4), dtype=np.int64)
    squares = choose_holes(state, 6, "random", 2)
    k = len(squares)
    needs = np.empty((k, 4), np.int64)
    from edgematch.local.kernels import hole_needs

    hole_needs(t.rotated, t.neighbours, state.tile, state.rot, squares, k, needs)
    plain, weighted = np.empty((k, k), np.int64), np.empty((k, k), np.int64)
    rot_a, rot_b = np.empty((k, k), np.int64), np.empty((k, k), np.int64)
    pieces = state.tile[squares].copy()
    zero = np.zeros(k, np.int64)
    assignment_weights(t.rotated, t.fit, t.outer_mask, pieces, squares, needs, k, plain, rot_a, zero)
    weighted_assignment_weights(t.rotated, t.fit, t.outer_mask, pieces, squares, needs, side_weights, k, weighted,
                                rot_b, zero)
    assert np.array_equal(plain, weighted)  # weight 1 everywhere: the plain count
    K.bump_penalties(t.rotated, t.neighbours, state.tile, state.rot, side_weights, 3, counters, 0)
    mismatched = {(m.join.a, m.join.b) for m in state.to_board().mismatches()}
    for q in range(puzzle.n_squares):
        for side in (1, 2):
            nb = t.neighbours[q, side]
            if nb >= 0:
                assert side_weights[q, side] == (4 if (q, nb) in mismatched else 1)


def test_tabu_lists_are_honoured_move_by_move(puzzle6):
    """Replays single moves: a moved piece never takes a tabu arc, no tabu square is in S
    while enough free squares exist (checked on the squares whose tile or rotation changed)."""
    search = TabuVLNS(seed=4, set_size=4, set_size_max=4, position_tenure=(3, 5), arc_tenure=(30, 60),
                      plateau_length=0, selection="random")
    state = search.initial_state(puzzle6)
    n = puzzle6.n_squares
    arc_used = 0
    for _ in range(300):
        before = state.copy()
        it = before.moves
        state = step(search, puzzle6, state, 1)
        where_before = {int(t): q for q, t in enumerate(before.tile)}
        changed = [q for q in range(n) if state.tile[q] != before.tile[q] or state.rot[q] != before.rot[q]]
        for q in changed:
            assert before.tabu_pos[q] <= it, "a tabu position was part of S"
            old = where_before[int(state.tile[q])]
            if old != q:
                assert before.tabu_arc[K.arc_slot(old, q, n, len(before.tabu_arc))] <= it, "a tabu arc was used"
                assert state.tabu_arc[K.arc_slot(q, old, n, len(state.tabu_arc))] > it  # reverse now tabu
                arc_used += 1
            assert state.tabu_pos[q] > it
    assert arc_used > 0


def test_intensification_restores_the_best_board(puzzle6):
    search = TabuVLNS(seed=2, set_size=2, set_size_max=3, plateau_length=5, diversify_moves=6, intensify_after=1)
    state = search.initial_state(puzzle6)
    seen = 0
    for _ in range(400):
        before = state.copy()
        state = step(search, puzzle6, state, 1)
        if state.counters[K.INTENSIFICATIONS] > before.counters[K.INTENSIFICATIONS]:
            assert np.array_equal(state.tile, state.best_tile) and state.score == state.best_score
            seen += 1
    assert seen > 0


@pytest.mark.parametrize("tie_break", ["random", "first"])
@pytest.mark.parametrize("assignment", ["scipy", "compiled"])
def test_resumed_search_continues_exactly(puzzle7, assignment, tie_break):
    """Stopping, saving the state as bytes and resuming gives the very same run."""
    search = TabuVLNS(seed=11, set_size=3, set_size_max=7, plateau_length=60, intensify_after=2, tie_break=tie_break,
                      assignment=assignment)
    straight = search.optimize(puzzle7, max_moves=3000).state
    half = search.optimize(puzzle7, max_moves=1300).state
    restored = SearchState.from_bytes(half.to_bytes())
    resumed = search.optimize(puzzle7, state=restored, max_moves=3000).state
    for name in ("tile", "rot", "best_tile", "best_rot", "tabu_pos", "tabu_arc", "rng", "counters", "local_tile",
                 "local_rot", "side_weights", "segment_tile", "segment_rot"):
        assert np.array_equal(getattr(straight, name), getattr(resumed, name)), name


def test_restarts_keep_the_run_best_and_resume_exactly(puzzle7):
    calls = []

    def restart(puzzle, segment):
        calls.append(segment)
        return random_start(puzzle, 100 + segment)

    search = TabuVLNS(seed=3, set_size=3, set_size_max=6, plateau_length=30, restart_after=400)
    state = search.initial_state(puzzle7)
    best_so_far = state.best_score
    for _ in range(20):
        state = search.optimize(puzzle7, state=state, max_moves=state.moves + 250, restart=restart).state
        assert state.best_score >= best_so_far and state.best_score >= state.counters[K.BEST]
        assert state.best_board(puzzle7).score() == state.best_score
        assert state.board(puzzle7).score() == state.score
        best_so_far = state.best_score
    assert state.segment >= 3 and calls == list(range(1, state.segment + 1))
    straight = search.optimize(puzzle7, max_moves=4000).state
    half = search.optimize(puzzle7, max_moves=1700).state
    resumed = search.optimize(puzzle7, state=SearchState.from_bytes(half.to_bytes()), max_moves=4000).state
    assert straight.segment >= 2
    for name in ("tile", "best_tile", "segment_tile", "counters", "rng"):
        assert np.array_equal(getattr(straight, name), getattr(resumed, name)), name


def test_same_seed_same_run_other_seed_other_start(puzzle7):
    a = TabuVLNS(seed=5).optimize(puzzle7, max_moves=500)
    b = TabuVLNS(seed=5).optimize(puzzle7, max_moves=500)
    c = TabuVLNS(seed=6).optimize(puzzle7, max_moves=500)
    assert a.best_board == b.best_board and a.history[0] == b.history[0]
    assert not np.array_equal(a.state.tile, c.state.tile)


def test_small_puzzle_is_solved_and_the_result_verifies():
    made = generate(4, seed=2)
    result = TabuVLNS(seed=0).optimize(made.puzzle, max_moves=200_000)
    assert result.stopped_by == "target"
    assert result.best_score == made.puzzle.max_score == result.best_board.score()
    assert result.best_board.verify().valid


def test_start_board_is_used_and_hints_stay(puzzle7):
    start = random_start(puzzle7, 42)
    result = TabuVLNS(seed=1).optimize(puzzle7, start, max_moves=2000)
    assert result.history[0] == (0.0, start.score())
    assert hints_ok(result.best_board) and result.best_score >= start.score()


def test_callback_can_stop_and_sees_consistent_progress(puzzle7):
    seen = []

    def callback(progress):
        seen.append(progress)
        assert progress.best_board().score() == progress.best_score
        return len(seen) < 3

    result = TabuVLNS(seed=1, batch_seconds=0.001).optimize(puzzle7, time_limit=30, callback=callback)
    assert result.stopped_by in ("callback", "target") and len(seen) <= 3


def test_plain_lns_and_parameters():
    params = TabuParams.plain_lns(8)
    assert params.position_tenure == (0, 0) and params.plateau_length == 0
    assert TabuParams.from_dict(params.to_dict()) == params
    with pytest.raises(InputError):
        TabuParams(selection="nowhere")
    with pytest.raises(InputError):
        TabuParams(arc_tenure=(5, 2))
    with pytest.raises(InputError):
        TabuVLNS(no_such_parameter=1)
    with pytest.raises(InputError, match="assignment"):
        TabuParams(assignment="lapjv")
    for mode in ("scipy", "compiled"):
        assert TabuParams.from_dict(TabuParams(assignment=mode).to_dict()).assignment == mode
    old = TabuParams().to_dict()
    del old["assignment"]  # parameters recorded before the choice existed: the compiled solver they ran with
    assert TabuParams.from_dict(old).assignment == "compiled"
    with pytest.raises(InputError, match="end condition"):
        TabuVLNS().optimize(generate(4, seed=1).puzzle)


def test_unreadable_state_is_an_input_error(puzzle7):
    with pytest.raises(InputError, match="unreadable"):
        SearchState.from_bytes(b"not a checkpoint")
    state = TabuVLNS(seed=1).initial_state(puzzle7)
    other = generate(5, seed=1).puzzle
    with pytest.raises(InputError, match="does not belong"):
        TabuVLNS(seed=1).optimize(other, state=state, max_moves=10)
