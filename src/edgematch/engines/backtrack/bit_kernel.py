"""The exact search on bitboards: the same tree as :mod:`.kernel`, fewer branches per node.

When every class of tiles (corners, edges, inner tiles) has at most 64 members, a set of
tiles of one class fits in one machine word.  Each candidate list of the plan then also
has a *mask*: the tiles (by their index inside their class) that it holds.  The search
keeps one used-mask per class and, per depth, the mask of tiles still to try there:

* entering a square: ``rem[d] = keymask[key] & ~used[class]``, one AND;
* next candidate: the lowest bit of ``rem[d]`` (count trailing zeros); its placement is
  found in the sorted list at ``first[key] + popcount(keymask[key] & below)``;
* dead-child test: the child's mask after the AND is zero.

The used set at a depth is the same whenever the search is at that depth (deeper tiles
are released on the way back), so ``rem[d]`` stays valid while the subtree below runs and
the scan never meets a used tile.  The list kernel's inner loops (skip used candidates,
look for a free tile in the child's list), whose exits the CPU cannot predict, become a
single test each: on Benoist's E_9_13 this takes the count from about 44 to about 56
million nodes per second (benchmarks/backtrack_speed.py), with the identical tree, node
counts and solution order, because lists are sorted by tile exactly as masks are scanned.

A tile may sit in one list with several rotations (three equal sides, say).  Such lists
also carry *duplicate layers*: ``dups[key, j]`` holds the tiles with at least ``j + 2``
placements there, and ``occ[d]`` says which of them the search tries next.

Same contract as :func:`.kernel.exact_search`: resumable from caller-owned arrays, node
budget, solution buffer, leaf depth for splits, and the same status codes.
``state`` holds ``[depth, start_depth, leaf_depth, fresh]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types
from numba import uint64 as U
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from ...model import tiles as T
from .kernel import BUDGET, FINISHED, SOLUTIONS
from .plan import P_BASE, P_CHK, P_KEY, P_NCHK, P_NKEY, SearchPlan

# The bitboard kernel reads the class of each depth's square from the plan's rows, in
# columns the exact look-up leaves unused (it applies only when no side is checked).
P_CLASS = P_CHK
P_SAME = P_CHK + 1

WORD = 64
MAX_LAYERS = 3  # a tile shows at most 4 distinct rotations in one list


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM's ctpop: one instruction on x86-64)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@dataclass
class BitTables:
    """Masks over the plan's candidate lists, and tile and square classes."""

    keymask: np.ndarray  # uint64 (n_keys,): tiles (index in class) of each list
    list_first: np.ndarray  # int64 (n_keys,): start of each list in cand, -1 - start if it has dups
    dups: np.ndarray | None  # uint64 (n_keys, MAX_LAYERS): tiles with >= j + 2 placements in the list;
    # None when no list holds a tile twice
    rows: np.ndarray  # the plan's exact rows, with the class columns P_CLASS and P_SAME filled
    tile_class: np.ndarray  # int64 (n_tiles,)
    tile_bit: np.ndarray  # int64 (n_tiles,): index of the tile inside its class

    def used_masks(self, used: np.ndarray) -> np.ndarray:
        """One used-mask per class from a used flag per tile (hints, a start board)."""
        masks = np.zeros(16, np.uint64)
        for t in np.flatnonzero(used):
            masks[self.tile_class[t]] |= np.uint64(1) << np.uint64(self.tile_bit[t])
        return masks


def _grey_class(grey: np.ndarray) -> np.ndarray:
    """Rotation-invariant class of 4-bit grey-side patterns (rows of 4 booleans)."""
    bits = (grey * (1 << np.arange(4))).sum(axis=1)
    best = bits.copy()
    for r in range(1, 4):
        rotated = ((bits << r) | (bits >> (4 - r))) & 15
        best = np.minimum(best, rotated)
    return best


