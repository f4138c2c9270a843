"""What machine a benchmark ran on, for the header of every results file."""

from __future__ import annotations

import os
import platform
import subprocess
import sys


def machine() -> str:
    """CPU model, logical CPUs and Python version (the CPU model from /proc/cpuinfo where
    there is one: ``platform.processor()`` is often empty on Linux)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, Python {sys.version.split()[0]}"


def load_average() -> float:
    """One-minute load average: a benchmark figure taken beside another busy process is
    not comparable, and the results say so."""
    return round(os.getloadavg()[0], 2)


def code_version() -> str:
    """The commit the benchmark ran (with "+changes" when the tree differed from it), so
    that figures taken before and after a change to an engine are not mixed up; "unknown"
    outside a git checkout."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True,
                                text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "../src"],
                               cwd=here, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (commit + ("+changes" if dirty else "")) if commit else "unknown"
