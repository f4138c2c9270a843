"""The run store: every optimisation run recorded in one SQLite database.

What is kept per run: the puzzle itself (in our native text format, so a run can be resumed
whatever happened to the file it came from), the parameters and seed, the score over time,
every new best board (native board text and viewer URL, each re-scored by the model before
it is written) and checkpoints of the full search state.

Safety: the database is in WAL mode with a busy timeout, and every write is one short
transaction, so several runs can write to the same file at once and a run killed at any
moment (SIGKILL included) leaves a consistent database: SQLite's journal undoes a
transaction the process did not finish.  Only the newest checkpoints of a run are kept
(``KEEP_CHECKPOINTS``), so long runs do not grow the file without bound.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..processes import pid_alive

DB_FILE_NAME = "runs.sqlite"
BUSY_TIMEOUT_MS = 60_000
KEEP_CHECKPOINTS = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    puzzle_name TEXT NOT NULL,
    puzzle_text TEXT NOT NULL,
    max_score INTEGER NOT NULL,
    method TEXT NOT NULL,
    params TEXT NOT NULL,
    seed INTEGER,
    start TEXT NOT NULL,
    budget_seconds REAL,
    max_moves INTEGER,
    target INTEGER,
    status TEXT NOT NULL,
    stopped_by TEXT,
    host TEXT,
    pid INTEGER,
    seconds REAL NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    score INTEGER,
    best_score INTEGER,
    info TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS history (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    score INTEGER NOT NULL,
    best_score INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS history_run ON history(run_id, seconds);
CREATE TABLE IF NOT EXISTS bests (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    score INTEGER NOT NULL,
    board TEXT NOT NULL,
    url TEXT
);
CREATE INDEX IF NOT EXISTS bests_run ON bests(run_id, score);
CREATE TABLE IF NOT EXISTS checkpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    created TEXT NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    best_score INTEGER NOT NULL,
    state BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS checkpoints_run ON checkpoints(run_id, id);
"""

RUN_COLUMNS = (
    "id",
    "created",
    "updated",
    "puzzle_name",
    "max_score",
    "method",
    "params",
    "seed",
    "start",
    "budget_seconds",
    "max_moves",
    "target",
    "status",
    "stopped_by",
    "host",
    "pid",
    "seconds",
    "moves",
    "score",
    "best_score",
    "info",
)


