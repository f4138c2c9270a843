"""Tile geometry: sides, rotations, kinds.

A tile is four colours clockwise from north: N, E, S, W (sides 0..3).  Rotation ``r`` is
``r`` clockwise quarter turns; after it, side ``s`` shows the tile's original side
``(s - r) mod 4``, which is exactly ``numpy.roll(tile, r)``.  Colour 0 is the grey border.
"""

from __future__ import annotations

import numpy as np

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
GREY = 0

INNER, EDGE, CORNER = 0, 1, 2
KIND_NAMES = {INNER: "inner", EDGE: "edge", CORNER: "corner"}


def rotate(edges, rotation: int) -> np.ndarray:
    """Colours shown on N, E, S, W after ``rotation`` clockwise quarter turns."""
    return np.roll(np.asarray(edges), rotation % 4, axis=-1)


def rotated_table(tiles: np.ndarray) -> np.ndarray:
    """All four rotations of every tile: array (n, 4 rotations, 4 sides)."""
    return np.stack([np.roll(tiles, r, axis=1) for r in range(4)], axis=1)


def distinct_rotations(edges) -> list[int]:
    """Rotations that show different edges (a symmetric tile has 1 or 2, others 4)."""
    seen: set[tuple[int, ...]] = set()
    result = []
    for r in range(4):
        key = tuple(int(c) for c in rotate(edges, r))
        if key not in seen:
            seen.add(key)
            result.append(r)
    return result


#: The two counting conventions for rotationally symmetric tiles (``--each-rotation``):
#: ``"distinct"`` (default) places a tile once per distinct look, ``"each"`` places it in
#: every rotation, as Eternity2Puzzles.jl does (counts grow by the symmetry factors).
ROTATION_CONVENTIONS = ("distinct", "each")


def rotation_convention(each_rotation: bool) -> str:
    """``"each"`` when every rotation is its own placement, else ``"distinct"``."""
    return "each" if each_rotation else "distinct"


def placement_rotations(edges, each_rotation: bool = False) -> list[int]:
    """The rotations a search tries for a tile: the distinct ones, or all four when
    ``each_rotation`` (a symmetric tile then gives 2 or 4 placements showing the same edges)."""
    return [0, 1, 2, 3] if each_rotation else distinct_rotations(edges)


def canonical_rotation(edges, rotation: int) -> int:
    """The smallest rotation showing the same edges as ``rotation``: the rotations of a
    symmetric tile that look alike are one placement, named by this one."""
    shown = rotate(edges, rotation)
    return next(r for r in range(4) if np.array_equal(rotate(edges, r), shown))


def canonical_rotation_table(tiles: np.ndarray) -> np.ndarray:
    """``table[t, r]`` = :func:`canonical_rotation` of tile ``t`` in rotation ``r`` (for
    normalising many placements at once)."""
    table = np.zeros((len(tiles), 4), dtype=np.int8)
    for t, edges in enumerate(tiles):
        for r in range(4):
            table[t, r] = canonical_rotation(edges, r)
    return table


def canonical_form(edges) -> tuple[int, ...]:
    """The smallest rotation as a tuple: equal for tiles that are the same up to rotation."""
    return min(tuple(int(c) for c in rotate(edges, r)) for r in range(4))


def outer_sides(square: int, width: int, height: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (N, E, S, W) of a square face the outside of the board."""
    row, col = divmod(square, width)
    return (row == 0, col == width - 1, row == height - 1, col == 0)


def square_kind(square: int, width: int, height: int) -> int:
    """CORNER, EDGE or INNER, by how many sides of the square face the outside."""
    return min(sum(outer_sides(square, width, height)), CORNER)


def fits_border(edges, rotation: int, square: int, width: int, height: int) -> bool:
    """True when the rotated tile shows grey on exactly the outer sides of the square."""
    shown = rotate(edges, rotation)
    return all((shown[s] == GREY) == out for s, out in enumerate(outer_sides(square, width, height)))


def border_rotations(edges, square: int, width: int, height: int, each_rotation: bool = False) -> list[int]:
    """The distinct rotations (every rotation with ``each_rotation``) in which a tile fits
    the border of a square."""
    return [r for r in placement_rotations(edges, each_rotation) if fits_border(edges, r, square, width, height)]
