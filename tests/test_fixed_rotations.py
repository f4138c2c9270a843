"""The backtracker and Owen's estimator with every tile's rotation fixed by a rotation set
(issue 18, point 3): ``BacktrackSolver(rotations=...)``, ``build_plan(rotation_set=...,
colour_tables=...)``, ``estimate(..., rotations=...)`` and ``--rotations FILE``.

The engine's checks are exact: every solution has exactly one rotation set (with or
without checkerboard colours), so grouping the plain engine's solutions by their set gives,
for each set, the number of solutions a search with that set fixed must count.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import edgematch
from edgematch.engines import make_solver
from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.backtrack.plan import build_plan
from edgematch.errors import InputError
from edgematch.estimator import estimate
from edgematch.formats.rotation_file import write_rotation_set
from edgematch.model import tiles as T
from edgematch.model.rotation_sets import RotationSet, square_parity, tile_options
from edgematch.parallel import Job, parallel_search
from support.cli import run_cli, write_puzzle_file

ORDERS = ["rowscan", "spiral-in", "colscan", "diagonal", "spiral-out"]
SIZES = [(3, 3), (4, 3), (3, 4), (4, 4), (5, 3), (2, 4)]


def solutions_of(puzzle, order="rowscan"):
    result = BacktrackSolver(order=order).solve(puzzle, k=None)
    assert result.complete
    return result


def groups_of(boards, parity: bool) -> Counter:
    return Counter(RotationSet.of_board(board, parity=parity) for board in boards)


def a_set_without_solutions(puzzle, groups: Counter, parity: bool, rng) -> RotationSet | None:
    """A rotation set of the puzzle (hints kept) that no solution has (None if none drawn)."""
    options = tile_options(puzzle, parity)
    for _ in range(200):
        choice = [opts[rng.integers(len(opts))] for opts in options]
        candidate = RotationSet(puzzle, [c[0] for c in choice], [c[1] for c in choice] if parity else None)
        if candidate not in groups:
            return candidate
    return None


# ----------------------------------------------------------------------------- the engine
@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.sampled_from(SIZES),
    seed=st.integers(0, 10_000),
    hints=st.sampled_from([0, 0, 1, 2]),
    parity=st.booleans(),
    order=st.sampled_from(ORDERS),
    fewer_colours=st.booleans(),
)
def test_fixed_counts_are_the_sizes_of_the_solution_groups(size, seed, hints, parity, order, fewer_colours):
    width, height = size
    colours = {"frame_colours": 2, "inner_colours": 2} if fewer_colours else {}
    puzzle = edgematch.generate(width, height, seed=seed, hints=hints, **colours).puzzle
    plain = solutions_of(puzzle, order)
    groups = groups_of(plain.boards, parity)
    assert sum(groups.values()) == plain.solutions
    rng = np.random.default_rng(seed)
    picked = list(groups.items())
    if len(picked) > 6:
        picked = [picked[int(i)] for i in rng.choice(len(picked), 6, replace=False)]
    for rotation_set, size_of_group in picked:
        for kernel in ("lists", "bits"):
            fixed = BacktrackSolver(order=order, rotations=rotation_set, kernel=kernel).count(puzzle)
            assert fixed.complete and fixed.solutions == size_of_group
            assert fixed.statistics["kernel"] == kernel
            assert fixed.nodes <= plain.nodes
            width_npd = len(plain.nodes_per_depth)
            assert (
                all(a <= b for a, b in zip(fixed.nodes_per_depth, plain.nodes_per_depth))
                and len(fixed.nodes_per_depth) == width_npd
            )
    empty = a_set_without_solutions(puzzle, groups, parity, rng)
    for kernel in ("lists", "bits") if empty is not None else ():
        assert BacktrackSolver(order=order, rotations=empty, kernel=kernel).count(puzzle).solutions == 0


def test_solve_enumerate_split_and_best_honour_the_set():
    planted = edgematch.generate(4, 4, seed=2, frame_colours=2, inner_colours=2)
    puzzle = planted.puzzle
    plain = solutions_of(puzzle)
    groups = groups_of(plain.boards, parity=True)
    rotation_set, size = max(groups.items(), key=lambda item: item[1])
    solver = BacktrackSolver(rotations=rotation_set)
    boards = solver.solve(puzzle, k=None).boards
    assert len(boards) == size
    assert all(board.verify().valid and RotationSet.of_board(board, parity=True) == rotation_set for board in boards)
    streamed = []
    solver.enumerate(puzzle, callback=streamed.append)
    assert [b.placements() for b in streamed] == [b.placements() for b in boards]
    # the same boards as the plain engine's of that group, in the same order
    assert [b.placements() for b in boards] == [
        b.placements() for b in plain.boards if RotationSet.of_board(b, parity=True) == rotation_set
    ]
    whole = solver.count(puzzle)
    for depth in (1, 3, 6):
        subtrees, head = solver.split(puzzle, depth)
        parts = [solver.count(puzzle, start=subtree) for subtree in subtrees]
        assert sum(p.solutions for p in parts) == whole.solutions
        assert head.nodes + sum(p.nodes for p in parts) == whole.nodes
        for subtree in subtrees:  # every piece of the cut turns its tiles as the set does
            for square, (tile, rotation) in subtree.placements().items():
                assert rotation == rotation_set.rotations[tile]
                assert rotation_set.colours[tile] == square_parity(square, puzzle.width)
    best = solver.best(puzzle, limits=edgematch.Limits(nodes=100_000))
    assert best.best_score == puzzle.max_score
    assert RotationSet.of_board(best.best_board, parity=True) == rotation_set
    assert best.statistics["rotation_set"] == "fixed, with parity"


def test_a_start_board_or_a_hint_that_the_set_contradicts_has_no_solution():
    planted = edgematch.generate(4, 3, seed=5)
    puzzle, solution = planted.puzzle, planted.solution
    rotation_set = RotationSet.of_board(solution)
    # an inner square whose tile's look changes with a quarter turn
    square = next(
        s
        for s in range(puzzle.n_squares)
        if T.square_kind(s, 4, 3) == T.INNER and len(T.distinct_rotations(puzzle.tiles[solution.tiles[s]])) == 4
    )
    tile, rotation = int(solution.tiles[square]), int(solution.rotations[square])
    order = [square] + [s for s in range(puzzle.n_squares) if s != square]
    solver = BacktrackSolver(order=order, rotations=rotation_set)
    assert solver.count(puzzle, start={square: (tile, rotation)}).solutions >= 1
    turned = {square: (tile, (rotation + 1) % 4)}
    for kernel in ("lists", "bits"):
        assert (
            BacktrackSolver(order=order, rotations=rotation_set, kernel=kernel).count(puzzle, start=turned).solutions
            == 0
        )
    # the same tile hinted otherwise than the set says
    hinted = puzzle.with_hints({square: (tile, rotation)})
    assert BacktrackSolver(rotations=rotation_set).count(hinted).solutions >= 1
    other = RotationSet(puzzle, np.where(np.arange(puzzle.n_tiles) == tile, (rotation + 1) % 4, rotation_set.rotations))
    for kernel in ("lists", "bits"):
        assert BacktrackSolver(rotations=other, kernel=kernel).count(hinted).solutions == 0
    assert BacktrackSolver(rotations=other).plan(hinted).void
    colours = RotationSet.of_board(solution, parity=True)
    flipped = RotationSet(
        puzzle, colours.rotations, np.where(np.arange(puzzle.n_tiles) == tile, 1, 0) ^ colours.colours
    )
    assert BacktrackSolver(rotations=flipped).count(hinted).solutions == 0
    assert BacktrackSolver(rotations=colours).count(hinted).solutions >= 1


def test_params_round_trip_and_parallel_count_equals_serial():
    planted = edgematch.generate(6, 6, seed=1, frame_colours=2, inner_colours=3)
    puzzle = planted.puzzle
    with_parity = RotationSet.of_board(planted.solution, parity=True)
    engine = BacktrackSolver(order="spiral-in", rotations=with_parity)
    params = engine.params()
    assert params["rotations"] == with_parity.to_plain()
    job = Job.of("count", engine, puzzle)
    rebuilt = make_solver(job.solver, **json.loads(json.dumps(job.params)))
    assert rebuilt.params() == params
    assert rebuilt.count(puzzle).nodes == engine.count(puzzle).nodes
    rotation_set = with_parity.without_parity()
    engine = BacktrackSolver(order="spiral-in", rotations=rotation_set.to_plain())
    serial = engine.count(puzzle)
    assert serial.solutions >= 1 and serial.nodes > 2000
    parallel = parallel_search("count", engine, puzzle, jobs=2, kind="processes", task_nodes=serial.nodes // 20)
    assert parallel.complete and parallel.solutions == serial.solutions and parallel.nodes == serial.nodes
    width = max(len(serial.nodes_per_depth), len(parallel.nodes_per_depth))
    pad = lambda npd: list(npd) + [0] * (width - len(npd))  # noqa: E731
    assert pad(parallel.nodes_per_depth) == pad(serial.nodes_per_depth)
    stats = parallel.statistics["parallel"]
    assert stats["subtrees_done"] == stats["subtrees_total"] > 1


def test_plan_cache_keeps_sets_apart():
    planted = edgematch.generate(4, 4, seed=0)
    puzzle = planted.puzzle
    groups = groups_of(solutions_of(puzzle).boards, parity=False)
    solver = BacktrackSolver()
    for i, (rotation_set, size) in enumerate(list(groups.items())[:4]):
        solver.rotations = rotation_set if i % 2 else rotation_set.to_plain()  # either form
        assert solver.count(puzzle).solutions == size
    solver.rotations = None
    assert solver.count(puzzle).solutions == sum(groups.values())


@pytest.mark.parametrize(
    "options,words",
    [
        ({"each_rotation": True}, "each_rotation"),
        ({"symmetry": True}, "symmetry"),
    ],
)
def test_options_that_cannot_go_with_a_set(options, words):
    planted = edgematch.generate(3, 3, seed=0)
    with pytest.raises(InputError, match=words) as caught:
        BacktrackSolver(rotations=RotationSet.of_board(planted.solution), **options)
    assert "\n" not in str(caught.value)


def test_a_set_of_another_puzzle_or_not_a_set_is_one_line():
    small = edgematch.generate(3, 3, seed=0)
    other = edgematch.generate(4, 3, seed=0).puzzle
    solver = BacktrackSolver(rotations=RotationSet.of_board(small.solution))
    with pytest.raises(InputError, match="another puzzle") as caught:
        solver.count(other)
    assert "\n" not in str(caught.value)
    for bad, words in [
        ([0, 1, 2], "RotationSet or its plain data"),
        ({"rotations": [0, 5, 1]}, "0..3"),
        ({"rotations": [0, 1], "colours": [0, 2]}, "black"),
        ({"rotations": ["x"]}, "integers"),
    ]:
        with pytest.raises(InputError, match=words):
            BacktrackSolver(rotations=bad)
    with pytest.raises(InputError, match="each_rotation"):
        build_plan(other, np.arange(12), rotation_set=RotationSet(other, np.zeros(12)), each_rotation=True)


# ----------------------------------------------------------------------------- the plan layout
def restrict(plan, rotation_set: RotationSet):
    """The documented one-pass restriction of a plan to a rotation set (another kernel's job)."""
    tiles = plan.cand.astype(np.int64) >> 2
    keep = (plan.cand & 3) == rotation_set.rotations[tiles]
    if rotation_set.colours is not None:
        keep &= (plan.cand_colour < 0) | (rotation_set.colours[tiles] == plan.cand_colour)
    kept_before = np.concatenate([[0], np.cumsum(keep)])
    return plan.cand[keep], kept_before[plan.starts].astype(np.int32), plan.cand_colour[keep]


@pytest.mark.parametrize("parity", [False, True])
@pytest.mark.parametrize("order", ["rowscan", "spiral-in"])
def test_a_colour_split_plan_filtered_to_a_set_is_the_plan_of_that_set(parity, order):
    planted = edgematch.generate(5, 4, seed=8, hints=2)
    puzzle = planted.puzzle
    squares = BacktrackSolver(order=order).search_squares(puzzle)
    rotation_set = RotationSet.of_board(planted.solution, parity=parity)
    full = build_plan(puzzle, squares, colour_tables=parity)
    fixed = build_plan(puzzle, squares, rotation_set=rotation_set)
    assert len(full.cand_colour) == len(full.cand) and full.cand_colour.dtype == np.int8
    assert (full.cand_colour >= 0).all() if parity else (full.cand_colour == -1).all()
    assert np.array_equal(fixed.depth_colour, full.depth_colour)
    if parity:
        assert np.array_equal(full.depth_colour, [square_parity(int(s), 5) for s in squares])
    cand, starts, colours = restrict(full, rotation_set)
    assert np.array_equal(cand, fixed.cand)
    assert np.array_equal(starts, fixed.starts)
    assert np.array_equal(colours, fixed.cand_colour)
    assert np.array_equal(full.phases, fixed.phases)
    # every range of starts is a valid range, tables one after another
    assert (np.diff(full.starts) >= 0).all() and full.starts[-1] == len(full.cand)


def test_colour_tables_alone_change_nothing_but_the_tables():
    puzzle = edgematch.generate(4, 4, seed=2, frame_colours=2, inner_colours=2).puzzle
    squares = BacktrackSolver().search_squares(puzzle)
    plain = build_plan(puzzle, squares)
    split = build_plan(puzzle, squares, colour_tables=True)
    assert len(split.cand) > len(plain.cand)
    for d in range(plain.depth):  # every list of each depth's table holds the same placements
        assert plain.phases[d, 0, 1] == split.phases[d, 0, 1]  # the same key sides
        for key in range(plain.n_colours ** int(plain.phases[d, 0, 1])):
            a = plain.starts[plain.phases[d, 0, 0] + key], plain.starts[plain.phases[d, 0, 0] + key + 1]
            b = split.starts[split.phases[d, 0, 0] + key], split.starts[split.phases[d, 0, 0] + key + 1]
            assert plain.cand[a[0] : a[1]].tolist() == split.cand[b[0] : b[1]].tolist()


# ----------------------------------------------------------------------------- the estimator
@settings(max_examples=20, deadline=None)
@given(
    size=st.sampled_from(SIZES),
    seed=st.integers(0, 10_000),
    hints=st.sampled_from([0, 1, 2]),
    parity=st.booleans(),
    order=st.sampled_from(ORDERS),
    planted_set=st.booleans(),
)
def test_estimate_is_exact_at_depth_one(size, seed, hints, parity, order, planted_set):
    """The first square: every free tile the set sends to its class (and colour), as the
    engine's first list holds them, unless a hint next to it already asks for a colour."""
    width, height = size
    planted = edgematch.generate(width, height, seed=seed, hints=hints)
    puzzle = planted.puzzle
    if planted_set:
        rotation_set = RotationSet.of_board(planted.solution, parity=parity)
    else:
        rng = np.random.default_rng(seed)
        choice = [opts[rng.integers(len(opts))] for opts in tile_options(puzzle, parity)]
        rotation_set = RotationSet(puzzle, [c[0] for c in choice], [c[1] for c in choice] if parity else None)
    solver = BacktrackSolver(order=order, rotations=rotation_set)
    first = int(solver.search_squares(puzzle)[0])
    next_to_hint = any(
        0 <= first + step < puzzle.n_squares and (first + step) in puzzle.hint_map
        for step in (1, -1, width, -width)
        if not (step in (1, -1) and (first + step) // width != first // width)
    )
    est = estimate(puzzle, order, rotations=rotation_set)
    counted = solver.count(puzzle).nodes_per_depth[0]
    if not next_to_hint:
        assert est.partial[1] == counted
    assert est.rotation_set == ("fixed, with parity" if parity else "fixed")


@pytest.mark.parametrize("size,seed", [((2, 3), 0), ((3, 2), 1), ((2, 3), 2), ((3, 2), 0)])
@pytest.mark.parametrize("parity", [False, True])
def test_estimate_over_every_rotation_set_of_a_tiny_puzzle(size, seed, parity):
    """Unbalanced sets, or sets that do not fit the board, get exactly 0 expected solutions;
    the set of every real solution gets more than 0.  Summed over all sets the expected
    solutions are another model's figure than the plain estimate, not the same number
    (2x3 seed 0: 8 real solutions; plain estimate 8.0; summed over the 16 balanced sets
    12.0; with parity 8 sets, 8.0.  3x2 seed 1: 8 real; 2.4 plain; 2.0 and 8.0)."""
    planted = edgematch.generate(*size, frame_colours=2, inner_colours=1, seed=seed)
    puzzle = planted.puzzle
    real = groups_of(solutions_of(puzzle).boards, parity)
    total = 0
    balanced = 0
    for choice in itertools.product(*tile_options(puzzle, parity)):
        rotation_set = RotationSet(puzzle, [c[0] for c in choice], [c[1] for c in choice] if parity else None)
        expected = estimate(puzzle, rotations=rotation_set).partial[-1]
        if not rotation_set.is_balanced():
            assert expected == 0
        else:
            balanced += 1
        if rotation_set in real:
            assert expected > 0
        total += expected
    plain = estimate(puzzle).partial[-1]
    print(
        f"{size} seed {seed} parity {parity}: {sum(real.values())} solutions, plain estimate {float(plain):.3f}, "
        f"summed over {balanced} balanced sets {float(total):.3f}"
    )
    assert balanced >= len(real) and 0 < total < math.inf


def test_estimate_with_hints_pooled_and_fixed():
    planted = edgematch.generate(5, 5, seed=3, hints=3)
    puzzle = planted.puzzle
    rotation_set = RotationSet.of_board(planted.solution, parity=True)
    fixed = estimate(puzzle, rotations=rotation_set)
    pooled = estimate(puzzle, hints="pooled", rotations=rotation_set)
    assert fixed.solutions > 0 and pooled.solutions > 0 and fixed.notes == pooled.notes == []
    assert fixed.to_dict(5)["rotation_set"] == "fixed, with parity"
    hint = puzzle.hints[0]
    edges = puzzle.tiles[hint.tile]
    turn = next((r for r in T.distinct_rotations(edges) if r != T.canonical_rotation(edges, hint.rotation)), None)
    if turn is not None:
        rotations = rotation_set.rotations.copy()
        rotations[hint.tile] = turn
        bad = estimate(puzzle, rotations=RotationSet(puzzle, rotations, rotation_set.colours))
        assert bad.solutions == 0 and bad.nodes == 0 and "hinted tile" in bad.notes[0]
    colours = rotation_set.colours.copy()
    colours[hint.tile] ^= 1
    bad = estimate(puzzle, rotations=RotationSet(puzzle, rotation_set.rotations, colours))
    assert bad.solutions == 0 and "colour" in bad.notes[0]


def test_estimate_refuses_what_it_does_not_model():
    planted = edgematch.generate(4, 4, seed=0)
    rotation_set = RotationSet.of_board(planted.solution)
    with pytest.raises(InputError, match="schedule"):
        estimate(planted.puzzle, schedule=1, rotations=rotation_set)
    with pytest.raises(InputError, match="each_rotation"):
        estimate(planted.puzzle, each_rotation=True, rotations=rotation_set)
    with pytest.raises(InputError, match="tiles"):
        estimate(edgematch.generate(4, 3, seed=0).puzzle, rotations=rotation_set)


# ----------------------------------------------------------------------------- the command line
@functools.cache
def largest_group():
    """A small puzzle, its rotation set (with parity) shared by most solutions, their number."""
    puzzle = edgematch.generate(4, 4, seed=0).puzzle
    rotation_set, size = max(groups_of(solutions_of(puzzle).boards, parity=True).items(), key=lambda item: item[1])
    return puzzle, rotation_set, size


@pytest.fixture
def files(tmp_path):
    puzzle, rotation_set, size = largest_group()
    path = tmp_path / "set.rot"
    write_rotation_set(rotation_set, path)
    return write_puzzle_file(tmp_path, puzzle), path, size, puzzle


def test_cli_count_solve_search_and_estimate_with_rotations(capsys, files, tmp_path):
    puzzle_file, rotations, size, puzzle = files
    code, out, _ = run_cli(capsys, "count", puzzle_file, "--rotations", rotations, "--json")
    data = json.loads(out)
    assert code == 0 and data["solutions"] == size and data["statistics"]["rotation_set"] == "fixed, with parity"
    code, out, _ = run_cli(capsys, "count", puzzle_file, "--rotations", rotations, "--kernel", "lists")
    assert code == 0 and out.startswith(f"{size} solution")
    code, out, _ = run_cli(capsys, "count", puzzle_file, "--rotations", rotations, "--jobs", "2", "--no-record")
    assert code == 0 and out.startswith(f"{size} solution")
    code, out, _ = run_cli(capsys, "solve", puzzle_file, "--rotations", rotations, "--all", "--json")
    assert code == 0 and len(json.loads(out)["boards"]) == size
    code, out, _ = run_cli(capsys, "search", puzzle_file, "--rotations", rotations, "--json")
    data = json.loads(out)
    assert code == 0 and data["best_score"] == puzzle.max_score
    code, out, _ = run_cli(capsys, "estimate", puzzle_file, "--rotations", rotations, "--json")
    data = json.loads(out)
    assert code == 0 and data["rotation_set"] == "fixed, with parity" and data["expected_solutions"] > 0
    code, out, _ = run_cli(capsys, "estimate", puzzle_file, "--rotations", rotations)
    assert code == 0 and "fixed, with parity" in out
    code, out, _ = run_cli(
        capsys, "estimate", puzzle_file, "--rotations", rotations, "--compare", "rowscan", "spiral-in"
    )
    assert code == 0 and "spiral-in" in out


@pytest.mark.parametrize(
    "command,extra,words",
    [
        ("count", ["--solver", "colorpair"], "backtracking engine"),
        ("count", ["--solver", "macro"], "backtracking engine"),
        ("solve", ["--solver", "cpsat"], "backtracking engine"),
        ("count", ["--symmetry"], "--symmetry"),
        ("count", ["--each-rotation"], "--each-rotation"),
        ("estimate", ["--schedule", "1"], "--schedule"),
        ("estimate", ["--each-rotation"], "--each-rotation"),
    ],
)
def test_cli_rotations_errors(capsys, files, command, extra, words):
    puzzle_file, rotations, _, _ = files
    code, out, err = run_cli(capsys, command, puzzle_file, "--rotations", rotations, *extra)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_cli_rotations_of_another_board_or_a_resume(capsys, files, tmp_path):
    _, rotations, _, _ = files
    other = write_puzzle_file(tmp_path, edgematch.generate(5, 4, seed=0).puzzle, "other.txt")
    for command in ("count", "estimate"):
        code, _, err = run_cli(capsys, command, other, "--rotations", rotations)
        assert code == 2 and "4x4" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(capsys, "count", "--resume", "1", "--rotations", rotations, "--db", tmp_path / "none.db")
    assert code == 2 and "--rotations" in err
