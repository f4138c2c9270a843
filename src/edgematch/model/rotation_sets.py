"""Rotation sets: every tile given one rotation before any tile is placed.

The last idea of the solving-strategies page of Eternity2Puzzles.jl: in a solution, every
inner horizontal join meets an east side and a west side of one colour, and every vertical
join a south and a north side, so for each colour the tiles' east sides equal their west
sides and their north sides equal their south sides.  A :class:`RotationSet` fixes each
tile's rotation (rotations that show the same edges are one: the smallest is kept); a
frame tile's rotation decides the side of the board it goes to, so the numbers of frame
tiles per side (and one corner tile per corner) must fit the board.  Hints keep theirs.

With *checkerboard parity* every tile is also black or white (the colour of the square it
will stand on, black where ``row + col`` is even, so A1 is black): a black square's east
neighbour is white, so for each colour the east sides on black tiles equal the west sides
on white tiles, and so on for the other three pairings; the numbers of black and white
tiles of each kind per side fit the board's black and white squares.

Every solution has exactly one rotation set (with or without parity) and it is balanced,
which is what makes a two-phase search (rotation sets first, then placements with
rotations fixed) count exactly what the plain search counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError
from . import tiles as T
from .puzzle import Puzzle

BLACK, WHITE = 0, 1
PARITY_NAMES = "BW"


def square_parity(square: int, width: int) -> int:
    """BLACK where ``row + col`` is even (A1 and the top-left corner), else WHITE."""
    row, col = divmod(square, width)
    return (row + col) % 2


def outer_pattern(square: int, width: int, height: int) -> int:
    """Bit ``s`` set when side ``s`` (N, E, S, W) of the square faces the outside."""
    return sum(1 << s for s, out in enumerate(T.outer_sides(square, width, height)) if out)


def grey_pattern(edges, rotation: int) -> int:
    """Bit ``s`` set when the tile in this rotation shows grey on side ``s``: the outer
    pattern of the squares it can stand on (0 for an inner tile)."""
    shown = T.rotate(edges, rotation)
    return sum(1 << s for s in range(4) if shown[s] == T.GREY)


def square_classes(puzzle: Puzzle, parity: bool) -> Counter:
    """How many squares the board has of each class: its outer pattern, and with
    ``parity`` its colour ``(pattern, BLACK/WHITE)`` (else ``(pattern, -1)``)."""
    classes: Counter = Counter()
    for square in range(puzzle.n_squares):
        colour = square_parity(square, puzzle.width) if parity else -1
        classes[(outer_pattern(square, puzzle.width, puzzle.height), colour)] += 1
    return classes


def tile_options(puzzle: Puzzle, parity: bool) -> list[list[tuple[int, int]]]:
    """For every tile, the ``(rotation, colour)`` choices a rotation set may give it: its
    distinct rotations whose grey sides face the outside of some square (and, with
    ``parity``, both colours where the board has such squares of that colour; colour -1
    without parity).  A hinted tile has exactly its hint's rotation and square colour."""
    classes = square_classes(puzzle, parity)
    hinted = {h.tile: h for h in puzzle.hints}
    colours = (BLACK, WHITE) if parity else (-1,)
    options = []
    for tile, edges in enumerate(puzzle.tiles):
        if tile in hinted:
            hint = hinted[tile]
            colour = square_parity(hint.square, puzzle.width) if parity else -1
            options.append([(T.canonical_rotation(edges, hint.rotation), colour)])
            continue
        choices = []
        for rotation in T.distinct_rotations(edges):
            pattern = grey_pattern(edges, rotation)
            choices += [(rotation, c) for c in colours if classes[(pattern, c)] > 0]
        options.append(choices)
    return options


