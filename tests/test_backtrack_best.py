"""Best-score search: schedules of invalid joins, targets, optimality, heuristics."""

from __future__ import annotations

import numpy as np
import pytest

from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.backtrack.fill import fill_board
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model import Puzzle
from edgematch.model.schedules import julia_schedule, schedule_array
from support.reference import all_boards_max_score


@pytest.mark.parametrize("w,h,hints,seed", [(4, 4, "none", 1), (5, 4, 2, 2), (6, 5, "corner", 3)])
def test_best_finds_a_perfect_board_on_solvable_puzzles(w, h, hints, seed):
    g = generate(w, h, 2, 4, seed=seed, hints=hints)
    result = BacktrackSolver().best(g.puzzle)
    assert result.best_score == g.puzzle.max_score
    assert result.stopped_by == "target"
    assert result.best_board.is_complete and result.best_board.verify().valid


def test_best_with_errors_allowed_still_reaches_the_perfect_score():
    g = generate(5, 5, 2, 4, seed=5)
    result = BacktrackSolver(schedule="10:1,20:2").best(g.puzzle)
    assert result.best_score == g.puzzle.max_score and result.best_board.verify().valid


def _scrambled(seed: int) -> Puzzle:
    """A 3x3 puzzle that usually has no solution: the inner tile replaced by a random one."""
    g = generate(3, 3, 2, 3, seed=seed)
    tiles = np.array(g.puzzle.tiles)
    inner = [i for i, t in enumerate(tiles) if (t == 0).sum() == 0][0]
    rng = np.random.default_rng(seed)
    tiles[inner] = rng.integers(3, 6, 4)
    return Puzzle(tiles, 3, 3)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("frame_exact", [True, False])
def test_exhaustive_best_equals_the_maximum_over_all_boards(seed, frame_exact):
    puzzle = _scrambled(seed)
    expected = all_boards_max_score(puzzle, frame_exact)
    result = BacktrackSolver(schedule=puzzle.max_score, frame_exact=frame_exact, max_tile_errors=4).best(puzzle)
    assert result.best_score == expected
    if result.best_score < puzzle.max_score:
        assert result.complete and result.stopped_by is None


