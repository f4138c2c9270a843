"""A portfolio of tabu searches on many cores, recorded as one durable run.

``edgematch optimize --jobs N`` runs N members, each a whole tabu search in a process of
its own with its own seed (member 0 has the run's seed, the others seeds drawn from it), so
a search start (cp, backtrack) differs per member too.  They share the best board: a
member that finds a new best publishes it, and a member that has gone ``share_after``
moves without improving while a better board exists elsewhere goes on from that board
(a new segment, tabu lists cleared), so no core keeps grinding a worse region for long.

The run is one row of the run store: every new best board (re-scored by the model before
it is written), the score over time summed over the members, and a checkpoint that holds
every member's whole search state, so ``resume`` continues all of them where they were.
The coordinator (this process) owns the store; members only send messages.  Ctrl-C or
SIGTERM stop every member after its batch, and the run is checkpointed first; a member
also stops when the coordinator's process is gone.  Which member adopts which board when
depends on timing, so a portfolio is not reproducible move by move as a single seeded
search is.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engines.base import StopFlag, StopReason
from ..errors import InputError
from ..formats import format_board, format_puzzle, parse_puzzle
from ..local import tabu_kernel as K
from ..local.tabu import SearchState, TabuParams, TabuVLNS
from ..model import Board, Puzzle
from ..parallel.backends import EventStop, exit_with_parent
from .session import claim_for_resume, open_resumable, restarter, verified_score, viewer_url
from .store import RunStore

#: moves without a new best (of its own) after which a member takes a better shared board
SHARE_AFTER = 20_000
REPORT_EVERY = 0.5  # seconds between a member's progress messages


def member_seeds(seed: int, members: int) -> list[int]:
    """Member 0 keeps the run's seed; the others get seeds drawn from it."""
    drawn = np.random.SeedSequence(seed).spawn(max(members - 1, 0))
    return [seed] + [int(s.generate_state(1, np.uint64)[0] % (2**63 - 1)) for s in drawn]


class SharedBest:
    """The portfolio's best board in shared memory (forked members read and offer it)."""

    def __init__(self, n_squares: int, context):
        self.lock = context.Lock()
        self.score = context.Value("q", -1, lock=False)
        self.tiles = context.Array("q", n_squares, lock=False)
        self.rotations = context.Array("q", n_squares, lock=False)

    def offer(self, score: int, tiles: np.ndarray, rotations: np.ndarray) -> bool:
        with self.lock:
            if score <= self.score.value:
                return False
            self.tiles[:] = [int(t) for t in tiles]
            self.rotations[:] = [int(r) for r in rotations]
            self.score.value = int(score)
            return True

    def board(self, puzzle: Puzzle) -> tuple[int, Board]:
        with self.lock:
            tiles, rotations, score = list(self.tiles), list(self.rotations), int(self.score.value)
        return score, Board(puzzle, np.array(tiles, np.int32), np.array(rotations, np.int8))


@dataclass
class Member:
    """What a member process needs: its index, seed and either a start board or a state."""

    index: int
    seed: int
    state: bytes | None = None
    start_board: Board | None = None
    start_method: str = "random"
    start_options: dict | None = None


@dataclass
class PortfolioProgress:
    """The live display's view of the whole portfolio (the fields of a tabu ``Progress``)."""

    seconds: float
    moves: int
    score: int
    best_score: int
    max_score: int
    moves_per_second: float
    improved: bool
    members: list[dict]
    _best: Board | None

    def best_board(self) -> Board | None:
        return self._best


