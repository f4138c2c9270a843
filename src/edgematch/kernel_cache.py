"""One guard against stale Numba machine code, for every package with compiled kernels.

Numba drops a cached function only when *its own* source file changes. Our kernels bake in
constants from other files (the table layout of ``engines/backtrack/plan.py``, the
ColorPair state layout of ``engines/colorpair/tables.py``, the tile conventions of
``model/tiles.py``), so editing one of those alone would leave the kernels running old
machine code with the old layout: wrong counts or a crash, never an error. Each package
with kernels calls :func:`guard` before importing them: a stamp of every source of the
package (and of the model files it depends on) is compared with the one saved beside the
cache, and on a mismatch the package's cache files are deleted, to be compiled anew.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

STAMP = "edgematch-kernels.stamp"
_MODEL = Path(__file__).resolve().parent / "model"
#: Model files whose constants kernels bake in (tile sides, grey, kinds).
MODEL_DEPENDENCIES = (_MODEL / "tiles.py",)


def source_stamp(package_dir: Path, extra: Iterable[Path] = ()) -> str:
    """A digest of every ``.py`` file of the package and of ``extra``, names included."""
    digest = hashlib.sha256()
    for path in sorted(package_dir.glob("*.py")) + sorted(Path(p) for p in extra):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_dirs(package_dir: Path) -> list[Path]:
    """Where Numba may keep this package's cache: ``__pycache__`` beside the sources, then
    below ``NUMBA_CACHE_DIR`` and below Numba's user-wide cache (used when the package folder
    is not writable), each at the folder name Numba derives from the package path (the
    folder's name and a digest of its path) and at the mirror of the path older Numbas used."""
    dirs = [package_dir / "__pycache__"]
    relative = str(package_dir).lstrip(os.sep)
    subpaths = [relative]
    try:
        from numba.core.caching import _CacheLocator

        subpaths.insert(0, _CacheLocator.get_suitable_cache_subpath(str(package_dir / "__init__.py")))
    except Exception:  # noqa: BLE001 - a Numba without this helper: the mirror alone
        pass
    roots = []
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        roots.append(Path(custom))
    try:
        from numba.misc.appdirs import AppDirs

        roots.append(Path(AppDirs(appname="numba", appauthor=False).user_cache_dir))
    except Exception:  # noqa: BLE001 - an older or newer Numba without this helper: nothing more to clear
        pass
    dirs += [root / subpath for root in roots for subpath in subpaths]
    return dirs


def guard(package_file: str, extra: Iterable[Path] = MODEL_DEPENDENCIES) -> bool:
    """Delete the package's cached kernels when any of its sources changed since they were
    compiled. ``package_file`` is the package's ``__file__``. Returns True when a cache
    was dropped."""
    package_dir = Path(package_file).resolve().parent
    try:
        stamp = source_stamp(package_dir, extra)
    except OSError:
        return False
    dropped = False
    for directory in cache_dirs(package_dir):
        marker = directory / STAMP
        try:
            if marker.read_text().strip() == stamp:
                continue
        except OSError:
            pass
        if not directory.is_dir() and directory.name != "__pycache__":
            continue  # nothing cached there
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for path in directory.iterdir():
                if path.suffix in (".nbi", ".nbc"):
                    path.unlink()
                    dropped = True
            marker.write_text(stamp)
        except OSError:
            pass  # a read-only install: Numba then caches elsewhere or not at all
    return dropped
