"""The exact kernel written out for one puzzle and scan order: generated source, compiled once.

The list kernel (:mod:`.kernel`) reads, at every node, the depth's row of the plan (which
squares form the key, their shifts, the table's base), keeps the search stack in arrays
and runs every depth through the same few branches.  Here each depth becomes its own
loop in Python source, with the square, the neighbours, the shifts and the table base as
literals; the depths nest as loops, twelve to a function, and each function calls the next
(eternity2.dev's "chain" of functions).  A neighbour placed inside the same function is a
local variable instead of a board read, the candidate index and the list end live in
registers, and every depth has its own branches for the processor to predict.

The tree is the list kernel's, node for node: the same lists in the same order, a node
counted when placed, the same stop after exactly the node budget, and the same resumable
state (``cur``, ``end``, ``state``) between slices, so the driver, the prefix filter,
checkpoints and splits work unchanged and either kernel can go on from the other's state.

The source is written to a cache folder (``EDGEMATCH_CACHE_DIR``, else the user's cache
folder) under a name that digests everything baked into it, and imported as a module, so
Numba caches its machine code beside it.  The first search of a puzzle and order
compiles it (minutes for e2dev/bench-hard's 216 depths, counted in that search's time);
later searches load it in under a second (docs/backtracking.md).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import threading
from pathlib import Path

import numpy as np
from numba import njit

from . import generated_cache
from .generated_cache import cache_dir
from .kernel import BUDGET, SOLUTIONS, key_range
from .plan import P_BASE, P_KEY, P_NCHK, P_NKEY

#: depths per generated function: in a prototype on e2dev/bench-hard, 12 ran fastest
#: (6: 93, 9: 100, 12: 117, 18: 105 million nodes per second, the list kernel 100), and
#: Python allows 20 nested blocks in one function
DEPTHS_PER_FUNCTION = 12
#: written into every generated source, so a new shape of the code gets new module names
VERSION = 4
#: codes of fewer bits than this fit the best kernel's ``mem`` as int32 (half the bytes in
#: the caches, measured faster on e2: docs/backtracking.md); its counters then count one
#: slice, whose budget is capped below 2**31
INT32_CODE_BITS = 31
MAX_SLICE_NODES_INT32 = 2**30

#: the counters after the stack in ``mem``, in this order (:func:`layout`); the copies in
#: and out (:func:`_enter`, :func:`_leave`) address them from NODES by their position
COUNTERS = ("NODES", "LEAVES", "WRITTEN", "MAXSOL", "DEPTH", "RD", "OUTROWS", "OUTAT")
LEAVES, WRITTEN, MAXSOL, DEPTH, RD, OUTROWS, OUTAT = range(1, len(COUNTERS))
#: the offsets :class:`GeneratedKernel` hands to the copies, in this order
OFFSETS = ("CUR", "END", "NPD", "BOARD", "USED", "STARTS", "CAND", "NODES")
O_CUR, O_END, O_NPD, O_BOARD, O_USED, O_STARTS, O_CAND, O_NODES = range(len(OFFSETS))

#: guards the cache folder's files and the imported modules (re-entered by import_source)
_lock = threading.RLock()
_loaded: dict[str, object] = {}


def supports(tables, rows: np.ndarray) -> bool:
    """True when the generated kernel can run this plan: packed codes and every known
    side in the look-up key (explicit side checks stay with the list kernel)."""
    return tables.pcol is None and not (rows[:, P_NCHK] > 0).any()


def mem_dtype(cmask: int, pmask: int) -> type:
    """int32 when a packed code (placement bits and four colours) fits it, else int64."""
    code_bits = int(pmask).bit_length() + 4 * int(cmask).bit_length()
    return np.int32 if code_bits < INT32_CODE_BITS else np.int64


def square_code(square: int, d: int, first: int, depth_of: dict, board_at: int) -> str | None:
    """The code on ``square`` as depth ``d`` of a function beginning at ``first`` sees it:
    that function's local, a read of the board, or None for a hint (a constant)."""
    at = depth_of.get(square)
    if at is None:
        return None
    return f"p{at}" if first <= at < d else f"mem[{board_at + square}]"


