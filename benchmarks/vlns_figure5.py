"""The paper's Figure 5: final tabu-search scores by start (relaxed CP starts vs random).

Schaus & Deville (2008), section 6: "For each number of relaxed positions we made 20 runs
with the hybridization [...]. We also tried with a random initialization [...].  It seems
that the local search Algorithm 1 obtains better results with a CP initialization than
with a random one [...].  What is more surprising is that higher scores are obtained with
less relaxed positions. [...] for less than 20 relaxed positions, CP is not able to find a
solution.  In this case, the initial state is the largest partial assignment completed
randomly."  (Relaxed positions 0, 5, ..., 30; how long each run lasted is not stated.)

Here each run: a start (``random``, or ``cp`` with k relaxed squares: the compiled DFS of
:mod:`edgematch.local.relaxed` for ``--cp-seconds``, the relaxed squares filled by the
assignment when it solves the relaxed problem, its deepest board completed at random
otherwise), then ``TabuVLNS`` with default parameters for ``--search-seconds``.  Writes
results/vlns_figure5.{json,png,md}.

    python benchmarks/vlns_figure5.py --runs 20 --cp-seconds 30 --search-seconds 300
    python benchmarks/vlns_figure5.py --runs 3 --cp-seconds 5 --search-seconds 30   # reduced
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if not __package__:  # run as `python benchmarks/vlns_figure5.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks.vlns_common import (
    RESULTS,
    machine,
    main_exit,
    map_runs,
    pyplot,
    save_json,
    stamp,
    warm_up,
    write_report,
)

PAPER = ("It seems that the local search Algorithm 1 obtains better results with a CP initialization than with a "
         "random one [...]. What is more surprising is that higher scores are obtained with less relaxed positions. "
         "[...] Starting with a good small partial assignment gives better results than starting with larger partial "
         "assignment of worse quality. (Schaus & Deville 2008, section 6, Figure 5: 20 runs per setting)")


def one_run(args):
    puzzle_name, start, relax, seed, cp_seconds, search_seconds = args
    import edgematch
    from edgematch.local import TabuVLNS
    from edgematch.local.startup import build_start

    puzzle = edgematch.load(puzzle_name)
    warm_up(puzzle)
    board, info = build_start(puzzle, start, seed=seed, relax=relax, time_limit=cp_seconds)
    from edgematch.formats import format_board, read_board

    result = TabuVLNS(seed=seed).optimize(puzzle, board, time_limit=search_seconds)
    # every reported score is re-read from the board as saved (edgematch format) and re-scored
    text = format_board(result.best_board, "edgematch")
    path = RESULTS / "vlns_figure5_boards" / f"{start}_k{relax}_seed{seed}.txt"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    reread = read_board(path, puzzle)
    verdict = reread.verify()
    return {"start": start, "relax": relax, "seed": seed, "start_info": info, "start_score": board.score(),
            "best": reread.score(), "moves": result.moves, "board_file": f"vlns_figure5_boards/{path.name}",
            "complete": reread.is_complete, "hints_kept": not any("hint" in r for r in verdict.reasons)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzle", default="e2")
    parser.add_argument("--relaxed", default="0,5,10,15,20,25,30")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cp-seconds", type=float, default=30.0)
    parser.add_argument("--search-seconds", type=float, default=300.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--name", default="vlns_figure5")
    args = parser.parse_args(argv)
    relaxed = [int(x) for x in args.relaxed.split(",")]
    settings = [("cp", k) for k in relaxed] + [("random", 0)]
    tasks = [(args.puzzle, start, k, 100 * i + r, args.cp_seconds, args.search_seconds)
             for i, (start, k) in enumerate(settings) for r in range(args.runs)]
    runs = map_runs(one_run, tasks, args.jobs,
                    lambda task, r: print(f"{r['start']:>6} k={r['relax']:>2} seed={r['seed']}: "
                                          f"start {r['start_score']} -> {r['best']}", flush=True))
    labels, groups, table = [], [], []
    for start, k in settings:
        chosen = [r for r in runs if r["start"] == start and (start == "random" or r["relax"] == k)]
        label = "random" if start == "random" else f"cp {k}"
        labels.append(label)
        finals = [r["best"] for r in chosen]
        groups.append(finals)
        solved = sum(1 for r in chosen if r["start_info"].get("solved"))
        table.append((label, np.median(finals), np.mean(finals), min(finals), max(finals),
                      np.mean([r["start_score"] for r in chosen]), solved, len(chosen)))
    meta = {"puzzle": args.puzzle, "relaxed": relaxed, "runs": args.runs, "cp_seconds": args.cp_seconds,
            "search_seconds": args.search_seconds, "jobs": args.jobs, "machine": machine(), "date": stamp(),
            "command": " ".join(["python", "benchmarks/vlns_figure5.py", *sys.argv[1:]])}
    save_json(args.name, {"meta": meta, "runs": runs})

    plt = pyplot()
    if plt is not None:
        fig, ax = plt.subplots(figsize=(8, 5))
        box = ax.boxplot(groups, whis=(0, 100), patch_artist=True)
        ax.set_xticks(range(1, len(labels) + 1), labels)
        for patch, label in zip(box["boxes"], labels):
            patch.set_facecolor("lightgrey" if label == "random" else "white")
        ax.set_xlabel("start: CP with k relaxed positions, or random")
        ax.set_ylabel("best score after the tabu search")
        ax.set_title(f"{args.puzzle}: {args.runs} runs per start, CP {args.cp_seconds:g} s + search "
                     f"{args.search_seconds:g} s")
        ax.grid(alpha=0.3, axis="y")
        fig.tight_layout()
        fig.savefig(RESULTS / f"{args.name}.png", dpi=110)

    lines = [f"# Figure 5 of Schaus & Deville (2008), reproduced on `{args.puzzle}`", "",
             f"Run {meta['date']} on {meta['machine']}, {args.jobs} run(s) at a time.", "",
             f"Command: `{meta['command']}`", "",
             f"Setting: per run a start (CP on the relaxed problem for {args.cp_seconds:g} s with the compiled DFS, "
             f"or random), then the tabu search with default parameters for {args.search_seconds:g} s; "
             f"{args.runs} runs per start.", "",
             "**The paper:** " + PAPER, "",
             f"![Figure 5]({args.name}.png)", "",
             "| start | median | mean | min | max | mean start score | relaxed problem solved |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for label, med, mean, lo, hi, start_mean, solved, n in table:
        lines.append(f"| {label} | {med:.1f} | {mean:.1f} | {lo} | {hi} | {start_mean:.1f} | {solved}/{n} |")
    medians = {label: med for label, med, *_ in table}
    cp_labels = [label for label in medians if label != "random"]
    best_cp = max(cp_labels, key=medians.get) if cp_labels else None
    ours = "**Ours:** "
    if best_cp is not None:
        ours += (f"the best CP start ({best_cp}) has median {medians[best_cp]:.1f} against {medians['random']:.1f} "
                 f"for random starts; by number of relaxed positions: "
                 + ", ".join(f"{label}: {medians[label]:.1f}" for label in cp_labels) + ".")
    lines[lines.index("**The paper:** " + PAPER) + 1:1] = ["", ours]
    write_report(args.name, "\n".join(lines) + "\n")
    print(f"wrote {RESULTS / args.name}.{{json,md,png}}")
    return 0


if __name__ == "__main__":
    sys.exit(main_exit(main))
