"""The ColorPair filtering of Benoist & Bourreau (2008), sections 3 and 4, compiled.

``assign`` and ``unassign`` keep the ``Offer`` / ``Demand`` sparse sets, the pattern
counters of section 5.1 and the colour counts of section 4.2 up to date in constant time
per placement (about six set operations per side).  Every pair whose sets changed is put
on a queue; ``propagate`` then applies the rules until nothing changes:

* contradiction: ``|Offer(p)| < |Demand(p)|``;
* preemption (section 4.1): ``|Offer(p)| = |Demand(p)|`` tags every untagged offered tile
  as *preempted* by ``p`` and counts it in ``npre`` of the tile's other pairs; a tag is
  honoured (``available = |Offer| - npre``) only while no empty square has three or four
  known sides, because only then are the ``Demand`` sets pairwise disjoint;
* instantiation: ``|Offer(p)| = |Demand(p)| = 1`` places the one tile on the one square
  when exactly one of its rotations fits the square's known sides (none fits: failure).

The shared-edges bound and the border-colour cycle test of section 4.2 run inside
``assign`` on the colours of the placed tile.

Failures leave an *explanation* in the ``B_FEXP`` bitset when backjumping is on: the
squares whose current placements are enough for the failure (section 5.2).  Squares
placed by propagation keep the explanation of why (their row of BITS) so the search can
replace them by their causes (see :mod:`.search`).

All undo information is the *trail*: placements (square ``s`` stored as ``s``) and
preemption tags (tile ``t`` stored as ``-t - 1``), undone in reverse order.  The ``Offer``
and ``Demand`` sets return to exactly the order they had (removals save their position);
the set of demanded pairs may come back in another order, so nothing reads its order
(the queue is refilled in pair order, the heuristics break ties by pair id).  The state
after an undo therefore searches exactly as before it.
"""

from __future__ import annotations

import numpy as np
from numba import int64, njit, types
from numba import uint64 as U
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .tables import (
    B_FEXP,
    B_TMP2,
    BITS,
    CFG,
    CFG_BACKJUMP,
    CFG_CONTRADICTION,
    CFG_CYCLES,
    CFG_INSTANTIATION,
    CFG_OPPOSITE,
    CFG_PREEMPTION,
    CFG_SHARED_EDGES,
    CYC_COLS,
    DEL,
    DEM_EDGES,
    DP_EL,
    DP_POS,
    DSIZE,
    FDEM,
    FM,
    FRAME_SIDE,
    FRAME_SQ,
    FT,
    HDR,
    HVAL,
    IN_Q,
    IS_DEC,
    KNOWN,
    LEVEL_OF,
    NBR,
    NFTILES,
    NKNOWN,
    NPD,
    NPRE,
    NROT,
    NSURR,
    NTP,
    OEL,
    OFULL,
    ORDER_OF,
    OSIZE,
    OSTART,
    PDBUF,
    PRE_BY,
    QUEUE,
    REM_EDGES,
    REM_TILES,
    ROTS,
    SC_C,
    SC_COUNT3,
    SC_DP_N,
    SC_FRAME_PLACED,
    SC_MISC_OFF,
    SC_NFRAME,
    SC_NT,
    SC_P,
    SC_PLACED,
    SC_PRE_OFF,
    SC_QHEAD,
    SC_QTAIL,
    SC_ROOT_PLACED,
    SC_TRAIL,
    SC_W,
    SHOWN,
    SQ_DEM,
    SQ_ROT,
    SQ_TILE,
    SQPOS,
    SQSAV,
    STAT,
    STATS,
    TAG_POS,
    TCOLCNT,
    TCOLS,
    TFRAME,
    TILE_SQ,
    TOPOS,
    TOSAV,
    TPAIRS,
    TRAIL,
    WHY_P,
)

ST_PROPAGATED = STAT["propagated"]
ST_FAIL_PAIR = STAT["fail_pair"]
ST_FAIL_INST = STAT["fail_instantiation"]
ST_FAIL_SHARED = STAT["fail_shared_edges"]
ST_FAIL_CYCLE = STAT["fail_cycle"]
ST_PREEMPTIONS = STAT["preemptions"]
ST_PREEMPTED = STAT["preempted_tiles"]
ST_NODES = STAT["nodes"]

# ---------------------------------------------------------------------------- memory
# The whole state is one int64 array M (see :mod:`.tables`): scalars, statistics and the
# switches at fixed positions, then tables found through a header of (offset, width)
# pairs.  Speed rule for this package: kernels take M alone, as a raw pointer (see
# :func:`unmanaged`).  Numba updates the reference counts of every array in a tuple
# argument at each call (about 10 ns per array), and of any array bound to a local name or
# passed to an ``inline="always"`` function, which made a state of many arrays ten to a
# hundred times slower; even one array costs two runtime calls per kernel call, which the
# pointer removes (E_8_1 with four corners: 1.8 -> 2.3M nodes per second).
# Explicit signatures for the small helpers called with table constants: Numba would
# otherwise compile one specialisation per literal argument (``get(M, OSIZE, p)`` and
# ``get(M, NPRE, p)`` are two functions to it), which multiplied the compile time.
_M = types.CPointer(types.int64)
_I = types.int64
SIG_GET = types.int64(_M, _I, _I)
SIG_PUT = types.void(_M, _I, _I, _I)
SIG_GET2 = types.int64(_M, _I, _I, _I)
SIG_PUT2 = types.void(_M, _I, _I, _I, _I)
SIG_ROW = types.int64(_M, _I)
SIG_BIT = types.void(_M, _I, _I)


@intrinsic
def _int64_pointer(typingctx, address):
    sig = types.CPointer(types.int64)(types.uintp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.CPointer(types.int64)))

    return sig, codegen


@njit(cache=True)
def unmanaged(M):
    """``M`` as a raw pointer, which every kernel takes: an array argument costs each
    non-inlined call seven machine arguments and a reference-count call on entry and on
    exit, a pointer one register and nothing.  Entry points call the kernels on it; the
    caller keeps ``M`` alive."""
    return _int64_pointer(M.ctypes.data)


@njit(SIG_ROW, cache=True)
def off(M, tab):
    """Where table ``tab`` starts in M."""
    return M[HDR + 2 * tab]


