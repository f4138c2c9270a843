"""How long a first ColorPair count waits for Numba, and what it compiles.

Each run is a fresh process with ``NUMBA_CACHE_DIR`` pointed at an empty folder, so the
kernels compile as on a user's first ``edgematch count --solver colorpair``.  It counts a
small puzzle (4x4, ``generate(4, 4, 2, 3, seed=1)``) and prints the seconds of that count,
which are nearly all compile, then every kernel function compiled for more than one
signature: each extra signature is the function and everything it calls compiled again.
Rows are appended to ``results/colorpair_compile.md``.

    python benchmarks/colorpair_compile.py --runs 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.machine_info import code_version, load_average, machine  # noqa: E402

RESULTS = HERE / "results" / "colorpair_compile.md"

#: run in the child, whose Numba cache folder is empty
CHILD = """
import json, time
from edgematch.engines.colorpair import ColorPairSolver
from edgematch.engines.colorpair import filtering, search
from edgematch.generator import generate

puzzle = generate(4, 4, 2, 3, seed=1).puzzle
start = time.perf_counter()
result = ColorPairSolver().count(puzzle)
seconds = time.perf_counter() - start
repeated = {}
for module in (filtering, search):
    for name, value in vars(module).items():
        signatures = getattr(value, "signatures", None)
        if signatures and getattr(value, "__module__", "") == module.__name__ and len(signatures) > 1:
            repeated[name] = [str(s) for s in signatures]
print(json.dumps({"seconds": seconds, "solutions": result.solutions, "repeated": repeated}))
"""


def one_run(child: str = CHILD) -> dict:
    """One count in a fresh process with an empty Numba cache; a child that fails ends the
    benchmark with one line naming its status and its last line of error, not a traceback."""
    with tempfile.TemporaryDirectory(prefix="colorpair-compile-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no error output"])[-1]
        raise SystemExit(f"colorpair_compile.py: the count's process failed (status {done.returncode}): {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="fresh processes, one after the other (default 2)")
    args = parser.parse_args(argv)
    runs = []
    for _ in range(args.runs):
        run = one_run()
        runs.append(run)
        print(f"first count {run['seconds']:.1f} s, {run['solutions']} solutions")
        for name, signatures in sorted(run["repeated"].items()):
            print(f"  {name}: {len(signatures)} signatures: " + "; ".join(signatures))
    seconds = ", ".join(f"{r['seconds']:.1f}" for r in runs)
    repeated = ", ".join(f"{name} {len(s)}" for name, s in sorted(runs[-1]["repeated"].items())) or "none"
    new = not RESULTS.exists()
    with RESULTS.open("a") as out:
        if new:
            out.write(
                "# ColorPair kernels: a first count from an empty Numba cache\n\n"
                "`python benchmarks/colorpair_compile.py` (module docstring). Seconds of the first count\n"
                "of a 4x4 puzzle in fresh processes, nearly all of it compile; functions compiled for more\n"
                "than one signature (each extra one compiles the function and its callees again).\n\n"
                "| date | code | machine | load | seconds | compiled more than once |\n|---|---|---|---:|---|---|\n"
            )
        out.write(
            f"| {date.today()} | {code_version()} | {machine()} | {load_average():.2f} | {seconds} | {repeated} |\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
