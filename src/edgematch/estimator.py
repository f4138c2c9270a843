"""Brendan Owen's estimate of the number of solutions and of search-tree nodes.

The model (Owen 2008/2009, as written up in the documentation of the Julia package
Eternity2Puzzles.jl, "Solution estimates"): a partial board reached by a backtracking
search along a fixed scan order is a choice of tiles for the squares filled so far, and
the chance that it is valid is the chance that every join closed so far matches, as if
the tile sides were drawn at random from the finite pools of sides of each colour.  So the
expected number of valid partial boards after ``d`` placements is

    S(d) = (ways to place tiles on those squares) x p_frame(b) x p_inner(m)

* ways to place: ``P(a_c, p_c) P(a_e, p_e) P(a_i, p_i) 4^p_i`` for ``p_c`` corner, ``p_e``
  edge and ``p_i`` inner squares filled from ``a_c``, ``a_e``, ``a_i`` free tiles (frame
  tiles have one rotation that fits; ``P(n, k) = n!/(n-k)!``).  We count *distinct*
  rotations, so a tile that looks the same after a half turn contributes 2, not 4 (the
  exact count is an elementary symmetric polynomial of the rotation counts times
  ``p_i!``; it equals ``P(a_i, p_i) 4^p_i`` when no tile is symmetric).  This matches how
  our engines count nodes and solutions: rotations that show the same edges are one.
  ``each_rotation=True`` counts all four rotations of every tile, the package's own
  convention (and the engines' with the same option): ``P(a_i, p_i) 4^p_i`` exactly, so
  the expected solutions grow by the product of the free tiles' symmetry factors (on
  ``clue1``, two tiles ``(a, b, a, b)``: 4 times, 262,881,014,825 instead of 65,720,253,706).
* ``p_frame(b) = Vb(B, b) / (P(T_a, b) P(T_b, b))``: a frame join pairs the side just
  clockwise of a tile's grey side ("a") with the side just anticlockwise of it ("b"), and
  ``Vb(i, b) = sum_j Vb(i-1, b-j) P(A_i, j) P(B_i, j) C(b, j)`` counts the ways ``b`` joins
  can match using colours ``1..i`` (``A_i``, ``B_i``: "a" and "b" sides of colour ``i``;
  the package writes ``P(n_i, j)^2`` with ``n_i`` = half the sides, the same thing when
  the two counts are equal, as they are in every solvable puzzle).
* ``p_inner(m) = Vm(M, m) / P(2T_m, 2m)`` with
  ``Vm(i, m) = sum_j Vm(i-1, m-j) P(2n_i, 2j) C(m, j)`` over inner colours.

The expected number of nodes of a complete search is ``sum_d S(d)`` (a node = one tile
placed by the search; hint squares are not nodes), and ``S(last depth)`` is the expected
number of solutions.

Hints (pre-placed tiles) have two treatments:

* ``hints="pooled"`` (the package's): hinted tiles are placed first, their sides stay in
  the colour pools and their joins count as ordinary random joins.  This reproduces the
  package's published figures (``e2`` with the starter: 14,702 solutions and 1.365e47
  nodes on a row scan from the bottom-left corner).
* ``hints="fixed"`` (default): the hinted sides leave the pools, and a join between a free
  square and a hint needs that hint's *specific* colour: ``Vm`` gains, per colour, the
  ``h_i`` slots that must hold colour ``i`` (``P(2n_i, 2j + h_i)``) and the denominator
  becomes ``P(2T_m, 2m + h)`` (likewise for frame joins, per side type).  A join between
  two hints is certain (or makes the estimate 0).  Closer to the truth on puzzles with
  several hints; on ``e2`` the two agree within a few percent.

Invalid-join schedules (only inner joins may be invalid, as in the package): the schedule
of the backtracking engine (:mod:`edgematch.model.schedules`) gives, for each
number of tiles on the board, the maximum cumulative number of invalid inner joins.  The
probability that the first ``v`` of ``m`` joins match and the rest do not follows
``q(m, v) = q(m-1, v) - q(m, v+1)``, ``q(m, m) = p_inner(m)`` (the joins are exchangeable),
and it is weighed by the number of ways to place exactly ``k`` invalid joins among the
joins closed so far while respecting the schedule at every earlier depth (a direct
dynamic programme; the package's recursion over its "slip array" counts the same thing,
and its slip array ``[d1, d2, ...]`` is our ``breaks:d1,d2,...``).  With
``hints="fixed"`` the joins with hints must match and only joins between free squares
may be invalid (an approximation: the engine may also break a join with a hint).

Fixed rotations (``rotations=``, a :class:`~edgematch.model.rotation_sets.RotationSet`):
every tile has its one rotation before the search, so the estimate of a search with the
rotations fixed (``BacktrackSolver(rotations=...)``) changes in two ways.

* Ways to place: a tile's rotation decides which squares it can stand on (a corner tile
  one corner, an edge tile one side of the board, an inner tile any inner square in that
  one rotation; with parity also squares of its colour only).  So the squares are split
  into classes (outer pattern, and with parity square colour) and the ways are
  ``prod_k P(a_k, p_k)`` over the classes: ``a_k`` free tiles the set sends to class
  ``k``, ``p_k`` of its squares filled.  No rotation factor.
* Joins: every join pairs a *first* side (the east side of the left tile, or the south
  side of the upper tile) with a *second* side (west of the right tile, north of the lower
  one), and with fixed rotations each tile side belongs to one kind of join: the frame
  joins of each side of the board (top row, bottom row, left column, right column: the a/b
  frame model, which with fixed rotations pairs, per board side, one direction's sides
  with the other's) and the inner joins of each direction (``across``: east with west
  sides, ``down``: south with north sides).  With parity each kind is split again by the
  colour of the join's first square, whose first sides come from tiles of that colour and
  second sides from tiles of the other.  Each such group ``g`` has its own pools
  (``E_i``, ``W_i``: first and second sides of colour ``i``), and the chance that its
  ``m`` closed joins all match is ``V(m) / (P(T_E, m) P(T_W, m))`` with
  ``V(i, m) = sum_j V(i-1, m-j) P(E_i, j) P(W_i, j) C(m, j)`` (as the frame model's Vb).
  The groups are treated as independent (the sides of one tile are in several groups, as
  the plain model also ignores), and the product over the groups is the chance that a
  partial board is valid.  An unbalanced set (some colour with more east than west
  sides, ...) or one that does not fit the board gets 0 expected solutions, exactly.
* Hints keep their rotation.  ``hints="fixed"``: the hinted tiles leave the pools and a
  join with a hint needs the hint's colour from the free square's pool of its group (the
  ``need`` counts of the frame model); ``hints="pooled"``: the hinted tiles (in their
  hint's rotation and square colour) stay in the pools and their joins are ordinary
  joins.  A set that gives a hinted tile another rotation (or square colour) has no
  solution: the estimate is 0, with a note.
* Not modelled with fixed rotations: invalid-join schedules (``schedule=`` raises
  :class:`InputError`) and ``each_rotation`` (one rotation per tile is the point).

Everything is exact (Python integers and fractions), then reported as floats and
base-10 logarithms.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .errors import InputError
from .model import Puzzle
from .model import tiles as T
from .model.rotation_sets import RotationSet, grey_pattern, outer_pattern, square_parity
from .model.squares import square_name

HINT_MODELS = ("fixed", "pooled")


# --------------------------------------------------------------------------- results
@dataclass
class Estimate:
    """Expected partial boards per depth for one puzzle, order and schedule."""

    order: tuple[int, ...]
    #: expected valid partial boards after d free placements, d = 0..n (index 0: 1)
    partial: list[Fraction]
    hints: str
    schedule: tuple[int, ...] | None = None
    name: str = ""
    notes: list[str] = field(default_factory=list)
    #: ``"distinct"`` (a symmetric tile once per look) or ``"each"`` (every rotation)
    rotations: str = "distinct"
    #: None, or ``"fixed"`` / ``"fixed, with parity"``: every tile's rotation (and square
    #: colour) was fixed by a rotation set
    rotation_set: str | None = None

    @property
    def depth(self) -> int:
        """Number of squares the search fills (free squares)."""
        return len(self.partial) - 1

    @property
    def solutions(self) -> float:
        """Expected number of solutions (complete boards)."""
        return _to_float(self.partial[-1])

    @property
    def nodes(self) -> float:
        """Expected nodes of a complete search: sum of the expected widths of every depth."""
        return _to_float(self.nodes_exact)

    @property
    def nodes_exact(self) -> Fraction:
        return sum(self.partial[1:], Fraction(0))

    @property
    def nodes_per_depth(self) -> list[float]:
        """Expected nodes at depths 1..n."""
        return [_to_float(x) for x in self.partial[1:]]

    @property
    def log10_solutions(self) -> float:
        return _log10(self.partial[-1])

    @property
    def log10_nodes(self) -> float:
        return _log10(self.nodes_exact)

    @property
    def widest_depth(self) -> int:
        """The depth (1-based) with the most expected nodes: where the search tree is widest."""
        if self.depth == 0:
            return 0
        return max(range(1, self.depth + 1), key=lambda d: self.partial[d])

    @property
    def widest_square(self) -> int | None:
        d = self.widest_depth
        return self.order[d - 1] if d else None

    def to_dict(self, width: int | None = None, per_depth: bool = True) -> dict:
        widest = self.widest_square
        data = {
            "puzzle": self.name,
            "expected_solutions": self.solutions,
            "expected_nodes": self.nodes,
            "log10_expected_solutions": self.log10_solutions,
            "log10_expected_nodes": self.log10_nodes,
            "widest_depth": self.widest_depth,
            "widest_square": square_name(widest, width) if (widest is not None and width) else widest,
            "widest_expected_nodes": _to_float(self.partial[self.widest_depth]) if self.depth else 0.0,
            "hints": self.hints,
            "rotations": self.rotations,
            "rotation_set": self.rotation_set,
            "schedule": list(self.schedule) if self.schedule is not None else None,
            "notes": list(self.notes),
        }
        if per_depth:
            data["order"] = [square_name(s, width) if width else s for s in self.order]
            data["expected_nodes_per_depth"] = self.nodes_per_depth
        return data


def _to_float(x: Fraction) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf


def _log10(x: Fraction) -> float:
    if x <= 0:
        return -math.inf
    return math.log10(x.numerator) - math.log10(x.denominator)


# --------------------------------------------------------------------------- combinatorics
def falling(n: int, k: int) -> int:
    """P(n, k) = n! / (n-k)!, and 0 when k > n (no way to pick more than there are)."""
    if k < 0 or k > n:
        return 0
    return math.perm(n, k)


def elementary_symmetric(weights: Sequence[int]) -> list[int]:
    """e_0..e_n of the weights: e_k = sum over k-subsets of the product of their weights."""
    e = [1] + [0] * len(weights)
    for count, w in enumerate(weights, start=1):
        for k in range(count, 0, -1):
            e[k] += w * e[k - 1]
    return e


def matching_ways_inner(pool: Sequence[int], fixed: Sequence[int], m_max: int) -> list[int]:
    """V(m) for m = 0..m_max: ordered ways to fill ``m`` free joins (2 slots each) plus
    ``fixed[i]`` slots that must show colour ``i``, so that every join matches, with the
    ``pool[i]`` sides of each colour.  ``V(m) = sum over colour splits of prod_i
    P(pool_i, 2 j_i + fixed_i) x multinomial(m; j)``, built one colour at a time."""
    V = [1] + [0] * m_max
    for n_i, h_i in zip(pool, fixed):
        new = [0] * (m_max + 1)
        ways = [falling(n_i, 2 * j + h_i) for j in range(m_max + 1)]
        if not any(ways):
            return [0] * (m_max + 1)
        for m in range(m_max + 1):
            total = 0
            for j in range(m + 1):
                if ways[j] == 0:
                    if 2 * j + h_i > n_i:
                        break
                    continue
                if V[m - j]:
                    total += V[m - j] * ways[j] * math.comb(m, j)
            new[m] = total
        V = new
    return V


def matching_ways_frame(
    pool_a: Sequence[int], pool_b: Sequence[int], need_a: Sequence[int], need_b: Sequence[int], b_max: int
) -> list[int]:
    """V(b) for frame joins: each join pairs an "a" side with a "b" side of one colour.

    ``need_a[i]``: joins with a hint whose "b" side shows colour ``i`` (they need an "a"
    side of that colour from the pool); ``need_b`` likewise."""
    V = [1] + [0] * b_max
    for A, B, ha, hb in zip(pool_a, pool_b, need_a, need_b):
        new = [0] * (b_max + 1)
        ways = [falling(A, j + ha) * falling(B, j + hb) for j in range(b_max + 1)]
        if not any(ways):
            return [0] * (b_max + 1)
        for b in range(b_max + 1):
            total = 0
            for j in range(b + 1):
                if ways[j] and V[b - j]:
                    total += V[b - j] * ways[j] * math.comb(b, j)
            new[b] = total
        V = new
    return V


# --------------------------------------------------------------------------- board facts
def _side_type(edges, side: int) -> str:
    """'grey', 'a' (just clockwise of a grey side), 'b' (just anticlockwise) or 'inner'."""
    if edges[side] == T.GREY:
        return "grey"
    if edges[(side - 1) % 4] == T.GREY:
        return "a"
    if edges[(side + 1) % 4] == T.GREY:
        return "b"
    return "inner"


@dataclass(frozen=True)
class _Join:
    a: int
    b: int
    side_a: int  # side of square a facing b
    frame: bool  # lies along the border (both squares on the same border line)


def _joins(width: int, height: int) -> list[_Join]:
    joins = []
    for row in range(height):
        for col in range(width):
            s = row * width + col
            if col + 1 < width:
                joins.append(_Join(s, s + 1, T.E, row in (0, height - 1)))
            if row + 1 < height:
                joins.append(_Join(s, s + width, T.S, col in (0, width - 1)))
    return joins


def check_order(puzzle: Puzzle, order: Iterable[int] | None) -> tuple[int, ...]:
    """The free squares in search order (hint squares dropped), checked as the engine
    checks them: :class:`InputError` when a square is off the board, repeated or missing."""
    if order is None:
        return tuple(s for s in range(puzzle.n_squares) if s not in puzzle.hint_map)
    from .model.orders import search_order

    squares = search_order(list(order), puzzle.width, puzzle.height, puzzle.hint_map)
    return tuple(int(s) for s in squares)


# --------------------------------------------------------------------------- the estimate
def estimate(
    puzzle: Puzzle,
    order="rowscan",
    schedule=None,
    hints: str = "fixed",
    corner: str | None = None,
    each_rotation: bool = False,
    rotations=None,
) -> Estimate:
    """Expected valid partial boards at every depth of a search along ``order``.

    ``order``: a scan order name of the backtracking engine (``rowscan``, ``e2path``, ...,
    from ``corner``), a file of square names, or a sequence of squares (hint squares may
    be listed or left out); None is the plain row scan from the top-left corner.
    ``schedule``: the invalid-join schedule in any form the backtracking engine accepts
    (``--schedule``: ``N``, ``D:E,...``, ``breaks:B1,B2,...``, ``julia:TARGET``, a list of
    values per number of tiles on the board, hints included), or None (every join must
    match).  ``hints``: "fixed" or "pooled" (see the module documentation).
    ``each_rotation``: count every rotation of a symmetric tile as its own placement, as
    Eternity2Puzzles.jl does (hinted tiles keep their one rotation either way).
    ``rotations``: a :class:`~edgematch.model.rotation_sets.RotationSet` of ``puzzle`` (or
    its plain data): the search has every tile's rotation (and with parity its square
    colour) fixed, see the module documentation.
    """
    if hints not in HINT_MODELS:
        raise InputError(f"unknown hint model '{hints}' (choose from {', '.join(HINT_MODELS)})")
    free_order = check_order(puzzle, _full_order(puzzle, order, corner))
    if rotations is not None:
        return _estimate_fixed(puzzle, free_order, schedule, hints, each_rotation, rotations)
    caps = _caps(puzzle, schedule, len(free_order))
    pools = _Pools(puzzle, pooled=hints == "pooled", each_rotation=each_rotation)
    walk = _walk(puzzle, free_order, pools)

    partial = [Fraction(1)]
    if walk.conflict:
        partial += [Fraction(0)] * len(free_order)
    else:
        partial += _expected_partials(pools, walk, caps)
    notes = ["two hints disagree on a join: no solution"] if walk.conflict else []
    return Estimate(
        order=free_order,
        partial=partial,
        hints=hints,
        schedule=tuple(caps) if caps else None,
        name=puzzle.name,
        notes=notes,
        rotations=T.rotation_convention(each_rotation),
    )


class _Pools:
    """The free tiles by kind and the pools of sides by role and colour.

    ``pooled``: the package's treatment, where hinted tiles' sides stay in the pools;
    ``each_rotation``: every free inner tile has 4 rotations, symmetric or not."""

    def __init__(self, puzzle: Puzzle, pooled: bool, each_rotation: bool = False):
        tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
        hinted = {t for t, _ in puzzle.hint_map.values()}
        kinds = [sum(1 for c in t if c == T.GREY) for t in tiles]
        free = [i for i in range(len(tiles)) if i not in hinted]
        self.pooled = pooled
        self.tiles = tiles
        self.corners = sum(1 for i in free if kinds[i] == T.CORNER)
        self.edges = sum(1 for i in free if kinds[i] == T.EDGE)
        #: rotations that show different edges, per free inner tile (4, or 2 or 1 if symmetric;
        #: always 4 with ``each_rotation``)
        self.inner_rotations = [
            len(T.placement_rotations(tiles[i], each_rotation)) for i in free if kinds[i] == T.INNER
        ]
        self.inner_ways = elementary_symmetric(self.inner_rotations)
        self.colours = sorted({c for t in tiles for c in t if c != T.GREY})
        self.index = {c: k for k, c in enumerate(self.colours)}
        k = len(self.colours)
        self.a, self.b, self.inner = [0] * k, [0] * k, [0] * k
        target = {"a": self.a, "b": self.b, "inner": self.inner}
        for i in range(len(tiles)) if pooled else free:
            for side in range(4):
                role = _side_type(tiles[i], side)
                if role in target:
                    target[role][self.index[tiles[i][side]]] += 1

    def placements(self, corners: int, edges: int, inner: int) -> int:
        """Ways to put free tiles on that many corner, edge and inner squares."""
        if inner > len(self.inner_rotations):
            return 0
        return (
            falling(self.corners, corners) * falling(self.edges, edges) * self.inner_ways[inner] * math.factorial(inner)
        )


@dataclass
class _Walk:
    """Per search depth: squares filled by kind, joins closed, and hint joins' colours."""

    corners: list[int] = field(default_factory=list)
    edges: list[int] = field(default_factory=list)
    inner: list[int] = field(default_factory=list)
    frame_joins: list[int] = field(default_factory=list)  # closed between free squares (any square if pooled)
    inner_joins: list[int] = field(default_factory=list)
    hint_needs: list[tuple] = field(default_factory=list)  # (need_a, need_b, need_inner) per depth
    inner_joins_before: int = 0  # inner joins closed before the search (pooled: between hints)
    conflict: bool = False  # two hints disagree, or a hint shows a side of the wrong role


