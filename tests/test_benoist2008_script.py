"""The benchmark script's bookkeeping: which earlier run answers a request, which runs are
worth starting, and that the report is written from records alone (no engine is run)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("benoist2008")
    finally:
        sys.path.remove(str(BENCHMARKS))


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


def store_with(bench, tmp_path, records):
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return bench.Store(path)


def test_a_finished_run_answers_any_limit_it_fits_in(bench, tmp_path):
    store = store_with(bench, tmp_path, [record(limit=200.0, cpu=50.0)])
    assert store.answer(key(60.0)) is not None  # finished in 50 s: a 60 s run would too
    assert store.answer(key(40.0)) is None  # would have been stopped: must be run
    assert store.answer(key(200.0)) is not None


def test_a_stopped_run_answers_only_shorter_limits(bench, tmp_path):
    store = store_with(bench, tmp_path, [record(limit=60.0, complete=False, cpu=60.0)])
    assert store.answer(key(30.0)) is not None
    assert store.answer(key(60.0)) is not None
    assert store.answer(key(100.0)) is None  # a longer limit may finish


def test_runs_need_their_baseline_to_have_finished(bench, tmp_path):
    store = store_with(bench, tmp_path, [record(cpu=30.0), record(label="heuristic:min-offer", complete=False,
                                                                  cpu=60.0)])
    assert bench.worth_running(store, "E_7_1", "four_corners", None, 60.0)
    assert bench.worth_running(store, "E_7_1", "four_corners", "colorpair", 60.0)
    assert not bench.worth_running(store, "E_7_1", "four_corners", "colorpair", 20.0)
    assert not bench.worth_running(store, "E_7_1", "four_corners", "heuristic:min-offer", 60.0)
    assert not bench.worth_running(store, "E_7_2", "four_corners", "colorpair", 60.0)  # no record at all


def test_only_the_main_colorpairs_run_gets_the_share_of_the_paper_time(bench):
    # E_9_9: the paper's ColorPairs time is 1565 s
    assert bench.colorpair_limit("E_9_9", "four_corners", 60.0, 0.3) == 470.0
    assert bench.colorpair_limit("E_9_9", "distributed", 60.0, 0.3) == 60.0
    assert bench.colorpair_limit("E_7_1", "four_corners", 60.0, 0.3) == 60.0  # 0.3 * 7 s < 60 s
    assert bench.colorpair_limit("E_10_24", "four_corners", 60.0, 0.3) == 60.0  # not in Table 1


def test_report_states_targets_and_misses_from_the_records(bench, tmp_path):
    # E_7_1 in the paper: ColorPairs 7 s, 1.73M nodes; backtracker (doc_smith) 34 s
    records = [
        record("colorpair", cpu=2.0, nodes=2_900_000, decisions=1_000_000, probes=700_000),
        record("backtrack", cpu=12.0, nodes=20_000_000),
        record("cpsat", complete=False, cpu=60.0, solutions=0, nodes=5000),
        record("colorpair_no_backjumping", cpu=2.1, nodes=2_950_000, decisions=1_010_000, probes=700_000),
        record("colorpair_no_preemption", cpu=2.2, nodes=3_000_000, decisions=1_050_000, probes=700_000),
    ]
    store = store_with(bench, tmp_path, records)
    text = bench.report(store, tmp_path / "r.md")
    assert "Identical counts from every engine that finished: yes (1 instances)" in text
    assert "ColorPairs time at least 10 times below the paper's: 0 of 1; short: E_7_1 (3.5x)" in text
    assert "beats the backtracker wherever it needs more than 10 s: 1 of 1" in text
    assert "| E_7_1 | 3.5 |" in text  # the miss, with its per-node speed and tree ratios
    assert (tmp_path / "r.md").read_text() == text


def test_report_flags_different_counts(bench, tmp_path):
    records = [record("colorpair", cpu=2.0, solutions=2, decisions=10, probes=5),
               record("backtrack", cpu=1.0, solutions=3)]
    text = bench.report(store_with(bench, tmp_path, records), tmp_path / "r.md")
    assert "Identical counts from every engine that finished: NO on E_7_1" in text


def test_timing_noise_compares_only_runs_that_grew_the_same_tree(bench, tmp_path):
    same = dict(decisions=100, probes=50)
    records = [record(label="shaving:8", cpu=10.0, **same), record(label="shaving:12", cpu=12.0, **same),
               record(cpu=11.0, **same),  # shaving `all`: the same tree, 10-12 s
               record(label="shaving:-", cpu=30.0, nodes=5000, decisions=900, probes=0),  # another tree
               record(label="shaving:16", cpu=0.5, instance="E_7_2", **same),  # under 1 s: left out
               record(label="shaving:8", cpu=0.4, instance="E_7_2", **same)]
    text = bench.timing_noise_text(store_with(bench, tmp_path, records), ["E_7_1", "E_7_2"])
    assert "On 1 group of runs" in text
    assert "20 % longer than the fastest at the median" in text
    assert "E_7_1: 10.00 s to 12.00 s over 3 runs" in text
    assert bench.timing_noise_text(store_with(bench, tmp_path, records[3:]), ["E_7_1", "E_7_2"]) == ""


def test_sums_name_the_instances_they_leave_out_and_the_run_that_kept_each_out(bench, tmp_path):
    labels = {"min-offer": "heuristic:min-offer", "min-expected-gap": "colorpair"}
    records = [record(label="heuristic:min-offer"), record(),  # E_7_1: both finished, kept
               record(label="heuristic:min-offer", instance="E_7_2", complete=False, cpu=60.0),
               record(label="heuristic:min-offer", instance="E_7_3")]  # E_7_3: the main run missing
    text = bench.left_out_text(store_with(bench, tmp_path, records), ["E_7_1", "E_7_2", "E_7_3"], labels)
    assert "E_7_1" not in text
    assert "E_7_2 (min-offer > 60 s)" in text
    assert "E_7_3 (min-expected-gap not run)" in text
    assert bench.left_out_text(store_with(bench, tmp_path, records[:2]), ["E_7_1"], labels) == ""


def test_ablation_text_says_how_often_backjumping_jumped_with_and_without_shaving(bench, tmp_path):
    records = [record(cpu=10.0, decisions=1000, probes=0, backjumps=5, levels_skipped=7),
               record(label="colorpair_no_backjumping", cpu=8.0, decisions=1100, probes=0),
               record(label="colorpair_no_preemption", cpu=11.0, decisions=1000, probes=0),
               record(label="shaving:-", cpu=20.0, decisions=4000, probes=0, backjumps=80)]
    text = bench.ablation_text(store_with(bench, tmp_path, records), ["E_7_1"])
    assert "5 backjumps skipped 7 levels in 1,000 decisions: 0.5 backjumps per 100 decisions" in text
    assert "against 2 without shaving" in text
    assert "| colorpair_no_backjumping | +10 % | -20 % |" in text


def test_runs_given_a_longer_limit_are_named_with_it(bench, tmp_path):
    records = [record(limit=400.0, cpu=90.0),  # the main run may have a longer limit: not listed
               record(label="colorpair_no_backjumping", limit=400.0, cpu=80.0),
               record(label="cpsat", complete=False, cpu=60.0)]
    text = bench.longer_limits_text(store_with(bench, tmp_path, records), ["E_7_1"], "four_corners")
    assert text == " (60 s; longer for colorpair_no_backjumping of E_7_1: 400 s)"
    assert bench.longer_limits_text(store_with(bench, tmp_path, records[2:]), ["E_7_1"], "four_corners") == " (60 s)"


def test_timing_noise_never_compares_two_code_versions(bench, tmp_path):
    same = dict(decisions=100, probes=50)
    records = [dict(record(label="shaving:8", cpu=10.0, **same), code="aaa"),
               dict(record(label="shaving:12", cpu=15.0, **same), code="bbb")]  # faster code, not noise
    assert bench.timing_noise_text(store_with(bench, tmp_path, records), ["E_7_1"]) == ""


def test_timing_noise_compares_the_table1_run_with_later_runs_of_the_same_tree(bench, tmp_path):
    same = dict(decisions=100, probes=50)
    records = [record(cpu=10.0, **same),  # the Table 1 run, older code (no version field)
               dict(record(label="shaving:8", cpu=13.0, **same), code="bbb"),
               dict(record(label="shaving:12", cpu=12.0, **same), code="bbb")]
    text = bench.timing_noise_text(store_with(bench, tmp_path, records), ["E_7_1"])
    assert "on 1 instance the fastest later run of the same tree, with later code, took 1.20 to 1.20 times" in text
