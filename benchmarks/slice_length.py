"""Nodes per second of the best-score search against the length of its slices.

Between slices the engine drops the settled prefix's tiles from the candidate lists
(docs/backtracking.md, "Candidate lists without the settled prefix"): shorter slices follow
the prefix more closely, each at a small fixed cost.  Runs Blackwood's method on ``e2``
(score_race.py's depth race, one core, seed 1) for the same node budget once per slice
length, the lengths alternating for ``--rounds`` rounds (this machine's speed drifts by
several per cent from minute to minute, so only pairs measured side by side in time are
compared).  Prints each run and writes ``results/slice_length.md`` and ``.json``.

    python benchmarks/slice_length.py [--seconds 0.2,0.02] [--nodes 1.2e9] [--rounds 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"

CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[3])
from depth_probes import BLACKWOOD_JB470
from edgematch.engines.backtrack import solver as solver_module
from edgematch.loading import load
solver_module.BEST_SLICE_SECONDS = float(sys.argv[1])
engine = solver_module.BacktrackSolver(node_limit=int(sys.argv[2]), seed=1, **BLACKWOOD_JB470)
puzzle = load("e2")
started = time.perf_counter()
result = engine.best(puzzle)
seconds = time.perf_counter() - started
print(json.dumps({"nodes": result.nodes, "seconds": seconds, "slices": result.statistics["kernel_calls"],
                  "fallbacks": result.statistics.get("prefix_fallbacks", 0)}))
"""


def run(slice_seconds: float, nodes: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(slice_seconds), str(nodes), str(Path(__file__).resolve().parent)],
        capture_output=True,
        text=True,
        check=True,
    )
    row = json.loads(done.stdout.strip().splitlines()[-1])
    row["slice_seconds"] = slice_seconds
    row["nodes_per_second"] = row["nodes"] / row["seconds"]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", default="0.2,0.02", help="slice lengths in seconds, comma-separated")
    parser.add_argument("--nodes", type=float, default=1.2e9)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    lengths = [float(x) for x in args.seconds.split(",")]
    run(lengths[0], 10**6)  # the kernel compiled and loaded before the first timed run
    rows = []
    for round_ in range(args.rounds):
        for length in lengths:
            row = dict(run(length, int(args.nodes)), round=round_ + 1)
            rows.append(row)
            print(f"round {row['round']}: slices of {length} s: {row['nodes_per_second'] / 1e6:.2f} M nodes/s "
                  f"({row['slices']} slices, {row['fallbacks']} fell back)", flush=True)
    lines = [
        "# Slice length of the best-score search",
        "",
        f"`python benchmarks/slice_length.py --seconds {args.seconds} --nodes {args.nodes:g} --rounds {args.rounds}`:"
        " Blackwood's method on e2, seed 1, one core, the same nodes per run, the lengths alternating.",
        "",
        "| slice | M nodes/s per round | mean | slices a run |",
        "|---:|---|---:|---:|",
    ]
    for length in lengths:
        mine = [r for r in rows if r["slice_seconds"] == length]
        rates = [r["nodes_per_second"] / 1e6 for r in mine]
        lines.append(
            f"| {length} s | {', '.join(f'{x:.1f}' for x in rates)} | {statistics.mean(rates):.1f} | "
            f"{round(statistics.mean(r['slices'] for r in mine))} |"
        )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "slice_length.md").write_text("\n".join(lines) + "\n")
    (RESULTS / "slice_length.json").write_text(json.dumps(rows, indent=1) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
