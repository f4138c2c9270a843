"""The puzzle: a board size, a set of tiles and the hints (pre-placed tiles).

A :class:`Puzzle` is immutable and always valid: the constructor checks everything a
puzzle must satisfy before any engine sees it, and reports problems as
:class:`~edgematch.errors.InputError` naming the tile or hint at fault (file readers turn
that into a file line).  Derived facts (kinds, frame and inner colours, histograms,
symmetric and duplicate tiles) are computed once, on demand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..errors import InputError
from . import tiles as T
from .squares import square_name

MAX_COLOUR = 65535
MAX_SIDE = 1024


@dataclass(frozen=True)
class Hint:
    """A tile pre-placed on a square in a rotation (all 0-based)."""

    square: int
    tile: int
    rotation: int


def expected_kind_counts(width: int, height: int) -> dict[int, int]:
    """How many corner, edge and inner squares a W x H board has."""
    return {
        T.CORNER: 4,
        T.EDGE: 2 * (width - 2) + 2 * (height - 2),
        T.INNER: (width - 2) * (height - 2),
    }


def infer_size(tiles: np.ndarray) -> tuple[int, int]:
    """Board size (width >= height) implied by the tile counts of each kind.

    With ``e`` edge tiles and ``n`` tiles, ``W + H = e/2 + 4`` and ``W * H = n``; the pair
    is unique up to swapping.  Raises :class:`InputError` when no board fits.
    """
    n = len(tiles)
    greys = (np.asarray(tiles) == T.GREY).sum(axis=1)
    edges = int((greys == 1).sum())
    corners = int((greys == 2).sum())
    if corners != 4 or edges % 2:
        raise InputError(
            f"cannot infer the board size: {n} tiles with {corners} corner and {edges} edge tiles "
            "fit no rectangular board (give the size explicitly)"
        )
    total = edges // 2 + 4
    for height in range(2, total // 2 + 1):
        width = total - height
        if width * height == n:
            return width, height
    raise InputError(
        f"cannot infer the board size: {n} tiles with {corners} corner and {edges} edge tiles "
        "fit no rectangular board (give the size explicitly)"
    )


class Puzzle:
    """An edge-matching puzzle: ``width`` x ``height`` squares, tiles (n, 4) in N E S W order.

    ``hints`` maps squares to ``(tile, rotation)`` or is a sequence of :class:`Hint`.
    """

    def __init__(
        self,
        tiles,
        width: int | None = None,
        height: int | None = None,
        hints: Mapping[int, tuple[int, int]] | Iterable[Hint] | None = None,
        name: str = "",
    ):
        array = _as_tile_array(tiles)
        if width is None and height is None:
            width, height = infer_size(array)
        elif height is None:
            height = width
        elif width is None:
            width = height
        assert width is not None and height is not None
        self._check_size(int(width), int(height), len(array))
        self.width = int(width)
        self.height = int(height)
        self.tiles = array
        self.tiles.setflags(write=False)
        self.name = name
        self.hints: tuple[Hint, ...] = self._check_hints(_as_hints(hints))
        self._check_tiles()

    # ------------------------------------------------------------------ validation
    @staticmethod
    def _check_size(width: int, height: int, n: int) -> None:
        if width < 2 or height < 2:
            raise InputError(f"board size {width}x{height} is too small (at least 2x2)")
        if width > MAX_SIDE or height > MAX_SIDE:
            raise InputError(f"board size {width}x{height} is too large (at most {MAX_SIDE} per side)")
        if n != width * height:
            raise InputError(f"{n} tiles given but a {width}x{height} board needs {width * height}")

    def _check_tiles(self) -> None:
        counts: Counter[int] = Counter()
        for index, tile in enumerate(self.tiles):
            grey = [c == T.GREY for c in tile]
            n_grey = sum(grey)
            label = f"tile {index + 1} ({' '.join(str(int(c)) for c in tile)})"
            if n_grey > 2:
                raise InputError(f"{label} has {n_grey} grey sides; at most 2 can face the outside", tile=index)
            if n_grey == 2 and (grey[0] == grey[2]):
                raise InputError(
                    f"{label} has grey on opposite sides, which can never both face the outside", tile=index
                )
            counts[n_grey] += 1
        expected = expected_kind_counts(self.width, self.height)
        for kind in (T.CORNER, T.EDGE, T.INNER):
            if counts[kind] != expected[kind]:
                raise InputError(
                    f"a {self.width}x{self.height} board needs {expected[kind]} {T.KIND_NAMES[kind]} tiles "
                    f"(grey on {kind} side{'s' if kind != 1 else ''}) but {counts[kind]} are given"
                )

    def _check_hints(self, hints: list[Hint]) -> tuple[Hint, ...]:
        squares: dict[int, int] = {}
        used: dict[int, int] = {}
        n_squares = self.width * self.height
        for index, hint in enumerate(hints):
            if not 0 <= hint.square < n_squares:
                raise InputError(f"hint square {hint.square} is off the {self.width}x{self.height} board", hint=index)
            where = square_name(hint.square, self.width)
            if not 0 <= hint.tile < len(self.tiles):
                raise InputError(
                    f"hint on {where} names tile {hint.tile + 1}, but there are {len(self.tiles)} tiles", hint=index
                )
            if not 0 <= hint.rotation < 4:
                raise InputError(f"hint on {where} has rotation {hint.rotation} (must be 0..3)", hint=index)
            if hint.square in squares:
                raise InputError(f"two hints on square {where}", hint=index)
            if hint.tile in used:
                raise InputError(
                    f"tile {hint.tile + 1} is hinted twice ({square_name(used[hint.tile], self.width)} and {where})",
                    hint=index,
                )
            if not T.fits_border(self.tiles[hint.tile], hint.rotation, hint.square, self.width, self.height):
                shown = " ".join(str(int(c)) for c in T.rotate(self.tiles[hint.tile], hint.rotation))
                raise InputError(
                    f"hint tile {hint.tile + 1} in rotation {hint.rotation} shows {shown} (N E S W), "
                    f"which does not fit the border at {where}",
                    hint=index,
                )
            squares[hint.square] = index
            used[hint.tile] = hint.square
        return tuple(hints)

    # ------------------------------------------------------------------ basic facts
    @property
    def n_tiles(self) -> int:
        return len(self.tiles)

    @property
    def n_squares(self) -> int:
        return self.width * self.height

    @property
    def max_score(self) -> int:
        """Number of inner joins: 2WH - W - H (480 on 16x16)."""
        return 2 * self.width * self.height - self.width - self.height

    @property
    def is_square(self) -> bool:
        return self.width == self.height

    @cached_property
    def hint_map(self) -> dict[int, tuple[int, int]]:
        """square -> (tile, rotation) for every hint."""
        return {h.square: (h.tile, h.rotation) for h in self.hints}

    @cached_property
    def kinds(self) -> np.ndarray:
        """Kind of each tile: 0 inner, 1 edge, 2 corner (its number of grey sides)."""
        return (self.tiles == T.GREY).sum(axis=1).astype(np.int8)

    def tiles_of_kind(self, kind: int) -> np.ndarray:
        return np.flatnonzero(self.kinds == kind)

    @cached_property
    def colours(self) -> list[int]:
        """Every non-grey colour that appears."""
        return sorted(int(c) for c in np.unique(self.tiles) if c != T.GREY)

    @cached_property
    def colour_histogram(self) -> dict[int, int]:
        """Number of tile sides of each non-grey colour."""
        values, counts = np.unique(self.tiles[self.tiles != T.GREY], return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts)}

    @cached_property
    def _side_roles(self) -> tuple[Counter, Counter]:
        """Histograms of frame sides (along the border) and inner sides (facing inward)."""
        frame: Counter[int] = Counter()
        inner: Counter[int] = Counter()
        for tile in self.tiles:
            grey = [c == T.GREY for c in tile]
            for s, colour in enumerate(tile):
                if grey[s]:
                    continue
                along_border = grey[(s + 1) % 4] or grey[(s - 1) % 4]
                if along_border:
                    frame[int(colour)] += 1
                else:
                    inner[int(colour)] += 1
        return frame, inner

    @cached_property
    def frame_colours(self) -> list[int]:
        """Colours on the sides of border tiles that join other border tiles."""
        return sorted(self._side_roles[0])

    @cached_property
    def inner_colours(self) -> list[int]:
        """Colours on sides that face into the board."""
        return sorted(self._side_roles[1])

    @cached_property
    def symmetric_tiles(self) -> list[int]:
        """Tiles that look the same after a half or quarter turn."""
        return [i for i, t in enumerate(self.tiles) if len(T.distinct_rotations(t)) < 4]

    @cached_property
    def duplicate_groups(self) -> list[list[int]]:
        """Groups of two or more tiles that are equal up to rotation."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for i, t in enumerate(self.tiles):
            groups.setdefault(T.canonical_form(t), []).append(i)
        return [g for g in groups.values() if len(g) > 1]

    def warnings(self) -> list[str]:
        """Facts that make the puzzle unsolvable although it is well formed."""
        found = []
        frame, inner = self._side_roles
        for colour, count in sorted(frame.items()):
            if count % 2:
                found.append(f"frame colour {colour} appears on {count} frame sides (odd: no solution)")
        for colour, count in sorted(inner.items()):
            if count % 2:
                found.append(f"inner colour {colour} appears on {count} inner sides (odd: no solution)")
        return found

    # ------------------------------------------------------------------ derived puzzles
    def with_hints(self, hints, name: str | None = None) -> Puzzle:
        return Puzzle(self.tiles, self.width, self.height, hints, self.name if name is None else name)

    def without_hints(self, name: str | None = None) -> Puzzle:
        return self.with_hints(None, name)

    # ------------------------------------------------------------------ reports
    def summary(self) -> dict:
        """Plain data for ``edgematch info --json``."""
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "tiles": self.n_tiles,
            "corner_tiles": int((self.kinds == T.CORNER).sum()),
            "edge_tiles": int((self.kinds == T.EDGE).sum()),
            "inner_tiles": int((self.kinds == T.INNER).sum()),
            "colours": len(self.colours),
            "frame_colours": self.frame_colours,
            "inner_colours": self.inner_colours,
            "colour_histogram": {str(k): v for k, v in self.colour_histogram.items()},
            "hints": [
                {
                    "square": square_name(h.square, self.width),
                    "index": h.square,
                    "tile": h.tile + 1,
                    "rotation": h.rotation,
                }
                for h in self.hints
            ],
            "symmetric_tiles": [i + 1 for i in self.symmetric_tiles],
            "duplicate_tiles": [[i + 1 for i in g] for g in self.duplicate_groups],
            "max_score": self.max_score,
            "warnings": self.warnings(),
        }

    def __eq__(self, other) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (
            self.width == other.width
            and self.height == other.height
            and np.array_equal(self.tiles, other.tiles)
            and self.hints == other.hints
        )

    def __hash__(self) -> int:
        return hash((self.width, self.height, self.tiles.tobytes(), self.hints))

    def _repr_svg_(self) -> str:
        """The tile set as an SVG picture, shown by Jupyter."""
        from ..render.svg import tiles_svg

        return tiles_svg(self)

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return f"<Puzzle{label} {self.width}x{self.height}, {len(self.colours)} colours, {len(self.hints)} hints>"


