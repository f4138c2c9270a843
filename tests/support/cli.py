"""Run ``edgematch`` as a user would: in-process (fast), or as the installed console script."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from edgematch.cli.main import main
from edgematch.formats import format_puzzle
from edgematch.generator import generate

# The console script installed next to the interpreter running the tests (pip install -e .).
CONSOLE_SCRIPT = Path(sys.executable).with_name("edgematch")


def run_cli(capsys, *argv):
    """Exit status, stdout and stderr of ``edgematch ARGV`` run in-process (paths allowed)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def console_command() -> list[str]:
    """The installed ``edgematch`` command (falls back to the one on PATH)."""
    if CONSOLE_SCRIPT.exists():
        return [str(CONSOLE_SCRIPT)]
    found = shutil.which("edgematch")
    assert found, "the edgematch console script is not installed"
    return [found]


def run_console(*argv, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """Run the installed console script; text output captured."""
    return subprocess.run(console_command() + [str(a) for a in argv], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def interrupt(argv, signal_number=signal.SIGINT, after_cpu_seconds: float = 1.0, timeout: float = 120,
              ignore_sigint: bool = False, env: dict | None = None):
    """Start ``edgematch ARGV``, send it a signal once it handles that signal itself and has
    then used ``after_cpu_seconds`` of CPU, and return ``(returncode, stdout, stderr)``.

    ``ignore_sigint`` starts the child with SIGINT ignored, as a shell starts a background
    job; ``env`` adds environment variables (a fresh Numba cache, for instance).  Waiting
    for the handler and for CPU time, not a fixed sleep, keeps the test independent of how
    long imports and compilation take; the child is always killed on the way out.
    """
    def child_setup():
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen(console_command() + [str(a) for a in argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=child_setup,
                            env=None if env is None else {**os.environ, **env})
    try:
        deadline = time.monotonic() + timeout
        # Python catches SIGINT from its start (KeyboardInterrupt), so the SIGTERM bit is the
        # sign that the command installed its own handlers (stop_on_signals takes both)
        while proc.poll() is None and not _catches(proc.pid, signal.SIGTERM):
            assert time.monotonic() < deadline, "the command never installed a handler"
            time.sleep(0.02)
        baseline = _cpu_seconds(proc.pid)
        while proc.poll() is None and _cpu_seconds(proc.pid) - baseline < after_cpu_seconds:
            assert time.monotonic() < deadline, "the command never got busy"
            time.sleep(0.02)
        assert proc.poll() is None, "the command ended before it could be interrupted"
        proc.send_signal(signal_number)
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _catches(pid: int, signal_number: int) -> bool:
    """True when the process has a handler of its own for the signal (/proc SigCgt mask)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (int(signal_number) - 1) & 1)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (0 once it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def write_puzzle_file(folder, puzzle, name: str = "p.txt") -> Path:
    """Write ``puzzle`` in the edgematch format; return the path."""
    path = Path(folder) / name
    path.write_text(format_puzzle(puzzle, "edgematch"))
    return path


def small_puzzle():
    """A seeded 4x4 puzzle with several solutions (its count is checked by reference tests)."""
    return generate(4, 4, 2, 3, seed=3).puzzle


def write_small_puzzle(folder) -> Path:
    """:func:`small_puzzle` written in the edgematch format."""
    return write_puzzle_file(folder, small_puzzle())
