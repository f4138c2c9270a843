"""Durable optimisation runs: the SQLite run store, checkpoints and resume."""

from .session import RunOutcome, RunRecorder, resume_run, start_run
from .store import RunRecord, RunStore, default_db_path

__all__ = ["RunOutcome", "RunRecord", "RunRecorder", "RunStore", "default_db_path", "resume_run", "start_run"]
