#!/usr/bin/env python
"""The Benoist instances no engine counted within 60 s, counted exactly as durable parallel runs.

Each instance as distributed (one corner tile fixed) is counted by the ColorPair engine in
the paper's configuration, split over ``--jobs`` worker processes and recorded subtree by
subtree in the run store ``benchmarks/results/benoist2008_counts.sqlite``; the count is then
confirmed independently, by the backtracker (rowscan from the fixed corner) or by the
four-corner decomposition (the six placements of the three free corner tiles, each counted
as its own puzzle; their sum is the one-corner count).  Before anything runs, Owen's
estimator gives each instance's expected backtracking tree.

Every finished or stopped session appends a record to ``benoist2008_counts.jsonl``; a
session stopped by ``--time-limit``, Ctrl-C, SIGTERM or SIGKILL is continued by running
the script again (the run store keeps every finished subtree; ``edgematch count --resume
RUN --db benchmarks/results/benoist2008_counts.sqlite`` does the same by hand).

    python benchmarks/benoist2008_counts.py --estimate-only
    flock /tmp/edgematch-bench.lock python benchmarks/benoist2008_counts.py --jobs 2
    python benchmarks/benoist2008_counts.py --only E_9_8 --what colorpair --time-limit 600

The report (``benoist2008.py --report-only``) reads the records.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

if not __package__:  # run as `python benchmarks/benoist2008_counts.py`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import edgematch
from benchmarks.benoist2008_runner import ENGINES
from benchmarks.machine_info import code_version, load_average
from edgematch.engines import make_solver
from edgematch.engines.base import Limits, StopFlag, stop_on_signals
from edgematch.model import Hint
from edgematch.parallel import parallel_search
from edgematch.parallel.job import Job
from edgematch.parallel.run import resume_search
from edgematch.runs import RunStore

RESULTS = Path(__file__).parent / "results"
RECORDS = RESULTS / "benoist2008_counts.jsonl"
DB = RESULTS / "benoist2008_counts.sqlite"
INSTANCES = ["E_7_4", "E_9_6", "E_9_2", "E_7_3", "E_10_4", "E_9_1", "E_10_3", "E_10_1", "E_9_9", "E_10_2", "E_9_8"]
# the second count of each instance: the backtracker where it ran fastest in the
# four-corner table (benoist2008.md) or where Owen's estimate puts its tree below 1e11
# nodes (E_9_9 2.2e10, E_10_2 6.0e10, E_9_8 7.4e10: minutes on two cores), else the
# four-corner decomposition (E_10_1: 2.5e11 nodes estimated)
CONFIRMATION = {
    "E_9_1": "backtrack",
    "E_7_3": "backtrack",
    "E_9_6": "backtrack",
    "E_10_3": "backtrack",
    "E_9_9": "backtrack",
    "E_10_2": "backtrack",
    "E_9_8": "backtrack",
}
WHAT = ("estimate", "colorpair", "confirmation")


def load_records() -> list[dict]:
    if not RECORDS.exists():
        return []
    return [json.loads(line) for line in RECORDS.read_text().splitlines() if line.strip()]


def append(record: dict) -> None:
    with RECORDS.open("a") as out:
        out.write(json.dumps(record) + "\n")


def solver_for(label: str):
    name, options = ENGINES[label]
    return make_solver(name, **options)


def corner_puzzles(puzzle) -> list:
    """The instance with its three free corner tiles placed every possible way (a corner tile
    fits a corner square in one rotation only): the one-corner count is their sum."""
    W, H = puzzle.width, puzzle.height
    corners = [0, W - 1, (H - 1) * W, H * W - 1]
    fixed = {h.square: h for h in puzzle.hints}
    free_squares = [s for s in corners if s not in fixed]
    held = {h.tile for h in puzzle.hints}
    corner_tiles = [t for t in range(puzzle.n_tiles) if t not in held and sum(c == 0 for c in puzzle.tiles[t]) == 2]
    if len(free_squares) != 3 or len(corner_tiles) != 3:
        raise ValueError(f"{puzzle.name}: expected 3 free corners and 3 corner tiles")
    out = []
    for order in itertools.permutations(corner_tiles):
        hints = list(puzzle.hints)
        for square, tile in zip(free_squares, order, strict=True):
            hints.append(Hint(square, tile, corner_rotation(puzzle, tile, square)))
        out.append(puzzle.with_hints(hints, name=f"{puzzle.name}+corners:" + ",".join(str(t + 1) for t in order)))
    return out


def corner_rotation(puzzle, tile: int, square: int) -> int:
    """The rotation that turns a corner tile's two grey sides to the board's edges at ``square``."""
    row, col = divmod(square, puzzle.width)
    outside = {0} if row == 0 else {2}
    outside |= {3} if col == 0 else {1}
    for r in range(4):
        shown = {s for s in range(4) if puzzle.tiles[tile][(s - r) % 4] == 0}
        if shown == outside:
            return r
    raise ValueError(f"tile {tile + 1} does not fit corner square {square}")


def recorded_run(store: RunStore, puzzle, engine) -> int | None:
    """The run of this count already in the store (finished or not), if any."""
    params = Job.of("count", engine, puzzle).params
    for record in store.runs():
        if (
            record.method == "count"
            and record.puzzle_name == (puzzle.name or "puzzle")
            and record.params.get("solver") == engine.name
            and record.params.get("engine") == params
        ):
            return record.id
    return None


def durable_count(
    store: RunStore, puzzle, label: str, jobs: int, limits: Limits, stop: StopFlag, plan_workers: int | None = None
) -> dict:
    """Count ``puzzle`` with engine ``label`` on ``jobs`` workers, continuing its recorded run."""
    engine = solver_for(label)
    run_id = recorded_run(store, puzzle, engine)
    started = time.perf_counter()
    if run_id is None:
        result = parallel_search(
            "count", engine, puzzle, limits=limits, jobs=jobs, store=store, stop=stop, plan_workers=plan_workers
        )
        run_id = result.statistics["run_id"]
    else:
        if store.run(run_id).status == "finished":
            result = None
        else:
            _, result = resume_search(run_id, store, limits=limits, jobs=jobs, stop=stop, plan_workers=plan_workers)
    wall = time.perf_counter() - started
    totals = _totals(store, run_id)
    session = None
    if result is not None:
        parallel = result.statistics["parallel"]
        session = {
            "wall_seconds": round(wall, 3),
            "worker_seconds": parallel.get("worker_seconds"),
            "subtrees_done": parallel.get("subtrees_done"),
            "resplits": parallel.get("resplits"),
            "stopped_by": result.stopped_by,
        }
    return {"run_id": run_id, "puzzle": puzzle.name, "engine": label, **totals, "session": session}


def _totals(store: RunStore, run_id: int) -> dict:
    from edgematch.runs.subtrees import SubtreeLedger

    totals = SubtreeLedger(store, run_id).totals()
    record = store.run(run_id)
    return {
        "complete": record.status == "finished",
        "solutions": totals.solutions,
        "nodes": totals.nodes,
        "subtrees_done": totals.done,
        "subtrees_total": totals.total,
        "worker_seconds_total": round(totals.seconds, 3),
    }


def estimate(name: str) -> dict:
    puzzle = edgematch.load("benoist/" + name)
    found = edgematch.estimate(puzzle, order="rowscan", corner="BL")
    return {
        "kind": "estimate",
        "instance": name,
        "method": "Owen's estimator, backtracker rowscan from the fixed corner (BL)",
        "expected_nodes": float(found.nodes),
        "expected_solutions": float(found.solutions),
    }


def method_of(name: str, step: str) -> str:
    """colorpair for the first count; backtrack or four_corners for its confirmation."""
    return "colorpair" if step == "colorpair" else CONFIRMATION.get(name, "four_corners")


def count_instance(
    store, name: str, what: str, jobs: int, limits: Limits, stop: StopFlag, plan_workers: int | None = None
) -> list[dict]:
    """One instance's ColorPair count or its confirmation: one record per counted puzzle."""
    puzzle = edgematch.load("benoist/" + name)
    method = method_of(name, what)
    if method == "four_corners":
        parts = [(p, "colorpair") for p in corner_puzzles(puzzle)]
    else:
        parts = [(puzzle, method)]
    out = []
    for part, label in parts:
        if stop.is_set():
            break
        done = durable_count(store, part, label, jobs, limits, stop, plan_workers)
        out.append(done)
        print(
            f"{name:7} {method:12} {part.name:40} {'complete' if done['complete'] else 'stopped '} "
            f"{done['solutions']:>6} solutions {done['nodes']:>16,} nodes "
            f"{done['subtrees_done']}/{done['subtrees_total']} subtrees"
            + (f", {done['session']['wall_seconds']:.1f} s wall" if done["session"] else ""),
            flush=True,
        )
        if not done["complete"]:
            break
    return out


