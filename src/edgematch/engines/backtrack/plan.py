"""Everything the compiled kernels need, precomputed with NumPy: a :class:`SearchPlan`.

The kernels know nothing about puzzles.  They see flat integer arrays:

* ``pcol``: the colour shown on each side by each *placement* ``p = tile * 4 + rotation``,
  as a dense colour number ``0 .. C-1`` (grey is ``-1``; it never takes part in a look-up
  because grey sides face the outside and outside sides are never "known" sides).
* For each depth ``d`` of the search (the ``d``-th square of the order, hints left out),
  the sides of the square whose neighbour is already on the board when the square is
  reached (placed earlier in the order, or a hint).  Those are the *known* sides.
* Candidate tables.  A square's *pattern* is (which sides face the outside, which sides
  are known).  For each pattern used, every placement that shows grey on exactly the
  outside sides (corner, edge and inner classes follow from that) is filed under a key
  made of its colours on the known sides, ``key = sum(colour_i * C**i)``, in CSR form:
  ``cand[starts[base + key] : starts[base + key + 1]]``.  A row scan has two known sides
  (W and N), a spiral up to four, a hint adds one; all of them use the same mechanism.
  When ``C ** k`` would make a table too large, only the first sides form the key and the
  others are compared explicitly ("check" sides); that keeps any colour count workable.

Fixed rotations (a :class:`~edgematch.model.rotation_sets.RotationSet`): only placement
``t * 4 + rotations[t]`` of each tile that is not a hint is filed in the tables, so the
kernels search the puzzle with every tile's rotation fixed without a test in their loops.

Colour-split tables (checkerboard parity): when the rotation set gives every tile a
square colour (``square_parity``: black where ``row + col`` is even), or with
``colour_tables=True``, a table also belongs to one square colour: its identity is
``(outer pattern, key sides, square colour)`` and each depth uses the table of its
square's colour.  A tile with a colour is filed only in tables of that colour; without a
rotation set (or with one without colours) every placement is filed in the tables of
both colours, so that another kernel can restrict the plan to any rotation set later.

Layout of the tables, for such a kernel: the tables follow each other in ``cand`` and in
``starts``.  A table with ``K`` keys occupies the ``K + 1`` entries ``starts[base] ..
starts[base + K]`` (its key ``k`` lists ``cand[starts[base + k] : starts[base + k + 1]]``);
the next table begins at ``base + K + 1`` and its first entry equals this table's last, so
every ``starts[i] .. starts[i + 1]`` of the whole array is a valid range (empty between
two tables).  ``cand_colour[i]`` is the square colour of the table that ``cand[i]``
belongs to (-1 when the tables are not split).  Restricting the plan to a rotation set is
therefore one pass: for every ``i`` keep ``cand[i]`` when its rotation is the set's and
its tile's colour equals ``cand_colour[i]`` (or that is -1), and recompute every
``starts`` entry as the number of entries kept before it; the rows need no change.

Best mode (invalid joins allowed) adds *phases* per depth: phase ``S`` lists the
placements that mismatch exactly the known sides in ``S``.  It looks them up in the table
of the pattern without ``S`` (keyed on the sides that must match) and checks that each side
of ``S`` really differs.  Phases run in order of ``len(S)``, so exact fits are tried first
and every placement appears in exactly one phase.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ...errors import InputError
from ...model import Puzzle
from ...model import tiles as T
from ...model.rotation_sets import RotationSet, square_parity

KEY_LIMIT = 1 << 20  # largest key space of one table (C ** k entries)
MAX_PHASES = 16  # subsets of at most 4 known sides

OPPOSITE = (2, 3, 0, 1)
NEIGHBOUR_STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W as (drow, dcol)


# Columns of a phase row (one row per depth and phase), shared with the kernels.
P_BASE = 0  # offset of the pattern's table in ``starts``
P_NKEY = 1  # known sides that form the key (0..4)
P_KEY = 2  # 4 x (neighbour square, neighbour's side facing us, multiplier C**i)
P_NCHK = 14  # sides compared explicitly (0..4)
P_CHK = 15  # 4 x (neighbour square, neighbour's side, our side, 1 = must match / 0 = must differ)
P_ERR = 31  # mismatched sides of the phase (best mode)
P_WIDTH = 32


@dataclass
class SearchPlan:
    """Arrays for the kernels plus what Python needs to translate results back."""

    puzzle: Puzzle
    order: np.ndarray  # int64 squares of the search, depth by depth (hints left out)
    n_colours: int
    pcol: np.ndarray  # int32 (n_tiles * 4 * 4,): dense colour of placement p on side s at p*4+s
    cand: np.ndarray  # int32 placements, grouped by key
    starts: np.ndarray  # int32 CSR offsets into cand (tables one after another: see the module notes)
    n_phases: np.ndarray  # int64 (D,): phases of each depth (1 in exact search)
    phases: np.ndarray  # int64 (D, P, P_WIDTH): see the P_* columns
    known_joins: np.ndarray  # int64 (D,): inner joins completed by placing at depth d
    board0: np.ndarray  # int32 (n_squares,): hint placements, -1 elsewhere
    used0: np.ndarray  # uint8 (n_tiles,)
    #: int8, aligned with ``cand``: the square colour (BLACK 0 / WHITE 1) of the table each
    #: entry belongs to, -1 when the tables are not split by colour
    cand_colour: np.ndarray
    #: int8 (D,): the square colour of each depth's tables, -1 when not split
    depth_colour: np.ndarray
    #: the tile rotations fixed by a rotation set (int64 (n_tiles,)), or None
    fixed_rotations: np.ndarray | None = None
    #: the square colours fixed by a rotation set with parity (int64 (n_tiles,)), or None
    fixed_colours: np.ndarray | None = None
    #: why no solution can exist whatever is searched (the rotation set contradicts a
    #: hint), or None
    void: str | None = None

    @property
    def depth(self) -> int:
        return len(self.order)

    def exact_phases(self) -> np.ndarray:
        """The phase-0 rows (exact fits), contiguous (D, P_WIDTH), for the exact kernel."""
        return np.ascontiguousarray(self.phases[:, 0, :])


def dense_colours(puzzle: Puzzle) -> tuple[np.ndarray, int]:
    """Map every non-grey colour to 0..C-1 (grey to -1); returns (map over colour values, C)."""
    tiles = puzzle.tiles
    values = np.unique(tiles[tiles != T.GREY])
    mapping = np.full(int(tiles.max()) + 1, -1, dtype=np.int32)
    mapping[values] = np.arange(len(values), dtype=np.int32)
    return mapping, max(len(values), 1)


def placement_colours(puzzle: Puzzle, mapping: np.ndarray) -> np.ndarray:
    """Dense colour shown on side s by placement p: array (n_tiles * 4, 4)."""
    rotated = T.rotated_table(np.asarray(puzzle.tiles))  # (n, 4 rotations, 4 sides)
    return mapping[rotated.reshape(-1, 4)].astype(np.int32)


def distinct_placement_mask(puzzle: Puzzle, each_rotation: bool = False) -> np.ndarray:
    """True for the placements worth trying: the first rotation of each distinct look, or
    every rotation with ``each_rotation`` (Eternity2Puzzles.jl's convention)."""
    n = puzzle.n_tiles
    mask = np.zeros(n * 4, dtype=bool)
    for t in range(n):
        for r in T.placement_rotations(puzzle.tiles[t], each_rotation):
            mask[t * 4 + r] = True
    return mask


class _TableBuilder:
    """Builds (and caches) the CSR table of each pattern on first use."""

    def __init__(
        self,
        shown: np.ndarray,
        allowed: np.ndarray,
        n_colours: int,
        rng: np.random.Generator | None,
        placement_colour: np.ndarray | None = None,
        preference: np.ndarray | None = None,
    ):
        self.shown = shown  # (P, 4) dense colours, -1 grey
        self.allowed = allowed  # (P,) bool: distinct rotation of a tile that is not a hint
        self.C = n_colours
        self.rng = rng
        # (P,) square colour a placement is restricted to (-1: either); None: tables not split
        self.placement_colour = placement_colour
        # (n_tiles,) tiles with a larger value come first in every list (ties: seed order)
        self.preference = preference
        self.tables: dict[tuple[int, tuple[int, ...], int], int] = {}
        self.cand_parts: list[np.ndarray] = []
        self.colour_parts: list[np.ndarray] = []
        self.start_parts: list[np.ndarray] = []
        self.n_cand = 0
        self.n_starts = 0

    def key_sides(self, sides: tuple[int, ...]) -> tuple[int, ...]:
        """The longest prefix of ``sides`` whose key space fits :data:`KEY_LIMIT`."""
        k = len(sides)
        while k and self.C**k > KEY_LIMIT:
            k -= 1
        return sides[:k]

    def table(self, outer: int, key_sides: tuple[int, ...], colour: int = -1) -> int:
        """Base offset into ``starts`` of the table for this border pattern, key and square
        colour (-1: tables not split by colour)."""
        ident = (outer, key_sides, colour)
        if ident in self.tables:
            return self.tables[ident]
        grey = self.shown < 0
        want = np.array([(outer >> s) & 1 for s in range(4)], dtype=bool)
        fits = self.allowed & (grey == want).all(axis=1)
        if colour >= 0 and self.placement_colour is not None:
            fits &= (self.placement_colour < 0) | (self.placement_colour == colour)
        placements = np.flatnonzero(fits)
        if self.rng is not None:
            placements = self.rng.permutation(placements)
        if self.preference is not None:
            placements = placements[np.argsort(-self.preference[placements // 4], kind="stable")]
        keys = np.zeros(len(placements), dtype=np.int64)
        mult = 1
        for s in key_sides:
            keys += self.shown[placements, s].astype(np.int64) * mult
            mult *= self.C
        size = mult
        order = np.argsort(keys, kind="stable")
        counts = np.bincount(keys, minlength=size) if len(keys) else np.zeros(size, dtype=np.int64)
        starts = np.empty(size + 1, dtype=np.int64)
        starts[0] = 0
        np.cumsum(counts, out=starts[1:])
        base = self.n_starts
        self.cand_parts.append(placements[order].astype(np.int32))
        self.colour_parts.append(np.full(len(placements), colour, dtype=np.int8))
        self.start_parts.append((starts + self.n_cand).astype(np.int64))
        self.n_cand += len(placements)
        self.n_starts += size + 1
        self.tables[ident] = base
        return base

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cand = np.concatenate(self.cand_parts) if self.cand_parts else np.zeros(0, np.int32)
        starts = np.concatenate(self.start_parts) if self.start_parts else np.zeros(1, np.int64)
        colours = np.concatenate(self.colour_parts) if self.colour_parts else np.zeros(0, np.int8)
        if starts[-1] >= 2**31:
            raise MemoryError("candidate tables too large")
        return (
            np.ascontiguousarray(cand, dtype=np.int32),
            np.ascontiguousarray(starts, dtype=np.int32),
            np.ascontiguousarray(colours, dtype=np.int8),
        )


def build_plan(
    puzzle: Puzzle,
    order: np.ndarray,
    *,
    max_errors: int = 0,
    frame_exact: bool = True,
    exact_squares: Collection[int] = (),
    seed: int | None = None,
    each_rotation: bool = False,
    rotation_set: RotationSet | None = None,
    colour_tables: bool = False,
    preference: np.ndarray | None = None,
    endgame_from: int | None = None,
) -> SearchPlan:
    """Precompute the kernel arrays for searching ``puzzle`` in ``order`` (hints excluded).

    ``max_errors`` > 0 adds the mismatch phases for best mode (subsets of up to that many
    known sides: the most invalid joins one placement may create).  ``frame_exact`` keeps
    joins between two border squares out of those phases, ``exact_squares`` every join of
    those squares.  ``seed`` shuffles the candidates within each key (None keeps tile order).
    ``each_rotation`` lists every rotation of a symmetric tile, not one per distinct look.
    ``rotation_set`` (a :class:`~edgematch.model.rotation_sets.RotationSet` of ``puzzle``,
    or its plain data) files only placement ``t * 4 + rotations[t]`` of every tile that is
    not a hint (hints keep theirs); when it has colours, or with ``colour_tables``, the
    tables are split by square colour (see the module notes and ``cand_colour``).
    ``preference`` (one number per tile) sorts every list by it, largest first, the seed's
    order kept among equals: Blackwood's lists, richest in the priority colours first.
    ``endgame_from``: depths from this one on get phases for every subset of their known
    sides, frame joins included (the endgame's branch and bound may leave any join of a
    tile unmatched, so that every board reaching it has a completion).
    """
    W, H = puzzle.width, puzzle.height
    n_sq = W * H
    mapping, C = dense_colours(puzzle)
    shown = placement_colours(puzzle, mapping)
    allowed = distinct_placement_mask(puzzle, each_rotation)
    void = None
    fixed_rotations = fixed_colours = None
    placement_colour = None
    if rotation_set is not None:
        if each_rotation:
            raise InputError("a rotation set fixes one rotation per tile: each_rotation does not apply")
        rotation_set = RotationSet.of_plain(puzzle, rotation_set)
        if rotation_set.puzzle.n_tiles != puzzle.n_tiles:
            raise InputError(
                f"the rotation set is of a puzzle with {rotation_set.puzzle.n_tiles} tiles, this one has {puzzle.n_tiles}"
            )
        fixed_rotations = np.array(
            [T.canonical_rotation(e, int(r)) for e, r in zip(puzzle.tiles, rotation_set.rotations)], np.int64
        )
        allowed[:] = False
        allowed[np.arange(puzzle.n_tiles) * 4 + fixed_rotations] = True
        if rotation_set.colours is not None:
            fixed_colours = np.asarray(rotation_set.colours, dtype=np.int64).copy()
            placement_colour = np.repeat(fixed_colours.astype(np.int8), 4)
        void = _hint_misfit(puzzle, fixed_rotations, fixed_colours)
    split = colour_tables or placement_colour is not None
    if split and placement_colour is None:
        placement_colour = np.full(puzzle.n_tiles * 4, -1, dtype=np.int8)
    hint_tiles = [h.tile for h in puzzle.hints]
    for t in hint_tiles:
        allowed[t * 4 : t * 4 + 4] = False
    builder = _TableBuilder(
        shown, allowed, C, np.random.default_rng(seed) if seed is not None else None, placement_colour, preference
    )

    board0 = np.full(n_sq, -1, dtype=np.int32)
    used0 = np.zeros(puzzle.n_tiles, dtype=np.uint8)
    for h in puzzle.hints:
        board0[h.square] = h.tile * 4 + h.rotation
        used0[h.tile] = 1

    D = len(order)
    P = MAX_PHASES if max_errors > 0 or endgame_from is not None else 1
    n_phases = np.zeros(D, np.int64)
    phases = np.zeros((D, P, P_WIDTH), np.int64)
    known_joins = np.zeros(D, np.int64)
    depth_colour = np.full(D, -1, np.int8)

    placed = board0 >= 0
    on_border = np.zeros(n_sq, dtype=bool)
    for sq in range(n_sq):
        r, c = divmod(sq, W)
        on_border[sq] = r in (0, H - 1) or c in (0, W - 1)

    for d, sq in enumerate(order):
        sq = int(sq)
        r, c = divmod(sq, W)
        tone = square_parity(sq, W) if split else -1
        depth_colour[d] = tone
        outer = 0
        known: list[int] = []
        neighbour = {}
        for s, (dr, dc) in enumerate(NEIGHBOUR_STEP):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < H and 0 <= cc < W):
                outer |= 1 << s
                continue
            nb = rr * W + cc
            neighbour[s] = nb
            if placed[nb]:
                known.append(s)
        known_joins[d] = len(known)
        ending = endgame_from is not None and d >= endgame_from
        exact = sq in exact_squares
        strict = [
            s for s in known if not ending and (exact or (frame_exact and on_border[sq] and on_border[neighbour[s]]))
        ]
        loose = [s for s in known if s not in strict]
        subsets: list[tuple[int, ...]] = [()]
        most = 4 if ending else max_errors
        for size in range(1, min(most, len(loose)) + 1):
            subsets += list(combinations(loose, size))
        n_phases[d] = len(subsets)
        for j, mismatched in enumerate(subsets):
            row = phases[d, j]
            matching = tuple(s for s in known if s not in mismatched)
            keyed = builder.key_sides(matching)
            row[P_ERR] = len(mismatched)
            row[P_BASE] = builder.table(outer, keyed, tone)
            row[P_NKEY] = len(keyed)
            mult = 1
            for i, s in enumerate(keyed):
                row[P_KEY + 3 * i : P_KEY + 3 * i + 3] = (neighbour[s], OPPOSITE[s], mult)
                mult *= C
            checks = [(s, 1) for s in matching if s not in keyed] + [(s, 0) for s in mismatched]
            row[P_NCHK] = len(checks)
            for i, (s, equal) in enumerate(checks):
                row[P_CHK + 4 * i : P_CHK + 4 * i + 4] = (neighbour[s], OPPOSITE[s], s, equal)
        placed[sq] = True

    cand, starts, cand_colour = builder.arrays()
    return SearchPlan(
        puzzle=puzzle,
        order=np.ascontiguousarray(order, dtype=np.int64),
        n_colours=C,
        pcol=np.ascontiguousarray(shown.reshape(-1), dtype=np.int32),
        cand=cand,
        starts=starts,
        n_phases=n_phases,
        phases=phases,
        known_joins=known_joins,
        board0=board0,
        used0=used0,
        cand_colour=cand_colour,
        depth_colour=depth_colour,
        fixed_rotations=fixed_rotations,
        fixed_colours=fixed_colours,
        void=void,
    )


def _hint_misfit(puzzle: Puzzle, rotations: np.ndarray, colours: np.ndarray | None) -> str | None:
    """Why a rotation set contradicts a hint (another rotation, or with parity another
    square colour), or None: then no solution has that set."""
    for hint in puzzle.hints:
        if T.canonical_rotation(puzzle.tiles[hint.tile], hint.rotation) != rotations[hint.tile]:
            return f"the rotation set turns hinted tile {hint.tile + 1} otherwise than its hint"
        if colours is not None and colours[hint.tile] != square_parity(hint.square, puzzle.width):
            return f"the rotation set gives hinted tile {hint.tile + 1} the other square colour"
    return None


# ---------------------------------------------------------------------- packed codes
#: Largest packed code, in bits: a code holds a placement and its four colours in one int64.
CODE_BITS = 63


@dataclass
class KernelTables:
    """The plan's tables in the form the list kernels read fastest.

    When the placements and colours fit, every candidate entry and board square holds a
    *packed code*: the placement ``p`` in the low ``shift`` bits, then the dense colour of
    each side N, E, S, W in ``colour_bits`` bits each (grey is all ones).  A key is then
    shifts and masks of board codes, with no look-up of ``pcol`` on its critical path (on
    e2 the row scan went from 78 to 94 million nodes per second, the same tree:
    benchmarks/results/backtrack_speed.md).
    ``pcol`` is None then, and the side columns of ``rows`` hold bit shifts instead of
    sides.  Otherwise (more than about 2**13 colours) entries stay placements, ``pcol`` is
    the plan's and the kernels look colours up as before.
    """

    cand: np.ndarray  # int64 codes, or the plan's int32 placements
    starts: np.ndarray  # the plan's starts as int64 (int64 indices measured ~4% faster)
    pcol: np.ndarray | None
    cmask: int  # colour mask of a code (0 when not packed)
    pmask: int  # placement mask of a code (-1 when not packed)
    codes: np.ndarray | None  # int64 code of every placement, or None

    def board(self, placements: np.ndarray) -> np.ndarray:
        """A kernel board from placements per square (-1 empty)."""
        if self.codes is None:
            return placements
        return np.where(placements >= 0, self.codes[np.maximum(placements, 0)], -1).astype(np.int64)

    def rows(self, rows: np.ndarray) -> np.ndarray:
        """Phase rows (any leading shape, last axis ``P_WIDTH``) for the kernels: sides
        turned into the bit shifts of their colours when codes are packed."""
        if self.codes is None:
            return rows
        shift = self.pmask.bit_length()
        width = self.cmask.bit_length()
        out = rows.copy()
        for i in range(4):
            out[..., P_KEY + 3 * i + 1] = shift + width * rows[..., P_KEY + 3 * i + 1]
            out[..., P_CHK + 4 * i + 1] = shift + width * rows[..., P_CHK + 4 * i + 1]
            out[..., P_CHK + 4 * i + 2] = shift + width * rows[..., P_CHK + 4 * i + 2]
        return out


def list_kernel_tables(plan: SearchPlan) -> KernelTables:
    """Packed codes for ``plan`` (or its placements, when codes would not fit in an int64)."""
    cand = plan.cand
    starts = plan.starts.astype(np.int64)
    n_placements = plan.puzzle.n_tiles * 4
    shift = max(int(n_placements - 1).bit_length(), 2)
    width = int(plan.n_colours).bit_length()  # colours 0..C-1 and grey = all ones (>= C)
    if shift + 4 * width > CODE_BITS:
        return KernelTables(cand=cand, starts=starts, pcol=plan.pcol, cmask=0, pmask=-1, codes=None)
    shown = plan.pcol.reshape(-1, 4).astype(np.int64)
    cmask = (1 << width) - 1
    shown[shown < 0] = cmask
    codes = np.arange(n_placements, dtype=np.int64)
    for side in range(4):
        codes |= shown[:, side] << (shift + width * side)
    return KernelTables(cand=codes[cand], starts=starts, pcol=None, cmask=cmask, pmask=(1 << shift) - 1, codes=codes)