def key_expression(row, d: int, first: int, depth_of: dict, hints, cmask: int, board_at: int, starts_at: int) -> str:
    """The look-up index of plan row ``row`` at depth ``d`` as an expression: hints are
    folded into the constant, squares placed by this function are its locals, the others
    are read from the board."""
    base = int(row[P_BASE])
    terms = []
    for c in range(int(row[P_NKEY])):
        square, shift, mul = (int(x) for x in row[P_KEY + 3 * c : P_KEY + 3 * c + 3])
        code = square_code(square, d, first, depth_of, board_at)
        if code is None:
            base += ((int(hints[square]) >> shift) & cmask) * mul
            continue
        terms.append(f"(({code} >> {shift}) & {cmask}) * {mul}")
    return " + ".join([str(base + starts_at)] + terms)


#: the imports of every generated module (``U``: see :func:`read_candidate`; ``I``: :func:`call`)
IMPORTS = ["from numba import njit", "from numba import int64 as I", "from numba import uint64 as U"]


def call(helper: str, *args: object) -> str:
    """A call of a generated helper with every scalar passed as int64: Numba compiles a
    jitted function again for each distinct literal argument (``halt(mem, 228, ...)``), so
    uncast, a module compiled its helpers once per depth (docs/backtracking.md)."""
    return f"{helper}(mem, " + ", ".join(f"I({a})" for a in args) + ")"


def read_candidate(d: int, cand_at: int, used_at: int, pmask: int, ind: str) -> list[str]:
    """Depth ``d``'s list entry ``i{d}`` read into ``p{d}`` and its used flag's index into
    ``t{d}``.  The entry is read with an unsigned index: for a signed one Numba adds a
    compare and a conditional move before the load, on the chain to the used test."""
    return [
        f"{ind}p{d} = mem[U({cand_at} + i{d})]",
        f"{ind}t{d} = {used_at} + ((p{d} & {pmask}) >> 2)",
    ]


def next_free(d: int, cand_at: int, used_at: int, pmask: int, ind: str) -> list[str]:
    """Depth ``d``'s next candidate, inside the depth's own loop: a used tile ``continue``s it."""
    first, flag = read_candidate(d, cand_at, used_at, pmask, ind)
    return [first, f"{ind}i{d} += 1", flag, f"{ind}if mem[t{d}]:", f"{ind}    continue"]


def skip_used(d: int, cand_at: int, used_at: int, pmask: int, ind: str) -> list[str]:
    """Depth ``d``'s list position moved to the next free tile in a loop of its own, which
    keeps the position in a register where the depth's loop would keep it on the stack.  It
    leaves the tile in ``p{d}``, ``t{d}`` at ``break``; its ``else:`` (the list ran out) is
    the block the caller writes next.  Pays where lists are long and mostly used (the break
    phases of a best search), not on short exact lists (docs/backtracking.md)."""
    return [
        f"{ind}while i{d} < e{d}:",
        *read_candidate(d, cand_at, used_at, pmask, ind + "    "),
        f"{ind}    if mem[t{d}] == 0:",
        f"{ind}        break",
        f"{ind}    i{d} += 1",
        f"{ind}else:",
    ]


def chained(start: int, depth: int, body) -> list[str]:
    """The functions ``f0, f1, ...`` of depths ``start .. depth - 1``, DEPTHS_PER_FUNCTION
    each (``body(j, first, last)`` writes function ``j``'s loops), and ``chain(mem, budget,
    s)``, which runs the function that begins at depth ``s``."""
    G = DEPTHS_PER_FUNCTION
    firsts = list(range(start, depth, G))
    lines = []
    for j, first in enumerate(firsts):
        lines += ["@njit(cache=True, nogil=True)", f"def f{j}(mem, budget):"]
        lines += body(j, first, min(depth, first + G))
        lines += ["    return 0", "", ""]
    lines += ["@njit(cache=True, nogil=True)", "def chain(mem, budget, s):", "    st = -1"]
    for j, first in enumerate(firsts):
        lines += [f"    {'if' if j == 0 else 'elif'} s == {first}:", f"        st = f{j}(mem, budget)"]
    return lines + ["    return st", ""]