# --------------------------------------------------------------------------- members
def _member_main(puzzle_text, params, member: Member, limits: dict, restart_spec, shared, messages, event, parent):
    """A member process: build its start (or load its state), search, report, stop on the event."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=exit_with_parent, args=(parent,), name="edgematch-orphan-watch", daemon=True).start()
    try:
        _member_search(puzzle_text, params, member, limits, restart_spec, shared, messages, event, parent)
    except BaseException as exc:  # the coordinator reports it; a member never dies silently
        messages.put(("failed", member.index, f"{type(exc).__name__}: {exc}"))


def _member_search(puzzle_text, params, member, limits, restart_spec, shared, messages, event, parent):
    puzzle = parse_puzzle(puzzle_text, "<portfolio>", "edgematch")
    stop = EventStop(event, parent)
    search = TabuVLNS(TabuParams.from_dict(params), seed=member.seed)
    start_info: dict[str, Any] = {}
    if member.state is not None:
        state = SearchState.from_bytes(member.state)
    else:
        started = time.perf_counter()
        board = member.start_board
        if board is None and member.start_method != "random":
            from ..local.startup import build_start

            options = dict(member.start_options or {})
            board, start_info = build_start(puzzle, member.start_method, seed=member.seed, stop=stop, **options)
        start_info = {"kind": member.start_method if member.start_board is None else "board", **start_info}
        start_info["seconds"] = round(time.perf_counter() - started, 3)
        state = search.initial_state(puzzle, board)
        state.elapsed = start_info["seconds"]
    messages.put(("state", member.index, state.to_bytes(), start_info))
    own = {"best": state.best_score, "adopted": 0, "last_report": 0.0, "last_state": time.monotonic()}

    def publish(seconds: float, moves: int, score: int, tiles: np.ndarray, rotations: np.ndarray) -> None:
        """Offer a board to the portfolio; the coordinator records the ones that beat every other."""
        if shared.offer(score, tiles, rotations):
            messages.put(("best", member.index, seconds, moves, score, tiles.tolist(), rotations.tolist()))

    publish(state.elapsed, state.moves, state.best_score, state.best_tile, state.best_rot)

    def adopt(current: SearchState) -> Board | None:
        c = current.counters
        idle = int(c[K.MOVES]) - max(int(c[K.BEST_MOVE]), int(c[K.SEGMENT_START]))
        if idle < limits["share_after"] or shared.score.value <= current.best_score:
            return None
        score, board = shared.board(puzzle)
        if score <= current.best_score:
            return None
        own["adopted"] += 1
        messages.put(("adopted", member.index, current.moves, score))
        return board

    def callback(progress) -> bool:
        now = time.monotonic()
        if progress.improved and progress.best_score > own["best"]:
            own["best"] = progress.best_score
            best = progress.best_board()
            publish(progress.seconds, progress.moves, progress.best_score, best.tiles, best.rotations)
        if now - own["last_report"] >= REPORT_EVERY:
            own["last_report"] = now
            report = (progress.seconds, progress.moves, progress.score, progress.best_score, progress.moves_per_second)
            messages.put(("progress", member.index, *report))
        if now - own["last_state"] >= limits["checkpoint_every"]:
            own["last_state"] = now
            messages.put(("state", member.index, progress.state().to_bytes(), None))
        if limits["target"] is not None and shared.score.value >= limits["target"]:
            return False  # another member reached the target
        return not stop.is_set()

    time_limit = limits["time"]
    if time_limit is not None:
        time_limit = max(time_limit - (state.elapsed if member.state is None else 0.0), 0.001)
    result = search.optimize(
        puzzle,
        state=state,
        time_limit=time_limit,
        max_moves=limits["moves"],
        target=limits["target"],
        callback=callback,
        restart=restarter(restart_spec, member.seed),
        stop=stop,
        adopt=adopt,
    )
    publish(result.seconds, result.moves, result.best_score, result.state.best_tile, result.state.best_rot)
    summary = {
        "stopped_by": str(result.stopped_by),
        "moves": result.moves,
        "seconds": result.seconds,
        "best_score": result.best_score,
        "score": result.score,
        "adopted": own["adopted"],
    }
    messages.put(("done", member.index, result.state.to_bytes(), summary))


# --------------------------------------------------------------------------- checkpoints
def pack_states(states: list[bytes]) -> bytes:
    """Every member's state in one checkpoint blob."""
    buffer = io.BytesIO()
    arrays: dict[str, Any] = {f"member_{i}": np.frombuffer(s, dtype=np.uint8) for i, s in enumerate(states)}
    meta = json.dumps({"members": len(states)})
    np.savez(buffer, meta=np.frombuffer(meta.encode(), dtype=np.uint8), **arrays)
    return buffer.getvalue()


def unpack_states(data: bytes) -> list[bytes]:
    try:
        with np.load(io.BytesIO(data)) as archive:
            members = json.loads(bytes(archive["meta"]).decode())["members"]
            return [bytes(archive[f"member_{i}"]) for i in range(members)]
    except (KeyError, ValueError, OSError, EOFError) as exc:
        raise InputError(f"unreadable portfolio checkpoint: {exc}") from None


