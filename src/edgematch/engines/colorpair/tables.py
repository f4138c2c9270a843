"""Static tables and the mutable search state of the ColorPair engine, as NumPy arrays.

Everything the compiled kernel touches lives in one int64 array ``M`` (see the memory
layout below), built here once per puzzle.  The layout follows Benoist & Bourreau (2008), section 3:

* colour pairs: a *clockwise* pair ``(a, b)`` (a tile shows ``a`` then ``b`` on two
  consecutive sides, clockwise) has id ``a * C + b``; an *opposite* pair ``{a, b}`` (a tile
  shows them on two opposite sides) has id ``C * C + min * C + max``, so there are
  ``P = 2 * C * C`` ids for ``C`` colours (grey included), most of them never used;
* ``Offer(p)``: the unplaced tiles showing pair ``p``, a sparse set.  Its possible members
  are fixed (the tiles showing ``p``), so the rows of all pairs lie one after another in
  ``oel`` (``oel[ostart[p]:ostart[p] + ofull[p]]``), each entry ``tile * 8 + j`` where ``p``
  is the tile's ``j``-th pair, and a member's position is kept by tile and slot
  (``topos[tile, j]``): about ``6 * tiles`` entries in all, where a (pair x tile) table
  had ``2 C^2`` rows that the search touched all over, far beyond the first-level cache.
  The first ``osize[p]`` entries are the members; the placed tiles showing ``p`` (the
  paper's ``Unavailable(p)``) are the rest of the row: a removal swaps the tile to the end
  of the live part, so the set and its complement share one array.  The position a
  removed element came from is saved (``tosav``, ``sqsav``) so that putting it back swaps
  it back: undoing restores these sets to exactly their former order (the floating-point
  sums of the heuristics follow the order of ``Offer``, so a replayed subtree is then
  searched exactly as in the whole search);
* ``Demand(p)``: the empty squares with two known sides (a placed neighbour or the
  outside) showing ``p``, the same kind of sparse set over squares (``del[p, :dsize[p]]``),
  with positions kept by square and slot (``sqpos[square, slot]``, on every slot of the
  square that demands ``p``): a square whose known sides repeat (``a b a b``) asks for the
  same pair on two slots and is in the set once;
* the six *slots* of a square: slot ``i < 4`` is the clockwise pair on sides ``(i, i+1)``,
  slot 4 the opposite pair on sides (N, S) and slot 5 on (E, W); ``sq_dem[s, slot]``
  holds the pair a square demands there (or -1).

No per-square domains are kept: candidates are read from the smallest ``Offer`` a square
demands and checked against its known sides when the square is chosen.
"""

from __future__ import annotations

import numpy as np

from ...model import Puzzle
from ...model import tiles as T

# ---------------------------------------------------------------------------- config
# cfg: one int64 array of switches and parameters read by the kernel.
CFG_OPPOSITE = 0  # opposite colour pairs as well as clockwise ones
CFG_CONTRADICTION = 1  # |Offer| < |Demand| fails
CFG_INSTANTIATION = 2  # |Offer| = |Demand| = 1 places the tile
CFG_PREEMPTION = 3  # |Offer| = |Demand| tags the offered tiles (section 4.1)
CFG_SHARED_EDGES = 4  # shared-edges upper bound h(M) per colour (section 4.2)
CFG_CYCLES = 5  # border-colour cycle detection (section 4.2)
CFG_PATTERNS = 6  # pattern priorities of section 5.1
CFG_BACKJUMP = 7  # conflict-directed backjumping (section 5.2)
CFG_SHAVE = 8  # shaving limit L (-1: no shaving)
CFG_HEURISTIC = 9  # see HEURISTICS
CFG_VALUE_ORDER = 10  # see VALUE_ORDERS
CFG_SHAVE_REPEAT = 11  # shaving passes repeat until one places nothing (0: one pass per node)
CFG_SIZE = 12

HEURISTICS = {
    "min-offer": 0,
    "min-expected-offer": 1,
    "min-expected-gap": 2,
    "min-expected-ratio": 3,
    "max-expected-filtering": 4,
}
VALUE_ORDERS = {"tile": 0, "probability": 1, "reverse": 2}

