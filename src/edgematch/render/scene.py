"""What a picture shows, as a list of simple shapes in pixel coordinates.

Boards and tile galleries are laid out once here; :mod:`.svg` and :mod:`.png` only turn
the shapes into SVG elements or Pillow drawing calls, so both kinds of picture show
exactly the same thing.

Each tile is four triangles meeting at its centre, coloured by the colours shown on its
N, E, S and W sides.  On boards (with ``marks``) a red bar lies across every join whose
two colours differ and on every outer side that is not grey, and hinted squares get a
thick black frame.  ``numbers`` writes the 1-based piece number on each tile; ``names``
writes the community row letters (A..) and column numbers (1..) around the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import InputError
from ..model import EMPTY, Board, Puzzle
from ..model.squares import row_letters
from ..model.tiles import GREY, outer_sides
from .palette import (
    BACKGROUND,
    EMPTY_FILL,
    EMPTY_OUTLINE,
    HINT_FRAME,
    LABEL,
    MISMATCH,
    OUTLINE,
    RGB,
    Palette,
    palette_for,
)

Point = tuple[float, float]


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    fill: RGB
    outline: RGB | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float
    fill: RGB | None
    outline: RGB | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Text:
    """Text centred on (x, y); ``halo`` is a contrasting outline that keeps it readable."""

    x: float
    y: float
    text: str
    size: float
    fill: RGB
    halo: RGB | None = None


@dataclass
class Scene:
    """A picture: its size, its shapes in drawing order, and where each square or tile is.

    ``corners[i]`` is the top-left corner of square ``i`` (boards) or tile ``i``
    (galleries), each ``cell`` pixels wide, so callers can find things in the picture.
    """

    width: int
    height: int
    cell: int
    background: RGB = BACKGROUND
    shapes: list = field(default_factory=list)
    corners: list[Point] = field(default_factory=list)


def tile_triangles(x: float, y: float, cell: float, edges, palette: Palette) -> list[Polygon]:
    """The four triangles (N, E, S, W) of a tile whose top-left corner is (x, y)."""
    tl, tr, br, bl = (x, y), (x + cell, y), (x + cell, y + cell), (x, y + cell)
    centre = (x + cell / 2, y + cell / 2)
    corners = ((tl, tr), (tr, br), (br, bl), (bl, tl))
    return [Polygon((a, b, centre), palette[int(colour)], OUTLINE, 1.0) for (a, b), colour in zip(corners, edges)]


def _number(x: float, y: float, cell: float, value: int) -> Text:
    return Text(x + cell / 2, y + cell / 2, str(value), cell * 0.27, (0, 0, 0), (255, 255, 255))


def board_scene(
    board: Board,
    numbers: bool = False,
    names: bool = False,
    marks: bool = True,
    cell: int = 48,
    palette: Palette | None = None,
) -> Scene:
    """The picture of a (possibly partial) board."""
    _check_cell(cell)
    puzzle = board.puzzle
    palette = palette or palette_for(puzzle)
    width, height = puzzle.width, puzzle.height
    margin = round(cell * 0.6) if names else max(2, cell // 12)
    left = top = margin
    end = max(2, cell // 12)
    scene = Scene(int(math.ceil(left + width * cell + end)), int(math.ceil(top + height * cell + end)), cell)
    scene.corners = [(left + col * cell, top + row * cell) for row in range(height) for col in range(width)]
    shapes = scene.shapes
    edges = board.edges()

    def corner(square: int) -> Point:
        return scene.corners[square]

    for square in range(puzzle.n_squares):
        x, y = corner(square)
        if board.tiles[square] == EMPTY:
            shapes.append(Rect(x, y, x + cell, y + cell, EMPTY_FILL, EMPTY_OUTLINE, 1.0))
        else:
            shapes.extend(tile_triangles(x, y, cell, edges[square], palette))

    if marks:
        frame = max(2.0, cell / 12)
        for hint in puzzle.hints:
            x, y = corner(hint.square)
            inset = frame / 2
            shapes.append(Rect(x + inset, y + inset, x + cell - inset, y + cell - inset, None, HINT_FRAME, frame))
        shapes.extend(_mismatch_bars(board, edges, corner, cell))

    if numbers:
        for square in board.placed():
            x, y = corner(int(square))
            shapes.append(_number(x, y, cell, int(board.tiles[square]) + 1))

    if names:
        size = cell * 0.32
        for col in range(width):
            shapes.append(Text(left + (col + 0.5) * cell, top / 2, str(col + 1), size, LABEL))
        for row in range(height):
            shapes.append(Text(left / 2, top + (row + 0.5) * cell, row_letters(row), size, LABEL))
    return scene


def mark_thickness(cell: int) -> float:
    return max(3.0, cell / 8)


def _mismatch_bars(board: Board, edges, corner, cell: int) -> list[Rect]:
    """Red bars across mismatched joins and across outer sides that are not grey."""
    puzzle = board.puzzle
    half_t = mark_thickness(cell) / 2
    half_l = cell * 0.28
    bars = []

    def bar_on_side(square: int, side: int) -> Rect:
        x, y = corner(square)
        cx, cy = x + cell / 2, y + cell / 2
        if side in (0, 2):  # a horizontal stretch of edge: the bar lies along it
            ey = y if side == 0 else y + cell
            return Rect(cx - half_l, ey - half_t, cx + half_l, ey + half_t, MISMATCH, BACKGROUND, 1.0)
        ex = x if side == 3 else x + cell
        return Rect(ex - half_t, cy - half_l, ex + half_t, cy + half_l, MISMATCH, BACKGROUND, 1.0)

    for mismatch in board.mismatches():
        join = mismatch.join
        bars.append(bar_on_side(join.a, 1 if join.horizontal else 2))
    for square in board.placed():
        outer = outer_sides(int(square), puzzle.width, puzzle.height)
        for side in range(4):
            if outer[side] and edges[square, side] != GREY:
                bars.append(bar_on_side(int(square), side))
    return bars


def tiles_scene(
    puzzle: Puzzle,
    columns: int | None = None,
    numbers: bool = True,
    marks: bool = True,
    cell: int = 48,
    palette: Palette | None = None,
) -> Scene:
    """Every tile of the puzzle as stored (rotation 0), in order, in a grid.

    ``columns`` defaults to the board's width, so the gallery has the board's shape.
    With ``marks``, tiles the puzzle's hints use get the hint frame.
    """
    _check_cell(cell)
    palette = palette or palette_for(puzzle)
    columns = puzzle.width if columns is None else int(columns)
    if columns < 1:
        raise InputError(f"a gallery needs at least one column (got {columns})")
    gap = max(2, cell // 6)
    rows = -(-puzzle.n_tiles // columns)
    step = cell + gap
    scene = Scene(columns * step + gap, rows * step + gap, cell)
    hinted = {h.tile for h in puzzle.hints}
    frame = max(2.0, cell / 12)
    for index, tile in enumerate(puzzle.tiles):
        row, col = divmod(index, columns)
        x, y = gap + col * step, gap + row * step
        scene.corners.append((x, y))
        scene.shapes.extend(tile_triangles(x, y, cell, tile, palette))
        if marks and index in hinted:
            inset = frame / 2
            scene.shapes.append(Rect(x + inset, y + inset, x + cell - inset, y + cell - inset, None, HINT_FRAME, frame))
        if numbers:
            scene.shapes.append(_number(x, y, cell, index + 1))
    return scene


def _check_cell(cell: int) -> None:
    if not isinstance(cell, int) or cell < 8:
        raise InputError(f"cell size must be a whole number of pixels, at least 8 (got {cell!r})")
