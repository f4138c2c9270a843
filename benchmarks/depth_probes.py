"""Can a search tell a fertile seed early?  Short probes of Blackwood's method on ``e2``
(JB470's rule, as in score_race.py's depth race), then the most, middling and least fertile
of them run on ten times longer: if a probe's nodes near the bottom of the board foretold the
rest of its search, successive halving over seeds would reach deeper than one search.

Each search is ``BacktrackSolver`` with the depth race's options, one seed, a node budget;
the tree does not depend on time, so two copies may run at once, one per core.  Prints a
line per search and appends it to ``results/depth_probes.jsonl``; ``--report`` summarises
that file (docs/backtracking.md, "Blackwood's method").

    python benchmarks/depth_probes.py probe --nodes 2e8 --first-seed 1000 --count 150
    python benchmarks/depth_probes.py continue --nodes 2e9 --pick 6
    python benchmarks/depth_probes.py --report
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import numpy as np

from edgematch.engines.backtrack.recipe import BLACKWOOD_EXACT_SQUARES, BLACKWOOD_RECIPE

RESULTS = Path(__file__).resolve().parent / "results" / "depth_probes.jsonl"
#: tiles on the board from which nodes are counted (the bottom rows)
TAIL_FROM = 240


#: Blackwood's method as score_race.py's depth race runs it (JB470's rule, no endgame): the
#: default search's recipe on e2, its exact squares, the generated kernel
BLACKWOOD_JB470 = dict(BLACKWOOD_RECIPE, exact_squares=BLACKWOOD_EXACT_SQUARES, kernel="generated")


def search(seed: int, nodes: int) -> dict:
    from edgematch.engines.backtrack.solver import BacktrackSolver
    from edgematch.loading import load

    puzzle = load("e2")
    solver = BacktrackSolver(node_limit=nodes, seed=seed, **BLACKWOOD_JB470)
    started = time.perf_counter()
    result = solver.best(puzzle)
    npd = np.array(result.nodes_per_depth)
    hints = len(puzzle.hints)
    tiles = int(max((d for d, n in enumerate(npd) if n), default=-1) + 1 + hints)
    tail = {str(d + 1 + hints): int(npd[d]) for d in range(len(npd)) if d + 1 + hints >= TAIL_FROM and npd[d]}
    return dict(
        seed=seed,
        nodes=int(result.nodes),
        tiles=tiles,
        seconds=round(time.perf_counter() - started, 2),
        tail=tail,
    )


def fertility(tail: dict) -> float:
    """Nodes at 243 tiles and beyond, each tile deeper weighted tenfold."""
    return sum(int(n) * 10.0 ** (int(d) - 246) for d, n in tail.items() if int(d) >= 243)


def rows() -> list[dict]:
    return [json.loads(line) for line in RESULTS.read_text().splitlines()] if RESULTS.exists() else []


def write(row: dict, kind: str) -> None:
    row = dict(row, kind=kind)
    print(json.dumps(row), flush=True)
    with RESULTS.open("a") as out:
        out.write(json.dumps(row) + "\n")


def chosen(probes: list[dict], pick: int) -> list[int]:
    """The most fertile probe, the next ``pick`` most fertile, ``pick`` from 40 % down the
    ranking, and the first ``pick`` reaching 245 tiles among the least fertile quarter."""
    ranked = sorted(probes, key=lambda r: fertility(r["tail"]), reverse=True)
    top = [r["seed"] for r in ranked[1 : 1 + pick]]
    at = int(len(ranked) * 0.4)
    middle = [r["seed"] for r in ranked[at : at + pick]]
    bottom = [r["seed"] for r in ranked[-(len(ranked) * 4 // 15) :] if r["tiles"] >= 245][:pick]
    return [ranked[0]["seed"], *top, *middle, *bottom]


def report() -> None:
    data = rows()
    probes = {r["seed"]: r for r in data if r["kind"] == "probe"}
    depths = Counter(r["tiles"] for r in probes.values())
    print(f"{len(probes)} probes, tiles: {dict(sorted(depths.items()))}")
    for r in (r for r in data if r["kind"] == "continue"):
        first = probes[r["seed"]]
        later = {d: n - int(first["tail"].get(d, 0)) for d, n in r["tail"].items()}
        deepest = max((int(d) for d, n in later.items() if n > 0), default=0)
        print(
            f"seed {r['seed']}: probe {first['tiles']} tiles, fertility {fertility(first['tail']):.0f}; "
            f"the next {r['nodes'] - first['nodes']:.2g} nodes: {deepest} tiles, fertility {fertility(later):.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", nargs="?", choices=("probe", "continue"))
    parser.add_argument("--nodes", type=float, default=2e8)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--pick", type=int, default=6)
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.step == "probe":
        for seed in range(args.first_seed, args.first_seed + args.count):
            write(search(seed, int(args.nodes)), "probe")
    elif args.step == "continue":
        first, last = args.first_seed, args.first_seed + args.count
        probes = [r for r in rows() if r["kind"] == "probe" and first <= r["seed"] < last]
        for seed in chosen(probes, args.pick):
            write(search(seed, int(args.nodes)), "continue")
    if args.report or args.step is None:
        report()


if __name__ == "__main__":
    main()
