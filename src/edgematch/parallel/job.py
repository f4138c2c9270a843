"""What travels to a worker: a :class:`Job` (the whole search, as plain data) and a
:class:`Task` (one subtree of it), and :func:`run_task`, the function every backend runs.

Everything here is plain data (numbers, strings, lists), so the same task runs in a
worker process on this machine, on a Dask worker elsewhere, or again after a resume from
the run store, and always rebuilds the same engine and the same subtree.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..engines import make_solver
from ..engines.base import Engine, Limits, StopFlag, StopReason, Subtree
from ..engines.kept_boards import KEEP_BOARDS
from ..formats.native import read_puzzle, write_puzzle
from ..model import Board, Puzzle
from ..model.symmetry import symmetry_variants

MODES = ("count", "solve", "search")
#: the best boards a search task returns at most (at least its keep_boards): what the run
#: store can get of one task (a worker's 600 s segment) without filling its memory
TASK_BOARDS = 50_000


@dataclass(frozen=True)
class Job:
    """The search a parallel run divides: ``mode`` (count, solve or search), the engine
    (``solver`` and its constructor ``params``) and the puzzle (native text)."""

    mode: str
    solver: str
    params: dict
    puzzle_text: str
    puzzle_name: str = ""

    @classmethod
    def of(cls, mode: str, engine: Engine, puzzle: Puzzle) -> Job:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        return cls(mode, engine.name, engine.params(), write_puzzle(puzzle), puzzle.name or "")

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def symmetry(self) -> bool:
        return bool(self.params.get("symmetry"))

    @property
    def portfolio(self) -> bool:
        """A seeded best-score search (a seed, restarts or board turns): its workers run
        restarts of it side by side (task ``k``: restart ``k``) instead of subtrees."""
        p = self.params
        turns = p.get("board_turns", [0])
        return self.mode == "search" and (
            p.get("seed") is not None or p.get("restart_nodes") is not None or turns not in ([0], 0)
        )


@dataclass
class Task:
    """One subtree: the partial board (tile and rotation per square, -1 for empty), the
    decisions that reached it (ColorPair), its ``level`` (first depth it searches), the
    symmetry ``variant`` it belongs to, and how it is to be run: at most ``seconds`` or
    ``nodes`` (None: to the end) and at most ``solutions`` solutions (solve)."""

    key: int
    level: int
    tiles: list[int]
    rotations: list[int]
    path: list[list[int]] = field(default_factory=list)
    variant: int = 0
    estimate: float = 1.0
    seconds: float | None = None
    nodes: int | None = None
    solutions: int | None = None
    floor: int = -1  # search: the best score already found elsewhere
    segment: int | None = None  # a portfolio's restart number (its seed and board turn)

    @classmethod
    def of(cls, key: int, subtree: Subtree, variant: int = 0, estimate: float = 1.0) -> Task:
        return cls(
            key=key,
            level=int(subtree.level or 0),
            tiles=[int(t) for t in subtree.tiles],
            rotations=[int(r) for r in subtree.rotations],
            path=[list(p) for p in subtree.path],
            variant=variant,
            estimate=float(estimate),
        )

    def subtree(self, puzzle: Puzzle) -> Subtree | None:
        """The start of this task's search (None: the root, no start board)."""
        if not self.tiles:
            return None
        board = Board(puzzle, np.array(self.tiles, np.int64), np.array(self.rotations, np.int64))
        return Subtree(board, [tuple(p) for p in self.path], level=self.level)

    def start_text(self) -> dict:
        """What the run store keeps of the subtree."""
        text = {"level": self.level, "tiles": self.tiles, "rotations": self.rotations, "path": self.path}
        if self.segment is not None:
            text["segment"] = self.segment
        return text


# ---------------------------------------------------------------------- worker side
_CACHE: dict[str, Any] = {}


