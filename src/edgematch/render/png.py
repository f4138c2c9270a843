"""Boards and tile sets as raster images, drawn with Pillow.

The shapes come from :mod:`.scene` (the same as the SVG pictures) and are drawn at
``supersample`` times the size and then scaled down, which smooths the tiles' diagonals
while flat areas keep their exact palette colours.
"""

from __future__ import annotations

import os
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from ..model import Board, Puzzle
from .palette import Palette
from .scene import Polygon, Rect, Scene, Text, board_scene, tiles_scene

PathLike = str | os.PathLike | None


def board_png(
    board: Board,
    path: PathLike = None,
    numbers: bool = False,
    names: bool = False,
    marks: bool = True,
    cell: int = 48,
    palette: Palette | None = None,
    supersample: int = 2,
) -> Image.Image:
    """A board (possibly partial) as an RGB image; also saved as PNG when ``path`` is given."""
    image = scene_image(board_scene(board, numbers, names, marks, cell, palette), supersample)
    if path is not None:
        image.save(path, format="PNG")
    return image


def tiles_png(
    puzzle: Puzzle,
    path: PathLike = None,
    columns: int | None = None,
    numbers: bool = True,
    marks: bool = True,
    cell: int = 48,
    palette: Palette | None = None,
    supersample: int = 2,
) -> Image.Image:
    """The puzzle's tile set as an image gallery; also saved as PNG when ``path`` is given."""
    image = scene_image(tiles_scene(puzzle, columns, numbers, marks, cell, palette), supersample)
    if path is not None:
        image.save(path, format="PNG")
    return image


#: Supersampling is skipped where it would make the drawing surface larger than this.
MAX_SUPERSAMPLED_PIXELS = 40_000_000


def scene_image(scene: Scene, supersample: int = 2) -> Image.Image:
    k = max(1, int(supersample))
    while k > 1 and scene.width * scene.height * k * k > MAX_SUPERSAMPLED_PIXELS:
        k -= 1
    image = Image.new("RGB", (scene.width * k, scene.height * k), scene.background)
    draw = ImageDraw.Draw(image)
    for shape in scene.shapes:
        if isinstance(shape, Polygon):
            points = [(x * k, y * k) for x, y in shape.points]
            draw.polygon(points, fill=shape.fill)
            if shape.outline is not None:
                line_width = max(1, round(shape.width * k))
                draw.line(points + [points[0]], fill=shape.outline, width=line_width)
        elif isinstance(shape, Rect):
            box = [shape.x0 * k, shape.y0 * k, shape.x1 * k - 1, shape.y1 * k - 1]
            if shape.fill is not None:
                draw.rectangle(box, fill=shape.fill)
            if shape.outline is not None:
                # Pillow draws outlines inside the box; SVG centres them on it.
                w = max(1, round(shape.width * k))
                grow = w // 2
                outer = [box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow]
                draw.rectangle(outer, outline=shape.outline, width=w)
        elif isinstance(shape, Text):
            font = _font(max(6, round(shape.size * k)))
            stroke = max(1, round(shape.size * k / 8)) if shape.halo is not None else 0
            draw.text(
                (shape.x * k, shape.y * k),
                shape.text,
                fill=shape.fill,
                font=font,
                anchor="mm",
                stroke_width=stroke,
                stroke_fill=shape.halo,
            )
        else:
            raise TypeError(f"cannot draw {shape!r}")
    if k > 1:
        image = image.reduce(k)
    return image


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's built-in font at ``size`` pixels (scalable when FreeType is available)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()
