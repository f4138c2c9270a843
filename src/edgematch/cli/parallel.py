"""The options of count, solve and search that run a search on many workers, and the
choice between the serial engine call and the parallel layer.

``--jobs N`` local workers (default: ``$EDGEMATCH_JOBS``, else every core; 1 is the serial
engine, as before), ``--cluster tcp://HOST:PORT`` a Dask scheduler, ``--db PATH`` the run
store (default: the user's), ``--no-record`` no record, ``--resume RUN`` finish a recorded run.
"""

from __future__ import annotations

import argparse
import os

from ..errors import InputError
from .common import positive_int


def add_parallel_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("parallel and durable runs (docs/parallel.md)")
    g.add_argument(
        "--jobs",
        type=positive_int,
        metavar="N",
        help="worker processes on this machine (default: $EDGEMATCH_JOBS, else every core; 1: one process, "
        "not recorded unless --db is given)",
    )
    g.add_argument("--cluster", metavar="ADDRESS", help="run on the Dask scheduler at tcp://HOST:PORT")
    g.add_argument(
        "--db",
        metavar="PATH",
        help="run store recording the subtrees (default: runs.sqlite in the user data directory)",
    )
    g.add_argument("--no-record", action="store_true", help="record nothing (a parallel run is recorded by default)")
    g.add_argument(
        "--resume",
        type=int,
        metavar="RUN",
        help="finish recorded run RUN (puzzle and options come from the run store; leave the puzzle out)",
    )


def jobs_wanted(args) -> int:
    """--jobs, else $EDGEMATCH_JOBS, else every core."""
    from ..parallel import default_jobs

    if args.jobs is not None:
        if args.jobs < 1:
            raise InputError("--jobs must be at least 1")
        return args.jobs
    return default_jobs()


#: what a resumed run takes from the command line; everything else comes from the run store
RESUME_OPTIONS = frozenset(
    {"resume", "db", "jobs", "cluster", "time_limit", "node_limit", "json", "quiet", "out", "board_format", "no_fill"}
)


def check_puzzle_or_resume(args) -> None:
    if args.resume is not None and args.puzzle is not None:
        raise InputError("--resume takes the puzzle and its options from the run store: leave the puzzle out")
    if args.resume is not None:
        from .main import build_parser

        sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
        stored = [
            max(action.option_strings, key=len)
            for action in sub.choices[args.command]._actions
            if action.option_strings
            and action.dest not in RESUME_OPTIONS
            and getattr(args, action.dest, action.default) != action.default
        ]
        if stored:
            raise InputError(
                f"--resume takes the search's options from the run store: leave out {', '.join(stored)} "
                "(a resumed run takes only --jobs, --cluster, --db, limits and output options)"
            )
    if args.resume is None and args.puzzle is None:
        raise InputError("give a puzzle (a bundled name or a file), or --resume RUN")
    if args.no_record and args.db:
        raise InputError("--no-record and --db contradict each other")


def store_of(args):
    """The run store a parallel run records into (None with --no-record)."""
    from ..runs import RunStore

    if args.no_record:
        return None
    return RunStore(args.db) if args.db else RunStore()


def run(args, mode: str, solver, puzzle, serial, *, start=None, k=None, callback=None):
    """``serial()`` (the engine's own call) or the same search through the parallel layer."""
    from ..parallel import parallel_search
    from ..parallel.run import goes_parallel

    asked = args.jobs is not None or args.cluster is not None or args.db is not None
    if not goes_parallel(solver, jobs_wanted(args), args.cluster, args.db is not None, asked):
        return serial()

    store = store_of(args)
    try:
        return parallel_search(
            mode,
            solver,
            puzzle,
            start=start,
            limits=solver.limits,
            k=k,
            jobs=jobs_wanted(args),
            cluster=args.cluster,
            progress=solver.progress,
            stop=solver.stop,
            store=store,
            callback=callback,
        )
    finally:
        if store is not None:
            store.close()


def _resume_store(args):
    from ..runs import RunStore, default_db_path

    path = args.db if args.db is not None else default_db_path()
    if not os.path.exists(path):
        raise InputError("no such run database", str(path))
    return RunStore(path)


def resumed_puzzle(args):
    """The puzzle of run ``--resume RUN``, as the run store keeps it."""
    from ..formats.native import read_puzzle

    with _resume_store(args) as store:
        record = store.run(args.resume)
        return read_puzzle(store.puzzle_text(args.resume), record.puzzle_name)


def resume(args, mode: str, solver, *, callback=None):
    """Finish run ``--resume RUN``."""
    from ..parallel import resume_search

    with _resume_store(args) as store:
        _, result = resume_search(
            args.resume,
            store,
            mode=mode,
            limits=solver.limits,
            jobs=jobs_wanted(args),
            cluster=args.cluster,
            progress=solver.progress,
            stop=solver.stop,
            callback=callback,
        )
    return result
