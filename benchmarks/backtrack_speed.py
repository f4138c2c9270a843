"""Speed of the backtracking engine: nodes per second, memory, start-up time.

Measures, on one core:

1. full exact counts (row scan) of Benoist's E_9_13 and E_10_16 and of Brendan Owen's
   set-1 6x6 (community node count 69,284,103): nodes, solutions, wall and CPU seconds,
   nodes/s by both clocks, after a warm-up so that compilation is not timed; with the
   default kernel and, where that is the bitboard kernel, with the list kernel too;
2. the same loop written in plain C (``backtrack_reference.c``, compiled here with
   ``gcc -O2`` when gcc exists) on the very same candidate tables, so that the engine is
   compared with C on this machine under this load rather than with a figure from
   elsewhere;
3. 60 s of best-score search on ``e2`` (the Julia package's path and error schedule for
   target 470), ``--repeats`` times, each in a separate process so that its peak memory
   (VmHWM) is its own; the fastest run is reported and every run is listed; the
   same with the generated kernel and without the prefix filter (the first 500 M nodes of
   the row scans of ``e2`` and ``e2dev/bench-hard`` are also timed with both kernels; a
   generated kernel is compiled before it is timed);
4. the wall time of a fresh ``edgematch count`` process once the Numba cache is warm.

Prints the figures and writes ``results/backtrack_speed.md`` and ``.json``.  Load from
other processes slows wall-clock rates; the load average is recorded next to them, and
CPU-time rates are less affected.  The files are written once every measurement has
finished: Ctrl-C or SIGTERM stops the script, leaves them as they were (the figures
finished so far are on the screen) and exits with status 130 (143 after SIGTERM).

    python benchmarks/backtrack_speed.py [--best-seconds 60] [--repeats 3] [--skip-c]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if not __package__:  # run as `python benchmarks/backtrack_speed.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks.interrupts import Interrupted, check, interrupting_signals, say_interrupted
from benchmarks.machine_info import load_average, machine

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
COUNTS = ["benoist/E_9_13", "benoist/E_10_16", "owen1-6x6"]
PARTIAL = [("e2", 500_000_000), ("e2dev/bench-hard", 500_000_000)]  # row scans: the first N nodes only


def timed_count(name: str, repeats: int, node_limit: int | None = None, kernel: str = "auto") -> dict:
    import edgematch
    from edgematch.engines.backtrack import BacktrackSolver

    puzzle = edgematch.load(name)
    solver = BacktrackSolver(node_limit=node_limit, kernel=kernel)
    # warm-up: load the compiled kernel
    check(BacktrackSolver(node_limit=100_000, kernel=kernel).count(puzzle), "the warm-up")
    best = None
    for _ in range(repeats):
        load = load_average()
        wall0, cpu0 = time.perf_counter(), time.process_time()
        result = solver.count(puzzle)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        check(result, f"the count of {name}")  # an interrupted count is not a measurement
        row = {
            "puzzle": name if node_limit is None else f"{name} (first {node_limit:,} nodes)", "solutions": result.solutions, "nodes": result.nodes, "complete": result.complete,
            "kernel": result.statistics["kernel"],
            "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "nodes_per_s_wall": round(result.nodes / wall), "nodes_per_s_cpu": round(result.nodes / cpu),
            "load_average": load,
        }
        if best is None or row["cpu_s"] < best["cpu_s"]:
            best = row
    return best


def c_reference(name: str) -> dict | None:
    """The same tables searched by the C loop in backtrack_reference.c."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        return None
    import edgematch
    from edgematch.engines.backtrack import BacktrackSolver
    from edgematch.engines.backtrack.plan import P_BASE, P_KEY, P_NCHK, P_NKEY

    puzzle = edgematch.load(name)
    plan = BacktrackSolver().plan(puzzle)
    rows = plan.exact_phases()
    if (rows[:, P_NCHK] > 0).any():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "bt"
        subprocess.run([gcc, "-O2", "-o", str(exe), str(HERE / "backtrack_reference.c")], check=True)
        data = Path(tmp) / "plan.txt"
        lines = [f"{plan.depth} {len(plan.cand)} {len(plan.starts)} {len(plan.pcol)} {puzzle.n_tiles} {puzzle.n_squares}"]
        for array in (plan.cand, plan.starts, plan.pcol, plan.order, plan.board0, plan.used0):
            lines.append(" ".join(map(str, np.asarray(array).tolist())))
        for d in range(plan.depth):
            keys = " ".join(f"{rows[d, P_KEY + 3 * i]} {rows[d, P_KEY + 3 * i + 1]} {rows[d, P_KEY + 3 * i + 2]}" for i in range(4))
            lines.append(f"{rows[d, P_BASE]} {rows[d, P_NKEY]} {keys}")
        data.write_text("\n".join(lines) + "\n")
        best = None
        for _ in range(2):
            load = load_average()
            out = subprocess.run([str(exe), str(data)], check=True, capture_output=True, text=True).stdout.split()
            solutions, nodes, cpu = int(out[0]), int(out[1]), float(out[2])
            row = {"puzzle": name, "solutions": solutions, "nodes": nodes, "cpu_s": round(cpu, 3),
                   "nodes_per_s_cpu": round(nodes / cpu), "load_average": load}
            if best is None or row["cpu_s"] < best["cpu_s"]:
                best = row
        return best


