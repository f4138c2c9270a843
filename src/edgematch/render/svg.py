"""Boards and tile sets as standalone SVG documents (text, no dependencies)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from ..model import Board, Puzzle
from .palette import RGB, Palette
from .scene import Polygon, Rect, Scene, Text, board_scene, tiles_scene


def board_svg(
    board: Board,
    numbers: bool = False,
    names: bool = False,
    marks: bool = True,
    cell: int = 48,
    palette: Palette | None = None,
) -> str:
    """A board (possibly partial) as an SVG document; see :mod:`.scene` for what it shows."""
    return scene_svg(board_scene(board, numbers, names, marks, cell, palette))


def tiles_svg(
    puzzle: Puzzle,
    columns: int | None = None,
    numbers: bool = True,
    marks: bool = True,
    cell: int = 48,
    palette: Palette | None = None,
) -> str:
    """The puzzle's tile set as an SVG gallery (tiles as stored, numbered from 1)."""
    return scene_svg(tiles_scene(puzzle, columns, numbers, marks, cell, palette))


def scene_svg(scene: Scene) -> str:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}">',
        f'<rect x="0" y="0" width="{scene.width}" height="{scene.height}" fill="{_hex(scene.background)}"/>',
    ]
    for shape in scene.shapes:
        lines.append(_element(shape))
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _element(shape) -> str:
    if isinstance(shape, Polygon):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
        return f'<polygon points="{points}" {_paint(shape.fill, shape.outline, shape.width)} stroke-linejoin="round"/>'
    if isinstance(shape, Rect):
        return (
            f'<rect x="{_num(shape.x0)}" y="{_num(shape.y0)}" width="{_num(shape.x1 - shape.x0)}" '
            f'height="{_num(shape.y1 - shape.y0)}" {_paint(shape.fill, shape.outline, shape.width)}/>'
        )
    if isinstance(shape, Text):
        halo = ""
        if shape.halo is not None:
            halo = f' stroke="{_hex(shape.halo)}" stroke-width="{_num(shape.size / 6)}" paint-order="stroke"'
        return (
            f'<text x="{_num(shape.x)}" y="{_num(shape.y)}" font-family="DejaVu Sans, Arial, sans-serif" '
            f'font-size="{_num(shape.size)}" font-weight="bold" text-anchor="middle" dominant-baseline="central" '
            f'fill="{_hex(shape.fill)}"{halo}>{escape(shape.text)}</text>'
        )
    raise TypeError(f"cannot draw {shape!r}")


def _paint(fill: RGB | None, outline: RGB | None, width: float) -> str:
    parts = [f'fill="{_hex(fill)}"' if fill is not None else 'fill="none"']
    if outline is not None:
        parts.append(f'stroke="{_hex(outline)}" stroke-width="{_num(width)}"')
    return " ".join(parts)


def _hex(rgb: RGB) -> str:
    red, green, blue = rgb
    return f"#{red:02x}{green:02x}{blue:02x}"


def _num(value: float) -> str:
    """Short, exact-enough coordinates: whole numbers without a decimal point."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"
