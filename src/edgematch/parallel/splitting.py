"""How a search is cut into tasks: deep enough for many more subtrees than workers,
each with an estimate of its size, and how long a task may run before it is cut again.

The estimate of a subtree is the number of its descendants ``PROBE_LEVELS`` levels
further down (a short probe of its own tree: a subtree whose top branches out widely is
usually large), so that the largest go first and the tail is made of small ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engines.base import Subtree
from .job import Job, Task, engine_depth, split_task

#: Subtrees wanted per worker before the run starts (many more than workers, so that
#: large and small ones even out).
SUBTREES_PER_WORKER = 16
#: Levels below each subtree whose nodes are counted as its size estimate.
PROBE_LEVELS = 2
#: A probe that would list more descendants than this is skipped (estimates all 1).
PROBE_CAP = 200_000
#: Levels a task that ran out of budget is cut by.
RESPLIT_LEVELS = 2


def root_task(key: int, variant: int, start: Subtree | None, level: int) -> Task:
    """The task of a whole search (below ``start`` if given)."""
    if start is None:
        return Task(key=key, level=level, tiles=[], rotations=[], variant=variant)
    task = Task.of(key, start, variant)
    task.level = level
    return task


def first_split(job: Job, root: Task, wanted: int) -> tuple[list[Subtree], dict, int]:
    """The shallowest cut of ``root`` with at least ``wanted`` subtrees (or the deepest
    possible): ``(subtrees, outcome of the cut, levels below root)``."""
    depth = engine_depth(job, root.variant)
    levels = 1
    while True:
        subtrees, head = split_task(job, root, levels)
        if len(subtrees) >= wanted or root.level + levels >= depth or not subtrees:
            return subtrees, head, levels
        levels += 1


def estimates(job: Job, root: Task, subtrees: list[Subtree], levels: int) -> list[float]:
    """The number of descendants ``PROBE_LEVELS`` below each subtree (at least 0.5, so a
    subtree that dies at once still sorts below one with a single descendant)."""
    depth = engine_depth(job, root.variant)
    if not subtrees or root.level + levels + PROBE_LEVELS > depth:
        return [1.0] * len(subtrees)
    deeper, _ = split_task(job, root, levels + PROBE_LEVELS)
    if len(deeper) > PROBE_CAP:
        return [1.0] * len(subtrees)
    counts = [0.0] * len(subtrees)
    i = 0
    for child in deeper:  # both lists are in the search's order: one merge walk
        while i < len(subtrees) and not _extends(child, subtrees[i]):
            i += 1
        if i == len(subtrees):
            break
        counts[i] += 1
    return [max(c, 0.5) for c in counts]


def _extends(child: Subtree, parent: Subtree) -> bool:
    if parent.path or child.path:
        return child.path[: len(parent.path)] == parent.path
    placed = parent.tiles >= 0
    return bool(np.array_equal(child.tiles[placed], parent.tiles[placed]))


@dataclass
class BudgetPolicy:
    """Seconds a task may run before it is cut into smaller ones.

    About ``share`` of the work each worker still has (estimated from the pending
    subtrees' sizes and the measured seconds per unit of estimate), between
    ``min_seconds`` and ``max_seconds``: long while much work is left (few cuts, little
    repeated work), short at the end (the tail is shared out).  ``max_seconds`` also bounds
    the work a killed run loses per worker.  Before any task has finished, tasks get
    ``first_seconds``, doubled each time one is cut: on a search whose first subtrees all
    outlast it, a fixed first budget would cut every one of them (and throw its work away)
    before the first small piece finished and measured anything.
    """

    workers: int
    share: float = 0.5
    min_seconds: float = 1.0
    max_seconds: float = 300.0
    first_seconds: float = 10.0

    def __post_init__(self) -> None:
        self.measured_seconds = 0.0
        self.measured_estimate = 0.0

    def record(self, estimate: float, seconds: float) -> None:
        """A task that finished within its budget: its size and time calibrate the estimates."""
        self.measured_seconds += seconds
        self.measured_estimate += estimate

    def cut_unmeasured(self) -> None:
        """A task ran out of its budget before anything was measured: give the next more."""
        if self.measured_estimate <= 0:
            self.first_seconds = min(self.max_seconds, 2 * self.first_seconds)

    def seconds_left(self, pending_estimate: float) -> float | None:
        """Each worker's share of the work still to do, in seconds (None before any measure)."""
        if self.measured_estimate <= 0:
            return None
        return pending_estimate * self.measured_seconds / self.measured_estimate / self.workers

    def seconds(self, pending_estimate: float) -> float:
        left = self.seconds_left(pending_estimate)
        if left is None:
            return self.first_seconds
        return float(min(self.max_seconds, max(self.min_seconds, self.share * left)))