# ---------------------------------------------------------------------------- statistics
STAT_NAMES = (
    "nodes",  # every (tile, rotation) placed, see docs/colorpair.md
    "decisions",  # placements made by branching
    "propagated",  # placements forced by the instantiation rule
    "probes",  # shaving probes (a tentative placement, then undone)
    "shaving_placements",  # placements forced by shaving (exactly one value survived)
    "shaving_failures",  # nodes failed because every value of some square failed its probe
    "backjumps",  # exhausted levels left by jumping over at least one level
    "levels_skipped",  # levels jumped over, summed
    "fail_pair",  # contradiction rule |Offer| < |Demand|
    "fail_instantiation",  # the only tile left for a square does not fit it
    "fail_shared_edges",  # shared-edges bound h(M)
    "fail_cycle",  # border-colour cycle
    "fail_empty_square",  # chosen square with no candidate (3 or 4 neighbours)
    "preemptions",  # preemption events (a pair reached |Offer| = |Demand|)
    "preempted_tiles",  # tiles tagged by those events
    "solutions",
    "leaves",  # split boards emitted
    "max_level",
    "pattern_choices",  # branching squares chosen by a pattern of section 5.1
    "pair_choices",  # branching squares chosen by the pair heuristic
)
STAT = {name: i for i, name in enumerate(STAT_NAMES)}
N_STATS = len(STAT_NAMES)

# ---------------------------------------------------------------------------- memory layout
# The whole state is ONE int64 array ``M`` (Numba updates the reference counts of every
# array passed in a tuple at every call, which made a state of many arrays ten to a
# hundred times slower).  ``M`` holds, in order: the scalars (``SC_*``), the statistics
# (``STATS + STAT[name]``), the switches (``CFG + CFG_*``), a header of one (offset,
# width) pair per table (``HDR + 2 * table``), then the tables, each a matrix stored row
# by row.  Kernels read ``get(M, table, i)`` / ``get2(M, table, i, j)``.
SC_COUNT3 = 0  # empty squares with 3 or 4 known sides
SC_DP_N = 1  # size of the set of demanded pairs
SC_TRAIL = 2  # trail length
SC_PLACED = 3  # placed squares
SC_FRAME_PLACED = 4  # placed frame squares
SC_QHEAD = 5
SC_QTAIL = 6
SC_ROOT_PLACED = 7  # placements before the search (hints, start board)
SC_N = 8  # squares
SC_NT = 9  # tiles
SC_C = 10  # colours (grey included)
SC_P = 11  # pair ids
SC_NFRAME = 12  # frame squares
SC_PRE_OFF = 13  # first row of the preemption explanations in BITS
SC_ACC_OFF = 14  # first row of the level conflict sets in BITS
SC_MISC_OFF = 15  # first row of the scratch bitsets in BITS
SC_W = 16  # words per bitset
SC_SIZE = 17
STATS = SC_SIZE
CFG = STATS + N_STATS
HDR = CFG + CFG_SIZE

# tables: vectors (one entry per square, pair, tile or colour) ...
(
    SQ_TILE,
    SQ_ROT,
    NKNOWN,
    NSURR,
    ORDER_OF,
    LEVEL_OF,
    IS_DEC,
    FRAME_SQ,
    LV_CELL,
    LV_PAIR,
    LV_MARK,
    LV_NCAND,
    LV_IDX,
    LV_HADSOL,
    OSIZE,
    OFULL,
    NPRE,
    DSIZE,
    DP_EL,
    DP_POS,
    QUEUE,
    IN_Q,
    NROT,
    NTP,
    PRE_BY,
    TILE_SQ,
    REM_EDGES,
    DEM_EDGES,
    REM_TILES,
    FM,
    FDEM,
    NFTILES,
    CYC_COLS,
    HVAL,
    TRAIL,
    PCAND,
    PDBUF,
    WHY_P,
    TAG_POS,
    NPD,
    # ... and matrices
    KNOWN,
    NBR,
    FRAME_SIDE,
    SQ_DEM,  # square x side (or slot)
    TILES,
    ROTS,
    TPAIRS,
    TCOLS,
    TCOLCNT,
    TFRAME,  # tile x 6
    SHOWN,  # tile x (rotation * 4 + side)
    OEL,
    OSTART,
    TOPOS,
    TOSAV,  # Offer sets: members of every pair, one after another
    DEL,
    SQPOS,
    SQSAV,  # Demand sets: pair x square; positions by square slot
    LVC,  # candidates: level x value
    FT,  # tiles with a frame side of a colour: colour x tile
    BITS,  # bitsets: row x word
) = range(61)
N_TABLES = 61
# scratch rows of BITS after M[SC_MISC_OFF]
B_FEXP, B_TMP1, B_TMP2, B_SHACC = range(4)
N_MISC = 4


