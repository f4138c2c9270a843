"""One candidate list per key for every phase a depth can reach: libblackwood's "union" lists.

The best kernel looks up a depth's exact fits by both known sides, and then, phase by phase,
the tiles that break one side in a table keyed on the other, checking that the broken side
really differs (:mod:`.plan`).  A union list for a key of the exact table holds its exact
fits, then, level by level of invalid joins, the entries of each break phase that pass the
phase's checks, in the phases' order, with the invalid joins of each entry in the bits above
its code.  Walked from its start up to the end of the levels the schedule leaves room for,
it yields the same tiles in the same order as the phases do, so the tree is the same, node
for node; the generated kernel then needs no phase switch and no side check in its loop,
and reads an entry's invalid joins from the entry itself.

Layout in ``mem`` (the generated kernel's array): each union table has ``S * K + 1`` index
words at a fixed offset (``S`` = the highest level + 1, ``K`` the exact table's keys):
word ``S * k + l`` is where level ``l`` of key ``k`` begins, and word ``S * (k + 1)`` where
the key ends (the next key's start).  Positions count from the candidates' offset, like
list positions; the union entries follow the candidates, rebuilt for each slice from the
tables it runs on (the prefix filter shrinks them).

``desc`` describes the tables, one after the other (``tabs[t]`` is where table ``t``
begins): ``[index offset, S, K, C, n0, base0, n_phases]``, then per phase ``[phase,
level, base, n_key, (side, multiplier) * n_key, n_check, (side, shift, equal) * n_check]``,
a side being the position of a known side in the exact key (colour ``(k // C**side) % C``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba import uint64 as U

from .plan import P_BASE, P_CHK, P_ERR, P_KEY, P_NCHK, P_NKEY

#: the largest exact table (keys) that gets a union table: two known sides of e2's 22
#: colours make 484 keys; three (next to a hint) would make 10,648, each with its lists
KEY_LIMIT = 4096
HEAD = 7  # words before a table's phases in ``desc``


def table_signature(phases, d: int, usable: list[int], n_colours: int) -> tuple | None:
    """What the union table of depth ``d`` depends on (depths with the same one share it),
    or None when the depth keeps its phases (an exact key that is not ``sum(c_i * C**i)``,
    too many keys, or a phase keyed on a side the exact key lacks)."""
    row0 = phases[d, 0]
    n0 = int(row0[P_NKEY])
    keys = n_colours**n0
    if n0 == 0 or keys > KEY_LIMIT:
        return None
    side = {}
    for c in range(n0):
        square, shift, mul = (int(x) for x in row0[P_KEY + 3 * c : P_KEY + 3 * c + 3])
        if mul != n_colours**c:
            return None
        side[(square, shift)] = c
    described = []
    for j in usable[1:]:
        row = phases[d, j]
        key_sides = []
        for c in range(int(row[P_NKEY])):
            square, shift, mul = (int(x) for x in row[P_KEY + 3 * c : P_KEY + 3 * c + 3])
            if (square, shift) not in side:
                return None
            key_sides.append((side[(square, shift)], mul))
        checks = []
        for c in range(int(row[P_NCHK])):
            square, theirs, mine, equal = (int(x) for x in row[P_CHK + 4 * c : P_CHK + 4 * c + 4])
            if (square, theirs) not in side:
                return None
            checks.append((side[(square, theirs)], mine, equal))
        described.append((j, int(row[P_ERR]), int(row[P_BASE]), tuple(key_sides), tuple(checks)))
    return (int(row0[P_BASE]), n0, keys, n_colours, tuple(described))


def levels(signature: tuple) -> int:
    """``S``: the index words per key (the highest level of invalid joins, plus one)."""
    return 1 + max(err for _, err, _, _, _ in signature[4])


def index_words(signature: tuple) -> int:
    return levels(signature) * signature[2] + 1


def describe(signatures: list[tuple], offsets: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(desc, tabs)`` for the tables (see the module notes), their index words at ``offsets``."""
    desc: list[int] = []
    tabs = []
    for signature, at in zip(signatures, offsets):
        base0, n0, keys, n_colours, described = signature
        tabs.append(len(desc))
        desc += [at, levels(signature), keys, n_colours, n0, base0, len(described)]
        for j, err, base, key_sides, checks in described:
            desc += [j, err, base, len(key_sides)]
            for s, mul in key_sides:
                desc += [s, mul]
            desc.append(len(checks))
            for s, mine, equal in checks:
                desc += [s, mine, equal]
    return np.array(desc, np.int64), np.array(tabs, np.int64)