def bit_tables(plan: SearchPlan, rows: np.ndarray) -> BitTables | None:
    """Masks for ``plan``, or None when the bitboard search does not apply: a class of
    more than 64 tiles, sides compared outside the key, or lists not sorted by tile (a
    shuffled plan), where scanning masks would change the search order."""
    puzzle = plan.puzzle
    if (rows[:, P_NCHK] > 0).any():
        return None
    tiles = np.asarray(puzzle.tiles)
    tile_class = _grey_class(tiles == 0).astype(np.int64)
    tile_bit = np.zeros(puzzle.n_tiles, np.int64)
    for c in np.unique(tile_class):
        members = np.flatnonzero(tile_class == c)
        if len(members) > WORD:
            return None
        tile_bit[members] = np.arange(len(members))
    n_keys = len(plan.starts) - 1
    sizes = np.diff(plan.starts).astype(np.int64)
    entry_key = np.repeat(np.arange(n_keys), sizes)
    local = tile_bit[plan.cand.astype(np.int64) >> 2]
    same_key = entry_key[1:] == entry_key[:-1]
    if (same_key & (local[1:] < local[:-1])).any():
        return None
    one = np.uint64(1)
    bits = one << local.astype(np.uint64)
    keymask = np.zeros(n_keys, np.uint64)
    np.bitwise_or.at(keymask, entry_key, bits)
    # occurrence of each entry among the placements of its tile in its list (0, 1, ...)
    run_start = np.ones(len(local), dtype=bool)
    run_start[1:] = ~(same_key & (local[1:] == local[:-1]))
    first_of_run = np.maximum.accumulate(np.where(run_start, np.arange(len(local)), 0))
    occurrence = np.arange(len(local)) - first_of_run
    dups = np.zeros((n_keys, MAX_LAYERS), np.uint64)
    for j in range(MAX_LAYERS):
        again = occurrence == j + 1
        np.bitwise_or.at(dups[:, j], entry_key[again], bits[again])
    D = plan.depth
    W, H = puzzle.width, puzzle.height
    square_class = np.zeros(D + 1, np.int64)
    for d, sq in enumerate(plan.order):
        square_class[d] = _grey_class(np.array([T.outer_sides(int(sq), W, H)]))[0]
    same_class = np.zeros(D + 1, np.int64)
    same_class[1:D] = square_class[1:D] == square_class[: D - 1]
    rows = rows.copy()
    rows[:, P_CLASS] = square_class[: len(rows)]
    rows[:, P_SAME] = same_class[: len(rows)]
    list_first = plan.starts[:-1].astype(np.int64)
    layered = dups[:, 0] != 0
    list_first[layered] = -1 - list_first[layered]
    return BitTables(keymask, list_first, dups if dups.any() else None, rows, tile_class, tile_bit)


