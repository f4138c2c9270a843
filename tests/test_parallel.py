"""Searches split over workers (edgematch.parallel): exact totals, k, best scores, the run
store and resuming, on local processes and threads.

Totals are checked against the serial engine: solutions, nodes and nodes per depth,
on many random puzzles, with tasks cut again and again (a node budget per task forces
the cuts that a time budget makes in long runs).
"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from edgematch.engines import make_solver
from edgematch.engines.base import Limits, StopFlag, StopReason
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.loading import load
from edgematch.parallel import Job, LocalBackend, parallel_search, resume_search
from edgematch.parallel.coordinator import records, search_began
from edgematch.parallel.splitting import BudgetPolicy
from edgematch.runs import RunStore
from support.cli import run_cli


def assert_same_totals(serial, parallel, nodes: bool = True):
    assert parallel.complete and serial.complete
    assert parallel.solutions == serial.solutions
    if nodes:
        assert parallel.nodes == serial.nodes
        width = max(len(serial.nodes_per_depth), len(parallel.nodes_per_depth))
        pad = lambda npd: list(npd) + [0] * (width - len(npd))  # noqa: E731
        assert pad(parallel.nodes_per_depth) == pad(serial.nodes_per_depth)


ENGINES = [
    ("backtrack", {}, True),
    ("backtrack", {"order": "spiral-in", "kernel": "lists"}, True),
    ("colorpair", {"backjumping": False}, True),
    ("colorpair", {}, False),  # backjumping may jump over a cut: solutions add up, nodes may not
    ("macro", {}, True),
]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("name,options,nodes", ENGINES)
def test_parallel_totals_equal_serial_on_random_puzzles(seed, name, options, nodes):
    sizes = [(4, 4), (6, 4), (4, 6), (6, 4)] if name == "macro" else [(4, 4), (5, 4), (5, 5), (6, 4)]
    width, height = sizes[seed % 4]
    puzzle = generate(width, height, 2, 5 + seed % 3, seed=seed).puzzle
    engine = make_solver(name, **options)
    serial = engine.count(puzzle)
    kind = "threads" if seed % 4 == 3 else "processes"
    budget = [max(300, serial.nodes // 40), None][seed % 2]  # about 40 cuts, or time budgets
    parallel = parallel_search("count", engine, puzzle, jobs=2, kind=kind, task_nodes=budget)
    assert_same_totals(serial, parallel, nodes)
    stats = parallel.statistics["parallel"]
    assert stats["subtrees_done"] == stats["subtrees_total"]


def test_cuts_planned_for_more_workers_than_run_are_finer_and_exact():
    """plan_workers: a run on two workers cut as for 64 (to replay onto a cluster)."""
    puzzle = generate(5, 5, 2, 6, seed=3).puzzle
    engine = make_solver("backtrack")
    serial = engine.count(puzzle)
    plain = parallel_search("count", engine, puzzle, jobs=2)
    planned = parallel_search("count", engine, puzzle, jobs=2, plan_workers=64)
    assert_same_totals(serial, planned)
    assert planned.statistics["parallel"]["workers"] == 2
    assert planned.statistics["parallel"]["subtrees_total"] > plain.statistics["parallel"]["subtrees_total"]


def test_symmetry_runs_each_variant_and_divides_the_same():
    puzzle = generate(5, 5, 2, 4, seed=11).puzzle
    engine = make_solver("backtrack", symmetry=True)
    assert_same_totals(engine.count(puzzle), parallel_search("count", engine, puzzle, jobs=2, task_nodes=1000))


def test_owen_6x6_in_parallel_is_exact():
    puzzle = load("owen1-6x6")
    result = parallel_search("count", make_solver("backtrack"), puzzle, jobs=2)
    assert result.complete
    assert result.solutions == 260
    assert result.nodes == 69_284_103  # the serial count (benchmarks/results/backtrack_speed.md)
    assert sum(result.nodes_per_depth) == result.nodes
    per_worker = result.statistics["parallel"]["per_worker"]
    assert len(per_worker) == 2 and all(w["tasks"] > 0 for w in per_worker.values())


def test_a_start_board_is_split_below_itself():
    puzzle = generate(5, 5, 2, 4, seed=4).puzzle
    engine = make_solver("backtrack")
    subtrees, _ = engine.split(puzzle, 3)
    start = max(subtrees, key=lambda s: engine.count(puzzle, start=s).nodes)
    serial = engine.count(puzzle, start=start)
    budget = max(300, serial.nodes // 30)
    assert_same_totals(serial, parallel_search("count", engine, puzzle, start=start, jobs=2, task_nodes=budget))


def test_solve_stops_all_workers_at_k_and_its_boards_are_solutions():
    puzzle = load("owen1-6x6")
    found = []
    result = parallel_search("solve", make_solver("backtrack"), puzzle, k=5, jobs=2, callback=found.append)
    assert len(result.boards) == 5 and len(found) == 5
    assert result.stopped_by == StopReason.SOLUTIONS
    keys = {tuple(b.tiles) + tuple(b.rotations) for b in result.boards}
    assert len(keys) == 5
    for board in result.boards:
        assert board.verify().valid and board.is_complete


def test_solve_all_finds_the_same_solutions_as_serial():
    puzzle = generate(5, 5, 2, 5, seed=2).puzzle
    engine = make_solver("colorpair")
    serial = engine.solve(puzzle, k=None)
    parallel = parallel_search("solve", engine, puzzle, jobs=2, task_nodes=max(300, serial.nodes // 30))
    assert parallel.complete and parallel.solution_set() == serial.solution_set()


def test_best_score_search_shares_its_best_and_returns_a_verified_board():
    puzzle = load("owen1-6x6")
    engine = make_solver("backtrack", schedule="breaks:20,30,36", seed=1)
    result = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(time=2))
    assert result.best_board is not None
    assert result.best_board.score() == result.best_score
    assert result.best_score == puzzle.max_score or result.stopped_by in (StopReason.TIME, StopReason.TARGET)
    # when the run first reached each depth and score: the workers' times on the run's clock
    for name, last in (("deepest_at", result.deepest), ("best_score_at", result.best_score)):
        reached = {int(v): t for v, t in result.statistics[name].items()}
        assert max(reached) == last and 0 <= min(reached.values())
        values = sorted(reached)
        assert [reached[v] for v in values] == sorted(reached.values())


def test_a_runs_records_are_the_values_that_were_new_highs_when_reached():
    # worker A reached 10 at 1 s and 12 at 3 s, worker B 11 at 2 s and 12 at 2.5 s, 9 at 4 s
    times = {10: 1.0, 11: 2.0, 12: 2.5, 9: 4.0}
    assert records(times) == {"10": 1.0, "11": 2.0, "12": 2.5}
    assert records({}) == {}


def test_a_tasks_first_reached_times_count_from_its_search_not_its_set_up():
    # the outcome came back at 100 s on the run's clock; the task took 7 s, its search 5 s of
    # them (2 s loading its kernel first): its search began at 95 s
    assert search_began(100.0, {"seconds": 7.0, "search_seconds": 5.0}) == 95.0
    assert search_began(100.0, {"seconds": 7.0}) == 93.0  # an outcome that does not say


def test_a_stop_flag_ends_every_worker_and_keeps_the_counts_so_far():
    puzzle = load("owen1-9x4")
    stop = StopFlag()
    seen = []

    def progress(stats):
        seen.append(stats)
        if stats["nodes"] > 0:
            stop.set()

    result = parallel_search(
        "count", make_solver("backtrack"), puzzle, jobs=2, stop=stop, progress=progress, progress_interval=0.0
    )
    assert not result.complete and result.stopped_by == StopReason.INTERRUPTED
    assert 0 < result.nodes < 429_862_166
    assert {"subtrees_done", "subtrees_total", "eta_seconds", "nodes_per_second"} <= set(seen[-1])


def test_node_and_time_limits_of_the_whole_run():
    puzzle = load("owen1-9x4")
    result = parallel_search("count", make_solver("backtrack"), puzzle, jobs=2, limits=Limits(nodes=10_000_000))
    assert not result.complete and result.stopped_by == StopReason.NODES
    assert 10_000_000 <= result.nodes <= 11_000_000  # the tasks in flight share what is left
    result = parallel_search("count", make_solver("backtrack"), puzzle, jobs=2, limits=Limits(time=0.5))
    assert not result.complete and result.stopped_by == StopReason.TIME


def test_a_best_score_search_keeps_to_the_node_limit():
    """Search tasks are not cut: each still stops at its share of the run's nodes."""
    result = parallel_search("search", make_solver("backtrack"), load("owen1-8x8"), jobs=2, limits=Limits(nodes=50_000))
    assert result.stopped_by == StopReason.NODES and 50_000 <= result.nodes <= 80_000
    assert result.best_board is not None and result.best_board.score() == result.best_score