def _walk(puzzle: Puzzle, free_order: Sequence[int], pools: _Pools) -> _Walk:
    width, height = puzzle.width, puzzle.height
    hint_map = puzzle.hint_map
    shown: dict[int, tuple[int, ...]] = {}
    role_shown: dict[tuple[int, int], str] = {}
    for square, (tile, rot) in hint_map.items():
        shown[square] = tuple(int(c) for c in T.rotate(pools.tiles[tile], rot))
        for side in range(4):
            role_shown[(square, side)] = _side_type(pools.tiles[tile], (side - rot) % 4)
    joins = _joins(width, height)
    joins_at: dict[int, list[_Join]] = {}
    for j in joins:
        joins_at.setdefault(j.a, []).append(j)
        joins_at.setdefault(j.b, []).append(j)

    walk = _Walk()
    frame = inner = 0
    for j in joins:
        if j.a in hint_map and j.b in hint_map:
            if pools.pooled:  # the package: an ordinary join, closed from the start
                frame += j.frame
                inner += not j.frame
            elif shown[j.a][j.side_a] != shown[j.b][(j.side_a + 2) % 4]:
                walk.conflict = True
    walk.inner_joins_before = inner

    n_colours = len(pools.colours)
    need_a, need_b, need_inner = [0] * n_colours, [0] * n_colours, [0] * n_colours
    filled = set(hint_map)
    placed = [0, 0, 0]  # indexed by kind: inner, edge, corner
    for square in free_order:
        filled.add(square)
        placed[T.square_kind(square, width, height)] += 1
        for j in joins_at.get(square, []):
            other = j.b if j.a == square else j.a
            if other not in filled:
                continue
            if pools.pooled or other not in hint_map:
                frame += j.frame
                inner += not j.frame
                continue
            # a join with a hint: the free square must show the hint's colour
            side = j.side_a if other == j.a else (j.side_a + 2) % 4
            colour = pools.index.get(shown[other][side])
            role = role_shown[(other, side)]
            if colour is not None and j.frame and role == "a":
                need_b[colour] += 1  # the hint shows an "a" side: a "b" side must meet it
            elif colour is not None and j.frame and role == "b":
                need_a[colour] += 1
            elif colour is not None and not j.frame and role == "inner":
                need_inner[colour] += 1
            else:
                walk.conflict = True
        walk.corners.append(placed[T.CORNER])
        walk.edges.append(placed[T.EDGE])
        walk.inner.append(placed[T.INNER])
        walk.frame_joins.append(frame)
        walk.inner_joins.append(inner)
        walk.hint_needs.append((tuple(need_a), tuple(need_b), tuple(need_inner)))
    return walk


