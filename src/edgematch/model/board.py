"""A placement of tiles on a puzzle's board, its score and its verification.

A :class:`Board` holds, for every square, a tile (``-1`` when empty) and a rotation.  It
may be partial.  ``score()`` counts matched inner joins; ``verify()`` is the one
independent verifier every solver's output goes through: plain Python, written from the
rules alone, sharing no code with any engine, and listing every reason a board is not a
solution rather than stopping at the first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from . import tiles as T
from .puzzle import Puzzle
from .squares import square_name

EMPTY = -1
#: an empty square in :meth:`Board.packed`
EMPTY_PACKED = 0xFFFF


@dataclass(frozen=True)
class Join:
    """Two edge-adjacent squares; ``a`` is north or west of ``b``."""

    a: int
    b: int
    horizontal: bool  # True: a | b side by side (a's E meets b's W); False: a above b

    @property
    def sides(self) -> tuple[int, int]:
        return (T.E, T.W) if self.horizontal else (T.S, T.N)


@dataclass(frozen=True)
class Mismatch:
    """A join whose two placed colours differ."""

    join: Join
    colour_a: int
    colour_b: int


@dataclass
class Verification:
    """Outcome of :meth:`Board.verify`: ``valid`` and every reason it is not."""

    reasons: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.reasons

    def __bool__(self) -> bool:
        return self.valid


def inner_joins(width: int, height: int) -> list[Join]:
    """Every inner join of a W x H board (2WH - W - H of them), row by row."""
    joins = []
    for row in range(height):
        for col in range(width):
            sq = row * width + col
            if col + 1 < width:
                joins.append(Join(sq, sq + 1, True))
            if row + 1 < height:
                joins.append(Join(sq, sq + width, False))
    return joins


class Board:
    """Tiles and rotations on the squares of ``puzzle``'s board (tile -1 = empty square)."""

    def __init__(self, puzzle: Puzzle, tiles=None, rotations=None):
        self.puzzle = puzzle
        n = puzzle.n_squares
        self.tiles = np.full(n, EMPTY, dtype=np.int32) if tiles is None else np.array(tiles, dtype=np.int32)
        self.rotations = np.zeros(n, dtype=np.int8) if rotations is None else np.array(rotations, dtype=np.int8)
        if self.tiles.shape != (n,) or self.rotations.shape != (n,):
            raise InputError(f"a board for a {puzzle.width}x{puzzle.height} puzzle needs {n} squares")
        bad = np.flatnonzero((self.tiles < EMPTY) | (self.tiles >= puzzle.n_tiles))
        if len(bad):
            raise InputError(
                f"square {square_name(int(bad[0]), puzzle.width)} holds tile {int(self.tiles[bad[0]]) + 1}, "
                f"but the puzzle has {puzzle.n_tiles} tiles"
            )
        if ((self.rotations < 0) | (self.rotations > 3)).any():
            raise InputError("rotations must be 0..3")

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_hints(cls, puzzle: Puzzle) -> Board:
        """The board with only the puzzle's hints placed."""
        board = cls(puzzle)
        for h in puzzle.hints:
            board.place(h.square, h.tile, h.rotation)
        return board

    @classmethod
    def from_placements(cls, puzzle: Puzzle, placements: dict[int, tuple[int, int]]) -> Board:
        board = cls(puzzle)
        for square, (tile, rotation) in placements.items():
            board.place(square, tile, rotation)
        return board

    @classmethod
    def from_codes(cls, puzzle: Puzzle, codes) -> Board:
        """The board of the engines' placement codes: ``tile * 4 + rotation`` per square,
        negative for an empty square (the form compiled kernels write)."""
        p = np.asarray(codes)
        return cls(puzzle, np.where(p >= 0, p >> 2, EMPTY), np.where(p >= 0, p & 3, 0))

    def packed(self) -> bytes:
        """The board in two bytes a square (the placement code ``tile * 4 + rotation``,
        0xFFFF where empty): how runs send and store boards by the hundred thousand."""
        if self.puzzle.n_tiles * 4 > EMPTY_PACKED:
            raise ValueError(f"{self.puzzle.n_tiles} tiles do not fit two bytes a square")
        codes = np.where(self.tiles >= 0, self.tiles.astype(np.int64) * 4 + self.rotations, EMPTY_PACKED)
        return codes.astype("<u2").tobytes()

    @classmethod
    def from_packed(cls, puzzle: Puzzle, data: bytes) -> Board:
        """The board of :meth:`packed`."""
        codes = np.frombuffer(data, "<u2").astype(np.int64)
        codes[codes == EMPTY_PACKED] = -1
        return cls.from_codes(puzzle, codes)

    def copy(self) -> Board:
        return Board(self.puzzle, self.tiles.copy(), self.rotations.copy())

    def place(self, square: int, tile: int, rotation: int) -> None:
        if not 0 <= square < self.puzzle.n_squares:
            raise InputError(f"square {square} is off the board")
        if not 0 <= tile < self.puzzle.n_tiles:
            raise InputError(f"tile {tile + 1} does not exist")
        self.tiles[square] = tile
        self.rotations[square] = rotation % 4

    def remove(self, square: int) -> None:
        self.tiles[square] = EMPTY
        self.rotations[square] = 0

    # ------------------------------------------------------------------ facts
    @property
    def width(self) -> int:
        return self.puzzle.width

    @property
    def height(self) -> int:
        return self.puzzle.height

    def placed(self) -> np.ndarray:
        """Squares that hold a tile."""
        return np.flatnonzero(self.tiles != EMPTY)

    @property
    def n_placed(self) -> int:
        return int((self.tiles != EMPTY).sum())

    @property
    def is_complete(self) -> bool:
        return self.n_placed == self.puzzle.n_squares

    def edges(self) -> np.ndarray:
        """Colours shown on N, E, S, W of each square, shape (n_squares, 4); -1 where empty."""
        result = np.full((self.puzzle.n_squares, 4), -1, dtype=np.int32)
        filled = self.placed()
        if len(filled):
            base = self.puzzle.tiles[self.tiles[filled]]
            rot = self.rotations[filled].astype(np.int64)
            # side s shows original side (s - r) mod 4
            idx = (np.arange(4)[None, :] - rot[:, None]) % 4
            result[filled] = np.take_along_axis(base, idx, axis=1)
        return result

    def _join_colours(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Colours on both sides of every horizontal and vertical inner join (grids)."""
        e = self.edges().reshape(self.height, self.width, 4)
        return e[:, :-1, T.E], e[:, 1:, T.W], e[:-1, :, T.S], e[1:, :, T.N]

    def score(self) -> int:
        """Matched inner joins: both squares filled and the same non-grey colour."""
        left, right, up, down = self._join_colours()
        h = (left == right) & (left > T.GREY)
        v = (up == down) & (up > T.GREY)
        return int(h.sum() + v.sum())

    def mismatches(self) -> list[Mismatch]:
        """Inner joins between two placed tiles whose colours differ (or meet in grey)."""
        e = self.edges()
        found = []
        for j in inner_joins(self.width, self.height):
            if self.tiles[j.a] == EMPTY or self.tiles[j.b] == EMPTY:
                continue
            sa, sb = j.sides
            ca, cb = int(e[j.a, sa]), int(e[j.b, sb])
            if ca != cb or ca == T.GREY:
                found.append(Mismatch(j, ca, cb))
        return found

    def verify(self, require_complete: bool = True) -> Verification:
        """Every reason this board is not a (partial, if not ``require_complete``) solution."""
        p = self.puzzle
        reasons: list[str] = []
        name = lambda sq: square_name(int(sq), p.width)  # noqa: E731

        empty = np.flatnonzero(self.tiles == EMPTY)
        if require_complete and len(empty):
            listed = ", ".join(name(s) for s in empty[:10]) + (" ..." if len(empty) > 10 else "")
            reasons.append(f"{len(empty)} empty square{'s' if len(empty) > 1 else ''}: {listed}")

        where: dict[int, list[int]] = {}
        for sq in self.placed():
            where.setdefault(int(self.tiles[sq]), []).append(int(sq))
        for tile, squares in sorted(where.items()):
            if len(squares) > 1:
                reasons.append(f"tile {tile + 1} is placed {len(squares)} times: {', '.join(name(s) for s in squares)}")

        e = self.edges()
        for sq in self.placed():
            outer = T.outer_sides(int(sq), p.width, p.height)
            for s in range(4):
                colour = int(e[sq, s])
                if outer[s] and colour != T.GREY:
                    reasons.append(
                        f"{name(sq)}: side {T.SIDE_NAMES[s]} faces the outside but shows colour {colour}, not grey"
                    )
                elif not outer[s] and colour == T.GREY:
                    reasons.append(f"{name(sq)}: side {T.SIDE_NAMES[s]} shows grey inside the board")

        for m in self.mismatches():
            if m.colour_a == T.GREY and m.colour_b == T.GREY:
                continue  # already reported as grey inside, twice
            sa, sb = m.join.sides
            reasons.append(
                f"{name(m.join.a)}-{name(m.join.b)}: colours differ ({T.SIDE_NAMES[sa]}={m.colour_a} vs {T.SIDE_NAMES[sb]}={m.colour_b})"
            )

        for h in p.hints:
            tile, rot = int(self.tiles[h.square]), int(self.rotations[h.square])
            if tile != h.tile:
                shown = "empty" if tile == EMPTY else f"tile {tile + 1}"
                reasons.append(f"hint broken: {name(h.square)} must hold tile {h.tile + 1}, holds {shown}")
            elif not np.array_equal(T.rotate(p.tiles[tile], rot), T.rotate(p.tiles[tile], h.rotation)):
                reasons.append(
                    f"hint broken: tile {h.tile + 1} on {name(h.square)} must have rotation {h.rotation}, has {rot}"
                )
        return Verification(reasons)

    # ------------------------------------------------------------------ comparison
    def placements(self) -> dict[int, tuple[int, int]]:
        return {int(sq): (int(self.tiles[sq]), int(self.rotations[sq])) for sq in self.placed()}

    def same_placement(self, other: Board) -> bool:
        """Equal as placements: rotations that show the same edges count as one."""
        return np.array_equal(self.tiles, other.tiles) and np.array_equal(self.edges(), other.edges())

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.puzzle == other.puzzle and self.same_placement(other)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, shown by Jupyter (as python-chess boards are)."""
        from ..render.svg import board_svg

        return board_svg(self)

    def __repr__(self) -> str:
        return f"<Board {self.width}x{self.height} {self.n_placed}/{self.puzzle.n_squares} placed, score {self.score()}/{self.puzzle.max_score}>"