@njit(SIG_GET, cache=True)
def get(M, tab, i):
    return M[U(M[HDR + 2 * tab] + i)]


@njit(SIG_PUT, cache=True)
def put(M, tab, i, value):
    M[U(M[HDR + 2 * tab] + i)] = value


@njit(SIG_GET2, cache=True)
def get2(M, tab, i, j):
    return M[U(M[HDR + 2 * tab] + i * M[HDR + 2 * tab + 1] + j)]


@njit(SIG_PUT2, cache=True)
def put2(M, tab, i, j, value):
    M[U(M[HDR + 2 * tab] + i * M[HDR + 2 * tab + 1] + j)] = value


@njit(SIG_GET2, cache=True)
def at2(M, tab, i, j):
    """Position of entry (i, j) of a table in M."""
    return M[HDR + 2 * tab] + i * M[HDR + 2 * tab + 1] + j


# ---------------------------------------------------------------------------- bitsets
# Bitsets of squares are rows of the BITS table (64 squares per int64 word).
@njit(SIG_BIT, cache=True)
def bit_set(M, row, x):
    k = at2(M, BITS, row, x >> 6)
    M[U(k)] = M[U(k)] | (np.int64(1) << (x & 63))


@njit(SIG_BIT, cache=True)
def bit_clear(M, row, x):
    k = at2(M, BITS, row, x >> 6)
    M[U(k)] = M[U(k)] & ~(np.int64(1) << (x & 63))


@njit(cache=True)
def bit_test(M, row, x):
    return (get2(M, BITS, row, x >> 6) >> (x & 63)) & 1


@njit(cache=True)
def bits_zero(M, row):
    k = at2(M, BITS, row, 0)
    for i in range(M[SC_W]):
        M[k + i] = 0


@njit(cache=True)
def bits_or(M, dst, src):
    k = at2(M, BITS, dst, 0)
    j = at2(M, BITS, src, 0)
    for i in range(M[SC_W]):
        M[k + i] |= M[j + i]


@njit(cache=True)
def bits_copy(M, dst, src):
    k = at2(M, BITS, dst, 0)
    j = at2(M, BITS, src, 0)
    for i in range(M[SC_W]):
        M[k + i] = M[j + i]


@njit(cache=True)
def bits_first(M, row):
    """Smallest member of a bitset, -1 when empty."""
    k = at2(M, BITS, row, 0)
    for i in range(M[SC_W]):
        w = M[k + i]
        if w != 0:
            return i * 64 + trailing_zeros(w)
    return -1


@njit(SIG_ROW, cache=True)
def misc_row(M, k):
    """A scratch bitset (B_FEXP, B_TMP1, B_TMP2, B_SHACC)."""
    return M[SC_MISC_OFF] + k


@njit(SIG_ROW, cache=True)
def reason_row(M, x):
    """Why square ``x`` was placed by propagation or shaving."""
    return x


@njit(SIG_ROW, cache=True)
def preempt_row(M, t):
    """Why tile ``t`` is preempted (recorded when it was tagged)."""
    return M[SC_PRE_OFF] + t


@njit(cache=True, inline="always")
def count_node(M):
    M[STATS + ST_NODES] += 1
    d = M[SC_PLACED] - M[SC_ROOT_PLACED] - 1
    if d >= 0:
        put(M, NPD, d, get(M, NPD, d) + (1))


# ---------------------------------------------------------------------------- pairs
@njit(cache=True)
def cw_pair(C, a, b):
    return a * C + b


@njit(cache=True)
def opp_pair(C, a, b):
    if a <= b:
        return C * C + a * C + b
    return C * C + b * C + a


@njit(cache=True)
def slot_sides(slot):
    """The two sides of a slot: (i, i+1) for clockwise slots 0..3, (0, 2) and (1, 3)."""
    if slot < 4:
        return slot, (slot + 1) & 3
    return slot - 4, slot - 2


@njit(cache=True, inline="always")
def push(M, p):
    q = M[HDR + 2 * IN_Q] + p
    if M[U(q)] == 0:
        M[U(q)] = 1
        t = M[SC_QTAIL]
        M[U(M[HDR + 2 * QUEUE] + t)] = p
        t += 1
        if t == M[SC_P] + 1:
            t = 0
        M[SC_QTAIL] = t


@njit(cache=True, inline="always")
def may_fire(M, p, honour):
    """Whether a rule of pair ``p`` can fire now: it is demanded and has no more available
    tiles than demands, or only one (the others pass the rules untouched)."""
    d = M[U(M[HDR + 2 * DSIZE] + p)]
    if d == 0:
        return False
    a = available(M, p, honour)
    return a <= d or a == 1


@njit(cache=True, inline="always")
def push_live(M, p):
    """Queue ``p`` when one of its rules may fire now.  A pair left out cannot start a
    rule until its offer shrinks, its demand grows or a tag is counted against it, and
    each of those queues it again; when tags start to count, :func:`push_demanded` queues
    what they make live.  Most pairs that a placement touches stay quiet, and the queue
    then holds only the pairs that matter."""
    if may_fire(M, p, M[CFG + CFG_PREEMPTION] != 0 and M[SC_COUNT3] == 0):
        push(M, p)


@njit(cache=True)
def push_demanded(M):
    """Queue every demanded pair whose rules can fire (available tiles no more than
    demanding squares: :func:`propagate` passes the others untouched), in pair order: the
    order of the set of demanded pairs depends on the history of the search (its removals
    are not undone in place), and the queue order must not, or a replayed subtree would
    propagate differently.  Reads the demanded pairs, not every pair id (``2 C^2``)."""
    honour = honoured(M)
    o_el = M[HDR + 2 * DP_EL]
    o_buf = M[HDR + 2 * PDBUF]
    k = 0
    for i in range(M[SC_DP_N]):
        p = M[U(o_el + i)]
        if may_fire(M, p, honour):
            j = k
            while j > 0 and M[U(o_buf + j - 1)] > p:
                M[U(o_buf + j)] = M[U(o_buf + j - 1)]
                j -= 1
            M[U(o_buf + j)] = p
            k += 1
    for i in range(k):
        push(M, M[U(o_buf + i)])


