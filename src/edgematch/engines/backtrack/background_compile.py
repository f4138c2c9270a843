"""A generated kernel compiled in another process while a long search goes on without it.

``--kernel auto`` makes no search wait for a compile (e2's best-score module takes minutes),
so a search runs the list kernel until the generated one is in Numba's cache.  A search
still running after :data:`START_AFTER_SECONDS`, with at least :data:`WORTH_SECONDS` left
by its limits, starts the compile in a process of its own and takes the generated kernel
at the first slice after the compile is cached: the same tree, about 1.7 times the nodes
per second on e2.  One compile per module and machine: a lock file beside the module's
source holds the compiling process's id, and other searches wait for it.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ...processes import pid_alive
from . import generated, generated_cache

#: a search compiles in the background only once it has run this long ...
START_AFTER_SECONDS = 10.0
#: ... and its time or node limit leaves it at least this long to run (none: no limit)
WORTH_SECONDS = 600.0
#: how often a search looks whether the compile is cached
POLL_SECONDS = 5.0
#: a lock file younger than this with no process id yet is taken as held
LOCK_GRACE_SECONDS = 60.0


def worth_starting(elapsed: float, time_limit: float | None, nodes_done: int, node_limit: int | None) -> bool:
    """Whether a search at ``elapsed`` seconds should compile in the background: long
    enough running, and long enough left (a node limit's seconds left at its rate so far);
    never with ``EDGEMATCH_BACKGROUND_COMPILE=0``."""
    if elapsed < START_AFTER_SECONDS or os.environ.get("EDGEMATCH_BACKGROUND_COMPILE", "1").strip() == "0":
        return False
    left = float("inf") if time_limit is None else time_limit - elapsed
    if node_limit is not None and nodes_done > 0:
        left = min(left, (node_limit - nodes_done) * elapsed / nodes_done)
    return left >= WORTH_SECONDS


def _holder(lock: Path) -> int | None:
    """The process id in a lock file (0: written but no id yet), None if it has none or is gone."""
    try:
        text = lock.read_text().strip()
        age = time.time() - lock.stat().st_mtime
    except FileNotFoundError:
        return None
    if not text:
        return 0 if age < LOCK_GRACE_SECONDS else None
    return int(text) if text.isdigit() and pid_alive(int(text)) else None


def _die_with_parent(parent: int) -> None:
    """In the child: a SIGTERM when the search's process ends, so that no compile outlives
    it (Linux; elsewhere the search's exit ends it, :meth:`BackgroundCompile.close`)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it ended before the signal was asked for
        sys.exit(1)


class BackgroundCompile:
    """The compile of one generated module (``text``, named with ``prefix``) in a child
    process, whose ``chain`` takes ``mem`` of ``dtype`` (``"int32"`` or ``"int64"``)."""

    def __init__(self, text: str, prefix: str, dtype: str) -> None:
        self.text, self.prefix = text, prefix
        self.process: subprocess.Popen | None = None
        self.failed = False
        self._ready = generated.is_compiled(text, prefix)  # cached already: nothing to run
        self._checked = 0.0
        if self._ready:
            return
        path = generated.write_source(text, prefix)
        self.lock = path.with_suffix(generated_cache.LOCK)
        if not self._take_lock():
            return  # another search compiles it: this one only waits for the cache
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(path), path.stem, dtype, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.lock.write_text(str(self.process.pid))
        atexit.register(self.close)  # a search that ends first leaves it running until exit

    def _take_lock(self) -> bool:
        for _ in range(2):
            try:
                os.close(os.open(self.lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                return True
            except FileExistsError:
                if _holder(self.lock) is not None:
                    return False
                self.lock.unlink(missing_ok=True)  # left by a compile that died
        return False

    def ready(self) -> bool:
        """True once the module is in Numba's cache (looked at every :data:`POLL_SECONDS`)."""
        if self._ready or self.failed:
            return self._ready
        now = time.monotonic()
        if now - self._checked < POLL_SECONDS:
            return False
        self._checked = now
        exited = self.process is not None and self.process.poll() is not None
        self._ready = generated.is_compiled_on_disk(self.text, self.prefix)
        if self.process is not None and (exited or self._ready):
            self._end()  # cached: the compile is only exiting
            self.failed = not self._ready
        elif self.process is None and not self._ready and _holder(self.lock) is None:
            self.failed = True  # the other search's compile ended without a cache
        return self._ready

    def _end(self) -> None:
        """Reap the compile (stopped if it has not exited within a minute) and free the lock."""
        assert self.process is not None
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait()
        self.lock.unlink(missing_ok=True)

    def close(self) -> None:
        """Stop a compile that has not finished (the search ended first)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait()
            self.lock.unlink(missing_ok=True)


#: this process's background compiles, by module name (one each; left to finish when a
#: search ends first: the next search of the same module finds it cached)
_started: dict[str, BackgroundCompile] = {}


def compile_once(text: str, prefix: str, dtype: str) -> BackgroundCompile:
    """The compile of ``text``'s module in another process, started by the first search of
    this process that asks for it."""
    name = generated.module_name(text, prefix)
    if name not in _started:
        _started[name] = BackgroundCompile(text, prefix, dtype)
    return _started[name]


class KernelSwitch:
    """``--kernel auto`` on the list kernel: the moment, between two slices, at which a
    search takes the generated kernel.  ``start`` begins the module's compile in another
    process (ready at once where it is cached), ``take`` loads the module into the search; each
    runs once at most, the first when the search is worth a compile (:func:`worth_starting`),
    the second once the compile is cached.  A search too short, or a compile that fails,
    keeps the list kernel to the end: the same tree either way."""

    def __init__(
        self, driver, start: Callable[[], BackgroundCompile], take: Callable[[], None], statistics: dict
    ) -> None:
        self.driver, self.start, self.take, self.statistics = driver, start, take, statistics
        self.waiting = True
        self._job: BackgroundCompile | None = None

    def poll(self) -> None:
        """Called before each slice: starts the compile or takes the kernel when it is time."""
        if not self.waiting:
            return
        elapsed = self.driver.elapsed()
        if self._job is None:
            if elapsed < START_AFTER_SECONDS:
                return
            limits = self.driver.limits
            if not worth_starting(elapsed, limits.time, self.driver.nodes_done, limits.nodes):
                self.waiting = False  # too short a search to gain from a compile: none started
                return
            self._job = self.start()
        if self._job.ready():
            self.take()
            self.statistics["generated_kernel_from_seconds"] = round(elapsed, 1)
            self.waiting = False
        elif self._job.failed:
            self.waiting = False  # the list kernel to the end


def _compile(path: str, name: str, dtype: str, parent: str) -> None:
    _die_with_parent(int(parent))
    from numba import types

    module = generated.import_file(Path(path), name)
    memory = types.Array(types.int32 if dtype == "int32" else types.int64, 1, "C")
    module.chain.compile((memory, types.int64, types.int64))


if __name__ == "__main__":
    _compile(*sys.argv[1:5])