def begins_function(start: int, depth: int) -> bool:
    """True when a module written from ``start`` has a function beginning at ``depth``
    (a slice can start only there)."""
    return depth >= start and (depth - start) % DEPTHS_PER_FUNCTION == 0


@njit(cache=True, nogil=True)
def place_again(mem, cur_at, used_at, npd_at, nodes_at, cand, cur, board, order, s, r, pmask):
    """On entry to a slice resumed at depth ``r``: the tiles of depths ``s .. r-1`` are
    placed again by their loops, from their own list position, so they are freed and
    their second count taken off in advance."""
    for x in range(s, r):
        code = board[order[x]]
        mem[used_at + ((code & pmask) >> 2)] = 0
        # the placed entry is the last one before cur equal to it (after a filtered slice
        # the entries between it and cur are tiles still taken, skipped again)
        j = cur[x] - 1
        while j > 0 and cand[j] != code:
            j -= 1
        mem[cur_at + x] = j
        mem[npd_at + x] -= 1
        mem[nodes_at] -= 1


class _Source:
    """Writes the kernel's source for one plan and start depth (see :func:`source`).

    Every array the search touches lives in one int64 array ``mem`` at fixed offsets
    (candidate lists, their starts, the board, the used flags, the stack, the counters),
    so each generated function takes ``(mem, budget)``: with the list kernel's seven
    array arguments passed down the chain, the calls cost a tenth of the speed.
    """

    def __init__(self, rows, order, board, cmask: int, pmask: int, start: int, n_tiles: int, n_starts: int) -> None:
        self.rows = rows
        self.order = [int(s) for s in order]
        self.hints = board
        self.cmask = cmask
        self.pmask = pmask
        self.start = start
        self.D = D = len(self.order)
        self.depth_of = {s: d for d, s in enumerate(self.order)}
        self.layout = layout(D, len(board), n_tiles, n_starts)

    def __getattr__(self, name: str) -> int:
        return self.layout[name]

    def key(self, d: int, first: int) -> str:
        return key_expression(self.rows[d], d, first, self.depth_of, self.hints, self.cmask, self.BOARD, self.STARTS)

    def level(self, j: int, first: int, last: int, d: int, ind: str) -> list[str]:
        """The loop of depth ``d`` with every deeper depth of function ``j`` inside it.

        The node count and the resume depth are the function's locals, and a depth's
        position and list end go to ``mem`` only when a stop unwinds through it (the
        status ``st`` breaks each enclosing loop in turn, saving its depth)."""
        sq = self.BOARD + self.order[d]
        out = [f"{ind}st = 0", f"{ind}n = mem[{self.NODES}]", f"{ind}rd = mem[{self.RD}]"] if d == first else []
        out += [
            f"{ind}if rd >= {d}:",  # resuming: the position is in mem
            f"{ind}    i{d} = mem[{self.CUR + d}]",
            f"{ind}    e{d} = mem[{self.END + d}]",
            f"{ind}    if rd == {d}:",
            f"{ind}        rd = -1",
            f"{ind}        mem[{self.RD}] = -1",
            f"{ind}else:",
            f"{ind}    k{d} = {self.key(d, first)}",
            f"{ind}    i{d} = mem[k{d}]",
            f"{ind}    e{d} = mem[k{d} + 1]",
            f"{ind}while i{d} < e{d}:",
        ]
        ind2 = ind + "    "
        out += [
            *next_free(d, self.CAND, self.USED, self.pmask, ind2),
            f"{ind2}mem[{self.NPD + d}] += 1",
            f"{ind2}n += 1",
        ]
        if d == self.D - 1:
            return out + self.leaf(d, ind2) + self.after_loop(d, first, ind)
        out += [
            f"{ind2}mem[{sq}] = p{d}",
            f"{ind2}if n >= budget:",  # the list kernel's stop: look into the child first
            *(f"{ind2}    {line}" for line in self.save(d)),
            f"{ind2}    st = {call('halt', d, f'i{d}', f't{d}', self.key(d + 1, first))}",
            f"{ind2}    break",
            f"{ind2}mem[t{d}] = 1",
        ]
        if d + 1 < last:
            out += self.level(j, first, last, d + 1, ind2)
        else:
            out += [
                f"{ind2}mem[{self.NODES}] = n",
                f"{ind2}st = f{j + 1}(mem, budget)",
                f"{ind2}n = mem[{self.NODES}]",
                f"{ind2}rd = mem[{self.RD}]",
                f"{ind2}if st != 0:",
                *(f"{ind2}    {line}" for line in self.save(d)),
                f"{ind2}    break",
            ]
        out.append(f"{ind2}mem[t{d}] = 0")
        return out + self.after_loop(d, first, ind)

    def save(self, d: int) -> list[str]:
        """Depth ``d``'s resume state, written as a stop unwinds through it."""
        return [f"mem[{self.CUR + d}] = i{d}", f"mem[{self.END + d}] = e{d}"]

    def after_loop(self, d: int, first: int, ind: str) -> list[str]:
        """After depth ``d``'s loop: a stop goes on unwinding (to the caller after the
        function's first depth, whose state is written either way), saving the enclosing
        depth."""
        if d == first:
            return [*(f"{ind}{line}" for line in self.save(d)), f"{ind}mem[{self.NODES}] = n", f"{ind}return st"]
        return [f"{ind}if st != 0:", *(f"{ind}    {line}" for line in self.save(d - 1)), f"{ind}    break"]

    def leaf(self, d: int, ind: str) -> list[str]:
        """A complete board at the last depth: counted, copied out, and the stops."""
        sq = self.BOARD + self.order[d]
        n_squares = len(self.hints)
        stop = [*(f"{ind}    {line}" for line in self.save(d)), f"{ind}    mem[{self.DEPTH}] = {d}"]
        return [
            f"{ind}leaves = mem[{self.LEAVES}] + 1",
            f"{ind}mem[{self.LEAVES}] = leaves",
            f"{ind}if mem[{self.OUTROWS}] > 0:",
            f"{ind}    mem[{sq}] = p{d}",
            f"{ind}    w = mem[{self.WRITTEN}]",
            f"{ind}    at = mem[{self.OUTAT}] + w * {n_squares}",
            f"{ind}    for x in range({n_squares}):",
            f"{ind}        mem[at + x] = mem[{self.BOARD} + x]",
            f"{ind}    mem[{sq}] = -1",
            f"{ind}    mem[{self.WRITTEN}] = w + 1",
            f"{ind}    if w + 1 == mem[{self.OUTROWS}]:",
            *[("    " + line) for line in stop],
            f"{ind}        st = {SOLUTIONS}",
            f"{ind}        break",
            f"{ind}if mem[{self.MAXSOL}] >= 0 and leaves >= mem[{self.MAXSOL}]:",
            *stop,
            f"{ind}    st = {SOLUTIONS}",
            f"{ind}    break",
            f"{ind}if n >= budget:",
            *stop,
            f"{ind}    st = {BUDGET}",
            f"{ind}    break",
        ]

    def text(self) -> str:
        D = self.D
        lines = [
            f'"""Generated by edgematch.engines.backtrack.generated (version {VERSION}): do not edit."""',
            "",
            *IMPORTS,
            "",
            "",
            "@njit(cache=True, nogil=True)",
            "def halt(mem, d, i, t, k):",
            '    """Stop after a node at d (not the last depth): enter its child when the child',
            '    has a free tile, as the list kernel does; return the budget status."""',
            "    a = mem[k]",
            "    z = mem[k + 1]",
            "    while a < z:",
            f"        q = {self.USED} + ((mem[{self.CAND} + a] & {self.pmask}) >> 2)",
            "        if mem[q] == 0 and q != t:",
            "            break",
            "        a += 1",
            f"    mem[{self.CUR} + d] = i",
            "    if a >= z:",
            f"        mem[{self.DEPTH}] = d",
            "    else:",
            "        mem[t] = 1",
            f"        mem[{self.CUR} + d + 1] = a",
            f"        mem[{self.END} + d + 1] = z",
            f"        mem[{self.DEPTH}] = d + 1",
            f"    return {BUDGET}",
            "",
            "",
        ]
        lines += chained(self.start, D, lambda j, first, last: self.level(j, first, last, first, "    "))
        return "\n".join(lines)


