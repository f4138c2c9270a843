"""Durable optimisation runs: the SQLite run store, checkpoints and resume, and the whole
``optimize`` run (start phase and recorded search) in :mod:`.optimize`."""

from .optimize import OptimizeResult, RunPlan, plan_run, run_plan
from .session import RunOutcome, RunRecorder, resume_run, start_run
from .store import RunRecord, RunStore, default_db_path

__all__ = [
    "OptimizeResult",
    "RunOutcome",
    "RunPlan",
    "RunRecord",
    "RunRecorder",
    "RunStore",
    "default_db_path",
    "plan_run",
    "resume_run",
    "run_plan",
    "start_run",
]
