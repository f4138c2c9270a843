"""Durable parallel runs as a user meets them: ``edgematch count --jobs 2`` killed with
SIGKILL (or stopped with Ctrl-C) mid-run, then ``--resume``d to the exact total."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time

from support.cli import console_command, run_console

OWEN_9X4 = {"solutions": 162, "nodes": 429_862_166}  # serial count, edgematch count owen1-9x4 --jobs 1


def done_subtrees(db) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return conn.execute("SELECT COUNT(*) FROM subtrees WHERE status='done'").fetchone()[0]
    except sqlite3.OperationalError:  # the tables are not there yet
        return 0


def start_count(db, *extra):
    argv = console_command() + ["count", "owen1-9x4", "--jobs", "2", "--db", str(db), "--quiet", "--json", *extra]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "EDGEMATCH_JOBS": "2"})


def wait_for_done(proc, db, at_least: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while done_subtrees(db) < at_least:
        assert proc.poll() is None, f"the run ended before {at_least} subtrees were done: {proc.communicate()}"
        assert time.monotonic() < deadline
        time.sleep(0.05)


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_sigkill_mid_run_then_resume_gives_the_exact_total(tmp_path):
    db = tmp_path / "runs.sqlite"
    proc = start_count(db)
    try:
        wait_for_done(proc, db, 3)
        workers = children(proc.pid)
        proc.kill()  # SIGKILL: nothing is saved on the way out
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 30  # orphaned workers notice within a slice and leave
    while not all(gone(w) for w in workers):
        assert time.monotonic() < deadline, "worker processes outlived the killed run"
        time.sleep(0.1)
    listed = run_console("runs", "--db", db, "--json")
    run = json.loads(listed.stdout)["runs"][0]
    assert run["status"] == "killed" and 3 <= run["subtrees_done"] < run["subtrees_total"]
    resumed = run_console("count", "--resume", str(run["id"]), "--db", db, "--jobs", "2", "--json", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["complete"] and data["puzzle"] == "owen1-9x4"
    assert {k: data[k] for k in OWEN_9X4} == OWEN_9X4
    assert sum(data["nodes_per_depth"]) == OWEN_9X4["nodes"]


def test_ctrl_c_stops_every_worker_prints_the_statistics_and_resumes(tmp_path):
    db = tmp_path / "runs.sqlite"
    proc = start_count(db)
    try:
        wait_for_done(proc, db, 2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    data = json.loads(out)
    assert not data["complete"] and data["stopped_by"] == "interrupted"
    assert 0 < data["nodes"] < OWEN_9X4["nodes"]
    run_id = data["statistics"]["run_id"]
    assert f"--resume {run_id}" in err
    resumed = run_console("count", "--resume", str(run_id), "--db", db, "--jobs", "2", "--json", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert {k: json.loads(resumed.stdout)[k] for k in OWEN_9X4} == OWEN_9X4