def default_db_path() -> Path:
    """``runs.sqlite`` in the user's data directory (``platformdirs.user_data_dir``)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("edgematch")) / DB_FILE_NAME


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class RunRecord:
    """One row of ``runs`` as plain data (``params`` and ``info`` decoded)."""

    id: int
    created: str
    updated: str
    puzzle_name: str
    max_score: int
    method: str
    params: dict
    seed: int | None
    start: str
    budget_seconds: float | None
    max_moves: int | None
    target: int | None
    status: str
    stopped_by: str | None
    host: str | None
    pid: int | None
    seconds: float
    moves: int
    score: int | None
    best_score: int | None
    info: dict

    @property
    def alive(self) -> bool:
        """True when the run is marked running and its process still exists on this host."""
        if self.status != "running":
            return False
        if self.host != socket.gethostname() or not self.pid:
            return True  # cannot tell: assume it runs elsewhere
        return pid_alive(self.pid)

    @property
    def state_label(self) -> str:
        """``running``, or ``killed`` for a run marked running whose process is gone."""
        if self.status == "running" and not self.alive:
            return "killed"
        return self.status

    def to_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in RUN_COLUMNS}
        data["status"] = self.state_label
        return data


class RunStore:
    """A connection to the run database (created on first use).

    The default database's folder (the user data directory) is created when missing; the
    folder of a database given by ``path`` must exist (a mistyped folder is refused rather
    than created).
    """

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path is not None else default_db_path()
        if path is not None and self.path.is_dir():
            raise InputError("this is a folder, not a run database file", str(self.path))
        if path is not None and not self.path.parent.is_dir():
            raise InputError(f"cannot create the run database: no folder {self.path.parent}", str(self.path))
        try:
            if path is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # switching a new file to WAL while another process creates it can answer
            # "locked" at once, without waiting on the busy timeout (seen in CI): retry
            _while_locked(lambda: self.conn.execute("PRAGMA journal_mode = WAL"))
            self.conn.execute("PRAGMA synchronous = NORMAL")
            with self.transaction():
                for statement in _statements(SCHEMA):
                    self.conn.execute(statement)
        except sqlite3.DatabaseError as exc:
            raise InputError(f"cannot use the run database ({exc})", str(self.path)) from None
        except OSError as exc:
            raise InputError(f"cannot create the run database ({exc.strerror})", str(self.path)) from None

    # ------------------------------------------------------------------ plumbing
    def transaction(self):
        """A short write transaction (BEGIN IMMEDIATE: takes the write lock at once, so
        concurrent writers wait for each other instead of failing halfway)."""
        return _Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------ runs
    def create_run(
        self,
        *,
        puzzle_name: str,
        puzzle_text: str,
        max_score: int,
        method: str,
        params: dict,
        seed: int | None,
        start: str,
        budget_seconds: float | None,
        max_moves: int | None,
        target: int | None,
        info: dict | None = None,
    ) -> int:
        stamp = now_text()
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO runs (created, updated, puzzle_name, puzzle_text, max_score, method, params, seed, start,"
                " budget_seconds, max_moves, target, status, host, pid, info) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    stamp,
                    stamp,
                    puzzle_name,
                    puzzle_text,
                    max_score,
                    method,
                    json.dumps(params),
                    seed,
                    start,
                    budget_seconds,
                    max_moves,
                    target,
                    "running",
                    socket.gethostname(),
                    os.getpid(),
                    json.dumps(info or {}),
                ),
            )
            assert cur.lastrowid is not None  # always set after an INSERT
            return int(cur.lastrowid)

    def claim(self, run_id: int) -> None:
        """Mark a run as running in this process (before resuming it)."""
        with self.transaction():
            self.conn.execute(
                "UPDATE runs SET status='running', stopped_by=NULL, host=?, pid=?, updated=? WHERE id=?",
                (socket.gethostname(), os.getpid(), now_text(), run_id),
            )

    def update_run(self, run_id: int, **values) -> None:
        allowed = {"status", "stopped_by", "seconds", "moves", "score", "best_score", "budget_seconds", "info"}
        if set(values) - allowed:
            raise ValueError(f"cannot update {set(values) - allowed}")
        if "info" in values:
            values["info"] = json.dumps(values["info"])
        values["updated"] = now_text()
        names = ", ".join(f"{k}=?" for k in values)
        with self.transaction():
            self.conn.execute(f"UPDATE runs SET {names} WHERE id=?", (*values.values(), run_id))

    def run(self, run_id: int) -> RunRecord:
        row = self.conn.execute(f"SELECT {', '.join(RUN_COLUMNS)} FROM runs WHERE id=?", (run_id,)).fetchone()
        if row is None:
            raise InputError(f"no run {run_id} in the run database", str(self.path))
        return _record(row)

    def runs(self, limit: int | None = None) -> list[RunRecord]:
        query = f"SELECT {', '.join(RUN_COLUMNS)} FROM runs ORDER BY id DESC"
        if limit:
            query += f" LIMIT {int(limit)}"
        return [_record(row) for row in self.conn.execute(query)]

    def puzzle_text(self, run_id: int) -> str:
        row = self.conn.execute("SELECT puzzle_text FROM runs WHERE id=?", (run_id,)).fetchone()
        if row is None:
            raise InputError(f"no run {run_id} in the run database", str(self.path))
        return row[0]

    # ------------------------------------------------------------------ what a run records
    def add_history(self, run_id: int, rows: list[tuple[float, int, int, int]]) -> None:
        if not rows:
            return
        with self.transaction():
            self.conn.executemany(
                "INSERT INTO history (run_id, seconds, moves, score, best_score) VALUES (?,?,?,?,?)",
                [(run_id, *r) for r in rows],
            )

    def add_best(
        self,
        run_id: int,
        seconds: float,
        moves: int,
        score: int,
        board_text: str,
        url: str | None,
        history: tuple[float, int, int, int] | None = None,
    ) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT INTO bests (run_id, seconds, moves, score, board, url) VALUES (?,?,?,?,?,?)",
                (run_id, seconds, moves, score, board_text, url),
            )
            self.conn.execute(
                "UPDATE runs SET best_score=?, seconds=?, moves=?, updated=? WHERE id=?",
                (score, seconds, moves, now_text(), run_id),
            )
            if history is not None:
                self.conn.execute(
                    "INSERT INTO history (run_id, seconds, moves, score, best_score) VALUES (?,?,?,?,?)",
                    (run_id, *history),
                )

    def history(self, run_id: int) -> list[tuple[float, int, int, int]]:
        return [
            tuple(r)
            for r in self.conn.execute(
                "SELECT seconds, moves, score, best_score FROM history WHERE run_id=? ORDER BY seconds, rowid",
                (run_id,),
            )
        ]

    def bests(self, run_id: int) -> list[dict]:
        rows = self.conn.execute(
            "SELECT seconds, moves, score, board, url FROM bests WHERE run_id=? ORDER BY rowid", (run_id,)
        )
        return [dict(zip(("seconds", "moves", "score", "board", "url"), r)) for r in rows]

    def best(self, run_id: int) -> dict | None:
        row = self.conn.execute(
            "SELECT seconds, moves, score, board, url FROM bests WHERE run_id=? ORDER BY score DESC, rowid LIMIT 1",
            (run_id,),
        ).fetchone()
        return None if row is None else dict(zip(("seconds", "moves", "score", "board", "url"), row))

    def checkpoint(self, run_id: int, seconds: float, moves: int, score: int, best_score: int, state: bytes) -> None:
        """Save a search state and the run's counters in one transaction; old checkpoints go."""
        stamp = now_text()
        with self.transaction():
            self.conn.execute(
                "INSERT INTO checkpoints (run_id, created, seconds, moves, best_score, state) VALUES (?,?,?,?,?,?)",
                (run_id, stamp, seconds, moves, best_score, state),
            )
            self.conn.execute(
                "DELETE FROM checkpoints WHERE run_id=? AND id NOT IN (SELECT id FROM checkpoints "
                "WHERE run_id=? ORDER BY id DESC LIMIT ?)",
                (run_id, run_id, KEEP_CHECKPOINTS),
            )
            self.conn.execute(
                "UPDATE runs SET seconds=?, moves=?, score=?, best_score=MAX(COALESCE(best_score, 0), ?),"
                " updated=? WHERE id=?",
                (seconds, moves, score, best_score, stamp, run_id),
            )

    def latest_checkpoint(self, run_id: int) -> dict | None:
        row = self.conn.execute(
            "SELECT created, seconds, moves, best_score, state FROM checkpoints WHERE run_id=? "
            "ORDER BY id DESC LIMIT 1",
            (run_id,),
        ).fetchone()
        return None if row is None else dict(zip(("created", "seconds", "moves", "best_score", "state"), row))

    def checkpoint_count(self, run_id: int) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM checkpoints WHERE run_id=?", (run_id,)).fetchone()[0])

    def integrity(self) -> str:
        return self.conn.execute("PRAGMA integrity_check").fetchone()[0]


def _while_locked(statement) -> None:
    """Run ``statement`` again while SQLite answers "locked", until the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            statement()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class _Transaction:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        _while_locked(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
        return False


def _statements(script: str) -> Iterator[str]:
    for part in script.split(";"):
        if part.strip():
            yield part


def _record(row) -> RunRecord:
    data = dict(zip(RUN_COLUMNS, row))
    data["params"] = json.loads(data["params"])
    data["info"] = json.loads(data["info"] or "{}")
    return RunRecord(**data)
