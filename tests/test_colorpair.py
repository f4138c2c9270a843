"""The ColorPair engine (Benoist & Bourreau 2008) finds exactly the solutions of the
independent engines, in every combination of its switches.

References: the backtracking engine (checked itself against the plain-Python reference
solver in test_engines_agree.py), CP-SAT (an independent model) on every random instance,
the plain-Python reference solver on tiny ones, and the raw counts of Brendan Owen's 6x6
sets.  Solution *sets* are compared (tile and normalised rotation per square), not only
counts.  Ablations may change the number of nodes, never the solutions.

Speed: every instance is chosen so that every engine and every configuration finishes
in milliseconds (many small boards, larger ones with more colours or hints); the full
counts of Owen's 6x6 sets take minutes and are marked slow.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import edgematch
from edgematch.engines.backtrack.solver import BacktrackSolver
from edgematch.engines.base import Subtree
from edgematch.engines.colorpair import HEURISTICS, VALUE_ORDERS, ColorPairSolver
from edgematch.engines.colorpair.tables import h_table
from edgematch.errors import InputError
from edgematch.generator import default_colours, generate
from edgematch.model import Board, Hint
from edgematch.model.tiles import border_rotations
from support.reference import board_key as ref_key
from support.reference import reference_solutions
from support.rotations import turned

# ---------------------------------------------------------------------------- configurations
#: The on/off switches: the paper's ablations first (section 4.1, 4.2, 5.2), then the
#: parts of the model that can be switched off for experiments.
SWITCHES = (
    "preemption",
    "shared_edges",
    "cycles",
    "backjumping",
    "opposite_pairs",
    "contradiction",
    "instantiation",
    "patterns",
)
SHAVINGS = (None, 1, "all")


def every_configuration() -> list[dict]:
    """Every combination of the 8 switches, 3 shaving limits (none, L = 1, all) and the 5
    heuristics: 3840 configurations.  Value orders and shaving passes rotate with the
    index, so each meets many switch settings."""
    orders = list(VALUE_ORDERS)
    out = []
    for i, (bits, shaving, heuristic) in enumerate(
        itertools.product(itertools.product((False, True), repeat=len(SWITCHES)), SHAVINGS, list(HEURISTICS))
    ):
        options = dict(zip(SWITCHES, bits))
        options.update(
            shaving=shaving,
            heuristic=heuristic,
            value_order=orders[i % len(orders)],
            shaving_passes=("one", "fixpoint")[(i // len(orders)) % 2],
        )
        out.append(options)
    return out


ALL_CONFIGS = every_configuration()
#: The paper's switches only (preemption, shared edges, cycles, backjumping) x shaving x
#: heuristics, the rest on: 240 configurations, all run on each tiny puzzle.
PAPER_CONFIGS = [
    c for c in ALL_CONFIGS if all(c[name] for name in ("opposite_pairs", "contradiction", "instantiation", "patterns"))
]


def check_boards(result):
    assert result.complete and result.stopped_by is None
    assert result.solutions == len(result.boards)
    for board in result.boards:
        assert board.verify().valid


def test_the_configuration_lists_are_complete():
    assert len(ALL_CONFIGS) == 2 ** len(SWITCHES) * len(SHAVINGS) * len(HEURISTICS) == 3840
    assert (
        len(
            {
                tuple(sorted((k, str(v)) for k, v in c.items() if k in SWITCHES or k in ("shaving", "heuristic")))
                for c in ALL_CONFIGS
            }
        )
        == 3840
    )
    assert len(PAPER_CONFIGS) == 16 * 3 * 5


# ---------------------------------------------------------------------------- tiny puzzles
# Many solutions (few colours): square and rectangular, with and without hints, one with
# symmetric and duplicate tiles.
TINY = [
    (3, 3, 1, 2, "corner", 1),
    (4, 3, 2, 2, "none", 2),
    (4, 4, 2, 3, "corner", 3),
    (3, 5, 2, 3, 2, 4),
    (3, 3, 1, 1, "corner", 5),  # the inner tile 4-fold symmetric, duplicate edge tiles
]


@pytest.fixture(scope="module")
def tiny_references():
    out = []
    for w, h, b, i, hints, seed in TINY:
        g = generate(w, h, b, i, seed=seed, hints=hints)
        out.append((g.puzzle, reference_solutions(g.puzzle)))
    return out


@pytest.mark.parametrize("index", range(len(TINY)))
def test_paper_switch_combinations_find_the_reference_solutions(tiny_references, index):
    """All 240 combinations of the paper's switches, shaving limits and heuristics on each
    tiny puzzle: identical solution sets, valid boards, and the ablations do change the
    search."""
    puzzle, expected = tiny_references[index]
    assert expected  # the planted solution at least
    nodes = set()
    for options in PAPER_CONFIGS:
        result = ColorPairSolver(**options).solve(puzzle, k=None)
        assert result.complete, options
        assert result.solution_set() == expected, (puzzle.name, options)
        assert result.solutions == len(expected)
        nodes.add(result.nodes)
    assert len(nodes) > 1
    check_boards(result)


# ---------------------------------------------------------------------------- random instances
SIZES = [
    (3, 3),
    (4, 3),
    (3, 4),
    (4, 4),
    (5, 3),
    (3, 5),
    (5, 4),
    (4, 5),
    (5, 5),
    (6, 3),
    (6, 4),
    (4, 6),
    (6, 5),
    (6, 6),
    (7, 3),
    (7, 4),
    (7, 5),
    (5, 7),
    (7, 6),
    (7, 7),
]
HINT_KINDS = ["none", "corner", 1, 2, 3]
N_RANDOM = 220
CHUNKS = 10


def random_instances() -> list[tuple]:
    """220 random puzzles from 3x3 to 7x7, square and rectangular, with no hint, the corner
    hint of Benoist's instances, or 1-3 random hints.  Up to 16 squares: few colours, many
    solutions; larger boards: a little more colour than the E2-like default, so that every
    configuration (even with most rules off) enumerates them in milliseconds."""
    out = []
    for k in range(N_RANDOM):
        w, h = SIZES[k % len(SIZES)]
        hints = HINT_KINDS[(k // len(SIZES) + k) % len(HINT_KINDS)]
        if w * h <= 16:
            frame, inner = 2 + k % 2, 3 + k % 3
        else:
            frame, inner = default_colours(w, h)
            frame, inner = frame + 1 + k % 2 + (w * h >= 30), inner + 3 + 3 * (w * h >= 30)
        out.append((w, h, frame, inner, hints, 7000 + k))
    return out


RANDOM = random_instances()


def test_random_instances_cover_the_issue():
    assert len(RANDOM) >= 200
    assert {(w, h) for w, h, *_ in RANDOM} >= {(7, 7), (6, 6), (7, 5), (5, 7)}
    assert {hints for *_, hints, _ in RANDOM} == set(HINT_KINDS)


def _weakness(options: dict) -> int:
    """How much a configuration gives up (the rules that prune most count most)."""
    return (
        4 * (not options["contradiction"])
        + 2 * (not options["instantiation"])
        + 2 * (not options["patterns"])
        + (not options["backjumping"])
        + (options["shaving"] is None)
    )


def config_schedule() -> list[list[dict]]:
    """The 3840 configurations shared out over the 220 instances, each exactly once: the
    weakest configurations (no contradiction rule, no patterns, ...) go to the smallest
    boards, where even a plain enumeration is quick."""
    by_size = sorted(range(len(RANDOM)), key=lambda k: (RANDOM[k][0] * RANDOM[k][1], k))
    configs = sorted(ALL_CONFIGS, key=_weakness, reverse=True)
    per = len(configs) / len(RANDOM)
    schedule: list[list[dict]] = [[] for _ in RANDOM]
    for rank, k in enumerate(by_size):
        schedule[k] = configs[int(round(rank * per)) : int(round((rank + 1) * per))]
    return schedule


SCHEDULE = config_schedule()


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_instances_agree_in_every_configuration(chunk):
    """Each instance: the backtracker's solution set, CP-SAT's, and the
    ColorPair engine's in the default configuration and in its share of the 3840
    configurations (see :func:`config_schedule`: over the 220 instances every
    configuration runs exactly once)."""
    from edgematch.engines.cpsat import CpSatSolver

    multiple = 0
    size = len(RANDOM) // CHUNKS
    for k in range(chunk * size, (chunk + 1) * size):
        w, h, b, i, hints, seed = RANDOM[k]
        puzzle = generate(w, h, b, i, seed=seed, hints=hints).puzzle
        expected = BacktrackSolver().solve(puzzle, k=None)
        assert expected.complete
        wanted = expected.solution_set()
        assert wanted  # the planted solution
        multiple += len(wanted) > 1
        cpsat = CpSatSolver().solve(puzzle, k=None)
        assert cpsat.complete and cpsat.solution_set() == wanted, RANDOM[k]
        default = ColorPairSolver().solve(puzzle, k=None)
        check_boards(default)
        assert default.solution_set() == wanted, RANDOM[k]
        for options in SCHEDULE[k]:
            got = ColorPairSolver(**options).solve(puzzle, k=None)
            assert got.complete, (RANDOM[k], options)
            assert got.solution_set() == wanted, (RANDOM[k], options)
            assert got.solutions == len(got.boards)
    assert multiple >= size // 3  # set comparisons, not only single solutions


def test_every_configuration_is_scheduled_once():
    scheduled = [repr(sorted(c.items(), key=str)) for share in SCHEDULE for c in share]
    assert len(scheduled) == len(set(scheduled)) == len(ALL_CONFIGS)
    assert all(len(share) >= 17 for share in SCHEDULE)


# ---------------------------------------------------------------------------- Owen's 6x6 sets
def _corner_fixed(name: str) -> tuple:
    """The puzzle with its first corner tile fixed on the top-left corner: exactly a
    quarter of the raw solutions of a square board remain (see BacktrackSolver symmetry)."""
    puzzle = edgematch.load(name)
    corner = int(np.flatnonzero((puzzle.tiles == 0).sum(axis=1) == 2)[0])
    rotation = border_rotations(puzzle.tiles[corner], 0, 6, 6)[0]
    return puzzle, puzzle.with_hints([Hint(0, corner, rotation)])


@pytest.mark.parametrize("name,raw", [("owen1-6x6", 260), ("owen2-6x6", 160)])
def test_owen_6x6_solution_sets_with_a_corner_fixed(name, raw):
    """Owen's set 1 6x6 has 260 raw solutions (65 up to rotation, the community's figure);
    set 2 6x6 has 160 by our backtracker.  With the first corner tile fixed exactly a
    quarter remain, and the ColorPair engine finds the backtracker's solutions exactly
    (about 25 s and 10 s here)."""
    _, fixed = _corner_fixed(name)
    result = ColorPairSolver().solve(fixed, k=None)
    check_boards(result)
    assert 4 * result.solutions == raw
    assert result.solution_set() == BacktrackSolver().solve(fixed, k=None).solution_set()


@pytest.mark.slow
@pytest.mark.parametrize("name,raw", [("owen1-6x6", 260), ("owen2-6x6", 160)])
def test_owen_6x6_raw_solution_sets(name, raw):
    """The puzzles as distributed (no hint): every raw solution, the backtracker's set."""
    puzzle = edgematch.load(name)
    result = ColorPairSolver().solve(puzzle, k=None)
    check_boards(result)
    assert result.solutions == raw
    assert result.solution_set() == BacktrackSolver().solve(puzzle, k=None).solution_set()


