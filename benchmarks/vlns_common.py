"""Shared helpers of the VLNS benchmarks: timed runs, curves on a time grid, plots, reports.

The plots need matplotlib (``pip install -e .[bench]``); without it the scripts still
run and write their JSON and Markdown results, and say that the PNG was skipped.

The scripts write their results once every run has finished (:func:`map_runs`): a run
interrupted by Ctrl-C or SIGTERM is never a result, and results on fewer runs than asked
for would stand for the whole experiment.  An interrupted script writes nothing and exits
with status 130 (143 after SIGTERM); see :func:`main_exit`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from benchmarks.interrupts import interrupting_signals, say_interrupted
from benchmarks.machine_info import machine  # noqa: F401  (re-exported for the VLNS scripts)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def warm_up(puzzle) -> None:
    """Compile the kernels before timing anything (Numba caches them afterwards)."""
    from edgematch.local import TabuVLNS

    TabuVLNS(seed=0).optimize(puzzle, max_moves=50)


def step_curve(points: list[tuple[float, int]], grid: np.ndarray) -> np.ndarray:
    """The value of a step function (sorted (time, value) points) at every grid time."""
    times = np.array([p[0] for p in points])
    values = np.array([p[1] for p in points], dtype=float)
    idx = np.searchsorted(times, grid, side="right") - 1
    return np.where(idx >= 0, values[np.clip(idx, 0, None)], np.nan)


def save_json(name: str, data) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=1))
    return path


def pyplot():
    """matplotlib.pyplot with a non-interactive backend, or None when not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install -e .[bench]): no PNG written", file=sys.stderr)
        return None
    return plt


def write_report(name: str, text: str) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(text)
    return path


def stamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def map_runs(run: Callable, tasks: Sequence, jobs: int = 1, show: Callable | None = None) -> list:
    """``[run(task) for task in tasks]``, ``jobs`` processes at a time, calling ``show(task,
    outcome)`` as each one ends (in order).  On Ctrl-C or SIGTERM the interruption goes on up
    (no partial list comes back), the runs not started are dropped and the workers are
    sent SIGTERM, so that the script stops at once."""
    if jobs <= 1:
        outcomes = []
        for task in tasks:
            outcomes.append(run(task))
            if show is not None:
                show(task, outcomes[-1])
        return outcomes
    pool = ProcessPoolExecutor(jobs)
    try:
        outcomes = []
        for task, outcome in zip(tasks, pool.map(run, tasks)):
            outcomes.append(outcome)
            if show is not None:
                show(task, outcome)
    except BaseException:
        workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way to reach them
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        raise
    pool.shutdown()
    return outcomes


def main_exit(main: Callable[[], int]) -> int:
    """``main()``, or after Ctrl-C or SIGTERM (which interrupts like Ctrl-C here) a line
    saying that nothing was written, and the shell's status: 130, or 143 after SIGTERM."""
    with interrupting_signals() as signals:
        try:
            return main()
        except KeyboardInterrupt as error:
            say_interrupted(error, "nothing written: results are written once every run has finished")
            return signals.exit_status()