@njit(cache=True)
def clear_queue(M):
    size = M[SC_P] + 1
    h = M[SC_QHEAD]
    in_q = M[HDR + 2 * IN_Q]
    queue = M[HDR + 2 * QUEUE]
    while h != M[SC_QTAIL]:
        M[U(in_q + M[U(queue + h)])] = 0
        h += 1
        if h == size:
            h = 0
    M[SC_QHEAD] = 0
    M[SC_QTAIL] = 0


@njit(cache=True, inline="always")
def available(M, p, honour):
    if honour:
        return M[U(M[HDR + 2 * OSIZE] + p)] - M[U(M[HDR + 2 * NPRE] + p)]
    return M[U(M[HDR + 2 * OSIZE] + p)]


@njit(cache=True)
def honoured(M):
    return M[CFG + CFG_PREEMPTION] != 0 and M[SC_COUNT3] == 0


# ---------------------------------------------------------------------------- sparse sets
# Each set is a run of an element table and positions kept elsewhere: the first size
# entries of the run are the members.  A removal swaps the element with the last member
# and saves where it was; the matching restore (undo, last in first out) swaps it back, so
# that undoing returns every set to exactly its former order.  Fresh additions (a square
# starting to demand a pair) append.  Offsets are read once per call.
@njit(SIG_GET, cache=True, inline="always")
def offer_tile(M, p, i):
    """The ``i``-th tile of ``Offer(p)`` (members first, then ``Unavailable(p)``)."""
    return M[U(M[HDR + 2 * OEL] + M[U(M[HDR + 2 * OSTART] + p)] + i)] >> 3


@njit(cache=True, inline="always")
def offer_remove(M, el, topos, tosav, size, t, j):
    """Tile ``t`` (``p`` is its ``j``-th pair) leaves ``Offer(p)``: ``el`` is where the
    row of ``p`` starts, ``size`` where its size is, ``topos`` and ``tosav`` where those
    tables start.  The caller reads the table offsets once: after a store into ``M`` the
    compiler must read them again otherwise."""
    key = t * 6 + j
    i = M[U(topos + key)]
    last = M[U(size)] - 1
    e = M[U(el + last)]
    M[U(el + i)] = e
    M[U(topos + (e >> 3) * 6 + (e & 7))] = i
    M[U(el + last)] = t * 8 + j
    M[U(topos + key)] = last
    M[U(tosav + key)] = i
    M[U(size)] = last


@njit(cache=True, inline="always")
def offer_add(M, el, topos, tosav, size, t, j):
    """Undo of :func:`offer_remove` (``t`` sits just past the members)."""
    key = t * 6 + j
    k = M[U(size)]
    i = M[U(tosav + key)]
    e = M[U(el + i)]
    M[U(el + i)] = t * 8 + j
    M[U(topos + key)] = i
    M[U(el + k)] = e
    M[U(topos + (e >> 3) * 6 + (e & 7))] = k
    M[U(size)] = k + 1


@njit(cache=True)
def dp_add(M, p):
    k = M[SC_DP_N]
    M[U(M[HDR + 2 * DP_EL] + k)] = p
    M[U(M[HDR + 2 * DP_POS] + p)] = k
    M[SC_DP_N] = k + 1


@njit(cache=True)
def dp_remove(M, p):
    el = M[HDR + 2 * DP_EL]
    pos = M[HDR + 2 * DP_POS]
    i = M[U(pos + p)]
    last = M[SC_DP_N] - 1
    u = M[U(el + last)]
    M[U(el + i)] = u
    M[U(pos + u)] = i
    M[U(pos + p)] = -1
    M[SC_DP_N] = last


@njit(cache=True, inline="always")
def other_slot(M, x, p, slot, below):
    """Whether square ``x`` demands ``p`` on another slot than ``slot`` (only on the slots
    before it when ``below``)."""
    sd = M[HDR + 2 * SQ_DEM] + x * 6
    for s in range(slot if below else 6):
        if s != slot and M[U(sd + s)] == p:
            return True
    return False


@njit(cache=True, inline="always")
def set_demand_position(M, x, p, i):
    """Square ``x`` now sits at position ``i`` of ``Demand(p)``: every slot of ``x``
    demanding ``p`` records it."""
    sd = M[HDR + 2 * SQ_DEM] + x * 6
    sp = M[HDR + 2 * SQPOS] + x * 6
    for s in range(6):
        if M[U(sd + s)] == p:
            M[U(sp + s)] = i


@njit(cache=True, inline="always")
def dem_append(M, p, x, slot):
    """``x`` starts demanding ``p`` on ``slot`` (already written in ``SQ_DEM``); returns
    True when it joined the set (it was not demanding ``p`` on another slot)."""
    sd = M[HDR + 2 * SQ_DEM] + x * 6
    sp = M[HDR + 2 * SQPOS] + x * 6
    for s in range(6):
        if s != slot and M[U(sd + s)] == p:
            M[U(sp + slot)] = M[U(sp + s)]
            return False
    size = M[HDR + 2 * DSIZE] + p
    k = M[U(size)]
    M[U(M[HDR + 2 * DEL] + p * M[HDR + 2 * DEL + 1] + k)] = x
    M[U(M[HDR + 2 * SQPOS] + x * 6 + slot)] = k
    M[U(size)] = k + 1
    if k == 0:
        dp_add(M, p)
    return True


@njit(cache=True, inline="always")
def dem_add(M, p, x, slot):
    if dem_append(M, p, x, slot):
        push_live(M, p)


@njit(cache=True, inline="always")
def dem_take(M, p, x, slot):
    """Remove ``x`` from ``Demand(p)`` (swap with the last member), saving its position on
    ``slot``."""
    row = M[HDR + 2 * DEL] + p * M[HDR + 2 * DEL + 1]
    size = M[HDR + 2 * DSIZE] + p
    i = M[U(M[HDR + 2 * SQPOS] + x * 6 + slot)]
    last = M[U(size)] - 1
    u = M[U(row + last)]
    M[U(row + i)] = u
    if u != x:
        set_demand_position(M, u, p, i)
    M[U(row + last)] = x
    M[U(M[HDR + 2 * SQSAV] + x * 6 + slot)] = i
    M[U(size)] = last
    if last == 0:
        dp_remove(M, p)