# --------------------------------------------------------------------------- the coordinator
class Portfolio:
    """Runs the members of one portfolio run and records it (see the module docstring)."""

    def __init__(
        self,
        store: RunStore,
        run_id: int,
        puzzle: Puzzle,
        params: TabuParams,
        members: list[Member],
        *,
        time_limit: float | None,
        moves: int | None,
        target: int | None,
        restart_spec: dict | None,
        share_after: int = SHARE_AFTER,
        checkpoint_every: float = 30.0,
        history_every: float = 1.0,
        elapsed: float = 0.0,
        progress: Callable[[Any], None] | None = None,
        stop: StopFlag | None = None,
    ):
        self.store, self.run_id, self.puzzle, self.params = store, run_id, puzzle, params
        self.members = members
        self.limits = {
            "time": time_limit,
            "moves": moves,
            "target": target,
            "share_after": share_after,
            "checkpoint_every": checkpoint_every,
        }
        self.restart_spec = restart_spec
        self.history_every = history_every
        self.checkpoint_every = checkpoint_every
        self.base_elapsed = elapsed
        self.progress = progress
        self.stop = stop if stop is not None else StopFlag()
        n = len(members)
        self.states: list[bytes | None] = [m.state for m in members]
        self.latest: list[dict] = [
            {"seconds": 0.0, "moves": 0, "score": 0, "best_score": -1, "mps": 0.0} for _ in range(n)
        ]
        self.summaries: list[dict | None] = [None] * n
        self.start_infos: list[dict | None] = [None] * n
        self.best_score = -1
        self.best_board: Board | None = None
        self.adoptions = 0

    def warm(self) -> None:
        """Compile (or load) the search's kernels here, once, before the members fork: each
        would otherwise spend its first seconds compiling on its own."""
        with self.stop.warm():
            TabuVLNS(self.params, seed=0).optimize(self.puzzle, max_moves=1)

    def run(self) -> dict:
        context = multiprocessing.get_context("fork")
        try:
            self.warm()
        except KeyboardInterrupt:
            self.stop.set()
        shared = SharedBest(self.puzzle.n_squares, context)
        best = self.store.best(self.run_id)
        if best is not None:  # a resumed run: the best so far is every member's to beat
            from ..formats import parse_board

            board = parse_board(best["board"], self.puzzle, "<run database>", "edgematch")
            self.best_score, self.best_board = verified_score(board, best["score"]), board
            shared.offer(self.best_score, board.tiles, board.rotations)
        messages = context.Queue()
        event = context.Event()
        text = format_puzzle(self.puzzle, "edgematch")
        processes = [
            context.Process(
                target=_member_main,
                args=(
                    text,
                    self.params.to_dict(),
                    m,
                    self.limits,
                    self.restart_spec,
                    shared,
                    messages,
                    event,
                    os.getpid(),
                ),
                name=f"edgematch-member-{m.index}",
                daemon=True,
            )
            for m in self.members
        ]
        started = time.perf_counter()
        last_history = last_checkpoint = time.monotonic()
        failure = None
        try:
            for process in processes:
                process.start()
            while any(s is None for s in self.summaries):
                if self.stop.is_set() and not event.is_set():
                    event.set()
                try:
                    message = messages.get(timeout=0.2)
                except queue.Empty:
                    dead = [i for i, p in enumerate(processes) if not p.is_alive() and self.summaries[i] is None]
                    if dead and messages.empty():
                        failure = (
                            failure or f"member {dead[0]} ended without a result (exit {processes[dead[0]].exitcode})"
                        )
                        break
                    continue
                failure = self._take(message) or failure
                if failure:
                    event.set()
                now = time.monotonic()
                if now - last_history >= self.history_every:
                    self._history(time.perf_counter() - started)
                    last_history = now
                if now - last_checkpoint >= self.checkpoint_every and all(s is not None for s in self.states):
                    self._checkpoint(time.perf_counter() - started)
                    last_checkpoint = now
                if self.progress is not None and message[0] in ("progress", "best"):
                    self.progress(self._view(time.perf_counter() - started, message[0] == "best"))
        finally:
            event.set()
            for process in processes:
                process.join(timeout=30)
                if process.is_alive():
                    process.kill()
        seconds = time.perf_counter() - started
        if all(s is not None for s in self.states):
            self._checkpoint(seconds)
        self._history(seconds)
        if failure:
            self.store.update_run(self.run_id, status="failed", stopped_by="error")
            raise RuntimeError(f"portfolio run {self.run_id}: {failure}")
        return self._finish(seconds)

    def _take(self, message) -> str | None:
        kind, index = message[0], message[1]
        if kind == "failed":
            return f"member {index} failed: {message[2]}"
        if kind == "state":
            self.states[index] = message[2]
            if message[3] is not None:
                self.start_infos[index] = message[3]
        elif kind == "progress":
            _, _, seconds, moves, score, best, mps = message
            self.latest[index] = {"seconds": seconds, "moves": moves, "score": score, "best_score": best, "mps": mps}
        elif kind == "best":
            _, _, seconds, moves, score, tiles, rotations = message
            board = Board(self.puzzle, np.array(tiles, np.int32), np.array(rotations, np.int8))
            if score > self.best_score:
                score = verified_score(board, score)
                self.best_score, self.best_board = score, board
                self.store.add_best(
                    self.run_id,
                    seconds,  # the member's own clock, which a resume carries on
                    self.total_moves(),
                    score,
                    format_board(board, "edgematch"),
                    viewer_url(board),
                    history=(seconds, self.total_moves(), score, score),
                )
        elif kind == "adopted":
            self.adoptions += 1
        elif kind == "done":
            self.states[index] = message[2]
            self.summaries[index] = message[3]
            self.latest[index].update(
                moves=message[3]["moves"], score=message[3]["score"], best_score=message[3]["best_score"], mps=0.0
            )
        return None

    def total_moves(self) -> int:
        return sum(int(m["moves"]) for m in self.latest)

    def _view(self, seconds: float, improved: bool) -> PortfolioProgress:
        return PortfolioProgress(
            seconds=self.base_elapsed + seconds,
            moves=self.total_moves(),
            score=max(int(m["score"]) for m in self.latest),
            best_score=self.best_score,
            max_score=self.puzzle.max_score,
            moves_per_second=sum(float(m["mps"]) for m in self.latest),
            improved=improved,
            members=[dict(m) for m in self.latest],
            _best=self.best_board,
        )

    def _history(self, seconds: float) -> None:
        score = max(int(m["score"]) for m in self.latest)
        self.store.add_history(self.run_id, [(self.base_elapsed + seconds, self.total_moves(), score, self.best_score)])

    def _checkpoint(self, seconds: float) -> None:
        states = [s for s in self.states if s is not None]
        score = max(int(m["score"]) for m in self.latest)
        self.store.checkpoint(
            self.run_id, self.base_elapsed + seconds, self.total_moves(), score, self.best_score, pack_states(states)
        )

    def _finish(self, seconds: float) -> dict:
        summaries = [s for s in self.summaries if s is not None]
        reasons = {s["stopped_by"] for s in summaries}
        if self.stop.is_set():
            stopped_by = str(self.stop.reason)
        elif "target" in reasons or (self.limits["target"] is not None and self.best_score >= self.limits["target"]):
            stopped_by = "target"
        else:
            stopped_by = sorted(reasons)[0] if reasons else "time"
        status = "interrupted" if stopped_by in (StopReason.INTERRUPTED, StopReason.CALLBACK) else "finished"
        info = self.store.run(self.run_id).info
        portfolio = dict(info.get("portfolio", {}))
        portfolio["adoptions"] = int(portfolio.get("adoptions", 0)) + self.adoptions
        if any(self.start_infos):
            portfolio["starts"] = self.start_infos
        self.store.update_run(
            self.run_id,
            status=status,
            stopped_by=stopped_by,
            seconds=self.base_elapsed + seconds,
            moves=self.total_moves(),
            score=max(int(m["score"]) for m in self.latest),
            info=info | {"portfolio": portfolio},
        )
        return {
            "stopped_by": stopped_by,
            "status": status,
            "seconds": self.base_elapsed + seconds,
            "moves": self.total_moves(),
            "score": max(int(m["score"]) for m in self.latest),
            "members": [{"seed": m.seed, **(s or {})} for m, s in zip(self.members, self.summaries, strict=True)],
            "adoptions": portfolio["adoptions"],
            "start_infos": self.start_infos,
        }


