"""Durable split searches: a count, solve or search run's subtrees and their results in
the run store, so that a run killed at any moment resumes with the exact total.

A run is a row of ``runs`` (``method`` = count, solve or search; ``params`` holds the job:
engine, its options, the number of solutions wanted) and one row of ``subtrees`` per
subtree.  A subtree is ``pending`` until its search finished, then ``done`` with its
counts, in one transaction; a subtree cut into smaller ones is ``split`` and holds the
counts of the cut itself.  The run's totals are the sums over done and split rows, so a
subtree is counted once or not at all, and at most the subtrees that were running when
the run died are searched again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engines.result import add_statistics
from .store import RunStore, now_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS subtrees (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    key INTEGER NOT NULL,
    parent INTEGER,
    variant INTEGER NOT NULL,
    level INTEGER NOT NULL,
    start TEXT NOT NULL,
    estimate REAL NOT NULL,
    status TEXT NOT NULL,
    solutions INTEGER NOT NULL DEFAULT 0,
    nodes INTEGER NOT NULL DEFAULT 0,
    nodes_per_depth TEXT NOT NULL DEFAULT '[]',
    seconds REAL NOT NULL DEFAULT 0,
    worker TEXT,
    boards TEXT NOT NULL DEFAULT '[]',
    best_score INTEGER,
    best_board TEXT,
    finished TEXT,
    PRIMARY KEY (run_id, key)
);
CREATE INDEX IF NOT EXISTS subtrees_status ON subtrees(run_id, status);
CREATE TABLE IF NOT EXISTS saved_boards (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    key INTEGER NOT NULL,
    score INTEGER NOT NULL,
    board BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS saved_boards_score ON saved_boards(run_id, score DESC);
"""

#: Run methods recorded here (optimize runs have their own tables).
SPLIT_METHODS = ("count", "solve", "search")


@dataclass
class SubtreeRow:
    key: int
    parent: int | None
    variant: int
    level: int
    start: dict
    estimate: float
    status: str


@dataclass
class Totals:
    """The sums over a run's finished work."""

    solutions: int
    nodes: int
    nodes_per_depth: list[int]
    seconds: float
    done: int
    total: int
    best_score: int | None
    best_board: list | None
    statistics: dict