@njit(cache=True, inline="always")
def dem_drop(M, p, x, slot):
    """Undo of a neighbour's :func:`dem_add`: ``x`` stops demanding ``p`` on ``slot``
    (still in ``SQ_DEM``; cleared by the caller) and leaves the set unless another slot
    still demands ``p``.  Last in, first out: ``x`` is then the last member."""
    if not other_slot(M, x, p, slot, False):
        dem_take(M, p, x, slot)


@njit(cache=True, inline="always")
def dem_remove_placed(M, p, x, slot):
    """``x`` was filled: it leaves ``Demand(p)``, once for all its slots demanding ``p``
    (the first of them does it; ``SQ_DEM`` keeps them for the undo)."""
    if not other_slot(M, x, p, slot, True):
        dem_take(M, p, x, slot)


@njit(cache=True, inline="always")
def dem_restore(M, p, x, slot):
    """Undo of :func:`dem_remove_placed` (no queueing: undoing clears the queue)."""
    if other_slot(M, x, p, slot, True):
        return
    row = M[HDR + 2 * DEL] + p * M[HDR + 2 * DEL + 1]
    size = M[HDR + 2 * DSIZE] + p
    k = M[U(size)]
    i = M[U(M[HDR + 2 * SQSAV] + x * 6 + slot)]
    if i != k:
        u = M[U(row + i)]
        M[U(row + k)] = u
        set_demand_position(M, u, p, k)
    M[U(row + i)] = x
    set_demand_position(M, x, p, i)
    M[U(size)] = k + 1
    if k == 0:
        dp_add(M, p)


# ---------------------------------------------------------------------------- patterns
@njit(cache=True, inline="always")
def square_class(M, u):
    """Pattern class of an empty square (section 5.1): 0: four known sides, 1: three,
    2: two and a surrounded neighbour, 3: one and two surrounded neighbours, -1: none."""
    k = M[U(M[HDR + 2 * NKNOWN] + u)]
    if k == 4:
        return 0
    if k == 3:
        return 1
    if k == 2:
        return 2 if M[U(M[HDR + 2 * NSURR] + u)] >= 1 else -1
    if k == 1:
        return 3 if M[U(M[HDR + 2 * NSURR] + u)] >= 2 else -1
    return -1


@njit(cache=True, inline="always")
def surround_changed(M, u, delta):
    """``u`` became surrounded (delta +1) or stopped being (delta -1): its neighbours count
    it.  These counters and ``NKNOWN`` are all the pattern priorities need (section 5.1:
    "it just requires maintaining the number of instantiated and surrounded neighbors for
    each cell"); the class of a square is read from them when a square is chosen, once per
    decision, instead of being refiled at every placement and undo (most placements are
    probes and propagation, twenty times more than decisions)."""
    nbr = M[HDR + 2 * NBR] + u * 6
    nsurr = M[HDR + 2 * NSURR]
    for s in range(4):
        w = M[U(nbr + s)]
        if w >= 0:
            M[U(nsurr + w)] += delta


# ---------------------------------------------------------------------------- fit checks
@njit(cache=True, inline="always")
def fits(M, x, t, r):
    """Tile ``t`` in rotation ``r`` matches every known side of square ``x`` and shows no
    grey towards a neighbouring square."""
    for s in range(4):
        c = get2(M, SHOWN, t, r * 4 + s)
        k = get2(M, KNOWN, x, s)
        if k >= 0:
            if c != k:
                return False
        elif c == 0:
            return False
    return True


@njit(cache=True)
def fits_then(M, x, t, r, known):
    """:func:`fits` against the sides of ``x`` that were known when ``known`` (bit per
    side) was: the other sides only must not show grey."""
    for s in range(4):
        c = get2(M, SHOWN, t, r * 4 + s)
        if (known >> s) & 1:
            if c != get2(M, KNOWN, x, s):
                return False
        elif c == 0:
            return False
    return True


@njit(cache=True)
def fits_any(M, x, t):
    for i in range(get(M, NROT, t)):
        if fits(M, x, t, get2(M, ROTS, t, i)):
            return True
    return False


