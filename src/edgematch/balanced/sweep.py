"""The exact counter's dynamic programming: one sweep over the tiles in one direction,
and the join of a front and a back sweep that meet.

After ``depth`` tiles a sweep holds every distinct *state* (the sum of the chosen
options' changes: the balance dimensions, then the number of tiles per square class)
with the number of choices that give it.  A step gives the next tile each of its options
and keeps the states that the tiles still to come can complete (the ranges
``vmin``/``vmax`` from the bounds of :mod:`.tables`).  Columns that the tiles so far never
changed, and columns with a single possible value, are not stored (:meth:`Sweep.implied`).

The compiled kernel :func:`expand` turns every (state, option) pair that survives into an
integer key (the kept columns in mixed radix, split over as many int64 words as needed);
NumPy sorts the keys and adds up the counts of equal ones.  Counts stay NumPy int64 while
their total cannot overflow and become Python integers after that, so they are exact.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .tables import BalanceTables

#: (state, option) rows expanded at once: bounds the memory of one step.
CHUNK_ROWS = 1 << 21
#: Largest product of column ranges packed into one int64 key word.
WORD_LIMIT = 1 << 62


@njit(cache=True)
def expand(states, source, implied, moves, lo, hi, word, radix, first, keys, parents, choices):
    """Key every (state, move) pair whose columns all stay in ``[lo, hi]``.

    For evaluated column ``e``: its value is ``states[s, source[e]]`` (or ``implied[e]``
    when ``source[e] < 0``) plus ``moves[m, e]``; a kept column adds ``(value - lo) *
    radix[e]`` to key word ``word[e]`` (``word[e] < 0``: checked, then dropped).  Returns
    how many rows it wrote to ``keys`` / ``parents`` (``first + s``) / ``choices`` (m).
    """
    n_eval = source.shape[0]
    written = 0
    for s in range(states.shape[0]):
        for m in range(moves.shape[0]):
            ok = True
            for g in range(keys.shape[1]):
                keys[written, g] = 0
            for e in range(n_eval):
                col = source[e]
                value = moves[m, e] + (states[s, col] if col >= 0 else implied[e])
                if value < lo[e] or value > hi[e]:
                    ok = False
                    break
                if word[e] >= 0:
                    keys[written, word[e]] += (value - lo[e]) * radix[e]
            if ok:
                parents[written] = first + s
                choices[written] = m
                written += 1
    return written


class Sweep:
    """The counting DP in one direction over its tables' order (see the module doc)."""

    def __init__(self, tables: BalanceTables):
        self.tables = tables
        self.n_tiles = tables.n_tiles
        k = tables.n_classes
        self.delta = np.concatenate([tables.opt_delta, np.eye(k, dtype=np.int64)[tables.opt_class]], axis=1)
        self.vmin, self.vmax = value_ranges(tables)
        self.touched = np.zeros((self.n_tiles + 1, self.delta.shape[1]), dtype=bool)
        for d in range(self.n_tiles):
            block = self.delta[tables.opt_start[d] : tables.opt_start[d + 1]]
            self.touched[d + 1] = self.touched[d] | (block != 0).any(axis=0)
        self.depth = 0
        self.cols = np.zeros(0, dtype=np.int64)
        self.states = np.zeros((1, 0), dtype=np.int64)
        self.counts: np.ndarray = np.ones(1, dtype=np.int64)

    def cost(self) -> float:
        """Rows the next step expands (infinite once every tile is done)."""
        if self.depth == self.n_tiles:
            return math.inf
        d = self.depth
        return float(len(self.states)) * float(self.tables.opt_start[d + 1] - self.tables.opt_start[d])

    def implied(self, d: int, j: int) -> int:
        """The value of column ``j`` at depth ``d`` when it is not stored: the one value it
        may take (forced), or 0 (no tile so far changed it)."""
        if self.vmin[d, j] == self.vmax[d, j]:
            return int(self.vmin[d, j])
        assert not self.touched[d, j]
        return 0

    def step(self) -> None:
        """Give the tile at ``depth`` each of its options; keep what can still balance."""
        d = self.depth
        block = self.delta[self.tables.opt_start[d] : self.tables.opt_start[d + 1]]
        moves, mult = np.unique(block, axis=0, return_counts=True)
        mult = mult.astype(np.int64)
        if self.counts.dtype != object and float(self.counts.sum(dtype=np.float64)) * float(mult.max()) >= 2.0**61:
            self.counts = self.counts.astype(object)
        evaluated = np.union1d(self.cols, np.flatnonzero((moves != 0).any(axis=0)))
        position = {int(j): i for i, j in enumerate(self.cols)}
        source = np.array([position.get(int(j), -1) for j in evaluated], dtype=np.int64)
        implied = np.array([0 if int(j) in position else self.implied(d, int(j)) for j in evaluated], dtype=np.int64)
        lo, hi = self.vmin[d + 1, evaluated], self.vmax[d + 1, evaluated]
        kept = (lo < hi) & self.touched[d + 1, evaluated]
        word, radix, n_words = pack_layout(hi - lo + 1, kept)
        moves = np.ascontiguousarray(moves[:, evaluated])
        per_chunk = max(1, CHUNK_ROWS // len(moves))
        parts = []
        for first in range(0, len(self.states), per_chunk):
            states = self.states[first : first + per_chunk]
            rows = len(states) * len(moves)
            keys = np.empty((rows, n_words), dtype=np.int64)
            parents = np.empty(rows, dtype=np.int64)
            choices = np.empty(rows, dtype=np.int64)
            n = expand(states, source, implied, moves, lo, hi, word, radix, first, keys, parents, choices)
            counts = self.counts[parents[:n]]
            if (mult != 1).any():
                counts = counts * mult[choices[:n]].astype(counts.dtype)
            parts.append(merge_keys(keys[:n], counts))
        if len(parts) == 1:
            keys, self.counts = parts[0]
        else:
            keys, self.counts = merge_keys(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))
        self.cols = evaluated[kept]
        self.states = unpack(keys, word[kept], radix[kept], (hi - lo + 1)[kept], lo[kept])
        self.depth = d + 1


