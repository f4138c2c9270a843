"""The generated best-score kernel: the list kernel's tree, slice by slice and across kernels."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from tests.support.cli import run_cli

from edgematch.engines import base as engine_base
from edgematch.engines.backtrack import (
    BacktrackSolver,
    background_compile,
    generated,
    generated_best,
    prefix_filter,
    union_lists,
)
from edgematch.engines.backtrack import solver as solver_module
from edgematch.engines.backtrack.plan import P_BASE, P_CHK, P_ERR, P_KEY, P_NCHK, P_NKEY
from edgematch.formats import format_puzzle
from edgematch.generator import generate

SCHEDULE = "list:0,0,0,0,0,0,0,0,0,0,1,1,1,2,2,2,3,3,3,4"
#: a bound that rises over the first 11 tiles and then holds: the depths below it check nothing
PRIORITY_RAMP = "list:0,0,1,1,2,3,3,4,5,5,6"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """Generated modules go to a folder of this test session, not the user's cache."""
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "edgematch-cache"))


@pytest.fixture
def short_slices(monkeypatch):
    """Slices of 37 nodes, so that every search stops and resumes thousands of times."""
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 37)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 37)


def _seen(result):
    """Everything a best search reports that the kernel decides."""
    return (
        result.nodes,
        result.nodes_per_depth,
        result.best_score,
        result.best_board.placements() if result.best_board is not None else None,
        result.statistics["boards_by_score"],
        result.statistics["complete_boards"],
        [b.placements() for b in result.boards],
        result.stopped_by,
    )


def _both(puzzle, **options):
    listed = BacktrackSolver(kernel="lists", **options).best(puzzle)
    written = BacktrackSolver(kernel="generated", **options).best(puzzle)
    assert written.statistics["kernel"] == "generated" and "kernel" not in listed.statistics
    return listed, written


CASES = [
    pytest.param(dict(schedule=SCHEDULE, node_limit=60_000), id="schedule"),
    pytest.param(
        dict(schedule=SCHEDULE, endgame=8, save_boards=32, polish=0, node_limit=60_000), id="endgame-saved-boards"
    ),
    pytest.param(
        dict(schedule=SCHEDULE, priority_colours=["auto"], priority_first=True, node_limit=60_000), id="priority-cut"
    ),
    pytest.param(dict(schedule=SCHEDULE, order="spiral-in", priority_colours=["auto"], node_limit=60_000), id="spiral"),
]


@pytest.mark.parametrize("options", CASES)
def test_the_same_search_in_short_slices(short_slices, options):
    """Nodes per depth, best board, boards per score and saved boards are the list kernel's,
    with the search stopped and resumed every 37 nodes."""
    for seed in range(3):
        puzzle = generate(5, 5, 2, 4, seed=seed).puzzle
        listed, written = _both(puzzle, **options)
        assert _seen(written) == _seen(listed)
        assert written.nodes == 60_000 and written.best_score > 0


@pytest.mark.parametrize(
    "priority",
    [
        pytest.param({}, id="plain"),
        pytest.param(
            dict(priority_colours=["auto"], priority_schedule=PRIORITY_RAMP, priority_first=True), id="priority"
        ),
    ],
)
def test_the_kernels_take_turns_between_slices(short_slices, monkeypatch, priority):
    """Each kernel goes on from the state the other left: the generated one stops inside a
    child the list kernel would first have looked into, and the tree stays the same (with
    a priority bound too, whose count the generated kernel stops keeping where it can no
    longer fail and hands back rebuilt)."""
    turn = {"n": 0}
    runs = generated_best.GeneratedBest.runs

    def every_other(self, start_depth):
        turn["n"] += 1
        return turn["n"] % 3 != 0 and runs(self, start_depth)

    monkeypatch.setattr(generated_best.GeneratedBest, "runs", every_other)
    puzzle = generate(5, 5, 2, 4, seed=5).puzzle
    options = dict(schedule=SCHEDULE, endgame=8, save_boards=32, polish=0, node_limit=80_000, **priority)
    listed, written = _both(puzzle, **options)
    assert turn["n"] > 1000 and _seen(written) == _seen(listed)