# ---------------------------------------------------------------------------- assign / unassign
@njit(cache=True)
def assign(M, x, t, r, level, decision):
    """Place tile ``t`` in rotation ``r`` on the empty square ``x`` and update everything.

    Returns False when the shared-edges bound or the cycle test fails (the placement is
    still made: the caller undoes it through the trail).  Table offsets are read once
    (``o_*``): this is the hottest function of the engine.
    """
    C = M[SC_C]
    o_sq_tile = M[HDR + 2 * SQ_TILE]
    o_nknown = M[HDR + 2 * NKNOWN]
    o_known = M[HDR + 2 * KNOWN] + x * 6
    o_side = M[HDR + 2 * FRAME_SIDE]
    o_dem_edges = M[HDR + 2 * DEM_EDGES]
    o_fdem = M[HDR + 2 * FDEM]
    o_sq_dem = M[HDR + 2 * SQ_DEM]
    o_tile = t * 6
    frame = M[U(M[HDR + 2 * FRAME_SQ] + x)]
    prev3 = M[SC_COUNT3]
    k = M[SC_TRAIL]
    M[U(M[HDR + 2 * TRAIL] + k)] = x
    M[SC_TRAIL] = k + 1
    M[U(M[HDR + 2 * ORDER_OF] + x)] = k
    M[U(M[HDR + 2 * LEVEL_OF] + x)] = level
    M[U(M[HDR + 2 * IS_DEC] + x)] = 1 if decision else 0
    M[U(o_sq_tile + x)] = t
    M[U(M[HDR + 2 * SQ_ROT] + x)] = r
    M[U(M[HDR + 2 * TILE_SQ] + t)] = x
    M[SC_PLACED] += 1
    if frame:
        M[SC_FRAME_PLACED] += 1
    # x leaves the empty squares
    nk = M[U(o_nknown + x)]
    if nk >= 3:
        M[SC_COUNT3] -= 1
    if nk >= 2:
        surround_changed(M, x, -1)
    # Fewer demands cannot start a rule while the contradiction rule is on: |Demand(p)| =
    # |Offer(p)| now would have been |Offer(p)| < |Demand(p)| before, already a failure.
    # (The pairs of the placed tile are queued below anyway: its offers shrink.)
    contra = M[CFG + CFG_CONTRADICTION] != 0
    for slot in range(6):
        p = M[U(o_sq_dem + x * 6 + slot)]
        if p >= 0:
            dem_remove_placed(M, p, x, slot)
            if not contra:
                push(M, p)
    for s in range(4):
        c = M[U(o_known + s)]
        if c > 0:
            M[U(o_dem_edges + c)] -= 1
            if M[U(o_side + x * 6 + s)]:
                M[U(o_fdem + c)] -= 1
    # t leaves the offers
    pb = M[U(M[HDR + 2 * PRE_BY] + t)]
    o_pairs = M[HDR + 2 * TPAIRS] + o_tile
    o_npre = M[HDR + 2 * NPRE]
    o_oel = M[HDR + 2 * OEL]
    o_ostart = M[HDR + 2 * OSTART]
    o_topos = M[HDR + 2 * TOPOS]
    o_tosav = M[HDR + 2 * TOSAV]
    o_osize = M[HDR + 2 * OSIZE]
    for j in range(M[U(M[HDR + 2 * NTP] + t)]):
        p = M[U(o_pairs + j)]
        offer_remove(M, o_oel + M[U(o_ostart + p)], o_topos, o_tosav, o_osize + p, t, j)
        if pb >= 0 and pb != p:
            M[U(o_npre + p)] -= 1
        push_live(M, p)
    o_cols = M[HDR + 2 * TCOLS] + o_tile
    o_cnt = M[HDR + 2 * TCOLCNT] + o_tile
    o_rem_edges = M[HDR + 2 * REM_EDGES]
    o_rem_tiles = M[HDR + 2 * REM_TILES]
    for j in range(4):
        c = M[U(o_cols + j)]
        if c < 0:
            break
        M[U(o_rem_edges + c)] -= M[U(o_cnt + j)]
        M[U(o_rem_tiles + c)] -= 1
    o_frame = M[HDR + 2 * TFRAME] + o_tile
    o_fm = M[HDR + 2 * FM]
    for j in range(2):
        c = M[U(o_frame + j)]
        if c > 0:
            M[U(o_fm + c)] -= 1
    # the neighbours learn a side
    opp = M[CFG + CFG_OPPOSITE] != 0
    o_nbr = M[HDR + 2 * NBR] + x * 6
    o_shown = M[HDR + 2 * SHOWN] + t * 16 + r * 4
    for s in range(4):
        u = M[U(o_nbr + s)]
        if u < 0:
            continue
        c = M[U(o_shown + s)]
        j = (s + 2) & 3
        ku = M[HDR + 2 * KNOWN] + u * 6
        M[U(ku + j)] = c
        nku = M[U(o_nknown + u)] + 1
        M[U(o_nknown + u)] = nku
        if M[U(o_sq_tile + u)] < 0:
            if c > 0:
                M[U(o_dem_edges + c)] += 1
                if M[U(o_side + u * 6 + j)]:
                    M[U(o_fdem + c)] += 1
            jm = (j + 3) & 3
            kb = M[U(ku + jm)]
            if kb >= 0:
                p = kb * C + c
                M[U(o_sq_dem + u * 6 + jm)] = p
                dem_add(M, p, u, jm)
            ka = M[U(ku + ((j + 1) & 3))]
            if ka >= 0:
                p = c * C + ka
                M[U(o_sq_dem + u * 6 + j)] = p
                dem_add(M, p, u, j)
            if opp:
                ko = M[U(ku + (j ^ 2))]
                if ko >= 0:
                    p = opp_pair(C, c, ko)
                    M[U(o_sq_dem + u * 6 + 4 + (j & 1))] = p
                    dem_add(M, p, u, 4 + (j & 1))
            if nku == 3:
                M[SC_COUNT3] += 1
            if nku == 2:
                surround_changed(M, u, 1)
    if prev3 > 0 and M[SC_COUNT3] == 0 and M[CFG + CFG_PREEMPTION] != 0:
        # preemption tags count again: every demanded pair is checked anew
        push_demanded(M)
    # section 4.2: reasoning on the remaining tiles
    if M[CFG + CFG_SHARED_EDGES] != 0:
        o_h = M[HDR + 2 * HVAL]
        for j in range(4):
            c = M[U(o_cols + j)]
            if c < 0:
                break
            if c > 0 and M[U(o_rem_edges + c)] - M[U(o_dem_edges + c)] > 2 * M[U(o_h + M[U(o_rem_tiles + c)])]:
                return shared_edges_failure(M, c)
    if frame and M[CFG + CFG_CYCLES] != 0:
        for j in range(2):
            c = M[U(o_frame + j)]
            if c > 0 and not cycle_ok(M, c):
                return False
    return True


