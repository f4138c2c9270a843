"""The benchmark script's bookkeeping: which earlier run answers a request, which runs are
worth starting, that the report is written from records alone (no engine is run), and
that a run cut short by Ctrl-C or SIGTERM is never recorded (the scripts exit 130 / 143)."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from benchmarks import backtrack_speed, benoist2008, benoist2008_tree_checks
from benchmarks import benoist2008_runner as runner
from benchmarks.benoist2008_report import (
    ablation_text,
    left_out_text,
    longer_limits_text,
    report,
    reported_instances,
    timing_noise_text,
)
from benchmarks.benoist2008_runner import colorpair_limit, worth_running
from benchmarks.benoist2008_store import Store, latest
from benchmarks.interrupts import Interrupted, interrupting_signals, was_interrupted

from edgematch.engines.result import SearchResult


def record(label="colorpair", limit=60.0, complete=True, cpu=10.0, stopped_by=None, instance="E_7_1",
           variant="four_corners", solutions=1, nodes=1000, **stats):
    engine = "cpsat" if label == "cpsat" else ("backtrack" if label == "backtrack" else "colorpair")
    return dict(kind="run", instance=instance, variant=variant, label=label, engine=engine, options={},
                time_limit=limit, solutions=solutions, nodes=nodes, complete=complete,
                stopped_by=None if complete else (stopped_by or "time"), cpu_seconds=cpu, wall_seconds=cpu,
                statistics=stats)


def key(limit, label="colorpair"):
    engine = "colorpair"
    return dict(kind="run", instance="E_7_1", variant="four_corners", label=label, engine=engine, options={},
                time_limit=limit)


def store_with(tmp_path, records):
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return Store(path)


def test_a_finished_run_answers_any_limit_it_fits_in(tmp_path):
    store = store_with(tmp_path, [record(limit=200.0, cpu=50.0)])
    assert store.answer(key(60.0)) is not None  # finished in 50 s: a 60 s run would too
    assert store.answer(key(40.0)) is None  # would have been stopped: must be run
    assert store.answer(key(200.0)) is not None


def test_a_stopped_run_answers_only_shorter_limits(tmp_path):
    store = store_with(tmp_path, [record(limit=60.0, complete=False, cpu=60.0)])
    assert store.answer(key(30.0)) is not None
    assert store.answer(key(60.0)) is not None
    assert store.answer(key(100.0)) is None  # a longer limit may finish


def test_runs_need_their_baseline_to_have_finished(tmp_path):
    store = store_with(tmp_path, [record(cpu=30.0), record(label="heuristic:min-offer", complete=False,
                                                                  cpu=60.0)])
    assert worth_running(store, "E_7_1", "four_corners", None, 60.0)
    assert worth_running(store, "E_7_1", "four_corners", "colorpair", 60.0)
    assert not worth_running(store, "E_7_1", "four_corners", "colorpair", 20.0)
    assert not worth_running(store, "E_7_1", "four_corners", "heuristic:min-offer", 60.0)
    assert not worth_running(store, "E_7_2", "four_corners", "colorpair", 60.0)  # no record at all


def test_only_the_main_colorpairs_run_gets_the_share_of_the_paper_time():
    # E_9_9: the paper's ColorPairs time is 1565 s
    assert colorpair_limit("E_9_9", "four_corners", 60.0, 0.3) == 470.0
    assert colorpair_limit("E_9_9", "distributed", 60.0, 0.3) == 60.0
    assert colorpair_limit("E_7_1", "four_corners", 60.0, 0.3) == 60.0  # 0.3 * 7 s < 60 s
    assert colorpair_limit("E_10_24", "four_corners", 60.0, 0.3) == 60.0  # not in Table 1


def test_report_states_targets_and_misses_from_the_records(tmp_path):
    # E_7_1 in the paper: ColorPairs 7 s, 1.73M nodes; backtracker (doc_smith) 34 s
    records = [
        record("colorpair", cpu=2.0, nodes=2_900_000, decisions=1_000_000, probes=700_000),
        record("backtrack", cpu=12.0, nodes=20_000_000),
        record("cpsat", complete=False, cpu=60.0, solutions=0, nodes=5000),
        record("colorpair_no_backjumping", cpu=2.1, nodes=2_950_000, decisions=1_010_000, probes=700_000),
        record("colorpair_no_preemption", cpu=2.2, nodes=3_000_000, decisions=1_050_000, probes=700_000),
    ]
    store = store_with(tmp_path, records)
    text = report(store, tmp_path / "r.md")
    assert "Identical counts from every engine that finished: yes (1 instances)" in text
    assert "ColorPairs time at least 10 times below the paper's: 0 of 1; short: E_7_1 (3.5x)" in text
    assert "beats the backtracker wherever it needs more than 10 s: 1 of 1" in text
    assert "| E_7_1 | 3.5 |" in text  # the miss, with its per-node speed and tree ratios
    assert (tmp_path / "r.md").read_text() == text


def test_report_flags_different_counts(tmp_path):
    records = [record("colorpair", cpu=2.0, solutions=2, decisions=10, probes=5),
               record("backtrack", cpu=1.0, solutions=3)]
    text = report(store_with(tmp_path, records), tmp_path / "r.md")
    assert "Identical counts from every engine that finished: NO on E_7_1" in text


def test_timing_noise_compares_only_runs_that_grew_the_same_tree(tmp_path):
    same = dict(decisions=100, probes=50)
    records = [record(label="shaving:8", cpu=10.0, **same), record(label="shaving:12", cpu=12.0, **same),
               record(cpu=11.0, **same),  # shaving `all`: the same tree, 10-12 s
               record(label="shaving:-", cpu=30.0, nodes=5000, decisions=900, probes=0),  # another tree
               record(label="shaving:16", cpu=0.5, instance="E_7_2", **same),  # under 1 s: left out
               record(label="shaving:8", cpu=0.4, instance="E_7_2", **same)]
    text = timing_noise_text(store_with(tmp_path, records), ["E_7_1", "E_7_2"])
    assert "On 1 group of runs" in text
    assert "20 % longer than the fastest at the median" in text
    assert "E_7_1: 10.00 s to 12.00 s over 3 runs" in text
    assert timing_noise_text(store_with(tmp_path, records[3:]), ["E_7_1", "E_7_2"]) == ""


def test_sums_name_the_instances_they_leave_out_and_the_run_that_kept_each_out(tmp_path):
    labels = {"min-offer": "heuristic:min-offer", "min-expected-gap": "colorpair"}
    records = [record(label="heuristic:min-offer"), record(),  # E_7_1: both finished, kept
               record(label="heuristic:min-offer", instance="E_7_2", complete=False, cpu=60.0),
               record(label="heuristic:min-offer", instance="E_7_3")]  # E_7_3: the main run missing
    text = left_out_text(store_with(tmp_path, records), ["E_7_1", "E_7_2", "E_7_3"], labels)
    assert "E_7_1" not in text
    assert "E_7_2 (min-offer > 60 s)" in text
    assert "E_7_3 (min-expected-gap not run)" in text
    assert left_out_text(store_with(tmp_path, records[:2]), ["E_7_1"], labels) == ""


def test_ablation_text_says_how_often_backjumping_jumped_with_and_without_shaving(tmp_path):
    records = [record(cpu=10.0, decisions=1000, probes=0, backjumps=5, levels_skipped=7),
               record(label="colorpair_no_backjumping", cpu=8.0, decisions=1100, probes=0),
               record(label="colorpair_no_preemption", cpu=11.0, decisions=1000, probes=0),
               record(label="shaving:-", cpu=20.0, decisions=4000, probes=0, backjumps=80)]
    text = ablation_text(store_with(tmp_path, records), ["E_7_1"])
    assert "5 backjumps skipped 7 levels in 1,000 decisions: 0.5 backjumps per 100 decisions" in text
    assert "against 2 without shaving" in text
    assert "| colorpair_no_backjumping | +10 % | -20 % |" in text


def test_runs_given_a_longer_limit_are_named_with_it(tmp_path):
    records = [record(limit=400.0, cpu=90.0),  # the main run may have a longer limit: not listed
               record(label="colorpair_no_backjumping", limit=400.0, cpu=80.0),
               record(label="cpsat", complete=False, cpu=60.0)]
    text = longer_limits_text(store_with(tmp_path, records), ["E_7_1"], "four_corners")
    assert text == " (60 s; longer for colorpair_no_backjumping of E_7_1: 400 s)"
    assert longer_limits_text(store_with(tmp_path, records[2:]), ["E_7_1"], "four_corners") == " (60 s)"


def test_timing_noise_never_compares_two_code_versions(tmp_path):
    same = dict(decisions=100, probes=50)
    records = [dict(record(label="shaving:8", cpu=10.0, **same), code="aaa"),
               dict(record(label="shaving:12", cpu=15.0, **same), code="bbb")]  # faster code, not noise
    assert timing_noise_text(store_with(tmp_path, records), ["E_7_1"]) == ""


def test_timing_noise_compares_the_table1_run_with_later_runs_of_the_same_tree(tmp_path):
    same = dict(decisions=100, probes=50)
    records = [record(cpu=10.0, **same),  # the Table 1 run, older code (no version field)
               dict(record(label="shaving:8", cpu=13.0, **same), code="bbb"),
               dict(record(label="shaving:12", cpu=12.0, **same), code="bbb")]
    text = timing_noise_text(store_with(tmp_path, records), ["E_7_1"])
    assert "on 1 instance the fastest later run of the same tree, with later code, took 1.20 to 1.20 times" in text


# ---------------------------------------------------------------------------- interruptions
class FakeSolver:
    """Stands for an engine: ``count`` returns the results given, one per call, after
    ``seconds`` (a callable result is called: it may raise or send a signal)."""

    def __init__(self, results, seconds=0.0):
        self.results = list(results)
        self.seconds = seconds

    def count(self, puzzle):
        time.sleep(self.seconds)
        result = self.results.pop(0)
        return result() if callable(result) else result


def finished(solutions=2, nodes=1000):
    return SearchResult(solutions=solutions, nodes=nodes, complete=True, statistics={"decisions": 10, "probes": 5})


def stopped(by, nodes=500):
    return SearchResult(solutions=0, nodes=nodes, complete=False, stopped_by=by,
                        statistics={"decisions": 10, "probes": 5})


@pytest.fixture
def fake_engines(monkeypatch):
    """Runs of the benchmark go to the fake solvers given to ``use`` (no puzzle is loaded,
    no corners are searched for, no warm-up runs)."""
    solvers = []
    monkeypatch.setattr(runner, "variant_puzzle", lambda name, variant, store: f"{name}/{variant}")
    monkeypatch.setattr(runner, "warm_up", lambda engine, options, puzzle: None)
    monkeypatch.setattr(runner, "find_all_corners", lambda store, names, workers: None)
    monkeypatch.setattr(runner, "make", lambda engine, options, limit: solvers.pop(0))
    return solvers.extend


def run_once(store, limit=60.0, label="cpsat"):
    return runner.run(store, "E_7_1", "four_corners", label, "cpsat", {"workers": 1}, limit)


def test_a_run_interrupted_by_ctrl_c_is_not_recorded(tmp_path, fake_engines):
    fake_engines([FakeSolver([stopped("interrupted")])])
    store = Store(tmp_path / "r.jsonl")
    with pytest.raises(Interrupted):
        run_once(store)
    assert store.records == [] and not (tmp_path / "r.jsonl").exists()


def test_a_time_stop_before_the_time_limit_is_an_interruption_not_a_time_out(tmp_path, fake_engines):
    # CP-SAT catches SIGINT itself and reports the run as stopped by time, before its limit
    fake_engines([FakeSolver([stopped("time")]), FakeSolver([stopped("time")], seconds=0.02)])
    store = Store(tmp_path / "r.jsonl")
    with pytest.raises(Interrupted):
        run_once(store, limit=60.0)
    assert store.records == []
    record = run_once(store, limit=0.01)  # ran past its limit: a genuine time-out
    assert (record["complete"], record["stopped_by"]) == (False, "time")
    assert [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()] == [record]


def test_finished_runs_and_runs_stopped_at_their_limit_are_recorded(tmp_path, fake_engines):
    fake_engines([FakeSolver([finished()])])
    store = Store(tmp_path / "r.jsonl")
    record = run_once(store)
    assert (record["complete"], record["stopped_by"], record["solutions"]) == (True, None, 2)
    assert Store(tmp_path / "r.jsonl").records == [record]
    assert run_once(store) == record  # answered by the store: not run again


def test_was_interrupted_judges_results_by_their_stop_and_their_time():
    assert was_interrupted(stopped("interrupted"))
    assert was_interrupted(stopped("time"), time_limit=60.0, wall_seconds=1.0)
    assert not was_interrupted(stopped("time"), time_limit=60.0, wall_seconds=60.1)
    assert not was_interrupted(stopped("nodes"), time_limit=60.0, wall_seconds=1.0)
    assert not was_interrupted(finished(), time_limit=60.0, wall_seconds=1.0)  # exact, whatever came after


def test_the_store_refuses_interrupted_runs_and_reports_ignore_them(tmp_path):
    store = store_with(tmp_path, [])
    with pytest.raises(ValueError):
        store.add(record(complete=False, stopped_by="interrupted"))
    # a file written by hand or by older code: the interrupted run is in no query, no report
    store = store_with(tmp_path, [record(limit=60.0, complete=False, stopped_by="interrupted", cpu=3.0)])
    assert store.answer(key(60.0)) is None and store.answer(key(1.0)) is None
    assert latest(store, "E_7_1", "four_corners", "colorpair") is None
    assert store.find(instance="E_7_1") is None
    assert reported_instances(store) == []
    assert "| E_7_1 |" not in report(store, tmp_path / "r.md")  # no row of it in any table


def table1_args(tmp_path, *engines):
    return ["--instances", "E_7_1", "--parts", "table1", "--engines", ",".join(engines),
            "--results", str(tmp_path / "r.jsonl")]


def test_the_script_keeps_the_runs_finished_before_an_interruption_and_exits_130(tmp_path, fake_engines, capsys):
    fake_engines([FakeSolver([finished()]), FakeSolver([stopped("interrupted")])])
    assert benoist2008.main(table1_args(tmp_path, "backtrack", "cpsat")) == 130
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert [(r["label"], r["complete"]) for r in map(json.loads, lines)] == [("backtrack", True)]
    assert not (tmp_path / "r.md").exists()  # the report is left as it was
    assert "interrupted: not recorded" in capsys.readouterr().err


def sigterm_during_the_search():
    """What an engine does on SIGTERM under the script: the signal interrupts the search
    (a KeyboardInterrupt), which returns what it has as interrupted."""
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)
    except KeyboardInterrupt:
        return stopped("interrupted")
    raise AssertionError("SIGTERM did not interrupt")


def test_sigterm_stops_the_script_like_ctrl_c_and_exits_143(tmp_path, fake_engines):
    before = signal.getsignal(signal.SIGTERM)
    fake_engines([FakeSolver([sigterm_during_the_search])])
    assert benoist2008.main(table1_args(tmp_path, "cpsat")) == 143
    assert not (tmp_path / "r.jsonl").exists()
    assert signal.getsignal(signal.SIGTERM) == before  # the handlers are given back


def test_interrupting_signals_says_which_came():
    with interrupting_signals() as signals, pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(10)
    assert signals.exit_status() == 130


class FakeColorPair:
    """The tree checks' engine: a warm-up, then the results given, one per count."""

    results: list = []

    def __init__(self, **options):
        pass

    def count(self, puzzle):
        return FakeColorPair.results.pop(0)