def layout(depth: int, n_squares: int, n_tiles: int, n_starts: int) -> dict[str, int]:
    """Offsets in ``mem``: the stack, the counters, the board, the used flags, the lists'
    starts, then the candidates (whose length changes with the prefix filter) and the
    solution rows after them (at ``mem[OUTAT]``)."""
    offsets = {}
    at = 0
    for name, size in (
        ("CUR", depth + 1),
        ("END", depth + 1),
        ("NPD", depth),
        *((name, 1) for name in COUNTERS),
        ("BOARD", n_squares),
        ("USED", n_tiles),
        ("STARTS", n_starts),
        ("CAND", 0),
    ):
        offsets[name] = at
        at += size
    return offsets


@njit(cache=True, nogil=True)
def _enter(mem, o, cand, starts, board, used, cur, end, state, max_solutions, out_rows, rows, cmask, pmask, order):
    """Copy the list kernel's state into ``mem`` (and see :func:`place_again`)."""
    r = state[0]
    s = state[1]
    if state[3] == 1:
        cur[r], end[r] = key_range(rows, r, board, None, starts, cmask)
    D = order.shape[0]
    for x in range(D + 1):
        mem[o[O_CUR] + x] = cur[x]
        mem[o[O_END] + x] = end[x]
    for x in range(D):
        mem[o[O_NPD] + x] = 0
    for x in range(board.shape[0]):
        mem[o[O_BOARD] + x] = board[x]
    for x in range(used.shape[0]):
        mem[o[O_USED] + x] = used[x]
    for x in range(starts.shape[0]):
        mem[o[O_STARTS] + x] = starts[x]
    for x in range(cand.shape[0]):
        mem[o[O_CAND] + x] = cand[x]
    at = o[O_NODES]
    mem[at] = 0
    mem[at + LEAVES] = 0
    mem[at + WRITTEN] = 0
    mem[at + MAXSOL] = max_solutions
    mem[at + RD] = r
    mem[at + OUTROWS] = out_rows
    mem[at + OUTAT] = o[O_CAND] + cand.shape[0]
    place_again(mem, o[O_CUR], o[O_USED], o[O_NPD], at, cand, cur, board, order, s, r, pmask)


