"""Memory of a long search that saves boards: the coordinator's peak resident memory, the
boards it saved, stored and kept, and the run store's bytes per board.

Runs ``edgematch search e2 --seed 1 --jobs 2 --time-limit T --save-boards S --keep-boards K
--db DB`` once per case in a fresh process, reads that process's peak resident memory
(``VmHWM``: the coordinator's; the workers are processes of their own) and the run store.
A low threshold stands for a long run (460 and below save boards by the thousand a second).
Prints the figures and writes ``results/saved_boards.md`` and ``.json``.

    python benchmarks/saved_boards.py [--time-limit 60] [--cases 480:1000,462:1000,462:all,457:1000]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"

CHILD = """
import json, sys
from edgematch.cli.main import main
code = main(sys.argv[1:])
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
print(json.dumps({"code": code, "peak_kb": int(status["VmHWM"].split()[0])}), file=sys.stderr)
"""


def measure(seconds: float, threshold: int, keep: str, jobs: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "runs.sqlite")
        args = ["search", "e2", "--seed", "1", "--jobs", str(jobs), "--time-limit", str(seconds)]
        args += ["--save-boards", str(threshold), "--db", db, "--quiet", "--json"]
        if keep != "all":
            args += ["--keep-boards", keep]
        else:
            args += ["--keep-boards", str(10**12)]
        started = time.perf_counter()
        out_path = os.path.join(folder, "result.json")  # on disk: 'all' may list millions of boards
        with open(out_path, "w") as out:
            done = subprocess.run([sys.executable, "-c", CHILD, *args], stdout=out, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - started
        report = json.loads(done.stderr.strip().splitlines()[-1])
        with open(out_path) as out:
            result = json.load(out)
        with sqlite3.connect(db) as conn:
            stored, blob_bytes = conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(LENGTH(board)), 0) FROM saved_boards"
            ).fetchone()
        return {
            "seconds": seconds,
            "save_boards": threshold,
            "keep_boards": keep,
            "jobs": jobs,
            "boards_saved": result["statistics"].get("boards_saved", 0),
            "boards_stored": stored,
            "boards_in_result": len(result["saved_boards"]),
            "coordinator_peak_mb": round(report["peak_kb"] / 1024, 1),
            "store_mb": round(os.path.getsize(db) / 2**20, 1),
            "board_bytes": round(blob_bytes / stored) if stored else None,
            "nodes_per_second": round(result["nodes"] / max(result["seconds"], 1e-9)),
            "wall_seconds": round(wall, 1),
        }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument(
        "--cases",
        default="480:1000,462:1000,462:all,457:1000",
        help="SAVE:KEEP pairs, comma-separated: --save-boards and --keep-boards ('all': no bound)",
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    rows = []
    for case in args.cases.split(","):
        threshold, keep = case.split(":")
        row = measure(args.time_limit, int(threshold), keep, args.jobs)
        print(json.dumps(row), flush=True)
        rows.append(row)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "saved_boards.json").write_text(json.dumps(rows, indent=2) + "\n")
    lines = [
        "# Saved boards: the coordinator's memory",
        "",
        f"`python benchmarks/saved_boards.py --time-limit {args.time_limit:g} --cases {args.cases} "
        f"--jobs {args.jobs}` ({time.strftime('%Y-%m-%d')}, e2, seed 1).",
        "",
        "| --save-boards | --keep-boards | boards saved | stored | in the result | coordinator peak MB | store MB | bytes a board | nodes/s |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['save_boards']} | {r['keep_boards']} | {r['boards_saved']:,} | {r['boards_stored']:,} | {r['boards_in_result']:,} | "
            f"{r['coordinator_peak_mb']} | {r['store_mb']} | {r['board_bytes']} | {r['nodes_per_second']:,} |"
        )
    (RESULTS / "saved_boards.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