def _expected_partials(pools: _Pools, walk: _Walk, caps: list[int] | None) -> list[Fraction]:
    """S(d) for d = 1..n: placements x p_frame x p_inner (weighed by the schedule)."""
    b_max = max(walk.frame_joins, default=0)
    m_max = max(walk.inner_joins, default=0)
    k_max = max(caps) if caps else 0
    arrangements = _arrangements([walk.inner_joins_before] + walk.inner_joins, caps) if caps else None
    frame_cache: dict[tuple, list[Fraction]] = {}
    inner_cache: dict[tuple, list[list[Fraction]]] = {}
    partial = []
    for depth in range(1, len(walk.inner_joins) + 1):
        i = depth - 1
        ways = pools.placements(walk.corners[i], walk.edges[i], walk.inner[i])
        if ways == 0:
            partial.append(Fraction(0))
            continue
        need_a, need_b, need_inner = walk.hint_needs[i]
        if (need_a, need_b) not in frame_cache:
            frame_cache[(need_a, need_b)] = _frame_probabilities(pools.a, pools.b, need_a, need_b, b_max)
        if need_inner not in inner_cache:
            inner_cache[need_inner] = _inner_probabilities(pools.inner, need_inner, m_max, k_max)
        p_frame = frame_cache[(need_a, need_b)][walk.frame_joins[i]]
        q = inner_cache[need_inner]  # q[k][m] = P(first m-k of m joins match, last k do not)
        m = walk.inner_joins[i]
        if arrangements is None or caps is None:
            p_inner = q[0][m]
        else:
            p_inner = sum((q[k][m] * arrangements[depth][k] for k in range(min(caps[i], m) + 1)), Fraction(0))
        partial.append(ways * p_frame * p_inner)
    return partial


