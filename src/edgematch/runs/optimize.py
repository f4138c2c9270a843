"""One optimisation run, start phase included, exactly as ``edgematch optimize`` makes it.

The command line only parses its options and prints what :func:`optimize` (or
:func:`resume`) returns; ``edgematch.optimize`` is this module's :func:`optimize`.  A run has
two phases:

1. **The start phase** builds the first board: a given board (``start=``), a random one,
   or a search (``start_method="cp"``, the default, or ``"backtrack"``, see
   :mod:`edgematch.local.startup`).  A search start gets :func:`default_start_seconds`
   (10 % of the run time, at least 1 s, at most 30 s, never more than the run time; it
   counts in the run time) unless ``start_seconds`` is given; with a move limit and no
   given ``start_seconds`` it also stops after :data:`START_NODES_PER_MOVE` nodes per move
   of the limit, so that a short run (``moves=10``) has a short start (and a run limited by
   moves alone is reproducible from its seed, its start being bounded by nodes, not time).
2. **The search phase**: the tabu search of :mod:`edgematch.local.tabu`, recorded as a
   durable run in the run store (:func:`edgematch.runs.session.start_run`; ``store=False``
   runs it without a database).

The seed is drawn from fresh entropy when none is given, and recorded; later segments of a
run with restarts (``restart_after``) are built like the first start, with a third of its
time and nodes (:meth:`RunPlan.restart_spec`).

Ctrl-C or SIGTERM (with ``handle_signals``, or a :class:`~edgematch.engines.base.StopFlag`
set by the caller) end either phase early: an interrupted start phase completes its deepest
board so far, the run is recorded with it (a checkpoint that ``resume`` continues) and no
move is made; an interrupted search checkpoints where it stopped.  Either way the result says
``stopped_by="interrupted"`` and ``signal`` names the signal.

Every check of the inputs happens in :func:`plan_run`, before anything runs; its messages
start with the name of the parameter at fault, or with the command-line option the caller
maps it to (``names={"time_limit": "--time-limit", ...}``).
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..engines.base import Limits, StopFlag, StopReason, stop_on_signals
from ..errors import InputError
from ..local.startup import DEFAULT_START_SECONDS, START_KINDS
from ..local.tabu import LocalSearchResult, Progress, TabuParams, TabuVLNS
from ..model import Board, Puzzle
from .portfolio import SHARE_AFTER
from .session import CHECKPOINT_EVERY, HISTORY_EVERY, resume_run, start_run, viewer_url
from .store import RunStore

#: how the first board is built when no start board is given
START_METHODS = START_KINDS
DEFAULT_START_METHOD = "cp"
#: a search start's share of the run time (at least MIN_START_SECONDS, at most MAX_START_SECONDS)
START_SHARE = 0.1
MIN_START_SECONDS = 1.0
MAX_START_SECONDS = DEFAULT_START_SECONDS
#: with a move limit, the search start stops after this many nodes per move of the limit: about a
#: tenth of the run's work on e2 (the CP start's search makes some 7 million nodes a second, the
#: tabu search some 35 000 moves)
START_NODES_PER_MOVE = 20
#: the start of every later segment gets this share of the first start's time and nodes
RESTART_SHARE = 1 / 3
MAX_SEED = 2**63 - 1  # seeds are stored as SQLite integers

#: TabuParams fields whose values are read as text by :func:`parse_params`
_TEXT_PARAMS = ("selection", "diversify_rotation", "tie_break", "assignment")
_PAIR_PARAMS = ("position_tenure", "arc_tenure")


# --------------------------------------------------------------------------- defaults
def default_start_seconds(time_limit: float | None) -> float:
    """Time of a search start: 10 % of the run time, at least 1 s, at most 30 s and never
    more than the run time; 30 s for a run without a time limit."""
    if time_limit is None:
        return MAX_START_SECONDS
    return min(MAX_START_SECONDS, max(MIN_START_SECONDS, START_SHARE * time_limit), time_limit)


def default_start_nodes(moves: int | None) -> int | None:
    """Node limit of a search start for a run limited to ``moves`` moves (None: no limit)."""
    return None if moves is None else max(1, START_NODES_PER_MOVE * int(moves))


def fresh_seed() -> int:
    """A seed drawn from the operating system's entropy (recorded with the run)."""
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)  # drawn from the OS when none is given
    return int(entropy % (2**63))


