"""Scan orders: the fixed sequence of squares a backtracking search fills.

Every named order is built for the top-left corner first (row 0 at the top, column 0 at
the left) and then mirrored to the corner asked for, so each order exists from all four
corners without writing it four times.  The engine accepts *any* order: it works out,
for each square, which neighbours are already placed when the square is reached and
looks candidates up by exactly those colours.  An order therefore only has to list every
square once; hint squares may be listed or left out (they are placed before the search).

Names (``--order``):

``rowscan``     rows from the corner's row, each row starting at the corner's column.
``colscan``     columns likewise.
``spiral-in``   the outer ring from the corner (clockwise from TL), then inward.
``spiral-out``  the same squares in reverse: from the centre out to the corner.
``diagonal``    anti-diagonals from the corner, alternating direction (zig-zag).
``frame``       the border ring first (as ``spiral-in``), then the interior by rows.
``e2path``      the path of the Julia package Eternity2Puzzles.jl (default corner BL): the
                starter square (row H/2, column W/2, I8 on 16x16) first, then the
                bottom-left quadrant as growing squares, the rest of the bottom half by
                rows, the middle rows, the top band column by column and a final block
                peeled row/column alternately.  On 16x16 it is exactly the package's path.
``blackwood``   the scan order of Joshua Blackwood's record solver (libblackwood's JB470,
                default corner BL): rows from the corner's row up to the last five rows,
                then the five-by-five block at the far corner of those rows row by row,
                the middle columns each across the five rows, and the last four columns
                peeled row and column alternately.  On boards smaller than 10 x 6,
                where those parts do not fit, the row scan from the same corner.
``blackwood-clues``  his order with its first three rows filled column by column (default
                corner BL: P1, O1, N1, P2, ...), so that clue hints on the third row
                (N3 and N14 on Eternity II) meet their neighbours a column at a time; in
                his row by row order a hint that does not fit the row below is found only
                a row later, and the search thrashes there.  On boards too small for his
                parts, the row scan with its first three rows column by column.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ..errors import InputError
from .squares import parse_square, square_name

ORDER_NAMES = (
    "rowscan",
    "colscan",
    "spiral-in",
    "spiral-out",
    "diagonal",
    "frame",
    "e2path",
    "blackwood",
    "blackwood-clues",
)
CORNERS = ("TL", "TR", "BL", "BR")
DEFAULT_CORNER = {"e2path": "BL", "blackwood": "BL", "blackwood-clues": "BL"}


# ---------------------------------------------------------------------------- generators
# Each returns (row, col) pairs in the top-left frame of a width x height board.


def _rowscan(width: int, height: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(height) for c in range(width)]


def _colscan(width: int, height: int) -> list[tuple[int, int]]:
    return [(r, c) for c in range(width) for r in range(height)]


def _spiral_in(width: int, height: int) -> list[tuple[int, int]]:
    cells = []
    top, bottom, left, right = 0, height - 1, 0, width - 1
    while top <= bottom and left <= right:
        cells += [(top, c) for c in range(left, right + 1)]
        cells += [(r, right) for r in range(top + 1, bottom + 1)]
        if top < bottom:
            cells += [(bottom, c) for c in range(right - 1, left - 1, -1)]
        if left < right:
            cells += [(r, left) for r in range(bottom - 1, top, -1)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return cells


def _spiral_out(width: int, height: int) -> list[tuple[int, int]]:
    return _spiral_in(width, height)[::-1]


def _diagonal(width: int, height: int) -> list[tuple[int, int]]:
    cells = []
    for k in range(width + height - 1):
        diagonal = [(r, k - r) for r in range(height) if 0 <= k - r < width]
        cells += diagonal if k % 2 else diagonal[::-1]
    return cells


def _frame(width: int, height: int) -> list[tuple[int, int]]:
    ring = [(r, c) for r, c in _spiral_in(width, height) if r in (0, height - 1) or c in (0, width - 1)]
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    return ring + inner


def _e2path(width: int, height: int) -> list[tuple[int, int]]:
    """The Julia package's Eternity II path, generalised to W x H (see module docstring).

    Built with rows counted from the bottom (the package's frame) and flipped to the
    top-left frame at the end, so that the default corner BL gives the package's path.
    """
    cells: list[tuple[int, int]] = []  # (row from bottom, col)
    start = (height - 1 - height // 2, width // 2 - 1 if width > 1 else 0)
    cells.append(start)
    qh, qw = height - height // 2, width // 2
    m = min(qh, qw)
    for k in range(m):  # growing squares in the bottom-left quadrant
        cells += [(r, k) for r in range(k)]
        cells += [(k, c) for c in range(k + 1)]
    for r in range(m, qh):  # quadrant taller than wide: remaining rows
        cells += [(r, c) for c in range(qw)]
    for c in range(m, qw):  # quadrant wider than tall: remaining columns
        cells += [(r, c) for r in range(qh)]
    for r in range(qh):  # the rest of the bottom half, by rows
        cells += [(r, c) for c in range(qw, width)]
    band = height // 4
    for r in range(qh, height - band):  # middle rows
        cells += [(r, c) for c in range(width)]
    block = max(band - 1, 0)
    for c in range(width - block):  # top band by columns
        cells += [(r, c) for r in range(height - band, height)]
    r0, r1, c0, c1 = height - band, height, width - block, width
    while r0 < r1 and c0 < c1:  # final block, peeled row then column
        cells += [(r0, c) for c in range(c0, c1)]
        r0 += 1
        if r0 >= r1:
            break
        cells += [(r, c0) for r in range(r0, r1)]
        c0 += 1
    seen: set[tuple[int, int]] = set()
    unique = []
    for cell in cells:  # the starter square appears twice (first and in its quadrant)
        if cell not in seen:
            seen.add(cell)
            unique.append(cell)
    return [(height - 1 - r, c) for r, c in unique]


def _blackwood(width: int, height: int) -> list[tuple[int, int]]:
    """JB470's order from the top-left corner (its last five rows are rows H-5 .. H-1)."""
    if width < 10 or height < 6:
        return _rowscan(width, height)
    band = list(range(height - 5, height))  # the last five rows, nearest the start first
    cells = [(r, c) for r in range(height - 5) for c in range(width)]
    cells += [(r, c) for r in band for c in range(5)]
    cells += [(r, c) for c in range(5, width - 4) for r in band]
    right = width - 4
    cells += [(band[0], c) for c in range(right, width)]
    cells += [(r, right) for r in band[1:]]
    cells += [(band[1], c) for c in range(right + 1, width)]
    cells += [(r, right + 1) for r in band[2:]]
    cells += [(r, c) for r in band[2:] for c in (right + 2, right + 3)]
    return cells


def _blackwood_clues(width: int, height: int) -> list[tuple[int, int]]:
    """JB470's order with its first three rows column by column (see module docstring)."""
    cells = _blackwood(width, height)
    first = [(r, c) for c in range(width) for r in range(min(3, height))]
    return first + [cell for cell in cells if cell[0] >= 3]


_GENERATORS = {
    "rowscan": _rowscan,
    "colscan": _colscan,
    "spiral-in": _spiral_in,
    "spiral-out": _spiral_out,
    "diagonal": _diagonal,
    "frame": _frame,
    "e2path": lambda w, h: _orient(_e2path(w, h), "BL", w, h),  # back to the TL frame
    "blackwood": _blackwood,
    "blackwood-clues": _blackwood_clues,
}


def _orient(cells: Iterable[tuple[int, int]], corner: str, width: int, height: int) -> list[tuple[int, int]]:
    """Mirror top-left-frame cells so that they start from ``corner`` instead."""
    flip_rows = corner in ("BL", "BR")
    flip_cols = corner in ("TR", "BR")
    return [(height - 1 - r if flip_rows else r, width - 1 - c if flip_cols else c) for r, c in cells]


# ---------------------------------------------------------------------------- public API
def scan_order(name: str, width: int, height: int, corner: str | None = None) -> list[int]:
    """The squares of a named order (every square of the board, hints included)."""
    key = name.lower()
    if key not in _GENERATORS:
        raise InputError(f"unknown scan order '{name}' (known: {', '.join(ORDER_NAMES)}, or a file of square names)")
    corner = (corner or DEFAULT_CORNER.get(key, "TL")).upper()
    if corner not in CORNERS:
        raise InputError(f"unknown corner '{corner}' (use one of {', '.join(CORNERS)})")
    cells = _orient(_GENERATORS[key](width, height), corner, width, height)
    return [r * width + c for r, c in cells]


def parse_order_text(text: str, width: int, height: int, source: str | None = None) -> list[int]:
    """Squares from text: names (``A1``) or 0-based indices, separated by spaces, commas or
    newlines; ``#`` starts a comment."""
    squares = []
    for number, line in enumerate(text.splitlines(), start=1):
        body = line.split("#", 1)[0]
        for token in re.split(r"[\s,;]+", body.strip()):
            if not token:
                continue
            try:
                squares.append((parse_square(token, width, height), number))
            except InputError as err:
                raise InputError(err.message, source, number) from None
    if not squares:
        raise InputError("the order lists no squares", source)
    seen: dict[int, int] = {}
    for square, number in squares:
        if square in seen:
            raise InputError(
                f"square {square_name(square, width)} is listed twice (first on line {seen[square]})", source, number
            )
        seen[square] = number
    return [s for s, _ in squares]


def resolve_order(spec, width: int, height: int, corner: str | None = None) -> list[int]:
    """A full order from a name, a file path or a sequence of squares (ints or names)."""
    if isinstance(spec, (str, os.PathLike)):
        text = str(spec)
        if text.lower() in _GENERATORS:
            return scan_order(text, width, height, corner)
        path = Path(text)
        if path.exists():
            try:
                content = path.read_text()
            except (OSError, UnicodeDecodeError) as exc:
                raise InputError(f"cannot read the order file ({exc})", text) from None
            return parse_order_text(content, width, height, text)
        raise InputError(
            f"'{text}' is neither a scan order ({', '.join(ORDER_NAMES)}) nor an existing file of square names"
        )
    squares = []
    for item in spec:
        if isinstance(item, str):
            squares.append(parse_square(item, width, height))
        else:
            value = int(item)
            if not 0 <= value < width * height:
                raise InputError(f"square {value} is off the {width}x{height} board")
            squares.append(value)
    return squares


def search_order(order: Sequence[int], width: int, height: int, hint_squares: Iterable[int] = ()) -> np.ndarray:
    """Validate a full order and drop the hint squares: the squares the search fills.

    Every square that holds no hint must appear exactly once; hint squares may appear
    (they are skipped) or not.  Raises :class:`InputError` naming the first problem.
    """
    hints = set(int(s) for s in hint_squares)
    n = width * height
    seen: set[int] = set()
    free = []
    for square in order:
        square = int(square)
        if not 0 <= square < n:
            raise InputError(f"the order names square {square}, which is off the {width}x{height} board")
        if square in seen:
            raise InputError(f"the order lists square {square_name(square, width)} twice")
        seen.add(square)
        if square not in hints:
            free.append(square)
    missing = [s for s in range(n) if s not in seen and s not in hints]
    if missing:
        listed = ", ".join(square_name(s, width) for s in missing[:8]) + (" ..." if len(missing) > 8 else "")
        raise InputError(f"the order cannot be searched: it misses {len(missing)} square(s) without a hint: {listed}")
    return np.array(free, dtype=np.int32)