def test_cli_solve_and_search_resume(capsys, tmp_path):
    db = tmp_path / "runs.sqlite"
    code, out, _ = run_cli(
        capsys, "solve", "owen1-5x5", "--all", "--jobs", "2", "--db", db, "--node-limit", "20000", "--json", "--quiet"
    )
    first = json.loads(out)
    assert code == 0 and not first["complete"] and first["solutions"] < 16
    code, out, _ = run_cli(capsys, "solve", "--resume", "1", "--db", db, "--jobs", "2", "--json", "--quiet")
    done = json.loads(out)
    assert code == 0 and done["complete"] and done["solutions"] == 16 and done["nodes"] == 113211
    code, out, _ = run_cli(
        capsys, "search", "owen1-8x8", "--jobs", "2", "--db", db, "--node-limit", "30000", "--json", "--quiet"
    )
    first = json.loads(out)
    assert code == 0 and first["stopped_by"] == "nodes"
    code, out, err = run_cli(
        capsys, "search", "--resume", "2", "--db", db, "--jobs", "2", "--node-limit", "60000", "--json", "--quiet"
    )
    again = json.loads(out)
    assert code == 0 and again["stopped_by"] == "nodes" and again["nodes"] > first["nodes"]
    assert again["best_score"] >= first["best_score"]


