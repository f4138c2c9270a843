"""The contract every engine speaks: limits, stop reasons, stopping, and the slice driver.

An engine knows how to build its kernel's arrays and how to run one slice of its kernel;
everything around that (budgets, limits, progress reports, handing solutions to callbacks,
stopping on a limit, a flag or Ctrl-C) is written once here, in :class:`SliceDriver`, so
that parallel runs, progress bars and storage can rely on every engine behaving alike.

* :class:`Limits` - time, nodes, solutions; validated once, for every engine and command.
* :class:`StopReason` - why an incomplete search ended (``SearchResult.stopped_by``).
* :class:`StopFlag` - a cooperative stop request that engines poll between slices.
* :class:`SliceDriver` - runs ``run_slice(budget)`` until the search ends.
* :class:`Engine` - the methods every engine offers; those it cannot do raise
  :class:`~edgematch.errors.InputError` with one clear line.
"""

from __future__ import annotations

import contextlib
import math
import signal
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..errors import InputError
from ..model import Board, Puzzle
from ..model.symmetry import symmetry_variants
from .result import SearchResult

ProgressCallback = Callable[[dict], None]


class StopReason(StrEnum):
    """Why a search stopped before exhausting its space (``result.stopped_by``).

    The values are the plain strings that JSON output and older scripts use.
    """

    TIME = "time"  #: the time limit ran out
    NODES = "nodes"  #: the node limit was reached
    SOLUTIONS = "solutions"  #: the wanted number of solutions was found
    TARGET = "target"  #: a best-score search reached its target score
    CALLBACK = "callback"  #: a callback returned True
    INTERRUPTED = "interrupted"  #: Ctrl-C, SIGTERM or a stop flag
    RESTARTS = "restarts"  #: a restart policy ran out of restarts


def _check_seconds(value, what: str) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a number of seconds, not {value!r}") from None
    if math.isnan(seconds) or math.isinf(seconds) or seconds < 0:
        raise InputError(f"{what} must be a finite number of seconds >= 0, not {value!r} (leave it out for no limit)")
    return seconds


def _check_count(value, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise InputError(f"{what} must be a whole number >= 1, not {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a whole number >= 1, not {value!r}") from None
    if math.isnan(number) or math.isinf(number) or number != int(number) or number < 1:
        raise InputError(f"{what} must be a whole number >= 1, not {value!r} (leave it out for no limit)")
    return int(number)


@dataclass(frozen=True)
class Limits:
    """When a search stops early: after ``time`` seconds, ``nodes`` nodes or ``solutions``
    solutions (``None``: no such limit). Meaningless values (negative, NaN, infinite, zero
    nodes) raise :class:`InputError` here, once for every engine."""

    time: float | None = None
    nodes: int | None = None
    solutions: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "time", _check_seconds(self.time, "the time limit"))
        object.__setattr__(self, "nodes", _check_count(self.nodes, "the node limit"))
        object.__setattr__(self, "solutions", _check_count(self.solutions, "the number of solutions"))

    @classmethod
    def of(cls, limits: Limits | None = None, *, time_limit=None, node_limit=None, solutions=None) -> Limits:
        """``limits`` with any of the loose keywords (the engines' older spelling) added."""
        base = limits or cls()
        return cls(
            time=base.time if time_limit is None else time_limit,
            nodes=base.nodes if node_limit is None else node_limit,
            solutions=base.solutions if solutions is None else solutions,
        )

    def replace(self, **changes) -> Limits:
        data: dict[str, Any] = {"time": self.time, "nodes": self.nodes, "solutions": self.solutions}
        data.update(changes)
        return Limits(**data)


#: The exceptions that interrupted a kernel's compilation, kept for the life of the process.
#: Their tracebacks hold the compiler's half-built LLVM objects, and llvmlite marks an object
#: as handed over only after the call that hands it over: freeing them could free one twice
#: (a segmentation fault in about one interrupted cold compile of twenty under load).
#: llvmlite frees nothing at interpreter exit, so there they are safe.
_INTERRUPTED_COMPILES: list[BaseException] = []


def _keep_interrupted_compile(error: BaseException) -> None:
    if not any(kept is error for kept in _INTERRUPTED_COMPILES):
        _INTERRUPTED_COMPILES.append(error)


