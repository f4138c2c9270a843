"""Candidate lists filtered of the settled prefix's tiles: the same search, slice by slice."""

from __future__ import annotations

import numpy as np
import pytest

from edgematch.engines import base as engine_base
from edgematch.engines.backtrack import BacktrackSolver, prefix_filter
from edgematch.engines.backtrack import plan as plan_module
from edgematch.engines.backtrack import solver as solver_module
from edgematch.generator import generate


@pytest.fixture
def eager_filter(monkeypatch):
    """Tiny slices, every prefix settled at once: the filter runs nearly every slice and
    often backtracks into the prefix it filtered out."""
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 40)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 40)
    monkeypatch.setattr(prefix_filter, "MARGIN", 0)
    monkeypatch.setattr(prefix_filter, "MIN_SETTLED", 1)
    return monkeypatch


def _without_filter(monkeypatch, run):
    with monkeypatch.context() as patch:
        patch.setattr(prefix_filter, "ENABLED", False)
        return run()


@pytest.mark.parametrize("packed", [True, False])
@pytest.mark.parametrize("order", ["rowscan", "spiral-in"])
def test_exact_search_places_the_same_nodes_with_and_without_the_filter(eager_filter, order, packed):
    if not packed:
        eager_filter.setattr(plan_module, "CODE_BITS", 0)
    filtered_at_all = fell_back = 0
    for seed in range(3):
        puzzle = generate(5, 5, 3, 6, seed=seed, hints=seed % 2).puzzle
        solver = BacktrackSolver(order=order, kernel="lists")
        filtered = solver.solve(puzzle, k=None)
        plain = _without_filter(eager_filter, lambda puzzle=puzzle: BacktrackSolver(order=order, kernel="lists").solve(puzzle, k=None))
        assert "prefix_filtered_slices" not in plain.statistics
        assert filtered.solution_set() == plain.solution_set() and filtered.solutions >= 1
        assert filtered.nodes == plain.nodes and filtered.nodes_per_depth == plain.nodes_per_depth
        filtered_at_all += filtered.statistics.get("prefix_filtered_slices", 0)
        fell_back += filtered.statistics.get("prefix_fallbacks", 0)
    assert filtered_at_all > 50 and fell_back > 5


def test_splits_and_node_limits_end_the_same_with_the_filter(eager_filter):
    """Splitting (every branch stopped at a depth short of the board, each board there
    recorded) and counting under a node limit end the same way, filtered or not."""
    puzzle = generate(5, 5, 3, 6, seed=2).puzzle

    def split():
        subtrees, result = BacktrackSolver(kernel="lists").split(puzzle, 18)
        return result, [(tuple(s.tiles), tuple(s.rotations)) for s in subtrees]

    filtered, filtered_subtrees = split()
    plain, plain_subtrees = _without_filter(eager_filter, split)
    assert filtered_subtrees == plain_subtrees and len(plain_subtrees) > 100
    assert filtered.nodes_per_depth == plain.nodes_per_depth
    assert filtered.statistics["prefix_filtered_slices"] > 10
    run = lambda: BacktrackSolver(kernel="lists", node_limit=9_000).count(puzzle)  # noqa: E731
    filtered = run()
    plain = _without_filter(eager_filter, run)
    assert (filtered.solutions, filtered.nodes, filtered.complete) == (plain.solutions, plain.nodes, plain.complete)
    assert filtered.nodes_per_depth == plain.nodes_per_depth and filtered.stopped_by == "nodes"


@pytest.mark.parametrize("packed", [True, False])
@pytest.mark.parametrize("order", ["rowscan", "spiral-in"])
def test_best_search_is_the_same_search_with_and_without_the_filter(eager_filter, order, packed):
    if not packed:
        eager_filter.setattr(plan_module, "CODE_BITS", 0)
    filtered_at_all = fell_back = 0
    for seed in range(3):
        puzzle = generate(6, 6, 3, 5, seed=seed, hints=seed % 2).puzzle
        options = dict(order=order, schedule="10:1,20:2,30:4", node_limit=50_000)
        if seed == 2:
            options.update(priority_colours=[1], priority_schedule="12:2")
        filtered = BacktrackSolver(**options).best(puzzle)
        plain = _without_filter(eager_filter, lambda options=options, puzzle=puzzle: BacktrackSolver(**options).best(puzzle))
        assert filtered.nodes == plain.nodes and filtered.nodes_per_depth == plain.nodes_per_depth
        assert filtered.best_score == plain.best_score == filtered.best_board.score()
        assert (filtered.best_board.tiles == plain.best_board.tiles).all()
        assert (filtered.best_board.rotations == plain.best_board.rotations).all()
        assert filtered.statistics["complete_boards"] == plain.statistics["complete_boards"]
        filtered_at_all += filtered.statistics.get("prefix_filtered_slices", 0)
        fell_back += filtered.statistics.get("prefix_fallbacks", 0)
    assert filtered_at_all > 50 and fell_back > 5


