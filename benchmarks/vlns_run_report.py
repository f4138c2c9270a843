"""Report on recorded optimize runs: best score within given times, re-scored from files.

A long run (hours) is a durable run in a run database: it may be stopped and resumed
(``edgematch optimize --resume RUN --db DB --minutes M``) across sessions, and its score
history and every new best board are in the database.  This script reads them back, and
for every run and every time threshold (run time includes the start's seconds, as
``edgematch optimize`` counts it):

* takes the best board the run had recorded by then,
* writes it to ``results/<name>_run<ID>_<T>min.txt`` (the edgematch board format),
* reads that file back with the public reader and re-verifies and re-scores it: the
  reported score is the file's score, not the database's,

and writes ``results/<name>.{md,json,png}`` (score against time for every run).

    python benchmarks/vlns_run_report.py --db benchmarks/results/vlns_long_runs.sqlite \\
        --runs 2,3 --within 60,240 --name vlns_4h
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if not __package__:  # run as `python benchmarks/vlns_run_report.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks.vlns_common import RESULTS, machine, pyplot, save_json, stamp, write_report


def best_within(bests: list[dict], seconds: float, offset: float) -> dict | None:
    """The highest-scoring best board recorded no later than ``seconds`` of run time."""
    found = None
    for row in bests:
        if row["seconds"] + offset <= seconds and (found is None or row["score"] > found["score"]):
            found = row
    return found


def command_args(argv: list[str]) -> list[str]:
    """The arguments as a command to repeat, without the free-text ``--note``."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--note":
            skip = True
        elif not a.startswith("--note="):
            out.append(a)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="run database")
    parser.add_argument("--runs", required=True, help="run ids, comma-separated")
    parser.add_argument("--within", default="60,240", help="time thresholds in minutes, comma-separated")
    parser.add_argument("--name", default="vlns_runs", help="results file stem")
    parser.add_argument("--note", default="", help="a paragraph for the report: how the runs were made")
    args = parser.parse_args(argv)

    from edgematch.formats import parse_puzzle, read_board
    from edgematch.runs.session import viewer_url
    from edgematch.runs.store import RunStore

    run_ids = [int(x) for x in args.runs.split(",")]
    thresholds = [float(x) for x in args.within.split(",")]
    store = RunStore(args.db)
    reports = []
    for run_id in run_ids:
        record = store.run(run_id)
        puzzle = parse_puzzle(store.puzzle_text(run_id), f"run {run_id}", "edgematch")
        offset = float(record.info.get("start", {}).get("seconds", 0.0) or 0.0)
        bests = store.bests(run_id)
        history = store.history(run_id)
        total = record.seconds + offset
        rows = []
        for minutes in thresholds:
            limit = minutes * 60
            row = best_within(bests, limit, offset)
            # a run given exactly this limit stops a few hundredths of a second short of it
            entry = {"minutes": minutes, "covered": total >= limit - 0.5, "run_seconds": round(total, 1)}
            if row is not None:
                path = RESULTS / f"{args.name}_run{run_id}_{minutes:g}min.txt"
                path.write_text(row["board"])
                board = read_board(path, puzzle)
                verdict = board.verify()
                entry.update({"score": board.score(), "database_score": row["score"],
                              "found_at_seconds": round(row["seconds"] + offset, 1), "moves": row["moves"],
                              "board_file": path.name, "hints_kept": not any("hint" in r for r in verdict.reasons),
                              "complete": board.is_complete, "url": viewer_url(board)})
            rows.append(entry)
        curve = [(h[0] + offset, h[3]) for h in history]
        reports.append({"run": run_id, "puzzle": record.puzzle_name, "seed": record.seed, "start": record.start,
                        "status": record.state_label, "seconds": round(total, 1), "moves": record.moves,
                        "params": record.params, "within": rows, "curve": curve})
    store.close()

    meta = {"db": args.db, "runs": run_ids, "within_minutes": thresholds, "machine": machine(), "date": stamp(),
            "command": " ".join(["python", "benchmarks/vlns_run_report.py", *command_args(sys.argv[1:])]),
            "note": args.note}
    save_json(args.name, {"meta": meta, "runs": reports})

    plt = pyplot()
    if plt is not None:
        fig, ax = plt.subplots(figsize=(8, 5))
        for r in reports:
            if not r["curve"]:
                continue
            times = np.array([c[0] for c in r["curve"]] + [r["seconds"]]) / 60
            scores = [c[1] for c in r["curve"]] + [r["curve"][-1][1]]
            ax.step(times, scores, where="post", label=f"run {r['run']}: {r['puzzle']} (seed {r['seed']})")
        ax.axhline(458, color="grey", linestyle="--", linewidth=1, label="458 (Schaus & Deville, 24 h)")
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlim(left=0)
        ax.set_xlabel("minutes of run time")
        ax.set_ylabel("best score (max 480)")
        ax.set_ylim(400, 480)
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(RESULTS / f"{args.name}.png", dpi=110)

    lines = [f"# Recorded runs: best score within {', '.join(f'{t:g}' for t in thresholds)} minutes", "",
             f"Made {meta['date']} on {meta['machine']}.", "", f"Command: `{meta['command']}`", "",
             *([args.note, ""] if args.note else []),
             "Every score is re-read from the saved board file and re-scored by the model.", "",
             f"![score vs time]({args.name}.png)", "",
             "| run | puzzle | seed | start | run time (s) | within | best (re-scored) | found at (s) | board file |",
             "|---:|---|---:|---|---:|---:|---:|---:|---|"]
    for r in reports:
        for e in r["within"]:
            covered = "" if e["covered"] else " (run shorter)"
            lines.append(f"| {r['run']} | {r['puzzle']} | {r['seed']} | {r['start']} | {e['run_seconds']} | "
                         f"{e['minutes']:g} min{covered} | {e.get('score', '-')} | {e.get('found_at_seconds', '-')} | "
                         f"{e.get('board_file', '-')} |")
    lines += ["", "Viewer links of the best boards:", ""]
    for r in reports:
        for e in r["within"]:
            if "url" in e:
                lines.append(f"- run {r['run']} ({r['puzzle']}), within {e['minutes']:g} min: {e['url']}")
    write_report(args.name, "\n".join(lines) + "\n")
    for r in reports:
        for e in r["within"]:
            print(f"run {r['run']} {r['puzzle']}: within {e['minutes']:g} min: {e.get('score', '-')}"
                  f"{'' if e['covered'] else ' (run shorter than that)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