def test_a_target_a_start_board_and_an_exhausted_search(monkeypatch):
    """Subtrees share the whole puzzle's module and run it from their own depth."""
    puzzle = generate(5, 5, 2, 4, seed=7).puzzle
    listed, written = _both(puzzle, schedule=SCHEDULE, target=puzzle.max_score - 3)
    assert written.stopped_by == "target" and _seen(written) == _seen(listed)
    subtrees, _ = BacktrackSolver(kernel="lists").split(puzzle, 4)
    levels = {BacktrackSolver().level_of(puzzle, start) for start in subtrees[:3]}
    assert len(levels) == 1 and min(levels) > 0
    monkeypatch.setattr(generated, "DEPTHS_PER_FUNCTION", levels.pop())
    before = set(generated._loaded)
    for start in subtrees[:3]:
        below = [
            BacktrackSolver(kernel=kernel, schedule="list:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1").best(puzzle, start=start)
            for kernel in ("lists", "generated")
        ]
        assert below[1].statistics["kernel"] == "generated"
        assert _seen(below[1]) == _seen(below[0]) and below[1].complete == below[0].complete
    assert len(set(generated._loaded) - before) == 1  # one module for every subtree (another schedule)


def test_the_prefix_filter_settles_prefixes_where_a_function_begins(monkeypatch):
    monkeypatch.setattr(generated, "DEPTHS_PER_FUNCTION", 3)
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 40)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 40)
    monkeypatch.setattr(prefix_filter, "MARGIN", 0)
    monkeypatch.setattr(prefix_filter, "MIN_SETTLED", 1)
    puzzle = generate(5, 5, 2, 4, seed=8).puzzle
    listed, written = _both(puzzle, schedule=SCHEDULE, node_limit=40_000)
    assert written.statistics["prefix_filtered_slices"] > 20
    assert _seen(written) == _seen(listed)


def test_cli_search_kernel_generated(capsys, tmp_path):
    """From the command line too (the puzzle and schedule of the first slices test above,
    whose module the session has compiled: the check is the command's, not the compile's)."""
    path = tmp_path / "puzzle.txt"
    path.write_text(format_puzzle(generate(5, 5, 2, 4, seed=0).puzzle, "edgematch"))
    args = ("search", path, "--schedule", SCHEDULE, "--node-limit", "20000", "--json")
    code, text, _ = run_cli(capsys, *args, "--kernel", "generated")
    code_lists, text_lists, _ = run_cli(capsys, *args, "--kernel", "lists")
    assert code == code_lists == 0
    out, out_lists = json.loads(text), json.loads(text_lists)
    assert out["statistics"]["kernel"] == "generated"
    assert (out["nodes"], out["best_score"]) == (out_lists["nodes"], out_lists["best_score"])


def test_auto_runs_the_generated_kernel_once_it_is_compiled(tmp_path, monkeypatch):
    """Best mode's ``auto`` takes the generated kernel only when Numba's cache holds it (no
    compile in the user's search), and the list kernel otherwise."""
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(generated, "_loaded", {})
    puzzle = generate(5, 5, 2, 4, seed=9).puzzle
    options = dict(schedule="list:0,0,0,0,0,0,0,0,0,0,0,0,1", node_limit=5_000)
    assert "kernel" not in BacktrackSolver(**options).best(puzzle).statistics  # nothing compiled yet
    assert BacktrackSolver(kernel="generated", **options).best(puzzle).statistics["kernel"] == "generated"
    monkeypatch.setattr(generated, "_loaded", {})  # a new process: only the disk cache is left
    again = BacktrackSolver(**options).best(puzzle)
    assert again.statistics["kernel"] == "generated" and again.nodes == 5_000
    other = dict(options, schedule="list:0,0,0,0,0,0,0,0,0,0,0,1")
    assert "kernel" not in BacktrackSolver(**other).best(puzzle).statistics


