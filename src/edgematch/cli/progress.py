"""A live one-line progress display for long searches (Rich, on standard error).

Engines call ``progress(stats)`` every half second or so; :class:`ProgressLine` turns
that into one line that redraws in place: nodes, nodes/s, deepest depth, solutions and
best score.  Nothing is shown during the first second (short runs stay quiet) or when
standard error is not a terminal (logs and pipes stay clean).
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.live import Live
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
    return "  ".join(parts)


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
        text = Text(describe(stats))
        if self.live is None:
            self.live = Live(text, console=self.console, transient=True, auto_refresh=False)
            self.live.start()
        self.live.update(text, refresh=True)

    def __exit__(self, *exc) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None
