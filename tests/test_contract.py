"""The engine contract (engines/base.py): every registered solver through every method.

Each engine either does a method or refuses it with an InputError (never a TypeError),
limits mean the same everywhere, a stop flag ends every engine's search within a slice,
and the counts of all engines agree with the brute-force reference, with and without a
start board.
"""

from __future__ import annotations

import contextlib
import math
import signal

import numpy as np
import pytest

from edgematch.engines import SOLVERS, make_solver
from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.base import (
    NOTHING_SEARCHED,
    Engine,
    Limits,
    SliceDriver,
    SliceReport,
    StopFlag,
    StopReason,
    Subtree,
    node_mark_after,
)
from edgematch.engines.result import SearchResult, add_nodes_per_depth, add_statistics
from edgematch.errors import InputError
from edgematch.generator import generate
from support.reference import board_key, reference_solve

# What each engine can do (a method an engine cannot do must raise InputError).
CAN = {
    "backtrack": {"count", "solve", "enumerate", "best", "split", "start"},
    "colorpair": {"count", "solve", "enumerate", "split", "start"},
    "cpsat": {"count", "solve", "enumerate", "start"},
    "macro": {"count", "solve", "enumerate", "split", "start"},
    "balanced": {"count", "solve", "enumerate"},
}


@pytest.fixture(scope="module")
def puzzle():
    """A 4x4 puzzle (even sides, so the macro engine takes it too) with several solutions."""
    return generate(4, 4, 2, 3, seed=3).puzzle


@pytest.fixture(scope="module")
def reference(puzzle):
    return reference_solve(puzzle).solutions


@pytest.fixture(scope="module")
def start(puzzle):
    """A valid partial board filling the first 2 squares of the row scan (the backtracker's split)."""
    boards, _ = BacktrackSolver().split(puzzle, 2)
    return boards[0]


def test_every_registered_solver_is_an_engine_and_the_table_is_complete():
    assert set(CAN) == set(SOLVERS)
    for name in SOLVERS:
        assert isinstance(make_solver(name), Engine)


@pytest.mark.parametrize("name", sorted(CAN))
def test_every_method_works_or_refuses_in_one_line(name, puzzle, reference, start):
    engine = make_solver(name)
    can = CAN[name]
    calls = {
        "count": lambda **kw: engine.count(puzzle, **kw),
        "solve": lambda **kw: engine.solve(puzzle, k=None, **kw),
        "enumerate": lambda **kw: engine.enumerate(puzzle, lambda board: None, collect=True, **kw),
    }
    for method, call in calls.items():
        assert method in can
        whole = call()
        assert whole.complete and whole.solutions == len(reference), (name, method)
        if method != "count":
            assert {board_key(b) for b in whole.boards} == reference
            assert all(b.verify().valid and b.puzzle is puzzle for b in whole.boards)
        if "start" in can:
            part = call(start=start)
            below = {key for key in reference if all(key[sq] == board_key(start)[sq]
                                                     for sq in range(puzzle.n_squares) if start.tiles[sq] >= 0)}
            assert part.complete and part.solutions == len(below), (name, method)
            if method != "count":
                assert {board_key(b) for b in part.boards} == below
        else:
            with pytest.raises(InputError, match=f"the {name} solver cannot"):
                call(start=start)
    if "best" in can:
        best = engine.best(puzzle)
        assert best.best_score == puzzle.max_score and best.best_board.verify().valid
    else:
        with pytest.raises(InputError, match=f"the {name} solver cannot"):
            engine.best(puzzle)
    if "split" in can:
        subtrees, head = engine.split(puzzle, 2)
        # one subtree type from every engine: a valid partial board (plus the engine's decisions)
        assert all(isinstance(s, Subtree) and s.verify(require_complete=False).valid for s in subtrees)
        assert subtrees and sum(engine.count(puzzle, start=s).solutions for s in subtrees) + head.solutions \
            == len(reference)
    else:
        with pytest.raises(InputError, match=f"the {name} solver cannot"):
            engine.split(puzzle, 2)


@pytest.mark.parametrize("name", sorted(CAN))
def test_solve_k_and_limits_mean_the_same_on_every_engine(name, puzzle, reference):
    engine = make_solver(name)
    first = engine.solve(puzzle, k=2)
    assert first.solutions == 2 and len(first.boards) == 2 and first.stopped_by == StopReason.SOLUTIONS
    assert {board_key(b) for b in first.boards} <= reference
    limited = engine.solve(puzzle, k=None, limits=Limits(solutions=3))
    assert limited.solutions == 3 and limited.stopped_by == "solutions" and not limited.complete
    with pytest.raises(InputError):
        engine.solve(puzzle, k=0)


