"""The front of the parallel layer: one call that runs a count, solve or best-score
search on many workers, recorded in the run store when asked, and one that resumes it."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from ..engines.base import Engine, Limits, StopFlag, stop_on_signals
from ..engines.result import SearchResult
from ..errors import InputError
from ..model import Board, Puzzle
from ..runs.store import RunStore
from ..runs.subtrees import SPLIT_METHODS, SubtreeLedger
from .backends import make_backend
from .coordinator import Coordinator
from .job import Job


def can_split(engine: Engine) -> bool:
    return type(engine).split is not Engine.split


def goes_parallel(engine: Engine, jobs: int, cluster: str | None, recorded: bool, asked: bool) -> bool:
    """Whether a search runs through the parallel layer: more than one job, a cluster or a
    record.  An engine that cannot split runs serially when the workers were only the
    default (``asked`` False), and is refused when they were asked for."""
    if not (cluster is not None or recorded or jobs > 1):
        return False
    if can_split(engine):
        return True
    if asked:
        raise InputError(f"the {engine.name} solver cannot split a search over workers: it runs with one job only")
    return False


def parallel_search(
    mode: str,
    engine: Engine,
    puzzle: Puzzle,
    *,
    start=None,
    limits: Limits | None = None,
    k: int | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    kind: str = "processes",
    progress: Callable[[dict], None] | None = None,
    stop: StopFlag | None = None,
    store: RunStore | None = None,
    callback: Callable[[Board], Any] | None = None,
    **options,
) -> SearchResult:
    """``mode`` (count, solve, search) of ``engine`` on ``puzzle``, split over ``jobs``
    local workers or the Dask scheduler at ``cluster``; recorded in ``store`` (a
    :class:`RunStore`) when given, so that :func:`resume_search` can finish it.
    ``options`` go to the :class:`.Coordinator` (``subtrees_per_worker``, ``task_nodes``)."""
    if not can_split(engine):
        raise InputError(f"the {engine.name} solver cannot split a search over workers: it runs with one job only")
    if mode == "search" and engine.name != "backtrack":
        raise InputError("only the backtrack solver searches for the best score")
    if getattr(engine, "symmetry", False) and start is not None:
        raise InputError("symmetry and a start board cannot be combined")
    limits = limits if limits is not None else engine.limits
    job = Job.of(mode, engine, puzzle)
    ledger = None
    if store is not None:
        ledger = SubtreeLedger.create(
            store,
            mode=mode,
            job={"solver": job.solver, "engine": job.params, "k": k},
            puzzle_text=job.puzzle_text,
            puzzle_name=job.puzzle_name or "puzzle",
            max_score=puzzle.max_score,
            info={"start": "root" if start is None else "board", "time_limit": limits.time},
        )
    with _signals(stop) as flag, _backend(jobs, cluster, kind) as backend:
        coordinator = Coordinator(
            job, backend, limits=limits, k=k, progress=progress, stop=flag, ledger=ledger, callback=callback, **options
        )
        if not flag.is_set():  # a stop that came during start-up: nothing is cut or run
            coordinator.start_new(start)
        return coordinator.run()


def resume_search(
    run_id: int,
    store: RunStore,
    *,
    mode: str | None = None,
    limits: Limits | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    kind: str = "processes",
    progress: Callable[[dict], None] | None = None,
    stop: StopFlag | None = None,
    callback: Callable[[Board], Any] | None = None,
    **options,
) -> tuple[Job, SearchResult]:
    """Finish run ``run_id`` of ``store``: its finished subtrees are counted as recorded,
    the others searched now (``mode``, when given, must be the run's)."""
    record = store.run(run_id)
    if record.method not in SPLIT_METHODS:
        raise InputError(f"run {run_id} is an {record.method} run; resume it with edgematch {record.method} --resume")
    if mode is not None and record.method != mode:
        raise InputError(f"run {run_id} is a {record.method} run: resume it with edgematch {record.method} --resume")
    if record.alive and record.status == "running":
        raise InputError(f"run {run_id} is still running (process {record.pid} on {record.host})")
    params = record.params
    job = Job(record.method, params["solver"], params["engine"], store.puzzle_text(run_id), record.puzzle_name)
    ledger = SubtreeLedger(store, run_id)
    if record.start != "root" and not ledger.has_rows():
        raise InputError(f"run {run_id} was stopped before its search was cut into subtrees: start it again")
    store.claim(run_id)
    with _signals(stop) as flag, _backend(jobs, cluster, kind) as backend:
        coordinator = Coordinator(
            job,
            backend,
            limits=limits,
            k=params.get("k"),
            progress=progress,
            stop=flag,
            ledger=ledger,
            callback=callback,
            **options,
        )
        coordinator.resume()
        return job, coordinator.run()


@contextlib.contextmanager
def _signals(stop: StopFlag | None):
    """The caller's stop flag, or one that Ctrl-C and SIGTERM set for the length of the run."""
    if stop is not None:
        yield stop
        return
    flag = StopFlag()
    with stop_on_signals(flag):
        yield flag


@contextlib.contextmanager
def _backend(jobs, cluster, kind):
    backend = make_backend(jobs, cluster, kind)
    try:
        yield backend
    finally:
        backend.close()