def test_tree_checks_record_only_the_trials_finished_before_an_interruption(tmp_path, monkeypatch):
    import edgematch

    monkeypatch.setattr(benoist2008_tree_checks, "four_corner_puzzle", lambda name, store: edgematch.load("owen1-4x4"))
    monkeypatch.setattr(benoist2008_tree_checks, "ColorPairSolver", FakeColorPair)
    FakeColorPair.results = [stopped("nodes"), finished(), stopped("time"), stopped("interrupted")]
    out = tmp_path / "checks.jsonl"
    args = ["--instance", "E_7_1", "--no-switches", "--relabellings", "3", "--time-limit", "0", "--results", str(out)]
    assert benoist2008_tree_checks.main(args) == 130
    trials = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(t["what"], t["complete"]) for t in trials] == [("1", True), ("2", False)]  # the third: not recorded


def test_backtrack_speed_writes_nothing_when_a_count_is_interrupted(tmp_path, monkeypatch):
    import edgematch.engines.backtrack as backtrack

    class Fake:
        def __init__(self, node_limit=None, **options):
            self.warm_up = node_limit is not None

        def count(self, puzzle):
            return stopped("nodes") if self.warm_up else stopped("interrupted")

    monkeypatch.setattr(backtrack, "BacktrackSolver", Fake)
    monkeypatch.setattr(backtrack_speed, "RESULTS", tmp_path)
    with pytest.raises(Interrupted):
        backtrack_speed.timed_count("owen1-4x4", 1)
    assert backtrack_speed.main(["--skip-c"]) == 130
    assert list(tmp_path.iterdir()) == []


