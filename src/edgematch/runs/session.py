"""Durable optimisation runs: a tabu search whose progress goes into the run store.

:func:`start_run` records a new run (puzzle text, parameters, seed, start), saves a first
checkpoint before the first move, and then, while the search runs, records

* the score over time (one row per ``history_every`` seconds, and one per new best),
* every new best board, re-scored by :meth:`Board.score` before it is written (the model
  is the judge: a disagreement with the search's own count is an internal error),
* a checkpoint of the whole search state every ``checkpoint_every`` seconds.

:func:`resume_run` continues a run from its newest checkpoint: after a clean stop, a
Ctrl-C or SIGTERM (which stop the search through a :class:`StopFlag` and checkpoint before
returning, ``stopped_by="interrupted"``) or a SIGKILL (which loses at most the time since
the last checkpoint).  The resumed search is the very search that was saved (same
board, tabu lists, random generator and counters), so elapsed time and moves go on
counting from the checkpoint.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..engines.base import StopFlag, StopReason, stop_on_signals
from ..errors import InputError
from ..formats import format_board, format_puzzle, parse_puzzle
from ..local.tabu import LocalSearchResult, Progress, SearchState, TabuParams, TabuVLNS
from ..model import Board, Puzzle
from .store import RunStore

CHECKPOINT_EVERY = 30.0
HISTORY_EVERY = 1.0


def viewer_url(board: Board) -> str | None:
    """The e2.bucas.name link of a board, or None when its colours have no viewer letter."""
    from ..formats.bucas import board_url

    try:
        return board_url(board)
    except InputError:
        return None


def verified_score(board: Board, claimed: int) -> int:
    """``board.score()``, after checking it equals what the search claims."""
    score = board.score()
    if score != claimed:
        raise RuntimeError(f"internal error: the search claims score {claimed} but the board scores {score}")
    return score


class RunRecorder:
    """The search callback that writes a run's progress to the store."""

    def __init__(
        self,
        store: RunStore,
        run_id: int,
        puzzle: Puzzle,
        checkpoint_every: float = CHECKPOINT_EVERY,
        history_every: float = HISTORY_EVERY,
        display: Callable[[Progress], None] | None = None,
        stop_flag: StopFlag | None = None,
    ):
        self.store = store
        self.run_id = run_id
        self.puzzle = puzzle
        self.checkpoint_every = checkpoint_every
        self.history_every = history_every
        self.display = display
        # set by SIGINT / SIGTERM (engines.base.stop_on_signals)
        self.stop_flag = stop_flag if stop_flag is not None else StopFlag()
        self.last_history = -np.inf
        self.last_checkpoint = time.monotonic()
        self.best_recorded = -1

    def stop(self, *_args) -> None:
        """Ask the search to stop after the current batch."""
        self.stop_flag.set()

    @property
    def stop_requested(self) -> bool:
        return self.stop_flag.is_set()

    def record_best(self, board: Board, seconds: float, moves: int, score: int, claimed: int) -> None:
        score = verified_score(board, claimed)
        if score <= self.best_recorded:
            return
        self.store.add_best(
            self.run_id,
            seconds,
            moves,
            score,
            format_board(board, "edgematch"),
            viewer_url(board),
            history=(seconds, moves, score, score),
        )
        self.best_recorded = score

    def save_checkpoint(self, state: SearchState) -> None:
        self.store.checkpoint(self.run_id, state.elapsed, state.moves, state.score, state.best_score, state.to_bytes())
        self.last_checkpoint = time.monotonic()

    def __call__(self, progress: Progress) -> bool:
        if progress.improved and progress.best_score > self.best_recorded:
            self.record_best(
                progress.best_board(), progress.seconds, progress.moves, progress.best_score, progress.best_score
            )
            self.last_history = progress.seconds
        elif progress.seconds - self.last_history >= self.history_every:
            self.store.add_history(
                self.run_id, [(progress.seconds, progress.moves, progress.score, progress.best_score)]
            )
            self.last_history = progress.seconds
        if time.monotonic() - self.last_checkpoint >= self.checkpoint_every:
            self.save_checkpoint(progress.state())
        if self.display is not None:
            self.display(progress)
        return not self.stop_requested


