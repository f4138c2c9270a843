"""Searches split across processes, threads or a Dask cluster, with exact totals.

:func:`parallel_search` is what ``count``, ``solve`` and ``search`` do with ``jobs`` or
``cluster``: the search is cut into many more subtrees than workers (:mod:`.splitting`),
the coordinator hands them out largest first and cuts again any that runs long
(:mod:`.coordinator`), a backend runs them (:mod:`.backends`), and with a run store every
finished subtree is recorded so the run resumes after anything (:mod:`..runs.subtrees`).
"""

from .backends import DaskBackend, LocalBackend, default_jobs, make_backend
from .coordinator import Coordinator
from .job import Job, Task, run_task
from .run import parallel_search, resume_search

__all__ = [
    "Coordinator",
    "DaskBackend",
    "Job",
    "LocalBackend",
    "Task",
    "default_jobs",
    "make_backend",
    "parallel_search",
    "resume_search",
    "run_task",
]