# ---------------------------------------------------------------------------- statistics
@pytest.fixture(scope="module")
def medium():
    """A 6x6 puzzle with the corner hint where every rule acts (backjumps, preemptions,
    shared-edges and cycle failures: checked by the tests that use it)."""
    return generate(6, 6, 4, 7, seed=2, hints="corner").puzzle


def test_nodes_are_every_placement_and_add_up_per_depth(medium):
    for options in ({}, dict(shaving="all"), dict(backjumping=False, preemption=False)):
        r = ColorPairSolver(**options).count(medium)
        s = r.statistics
        assert r.complete
        assert r.nodes == s["decisions"] + s["propagated"] + s["probes"] + s["shaving_placements"]
        assert r.nodes == sum(r.nodes_per_depth)
        assert s["options"]["shaving"] == ("-" if options.get("shaving") is None else "all")
        assert r.seconds > 0


def test_ablations_change_nodes_never_counts(medium):
    base = ColorPairSolver().count(medium)
    stats = base.statistics
    for key in (
        "backjumps",
        "levels_skipped",
        "preemptions",
        "fail_pair",
        "propagated",
        "fail_shared_edges",
        "fail_cycle",
        "pattern_choices",
        "pair_choices",
    ):
        assert stats[key] > 0, key
    bt = BacktrackSolver().count(medium)
    assert bt.solutions == base.solutions
    for options, stat in [
        (dict(backjumping=False), "backjumps"),
        (dict(preemption=False), "preemptions"),
        (dict(shaving="all"), None),
        (dict(heuristic="min-offer"), None),
        (dict(shared_edges=False), "fail_shared_edges"),
        (dict(cycles=False), "fail_cycle"),
        (dict(patterns=False), "pattern_choices"),
        (dict(instantiation=False), "propagated"),
        (dict(opposite_pairs=False), None),
    ]:
        r = ColorPairSolver(**options).count(medium)
        assert r.complete and r.solutions == base.solutions, options
        assert r.nodes != base.nodes, options
        if stat is not None:
            assert r.statistics[stat] == 0, options
    shaved = ColorPairSolver(shaving="all").count(medium).statistics
    assert shaved["probes"] > 0 and shaved["shaving_placements"] > 0 and shaved["shaving_failures"] > 0