@dataclass
class RunOutcome:
    """A finished (or stopped) run: its id, the search result and the run's best board
    (which may come from before a resume)."""

    run_id: int
    result: LocalSearchResult
    best_board: Board
    best_score: int
    seconds: float
    status: str
    start_info: dict | None = None


def _finish(
    store: RunStore, recorder: RunRecorder, run_id: int, puzzle: Puzzle, result: LocalSearchResult
) -> RunOutcome:
    recorder.record_best(result.best_board, result.seconds, result.moves, result.best_score, result.best_score)
    recorder.save_checkpoint(result.state)
    store.add_history(run_id, [(result.seconds, result.moves, result.score, result.best_score)])
    if result.stopped_by == StopReason.CALLBACK and recorder.stop_requested:
        result.stopped_by = str(recorder.stop_flag.reason)
    status = "interrupted" if result.stopped_by in (StopReason.CALLBACK, StopReason.INTERRUPTED) else "finished"
    store.update_run(
        run_id,
        status=status,
        stopped_by=result.stopped_by,
        seconds=result.seconds,
        moves=result.moves,
        score=result.score,
    )
    best = store.best(run_id)
    board, score = result.best_board, result.best_score
    if best is not None and best["score"] > score:  # found before a crash and a resume
        from ..formats import parse_board

        board = parse_board(best["board"], puzzle, "<run database>", "edgematch")
        score = verified_score(board, best["score"])
    start_info = store.run(run_id).info.get("start")
    return RunOutcome(run_id, result, board, score, result.seconds, status, start_info)


def restarter(spec: dict | None, seed: int | None):
    """The ``restart`` callable of :meth:`TabuVLNS.optimize` for a recorded restart spec
    (None: random boards drawn from the seed)."""
    if not spec or spec.get("kind", "random") == "random":
        return None  # TabuVLNS draws random boards from the seed
    from ..local.startup import restart_builder

    return restart_builder(
        spec["kind"],
        seed,
        relax=spec.get("relax"),
        time_limit=spec.get("time_limit"),
        schedule=spec.get("schedule"),
        node_limit=spec.get("node_limit"),
    )


def start_run(
    puzzle: Puzzle,
    *,
    params: TabuParams | None = None,
    seed: int | None = None,
    start_board: Board | None = None,
    start: str = "random",
    start_info: dict | None = None,
    time_limit: float | None = None,
    max_moves: int | None = None,
    target: int | None = None,
    db: str | None = None,
    checkpoint_every: float = CHECKPOINT_EVERY,
    history_every: float = HISTORY_EVERY,
    display: Callable[[Progress], None] | None = None,
    handle_signals: bool = True,
    on_created: Callable[[int], None] | None = None,
    restart_spec: dict | None = None,
    stop: StopFlag | None = None,
) -> RunOutcome:
    """Create a run in the store and optimise ``puzzle`` (see the module docstring).

    ``restart_spec``: how the boards of later segments are built when the parameters ask for
    restarts (``{"kind": "cp", "relax": 0, "time_limit": 10, "schedule": None,
    "node_limit": None}``; default: random boards).  It is recorded so that a resumed run
    rebuilds the same boards.  ``stop``: a flag that ends the search (already set: the run is
    recorded with its start and a checkpoint, and no move is made); with ``handle_signals``
    SIGINT and SIGTERM set it.  The whole command (start phase included) is
    :func:`edgematch.runs.optimize.run_plan`.
    """
    params = params or TabuParams()
    if seed is None:
        entropy = np.random.SeedSequence().entropy
        assert isinstance(entropy, int)  # drawn from the OS when none is given
        seed = int(entropy % (2**63))
    search = TabuVLNS(params, seed=seed)
    state = search.initial_state(puzzle, start_board)
    with RunStore(db) as store:
        run_id = store.create_run(
            puzzle_name=puzzle.name or "puzzle",
            puzzle_text=format_puzzle(puzzle, "edgematch"),
            max_score=puzzle.max_score,
            method="tabu-vlns",
            params=params.to_dict(),
            seed=seed,
            start=start,
            budget_seconds=time_limit,
            max_moves=max_moves,
            target=target,
            info={"start": start_info or {}, "restart": restart_spec},
        )
        if on_created is not None:
            on_created(run_id)
        recorder = RunRecorder(store, run_id, puzzle, checkpoint_every, history_every, display, stop)
        recorder.record_best(state.best_board(puzzle), 0.0, 0, state.best_score, state.best_score)
        recorder.save_checkpoint(state)
        with stop_on_signals(recorder.stop_flag) if handle_signals else contextlib.nullcontext():
            result = search.optimize(
                puzzle,
                state=state,
                time_limit=time_limit,
                max_moves=max_moves,
                target=target,
                callback=recorder,
                restart=restarter(restart_spec, seed),
                stop=recorder.stop_flag,
            )
        return _finish(store, recorder, run_id, puzzle, result)