def max_independent_squares(puzzle: Puzzle) -> int:
    """The most pairwise non-adjacent squares a board has (one colour of the chessboard):
    neither a move's holes nor the CP start's relaxed squares can be more."""
    return (puzzle.width * puzzle.height + 1) // 2


# --------------------------------------------------------------------------- parameters
def parse_params(items: Iterable[str]) -> dict[str, Any]:
    """``NAME=VALUE`` texts (``plateau_length=2000``, ``arc_tenure=5,20``,
    ``assignment=scipy``) as :class:`TabuParams` keywords; dashes in names are accepted."""
    known = [f.name for f in fields(TabuParams)]
    values: dict[str, Any] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or name not in known:
            raise InputError(f"'{item}': expected NAME=VALUE with NAME one of {', '.join(known)}")
        values[name] = _parse_value(name, text.strip())
    return values


def _parse_value(name: str, text: str) -> Any:
    try:
        if name in _PAIR_PARAMS:
            low, _, high = text.partition(",")
            return (int(low), int(high or low))
        if name in _TEXT_PARAMS:
            return text
        if name == "set_size_max" and text.lower() in ("none", ""):
            return None
        return int(text)
    except ValueError:
        raise InputError(f"'{name}={text}': not a valid value") from None


def tabu_params(
    values: Mapping[str, Any] | TabuParams | None = None,
    *,
    puzzle: Puzzle | None = None,
    names: Mapping[str, str] | None = None,
) -> TabuParams:
    """:class:`TabuParams` from keywords (the defaults for those not given).

    ``set_size`` given without ``set_size_max`` means a fixed |S|.  With ``puzzle``, a given
    ``set_size`` or ``set_size_max`` above :func:`max_independent_squares` is refused (the
    defaults are capped to the board silently).  Messages start with the parameter's name as
    ``names`` spells it.
    """
    if isinstance(values, TabuParams):
        return values
    values = dict(values or {})
    known = {f.name for f in fields(TabuParams)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise InputError(f"unknown tabu parameter(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if "set_size" in values and "set_size_max" not in values:
        values["set_size_max"] = None
    try:
        params = TabuParams(**values)
    except InputError as err:
        raise _blame(err, values, names) from None
    except (TypeError, ValueError) as exc:  # a value of the wrong type (a string for a number, ...)
        raise _blame(InputError(f"invalid tabu parameter value ({exc})"), values, names) from None
    if puzzle is not None:
        most = max_independent_squares(puzzle)
        for name in ("set_size", "set_size_max"):
            given = values.get(name)
            if given is not None and given > most:
                raise InputError(
                    f"{_name(names, name)}: {given} holes cannot be pairwise non-adjacent on a "
                    f"{puzzle.width}x{puzzle.height} board (at most {most})"
                )
    return params


def _blame(err: InputError, values: Mapping[str, Any], names: Mapping[str, str] | None) -> InputError:
    """``err`` led by the name of the given parameter it is about (the one it names first)."""
    import re

    found = [
        (m.start(), name)
        for name in values
        for m in [re.search(rf"\b{re.escape(name)}\b", err.message)]
        if m is not None
    ]
    if not found:
        return err
    name = min(found)[1]
    return InputError(f"{_name(names, name)}: {err.message}", err.source, err.line)


def _name(names: Mapping[str, str] | None, key: str) -> str:
    return (names or {}).get(key, key)


# --------------------------------------------------------------------------- checks
def _whole(value, key: str, names, low: int, high: int | None = None) -> int | None:
    if value is None:
        return None
    ok = not isinstance(value, bool)
    if ok:
        try:
            number = float(value)
        except (TypeError, ValueError):
            ok = False
        else:
            ok = math.isfinite(number) and number == int(number) and number >= low and (high is None or number <= high)
    if not ok:
        bound = f">= {low}" if high is None else f"in {low} .. {high}"
        raise InputError(f"{_name(names, key)}: must be a whole number {bound}, not {value!r}")
    return int(float(value))


def _seconds(value, key: str, names) -> float | None:
    """A positive, finite number of seconds (validated by :class:`Limits`, as for every engine)."""
    try:
        seconds = Limits(time=value).time
    except InputError as err:
        raise InputError(f"{_name(names, key)}: {err.message}") from None
    if seconds is not None and seconds <= 0:
        raise InputError(f"{_name(names, key)}: must be more than 0 seconds, not {value!r}")
    return seconds


def _time_limit(time_limit, limits: Limits | None, names) -> float | None:
    try:
        merged = Limits.of(limits, time_limit=time_limit)
    except InputError as err:
        raise InputError(f"{_name(names, 'time_limit')}: {err.message}") from None
    if merged.nodes is not None or merged.solutions is not None:
        raise InputError(
            "the tabu search counts moves, not nodes or solutions: give moves= instead of a node or solution limit"
        )
    return _seconds(merged.time, "time_limit", names)


def _open_store(db, names) -> None:
    """Refuse a database that cannot be used now, before the start phase runs."""
    try:
        RunStore(db).close()
    except InputError as err:
        if db is None:
            raise
        raise InputError(f"{_name(names, 'db')}: {err.where_and_what()}") from None


# --------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class RunPlan:
    """A run with its inputs checked and every default filled in (see :func:`plan_run`)."""

    puzzle: Puzzle
    params: TabuParams
    seed: int
    time_limit: float | None
    moves: int | None
    target: int | None
    start_board: Board | None
    start_name: str | None  # what the start board was loaded from (recorded with the run)
    start_method: str
    start_seconds: float  # time of a search start (cp, backtrack)
    start_nodes: int | None  # node limit of a search start
    relax: int | None
    schedule: str | None
    db: str | None
    store: bool = True
    checkpoint_every: float = CHECKPOINT_EVERY
    history_every: float = HISTORY_EVERY
    jobs: int = 1  # members of a portfolio (edgematch.runs.portfolio); 1: one search
    share_after: int = SHARE_AFTER

    def restart_spec(self) -> dict:
        """How later segments build their start (recorded, so that a resumed run rebuilds the
        same boards): the first start's method (random after a given board) with a third of
        its time and nodes."""
        spec: dict[str, Any] = {
            "kind": "random" if self.start_board is not None else self.start_method,
            "relax": self.relax,
            "time_limit": max(MIN_START_SECONDS, self.start_seconds * RESTART_SHARE),
            "schedule": self.schedule,
        }
        if self.start_nodes is not None:
            spec["node_limit"] = max(1, int(self.start_nodes * RESTART_SHARE))
        return spec


def plan_run(
    puzzle: Puzzle,
    *,
    time_limit: float | None = None,
    limits: Limits | None = None,
    moves: int | None = None,
    target: int | None = None,
    start: Board | str | os.PathLike | None = None,
    start_format: str | None = None,
    start_method: str | None = None,
    start_seconds: float | None = None,
    relax: int | None = None,
    schedule: str | None = None,
    seed: int | None = None,
    params: Mapping[str, Any] | TabuParams | None = None,
    db: str | os.PathLike | None = None,
    store: bool = True,
    checkpoint_every: float = CHECKPOINT_EVERY,
    history_every: float = HISTORY_EVERY,
    names: Mapping[str, str] | None = None,
    jobs: int | None = None,
    share_after: int | None = None,
) -> RunPlan:
    """Check a run's inputs against ``puzzle`` and fill in the defaults (see the module
    docstring); raises :class:`InputError` with one line naming the parameter at fault.

    ``start``: a start board (a :class:`Board`, or a file, viewer URL or ``record/NAME``
    read in ``start_format``); ``start_method``: how to build one otherwise (``cp``,
    ``random`` or ``backtrack``).  ``params``: :class:`TabuParams` or its keywords.
    ``names``: how to name each parameter in messages (the command line maps them to its
    options).  ``jobs`` > 1 runs a portfolio of that many searches sharing the best board
    (:mod:`edgematch.runs.portfolio`), one process each; ``share_after``: the moves without
    a new best after which a member takes a better shared board.
    """
    time_limit = _time_limit(time_limit, limits, names)
    moves = _whole(moves, "moves", names, 1)
    if time_limit is None and moves is None:
        raise InputError(f"give a run time ({_name(names, 'time_limit')}) or a move limit ({_name(names, 'moves')})")
    target = _whole(target, "target", names, 0)
    if target is not None and target > puzzle.max_score:
        raise InputError(f"{_name(names, 'target')}: {target} is above the puzzle's maximum score {puzzle.max_score}")
    if start_method is None:
        start_method = DEFAULT_START_METHOD
    if start_method not in START_METHODS:
        raise InputError(
            f"{_name(names, 'start_method')}: unknown start method '{start_method}' (known: {', '.join(START_METHODS)})"
        )
    start_seconds = _seconds(start_seconds, "start_seconds", names)
    start_nodes = None
    if start_seconds is None:
        start_seconds = default_start_seconds(time_limit)
        start_nodes = default_start_nodes(moves)
    relax = _whole(relax, "relax", names, 0)
    most = max_independent_squares(puzzle)
    if relax is not None and relax > most:
        raise InputError(
            f"{_name(names, 'relax')}: {relax} squares cannot be relaxed: they must be pairwise "
            f"non-adjacent, at most {most} on a {puzzle.width}x{puzzle.height} board"
        )
    used_by = "a start board" if start is not None else f"the {start_method} start method"
    if relax is not None and (start is not None or start_method != "cp"):
        raise InputError(f"{_name(names, 'relax')} belongs to the cp start method; {used_by} does not use it")
    if schedule is not None and (start is not None or start_method != "backtrack"):
        raise InputError(f"{_name(names, 'schedule')} belongs to the backtrack start method; {used_by} does not use it")
    seed = _whole(seed, "seed", names, 0, MAX_SEED)
    tabu = tabu_params(params, puzzle=puzzle, names=names)
    checkpoint_every = _seconds(checkpoint_every, "checkpoint_every", names) or CHECKPOINT_EVERY
    try:
        history_every = float(Limits(time=history_every).time or 0.0)
    except InputError as err:
        raise InputError(f"{_name(names, 'history_every')}: {err.message}") from None
    jobs = _whole(jobs, "jobs", names, 1) or 1
    share_after = _whole(share_after, "share_after", names, 1) or SHARE_AFTER
    if jobs > 1 and not store:
        raise InputError(
            f"{_name(names, 'jobs')}: a portfolio of searches is recorded in the run store; store=False runs one"
        )
    if store:
        _open_store(db, names)
    start_board, start_name = None, None
    if isinstance(start, Board):
        if start.puzzle != puzzle:
            raise InputError(f"{_name(names, 'start')}: the start board belongs to another puzzle")
        start_board, start_name = start, None
    elif start is not None:
        from ..loading import load_board

        start_board, start_name = load_board(puzzle, start, start_format), str(start)
    return RunPlan(
        puzzle=puzzle,
        params=tabu,
        seed=fresh_seed() if seed is None else seed,
        time_limit=time_limit,
        moves=moves,
        target=target,
        start_board=start_board,
        start_name=start_name,
        start_method=start_method,
        start_seconds=start_seconds,
        start_nodes=start_nodes,
        relax=relax,
        schedule=schedule,
        db=None if db is None else os.fspath(db),
        store=store,
        checkpoint_every=checkpoint_every,
        history_every=history_every,
        jobs=jobs,
        share_after=share_after,
    )


# --------------------------------------------------------------------------- the result
@dataclass
class OptimizeResult:
    """What a run reached: plain data (``to_dict()`` is the command's JSON report).

    ``seconds`` is the whole run, start phase included (for a resumed run: everything the run
    has spent so far); ``search_seconds`` the tabu search's share.  ``run_id`` is None for a
    run not stored.  ``signal`` is the signal that interrupted the run, if one did.
    """

    puzzle: Puzzle
    best_board: Board
    best_score: int
    max_score: int
    moves: int
    seconds: float
    search_seconds: float
    stopped_by: str
    status: str  # finished, interrupted
    seed: int | None
    start: dict | None
    run_id: int | None = None
    url: str | None = None
    signal: int | None = None
    history: list[tuple[float, int]] = field(default_factory=list)
    search: LocalSearchResult | None = None  # the tabu search's own result (state, counters)
    portfolio: dict | None = None  # members, seeds, adoptions of a portfolio run

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.search_seconds if self.search_seconds > 0 else 0.0

    @property
    def interrupted(self) -> bool:
        return self.stopped_by in (StopReason.INTERRUPTED, StopReason.CALLBACK) or self.status == "interrupted"

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "puzzle": self.puzzle.name,
            "best_score": self.best_score,
            "max_score": self.max_score,
            "seconds": round(self.seconds, 3),
            "search_seconds": round(self.search_seconds, 3),
            "moves": self.moves,
            "moves_per_second": round(self.moves_per_second, 1),
            "stopped_by": str(self.stopped_by),
            "status": self.status,
            "seed": self.seed,
            "start": self.start,
            "url": self.url,
            "signal": self.signal,
        } | ({"portfolio": self.portfolio} if self.portfolio is not None else {})


def _result(
    puzzle: Puzzle,
    search: LocalSearchResult,
    best_board: Board,
    status: str,
    start: dict | None,
    run_id: int | None,
    stop: StopFlag,
    seed: int | None,
) -> OptimizeResult:
    score = best_board.score()  # the model re-scores what we report
    start_seconds = float((start or {}).get("seconds", 0.0) or 0.0)
    stopped_by = search.stopped_by
    if stopped_by == StopReason.CALLBACK and stop.is_set():
        stopped_by = str(stop.reason)
    if stopped_by == StopReason.INTERRUPTED:
        status = "interrupted"
    return OptimizeResult(
        puzzle=puzzle,
        best_board=best_board,
        best_score=score,
        max_score=puzzle.max_score,
        moves=search.moves,
        seconds=search.seconds + start_seconds,
        search_seconds=search.seconds,
        stopped_by=str(stopped_by),
        status=status,
        seed=seed,
        start=start,
        run_id=run_id,
        url=viewer_url(best_board),
        signal=stop.signal,
        history=list(search.history),
        search=search,
    )


# --------------------------------------------------------------------------- running
def _signals(stop: StopFlag, handle_signals: bool):
    return stop_on_signals(stop) if handle_signals else contextlib.nullcontext()


def build_first_board(
    plan: RunPlan, stop: StopFlag | None = None, note: Callable[[str], None] | None = None
) -> tuple[Board | None, dict]:
    """The start phase: (start board or None for the search's own random board, facts about
    it, ``seconds`` included)."""
    started = time.perf_counter()
    board: Board | None
    info: dict[str, Any]
    if plan.start_board is not None:
        board, info = plan.start_board, {"kind": "board", "board": plan.start_name, "score": plan.start_board.score()}
    elif plan.start_method == "random":
        board, info = None, {"kind": "random"}
    else:
        from ..local.startup import build_start

        if note is not None:
            limit = f"{plan.start_seconds:g} s" + (f", {plan.start_nodes:,} nodes" if plan.start_nodes else "")
            note(f"building the {plan.start_method} start ({limit}) ...")
        board, info = build_start(
            plan.puzzle,
            plan.start_method,
            seed=plan.seed,
            relax=plan.relax,
            time_limit=plan.start_seconds,
            schedule=plan.schedule,
            node_limit=plan.start_nodes,
            stop=stop,
        )
    info["seconds"] = round(time.perf_counter() - started, 3)
    return board, info


def run_plan(
    plan: RunPlan,
    *,
    progress: Callable[[Progress], None] | None = None,
    note: Callable[[str], None] | None = None,
    stop: StopFlag | None = None,
    handle_signals: bool = True,
) -> OptimizeResult:
    """Run a checked plan: the start phase, then the (recorded) tabu search.

    ``progress`` is called between batches of moves (the live display); ``note`` receives
    one-line messages about the phases.  ``stop`` ends the run early (``handle_signals``:
    SIGINT and SIGTERM set it, from the start phase on).
    """
    stop = stop if stop is not None else StopFlag()
    puzzle = plan.puzzle
    if plan.jobs > 1:
        from .portfolio import run_portfolio

        with _signals(stop, handle_signals):
            return run_portfolio(plan, progress=progress, note=note, stop=stop)
    with _signals(stop, handle_signals):
        board, info = build_first_board(plan, stop, note)
        time_limit = plan.time_limit
        if time_limit is not None:  # the start is part of the run time
            time_limit = max(time_limit - info["seconds"], 0.001)
        if note is not None:
            note(f"run on {puzzle.name or 'puzzle'}: seed {plan.seed}, start {info['kind']}")
        if plan.store:
            outcome = start_run(
                puzzle,
                params=plan.params,
                seed=plan.seed,
                start_board=board,
                start=info["kind"],
                start_info=info,
                time_limit=time_limit,
                max_moves=plan.moves,
                target=plan.target,
                db=plan.db,
                checkpoint_every=plan.checkpoint_every,
                history_every=plan.history_every,
                display=progress,
                handle_signals=False,
                restart_spec=plan.restart_spec(),
                stop=stop,
            )
            return _result(
                puzzle, outcome.result, outcome.best_board, outcome.status, info, outcome.run_id, stop, plan.seed
            )
        from .session import restarter

        search = TabuVLNS(plan.params, seed=plan.seed).optimize(
            puzzle,
            board,
            time_limit=time_limit,
            max_moves=plan.moves,
            target=plan.target,
            callback=progress,
            restart=restarter(plan.restart_spec(), plan.seed),
            stop=stop,
        )
        status = "interrupted" if search.stopped_by in (StopReason.INTERRUPTED, StopReason.CALLBACK) else "finished"
        return _result(puzzle, search, search.best_board, status, info, None, stop, plan.seed)


def optimize(
    puzzle: Puzzle,
    *,
    time_limit: float | None = None,
    moves: int | None = None,
    target: int | None = None,
    limits: Limits | None = None,
    start: Board | str | os.PathLike | None = None,
    start_method: str | None = DEFAULT_START_METHOD,
    start_seconds: float | None = None,
    relax: int | None = None,
    schedule: str | None = None,
    seed: int | None = None,
    db: str | os.PathLike | None = None,
    store: bool = True,
    checkpoint_every: float = CHECKPOINT_EVERY,
    progress: Callable[[Progress], None] | None = None,
    note: Callable[[str], None] | None = None,
    stop: StopFlag | None = None,
    handle_signals: bool = True,
    jobs: int | None = None,
    share_after: int | None = None,
    **params: Any,
) -> OptimizeResult:
    """Maximise the score of ``puzzle``: :func:`plan_run` then :func:`run_plan` (see the
    module docstring); ``params`` are :class:`TabuParams` fields (``set_size=8``)."""
    plan = plan_run(
        puzzle,
        jobs=jobs,
        share_after=share_after,
        time_limit=time_limit,
        limits=limits,
        moves=moves,
        target=target,
        start=start,
        start_method=start_method,
        start_seconds=start_seconds,
        relax=relax,
        schedule=schedule,
        seed=seed,
        params=params,
        db=db,
        store=store,
        checkpoint_every=checkpoint_every,
    )
    return run_plan(plan, progress=progress, note=note, stop=stop, handle_signals=handle_signals)


def resume(
    run_id: int,
    *,
    db: str | os.PathLike | None = None,
    time_limit: float | None = None,
    limits: Limits | None = None,
    checkpoint_every: float = CHECKPOINT_EVERY,
    progress: Callable[[Progress], None] | None = None,
    stop: StopFlag | None = None,
    handle_signals: bool = True,
    names: Mapping[str, str] | None = None,
) -> OptimizeResult:
    """Continue recorded run ``run_id`` from its newest checkpoint, for ``time_limit`` seconds
    (default: what is left of its time budget)."""
    time_limit = _time_limit(time_limit, limits, names)
    checkpoint_every = _seconds(checkpoint_every, "checkpoint_every", names) or CHECKPOINT_EVERY
    _open_store(db, names)
    stop = stop if stop is not None else StopFlag()
    with RunStore(db) as store:
        portfolio = "portfolio" in store.run(int(run_id)).info
    if portfolio:
        from .portfolio import resume_portfolio

        with _signals(stop, handle_signals):
            return resume_portfolio(
                int(run_id),
                db=db,
                time_limit=time_limit,
                checkpoint_every=checkpoint_every,
                progress=progress,
                stop=stop,
            )
    with _signals(stop, handle_signals):
        outcome = resume_run(
            int(run_id),
            db=None if db is None else os.fspath(db),
            time_limit=time_limit,
            checkpoint_every=checkpoint_every,
            display=progress,
            handle_signals=False,
            stop=stop,
        )
    puzzle = outcome.best_board.puzzle
    return _result(
        puzzle,
        outcome.result,
        outcome.best_board,
        outcome.status,
        outcome.start_info,
        outcome.run_id,
        stop,
        outcome.result.statistics.get("seed"),
    )


__all__ = [
    "DEFAULT_START_METHOD",
    "OptimizeResult",
    "RunPlan",
    "START_METHODS",
    "START_NODES_PER_MOVE",
    "build_first_board",
    "default_start_nodes",
    "default_start_seconds",
    "fresh_seed",
    "max_independent_squares",
    "optimize",
    "parse_params",
    "plan_run",
    "resume",
    "run_plan",
    "tabu_params",
]