def value_ranges(tables: BalanceTables) -> tuple[np.ndarray, np.ndarray]:
    """``(vmin, vmax)`` per depth (T + 1) and column (dimensions, then classes): the
    values a state may hold there and still be completed by the tiles after it."""
    dims_min, dims_max = -tables.rem_hi, -tables.rem_lo
    class_min = np.maximum(0, tables.caps[None, :] - tables.able)
    class_max = np.broadcast_to(tables.caps[None, :], class_min.shape)
    return np.concatenate([dims_min, class_min], axis=1), np.concatenate([dims_max, class_max], axis=1)


def pack_layout(sizes: np.ndarray, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Key word and radix of every column (word -1 for columns not kept), each word's
    ranges multiplying to less than :data:`WORD_LIMIT`; at least one word."""
    word = np.full(len(sizes), -1, dtype=np.int64)
    radix = np.zeros(len(sizes), dtype=np.int64)
    current, product = 0, 1
    for e in range(len(sizes)):
        if not kept[e]:
            continue
        size = int(sizes[e])
        if product * size >= WORD_LIMIT:
            current, product = current + 1, 1
        word[e], radix[e] = current, product
        product *= size
    return word, radix, current + 1


def unpack(keys: np.ndarray, word: np.ndarray, radix: np.ndarray, sizes: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """The kept columns' values back from the keys: (n, columns) int64."""
    states = np.empty((len(keys), len(word)), dtype=np.int64)
    for i in range(len(word)):
        states[:, i] = keys[:, word[i]] // radix[i] % sizes[i] + lo[i]
    return states


def merge_keys(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal keys as one row, their counts added."""
    if len(keys) <= 1:
        return keys, counts
    order = np.argsort(keys[:, 0], kind="stable") if keys.shape[1] == 1 else np.lexsort(keys.T[::-1])
    keys = keys[order]
    first = np.flatnonzero(np.concatenate([[True], (keys[1:] != keys[:-1]).any(axis=1)]))
    return keys[first], np.add.reduceat(counts[order], first)


def join(front: Sweep, back: Sweep) -> int:
    """Sum of front count x back count over the pairs of states that add up to a balanced
    set (every dimension 0, every class exactly its squares), once the two sweeps cover
    every tile between them."""
    assert front.depth + back.depth == front.n_tiles
    target = np.concatenate([np.zeros(front.tables.n_dims, np.int64), front.tables.caps])
    f_pos = {int(j): i for i, j in enumerate(front.cols)}
    b_pos = {int(j): i for i, j in enumerate(back.cols)}
    f_keep = np.ones(len(front.states), dtype=bool)
    b_keep = np.ones(len(back.states), dtype=bool)
    shared = []
    for j in range(len(target)):
        f_fixed = None if j in f_pos else front.implied(front.depth, j)
        b_fixed = None if j in b_pos else back.implied(back.depth, j)
        if f_fixed is not None and b_fixed is not None:
            if f_fixed + b_fixed != target[j]:
                return 0
        elif f_fixed is not None:
            b_keep &= back.states[:, b_pos[j]] == target[j] - f_fixed
        elif b_fixed is not None:
            f_keep &= front.states[:, f_pos[j]] == target[j] - b_fixed
        else:
            shared.append(j)
    f_counts, b_counts = front.counts[f_keep].astype(object), back.counts[b_keep].astype(object)
    if not shared:
        return int(f_counts.sum()) * int(b_counts.sum())
    f_rows = front.states[f_keep][:, [f_pos[j] for j in shared]]
    b_rows = target[shared][None, :] - back.states[b_keep][:, [b_pos[j] for j in shared]]
    if len(f_rows) == 0 or len(b_rows) == 0:
        return 0
    _, ids = np.unique(np.concatenate([f_rows, b_rows]), axis=0, return_inverse=True)
    ids = ids.reshape(-1)
    by_id = np.zeros(int(ids.max()) + 1, dtype=object)
    by_id[ids[len(f_rows) :]] = b_counts  # states are distinct on each side
    return int((f_counts * by_id[ids[: len(f_rows)]]).sum())
