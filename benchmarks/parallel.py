"""Parallel speed-up and scaling (issue 17 point 7), two sections in one results file.

Timed counts: each count serially, with two worker processes (``--jobs 2``), two worker
threads and a local Dask scheduler with two one-thread workers; the speed-ups, the overhead
per subtree, and a check that every parallel count equals the serial one.  Replays: a
finished run recorded in any run store (ideally about one core-hour, cut with
``plan_workers=256``) replayed onto 16 to 1024 simulated workers (:func:`simulate`).

    python benchmarks/parallel.py                                   # the default counts
    python benchmarks/parallel.py --count owen1-6x6:colorpair --no-dask
    python benchmarks/parallel.py --replay benchmarks/results/benoist2008_counts.sqlite:3 --replay-only

Run it alone (``flock /tmp/edgematch-bench.lock``): a speed-up measured beside anything
else means nothing.  Figures go to benchmarks/results/parallel.{json,md}; a section not
measured this time keeps its figures from the json, entry by entry.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if not __package__:  # run as `python benchmarks/parallel.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.machine_info import code_version, load_average, machine
from edgematch.engines import make_solver
from edgematch.loading import load
from edgematch.parallel import parallel_search
from edgematch.parallel.splitting import BudgetPolicy
from edgematch.runs import RunStore
from edgematch.runs.subtrees import SubtreeLedger

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).parent / "results"
DEFAULT_COUNTS = ["owen1-9x5:backtrack", "owen1-6x6:colorpair"]
SIMULATED_WORKERS = (16, 64, 256, 1024)
# issue 17's targets: speed-ups with two workers, efficiency at 64 simulated workers
JOBS2_TARGET = 1.8
DASK2_TARGET = 1.7
EFFICIENCY_TARGET = 0.90
EFFICIENCY_WORKERS = 64


# ---------------------------------------------------------------------- timed counts
def warm(puzzle, solver: str) -> None:
    """Compile (or load) the kernels before any clock starts: a short count of a small puzzle."""
    make_solver(solver).count(load("owen1-4x4"))
    make_solver(solver).split(puzzle, 1)


def timed_count(puzzle, solver: str, **parallel) -> tuple[float, object]:
    """One count: serial without options, else through ``parallel_search`` recorded in a
    scratch run store, as the command line records a parallel run by default."""
    engine = make_solver(solver)
    if not parallel:
        started = time.perf_counter()
        result = engine.count(puzzle)
        return time.perf_counter() - started, result
    with tempfile.TemporaryDirectory() as folder, RunStore(Path(folder) / "runs.sqlite") as store:
        started = time.perf_counter()
        result = parallel_search("count", engine, puzzle, store=store, **parallel)
        return time.perf_counter() - started, result


def check_same(serial, result, solver: str, what: str) -> None:
    """A parallel count must equal the serial one: solutions always, nodes for the
    backtracker (ColorPair's backjumping makes its node count depend on the cut)."""
    problems = []
    if not result.complete:
        problems.append(f"stopped by {result.stopped_by}")
    if result.solutions != serial.solutions:
        problems.append(f"{result.solutions} solutions, serial {serial.solutions}")
    if solver == "backtrack" and result.nodes != serial.nodes:
        problems.append(f"{result.nodes} nodes, serial {serial.nodes}")
    if problems:
        raise SystemExit(f"{what}: the parallel count differs from the serial one: {'; '.join(problems)}")


def stamp() -> dict:
    """When, where and with what code a figure was taken."""
    return {
        "measured": time.strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "code": code_version(),
        "load_average_at_end": load_average(),
    }


def measure(spec: str, use_dask: bool) -> dict:
    name, solver = spec.split(":")
    puzzle = load(name)
    warm(puzzle, solver)
    serial_seconds, serial = timed_count(puzzle, solver)
    figures: dict = {
        "count": spec,
        "solutions": serial.solutions,
        "serial_nodes": serial.nodes,
        "serial_seconds": round(serial_seconds, 3),
    }
    for label, options in (("jobs2", {"jobs": 2}), ("threads2", {"jobs": 2, "kind": "threads"})):
        seconds, result = timed_count(puzzle, solver, **options)
        check_same(serial, result, solver, f"{spec} {label}")
        figures[f"{label}_seconds"] = round(seconds, 3)
        figures[f"{label}_speedup"] = round(serial_seconds / seconds, 3)
        if label == "jobs2":
            stats = result.statistics["parallel"]
            figures.update(
                parallel_nodes=result.nodes,
                subtrees=stats["subtrees_total"],
                resplits=stats["resplits"],
                repeated_seconds=stats["repeated_seconds"],
                worker_seconds=stats["worker_seconds"],
                # the two workers' core time beyond the serial search (coordinator, cuts,
                # repeated work, idle tail), per subtree
                overhead_ms_per_subtree=round(
                    1000 * (2 * seconds - serial_seconds) / max(1, stats["subtrees_total"]), 3
                ),
            )
    if use_dask:
        figures.update(dask_figures(puzzle, solver, serial_seconds, serial, spec))
    return {**figures, **stamp()}


def dask_figures(puzzle, solver: str, serial_seconds: float, serial, spec: str) -> dict:
    """The same count on a Dask scheduler and two one-thread workers on 127.0.0.1."""
    from distributed import Client

    dask = str(Path(sys.executable).with_name("dask"))
    # the workers unpickle warm() by reference when this runs as `-m benchmarks.parallel`
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    with tempfile.TemporaryDirectory() as folder:
        scheduler_file = Path(folder) / "scheduler.json"
        procs = [
            subprocess.Popen(
                [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
                + ["--scheduler-file", str(scheduler_file)],
                **quiet,
            )
        ]
        try:
            deadline = time.monotonic() + 120
            while not scheduler_file.exists() or not scheduler_file.read_text().strip():
                if time.monotonic() > deadline or procs[0].poll() is not None:
                    raise SystemExit("the Dask scheduler did not start")
                time.sleep(0.1)
            address = json.loads(scheduler_file.read_text())["address"]
            worker = [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard"]
            procs += [subprocess.Popen(worker + ["--host", "127.0.0.1"], **quiet) for _ in range(2)]
            with Client(address) as client:
                client.wait_for_workers(2, timeout=120)
                client.run(warm, puzzle, solver)  # each worker compiles or loads its kernels first
            seconds, result = timed_count(puzzle, solver, cluster=address)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
    check_same(serial, result, solver, f"{spec} dask2")
    return {"dask2_seconds": round(seconds, 3), "dask2_speedup": round(serial_seconds / seconds, 3)}


# ---------------------------------------------------------------------- replays
def replay(spec: str) -> dict:
    """``DB:RUN[:LABEL]``: a finished run of any run store replayed onto simulated workers."""
    db, run, *label = spec.split(":", 2)
    path = Path(db)
    if not path.is_file():  # RunStore would create an empty database
        raise SystemExit(f"--replay {spec}: no run database {db}")
    run_id = int(run)
    with RunStore(path) as store:
        record = store.run(run_id)
        rows = SubtreeLedger(store, run_id).subtree_times()
    unfinished = sum(r["status"] not in ("done", "split") for r in rows)
    if not rows or unfinished or record.status != "finished":
        raise SystemExit(
            f"--replay {spec}: run {run_id} is {record.status} with {unfinished} of {len(rows)} subtrees unfinished;"
            " only a finished run replays"
        )
    roots = {r["key"] for r in rows if r["parent"] is None}
    simulated = simulate(rows)
    try:
        database = str(path.resolve().relative_to(ROOT))
    except ValueError:
        database = str(path.resolve())
    return {
        "replay": f"{database}:{run_id}",
        "label": label[0] if label else record.puzzle_name,
        "puzzle": record.puzzle_name,
        "method": f"{record.method} {record.params.get('solver', '')}".strip(),
        "recorded": record.created[:10],
        "recorded_on": record.host,
        "first_cut": sum(r["parent"] in roots for r in rows),
        "subtrees": sum(r["status"] == "done" for r in rows),
        "cuts": sum(r["status"] == "split" and r["parent"] is not None for r in rows),
        "useful_seconds": simulated["useful_seconds"],
        "useful_core_hours": round(simulated["useful_seconds"] / 3600, 3),
        "simulated": {k: v for k, v in simulated.items() if k != "useful_seconds"},
        "measured": time.strftime("%Y-%m-%d %H:%M"),
        "code": code_version(),
    }


def simulate(rows: list[dict], workers=SIMULATED_WORKERS) -> dict:
    """Replay a finished run's subtrees (``SubtreeLedger.subtree_times()``) onto ``workers``
    simulated workers, as the coordinator would hand them out there.

    A ``done`` row's seconds are its worker's search; a ``split`` row's are only the cut
    itself, made by the coordinator (the worker time thrown away is not in the ledger), so
    a subtree's whole time is its seconds plus its parts' whole times.  The coordinator is
    followed step by step: the first cut (the root rows) before any worker starts, largest
    estimate first, the budget from ``BudgetPolicy(workers)`` over the estimates still
    pending, calibrated only by tasks already finished; a task whose whole time exceeds its
    budget and that was cut in the record runs for the budget (lost), the coordinator then
    cuts it (nothing is handed out meanwhile) and queues its recorded parts.
    Efficiency = useful seconds (all searches and cuts) / (workers x finishing time).

    Pessimistic: a subtree recorded whole cannot be cut in the replay even when it outlasts
    its budget there (onto more workers than the record was planned for, or after a resume
    without ``plan_workers``), so its tail is as long as its recorded time.
    Optimistic: no latency per task (sending it, the store's write of its result), no time
    for the first cut's probes; onto fewer workers than planned, the first cut is finer
    than those would get (more pieces to even out).
    """
    rows = sorted(rows, key=lambda r: r["key"])
    by_key = {r["key"]: r for r in rows}
    children: dict[int, list[int]] = {}
    for r in rows:
        if r["parent"] is not None:
            children.setdefault(r["parent"], []).append(r["key"])
    whole: dict[int, float] = {}
    for r in reversed(rows):  # parts are keyed after the subtree they were cut from
        whole[r["key"]] = r["seconds"] + sum(whole[c] for c in children.get(r["key"], ()))
    roots = [r["key"] for r in rows if r["parent"] is None]
    useful = sum(whole[k] for k in roots)
    start = sum(by_key[k]["seconds"] for k in roots)
    out: dict = {"useful_seconds": round(useful, 3)}
    for count in workers:
        finish = _finish_time(by_key, children, whole, roots, start, count)
        out[str(count)] = {"finish_seconds": round(finish, 3), "efficiency": round(useful / (count * finish), 4)}
    return out


def _finish_time(by_key, children, whole, roots, start: float, count: int) -> float:
    """When the last task of the replay onto ``count`` workers ends (see :func:`simulate`)."""
    policy = BudgetPolicy(count)
    pending = [(-by_key[c]["estimate"], c) for root in roots for c in children.get(root, ())]
    heapq.heapify(pending)
    pending_estimate = sum(by_key[c]["estimate"] for _, c in pending)
    running: list[tuple[float, int, bool]] = []  # (end, key, cut)
    now, free = start, count
    while pending or running:
        while free and pending:
            _, key = heapq.heappop(pending)
            estimate = by_key[key]["estimate"]
            pending_estimate -= estimate
            budget = policy.seconds(max(0.0, pending_estimate) + estimate)
            cut = whole[key] > budget and bool(children.get(key))
            heapq.heappush(running, (now + (budget if cut else whole[key]), key, cut))
            free -= 1
        now = max(now, running[0][0])
        while running and running[0][0] <= now:  # everything done by now, then hand out again
            _, key, cut = heapq.heappop(running)
            free += 1
            if cut:
                now += by_key[key]["seconds"]
                for part in children[key]:
                    heapq.heappush(pending, (-by_key[part]["estimate"], part))
                    pending_estimate += by_key[part]["estimate"]
            else:
                policy.record(by_key[key]["estimate"], whole[key])
    return now


# ---------------------------------------------------------------------- results
def merged(old: list[dict], new: list[dict], key: str) -> list[dict]:
    """The old entries with those measured again replaced in place, then the new ones."""
    entries = {e[key]: e for e in old}
    entries.update({e[key]: e for e in new})
    return list(entries.values())


def mark(value: float | None, target: float, text: str) -> str:
    return "-" if value is None else f"{text} {'meets' if value >= target else 'misses'}"


def markdown(data: dict) -> str:
    lines = [
        "# Parallel counts: speed-up on this machine and a replay onto simulated workers",
        "",
        f"Targets (issue 17): `--jobs 2` at least {JOBS2_TARGET}x the serial count, Dask with two local "
        f"workers at least {DASK2_TARGET}x, efficiency at least {EFFICIENCY_TARGET:.0%} at "
        f"{EFFICIENCY_WORKERS} simulated workers on about one core-hour. Written by `python benchmarks/parallel.py`.",
        "",
        "## Timed counts",
        "",
    ]
    counts = data.get("counts", [])
    if not counts:
        lines.append("Not measured yet.")
    else:
        lines += [
            "Serial, then the same count with two worker processes (`--jobs 2`), two worker threads and a local "
            "Dask scheduler with two one-thread workers, each parallel run recorded in a scratch run store (as "
            "the command line records by default); kernels compiled before the clocks start; every parallel "
            "count equal to the serial one (solutions, and nodes for the backtracker). Overhead: the two "
            "processes' core time beyond the serial search, per subtree. Threads have no target: they are "
            "compared with processes (docs/parallel.md).",
            "",
            "| count | solutions | serial s | 2 processes s | speed-up | 2 threads s | speed-up | Dask 2 workers s "
            "| speed-up | subtrees | cuts | overhead ms/subtree | measured | load at end |",
            "|---|---:|---:|---:|---|---:|---|---:|---|---:|---:|---:|---|---:|",
        ]
        for f in counts:
            jobs, threads, dask = f["jobs2_speedup"], f.get("threads2_speedup"), f.get("dask2_speedup")
            cells = [
                f["count"],
                f["solutions"],
                f["serial_seconds"],
                f["jobs2_seconds"],
                mark(jobs, JOBS2_TARGET, f"{jobs}x"),
                f.get("threads2_seconds", "-"),
                "-" if threads is None else f"{threads}x",
                f.get("dask2_seconds", "-"),
                mark(dask, DASK2_TARGET, f"{dask}x"),
                f["subtrees"],
                f["resplits"],
                f["overhead_ms_per_subtree"],
                f"{f['measured']} ({f['code']})",
                f["load_average_at_end"],
            ]
            lines.append("| " + " | ".join(str(c) for c in cells) + " |")
        machines = sorted({f["machine"] for f in counts})
        lines += ["", "Machine: " + "; ".join(machines) + "."]
    lines += ["", "## Replays onto simulated workers", ""]
    replays = data.get("replays", [])
    if not replays:
        lines.append("Not measured yet.")
    else:
        lines += [
            "A finished run's recorded subtree times handed out again as the coordinator would onto many "
            "workers (largest estimate first, a task over its budget thrown away and cut two levels deeper); "
            "efficiency = useful core time / (workers x finishing time). Pessimistic where a subtree recorded "
            "whole outlasts its budget (it cannot be cut in the replay), optimistic in leaving out the latency "
            "of each task (`simulate` in benchmarks/parallel.py). The target is stated for about one core-hour "
            "of work.",
            "",
            "| run | method | recorded | first cut | subtrees | cuts | useful core-s | core-h | "
            + " | ".join(f"{w} workers" for w in SIMULATED_WORKERS)
            + " |",
            "|---|---|---|---:|---:|---:|---:|---:|" + "---|" * len(SIMULATED_WORKERS),
        ]
        for r in replays:
            cells = []
            for w in SIMULATED_WORKERS:
                efficiency = r["simulated"][str(w)]["efficiency"]
                text = f"{efficiency:.1%}"
                cells.append(mark(efficiency, EFFICIENCY_TARGET, text) if w == EFFICIENCY_WORKERS else text)
            lines.append(
                f"| {r['label']} ({r['replay']}) | {r['method']} | {r['recorded']} | {r['first_cut']} | "
                f"{r['subtrees']} | {r['cuts']} | {r['useful_seconds']} | {r['useful_core_hours']} | "
                + " | ".join(cells)
                + " |"
            )
    return "\n".join(lines) + "\n"


def write(counts: list[dict], replays: list[dict]) -> None:
    """Merge what was measured now into parallel.json (entry by entry) and rewrite parallel.md."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "parallel.json"
    old = json.loads(path.read_text()) if path.exists() else {}
    data = {
        "counts": merged(old.get("counts", []), counts, "count"),
        "replays": merged(old.get("replays", []), replays, "replay"),
    }
    path.write_text(json.dumps(data, indent=2) + "\n")
    (RESULTS / "parallel.md").write_text(markdown(data))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", action="append", metavar="PUZZLE:SOLVER", help="a count to time (repeatable)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask figures")
    parser.add_argument(
        "--replay", action="append", default=[], metavar="DB:RUN[:LABEL]", help="a finished run to replay (repeatable)"
    )
    parser.add_argument("--replay-only", action="store_true", help="no timed counts: only the replays")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if args.replay_only and not args.replay:
        parser.error("--replay-only needs at least one --replay")
    replays = []
    for spec in args.replay:  # first: a mistyped store fails before the long counts
        r = replay(spec)
        print(json.dumps(r), flush=True)
        replays.append(r)
    counts = []
    if not args.replay_only:
        for spec in args.count or DEFAULT_COUNTS:
            f = measure(spec, use_dask=not args.no_dask)
            print(json.dumps(f), flush=True)
            counts.append(f)
    if not args.no_write:
        write(counts, replays)
    return 0


if __name__ == "__main__":
    sys.exit(main())