def _full_order(puzzle: Puzzle, order, corner: str | None):
    """Squares of ``order`` (a name, a file or a sequence), resolved as the engine does."""
    if order is None:
        return None
    from .model.orders import resolve_order

    return resolve_order(order, puzzle.width, puzzle.height, corner)


def _caps(puzzle: Puzzle, schedule, n_free: int) -> list[int] | None:
    """Maximum cumulative invalid inner joins per search depth 1..n_free, or None.

    The engine's schedules are indexed by tiles on the board, hints included; search
    depth d has d + (number of hints) tiles on the board."""
    if schedule is None:
        return None
    from .model.schedules import schedule_array

    values = schedule_array(schedule, puzzle.n_squares, max_score=puzzle.max_score)
    shift = len(puzzle.hints)
    caps = [int(values[d + shift]) for d in range(1, n_free + 1)]
    if not any(caps):
        return None
    return caps


def _frame_probabilities(pool_a, pool_b, need_a, need_b, b_max: int) -> list[Fraction]:
    """p(b) for b = 0..b_max: chance that b free frame joins and the hint frame joins match."""
    V = matching_ways_frame(pool_a, pool_b, need_a, need_b, b_max)
    ta, tb = sum(pool_a), sum(pool_b)
    ha, hb = sum(need_a), sum(need_b)
    result = []
    for b in range(b_max + 1):
        total = falling(ta, b + ha) * falling(tb, b + hb)
        result.append(Fraction(V[b], total) if total else Fraction(0))
    return result


