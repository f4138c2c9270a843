"""The tree search of Benoist & Bourreau (2008), section 5, compiled.

One iterative loop over an explicit stack of *levels* (one per branching decision), fully
resumable: all its state is in arrays, so Python can run it in slices (node budgets, time
limits, Ctrl-C, draining solutions) and go on exactly where it stopped.

Branching (section 5.1): the first square of the first non-empty pattern class (four
known sides, three, two and a surrounded neighbour, one and two surrounded neighbours,
in which case its smallest surrounded neighbour), else the most urgent demanded pair by
the chosen heuristic and its smallest demanding square.  Candidates: the tiles of the
smallest ``Offer`` the square demands (preempted tiles of other pairs left out while
preemptions are honoured), in every distinct rotation that fits the known sides.
Squares, pairs and candidates are taken in index order on ties, so the tree depends on
the board only, never on the order of the sparse sets.

Shaving with limit ``L``: at every node, every empty square with two or more known sides
and at most ``L`` candidates is probed (place, propagate, undo); no survivor fails the
node, one survivor is placed.  Passes repeat until one places nothing.

Backjumping (section 5.2): every level keeps a conflict set (bitset of squares); a failed
value adds the failure's explanation, *resolved* for the level (squares placed at that
level by propagation are replaced by the reasons recorded for them, the level's decision
square is dropped), so that the set names only squares of older levels.  It starts as
the reason of the square's candidate list (its placed neighbours, the squares of placed
tiles that would fit, explanations of preempted tiles).  When the level is exhausted the
search jumps to the newest level in the set.  A level whose subtree held a solution
backtracks chronologically.
"""

from __future__ import annotations

from numba import int64, njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .filtering import (
    assign,
    at2,
    available,
    bit_clear,
    bit_test,
    bits_copy,
    bits_or,
    bits_zero,
    count_node,
    dem_add_initial,
    domain_reason,
    fits,
    get,
    get2,
    honoured,
    instantiation_reason,
    misc_row,
    offer_tile,
    propagate,
    push_demanded,
    put,
    put2,
    reason_row,
    square_class,
    undo_to,
    unmanaged,
)
from .tables import (
    B_FEXP,
    B_SHACC,
    B_TMP1,
    BITS,
    CFG,
    CFG_BACKJUMP,
    CFG_HEURISTIC,
    CFG_OPPOSITE,
    CFG_PATTERNS,
    CFG_SHAVE,
    CFG_SHAVE_REPEAT,
    CFG_VALUE_ORDER,
    DEL,
    DP_EL,
    DSIZE,
    HDR,
    IS_DEC,
    KNOWN,
    LEVEL_OF,
    LV_CELL,
    LV_HADSOL,
    LV_IDX,
    LV_MARK,
    LV_NCAND,
    LV_PAIR,
    LVC,
    NBR,
    NKNOWN,
    NROT,
    NSURR,
    NTP,
    OSIZE,
    PCAND,
    PRE_BY,
    ROTS,
    SC_ACC_OFF,
    SC_C,
    SC_COUNT3,
    SC_DP_N,
    SC_N,
    SC_NT,
    SC_PLACED,
    SC_ROOT_PLACED,
    SC_TRAIL,
    SC_W,
    SQ_DEM,
    SQ_ROT,
    SQ_TILE,
    STAT,
    STATS,
    TILE_SQ,
    TPAIRS,
    TRAIL,
)

FINISHED = 0
BUDGET = 1
BUFFER = 2

MODE_NODE = 0
MODE_NEXT = 1

ST_DECISIONS = STAT["decisions"]
ST_PROBES = STAT["probes"]
ST_SHAVE_PLACE = STAT["shaving_placements"]
ST_SHAVE_FAIL = STAT["shaving_failures"]
ST_BACKJUMPS = STAT["backjumps"]
ST_SKIPPED = STAT["levels_skipped"]
ST_EMPTY = STAT["fail_empty_square"]
ST_SOLUTIONS = STAT["solutions"]
ST_LEAVES = STAT["leaves"]
ST_MAX_LEVEL = STAT["max_level"]
ST_PATTERN = STAT["pattern_choices"]
ST_PAIR = STAT["pair_choices"]
ST_NODES = STAT["nodes"]

BIG = 1 << 30


@njit(cache=True)
def level_row(M, d):
    """The conflict set of level ``d`` (a row of BITS)."""
    return M[SC_ACC_OFF] + d