# --------------------------------------------------------------------------- front doors
def _members_of(plan, seeds: list[int]) -> list[Member]:
    """One member per seed, each building its own start the plan's way."""
    method = "board" if plan.start_board is not None else plan.start_method
    options = {
        "relax": plan.relax,
        "time_limit": plan.start_seconds,
        "schedule": plan.schedule,
        "node_limit": plan.start_nodes,
    }
    return [
        Member(
            i,
            seed,
            start_board=plan.start_board,
            start_method=method,
            start_options=None if method in ("board", "random") else options,
        )
        for i, seed in enumerate(seeds)
    ]


def _outcome(puzzle: Puzzle, portfolio: Portfolio, done: dict, run_id: int, stop: StopFlag, seed: int | None):
    from .optimize import OptimizeResult

    board = portfolio.best_board
    if board is None:
        raise RuntimeError(f"portfolio run {run_id}: no member reported a board")
    starts = [s for s in done["start_infos"] if s]
    start_seconds = max((float(s.get("seconds", 0.0)) for s in starts), default=0.0)
    return OptimizeResult(
        puzzle=puzzle,
        best_board=board,
        best_score=board.score(),
        max_score=puzzle.max_score,
        moves=done["moves"],
        seconds=done["seconds"],
        search_seconds=max(done["seconds"] - start_seconds, 0.0),
        stopped_by=done["stopped_by"],
        status=done["status"],
        seed=seed,
        start={"kind": starts[0]["kind"], "members": starts} if starts else None,
        run_id=run_id,
        url=viewer_url(board),
        signal=stop.signal,
        portfolio={"members": done["members"], "adoptions": done["adoptions"]},
    )


