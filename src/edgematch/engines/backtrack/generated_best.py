"""The best-score kernel written out for one puzzle, scan order and schedule.

:mod:`.generated` does this for the exact kernel; here the same shape (one loop per depth
with its squares, shifts and table bases as literals, twelve depths nested per function,
the functions chained, all state in one int64 array ``mem``) carries what the best kernel
adds (:mod:`.best_kernel`):

* the phases of each depth: one loop per depth still, over one union list
  (:mod:`.union_lists`: the exact fits, then each break phase's entries, already checked)
  that ends after the phases the schedule leaves room for; where a depth cannot have one,
  its list moves on to the next phase when it runs out; the phases a depth's schedule can
  never reach are left out of its code;
* the schedule as literals below the endgame's first depth (the endgame lowers its own
  depths' bounds as complete boards are found, so there they are read from ``mem``);
* the exact prefix (depths before the schedule's first invalid join) with no error or
  score bookkeeping: its scores are literals;
* the priority bound (at the depths where it can fail: :func:`prio_checks`), the board
  kept clean behind the phased depths, the best board, the target, boards per score and
  the saved boards, as in the list kernel.

The tree is the list kernel's, node for node, and a slice stops after exactly its node
budget.  Its stop leaves a state either kernel goes on from: the stopped node's child is
entered, where the list kernel first looks whether the child has a free tile (so the two
may stop one step apart; what follows is the same tree).
"""

from __future__ import annotations

import hashlib

import numpy as np
from numba import njit

from . import generated, union_lists
from .background_compile import BackgroundCompile, compile_once
from .best_kernel import phase_range
from .generated import (
    begins_function,
    call,
    chained,
    key_expression,
    next_free,
    place_again,
    skip_used,
    square_code,
)
from .kernel import BUDGET, TARGET
from .plan import P_BASE, P_CHK, P_ERR, P_KEY, P_NCHK, P_NKEY

VERSION = 10

#: per-depth stacks first, then the counters (GOAL: the target score), then the other
#: arrays (:func:`layout`)
STACKS = ("CUR", "END", "PH", "ERR", "MATCH", "PRIO")
COUNTERS = (
    "NODES",
    "COMPLETE",
    "BEST",
    "FLAG",
    "GOAL",
    "DEPTH",
    "RD",
    "SAVECAP",
    "SAVED",
    "SAVEAT",
    "FLOOR",
    "EGMAX",
)
NODES, COMPLETE, BEST, FLAG, GOAL, DEPTH, RD, SAVECAP, SAVED, SAVEAT, FLOOR, EGMAX = range(len(COUNTERS))
#: the offsets handed to the copies in and out, in this order
OFFSETS = (
    *STACKS,
    "NPD",
    "C0",
    "BOARD",
    "BESTB",
    "USED",
    "PRIOW",
    "ALLOWED",
    "ORDER",
    "COUNTS",
    "STARTS",
    "UIDX",
    "CAND",
)
(
    O_CUR,
    O_END,
    O_PH,
    O_ERR,
    O_MATCH,
    O_PRIO,
    O_NPD,
    O_C0,
    O_BOARD,
    O_BESTB,
    O_USED,
    O_PRIOW,
    O_ALLOWED,
    O_ORDER,
    O_COUNTS,
    O_STARTS,
    O_UIDX,
    O_CAND,
) = range(len(OFFSETS))


def layout(depth: int, n_squares: int, n_tiles: int, max_score: int, n_starts: int, union_words: int) -> dict[str, int]:
    """Offsets in ``mem``; the candidates (whose length changes with the prefix filter) come
    last, the union lists (:mod:`.union_lists`) after them, the saved boards after those
    (at ``mem[SAVEAT]``)."""
    offsets = {}
    at = 0
    for name, size in (
        *((name, depth + 1) for name in STACKS),
        ("NPD", depth),
        ("C0", len(COUNTERS)),
        ("BOARD", n_squares),
        ("BESTB", n_squares),
        ("USED", n_tiles),
        ("PRIOW", n_tiles),
        ("ALLOWED", depth),
        ("ORDER", depth),
        ("COUNTS", max_score + 1),
        ("STARTS", n_starts),
        ("UIDX", union_words),
        ("CAND", 0),
    ):
        offsets[name] = at
        at += size
    return offsets


def supports(tables, phases, start_errors: int) -> bool:
    """True when the generated best kernel can run this plan: packed codes, every exact
    fit looked up on all its known sides, and a start board without invalid joins."""
    if tables.pcol is not None or start_errors != 0:
        return False
    return not (phases[:, 0, P_NCHK] > 0).any()


def prio_checks(prio_min: list[int] | None, start: int) -> tuple[set[int], int]:
    """The depths whose priority bound can fail, and the deepest of them (-1: none).

    The sides counted only grow and the bound never falls, so a depth whose bound is no
    higher than one checked above it passes every tile: on e2, Blackwood's ramp ends at 161
    tiles and the 95 depths below it (where most nodes are) check nothing.  The count is
    then not kept in the kernel at all; :func:`_leave` rebuilds it for the list kernel."""
    if prio_min is None:
        return set(), -1
    checks = set()
    highest = 0  # the sides counted are never negative
    for d in range(start, len(prio_min)):
        if prio_min[d] > highest:
            checks.add(d)
            highest = prio_min[d]
    return checks, max(checks, default=-1)