BEST_CHILD = """
import json, resource, sys, time
import edgematch
from edgematch.engines.backtrack import BacktrackSolver, prefix_filter
seconds = float(sys.argv[1])
prefix_filter.ENABLED = sys.argv[2] == "on"
kernel = sys.argv[3]
def peak_mb():
    # VmHWM: this program's own peak (ru_maxrss keeps the parent's from before exec on Linux)
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
puzzle = edgematch.load("e2")
BacktrackSolver(order="e2path", schedule="julia:470", node_limit=100_000, kernel=kernel).best(puzzle)  # warm-up
solver = BacktrackSolver(order="e2path", schedule="julia:470", target=470, time_limit=seconds, kernel=kernel)
cpu0 = time.process_time()
result = solver.best(puzzle)
cpu = time.process_time() - cpu0
print(json.dumps({"puzzle": "e2", "order": "e2path", "schedule": "julia:470", "seconds": round(result.seconds, 2),
                  "cpu_s": round(cpu, 2), "nodes": result.nodes, "nodes_per_s_wall": round(result.nodes / result.seconds),
                  "nodes_per_s_cpu": round(result.nodes / cpu), "best_score": result.best_score,
                  "deepest": result.deepest, "stopped_by": result.stopped_by, "prefix_filter": sys.argv[2],
                  "kernel": result.statistics.get("kernel", "lists"),
                  "peak_rss_mb": peak_mb()}))
"""


def best_search(seconds: float, repeats: int, prefix_filter: bool = True, kernel: str = "lists") -> dict:
    """The fastest of ``repeats`` runs (as for the counts: load only ever slows a run down),
    each in a fresh process (its warm-up compiles or loads the kernel, untimed); every run's
    rate is kept in ``all_runs``.  Without ``prefix_filter`` the candidate lists are never
    filtered of the settled prefix's tiles (the same search tree)."""
    runs = []
    for _ in range(repeats):
        load = load_average()
        flag = "on" if prefix_filter else "off"
        out = subprocess.run([sys.executable, "-c", BEST_CHILD, str(seconds), flag, kernel], check=True, capture_output=True, text=True)
        row = json.loads(out.stdout.strip().splitlines()[-1])
        if row["stopped_by"] == "interrupted":  # the child had Ctrl-C too, and reported what it had
            raise Interrupted("the best-score search was interrupted")
        row["load_average"] = load
        runs.append(row)
    best = max(runs, key=lambda r: r["nodes_per_s_cpu"])
    best["all_runs"] = [{"nodes_per_s_cpu": r["nodes_per_s_cpu"], "best_score": r["best_score"],
                         "peak_rss_mb": r["peak_rss_mb"], "load_average": r["load_average"]} for r in runs]
    best["peak_rss_mb"] = max(r["peak_rss_mb"] for r in runs)
    return best