def _inner_probabilities(pool, need, m_max: int, k_max: int) -> list[list[Fraction]]:
    """q[k][m], k = 0..k_max: chance that, of m free inner joins, the first m-k match and the
    last k do not (and every hint join matches).  q[0][m] is the all-match probability."""
    V = matching_ways_inner(pool, need, m_max)
    total_sides = sum(pool)
    h = sum(need)
    q0 = []
    for m in range(m_max + 1):
        total = falling(total_sides, 2 * m + h)
        q0.append(Fraction(V[m], total) if total else Fraction(0))
    q = [q0]
    # q(m, v) = q(m-1, v) - q(m, v+1) with v = m - k: q[k][m] = q[k-1][m-1] - q[k-1][m]
    for k in range(1, k_max + 1):
        row = [Fraction(0)] * (m_max + 1)
        for m in range(k, m_max + 1):
            row[m] = q[k - 1][m - 1] - q[k - 1][m]
        q.append(row)
    return q


def _arrangements(joins_per_depth: Sequence[int], caps: Sequence[int]) -> list[list[int]]:
    """A[d][k]: ways to choose exactly k invalid joins among those closed by depth d, such
    that at every depth e <= d at most caps[e-1] of the joins closed by e are invalid."""
    k_max = max(caps)
    A = [[1] + [0] * k_max]
    for d in range(1, len(joins_per_depth)):
        new_joins = joins_per_depth[d] - joins_per_depth[d - 1]
        cap = caps[d - 1]
        prev = A[-1]
        row = [0] * (k_max + 1)
        for k in range(min(cap, k_max) + 1):
            row[k] = sum(prev[k - t] * math.comb(new_joins, t) for t in range(0, min(k, new_joins) + 1))
        A.append(row)
    return A


