"""Where tasks run: worker processes or threads on this machine, or a Dask cluster.

Every backend offers the same few calls to the coordinator (``submit``, ``wait``,
``stop_all``, ``publish_best``, ``close``), so splitting, budgets, storage and progress
are written once in :mod:`.coordinator`.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterable
from typing import Any

from ..engines.base import StopFlag
from ..errors import InputError
from .job import Job, Task, run_task

KINDS = ("processes", "threads")


class EventStop(StopFlag):
    """A worker's stop flag: set by the coordinator through a shared event, or by the
    worker itself when the coordinator's process is gone (so no worker outlives a
    killed run by more than one slice)."""

    def __init__(self, event, parent: int | None):
        super().__init__()
        self.event = event
        self.parent = parent

    def is_set(self) -> bool:
        if self.event.is_set() or super().is_set():
            return True
        return self.parent is not None and os.getppid() != self.parent

    __bool__ = is_set


_WORKER: dict[str, Any] = {}


def _init_process(event, floor, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the coordinator's to handle
    _WORKER.update(event=event, floor=floor, parent=parent)
    threading.Thread(target=exit_with_parent, args=(parent,), name="edgematch-orphan-watch", daemon=True).start()


def exit_with_parent(parent: int) -> None:
    """An idle worker waits on its task queue forever; when the coordinator is gone
    (SIGKILL, a crash) it has nobody to work for, so it exits."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _run_in_process(job: Job, task: Task) -> dict:
    floor = _WORKER["floor"]
    stop = EventStop(_WORKER["event"], _WORKER["parent"])
    return run_task(job, task, stop=stop, floor=lambda: max(task.floor, int(floor.value)))


class LocalBackend:
    """``workers`` processes (forked from this one, so compiled kernels come along) or
    threads (the kernels release the GIL) on this machine."""

    def __init__(self, workers: int, kind: str = "processes"):
        if kind not in KINDS:
            raise InputError(f"unknown kind of local workers {kind!r}: choose {' or '.join(KINDS)}")
        self.workers = int(workers)
        self.kind = kind
        self.name = f"{self.workers} local {kind}"
        self.in_flight = self.workers  # tasks handed out at once: one per worker
        if kind == "processes":
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
            context = multiprocessing.get_context(method)
            self.event: Any = context.Event()
            self.floor = context.Value("q", -1, lock=False)
            self.executor: cf.Executor = cf.ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_init_process,
                initargs=(self.event, self.floor, os.getpid()),
            )
        else:
            self.event = threading.Event()
            self.best = [-1]
            self.executor = cf.ThreadPoolExecutor(self.workers, thread_name_prefix="edgematch-worker")

    def submit(self, job: Job, task: Task):
        if self.kind == "processes":
            return self.executor.submit(_run_in_process, job, task)
        stop = EventStop(self.event, None)
        return self.executor.submit(run_task, job, task, stop, lambda: max(task.floor, self.best[0]))

    def wait(self, futures: Iterable, timeout: float) -> list:
        done, _ = cf.wait(list(futures), timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, future) -> dict | None:
        """The outcome, or None when the task was lost (a worker process died)."""
        try:
            return future.result()
        except cf.process.BrokenProcessPool:
            raise InputError("a worker process died (out of memory?); resume the run to finish it") from None

    def publish_best(self, score: int) -> None:
        if self.kind == "processes":
            self.floor.value = max(int(self.floor.value), int(score))
        else:
            self.best[0] = max(self.best[0], int(score))

    def stop_all(self, futures: Iterable) -> None:
        """Every running task stops after its current slice and returns what it did."""
        self.event.set()

    def close(self) -> None:
        self.event.set()
        self.executor.shutdown(wait=True, cancel_futures=True)


class DaskBackend:
    """Tasks on a Dask distributed scheduler (``tcp://HOST:PORT``).  Dask runs a task again
    elsewhere when its worker is lost; a task that failed on too many workers
    (``KilledWorker``) is submitted once more by the coordinator."""

    def __init__(self, address: str, connect_seconds: float = 30.0):
        try:
            from distributed import Client
        except ImportError:
            raise InputError("--cluster needs Dask: pip install 'edgematch[cluster]'") from None
        try:
            self.client = Client(address, timeout=connect_seconds, set_as_default=False)
        except OSError as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address} ({exc})") from None
        threads = sum(info.get("nthreads", 1) for info in self.client.scheduler_info()["workers"].values())
        self.workers = max(1, threads)
        # a second task waiting on each worker hides the round trip through the scheduler
        # between two tasks (about 3 s of 26 on a 2-worker count with 113 subtrees)
        self.in_flight = 2 * self.workers
        self.name = f"Dask at {address} ({self.workers} worker threads)"
        self.best = -1

    def submit(self, job: Job, task: Task):
        task.floor = max(task.floor, self.best)
        return self.client.submit(run_task, job, task, pure=False, retries=2)

    def wait(self, futures: Iterable, timeout: float) -> list:
        futures = list(futures)
        deadline = time.monotonic() + timeout
        while True:  # a short poll: the client's own wait() wants a process-wide default client
            done = [f for f in futures if f.done()]
            if done or time.monotonic() >= deadline:
                return done
            time.sleep(0.01)

    def result(self, future) -> dict | None:
        from distributed import KilledWorker

        try:
            return future.result()
        except KilledWorker:
            return None

    def publish_best(self, score: int) -> None:
        self.best = max(self.best, int(score))

    def stop_all(self, futures: Iterable) -> None:
        """Running tasks are cancelled (what they did is lost: at most one budget each)."""
        self.client.cancel(list(futures))

    def close(self) -> None:
        self.client.close()


def make_backend(jobs: int | None = None, cluster: str | None = None, kind: str = "processes"):
    """The backend a run asked for: ``cluster`` (a scheduler address) or ``jobs`` local workers."""
    if cluster:
        return DaskBackend(cluster)
    return LocalBackend(jobs or default_jobs(), kind)


#: Environment variable that sets the default number of local workers.
JOBS_VARIABLE = "EDGEMATCH_JOBS"


def default_jobs() -> int:
    """``$EDGEMATCH_JOBS`` when set, else every core this process may use."""
    text = os.environ.get(JOBS_VARIABLE)
    if text:
        try:
            value = int(text)
        except ValueError:
            raise InputError(f"${JOBS_VARIABLE} must be a whole number, not {text!r}") from None
        if value < 1:
            raise InputError(f"${JOBS_VARIABLE} must be at least 1, not {value}")
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
