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

Small key spaces (at most :data:`DIRECT_LIMIT` keys) use a direct table instead of the
hash: the candidate range is ``key_start[key]:key_start[key + 1]``.

Status codes: 0 finished, 1 budget (nodes or examined candidates) used up, 2 solution
buffer full or the requested number of solutions reached.  ``state`` holds
``[depth, fresh]`` (fresh = the range of ``depth`` still has to be looked up).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba import uint64 as U

#: Columns of a block row.
B_T0, B_T1, B_T2, B_T3, B_SKIP0, B_SKIP1, B_EAST, B_SOUTH = range(8)

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


@njit(cache=True)
def fill_skips(keys, tiles, blocks, largest):
    """Write the ``B_SKIP0`` / ``B_SKIP1`` columns of ``blocks``.

    Blocks are sorted by key, then by tiles.  ``B_SKIPc`` of block ``i`` is the distance
    to the first block after ``i`` whose key or tiles ``0..c`` differ from block ``i``'s:
    when tile ``c`` is used (and the tiles before it are not), every block in between uses
    it too.  Distances are capped at ``largest`` (what the column's type holds): a shorter
    jump only lands on a block that is then skipped again, so the cap costs a little time
    and nothing else.
    """
    n = keys.shape[0]
    next0 = n
    next1 = n
    for i in range(n - 1, -1, -1):
        if i + 1 < n:
            j = i + 1
            if keys[j] != keys[i] or tiles[j, 0] != tiles[i, 0]:
                next0 = j
                next1 = j
            elif tiles[j, 1] != tiles[i, 1]:
                next1 = j
        blocks[i, B_SKIP0] = min(next0 - i, largest)
        blocks[i, B_SKIP1] = min(next1 - i, largest)


@njit(cache=True, inline="always")
def _candidates(key, slot_key, slot_value, key_start, shift, mask):
    """The candidate range ``(first, end)`` of ``key``; empty when the key is absent.

    Direct table (``slot_key`` empty): ``key_start`` is indexed by the key itself.
    Hash table: ``slot_value`` gives the key's rank among the distinct keys, and
    ``key_start`` is indexed by rank.
    """
    if slot_key.shape[0] == 0:
        return key_start[U(key)], key_start[U(key) + U(1)]
    h = (U(key) * U(HASH_MULTIPLIER)) >> shift
    while True:
        k = slot_key[h]
        if k == key:
            j = slot_value[h]
            return key_start[U(j)], key_start[U(j) + U(1)]
        if k == -1:
            return key_start[0], key_start[0]
        h = (h + U(1)) & mask


@njit(cache=True)
def lookup(key, slot_key, slot_value, bits):
    """Rank of ``key`` among the hashed keys, or -1 (for tests and tools)."""
    shift = U(64 - bits)
    mask = U((1 << bits) - 1)
    h = (U(key) * U(HASH_MULTIPLIER)) >> shift
    while True:
        k = slot_key[h]
        if k == key:
            return slot_value[h]
        if k == -1:
            return -1
        h = (h + U(1)) & mask


@njit(cache=True, nogil=True)
def macro_search(
    blocks,
    key_start,
    slot_key,
    slot_value,
    bits,
    k2,
    base,
    west,
    north,
    used,
    placed,
    east,
    south,
    cur,
    end,
    state,
    node_budget,
    work_budget,
    max_solutions,
    out,
    nodes_per_depth,
):
    """Run until the search is exhausted, ``node_budget`` blocks are placed,
    ``work_budget`` candidates are examined, ``max_solutions`` solutions are found (-1: no
    limit) or ``out`` is full (when it has rows, each solution's ``placed`` row, i.e. the
    block index of every macro square, is copied into it).

    ``blocks`` (n, 8), one row per block (see the ``B_*`` columns; uint16 where everything
    fits, for cache footprint, else int32): its four tiles, how far to jump when tile 0 or
    1 is used (past the run of blocks sharing it and the tiles before it), and the pairs on
    its east and south macro sides.
    ``key_start``/``slot_key``/``slot_value``: the candidate table (direct when
    ``slot_key`` is empty, else hashed with ``bits`` bits; see :func:`_candidates`).
    Returns ``(nodes, solutions, rows_written, examined, status)``.
    """
    D = base.shape[0]
    last = D - 1
    shift = U(64 - bits)
    mask = U((1 << bits) - 1)
    d = state[0]
    if state[1] == 1:
        state[1] = 0
        cur[d], end[d] = _candidates(
            base[d] + east[west[d]] * k2 + south[north[d]], slot_key, slot_value, key_start, shift, mask
        )
    nodes = 0
    solutions = 0
    written = 0
    examined = 0
    capacity = out.shape[0]
    # the current depth's next candidate and range end live in registers; cur[d] / end[d]
    # are written when the search descends and before every return
    i = cur[d]
    stop = end[d]
    while True:
        if i < stop:
            examined += 1
            t0 = blocks[U(i), B_T0]
            t1 = blocks[U(i), B_T1]
            t2 = blocks[U(i), B_T2]
            t3 = blocks[U(i), B_T3]
            if used[U(t0)] | used[U(t1)] | used[U(t2)] | used[U(t3)]:
                # jump over every following block that shares the first used tile and the
                # tiles before it (blocks are sorted so within a key)
                if used[U(t0)]:
                    i += blocks[U(i), B_SKIP0]
                elif used[U(t1)]:
                    i += blocks[U(i), B_SKIP1]
                else:
                    i += 1
                if examined >= work_budget:
                    state[0] = d
                    cur[d] = i
                    end[d] = stop
                    return nodes, solutions, written, examined, BUDGET
                continue
            nodes += 1
            nodes_per_depth[d] += 1
            placed[d] = i
            if d == last:
                i += 1
                solutions += 1
                if capacity > 0:
                    for s in range(D):
                        out[written, s] = placed[s]
                    written += 1
                if (
                    (max_solutions >= 0 and solutions >= max_solutions)
                    or (capacity > 0 and written == capacity)
                    or nodes >= node_budget
                    or examined >= work_budget
                ):
                    state[0] = d
                    cur[d] = i
                    end[d] = stop
                    status = BUDGET
                    if (max_solutions >= 0 and solutions >= max_solutions) or (capacity > 0 and written == capacity):
                        status = SOLUTIONS
                    return nodes, solutions, written, examined, status
                continue
            used[U(t0)] = 1
            used[U(t1)] = 1
            used[U(t2)] = 1
            used[U(t3)] = 1
            east[d] = blocks[U(i), B_EAST]
            south[d] = blocks[U(i), B_SOUTH]
            cur[d] = i + 1
            end[d] = stop
            d += 1
            i, stop = _candidates(
                base[d] + east[west[d]] * k2 + south[north[d]], slot_key, slot_value, key_start, shift, mask
            )
            if nodes >= node_budget or examined >= work_budget:
                state[0] = d
                cur[d] = i
                end[d] = stop
                return nodes, solutions, written, examined, BUDGET
        else:
            if d == 0:
                state[0] = 0
                cur[0] = i
                return nodes, solutions, written, examined, FINISHED
            d -= 1
            j = placed[d]
            used[U(blocks[U(j), B_T0])] = 0
            used[U(blocks[U(j), B_T1])] = 0
            used[U(blocks[U(j), B_T2])] = 0
            used[U(blocks[U(j), B_T3])] = 0
            i = cur[d]
            stop = end[d]
