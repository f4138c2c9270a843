"""Where the generated best kernel spends its time on ``e2``: a sampled profile per function.

Runs Blackwood's method (score_race.py's depth race, one core) with the generated kernel in
this process and samples it with ``perf record -e cpu-clock`` (a software clock: it works in
virtual machines without hardware counters).  Numba runs its machine code from anonymous
memory, so perf cannot name it; this script takes the module's object code from Numba's
cache, finds where each generated function (``f0``, ``f1``, ..., twelve depths each) lies in
this process and writes a perf map (``/tmp/perf-PID.map``) before the samples are read.
Prints the share of samples per function with its depths, and the hottest instructions of
the hottest function (with ``objdump``, where installed); writes
``results/kernel_profile.md`` and ``.json``.  Needs Linux ``perf``; the module must be in
the cache (run the search once with ``--kernel generated``, docs/backtracking.md).

    python benchmarks/kernel_profile.py [--seed 1] [--warmup 12] [--seconds 30] [--top 25]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from depth_probes import BLACKWOOD_JB470  # noqa: E402
from machine_info import code_version, machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
#: a generated function's name inside Numba's mangled symbol
SYMBOL = re.compile(r"_ZN\d+edgematch_best_[0-9a-f]{24}\d+(f\d+|chain|halt|settle|improve|leaf)B")


def depth_ranges(source: str) -> dict[str, tuple[int, int]]:
    """``{"f3": (first, last)}``: the depths of each generated function, read from the
    module's ``chain`` (``if s == FIRST: st = fJ(...)``); the last one ends at the last
    depth the module searches (``D - 1``, from the deepest ``if rd >= D``)."""
    firsts = [(int(a), f"f{b}") for a, b in re.findall(r"s == (\d+):\n\s+st = f(\d+)\(", source)]
    deepest = max((int(x) for x in re.findall(r"if rd >= (\d+):", source)), default=0)
    firsts.sort()
    out = {}
    for k, (first, name) in enumerate(firsts):
        last = firsts[k + 1][0] - 1 if k + 1 < len(firsts) else deepest
        out[name] = (first, last)
    return out


def symbols(object_code: bytes, entry: str) -> tuple[int, list[tuple[int, int, str]]]:
    """The offset of function ``entry`` and ``(offset, size, name)`` of the functions in its
    section of the object code (an ELF64 relocatable file, read here: llvmlite does not
    list symbols), names shortened to the generated ones (``f19``, ``chain``) where they
    are; Numba's wrappers keep their whole names."""
    import struct

    (shoff,) = struct.unpack_from("<Q", object_code, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", object_code, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", object_code, shoff + k * shentsize) for k in range(shnum)]
    found = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strings = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, info, _other, section, value, length = struct.unpack_from("<IBBHQQ", object_code, at)
            if info & 0xF != 2 or not length:  # functions only
                continue
            end = object_code.index(b"\0", strings + name_at)
            found.append((section, value, length, object_code[strings + name_at : end].decode()))
    home, start = next((section, value) for section, value, _length, name in found if name == entry)
    out = []
    for section, value, length, name in found:
        if section == home:
            match = SYMBOL.match(name)
            out.append((value, length, match.group(1) if match else name[:48]))
    return start, out


def attribute(ips: list[int], syms: list[tuple[int, int, str]], base: int) -> tuple[dict[str, int], dict[int, int]]:
    """Samples per function (``"other"``: outside the module) and per offset in the object."""
    per_function: dict[str, int] = {}
    per_offset: dict[int, int] = {}
    ordered = sorted(syms)
    for ip in ips:
        offset = ip - base
        name = "other"
        for start, size, label in ordered:
            if start <= offset < start + size:
                name = label
                per_offset[offset] = per_offset.get(offset, 0) + 1
                break
        per_function[name] = per_function.get(name, 0) + 1
    return per_function, per_offset


def _object_code(dispatcher, signature) -> bytes:
    """The machine code of ``chain`` and everything it calls, as Numba cached it for the
    ``signature`` this process runs (an int32 or an int64 array)."""
    cache_file = dispatcher._cache._cache_file
    keys = list(cache_file._load_index())
    key = next((k for k in keys if tuple(k[0]) == tuple(signature.args)), keys[0] if keys else None)
    if key is None:
        raise RuntimeError("Numba's cache holds no entry of the generated module")
    data = cache_file.load(key)

    def find(value, depth=0):
        if isinstance(value, bytes) and value[:4] == b"\x7fELF":
            return value
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else ()
        if hasattr(value, "__dict__") and depth < 3:
            items = vars(value).values()
        for item in items:
            found = find(item, depth + 1)
            if found is not None:
                return found
        return None

    code = find(data)
    if code is None:
        raise RuntimeError("no object code in Numba's cache entry of the generated module")
    return code


def _module():
    for name, module in list(sys.modules.items()):
        if name.startswith("edgematch_best_"):
            return module
    return None


