"""Parallel speed-up: ``--jobs 2`` against one process, the same through a local Dask
scheduler with two workers, the overhead per subtree, and a replay of the recorded
subtree times onto many simulated workers (what the splitting policy would reach there).

    python benchmarks/parallel.py                       # the default counts, about 10 min
    python benchmarks/parallel.py --count owen1-6x6:colorpair --no-dask

Run it alone (``flock /tmp/edgematch-bench.lock``): a speed-up measured beside anything
else means nothing.  Figures go to benchmarks/results/parallel.{json,md}.
"""

from __future__ import annotations

import argparse
import heapq
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from edgematch.engines import make_solver
from edgematch.loading import load
from edgematch.parallel import parallel_search
from edgematch.parallel.splitting import BudgetPolicy
from edgematch.runs import RunStore
from edgematch.runs.subtrees import SubtreeLedger

from benchmarks.machine_info import code_version, load_average, machine

RESULTS = Path(__file__).parent / "results"
DEFAULT_COUNTS = ["owen1-9x5:backtrack", "owen1-6x6:colorpair"]
SIMULATED_WORKERS = (16, 64, 256, 1024)


def timed_count(puzzle, solver: str, **parallel) -> tuple[float, object]:
    engine = make_solver(solver)
    started = time.perf_counter()
    result = parallel_search("count", engine, puzzle, **parallel) if parallel else engine.count(puzzle)
    return time.perf_counter() - started, result


def warm(puzzle, solver: str) -> None:
    """Compile (or load) the kernels before any clock starts: a short count of a small puzzle."""
    make_solver(solver).count(load("owen1-4x4"))
    make_solver(solver).split(puzzle, 1)


def measure(spec: str, use_dask: bool) -> dict:
    name, solver = spec.split(":")
    puzzle = load(name)
    warm(puzzle, solver)
    serial_seconds, serial = timed_count(puzzle, solver)
    with tempfile.TemporaryDirectory() as folder:
        with RunStore(Path(folder) / "runs.sqlite") as store:
            jobs_seconds, parallel = timed_count(puzzle, solver, jobs=2, store=store)
            rows = SubtreeLedger(store, parallel.statistics["run_id"]).subtree_times()
    assert parallel.solutions == serial.solutions, (parallel.solutions, serial.solutions)
    stats = parallel.statistics["parallel"]
    figures = {
        "count": spec,
        "solutions": serial.solutions,
        "serial_nodes": serial.nodes,
        "parallel_nodes": parallel.nodes,
        "serial_seconds": round(serial_seconds, 3),
        "jobs2_seconds": round(jobs_seconds, 3),
        "jobs2_speedup": round(serial_seconds / jobs_seconds, 3),
        "subtrees": stats["subtrees_total"],
        "resplits": stats["resplits"],
        "repeated_seconds": stats["repeated_seconds"],
        "worker_seconds": stats["worker_seconds"],
        # the coordinator's and the workers' extra time, shared over the subtrees
        "overhead_ms_per_subtree": round(1000 * (2 * jobs_seconds - serial_seconds) / max(1, stats["subtrees_total"]), 3),
        "simulated": simulate(rows),
    }
    if use_dask:
        figures.update(dask_figures(puzzle, solver, serial_seconds, serial.solutions))
    return figures


def dask_figures(puzzle, solver: str, serial_seconds: float, solutions: int) -> dict:
    """The same count on a Dask scheduler and two one-thread workers on 127.0.0.1."""
    dask = str(Path(sys.executable).with_name("dask"))
    with tempfile.TemporaryDirectory() as folder:
        scheduler_file = Path(folder) / "scheduler.json"
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", str(scheduler_file)], **quiet)]
        try:
            while not scheduler_file.exists() or not scheduler_file.read_text().strip():
                time.sleep(0.1)
            address = json.loads(scheduler_file.read_text())["address"]
            procs += [subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                                        "--host", "127.0.0.1"], **quiet) for _ in range(2)]
            from distributed import Client

            with Client(address) as client:
                client.wait_for_workers(2, timeout=120)
                client.run(warm, puzzle, solver)  # each worker compiles or loads its kernels first
            seconds, result = timed_count(puzzle, solver, cluster=address)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
    assert result.solutions == solutions
    return {"dask2_seconds": round(seconds, 3), "dask2_speedup": round(serial_seconds / seconds, 3)}


