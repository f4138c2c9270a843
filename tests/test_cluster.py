"""A count through a real Dask distributed scheduler and two workers on the loopback
address (``edgematch count --cluster tcp://...``), and the same with one worker killed
mid-run: the total is exact both times.  Dask is the optional extra ``[cluster]``, which
CI installs."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from support.cli import console_command, run_console  # noqa: E402

DASK = str(Path(sys.executable).with_name("dask"))
OWEN_9X4 = {"solutions": 162, "nodes": 429_862_166}  # the serial count


@pytest.fixture
def cluster(tmp_path):
    """``dask scheduler`` and two ``dask worker`` processes (one thread each, no nanny, so a
    killed worker stays dead) on 127.0.0.1; yields (address, worker processes)."""
    scheduler_file = tmp_path / "scheduler.json"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(scheduler_file)], **quiet)
    ]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        address = json.loads(scheduler_file.read_text())["address"]
        workers = [
            subprocess.Popen(
                [DASK, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--no-dashboard",
                 "--host", "127.0.0.1"], **quiet)
            for _ in range(2)
        ]
        procs += workers
        from distributed import Client

        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def counted(stdout: str) -> dict:
    data = json.loads(stdout)
    assert data["complete"], data
    return {k: data[k] for k in OWEN_9X4}


def test_count_on_a_dask_cluster_is_exact(cluster, tmp_path):
    address, _ = cluster
    done = run_console("count", "owen1-9x4", "--cluster", address, "--db", tmp_path / "runs.sqlite", "--json",
                       "--quiet", timeout=300)
    assert done.returncode == 0, done.stderr
    assert counted(done.stdout) == OWEN_9X4
    parallel = json.loads(done.stdout)["statistics"]["parallel"]
    assert parallel["workers"] == 2 and "Dask" in parallel["backend"]
    assert len(parallel["per_worker"]) == 2  # both workers searched


def test_a_worker_killed_mid_run_loses_nothing(cluster, tmp_path):
    address, workers = cluster
    db = tmp_path / "runs.sqlite"
    proc = subprocess.Popen(
        console_command() + ["count", "owen1-9x4", "--cluster", address, "--db", str(db), "--json", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 240
        while True:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            try:
                with sqlite3.connect(db, timeout=5) as conn:
                    done = conn.execute("SELECT COUNT(*) FROM subtrees WHERE status='done'").fetchone()[0]
            except sqlite3.OperationalError:
                done = 0
            if done >= 2:
                break
            time.sleep(0.05)
        workers[0].kill()  # SIGKILL: its running subtree is lost with it
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert counted(out) == OWEN_9X4
