"""The boards a long search keeps in memory: the best ``limit`` of them.

A best-score search saves every complete board at or above a threshold; over a week
that is hundreds of thousands of boards.  The run store keeps every one of them on disk
(:mod:`edgematch.runs.subtrees`); what a run holds in memory, and returns, is only the
best ``limit``, so that its memory does not grow with its length.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any

#: boards a best-score search keeps in memory and returns (``keep_boards``) by default
KEEP_BOARDS = 1000


class BestBoards:
    """The best ``limit`` items by score (None: all of them), best first and, among equal
    scores, in the order they came (solutions of a solve run all score the same)."""

    def __init__(self, limit: int | None = None):
        if limit is not None and int(limit) < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        self.limit = None if limit is None else int(limit)
        self._heap: list[tuple[int, int, Any]] = []  # (score, -arrival, item): the worst on top
        self._arrived = 0

    def add(self, score: int, item: Any) -> None:
        self.offer(score, lambda: item)

    def offer(self, score: int, make: Callable[[], Any]) -> bool:
        """Keep ``make()`` when ``score`` makes the cut (``make`` is called only then, so
        that a board that would be dropped at once is never built); True if kept."""
        score = int(score)
        full = self.limit is not None and len(self._heap) >= self.limit
        if full and (not self.limit or score <= self._heap[0][0]):  # later among equals: dropped
            return False
        entry = (score, -self._arrived, make())
        self._arrived += 1
        if full:
            heapq.heapreplace(self._heap, entry)
        else:
            heapq.heappush(self._heap, entry)
        return True

    def extend(self, scores: Iterable[int], items: Iterable[Any]) -> None:
        for score, item in zip(scores, items):
            self.add(score, item)

    def entries(self) -> list[tuple[int, Any]]:
        """The kept ``(score, item)`` pairs, best first."""
        return [(score, item) for score, _, item in sorted(self._heap, key=lambda e: (-e[0], -e[1]))]

    def items(self) -> list[Any]:
        """The kept items, best first."""
        return [item for _, item in self.entries()]

    def __len__(self) -> int:
        return len(self._heap)
