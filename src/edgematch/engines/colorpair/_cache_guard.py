"""Drop this package's Numba cache when any of its kernel sources changed.

Numba invalidates a cached function only when *its own* file changes.  The kernels here
bake the memory-layout constants of :mod:`.tables` into their code, so an edit of
``tables.py`` alone would leave ``filtering.py`` and ``search.py`` running stale machine
code with the old layout (a crash, not an error).  Before the kernels are imported, a
stamp of all three sources is compared with the one saved beside the cache; on a
mismatch the package's cache files are removed and compiled again on first use.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_SOURCES = ("tables.py", "filtering.py", "search.py")
_STAMP = "colorpair-layout.stamp"


def _cache_dirs() -> list[Path]:
    dirs = [_HERE / "__pycache__"]
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        # Numba mirrors the package path below NUMBA_CACHE_DIR
        dirs.extend(p for p in Path(custom).rglob("colorpair") if p.is_dir())
    return dirs


def check() -> None:
    digest = hashlib.sha256()
    for name in _SOURCES:
        try:
            digest.update((_HERE / name).read_bytes())
        except OSError:
            return
    stamp = digest.hexdigest()
    for directory in _cache_dirs():
        marker = directory / _STAMP
        try:
            if marker.read_text().strip() == stamp:
                continue
        except OSError:
            pass
        try:
            directory.mkdir(exist_ok=True)
            for path in directory.iterdir():
                if path.suffix in (".nbi", ".nbc") and path.name.split(".")[0] in ("filtering", "search"):
                    path.unlink()
            marker.write_text(stamp)
        except OSError:
            pass  # a read-only install: Numba then caches elsewhere or not at all