@njit(cache=True)
def unassign(M, x):
    """Exact inverse of :func:`assign` (the trail calls it in reverse order)."""
    o_sq_tile = M[HDR + 2 * SQ_TILE]
    o_nknown = M[HDR + 2 * NKNOWN]
    o_side = M[HDR + 2 * FRAME_SIDE]
    o_dem_edges = M[HDR + 2 * DEM_EDGES]
    o_fdem = M[HDR + 2 * FDEM]
    o_sq_dem = M[HDR + 2 * SQ_DEM]
    t = M[U(o_sq_tile + x)]
    o_tile = t * 6
    opp = M[CFG + CFG_OPPOSITE] != 0
    o_nbr = M[HDR + 2 * NBR] + x * 6
    for s in range(3, -1, -1):
        u = M[U(o_nbr + s)]
        if u < 0:
            continue
        j = (s + 2) & 3
        ku = M[HDR + 2 * KNOWN] + u * 6
        c = M[U(ku + j)]
        empty = M[U(o_sq_tile + u)] < 0
        nku = M[U(o_nknown + u)]
        if empty:
            if nku == 2:
                surround_changed(M, u, -1)
            if nku == 3:
                M[SC_COUNT3] -= 1
            du = o_sq_dem + u * 6
            if opp:
                if M[U(ku + (j ^ 2))] >= 0:
                    slot = 4 + (j & 1)
                    dem_drop(M, M[U(du + slot)], u, slot)
                    M[U(du + slot)] = -1
            if M[U(ku + ((j + 1) & 3))] >= 0:
                dem_drop(M, M[U(du + j)], u, j)
                M[U(du + j)] = -1
            jm = (j + 3) & 3
            if M[U(ku + jm)] >= 0:
                dem_drop(M, M[U(du + jm)], u, jm)
                M[U(du + jm)] = -1
            if c > 0:
                M[U(o_dem_edges + c)] -= 1
                if M[U(o_side + u * 6 + j)]:
                    M[U(o_fdem + c)] -= 1
        M[U(ku + j)] = -1
        M[U(o_nknown + u)] = nku - 1
    o_frame = M[HDR + 2 * TFRAME] + o_tile
    o_fm = M[HDR + 2 * FM]
    for j in range(2):
        c = M[U(o_frame + j)]
        if c > 0:
            M[U(o_fm + c)] += 1
    o_cols = M[HDR + 2 * TCOLS] + o_tile
    o_cnt = M[HDR + 2 * TCOLCNT] + o_tile
    o_rem_edges = M[HDR + 2 * REM_EDGES]
    o_rem_tiles = M[HDR + 2 * REM_TILES]
    for j in range(4):
        c = M[U(o_cols + j)]
        if c < 0:
            break
        M[U(o_rem_edges + c)] += M[U(o_cnt + j)]
        M[U(o_rem_tiles + c)] += 1
    pb = M[U(M[HDR + 2 * PRE_BY] + t)]
    o_pairs = M[HDR + 2 * TPAIRS] + o_tile
    o_npre = M[HDR + 2 * NPRE]
    o_oel = M[HDR + 2 * OEL]
    o_ostart = M[HDR + 2 * OSTART]
    o_topos = M[HDR + 2 * TOPOS]
    o_tosav = M[HDR + 2 * TOSAV]
    o_osize = M[HDR + 2 * OSIZE]
    for j in range(M[U(M[HDR + 2 * NTP] + t)] - 1, -1, -1):
        p = M[U(o_pairs + j)]
        offer_add(M, o_oel + M[U(o_ostart + p)], o_topos, o_tosav, o_osize + p, t, j)
        if pb >= 0 and pb != p:
            M[U(o_npre + p)] += 1
    o_known = M[HDR + 2 * KNOWN] + x * 6
    for s in range(4):
        c = M[U(o_known + s)]
        if c > 0:
            M[U(o_dem_edges + c)] += 1
            if M[U(o_side + x * 6 + s)]:
                M[U(o_fdem + c)] += 1
    for slot in range(5, -1, -1):
        p = M[U(o_sq_dem + x * 6 + slot)]
        if p >= 0:
            dem_restore(M, p, x, slot)
    M[U(o_sq_tile + x)] = -1
    M[U(M[HDR + 2 * TILE_SQ] + t)] = -1
    M[SC_PLACED] -= 1
    if M[U(M[HDR + 2 * FRAME_SQ] + x)]:
        M[SC_FRAME_PLACED] -= 1
    nk = M[U(o_nknown + x)]
    if nk >= 2:
        surround_changed(M, x, 1)
    if nk >= 3:
        M[SC_COUNT3] += 1
    M[SC_TRAIL] -= 1


@njit(cache=True)
def untag(M, t):
    p = get(M, PRE_BY, t)
    o_npre = M[HDR + 2 * NPRE]
    o_pairs = M[HDR + 2 * TPAIRS] + t * 6
    for j in range(get(M, NTP, t)):
        q = M[U(o_pairs + j)]
        if q != p:
            M[U(o_npre + q)] -= 1
    put(M, PRE_BY, t, -1)
    M[SC_TRAIL] -= 1


@njit(cache=True)
def undo_to(M, mark):
    """Undo placements and tags until the trail has ``mark`` entries."""
    o_trail = M[HDR + 2 * TRAIL]
    while M[SC_TRAIL] > mark:
        e = M[U(o_trail + M[SC_TRAIL] - 1)]
        if e >= 0:
            unassign(M, e)
        else:
            untag(M, -e - 1)
    # dem_add during unassign pushes pairs; the queue only matters while propagating
    clear_queue(M)


# ---------------------------------------------------------------------------- explanations
@njit(cache=True)
def add_demand_neighbours(M, x, p, out):
    """The two known neighbours that make the empty square ``x`` demand ``p``."""
    for slot in range(6):
        if get2(M, SQ_DEM, x, slot) == p:
            a, b = slot_sides(slot)
            u = get2(M, NBR, x, a)
            if u >= 0:
                bit_set(M, out, u)
            v = get2(M, NBR, x, b)
            if v >= 0:
                bit_set(M, out, v)
            return


@njit(cache=True)
def add_refined(M, c, t, p, out):
    """Section 5.2's refinement for a placed tile ``t`` of ``Unavailable(p)`` on ``c``: when
    its neighbours on the two sides showing ``p`` are the outside or were placed before it,
    they explain the unavailability as well as ``c`` does, and are older.  Returns True
    when it used them."""
    C = M[SC_C]
    r = get(M, SQ_ROT, c)
    oc = get(M, ORDER_OF, c)
    for slot in range(6):
        a, b = slot_sides(slot)
        ca = get2(M, SHOWN, t, r * 4 + a)
        cb = get2(M, SHOWN, t, r * 4 + b)
        if slot < 4:
            q = cw_pair(C, ca, cb)
        else:
            q = opp_pair(C, ca, cb)
        if q != p:
            continue
        u = get2(M, NBR, c, a)
        v = get2(M, NBR, c, b)
        ok_u = u < 0 or (get(M, SQ_TILE, u) >= 0 and get(M, ORDER_OF, u) < oc)
        ok_v = v < 0 or (get(M, SQ_TILE, v) >= 0 and get(M, ORDER_OF, v) < oc)
        if ok_u and ok_v:
            if u >= 0:
                bit_set(M, out, u)
            if v >= 0:
                bit_set(M, out, v)
            return True
    return False