@dataclass(frozen=True, eq=False)
class RotationSet:
    """One rotation per tile of ``puzzle`` (and, with parity, one colour per tile).

    ``rotations``: int array (n_tiles,), each the smallest rotation showing its edges.
    ``colours``: int array (n_tiles,) of BLACK/WHITE, or None for a set without parity.
    """

    puzzle: Puzzle
    rotations: Any  # array-like on the way in, an int64 array once built
    colours: Any = None

    def __post_init__(self) -> None:
        n = self.puzzle.n_tiles
        rotations = np.asarray(self.rotations, dtype=np.int64).reshape(-1)
        if len(rotations) != n:
            raise InputError(f"a rotation set of this puzzle needs {n} rotations, not {len(rotations)}")
        if ((rotations < 0) | (rotations > 3)).any():
            raise InputError("rotations must be 0..3")
        canonical = np.array([T.canonical_rotation(e, int(r)) for e, r in zip(self.puzzle.tiles, rotations)], np.int64)
        canonical.setflags(write=False)
        object.__setattr__(self, "rotations", canonical)
        if self.colours is not None:
            colours = np.asarray(self.colours, dtype=np.int64).reshape(-1)
            if len(colours) != n or ((colours != BLACK) & (colours != WHITE)).any():
                raise InputError(f"a rotation set with parity needs {n} colours, each black (0) or white (1)")
            colours.setflags(write=False)
            object.__setattr__(self, "colours", colours)

    @property
    def parity(self) -> bool:
        return self.colours is not None

    def __eq__(self, other) -> bool:
        if not isinstance(other, RotationSet) or other.puzzle != self.puzzle or other.parity != self.parity:
            return False
        same = np.array_equal(self.rotations, other.rotations)
        return same and (not self.parity or np.array_equal(self.colours, other.colours))

    def __hash__(self) -> int:
        colours = b"" if self.colours is None else self.colours.tobytes()
        return hash((self.rotations.tobytes(), colours))

    # ------------------------------------------------------------------ facts
    def shown(self) -> np.ndarray:
        """The colours each tile shows on N, E, S, W in its rotation: (n_tiles, 4)."""
        return np.stack([T.rotate(e, int(r)) for e, r in zip(self.puzzle.tiles, self.rotations)])

    def tile_classes(self) -> Counter:
        """How many tiles the set puts in each square class (see :func:`square_classes`)."""
        colours = self.colours if self.colours is not None else [-1] * self.puzzle.n_tiles
        return Counter((grey_pattern(e, int(r)), int(c)) for e, r, c in zip(self.puzzle.tiles, self.rotations, colours))

    def misfits(self) -> list[str]:
        """Why the set cannot be the rotation set of any board: square classes with more or
        fewer tiles than squares, and hints given another rotation or colour (empty: fits)."""
        reasons = []
        want = square_classes(self.puzzle, self.parity)
        have = self.tile_classes()
        for key in sorted(set(want) | set(have)):
            if want[key] != have[key]:
                reasons.append(f"{_class_name(key)}: {have[key]} tiles for {want[key]} squares")
        for hint in self.puzzle.hints:
            rotation = T.canonical_rotation(self.puzzle.tiles[hint.tile], hint.rotation)
            if self.rotations[hint.tile] != rotation:
                reasons.append(f"hinted tile {hint.tile + 1} has rotation {self.rotations[hint.tile]}, not {rotation}")
            if self.colours is not None and self.colours[hint.tile] != square_parity(hint.square, self.puzzle.width):
                reasons.append(f"hinted tile {hint.tile + 1} has the wrong square colour")
        return reasons

    def imbalance(self) -> dict[int, tuple[int, ...]]:
        """Per colour (grey left out) whose sides do not balance: without parity
        ``(east - west, north - south)``; with parity ``(east on black - west on white,
        east on white - west on black, north on black - south on white, north on white -
        south on black)``.  Empty when the set is balanced."""
        shown = self.shown()
        colours = self.colours if self.colours is not None else np.zeros(self.puzzle.n_tiles, np.int64)
        out: dict[int, tuple[int, ...]] = {}
        for colour in self.puzzle.colours:
            if colour == T.GREY:
                continue

            def count(side: int, tone: int, colour: int = int(colour)) -> int:
                return int(((shown[:, side] == colour) & (colours == tone)).sum())

            gaps: tuple[int, ...]
            if self.parity:
                gaps = (
                    count(T.E, BLACK) - count(T.W, WHITE),
                    count(T.E, WHITE) - count(T.W, BLACK),
                    count(T.N, BLACK) - count(T.S, WHITE),
                    count(T.N, WHITE) - count(T.S, BLACK),
                )
            else:
                gaps = (count(T.E, 0) - count(T.W, 0), count(T.N, 0) - count(T.S, 0))
            if any(gaps):
                out[int(colour)] = gaps
        return out

    def is_balanced(self) -> bool:
        """Fits the board (see :meth:`misfits`) and every colour balances."""
        return not self.misfits() and not self.imbalance()

    # ------------------------------------------------------------------ conversions
    @classmethod
    def of_board(cls, board, parity: bool = False) -> RotationSet:
        """The rotation set of a complete board: each tile's rotation there (and, with
        ``parity``, the colour of its square)."""
        puzzle = board.puzzle
        if (np.asarray(board.tiles) < 0).any():
            raise InputError("a rotation set is taken from a complete board")
        rotations = np.zeros(puzzle.n_tiles, np.int64)
        colours = np.zeros(puzzle.n_tiles, np.int64)
        for square, (tile, rotation) in enumerate(zip(board.tiles, board.rotations)):
            rotations[tile] = rotation
            colours[tile] = square_parity(square, puzzle.width)
        return cls(puzzle, rotations, colours if parity else None)

    def to_plain(self) -> dict:
        """Plain data (what an engine's parameters and a worker process carry)."""
        return {
            "rotations": [int(r) for r in self.rotations],
            "colours": None if self.colours is None else [int(c) for c in self.colours],
        }

    @classmethod
    def of_plain(cls, puzzle: Puzzle, data) -> RotationSet:
        """Back from :meth:`to_plain` (a RotationSet passes through)."""
        if isinstance(data, RotationSet):
            return data
        return cls(puzzle, data["rotations"], data.get("colours"))

    def without_parity(self) -> RotationSet:
        return RotationSet(self.puzzle, self.rotations, None)

    def __repr__(self) -> str:
        state = "balanced" if self.is_balanced() else "not balanced"
        return f"<RotationSet {self.puzzle.name or 'puzzle'}{' with parity' if self.parity else ''}, {state}>"


def _class_name(key: tuple[int, int]) -> str:
    pattern, colour = key
    sides = "".join(T.SIDE_NAMES[s] for s in range(4) if pattern >> s & 1)
    kind = {0: "inner squares", 1: "edge squares", 2: "corner squares"}[min(bin(pattern).count("1"), 2)]
    where = f" on side {sides}" if pattern else ""
    tone = "" if colour < 0 else f" ({'black' if colour == BLACK else 'white'})"
    return f"{kind}{where}{tone}"


__all__ = [
    "BLACK",
    "WHITE",
    "RotationSet",
    "grey_pattern",
    "outer_pattern",
    "square_classes",
    "square_parity",
    "tile_options",
]
