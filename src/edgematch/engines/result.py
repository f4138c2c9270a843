"""What every engine returns: :class:`SearchResult`.

One result type for all engines (backtracking, CP-SAT, ...) so that scripts, the command
line and the cross-checking tests read counts and boards the same way whichever engine
produced them.  Counts are Python integers: engines sum their per-call machine integers
into them, so they never overflow however long a run lasts.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model import Board
from ..model.tiles import canonical_rotation


@dataclass
class SearchResult:
    """The outcome of a count, a solve or a best-score search.

    ``complete`` is True only when the whole search space was explored, so that
    ``solutions`` is the exact count (count mode) or ``best_score`` the optimum under the
    given restrictions (best mode).  Otherwise ``stopped_by`` names what ended the run:
    ``"time"``, ``"nodes"``, ``"solutions"`` (k found), ``"target"`` (target score
    reached), ``"interrupted"`` (Ctrl-C) or ``"restarts"``.
    """

    solutions: int = 0
    nodes: int = 0
    nodes_per_depth: list[int] = field(default_factory=list)
    seconds: float = 0.0
    complete: bool = False
    stopped_by: str | None = None
    best_score: int | None = None
    best_board: Board | None = None
    boards: list[Board] = field(default_factory=list)
    statistics: dict[str, Any] = field(default_factory=dict)
    solver: str = ""
    #: how rotations of symmetric tiles were counted: ``"distinct"`` (once per look) or
    #: ``"each"`` (every rotation its own placement, ``each_rotation=True``)
    rotations: str = "distinct"

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def deepest(self) -> int:
        """The deepest search depth reached (1-based: number of tiles the search placed)."""
        return deepest_of(self.nodes_per_depth)

    def solution_set(self) -> set[tuple[tuple[int, int], ...]]:
        """The collected boards as a set of tuples of ``(tile, rotation)`` per square.

        Rotations are normalised to the smallest rotation showing the same edges, so that
        two engines that try a symmetric tile in different rotations agree; a result
        counted with every rotation (``rotations == "each"``) keeps them as found, since
        its solutions differ by exactly those rotations.
        """
        each = self.rotations == "each"
        return {board_key(board, each_rotation=each) for board in self.boards}

    def to_dict(self, include_boards: bool = False) -> dict[str, Any]:
        """Plain data for JSON output (``--json``)."""
        data: dict[str, Any] = {
            "solver": self.solver,
            "solutions": self.solutions,
            "nodes": self.nodes,
            "nodes_per_depth": list(self.nodes_per_depth),
            "seconds": round(self.seconds, 6),
            "nodes_per_second": round(self.nodes_per_second, 1),
            "complete": self.complete,
            "stopped_by": self.stopped_by,
            "deepest": self.deepest,
            "rotations": self.rotations,
        }
        if self.best_score is not None:
            data["best_score"] = self.best_score
        if self.best_board is not None:
            data["best_board"] = board_data(self.best_board)
        if include_boards:
            data["boards"] = [board_data(b) for b in self.boards]
        data["statistics"] = self.statistics
        return data


def add_nodes_per_depth(nodes_per_depth: list[int], npd: np.ndarray) -> None:
    """Add a kernel call's nodes per depth (``npd``, no longer than the list) to a result's
    list: the span of depths with nodes in one step, as Python integers (a search calls
    this between slices, thousands of times a minute)."""
    placed = np.flatnonzero(npd)
    if len(placed):
        lo, hi = int(placed[0]), int(placed[-1]) + 1
        nodes_per_depth[lo:hi] = map(operator.add, nodes_per_depth[lo:hi], npd[lo:hi].tolist())


def deepest_of(nodes_per_depth) -> int:
    """The deepest depth with a node (1-based), 0 for none."""
    for depth in range(len(nodes_per_depth), 0, -1):
        if nodes_per_depth[depth - 1]:
            return depth
    return 0


def board_key(board: Board, each_rotation: bool = False) -> tuple[tuple[int, int], ...]:
    """``(tile, rotation)`` per square with rotations normalised for symmetric tiles
    (kept as they are with ``each_rotation``, where they are different solutions).

    Empty squares are ``(-1, 0)``.
    """
    tiles = board.puzzle.tiles
    key = []
    for tile, rotation in zip(board.tiles.tolist(), board.rotations.tolist()):
        if tile < 0:
            key.append((-1, 0))
            continue
        key.append((tile, rotation if each_rotation else canonical_rotation(tiles[tile], rotation)))
    return tuple(key)


def board_data(board: Board) -> dict[str, Any]:
    """Tile numbers as users see them (1-based, 0 = empty square), row by row from A1."""
    return {
        "tiles": [int(t) + 1 for t in board.tiles],
        "rotations": [int(r) for r in board.rotations],
        "score": board.score(),
    }


#: statistics of the task that found the best board (how to search it again), never summed
BEST_STATISTICS = ("best_seed", "best_turn", "best_restart")
#: numeric statistics that describe the search (the same in every task), never summed
DESCRIPTIONS = ("target", "endgame_squares", "good_group", "save_boards")
#: statistics that are a best value over the tasks, never summed
MAXIMA = ("endgame_best",)
#: statistics that are the earliest over the tasks (each from its own task's start), never summed
MINIMA = ("generated_kernel_from_seconds",)


def add_statistics(into: dict, statistics: dict, best: bool = False) -> None:
    """Add one task's engine statistics to a run's: numbers summed, tables of counts summed
    per key, descriptions kept as they are; the best board's own statistics (how to find
    it again) are taken only from the task that holds the run's best board (``best``)."""
    for name, value in statistics.items():
        if name in BEST_STATISTICS:
            if best:
                into[name] = value
            continue
        if isinstance(value, dict):  # counts per key (complete boards per score)
            table = into.setdefault(name, {})
            for key, count in value.items():
                table[key] = table.get(key, 0) + int(count)
        elif name in MAXIMA:
            into[name] = max(into.get(name, value), value)
        elif name in MINIMA:
            into[name] = min(into.get(name, value), value)
        elif name in DESCRIPTIONS or isinstance(value, bool) or not isinstance(value, (int, float)):
            into.setdefault(name, value)  # a description: the same in every task
        else:
            into[name] = into.get(name, 0) + value