def test_an_engine_that_cannot_split_is_refused():
    with pytest.raises(InputError, match="cannot split"):
        parallel_search("count", make_solver("cpsat"), load("owen1-4x4"), jobs=2)


def test_stored_run_resumes_without_counting_a_subtree_twice(tmp_path):
    puzzle = generate(5, 5, 2, 4, seed=6).puzzle
    engine = make_solver("backtrack")
    serial = engine.count(puzzle)
    budget = max(300, serial.nodes // 40)
    stop = StopFlag()
    done = []

    def progress(stats):
        done.append(stats["subtrees_done"])
        if stats["subtrees_done"] >= 3:
            stop.set()

    with RunStore(tmp_path / "runs.sqlite") as store:
        first = parallel_search(
            "count",
            engine,
            puzzle,
            jobs=2,
            store=store,
            stop=stop,
            progress=progress,
            progress_interval=0.0,
            task_nodes=budget,
        )
        run_id = first.statistics["run_id"]
        assert not first.complete
        job, resumed = resume_search(run_id, store, jobs=2, task_nodes=budget)
        assert job.mode == "count"
        assert_same_totals(serial, resumed)
        again = resume_search(run_id, store, jobs=1)[1]  # a finished run resumes to the same total
        assert_same_totals(serial, again)
        assert store.run(run_id).status == "finished"
    rows = sqlite3.connect(tmp_path / "runs.sqlite").execute(
        "SELECT status, COUNT(*) FROM subtrees WHERE run_id=? GROUP BY status", (run_id,)
    )
    counts = dict(rows.fetchall())
    assert "pending" not in counts and counts["done"] > 0 and counts["split"] >= 1


def test_resume_refuses_a_run_of_another_kind(tmp_path):
    with RunStore(tmp_path / "r.sqlite") as store:
        result = parallel_search("count", make_solver("backtrack"), load("owen1-4x4"), jobs=1, store=store)
        with pytest.raises(InputError, match="count run"):
            resume_search(result.statistics["run_id"], store, mode="solve")


def test_job_and_engine_params_round_trip():
    engine = make_solver("colorpair", heuristic="min-offer", shaving=2, backjumping=False)
    job = Job.of("count", engine, load("owen1-4x4"))
    rebuilt = make_solver(job.solver, **json.loads(json.dumps(job.params)))
    assert rebuilt.params() == engine.params()


def test_budget_policy_shrinks_towards_the_end():
    policy = BudgetPolicy(workers=4, min_seconds=1, max_seconds=300, first_seconds=10)
    assert policy.seconds(1000) == 10  # nothing measured yet
    policy.record(estimate=10, seconds=20)  # 2 s per unit of estimate
    assert policy.seconds(10_000) == 300
    assert policy.seconds(40) == 10  # half of the 20 s each of 4 workers has left
    assert policy.seconds(1) == 1


def test_budget_policy_doubles_the_first_budget_until_something_is_measured():
    policy = BudgetPolicy(workers=2, max_seconds=35, first_seconds=10)
    policy.cut_unmeasured()
    assert policy.seconds(1000) == 20
    policy.cut_unmeasured()
    assert policy.seconds(1000) == 35  # never past max_seconds
    policy.record(estimate=10, seconds=1)
    policy.cut_unmeasured()  # measured: the budget follows the work left, not the cuts
    assert policy.seconds(40) == 1


def test_threads_and_processes_backends_report_their_kind():
    backend = LocalBackend(2, "threads")
    try:
        assert backend.workers == 2 and "threads" in backend.name
    finally:
        backend.close()
    with pytest.raises(InputError):
        LocalBackend(2, "fibres")


# ---------------------------------------------------------------------- the command line
def test_cli_count_jobs_records_and_lists_the_run(capsys, tmp_path):
    db = tmp_path / "runs.sqlite"
    code, out, _ = run_cli(capsys, "count", "owen1-6x6", "--jobs", "2", "--db", db, "--json", "--quiet")
    assert code == 0
    data = json.loads(out)
    assert data["solutions"] == 260 and data["nodes"] == 69_284_103 and data["complete"]
    assert data["statistics"]["parallel"]["workers"] == 2
    assert data["statistics"]["subtrees"] and "per_worker" in data["statistics"]["parallel"]
    code, out, _ = run_cli(capsys, "runs", "--db", db)
    assert code == 0 and "count" in out and "260 solutions" in out
    code, out, _ = run_cli(capsys, "runs", "--db", db, "--json")
    row = json.loads(out)["runs"][0]
    assert row["method"] == "count" and row["subtrees_done"] == row["subtrees_total"] > 0


def test_cli_solve_and_search_with_jobs(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "solve", "owen1-6x6", "-k", "3", "--jobs", "2", "--no-record", "--json", "--quiet")
    assert code == 0 and len(json.loads(out)["boards"]) == 3
    code, out, _ = run_cli(
        capsys,
        "search",
        "owen1-6x6",
        "--schedule",
        "breaks:20,30,36",
        "--jobs",
        "2",
        "--time-limit",
        "1",
        "--db",
        tmp_path / "s.sqlite",
        "--json",
        "--quiet",
    )
    assert code == 0 and json.loads(out)["best_score"] > 0


def test_cli_default_jobs_is_every_core_unless_the_variable_says(monkeypatch):
    from edgematch.cli.parallel import jobs_wanted
    from edgematch.parallel import default_jobs

    class Args:
        jobs = None

    monkeypatch.delenv("EDGEMATCH_JOBS", raising=False)
    assert jobs_wanted(Args()) == default_jobs() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("EDGEMATCH_JOBS", "3")
    assert jobs_wanted(Args()) == 3
    monkeypatch.setenv("EDGEMATCH_JOBS", "many")
    with pytest.raises(InputError):
        jobs_wanted(Args())


@pytest.mark.parametrize(
    "argv,message",
    [
        (["count", "--resume", "1", "owen1-4x4"], "leave the puzzle out"),
        (["count"], "give a puzzle"),
        (["count", "owen1-4x4", "--solver", "cpsat", "--jobs", "2"], "cannot split"),
        (["count", "owen1-4x4", "--jobs", "2", "--db", "x.sqlite", "--no-record"], "contradict"),
        (["count", "--resume", "1", "--db", "no/such.sqlite"], "no such run database"),
        # a resumed run searches with its stored options: one given again is refused, not ignored
        (["search", "--resume", "1", "--seed", "5", "--keep-boards", "10"], "leave out --seed, --keep-boards"),
        (["count", "--resume", "1", "--order", "spiral-in"], "leave out --order"),
        (["solve", "--resume", "1", "-k", "3"], "leave out -k"),
        (["search", "--resume", "1", "--kernel", "generated", "--jobs", "2"], "leave out --kernel"),
    ],
)
def test_cli_parallel_input_errors(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_cli_resume_of_an_unknown_run(capsys, tmp_path):
    db = tmp_path / "runs.sqlite"
    run_cli(capsys, "count", "owen1-4x4", "--jobs", "1", "--db", db, "--quiet")
    code, _, err = run_cli(capsys, "count", "--resume", "99", "--db", db)
    assert code == 2 and "no run 99" in err


# ---------------------------------------------------------------------- the Python front door
def test_front_door_jobs_db_and_resume(tmp_path):
    import edgematch

    result = edgematch.count("owen1-5x5", jobs=2)
    assert result.solutions == 16 and result.statistics["parallel"]["workers"] == 2
    assert "parallel" not in edgematch.count("owen1-5x5", jobs=1).statistics
    db = tmp_path / "runs.sqlite"
    recorded = edgematch.count("owen1-5x5", jobs=2, db=db)
    again = edgematch.resume(recorded.statistics["run_id"], db)
    assert again.complete and (again.solutions, again.nodes) == (16, recorded.nodes)
    solved = edgematch.solve("owen1-5x5", k=2, jobs=2)
    assert len(solved.boards) == 2 and all(b.verify().valid for b in solved.boards)
    with pytest.raises(InputError, match="jobs"):
        edgematch.count("owen1-5x5", jobs=0)
    # an engine that cannot split runs serially unless workers were asked for
    assert edgematch.count("owen1-4x4", solver="cpsat").solutions == edgematch.count("owen1-4x4").solutions
    with pytest.raises(InputError, match="cannot split"):
        edgematch.count("owen1-4x4", solver="cpsat", jobs=2)
