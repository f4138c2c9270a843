"""Random puzzles with a planted solution, in the style of Benoist & Bourreau (2008).

The scheme: give every join of a W x H board a uniformly random colour, then read the
tiles off that board.  Joins along the border (between two squares of the frame, lying
on the frame) take one of ``b`` *frame* colours ``1..b``; every other join takes one of
``i`` *inner* colours ``b+1..b+i``; the outside is grey ``0``.  The tiles are then
shuffled and each is turned by a random number of quarter turns, so neither the tile
order nor the stored orientation gives the solution away.  The board they were read
from is kept as the planted solution (a puzzle may have other solutions too).

Reproducibility: everything random comes from the raw 64-bit outputs of one
``numpy.random.PCG64(seed)`` (a fixed, specified algorithm), turned into colours,
permutations and choices by the few lines of :class:`_Draws` rather than by
``Generator`` methods, whose streams NumPy does not promise to keep across versions.  So a
seed gives the same puzzle on every machine and NumPy version.  The hint squares are drawn
last, so the same seed gives the same tiles whatever the hints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import InputError
from .model import Board, Hint, Puzzle
from .model.puzzle import MAX_COLOUR, MAX_SIDE
from .model.tiles import GREY

#: Fitted to Brendan Owen's Eternity-II-like puzzle sets (3x3 .. 20x20), whose colour
#: counts grow like the square root of the number of joins of each kind; the fit gives
#: the official 16x16 its 5 frame and 17 inner colours.
FRAME_JOINS_PER_COLOUR_SQUARED = 2.4
INNER_JOINS_PER_COLOUR_SQUARED = 1.42


@dataclass(frozen=True)
class Generated:
    """A generated puzzle and the solution planted in it (which always verifies)."""

    puzzle: Puzzle
    solution: Board
    seed: int
    frame_colours: int
    inner_colours: int


def join_counts(width: int, height: int) -> tuple[int, int]:
    """Number of frame joins and of other inner joins on a W x H board.

    A frame join lies along the border: a horizontal join in the top or bottom row or a
    vertical join in the leftmost or rightmost column.
    """
    total = 2 * width * height - width - height
    frame = 2 * (width - 1) + 2 * (height - 1)
    return frame, total - frame


def default_colours(width: int, height: int) -> tuple[int, int]:
    """Frame and inner colour counts that make a puzzle of this size E2-like.

    ``frame = round(sqrt(F / 2.4))`` and ``inner = round(sqrt(J / 1.42))`` (at least 1
    each), where F and J are the numbers of frame and other joins.  16x16 gives 5 and 17
    like Eternity II; 10x10 gives 4 and 10; 6x6 gives 3 and 5.  The constants are fitted
    to Brendan Owen's E2-like sets, which they reproduce for every square size but 7x7.
    """
    _check_size(width, height)
    frame_joins, inner_joins = join_counts(width, height)
    frame = max(1, _round_half_up(math.sqrt(frame_joins / FRAME_JOINS_PER_COLOUR_SQUARED)))
    inner = max(1, _round_half_up(math.sqrt(inner_joins / INNER_JOINS_PER_COLOUR_SQUARED)))
    return frame, inner


def generate(
    width: int,
    height: int | None = None,
    frame_colours: int | None = None,
    inner_colours: int | None = None,
    seed: int = 0,
    hints: str | int | None = "none",
    name: str | None = None,
) -> Generated:
    """A random ``width`` x ``height`` puzzle (square when ``height`` is omitted).

    ``frame_colours`` / ``inner_colours`` default to :func:`default_colours`.  ``hints``:

    * ``"none"`` (or ``None`` or ``0``): no hints;
    * ``"corner"``: the tile of the bottom-left square, fixed there in the rotation in which
      it fits.  This is what Benoist's benchmark instances do: it breaks the four board
      rotations (without it every solution appears four times on a square board);
    * an integer ``n`` (or a string of digits): ``n`` tiles of the planted solution on
      ``n`` distinct random squares.

    Raises :class:`InputError` for impossible arguments.
    """
    width = _integer(width, "width")
    height = width if height is None else _integer(height, "height")
    _check_size(width, height)
    defaults = default_colours(width, height)
    frame = defaults[0] if frame_colours is None else _integer(frame_colours, "frame colour count")
    inner = defaults[1] if inner_colours is None else _integer(inner_colours, "inner colour count")
    if frame < 1 or inner < 1:
        raise InputError(f"colour counts must be at least 1 (got {frame} frame, {inner} inner)")
    if frame + inner > MAX_COLOUR:
        raise InputError(f"{frame + inner} colours is too many (at most {MAX_COLOUR})")
    seed = _integer(seed, "seed")
    if seed < 0:
        raise InputError(f"seed {seed} is negative (use 0 or more)")
    n_squares = width * height
    hint_request = _parse_hints(hints, n_squares)

    draws = _Draws(seed)
    edges = _planted_edges(draws, width, height, frame, inner)
    # Tile k of the puzzle is the tile of square order[k], stored turned back by turns[k].
    order = draws.permutation(n_squares)
    turns = draws.integers(0, 4, n_squares)
    # np.roll(edges, -t)[s] == edges[(s + t) % 4]: the tile as it looks turned back by t
    sides = (np.arange(4, dtype=np.int64)[None, :] + turns[:, None]) % 4
    tiles = np.take_along_axis(edges[order], sides, axis=1).astype(np.int32)
    square_tiles = np.empty(n_squares, dtype=np.int32)
    square_tiles[order] = np.arange(n_squares, dtype=np.int32)
    square_rotations = np.empty(n_squares, dtype=np.int8)
    square_rotations[order] = turns.astype(np.int8)

    if hint_request == "corner":
        hint_squares = [(height - 1) * width]
    else:
        count = int(hint_request)
        hint_squares = sorted(int(s) for s in draws.permutation(n_squares)[:count])
    hint_list = [Hint(sq, int(square_tiles[sq]), int(square_rotations[sq])) for sq in hint_squares]

    if name is None:
        name = f"generated {width}x{height} b{frame}i{inner} seed {seed}"
    puzzle = Puzzle(tiles, width, height, hint_list, name)
    solution = Board(puzzle, square_tiles, square_rotations)
    return Generated(puzzle, solution, seed, frame, inner)


def _planted_edges(draws: _Draws, width: int, height: int, frame: int, inner: int) -> np.ndarray:
    """Colours N E S W of every square of the planted board, shape (W*H, 4), int32.

    Both a frame and an inner colour are drawn for every join (the one the join's place
    calls for is kept), which keeps the draw order independent of the board's shape.
    """
    h_count, v_count = height * (width - 1), (height - 1) * width
    h_frame = draws.integers(1, frame + 1, h_count).reshape(height, width - 1)
    h_inner = draws.integers(frame + 1, frame + inner + 1, h_count).reshape(height, width - 1)
    v_frame = draws.integers(1, frame + 1, v_count).reshape(height - 1, width)
    v_inner = draws.integers(frame + 1, frame + inner + 1, v_count).reshape(height - 1, width)
    rows = np.arange(height)[:, None]
    cols = np.arange(width)[None, :]
    # horizontal joins (between columns c and c+1) lie on the frame in the top and bottom rows
    horizontal = np.where((rows == 0) | (rows == height - 1), h_frame, h_inner)
    # vertical joins (between rows r and r+1) lie on the frame in the outer columns
    vertical = np.where((cols == 0) | (cols == width - 1), v_frame, v_inner)

    board = np.full((height, width, 4), GREY, dtype=np.int32)
    board[1:, :, 0] = vertical  # N of rows 1.. = join above
    board[:-1, :, 2] = vertical  # S of rows ..H-2 = join below
    board[:, :-1, 1] = horizontal  # E of columns ..W-2
    board[:, 1:, 3] = horizontal  # W of columns 1..
    return board.reshape(width * height, 4)


class _Draws:
    """Uniform integers and permutations from the raw 64-bit stream of PCG64(seed)."""

    def __init__(self, seed: int):
        self._bits = np.random.PCG64(seed)

    def raw(self, count: int) -> np.ndarray:
        return np.asarray(self._bits.random_raw(count), dtype=np.uint64).reshape(count)

    def integers(self, low: int, high: int, count: int) -> np.ndarray:
        """``count`` uniform integers in ``[low, high)``, int64.

        ``raw % span`` is uniform once raw values at or above the largest multiple of
        ``span`` are rejected; a rejected value (odds below span / 2**64) is replaced by
        the next raw value, one at a time, in order.
        """
        span = high - low
        limit = np.uint64((2**64 // span) * span - 1)  # largest accepted raw value
        values = self.raw(count)
        for index in np.flatnonzero(values > limit):
            value = self.raw(1)[0]
            while value > limit:
                value = self.raw(1)[0]
            values[index] = value
        return (values % np.uint64(span)).astype(np.int64) + low

    def permutation(self, count: int) -> np.ndarray:
        """A uniform random permutation of ``0..count-1``: the order of random 64-bit keys."""
        return np.argsort(self.raw(count), kind="stable").astype(np.int64)


def _parse_hints(hints, n_squares: int):
    """'corner' or a hint count, checked against the board."""
    if hints is None:
        return 0
    if isinstance(hints, str):
        text = hints.strip().lower()
        if text in ("none", ""):
            return 0
        if text == "corner":
            return "corner"
        if not text.isdigit():
            raise InputError(f"hints must be 'none', 'corner' or a number of tiles, not '{hints}'")
        count = int(text)
    else:
        count = _integer(hints, "hint count")
    if not 0 <= count <= n_squares:
        raise InputError(f"cannot give {count} hints on a board of {n_squares} squares")
    return count


def _check_size(width: int, height: int) -> None:
    if width < 2 or height < 2:
        raise InputError(f"board size {width}x{height} is too small (at least 2x2)")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InputError(f"board size {width}x{height} is too large (at most {MAX_SIDE} per side)")


def _integer(value, what: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{what} must be an integer, not {value!r}")
    return int(value)


def _round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5))