def startup() -> dict:
    """Wall and CPU time of a fresh process counting owen1-4x4 (Numba cache warm)."""
    command = [sys.executable, "-m", "edgematch.cli.main", "count", "owen1-4x4", "--json", "--quiet"]
    subprocess.run(command, check=True, capture_output=True)  # make sure the cache is warm
    times, cpu = [], []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import edgematch.engines.backtrack.solver"], check=True)
    import_s = time.perf_counter() - t0
    return {"command": "edgematch count owen1-4x4 --json", "best_wall_s": round(min(times), 3),
            "all_wall_s": [round(t, 3) for t in times], "best_cpu_s": round(min(cpu), 3), "import_wall_s": round(import_s, 3), "load_average": load_average()}


def markdown(report: dict) -> str:
    out = ["# Backtracking engine speed", "", f"Machine: {report['machine']}  ", f"Date: {report['date']}", ""]
    out += ["## Exact counts (row scan from the top-left corner, one core)", "",
            "The default kernel (`auto`) is the bitboard kernel where every class of tiles has at most 64 members "
            "and the list kernel otherwise; the list kernel is also timed, as the C loop below is its twin.", "",
            "| puzzle | kernel | solutions | nodes | wall s | CPU s | nodes/s (wall) | nodes/s (CPU) | load avg |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in report["counts"]:
        out.append(f"| {r['puzzle']} | {r['kernel']}{'' if r.get('default', True) else ' (forced)'} | {r['solutions']:,} | {r['nodes']:,} | {r['wall_s']} | {r['cpu_s']} | "
                   f"{r['nodes_per_s_wall'] / 1e6:.1f} M | {r['nodes_per_s_cpu'] / 1e6:.1f} M | {r['load_average']} |")
    if report.get("c_reference"):
        out += ["", "## The same loop in C (gcc -O2), same tables, same machine", "",
                "| puzzle | nodes | CPU s | nodes/s (CPU) | list kernel / C | load avg |", "|---|---:|---:|---:|---:|---:|"]
        engine = {r["puzzle"]: r for r in report["counts"] if r["kernel"] == "lists"}
        for r in report["c_reference"]:
            ratio = engine[r["puzzle"]]["nodes_per_s_cpu"] / r["nodes_per_s_cpu"]
            out.append(f"| {r['puzzle']} | {r['nodes']:,} | {r['cpu_s']} | {r['nodes_per_s_cpu'] / 1e6:.1f} M | "
                       f"{ratio:.2f} | {r['load_average']} |")
    b = report["best"]
    out += ["", f"## {b['seconds']} s of best-score search on e2 ({b['order']}, schedule {b['schedule']})", "",
            f"- nodes: {b['nodes']:,} ({b['nodes_per_s_wall'] / 1e6:.1f} M/s wall, {b['nodes_per_s_cpu'] / 1e6:.1f} M/s CPU), "
            f"the fastest of {len(b.get('all_runs', [b]))} runs of {b['seconds']} s; every run (M/s CPU): "
            + ", ".join(f"{r['nodes_per_s_cpu'] / 1e6:.1f}" for r in b.get("all_runs", [b])),
            f"- best score: {b['best_score']} of 480 (deepest {b['deepest']} tiles), stopped by {b['stopped_by']}",
            f"- peak memory of that process: {b['peak_rss_mb']} MB (VmHWM, its warm-up included)", f"- load average: {b['load_average']}"]
    if report.get("best_generated"):
        g = report["best_generated"]
        out += [f"- the same search with the generated best kernel (`--kernel generated`, docs/backtracking.md; "
                f"compiled before the timed run): {g['nodes_per_s_cpu'] / 1e6:.1f} M/s CPU, the fastest of "
                f"{len(g['all_runs'])} runs (every run: " + ", ".join(f"{r['nodes_per_s_cpu'] / 1e6:.1f}" for r in g["all_runs"])
                + f"), best score {g['best_score']}, deepest {g['deepest']}; {g['nodes_per_s_cpu'] / b['nodes_per_s_cpu']:.2f}x the list kernel"]
    if report.get("best_unfiltered"):
        u = report["best_unfiltered"]
        out += [f"- the same search without filtering the settled prefix's tiles out of the candidate lists "
                f"(engines/backtrack/prefix_filter.py): {u['nodes_per_s_cpu'] / 1e6:.1f} M/s CPU, the fastest of "
                f"{len(u['all_runs'])} runs, best score {u['best_score']}; with it {b['nodes_per_s_cpu'] / u['nodes_per_s_cpu']:.2f}x"]
    s = report["startup"]
    out += ["", "## Start-up with a warm Numba cache", "",
            f"- `{s['command']}`: {s['best_wall_s']} s wall (runs: {s['all_wall_s']}), {s['best_cpu_s']} s CPU (user + system)",
            f"- `import edgematch.engines.backtrack.solver` alone: {s['import_wall_s']} s", f"- load average: {s['load_average']}", ""]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--best-seconds", type=float, default=60.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-c", action="store_true")
    args = parser.parse_args(argv)
    with interrupting_signals() as signals:
        try:
            report = measure_all(args)
        except KeyboardInterrupt as error:  # Ctrl-C, SIGTERM, or a measurement that reported either
            say_interrupted(error, f"nothing written ({RESULTS / 'backtrack_speed.*'} left as they were)")
            return signals.exit_status()
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "backtrack_speed.json").write_text(json.dumps(report, indent=2) + "\n")
    (RESULTS / "backtrack_speed.md").write_text(markdown(report))
    print(f"written {RESULTS / 'backtrack_speed.md'}")
    return 0