@pytest.mark.parametrize("seed", [0, 13, 15, 32])
@pytest.mark.parametrize("square", [4, 5, 7])
def test_exact_squares_forbid_invalid_joins_to_the_neighbours_placed_before(seed, square):
    """A tile on an exact square matches every neighbour the row scan placed before it;
    the exhaustive best equals the best over the complete boards that keep that rule
    (seeds 13, 15 and 32: the rule lowers the best or leaves no complete board)."""
    puzzle = _scrambled(seed)
    before = {square - 3, square - 1 if square % 3 else -1}

    def keep(board):
        return not any({m.join.a, m.join.b} in ({n, square} for n in before) for m in board.mismatches())

    expected = all_boards_max_score(puzzle, True, keep)
    result = BacktrackSolver(schedule=puzzle.max_score, max_tile_errors=4, exact_squares=[square]).best(puzzle)
    assert result.statistics["exact_squares"] == [square] and keep(result.best_board)
    if expected >= 0:
        assert result.best_score == expected and result.best_board.is_complete
    else:  # the best partial board: no complete board keeps the rule
        assert not result.best_board.is_complete and result.complete
    name = "ABC"[square // 3] + str(square % 3 + 1)  # the community's name of the square
    by_name = BacktrackSolver(schedule=puzzle.max_score, max_tile_errors=4, exact_squares=name).best(puzzle)
    assert by_name.best_score == result.best_score


def test_schedule_bounds_the_invalid_joins_of_every_reported_board():
    g = generate(6, 6, 2, 5, seed=8)
    limits = schedule_array("breaks:10,20,30", 36)
    boards = []
    result = BacktrackSolver(schedule="breaks:10,20,30", target=g.puzzle.max_score, node_limit=200_000).best(
        g.puzzle, callback=lambda board, score: boards.append((board.copy(), score)))
    assert boards and boards[-1][1] == result.best_score
    for board, score in boards:
        assert board.score() == score
        assert len(board.mismatches()) <= limits[board.n_placed]


def test_no_errors_schedule_gives_the_deepest_valid_partial_board():
    unsolvable = 0
    for seed in range(6):
        puzzle = _scrambled(seed)
        result = BacktrackSolver().best(puzzle)
        board = result.best_board
        assert board.mismatches() == [] and board.verify(require_complete=False).valid
        if result.best_score < puzzle.max_score:
            unsolvable += 1
            assert result.complete and result.stopped_by is None
    assert unsolvable


def test_target_stops_early_and_restarts_reseed():
    g = generate(6, 6, 2, 6, seed=2)
    target = g.puzzle.max_score - 20
    result = BacktrackSolver(schedule=2, target=target).best(g.puzzle)
    assert result.stopped_by == "target" and result.best_score >= target
    restarted = BacktrackSolver(schedule=1, seed=3, restart_nodes=500, node_limit=5_000).best(g.puzzle)
    assert restarted.statistics["restarts"] >= 1 and restarted.best_score > 0


def _sides_of(board, colour) -> int:
    """Sides of ``colour`` shown by the tiles on the board."""
    return sum(int(c) == colour for t in board.tiles if t >= 0 for c in board.puzzle.tiles[t])


def test_priority_colours_lower_bound_is_respected():
    g = generate(5, 5, 2, 4, seed=4)
    puzzle = g.puzzle
    colour = puzzle.inner_colours[0]
    # the planted solution's first 10 squares (row scan) show this many sides of the colour,
    # so a bound of that many by 10 tiles leaves the planted solution in the tree
    planted_first10 = sum(int(c) == colour for sq in range(10) for c in puzzle.tiles[int(g.solution.tiles[sq])])
    assert planted_first10 > 0
    seen = []
    result = BacktrackSolver(priority_colours=[colour], priority_schedule=f"10:{planted_first10}").best(
        puzzle, callback=lambda board, score: seen.append(board.copy()))
    assert result.best_score == puzzle.max_score
    deep = [board for board in seen + [result.best_board] if board.n_placed >= 10]
    assert deep and all(_sides_of(board, colour) >= planted_first10 for board in deep)
    # a bound that no 10 tiles can meet (more sides than the whole set has): no board
    # ever gets a 10th tile, while the first 9 squares can still be filled
    everything = sum(int(c) == colour for t in puzzle.tiles for c in t)
    cut = BacktrackSolver(priority_colours=[colour], priority_schedule=f"10:{everything + 1}").best(puzzle)
    assert cut.complete and cut.best_board.n_placed == 9


def test_fill_board_completes_without_lowering_the_score():
    puzzle = _scrambled(1)
    result = BacktrackSolver().best(puzzle)
    filled = fill_board(result.best_board)
    assert filled.is_complete and filled.score() >= result.best_score
    assert not any("inside" in r or "outside" in r or "twice" in r for r in filled.verify().reasons)


def test_schedule_forms():
    assert list(schedule_array("2", 4)) == [2, 2, 2, 2, 2]
    assert list(schedule_array("2:1,4:3", 5)) == [0, 0, 1, 1, 3, 3]
    assert list(schedule_array("breaks:2,2,4", 5)) == [0, 0, 2, 2, 3, 3]
    assert list(schedule_array([0, 1], 4)) == [0, 0, 1, 1, 1]
    assert list(schedule_array("list:0,1", 4)) == [0, 0, 1, 1, 1]
    values = julia_schedule(470, 256, 480)
    assert values[128] == 0 and values[256] == 10 and (np.diff(values) >= 0).all()
    for bad in ("-1", "x:1", "breaks:300", "5:3,8:1"):
        with pytest.raises(InputError):
            schedule_array(bad, 256)
    with pytest.raises(InputError, match="decrease"):
        schedule_array([3, 1], 4)


def test_auto_priority_colours_match_the_julia_package_on_e2():
    # jwortmann/Eternity2Puzzles.jl (e2_backtracking.jl) notes its choice for the official
    # puzzle: "94 pieces, 122 sides total".
    import edgematch
    from edgematch.engines.backtrack.best import auto_priority_colours

    puzzle = edgematch.load("e2")
    colours = set(auto_priority_colours(puzzle))
    assert len(colours) == 3 and len(colours & set(puzzle.frame_colours)) == 1
    assert sum(any(int(c) in colours for c in t) for t in puzzle.tiles) == 94
    assert sum(int(c) in colours for t in puzzle.tiles for c in t) == 122


def test_julia_priority_schedule_is_a_cumulative_bound():
    from edgematch.model.schedules import julia_priority_schedule

    values = julia_priority_schedule(470, 256, 115)
    assert values[0] == 0 and values[128] <= 115 and values[256] == values[128]
    assert (np.diff(values) >= 0).all()
    g = generate(6, 6, 2, 5, seed=1)
    result = BacktrackSolver(priority_colours=["auto"], priority_schedule="julia:60", node_limit=20_000).best(g.puzzle)
    assert len(result.statistics["priority_colours"]) == 3 and result.nodes > 0


@pytest.mark.parametrize("w,h", [(4, 3), (4, 4)])
def test_symmetry_keeps_the_exhaustive_best_score(w, h):
    g = generate(w, h, 2, 3, seed=7)
    tiles = np.array(g.puzzle.tiles)
    inner = [i for i, t in enumerate(tiles) if (t == 0).sum() == 0]
    tiles[inner[0]] = [9, 9, 9, 9]  # a colour nobody else has: no perfect board
    puzzle = Puzzle(tiles, w, h)
    plain = BacktrackSolver(schedule=3).best(puzzle)
    sym = BacktrackSolver(schedule=3, symmetry=True).best(puzzle)
    assert plain.complete and sym.complete
    assert sym.best_score == plain.best_score < puzzle.max_score
    assert sym.nodes < plain.nodes


@pytest.mark.parametrize("seed", range(6))
def test_best_without_errors_walks_the_exact_search_tree(seed):
    """With no invalid join allowed, the best search's exact prefix loop must visit the
    very tree of the exact kernel: on a puzzle without solution both exhaust it."""
    puzzle = _scrambled(seed)
    count = BacktrackSolver(kernel="lists").count(puzzle)
    best = BacktrackSolver().best(puzzle)
    if count.solutions == 0:
        assert best.complete and best.nodes == count.nodes
        assert best.nodes_per_depth == count.nodes_per_depth
    else:
        assert best.best_score == puzzle.max_score


@pytest.mark.parametrize("order", ["rowscan", "spiral-in"])
def test_best_search_on_packed_codes_and_on_colour_look_ups_is_the_same_search(order, monkeypatch):
    """The best-score kernel on packed codes and on placements with ``pcol`` look-ups
    (puzzles whose colours do not fit a code) place the same nodes and find the same boards."""
    from edgematch.engines.backtrack import plan as plan_module

    for seed in range(3):
        puzzle = generate(6, 5, 3, 5, seed=seed, hints=seed % 2).puzzle
        options = dict(order=order, schedule="8:1,16:2,24:4", node_limit=60_000, priority_colours=[1],
                       priority_schedule="12:2")
        packed = BacktrackSolver(**options).best(puzzle)
        with monkeypatch.context() as patch:
            patch.setattr(plan_module, "CODE_BITS", 0)
            plain = BacktrackSolver(**options).best(puzzle)
        assert packed.nodes == plain.nodes and packed.nodes_per_depth == plain.nodes_per_depth
        assert packed.best_score == plain.best_score >= 1
        assert packed.best_board.score() == packed.best_score
        assert (packed.best_board.tiles == plain.best_board.tiles).all()
        assert (packed.best_board.rotations == plain.best_board.rotations).all()


def test_a_best_search_notes_when_each_new_depth_and_best_score_was_first_reached():
    g = generate(7, 7, 5, 4, seed=11)
    result = BacktrackSolver(schedule="30:1,40:2", seed=3, node_limit=2_000_000).best(g.puzzle)
    deepest_at = {int(d): t for d, t in result.statistics["deepest_at"].items()}
    best_at = {int(s): t for s, t in result.statistics["best_score_at"].items()}
    # the last values noted are the search's own, and they were reached in order
    assert max(deepest_at) == result.deepest
    assert max(best_at) == result.best_score
    for reached in (deepest_at, best_at):
        depths = sorted(reached)
        assert [reached[d] for d in depths] == sorted(reached[d] for d in depths)
        assert all(0 <= t <= result.seconds + 1 for t in reached.values())
