"""Backtracking engine: exact counts, solutions, splits, limits and resumption."""

from __future__ import annotations

import json

import numpy as np
import pytest

import edgematch
from edgematch.engines import base as engine_base
from edgematch.engines import make_solver
from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.backtrack import solver as solver_module
from edgematch.engines.result import board_key
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model import Board, Hint
from support.reference import reference_solutions, rotate_board

SMALL = [  # width, height, frame colours, inner colours, hints, seed
    (3, 3, 2, 2, "none", 0),
    (4, 3, 2, 3, "none", 1),
    (3, 4, 2, 3, "none", 2),
    (4, 4, 2, 4, "none", 3),
    (4, 4, 2, 4, 2, 4),
    (5, 3, 2, 3, "corner", 5),
    (4, 4, 2, 2, "none", 6),  # 3 rotationally symmetric tiles, 3 groups of duplicates
    (4, 3, 2, 2, "none", 2),  # a symmetric tile and duplicates
    (2, 2, 1, 1, "none", 7),
    (2, 4, 1, 2, "none", 8),
]


@pytest.fixture(scope="module")
def owen1():
    return edgematch.load("owen1-6x6")


@pytest.fixture(scope="module")
def owen1_all(owen1):
    return BacktrackSolver().solve(owen1, k=None)


# ---------------------------------------------------------------------------- reference counts
def test_owen_set1_6x6_has_260_raw_solutions_and_the_community_node_count(owen1_all):
    # 260 solutions (65 up to board rotation) and 69,284,103 row-scan nodes are the
    # community's figures (groups.io eternity2 msgs 4604, 7771, 7777).
    r = owen1_all
    assert r.complete and r.stopped_by is None
    assert r.solutions == 260 == len(r.boards)
    assert r.nodes == 69_284_103 == sum(r.nodes_per_depth)
    assert all(b.verify().valid for b in r.boards)
    assert len(r.solution_set()) == 260


def test_owen_set1_symmetry_gives_65_whose_rotations_are_the_260(owen1, owen1_all):
    sym = BacktrackSolver(symmetry=True).solve(owen1, k=None)
    assert sym.complete and sym.solutions == 65
    raw = owen1_all.solution_set()
    turned = set()
    for board in sym.boards:
        assert board.verify().valid
        b = board
        for _ in range(4):
            turned.add(board_key(b))
            b = rotate_board(b)
    assert turned == raw


def test_owen_set2_6x6_has_40_with_its_first_tile_fixed_in_a_corner():
    # "40 solutions with piece 0 fixed in the first cell": tile 1 of the file is a corner
    # tile; fixing it in any one corner leaves exactly a quarter of the raw solutions.
    puzzle = edgematch.load("owen2-6x6")
    assert sorted(int(c) for c in puzzle.tiles[0]).count(0) == 2
    sym = BacktrackSolver(symmetry=True).count(puzzle)
    assert sym.statistics["symmetry_fixed"]["tile"] == 1
    assert sym.complete and sym.solutions == 40
    bottom_left = 30
    from edgematch.model.tiles import border_rotations

    rot = border_rotations(puzzle.tiles[0], bottom_left, 6, 6)[0]
    fixed_bl = BacktrackSolver().count(puzzle.with_hints([Hint(bottom_left, 0, rot)]))
    assert fixed_bl.solutions == 40


# ---------------------------------------------------------------------------- brute force
@pytest.mark.parametrize("w,h,b,i,hints,seed", SMALL)
def test_solutions_equal_brute_force(w, h, b, i, hints, seed):
    g = generate(w, h, b, i, seed=seed, hints=hints)
    expected = reference_solutions(g.puzzle)
    result = BacktrackSolver().solve(g.puzzle, k=None)
    assert result.complete
    assert result.solution_set() == expected
    assert result.solutions == len(expected) == len(result.boards)
    assert board_key(g.solution) in expected
    assert all(board.verify().valid for board in result.boards)
    assert BacktrackSolver().count(g.puzzle).solutions == len(expected)


