"""The coordinator of a parallel run: hands subtrees to a backend's workers, largest
first, cuts a subtree that runs past its budget into smaller ones, adds the results up
exactly, stops everyone when the run is over, records every step in the run store when
asked to, and reports progress.

Counts add up exactly: a finished subtree's counts are taken once; a subtree that ran out
of budget is thrown away whole (its nodes are reported as ``repeated_nodes``) and replaced
by the cut below it (the cut's own nodes) and the smaller subtrees.  Nodes that re-place a
subtree's prefix are taken out by :func:`.job.run_task`.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engines.base import Limits, StopFlag, StopReason, Subtree
from ..engines.kept_boards import KEEP_BOARDS, BestBoards
from ..engines.result import SearchResult, add_statistics, deepest_of
from ..model import Board
from ..runs.subtrees import SubtreeLedger, Totals
from .job import Job, Task, board_of, job_parts, split_task
from .splitting import RESPLIT_LEVELS, SUBTREES_PER_WORKER, BudgetPolicy, estimates, first_split, root_task

POLL_SECONDS = 0.25
#: a portfolio task without ``restart_nodes`` ends after this many seconds and the next
#: seed takes over, so that a killed run loses at most this much of each worker's search
SEGMENT_SECONDS = 600.0


@dataclass
class Tally:
    """Running sums of a parallel run (the finished part of it)."""

    solutions: int = 0
    nodes: int = 0
    nodes_per_depth: list[int] = field(default_factory=list)
    kept: BestBoards = field(default_factory=BestBoards)  # the best boards (packed), bounded
    best_score: int = -1
    best_board: list | None = None
    worker_seconds: float = 0.0
    engine_statistics: dict = field(default_factory=dict)

    def add(self, outcome: dict, keep_boards: bool = True) -> None:
        best = outcome.get("best_score")
        better = best is not None and outcome.get("best_board") is not None and best > self.best_score
        add_statistics(self.engine_statistics, outcome.get("statistics") or {}, best=better)
        self.solutions += int(outcome["solutions"])
        self.nodes += int(outcome["nodes"])
        self.worker_seconds += float(outcome["seconds"])
        for depth, value in enumerate(outcome["nodes_per_depth"]):
            if depth >= len(self.nodes_per_depth):
                self.nodes_per_depth.extend([0] * (depth + 1 - len(self.nodes_per_depth)))
            self.nodes_per_depth[depth] += int(value)
        if keep_boards and outcome.get("boards"):
            self.kept.extend(outcome["board_scores"], outcome["boards"])
        if better:
            self.best_score, self.best_board = int(outcome["best_score"]), outcome["best_board"]

    @classmethod
    def of(cls, totals: Totals, kept: BestBoards) -> Tally:
        tally = cls(totals.solutions, totals.nodes, list(totals.nodes_per_depth), kept)
        tally.worker_seconds = totals.seconds
        tally.engine_statistics = dict(totals.statistics)
        if totals.best_score is not None:
            tally.best_score, tally.best_board = totals.best_score, totals.best_board
        return tally


class Coordinator:
    """One parallel run of ``job`` on ``backend``.

    ``k``: solve mode stops once ``k`` solutions are found.  ``limits``: the whole run's
    time and node limits.  ``ledger``: the durable record (None: nothing stored).
    ``task_nodes``: give every count/solve task this node budget instead of a time budget
    (deterministic cuts, for tests).  ``plan_workers``: cut as finely as for this many
    workers (benchmarks/parallel.py records a run so to replay it onto a cluster).
    """

    def __init__(
        self,
        job: Job,
        backend,
        *,
        limits: Limits | None = None,
        k: int | None = None,
        progress: Callable[[dict], None] | None = None,
        stop: StopFlag | None = None,
        ledger: SubtreeLedger | None = None,
        subtrees_per_worker: int = SUBTREES_PER_WORKER,
        budget: BudgetPolicy | None = None,
        task_nodes: int | None = None,
        plan_workers: int | None = None,
        progress_interval: float = 0.5,
        callback: Callable[[Board], Any] | None = None,
    ):
        self.job = job
        self.backend = backend
        self.limits = limits or Limits()
        self.k = k
        self.progress = progress
        self.stop = stop if stop is not None else StopFlag()
        self.ledger = ledger
        self.per_worker = subtrees_per_worker
        # the worker count the cuts are planned for: the backend's, or more (a run recorded
        # on a few cores with the subtree sizes a large cluster would get, to replay there)
        self.plan_workers = max(int(plan_workers or 0), backend.workers)
        self.budget = budget or BudgetPolicy(self.plan_workers)
        self.task_nodes = task_nodes
        self.progress_interval = progress_interval
        self.callback = callback
        self.emitted = 0
        self.pending: list[tuple[float, int, Task]] = []  # heap: (-estimate, key, task)
        self.running: dict = {}  # future -> task
        # boards held in memory: a search's best keep_boards (every one is in the run
        # store), a solve run's first k
        self.keep = k if job.mode == "solve" else None
        if job.mode == "search":
            self.keep = job.params.get("keep_boards", KEEP_BOARDS)
        self.tally = Tally(kept=BestBoards(self.keep))
        self.partial = Tally(kept=BestBoards(self.keep))  # work of stopped tasks: shown, never stored
        self.next_key = 0
        self.done = 0
        self.total = 0
        self.resplits = 0
        self.repeated_nodes = 0
        self.repeated_seconds = 0.0
        self.lost_tasks = 0
        self.subtree_stats: list[dict] = []
        self.workers_seen: dict[str, dict] = {}
        self.started = time.perf_counter()
        # a resumed run's clock goes on from its earlier sessions (limits are this session's)
        self.earlier_seconds = 0.0
        self._last_progress = 0.0
        self.stopped_by: str | None = None
        # a portfolio (seeded best-score search): task k is restart k, all below one start
        self.portfolio = job.portfolio
        self.segment_start: Task | None = None
        self.exhausted = False  # a portfolio task searched the whole space: its best is optimal
        # when the run first reached each deepest depth and best score (the tasks' own times,
        # shifted to the run's clock; a resumed run starts from those its ledger kept)
        self.reached: dict[str, dict[int, float]] = {"deepest_at": {}, "best_score_at": {}}
        self.reached_from = {"deepest_at": 0, "best_score_at": -1}

    # ------------------------------------------------------------------ building the task list
    def start_new(self, start: Subtree | None = None) -> None:
        """Cut the whole search (below ``start``) into the first tasks."""
        _, _, variants = job_parts(self.job)
        if self.portfolio:
            engine, _, _ = job_parts(self.job)
            self.segment_start = root_task(0, 0, start, engine.level_of(variants[0], start))
            self._new_segments()
            return
        wanted = max(1, self.per_worker * self.plan_workers // len(variants))
        for variant in range(len(variants)):
            engine, _, _ = job_parts(self.job)
            level = engine.level_of(variants[variant], start)
            root = root_task(self._key(), variant, start, level)
            subtrees, head, levels = first_split(self.job, root, wanted)
            sizes = estimates(self.job, root, subtrees, levels)
            tasks = [Task.of(self._key(), s, variant, e) for s, e in zip(subtrees, sizes)]
            self.tally.add(head)
            self._emit(head)
            if self.ledger is not None:
                self.ledger.add_root(root.key, variant, root.level, root.start_text(), head)
                self.ledger.add([(t.key, root.key, variant, t.level, t.start_text(), t.estimate) for t in tasks])
            self._queue(tasks)

    def resume(self) -> None:
        """Continue the ledger's run: its finished work is counted, its pending subtrees queued."""
        assert self.ledger is not None
        if not self.ledger.has_rows():  # stopped while the first cut was made: make it now
            self.start_new(None)
            return
        totals = self.ledger.totals()
        record = self.ledger.store.run(self.ledger.run_id)
        self.earlier_seconds = float(record.seconds)
        for name, times in (record.info.get("reached") or {}).items():
            self.reached[name] = {int(value): float(at) for value, at in times.items()}
        kept = BestBoards(self.keep)
        for score, _, codes in self.ledger.saved_boards(self.keep):
            kept.add(score, codes)
        self.tally = Tally.of(totals, kept)
        self.next_key = self.ledger.next_key()
        self.done = totals.done
        self._emit({"boards": kept.items()})
        tasks = []
        for row in self.ledger.pending():
            s = row.start
            task = Task(row.key, row.level, s["tiles"], s["rotations"], s["path"], row.variant, row.estimate)
            task.segment = s.get("segment")
            tasks.append(task)
        self.total = self.done
        self._queue(tasks)
        if self.portfolio:
            first = self.ledger.first_start()
            self.segment_start = Task(0, first["level"], first["tiles"], first["rotations"], first["path"])
            self._new_segments()

    def _new_segments(self) -> None:
        """Keep every worker busy with the portfolio's next restarts (task k: restart k)."""
        assert self.segment_start is not None
        root = self.segment_start
        wanted = getattr(self.backend, "in_flight", self.backend.workers)
        while len(self.pending) + len(self.running) < wanted and not self._run_over():
            key = self._key()
            task = Task(key, root.level, list(root.tiles), list(root.rotations), list(root.path), segment=key)
            if self.ledger is not None:
                self.ledger.add([(key, None, 0, task.level, task.start_text(), 1.0)])
            self._queue([task])

    def _key(self) -> int:
        key = self.next_key
        self.next_key += 1
        return key

    def _queue(self, tasks: list[Task]) -> None:
        for task in tasks:
            heapq.heappush(self.pending, (-task.estimate, task.key, task))
        self.total += len(tasks)

    # ------------------------------------------------------------------ the loop
    def run(self) -> SearchResult:
        self.stop.working()  # from now on a signal stops the run between polls
        self.reached_from = {
            "deepest_at": deepest_of(self.tally.nodes_per_depth),
            "best_score_at": self.tally.best_score,
        }
        try:
            while self.pending or self.running:
                self._check_limits()
                if self.stop.is_set():
                    break
                self._submit()
                for future in self.backend.wait(list(self.running), POLL_SECONDS):
                    self._take(future, self.running.pop(future))
                self._report()
        except KeyboardInterrupt:
            self.stop.set(StopReason.INTERRUPTED)
        if self.running:
            self.backend.stop_all(list(self.running))
            self._drain()
        return self._result()

    def _submit(self) -> None:
        while self.pending and len(self.running) < getattr(self.backend, "in_flight", self.backend.workers):
            left = self._unallotted_nodes()
            if left is not None and left <= 0:
                break  # the tasks in flight hold the rest of the run's nodes
            _, _, task = heapq.heappop(self.pending)
            self._prepare(task)
            self.running[self.backend.submit(self.job, task)] = task

    def _prepare(self, task: Task) -> None:
        """The task's budget, solutions wanted and best score to beat."""
        left = None if self.limits.time is None else max(0.0, self.limits.time - self.elapsed())
        nodes_left = self._nodes_left()  # no task may run past the run's own node limit
        if self.job.mode == "search":
            task.seconds = left  # a best-score search is not cut: each worker digs its own subtree
            restart_nodes = self.job.params.get("restart_nodes")
            if self.portfolio and restart_nodes is None:
                task.seconds = SEGMENT_SECONDS if left is None else min(left, SEGMENT_SECONDS)
            unallotted = self._unallotted_nodes()
            if self.portfolio and restart_nodes is not None and unallotted is not None:
                # a whole restart while the run's nodes last, as the serial search runs them: a
                # restart cut to a worker's share would end there for good (never resumed)
                task.nodes = max(1, min(unallotted, int(restart_nodes)))
            else:
                task.nodes = nodes_left
            task.floor = self.tally.best_score
            return
        budget = None
        if self.task_nodes is None:
            budget = self.budget.seconds(sum(-e for e, _, _ in self.pending) + task.estimate)
        if left is not None:
            budget = left if budget is None else min(budget, left)
        task.seconds = budget
        task.nodes = self.task_nodes if nodes_left is None else min(self.task_nodes or nodes_left, nodes_left)
        if self.job.mode == "solve" and self.k is not None:
            task.solutions = max(1, self.k - self.tally.solutions)

    def _take(self, future, task: Task) -> None:
        outcome = self.backend.result(future)
        if outcome is None:  # lost with its worker more often than Dask retries: run it again
            self.lost_tasks += 1
            heapq.heappush(self.pending, (-task.estimate, task.key, task))
            return
        self._note_worker(outcome)
        if self.portfolio:
            self._segment_ended(task, outcome)
        elif outcome["complete"]:
            self._finished(task, outcome)
        elif (
            outcome["stopped_by"] in (StopReason.TIME, StopReason.NODES)
            and not self._run_over(outcome)
            and not self._capped(task, outcome)
        ):
            self._cut(task, outcome)
        else:
            self._stopped(task, outcome)

    def _emit(self, outcome: dict) -> None:
        """Hand the solutions of a task to the callback as they arrive (at most k in all)."""
        if self.callback is None:
            return
        puzzle = job_parts(self.job)[1]
        for codes in outcome.get("boards") or []:
            if self.k is not None and self.emitted >= self.k:
                return
            self.emitted += 1
            if self.callback(board_of(puzzle, codes)):
                self._end(StopReason.CALLBACK)
                return

    def _note_reached(self, outcome: dict) -> None:
        """Add a task's times of first reaching each depth and score to the run's, on the
        run's clock (see :func:`search_began`)."""
        began = search_began(self.run_seconds(), outcome)
        for name, times in (outcome.get("reached") or {}).items():
            into = self.reached.setdefault(name, {})
            for value, at in times.items():
                if int(value) > self.reached_from.get(name, -1):
                    into[int(value)] = round(min(began + float(at), into.get(int(value), math.inf)), 3)

    def _finished(self, task: Task, outcome: dict) -> None:
        self._note_reached(outcome)
        self.tally.add(outcome)
        self._emit(outcome)
        self.done += 1
        self.budget.record(task.estimate, outcome["seconds"])
        if self.ledger is not None:
            self.ledger.finish(task.key, outcome)
        self.subtree_stats.append(
            {
                "key": task.key,
                "level": task.level,
                "estimate": task.estimate,
                "seconds": round(outcome["seconds"], 6),
                "nodes": outcome["nodes"],
                "solutions": outcome["solutions"],
                "worker": outcome["worker"],
            }
        )
        if outcome["best_score"] is not None and outcome["best_score"] >= 0:
            self.backend.publish_best(self.tally.best_score)
        if self.job.mode == "solve" and self.k is not None and self.tally.solutions >= self.k:
            self._end(StopReason.SOLUTIONS)
        if outcome.get("stopped_by") == StopReason.TARGET:
            self._end(StopReason.TARGET)

    def _segment_ended(self, task: Task, outcome: dict) -> None:
        """A portfolio restart ended (its budget, the run's end, or its whole space): it is
        recorded as it is, never run again, and the next restart takes its worker."""
        self._finished(task, outcome)
        if outcome["complete"]:
            self.exhausted = True
            self._end(StopReason.SOLUTIONS)  # the others stop: nothing better exists
        if not self.stop.is_set():
            self._new_segments()

    def _cut(self, task: Task, outcome: dict) -> None:
        """The task ran out of budget: its work is thrown away and its subtree cut deeper."""
        self.resplits += 1
        self.budget.cut_unmeasured()
        self.repeated_nodes += int(outcome["nodes"])
        self.repeated_seconds += float(outcome["seconds"])
        subtrees, head = split_task(self.job, task, RESPLIT_LEVELS)
        share = task.estimate / max(1, len(subtrees))
        children = [Task.of(self._key(), s, task.variant, share) for s in subtrees]
        self.tally.add(head)
        self._emit(head)
        if self.ledger is not None:
            rows = [(c.key, task.key, c.variant, c.level, c.start_text(), c.estimate) for c in children]
            self.ledger.add(rows, split_of=task.key, head=head)
        self.total -= 1
        self._queue(children)

    def _stopped(self, task: Task, outcome: dict) -> None:
        """A task the run's end stopped: its solutions and nodes are shown, not stored."""
        self._note_reached(outcome)
        self.partial.add(outcome)
        self._emit(outcome)
        heapq.heappush(self.pending, (-task.estimate, task.key, task))
        if outcome["stopped_by"] == StopReason.TARGET:
            self._end(StopReason.TARGET)
        if self.job.mode == "solve" and self.k is not None and self._solutions() >= self.k:
            self._end(StopReason.SOLUTIONS)

    def _drain(self) -> None:
        """Collect what the stopped tasks did (a local worker stops within one slice)."""
        deadline = time.perf_counter() + 30.0
        while self.running and time.perf_counter() < deadline:
            for future in self.backend.wait(list(self.running), POLL_SECONDS):
                task = self.running.pop(future)
                try:
                    outcome = self.backend.result(future)
                except Exception:  # a cancelled cluster task: nothing to add
                    outcome = None
                if outcome is None:
                    continue
                if self.portfolio:
                    self._segment_ended(task, outcome)
                elif outcome["complete"]:
                    self._finished(task, outcome)
                else:
                    self.partial.add(outcome)
                    self._emit(outcome)
            if getattr(self.backend, "client", None) is not None:
                break  # cluster tasks were cancelled: no partial counts come back
        self.running.clear()

    # ------------------------------------------------------------------ ending
    def _end(self, reason: StopReason) -> None:
        if not self.stop.is_set():
            self.stop.set(reason)

    def _run_over(self, outcome: dict | None = None) -> bool:
        """Whether the run's end (a stop, its time, its nodes with this outcome's) has come."""
        if self.stop.is_set() or (self.limits.time is not None and self.elapsed() >= self.limits.time):
            return True
        nodes = self.tally.nodes + self.partial.nodes + int((outcome or {}).get("nodes", 0))
        return self.limits.nodes is not None and nodes >= self.limits.nodes

    def _unallotted_nodes(self) -> int | None:
        """The run's nodes not yet spent nor promised to a task in flight (None: no limit)."""
        if self.limits.nodes is None:
            return None
        promised = sum(t.nodes or 0 for t in self.running.values())
        return self.limits.nodes - self.tally.nodes - self.partial.nodes - promised

    def _nodes_left(self) -> int | None:
        """A task's share of the run's nodes still to spend, shared with the tasks to come."""
        left = self._unallotted_nodes()
        if left is None:
            return None
        free = max(1, getattr(self.backend, "in_flight", self.backend.workers) - len(self.running))
        return max(1, left // free)

    def _capped(self, task: Task, outcome: dict) -> bool:
        """Stopped by its share of the run's node limit (not by a budget): put back, not cut."""
        if outcome["stopped_by"] != StopReason.NODES or task.nodes is None:
            return False
        return self.task_nodes is None or task.nodes < self.task_nodes

    def _check_limits(self) -> None:
        if self.limits.time is not None and self.elapsed() >= self.limits.time:
            self._end(StopReason.TIME)
        if self.limits.nodes is not None and self.tally.nodes + self.partial.nodes >= self.limits.nodes:
            self._end(StopReason.NODES)

    def _solutions(self) -> int:
        return self.tally.solutions + self.partial.solutions

    def elapsed(self) -> float:
        """Seconds of this session (what the time limit counts)."""
        return time.perf_counter() - self.started

    def run_seconds(self) -> float:
        """Seconds of the whole run, earlier sessions included (what its nodes took)."""
        return self.earlier_seconds + self.elapsed()

    # ------------------------------------------------------------------ reporting
    def _note_worker(self, outcome: dict) -> None:
        w = self.workers_seen.setdefault(outcome["worker"], {"tasks": 0, "nodes": 0, "seconds": 0.0})
        w["tasks"] += 1
        w["nodes"] += int(outcome["nodes"])
        w["seconds"] = round(w["seconds"] + float(outcome["seconds"]), 6)

    def stats(self) -> dict:
        seconds = self.run_seconds()
        nodes = self.tally.nodes + self.partial.nodes
        pending = sum(-e for e, _, _ in self.pending) + sum(t.estimate for t in self.running.values())
        eta = self.budget.seconds_left(pending)
        if eta is not None:
            eta *= self.budget.workers / self.backend.workers
        return {
            "seconds": seconds,
            "nodes": nodes,
            "nodes_per_second": nodes / seconds if seconds > 0 else 0.0,
            "solutions": self._solutions(),
            "deepest": len(self.tally.nodes_per_depth),
            "best_score": self.tally.best_score if self.job.mode == "search" else None,
            "subtrees_done": self.done,
            "subtrees_total": self.total,
            "eta_seconds": eta,
            "workers": self.backend.workers,
        }

    def _report(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._last_progress < self.progress_interval:
            return
        self._last_progress = now
        stats = self.stats()
        if self.progress is not None:
            self.progress(stats)
        if self.ledger is not None:
            self.ledger.update_info(self._info(stats), force=force, seconds=stats["seconds"])

    def _info(self, stats: dict) -> dict:
        return {
            "subtrees_done": self.done,
            "subtrees_total": self.total,
            "nodes": self.tally.nodes,
            "solutions": self.tally.solutions,
            "eta_seconds": stats["eta_seconds"],
            "backend": self.backend.name,
            "workers": self.backend.workers,
            "reached": {name: records(times) for name, times in self.reached.items() if times},
        }

    def _result(self) -> SearchResult:
        _, puzzle, _ = job_parts(self.job)
        complete = self.exhausted or (not self.pending and not self.running and not self.stop.is_set())
        if self.stop.is_set() and not complete:
            self.stopped_by = str(self.stop.reason)
        result = SearchResult(solver=self.job.solver)
        result.rotations = "each" if self.job.params.get("each_rotation") else "distinct"
        result.complete = complete
        result.stopped_by = None if complete else self.stopped_by or StopReason.INTERRUPTED
        result.solutions = self.tally.solutions + self.partial.solutions
        result.nodes = self.tally.nodes + self.partial.nodes
        npd = list(self.tally.nodes_per_depth)
        for depth, value in enumerate(self.partial.nodes_per_depth):
            if depth >= len(npd):
                npd.extend([0] * (depth + 1 - len(npd)))
            npd[depth] += value
        result.nodes_per_depth = npd
        result.seconds = self.run_seconds()
        kept = BestBoards(self.keep)  # the finished tasks' boards first among equal scores
        for tally in (self.tally, self.partial):
            for score, codes in tally.kept.entries():
                kept.add(score, codes)
        if self.job.mode == "solve" and self.k is not None:
            result.solutions = min(result.solutions, self.k) if not complete else result.solutions
        result.boards = [board_of(puzzle, codes) for codes in kept.items()]
        holds_best = self.tally.best_score >= self.partial.best_score  # the finished tasks hold the best board
        if self.job.mode == "search":
            best = self.tally if holds_best else self.partial
            result.best_score = best.best_score
            result.best_board = None if best.best_board is None else board_of(puzzle, best.best_board)
        merged: dict = {}
        add_statistics(merged, self.tally.engine_statistics, best=holds_best)
        add_statistics(merged, self.partial.engine_statistics, best=not holds_best)
        result.statistics = {
            **merged,
            "parallel": {
                "backend": self.backend.name,
                "workers": self.backend.workers,
                "subtrees_done": self.done,
                "subtrees_total": self.total,
                "resplits": self.resplits,
                "repeated_nodes": self.repeated_nodes,
                "repeated_seconds": round(self.repeated_seconds, 6),
                "lost_tasks": self.lost_tasks,
                "worker_seconds": round(self.tally.worker_seconds + self.partial.worker_seconds, 6),
                "per_worker": self.workers_seen,
            },
            "subtrees": self.subtree_stats,
        }
        for name, times in self.reached.items():
            if times:
                result.statistics[name] = records(times)
        if self.ledger is not None:
            result.statistics["run_id"] = self.ledger.run_id
            if self.job.mode == "search":
                result.statistics["boards_stored"] = self.ledger.saved_board_count()
            stats = self.stats()
            self.ledger.update_info(
                self._info(stats),
                force=True,
                status="finished" if complete else "stopped",
                stopped_by=result.stopped_by,
                seconds=stats["seconds"],
            )
        return result


def search_began(now: float, outcome: dict) -> float:
    """When, on the run's clock, a task's search started, its outcome arriving at ``now``:
    its own clock (the one its first-reached times count on) ran ``search_seconds``, which
    leaves out the worker's set-up before it (loading the puzzle's kernel); outcomes without
    it count from the task's start."""
    return now - float(outcome.get("search_seconds", outcome["seconds"]))


def records(times: dict[int, float]) -> dict[str, float]:
    """The values that were a new high when first reached (in time order), as the JSON's
    ``{value: seconds}``: a lower value one worker reached after another had passed it is
    no record of the run."""
    kept: dict[str, float] = {}
    high = None
    for value, at in sorted(times.items(), key=lambda item: (item[1], -item[0])):
        if high is None or value > high:
            kept[str(value)], high = at, value
    return kept