def job_parts(job: Job) -> tuple[Engine, Puzzle, list[Puzzle]]:
    """The engine (without symmetry: variants are run as puzzles of their own), the puzzle
    and its symmetry variants, built once per worker process and job."""
    key = repr((job.solver, sorted(job.params.items()), job.puzzle_text))
    if _CACHE.get("key") != key:
        puzzle = read_puzzle(job.puzzle_text, job.puzzle_name or "<job>")
        params = dict(job.params)
        variants = symmetry_variants(puzzle) if params.get("symmetry") else [puzzle]
        if "symmetry" in params:
            params["symmetry"] = False
        if "keep_boards" in params or job.solver == "backtrack":  # (a run stored before the option)
            keep = params.get("keep_boards", KEEP_BOARDS)  # a task returns its boards for the run store
            params["keep_boards"] = None if keep is None else max(int(keep), TASK_BOARDS)
        _CACHE.clear()
        _CACHE.update(key=key, engine=make_solver(job.solver, **params), puzzle=puzzle, variants=variants)
    return _CACHE["engine"], _CACHE["puzzle"], _CACHE["variants"]


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def run_task(
    job: Job,
    task: Task,
    stop: StopFlag | None = None,
    floor: Callable[[], int] | None = None,
) -> dict:
    """Search one subtree and return its outcome as plain data.

    ``complete`` is True when the subtree was searched to the end (its counts are final);
    otherwise ``stopped_by`` says why (``time``: its budget ran out, and the coordinator
    cuts it into smaller subtrees).  Nodes that re-place the subtree's own prefix (the
    macro engine searches its start as hints) are taken out, so the counts of the parts
    add up to the whole search's.
    """
    engine, puzzle, variants = job_parts(job)
    searched = variants[task.variant]
    start = task.subtree(searched)
    engine.stop = stop
    engine.progress = None
    limits = Limits(time=task.seconds, nodes=task.nodes)
    started = time.perf_counter()
    if job.mode == "count":
        result = engine.count(searched, start=start, limits=limits)
    elif job.mode == "solve":
        result = engine.solve(searched, k=task.solutions, start=start, limits=limits)
    else:
        engine.shared_best = floor if floor is not None else (lambda: task.floor)  # type: ignore[attr-defined]
        if task.segment is None:
            result = engine.best(searched, start=start, limits=limits)
        else:
            result = engine.best(searched, start=start, limits=limits, segment=task.segment)  # type: ignore[call-arg]
    return outcome_of(task.key, result, task.level, started)


#: the statistics that say when a search first reached each value (see SliceDriver.timeline)
REACHED = ("deepest_at", "best_score_at")


def outcome_of(key: int | None, result, level: int, started: float, cut: bool = False) -> dict[str, Any]:
    """A search's result as plain data, without the nodes that re-placed the subtree's own
    prefix (depths below ``level``); ``cut``: the result of a split (complete, and its
    engine statistics left out, so that they are not added to the searches')."""
    npd = [int(v) for v in result.nodes_per_depth]
    replayed = sum(npd[:level])
    npd[:level] = [0] * min(level, len(npd))
    complete = cut or bool(result.complete)
    statistics = {} if cut else result.statistics
    return {
        "key": key,
        "complete": complete,
        "stopped_by": None if complete else str(result.stopped_by or StopReason.INTERRUPTED),
        "solutions": int(result.solutions),
        "nodes": int(result.nodes) - replayed,
        "nodes_per_depth": npd,
        "seconds": time.perf_counter() - started,
        "worker": worker_name(),
        "boards": [b.packed() for b in result.boards],
        "board_scores": [int(b.score()) for b in result.boards],
        "best_score": None if cut else result.best_score,
        "best_board": None if cut or result.best_board is None else _codes(result.best_board),
        "rotations": result.rotations,
        "statistics": {k: v for k, v in statistics.items() if isinstance(v, (int, float, str, bool)) or _counts(v)},
        # when the task first reached each deepest depth and best score, on its own clock
        "reached": {k: result.statistics[k] for k in REACHED if k in result.statistics},
        # how long that clock ran: the search itself, without the set-up before it
        "search_seconds": float(result.seconds),
    }


def _counts(value) -> bool:
    """Whether a statistic is a table of counts (``boards_by_score``), summed per key."""
    return isinstance(value, dict) and all(isinstance(v, int) for v in value.values())


def _codes(board: Board) -> list[list[int]]:
    return [[int(t) for t in board.tiles], [int(r) for r in board.rotations]]


def board_of(puzzle: Puzzle, codes) -> Board:
    """A board sent or stored as :meth:`.Board.packed` bytes, or as lists of tiles and
    rotations (a best board; saved boards before they were packed)."""
    if isinstance(codes, (bytes, bytearray, memoryview)):
        return Board.from_packed(puzzle, bytes(codes))
    tiles, rotations = codes
    return Board(puzzle, np.array(tiles, np.int64), np.array(rotations, np.int64))


def split_task(job: Job, task: Task | None, levels: int, variant: int = 0) -> tuple[list[Subtree], dict]:
    """The subtrees ``levels`` below ``task`` (the root of ``variant`` when None), and the
    outcome of the cut itself (its nodes and any solutions above it), in
    :func:`run_task`'s form."""
    engine, puzzle, variants = job_parts(job)
    if task is not None:
        variant = task.variant
    searched = variants[variant]
    start = None if task is None else task.subtree(searched)
    engine.stop = None
    engine.progress = None
    started = time.perf_counter()
    subtrees, head = engine.split_below(searched, levels, start)
    level = 0 if task is None else task.level
    return subtrees, outcome_of(None if task is None else task.key, head, level, started, cut=True)


def engine_depth(job: Job, variant: int = 0) -> int:
    engine, _, variants = job_parts(job)
    return engine.depth(variants[variant])