def _hot_instructions(code: Path, start: int, size: int, per_offset: dict[int, int], total: int, top: int) -> list[str]:
    if not shutil.which("objdump"):
        return []
    listing = subprocess.run(
        [
            "objdump",
            "-d",
            "--no-show-raw-insn",
            "-M",
            "intel",
            f"--start-address={start}",
            f"--stop-address={start + size}",
            str(code),
        ],
        capture_output=True,
        text=True,
    ).stdout
    text = {}
    for line in listing.splitlines():
        match = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if match:
            text[int(match.group(1), 16)] = re.sub(r"<_ZN[^>]*\+(0x[0-9a-f]+)>", r"<+\1>", match.group(2))
    hottest = sorted(((n, off) for off, n in per_offset.items() if start <= off < start + size), reverse=True)
    return [f"{100 * n / total:5.2f} %  {off - start:#7x}  {text.get(off, '?')}" for n, off in hottest[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=float, default=12.0, help="seconds of search before sampling")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds sampled")
    parser.add_argument("--top", type=int, default=25, help="hottest instructions shown")
    args = parser.parse_args()
    if not shutil.which("perf"):
        print("kernel_profile: Linux perf is not installed", file=sys.stderr)
        raise SystemExit(2)

    from edgematch.engines.backtrack.solver import BacktrackSolver
    from edgematch.loading import load

    work = Path(tempfile.mkdtemp(prefix="kernel_profile_"))
    found: dict = {}

    def sample() -> None:
        try:
            take_samples()
        except Exception as error:  # reported by the main thread, after the search
            found["error"] = f"{type(error).__name__}: {error}"

    def take_samples() -> None:
        time.sleep(args.warmup)
        module = _module()
        if module is None:
            found["error"] = "the generated module was not loaded (is it compiled? see the docstring)"
            return
        compiled = next(iter(module.chain.overloads.values()))
        entry = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
        code = _object_code(module.chain, compiled.signature)
        chain_offset, syms = symbols(code, compiled.fndesc.llvm_func_name)
        base = entry - chain_offset
        with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
            for start, size, name in sorted(syms):
                f.write(f"{base + start:x} {size:x} {name}\n")
        (work / "module.o").write_bytes(code)
        subprocess.run(
            [
                "perf",
                "record",
                "-e",
                "cpu-clock",
                "-F",
                "4000",
                "-p",
                str(os.getpid()),
                "-o",
                str(work / "perf.data"),
                "--",
                "sleep",
                str(args.seconds),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        found.update(base=base, syms=syms, ranges=depth_ranges(Path(module.__file__).read_text()))

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    solver = BacktrackSolver(time_limit=args.warmup + args.seconds + 5, seed=args.seed, **BLACKWOOD_JB470)
    result = solver.best(load("e2"))
    thread.join()
    if "error" in found:
        print(f"kernel_profile: {found['error']}", file=sys.stderr)
        raise SystemExit(2)
    script = subprocess.run(
        ["perf", "script", "-i", str(work / "perf.data"), "-F", "ip"], capture_output=True, text=True
    ).stdout
    ips = [int(x, 16) for x in script.split()]
    if not ips:
        print("kernel_profile: perf recorded no samples (perf_event_paranoid?)", file=sys.stderr)
        raise SystemExit(2)
    per_function, per_offset = attribute(ips, found["syms"], found["base"])
    total = len(ips)
    ranges = found["ranges"]
    rows = sorted(per_function.items(), key=lambda kv: -kv[1])
    table = [(name, ranges.get(name), n, 100 * n / total) for name, n in rows]
    hottest = rows[0][0] if rows[0][0] != "other" else rows[1][0]
    start, size = next((s, z) for s, z, name in found["syms"] if name == hottest)
    hot = _hot_instructions(work / "module.o", start, size, per_offset, total, args.top)

    rate = result.nodes / max(result.seconds, 1e-9)
    print(f"{total} samples over {args.seconds:g} s, {rate / 1e6:.1f} million nodes per second")
    for name, depths, _n, share in table:
        where = f"depths {depths[0]}-{depths[1]}" if depths else ""
        print(f"{share:6.2f} %  {name:10s} {where}")
    if hot:
        print(f"hottest instructions of {hottest} (share of all samples, offset in the function):")
        print("\n".join(hot))

    RESULTS.mkdir(exist_ok=True)
    record = dict(
        machine=machine(),
        code=code_version(),
        date=time.strftime("%Y-%m-%d"),
        seed=args.seed,
        warmup=args.warmup,
        seconds=args.seconds,
        samples=total,
        nodes_per_second=rate,
        functions=[dict(name=name, depths=depths, samples=n, share=share) for name, depths, n, share in table],
        hottest=hottest,
        hot_instructions=hot,
    )
    (RESULTS / "kernel_profile.json").write_text(json.dumps(record, indent=1) + "\n")
    lines = [
        "# Where the generated best kernel spends its time on e2",
        "",
        f"`python benchmarks/kernel_profile.py --seed {args.seed} --warmup {args.warmup:g} --seconds {args.seconds:g}`"
        f" on {record['machine']}, code {record['code']}, {record['date']}: Blackwood's method, one core,"
        f" {total} samples of `perf record -e cpu-clock` over {args.seconds:g} s after {args.warmup:g} s,"
        f" {rate / 1e6:.1f} million nodes per second over the whole run.",
        "",
        "| function | depths | samples | share |",
        "|---|---|---:|---:|",
        *(f"| {name} | {f'{d[0]}-{d[1]}' if d else ''} | {n} | {share:.2f} % |" for name, d, n, share in table),
        "",
    ]
    if hot:
        lines += [
            f"Hottest instructions of `{hottest}` (share of all samples, offset in the function):",
            "",
            "```",
            *hot,
            "```",
            "",
        ]
    (RESULTS / "kernel_profile.md").write_text("\n".join(lines))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
