"""The generated exact kernel: the list kernel's tree and state, slice by slice."""

from __future__ import annotations

import json

import numpy as np
import pytest
from tests.support.cli import run_cli

from edgematch.engines import base as engine_base
from edgematch.engines.backtrack import BacktrackSolver, background_compile, generated, prefix_filter
from edgematch.engines.backtrack import kernel as K
from edgematch.engines.backtrack import solver as solver_module
from edgematch.engines.backtrack.exact import plan_tables
from edgematch.engines.backtrack.placements import start_arrays
from edgematch.generator import generate
from edgematch.loading import load


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """Generated modules go to a folder of this test session, not the user's cache."""
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "edgematch-cache"))


def _slices(puzzle, order, budget, total, kinds):
    """Run both kernels' slices on one state: ``kinds`` says which kernel runs each slice
    (cycled); returns every slice's results and state."""
    plan = BacktrackSolver(order=order).plan(puzzle)
    tables = plan_tables(plan)
    rows = tables.rows(plan.exact_phases())
    board, used, first = start_arrays(plan, None, exact=True)
    board = tables.board(board)
    D = plan.depth
    assert generated.supports(tables, rows)
    written = generated.load(
        rows, plan.order, board, tables.cmask, tables.pmask, first, puzzle.n_tiles, len(tables.starts)
    )
    cur = np.zeros(D + 1, np.int64)
    end = np.zeros(D + 1, np.int64)
    state = np.array([first, first, D, 1], np.int64)
    out = np.zeros((3, puzzle.n_squares), np.int32)
    npd = np.zeros(D, np.int64)
    trace = []
    nodes = 0
    for call in range(10**6):
        kind = kinds[call % len(kinds)]
        out[:] = 0
        if kind == "generated":
            result = written.search(
                tables.cand, tables.starts, board, used, cur, end, state, np.int64(budget), np.int64(-1), out, npd
            )
        else:
            result = K.exact_search(
                tables.cand, tables.starts, None, plan.order, rows, board, used, cur, end, state,
                np.int64(budget), np.int64(-1), out, npd, None, np.int64(tables.cmask), np.int64(tables.pmask),
            )  # fmt: skip
        result = tuple(int(x) for x in result)
        live = slice(0, int(state[0]) + 1)
        trace.append((result, out.tolist(), state.tolist(), cur[live].tolist(), end[live].tolist(), used.tolist()))
        nodes += result[0]
        if result[3] == K.FINISHED or nodes >= total:
            break
    return trace, npd.tolist()


@pytest.mark.parametrize(
    ("name", "order", "budget", "total"),
    [
        ("owen1-4x4", "rowscan", 7, 10**9),
        ("owen1-5x4", "spiral-in", 13, 10**9),
        ("owen1-6x3", "colscan", 5, 10**9),
        ("clue1", "rowscan", 101, 300_000),
    ],
)
def test_every_slice_ends_in_the_list_kernels_state(name, order, budget, total):
    """Same nodes, solutions, rows written, status, stack, used tiles after every slice of
    a few nodes (so every stop and every resume is exercised), hints included (clue1)."""
    puzzle = load(name)
    listed, listed_npd = _slices(puzzle, order, budget, total, ["lists"])
    written, written_npd = _slices(puzzle, order, budget, total, ["generated"])
    assert len(listed) > 300
    assert written == listed and written_npd == listed_npd
    mixed, mixed_npd = _slices(puzzle, order, budget, total, ["generated", "lists", "lists", "generated", "generated"])
    assert [t[0] for t in mixed] == [t[0] for t in listed] and mixed_npd == listed_npd


def test_counts_solutions_and_limits_match_the_list_kernel():
    for seed, order in ((0, "rowscan"), (1, "spiral-in"), (2, "frame")):
        puzzle = generate(5, 5, 3, 6, seed=seed, hints=seed % 2).puzzle
        listed = BacktrackSolver(order=order, kernel="lists").solve(puzzle, k=None)
        written = BacktrackSolver(order=order, kernel="generated").solve(puzzle, k=None)
        assert written.statistics["kernel"] == "generated" and listed.statistics["kernel"] == "lists"
        assert [b.placements() for b in written.boards] == [b.placements() for b in listed.boards]
        assert written.boards and written.solutions == listed.solutions
        assert (written.nodes, written.nodes_per_depth) == (listed.nodes, listed.nodes_per_depth)
        limited = BacktrackSolver(order=order, kernel="generated", node_limit=777).count(puzzle)
        assert limited.nodes == 777 and limited.stopped_by == "nodes"
        first_two = BacktrackSolver(order=order, kernel="generated").solve(puzzle, k=2)
        assert [b.placements() for b in first_two.boards] == [b.placements() for b in listed.boards[:2]]