def test_an_exhausted_best_search_ends_complete_with_the_filter(eager_filter):
    """A best search that exhausts its space reports it, filtered or not."""
    puzzle = generate(4, 4, 3, 4, seed=1).puzzle
    run = lambda: BacktrackSolver(schedule="0", target=puzzle.max_score).best(puzzle)  # noqa: E731
    filtered = run()
    plain = _without_filter(eager_filter, run)
    assert (filtered.nodes, filtered.best_score, filtered.complete) == (plain.nodes, plain.best_score, plain.complete)
    assert filtered.nodes_per_depth == plain.nodes_per_depth


def test_the_same_settled_prefix_gives_the_same_tables_back(eager_filter, monkeypatch):
    """The filter hands back the arrays of its last filtering, the same objects, while the
    settled tiles stay (the generated kernel then keeps its copy), and new ones when they
    change; the search is the same either way."""
    handed = []
    enter = prefix_filter.PrefixFilter.enter

    def noting(self, *args):
        cand, starts = enter(self, *args)
        if self.floor >= 0:
            handed.append((self.floor, cand, starts, cand.tobytes(), starts.tobytes()))
        return cand, starts

    monkeypatch.setattr(prefix_filter.PrefixFilter, "enter", noting)
    puzzle = generate(6, 6, 3, 5, seed=1).puzzle
    result = BacktrackSolver(schedule="10:1,20:2,30:4", node_limit=50_000, kernel="lists").best(puzzle)
    assert result.nodes == 50_000
    pairs = list(zip(handed, handed[1:]))
    same = [(a, b) for a, b in pairs if a[1] is b[1] and a[2] is b[2]]
    assert len(same) > 50 and len(pairs) - len(same) > 50
    assert all(a[0] == b[0] and a[3:] == b[3:] for a, b in same)
    assert all(a[1] is not b[1] for a, b in pairs if a[0] != b[0] or a[3] != b[3])


def test_tables_without_the_settled_tiles_are_those_of_a_mask():
    """The compiled filtering keeps exactly the entries whose tile is not settled, in order,
    with the positions and counts that turn full indices into filtered ones and back."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        n_tiles, n = int(rng.integers(4, 40)), int(rng.integers(0, 300))
        cand = (rng.integers(0, n_tiles, n) << 2 | rng.integers(0, 4, n)).astype(np.int32)
        starts = np.sort(rng.integers(0, n + 1, 12)).astype(np.int64)
        order = rng.permutation(n_tiles).astype(np.int64)
        board = (rng.permutation(n_tiles) << 2).astype(np.int32)
        floor = int(rng.integers(0, n_tiles))
        tiles_of = (cand & 0xFFFC) >> 2
        got = prefix_filter.without_tiles(board, order, floor, np.int64(0xFFFC), tiles_of, n_tiles, cand, starts)
        settled = (board[order[:floor]] & 0xFFFC) >> 2
        keep = ~np.isin(tiles_of, settled)
        kept_before = np.concatenate([[0], np.cumsum(keep)])
        assert got[0].tolist() == settled.tolist()
        assert got[1].tolist() == kept_before.tolist()
        assert got[2].tolist() == np.flatnonzero(keep).tolist()
        assert got[3].tolist() == cand[keep].tolist() and got[3].dtype == cand.dtype
        assert got[4].tolist() == kept_before[starts].tolist()
        assert prefix_filter.same_tiles(board, order, floor, np.int64(0xFFFC), got[0])
        assert not prefix_filter.same_tiles(board, order, floor + 1, np.int64(0xFFFC), got[0])