class StopFlag:
    """A request to stop, set from a signal handler or another thread and polled by the
    slice driver between slices (so a search stops within one slice, about 0.25 s).

    Engines whose work is one long library call (CP-SAT's ``Solve``) register a hook,
    called the moment the flag is set, that stops that call from inside.  ``warming`` is
    True while a driver runs its first slice, which may spend seconds compiling a kernel:
    a signal then interrupts the compilation at once instead of waiting for it.
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._hooks: list[Callable[[], Any]] = []
        self.reason = StopReason.INTERRUPTED
        self.signal: int | None = None  # the signal that asked for the stop, if one did
        self.warming = False
        #: True once a signal interrupted a warming block (the compiler) with KeyboardInterrupt
        self.interrupted_warming = False
        #: Called by the signal watcher when a signal came while warming and the main thread
        #: has not taken it within :data:`ABANDON_AFTER` seconds (stuck in a compiler).
        self.abandon: Callable[[], Any] | None = None

    def working(self) -> None:
        """The search has begun its real work: from now on a signal stops it between slices."""
        self.warming = False

    @contextlib.contextmanager
    def warm(self):
        """A block that may spend seconds compiling kernels: a signal interrupts it at once
        (KeyboardInterrupt).  The handler's KeyboardInterrupt may land inside a library
        callback that swallows it (LLVM's object cache), leaving the compiler to fail with
        an error of its own; an error after a signal set the flag is that interruption."""
        self.warming = True
        try:
            yield
        except KeyboardInterrupt as interruption:
            _keep_interrupted_compile(interruption)
            raise
        except Exception as error:
            if self.interrupted_warming:
                _keep_interrupted_compile(error)
                raise KeyboardInterrupt from None
            raise
        finally:
            self.working()

    def set(self, reason: StopReason = StopReason.INTERRUPTED) -> None:
        self.reason = reason
        self._event.set()
        for hook in list(self._hooks):
            hook()

    def clear(self) -> None:
        self._event.clear()

    def is_set(self) -> bool:
        return self._event.is_set()

    __bool__ = is_set

    @contextlib.contextmanager
    def hook(self, on_stop: Callable[[], Any]):
        """Call ``on_stop`` when the flag is set while the block runs (at once if it is)."""
        self._hooks.append(on_stop)
        try:
            if self.is_set():
                on_stop()
            yield
        finally:
            self._hooks.remove(on_stop)


@dataclass
class SliceReport:
    """What one slice of a kernel did, as the engine tells the driver.

    ``boards`` are the solutions written in this slice, in the order found (fewer than
    ``solutions`` in count mode, where none are written). ``stop`` ends the search for an
    engine-specific reason (a best-score target, a best-mode callback); ``end_run`` ends
    the current run without stopping the search (a restart).
    """

    nodes: int
    finished: bool = False
    solutions: int = 0
    boards: Sequence[Board] = ()
    stop: StopReason | None = None
    end_run: bool = False
    deepest: int | None = None


#: seconds after which the timeline notes the nodes placed so far (then every hour): the
#: rate over each stretch of a long search, not only over the whole run
NODE_MARKS = (1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600)


def node_mark_after(mark: float) -> float:
    """The mark after ``mark`` (:data:`NODE_MARKS`, then every hour)."""
    later = [m for m in NODE_MARKS if m > mark]
    return later[0] if later else (int(mark) // 3600 + 1) * 3600


def next_budget(budget: int, nodes: int, elapsed: float, slice_seconds: float) -> int:
    """Nodes for the next kernel call: about ``slice_seconds`` of work, growing at most 4x."""
    if nodes < budget or elapsed <= 0:
        return budget
    return int(min(max(nodes / elapsed * slice_seconds, 10_000), 4 * budget))


@dataclass
class SliceDriver:
    """Runs an engine's kernel in slices for one search (all its runs: symmetry variants,
    restarts) and owns everything between slices.

    ``result`` is the search's :class:`SearchResult`: the driver adds each slice's nodes and
    solutions to it and sets ``stopped_by``; engines add only their own details (nodes per
    depth, statistics).  ``nodes_done`` / ``solutions_done`` are this driver's share of the
    result's counts, which its limits apply to.
    """

    result: SearchResult
    limits: Limits = field(default_factory=Limits)
    progress: ProgressCallback | None = None
    progress_interval: float = 0.5
    stop: StopFlag | None = None
    first_budget: int = 200_000
    slice_seconds: float = 0.2
    started: float = field(default_factory=time.perf_counter)
    extra_progress: Callable[[], dict] | None = None
    deepest: int | None = None  # the deepest level an engine reports itself (else the result's)
    #: record when each new deepest depth and each new best score was first reached, in
    #: ``result.statistics["deepest_at"]`` / ``["best_score_at"]`` (a best-score search),
    #: and ``["nodes_at"]``: ``[seconds, nodes]`` at the first slice past each node mark
    timeline: bool = False

    def __post_init__(self) -> None:
        self.budget = self.first_budget
        self.first = True
        self._last_report = time.perf_counter()
        self._counts_before = (self.result.nodes, self.result.solutions)
        self._marked = (0, -1)  # the deepest depth and best score recorded so far
        self._node_mark: float = NODE_MARKS[0]

    @property
    def nodes_done(self) -> int:
        return self.result.nodes - self._counts_before[0]

    @property
    def solutions_done(self) -> int:
        return self.result.solutions - self._counts_before[1]

    def add(self, nodes: int = 0, solutions: int = 0) -> None:
        """Count work done, into the result (the one place counts are kept)."""
        self.result.nodes += int(nodes)
        self.result.solutions += int(solutions)

    # ------------------------------------------------------------------ limits
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def out_of_time(self) -> bool:
        return self.limits.time is not None and self.elapsed() >= self.limits.time

    def solutions_left(self) -> int | None:
        """Solutions still wanted (None: all of them)."""
        return None if self.limits.solutions is None else self.limits.solutions - self.solutions_done

    def halt(self, reason: StopReason) -> bool:
        """Record why the search stopped; returns False (the run did not finish).  A signal
        that interrupted the compiler before any node (raised, or swallowed by LLVM with the
        flag left set) is noted as nothing searched."""
        self.result.stopped_by = reason
        if reason == StopReason.INTERRUPTED and self.nodes_done == 0 and self.stop is not None:
            if self.stop.interrupted_warming:
                self.result.statistics["interrupted"] = NOTHING_SEARCHED
        return False

    # ------------------------------------------------------------------ the loop
    def run(
        self,
        run_slice: Callable[[int], SliceReport],
        callback: Callable[[Board], Any] | None = None,
        collect: bool = False,
    ) -> bool:
        """Call ``run_slice(budget)`` until the run's space is exhausted (returns True) or
        the search stops (returns False with ``result.stopped_by`` set) or the engine
        ends the run (returns False, ``stopped_by`` unset: a restart)."""
        try:
            while True:
                if self.stop is not None and self.stop.is_set():
                    return self.halt(self.stop.reason)
                want = self.budget
                if self.limits.nodes is not None:
                    left = self.limits.nodes - self.nodes_done
                    if left <= 0:
                        return self.halt(StopReason.NODES)
                    want = min(want, left)
                t0 = time.perf_counter()
                report = self._first_slice(run_slice, want) if self.first else run_slice(want)
                self.first = False
                elapsed = time.perf_counter() - t0
                self.add(report.nodes, report.solutions)
                if report.deepest is not None:
                    self.deepest = report.deepest
                if self.timeline:
                    self.mark_timeline()
                stop = False
                for board in report.boards:
                    if collect:
                        self.result.boards.append(board)
                    if callback is not None and callback(board):
                        stop = True
                        break
                if stop:
                    return self.halt(StopReason.CALLBACK)
                if report.stop is not None:
                    return self.halt(report.stop)
                if report.finished:
                    return True
                wanted = self.solutions_left()
                if wanted is not None and wanted <= 0:
                    return self.halt(StopReason.SOLUTIONS)
                self.budget = next_budget(self.budget, int(report.nodes), elapsed, self.slice_seconds)
                self.report_progress()
                if self.out_of_time():
                    return self.halt(StopReason.TIME)
                if report.end_run:
                    return False
        except KeyboardInterrupt:
            return self.halt(StopReason.INTERRUPTED)

    def mark_timeline(self) -> None:
        """Note the seconds since the search started at which the deepest depth (tiles the
        search placed) and the best score first reached each new value, to the slice: the
        time-to-depth and time-to-score curves that compare searches at any horizon; and the
        nodes placed by each node mark, whose differences give the rate stretch by stretch."""
        elapsed = self.elapsed()
        stats = self.result.statistics
        if elapsed >= self._node_mark:
            stats.setdefault("nodes_at", []).append([round(elapsed, 3), int(self.result.nodes)])
            while self._node_mark <= elapsed:
                self._node_mark = node_mark_after(self._node_mark)
        deepest = self.result.deepest if self.deepest is None else self.deepest
        best = self.result.best_score if self.result.best_score is not None else -1
        if deepest <= self._marked[0] and best <= self._marked[1]:
            return
        seconds = round(elapsed, 3)
        if deepest > self._marked[0]:
            stats.setdefault("deepest_at", {})[str(deepest)] = seconds
        if best > self._marked[1] and best >= 0:
            stats.setdefault("best_score_at", {})[str(best)] = seconds
        self._marked = (max(deepest, self._marked[0]), max(best, self._marked[1]))

    def _first_slice(self, run_slice: Callable[[int], SliceReport], want: int) -> SliceReport:
        """The first slice, during which a signal may interrupt a kernel's compilation
        (the signal handler raises KeyboardInterrupt while ``stop.warming`` is set)."""
        if self.stop is None:
            return run_slice(want)
        with self.stop.warm():
            return run_slice(want)

    def report_progress(self, force: bool = False) -> None:
        now = time.perf_counter()
        if self.progress is None or (not force and now - self._last_report < self.progress_interval):
            return
        self._last_report = now
        self.progress(self.progress_stats())

    def progress_stats(self) -> dict:
        seconds = self.elapsed()
        stats = {
            "nodes": self.nodes_done,
            "nodes_per_second": self.nodes_done / seconds if seconds > 0 else 0.0,
            "deepest": self.result.deepest if self.deepest is None else self.deepest,
            "solutions": self.solutions_done,
            "best_score": self.result.best_score,
            "seconds": seconds,
        }
        if self.extra_progress is not None:
            stats.update(self.extra_progress())
        return stats


class Subtree(Board):
    """One subtree of a split, the same kind of object from every engine that splits: a
    partial board (``count(puzzle, start=subtree)`` searches below it, as any Board start
    does) and, for an engine that replays its decisions (ColorPair), the decisions that led
    to it, so that its own search resumes there in exactly the state the whole search had."""

    def __init__(self, board: Board, path=(), level: int | None = None):
        super().__init__(board.puzzle, board.tiles, board.rotations)
        self.path: tuple[tuple[int, int, int], ...] = tuple((int(s), int(t), int(r)) for s, t, r in path)
        #: the search depth at which this subtree begins (an index of ``nodes_per_depth``)
        self.level: int | None = level

    def __repr__(self) -> str:
        return f"<Subtree {self.n_placed}/{self.puzzle.n_squares} placed, {len(self.path)} decisions>"


class Engine:
    """The methods every engine offers, with one signature each.

    An engine overrides those it can do; the others raise :class:`InputError` naming the
    engine and the method, so a caller (or the command line) never sees a ``TypeError``.
    Limits given to a method apply to that call and override the constructor's.
    """

    name = "engine"
    limits: Limits = Limits()
    stop: StopFlag | None = None
    progress: ProgressCallback | None = None

    def count(self, puzzle: Puzzle, start=None, *, limits: Limits | None = None) -> SearchResult:
        """Count every solution (of the subtree below ``start`` if given)."""
        return self._search(puzzle, start, self.call_limits(limits), callback=None, collect=False, record=False)

    def solve(
        self,
        puzzle: Puzzle,
        k: int | None = 1,
        start=None,
        *,
        limits: Limits | None = None,
        callback: Callable[[Board], Any] | None = None,
        collect: bool = True,
    ) -> SearchResult:
        """The first ``k`` solutions (all with ``k=None``) as Boards in ``result.boards``.

        ``callback(board)`` is called for each solution as it is found; returning True
        stops the search (``stopped_by="callback"``).  ``collect=False`` keeps no boards
        (for streaming many solutions).
        """
        check_k(k)
        return self._search(puzzle, start, self.call_limits(limits, k), callback=callback, collect=collect, record=True)

    def enumerate(
        self,
        puzzle: Puzzle,
        callback: Callable[[Board], Any],
        start=None,
        *,
        limits: Limits | None = None,
        collect: bool = False,
    ) -> SearchResult:
        """Stream every solution to ``callback`` (boards are not kept unless ``collect``)."""
        return self._search(puzzle, start, self.call_limits(limits), callback=callback, collect=collect, record=True)

    def _search(self, puzzle: Puzzle, start, limits: Limits, *, callback, collect: bool, record: bool) -> SearchResult:
        """The exact search behind ``count``, ``solve`` and ``enumerate``, which an engine
        supplies: every solution below ``start`` within ``limits``; ``record`` builds the
        solutions' boards (for ``callback``, and kept in the result when ``collect``)."""
        raise self.cannot("count or list solutions")

    def best(
        self,
        puzzle: Puzzle,
        start=None,
        *,
        limits: Limits | None = None,
        callback: Callable[[Board, int], Any] | None = None,
    ) -> SearchResult:
        raise self.cannot("search for the best score (use --solver backtrack)")

    def split(self, puzzle: Puzzle, depth: int, start=None) -> tuple[list[Subtree], SearchResult]:
        raise self.cannot("split a search into subtrees")

    def _split_at_leaves(self, puzzle: Puzzle, depth: int, start) -> tuple[list[Subtree], SearchResult]:
        """``split`` for an engine whose ``_search`` can stop every branch at a depth
        (``leaf=``): every node there is a subtree (counted by its own search), none a
        solution of this search, so ``result.solutions`` is 0 and
        ``statistics["subtrees"]`` counts them."""
        if getattr(self, "symmetry", False):
            raise InputError("split() works on the puzzle as given; add the symmetry hint yourself")
        subtrees: list[Subtree] = []
        result = self._search(  # type: ignore[call-arg]  # the engines that split take leaf=
            puzzle,
            start,
            Limits(),
            callback=lambda board: subtrees.append(Subtree(board, level=depth)),
            collect=False,
            record=True,
            leaf=depth,
        )
        result.statistics["subtrees"] = result.solutions
        result.solutions = 0
        return subtrees, result

    def split_below(self, puzzle: Puzzle, levels: int, start=None) -> tuple[list[Subtree], SearchResult]:
        """``split`` ``levels`` levels below ``start`` (the root without one): how a
        parallel run cuts a subtree that runs too long into smaller ones."""
        return self.split(puzzle, min(self.level_of(puzzle, start) + levels, self.depth(puzzle)), start)

    def level_of(self, puzzle: Puzzle, start) -> int:
        """The depth at which the search below ``start`` begins (0 at the root): the
        first index of ``nodes_per_depth`` that a search below it fills."""
        level = getattr(start, "level", None)
        return 0 if start is None else int(level) if level is not None else self._start_level(puzzle, start)

    def _start_level(self, puzzle: Puzzle, start) -> int:
        return 0

    def depth(self, puzzle: Puzzle) -> int:
        """How many levels the search tree of ``puzzle`` has (where splitting ends)."""
        return puzzle.n_squares - len(puzzle.hints)

    def params(self) -> dict[str, Any]:
        """The constructor's options as plain data (limits, progress and stop left out),
        so that a worker process, a cluster node or a resumed run rebuilds this engine."""
        import inspect

        skip = {"self", "time_limit", "node_limit", "limits", "progress", "progress_interval"}
        names = [n for n in inspect.signature(type(self).__init__).parameters if n not in skip]
        return {name: _plain(getattr(self, name)) for name in names if hasattr(self, name)}

    # ------------------------------------------------------------------ helpers
    def variants(self, puzzle: Puzzle) -> list[Puzzle]:
        """The puzzles to search: the puzzle itself, or with ``symmetry`` its symmetry-broken
        versions (whose counts add up to the raw count divided by the board's rotations)."""
        return symmetry_variants(puzzle) if getattr(self, "symmetry", False) else [puzzle]

    def cannot(self, what: str) -> InputError:
        return InputError(f"the {self.name} solver cannot {what}")

    def call_limits(self, limits: Limits | None, k: int | None = None) -> Limits:
        """The limits of one call: the constructor's, overridden by the call's, with the
        number of solutions ``k`` wanted by ``solve``."""
        chosen = self.limits if limits is None else limits
        if k is not None:
            chosen = chosen.replace(solutions=k)
        return chosen

    def driver(self, result: SearchResult, limits: Limits, **options) -> SliceDriver:
        """A slice driver with this engine's progress callback and stop flag."""
        options.setdefault("progress", getattr(self, "progress", None))
        options.setdefault("progress_interval", getattr(self, "progress_interval", 0.5))
        return SliceDriver(result, limits, stop=self.stop, **options)