@pytest.mark.parametrize("name", ["backtrack", "colorpair", "macro", "balanced"])
def test_a_node_limit_and_a_stop_flag_end_every_sliced_engine(name):
    puzzle = generate(8, 8, 3, 6, seed=1).puzzle
    engine = make_solver(name, node_limit=3000)
    result = engine.count(puzzle)
    assert result.stopped_by == StopReason.NODES and not result.complete and result.nodes >= 3000
    flag = StopFlag()
    engine = make_solver(name)
    engine.stop = flag
    flag.set()
    stopped = engine.count(puzzle)
    assert stopped.stopped_by == StopReason.INTERRUPTED and not stopped.complete


@pytest.mark.parametrize("value", [-1, math.nan, math.inf, "soon"])
def test_meaningless_time_limits_are_refused_by_every_engine(value):
    for name in SOLVERS:
        with pytest.raises(InputError, match="time limit"):
            make_solver(name, time_limit=value)
    with pytest.raises(InputError, match="time limit"):
        Limits(time=value)


@pytest.mark.parametrize("field,value", [("nodes", 0), ("nodes", -5), ("nodes", 2.5), ("nodes", True),
                                         ("solutions", 0), ("solutions", math.inf)])
def test_meaningless_counts_are_refused(field, value):
    with pytest.raises(InputError):
        Limits(**{field: value})


def test_limits_keep_good_values_and_the_loose_spelling_overrides():
    limits = Limits(time=0, nodes=10.0, solutions=2)
    assert (limits.time, limits.nodes, limits.solutions) == (0.0, 10, 2)
    merged = Limits.of(limits, time_limit=5)
    assert (merged.time, merged.nodes, merged.solutions) == (5.0, 10, 2)


def test_stop_reasons_are_the_strings_json_shows():
    assert [r.value for r in StopReason] == ["time", "nodes", "solutions", "target", "callback", "interrupted",
                                             "restarts"]
    assert StopReason.TIME == "time" and f"{StopReason.NODES}" == "nodes"


def test_the_driver_checks_limits_in_its_documented_order():
    """Per slice: node budget, kernel, callback on each board, engine stop, finished,
    solutions wanted, time; a stop flag before the next slice."""
    result = SearchResult()
    seen = []
    driver = SliceDriver(result, Limits(nodes=25, solutions=5), first_budget=10)
    reports = iter([SliceReport(nodes=10, solutions=1, boards=["a"]), SliceReport(nodes=10), SliceReport(nodes=5)])
    assert driver.run(lambda budget: (seen.append(budget), next(reports))[1], collect=True) is False
    # the budget grows after a full slice (at most 4x: 40), but never past the node limit:
    # 10, then min(40, 25 - 10), then what is left (25 - 20)
    assert seen == [10, 15, 5] and result.stopped_by == StopReason.NODES and result.boards == ["a"]
    assert driver.nodes_done == 25 and driver.solutions_done == 1
    assert (result.nodes, result.solutions) == (25, 1)  # the driver counts into the result, once

    result = SearchResult()
    driver = SliceDriver(result, Limits(), first_budget=10)
    assert driver.run(lambda budget: SliceReport(nodes=3, solutions=2, boards=["x", "y"]),
                      callback=lambda board: board == "y") is False
    assert result.stopped_by == StopReason.CALLBACK

    result = SearchResult()
    flag = StopFlag()
    driver = SliceDriver(result, Limits(), stop=flag, first_budget=10)

    def one_slice_then_stop(budget):
        flag.set()
        return SliceReport(nodes=budget)

    assert driver.run(one_slice_then_stop) is False
    assert result.stopped_by == StopReason.INTERRUPTED and driver.nodes_done == 10
    assert "interrupted" not in result.statistics


def test_a_timeline_driver_notes_each_new_deepest_depth_and_best_score_once():
    """The first time each value is reached, after the slice that reached it; equal or
    lower values later are not noted again, and a driver without a timeline notes nothing."""
    steps = [(5, 10), (5, 10), (7, 9), (6, 12), (9, 12)]  # (deepest, best score) after each slice
    for timeline in (True, False):
        result = SearchResult(best_score=-1)
        driver = SliceDriver(result, Limits(), first_budget=5, timeline=timeline)
        todo = iter(enumerate(steps, 1))

        def one_slice(budget, result=result, todo=todo):
            done, (deepest, result.best_score) = next(todo)
            return SliceReport(nodes=budget, deepest=deepest, finished=done == len(steps))

        assert driver.run(one_slice) is True
        if not timeline:
            assert "deepest_at" not in result.statistics and "best_score_at" not in result.statistics
            continue
        deepest_at, best_at = result.statistics["deepest_at"], result.statistics["best_score_at"]
        assert list(deepest_at) == ["5", "7", "9"] and list(best_at) == ["10", "12"]
        assert deepest_at["5"] == best_at["10"] <= deepest_at["7"] <= best_at["12"] <= deepest_at["9"]