@pytest.mark.parametrize("memory", ["int64", "int32-short-budget"])
def test_the_memory_as_int64_and_a_capped_budget_search_the_same_tree(short_slices, monkeypatch, memory):
    """Codes too wide for int32 keep an int64 ``mem``; an int32 ``mem`` caps each slice's
    budget (here at 11 nodes), and the driver simply runs more slices."""
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 500)
    if memory == "int64":
        monkeypatch.setattr(generated, "INT32_CODE_BITS", 0)
    else:
        monkeypatch.setattr(generated, "MAX_SLICE_NODES_INT32", 11)
    seen = []
    load = generated_best.load
    monkeypatch.setattr(generated_best, "load", lambda *a, **k: seen.append(load(*a, **k)) or seen[-1])
    puzzle = generate(5, 5, 2, 4, seed=2).puzzle
    listed, written = _both(puzzle, schedule=SCHEDULE, save_boards=32, polish=0, node_limit=20_000)
    assert _seen(written) == _seen(listed) and written.nodes == 20_000
    assert seen and all(k.dtype == (np.int64 if memory == "int64" else np.int32) for k in seen)
    calls = written.statistics["kernel_calls"]
    assert calls > 20_000 // 11 if memory != "int64" else calls < 20_000 // 11


def _captured(monkeypatch, puzzle, **options):
    """The generated kernel of a search and the tables of its last slice."""
    seen, tables = [], []
    load = generated_best.load
    monkeypatch.setattr(generated_best, "load", lambda *a, **k: seen.append(load(*a, **k)) or seen[-1])
    search = generated_best.GeneratedBest.search

    def keep_tables(self, cand, starts, *rest):
        tables[:] = [(cand.copy(), starts.copy())]
        return search(self, cand, starts, *rest)

    monkeypatch.setattr(generated_best.GeneratedBest, "search", keep_tables)
    BacktrackSolver(kernel="generated", **options).best(puzzle)
    return seen[0], tables[0]