def test_backjumping_skips_levels_and_explores_less(medium):
    with_bj = ColorPairSolver().count(medium)
    without = ColorPairSolver(backjumping=False).count(medium)
    assert with_bj.statistics["levels_skipped"] >= with_bj.statistics["backjumps"] > 0
    assert with_bj.nodes < without.nodes
    assert with_bj.solutions == without.solutions


# ---------------------------------------------------------------------------- modes
def test_solve_k_enumerate_and_callback(medium):
    everything = ColorPairSolver().solve(medium, k=None)
    # the backtracker, a second engine, finds the same solutions (two: enough for k=1 to stop early)
    backtrack = BacktrackSolver().solve(medium, k=None)
    assert everything.solution_set() == backtrack.solution_set() and backtrack.solutions == 2
    first = ColorPairSolver().solve(medium, k=1)
    assert first.solutions == 1 and len(first.boards) == 1 and first.boards[0].verify().valid
    assert not first.complete and first.stopped_by == "solutions"
    seen: list[Board] = []
    streamed = ColorPairSolver().enumerate(medium, seen.append)
    assert streamed.complete and len(seen) == everything.solutions and not streamed.boards
    stop = ColorPairSolver().solve(medium, k=None, callback=lambda board: True)
    assert stop.stopped_by == "callback" and stop.solutions >= 1


