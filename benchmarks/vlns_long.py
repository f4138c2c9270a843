"""Long runs of the tabu search: score versus time on ``e2`` and ``e2-clues``.

Each run is a durable run (recorded in ``--db``, resumable with
``edgematch optimize --resume``); its best board is written to
results/vlns_long_<puzzle>_seed<seed>.txt, then read back from that file and re-scored
by the model before it is reported.  Writes results/<name>.{json,png,md} once every run
has finished.  Ctrl-C or SIGTERM stops the runs (each checkpointed and marked
interrupted in the database, to be resumed with ``edgematch optimize --resume`` and
reported with ``vlns_run_report.py``), writes nothing here and exits with status 130 (or
143 after SIGTERM).

    python benchmarks/vlns_long.py --minutes 60                       # one hour each, in turn
    python benchmarks/vlns_long.py --minutes 60 --jobs 2              # both at once on 2 cores
    python benchmarks/vlns_long.py --puzzles e2 --minutes 10 --name vlns_10min
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if not __package__:  # run as `python benchmarks/vlns_long.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks.interrupts import Interrupted, interrupting_signals
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

TARGETS = ("Schaus & Deville (2008): 458/480 on e2 within 24 hours (2008 CPU, C++); "
           "Wauters et al. report 461 within one hour.  Target of this project: >= 458 within one hour.")


def one_run(args):
    puzzle_name, seed, seconds, db, start, params, name = args
    import time

    import edgematch
    from edgematch.formats import format_board, read_board
    from edgematch.local.tabu import TabuParams
    from edgematch.runs import start_run
    from edgematch.runs.session import viewer_url

    puzzle = edgematch.load(puzzle_name)
    warm_up(puzzle)
    start_board, info = None, {"kind": "random"}
    started = time.perf_counter()
    if start != "random":
        from edgematch.local.startup import build_start

        # the backtracking start returns what it has on Ctrl-C, without saying so: a
        # signal during it means the start is not the one asked for
        with interrupting_signals() as signals:
            start_board, info = build_start(puzzle, start, seed=seed, time_limit=min(30.0, 0.1 * seconds))
        if signals.received:
            raise Interrupted(f"the {start} start of {puzzle_name} was interrupted")
    start_seconds = time.perf_counter() - started
    info["seconds"] = round(start_seconds, 3)
    # the start is part of the run time, as in `edgematch optimize`; Ctrl-C or SIGTERM stops
    # the search cleanly (checkpointed, the run marked interrupted, resumable)
    outcome = start_run(puzzle, params=TabuParams(**params), seed=seed, start_board=start_board, start=start,
                        start_info=info, time_limit=seconds - start_seconds, db=db, handle_signals=True)
    if outcome.status == "interrupted":
        raise Interrupted(f"run {outcome.run_id} ({puzzle_name}) was interrupted after {outcome.seconds:.0f} s "
                          f"(resume it: edgematch optimize --resume {outcome.run_id} --db {db})")
    path = RESULTS / f"{name}_{puzzle_name}_seed{seed}.txt"
    path.write_text(format_board(outcome.best_board, "edgematch"))
    reread = read_board(path, puzzle)  # the saved file is what we report
    verdict = reread.verify()
    curve = [(h[0] + start_seconds, h[1]) for h in outcome.result.history]  # seconds from the start of the run
    return {"puzzle": puzzle_name, "seed": seed, "run_id": outcome.run_id, "best": reread.score(),
            "hints_kept": not any("hint" in r for r in verdict.reasons), "seconds": outcome.seconds + start_seconds,
            "moves": outcome.result.moves, "curve": curve, "board_file": path.name, "url": viewer_url(reread),
            "start": info}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", default="e2,e2-clues")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", default="random", choices=("random", "cp", "backtrack"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--db", default=str(RESULTS / "vlns_long_runs.sqlite"))
    parser.add_argument("--param", action="append", default=[], metavar="NAME=JSON")
    parser.add_argument("--name", default="vlns_long")
    args = parser.parse_args(argv)
    import json

    params = {}
    for item in args.param:
        key, _, value = item.partition("=")
        params[key] = json.loads(value)
    puzzles = args.puzzles.split(",")
    tasks = [(p, args.seed, args.minutes * 60, args.db, args.start, params, args.name) for p in puzzles]
    runs = map_runs(one_run, tasks, args.jobs)
    meta = {"puzzles": puzzles, "minutes": args.minutes, "seed": args.seed, "jobs": args.jobs, "params": params,
            "start": args.start, "machine": machine(), "date": stamp(),
            "command": " ".join(["python", "benchmarks/vlns_long.py", *sys.argv[1:]])}
    save_json(args.name, {"meta": meta, "runs": runs})

    plt = pyplot()
    if plt is not None:
        fig, ax = plt.subplots(figsize=(8, 5))
        for r in runs:
            times = [0.0] + [c[0] for c in r["curve"]] + [r["seconds"]]
            scores = [r["curve"][0][1]] + [c[1] for c in r["curve"]] + [r["best"]]
            ax.step(np.array(times) / 60, scores, where="post", label=f"{r['puzzle']} (seed {r['seed']}): {r['best']}")
        ax.axhline(458, color="grey", linestyle="--", linewidth=1, label="458 (paper, 24 h)")
        if args.minutes > 10:
            ax.set_xscale("symlog", linthresh=1)
        ax.set_xlim(left=0)
        ax.set_xlabel("minutes")
        ax.set_ylabel("best score (max 480)")
        ax.set_ylim(400, 480)
        ax.set_title("Tabu search with the assignment neighbourhood")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(RESULTS / f"{args.name}.png", dpi=110)

    lines = [f"# Long runs ({args.minutes:g} min)", "", f"Run {meta['date']} on {meta['machine']}, "
             f"{args.jobs} run(s) at a time.", "", f"Command: `{meta['command']}`", "", "**Reference:** " + TARGETS, "",
             f"![score vs time]({args.name}.png)", "",
             "| puzzle | seed | best (re-scored from the saved file) | at 1 min | at 10 min | moves | board file |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for r in runs:
        def at(seconds, r=r):
            before = [c[1] for c in r["curve"] if c[0] <= seconds]
            return before[-1] if before else "-"
        lines.append(f"| {r['puzzle']} | {r['seed']} | {r['best']} | {at(60)} | {at(600)} | {r['moves']:,} | "
                     f"{r['board_file']} |")
    lines += ["", "Viewer links of the best boards:", ""] + [f"- {r['puzzle']}: {r['url']}" for r in runs]
    write_report(args.name, "\n".join(lines) + "\n")
    print(f"wrote {RESULTS / args.name}.{{json,md,png}}")
    for r in runs:
        print(f"{r['puzzle']} seed {r['seed']}: best {r['best']} in {r['seconds']:.0f} s ({r['moves']:,} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main_exit(main))