@njit(cache=True, nogil=True)
def build(mem, cand_at, cand, starts, desc, tabs, cmask, flag_shift, origin, source_phase, write):
    """Write the union tables after the candidates (when ``write``; otherwise only count);
    returns the number of union entries.  ``origin[q]`` and ``source_phase[q]`` tell, for
    union position ``q``, the list position and phase it was copied from."""
    pos = cand.shape[0]
    colours = np.zeros(4, np.int64)
    for t in range(tabs.shape[0]):
        o = tabs[t]
        at, S, K, C = desc[o], desc[o + 1], desc[o + 2], desc[o + 3]
        n0, base0, nph = desc[o + 4], desc[o + 5], desc[o + 6]
        for k in range(K):
            rest = k
            for c in range(n0):
                colours[c] = rest % C
                rest //= C
            if write:
                mem[at + S * k] = pos
            for q in range(starts[U(base0 + k)], starts[U(base0 + k + 1)]):
                if write:
                    mem[cand_at + pos] = cand[U(q)]
                    origin[pos] = q
                    source_phase[pos] = 0
                pos += 1
            for level in range(1, S):
                if write:
                    mem[at + S * k + level] = pos
                x = o + HEAD
                for _ in range(nph):
                    j, err, key, n_key = desc[x], desc[x + 1], desc[x + 2], desc[x + 3]
                    x += 4
                    for c in range(n_key):
                        key += colours[desc[x + 2 * c]] * desc[x + 2 * c + 1]
                    x += 2 * n_key
                    n_check = desc[x]
                    x += 1
                    if err == level:
                        for q in range(starts[U(key)], starts[U(key + 1)]):
                            p = cand[U(q)]
                            ok = True
                            for c in range(n_check):
                                mine = (p >> desc[x + 3 * c + 1]) & cmask
                                if (mine == colours[desc[x + 3 * c]]) != (desc[x + 3 * c + 2] == 1):
                                    ok = False
                            if ok:
                                if write:
                                    mem[cand_at + pos] = p | (err << flag_shift)
                                    origin[pos] = q
                                    source_phase[pos] = j
                                pos += 1
                    x += 3 * n_check
        if write:
            mem[at + S * K] = pos
    return pos - cand.shape[0]


@njit(cache=True, nogil=True)
def index_of(desc, tab, phases, d, board, cmask):
    """The ``mem`` index of the union index words of depth ``d``'s key on this board."""
    at, S = desc[tab], desc[tab + 1]
    k = 0
    for c in range(phases[U(d), 0, P_NKEY]):
        col = P_KEY + 3 * c
        k += ((board[U(phases[U(d), 0, col])] >> phases[U(d), 0, col + 1]) & cmask) * phases[U(d), 0, col + 2]
    return at + S * k


@njit(cache=True, nogil=True)
def to_union(mem, u, S, phase, position, list_start, origin, source_phase):
    """The union position of list position ``position`` of ``phase`` (``list_start``: where
    the exact list begins): the first union entry at or after it in the phases' order."""
    if phase == 0:
        return mem[u] + position - list_start
    q = mem[u + 1]
    end = mem[u + S]
    while q < end and (source_phase[q] < phase or (source_phase[q] == phase and origin[q] < position)):
        q += 1
    return q


@njit(cache=True, nogil=True)
def to_list(mem, u, position, list_start, origin, source_phase):
    """``(phase, list position)`` of union position ``position``: every entry before it is
    done, so the list goes on after the copy of the last one done."""
    if position == mem[u]:
        return 0, list_start
    return source_phase[position - 1], origin[position - 1] + 1