@njit(cache=True, nogil=True)
def bit_search(
    cand,
    list_first,
    keymask,
    dups,
    pcol,
    order,
    rows,
    board,
    umask,
    rem,
    occ,
    kk,
    tl,
    state,
    node_budget,
    max_solutions,
    out,
    nodes_per_depth,
):
    """Run until the subtree is exhausted, ``node_budget`` nodes are placed, or
    ``max_solutions`` leaves are reached (-1: no limit) or ``out`` is full.

    ``dups`` is None when no list holds a tile twice: Numba then compiles the
    duplicate walk out of the loop (even a never-taken test cost about 7% on E_9_13).
    ``umask`` holds one used-mask per class; ``rem``, ``occ``, ``kk`` (the list key) and
    ``tl`` (the tile bit placed) are per depth and, like ``board``, keep the search's
    position between calls.  Returns ``(nodes, leaves, rows_written, status)``.
    """
    d = state[0]
    start = state[1]
    last = state[2] - 1
    one = U(1)
    if state[3] == 1:
        k = rows[U(d), P_BASE]
        for i in range(rows[U(d), P_NKEY]):
            col = P_KEY + 3 * i
            k += pcol[U(board[U(rows[U(d), col])] * 4 + rows[U(d), col + 1])] * rows[U(d), col + 2]
        kk[U(d)] = k
        rem[U(d)] = keymask[U(k)] & ~umask[U(rows[U(d), P_CLASS])]
        occ[U(d)] = 0
        state[3] = 0
    record = out.shape[0] > 0
    nodes = np.int64(0)
    leaves = np.int64(0)
    written = 0
    n_squares = board.shape[0]
    while True:
        r = rem[U(d)]
        if r == 0:
            if d == start:
                state[0] = d
                return nodes, leaves, written, FINISHED
            d -= 1
            umask[U(rows[U(d), P_CLASS])] ^= one << U(tl[U(d)])
            continue
        t = trailing_zeros(r)
        bit = one << U(t)
        below = bit - one
        key = kk[U(d)]
        pos = list_first[U(key)]
        if dups is not None and pos < 0:
            # a list holding some tile in several rotations (its start is stored as
            # -1 - start, so that other lists pay nothing): walk its placements
            j = occ[U(d)]
            pos = -1 - pos + popcount(keymask[U(key)] & below)
            pos += popcount(dups[U(key), 0] & below) + popcount(dups[U(key), 1] & below)
            pos += popcount(dups[U(key), 2] & below) + j
            if j < 3 and (dups[U(key), U(j)] & bit) != 0:
                occ[U(d)] = j + 1
            else:
                occ[U(d)] = 0
                rem[U(d)] = r & (r - one)
        else:
            pos += popcount(keymask[U(key)] & below)
            rem[U(d)] = r & (r - one)
        found = cand[U(pos)]
        nodes += 1
        nodes_per_depth[U(d)] += 1
        if d == last:
            leaves += 1
            if record:
                square = order[U(d)]
                board[U(square)] = found
                for s in range(n_squares):
                    out[U(written), U(s)] = board[U(s)]
                board[U(square)] = -1
                written += 1
                if written == out.shape[0]:
                    state[0] = d
                    return nodes, leaves, written, SOLUTIONS
            if max_solutions >= 0 and leaves >= max_solutions:
                state[0] = d
                return nodes, leaves, written, SOLUTIONS
            if nodes >= node_budget:
                state[0] = d
                return nodes, leaves, written, BUDGET
            continue
        board[U(order[U(d)])] = found
        e = d + 1
        k = rows[U(e), P_BASE]
        n = rows[U(e), P_NKEY]
        if n > 0:
            k += pcol[U(board[U(rows[U(e), P_KEY])] * 4 + rows[U(e), P_KEY + 1])] * rows[U(e), P_KEY + 2]
            if n > 1:
                k += pcol[U(board[U(rows[U(e), P_KEY + 3])] * 4 + rows[U(e), P_KEY + 4])] * rows[U(e), P_KEY + 5]
                if n > 2:
                    k += pcol[U(board[U(rows[U(e), P_KEY + 6])] * 4 + rows[U(e), P_KEY + 7])] * rows[U(e), P_KEY + 8]
                    if n > 3:
                        k += (
                            pcol[U(board[U(rows[U(e), P_KEY + 9])] * 4 + rows[U(e), P_KEY + 10])]
                            * rows[U(e), P_KEY + 11]
                        )
        # the child's free tiles; ``found``'s own tile counts as taken when in its class
        m = keymask[U(k)] & ~(umask[U(rows[U(e), P_CLASS])] | (bit * U(rows[U(e), P_SAME])))
        if m == 0:
            # a dead end known now: the node is placed and counted, the search stays here
            if nodes >= node_budget:
                state[0] = d
                return nodes, leaves, written, BUDGET
            continue
        umask[U(rows[U(d), P_CLASS])] |= bit
        tl[U(d)] = t
        d = e
        kk[U(d)] = k
        rem[U(d)] = m
        if dups is not None:
            occ[U(d)] = 0
        if nodes >= node_budget:
            state[0] = d
            return nodes, leaves, written, BUDGET
