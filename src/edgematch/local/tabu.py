"""Tabu search over the assignment neighbourhood (Schaus & Deville 2008, Algorithm 1).

Scikit-learn style: parameters in the constructor, the puzzle in the call::

    search = TabuVLNS(set_size=16, seed=7)
    result = search.optimize(puzzle, time_limit=60)
    result.best_score, result.best_board, result.history

The moves run in compiled code (:mod:`.tabu_kernel`) in batches of about
``batch_seconds`` (with ``assignment="scipy"`` Python calls SciPy once per move between
two compiled calls); between batches Python checks the clock and the other end conditions
and calls ``callback(progress)``, which can save a checkpoint (``progress.state()``) or
stop the search by returning False.  Everything the search needs to continue is in a
:class:`SearchState` (board, best board, tabu lists, random generator, counters, elapsed
time); ``optimize(..., state=saved)`` continues exactly where ``saved`` was taken.

About the defaults: the paper describes Algorithm 1 and its rules (violated squares
chosen first, tenures drawn between two bounds, diversification by random swap-and-rotate
moves on a plateau, intensification by restoring the best board after a number of
plateaus without a new best, end after a number of intensifications) but publishes none
of the numbers.  The defaults here follow its rules with values tuned on ``e2`` (see
docs/optimize.md); every one can be changed.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..engines.base import Limits, StopFlag, StopReason
from ..errors import InputError
from ..model import Board, Puzzle
from . import tabu_kernel as K
from .kernels import all_matches
from .rng import seed_state
from .starts import random_start
from .state import LocalState
from .tables import build_tables

SELECTION_CODES = {"random": K.SEL_RANDOM, "violated": K.SEL_VIOLATED, "checkerboard": K.SEL_CHECKERBOARD}
ROTATION_CODES = {"best": K.ROT_BEST, "random": K.ROT_RANDOM}
TIE_CODES = {"first": 0, "random": 1}
ASSIGNMENT_SOLVERS = ("scipy", "compiled")
#: the solver of runs recorded before ``assignment`` existed (they resume as they ran)
LEGACY_ASSIGNMENT = "compiled"
#: the arc tabu table is exact up to this many entries (n_squares**2), hashed beyond
MAX_ARC_TABLE = 1 << 22


@dataclass(frozen=True)
class TabuParams:
    """Every parameter of Algorithm 1.

    set_size, set_size_max:
        |S|, the number of holes per move (drawn uniformly in ``set_size..set_size_max``
        each move when ``set_size_max`` is larger).
    selection:
        How S is chosen: ``violated`` (most unmatched sides first, the paper's choice),
        ``random`` or ``checkerboard`` (one colour of the chessboard).
    position_tenure:
        (min, max) moves a square stays tabu after being in S (0, 0: no such tabu list).
    arc_tenure:
        (min, max) moves the reverse of a piece's move stays forbidden.
    plateau_length:
        Moves without a score above the best since the last diversification that make a
        plateau (0: never diversify).
    diversify_moves:
        Random swap-and-rotate moves made on a plateau.
    diversify_rotation:
        ``best`` (each exchanged tile turned to its best fitting rotation) or ``random``.
    intensify_after:
        Plateaus without a new best after which the best board is restored (0: never).
    max_intensifications:
        End condition of the paper: stop after that many intensifications (0: no limit;
        time, moves and target end a run too).
    tie_break:
        ``random``: among optimal assignments (and equally good rotations) one is taken
        at random, so that the search drifts across plateaus; ``first``: deterministic.
    assignment:
        Who solves each move's maximum-weight assignment: ``scipy``
        (``scipy.optimize.linear_sum_assignment(weights, maximize=True)``, called from
        Python between two compiled halves of the move) or ``compiled`` (our Hungarian
        method, :mod:`.hungarian`, inside one compiled loop).  Both solve the same
        matrices exactly and share every other step; with ``tie_break="random"`` the
        optimum is unique in practice and both make the very same run, with ``first``
        they may pick different assignments among equally good ones, so a run is
        reproducible within its mode (the mode is recorded with a run and kept on
        resume).  The default is ``compiled`` because the SciPy path is too slow for
        the rule we set (within a factor 1.5 of the compiled path, else compiled): on
        ``e2`` with the other defaults, 20 s each from the same random start, the
        compiled path made 39 100 and 40 400 moves/s, the SciPy path 22 100 and
        23 700 (1.7 to 1.8 times slower; load average 3.5 to 3.9 on 2 cores).  Of the
        roughly 18 extra microseconds per move, about 8 are SciPy's solver against ours
        on these 16 to 32 square matrices, the rest the round trip through Python (a
        compiled call whose 26 array arguments are unboxed every move, about 5, and the
        loop and cache misses around it).
    """

    set_size: int = 16
    set_size_max: int | None = 32
    selection: str = "violated"
    position_tenure: tuple[int, int] = (2, 6)
    arc_tenure: tuple[int, int] = (5, 20)
    plateau_length: int = 200
    diversify_moves: int = 4
    diversify_rotation: str = "best"
    intensify_after: int = 100
    max_intensifications: int = 0
    tie_break: str = "random"
    forced_moves: int = 0
    accept_slack: int = -1
    penalty: int = 0
    penalty_decay: int = 0
    restart_after: int = 0
    assignment: str = "compiled"

    def __post_init__(self):
        object.__setattr__(self, "position_tenure", tuple(int(x) for x in self.position_tenure))
        object.__setattr__(self, "arc_tenure", tuple(int(x) for x in self.arc_tenure))
        self.validate()

    def validate(self) -> None:
        if self.set_size < 2:
            raise InputError(f"set_size {self.set_size} is too small (at least 2)")
        if self.set_size_max is not None and self.set_size_max < self.set_size:
            raise InputError(f"set_size_max {self.set_size_max} is below set_size {self.set_size}")
        if self.selection not in SELECTION_CODES:
            raise InputError(f"unknown selection '{self.selection}' (known: {', '.join(SELECTION_CODES)})")
        if self.diversify_rotation not in ROTATION_CODES:
            raise InputError(f"unknown diversify_rotation '{self.diversify_rotation}' (best or random)")
        if self.tie_break not in TIE_CODES:
            raise InputError(f"unknown tie_break '{self.tie_break}' (random or first)")
        if self.assignment not in ASSIGNMENT_SOLVERS:
            raise InputError(f"unknown assignment solver '{self.assignment}' (scipy or compiled)")
        for name in ("position_tenure", "arc_tenure"):
            low, high = getattr(self, name)
            if len(getattr(self, name)) != 2 or low < 0 or high < low:
                raise InputError(f"{name} must be two bounds 0 <= min <= max, got {getattr(self, name)}")
        for name in (
            "plateau_length",
            "diversify_moves",
            "intensify_after",
            "max_intensifications",
            "forced_moves",
            "penalty",
            "penalty_decay",
            "restart_after",
        ):
            if getattr(self, name) < 0:
                raise InputError(f"{name} must not be negative")

    @classmethod
    def plain_lns(cls, set_size: int, selection: str = "random") -> TabuParams:
        """The bare large-neighbourhood move of the paper's Figure 3: no tabu lists, no
        diversification, no intensification."""
        return cls(
            set_size=set_size,
            set_size_max=None,
            selection=selection,
            position_tenure=(0, 0),
            arc_tenure=(0, 0),
            plateau_length=0,
            diversify_moves=0,
            intensify_after=0,
        )

    def as_array(self, n_squares: int) -> np.ndarray:
        size_max = self.set_size if self.set_size_max is None else self.set_size_max
        cap = max(2, n_squares)
        values = np.zeros(K.N_PARAMS, dtype=np.int64)
        values[K.P_SIZE_MIN] = min(self.set_size, cap)
        values[K.P_SIZE_MAX] = min(size_max, cap)
        values[K.P_SELECTION] = SELECTION_CODES[self.selection]
        values[K.P_POS_MIN], values[K.P_POS_MAX] = self.position_tenure
        values[K.P_ARC_MIN], values[K.P_ARC_MAX] = self.arc_tenure
        values[K.P_PLATEAU] = self.plateau_length
        values[K.P_DIV_MOVES] = self.diversify_moves
        values[K.P_DIV_ROTATION] = ROTATION_CODES[self.diversify_rotation]
        values[K.P_INTENSIFY] = self.intensify_after
        values[K.P_MAX_INTENSIFY] = self.max_intensifications
        values[K.P_TIE_RANDOM] = TIE_CODES[self.tie_break]
        values[K.P_FORCE] = self.forced_moves
        values[K.P_ACCEPT_SLACK] = self.accept_slack
        values[K.P_PENALTY] = self.penalty
        values[K.P_PENALTY_DECAY] = self.penalty_decay
        return values

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["position_tenure"] = list(self.position_tenure)
        data["arc_tenure"] = list(self.arc_tenure)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TabuParams:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InputError(f"unknown tabu parameter(s): {', '.join(sorted(unknown))}")
        data = dict(data)
        data.setdefault("assignment", LEGACY_ASSIGNMENT)  # recorded before the choice existed
        return cls(**data)


# --------------------------------------------------------------------------- state
@dataclass
class SearchState:
    """Everything a search needs to continue: saved in checkpoints, restored on resume."""

    tile: np.ndarray
    rot: np.ndarray
    best_tile: np.ndarray
    best_rot: np.ndarray
    tabu_pos: np.ndarray
    tabu_arc: np.ndarray
    rng: np.ndarray  # xoshiro256** words
    counters: np.ndarray
    local_tile: np.ndarray  # the accepted local optimum (acceptance criterion)
    local_rot: np.ndarray
    side_weights: np.ndarray  # (n_squares, 4) weight of each join side in the assignment (penalties)
    segment_tile: np.ndarray  # best board of the current segment (since the last restart)
    segment_rot: np.ndarray
    elapsed: float = 0.0
    history: list[tuple[float, int]] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return int(self.counters[K.MOVES])

    @property
    def score(self) -> int:
        return int(self.counters[K.SCORE])

    @property
    def best_score(self) -> int:
        return int(self.counters[K.RUN_BEST])

    @property
    def segment(self) -> int:
        return int(self.counters[K.SEGMENT])

    def copy(self) -> SearchState:
        arrays = {f.name: getattr(self, f.name).copy() for f in fields(self)[:13]}
        return replace(self, **arrays, history=list(self.history))

    def board(self, puzzle: Puzzle) -> Board:
        return Board(puzzle, self.tile.astype(np.int32), self.rot.astype(np.int8))

    def best_board(self, puzzle: Puzzle) -> Board:
        return Board(puzzle, self.best_tile.astype(np.int32), self.best_rot.astype(np.int8))

    def to_bytes(self) -> bytes:
        """A compressed NumPy archive of the state (what a checkpoint stores)."""
        buffer = io.BytesIO()
        arrays = {f.name: getattr(self, f.name) for f in fields(self)[:13]}
        meta = json.dumps({"elapsed": self.elapsed, "history": self.history})
        np.savez_compressed(buffer, meta=np.frombuffer(meta.encode(), dtype=np.uint8), **arrays)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> SearchState:
        try:
            with np.load(io.BytesIO(data)) as archive:
                arrays = {f.name: archive[f.name].copy() for f in fields(cls)[:13]}
                meta = json.loads(bytes(archive["meta"]).decode())
        except (KeyError, ValueError, OSError, EOFError) as exc:
            raise InputError(f"unreadable search state (a checkpoint of another version?): {exc}") from None
        return cls(**arrays, elapsed=float(meta["elapsed"]), history=[tuple(h) for h in meta["history"]])

    @classmethod
    def fresh(cls, start: LocalState, rng_words: np.ndarray) -> SearchState:
        n = start.puzzle.n_squares
        counters = np.zeros(K.N_COUNTERS, dtype=np.int64)
        counters[K.SCORE] = counters[K.BEST] = counters[K.PLATEAU_REF] = counters[K.LOCAL] = start.score
        counters[K.RUN_BEST] = start.score
        return cls(
            tile=start.tile.copy(),
            rot=start.rot.copy(),
            best_tile=start.tile.copy(),
            best_rot=start.rot.copy(),
            tabu_pos=np.zeros(n, dtype=np.int64),
            tabu_arc=np.zeros(min(n * n, MAX_ARC_TABLE), dtype=np.int64),
            rng=rng_words.astype(np.uint64),
            counters=counters,
            local_tile=start.tile.copy(),
            local_rot=start.rot.copy(),
            side_weights=np.ones((n, 4), dtype=np.int64),
            segment_tile=start.tile.copy(),
            segment_rot=start.rot.copy(),
            elapsed=0.0,
            history=[(0.0, start.score)],
        )


# --------------------------------------------------------------------------- results
@dataclass
class Progress:
    """What a callback sees between batches."""

    seconds: float
    moves: int
    score: int
    best_score: int
    max_score: int
    moves_per_second: float
    improved: bool
    _search: _Running

    def state(self) -> SearchState:
        """A copy of the full search state (for a checkpoint)."""
        return self._search.state.copy()

    def best_board(self) -> Board:
        return self._search.state.best_board(self._search.puzzle)

    def board(self) -> Board:
        return self._search.state.board(self._search.puzzle)

    @property
    def counters(self) -> dict[str, int]:
        return counter_dict(self._search.state.counters)


@dataclass
class LocalSearchResult:
    """The outcome of :meth:`TabuVLNS.optimize`.

    ``history`` lists ``(seconds, best score)`` each time a batch ended with a new best
    (seconds count from the start of the run, resumed runs included).
    """

    best_score: int
    best_board: Board
    board: Board
    score: int
    max_score: int
    seconds: float
    moves: int
    stopped_by: str
    history: list[tuple[float, int]]
    statistics: dict[str, Any]
    state: SearchState

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0


def counter_dict(counters: np.ndarray) -> dict[str, int]:
    names = [
        "moves",
        "score",
        "best",
        "plateau_ref",
        "last_progress",
        "plateaus",
        "intensifications",
        "diversifications",
        "best_move",
        "changing_moves",
        "local_optimum",
        "penalty_bumps",
        "run_best",
        "segment",
        "segment_start",
    ]
    return {name: int(counters[i]) for i, name in enumerate(names)}


@dataclass
class _Running:
    puzzle: Puzzle
    state: SearchState


ProgressCallback = Callable[[Progress], Any]


class _Moves:
    """The work arrays of the moves and the two ways to run a batch of them.

    Allocated once per :meth:`TabuVLNS.optimize` call, so that a move creates no Python
    object beyond what SciPy needs (the scipy mode's ``k x k`` views of ``matrix`` are made
    here too, one per possible ``k``).
    """

    def __init__(
        self, tables, movable: np.ndarray, params: np.ndarray, state: SearchState, matched: np.ndarray, solver: str
    ):
        n = tables.n_squares
        cap = max(int(params[K.P_SIZE_MAX]), 2)
        self.work = np.zeros((K.N_WORK_ROWS, n), dtype=np.int64)
        self.needs = np.empty((cap, 4), dtype=np.int64)
        self.raw = np.empty((cap, cap), dtype=np.int64)
        self.best_r = np.empty((cap, cap), dtype=np.int64)
        # SciPy works in float64: the weights (integers below 2**45, exact in a double) are
        # written as such, which spares SciPy a conversion per move
        self.matrix = np.zeros(cap * cap, dtype=np.float64 if solver == "scipy" else np.int64)
        self.assign = np.zeros(cap, dtype=np.int64)
        self.hungarian = np.zeros((5, cap + 1), dtype=np.int64)
        self.used = np.zeros(cap + 1, dtype=np.bool_)
        self.views = [self.matrix[: k * k].reshape(k, k) for k in range(cap + 1)]
        # the arguments every batch passes (the arrays are updated in place)
        self.head = (
            tables.rotated,
            tables.neighbours,
            tables.outer_mask,
            tables.fit,
            tables.parity,
            tables.inner_sides,
            movable,
            state.tile,
            state.rot,
            matched,
            state.segment_tile,
            state.segment_rot,
            state.local_tile,
            state.local_rot,
            state.tabu_pos,
            state.tabu_arc,
            state.rng,
            state.counters,
            state.side_weights,
            params,
        )
        self.tail = (self.work, self.needs, self.raw, self.best_r, self.matrix)

    def compiled_batch(self, end: int, target: int) -> int:
        """Moves up to move ``end``, all in one compiled call (compiled Hungarian method)."""
        return K.tabu_run(*self.head, end, target, *self.tail, self.assign, self.hungarian, self.used)

    def scipy_batch(self, end: int, target: int) -> int:
        """Moves up to move ``end``, each assignment solved by SciPy between two compiled calls."""
        step, solve, views = K.tabu_step, linear_sum_assignment, self.views
        args = [*self.head, end, target, *self.tail, -1, self.assign]
        code, k = step(*args)
        while code == K.MOVE_PENDING:
            args[-2] = k
            args[-1] = solve(views[k], maximize=True)[1]
            code, k = step(*args)
        return code


# --------------------------------------------------------------------------- the search
class TabuVLNS:
    """Tabu search with the very large (assignment) neighbourhood.

    ``TabuVLNS(params=None, *, seed=None, batch_seconds=0.1, **overrides)``: ``overrides``
    are :class:`TabuParams` fields (``TabuVLNS(set_size=8)``).
    """

    def __init__(
        self, params: TabuParams | None = None, *, seed: int | None = None, batch_seconds: float = 0.1, **overrides
    ):
        params = params or TabuParams()
        if overrides:
            unknown = set(overrides) - {f.name for f in fields(TabuParams)}
            if unknown:
                raise InputError(f"unknown tabu parameter(s): {', '.join(sorted(unknown))}")
            params = replace(params, **overrides)
        self.params = params
        self.seed = seed
        self.batch_seconds = batch_seconds

    # ------------------------------------------------------------------ states
    def _seeds(self) -> tuple[np.random.SeedSequence, np.random.SeedSequence]:
        start_seq, search_seq = np.random.SeedSequence(self.seed).spawn(2)
        return start_seq, search_seq

    def initial_state(self, puzzle: Puzzle, start_board: Board | None = None) -> SearchState:
        """The state a fresh search starts from (a random start when no board is given)."""
        start_seq, search_seq = self._seeds()
        if start_board is None:
            start_board = random_start(puzzle, np.random.default_rng(start_seq))
        elif start_board.puzzle != puzzle:
            raise InputError("the start board belongs to another puzzle")
        local = LocalState.from_board(start_board)
        return SearchState.fresh(local, seed_state(search_seq))

    # ------------------------------------------------------------------ the run
    def optimize(
        self,
        puzzle: Puzzle,
        start_board: Board | None = None,
        *,
        time_limit: float | None = None,
        max_moves: int | None = None,
        target: int | None = None,
        callback: ProgressCallback | None = None,
        state: SearchState | None = None,
        restart: Callable[[Puzzle, int], Board] | None = None,
        limits: Limits | None = None,
        stop: StopFlag | None = None,
        adopt: Callable[[SearchState], Board | None] | None = None,
    ) -> LocalSearchResult:
        """Improve a board until an end condition; returns the best board found.

        ``time_limit`` (seconds of this call, or ``limits=Limits(time=...)``, the limits
        every engine takes: they are validated there), ``max_moves`` (total moves of the
        run), ``target`` (stop once the best score reaches it; default the maximum score)
        and the paper's ``max_intensifications`` end a run; so does a callback returning
        False (``stopped_by="callback"``) or ``stop`` being set, by
        :func:`~edgematch.engines.base.stop_on_signals` on Ctrl-C say (``stopped_by`` is
        then ``stop.reason``, ``"interrupted"``); both are checked between batches.
        ``state`` continues a saved search (``start_board`` is then ignored).

        With ``restart_after`` set, a segment that has not improved its own best for that
        many moves ends, and the search starts afresh from ``restart(puzzle, segment)``
        (default: a random board drawn from the seed and the segment number); the run's
        best board is kept across segments.  ``adopt`` (a portfolio's member) is asked before
        every batch for a board to go on from; a board it returns begins a new segment
        there, as a restart would.
        """
        limits = Limits.of(limits, time_limit=time_limit)
        if limits.nodes is not None or limits.solutions is not None:
            raise InputError("the tabu search counts moves, not nodes or solutions: give max_moves")
        time_limit = limits.time
        if max_moves is not None and (isinstance(max_moves, bool) or int(max_moves) != max_moves or max_moves < 0):
            raise InputError(f"max_moves must be a whole number >= 0, not {max_moves!r}")
        if time_limit is None and max_moves is None and not self.params.max_intensifications:
            raise InputError("give an end condition: time_limit, max_moves or max_intensifications")
        tables = build_tables(puzzle)
        if state is None:
            state = self.initial_state(puzzle, start_board)
        else:
            state = state.copy()
            self._check_state(puzzle, state)
        target = puzzle.max_score if target is None else int(target)
        params = self.params.as_array(puzzle.n_squares)
        movable = np.flatnonzero(~tables.fixed).astype(np.int64)
        matched = np.zeros(puzzle.n_squares, dtype=np.int64)
        state.counters[K.SCORE] = all_matches(tables.rotated, tables.neighbours, state.tile, state.rot, matched)
        running = _Running(puzzle, state)
        moves = _Moves(tables, movable, params, state, matched, self.params.assignment)
        run_batch = moves.scipy_batch if self.params.assignment == "scipy" else moves.compiled_batch

        started = time.perf_counter()
        base_elapsed = state.elapsed
        moves_at_start = state.moves
        batch = 256
        stopped_by = None
        last_best = state.best_score
        if state.best_score >= target:
            stopped_by = "target"
        elif stop is not None and stop.is_set():  # asked to stop before the first move
            stopped_by = str(stop.reason)
        while stopped_by is None:
            if self._restart_due(state):  # checked before every batch: restarts happen at exact move numbers
                self._begin_segment(puzzle, state, self._restart_board(puzzle, state, restart), matched)
            if adopt is not None:
                board = adopt(state)
                if board is not None:
                    self._begin_segment(puzzle, state, board, matched)
            end = state.moves + batch
            if max_moves is not None:
                end = min(end, int(max_moves))
            if self.params.restart_after:  # never run past the move at which the segment would end
                c = state.counters
                end = min(end, max(int(c[K.BEST_MOVE]), int(c[K.SEGMENT_START])) + self.params.restart_after)
            moves_before = state.moves
            t0 = time.perf_counter()
            if stop is not None and state.moves == moves_at_start:
                # the first batch compiles the kernels (seconds on a cold cache): a signal
                # then interrupts the compiler at once (see StopFlag.warming)
                try:
                    with stop.warm():
                        code = run_batch(end, target)
                except KeyboardInterrupt:
                    stopped_by = str(StopReason.INTERRUPTED)
                    break
            else:
                code = run_batch(end, target)
            now = time.perf_counter()
            spent = now - t0
            state.elapsed = base_elapsed + (now - started)
            if state.counters[K.BEST] > state.counters[K.RUN_BEST]:
                state.best_tile[:] = state.segment_tile
                state.best_rot[:] = state.segment_rot
                state.counters[K.RUN_BEST] = state.counters[K.BEST]
            improved = state.best_score > last_best
            if improved:
                state.history.append((round(state.elapsed, 4), state.best_score))
                last_best = state.best_score
            if code == K.TARGET_REACHED:
                stopped_by = "target"
            elif code == K.INTENSIFICATIONS_DONE:
                stopped_by = "intensifications"
            elif max_moves is not None and state.moves >= max_moves:
                stopped_by = "moves"
            elif time_limit is not None and now - started >= time_limit:
                stopped_by = "time"
            elif stop is not None and stop.is_set():
                stopped_by = str(stop.reason)
            if callback is not None:
                progress = Progress(
                    seconds=state.elapsed,
                    moves=state.moves,
                    score=state.score,
                    best_score=state.best_score,
                    max_score=puzzle.max_score,
                    moves_per_second=(state.moves - moves_before) / spent if spent > 0 else 0.0,
                    improved=improved,
                    _search=running,
                )
                if callback(progress) is False and stopped_by is None:
                    stopped_by = "callback"
            # aim at batch_seconds per batch, without ever running past the time limit by much
            if spent > 0:
                goal = self.batch_seconds
                if time_limit is not None:
                    goal = max(min(goal, time_limit - (now - started)), 0.005)
                batch = int(min(max(batch * goal / spent, 16), batch * 4))
            else:
                batch *= 4
        seconds = state.elapsed
        best_board = state.best_board(puzzle)
        return LocalSearchResult(
            best_score=state.best_score,
            best_board=best_board,
            board=state.board(puzzle),
            score=state.score,
            max_score=puzzle.max_score,
            seconds=seconds,
            moves=state.moves,
            stopped_by=stopped_by,
            history=list(state.history),
            statistics=counter_dict(state.counters) | {"params": self.params.to_dict(), "seed": self.seed},
            state=state,
        )

    def _restart_due(self, state: SearchState) -> bool:
        after = self.params.restart_after
        if not after:
            return False
        c = state.counters
        return int(c[K.MOVES]) - max(int(c[K.BEST_MOVE]), int(c[K.SEGMENT_START])) >= after

    def _restart_board(self, puzzle: Puzzle, state: SearchState, restart) -> Board:
        """The start board of the next segment: ``restart``'s, or random from the seed."""
        segment = int(state.counters[K.SEGMENT]) + 1
        if restart is None:
            seq = np.random.SeedSequence([0 if self.seed is None else int(self.seed), segment])
            return random_start(puzzle, np.random.default_rng(seq))
        return restart(puzzle, segment)

    def _begin_segment(self, puzzle: Puzzle, state: SearchState, board: Board, matched: np.ndarray) -> None:
        """Begin the next segment from ``board`` (tabu lists and penalties cleared)."""
        segment = int(state.counters[K.SEGMENT]) + 1
        local = LocalState.from_board(board)
        tables = build_tables(puzzle)
        for name in ("tile", "local_tile", "segment_tile"):
            getattr(state, name)[:] = local.tile
        for name in ("rot", "local_rot", "segment_rot"):
            getattr(state, name)[:] = local.rot
        state.tabu_pos[:] = 0
        state.tabu_arc[:] = 0
        state.side_weights[:] = 1
        c = state.counters
        score = int(all_matches(tables.rotated, tables.neighbours, state.tile, state.rot, matched))
        c[K.SCORE] = c[K.BEST] = c[K.PLATEAU_REF] = c[K.LOCAL] = score
        c[K.LAST_PROGRESS] = c[K.BEST_MOVE] = c[K.SEGMENT_START] = c[K.MOVES]
        c[K.PLATEAUS] = 0
        c[K.SEGMENT] = segment
        # tabu stamps are absolute move numbers: cleared lists stay consistent
        if score > c[K.RUN_BEST]:
            state.best_tile[:] = state.tile
            state.best_rot[:] = state.rot
            c[K.RUN_BEST] = score

    @staticmethod
    def _check_state(puzzle: Puzzle, state: SearchState) -> None:
        n = puzzle.n_squares
        shapes_ok = (
            all(
                getattr(state, name).shape == (n,)
                for name in (
                    "tile",
                    "rot",
                    "best_tile",
                    "best_rot",
                    "local_tile",
                    "local_rot",
                    "segment_tile",
                    "segment_rot",
                    "tabu_pos",
                )
            )
            and state.side_weights.shape == (n, 4)
            and state.counters.shape == (K.N_COUNTERS,)
            and state.rng.shape == (4,)
            and state.tabu_arc.ndim == 1
            and len(state.tabu_arc) > 0
        )
        if not shapes_ok:
            raise InputError("the saved search state does not belong to this puzzle")
        for arr in (state.tile, state.best_tile, state.local_tile, state.segment_tile):
            if sorted(arr.tolist()) != list(range(puzzle.n_tiles)):
                raise InputError("the saved search state is not a complete board of this puzzle")
        state.tile = state.tile.astype(np.int64)
        state.rot = state.rot.astype(np.int64)
        state.best_tile = state.best_tile.astype(np.int64)
        state.best_rot = state.best_rot.astype(np.int64)
        state.local_tile = state.local_tile.astype(np.int64)
        state.local_rot = state.local_rot.astype(np.int64)
        state.segment_tile = state.segment_tile.astype(np.int64)
        state.segment_rot = state.segment_rot.astype(np.int64)
        state.rng = state.rng.astype(np.uint64)