def open_resumable(store: RunStore, run_id: int):
    """(record, newest checkpoint, puzzle) of a run to resume; a live run, or one never
    checkpointed, is refused."""
    record = store.run(run_id)
    if record.alive:
        raise InputError(f"run {run_id} is still running (process {record.pid}); stop it before resuming")
    checkpoint = store.latest_checkpoint(run_id)
    if checkpoint is None:
        raise InputError(f"run {run_id} has no checkpoint to resume from")
    return record, checkpoint, parse_puzzle(store.puzzle_text(run_id), f"<run {run_id}>", "edgematch")


def claim_for_resume(store: RunStore, record, elapsed: float, time_limit: float | None) -> float | None:
    """The time of this session (by default what is left of the run's budget, which grows to
    hold a longer session), with the run marked as running here."""
    if time_limit is None and record.budget_seconds is not None:
        time_limit = max(record.budget_seconds - elapsed, 0.0)
    if time_limit is None and record.max_moves is None:
        raise InputError(f"run {record.id} has no time budget left to resume with; give a time limit")
    store.claim(record.id)
    if record.budget_seconds is not None and elapsed + (time_limit or 0) > record.budget_seconds:
        store.update_run(record.id, budget_seconds=elapsed + (time_limit or 0))
    return time_limit


def resume_run(
    run_id: int,
    *,
    db: str | None = None,
    time_limit: float | None = None,
    checkpoint_every: float = CHECKPOINT_EVERY,
    history_every: float = HISTORY_EVERY,
    display: Callable[[Progress], None] | None = None,
    handle_signals: bool = True,
    stop: StopFlag | None = None,
) -> RunOutcome:
    """Continue run ``run_id`` from its newest checkpoint.

    ``time_limit``: seconds for this session; by default what is left of the run's budget.
    ``stop``: as for :func:`start_run`.
    """
    with RunStore(db) as store:
        record, checkpoint, puzzle = open_resumable(store, run_id)
        params = TabuParams.from_dict(record.params)
        state = SearchState.from_bytes(checkpoint["state"])
        time_limit = claim_for_resume(store, record, state.elapsed, time_limit)
        recorder = RunRecorder(store, run_id, puzzle, checkpoint_every, history_every, display, stop)
        best = store.best(run_id)
        recorder.best_recorded = best["score"] if best else -1
        search = TabuVLNS(params, seed=record.seed)
        with stop_on_signals(recorder.stop_flag) if handle_signals else contextlib.nullcontext():
            result = search.optimize(
                puzzle,
                state=state,
                time_limit=time_limit,
                max_moves=record.max_moves,
                target=record.target,
                callback=recorder,
                restart=restarter(record.info.get("restart"), record.seed),
                stop=recorder.stop_flag,
            )
        return _finish(store, recorder, run_id, puzzle, result)