class _Source:
    """Writes the source of one best kernel (see the module notes)."""

    def __init__(self, spec: dict) -> None:
        self.phases = spec["phases"]
        self.spec_colours = spec["n_colours"]
        self.n_phases = [int(x) for x in spec["n_phases"]]
        self.known = [int(x) for x in spec["known_joins"]]
        self.order = [int(s) for s in spec["order"]]
        self.hints = spec["board"]
        self.cmask = int(spec["cmask"])
        self.pmask = int(spec["pmask"])
        self.start = int(spec["start"])
        self.allowed = [int(x) for x in spec["allowed"]]
        self.endgame_from = int(spec["endgame_from"])
        self.prio_min = None if spec["prio_min"] is None else [int(x) for x in spec["prio_min"]]
        self.prio_sorted = bool(spec["prio_sorted"])
        self.checks, self.prio_to = prio_checks(self.prio_min, int(spec["start"]))
        self.D = D = len(self.order)
        self.last = D - 1
        self.depth_of = {s: d for d, s in enumerate(self.order)}
        # the exact prefix: depths whose schedule allows no invalid join, before the endgame
        d0 = self.start
        while d0 < self.last and d0 < self.endgame_from and self.allowed[d0] == 0:
            d0 += 1
        self.d0 = d0
        self.match_at = {}  # the literal score before each prefix depth and at d0
        m = int(spec["start_match"])
        for d in range(self.start, d0 + 1):
            self.match_at[d] = m
            if d < D:
                m += self.known[d]
        self.unions()
        self.L = layout(
            D, len(self.hints), int(spec["n_tiles"]), int(spec["max_score"]), int(spec["n_starts"]), self.union_words
        )
        words = [union_lists.index_words(u) for u in self.union_tables]
        self.union_at = [self.UIDX + sum(words[:t]) for t in range(len(words))]
        self.c0 = self.L["C0"]
        #: the invalid joins of a union entry sit above its code
        self.flag_shift = int(self.pmask).bit_length() + 4 * int(self.cmask).bit_length()

    def unions(self) -> None:
        """The depths that walk one union list (:mod:`.union_lists`) instead of their
        phases: static depths past the exact prefix that can reach a break phase, unless
        their priority bound cuts sorted lists (a failed bound ends one phase's list, not
        the others')."""
        self.union_tables: list[tuple] = []
        self.union_of: dict[int, int] = {}
        n_colours = int(self.spec_colours)
        for d in range(self.d0, self.D):
            usable = self.usable(d)
            if self.dynamic(d) or len(usable) < 2:
                continue
            if self.prio_min is not None and self.prio_sorted and d in self.checks:
                continue
            signature = union_lists.table_signature(self.phases, d, usable, n_colours)
            if signature is None:
                continue
            if signature not in self.union_tables:
                self.union_tables.append(signature)
            self.union_of[d] = self.union_tables.index(signature)
        self.union_words = sum(union_lists.index_words(u) for u in self.union_tables)
        self.union_levels = max((union_lists.levels(u) for u in self.union_tables), default=1)

    def __getattr__(self, name: str) -> int:
        if name in ("L", "c0"):  # not set yet: no offsets before the layout
            raise AttributeError(name)
        if name in COUNTERS:
            return self.c0 + COUNTERS.index(name)
        return self.L[name]

    @property
    def prio_from(self) -> int:
        """The first depth whose priority count is not kept (past the last depth: none)."""
        return self.prio_to + 1 if self.prio_min is not None else self.D + 1

    def tracks(self, d: int) -> bool:
        """Depth ``d`` keeps the priority sides placed so far (a bound at ``d`` or deeper
        can still fail)."""
        return d <= self.prio_to

    def dynamic(self, d: int) -> bool:
        """The depth's bound lives in ``mem`` (the endgame changes it)."""
        return d >= self.endgame_from

    def usable(self, d: int) -> list[int]:
        """The phases of depth ``d`` its schedule can reach (all of them in the endgame)."""
        if d < self.d0:
            return [0]
        n = self.n_phases[d]
        if self.dynamic(d):
            return list(range(n))
        return [j for j in range(n) if int(self.phases[d, j, P_ERR]) <= self.allowed[d]]

    def key(self, d: int, j: int, first: int) -> str:
        return key_expression(
            self.phases[d, j], d, first, self.depth_of, self.hints, self.cmask, self.BOARD, self.STARTS
        )

    def union_key(self, d: int, first: int) -> str:
        """The index words of depth ``d``'s union list: the exact key, times ``S``."""
        t = self.union_of[d]
        row = self.phases[d, 0].copy()
        row[P_BASE] = 0
        for c in range(int(row[P_NKEY])):
            row[P_KEY + 3 * c + 2] *= union_lists.levels(self.union_tables[t])
        return key_expression(row, d, first, self.depth_of, self.hints, self.cmask, self.BOARD, self.union_at[t])

    def union_room(self, d: int, errors: str) -> str:
        """The index word after a union key's start that ends the levels the schedule
        leaves room for at depth ``d`` (entered with ``errors`` invalid joins), less one."""
        top = union_lists.levels(self.union_tables[self.union_of[d]]) - 1
        if top == 1:
            return f"({errors} < {self.allowed[d]})"
        return f"max(0, min({self.allowed[d]} - {errors}, {top}))"

    def child_range(self, e: int, first: int, errors: str) -> tuple[str, str]:
        """Expressions of the list start and end depth ``e`` is entered with."""
        if e in self.union_of:
            k = self.union_key(e, first)
            return f"mem[{k}]", f"mem[{k} + 1 + {self.union_room(e, errors)}]"
        k = self.key(e, 0, first)
        return f"mem[{k}]", f"mem[{k} + 1]"

    def failed(self, d: int, j: int, first: int) -> str | None:
        """The condition under which ``p{d}`` does not belong to phase ``j`` (its checked
        sides), or None when the phase checks nothing."""
        row = self.phases[d, j]
        parts = []
        for c in range(int(row[P_NCHK])):
            square, theirs_shift, mine_shift, equal = (int(x) for x in row[P_CHK + 4 * c : P_CHK + 4 * c + 4])
            mine = f"((p{d} >> {mine_shift}) & {self.cmask})"
            code = square_code(square, d, first, self.depth_of, self.BOARD)
            if code is None:
                theirs = str((int(self.hints[square]) >> theirs_shift) & self.cmask)
            else:
                theirs = f"(({code} >> {theirs_shift}) & {self.cmask})"
            parts.append(f"{mine} {'!=' if equal else '=='} {theirs}")
        return " or ".join(parts) if parts else None

    def err(self, d: int, j: int) -> int:
        return int(self.phases[d, j, P_ERR])

    def level(self, fn: int, first: int, last: int, d: int, ind: str) -> list[str]:
        phased = d >= self.d0
        union = d in self.union_of
        usable = self.usable(d)
        sq = self.BOARD + self.order[d]
        out: list[str] = []
        if d == first:  # a function's first depth: the scores before it come from mem
            out += [
                f"{ind}st = 0",
                f"{ind}n = mem[{self.NODES}]",
                f"{ind}fl = mem[{self.FLAG}]",
                f"{ind}rd = mem[{self.RD}]",
            ]
            if phased:
                out += [f"{ind}r{d} = mem[{self.ERR + d}]", f"{ind}m{d} = mem[{self.MATCH + d}]"]
            if self.tracks(d):
                out.append(f"{ind}w{d} = mem[{self.PRIO + d}]")
        out += [
            f"{ind}if rd >= {d}:",
            f"{ind}    i{d} = mem[{self.CUR + d}]",
            f"{ind}    e{d} = mem[{self.END + d}]",
        ]
        # the phase in mem is the plan's phase number, as in the list kernel's state
        cut = [f"if mem[{self.ALLOWED + d}] < r{d}:", f"    e{d} = i{d}"] if self.dynamic(d) else []
        if phased and not union:
            errs = " + ".join(f"(j{d} >= {j}) * 1" for j in self._steps(d, usable)) or "0"
            out += [f"{ind}    j{d} = mem[{self.PH + d}]", f"{ind}    x{d} = {errs}"]
        out += [
            f"{ind}    if rd == {d}:",
            f"{ind}        rd = -1",
            f"{ind}        mem[{self.RD}] = -1",
            *(f"{ind}        {line}" for line in cut),
            f"{ind}else:",
        ]
        if union:  # the list ends after the levels of invalid joins the schedule has room for
            out += [
                f"{ind}    k{d} = {self.union_key(d, first)}",
                f"{ind}    i{d} = mem[k{d}]",
                f"{ind}    e{d} = mem[k{d} + 1 + {self.union_room(d, f'r{d}')}]",
            ]
        else:
            out += [
                f"{ind}    k{d} = {self.key(d, 0, first)}",
                f"{ind}    i{d} = mem[k{d}]",
                f"{ind}    e{d} = mem[k{d} + 1]",
                *(f"{ind}    {line}" for line in cut),
            ]
        if phased and not union:
            out += [f"{ind}    j{d} = 0", f"{ind}    x{d} = 0"]
        ind2 = ind + "    "
        skipping = phased and len(usable) > 1
        if union:
            out.append(f"{ind}while True:")
            out += skip_used(d, self.CAND, self.USED, self.pmask, ind2)
            out += [f"{ind2}    break", f"{ind2}i{d} += 1", f"{ind2}x{d} = p{d} >> {self.flag_shift}"]
        elif skipping:
            out.append(f"{ind}while True:")
            out += skip_used(d, self.CAND, self.USED, self.pmask, ind2)
            room = f"mem[{self.ALLOWED + d}] - r{d}" if self.dynamic(d) else f"{self.allowed[d]} - r{d}"
            out.append(f"{ind2}    b = {room}")
            for n, (j_prev, j) in enumerate(zip(usable, usable[1:])):
                kw = "if" if n == 0 else "elif"
                out += [
                    f"{ind2}    {kw} j{d} == {j_prev} and {self.err(d, j)} <= b:",
                    f"{ind2}        j{d} = {j}",
                    f"{ind2}        x{d} = {self.err(d, j)}",
                    f"{ind2}        k{d} = {self.key(d, j, first)}",
                ]
            out += [
                f"{ind2}    else:",
                f"{ind2}        break",
                f"{ind2}    i{d} = mem[k{d}]",
                f"{ind2}    e{d} = mem[k{d} + 1]",
                f"{ind2}    continue",
                f"{ind2}i{d} += 1",  # skip_used left p and t of the free tile found
            ]
        else:
            out.append(f"{ind}while i{d} < e{d}:")
            out += next_free(d, self.CAND, self.USED, self.pmask, ind2)
        if self.tracks(d):
            out.append(f"{ind2}v{d} = w{d} + mem[t{d} + {self.PRIOW - self.USED}]")
        if self.prio_min is not None and d in self.checks:
            out += [
                f"{ind2}if v{d} < {self.prio_min[d]}:",
                f"{ind2}    {'i' + str(d) + ' = e' + str(d) if self.prio_sorted else 'pass'}",
                f"{ind2}    continue",
            ]
        checked = [] if union else [(j, self.failed(d, j, first)) for j in usable[1:]]
        checked = [(j, cond) for j, cond in checked if cond is not None]
        if checked:
            out.append(f"{ind2}if j{d} != 0:")
            for n, (j, cond) in enumerate(checked):
                kw = "if" if n == 0 else "elif"
                out += [f"{ind2}    {kw} j{d} == {j}:", f"{ind2}        if {cond}:", f"{ind2}            continue"]
        out += [
            f"{ind2}mem[{self.NPD + d}] += 1",
            f"{ind2}n += 1",
            f"{ind2}mem[{sq}] = p{d}",
        ]
        e = d + 1
        if phased:
            out += [f"{ind2}m{e} = m{d} + {self.known[d]} - x{d}"]
            score = f"m{e}"
        else:
            score = str(self.match_at[e])
        if d == self.last:
            return out + self.leaf(d, first, ind2, score) + self.after_loop(d, first, ind)
        if phased:
            out.append(f"{ind2}r{e} = r{d} + x{d}")
        elif e == self.d0:  # the first phased depth: its scores become locals here
            out += [f"{ind2}r{e} = 0", f"{ind2}m{e} = {score}"]
        if self.tracks(e):
            out.append(f"{ind2}w{e} = v{d}")
        err_next = f"r{e}" if phased else "0"
        prio_next = f"w{e}" if self.tracks(e) else "0"
        j_now = f"j{d}" if phased and not union else "0"
        halt = [d, f"i{d}", j_now, f"e{d}", f"t{d}", *self.child_range(e, first, err_next), err_next, score, prio_next]
        out += [
            f"{ind2}if {score} >= fl or n >= budget:",
            f"{ind2}    st = {call('settle', d, score, 'n', 'budget')}",
            f"{ind2}    fl = mem[{self.FLAG}]",
            f"{ind2}    if st != 0:",
            *(f"{ind2}        {line}" for line in self.save(d, first)),
            f"{ind2}        st = {call('halt', *halt, 'st')}",
            f"{ind2}        break",
            f"{ind2}mem[t{d}] = 1",
        ]
        if e < last:
            out += self.level(fn, first, last, e, ind2)
        else:  # the next function reads the child's scores and the node count from mem
            if phased or e == self.d0:
                out += [f"{ind2}mem[{self.ERR + e}] = {err_next}", f"{ind2}mem[{self.MATCH + e}] = {score}"]
            if self.tracks(e):
                out.append(f"{ind2}mem[{self.PRIO + e}] = w{e}")
            out += [
                f"{ind2}mem[{self.NODES}] = n",
                f"{ind2}st = f{fn + 1}(mem, budget)",
                f"{ind2}n = mem[{self.NODES}]",
                f"{ind2}fl = mem[{self.FLAG}]",
                f"{ind2}rd = mem[{self.RD}]",
                f"{ind2}if st != 0:",
                *(f"{ind2}    {line}" for line in self.save(d, first)),
                f"{ind2}    break",
            ]
        out.append(f"{ind2}mem[t{d}] = 0")
        if self.dynamic(d):
            out += [f"{ind2}if mem[{self.ALLOWED + d}] < r{d}:", f"{ind2}    break"]
        return out + self.after_loop(d, first, ind)

    def save(self, d: int, first: int) -> list[str]:
        """Depth ``d``'s resume state, written only when a stop unwinds through it: its
        list position, end and phase, and the scores it was entered with (unless the
        function read them from mem)."""
        out = [f"mem[{self.CUR + d}] = i{d}", f"mem[{self.END + d}] = e{d}"]
        if d >= self.d0 and d not in self.union_of:
            out.append(f"mem[{self.PH + d}] = j{d}")
        if d > first and d >= self.d0:
            out += [f"mem[{self.ERR + d}] = r{d}", f"mem[{self.MATCH + d}] = m{d}"]
        if d > first and self.tracks(d):
            out.append(f"mem[{self.PRIO + d}] = w{d}")
        return out

    def after_loop(self, d: int, first: int, ind: str) -> list[str]:
        """After depth ``d``'s loop: a stop unwinds to the function's caller, saving each
        enclosing depth (the first depth's state is written either way).  Squares are
        not emptied on the way back: only earlier squares are read, and :func:`_leave`
        empties those at and below the depth stopped at."""
        if d == first:
            return [
                *(f"{ind}{line}" for line in self.save(d, first)),
                f"{ind}mem[{self.NODES}] = n",
                f"{ind}return st",
            ]
        return [
            f"{ind}if st != 0:",
            *(f"{ind}    {line}" for line in self.save(d - 1, first)),
            f"{ind}    break",
        ]

    def _steps(self, d: int, usable: list[int]) -> list[int]:
        """Phase numbers at which the phases' invalid joins go up by one (phases are in
        order of their number of mismatched sides)."""
        steps = []
        for a, b in zip(usable, usable[1:]):
            for _ in range(self.err(d, b) - self.err(d, a)):
                steps.append(b)
        return steps

    def leaf(self, d: int, first: int, ind: str, score: str) -> list[str]:
        """The last depth: a complete board is counted (and saved); a stop here saves the
        state of each depth as it unwinds."""
        out = [
            f"{ind}if {score} >= fl:",
            f"{ind}    {call('improve', d, score)}",
            f"{ind}    fl = mem[{self.FLAG}]",
            f"{ind}full = {call('leaf', score)}",
            f"{ind}if full or {score} >= mem[{self.GOAL}] or n >= budget:",
            *(f"{ind}    {line}" for line in self.save(d, first)),
            f"{ind}    mem[{self.DEPTH}] = {d}",
            f"{ind}    st = {BUDGET}",
            f"{ind}    if not full and {score} >= mem[{self.GOAL}]:",
            f"{ind}        st = {TARGET}",
            f"{ind}    break",
        ]
        if self.dynamic(d):
            out += [f"{ind}if mem[{self.ALLOWED + d}] < r{d}:", f"{ind}    break"]
        return out

    def helpers(self) -> list[str]:
        D = self.D
        n_sq = len(self.hints)
        pm = self.pmask
        eg = self.endgame_from
        lines = [
            "@njit(cache=True, nogil=True)",
            "def halt(mem, d, i, j, e, t, child_i, child_e, r, m, w, status):",
            '    """Stop after a node at depth d (not the last): its child is entered."""',
            f"    mem[{self.CUR} + d] = i",
            f"    mem[{self.PH} + d] = j",
            f"    mem[{self.END} + d] = e",
            "    mem[t] = 1",
            f"    mem[{self.CUR} + d + 1] = child_i",
            f"    mem[{self.END} + d + 1] = child_e",
            f"    mem[{self.PH} + d + 1] = 0",
            f"    mem[{self.ERR} + d + 1] = r",
            f"    mem[{self.MATCH} + d + 1] = m",
            f"    mem[{self.PRIO} + d + 1] = w",
            f"    mem[{self.DEPTH}] = d + 1",
            "    return status",
            "",
            "",
            "@njit(cache=True, nogil=True)",
            "def settle(mem, d, m, n, budget):",
            '    """A node at depth d scoring m, at the flag or at the end of the budget: the',
            '    status it stops with (0: none), the best board kept first."""',
            f"    if m >= mem[{self.FLAG}] and improve(mem, d, m):",
            f"        return {TARGET}",
            "    if n >= budget:",
            f"        return {BUDGET}",
            "    return 0",
            "",
            "",
            "@njit(cache=True, nogil=True)",
            "def improve(mem, d, m):",
            '    """A node at depth d scores m, at least the flag: keep the board when it is the',
            '    best so far (squares deeper than d emptied); True when m reaches the target."""',
            f"    if m > mem[{self.BEST}]:",
            f"        mem[{self.BEST}] = m",
            f"        for s in range({n_sq}):",
            f"            c = mem[{self.BOARD} + s]",
            f"            mem[{self.BESTB} + s] = c if c < 0 else c & {pm}",
            f"        for q in range(d + 1, {D}):",
            f"            mem[{self.BESTB} + mem[{self.ORDER} + q]] = -1",
            f"    mem[{self.FLAG}] = min(mem[{self.BEST}] + 1, mem[{self.GOAL}])",
            f"    return m >= mem[{self.GOAL}]",
            "",
            "",
            "@njit(cache=True, nogil=True)",
            "def leaf(mem, m):",
            '    """A complete board scoring m: counted, the endgame bound lowered, saved when it',
            '    reaches the threshold; True when the saved rows are full."""',
            f"    mem[{self.COUNTS} + m] += 1",
            f"    mem[{self.COMPLETE}] += 1",
        ]
        if eg < D:
            lines += [
                f"    cap = mem[{self.EGMAX}] - min(m + 1, mem[{self.FLOOR}])",
                f"    for q in range({eg}, {D}):",
                f"        if mem[{self.ALLOWED} + q] > cap:",
                f"            mem[{self.ALLOWED} + q] = cap",
            ]
        lines += [
            f"    if m < mem[{self.FLOOR}]:",
            "        return False",
            f"    row = mem[{self.SAVED}]",
            f"    at = mem[{self.SAVEAT}] + row * {n_sq}",
            f"    for s in range({n_sq}):",
            f"        c = mem[{self.BOARD} + s]",
            f"        mem[at + s] = c if c < 0 else c & {pm}",
            f"    mem[{self.SAVED}] = row + 1",
            f"    return row + 1 >= mem[{self.SAVECAP}]",
            "",
            "",
        ]
        return lines

    def text(self) -> str:
        lines = [
            f'"""Generated by edgematch.engines.backtrack.generated_best (version {VERSION}): do not edit."""',
            "",
            *generated.IMPORTS,
            "",
            "",
        ]
        lines += self.helpers()
        lines += chained(self.start, self.D, lambda j, first, last: self.level(j, first, last, first, "    "))
        return "\n".join(lines)