def run_portfolio(plan, *, progress=None, note=None, stop: StopFlag | None = None):
    """A checked plan (:func:`edgematch.runs.optimize.plan_run`, ``jobs`` > 1) as a portfolio run."""
    stop = stop if stop is not None else StopFlag()
    puzzle = plan.puzzle
    seeds = member_seeds(plan.seed, plan.jobs)
    members = _members_of(plan, seeds)
    if note is not None:
        note(f"portfolio of {plan.jobs} searches on {puzzle.name or 'puzzle'}: seeds {', '.join(map(str, seeds))}")
    with RunStore(plan.db) as store:
        run_id = store.create_run(
            puzzle_name=puzzle.name or "puzzle",
            puzzle_text=format_puzzle(puzzle, "edgematch"),
            max_score=puzzle.max_score,
            method="tabu-vlns",
            params=plan.params.to_dict(),
            seed=plan.seed,
            start=members[0].start_method,
            budget_seconds=plan.time_limit,
            max_moves=plan.moves,
            target=plan.target,
            info={
                "start": {"kind": members[0].start_method, "board": plan.start_name},
                "restart": plan.restart_spec(),
                "portfolio": {"members": plan.jobs, "seeds": seeds, "share_after": plan.share_after},
            },
        )
        portfolio = Portfolio(
            store,
            run_id,
            puzzle,
            plan.params,
            members,
            time_limit=plan.time_limit,
            moves=plan.moves,
            target=plan.target,
            restart_spec=plan.restart_spec(),
            share_after=plan.share_after,
            checkpoint_every=plan.checkpoint_every,
            history_every=plan.history_every,
            progress=progress,
            stop=stop,
        )
        done = portfolio.run()
    return _outcome(puzzle, portfolio, done, run_id, stop, plan.seed)


def resume_portfolio(run_id: int, *, db=None, time_limit=None, checkpoint_every=30.0, progress=None, stop=None):
    """Continue portfolio run ``run_id``: every member from its state in the newest checkpoint,
    for ``time_limit`` seconds (default: what is left of the run's budget)."""
    stop = stop if stop is not None else StopFlag()
    with RunStore(db) as store:
        record, checkpoint, puzzle = open_resumable(store, run_id)
        states = unpack_states(checkpoint["state"])
        info = record.info["portfolio"]
        seeds = list(info["seeds"])
        if len(states) != len(seeds):
            raise InputError(f"run {run_id}: its checkpoint holds {len(states)} of {len(seeds)} members")
        elapsed = float(checkpoint["seconds"])
        time_limit = claim_for_resume(store, record, elapsed, time_limit)
        members = [Member(i, seed, state=state) for i, (seed, state) in enumerate(zip(seeds, states, strict=True))]
        portfolio = Portfolio(
            store,
            run_id,
            puzzle,
            TabuParams.from_dict(record.params),
            members,
            time_limit=time_limit,
            moves=record.max_moves,
            target=record.target,
            restart_spec=record.info.get("restart"),
            share_after=int(info.get("share_after", SHARE_AFTER)),
            checkpoint_every=checkpoint_every,
            elapsed=elapsed,
            progress=progress,
            stop=stop,
        )
        for i, state in enumerate(states):  # the members' counters as checkpointed
            saved = SearchState.from_bytes(state)
            portfolio.latest[i].update(moves=saved.moves, score=saved.score, best_score=saved.best_score)
        done = portfolio.run()
    return _outcome(puzzle, portfolio, done, run_id, stop, record.seed)