# ---------------------------------------------------------------------------- the report
def _steps(records: list[dict]) -> dict:
    """(instance, step) -> every part's newest totals and the wall seconds of all its sessions."""
    steps: dict = {}
    for record in records:
        if record["kind"] != "count":
            continue
        step = steps.setdefault(
            (record["instance"], record["step"]),
            {
                "method": record["method"],
                "parts": {},
                "wall": 0.0,
                "jobs": record["jobs"],
                "plan_workers": record.get("plan_workers"),
            },
        )
        step["load"] = max(step.get("load", 0.0), float(record.get("load_average") or 0.0))
        for part in record["parts"]:
            # one part per puzzle (a corner of the four, or the instance): a newer run of
            # it (a run replaced after its options changed) supersedes the older one
            step["parts"][part["puzzle"]] = part
            if part["session"]:
                walls = step.setdefault("walls", {})
                walls[part["run_id"]] = walls.get(part["run_id"], 0.0) + part["session"]["wall_seconds"]
    for step in steps.values():
        parts = list(step["parts"].values())
        step["wall"] = sum(step.get("walls", {}).get(p["run_id"], 0.0) for p in parts)
        expected = 6 if step["method"] == "four_corners" else 1
        step["complete"] = len(parts) == expected and all(p["complete"] for p in parts)
        step["solutions"] = sum(p["solutions"] for p in parts)
        step["nodes"] = sum(p["nodes"] for p in parts)
        step["worker_seconds"] = sum(p["worker_seconds_total"] for p in parts)
        step["done"] = sum(p["subtrees_done"] for p in parts)
        step["total"] = sum(p["subtrees_total"] for p in parts)
        step["runs"] = sorted(p["run_id"] for p in parts)
    return steps


