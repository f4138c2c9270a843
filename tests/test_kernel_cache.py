"""No stale machine code: editing a constant that a kernel bakes in, in another file than
the kernel's own, makes the package drop its Numba cache (kernel_cache.guard)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import edgematch
from edgematch import kernel_cache
from support.reference import reference_solve

SRC = Path(edgematch.__file__).resolve().parent

PROBE = """
import edgematch
from edgematch.engines.backtrack import BacktrackSolver
assert edgematch.__file__.startswith({root!r}), edgematch.__file__
print(BacktrackSolver(kernel="lists").count(edgematch.load("owen1-4x4")).solutions)
"""


def _run(root: Path) -> int:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", PROBE.format(root=str(root))], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_editing_a_baked_in_constant_in_another_file_recompiles(tmp_path):
    """In a copy of the package: count (the kernel is compiled and cached), swap two column
    constants of plan.py (the layout the kernel reads, defined outside kernel.py), count
    again. With the guard the cache is dropped and the count is still the reference's;
    a kernel compiled for the old layout would read the wrong columns."""
    root = tmp_path / "src"
    shutil.copytree(SRC, root / "edgematch", ignore=shutil.ignore_patterns("__pycache__"))
    expected = len(reference_solve(edgematch.load("owen1-4x4")).solutions)
    assert _run(root) == expected
    cache = root / "edgematch" / "engines" / "backtrack" / "__pycache__"
    cached = sorted(p.name for p in cache.glob("kernel.*.nbc"))
    assert cached, "the first run must have cached the kernel"
    stamp = (cache / kernel_cache.STAMP).read_text()

    plan = root / "edgematch" / "engines" / "backtrack" / "plan.py"
    text = plan.read_text()
    swapped = re.sub(r"^P_BASE = 0\b", "P_BASE = 1", text, flags=re.M)
    swapped = re.sub(r"^P_NKEY = 1\b", "P_NKEY = 0", swapped, flags=re.M)
    assert swapped != text and "P_BASE = 1" in swapped and "P_NKEY = 0" in swapped
    plan.write_text(swapped)

    assert _run(root) == expected
    assert (cache / kernel_cache.STAMP).read_text() != stamp  # the guard saw the edit


def test_the_guard_drops_cache_files_only_when_a_source_changes(tmp_path):
    package = tmp_path / "pkg"
    (package / "__pycache__").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "kernel.py").write_text("A = 1\n")
    stale = package / "__pycache__" / "kernel.f-1.py311.1.nbc"
    stale.write_bytes(b"old machine code")
    assert kernel_cache.guard(str(package / "__init__.py"), extra=()) is True  # no stamp yet
    assert not stale.exists()
    stale.write_bytes(b"fresh machine code")
    assert kernel_cache.guard(str(package / "__init__.py"), extra=()) is False  # nothing changed
    assert stale.exists()
    (package / "kernel.py").write_text("A = 2\n")
    assert kernel_cache.guard(str(package / "__init__.py"), extra=()) is True
    assert not stale.exists()
