"""Durable runs: the SQLite store, `optimize`/`runs` on the command line, Ctrl-C, SIGKILL
and resume, and two runs writing to one database at once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time

import numpy as np
import pytest

from edgematch.errors import InputError
from edgematch.formats import format_puzzle, parse_board, read_board
from edgematch.generator import generate
from edgematch.local import SearchState, TabuParams, TabuVLNS
from edgematch.runs import RunStore, resume_run, start_run
from edgematch.runs.store import KEEP_CHECKPOINTS
from support.cli import console_command
from support.cli import run_cli as cli

CLI = console_command()  # the installed edgematch command



@pytest.fixture(scope="module")
def small():
    return generate(7, seed=4, hints=1).puzzle


@pytest.fixture
def puzzle_file(tmp_path, small):
    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(small, "edgematch"))
    return path


def wait_for(condition, timeout=60.0, step=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("condition not reached in time")


def checkpoints(db, run_id=1):
    try:
        with sqlite3.connect(db, timeout=30) as conn:
            return conn.execute("SELECT COUNT(*), MAX(seconds), MAX(moves) FROM checkpoints WHERE run_id=?",
                                (run_id,)).fetchone()
    except sqlite3.OperationalError:  # not created yet
        return (0, None, None)


def spawn_optimize(db, *extra, seconds=120):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([*CLI, "optimize", "e2", "--seconds", str(seconds), "--db", str(db), "--quiet", "--json",
                             "--start", "random", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


# ----------------------------------------------------------------------------- the store
def test_store_records_and_keeps_only_the_newest_checkpoints(tmp_path, small):
    db = tmp_path / "runs.sqlite"
    with RunStore(db) as store:
        run_id = store.create_run(puzzle_name="p", puzzle_text=format_puzzle(small, "edgematch"),
                                  max_score=small.max_score, method="tabu-vlns", params={}, seed=1, start="random",
                                  budget_seconds=10.0, max_moves=None, target=None)
        for i in range(5):
            store.checkpoint(run_id, float(i), i * 10, 5, 7 + i, bytes([i]))
        assert store.checkpoint_count(run_id) == KEEP_CHECKPOINTS
        latest = store.latest_checkpoint(run_id)
        assert latest["state"] == bytes([4]) and latest["moves"] == 40
        assert store.run(run_id).best_score == 11
        assert store.integrity() == "ok"
        with pytest.raises(InputError, match="no run 99"):
            store.run(99)
        mode = store.conn.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"


def test_start_run_records_history_bests_and_a_checkpoint(tmp_path, small):
    db = tmp_path / "runs.sqlite"
    outcome = start_run(small, seed=3, max_moves=20_000, db=db, checkpoint_every=0.05, history_every=0.0,
                        handle_signals=False)
    with RunStore(db) as store:
        record = store.run(outcome.run_id)
        assert record.status == "finished" and record.seed == 3 and record.moves == 20_000 == outcome.result.moves
        bests = store.bests(outcome.run_id)
        scores = [b["score"] for b in bests]
        assert scores == sorted(scores) and scores[-1] == outcome.best_score == record.best_score
        for b in bests:  # every stored best board re-scores to its recorded score
            assert parse_board(b["board"], small, "<db>", "edgematch").score() == b["score"]
            assert read_board(b["url"], small).score() == b["score"]
        state = SearchState.from_bytes(store.latest_checkpoint(outcome.run_id)["state"])
        assert state.moves == 20_000 and state.best_score == outcome.best_score
        assert len(store.history(outcome.run_id)) >= 2


def test_resume_continues_the_saved_search_exactly(tmp_path, small):
    """A run stopped at a checkpoint and resumed makes the same moves as one never stopped."""
    db = tmp_path / "runs.sqlite"
    first = start_run(small, seed=9, max_moves=6000, db=db, handle_signals=False)
    with RunStore(db) as store:  # pretend the run had a bigger move budget
        store.conn.execute("UPDATE runs SET max_moves=12000 WHERE id=?", (first.run_id,))
    resumed = resume_run(first.run_id, db=db, handle_signals=False, time_limit=600)
    straight = TabuVLNS(seed=9).optimize(small, max_moves=12000)
    assert resumed.result.moves == 12000
    assert np.array_equal(resumed.result.state.tile, straight.state.tile)
    assert resumed.result.best_score == straight.best_score


def test_resume_of_a_scipy_run_continues_it_exactly(tmp_path, small):
    """A run whose assignments SciPy solves resumes in that mode (the parameters are
    recorded with the run) and makes the moves of a run never stopped."""
    db = tmp_path / "runs.sqlite"
    params = TabuParams(assignment="scipy", tie_break="first")  # ties left to the solver: the mode matters
    first = start_run(small, params=params, seed=9, max_moves=3000, db=db, handle_signals=False)
    with RunStore(db) as store:
        assert store.run(first.run_id).params["assignment"] == "scipy"
        store.conn.execute("UPDATE runs SET max_moves=6000 WHERE id=?", (first.run_id,))
    resumed = resume_run(first.run_id, db=db, handle_signals=False, time_limit=600)
    straight = TabuVLNS(params, seed=9).optimize(small, max_moves=6000)
    assert resumed.result.moves == 6000 and resumed.result.statistics["params"]["assignment"] == "scipy"
    for name in ("tile", "rot", "best_tile", "tabu_arc", "rng", "counters"):
        assert np.array_equal(getattr(resumed.result.state, name), getattr(straight.state, name)), name
    assert resumed.best_board.score() == resumed.best_score == straight.best_score


def test_run_recorded_before_the_assignment_choice_resumes_compiled(tmp_path, small):
    """Parameters stored without ``assignment`` are those of the compiled solver they ran with."""
    db = tmp_path / "runs.sqlite"
    params = TabuParams(assignment="compiled", tie_break="first")
    first = start_run(small, params=params, seed=4, max_moves=2000, db=db, handle_signals=False)
    old = params.to_dict()
    del old["assignment"]
    with RunStore(db) as store:
        store.conn.execute("UPDATE runs SET max_moves=4000, params=? WHERE id=?", (json.dumps(old), first.run_id))
    resumed = resume_run(first.run_id, db=db, handle_signals=False, time_limit=600)
    straight = TabuVLNS(params, seed=4).optimize(small, max_moves=4000)
    assert resumed.result.statistics["params"]["assignment"] == "compiled"
    assert np.array_equal(resumed.result.state.tile, straight.state.tile)
    assert np.array_equal(resumed.result.state.counters, straight.state.counters)


def test_resuming_a_live_run_is_refused(tmp_path, small):
    db = tmp_path / "runs.sqlite"
    with RunStore(db) as store:
        run_id = store.create_run(puzzle_name="p", puzzle_text=format_puzzle(small, "edgematch"),
                                  max_score=small.max_score, method="tabu-vlns", params={}, seed=1, start="random",
                                  budget_seconds=10.0, max_moves=None, target=None)
    with pytest.raises(InputError, match="still running"):
        resume_run(run_id, db=db)


# ----------------------------------------------------------------------------- command line
def test_optimize_json_out_file_and_runs_listing(capsys, tmp_path, puzzle_file, small):
    db = tmp_path / "runs.sqlite"
    out = tmp_path / "best.et2"
    code, stdout, _ = cli(capsys, "optimize", str(puzzle_file), "--moves", "3000", "--seed", "2", "--start", "random",
                          "--db", str(db), "--out", str(out), "--json", "--quiet")
    assert code == 0
    report = json.loads(stdout)
    for key in ("best_score", "max_score", "seconds", "run_id", "url", "moves"):
        assert key in report
    assert report["max_score"] == small.max_score and report["moves"] == 3000
    assert read_board(out, small).score() == report["best_score"]  # written in the et2 format, read back
    code, stdout, _ = cli(capsys, "score", str(puzzle_file), str(out), "--json")
    assert json.loads(stdout)["score"] == report["best_score"]
    code, stdout, _ = cli(capsys, "runs", "--db", str(db), "--json")
    runs = json.loads(stdout)["runs"]
    assert [r["id"] for r in runs] == [report["run_id"]] and runs[0]["best_score"] == report["best_score"]
    code, stdout, _ = cli(capsys, "runs", "--db", str(db), "--run", str(report["run_id"]))
    assert code == 0 and "https://e2.bucas.name/" in stdout
    code, _, err = cli(capsys, "runs", "--db", str(db), "--run", str(report["run_id"]), "--boards", "5")
    assert code == 2 and f"run {report['run_id']} is a tabu-vlns run" in err and len(err.strip().splitlines()) == 1
    code, stdout, _ = cli(capsys, "optimize", str(puzzle_file), "--moves", "100", "--db", str(db))
    assert code == 0 and "best score" in stdout and "https://" in stdout


def test_optimize_with_scipy_assignment_on_the_command_line(capsys, tmp_path, puzzle_file, small):
    db = tmp_path / "runs.sqlite"
    out = tmp_path / "best.txt"
    code, stdout, err = cli(capsys, "optimize", str(puzzle_file), "--moves", "2000", "--seed", "3", "--start",
                            "random", "--param", "assignment=scipy", "--db", str(db), "--out", str(out), "--json",
                            "--quiet")
    assert code == 0, err
    report = json.loads(stdout)
    assert report["moves"] == 2000 and read_board(out, small).score() == report["best_score"]
    with RunStore(db) as store:
        assert store.run(report["run_id"]).params["assignment"] == "scipy"
    code, _, err = cli(capsys, "optimize", str(puzzle_file), "--moves", "10", "--param", "assignment=lapjv",
                       "--db", str(db))
    assert code == 2 and "assignment" in err


@pytest.mark.parametrize("start", ["cp", "backtrack"])
def test_optimize_other_starts(capsys, tmp_path, puzzle_file, small, start):
    code, stdout, err = cli(capsys, "optimize", str(puzzle_file), "--moves", "500", "--seed", "1", "--start", start,
                            "--start-seconds", "2", "--db", str(tmp_path / "r.sqlite"), "--json", "--quiet")
    assert code == 0, err
    report = json.loads(stdout)
    assert report["start"]["kind"] == start and report["best_score"] >= report["start"]["score"]  # tabu keeps its best


def test_optimize_with_restarts_records_how_to_rebuild_them(capsys, tmp_path, small):
    scrambled_tiles = np.array(small.tiles)
    scrambled_tiles[np.flatnonzero(small.kinds == 0)[0], 0] = int(max(small.colours)) + 1  # unsolvable
    from edgematch.model import Puzzle

    puzzle = Puzzle(scrambled_tiles, small.width, small.height, small.hints, "scrambled")
    path = tmp_path / "scrambled.txt"
    path.write_text(format_puzzle(puzzle, "edgematch"))
    db = tmp_path / "r.sqlite"
    code, stdout, err = cli(capsys, "optimize", str(path), "--moves", "6000", "--seed", "4", "--start", "cp",
                            "--start-seconds", "0.5", "--restart-after", "300", "--db", str(db), "--json", "--quiet")
    assert code == 0, err
    report = json.loads(stdout)
    with RunStore(db) as store:
        record = store.run(report["run_id"])
        assert record.info["restart"]["kind"] == "cp" and record.params["restart_after"] == 300
        state = SearchState.from_bytes(store.latest_checkpoint(report["run_id"])["state"])
    assert state.segment >= 1 and state.best_score == report["best_score"] <= puzzle.max_score - 1


@pytest.mark.parametrize("argv, message", [
    (["optimize", "e2", "--db", "{db}"], "run time"),
    (["optimize", "--db", "{db}", "--seconds", "1"], "give a puzzle"),
    (["optimize", "e2", "--seconds", "-1", "--db", "{db}"], "--seconds"),
    (["optimize", "e2", "--moves", "0", "--db", "{db}"], "--moves"),
    (["optimize", "e2", "--seconds", "1", "--set-size", "1", "--db", "{db}"], "set_size"),
    (["optimize", "e2", "--seconds", "1", "--relax", "-2", "--db", "{db}"], "--relax"),
    (["optimize", "e2", "--seconds", "1", "--param", "nonsense=1", "--db", "{db}"], "NAME=VALUE"),
    (["optimize", "e2", "--seconds", "1", "--param", "arc_tenure=9,2", "--db", "{db}"], "arc_tenure"),
    (["optimize", "e2", "--seconds", "1", "--out", "x.nope", "--out-format", "nope", "--db", "{db}"], "unknown format"),
    (["optimize", "--resume", "5", "--db", "{db}"], "no run 5"),
    (["optimize", "e2", "--resume", "5", "--db", "{db}"], "give no puzzle"),
    (["runs", "--db", "{missing}"], "no such run database"),
])
def test_optimize_bad_input_is_one_line(capsys, tmp_path, argv, message):
    argv = [a.format(db=tmp_path / "r.sqlite", missing=tmp_path / "none.sqlite") for a in argv]
    code, _, err = cli(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# ----------------------------------------------------------------------------- crashes
def test_sigkill_then_resume_continues_from_the_checkpoint(tmp_path):
    db = tmp_path / "runs.sqlite"
    proc = spawn_optimize(db, "--seed", "5", "--checkpoint-every", "0.3")
    try:
        wait_for(lambda: (checkpoints(db)[0] or 0) >= 2 and (checkpoints(db)[2] or 0) > 0)
        time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    with RunStore(db) as store:
        record = store.run(1)
        assert record.state_label == "killed"
        saved = store.latest_checkpoint(1)
        saved_state = SearchState.from_bytes(saved["state"])
    assert saved_state.moves > 0 and saved_state.elapsed > 0
    result = subprocess.run([*CLI, "optimize", "--resume", "1", "--seconds", "1.5", "--db", str(db), "--json",
                             "--quiet"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["run_id"] == 1 and report["best_score"] >= saved_state.best_score
    assert report["seconds"] >= saved_state.elapsed + 1.0  # elapsed time goes on from the checkpoint
    assert report["moves"] > saved_state.moves
    with RunStore(db) as store:
        record = store.run(1)
        assert record.status == "finished" and record.moves == report["moves"]
        seconds = [h[0] for h in store.history(1)]
        assert seconds == sorted(seconds) and seconds[-1] >= saved_state.elapsed + 1.0
        assert store.integrity() == "ok"


def test_ctrl_c_checkpoints_before_exiting(tmp_path):
    db = tmp_path / "runs.sqlite"
    proc = spawn_optimize(db, "--seed", "6", "--checkpoint-every", "1000")
    try:
        wait_for(lambda: checkpoints(db)[0] >= 1)  # the initial checkpoint: the search has started
        time.sleep(2.0)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr  # the shell's status after Ctrl-C, the outcome printed all the same
    report = json.loads(stdout)
    assert report["status"] == "interrupted" and report["stopped_by"] == "interrupted"
    with RunStore(db) as store:
        saved = store.latest_checkpoint(report["run_id"])
        assert saved["moves"] == report["moves"] > 0  # the final state was checkpointed
        assert store.run(report["run_id"]).status == "interrupted"


def test_two_runs_write_to_one_database_at_once(tmp_path):
    db = tmp_path / "runs.sqlite"
    procs = [spawn_optimize(db, "--seed", str(seed), "--checkpoint-every", "0.1", seconds=4) for seed in (1, 2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (_stdout, stderr) in zip(procs, outputs):
        assert proc.returncode == 0, stderr
    ids = sorted(json.loads(stdout)["run_id"] for stdout, _ in outputs)
    assert ids == [1, 2]
    with RunStore(db) as store:
        assert store.integrity() == "ok"
        for run_id in ids:
            record = store.run(run_id)
            assert record.status == "finished"
            assert store.checkpoint_count(run_id) == KEEP_CHECKPOINTS
            assert len(store.history(run_id)) >= 3
            best = store.best(run_id)
            assert best["score"] == record.best_score


def test_a_process_is_alive_until_it_ends_and_a_zombie_counts_as_ended():
    import subprocess
    import sys

    from edgematch.processes import pid_alive

    assert pid_alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 60
    while pid_alive(child.pid) and time.monotonic() < deadline:  # ended, not reaped: a zombie
        time.sleep(0.05)
    assert not pid_alive(child.pid)
    child.wait()
    assert not pid_alive(child.pid)