# ---------------------------------------------------------------------------- explanations
@njit(cache=True)
def max_level(M, row):
    best = 0
    for w in range(M[SC_W]):
        word = get2(M, BITS, row, w)
        while word != 0:
            lv = get(M, LEVEL_OF, w * 64 + trailing_zeros(word))
            if lv > best:
                best = lv
            word &= word - 1
    return best


@njit(cache=True)
def resolve(M, row, seg_start):
    """Remove from ``bits`` the squares placed since trail position ``seg_start`` (one
    level), replacing each propagated one by its recorded reason, newest first."""
    for i in range(M[SC_TRAIL] - 1, seg_start - 1, -1):
        e = get(M, TRAIL, i)
        if e < 0:
            continue
        if bit_test(M, row, e):
            bit_clear(M, row, e)
            kind = get(M, IS_DEC, e)
            if kind == 0:  # placed by shaving: its reason was recorded
                bits_or(M, row, reason_row(M, e))
            elif kind == 2:  # placed by the instantiation rule
                instantiation_reason(M, e, row)


# ---------------------------------------------------------------------------- branching
@njit(cache=True)
def tile_weight(M, t, p, honour):
    """P(t -> p) of section 5.1: the product over the tile's other demanded pairs q of
    (1 - |Demand(q)| / available(q))."""
    prob = 1.0
    for j in range(get(M, NTP, t)):
        q = get2(M, TPAIRS, t, j)
        if q == p:
            continue
        d = get(M, DSIZE, q)
        if d == 0:
            continue
        a = available(M, q, honour)
        if a <= 0:
            return 0.0
        prob *= 1.0 - d / a
    return prob


@njit(cache=True)
def expected_offer(M, p, honour):
    e = 0.0
    for i in range(get(M, OSIZE, p)):
        e += tile_weight(M, offer_tile(M, p, i), p, honour)
    return e


@njit(cache=True)
def select_pair(M, honour):
    heuristic = M[CFG + CFG_HEURISTIC]
    best = -1
    best_value = 1e300
    for i in range(M[SC_DP_N]):
        p = get(M, DP_EL, i)
        d = get(M, DSIZE, p)
        a = available(M, p, honour)
        if heuristic == 0:
            value = float(a)
        else:
            e = expected_offer(M, p, honour)
            if heuristic == 1:
                value = e
            elif heuristic == 2:
                value = e - d
            elif heuristic == 3:
                value = e / d
            else:
                value = e - a
        if value < best_value or (value == best_value and p < best):
            best_value = value
            best = p
    return best


@njit(cache=True)
def pattern_square(M):
    """The smallest empty square of the most constrained pattern class of section 5.1
    (-1: none), read from the counters of known and surrounded neighbours."""
    best_class = 4
    best = -1
    o_sq_tile = M[HDR + 2 * SQ_TILE]
    for x in range(M[SC_N]):
        if M[o_sq_tile + x] < 0:
            k = square_class(M, x)
            if k >= 0 and k < best_class:
                best_class = k
                best = x
                if k == 0:
                    break
    if best < 0 or best_class < 3:
        return best
    x = best
    best = -1
    for s in range(4):
        u = get2(M, NBR, x, s)
        if u >= 0 and get(M, SQ_TILE, u) < 0 and get(M, NKNOWN, u) >= 2 and (best < 0 or u < best):
            best = u
    return best


@njit(cache=True)
def select_square(M):
    """The square to branch on (section 5.1)."""
    if M[CFG + CFG_PATTERNS] != 0:
        x = pattern_square(M)
        if x >= 0:
            M[STATS + ST_PATTERN] += 1
            return x
    p = select_pair(M, honoured(M))
    if p < 0:
        for x in range(M[SC_N]):
            if get(M, SQ_TILE, x) < 0:
                return x
        return -1
    M[STATS + ST_PAIR] += 1
    best = get2(M, DEL, p, 0)
    for i in range(1, get(M, DSIZE, p)):
        x = get2(M, DEL, p, i)
        if x < best:
            best = x
    return best


@njit(cache=True)
def square_pair(M, x, honour):
    """The pair demanded by ``x`` with the fewest available tiles (-1: none)."""
    best = -1
    best_a = BIG
    for slot in range(6):
        p = get2(M, SQ_DEM, x, slot)
        if p >= 0:
            a = available(M, p, honour)
            if a < best_a or (a == best_a and p < best):
                best_a = a
                best = p
    return best


