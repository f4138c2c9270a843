"""Mutation score per module, from mutmut's result files (see docs/testing.md).

Usage (from the repository root, after ``pip install -e .[dev]``)::

    python benchmarks/mutation_score.py                  # score table of what has been run
    python benchmarks/mutation_score.py --run tiles board   # run those modules first (1 worker)
    python benchmarks/mutation_score.py --survivors board   # list the surviving mutants of a module

Modules are named by their file stem (board, puzzle, tiles, registry, _text, lines, native,
benoist, heule, owen, julia, bucas, e2dev).  Killed = a test failed (or the mutant timed out,
which mutmut also counts as caught); every other status (survived, no tests, not checked)
counts against the score.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

MODULES = {
    "tiles": "edgematch.model.tiles",
    "board": "edgematch.model.board",
    "puzzle": "edgematch.model.puzzle",
    "lines": "edgematch.formats.lines",
    "_text": "edgematch.formats._text",
    "registry": "edgematch.formats.registry",
    "native": "edgematch.formats.native",
    "benoist": "edgematch.formats.benoist",
    "heule": "edgematch.formats.heule",
    "owen": "edgematch.formats.owen",
    "julia": "edgematch.formats.julia",
    "bucas": "edgematch.formats.bucas",
    "e2dev": "edgematch.formats.e2dev",
}
KILLED = {1, 3, 36, -24, 24, 152, 255}  # test failure, pytest internal error, timeout


def results(module: str) -> dict[str, int | None]:
    meta = Path("mutants/src") / (MODULES[module].replace(".", "/") + ".py.meta")
    if not meta.exists():
        return {}
    return json.loads(meta.read_text())["exit_code_by_key"]


def score(module: str) -> tuple[int, int, int]:
    codes = results(module)
    checked = [c for c in codes.values() if c is not None]
    return sum(c in KILLED for c in codes.values()), len(codes), len(checked)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", nargs="*", metavar="MODULE", help="run mutmut on these modules first (all if none named)")
    ap.add_argument("--survivors", metavar="MODULE", help="list the mutants of MODULE that no test kills")
    args = ap.parse_args(argv)
    if args.run is not None:
        for module in args.run or list(MODULES):
            start = time.monotonic()
            subprocess.run(["mutmut", "run", "--max-children", "1", MODULES[module] + ".*"], check=False,
                           stdout=subprocess.DEVNULL)
            print(f"{module}: ran in {time.monotonic() - start:.0f} s", flush=True)
    if args.survivors:
        for name, code in sorted(results(args.survivors).items()):
            if code not in KILLED:
                print(name, code)
        return 0
    print(f"{'module':10} {'killed':>7} {'total':>6} {'score':>7}  (checked)")
    for module in MODULES:
        killed, total, checked = score(module)
        if total:
            print(f"{module:10} {killed:7} {total:6} {100 * killed / total:6.1f}%  ({checked})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
