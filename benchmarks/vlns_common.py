"""Shared helpers of the VLNS benchmarks: timed runs, curves on a time grid, plots, reports.

The plots need matplotlib (``pip install -e .[bench]``); without it the scripts still
run and write their JSON and Markdown results, and say that the PNG was skipped.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from machine_info import machine  # noqa: F401  (re-exported for the VLNS scripts)

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