def test_limits_stop_the_search():
    g = generate(8, 8, 3, 8, seed=5, hints="corner")
    r = ColorPairSolver(node_limit=5000).count(g.puzzle)
    assert not r.complete and r.stopped_by == "nodes"
    assert 5000 <= r.nodes < 5100
    r = ColorPairSolver(time_limit=0.0).count(g.puzzle)
    assert not r.complete and r.stopped_by == "time"


def test_progress_is_reported():
    g = generate(8, 8, 3, 8, seed=5, hints="corner")
    reports = []
    ColorPairSolver(node_limit=3_000_000, progress=reports.append, progress_interval=0.0).count(g.puzzle)
    assert reports and {"nodes", "solutions", "seconds"} <= set(reports[-1])


def test_split_parts_add_up(medium):
    for backjumping in (False, True):
        solver = ColorPairSolver(backjumping=backjumping, shaving=1)
        whole = solver.count(medium)
        parts, prefix = solver.split(medium, 3)
        assert parts and all(isinstance(p, Subtree) and len(p.path) == 3 for p in parts)
        counts = [solver.count(medium, start=p) for p in parts]
        assert prefix.solutions + sum(c.solutions for c in counts) == whole.solutions
        total_nodes = prefix.nodes + sum(c.nodes for c in counts)
        if backjumping:
            assert total_nodes >= whole.nodes  # a subtree cannot jump above its own root
        else:
            assert total_nodes == whole.nodes
        for part in parts[:3]:
            assert part.verify(require_complete=False).valid
            # a split node is also a plain start board (searched from a fresh fixed point)
            plain = Board(part.puzzle, part.tiles, part.rotations)
            assert solver.count(medium, start=plain).solutions == solver.count(medium, start=part).solutions


def test_start_boards_split_the_count():
    """Any partition of the first square's placements: the counts below each start board
    add up to the whole count, and the solution sets are those extending the board."""
    g = generate(4, 4, 2, 3, seed=11)
    everything = reference_solutions(g.puzzle)
    total = 0
    for tile in range(g.puzzle.n_tiles):
        for rotation in border_rotations(g.puzzle.tiles[tile], 0, 4, 4):
            start = Board(g.puzzle)
            start.place(0, tile, rotation)
            got = ColorPairSolver().solve(g.puzzle, k=None, start=start)
            assert got.solution_set() == {k for k in everything if k[0] == (tile, rotation)}
            total += got.solutions
    assert total == len(everything)
    sol = g.solution
    for squares in ([5, 6], [0, 1, 2, 3]):
        start = Board(g.puzzle)
        for s in squares:
            start.place(s, int(sol.tiles[s]), int(sol.rotations[s]))
        wanted = {k for k in everything if all(k[s] == ref_key(sol)[s] for s in squares)}
        assert ColorPairSolver().solve(g.puzzle, k=None, start=start).solution_set() == wanted


