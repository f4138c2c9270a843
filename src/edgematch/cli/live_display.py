"""The live view of a run on the terminal: score, best score, moves/s and the best board.

Drawn with Rich on standard error (so that ``--json`` output on standard output stays
clean), refreshed a few times a second; the board picture is redrawn only when the best
score changes, because rendering it costs more than a batch of moves.
"""

from __future__ import annotations

import time

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from ..local.tabu import Progress
from ..model import Board
from ..render.terminal import board_renderable

REFRESH_SECONDS = 0.25


class LiveDisplay:
    """A search callback (returns nothing) and a context manager around the Rich Live view."""

    def __init__(self, console: Console | None = None, cell: int = 1):
        self.console = console or Console(stderr=True)
        self.cell = cell
        self.live: Live | None = None
        self.board: Board | None = None
        self.board_score: int | None = None
        self.line = Text("starting ...")
        self.notes: list[str] = []
        self.last_refresh = 0.0

    def note(self, text: str) -> None:
        self.notes.append(text)

    def __enter__(self):
        self.live = Live(self._view(), console=self.console, refresh_per_second=4, transient=False)
        self.live.__enter__()
        return self

    def __exit__(self, *exc):
        if self.live is not None:
            self.live.update(self._view(), refresh=True)
            self.live.__exit__(*exc)
        return False

    def _view(self):
        parts: list[RenderableType] = [Text(n, style="dim") for n in self.notes]
        parts.append(self.line)
        if self.board is not None:
            parts.append(board_renderable(self.board, cell=self.cell))
        return Group(*parts)

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if progress.best_score != self.board_score and (self.board is None or now - self.last_refresh > 1.0):
            self.board = progress.best_board()
            self.board_score = progress.best_score
        self.line = Text.assemble(
            ("score ", "dim"),
            (f"{progress.score}", "bold"),
            ("   best ", "dim"),
            (f"{progress.best_score}/{progress.max_score}", "bold green"),
            ("   moves ", "dim"),
            f"{progress.moves:,}",
            ("   moves/s ", "dim"),
            f"{progress.moves_per_second:,.0f}",
            ("   time ", "dim"),
            f"{progress.seconds:,.1f} s",
        )
        if self.live is not None and now - self.last_refresh >= REFRESH_SECONDS:
            self.live.update(self._view())
            self.last_refresh = now
