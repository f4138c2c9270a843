"""Screen changes to the depth race's search by node budget: how deep each variant gets.

A variant is a name and the options it adds to the depth race's search (score_race.py's
``DEPTH_SEARCH``: Blackwood's method, JB470's rule, no endgame); the last occurrence of an
option wins, so ``--priority-colours 20,5,8`` replaces his colours.  Each (variant, seed)
is one ``edgematch search e2 ... --jobs 1 --node-limit N --seed S --json`` on a core of
its own; the tree does not depend on time, so the searches run side by side, one per core.
Rows are appended to ``results/depth_screen.jsonl`` (a row already there for the same
options, seed, budget and code is not run again) and ``--report`` writes
``results/depth_screen.md``: per variant its tiles seed by seed, their mean, and how often
it was deeper, as deep or shallower than the variant named ``base`` on the same seeds.

    python benchmarks/depth_screen.py --variant base= --variant "c8=--priority-colours 20,5,8" --seeds 1-8 --nodes 2e9
    python benchmarks/depth_screen.py --report
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.machine_info import code_version, machine  # noqa: E402
from benchmarks.score_race import DEPTH_SEARCH, EDGEMATCH  # noqa: E402

RESULTS = HERE / "results" / "depth_screen.jsonl"
REPORT = HERE / "results" / "depth_screen.md"
#: tiles on the board from which nodes are kept per depth (the bottom of the board)
TAIL_FROM = 240
BASE = "base"


def parse_variant(text: str) -> tuple[str, list[str]]:
    """``name=options`` (options as a shell would split them; empty for the search as it is)."""
    name, sep, options = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"variant {text!r}: expected NAME=OPTIONS")
    return name, shlex.split(options)


def parse_seeds(text: str) -> list[int]:
    """``1-8``, ``1,3,5`` or a mix of both."""
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def command(options: list[str], seed: int, nodes: int) -> list[str]:
    """The search of one (variant, seed): the depth race's options, then the variant's."""
    return [
        "search",
        "e2",
        *DEPTH_SEARCH,
        *options,
        "--jobs",
        "1",
        "--no-record",
        "--node-limit",
        str(nodes),
        "--seed",
        str(seed),
        "--json",
        "--quiet",
    ]


def row_of(data: dict, name: str, options: list[str], seed: int, nodes: int, seconds: float) -> dict:
    """One result row from a search's JSON (tiles on the board: the starter and the tiles placed)."""
    npd = data["nodes_per_depth"]
    tail = {str(d + 2): int(n) for d, n in enumerate(npd) if d + 2 >= TAIL_FROM and n}
    return dict(
        variant=name,
        options=options,
        seed=seed,
        nodes=nodes,
        tiles=int(data["deepest"]) + 1,
        best_score=data.get("best_score"),
        seconds=round(seconds, 2),
        tail=tail,
    )


def run_one(core: int, name: str, options: list[str], seed: int, nodes: int) -> dict:
    args = [*EDGEMATCH, *command(options, seed, nodes)]
    if hasattr(os, "sched_setaffinity"):
        args = ["taskset", "-c", str(core), *args]
    started = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return row_of(json.loads(out), name, options, seed, nodes, time.perf_counter() - started)


def rows() -> list[dict]:
    return [json.loads(line) for line in RESULTS.read_text().splitlines()] if RESULTS.exists() else []


def same_search(row: dict, options: list[str], seed: int, nodes: int, code: str) -> bool:
    return row["options"] == options and row["seed"] == seed and row["nodes"] == nodes and row["code"] == code


def screen(variants: list[tuple[str, list[str]]], seeds: list[int], nodes: int, cores: int) -> None:
    code, host, date = code_version(), machine(), time.strftime("%Y-%m-%d")
    done = rows()
    todo = [(n, o, s) for n, o in variants for s in seeds if not any(same_search(r, o, s, nodes, code) for r in done)]
    free = list(range(cores))

    def task(item: tuple[str, list[str], int]) -> dict:
        core = free.pop()
        try:
            return run_one(core, *item, nodes)
        finally:
            free.append(core)

    with ThreadPoolExecutor(max_workers=cores) as pool:  # each row saved as its search ends
        for done_search in as_completed([pool.submit(task, item) for item in todo]):
            row = dict(done_search.result(), code=code, date=date, machine=host)
            print(f"{row['variant']:>16} seed {row['seed']:>4}: {row['tiles']} tiles, {row['seconds']} s", flush=True)
            with RESULTS.open("a") as out:
                out.write(json.dumps(row) + "\n")


