"""A small random number generator that compiled kernels carry in a plain array.

Local search draws several random numbers per move inside Numba code.  Numba's own
``np.random`` keeps hidden global state that cannot be saved or restored, which would make
checkpoints and resumed runs irreproducible.  xoshiro256** (Blackman & Vigna) keeps its
whole state in four 64-bit words: the state is an ``(4,) uint64`` array that goes into a
checkpoint as it is, and a run resumed from it draws exactly the numbers it would have
drawn had it never stopped.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64


def seed_state(seed_sequence: np.random.SeedSequence) -> np.ndarray:
    """A fresh generator state from a NumPy seed sequence (never all zero)."""
    state = seed_sequence.generate_state(4, dtype=np.uint64)
    if not state.any():
        state[0] = 1
    return state.astype(np.uint64)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(cache=True)
def next_u64(state):
    """The next 64 random bits; advances ``state`` in place."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * uint64(5), 7) * uint64(9)
    t = s1 << uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@njit(cache=True)
def below(state, n):
    """A uniform integer in ``0 .. n-1`` (``n`` < 2**32; Lemire's multiply-shift)."""
    x = next_u64(state) >> uint64(32)
    return np.int64((x * uint64(n)) >> uint64(32))


@njit(cache=True)
def between(state, low, high):
    """A uniform integer in ``low .. high`` inclusive."""
    if high <= low:
        return low
    return low + below(state, high - low + 1)


@njit(cache=True)
def uniform(state):
    """A float in [0, 1)."""
    return np.float64(next_u64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(state, values, count):
    """Shuffle the first ``count`` entries of ``values`` in place (Fisher-Yates)."""
    for i in range(count - 1, 0, -1):
        j = below(state, i + 1)
        values[i], values[j] = values[j], values[i]