@njit(cache=True, nogil=True)
def _enter(
    mem,
    o,
    cand,
    starts,
    board,
    used,
    cur,
    end,
    phase,
    errs,
    matches,
    prios,
    state,
    prio_w,
    allowed,
    order,
    counts,
    best_board,
    target,
    save_cap,
    save_state,
    eg_max,
    phases,
    cmask,
    pmask,
    union_desc,
    union_tabs,
    union_depth,
    flag_shift,
    origin,
    source_phase,
    fresh,
    n_union,
):
    """Copy the list kernel's state into ``mem`` (and see :func:`.generated.place_again`),
    with ``fresh`` the tables and their union lists too, and turn the list positions of the
    union depths into union positions; returns the union entries in ``mem`` (``n_union``
    unless fresh)."""
    r = state[0]
    s = state[1]
    if state[3] == 1:
        cur[r], end[r] = phase_range(phases, r, 0, board, None, starts, cmask)
        phase[r] = 0
    D = order.shape[0]
    for x in range(D + 1):
        mem[o[O_CUR] + x] = cur[x]
        mem[o[O_END] + x] = end[x]
        mem[o[O_PH] + x] = phase[x]
        mem[o[O_ERR] + x] = errs[x]
        mem[o[O_MATCH] + x] = matches[x]
        mem[o[O_PRIO] + x] = prios[x]
    for x in range(D):
        mem[o[O_NPD] + x] = 0
        mem[o[O_ALLOWED] + x] = allowed[x]
        mem[o[O_ORDER] + x] = order[x]
    for x in range(board.shape[0]):
        mem[o[O_BOARD] + x] = board[x]
        mem[o[O_BESTB] + x] = best_board[x]
    for x in range(used.shape[0]):
        mem[o[O_USED] + x] = used[x]
        mem[o[O_PRIOW] + x] = 0 if prio_w is None else prio_w[x]
    for x in range(counts.shape[0]):  # this slice's boards by score (totals could outgrow int32)
        mem[o[O_COUNTS] + x] = 0
    if fresh:
        for x in range(starts.shape[0]):
            mem[o[O_STARTS] + x] = starts[x]
        for x in range(cand.shape[0]):
            mem[o[O_CAND] + x] = cand[x]
        n_union = union_lists.build(
            mem, o[O_CAND], cand, starts, union_desc, union_tabs, cmask, flag_shift, origin, source_phase, True
        )
    c = o[O_C0]
    mem[c + NODES] = 0
    mem[c + COMPLETE] = 0
    mem[c + BEST] = state[4]
    mem[c + GOAL] = target
    mem[c + FLAG] = min(state[4] + 1, target)
    mem[c + RD] = r
    mem[c + SAVECAP] = save_cap
    mem[c + SAVED] = save_state[0]
    mem[c + SAVEAT] = o[O_CAND] + cand.shape[0] + n_union
    mem[c + FLOOR] = save_state[1]
    mem[c + EGMAX] = eg_max
    place_again(mem, o[O_CUR], o[O_USED], o[O_NPD], c + NODES, cand, cur, board, order, s, r, pmask)
    for x in range(s, min(r, D - 1) + 1):  # place_again left the placed entry's position above r
        tab = union_depth[x]
        if tab < 0:
            continue
        u = union_lists.index_of(union_desc, tab, phases, x, board, cmask)
        levels = union_desc[tab + 1]
        start = phase_range(phases, x, 0, board, None, starts, cmask)[0]
        mem[o[O_CUR] + x] = union_lists.to_union(
            mem, u, levels, phase[x], mem[o[O_CUR] + x], start, origin, source_phase
        )
        room = max(0, min(allowed[x] - errs[x], levels - 1))
        mem[o[O_END] + x] = mem[u + 1 + room]
    return n_union


