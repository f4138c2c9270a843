"""What machine a benchmark ran on, for the header of every results file."""

from __future__ import annotations

import os
import platform
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