@njit(cache=True)
def pair_explanation(M, p, honour, out):
    """Why ``|Offer(p)| <= |Demand(p)|`` (section 5.2): the neighbours that make each
    square demand ``p``, the squares of the placed tiles showing ``p`` (or their older
    neighbours), and the recorded explanations of tiles preempted by other pairs."""
    bits_zero(M, out)
    for i in range(get(M, DSIZE, p)):
        add_demand_neighbours(M, get2(M, DEL, p, i), p, out)
    for i in range(get(M, OSIZE, p), get(M, OFULL, p)):
        t = offer_tile(M, p, i)
        c = get(M, TILE_SQ, t)
        if not add_refined(M, c, t, p, out):
            bit_set(M, out, c)
    if honour:
        for i in range(get(M, OSIZE, p)):
            t = offer_tile(M, p, i)
            q = get(M, PRE_BY, t)
            if q >= 0 and q != p:
                bits_or(M, out, preempt_row(M, t))


@njit(cache=True)
def domain_reason(M, x, p, honour, out):
    """Why the candidates of square ``x`` drawn from ``Offer(p)`` are all it has: its
    placed neighbours (they fix its known sides), the squares holding tiles that would fit
    it, and the explanations of fitting tiles preempted by other pairs.  ORed into ``out``.

    Section 5.2's refinement does not apply here: freeing a placed tile's square makes
    that tile a candidate again.  ``p = -1``: candidates come from every tile."""
    for s in range(4):
        u = get2(M, NBR, x, s)
        if u >= 0 and get(M, SQ_TILE, u) >= 0:
            bit_set(M, out, u)
    if p >= 0:
        for i in range(get(M, OSIZE, p), get(M, OFULL, p)):
            t = offer_tile(M, p, i)
            if fits_any(M, x, t):
                bit_set(M, out, get(M, TILE_SQ, t))
        if honour:
            for i in range(get(M, OSIZE, p)):
                t = offer_tile(M, p, i)
                q = get(M, PRE_BY, t)
                if q >= 0 and q != p and fits_any(M, x, t):
                    bits_or(M, out, preempt_row(M, t))
    else:
        for i in range(M[SC_TRAIL]):
            e = get(M, TRAIL, i)
            if e >= 0 and fits_any(M, x, get(M, SQ_TILE, e)):
                bit_set(M, out, e)
        if honour:
            for t in range(M[SC_NT]):
                if get(M, TILE_SQ, t) < 0 and get(M, PRE_BY, t) >= 0 and fits_any(M, x, t):
                    bits_or(M, out, preempt_row(M, t))


@njit(cache=True)
def instantiation_reason(M, x, out):
    """The reason of a square placed by the instantiation rule, worked out when the
    search needs it (most such squares are undone without ever being asked about), and
    ORed into ``out``.  It is :func:`domain_reason` as it was when ``x`` was placed: the
    square is still placed, so everything placed since is newer (``ORDER_OF``) and every
    preemption tag made since is newer (``TAG_POS``); those are left out, and the sides of
    ``x`` are those its older neighbours had fixed."""
    ox = get(M, ORDER_OF, x)
    v = get(M, WHY_P, x)
    p = v >> 1
    honour = (v & 1) != 0
    known = 0
    for s in range(4):
        u = get2(M, NBR, x, s)
        if u < 0:
            known |= 1 << s
        elif get(M, SQ_TILE, u) >= 0 and get(M, ORDER_OF, u) < ox:
            known |= 1 << s
            bit_set(M, out, u)
    for i in range(get(M, OFULL, p)):  # every tile showing p, in the row's current order
        t = offer_tile(M, p, i)
        c = get(M, TILE_SQ, t)
        if c >= 0 and get(M, ORDER_OF, c) < ox:  # in Unavailable(p) then
            if fits_any_then(M, x, t, known):
                bit_set(M, out, c)
        elif honour:  # in Offer(p) then
            q = get(M, PRE_BY, t)
            if q >= 0 and q != p and get(M, TAG_POS, t) < ox and fits_any_then(M, x, t, known):
                bits_or(M, out, preempt_row(M, t))


@njit(cache=True)
def fits_any_then(M, x, t, known):
    for i in range(get(M, NROT, t)):
        if fits_then(M, x, t, get2(M, ROTS, t, i), known):
            return True
    return False


@njit(cache=True)
def tile_has_colour(M, t, c):
    for j in range(4):
        if get2(M, TCOLS, t, j) == c:
            return True
    return False


@njit(cache=True)
def shared_edges_failure(M, c):
    """The bound ``m - m' <= 2 h(m'')`` failed for colour ``c``.  Explanation: the squares
    holding tiles of colour ``c`` (they fix m, m'' and, with their matching neighbours,
    which show ``c`` too, the demanded sides m')."""
    M[STATS + ST_FAIL_SHARED] += 1
    if M[CFG + CFG_BACKJUMP] != 0:
        out = misc_row(M, B_FEXP)
        bits_zero(M, out)
        for i in range(M[SC_TRAIL]):
            e = get(M, TRAIL, i)
            if e >= 0 and tile_has_colour(M, get(M, SQ_TILE, e), c):
                bit_set(M, out, e)
    return False


@njit(cache=True)
def other_frame_tile(M, c, not_tile):
    for i in range(get(M, NFTILES, c)):
        t = get2(M, FT, c, i)
        if get(M, TILE_SQ, t) < 0 and t != not_tile:
            return t
    return -1