@pytest.mark.parametrize("w,h,b,i,seed", [(4, 4, 2, 3, 11), (5, 3, 2, 2, 12), (4, 4, 2, 2, 3)])
def test_hints_keep_exactly_the_solutions_that_agree_with_them(w, h, b, i, seed):
    g = generate(w, h, b, i, seed=seed)
    free = BacktrackSolver().solve(g.puzzle, k=None).solution_set()
    sol = g.solution
    for squares in ([0], [5], [1, 6, 10], [w * h - 1, w + 1]):
        hints = [Hint(s, int(sol.tiles[s]), int(sol.rotations[s])) for s in squares]
        hinted = g.puzzle.with_hints(hints)
        wanted = {k for k in free if all(k[s] == board_key(sol)[s] for s in squares)}
        got = BacktrackSolver().solve(hinted, k=None)
        assert got.solution_set() == wanted
        assert got.solutions == len(wanted)
        assert all(b.verify().valid for b in got.boards)  # verify() checks the hints too
        assert len(got.nodes_per_depth) == w * h - len(squares)


def test_contradicting_hints_give_zero_solutions():
    g = generate(4, 4, 2, 3, seed=21)
    sol = g.solution
    # two neighbouring hints, the second turned so that their join cannot match
    a, b_sq = 5, 6
    tile_b = int(sol.tiles[b_sq])
    bad_rot = next(r for r in range(4) if edgematch.model.rotate(g.puzzle.tiles[tile_b], r)[3]
                   != edgematch.model.rotate(g.puzzle.tiles[int(sol.tiles[a])], int(sol.rotations[a]))[1])
    puzzle = g.puzzle.with_hints([Hint(a, int(sol.tiles[a]), int(sol.rotations[a])), Hint(b_sq, tile_b, bad_rot)])
    result = BacktrackSolver().count(puzzle)
    assert result.solutions == 0 and result.complete and result.nodes == 0


def test_symmetry_divides_by_four_even_with_symmetric_and_duplicate_tiles():
    g = generate(4, 4, 2, 2, seed=6)
    assert g.puzzle.symmetric_tiles and g.puzzle.duplicate_groups
    raw = BacktrackSolver().count(g.puzzle).solutions
    assert raw > 0 and BacktrackSolver(symmetry=True).count(g.puzzle).solutions * 4 == raw


def test_symmetry_on_rectangular_boards_halves_the_count():
    g = generate(5, 3, 2, 2, seed=3)
    raw = BacktrackSolver().count(g.puzzle).solutions
    assert raw > 0 and BacktrackSolver(symmetry=True).count(g.puzzle).solutions * 2 == raw


def test_symmetry_refuses_hints():
    g = generate(4, 4, 2, 3, seed=1, hints=1)
    with pytest.raises(InputError):
        BacktrackSolver(symmetry=True).count(g.puzzle)


# ---------------------------------------------------------------------------- splits
@pytest.mark.parametrize("order", ["rowscan", "spiral-in", "diagonal"])
def test_split_counts_and_nodes_add_up_exactly(order):
    g = generate(5, 5, 3, 5, seed=0)
    solver = BacktrackSolver(order=order)
    full = solver.count(g.puzzle)
    assert full.complete and full.solutions > 0
    for depth in (0, 1, 3, 6):
        prefixes, head = solver.split(g.puzzle, depth)
        assert head.complete
        assert len(prefixes) == head.statistics["subtrees"] and head.solutions == 0  # every leaf is a subtree
        assert head.nodes == sum(full.nodes_per_depth[:depth])
        solutions, nodes = 0, head.nodes
        per_depth = np.array(head.nodes_per_depth, dtype=object)
        for prefix in prefixes:
            assert prefix.n_placed == depth
            assert prefix.verify(require_complete=False).valid
            sub = solver.count(g.puzzle, start=prefix)
            assert sub.complete
            assert sum(sub.nodes_per_depth[:depth]) == 0
            solutions += sub.solutions
            nodes += sub.nodes
            per_depth = per_depth + np.array(sub.nodes_per_depth, dtype=object)
        assert solutions == full.solutions
        assert nodes == full.nodes
        assert list(per_depth) == full.nodes_per_depth