def _as_tile_array(tiles) -> np.ndarray:
    plain = np.asarray(tiles) if isinstance(tiles, np.ndarray) else None
    if plain is not None and plain.dtype.kind in "iu":
        array = plain
    else:
        try:
            array = np.array(tiles, dtype=object)
        except (TypeError, ValueError) as exc:  # ragged input
            raise InputError(f"tiles must be rows of 4 colours ({exc})") from None
    if array.ndim != 2 or array.shape[1] != 4:
        raise InputError(f"tiles must be rows of 4 colours, got shape {array.shape}")
    if array.dtype == object:
        for index, row in enumerate(array):
            for value in row:
                if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                    raise InputError(f"tile {index + 1}: colour {value!r} is not an integer", tile=index)
    bad = np.flatnonzero(((array < 0) | (array > MAX_COLOUR)).any(axis=1))
    if len(bad):
        index = int(bad[0])
        value = next(int(v) for v in array[index] if v < 0 or v > MAX_COLOUR)
        problem = "is negative" if value < 0 else f"is too large (at most {MAX_COLOUR})"
        raise InputError(f"tile {index + 1}: colour {value} {problem}", tile=index)
    return np.array(array, dtype=np.int32)


def _as_hints(hints) -> list[Hint]:
    if hints is None:
        return []
    if isinstance(hints, Mapping):
        return [Hint(int(sq), int(t), int(r)) for sq, (t, r) in hints.items()]
    result = []
    for h in hints:
        if isinstance(h, Hint):
            result.append(h)
        else:
            sq, t, r = h
            result.append(Hint(int(sq), int(t), int(r)))
    return result