@contextlib.contextmanager
def stop_on_signals(stop: StopFlag):
    """SIGINT and SIGTERM set ``stop`` (the search ends after its current slice and reports
    what it has); a second SIGINT, or one while a kernel compiles, interrupts at once.
    Installed even when the process was started with SIGINT ignored (a shell's background
    job); a no-op outside the main thread.

    Python runs a signal handler only when the main thread returns to Python code, never
    inside a library call such as CP-SAT's ``Solve``.  So the signal is also written to a
    wake-up socket, and a watcher thread sets the flag (and its hooks) at once.
    """
    received = [0]

    def handler(signum, frame):
        received[0] += 1
        stop.signal = signum
        if not stop.is_set():
            stop.set(StopReason.INTERRUPTED)
        if stop.warming or (received[0] > 1 and signum == signal.SIGINT):
            stop.interrupted_warming = stop.interrupted_warming or stop.warming
            raise KeyboardInterrupt

    installed = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            installed[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread: leave signals alone
        pass
    watcher = _SignalWatcher(stop) if installed else None
    try:
        yield stop
    finally:
        if watcher is not None:
            watcher.close()
        for sig, previous in installed.items():
            signal.signal(sig, previous)


#: What a search a signal stopped while its first kernel compiled reports.
NOTHING_SEARCHED = "nothing was searched yet (interrupted while the kernels compiled)"

#: Seconds the main thread has to take a signal that came while a kernel compiled.
ABANDON_AFTER = 1.0


class _SignalWatcher:
    """Reads the signal numbers Python's C-level handler writes to a wake-up socket, in
    a thread of its own, and sets the stop flag even while the main thread is busy."""

    def __init__(self, stop: StopFlag):
        self.stop = stop
        self.reader, self.writer = socket.socketpair()
        self.writer.setblocking(False)
        self.previous = signal.set_wakeup_fd(self.writer.fileno(), warn_on_full_buffer=False)
        self.thread = threading.Thread(target=self._watch, name="edgematch-signals", daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while True:
            try:
                data = self.reader.recv(64)
            except OSError:
                return
            if not data:
                return
            for signum in data:
                if signum in (signal.SIGINT, signal.SIGTERM) and not self.stop.is_set():
                    self.stop.signal = signum
                    self.stop.set(StopReason.INTERRUPTED)
                    if self.stop.warming and self.stop.abandon is not None:
                        timer = threading.Timer(ABANDON_AFTER, self._abandon_if_stuck)
                        timer.daemon = True
                        timer.start()

    def _abandon_if_stuck(self) -> None:
        if self.stop.warming and self.stop.abandon is not None:
            self.stop.abandon()

    def close(self) -> None:
        signal.set_wakeup_fd(self.previous)
        self.writer.close()  # the reader sees end-of-file and the thread ends
        self.thread.join(timeout=1.0)
        self.reader.close()


def _plain(value):
    """Numbers, strings, lists and dicts only (JSON and any process can take them)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def check_k(k: int | None) -> None:
    """``solve``'s number of solutions: None (all) or at least 1."""
    if k is not None and (isinstance(k, bool) or int(k) != k or k < 1):
        raise InputError(f"the number of solutions k must be at least 1 (or None for all), not {k!r}")


__all__ = [
    "Engine",
    "Limits",
    "ProgressCallback",
    "SliceDriver",
    "SliceReport",
    "StopFlag",
    "StopReason",
    "check_k",
    "next_budget",
    "stop_on_signals",
]