@njit(cache=True, inline="always")
def add_fitting(M, x, t, buf, n, limit):
    """Append the distinct rotations of tile ``t`` that fit square ``x`` to the ``n``
    values at M[buf:]; returns the new count, or ``limit + 1`` past the limit."""
    for k in range(get(M, NROT, t)):
        r = get2(M, ROTS, t, k)
        if fits(M, x, t, r):
            if n >= limit:
                return limit + 1
            M[buf + n] = t * 4 + r
            n += 1
    return n


@njit(cache=True)
def candidates(M, x, p, honour, buf, limit):
    """Fitting (tile * 4 + rotation) values of square ``x`` into M[buf:]; stops and returns
    ``limit + 1`` as soon as there are more than ``limit``."""
    n = 0
    if p >= 0:
        for i in range(get(M, OSIZE, p)):
            t = offer_tile(M, p, i)
            if honour:
                q = get(M, PRE_BY, t)
                if q >= 0 and q != p:
                    continue
            n = add_fitting(M, x, t, buf, n, limit)
            if n > limit:
                return n
    else:
        for t in range(M[SC_NT]):
            if get(M, TILE_SQ, t) >= 0 or (honour and get(M, PRE_BY, t) >= 0):
                continue
            n = add_fitting(M, x, t, buf, n, limit)
            if n > limit:
                return n
    return n