def test_subtrees_of_a_split_count_the_same(tmp_path, monkeypatch):
    """Every subtree runs the whole puzzle's module (one module for all of them), from the
    function that begins at the subtree's depth (functions as long as that depth here)."""
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(generated, "_loaded", {})  # as in a new process: modules written here
    puzzle = generate(5, 5, 3, 6, seed=3).puzzle
    subtrees, _ = BacktrackSolver(kernel="lists").split(puzzle, 5)
    assert len(subtrees) > 3
    levels = {BacktrackSolver().level_of(puzzle, subtree) for subtree in subtrees[:4]}
    assert len(levels) == 1 and min(levels) > 0
    monkeypatch.setattr(generated, "DEPTHS_PER_FUNCTION", levels.pop())
    for subtree in subtrees[:4]:
        listed = BacktrackSolver(kernel="lists").count(puzzle, start=subtree)
        written = BacktrackSolver(kernel="generated").count(puzzle, start=subtree)
        assert written.statistics["kernel"] == "generated"
        assert (written.solutions, written.nodes, written.nodes_per_depth) == (
            listed.solutions,
            listed.nodes,
            listed.nodes_per_depth,
        )
    assert len(list((tmp_path / "generated").glob("edgematch_exact_*.py"))) == 1


def test_the_prefix_filter_settles_prefixes_where_a_function_begins(monkeypatch):
    """Filtered slices start at a function's first depth (short functions here, so that
    many do), and the search is the same as the list kernel's."""
    monkeypatch.setattr(generated, "DEPTHS_PER_FUNCTION", 3)
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 40)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 40)
    monkeypatch.setattr(prefix_filter, "MARGIN", 0)
    monkeypatch.setattr(prefix_filter, "MIN_SETTLED", 1)
    puzzle = generate(5, 5, 3, 6, seed=4).puzzle
    written = BacktrackSolver(kernel="generated").solve(puzzle, k=None)
    listed = BacktrackSolver(kernel="lists").solve(puzzle, k=None)
    assert written.statistics["prefix_filtered_slices"] > 20
    assert written.solution_set() == listed.solution_set() and written.solutions >= 1
    assert (written.nodes, written.nodes_per_depth) == (listed.nodes, listed.nodes_per_depth)


def test_the_module_is_written_once_and_named_by_its_source(tmp_path, monkeypatch):
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(generated, "_loaded", {})  # as in a new process
    puzzle = load("owen1-4x4")
    BacktrackSolver(kernel="generated").count(puzzle)
    files = sorted(p.name for p in (tmp_path / "generated").glob("*.py"))
    assert len(files) == 1 and files[0].startswith("edgematch_exact_")
    BacktrackSolver(kernel="generated").count(puzzle)
    BacktrackSolver(kernel="generated", order="spiral-in").count(puzzle)
    assert len(list((tmp_path / "generated").glob("*.py"))) == 2


def test_cli_kernel_generated(capsys):
    code, text, _ = run_cli(capsys, "count", "owen1-4x4", "--kernel", "generated", "--json")
    code_lists, text_lists, _ = run_cli(capsys, "count", "owen1-4x4", "--kernel", "lists", "--json")
    assert code == code_lists == 0
    out, out_lists = json.loads(text), json.loads(text_lists)
    assert out["statistics"]["kernel"] == "generated"
    assert (out["solutions"], out["nodes"]) == (out_lists["solutions"], out_lists["nodes"])


def test_auto_takes_the_generated_kernel_once_it_is_compiled(monkeypatch):
    """On the list kernel, ``auto`` takes the generated kernel between two slices: at once
    (after a few seconds: none here) where it is compiled, once a background compile has
    cached it where the search has long enough left, and never in a search too short for
    a compile.  Counts, nodes and nodes per depth are the list kernel's every way."""
    monkeypatch.setenv("EDGEMATCH_BACKGROUND_COMPILE", "1")  # the suite turns it off
    monkeypatch.setattr(background_compile, "START_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(solver_module, "bit_tables", lambda plan, rows: None)  # auto runs the list kernel
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 20)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 20)
    puzzle = generate(5, 5, 3, 6, seed=0).puzzle
    listed = BacktrackSolver(kernel="lists").solve(puzzle, k=None)

    def same(result):
        return (result.solutions, result.nodes, result.nodes_per_depth) == (
            listed.solutions,
            listed.nodes,
            listed.nodes_per_depth,
        )

    BacktrackSolver(kernel="generated").solve(puzzle, k=None)  # compiled, in this session's cache
    compiled = BacktrackSolver().solve(puzzle, k=None)
    assert compiled.statistics["kernel"] == "generated" and "generated_kernel_from_seconds" in compiled.statistics
    assert same(compiled)

    class Compile:  # cached at its 30th look
        looks = 0
        failed = False

        def ready(self):
            Compile.looks += 1
            return Compile.looks > 30

    monkeypatch.setattr(generated, "is_compiled", lambda text, prefix: False)
    monkeypatch.setattr(background_compile, "compile_once", lambda text, prefix, dtype: Compile())
    monkeypatch.setattr(background_compile, "WORTH_SECONDS", 0.0)
    compiling = BacktrackSolver().solve(puzzle, k=None)
    assert compiling.statistics["kernel"] == "generated" and Compile.looks == 31 and same(compiling)
    monkeypatch.setattr(background_compile, "WORTH_SECONDS", 600.0)
    Compile.looks = 0
    short = BacktrackSolver(time_limit=300).solve(puzzle, k=None)  # 300 s left at most: no compile
    assert short.statistics["kernel"] == "lists" and Compile.looks == 0 and same(short)
