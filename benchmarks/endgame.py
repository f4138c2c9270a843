"""The endgame's completions: how close to the best a CP-SAT completion gets, and how fast.

Empties a square block of K x K squares in the bottom-right corner of the record board
``record/Joshua_Blackwood_470`` (and, for scattered holes, K*K squares drawn at random with
a fixed seed) and completes the board with :func:`edgematch.engines.backtrack.endgame.
complete_best` (10 s at most each), beside the greedy fill.  One core, one run per case.
Prints the figures and writes ``results/endgame.md`` and ``.json``.

    python benchmarks/endgame.py [--sizes 3,4,5] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if not __package__:  # run as `python benchmarks/endgame.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from edgematch.data.records import load_record
from edgematch.engines.backtrack.endgame import complete_best
from edgematch.loading import load

RESULTS = Path(__file__).resolve().parent / "results"


def measure(board, holes) -> dict:
    partial = board.copy()
    for square in holes:
        partial.remove(int(square))
    started = time.perf_counter()
    completion = complete_best(partial)
    return {
        "empty": len(holes),
        "partial": partial.score(),
        "greedy": completion.greedy_score,
        "completion": completion.board.score(),
        "optimal": completion.optimal,
        "seconds": round(time.perf_counter() - started, 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="3,4,5")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    puzzle = load("e2")
    record = load_record("record/Joshua_Blackwood_470", puzzle)
    hinted = {h.square for h in puzzle.hints}
    rng = np.random.default_rng(args.seed)
    rows = []
    for k in (int(x) for x in args.sizes.split(",")):
        block = [r * 16 + c for r in range(16 - k, 16) for c in range(16 - k, 16)]
        free = [s for s in range(256) if s not in hinted]
        scattered = sorted(int(s) for s in rng.choice(free, size=k * k, replace=False))
        for shape, holes in (("block", block), ("scattered", scattered)):
            row = {"shape": shape, **measure(record, holes)}
            rows.append(row)
            print(row, flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "endgame.json").write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1) + "\n")
    lines = [
        "# Endgame completions on the 470 record board",
        "",
        f"`python benchmarks/endgame.py --sizes {args.sizes} --seed {args.seed}` (one core, 10 s at most each).",
        "",
        "| holes | empty squares | partial score | greedy fill | CP-SAT completion | proved optimal | seconds |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['shape']} | {r['empty']} | {r['partial']} | {r['greedy']} | {r['completion']} | "
            f"{'yes' if r['optimal'] else 'no'} | {r['seconds']} |"
        )
    (RESULTS / "endgame.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