def measure_all(args) -> dict:
    """Every measurement, printed as it ends; the report's data."""
    report = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M"), "counts": [], "c_reference": []}
    for name in COUNTS:
        row = timed_count(name, args.repeats)
        rows = [row]
        if row["kernel"] != "lists":
            rows.append(dict(timed_count(name, args.repeats, kernel="lists"), default=False))
        for row in rows:
            report["counts"].append(row)
            print(f"count {name} ({row['kernel']} kernel): {row['solutions']:,} solutions, {row['nodes']:,} nodes, "
                  f"{row['cpu_s']} s CPU, {row['nodes_per_s_cpu'] / 1e6:.1f} M nodes/s CPU "
                  f"({row['nodes_per_s_wall'] / 1e6:.1f} M wall), load {row['load_average']}", flush=True)
        if not args.skip_c:
            ref = c_reference(name)
            if ref:
                report["c_reference"].append(ref)
                print(f"  C loop: {ref['nodes']:,} nodes, {ref['nodes_per_s_cpu'] / 1e6:.1f} M nodes/s CPU", flush=True)
    for (name, limit), kernel in [(partial, kernel) for partial in PARTIAL for kernel in ("lists", "generated")]:
        row = dict(timed_count(name, 1, node_limit=limit, kernel=kernel), default=kernel == "lists")
        report["counts"].append(row)
        print(f"count {row['puzzle']}: {row['nodes']:,} nodes, {row['cpu_s']} s CPU, "
              f"{row['nodes_per_s_cpu'] / 1e6:.1f} M nodes/s CPU ({row['nodes_per_s_wall'] / 1e6:.1f} M wall), load {row['load_average']}",
              flush=True)
    report["best"] = best_search(args.best_seconds, args.repeats)
    b = report["best"]
    print(f"best e2 {b['seconds']} s: {b['nodes']:,} nodes, {b['nodes_per_s_cpu'] / 1e6:.1f} M/s CPU, best score {b['best_score']}, "
          f"peak {b['peak_rss_mb']} MB", flush=True)
    report["best_generated"] = g = best_search(args.best_seconds, args.repeats, kernel="generated")
    print(f"best e2, generated kernel: {g['nodes_per_s_cpu'] / 1e6:.1f} M/s CPU, best score {g['best_score']}", flush=True)
    report["best_unfiltered"] = u = best_search(args.best_seconds, args.repeats, prefix_filter=False)
    print(f"best e2 without the prefix filter: {u['nodes_per_s_cpu'] / 1e6:.1f} M/s CPU, best score {u['best_score']}", flush=True)
    report["startup"] = startup()
    print(f"start-up (warm cache): {report['startup']['best_wall_s']} s wall, {report['startup']['best_cpu_s']} s CPU", flush=True)
    return report


if __name__ == "__main__":
    sys.exit(main())
