"""How many rotation sets a puzzle has, how many the strategies page's random-walk model
expects to be balanced, and how many are balanced exactly.

The page (Eternity2Puzzles.jl, "Balanced rotations") counts e2's rotation sets as
``4! * C(56,14) * C(42,14) * C(28,14) * 4**195 ~ 7.45e149`` and estimates
``~ 5.53e109`` balanced ones: a colour with ``2n`` sides balances with probability
``p(n) = ((1/4)**n * C(2n, n))**2``, the chance that a symmetric walk of ``2n`` steps on
the square grid ends where it started (the page labels them by sides, ``p_12``, ``p_48``,
``p_50``, but plugs in ``n`` = 12, 24 and 25 joins).  :func:`count_balanced` counts
exactly, where that is feasible, how far the model is from the truth.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..errors import InputError
from ..model import tiles as T
from ..model.puzzle import Puzzle
from ..model.rotation_sets import grey_pattern, square_classes, tile_options
from .sweep import Sweep, join
from .tables import build_tables, tile_order


def count_rotation_sets(puzzle: Puzzle, parity: bool = False) -> int:
    """The exact number of rotation sets that fit the board (balance ignored).

    Hinted tiles keep their rotation (and square colour).  Every free corner tile has
    exactly one rotation per corner and every free edge tile one per side, so the frame
    counts are multinomials: the free corner (edge) tiles shared out over the free squares
    of each corner (side).  Each free inner tile has as many choices as it has distinct
    rotations.  With ``parity`` a class is also split by square colour (the multinomials
    run over the board's black and white squares of each corner, side and the inside).

    For e2 (starter hint only) this is the page's ``4! * C(56,14) * C(42,14) * C(28,14) *
    4**195`` exactly, because e2 has no rotationally symmetric inner tile.  The page's
    formula gives every inner tile 4 rotations; here a tile whose rotations look alike
    counts once per distinct look (the package's convention), so a puzzle with symmetric
    inner tiles gets a smaller figure than the page's formula would give it: see
    :func:`page_rotation_sets`.
    """
    free: dict[int, list[int]] = {}  # kind -> free tile numbers
    hinted = {h.tile for h in puzzle.hints}
    for tile, edges in enumerate(puzzle.tiles):
        if tile not in hinted:
            free.setdefault(_kind(int((edges == T.GREY).sum())), []).append(tile)
    squares = square_classes(puzzle, parity)
    options = tile_options(puzzle, parity)
    for hint in puzzle.hints:  # the class the hint fills
        (rotation, tone) = options[hint.tile][0]
        squares[(grey_pattern(puzzle.tiles[hint.tile], rotation), tone)] -= 1
    total = 1
    for kind in (T.CORNER, T.EDGE, T.INNER):
        slots = [n for (pattern, _), n in squares.items() if _kind(bin(pattern).count("1")) == kind]
        tiles = free.get(kind, [])
        if any(n < 0 for n in slots) or sum(slots) != len(tiles):
            return 0
        total *= _multinomial(slots)
    for tile in free.get(T.INNER, []):
        total *= len(T.distinct_rotations(puzzle.tiles[tile]))
    return total


def page_rotation_sets(puzzle: Puzzle) -> int:
    """The page's way of counting without parity: like :func:`count_rotation_sets` but
    every free inner tile counted with 4 rotations, symmetric or not (as Eternity2Puzzles.jl
    counts rotations).  Equal to it when no free inner tile is symmetric (e2)."""
    hinted = {h.tile for h in puzzle.hints}
    exact = count_rotation_sets(puzzle)
    for tile, edges in enumerate(puzzle.tiles):
        if tile not in hinted and not (edges == T.GREY).any():
            exact = exact // len(T.distinct_rotations(edges)) * 4
    return exact


def walk_return_probability(n: int, parity: bool = False) -> Fraction:
    """The chance that a colour with ``2n`` sides balances, in the random-walk model.

    Without parity (the page's model): each side independently shows east, west, north or
    south, so ``east - west`` and ``north - south`` are a symmetric walk of ``2n`` steps on
    the square grid, back at the origin with probability ``(C(2n, n) / 4**n)**2``.

    With parity (our extension, not the page's): each side also lies on a black or a white
    tile, each of the 8 combinations equally likely, and each step moves exactly one of the
    four balance conditions (E on black - W on white, E on white - W on black, N on black -
    S on white, N on white - S on black) by one: a walk on the 4-dimensional grid.  It
    returns when the ``2j`` steps spent in the first two conditions and the ``2n - 2j`` in
    the last two each return: ``sum_j C(2n, 2j) C(2j, j)**2 C(2n-2j, n-j)**2 / 8**(2n)``.
    """
    if n < 0:
        return Fraction(0)
    if not parity:
        return Fraction(math.comb(2 * n, n) ** 2, 16**n)
    walks = sum(
        math.comb(2 * n, 2 * j) * math.comb(2 * j, j) ** 2 * math.comb(2 * (n - j), n - j) ** 2 for j in range(n + 1)
    )
    return Fraction(walks, 64**n)


def random_walk_fraction(puzzle: Puzzle, parity: bool = False) -> Fraction:
    """The model's estimate exactly: :func:`count_rotation_sets` times, for every non-grey
    colour with ``2n`` sides on the tiles (hinted ones included),
    :func:`walk_return_probability` ``(n)``; a colour with an odd number of sides can never
    balance (0).  The model ignores that a tile's four sides turn together and that frame
    sides can only lie along their own side of the board."""
    estimate = Fraction(count_rotation_sets(puzzle, parity))
    for colour, sides in zip(*np.unique(puzzle.tiles, return_counts=True)):
        if colour == T.GREY:
            continue
        if sides % 2:
            return Fraction(0)
        estimate *= walk_return_probability(int(sides) // 2, parity)
    return estimate


def random_walk_estimate(puzzle: Puzzle, parity: bool = False) -> float:
    """:func:`random_walk_fraction` as a float (``inf`` past the float range: see
    :func:`log10_random_walk_estimate`).  About 5.53e109 for e2 without parity."""
    try:
        return float(random_walk_fraction(puzzle, parity))
    except OverflowError:
        return math.inf


def log10_random_walk_estimate(puzzle: Puzzle, parity: bool = False) -> float:
    """``log10`` of :func:`random_walk_fraction` (``-inf`` when it is 0), for puzzles whose
    estimate does not fit a float."""
    value = random_walk_fraction(puzzle, parity)
    if value == 0:
        return -math.inf
    return math.log10(value.numerator) - math.log10(value.denominator)


#: What the counter's states may take before it gives up with a clear error rather than
#: exhaust the machine's memory (measured: a Benoist 7x7 instance took 24 GB and was
#: killed; each step briefly holds a few times its states).
MAX_STATE_BYTES = 3 * 2**30


def count_balanced(puzzle: Puzzle, parity: bool = False, max_state_bytes: int = MAX_STATE_BYTES) -> int:
    """The exact number of balanced rotation sets that fit the board.

    Dynamic programming over the tiles, from both ends of one tile order at once (frame
    tiles first, see :func:`counting_order`): a state is the sum of the chosen options'
    changes, that is the imbalance of every colour (2 numbers per colour, 4 with parity),
    and the number of tiles given to each square class.  States that the tiles on the
    other side can no longer balance or fill (the bounds of :mod:`.tables`) are dropped
    and equal states merged (NumPy sorts, no Python loop per state).  Each step extends
    the side whose next step is cheaper; when the two sides meet, every front state is
    paired with the back state that completes it.  Counts are Python integers (NumPy
    int64 while they cannot overflow), so the result is exact however large.

    What is feasible, measured on a loaded 2-core machine: owen1-4x4 (14,296 sets; with
    parity 16,856) in well under a second; owen1-5x5 (4,734,236) in under a second and
    with parity in about a minute; owen1-6x6 without parity in seconds to a minute, with
    parity out of reach (the states run into the tens of millions); e2 far out of reach
    (use :func:`random_walk_estimate`).  Raises :class:`InputError` once the states of
    one side would take more than ``max_state_bytes``.
    """
    order = counting_order(puzzle, parity)
    front = Sweep(build_tables(puzzle, parity, order))
    back = Sweep(build_tables(puzzle, parity, order[::-1]))
    if not front.tables.root_feasible():
        return 0
    while front.depth + back.depth < front.n_tiles:
        side = front if front.cost() <= back.cost() else back
        side.step()
        if len(side.states) == 0:
            return 0
        if side.states.nbytes > max_state_bytes:
            raise InputError(
                f"counting the balanced sets{' with parity' if parity else ''} of {puzzle.name or 'this puzzle'} "
                f"needs more than {max_state_bytes / 2**30:.1f} GiB of states: out of reach "
                "(the random-walk estimate gives its order of magnitude)"
            )
    return join(front, back)


def counting_order(puzzle: Puzzle, parity: bool) -> list[int]:
    """The tile order of :func:`count_balanced`: hinted tiles, then the frame tiles, then
    the inner tiles (:func:`~.tables.tile_order` with ``frame_first``).  Frame colours then
    open and close among the frame tiles, so the front side's states carry only inner
    colours once the frame is done (measured: far fewer states than interleaving frame and
    inner tiles)."""
    return tile_order(puzzle, [len(o) == 1 for o in tile_options(puzzle, parity)], frame_first=True)


def _kind(greys: int) -> int:
    return min(greys, T.CORNER)


def _multinomial(parts: list[int]) -> int:
    total, result = 0, 1
    for part in parts:
        total += part
        result *= math.comb(total, part)
    return result


__all__ = [
    "count_balanced",
    "count_rotation_sets",
    "counting_order",
    "log10_random_walk_estimate",
    "page_rotation_sets",
    "random_walk_estimate",
    "random_walk_fraction",
    "walk_return_probability",
]