def test_contradictory_hints_have_no_solution():
    """Two hints on A1 and A2 whose shared side differs: no solution, by the rules alone."""
    g = generate(4, 4, 2, 3, seed=12)
    sol, puzzle = g.solution, g.puzzle
    corner, corner_rotation = int(sol.tiles[0]), int(sol.rotations[0])
    corner_east = turned(puzzle.tiles[corner], corner_rotation)[1]
    clash = next(
        (t, r)
        for t in range(puzzle.n_tiles)
        if t != corner
        for r in border_rotations(puzzle.tiles[t], 1, 4, 4)
        if turned(puzzle.tiles[t], r)[3] != corner_east
    )
    hinted = puzzle.with_hints([Hint(0, corner, corner_rotation), Hint(1, *clash)])
    assert len(reference_solutions(hinted)) == 0
    r = ColorPairSolver().count(hinted)
    assert r.complete and r.solutions == 0


# ---------------------------------------------------------------------------- rules
def test_shared_edges_bound_matches_the_closed_form():
    """h(M) of Benoist (2008) equals 2M - ceil(2 sqrt(M)) (Harary & Harborth, 1976)."""
    h = h_table(400)
    for m in range(1, 401):
        assert h[m] == 2 * m - int(np.ceil(2 * np.sqrt(m) - 1e-12)), m
    assert h[0] == 0
    assert list(h[:10]) == [0, 0, 1, 2, 4, 5, 7, 8, 10, 12]  # by hand: 1x2, 1x3 (or L), 2x2, ...


def test_bad_options_raise_input_errors():
    with pytest.raises(InputError):
        ColorPairSolver(heuristic="fastest")
    with pytest.raises(InputError):
        ColorPairSolver(value_order="random")
    with pytest.raises(InputError):
        ColorPairSolver(shaving="some")
    with pytest.raises(InputError):
        ColorPairSolver(shaving=-2)
    with pytest.raises(InputError):
        ColorPairSolver(shaving_passes="twice")
    g = generate(4, 4, 2, 3, seed=13)
    wrong = Board(g.puzzle)
    wrong.place(0, int(g.solution.tiles[5]), 0)  # an inner tile in a corner
    with pytest.raises(InputError):
        ColorPairSolver().count(g.puzzle, start=wrong)
    with pytest.raises(InputError):
        ColorPairSolver().solve(g.puzzle, k=0)
    with pytest.raises(InputError):
        ColorPairSolver().split(g.puzzle, -1)


def test_registered_as_a_solver():
    from edgematch.engines import make_solver

    solver = make_solver("colorpair", heuristic="min-offer", shaving="all")
    assert isinstance(solver, ColorPairSolver)
    with pytest.raises(InputError):
        make_solver("colorpair", order="rowscan")


def test_the_compile_benchmark_names_a_failed_count_in_one_line():
    """benchmarks/colorpair_compile.py runs each count in a child process: when the child fails,
    the benchmark stops with its status and last line of error instead of a traceback."""
    from benchmarks.colorpair_compile import one_run

    with pytest.raises(SystemExit) as stopped:
        one_run("import sys; sys.exit('no such puzzle')")
    assert str(stopped.value) == "colorpair_compile.py: the count's process failed (status 1): no such puzzle"
    assert one_run("import json; print(json.dumps({'seconds': 0.5}))") == {"seconds": 0.5}


def test_the_filtering_is_compiled_for_int64_levels_only():
    """The root's level and instantiate's rotation reach Numba as int64, not as the literals
    0 and -1: each literal compiled the filtering and everything it calls once more (a
    first count took twice as long; benchmarks/results/colorpair_compile.md).  The two
    callers are typed afresh (uncached), so their callees see every signature asked for."""
    from numba import njit, types

    from edgematch.engines.colorpair import filtering, search

    assert ColorPairSolver().count(generate(4, 4, 2, 3, seed=1).puzzle).complete
    (root,) = search.place_root.signatures
    njit(search.place_root.py_func).compile(root)
    njit(filtering.instantiate.py_func).compile((types.CPointer(types.int64), types.int64, types.boolean, types.int64))
    for function in (filtering.propagate, search.shave, filtering.assign):
        assert function.signatures
        assert not [s for s in function.signatures if "Literal[int]" in str(s)], function.signatures
