"""One entry point for the starting boards of a local search run: ``random``, ``cp``
(the relaxed problem of section 5, :mod:`.relaxed`) and ``backtrack`` (the backtracking
engine's best-score search under a schedule of allowed invalid joins, its deepest/best
board completed at random)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..errors import InputError
from ..model import Board, Puzzle
from .starts import complete_randomly, random_start

START_KINDS = ("random", "cp", "backtrack")
DEFAULT_RELAX = 0
DEFAULT_START_SECONDS = 30.0
#: the CP start restarts its depth-first search in a new random order every this many nodes
#: (about 3 s on e2) and keeps the deepest board of all: deeper boards more reliably
DFS_RESTART_NODES = 20_000_000


def default_schedule(puzzle: Puzzle) -> str:
    """Invalid joins allowed by the backtracking start: none for the first 60 % of the
    squares, then one more every 4 % of the board (a Blackwood-style break schedule)."""
    n = puzzle.n_squares
    breaks = sorted({max(1, int(n * f / 100)) for f in range(60, 100, 4)})
    return "breaks:" + ",".join(str(b) for b in breaks)


def backtrack_start(
    puzzle: Puzzle,
    time_limit: float = DEFAULT_START_SECONDS,
    seed: int | None = None,
    schedule: str | None = None,
    node_limit: int | None = None,
    stop=None,
) -> tuple[Board, dict]:
    """The best board of the backtracker's best-score search, completed at random.

    ``stop`` (a :class:`~edgematch.engines.base.StopFlag`) ends the search early; its best
    board so far is completed as after a time-out."""
    try:
        from ..engines.backtrack.solver import BacktrackSolver
    except ImportError as exc:  # pragma: no cover - the engine is part of the package
        raise InputError(f"the backtracking engine is not available ({exc})") from None
    schedule = schedule or default_schedule(puzzle)
    started = time.perf_counter()
    solver = BacktrackSolver(
        order="rowscan", time_limit=time_limit, node_limit=node_limit, schedule=schedule, seed=seed
    )
    solver.stop = stop
    result = solver.best(puzzle)
    board = result.best_board if result.best_board is not None else Board.from_hints(puzzle)
    info = {
        "kind": "backtrack",
        "schedule": schedule,
        "engine_score": int(board.score()),
        "placed": int(board.n_placed),
        "nodes": int(result.nodes),
        "seconds": round(time.perf_counter() - started, 3),
        "status": str(result.stopped_by or "exhausted"),
    }
    completed = complete_randomly(board, np.random.default_rng(seed))
    info["score"] = completed.score()
    return completed, info


def build_start(
    puzzle: Puzzle,
    kind: str,
    *,
    seed: int | None = None,
    relax: int | None = None,
    time_limit: float | None = None,
    schedule: str | None = None,
    engine: str = "dfs",
    node_limit: int | None = None,
    stop=None,
) -> tuple[Board, dict]:
    """(start board, facts about how it was made) for ``kind`` in :data:`START_KINDS`.

    The cp and backtrack starts search for ``time_limit`` seconds (default 30) and at most
    ``node_limit`` nodes; ``stop`` (a :class:`~edgematch.engines.base.StopFlag`) ends them
    early, with their deepest / best board so far completed at random."""
    if kind not in START_KINDS:
        raise InputError(f"unknown start '{kind}' (known: {', '.join(START_KINDS)})")
    if time_limit is not None and time_limit <= 0:
        raise InputError("the start's time limit must be positive")
    if node_limit is not None and node_limit < 1:
        raise InputError("the start's node limit must be at least 1")
    seq = np.random.SeedSequence(seed).spawn(3)[2]  # independent of the search's own streams
    rng = np.random.default_rng(seq)
    if kind == "random":
        board = random_start(puzzle, rng)
        return board, {"kind": "random", "score": board.score()}
    if kind == "cp":
        from .relaxed import relaxed_cp_start

        start = relaxed_cp_start(
            puzzle,
            DEFAULT_RELAX if relax is None else relax,
            time_limit or DEFAULT_START_SECONDS,
            rng,
            engine=engine,
            node_limit=node_limit,
            restart_nodes=DFS_RESTART_NODES,
            stop=stop,
        )
        return start.board, start.to_dict()
    return backtrack_start(
        puzzle, time_limit or DEFAULT_START_SECONDS, int(rng.integers(0, 2**31 - 1)), schedule, node_limit, stop
    )


def restart_builder(
    kind: str,
    seed: int | None,
    *,
    relax: int | None = None,
    time_limit: float | None = None,
    schedule: str | None = None,
    node_limit: int | None = None,
) -> Callable[[Puzzle, int], Board]:
    """The ``restart`` callable of :meth:`TabuVLNS.optimize`: segment ``s`` of a run starts from
    ``build_start(kind)`` with a seed drawn from (seed, s), so a resumed run rebuilds the same
    boards."""

    def build(puzzle: Puzzle, segment: int) -> Board:
        derived = int(np.random.SeedSequence([0 if seed is None else int(seed), int(segment)]).generate_state(1)[0])
        board, _ = build_start(
            puzzle, kind, seed=derived, relax=relax, time_limit=time_limit, schedule=schedule, node_limit=node_limit
        )
        return board

    return build