def test_a_timeline_driver_notes_the_nodes_placed_by_each_node_mark():
    """[seconds, nodes] at the first slice past each mark (several marks passed in one slice
    give one entry), then every hour: the rate stretch by stretch of a long search."""
    clock = iter([0.5, 1.2, 1.5, 7.0, 3700.0, 7300.0])
    result = SearchResult(best_score=-1)
    driver = SliceDriver(result, Limits(), first_budget=10, timeline=True)
    now = [0.0]
    driver.elapsed = lambda: now[0]  # type: ignore[method-assign]

    def one_slice(budget):
        now[0] = next(clock)
        return SliceReport(nodes=10, finished=now[0] > 7200)

    assert driver.run(one_slice) is True
    assert result.statistics["nodes_at"] == [[1.2, 20], [7.0, 40], [3700.0, 50], [7300.0, 60]]
    assert node_mark_after(3600) == 7200 and node_mark_after(7200) == 10800
    assert node_mark_after(0) == 1 and node_mark_after(1800) == 3600


def test_a_signal_in_the_first_slices_compiler_says_nothing_was_searched():
    """The signal handler's KeyboardInterrupt inside the first slice (a kernel compiling)
    ends the run with nothing searched, and the result says so, as the command's own
    interrupted result does when the signal comes before the search."""
    result = SearchResult()
    flag = StopFlag()
    driver = SliceDriver(result, Limits(), stop=flag, first_budget=10)

    def compiling(budget):
        assert flag.warming
        flag.signal = 2
        flag.set()
        flag.interrupted_warming = True
        raise KeyboardInterrupt

    assert driver.run(compiling) is False
    assert result.stopped_by == StopReason.INTERRUPTED and result.nodes == 0
    assert result.statistics["interrupted"] == NOTHING_SEARCHED


@pytest.mark.parametrize("name", sorted(CAN))
def test_every_engine_says_what_its_nodes_are_under_one_key(name, puzzle):
    """One statistics key, ``nodes_are``, on every engine (what a node means differs)."""
    statistics = make_solver(name).count(puzzle).statistics
    assert statistics["nodes_are"].startswith("nodes = ")
    if name in ("backtrack", "colorpair"):
        assert "(tile, rotation)" in statistics["nodes_are"]


class _SignalInTheFirstSlice(StopFlag):
    """A stop flag whose first slice is interrupted at once, as a signal arriving while
    the first kernel compiles interrupts it (the handler's KeyboardInterrupt)."""

    @contextlib.contextmanager
    def warm(self):
        self.signal = signal.SIGINT
        self.set()
        self.interrupted_warming = True
        raise KeyboardInterrupt
        yield  # a generator, for contextmanager


@pytest.mark.parametrize("name", sorted(set(CAN) - {"cpsat"}))  # CP-SAT: one library call, no slices
def test_every_engine_keeps_the_note_that_nothing_was_searched(name, puzzle):
    """An engine's own statistics never overwrite the driver's note that a signal in the
    first slice's compiler stopped the search before any node (colorpair once did)."""
    engine = make_solver(name)
    engine.stop = _SignalInTheFirstSlice()
    result = engine.count(puzzle)
    assert result.stopped_by == StopReason.INTERRUPTED and not result.complete
    assert result.nodes == 0 and result.solutions == 0
    assert result.statistics["interrupted"] == NOTHING_SEARCHED


def test_a_slices_nodes_per_depth_add_up_as_python_integers():
    """Engines add each kernel call's nodes per depth to the result between slices; the
    counts stay Python integers, past what a machine word holds."""

    counts = [0, 2**64, 0, 5, 0]
    add_nodes_per_depth(counts, np.array([0, 3, 0, 1, 0], np.int64))
    add_nodes_per_depth(counts, np.zeros(5, np.int64))
    add_nodes_per_depth(counts, np.array([7, 0, 0, 0, 0], np.int64))
    assert counts == [7, 2**64 + 3, 0, 6, 0]
    assert all(type(c) is int for c in counts)


def test_a_runs_statistics_add_counts_and_keep_descriptions_best_and_earliest_values():
    run: dict = {}
    add_statistics(
        run, {"complete_boards": 3, "target": 470, "endgame_best": 460, "generated_kernel_from_seconds": 300.5}
    )
    add_statistics(
        run, {"complete_boards": 4, "target": 470, "endgame_best": 462, "generated_kernel_from_seconds": 290.0}
    )
    add_statistics(run, {"complete_boards": 1, "boards_by_score": {"460": 2}, "order": "blackwood"})
    assert run == {
        "complete_boards": 8,
        "target": 470,
        "endgame_best": 462,
        "generated_kernel_from_seconds": 290.0,
        "boards_by_score": {"460": 2},
        "order": "blackwood",
    }