def compare_orders(
    puzzle: Puzzle,
    orders,
    schedule=None,
    hints: str = "fixed",
    corner: str | None = None,
    each_rotation: bool = False,
    rotations=None,
) -> list[tuple[str, Estimate]]:
    """Scan orders ranked by expected nodes, fewest first.

    ``orders``: a mapping name -> order, or an iterable of orders (names such as
    ``"rowscan"`` or ``"e2path"``, files, or sequences of squares); default corner as in
    :func:`estimate`; ``rotations`` as there.  Returns ``(label, Estimate)`` pairs."""
    if isinstance(orders, dict):
        items = list(orders.items())
    else:
        items = []
        for o in orders:
            if isinstance(o, str):
                items.append((o, o))
            else:
                squares = list(o)
                items.append((" ".join(square_name(int(q), puzzle.width) for q in squares[:4]) + " ...", squares))
    ranked = [
        (label, estimate(puzzle, order, schedule, hints, corner, each_rotation, rotations)) for label, order in items
    ]
    ranked.sort(key=lambda item: item[1].nodes_exact)
    return ranked


# --------------------------------------------------------------------------- fixed rotations
def _estimate_fixed(puzzle: Puzzle, free_order, schedule, hints: str, each_rotation: bool, rotations) -> Estimate:
    """:func:`estimate` with every tile's rotation fixed by a rotation set (see the module
    documentation)."""
    if each_rotation:
        raise InputError("a rotation set fixes one rotation per tile: each_rotation does not apply")
    if schedule is not None:
        raise InputError("the estimate with fixed rotations does not model invalid joins: leave out the schedule")
    if isinstance(rotations, RotationSet) and rotations.puzzle.n_tiles != puzzle.n_tiles:
        raise InputError(
            f"the rotation set is of a puzzle with {rotations.puzzle.n_tiles} tiles, this one has {puzzle.n_tiles}"
        )
    rotation_set = RotationSet.of_plain(puzzle, rotations)
    model = _FixedModel(puzzle, rotation_set, pooled=hints == "pooled")
    partial = [Fraction(1)] + model.partials(free_order)
    return Estimate(
        order=tuple(free_order),
        partial=partial,
        hints=hints,
        name=puzzle.name,
        notes=model.notes,
        rotations=T.rotation_convention(False),
        rotation_set="fixed, with parity" if rotation_set.parity else "fixed",
    )