class Layout:
    """Python-side view of ``M``: where each table lies (for building and reading)."""

    def __init__(self, shapes: dict[int, tuple[int, int]]):
        self.shapes = shapes
        self.offsets: dict[int, int] = {}
        pos = HDR + 2 * N_TABLES
        for tab in range(N_TABLES):
            rows, width = shapes[tab]
            self.offsets[tab] = pos
            pos += rows * width
        self.size = pos

    def view(self, M: np.ndarray, tab: int) -> np.ndarray:
        rows, width = self.shapes[tab]
        start = self.offsets[tab]
        return M[start : start + rows * width].reshape(rows, width)


def h_table(limit: int) -> np.ndarray:
    """h(M), the largest number of edges M unit squares can share (Benoist 2008), M = 0..limit.

    With ``s = floor(sqrt(M))``: ``2s(s-1)``, plus ``2(M - s^2) - 1`` when
    ``0 < M - s^2 <= s`` and ``2(M - s^2) - 2`` when ``s < M - s^2 <= 2s``.
    """
    out = np.zeros(limit + 1, np.int32)
    for m in range(limit + 1):
        s = int(np.floor(np.sqrt(m)))
        while (s + 1) * (s + 1) <= m:
            s += 1
        while s * s > m:
            s -= 1
        extra = m - s * s
        value = 2 * s * (s - 1)
        if 0 < extra <= s:
            value += 2 * extra - 1
        elif extra > s:
            value += 2 * extra - 2
        out[m] = value
    return out


def pair_ids(colours: int, a: int, b: int, opposite: bool) -> int:
    if opposite:
        lo, hi = (a, b) if a <= b else (b, a)
        return colours * colours + lo * colours + hi
    return a * colours + b


def tile_pair_list(edges, colours: int, opposite: bool) -> list[int]:
    """The distinct pairs a tile offers: 4 clockwise, then (optionally) 2 opposite."""
    out: list[int] = []
    for i in range(4):
        p = pair_ids(colours, int(edges[i]), int(edges[(i + 1) % 4]), False)
        if p not in out:
            out.append(p)
    if opposite:
        for i in range(2):
            p = pair_ids(colours, int(edges[i]), int(edges[i + 2]), True)
            if p not in out:
                out.append(p)
    return out


