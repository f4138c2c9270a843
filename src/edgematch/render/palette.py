"""Colours for pictures: one RGB per edge colour, plus the marks drawn over boards.

Puzzles whose colours are all in 0..22 (the official set and everything numbered like it,
including the generator's 16x16 default of 5 frame + 17 inner colours) use
:data:`OFFICIAL_COLOURS`: 22 distinct colours chosen after the background colour of each
real Eternity II pattern (the first word of its name, e.g. "oran-pblu-circ" is orange),
shifted where two patterns share a background so that every colour stays tellable apart.
Other puzzles get :func:`generated_colours`, spread over hue and lightness.  Everything
here is a fixed function of the colour numbers, so pictures are the same on every run.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable

RGB = tuple[int, int, int]

#: The official numbering (default numbering of the e2 data, 1-5 frame, 6-22 inner), each
#: with the pattern name it follows.
OFFICIAL_PATTERNS: tuple[tuple[str, RGB], ...] = (
    ("grey", (132, 132, 132)),
    # frame colours
    ("oran-pblu-circ", (247, 148, 29)),  # orange
    ("dblu-yell-flow", (25, 55, 160)),  # dark blue
    ("pink-pblu-ship", (240, 140, 190)),  # pink
    ("gree-dblu-nutt", (34, 139, 34)),  # green
    ("maro-oran-squi", (128, 30, 40)),  # maroon
    # inner colours
    ("pink-yell-thre", (236, 64, 122)),  # deep pink
    ("purp-pblu-snow", (160, 120, 230)),  # lavender purple
    ("yell-pblu-star", (255, 222, 23)),  # yellow
    ("purp-yell-arro", (106, 27, 154)),  # dark purple
    ("gree-pink-thre", (102, 187, 106)),  # light green
    ("maro-gree-arro", (110, 60, 30)),  # brown
    ("gree-oran-snow", (0, 105, 92)),  # teal green
    ("maro-yell-star", (150, 120, 60)),  # khaki brown
    ("pblu-pink-towe", (100, 181, 246)),  # pale blue
    ("yell-gree-squa", (190, 220, 60)),  # lime
    ("pblu-pink-snow", (0, 188, 212)),  # cyan
    ("yell-dblu-towe", (200, 160, 40)),  # mustard
    ("oran-purp-star", (255, 100, 10)),  # deep orange
    ("dblu-oran-thre", (15, 25, 80)),  # navy
    ("dblu-pblu-squa", (0, 120, 215)),  # azure
    ("pink-yell-towe", (255, 205, 225)),  # light pink
    ("dblu-pink-arro", (20, 20, 235)),  # pure blue
)
OFFICIAL_COLOURS: tuple[RGB, ...] = tuple(rgb for _, rgb in OFFICIAL_PATTERNS)

GREY_RGB: RGB = OFFICIAL_COLOURS[0]
BACKGROUND: RGB = (255, 255, 255)
EMPTY_FILL: RGB = (238, 238, 238)
EMPTY_OUTLINE: RGB = (200, 200, 200)
OUTLINE: RGB = (48, 48, 48)
MISMATCH: RGB = (255, 0, 0)
HINT_FRAME: RGB = (0, 0, 0)
LABEL: RGB = (60, 60, 60)


def generated_colours(count: int) -> list[RGB]:
    """``count`` distinct colours: hues a golden-ratio step apart, three lightness levels.

    Successive colours differ most, so a puzzle with few colours gets well separated ones;
    lightness and saturation cycle so that many colours remain distinct.  Tones close to
    the border grey, the empty-square fill or the red mismatch mark are skipped.
    """
    colours: list[RGB] = []
    seen: set[RGB] = set()
    lightness = (0.52, 0.34, 0.72)
    saturation = (0.85, 0.65, 0.95, 0.75)
    reserved = (GREY_RGB, EMPTY_FILL, MISMATCH)
    k = 0
    while len(colours) < count:
        hue = (0.1 + k * 0.6180339887498949) % 1.0
        if k < 1200:
            light = lightness[k % 3]
            sat = saturation[(k // 3) % 4]
        else:  # very many colours: spread lightness and saturation too, never repeating
            light = 0.25 + 0.55 * ((k * 0.7548776662466927) % 1.0)
            sat = 0.45 + 0.55 * ((k * 0.5698402909980532) % 1.0)
        r, g, b = colorsys.hls_to_rgb(hue, light, sat)
        rgb = (round(r * 255), round(g * 255), round(b * 255))
        k += 1
        if rgb in seen or min(difference(rgb, other) for other in reserved) < 20:
            continue
        seen.add(rgb)
        colours.append(rgb)
    return colours


class Palette:
    """Edge colour number -> RGB for one puzzle (grey 0 always the border grey)."""

    def __init__(self, colours: dict[int, RGB]):
        self._colours = dict(colours)
        self._colours.setdefault(0, GREY_RGB)

    def __getitem__(self, colour: int) -> RGB:
        try:
            return self._colours[int(colour)]
        except KeyError:
            # a colour the puzzle does not have (a stray board edge): draw it visibly odd
            return (255, 0, 255)

    def hex(self, colour: int) -> str:
        red, green, blue = self[colour]
        return f"#{red:02x}{green:02x}{blue:02x}"

    def items(self) -> list[tuple[int, RGB]]:
        return sorted(self._colours.items())

    @classmethod
    def for_colours(cls, colours: Iterable[int]) -> Palette:
        """Official colours when every number is in 0..22, generated colours otherwise."""
        numbers = sorted({int(c) for c in colours if int(c) != 0})
        if not numbers or numbers[-1] < len(OFFICIAL_COLOURS):
            return cls({c: OFFICIAL_COLOURS[c] for c in range(len(OFFICIAL_COLOURS))})
        return cls(dict(zip(numbers, generated_colours(len(numbers)))))


def palette_for(puzzle) -> Palette:
    """The palette a puzzle's pictures use (see the module's description)."""
    return Palette.for_colours(puzzle.colours)


def luminance(rgb: RGB) -> float:
    """Relative luminance (WCAG), 0 black .. 1 white."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def text_colour(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on ``rgb``."""
    return (0, 0, 0) if luminance(rgb) > 0.22 else (255, 255, 255)


def lab(rgb: RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour, for measuring how different two colours look."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def difference(a: RGB, b: RGB) -> float:
    """CIE76 colour difference (about 2.3 is just noticeable; above 20 is clearly different)."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5