def test_vlns_scripts_write_nothing_after_an_interruption_and_exit_130(capsys):
    from benchmarks.vlns_common import main_exit, map_runs

    shown = []

    def one_run(task):
        if task == 2:
            raise Interrupted(f"run {task} was interrupted")
        return task * 10

    assert map_runs(one_run, [0, 1], show=lambda task, outcome: shown.append(outcome)) == [0, 10]
    with pytest.raises(Interrupted):
        map_runs(one_run, [0, 1, 2, 3], show=lambda task, outcome: shown.append(outcome))
    assert shown == [0, 10, 0, 10]  # the runs before the interruption, and no further

    def main():
        map_runs(one_run, [1, 2])
        raise AssertionError("results written after an interruption")

    assert main_exit(main) == 130
    assert "run 2 was interrupted: nothing written" in capsys.readouterr().err


# ----------------------------------------------------------------------------- the parallel counts
def test_four_corner_decomposition_adds_up_to_the_one_corner_count():
    """benoist2008_counts confirms a count by its six four-corner puzzles: their sum must be
    the count with one corner fixed, here checked exactly on a small planted puzzle."""
    from benchmarks.benoist2008_counts import corner_puzzles

    from edgematch.engines import make_solver
    from edgematch.generator import generate
    from edgematch.model import Hint

    made = generate(5, 5, 3, 4, seed=2)
    bottom_left = 20
    hint = Hint(bottom_left, int(made.solution.tiles[bottom_left]), int(made.solution.rotations[bottom_left]))
    puzzle = made.puzzle.without_hints().with_hints([hint], name="p")
    parts = corner_puzzles(puzzle)
    assert len(parts) == 6 and len({p.name for p in parts}) == 6
    solver = make_solver("backtrack")
    assert sum(solver.count(p).solutions for p in parts) == solver.count(puzzle).solutions >= 1