@njit(cache=True, nogil=True)
def _leave(mem, o, st, board, used, cur, end, state, out, npd, pmask):
    """Copy ``mem`` back into the list kernel's state and solution rows."""
    D = cur.shape[0] - 1
    at = o[O_NODES]
    state[0] = state[1] if st == 0 else mem[at + DEPTH]
    state[3] = 0
    for x in range(D + 1):
        cur[x] = mem[o[O_CUR] + x]
        end[x] = mem[o[O_END] + x]
    for x in range(D):
        npd[x] += mem[o[O_NPD] + x]
    for x in range(board.shape[0]):
        board[x] = mem[o[O_BOARD] + x]
    for x in range(used.shape[0]):
        used[x] = mem[o[O_USED] + x]
    written = mem[at + WRITTEN]
    rows_at = mem[at + OUTAT]
    n = board.shape[0]
    for w in range(written):
        for x in range(n):
            c = mem[rows_at + w * n + x]
            out[w, x] = c if c < 0 else c & pmask
    return mem[at], mem[at + LEAVES], written, st


def source(rows, order, board, cmask: int, pmask: int, start: int, n_tiles: int, n_starts: int) -> str:
    """The Python source of the kernel for these kernel rows (packed-code form), order,
    hint board and start depth (its functions begin at ``start``, ``start + 12``, ...)."""
    return _Source(rows, order, board, cmask, pmask, start, n_tiles, n_starts).text()