def summary(data: list[dict], nodes: int) -> list[dict]:
    """Per variant and code at one budget: tiles by seed, their mean, nodes at 244 tiles and
    beyond, and the split against ``base`` of the same code on the seeds both ran."""
    by: dict[tuple[str, str, str], dict[int, dict]] = {}
    for r in data:
        if r["nodes"] == nodes:
            by.setdefault((r["variant"], " ".join(r["options"]), r["code"]), {})[r["seed"]] = r
    out = []
    for (name, options, code), runs in by.items():
        base = next((v for (n, _, c), v in by.items() if n == BASE and c == code), {})
        both = [s for s in runs if s in base]
        diffs = [runs[s]["tiles"] - base[s]["tiles"] for s in both]
        out.append(
            dict(
                variant=name,
                options=options,
                code=code,
                seeds=sorted(runs),
                tiles=[runs[s]["tiles"] for s in sorted(runs)],
                mean=sum(r["tiles"] for r in runs.values()) / len(runs),
                deep_nodes=sum(n for r in runs.values() for d, n in r["tail"].items() if int(d) >= 244),
                split=(sum(d > 0 for d in diffs), sum(d == 0 for d in diffs), sum(d < 0 for d in diffs)),
                base_mean=sum(base[s]["tiles"] for s in both) / len(both) if both else None,
            )
        )
    return sorted(out, key=lambda v: (v["code"], v["variant"] != BASE, -v["mean"]))


def report() -> str:
    data = rows()
    lines = [
        "# Depth screen: variants of the depth race's search by node budget",
        "",
        "`python benchmarks/depth_screen.py`: each variant adds its options to the depth race's "
        "search (`edgematch search e2 " + " ".join(DEPTH_SEARCH) + " --jobs 1 --no-record "
        "--node-limit N --seed S`); tiles on the board, the starter included.  Deeper, as deep, "
        "shallower: against `base` (the search as it is) of the same code, seed by seed.",
        "",
    ]
    for nodes in sorted({r["nodes"] for r in data}):
        lines += [
            f"## {nodes:.2g} nodes a search",
            "",
            "| variant | options | code | seeds | tiles | mean | nodes at 244 tiles and beyond "
            "| deeper / as deep / shallower than base | base mean on those seeds |",
            "|---|---|---|---|---|---:|---:|---|---:|",
        ]
        for v in summary(data, nodes):
            seeds = (
                f"{v['seeds'][0]}-{v['seeds'][-1]}"
                if v["seeds"] == list(range(v["seeds"][0], v["seeds"][-1] + 1))
                else ",".join(map(str, v["seeds"]))
            )
            split = "" if v["variant"] == BASE else " / ".join(map(str, v["split"]))
            base_mean = "" if v["base_mean"] is None or v["variant"] == BASE else f"{v['base_mean']:.2f}"
            lines.append(
                f"| {v['variant']} | `{v['options'] or '-'}` | {v['code']} | {seeds} | "
                f"{', '.join(map(str, v['tiles']))} | {v['mean']:.2f} | {v['deep_nodes']:,} | {split} | {base_mean} |"
            )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", type=parse_variant, default=[], metavar="NAME=OPTIONS")
    parser.add_argument("--seeds", type=parse_seeds, default=parse_seeds("1-8"))
    parser.add_argument("--nodes", type=float, default=2e9)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.variant:
        screen(args.variant, args.seeds, int(args.nodes), args.cores)
    if args.report or not args.variant:
        REPORT.write_text(report() + "\n")
        print(REPORT.read_text())


if __name__ == "__main__":
    main()