@njit(cache=True)
def order_values(M, p, honour, buf, n, weights):
    """Sort values: by tile then rotation (0), by decreasing P(t -> p) (1), reversed (2)."""
    for i in range(1, n):
        v = M[buf + i]
        j = i - 1
        while j >= 0 and M[buf + j] > v:
            M[buf + j + 1] = M[buf + j]
            j -= 1
        M[buf + j + 1] = v
    order = M[CFG + CFG_VALUE_ORDER]
    if order == 2:
        for i in range(n // 2):
            v = M[buf + i]
            M[buf + i] = M[buf + n - 1 - i]
            M[buf + n - 1 - i] = v
    elif order == 1 and p >= 0:
        for i in range(n):
            weights[i] = tile_weight(M, M[buf + i] >> 2, p, honour)
        for i in range(1, n):  # stable insertion sort by decreasing weight
            v = M[buf + i]
            wv = weights[i]
            j = i - 1
            while j >= 0 and weights[j] < wv:
                M[buf + j + 1] = M[buf + j]
                weights[j + 1] = weights[j]
                j -= 1
            M[buf + j + 1] = v
            weights[j + 1] = wv


# ---------------------------------------------------------------------------- shaving
@njit(cache=True)
def shave(M, level):
    """Probe every square with two or more known sides and at most L values."""
    limit = M[CFG + CFG_SHAVE]
    bj = M[CFG + CFG_BACKJUMP] != 0
    fexp = misc_row(M, B_FEXP)
    acc = misc_row(M, B_SHACC)
    buf = at2(M, PCAND, 0, 0)
    changed = True
    while changed:
        changed = False
        for y in range(M[SC_N]):
            if get(M, SQ_TILE, y) >= 0 or get(M, NKNOWN, y) < 2:
                continue
            honour = honoured(M)
            p = square_pair(M, y, honour)
            cnt = candidates(M, y, p, honour, buf, limit)
            if cnt > limit:
                continue
            if bj:
                bits_zero(M, acc)
            survivors = 0
            keep = -1
            for i in range(cnt):
                v = M[buf + i]
                mark = M[SC_TRAIL]
                M[STATS + ST_PROBES] += 1
                ok = assign(M, y, v >> 2, v & 3, level + 1, True)
                count_node(M)
                if ok:
                    ok = propagate(M, level + 1)
                if ok:
                    survivors += 1
                    keep = v
                elif bj:
                    resolve(M, fexp, mark)
                    bits_or(M, acc, fexp)
                undo_to(M, mark)
                if survivors >= 2:
                    break
            if survivors == 0:
                M[STATS + ST_SHAVE_FAIL] += 1
                if cnt == 0:
                    M[STATS + ST_EMPTY] += 1
                if bj:
                    bits_copy(M, fexp, acc)
                    domain_reason(M, y, p, honour, fexp)
                return False
            if survivors == 1:
                if bj:
                    why = reason_row(M, y)
                    bits_copy(M, why, acc)
                    domain_reason(M, y, p, honour, why)
                M[STATS + ST_SHAVE_PLACE] += 1
                ok = assign(M, y, keep >> 2, keep & 3, level, False)
                count_node(M)
                if ok:
                    ok = propagate(M, level)
                if not ok:
                    return False
                changed = M[CFG + CFG_SHAVE_REPEAT] != 0
    return True


# ---------------------------------------------------------------------------- set-up
@njit(cache=True)
def init_state(M):
    """Demands and surrounded counts of the empty board (border sides
    known), before any tile is placed."""
    M = unmanaged(M)
    C = M[SC_C]
    n = M[SC_N]
    opp = M[CFG + CFG_OPPOSITE] != 0
    for x in range(n):
        for slot in range(4):
            a = get2(M, KNOWN, x, slot)
            b = get2(M, KNOWN, x, (slot + 1) & 3)
            if a >= 0 and b >= 0:
                p = a * C + b
                put2(M, SQ_DEM, x, slot, p)
                dem_add_initial(M, p, x, slot)
        if opp:
            for j in range(2):
                a = get2(M, KNOWN, x, j)
                b = get2(M, KNOWN, x, j + 2)
                if a >= 0 and b >= 0:
                    p = C * C + min(a, b) * C + max(a, b)
                    put2(M, SQ_DEM, x, 4 + j, p)
                    dem_add_initial(M, p, x, 4 + j)
        if get(M, NKNOWN, x) >= 3:
            M[SC_COUNT3] += 1
    for x in range(n):
        if get(M, NKNOWN, x) >= 2:
            for s in range(4):
                u = get2(M, NBR, x, s)
                if u >= 0:
                    put(M, NSURR, u, get(M, NSURR, u) + (1))


@njit(cache=True)
def place_root(M, squares, tiles, rotations):
    """Place the hints and the start board at level 0, then propagate and shave.
    Returns False when they contradict each other or the rules (no solution below)."""
    M = unmanaged(M)
    root = int64(0)  # not the literal 0: Numba would compile every callee again for it
    for i in range(squares.shape[0]):
        x = squares[i]
        t = tiles[i]
        r = rotations[i]
        if get(M, SQ_TILE, x) >= 0 or get(M, TILE_SQ, t) >= 0 or not fits(M, x, t, r):
            return False
        if not assign(M, x, t, r, root, True):
            return False
    M[SC_ROOT_PLACED] = M[SC_PLACED]
    push_demanded(M)
    if not propagate(M, root):
        return False
    if M[CFG + CFG_SHAVE] >= 0 and not shave(M, root):
        return False
    return True


@njit(cache=True)
def replay(M, path):
    """Re-make the decisions of ``path`` (rows of square, tile * 4 + rotation) as levels
    1..k, exactly as the search made them, so that the subtree below is searched in the
    same state as in the whole search.  Returns False when a decision fails."""
    M = unmanaged(M)
    for i in range(path.shape[0]):
        d = i + 1
        x = path[i, 0]
        v = path[i, 1]
        put(M, LV_CELL, d, x)
        put(M, LV_PAIR, d, -1)
        put(M, LV_MARK, d, M[SC_TRAIL])
        put2(M, LVC, d, 0, v)
        put(M, LV_NCAND, d, 1)
        put(M, LV_IDX, d, 1)
        put(M, LV_HADSOL, d, 0)
        bits_zero(M, level_row(M, d))
        if get(M, SQ_TILE, x) >= 0 or get(M, TILE_SQ, v >> 2) >= 0 or not fits(M, x, v >> 2, v & 3):
            return False
        ok = assign(M, x, v >> 2, v & 3, d, True)
        if ok:
            ok = propagate(M, d)
        if ok and M[CFG + CFG_SHAVE] >= 0:
            ok = shave(M, d)
        if not ok:
            return False
    return True


# ---------------------------------------------------------------------------- the search
@njit(cache=True, nogil=True)
def search(M, st, budget, out_boards, out_paths, weights):
    """Run until finished, ``budget`` more nodes, or ``out_boards`` full.

    ``st`` = [mode, level, start level, leaf level, rows written]: a leaf is a complete
    board (a solution) or, for splitting, a consistent node at the leaf level.  Each leaf
    is copied to the next row of ``out_boards`` (placement ``tile * 4 + rotation`` per
    square, -1 empty) and its decisions to ``out_paths`` (square, value per level) when
    those arrays have rows.  Returns the status.
    """
    M = unmanaged(M)
    bj = M[CFG + CFG_BACKJUMP] != 0
    n = M[SC_N]
    mode = st[0]
    d = st[1]
    start = st[2]
    leaf = st[3]
    st[4] = 0
    nodes0 = M[STATS + ST_NODES]
    rows = out_boards.shape[0]
    fexp = misc_row(M, B_FEXP)
    tmp = misc_row(M, B_TMP1)
    while True:
        if mode == MODE_NODE:
            complete = M[SC_PLACED] == n
            if complete or d == leaf:
                if complete:
                    M[STATS + ST_SOLUTIONS] += 1
                else:
                    M[STATS + ST_LEAVES] += 1
                k = st[4]
                if k < rows:
                    for x in range(n):
                        t = get(M, SQ_TILE, x)
                        out_boards[k, x] = -1 if t < 0 else t * 4 + get(M, SQ_ROT, x)
                    if out_paths.shape[1] > 0:
                        for lv in range(1, d + 1):
                            if 2 * (lv - start) - 1 < out_paths.shape[1] and lv > start:
                                out_paths[k, 2 * (lv - start) - 2] = get(M, LV_CELL, lv)
                                out_paths[k, 2 * (lv - start) - 1] = get2(M, LVC, lv, get(M, LV_IDX, lv) - 1)
                    st[4] = k + 1
                for lv in range(1, d + 1):
                    put(M, LV_HADSOL, lv, 1)
                if d == start:
                    st[0] = MODE_NEXT
                    st[1] = d
                    return FINISHED
                mode = MODE_NEXT
                if rows > 0 and st[4] >= rows:
                    st[0] = mode
                    st[1] = d
                    return BUFFER
                continue
            x = select_square(M)
            honour = honoured(M)
            p = square_pair(M, x, honour)
            d += 1
            if d > M[STATS + ST_MAX_LEVEL]:
                M[STATS + ST_MAX_LEVEL] = d
            put(M, LV_CELL, d, x)
            put(M, LV_PAIR, d, p)
            put(M, LV_MARK, d, M[SC_TRAIL])
            put(M, LV_IDX, d, 0)
            put(M, LV_HADSOL, d, 0)
            cnt = candidates(M, x, p, honour, at2(M, LVC, d, 0), BIG)
            order_values(M, p, honour, at2(M, LVC, d, 0), cnt, weights)
            put(M, LV_NCAND, d, cnt)
            if cnt == 0:
                M[STATS + ST_EMPTY] += 1
            if bj:
                acc = level_row(M, d)
                bits_zero(M, acc)
                domain_reason(M, x, p, honour, acc)
            mode = MODE_NEXT
        else:
            undo_to(M, get(M, LV_MARK, d))
            i = get(M, LV_IDX, d)
            if i < get(M, LV_NCAND, d):
                if M[STATS + ST_NODES] - nodes0 >= budget:
                    st[0] = mode
                    st[1] = d
                    return BUDGET
                v = get2(M, LVC, d, i)
                put(M, LV_IDX, d, i + 1)
                x = get(M, LV_CELL, d)
                M[STATS + ST_DECISIONS] += 1
                ok = assign(M, x, v >> 2, v & 3, d, True)
                count_node(M)
                if ok:
                    ok = propagate(M, d)
                if ok and M[CFG + CFG_SHAVE] >= 0:
                    ok = shave(M, d)
                if ok:
                    mode = MODE_NODE
                elif bj:
                    resolve(M, fexp, get(M, LV_MARK, d))
                    bits_or(M, level_row(M, d), fexp)
            else:
                if bj and get(M, LV_HADSOL, d) == 0:
                    h = max_level(M, level_row(M, d))
                else:
                    h = d - 1
                if h <= start:
                    undo_to(M, get(M, LV_MARK, start + 1))
                    st[0] = MODE_NEXT
                    st[1] = start
                    return FINISHED
                if h < d - 1:
                    M[STATS + ST_BACKJUMPS] += 1
                    M[STATS + ST_SKIPPED] += d - 1 - h
                undo_to(M, get(M, LV_MARK, h + 1))
                if bj and get(M, LV_HADSOL, h) == 0:
                    bits_copy(M, tmp, level_row(M, d))
                    resolve(M, tmp, get(M, LV_MARK, h))
                    bits_or(M, level_row(M, h), tmp)
                d = h
                mode = MODE_NEXT
