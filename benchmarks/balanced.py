#!/usr/bin/env python
"""Balanced rotations (issue 18): does fixing every tile's rotation first pay?

Three measurements, each written to benchmarks/results/balanced.{md,json}:

1. Sets: for small puzzles, the rotation sets that fit the board, the balanced ones
   counted exactly (with and without checkerboard parity) against the strategies page's
   random-walk estimate, and the number of solutions (each has exactly one balanced set).
2. Search: the two-phase solver (``--solver balanced``: every balanced set, each searched
   with rotations fixed) against the plain backtracker (same scan order, list and bitboard
   kernels), nodes and seconds, with and without parity.  A run that hits ``--time-limit``
   is reported as stopped, with the sets it searched and, where the number of sets is
   known, the time that would take at its measured rate.
3. Eternity II: Owen's estimate with rotations fixed by one balanced set (found by CP-SAT)
   against the plain estimate (rowscan from BL, pooled hints: 14,702 solutions and
   1.365e47 nodes), and that per-set tree times the page's estimated number of sets.

    flock /tmp/edgematch-bench.lock python benchmarks/balanced.py
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

if not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import edgematch
from benchmarks.machine_info import code_version, load_average, machine
from edgematch.balanced import count_balanced, count_rotation_sets, find_balanced, log10_random_walk_estimate
from edgematch.engines import make_solver
from edgematch.engines.base import Limits
from edgematch.errors import InputError

RESULTS = Path(__file__).parent / "results"
SET_PUZZLES = ["owen1-3x3", "owen1-4x3", "owen1-4x4", "owen1-5x3", "owen1-5x4", "owen1-5x5", "owen1-6x4"]
SEARCH_PUZZLES = ["owen1-3x3", "owen1-4x3", "owen1-4x4", "owen1-5x3", "owen1-5x4", "owen1-5x5", "owen1-6x6"]
BENOIST = ["benoist/E_7_1", "benoist/E_7_2"]


def timed(call):
    started = time.perf_counter()
    value = call()
    return value, time.perf_counter() - started


def set_row(name: str, count_limit: float) -> dict:
    puzzle = edgematch.load(name)
    row: dict = {"puzzle": name, "solutions": make_solver("backtrack").count(puzzle).solutions}
    for parity in (False, True):
        key = "parity" if parity else "plain"
        row[f"rotation_sets_{key}"] = count_rotation_sets(puzzle, parity=parity)
        row[f"log10_estimate_{key}"] = log10_random_walk_estimate(puzzle, parity=parity)
        exact, seconds = timed(lambda parity=parity: count_balanced(puzzle, parity=parity))
        row[f"balanced_{key}"] = exact
        row[f"count_seconds_{key}"] = round(seconds, 3)
    return row


def search_row(name: str, time_limit: float, counted: list[dict]) -> dict:
    puzzle = edgematch.load(name)
    row: dict = {"puzzle": name}
    runs = {
        "backtrack_bits": ("backtrack", {}),
        "backtrack_lists": ("backtrack", {"kernel": "lists"}),
        "balanced": ("balanced", {}),
        "balanced_parity": ("balanced", {"parity": True}),
    }
    # how many sets phase two has to go through: from the sets table where it has the
    # puzzle (with parity the count takes minutes on 24 squares), else counted here
    # without parity only
    known = {r["puzzle"]: r for r in counted}
    if name in known:
        row["sets_total"] = known[name]["balanced_plain"]
    else:
        try:
            row["sets_total"] = count_balanced(puzzle)
        except InputError:  # too many states to count (Benoist's 7x7: see count_balanced)
            row["sets_total"] = None
    row["sets_total_parity"] = known[name]["balanced_parity"] if name in known else None
    for key, (solver, options) in runs.items():
        engine = make_solver(solver, **options)
        engine.count(edgematch.load("owen1-3x3"))  # compiled before timing
        result = engine.count(puzzle, limits=Limits(time=time_limit))
        stats = result.statistics
        row[key] = {
            "solutions": result.solutions,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 3),
            "complete": result.complete,
            "sets": stats.get("rotation_sets_searched"),
            "sets_with_solutions": stats.get("rotation_sets_with_solutions"),
        }
    return row


def e2_row(time_limit: float) -> dict:
    puzzle = edgematch.load("e2")
    plain = edgematch.estimate(puzzle, order="rowscan", corner="BL", hints="pooled")
    row: dict = {
        "plain_solutions": plain.solutions,
        "plain_nodes": plain.nodes,
        "log10_rotation_sets": math.log10(count_rotation_sets(puzzle)),
        "log10_sets": log10_random_walk_estimate(puzzle),
        "log10_sets_parity": log10_random_walk_estimate(puzzle, parity=True),
    }
    for parity in (False, True):
        key = "_parity" if parity else ""
        found, seconds = timed(
            lambda parity=parity: find_balanced(puzzle, parity=parity, seed=1, time_limit=time_limit)
        )
        row[f"find_seconds{key}"] = round(seconds, 2)
        if found is not None:
            fixed = edgematch.estimate(puzzle, order="rowscan", corner="BL", hints="pooled", rotations=found)
            row[f"fixed_log10_nodes{key}"] = fixed.log10_nodes
            row[f"fixed_log10_solutions{key}"] = fixed.log10_solutions
    return row


def report(data: dict) -> str:
    lines = ["# Balanced rotations: measured", ""]
    lines.append(f"Machine: {data['machine']}; code {data['code']}; load average {data['load_average']}.")
    lines.append("")
    lines.append("## Balanced sets against solutions")
    lines.append("")
    lines.append(
        "| puzzle | solutions | rotation sets | balanced (exact) | page's estimate | with parity: sets | balanced | estimate |"
    )
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in data["sets"]:
        lines.append(
            f"| {r['puzzle']} | {r['solutions']:,} | {_big(r['rotation_sets_plain'])} | {_big(r['balanced_plain'])} "
            f"| {_log(r['log10_estimate_plain'])} | {_big(r['rotation_sets_parity'])} | {_big(r['balanced_parity'])} "
            f"| {_log(r['log10_estimate_parity'])} |"
        )
    lines.append("")
    lines.append("## Two-phase search against the plain backtracker (exact count, row scan)")
    lines.append("")
    lines.append(
        "| puzzle | solutions | backtrack (bits) nodes / s | (lists) s | two-phase nodes / s / sets | with parity |"
    )
    lines.append("|---|---:|---:|---:|---:|---:|")
    for r in data["search"]:
        b, lst, t, tp = r["backtrack_bits"], r["backtrack_lists"], r["balanced"], r["balanced_parity"]
        lines.append(
            f"| {r['puzzle']} | {b['solutions']:,} | {_plain(b)} | {lst['seconds']:.3f} "
            f"| {_run(t, r['sets_total'])} | {_run(tp, r['sets_total_parity'])} |"
        )
    lines.append("")
    lines.append(
        "Two-phase cells: phase-two nodes / seconds / sets searched of all balanced sets.  A run stopped by "
        "the time limit also shows the time all sets would take at its measured rate of sets per second."
    )
    e2 = data.get("e2")
    if e2:
        lines.append("")
        lines.append("## Eternity II: Owen's estimate with one balanced set fixed")
        lines.append("")
        lines.append(
            f"Plain (rowscan from BL, pooled hints): {e2['plain_solutions']:,.0f} expected solutions, {e2['plain_nodes']:.4g} nodes."
        )
        lines.append("")
        for key, label in (("", "One balanced set"), ("_parity", "One balanced set with parity")):
            if f"fixed_log10_nodes{key}" not in e2:
                lines.append(f"{label}: CP-SAT found none in {e2[f'find_seconds{key}']} s.")
                continue
            sets = e2[f"log10_sets{key}"]
            lines.append(
                f"{label} (CP-SAT, {e2[f'find_seconds{key}']} s): 10^{e2[f'fixed_log10_solutions{key}']:.2f} expected "
                f"solutions, 10^{e2[f'fixed_log10_nodes{key}']:.2f} nodes; times the page's 10^{sets:.2f} balanced "
                f"sets: 10^{e2[f'fixed_log10_nodes{key}'] + sets:.2f} nodes for the whole two-phase search."
            )
            lines.append("")
    return "\n".join(lines) + "\n"


def _plain(r: dict) -> str:
    state = "" if r["complete"] else " (stopped)"
    return f"{r['nodes']:,} / {r['seconds']:.3f}{state}"


def _run(r: dict, total: int | None) -> str:
    text = f"{r['nodes']:,} / {r['seconds']:.3f} / {r['sets']:,} of {'?' if total is None else _big(total)}"
    if r["complete"]:
        return text
    if not r["sets"] or total is None:
        return text + " (stopped)"
    projected = r["seconds"] * total / r["sets"]
    return text + f" (stopped; all sets: about {projected:.3g} s)"


def _big(x: int) -> str:
    return f"{x:,}" if x < 10**9 else f"{x:.3e}"


def _log(x: float) -> str:
    return f"{10**x:,.1f}" if x < 9 else f"10^{x:.2f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per search run")
    parser.add_argument("--sets", nargs="*", default=SET_PUZZLES)
    parser.add_argument("--search", nargs="*", default=SEARCH_PUZZLES + BENOIST)
    parser.add_argument("--no-e2", action="store_true")
    parser.add_argument("--merge", action="store_true", help="keep the rows of balanced.json not measured again")
    args = parser.parse_args(argv)
    data: dict = {
        "machine": machine(),
        "code": code_version(),
        "load_average": load_average(),
        "sets": [],
        "search": [],
    }
    for name in args.sets:
        data["sets"].append(set_row(name, args.time_limit))
        print(json.dumps(data["sets"][-1], default=str), flush=True)
    for name in args.search:
        data["search"].append(search_row(name, args.time_limit, data["sets"]))
        print(json.dumps(data["search"][-1]), flush=True)
    if not args.no_e2:
        data["e2"] = e2_row(args.time_limit)
        print(json.dumps(data["e2"]), flush=True)
    if args.merge and (RESULTS / "balanced.json").exists():
        old = json.loads((RESULTS / "balanced.json").read_text())
        for part in ("sets", "search"):
            new = {r["puzzle"] for r in data[part]}
            data[part] = [r for r in old[part] if r["puzzle"] not in new] + data[part]
        if "e2" not in data and "e2" in old:
            data["e2"] = old["e2"]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "balanced.json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    (RESULTS / "balanced.md").write_text(report(data))
    print(report(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
