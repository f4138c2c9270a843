"""The compiled macro search: depth-first over the half-size board, one 2x2 block per step.

Same shape as the plain kernel (:mod:`.kernel`): one iterative loop, an explicit stack
(``cur[d]``, ``end[d]``: next candidate and end of the candidate range at depth ``d``,
``placed[d]``: the block placed there), all state in caller-owned arrays so that Python
can run it in slices (node budget, time limit, progress, Ctrl-C) and resume exactly.

Depth ``d`` is macro square ``d`` (row scan of the macro board).  The candidates of a
depth are one contiguous range of the block arrays, found by hashing the key
``base[d] + east[west[d]] * K2 + south[north[d]]``: ``base`` selects the depth's table
(its border class, or its own table when it holds a hint), the pairs are the macro edge
colours (two colours, ``a * K + b``) of the placed west and north neighbours.  A missing
neighbour reads the sentinel slot ``D`` whose pair is 0 = grey-grey, which is exactly
what blocks on the board's border show there, so border squares need no special case.

A candidate is placed when none of its four tiles is used; a node is one block placed.

Small key spaces (fewer than :data:`DIRECT_LIMIT` keys) use a direct table instead of the
hash: one load per look-up.

Status codes: 0 finished, 1 budget (nodes or examined candidates) used up, 2 solution
buffer full or the requested number of solutions reached.  ``state`` holds
``[depth, fresh]`` (fresh = the range of ``depth`` still has to be looked up).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba import uint64 as U

FINISHED = 0
BUDGET = 1
SOLUTIONS = 2

#: Largest key space that gets a direct table (int64 entries: 64 MiB).
DIRECT_LIMIT = 1 << 23

#: Fibonacci hashing multiplier (2**64 / golden ratio).
HASH_MULTIPLIER = 0x9E3779B97F4A7C15


def table_bits(n_keys: int) -> int:
    """log2 of the hash table size: a power of two at least twice the number of keys."""
    bits = 4
    while (1 << bits) < 2 * n_keys:
        bits += 1
    return bits


@njit(cache=True)
def build_direct(keys, size):
    """Direct table of distinct non-negative ``keys`` < ``size``: ``slot_value[key]`` is
    the key's index in ``keys``, -1 for keys not present.  Returns ``(slot_key,
    slot_value)`` like :func:`build_hash` (``slot_key`` is unused, empty)."""
    slot_value = np.full(size, -1, np.int64)
    for i in range(keys.shape[0]):
        slot_value[keys[i]] = i
    return np.zeros(0, np.int64), slot_value


@njit(cache=True)
def build_hash(keys, bits):
    """Open-addressing table (linear probing) of distinct non-negative ``keys``.

    Returns ``(slot_key, slot_value)``: ``slot_key[h]`` is the key stored in slot ``h``
    (-1 empty) and ``slot_value[h]`` its index in ``keys``.
    """
    size = 1 << bits
    mask = size - 1
    slot_key = np.full(size, -1, np.int64)
    slot_value = np.zeros(size, np.int64)
    shift = U(64 - bits)
    mult = U(HASH_MULTIPLIER)
    for i in range(keys.shape[0]):
        h = (U(keys[i]) * mult) >> shift
        while slot_key[h] != -1:
            h = (h + U(1)) & U(mask)
        slot_key[h] = keys[i]
        slot_value[h] = i
    return slot_key, slot_value


@njit(cache=True, inline="always")
def _find(key, slot_key, slot_value, shift, mask):
    """Index of ``key`` among the hashed keys, or -1.

    With ``shift == 64`` the table is direct: ``slot_value[key]`` is the index (or -1).
    """
    if shift == U(64):
        return slot_value[U(key)]
    h = (U(key) * U(HASH_MULTIPLIER)) >> shift
    while True:
        k = slot_key[h]
        if k == key:
            return slot_value[h]
        if k == -1:
            return -1
        h = (h + U(1)) & mask


@njit(cache=True)
def lookup(key, slot_key, slot_value, bits):
    """Index of ``key`` among the hashed keys, or -1 (for tests and tools); ``bits`` = 0
    for a direct table."""
    return _find(key, slot_key, slot_value, U(64 - bits), U((1 << bits) - 1))


@njit(cache=True)
def macro_search(block_tiles, block_skip, block_east, block_south, key_start, slot_key, slot_value, bits, k2,
                 base, west, north, used, placed, east, south, cur, end, state,
                 node_budget, work_budget, max_solutions, out, nodes_per_depth):
    """Run until the search is exhausted, ``node_budget`` blocks are placed,
    ``work_budget`` candidates are examined, ``max_solutions`` solutions are found (-1: no
    limit) or ``out`` is full (when it has rows, each solution's ``placed`` row, i.e. the
    block index of every macro square, is copied into it).

    ``block_tiles`` (n, 4): the tiles of each block; ``block_skip`` (n, 3): where to go on
    when tile 0, 1 or 2 of a block is used (the end of the run of blocks sharing it);
    ``block_east`` / ``block_south``: the
    pair on its east / south macro side; ``key_start``: the candidates of the ``j``-th
    distinct key are ``key_start[j]:key_start[j + 1]``.
    ``bits`` = 0 when the table is direct (see :func:`build_direct`).
    Returns ``(nodes, solutions, rows_written, examined, status)``.
    """
    D = base.shape[0]
    last = D - 1
    shift = U(64 - bits)
    mask = U((1 << bits) - 1)
    d = state[0]
    if state[1] == 1:
        state[1] = 0
        j = _find(base[d] + east[west[d]] * k2 + south[north[d]], slot_key, slot_value, shift, mask)
        if j < 0:
            cur[d] = 0
            end[d] = 0
        else:
            cur[d] = key_start[j]
            end[d] = key_start[j + 1]
    nodes = 0
    solutions = 0
    written = 0
    examined = 0
    capacity = out.shape[0]
    while True:
        i = cur[d]
        if i < end[d]:
            examined += 1
            t0 = block_tiles[U(i), 0]
            t1 = block_tiles[U(i), 1]
            t2 = block_tiles[U(i), 2]
            t3 = block_tiles[U(i), 3]
            if used[U(t0)] | used[U(t1)] | used[U(t2)] | used[U(t3)]:
                # jump over every following block that shares the first used tile and the
                # tiles before it (they are sorted so, see block_skip)
                if used[U(t0)]:
                    cur[d] = block_skip[U(i), 0]
                elif used[U(t1)]:
                    cur[d] = block_skip[U(i), 1]
                elif used[U(t2)]:
                    cur[d] = block_skip[U(i), 2]
                else:
                    cur[d] = i + 1
                if examined >= work_budget:
                    state[0] = d
                    return nodes, solutions, written, examined, BUDGET
                continue
            cur[d] = i + 1
            nodes += 1
            nodes_per_depth[d] += 1
            placed[d] = i
            if d == last:
                solutions += 1
                if capacity > 0:
                    for s in range(D):
                        out[written, s] = placed[s]
                    written += 1
                if (max_solutions >= 0 and solutions >= max_solutions) or (capacity > 0 and written == capacity):
                    state[0] = d
                    return nodes, solutions, written, examined, SOLUTIONS
                if nodes >= node_budget or examined >= work_budget:
                    state[0] = d
                    return nodes, solutions, written, examined, BUDGET
                continue
            used[U(t0)] = 1
            used[U(t1)] = 1
            used[U(t2)] = 1
            used[U(t3)] = 1
            east[d] = block_east[U(i)]
            south[d] = block_south[U(i)]
            d += 1
            j = _find(base[d] + east[west[d]] * k2 + south[north[d]], slot_key, slot_value, shift, mask)
            if j < 0:
                cur[d] = 0
                end[d] = 0
            else:
                cur[d] = key_start[j]
                end[d] = key_start[j + 1]
            if nodes >= node_budget or examined >= work_budget:
                state[0] = d
                return nodes, solutions, written, examined, BUDGET
        else:
            if d == 0:
                state[0] = 0
                return nodes, solutions, written, examined, FINISHED
            d -= 1
            i = placed[d]
            used[U(block_tiles[U(i), 0])] = 0
            used[U(block_tiles[U(i), 1])] = 0
            used[U(block_tiles[U(i), 2])] = 0
            used[U(block_tiles[U(i), 3])] = 0