@njit(cache=True)
def cycle_ok(M, c):
    """Section 4.2's cycle detection from frame colour ``c``.

    A frame colour with exactly two frame sides left, on two different tiles, and no
    empty frame square asking for it links those tiles: they must be neighbours along the
    frame.  Links are followed through each tile's other frame side; a chain that closes
    on itself cannot lie on what is left of the frame (a path) unless it is the whole
    frame of an empty board."""
    if get(M, FM, c) != 2 or get(M, FDEM, c) != 0:
        return True
    a = other_frame_tile(M, c, -1)
    b = other_frame_tile(M, c, a)
    if a < 0 or b < 0:
        return True
    n_cols = 0
    put(M, CYC_COLS, n_cols, c)
    n_cols += 1
    cur = b
    col = c
    for _ in range(M[SC_C] + 1):
        f0 = get2(M, TFRAME, cur, 0)
        f1 = get2(M, TFRAME, cur, 1)
        nxt_col = f1 if f0 == col else f0
        if nxt_col <= 0 or get(M, FM, nxt_col) != 2 or get(M, FDEM, nxt_col) != 0:
            return True
        nxt = other_frame_tile(M, nxt_col, cur)
        if nxt < 0:
            return True
        put(M, CYC_COLS, n_cols, nxt_col)
        n_cols += 1
        if nxt == a:
            if M[SC_FRAME_PLACED] == 0 and n_cols >= M[SC_NFRAME]:
                return True  # the whole frame of an empty board: a legitimate ring
            M[STATS + ST_FAIL_CYCLE] += 1
            if M[CFG + CFG_BACKJUMP] != 0:
                out = misc_row(M, B_FEXP)
                bits_zero(M, out)
                first_frame = -1
                for i in range(M[SC_TRAIL]):
                    e = get(M, TRAIL, i)
                    if e < 0:
                        continue
                    if first_frame < 0 and get(M, FRAME_SQ, e):
                        first_frame = e
                    tt = get(M, SQ_TILE, e)
                    for k in range(n_cols):
                        cc = get(M, CYC_COLS, k)
                        if get2(M, TFRAME, tt, 0) == cc or get2(M, TFRAME, tt, 1) == cc:
                            bit_set(M, out, e)
                            break
                if first_frame >= 0:
                    bit_set(M, out, first_frame)
            return False
        cur = nxt
        col = nxt_col
        if n_cols > M[SC_C]:
            return True
    return True


# ---------------------------------------------------------------------------- rules
@njit(cache=True)
def preempt(M, p):
    """Tag every untagged tile of ``Offer(p)`` as preempted by ``p`` (section 4.1)."""
    bj = M[CFG + CFG_BACKJUMP] != 0
    first = True
    why = misc_row(M, B_TMP2)
    for i in range(get(M, OSIZE, p)):
        t = offer_tile(M, p, i)
        if get(M, PRE_BY, t) >= 0:
            continue
        if first:
            first = False
            M[STATS + ST_PREEMPTIONS] += 1
            if bj:
                pair_explanation(M, p, True, why)
        put(M, PRE_BY, t, p)
        k = M[SC_TRAIL]
        put(M, TAG_POS, t, k)
        put(M, TRAIL, k, -t - 1)
        M[SC_TRAIL] = k + 1
        M[STATS + ST_PREEMPTED] += 1
        if bj:
            bits_copy(M, preempt_row(M, t), why)
        for j in range(get(M, NTP, t)):
            q = get2(M, TPAIRS, t, j)
            if q != p:
                put(M, NPRE, q, get(M, NPRE, q) + (1))
                push_live(M, q)


@njit(cache=True)
def instantiate(M, p, honour, level):
    """The one square demanding ``p`` gets the one tile left for ``p`` when exactly one of
    its rotations fits the square's known sides."""
    x = get2(M, DEL, p, 0)
    t = -1
    for i in range(get(M, OSIZE, p)):
        tt = offer_tile(M, p, i)
        if honour:
            q = get(M, PRE_BY, tt)
            if q >= 0 and q != p:
                continue
        t = tt
        break
    if t < 0:
        return True
    nfit = 0
    rr = int64(-1)  # typed int64 from the start, or Numba compiles assign for the literal too
    for i in range(get(M, NROT, t)):
        r = get2(M, ROTS, t, i)
        if fits(M, x, t, r):
            nfit += 1
            rr = r
    bj = M[CFG + CFG_BACKJUMP] != 0
    if nfit == 0:
        M[STATS + ST_FAIL_INST] += 1
        if bj:
            out = misc_row(M, B_FEXP)
            bits_zero(M, out)
            domain_reason(M, x, p, honour, out)
        return False
    if nfit > 1:
        return True
    M[STATS + ST_PROPAGATED] += 1
    ok = assign(M, x, t, rr, level, False)
    if bj:  # the reason is worked out if the search asks (instantiation_reason)
        put(M, WHY_P, x, 2 * p + (1 if honour else 0))
        put(M, IS_DEC, x, 2)
    count_node(M)
    return ok


@njit(cache=True)
def apply_rules(M, p, level, honour):
    """The rules for pair ``p`` when one of them may fire (:func:`may_fire`)."""
    d = M[U(M[HDR + 2 * DSIZE] + p)]
    a = available(M, p, honour)
    if a < d:
        if M[CFG + CFG_CONTRADICTION] != 0:
            M[STATS + ST_FAIL_PAIR] += 1
            if M[CFG + CFG_BACKJUMP] != 0:
                pair_explanation(M, p, honour, misc_row(M, B_FEXP))
            return False
        return True
    if a == d and honour:
        preempt(M, p)
    if a == 1 and d == 1 and M[CFG + CFG_INSTANTIATION] != 0:
        return instantiate(M, p, honour, level)
    return True


@njit(cache=True)
def propagate(M, level):
    """Apply the pair rules to every queued pair until the queue is empty (a fixed point)
    or a failure (explanation in the B_FEXP scratch bitset).  The common case, a pair
    with more available tiles than demands, is decided here without a call."""
    size = M[SC_P] + 1
    o_queue = M[HDR + 2 * QUEUE]
    o_in_q = M[HDR + 2 * IN_Q]
    preemption = M[CFG + CFG_PREEMPTION] != 0
    while M[SC_QHEAD] != M[SC_QTAIL]:
        h = M[SC_QHEAD]
        p = M[U(o_queue + h)]
        h += 1
        if h == size:
            h = 0
        M[SC_QHEAD] = h
        M[U(o_in_q + p)] = 0
        honour = preemption and M[SC_COUNT3] == 0
        if not may_fire(M, p, honour):
            continue
        if not apply_rules(M, p, level, honour):
            clear_queue(M)
            return False
    return True


@njit(cache=True)
def dem_add_initial(M, p, x, slot):
    """``dem_add`` without queueing (the set-up queues every demanded pair at once)."""
    dem_append(M, p, x, slot)