def test_split_of_a_split_and_subtree_solutions_partition_the_set():
    g = generate(4, 4, 2, 3, seed=9)
    solver = BacktrackSolver()
    every = solver.solve(g.puzzle, k=None).solution_set()
    prefixes, _ = solver.split(g.puzzle, 3)
    seen = set()
    for prefix in prefixes:
        part = solver.solve(g.puzzle, k=None, start=prefix).solution_set()
        assert not part & seen
        seen |= part
        deeper, head = solver.split(g.puzzle, 6, start=prefix)
        assert sum(solver.count(g.puzzle, start=d).solutions for d in deeper) == len(part)
    assert seen == every


def test_start_board_must_be_a_prefix_of_the_order():
    g = generate(4, 4, 2, 3, seed=9)
    board = Board(g.puzzle)
    board.place(5, int(g.solution.tiles[5]), int(g.solution.rotations[5]))
    with pytest.raises(InputError, match="prefix"):
        BacktrackSolver().count(g.puzzle, start=board)
    # a valid prefix given as a list of (tile, rotation) works
    first = [(int(g.solution.tiles[s]), int(g.solution.rotations[s])) for s in range(3)]
    assert BacktrackSolver().count(g.puzzle, start=first).solutions >= 1


def test_complete_start_board_is_one_solution_with_no_nodes():
    g = generate(4, 4, 2, 3, seed=9)
    result = BacktrackSolver().solve(g.puzzle, k=None, start=g.solution)
    assert result.solutions == 1 and result.nodes == 0 and result.complete
    assert board_key(result.boards[0]) == board_key(g.solution)


# ---------------------------------------------------------------------------- modes and limits
def test_first_k_are_the_first_k_of_the_enumeration():
    g = generate(4, 4, 2, 3, seed=3)
    every = BacktrackSolver().solve(g.puzzle, k=None)
    assert every.solutions > 3
    first = BacktrackSolver().solve(g.puzzle, k=3)
    assert first.solutions == 3 and not first.complete and first.stopped_by == "solutions"
    assert [board_key(b) for b in first.boards] == [board_key(b) for b in every.boards[:3]]
    more = BacktrackSolver().solve(g.puzzle, k=every.solutions + 5)
    assert more.complete and more.solutions == every.solutions


def test_enumerate_streams_to_the_callback_and_can_stop():
    g = generate(4, 4, 2, 3, seed=3)
    seen = []
    result = BacktrackSolver().enumerate(g.puzzle, seen.append)
    assert result.complete and len(seen) == result.solutions and result.boards == []
    stopped = BacktrackSolver().enumerate(g.puzzle, lambda b: True)
    assert stopped.stopped_by == "callback" and not stopped.complete and stopped.solutions >= 1


def test_tiny_slices_give_identical_results(monkeypatch):
    """The kernel resumes exactly where it stopped, whatever the budget of a call."""
    g = generate(4, 4, 2, 4, seed=0)
    normal = BacktrackSolver().solve(g.puzzle, k=None)
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 7)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 7)
    sliced = BacktrackSolver().solve(g.puzzle, k=None)
    assert sliced.statistics["kernel_calls"] > 100
    assert sliced.nodes == normal.nodes and sliced.nodes_per_depth == normal.nodes_per_depth
    assert [board_key(b) for b in sliced.boards] == [board_key(b) for b in normal.boards]


def test_node_limit_stops_and_reports_incomplete():
    g = generate(5, 5, 2, 3, seed=2)
    result = BacktrackSolver(node_limit=1000).count(g.puzzle)
    assert result.nodes == 1000 and not result.complete and result.stopped_by == "nodes"


def test_time_limit_stops_a_long_count(owen1):
    result = BacktrackSolver(time_limit=0.3).count(owen1)
    assert not result.complete and result.stopped_by == "time"
    assert 0 < result.nodes < 69_284_103


def test_interrupt_returns_the_statistics_so_far(monkeypatch):
    g = generate(5, 5, 2, 3, seed=2)
    calls = {"n": 0}

    def progress(stats):
        calls["n"] += 1
        raise KeyboardInterrupt

    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 50)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 50)
    result = BacktrackSolver(progress=progress, progress_interval=0).count(g.puzzle)
    assert calls["n"] == 1 and result.stopped_by == "interrupted" and not result.complete
    assert result.nodes == 50