@njit(cache=True, nogil=True)
def _leave(
    mem,
    o,
    st,
    board,
    used,
    cur,
    end,
    phase,
    errs,
    matches,
    prios,
    state,
    best_board,
    allowed,
    counts,
    saved,
    save_state,
    npd,
    first,
    prefix_match,
    prio_from,
    pmask,
    phases,
    starts,
    cmask,
    code_mask,
    union_desc,
    union_depth,
    origin,
    source_phase,
):
    """Copy ``mem`` back into the list kernel's state; returns ``(nodes, complete boards,
    status)`` as the list kernel does.  The priority sides placed, which the kernel stops
    keeping at ``prio_from``, are counted again from the board down to the depth entered;
    union positions become the phase and list position they were copied from."""
    D = cur.shape[0] - 1
    c = o[O_C0]
    state[0] = state[1] if st == 0 else mem[c + DEPTH]
    state[3] = 0
    state[4] = mem[c + BEST]
    for x in range(D + 1):
        cur[x] = mem[o[O_CUR] + x]
        end[x] = mem[o[O_END] + x]
        phase[x] = mem[o[O_PH] + x]
        errs[x] = mem[o[O_ERR] + x]
        matches[x] = mem[o[O_MATCH] + x]
        prios[x] = mem[o[O_PRIO] + x]
    for x in range(prefix_match.shape[0]):  # the prefix keeps its scores as literals
        errs[first + x] = 0
        matches[first + x] = prefix_match[x]
    for x in range(max(prio_from, first + 1), state[0] + 1):
        tile = (mem[o[O_BOARD] + mem[o[O_ORDER] + x - 1]] & pmask) >> 2
        prios[x] = prios[x - 1] + mem[o[O_PRIOW] + tile]
    for x in range(D):
        npd[x] += mem[o[O_NPD] + x]
        allowed[x] = mem[o[O_ALLOWED] + x]
    for x in range(board.shape[0]):
        code = mem[o[O_BOARD] + x]
        board[x] = code if code < 0 else code & code_mask
        best_board[x] = mem[o[O_BESTB] + x]
    for x in range(state[0], D):  # the kernel leaves the squares it backed out of filled
        board[mem[o[O_ORDER] + x]] = -1
    for x in range(state[1], min(state[0], D - 1) + 1):
        tab = union_depth[x]
        if tab < 0:
            continue
        u = union_lists.index_of(union_desc, tab, phases, x, board, cmask)
        start = phase_range(phases, x, 0, board, None, starts, cmask)[0]
        j, position = union_lists.to_list(mem, u, cur[x], start, origin, source_phase)
        phase[x] = j
        cur[x] = position
        end[x] = phase_range(phases, x, j, board, None, starts, cmask)[1]
    for x in range(used.shape[0]):
        used[x] = mem[o[O_USED] + x]
    for x in range(counts.shape[0]):
        counts[x] += mem[o[O_COUNTS] + x]
    n = board.shape[0]
    at = mem[c + SAVEAT]
    for row in range(save_state[0], mem[c + SAVED]):
        for x in range(n):
            saved[row, x] = mem[at + row * n + x]
    save_state[0] = mem[c + SAVED]
    return mem[c + NODES], mem[c + COMPLETE], st