def simulate(rows: list[dict], workers=SIMULATED_WORKERS) -> dict:
    """Replay a recorded run's subtree tree onto ``workers`` simulated workers.

    A subtree's time is what its whole search took: its own seconds when it was searched
    to the end, or (when it was cut) its cut plus its parts.  The policy is the
    coordinator's: largest estimate first, a subtree longer than its budget runs for the
    budget (time thrown away), then its parts are queued; a subtree recorded whole cannot be
    cut further, so the replay is pessimistic for large worker counts.  Efficiency =
    useful seconds / (workers x finishing time)."""
    by_key = {r["key"]: r for r in rows}
    children: dict[int, list[int]] = {}
    for r in rows:
        if r["parent"] is not None:
            children.setdefault(r["parent"], []).append(r["key"])
    whole: dict[int, float] = {}

    def total(key: int) -> float:
        if key not in whole:
            whole[key] = by_key[key]["seconds"] + sum(total(c) for c in children.get(key, []))
        return whole[key]

    roots = [r["key"] for r in rows if r["parent"] is None]
    useful = sum(total(k) for k in roots)
    out = {}
    for count in workers:
        policy = BudgetPolicy(count)
        pending = [(-by_key[c]["estimate"], c) for root in roots for c in children.get(root, [])]
        heapq.heapify(pending)
        clock = [(sum(by_key[r]["seconds"] for r in roots), i) for i in range(count)]  # the first cut, on every worker
        heapq.heapify(clock)
        finish = 0.0
        while pending:
            now, worker = heapq.heappop(clock)
            _, key = heapq.heappop(pending)
            budget = policy.seconds(sum(-e for e, _ in pending) + by_key[key]["estimate"])
            parts = children.get(key, [])
            if total(key) > budget and parts:  # cut: the budget is lost, the parts queued
                end = now + budget + by_key[key]["seconds"]
                for part in parts:
                    heapq.heappush(pending, (-by_key[part]["estimate"], part))
            else:
                end = now + total(key)
                policy.record(by_key[key]["estimate"], total(key))
            finish = max(finish, end)
            heapq.heappush(clock, (end, worker))
        out[str(count)] = {"finish_seconds": round(finish, 3), "efficiency": round(useful / (count * finish), 4)}
    out["useful_seconds"] = round(useful, 3)
    return out


def write(figures: list[dict]) -> None:
    RESULTS.mkdir(exist_ok=True)
    data = {
        "machine": machine(),
        "code": code_version(),
        "load_average_at_end": load_average(),
        "measured": time.strftime("%Y-%m-%d"),
        "counts": figures,
    }
    (RESULTS / "parallel.json").write_text(json.dumps(data, indent=2) + "\n")
    lines = [
        "# Parallel counts: speed-up on this machine and a replay onto simulated workers",
        "",
        f"Measured {data['measured']} on {data['machine']} (code {data['code']}, load average "
        f"{data['load_average_at_end']} at the end) by `python benchmarks/parallel.py`, nothing else "
        "running; kernels compiled before the clocks start.",
        "",
        "| count | serial s | --jobs 2 s | speed-up | Dask 2 workers s | speed-up | subtrees | cuts | overhead ms/subtree |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        lines.append(
            f"| {f['count']} | {f['serial_seconds']} | {f['jobs2_seconds']} | {f['jobs2_speedup']} | "
            f"{f.get('dask2_seconds', '-')} | {f.get('dask2_speedup', '-')} | {f['subtrees']} | {f['resplits']} | "
            f"{f['overhead_ms_per_subtree']} |"
        )
    lines += ["", "Replay of each run's recorded subtree times onto simulated workers (efficiency):", ""]
    lines.append("| count | useful s | " + " | ".join(f"{w} workers" for w in SIMULATED_WORKERS) + " |")
    lines.append("|---|---:|" + "---:|" * len(SIMULATED_WORKERS))
    for f in figures:
        sim = f["simulated"]
        cells = " | ".join(f"{sim[str(w)]['efficiency']:.1%}" for w in SIMULATED_WORKERS)
        lines.append(f"| {f['count']} | {sim['useful_seconds']} | {cells} |")
    (RESULTS / "parallel.md").write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", action="append", metavar="PUZZLE:SOLVER", help="a count to time (repeatable)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask figures")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    figures = []
    for spec in args.count or DEFAULT_COUNTS:
        f = measure(spec, use_dask=not args.no_dask)
        print(json.dumps(f), flush=True)
        figures.append(f)
    if not args.no_write:
        write(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
