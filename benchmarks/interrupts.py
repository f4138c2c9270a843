"""Ctrl-C and SIGTERM in the benchmark scripts: an interrupted run is never a result.

A run cut short by the user neither finished nor was stopped at its limit, so a script
that records runs must write it as neither.  The engines catch ``KeyboardInterrupt`` and
return what they have with ``stopped_by="interrupted"`` (CP-SAT too: it no longer takes
SIGINT itself).  A result that claims a time stop before its time limit has passed is also
treated as interrupted, a guard kept for any engine that ends a call on a signal of its
own.  So:

* :func:`interrupting_signals` makes SIGTERM interrupt like Ctrl-C (a ``KeyboardInterrupt``
  in the main thread, which the engines turn into an interrupted result) and remembers
  which signal came;
* :func:`check` raises :class:`Interrupted` for a result that was cut short, before anything
  is written;
* a script records a run only once :func:`check` let it through, stops at the first
  ``KeyboardInterrupt`` (:class:`Interrupted` is one), keeps what it recorded before, and
  exits with :meth:`Signals.exit_status`: 130 after Ctrl-C, 143 after SIGTERM, the shell's
  codes, as ``edgematch count`` does.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator

INTERRUPTED_STATUS = 130  # 128 + SIGINT
TERMINATED_STATUS = 143  # 128 + SIGTERM


class Interrupted(KeyboardInterrupt):
    """A run was cut short by Ctrl-C or SIGTERM: it is not a result, and the script stops."""


class Signals:
    """The interrupting signals received inside :func:`interrupting_signals`."""

    def __init__(self) -> None:
        self.received: list[int] = []

    def exit_status(self) -> int:
        """143 when SIGTERM came, else 130 (Ctrl-C, or a search that reported an interruption
        whose signal CP-SAT caught)."""
        return TERMINATED_STATUS if signal.SIGTERM in self.received else INTERRUPTED_STATUS


@contextlib.contextmanager
def interrupting_signals() -> Iterator[Signals]:
    """Within: SIGINT and SIGTERM raise ``KeyboardInterrupt`` and are remembered in the
    :class:`Signals` yielded.  The previous handlers come back on leaving.  A no-op outside
    the main thread (signals go to the main thread only)."""
    signals = Signals()

    def handler(signum, frame):
        signals.received.append(signum)
        raise KeyboardInterrupt

    installed = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            installed[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield signals
    finally:
        for sig, previous in installed.items():
            signal.signal(sig, signal.SIG_DFL if previous is None else previous)


def was_interrupted(result, time_limit: float | None = None, wall_seconds: float | None = None) -> bool:
    """Whether a search result was cut short by Ctrl-C or SIGTERM: it says so
    (``stopped_by == "interrupted"``), or it claims that its time limit stopped it before
    ``wall_seconds`` reached that limit (what CP-SAT reported before it took signals through
    a stop flag).  A
    complete result is never interrupted: it is the exact answer whatever came after."""
    if getattr(result, "complete", False):
        return False
    stopped_by = getattr(result, "stopped_by", None)
    if stopped_by == "interrupted":
        return True
    return (stopped_by == "time" and time_limit is not None and wall_seconds is not None
            and wall_seconds < time_limit)


def check(result, what: str = "the run", time_limit: float | None = None, wall_seconds: float | None = None):
    """``result``, unless it was interrupted (see :func:`was_interrupted`): then
    :class:`Interrupted` is raised, so that the run is never recorded."""
    if was_interrupted(result, time_limit, wall_seconds):
        raise Interrupted(f"{what} was interrupted")
    return result


def say_interrupted(error: BaseException, kept: str) -> None:
    """One line on stderr: what was interrupted, then ``kept`` (what became of it and of the
    runs before it)."""
    what = str(error) if isinstance(error, Interrupted) and str(error) else "interrupted"
    print(f"{what}: {kept}", file=sys.stderr, flush=True)
