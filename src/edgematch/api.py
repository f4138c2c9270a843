"""The Python front door: one call per job, as the command line does it.

Each function takes a :class:`~edgematch.model.Puzzle`, a bundled name (``"e2"``,
``"owen1-6x6"``) or a file path, and returns plain results (a
:class:`~edgematch.engines.result.SearchResult`, an
:class:`~edgematch.estimator.Estimate`, a :class:`~edgematch.generator.Generated`)::

    import edgematch
    edgematch.count("owen1-5x5").solutions                 # 16
    edgematch.solve("owen1-5x5", k=2).boards               # two solution Boards
    edgematch.count("owen1-5x5", solver="colorpair", time_limit=60)
    edgematch.search("owen1-8x8", schedule="breaks:40,50,55", time_limit=5).best_score
    edgematch.estimate("e2", order="rowscan", corner="BL", hints="pooled").solutions
    edgematch.optimize("owen1-6x6", moves=2000, seed=1).best_score   # a recorded run

Engine options (``order=``, ``shaving=``, ...) pass through to the engine's constructor,
so the same names work here, on the engine classes and (spelled with dashes) on the
command line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .engines import make_solver
from .engines.base import Limits
from .engines.result import SearchResult
from .errors import InputError
from .loading import load
from .model import Board, Puzzle

if TYPE_CHECKING:
    from .runs.optimize import OptimizeResult

PuzzleLike = Puzzle | str | os.PathLike


def as_puzzle(puzzle: PuzzleLike) -> Puzzle:
    """A Puzzle as given, or loaded from a bundled name or a file."""
    return puzzle if isinstance(puzzle, Puzzle) else load(puzzle)


def _engine(solver: str, time_limit, node_limit, limits: Limits | None, options: dict):
    return make_solver(solver, limits=Limits.of(limits, time_limit=time_limit, node_limit=node_limit), **options)


def count(
    puzzle: PuzzleLike,
    solver: str = "backtrack",
    *,
    start: Board | None = None,
    time_limit=None,
    node_limit=None,
    limits: Limits | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    db: str | os.PathLike | None = None,
    **options: Any,
) -> SearchResult:
    """The exact number of solutions (``result.complete`` says whether a limit cut it short).

    ``jobs`` worker processes (default: ``$EDGEMATCH_JOBS``, else every core; 1: this
    process) or the Dask scheduler at ``cluster``; ``db``: record the run there, so that
    :func:`resume` can finish it (docs/parallel.md)."""
    engine = _engine(solver, time_limit, node_limit, limits, options)
    return _run("count", engine, as_puzzle(puzzle), start, jobs, cluster, db, lambda p: engine.count(p, start=start))


def solve(
    puzzle: PuzzleLike,
    k: int | None = 1,
    solver: str = "backtrack",
    *,
    start: Board | None = None,
    callback: Callable[[Board], Any] | None = None,
    time_limit=None,
    node_limit=None,
    limits: Limits | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    db: str | os.PathLike | None = None,
    **options: Any,
) -> SearchResult:
    """The first ``k`` solutions (``k=None``: all) in ``result.boards`` (on several workers:
    ``k`` solutions, not necessarily the first in the serial order)."""
    engine = _engine(solver, time_limit, node_limit, limits, options)
    return _run(
        "solve",
        engine,
        as_puzzle(puzzle),
        start,
        jobs,
        cluster,
        db,
        lambda p: engine.solve(p, k=k, start=start, callback=callback),
        k=k,
        callback=callback,
    )


def search(
    puzzle: PuzzleLike,
    schedule=None,
    *,
    start: Board | None = None,
    callback: Callable[[Board, int], Any] | None = None,
    time_limit=None,
    node_limit=None,
    limits: Limits | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    db: str | os.PathLike | None = None,
    recipe: bool = True,
    **options: Any,
) -> SearchResult:
    """The best score the backtracker reaches when ``schedule`` allows some invalid joins
    (``result.best_score``, ``result.best_board``), as ``edgematch search`` does; on several
    workers each digs its own subtree and they share the best score.

    ``recipe``: fill in the options left out as ``edgematch search`` does
    (:func:`~edgematch.engines.backtrack.recipe.default_search_options`: on boards of 100
    squares or more a schedule, an order, the endgame and the polish); False: the engine's
    own defaults (a row scan, no invalid joins)."""
    loaded = as_puzzle(puzzle)
    options = dict(options, schedule=schedule)
    if recipe:
        from .engines.backtrack.recipe import default_search_options

        options = default_search_options(loaded, options)
    engine = _engine("backtrack", time_limit, node_limit, limits, options)
    return _run(
        "search",
        engine,
        loaded,
        start,
        jobs,
        cluster,
        db,
        lambda p: engine.best(p, start=start, callback=callback),
    )


def resume(run_id: int, db: str | os.PathLike | None = None, *, jobs: int | None = None, cluster: str | None = None):
    """Finish recorded count, solve or search run ``run_id`` of the run store ``db``
    (default: the command line's): its finished subtrees are taken as recorded."""
    from .parallel import resume_search
    from .runs import RunStore

    with RunStore(db) as store:
        return resume_search(run_id, store, jobs=_jobs(jobs), cluster=cluster)[1]


def _jobs(jobs: int | None) -> int:
    if jobs is not None:
        if isinstance(jobs, bool) or int(jobs) != jobs or jobs < 1:
            raise InputError(f"jobs must be a whole number >= 1, not {jobs!r}")
        return int(jobs)
    from .parallel import default_jobs

    return default_jobs()


def _run(mode, engine, puzzle, start, jobs, cluster, db, serial, **extra) -> SearchResult:
    """The engine's own call, or the same search on many workers."""
    from .parallel.run import goes_parallel, parallel_search

    workers = _jobs(jobs)
    asked = jobs is not None or cluster is not None or db is not None
    if not goes_parallel(engine, workers, cluster, db is not None, asked):
        return serial(puzzle)
    from .runs import RunStore

    store = RunStore(db) if db is not None else None
    try:
        return parallel_search(mode, engine, puzzle, start=start, jobs=workers, cluster=cluster, store=store, **extra)
    finally:
        if store is not None:
            store.close()


def estimate(puzzle: PuzzleLike, order="rowscan", **options: Any):
    """Brendan Owen's expected numbers of solutions and nodes for a scan order
    (see :func:`edgematch.estimator.estimate` for the options)."""
    from .estimator import estimate as owen_estimate

    return owen_estimate(as_puzzle(puzzle), order, **options)


def generate(width: int, height: int | None = None, **options: Any):
    """A random puzzle with a planted solution (``.puzzle``, ``.solution``); see
    :func:`edgematch.generator.generate` for the options."""
    from .generator import generate as make

    return make(width, height, **options)


def optimize(
    puzzle: PuzzleLike,
    *,
    time_limit=None,
    moves: int | None = None,
    target: int | None = None,
    start: Board | str | os.PathLike | None = None,
    start_method: str = "cp",
    seed: int | None = None,
    db: str | os.PathLike | None = None,
    store: bool = True,
    limits: Limits | None = None,
    start_seconds: float | None = None,
    relax: int | None = None,
    schedule: str | None = None,
    progress: Callable | None = None,
    stop=None,
    handle_signals: bool = True,
    jobs: int | None = None,
    share_after: int | None = None,
    **params: Any,
) -> OptimizeResult:
    """Maximise the score by tabu search, as ``edgematch optimize`` does: a start phase
    (``start`` board, or one built by ``start_method``: ``cp``, ``random``, ``backtrack``),
    then the search until ``time_limit`` seconds (start included), ``moves`` moves or the
    ``target`` score; recorded in the run database ``db`` (default: the one the command line
    uses; ``store=False``: none).  ``params`` are the tabu search's parameters
    (``set_size=8``, ``restart_after=5000``, see :class:`edgematch.local.TabuParams`).
    ``jobs`` > 1: a portfolio of that many searches sharing the best board, one process
    each (``share_after``: idle moves before a member takes a better shared board).
    Ctrl-C stops the run and returns what it reached (``stopped_by="interrupted"``).

    Returns an :class:`~edgematch.runs.optimize.OptimizeResult` (``best_score``,
    ``best_board``, ``moves``, ``seed``, ``stopped_by``, ``run_id``, ``to_dict()``).
    """
    from .runs.optimize import optimize as run

    return run(
        as_puzzle(puzzle),
        time_limit=time_limit,
        moves=moves,
        target=target,
        limits=limits,
        start=start,
        start_method=start_method,
        start_seconds=start_seconds,
        relax=relax,
        schedule=schedule,
        seed=seed,
        db=db,
        store=store,
        progress=progress,
        stop=stop,
        handle_signals=handle_signals,
        jobs=jobs,
        share_after=share_after,
        **params,
    )


__all__ = ["as_puzzle", "count", "estimate", "generate", "optimize", "resume", "search", "solve"]