def test_parallel_counts_report_marks_agreement_and_unfinished_runs():
    from benchmarks.benoist2008_counts import report_text

    def part(run_id, solutions, complete=True, done=4, puzzle=None):
        return {"run_id": run_id, "puzzle": puzzle or f"benoist/run{run_id}", "complete": complete,
                "solutions": solutions, "nodes": 1_000_000,
                "subtrees_done": done, "subtrees_total": 4, "worker_seconds_total": 3.0,
                "session": {"wall_seconds": 2.0}}

    records = [
        {"kind": "estimate", "instance": "E_9_1", "expected_nodes": 5e9},
        {"kind": "count", "instance": "E_9_1", "step": "colorpair", "method": "colorpair", "jobs": 2,
         "parts": [part(1, 2)]},
        {"kind": "count", "instance": "E_9_1", "step": "confirmation", "method": "backtrack", "jobs": 2,
         "parts": [part(2, 2)]},
        {"kind": "count", "instance": "E_10_1", "step": "colorpair", "method": "colorpair", "jobs": 2,
         "parts": [part(3, 0, complete=False, done=1)]},
    ]
    text = report_text(records)
    assert "| E_9_1 | 2 |" in text and "| yes |" in text and "5,000" in text
    assert "E_10_1 colorpair: 1 of 4 subtrees done" in text and "--only E_10_1" in text


def test_parallel_counts_report_keeps_the_newest_run_of_each_puzzle():
    from benchmarks.benoist2008_counts import _steps

    def part(run_id, puzzle, solutions, complete):
        return {"run_id": run_id, "puzzle": puzzle, "complete": complete, "solutions": solutions,
                "nodes": 10, "subtrees_done": 4 if complete else 1, "subtrees_total": 4,
                "worker_seconds_total": 3.0, "session": {"wall_seconds": 2.0}}

    def record(*parts):
        return {"kind": "count", "instance": "E_9_8", "step": "confirmation", "method": "backtrack",
                "jobs": 2, "parts": list(parts)}

    # run 1 stopped, resumed to the end (its two sessions add up); run 2 replaced run 1
    records = [record(part(1, "benoist/E_9_8", 0, False)), record(part(1, "benoist/E_9_8", 4, True)),
               record(part(2, "benoist/E_9_8", 0, False)), record(part(2, "benoist/E_9_8", 4, True))]
    step = _steps(records)[("E_9_8", "confirmation")]
    assert step["complete"] and step["solutions"] == 4 and step["runs"] == [2]
    assert step["wall"] == 4.0