class SubtreeLedger:
    """The subtrees of one run in a :class:`RunStore` (tables created on first use)."""

    def __init__(self, store: RunStore, run_id: int):
        self.store = store
        self.run_id = run_id
        self.conn = store.conn
        self._puzzle: Any = None  # read when a board must be scored here
        with store.transaction():
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(subtrees)")}
            if "statistics" not in columns:  # a store written before the engines' statistics were kept
                self.conn.execute("ALTER TABLE subtrees ADD COLUMN statistics TEXT NOT NULL DEFAULT '{}'")
            self._move_boards_of_subtree_rows()
        self._last_info = 0.0

    def _move_boards_of_subtree_rows(self) -> None:
        """A store written before ``saved_boards`` kept each subtree's boards in its row:
        move this run's into the table, scored, once."""
        keys = [
            k
            for (k,) in self.conn.execute(
                "SELECT key FROM subtrees WHERE run_id=? AND boards != '[]'", (self.run_id,)
            ).fetchall()
        ]
        for key in keys:
            (text,) = self.conn.execute(
                "SELECT boards FROM subtrees WHERE run_id=? AND key=?", (self.run_id, key)
            ).fetchone()
            self._save_boards(key, json.loads(text), None)
            self.conn.execute("UPDATE subtrees SET boards='[]' WHERE run_id=? AND key=?", (self.run_id, key))

    def _save_boards(self, key: int | None, boards: list, scores: list | None) -> None:
        if not boards:
            return
        if scores is None or not all(isinstance(b, bytes) for b in boards):  # a row from before
            board_list = [self._board(b) for b in boards]  # boards were packed and scored
            scores, boards = [b.score() for b in board_list], [b.packed() for b in board_list]
        self.conn.executemany(
            "INSERT INTO saved_boards (run_id, key, score, board) VALUES (?,?,?,?)",
            [(self.run_id, -1 if key is None else key, int(s), b) for s, b in zip(scores, boards)],
        )

    def _board(self, codes):
        from ..parallel.job import board_of

        if self._puzzle is None:
            from ..formats.native import read_puzzle

            self._puzzle = read_puzzle(self.store.puzzle_text(self.run_id), "<run>")
        return board_of(self._puzzle, codes)

    @classmethod
    def create(
        cls, store: RunStore, *, mode: str, job: dict, puzzle_text: str, puzzle_name: str, max_score: int, info: dict
    ):
        run_id = store.create_run(
            puzzle_name=puzzle_name,
            puzzle_text=puzzle_text,
            max_score=max_score,
            method=mode,
            params=job,
            seed=None,
            start=info.get("start", "root"),
            budget_seconds=info.get("time_limit"),
            max_moves=None,
            target=None,
            info=info,
        )
        return cls(store, run_id)

    # ------------------------------------------------------------------ writing
    def add(
        self, rows: Sequence[tuple[int, int | None, int, int, dict, float]], split_of: int | None = None, head=None
    ):
        """Record new pending subtrees ``(key, parent, variant, level, start, estimate)``;
        with ``split_of``, in the same transaction mark that subtree split with the
        counts of the cut (``head``, an outcome dict)."""
        with self.store.transaction():
            self.conn.executemany(
                "INSERT INTO subtrees (run_id, key, parent, variant, level, start, estimate, status)"
                " VALUES (?,?,?,?,?,?,?, 'pending')",
                [(self.run_id, k, p, v, lv, json.dumps(s), e) for k, p, v, lv, s, e in rows],
            )
            if split_of is not None and head is not None:
                self._finish(split_of, "split", head)

    def add_root(self, key: int, variant: int, level: int, start: dict, head: dict) -> None:
        """The cut at the top of the run (the root split), stored as a split row."""
        with self.store.transaction():
            self.conn.execute(
                "INSERT INTO subtrees (run_id, key, parent, variant, level, start, estimate, status)"
                " VALUES (?,?,NULL,?,?,?,0,'pending')",
                (self.run_id, key, variant, level, json.dumps(start)),
            )
            self._finish(key, "split", head)

    def finish(self, key: int, outcome: dict) -> None:
        """A subtree searched to its end: its counts, in one transaction."""
        with self.store.transaction():
            self._finish(key, "done", outcome)

    def _finish(self, key: int, status: str, outcome: dict) -> None:
        self.conn.execute(
            "UPDATE subtrees SET status=?, solutions=?, nodes=?, nodes_per_depth=?, seconds=?, worker=?,"
            " boards=?, best_score=?, best_board=?, statistics=?, finished=? WHERE run_id=? AND key=? AND status='pending'",
            (
                status,
                int(outcome["solutions"]),
                int(outcome["nodes"]),
                json.dumps(outcome["nodes_per_depth"]),
                float(outcome["seconds"]),
                outcome.get("worker"),
                "[]",  # the boards go to saved_boards
                outcome.get("best_score"),
                None if outcome.get("best_board") is None else json.dumps(outcome["best_board"]),
                json.dumps(outcome.get("statistics") or {}),
                now_text(),
                self.run_id,
                key,
            ),
        )
        self._save_boards(key, outcome.get("boards") or [], outcome.get("board_scores"))

    def update_info(self, info: dict, force: bool = False, **values) -> None:
        """The run's summary (done/total, nodes, solutions, estimated time left), at most
        every few seconds unless ``force``."""
        now = time.monotonic()
        if not force and now - self._last_info < 2.0:
            return
        self._last_info = now
        self.store.update_run(self.run_id, info=info, **values)

    # ------------------------------------------------------------------ reading
    def pending(self) -> list[SubtreeRow]:
        rows = self.conn.execute(
            "SELECT key, parent, variant, level, start, estimate, status FROM subtrees"
            " WHERE run_id=? AND status='pending' ORDER BY key",
            (self.run_id,),
        )
        return [SubtreeRow(k, p, v, lv, json.loads(s), e, st) for k, p, v, lv, s, e, st in rows]

    def first_start(self) -> dict:
        """The start of the run's first subtree (a portfolio's restarts all share it)."""
        row = self.conn.execute(
            "SELECT start FROM subtrees WHERE run_id=? ORDER BY key LIMIT 1", (self.run_id,)
        ).fetchone()
        return json.loads(row[0])

    def has_rows(self) -> bool:
        row = self.conn.execute("SELECT 1 FROM subtrees WHERE run_id=? LIMIT 1", (self.run_id,)).fetchone()
        return row is not None

    def next_key(self) -> int:
        row = self.conn.execute("SELECT MAX(key) FROM subtrees WHERE run_id=?", (self.run_id,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    def totals(self) -> Totals:
        solutions = nodes = done = total = 0
        seconds = 0.0
        npd: list[int] = []
        best_score: int | None = None
        best_board = None
        statistics: dict = {}
        for status, s, n, per_depth, sec, bs, bb, st in self.conn.execute(
            "SELECT status, solutions, nodes, nodes_per_depth, seconds, best_score, best_board, statistics"
            " FROM subtrees WHERE run_id=?",
            (self.run_id,),
        ):
            if status != "split":
                total += 1
            if status == "pending":
                continue
            if status == "done":
                done += 1
            solutions += s
            nodes += n
            seconds += sec
            for depth, value in enumerate(json.loads(per_depth)):
                if depth >= len(npd):
                    npd.extend([0] * (depth + 1 - len(npd)))
                npd[depth] += value
            better = bs is not None and (best_score is None or bs > best_score) and bb is not None
            add_statistics(statistics, json.loads(st), best=better)
            if better:
                best_score, best_board = bs, json.loads(bb)
        return Totals(solutions, nodes, npd, seconds, done, total, best_score, best_board, statistics)

    def saved_boards(self, limit: int | None = None):
        """The boards the run saved, best first (earlier first among equal scores: the
        index holds rowids in order), as ``(score, key, packed board)``; ``limit``: only
        that many.  Read row by row, so that a week's boards are never held at once."""
        sql = "SELECT score, key, board FROM saved_boards WHERE run_id=? ORDER BY score DESC, rowid"
        params: tuple = (self.run_id,)
        if limit is not None:
            sql += " LIMIT ?"
            params += (int(limit),)
        yield from self.conn.execute(sql, params)

    def saved_board_count(self) -> int:
        (n,) = self.conn.execute("SELECT COUNT(*) FROM saved_boards WHERE run_id=?", (self.run_id,)).fetchone()
        return int(n)

    def subtree_times(self) -> list[dict]:
        """Every finished subtree's key, parent, level, estimate, seconds and nodes (what the
        cluster simulation of benchmarks/parallel.py replays)."""
        rows = self.conn.execute(
            "SELECT key, parent, level, estimate, status, seconds, nodes, solutions FROM subtrees"
            " WHERE run_id=? ORDER BY key",
            (self.run_id,),
        )
        names = ("key", "parent", "level", "estimate", "status", "seconds", "nodes", "solutions")
        return [dict(zip(names, r)) for r in rows]


def ledger_summary(store: RunStore, run_id: int, totals: Totals | None = None) -> dict:
    """done / total subtrees, nodes and solutions so far, and a search's best score and
    complete boards per score, for ``edgematch runs`` (from ``totals`` when read already)."""
    t = totals if totals is not None else SubtreeLedger(store, run_id).totals()
    return {
        "subtrees_done": t.done,
        "subtrees_total": t.total,
        "nodes": t.nodes,
        "solutions": t.solutions,
        "best_score": t.best_score,
        "boards_by_score": t.statistics.get("boards_by_score") or {},
    }