def build_state(puzzle: Puzzle, opposite: bool = True, each_rotation: bool = False) -> tuple[np.ndarray, Layout]:
    """A fresh memory ``M`` for ``puzzle``: empty board, every tile offered, border sides
    known (the kernel's ``init_state`` then fills the demands and pattern counters).

    The search tries the rotations listed per tile (``ROTS``): one per distinct look, or
    all four with ``each_rotation`` (a symmetric tile is then placed in every rotation)."""
    W, H = puzzle.width, puzzle.height
    n = W * H
    tiles = np.ascontiguousarray(puzzle.tiles, dtype=np.int64)
    nt = len(tiles)
    C = int(tiles.max()) + 1
    P = 2 * C * C
    nwords = (n + 63) // 64
    L = n + 2
    maxc = 4 * nt

    members: list[list[int]] = [[] for _ in range(P)]
    tile_pairs = []
    for t in range(nt):
        pl = tile_pair_list(tiles[t], C, opposite)
        tile_pairs.append(pl)
        for p in pl:
            members[p].append(t)
    frame_edges = []
    for t in range(nt):
        e = tiles[t]
        grey = [int(c) == 0 for c in e]
        if sum(grey) == 1:  # edge tile: the sides beside the grey one lie along the frame
            g = grey.index(True)
            frame_edges.append([int(e[(g + 1) % 4]), int(e[(g + 3) % 4])])
        elif sum(grey) == 2:  # corner: its two coloured sides
            frame_edges.append([int(e[i]) for i in range(4) if not grey[i]])
        else:
            frame_edges.append([-1, -1])
    ftiles: list[list[int]] = [[] for _ in range(C)]
    for t in range(nt):
        for c in sorted(set(x for x in frame_edges[t] if x > 0)):
            ftiles[c].append(t)
    maxf = max(1, max(len(x) for x in ftiles))

    vec = max(n + nt + 2, P + 1, maxc + 1, L + 1, C + 2, nt + 2)
    shapes = {tab: (1, vec) for tab in range(NPD + 1)}
    shapes.update(
        {
            KNOWN: (n, 6),
            NBR: (n, 6),
            FRAME_SIDE: (n, 6),
            SQ_DEM: (n, 6),
            TILES: (nt, 6),
            ROTS: (nt, 6),
            TPAIRS: (nt, 6),
            TCOLS: (nt, 6),
            TCOLCNT: (nt, 6),
            TFRAME: (nt, 6),
            SHOWN: (nt, 16),
            OEL: (1, 6 * nt),
            OSTART: (1, P + 1),
            TOPOS: (nt, 6),
            TOSAV: (nt, 6),
            DEL: (P, n),
            SQPOS: (n, 6),
            SQSAV: (n, 6),
            LVC: (L, maxc),
            FT: (C, maxf),
            BITS: (n + nt + L + N_MISC, nwords),
        }
    )
    layout = Layout(shapes)
    M = np.zeros(layout.size, np.int64)
    for tab in range(N_TABLES):
        M[HDR + 2 * tab] = layout.offsets[tab]
        M[HDR + 2 * tab + 1] = shapes[tab][1]

    views = {tab: layout.view(M, tab) for tab in range(N_TABLES)}

    def vector(tab):
        return views[tab][0]

    def table(tab):
        return views[tab]

    table(TILES)[:, :4] = tiles
    table(ROTS)[:] = -1
    table(TPAIRS)[:] = -1
    table(TCOLS)[:] = -1
    table(TFRAME)[:] = -1
    for r in range(4):
        table(SHOWN)[:, 4 * r : 4 * r + 4] = np.roll(tiles, r, axis=1)
    for t in range(nt):
        d = T.placement_rotations(tiles[t], each_rotation)
        vector(NROT)[t] = len(d)
        table(ROTS)[t, : len(d)] = d
        vector(NTP)[t] = len(tile_pairs[t])
        table(TPAIRS)[t, : len(tile_pairs[t])] = tile_pairs[t]
        table(TFRAME)[t, :2] = frame_edges[t]
        distinct = sorted(set(int(c) for c in tiles[t]))
        for i, c in enumerate(distinct):
            table(TCOLS)[t, i] = c
            table(TCOLCNT)[t, i] = int((tiles[t] == c).sum())
            vector(REM_TILES)[c] += 1
        for c in tiles[t]:
            vector(REM_EDGES)[int(c)] += 1
        for c in frame_edges[t]:
            if c > 0:
                vector(FM)[c] += 1
    start = 0
    for p, m in enumerate(members):
        vector(OFULL)[p] = len(m)
        vector(OSIZE)[p] = len(m)
        vector(OSTART)[p] = start
        for i, t in enumerate(m):
            j = tile_pairs[t].index(p)
            vector(OEL)[start + i] = t * 8 + j
            table(TOPOS)[t, j] = i
        start += len(m)
    vector(OSTART)[P] = start
    table(FT)[:] = -1
    for c, lst in enumerate(ftiles):
        vector(NFTILES)[c] = len(lst)
        table(FT)[c, : len(lst)] = lst

    table(NBR)[:] = -1
    table(KNOWN)[:] = -1
    table(SQ_DEM)[:] = -1
    for s in range(n):
        row, col = divmod(s, W)
        out = T.outer_sides(s, W, H)
        neighbours = (
            s - W if row > 0 else -1,
            s + 1 if col < W - 1 else -1,
            s + W if row < H - 1 else -1,
            s - 1 if col > 0 else -1,
        )
        table(NBR)[s, :4] = neighbours
        for side in range(4):
            if out[side]:
                table(KNOWN)[s, side] = 0
        if any(out):
            vector(FRAME_SQ)[s] = 1
            for side in range(4):
                # a frame join: between two frame squares, along the frame
                u = neighbours[side]
                if not out[side] and u >= 0 and any(T.outer_sides(u, W, H)) and _along_frame(s, u, W, H):
                    table(FRAME_SIDE)[s, side] = 1
        vector(NKNOWN)[s] = sum(out)

    vector(SQ_TILE)[:n] = -1
    vector(TILE_SQ)[:nt] = -1
    vector(PRE_BY)[:nt] = -1
    vector(DP_POS)[:P] = -1
    vector(HVAL)[: nt + 2] = h_table(nt + 1)

    M[SC_N] = n
    M[SC_NT] = nt
    M[SC_C] = C
    M[SC_P] = P
    M[SC_NFRAME] = int(vector(FRAME_SQ)[:n].sum())
    M[SC_PRE_OFF] = n
    M[SC_ACC_OFF] = n + nt
    M[SC_MISC_OFF] = n + nt + L
    M[SC_W] = nwords
    return M, layout


def _along_frame(s: int, u: int, W: int, H: int) -> bool:
    """True when the join between frame squares ``s`` and ``u`` lies along the frame.

    Two frame squares can also be neighbours across the inside on boards two squares
    wide or tall; such a join is an inner join of both tiles, not a frame join.
    """
    rs, cs = divmod(s, W)
    ru, cu = divmod(u, W)
    if rs == ru:  # horizontal neighbours: a frame join only in the top or bottom row
        return rs == 0 or rs == H - 1
    return cs == 0 or cs == W - 1  # vertical neighbours: only in the outer columns
