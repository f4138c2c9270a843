"""Pictures of boards and tile sets: SVG, PNG and true-colour terminal output.

All three draw each tile as four triangles coloured by its N, E, S and W edges, using the
palette of :mod:`.palette`; :mod:`.scene` lays out what the SVG and PNG pictures show.
"""

from .palette import Palette, palette_for
from .png import board_png, tiles_png
from .svg import board_svg, tiles_svg

__all__ = ["Palette", "board_png", "board_svg", "palette_for", "tiles_png", "tiles_svg"]