def test_result_to_dict_is_json_with_the_script_keys():
    g = generate(4, 4, 2, 3, seed=3)
    data = json.loads(json.dumps(BacktrackSolver().count(g.puzzle).to_dict()))
    for key in ("solutions", "nodes", "seconds", "complete", "nodes_per_depth", "nodes_per_second", "stopped_by"):
        assert key in data
    assert data["complete"] is True


def test_registry_makes_the_backtrack_solver():
    solver = make_solver("backtrack", order="colscan")
    assert isinstance(solver, BacktrackSolver) and solver.order == "colscan"
    with pytest.raises(InputError):
        make_solver("no-such-solver")


def test_sides_beyond_the_key_limit_are_compared_explicitly(monkeypatch):
    """Puzzles with many colours key their tables on fewer sides and compare the rest."""
    from edgematch.engines.backtrack import plan as plan_module
    from edgematch.engines.backtrack.plan import P_NCHK

    g = generate(5, 5, 2, 4, seed=2, hints=2)
    expected = BacktrackSolver().solve(g.puzzle, k=None)
    monkeypatch.setattr(plan_module, "KEY_LIMIT", 10)  # C**2 > 10: one key side at most
    for order in ("rowscan", "spiral-in"):
        solver = BacktrackSolver(order=order)
        assert (solver.plan(g.puzzle).exact_phases()[:, P_NCHK] > 0).any()
        result = solver.solve(g.puzzle, k=None)
        assert result.solution_set() == expected.solution_set()
        if order == "rowscan":
            assert result.nodes == expected.nodes


def test_packed_codes_and_colour_look_ups_search_the_same_tree(monkeypatch):
    """The list kernel on packed codes and on placements with ``pcol`` look-ups (the form
    for puzzles whose colours do not fit a code) place the same nodes, depth by depth."""
    from edgematch.engines.backtrack import plan as plan_module
    from edgematch.engines.backtrack.exact import plan_tables

    for seed in range(4):
        g = generate(5, 4, 3, 4, seed=seed, hints=1 + seed % 2)
        for order in ("rowscan", "spiral-in"):
            packed_solver = BacktrackSolver(order=order, kernel="lists")
            assert plan_tables(packed_solver.plan(g.puzzle)).pcol is None
            packed = packed_solver.solve(g.puzzle, k=None)
            with monkeypatch.context() as patch:
                patch.setattr(plan_module, "CODE_BITS", 0)
                plain_solver = BacktrackSolver(order=order, kernel="lists")
                assert plan_tables(plain_solver.plan(g.puzzle)).pcol is not None
                plain = plain_solver.solve(g.puzzle, k=None)
            assert packed.solution_set() == plain.solution_set() and packed.solutions >= 1
            assert packed.nodes == plain.nodes and packed.nodes_per_depth == plain.nodes_per_depth


def test_bad_start_boards_are_input_errors():
    g = generate(4, 4, 2, 3, seed=9, hints=1)
    hint = g.puzzle.hints[0]
    solver = BacktrackSolver()
    order = list(solver.search_squares(g.puzzle))
    good = {order[0]: (int(g.solution.tiles[order[0]]), int(g.solution.rotations[order[0]]))}
    assert solver.count(g.puzzle, start=good).solutions >= 1
    with pytest.raises(InputError, match="unknown tile"):
        solver.count(g.puzzle, start={order[0]: (99, 0)})
    with pytest.raises(InputError, match="disagrees with the hint"):
        other = next(t for t in range(16) if t != hint.tile)
        solver.count(g.puzzle, start={**good, hint.square: (other, 0)})
    with pytest.raises(InputError, match="hint tile"):
        solver.count(g.puzzle, start={order[0]: (hint.tile, hint.rotation)})
    wrong = (good[order[0]][0], (good[order[0]][1] + 1) % 4)
    with pytest.raises(InputError, match="not a valid partial solution"):
        solver.count(g.puzzle, start={order[0]: wrong})
