"""The folder of generated kernels: last use, the size bound, and ``edgematch cache``."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from edgematch.cli.main import main
from edgematch.engines.backtrack import generated, generated_cache
from edgematch.errors import InputError


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("EDGEMATCH_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("EDGEMATCH_CACHE_MAX_MB", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    return tmp_path / "generated"


def fake_module(folder: Path, name: str, code_bytes: int, used_ago: float | None, code_dir: Path | None = None):
    """A generated module as the cache holds it: source, machine code, and a use marker
    ``used_ago`` seconds old (None: no marker, the source's age counts)."""
    folder.mkdir(parents=True, exist_ok=True)
    code = code_dir if code_dir is not None else folder / "__pycache__"
    code.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.py").write_text("x = 1\n")
    (code / f"{name}.chain-12.py311.nbi").write_bytes(b"i" * 100)
    (code / f"{name}.chain-12.py311.1.nbc").write_bytes(b"c" * code_bytes)
    if used_ago is not None:
        marker = folder / f"{name}.used"
        marker.touch()
        stamp = time.time() - used_ago
        os.utime(marker, (stamp, stamp))


def test_modules_are_listed_least_recently_used_first_with_their_size(cache):
    fake_module(cache, "edgematch_best_aaa", 5000, used_ago=60)
    fake_module(cache, "edgematch_exact_bbb", 3000, used_ago=3600)
    fake_module(cache, "edgematch_best_ccc", 1000, used_ago=10)
    listed = generated_cache.modules()
    assert [m.name for m in listed] == ["edgematch_exact_bbb", "edgematch_best_aaa", "edgematch_best_ccc"]
    assert [m.kind for m in listed] == ["exact", "best", "best"]
    assert listed[1].size == 6 + 100 + 5000 + 0  # source, index, code, empty marker
    assert all(m.compiled for m in listed)
    # a background compile's lock is part of its module (deleted with it)
    (cache / "edgematch_best_ccc.compiling").write_text("12345")
    assert (cache / "edgematch_best_ccc.compiling") in generated_cache.modules()[2].files


def test_prune_deletes_least_recently_used_until_within_the_bound_sparing_kept_ones(cache):
    fake_module(cache, "edgematch_best_old", 4000, used_ago=7200)
    fake_module(cache, "edgematch_best_mid", 4000, used_ago=3600)
    fake_module(cache, "edgematch_best_new", 4000, used_ago=5)
    removed = generated_cache.prune(9000, keep=frozenset(["edgematch_best_old"]))
    assert [m.name for m in removed] == ["edgematch_best_mid"]
    names = {m.name for m in generated_cache.modules()}
    assert names == {"edgematch_best_old", "edgematch_best_new"}
    assert not list((cache / "__pycache__").glob("edgematch_best_mid*"))
    assert not (cache / "edgematch_best_mid.py").exists()
    assert generated_cache.prune(0) == []  # 0: no bound
    assert generated_cache.prune(100) and generated_cache.modules() == []


def test_machine_code_without_its_source_goes_first(cache):
    fake_module(cache, "edgematch_best_kept", 100, used_ago=99999)
    fake_module(cache, "edgematch_best_gone", 5000, used_ago=5)
    (cache / "edgematch_best_gone.py").unlink()
    (cache / "edgematch_best_gone.used").unlink()
    listed = generated_cache.modules()
    assert (listed[0].name, listed[0].kind, listed[0].last_used) == ("edgematch_best_gone", "orphan", 0.0)
    generated_cache.prune(1000)
    assert [m.name for m in generated_cache.modules()] == ["edgematch_best_kept"]


def test_machine_code_under_numba_cache_dir_is_counted(cache, tmp_path, monkeypatch):
    """Numba keeps a module's machine code below NUMBA_CACHE_DIR in a folder named after
    the module's folder and a digest of its path: compile a real one there and find it."""
    import importlib.util

    import numba

    numba_dir = tmp_path / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(numba_dir))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(numba_dir))
    cache.mkdir(parents=True, exist_ok=True)
    name = "edgematch_best_elsewhere"
    (cache / f"{name}.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef chain(x):\n    return x + 1\n")
    spec = importlib.util.spec_from_file_location(name, cache / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    assert module.chain(1) == 2
    (written,) = [path.parent for path in numba_dir.rglob(f"{name}.chain-*.nbi")]
    assert not (cache / "__pycache__").exists()  # the code is only below NUMBA_CACHE_DIR
    (listed,) = generated_cache.modules()
    assert listed.name == name and listed.compiled
    assert listed.size == sum(path.stat().st_size for path in written.iterdir()) + len((cache / f"{name}.py").read_bytes())
    generated_cache.clear()
    assert not list(written.glob(f"{name}.*"))


def test_the_bound_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("EDGEMATCH_CACHE_MAX_MB", raising=False)
    assert generated_cache.limit_bytes() == generated_cache.DEFAULT_LIMIT_MB << 20
    monkeypatch.setenv("EDGEMATCH_CACHE_MAX_MB", "0.5")
    assert generated_cache.limit_bytes() == 1 << 19
    monkeypatch.setenv("EDGEMATCH_CACHE_MAX_MB", "0")
    assert generated_cache.limit_bytes() == 0
    for bad in ("-1", "lots", "nan"):
        monkeypatch.setenv("EDGEMATCH_CACHE_MAX_MB", bad)
        with pytest.raises(InputError, match="EDGEMATCH_CACHE_MAX_MB"):
            generated_cache.limit_bytes()


def test_importing_a_generated_module_marks_it_used_and_bounds_the_cache(cache, monkeypatch):
    fake_module(cache, "edgematch_best_stale", 20000, used_ago=86400)
    monkeypatch.setenv("EDGEMATCH_CACHE_MAX_MB", "0.01")  # 10 KB: the stale module must go
    text = f"'''a module written by a test at {time.time()}'''\nANSWER = 42\n"
    module = generated.import_source(text, "edgematch_test")
    assert module.ANSWER == 42
    name = generated.module_name(text, "edgematch_test")
    (listed,) = generated_cache.modules()
    assert listed.name == name and listed.kind == "test"
    assert time.time() - listed.last_used < 60


def test_cache_command_lists_bounds_and_clears(cache, capsys):
    fake_module(cache, "edgematch_best_aaa", 3 << 20, used_ago=7200)
    fake_module(cache, "edgematch_best_bbb", 1 << 20, used_ago=60)
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert "2 kernels, 4.0 MB" in out
    assert out.index("edgematch_best_bbb") < out.index("edgematch_best_aaa")  # most recent first
    assert main(["cache", "--max-size", "2"]) == 0
    assert "deleted 1 kernels" in capsys.readouterr().out
    assert main(["cache", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in data["modules"]] == ["edgematch_best_bbb"]
    assert data["folder"] == str(cache)
    assert main(["cache", "--clear", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["removed"] == ["edgematch_best_bbb"] and data["modules"] == []


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["cache", "--max-size", "-3"], None, "--max-size must be 0 or more"),
        (["cache", "--max-size", "nan"], None, "--max-size must be 0 or more"),
        (["cache"], "many", "EDGEMATCH_CACHE_MAX_MB='many'"),
        (["cache", "--clear", "--max-size", "5"], None, "not allowed with argument"),
    ],
)
def test_cache_command_refuses_bad_sizes_in_one_line(cache, capsys, monkeypatch, argv, env, message):
    if env is not None:
        monkeypatch.setenv("EDGEMATCH_CACHE_MAX_MB", env)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