def _cells(name: str, step, unfinished: list) -> list[str]:
    """Solutions and wall s / M nodes of one count; an unfinished one is listed apart."""
    if step is None:
        return ["", ""]
    if not step["complete"]:
        unfinished.append((name, step))
        return ["?", f"> {step['wall']:.0f} / {step['nodes'] / 1e6:,.0f} ({step['done']}/{step['total']} subtrees)"]
    return [str(step["solutions"]), f"{step['wall']:.0f} / {step['nodes'] / 1e6:,.0f}"]


def report_text(records: list[dict] | None = None) -> str:
    """The section of benoist2008.md on these counts (empty before any count)."""
    records = load_records() if records is None else records
    steps = _steps(records)
    if not steps:
        return ""
    estimates = {r["instance"]: r for r in records if r["kind"] == "estimate"}
    out = [
        "Each instance as distributed (one corner fixed), counted exactly by `benchmarks/benoist2008_counts.py`: "
        "the ColorPair engine (paper configuration) split over 2 worker processes, every finished subtree "
        "recorded in `benchmarks/results/benoist2008_counts.sqlite`; then a second count, by the backtracker "
        "(rowscan from the fixed corner) or by the four-corner decomposition (the 6 placements of the 3 free "
        "corner tiles counted as 6 puzzles, summed). Wall seconds on this 2-core machine (summed over the "
        "sessions of a resumed run); worker seconds = the subtrees' search time summed over the workers. "
        "Owen's estimate: expected nodes of the backtracker on the same scan, before anything ran. "
        "Load: the highest 1-minute load average at the end of the count's sessions; above 2 the two "
        "workers shared the two cores with other work (tests, another job), so the times are up to twice "
        "a quiet machine's. The counts are exact either way.",
        "",
        "| instance | solutions | ColorPairs wall s / worker s / M nodes / subtrees | load | confirmed by "
        "| its solutions | its wall s / M nodes | load | Owen's estimate (M nodes) | agree |",
        "|---|---:|---|---:|---|---:|---|---:|---:|---|",
    ]
    unfinished: list = []
    not_started: list[str] = []
    for name in INSTANCES:
        first, second = steps.get((name, "colorpair")), steps.get((name, "confirmation"))
        estimate = estimates.get(name)
        est = f"{estimate['expected_nodes'] / 1e6:,.0f}" if estimate else ""
        if first is None:
            if estimate:
                out.append(f"| {name} | ? | not started |  |  |  |  |  | {est} |  |")
                not_started.append(name)
            continue

        sol, _ = _cells(name, first, unfinished)
        main_cell = (
            f"{first['wall']:.0f} / {first['worker_seconds']:.0f} / {first['nodes'] / 1e6:,.0f} / {first['total']}"
        )
        method = (
            ""
            if second is None
            else {"four_corners": "four corners (6 counts)", "backtrack": "backtracker"}[second["method"]]
        )
        second_sol, second_cell = _cells(name, second, unfinished)
        agree = (
            "yes"
            if second is not None
            and second["complete"]
            and first["complete"]
            and (second["solutions"] == first["solutions"])
            else ("NO" if second is not None and second["complete"] and first["complete"] else "")
        )
        load = f"{first['load']:.1f}"
        second_load = "" if second is None else f"{second['load']:.1f}"
        out.append(
            f"| {name} | {sol} | {main_cell} | {load} | {method} | {second_sol} | {second_cell} | {second_load} "
            f"| {est} | {agree} |"
        )
    planned = [
        f"{n} (cut as for {s['plan_workers']} workers, replayed in parallel.md)"
        for (n, step_name), s in steps.items()
        if s.get("plan_workers")
    ]
    if planned:
        out += ["", "Cut finer than two workers need: " + ", ".join(planned) + "."]
    if unfinished or not_started:
        out += ["", "Not finished yet (each continues where it stopped):", ""]
        out += [
            f"* {name}: not started; `python benchmarks/benoist2008_counts.py --only {name}`" for name in not_started
        ]
        for name, step in unfinished:
            out.append(
                f"* {name} {step['method']}: {step['done']} of {step['total']} subtrees done, "
                f"{step['nodes']:,} nodes, {step['solutions']} solutions so far; continue with "
                f"`python benchmarks/benoist2008_counts.py --only {name}` (runs {', '.join(map(str, step['runs']))} "
                "of the run store; `edgematch count --resume RUN --db benchmarks/results/benoist2008_counts.sqlite` "
                "finishes one by hand)"
            )
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these instances (default: all eleven)")
    parser.add_argument("--what", nargs="+", choices=WHAT, default=list(WHAT))
    parser.add_argument("--time-limit", type=float, help="seconds per count session (it can be continued)")
    parser.add_argument("--estimate-only", action="store_true")
    parser.add_argument(
        "--plan-workers",
        type=int,
        help="cut new runs as finely as for this many workers (a run to replay onto a cluster: benchmarks/parallel.py)",
    )
    args = parser.parse_args(argv)
    names = args.only or INSTANCES
    what = ["estimate"] if args.estimate_only else args.what
    records = load_records()
    if "estimate" in what:
        for name in names:
            if not any(r["kind"] == "estimate" and r["instance"] == name for r in records):
                record = estimate(name)
                append(record)
                print(f"{name:7} Owen's estimate: {record['expected_nodes']:.3g} backtracking nodes", flush=True)
    stop = StopFlag()
    limits = Limits(time=args.time_limit)
    with RunStore(DB) as store, stop_on_signals(stop):
        for name in names:
            for step in ("colorpair", "confirmation"):
                if step not in what or stop.is_set():
                    continue
                if any(
                    r["kind"] == "count" and r["instance"] == name and r["step"] == step and r["complete"]
                    for r in load_records()
                ):
                    continue
                parts = count_instance(store, name, step, args.jobs, limits, stop, args.plan_workers)
                if not parts:
                    continue
                method = method_of(name, step)
                complete = all(p["complete"] for p in parts) and len(parts) == (6 if method == "four_corners" else 1)
                append(
                    {
                        "kind": "count",
                        "instance": name,
                        "step": step,
                        "method": method,
                        "jobs": args.jobs,
                        "plan_workers": args.plan_workers,
                        "complete": complete,
                        "solutions": sum(p["solutions"] for p in parts),
                        "nodes": sum(p["nodes"] for p in parts),
                        "parts": parts,
                        "load_average": load_average(),
                        "code": code_version(),
                        "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
                    }
                )
    return 130 if stop.is_set() else 0


if __name__ == "__main__":
    sys.exit(main())
