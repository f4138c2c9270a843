"""A live one-line progress display for long searches (Rich, on standard error).

Engines call ``progress(stats)`` every half second or so; :class:`ProgressLine` turns
that into one line that redraws in place: nodes, nodes/s, deepest depth, solutions and
best score.  Nothing is shown during the first second (short runs stay quiet) or when
standard error is not a terminal (logs and pipes stay clean).
"""

from __future__ import annotations

import time

from rich.console import Console, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text


def human(n: float) -> str:
    """1234567 -> '1.23M'."""
    for unit, size in (("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.2f}{unit}"
    return f"{n:.0f}"


def describe(stats: dict) -> str:
    parts = [
        f"{stats.get('seconds', 0.0):7.1f}s",
        f"nodes {human(stats.get('nodes', 0))}",
        f"{human(stats.get('nodes_per_second', 0.0))}/s",
        f"deepest {stats.get('deepest', 0)}",
        f"solutions {stats.get('solutions', 0):,}",
    ]
    best = stats.get("best_score")
    if best is not None and best >= 0:
        parts.append(f"best score {best}")
    if "subtrees_total" in stats:  # a parallel run
        parts.append(f"subtrees {stats['subtrees_done']:,}/{stats['subtrees_total']:,}")
        eta = stats.get("eta_seconds")
        parts.append("left ?" if eta is None else f"left ~{duration(eta)}")
    return "  ".join(parts)


def duration(seconds: float) -> str:
    """3725 -> '1h02m', 95 -> '1m35s', 7 -> '7s'."""
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


def renderable(stats: dict) -> RenderableType:
    """The progress line; a parallel run gets a bar of its subtrees (done / total) in front."""
    text = Text(describe(stats))
    total = stats.get("subtrees_total")
    if not total:
        return text
    grid = Table.grid(padding=(0, 1))
    grid.add_row(ProgressBar(total=total, completed=stats.get("subtrees_done", 0), width=24), text)
    return grid


class ProgressLine:
    """Context manager; pass the instance as an engine's ``progress`` callback."""

    def __init__(self, enabled: bool = True, delay: float = 1.0):
        self.console = Console(stderr=True)
        self.enabled = enabled and self.console.is_terminal
        self.delay = delay
        self.started = time.perf_counter()
        self.live: Live | None = None

    def __enter__(self) -> ProgressLine:
        self.started = time.perf_counter()
        return self

    def __call__(self, stats: dict) -> None:
        if not self.enabled or time.perf_counter() - self.started < self.delay:
            return
        text = renderable(stats)
        if self.live is None:
            self.live = Live(text, console=self.console, transient=True, auto_refresh=False)
            self.live.start()
        self.live.update(text, refresh=True)

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