class GeneratedBest:
    """A generated best kernel, called like the list kernel (:meth:`search`)."""

    def __init__(self, module, spec: dict, prefix_match: np.ndarray, prio_from: int, unions: dict) -> None:
        self.module = module
        self.spec = spec
        #: the union lists' description (:mod:`.union_lists`), the index into it of each
        #: depth's table (-1: the depth walks its phases) and where an entry's invalid joins sit
        self.union_desc = unions["desc"]
        self.union_tabs = unions["tabs"]
        self.union_depth = unions["depth"]
        self.flag_shift = np.int64(unions["flag_shift"])
        self.code_mask = np.int64((1 << unions["flag_shift"]) - 1)
        self.start = int(spec["start"])
        self.prefix_match = prefix_match
        #: the first depth the kernel keeps no priority count for (past the end: none)
        self.prio_from = prio_from
        self.order = np.asarray(spec["order"], np.int64)
        self.phases = spec["phases"]
        self.cmask = np.int64(spec["cmask"])
        self.pmask = np.int64(spec["pmask"])
        L = layout(
            len(self.order),
            len(spec["board"]),
            int(spec["n_tiles"]),
            int(spec["max_score"]),
            int(spec["n_starts"]),
            unions["words"],
        )
        self.offsets = np.array([L[name] for name in OFFSETS], np.int64)
        self.dtype = _mem_dtype(spec, unions)
        self.mem: np.ndarray = np.zeros(0, self.dtype)
        self.origin: np.ndarray = np.zeros(0, np.int64)
        self.source_phase: np.ndarray = np.zeros(0, np.int64)
        #: (cand, starts, union entries) of the tables copied into ``mem`` (with ``origin``
        #: and ``source_phase``) by the last slice
        self.tables_in_mem: tuple = (None, None, 0)
        #: candidates of the tables ``mem`` is sized for (any filtering of them fits too)
        self.reserved = -1

    def reserve(self, cand, starts, saved_words: int) -> None:
        """Size ``mem`` for these tables and every filtering of them: their union lists are
        counted once here, not at each slice (a filtering's lists are a part of them)."""
        n_union = union_lists.build(
            self.mem,
            np.int64(0),
            cand,
            starts,
            self.union_desc,
            self.union_tabs,
            self.cmask,
            self.flag_shift,
            self.origin,
            self.source_phase,
            False,
        )
        size = int(self.offsets[O_CAND]) + len(cand) + n_union + saved_words
        if len(self.mem) < size:
            self.mem = np.zeros(size, self.dtype)
        if len(self.origin) < len(cand) + n_union:
            self.origin = np.zeros(len(cand) + n_union, np.int64)
            self.source_phase = np.zeros(len(cand) + n_union, np.int64)
        self.reserved = len(cand)

    def runs(self, start_depth: int) -> bool:
        """True when a slice starting at this depth can run here (a function begins there)."""
        return begins_function(self.start, start_depth)

    def search(
        self,
        cand,
        starts,
        board,
        used,
        cur,
        end,
        phase,
        errs,
        matches,
        prios,
        state,
        best_board,
        budget,
        target,
        prio_w,
        allowed,
        counts,
        saved,
        save_state,
        endgame,
        npd,
    ):
        """``best_kernel.best_search``'s result for the same state; ``cand`` and ``starts``
        are the tables given to :meth:`reserve` or a filtering of them (without a reserve,
        the first tables searched)."""
        # the kernel only reads its copy of the tables and their union lists, so tables given
        # again (the prefix filter hands back the same arrays while the prefix stays) are not
        # copied or rebuilt
        fresh = cand is not self.tables_in_mem[0] or starts is not self.tables_in_mem[1]
        if fresh and len(cand) > self.reserved:  # tables not filtered from reserved ones
            self.reserve(cand, starts, saved.shape[0] * saved.shape[1])
        n_union = self.tables_in_mem[2]
        if self.dtype == np.int32:
            budget = min(budget, generated.MAX_SLICE_NODES_INT32)
        mem = self.mem
        o = self.offsets
        n_union = _enter(
            mem,
            o,
            cand,
            starts,
            board,
            used,
            cur,
            end,
            phase,
            errs,
            matches,
            prios,
            state,
            prio_w,
            allowed,
            self.order,
            counts,
            best_board,
            np.int64(target),
            np.int64(saved.shape[0]),
            save_state,
            np.int64(endgame[1]),
            self.phases,
            self.cmask,
            self.pmask,
            self.union_desc,
            self.union_tabs,
            self.union_depth,
            self.flag_shift,
            self.origin,
            self.source_phase,
            fresh,
            np.int64(n_union),
        )
        if fresh:
            self.tables_in_mem = (cand, starts, n_union)
        st = self.module.chain(mem, np.int64(budget), state[1])
        return _leave(
            mem,
            o,
            st,
            board,
            used,
            cur,
            end,
            phase,
            errs,
            matches,
            prios,
            state,
            best_board,
            allowed,
            counts,
            saved,
            save_state,
            npd,
            np.int64(self.start),
            self.prefix_match,
            np.int64(self.prio_from),
            self.pmask,
            self.phases,
            starts,
            self.cmask,
            self.code_mask,
            self.union_desc,
            self.union_depth,
            self.origin,
            self.source_phase,
        )