class GeneratedKernel:
    """A generated kernel, called like the list kernel (:meth:`search`)."""

    def __init__(self, module, plan_order, board, n_tiles: int, n_starts: int, start: int, rows, cmask, pmask) -> None:
        self.module = module
        self.start = start
        self.order = np.asarray(plan_order, np.int64)
        self.rows = rows
        self.cmask = np.int64(cmask)
        self.pmask = np.int64(pmask)
        L = layout(len(self.order), len(board), n_tiles, n_starts)
        self.offsets = np.array([L[name] for name in OFFSETS], np.int64)
        self.mem = np.zeros(0, np.int64)  # int32 measured no faster here (docs/backtracking.md)

    def runs(self, start_depth: int) -> bool:
        """True when a slice starting (``state[1]``) at this depth can run here: the
        module's functions begin at its start depth and every 12 depths after it."""
        return begins_function(self.start, start_depth)

    def search(self, cand, starts, board, used, cur, end, state, budget, max_solutions, out, npd):
        """``kernel.exact_search``'s call and result (leaves at the last depth)."""
        size = int(self.offsets[O_CAND]) + len(cand) + out.shape[0] * out.shape[1]
        if len(self.mem) < size:
            self.mem = np.zeros(size, np.int64)
        mem = self.mem
        o = self.offsets
        _enter(
            mem,
            o,
            cand,
            starts,
            board,
            used,
            cur,
            end,
            state,
            max_solutions,
            out.shape[0],
            self.rows,
            self.cmask,
            self.pmask,
            self.order,
        )
        st = self.module.chain(mem, budget, state[1])
        return _leave(mem, o, st, board, used, cur, end, state, out, npd, self.pmask)


def module_name(text: str, prefix: str) -> str:
    """The module name of generated ``text``: the prefix and a digest of the text."""
    return f"{prefix}_{hashlib.sha256(text.encode()).hexdigest()[:24]}"


def is_compiled(text: str, prefix: str) -> bool:
    """True when Numba's cache already holds the machine code of ``text``'s module (its
    ``chain``, which compiles every function it calls), so loading it costs no compile."""
    return module_name(text, prefix) in _loaded or is_compiled_on_disk(text, prefix)


def is_compiled_on_disk(text: str, prefix: str) -> bool:
    """True when Numba's cache on disk holds ``text``'s module, whether or not this process
    has imported it (a compile in another process: :mod:`.background_compile`)."""
    name = module_name(text, prefix)
    pattern = f"{name}.chain-*.nbi"
    return any(any(directory.glob(pattern)) for directory in generated_cache.code_dirs() if directory.is_dir())


def import_source(text: str, prefix: str):
    """The module of generated ``text``, written under a name that digests it into the cache
    folder and imported once per process (Numba caches its machine code beside it); the first
    import in a process marks it used and bounds the cache (:mod:`.generated_cache`)."""
    name = module_name(text, prefix)
    with _lock:
        module = _loaded.get(name)
        if module is None:
            module = import_file(write_source(text, prefix), name)
            _loaded[name] = module
    return module


def write_source(text: str, prefix: str) -> Path:
    """Generated ``text`` written into the cache folder (once: Numba's cache keys on the
    file's date), marked used, the folder bounded; the file's path."""
    name = module_name(text, prefix)
    with _lock:  # threads of one process share the temporary file's name
        generated_cache.prune(generated_cache.limit_bytes(), keep=frozenset([name, *_loaded]))
        folder = cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.py"
        if not path.exists() or path.read_text() != text:
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(text)
            os.replace(temporary, path)
        generated_cache.mark_used(name)
    return path


def import_file(path: Path, name: str):
    """The module in ``path`` imported as ``name`` (Numba's cache re-imports it by name)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load(
    rows, order, board, cmask: int, pmask: int, start: int, n_tiles: int, n_starts: int, text: str | None = None
) -> GeneratedKernel:
    """The generated kernel for this plan and start depth, written and imported once per
    process (compiled once per machine: Numba caches it beside the source); ``text``: its
    source where the caller has written it already."""
    if text is None:
        text = source(rows, order, board, cmask, pmask, start, n_tiles, n_starts)
    module = import_source(text, "edgematch_exact")
    return GeneratedKernel(module, order, board, n_tiles, n_starts, start, rows, cmask, pmask)