def test_a_union_list_is_the_exact_fits_then_each_break_phase_checked_in_order(monkeypatch):
    """Every key of every union table lists what the depth's phases would yield, in their
    order, each entry marked with its invalid joins; and depths whose priority bound cuts
    sorted lists keep their phases."""
    puzzle = generate(5, 5, 2, 4, seed=3).puzzle
    ramp = PRIORITY_RAMP + ",6,7,7,8,8"  # a bound that still rises where invalid joins are allowed
    kernel, (cand, starts) = _captured(
        monkeypatch,
        puzzle,
        schedule=SCHEDULE,
        priority_colours=["auto"],
        priority_schedule=ramp,
        priority_first=True,
        node_limit=2_000,
    )
    _, _, _, unions = generated_best._text(kernel.spec)
    source = generated_best._Source(kernel.spec)
    cut = {d for d in source.checks if d >= source.d0 and len(source.usable(d)) > 1}
    assert source.union_of and cut and not (cut & set(source.union_of))
    mem = kernel.mem
    o_cand = int(kernel.offsets[generated_best.O_CAND])
    n_colours = int(kernel.spec["n_colours"])
    cmask = int(kernel.spec["cmask"])
    shift = unions["flag_shift"]
    checked = 0
    for d, t in source.union_of.items():
        phases = source.phases[d]
        S = union_lists.levels(source.union_tables[t])
        sides0 = [tuple(int(x) for x in phases[0, P_KEY + 3 * c : P_KEY + 3 * c + 2]) for c in range(phases[0, P_NKEY])]
        for k in range(n_colours ** len(sides0)):
            colour = {side: (k // n_colours**c) % n_colours for c, side in enumerate(sides0)}
            want = []
            for j in source.usable(d):
                row = phases[j]
                key = int(row[P_BASE]) + sum(
                    colour[(int(row[P_KEY + 3 * c]), int(row[P_KEY + 3 * c + 1]))] * int(row[P_KEY + 3 * c + 2])
                    for c in range(row[P_NKEY])
                )
                for p in cand[starts[key] : starts[key + 1]]:
                    sides = [row[P_CHK + 4 * c : P_CHK + 4 * c + 4] for c in range(row[P_NCHK])]
                    if all(
                        ((int(p) >> int(mine)) & cmask == colour[(int(sq), int(theirs))]) == (equal == 1)
                        for sq, theirs, mine, equal in sides
                    ):
                        want.append((int(p), int(row[P_ERR])))
            at = source.union_at[t] + S * k
            got = [(int(e) & ((1 << shift) - 1), int(e) >> shift) for e in mem[o_cand + mem[at] : o_cand + mem[at + S]]]
            assert got == want
            ends = [int(mem[at + level]) - int(mem[at]) for level in range(S + 1)]
            assert ends == [sum(1 for _, err in want if err < level) for level in range(S + 1)]
            checked += len(want)
    assert checked > 1000


def test_tables_handed_back_again_are_not_copied_again(short_slices, monkeypatch):
    """While the settled prefix stays, the prefix filter hands back the same arrays and the
    generated kernel searches the copy it made of them the slice before; the tree stays the
    list kernel's."""
    monkeypatch.setattr(generated, "DEPTHS_PER_FUNCTION", 3)
    monkeypatch.setattr(prefix_filter, "MARGIN", 0)
    monkeypatch.setattr(prefix_filter, "MIN_SETTLED", 1)
    seen = {"again": 0, "fresh": 0}
    search = generated_best.GeneratedBest.search

    def counting(self, cand, starts, *rest):
        again = cand is self.tables_in_mem[0] and starts is self.tables_in_mem[1]
        seen["again" if again else "fresh"] += 1
        return search(self, cand, starts, *rest)

    monkeypatch.setattr(generated_best.GeneratedBest, "search", counting)
    for seed in range(2):
        puzzle = generate(5, 5, 2, 4, seed=seed).puzzle
        options = dict(schedule=SCHEDULE, priority_colours=["auto"], priority_first=True, node_limit=60_000)
        listed, written = _both(puzzle, **options)
        assert _seen(written) == _seen(listed)
    assert seen["again"] > 100 and seen["fresh"] > 100


def test_union_lists_are_counted_once_a_run_not_once_a_slice(short_slices, monkeypatch):
    """The kernel's array is sized once for the run's tables (any filtering of them fits),
    so slices with new tables only write their union lists; the tree stays the list kernel's."""
    monkeypatch.setattr(generated, "DEPTHS_PER_FUNCTION", 3)
    monkeypatch.setattr(prefix_filter, "MARGIN", 0)
    monkeypatch.setattr(prefix_filter, "MIN_SETTLED", 1)
    calls = {"count": 0, "new_tables": 0}
    build, search = union_lists.build, generated_best.GeneratedBest.search

    def noting_build(*args):  # the calls from Python: the kernel's own are compiled in
        calls["count"] += 1
        return build(*args)

    def noting_search(self, cand, starts, *rest):
        calls["new_tables"] += cand is not self.tables_in_mem[0]
        return search(self, cand, starts, *rest)

    monkeypatch.setattr(union_lists, "build", noting_build)
    monkeypatch.setattr(generated_best.GeneratedBest, "search", noting_search)
    puzzle = generate(5, 5, 2, 4, seed=0).puzzle
    options = dict(schedule=SCHEDULE, priority_colours=["auto"], priority_first=True, node_limit=60_000)
    listed, written = _both(puzzle, **options)
    assert _seen(written) == _seen(listed)
    assert calls["new_tables"] > 50
    assert calls["count"] == 1  # one run, one reserve


def test_auto_takes_the_generated_kernel_between_slices_once_compiled(short_slices, monkeypatch):
    """A long ``auto`` search starts a compile beside it and goes on with the list kernel;
    from the first slice after the compile is cached it runs the generated kernel, and the
    tree is the same node for node.  A compile that fails leaves the list kernel to the end."""
    puzzle = generate(5, 5, 2, 4, seed=0).puzzle
    options = dict(schedule=SCHEDULE, node_limit=60_000)
    listed = BacktrackSolver(kernel="lists", **options).best(puzzle)
    BacktrackSolver(kernel="generated", **options).best(puzzle)  # cached for the search below
    monkeypatch.setenv("EDGEMATCH_BACKGROUND_COMPILE", "1")  # the suite turns it off
    monkeypatch.setattr(background_compile, "START_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(background_compile, "WORTH_SECONDS", 0.0)
    real_load = generated_best.load
    monkeypatch.setattr(
        generated_best, "load", lambda spec, only_compiled=False: None if only_compiled else real_load(spec)
    )

    class Compile:  # cached at its 300th look
        looks = 0
        failed = False

        def ready(self):
            Compile.looks += 1
            return not self.failed and Compile.looks > 300

    job = Compile()
    monkeypatch.setattr(generated_best, "background_compile", lambda spec: job)
    calls = {"generated": 0}
    search = generated_best.GeneratedBest.search

    def counted(self, *args):
        calls["generated"] += 1
        return search(self, *args)

    monkeypatch.setattr(generated_best.GeneratedBest, "search", counted)
    auto = BacktrackSolver(**options).best(puzzle)
    assert auto.statistics["kernel"] == "generated" and "generated_kernel_from_seconds" in auto.statistics
    assert Compile.looks == 301 and 0 < calls["generated"] <= auto.statistics["kernel_calls"] - 300
    assert _seen(auto) == _seen(listed)
    job.failed = True
    Compile.looks = 0
    failed = BacktrackSolver(**options).best(puzzle)
    assert "kernel" not in failed.statistics and Compile.looks == 1 and _seen(failed) == _seen(listed)


def test_a_compile_in_another_process_fills_the_cache_for_the_search(tmp_path, monkeypatch):
    """The background compile is Numba's own, for the very call the search makes: the search
    then loads it from the cache and compiles nothing.  One compile per module: a live
    process's lock makes a second search wait for it; a dead one's is taken over."""
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(generated, "_loaded", {})
    monkeypatch.setattr(background_compile, "_started", {})
    monkeypatch.setattr(background_compile, "POLL_SECONDS", 0.0)
    specs = []
    real_load = generated_best.load
    monkeypatch.setattr(
        generated_best, "load", lambda spec, only_compiled=False: specs.append(spec) or real_load(spec, only_compiled)
    )
    puzzle = generate(5, 5, 2, 4, seed=11).puzzle
    options = dict(schedule="list:0,0,0,0,0,0,0,0,0,0,0,0,0,0,1", node_limit=5_000)
    assert "kernel" not in BacktrackSolver(**options).best(puzzle).statistics  # too short to compile
    job = generated_best.background_compile(specs[0])
    assert job is not None and job.process is not None and job.lock.read_text() == str(job.process.pid)
    assert generated_best.background_compile(specs[0]) is job
    waiting = background_compile.BackgroundCompile(job.text, job.prefix, "int32")
    assert waiting.process is None and not waiting.ready() and not waiting.failed
    deadline = time.monotonic() + 900
    while not job.ready() and not job.failed and time.monotonic() < deadline:
        time.sleep(0.2)
    # cached: the compile reaped and its lock freed even when the cache is seen before it exits
    assert job.ready() and job.process.poll() is not None and not job.lock.exists() and waiting.ready()
    again = BacktrackSolver(**options).best(puzzle)
    assert again.statistics["kernel"] == "generated" and again.nodes == 5_000
    stats = next(iter(generated._loaded.values())).chain.stats
    assert sum(stats.cache_hits.values()) == 1 and sum(stats.cache_misses.values()) == 0
    cached = background_compile.BackgroundCompile(job.text, job.prefix, "int32")
    assert cached.process is None and cached.ready()  # compiled already: no compile started
    # a lock left by a compile that died is taken over, and closing stops the compile (the
    # cache emptied first, as before any compile)
    monkeypatch.setattr(generated, "_loaded", {})
    for code in tmp_path.rglob(f"{generated.module_name(job.text, job.prefix)}.*.nb[ic]"):
        code.unlink()
    job.lock.write_text("999999999")
    taken = background_compile.BackgroundCompile(job.text, job.prefix, "int32")
    assert taken.process is not None and taken.lock.read_text() == str(taken.process.pid)
    taken.close()
    assert taken.process.poll() is not None and not taken.lock.exists()


def test_a_search_compiles_in_the_background_only_when_it_runs_long(monkeypatch):
    monkeypatch.setenv("EDGEMATCH_BACKGROUND_COMPILE", "1")
    worth = background_compile.worth_starting
    assert not worth(5.0, None, 10**6, None)  # not running long enough yet
    assert worth(20.0, None, 10**9, None)  # no limit
    assert worth(20.0, 3600.0, 10**9, None) and not worth(20.0, 300.0, 10**9, None)
    # a node limit: the seconds left at the rate so far (5e7 a second: 1e11 nodes take 2,000 s)
    assert worth(20.0, None, 10**9, 10**11) and not worth(20.0, None, 10**9, 2 * 10**10)
    monkeypatch.setenv("EDGEMATCH_BACKGROUND_COMPILE", "0")  # the user's switch
    assert not worth(20.0, None, 10**9, None)


def test_the_kernel_switch_starts_once_takes_once_and_gives_up_on_a_short_search(monkeypatch):
    """The one rule both engines follow between slices: nothing before 10 s; then either a
    compile (or, where the module is compiled, the kernel at once), or, in a search too
    short for it, the list kernel to the end; a failed compile also keeps the list kernel."""
    monkeypatch.setenv("EDGEMATCH_BACKGROUND_COMPILE", "1")

    class Driver:
        def __init__(self, elapsed, time_limit):
            self.seconds, self.nodes_done = elapsed, 10**9
            self.limits = engine_base.Limits(time=time_limit)

        def elapsed(self):
            return self.seconds

    class Job:
        def __init__(self, looks_to_ready, failed=False):
            self.looks, self.looks_to_ready, self.failed = 0, looks_to_ready, failed

        def ready(self):
            self.looks += 1
            return not self.failed and self.looks >= self.looks_to_ready

    def switch_for(driver, job):
        calls = {"start": 0, "take": 0}

        def start():
            calls["start"] += 1
            return job

        def take():
            calls["take"] += 1

        statistics: dict = {}
        return background_compile.KernelSwitch(driver, start, take, statistics), calls, statistics

    driver = Driver(5.0, None)
    job = Job(looks_to_ready=3)
    switch, calls, statistics = switch_for(driver, job)
    switch.poll()
    assert switch.waiting and calls == {"start": 0, "take": 0}  # 5 s: too early to tell
    driver.seconds = 20.0
    for _ in range(5):
        switch.poll()
    assert not switch.waiting and calls == {"start": 1, "take": 1} and job.looks == 3
    assert statistics == {"generated_kernel_from_seconds": 20.0}

    switch, calls, statistics = switch_for(Driver(20.0, None), Job(1))  # compiled already: ready at once
    switch.poll()
    assert not switch.waiting and calls == {"start": 1, "take": 1}

    switch, calls, statistics = switch_for(Driver(20.0, 300.0), Job(1))  # 280 s left: no compile
    switch.poll()
    switch.poll()
    assert not switch.waiting and calls == {"start": 0, "take": 0} and statistics == {}

    failing = Job(1, failed=True)
    switch, calls, statistics = switch_for(Driver(20.0, None), failing)
    for _ in range(3):
        switch.poll()
    assert not switch.waiting and calls == {"start": 1, "take": 0} and failing.looks == 1