def _join_kind(square: int, side: int, width: int, height: int) -> str:
    """The kind of a join leaving ``square`` by ``side`` (E or S: the square is the join's
    first): a frame join of a board side (top, bottom, left, right) or an inner one."""
    row, col = divmod(square, width)
    if side == T.E:
        return "top" if row == 0 else "bottom" if row == height - 1 else "across"
    return "left" if col == 0 else "right" if col == width - 1 else "down"


def _side_kind(shown, side: int) -> str:
    """The kind of join a tile side takes part in, the tile showing ``shown`` (N, E, S, W)."""
    if side in (T.E, T.W):
        return "top" if shown[T.N] == T.GREY else "bottom" if shown[T.S] == T.GREY else "across"
    return "left" if shown[T.W] == T.GREY else "right" if shown[T.E] == T.GREY else "down"


class _FixedModel:
    """Owen's model with every tile's rotation fixed: placement classes and join groups."""

    def __init__(self, puzzle: Puzzle, rotation_set: RotationSet, pooled: bool):
        self.puzzle = puzzle
        self.parity = rotation_set.parity
        self.pooled = pooled
        self.notes: list[str] = []
        width = puzzle.width
        tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
        hint_map = puzzle.hint_map
        hinted = {tile: square for square, (tile, _) in hint_map.items()}
        rotation = [int(r) for r in rotation_set.rotations]
        tone = [int(c) for c in rotation_set.colours] if rotation_set.colours is not None else [-1] * len(tiles)
        for square, (tile, turn) in sorted(hint_map.items()):
            if T.canonical_rotation(tiles[tile], turn) != rotation[tile]:
                self.notes.append(f"the rotation set turns hinted tile {tile + 1} otherwise than its hint: no solution")
            elif self.parity and tone[tile] != square_parity(square, width):
                self.notes.append(f"the rotation set gives hinted tile {tile + 1} the other square colour: no solution")
            rotation[tile] = turn  # a hint keeps its own rotation (and square colour)
            tone[tile] = square_parity(square, width) if self.parity else -1
        self.shown = {t: tuple(int(c) for c in T.rotate(tiles[t], rotation[t])) for t in range(len(tiles))}
        self.tone = tone
        self.colours = sorted({c for t in tiles for c in t if c != T.GREY})
        self.index = {c: k for k, c in enumerate(self.colours)}
        #: free tiles per placement class (outer pattern, square colour or -1)
        self.tiles_of_class: dict[tuple[int, int], int] = {}
        for t in range(len(tiles)):
            if t not in hinted:
                key = (grey_pattern(tiles[t], rotation[t]), tone[t])
                self.tiles_of_class[key] = self.tiles_of_class.get(key, 0) + 1
        #: first and second sides of every join group, per colour
        self.first: dict[tuple[str, int], list[int]] = {}
        self.second: dict[tuple[str, int], list[int]] = {}
        for t in range(len(tiles)) if pooled else [t for t in range(len(tiles)) if t not in hinted]:
            shown = self.shown[t]
            for side in range(4):
                if shown[side] == T.GREY:
                    continue
                kind = _side_kind(shown, side)
                first = side in (T.E, T.S)
                group = (kind, -1 if not self.parity else tone[t] if first else 1 - tone[t])
                pools = self.first if first else self.second
                pools.setdefault(group, [0] * len(self.colours))[self.index[shown[side]]] += 1

    def _group(self, first_square: int, side: int) -> tuple[str, int]:
        width, height = self.puzzle.width, self.puzzle.height
        tone = square_parity(first_square, width) if self.parity else -1
        return (_join_kind(first_square, side, width, height), tone)

    def partials(self, free_order: Sequence[int]) -> list[Fraction]:
        """S(d) for d = 1..n."""
        puzzle = self.puzzle
        width, height = puzzle.width, puzzle.height
        hint_map = puzzle.hint_map
        n = len(free_order)
        if self.notes:
            return [Fraction(0)] * n
        joins = []  # (first square, its side E or S, second square)
        for square in range(puzzle.n_squares):
            row, col = divmod(square, width)
            if col + 1 < width:
                joins.append((square, T.E, square + 1))
            if row + 1 < height:
                joins.append((square, T.S, square + width))
        joins_at: dict[int, list[tuple[int, int, int]]] = {}
        m_max: dict[tuple[str, int], int] = {}  # joins of each group
        for join in joins:
            joins_at.setdefault(join[0], []).append(join)
            joins_at.setdefault(join[2], []).append(join)
            group = self._group(join[0], join[1])
            m_max[group] = m_max.get(group, 0) + 1
        closed: dict[tuple[str, int], int] = {}  # joins of each group closed so far
        zero = [0] * len(self.colours)
        needs: dict[tuple[str, int], tuple[list[int], list[int]]] = {}
        for first, side, other in joins:
            if first in hint_map and other in hint_map:
                group = self._group(first, side)
                if self.pooled:  # an ordinary join, closed from the start
                    closed[group] = closed.get(group, 0) + 1
                elif self.shown[hint_map[first][0]][side] != self.shown[hint_map[other][0]][(side + 2) % 4]:
                    self.notes.append("two hints disagree on a join: no solution")
                    return [Fraction(0)] * n
        filled = set(hint_map)
        placed: dict[tuple[int, int], int] = {}
        cache: dict[tuple, list[Fraction]] = {}
        partial = []
        for square in free_order:
            filled.add(square)
            key = (outer_pattern(square, width, height), square_parity(square, width) if self.parity else -1)
            placed[key] = placed.get(key, 0) + 1
            for first, side, other in joins_at.get(square, []):
                neighbour = other if first == square else first
                if neighbour not in filled:
                    continue
                group = self._group(first, side)
                if self.pooled or neighbour not in hint_map:
                    closed[group] = closed.get(group, 0) + 1
                    continue
                # a join with a hint: the free square's side must show the hint's colour
                hint_side = side if neighbour == first else (side + 2) % 4
                colour = self.shown[hint_map[neighbour][0]][hint_side]
                if colour == T.GREY:
                    self.notes.append("a hint shows grey towards a square of the board: no solution")
                    return [Fraction(0)] * n
                need_first, need_second = needs.setdefault(group, ([0] * len(self.colours), [0] * len(self.colours)))
                (need_second if neighbour == first else need_first)[self.index[colour]] += 1
            ways = 1
            for cls, count in placed.items():
                ways *= falling(self.tiles_of_class.get(cls, 0), count)
            probability = Fraction(1)
            for group in set(closed) | set(needs):
                need_first, need_second = needs.get(group, (zero, zero))
                cache_key = (group, tuple(need_first), tuple(need_second))
                if cache_key not in cache:
                    cache[cache_key] = _frame_probabilities(
                        self.first.get(group, zero),
                        self.second.get(group, zero),
                        need_first,
                        need_second,
                        m_max.get(group, 0),
                    )
                probability *= cache[cache_key][closed.get(group, 0)]
                if not probability:
                    break
            partial.append(ways * probability)
        return partial
