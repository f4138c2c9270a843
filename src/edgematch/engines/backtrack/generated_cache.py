"""The folder of generated kernels: what it holds, when each was last used, and a size bound.

Every puzzle, scan order and schedule gets its own generated module, and Numba's machine
code for one ``search e2`` module takes about 70 MB, so a user who tries configurations
for weeks would fill the disk.  Each load marks its module as used (a small ``.used`` file
beside the source: touching the source itself would make Numba compile it again), and
every first load in a process deletes the least recently used modules until the folder is
within ``EDGEMATCH_CACHE_MAX_MB`` (default :data:`DEFAULT_LIMIT_MB`); a deleted module is
written and compiled again when it is next needed.  ``edgematch cache`` lists, bounds and
clears the folder.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from ...kernel_cache import cache_dirs

#: the bound on the folder's size when ``EDGEMATCH_CACHE_MAX_MB`` is not set: room for
#: about 30 modules of ``search e2`` (each board turn, order and schedule is one)
DEFAULT_LIMIT_MB = 2048
#: generated module names start with this (``edgematch_best_<digest>``, ``edgematch_exact_...``)
PREFIX = "edgematch_"
USED = ".used"
#: beside a module being compiled by another process: its process id (:mod:`.background_compile`)
LOCK = ".compiling"


def cache_dir() -> Path:
    """Where generated kernels are written: ``EDGEMATCH_CACHE_DIR`` or the user's cache."""
    custom = os.environ.get("EDGEMATCH_CACHE_DIR")
    if custom:
        return Path(custom) / "generated"
    from numba.misc.appdirs import AppDirs

    return Path(AppDirs(appname="edgematch", appauthor=False).user_cache_dir) / "generated"


def code_dirs() -> list[Path]:
    """Where Numba may keep the machine code of the generated modules."""
    return cache_dirs(cache_dir())


def limit_bytes() -> int:
    """The size bound in bytes, from ``EDGEMATCH_CACHE_MAX_MB`` (0: no bound)."""
    text = os.environ.get("EDGEMATCH_CACHE_MAX_MB", "").strip()
    if not text:
        return DEFAULT_LIMIT_MB << 20
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = -1.0
    if not megabytes >= 0:
        raise InputError(f"EDGEMATCH_CACHE_MAX_MB={text!r}: not a size in MB (0 or more)")
    return int(megabytes * (1 << 20))


@dataclass(frozen=True)
class CachedModule:
    """One generated module: its source, its machine code files and its last use."""

    name: str
    kind: str  # "best" (search) or "exact" (solve, count)
    files: tuple[Path, ...]
    size: int  # bytes, source and machine code
    compiled: bool  # Numba's index of its entry function is there
    last_used: float  # seconds since the epoch


def modules() -> list[CachedModule]:
    """The generated modules in the cache, least recently used first."""
    folder = cache_dir()
    if not folder.is_dir():
        return []
    code: dict[str, list[Path]] = {}  # module name -> its machine code files
    for directory in code_dirs():
        if directory.is_dir():
            for path in directory.iterdir():
                if path.name.startswith(PREFIX):
                    code.setdefault(path.name.split(".", 1)[0], []).append(path)
    found = []
    for source in folder.glob(f"{PREFIX}*.py"):
        name = source.stem
        marker, lock = source.with_suffix(USED), source.with_suffix(LOCK)
        extra = [f for f in (marker, lock) if f.exists()]
        files = [source, *extra, *code.pop(name, [])]
        try:
            size = sum(f.stat().st_size for f in files)
            last_used = (marker if marker.exists() else source).stat().st_mtime
        except FileNotFoundError:  # another process is pruning it
            continue
        kind = name[len(PREFIX) :].rsplit("_", 1)[0]
        compiled = any(f.name.startswith(f"{name}.chain-") and f.suffix == ".nbi" for f in files)
        found.append(CachedModule(name, kind, tuple(files), size, compiled, last_used))
    for name, files in code.items():  # machine code whose source is gone: never used again
        found.append(CachedModule(name, "orphan", tuple(files), sum(_size(f) for f in files), False, 0.0))
    return sorted(found, key=lambda m: (m.last_used, m.name))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def mark_used(name: str) -> None:
    """Record that module ``name`` was loaded now (nothing when the folder is read-only)."""
    marker = cache_dir() / f"{name}{USED}"
    try:
        marker.touch()  # an existing marker gets the time of now
    except OSError:
        pass


def remove(module: CachedModule) -> None:
    """Delete a module's source, marker and machine code."""
    for path in module.files:
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def prune(limit: int, keep: frozenset[str] = frozenset()) -> list[CachedModule]:
    """Delete the least recently used modules, never those named in ``keep``, until the
    cache holds at most ``limit`` bytes (0: no bound); returns the modules deleted."""
    if limit <= 0:
        return []
    present = modules()
    total = sum(m.size for m in present)
    removed = []
    for module in present:
        if total <= limit:
            break
        if module.name in keep:
            continue
        remove(module)
        total -= module.size
        removed.append(module)
    return removed


def clear() -> list[CachedModule]:
    """Delete every generated module; returns them."""
    present = modules()
    for module in present:
        remove(module)
    return present


def age(seconds_since_epoch: float, now: float | None = None) -> str:
    """How long ago, in words a listing can show: ``"3 min"``, ``"2 h"``, ``"5 days"``."""
    if not seconds_since_epoch:
        return "never"
    elapsed = max(0.0, (time.time() if now is None else now) - seconds_since_epoch)
    for unit, width in (("days", 86400), ("h", 3600), ("min", 60)):
        if elapsed >= width:
            return f"{int(elapsed // width)} {unit}"
    return f"{int(elapsed)} s"