#: source text, prefix scores, first uncounted depth and union lists per spec digest: every restart
#: writes the same module (the seed orders lists, which are data), and e2's text takes about 0.4 s
_texts: dict[str, tuple[str, np.ndarray, int, dict]] = {}


def _text(spec: dict) -> tuple[str, np.ndarray, int, dict]:
    digest = hashlib.sha256(repr(sorted((k, v) for k, v in spec.items() if not isinstance(v, np.ndarray))).encode())
    for name in sorted(k for k, v in spec.items() if isinstance(v, np.ndarray)):
        digest.update(name.encode() + spec[name].dtype.str.encode() + np.ascontiguousarray(spec[name]).tobytes())
    digest.update(str(generated.DEPTHS_PER_FUNCTION).encode())
    key = digest.hexdigest()
    if key not in _texts:
        if len(_texts) >= 8:  # a few configurations per process at most; keep memory flat
            _texts.clear()
        source = _Source(spec)
        prefix_match = np.array([source.match_at[d] for d in range(source.start, source.d0 + 1)], np.int64)
        desc, tabs = union_lists.describe(source.union_tables, source.union_at)
        depth = np.full(source.D, -1, np.int64)
        for d, t in source.union_of.items():
            depth[d] = tabs[t]
        unions = {
            "desc": desc,
            "tabs": tabs,
            "depth": depth,
            "words": source.union_words,
            "flag_shift": source.flag_shift,
            "flag_bits": (source.union_levels - 1).bit_length(),
        }
        _texts[key] = (source.text(), prefix_match, source.prio_from, unions)
    return _texts[key]


def _mem_dtype(spec: dict, unions: dict) -> type:
    if unions["flag_shift"] + unions["flag_bits"] > 31:  # a union entry would not fit int32
        return np.int64
    return generated.mem_dtype(spec["cmask"], spec["pmask"])


def background_compile(spec: dict) -> BackgroundCompile:
    """The compile of ``spec``'s module in another process (one per module and process)."""
    text, _, _, unions = _text(spec)
    return compile_once(text, "edgematch_best", np.dtype(_mem_dtype(spec, unions)).name)


def load(spec: dict, only_compiled: bool = False) -> GeneratedBest | None:
    """The generated best kernel for ``spec`` (see :class:`_Source` for its keys), written
    and imported once per process, compiled once per machine; with ``only_compiled``, None
    unless it is compiled already."""
    text, prefix_match, prio_from, unions = _text(spec)
    if only_compiled and not generated.is_compiled(text, "edgematch_best"):
        return None
    module = generated.import_source(text, "edgematch_best")
    return GeneratedBest(module, spec, prefix_match, prio_from, unions)
