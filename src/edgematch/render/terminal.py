"""Boards and tile sets in a true-colour terminal, with Rich.

Each square is ``2 * cell`` characters wide and ``cell`` lines high.  Every character is a
half block (``▀``) whose foreground paints its upper half and background its lower half,
so a square is a ``2 cell x 2 cell`` grid of square "pixels"; each pixel takes the colour
of the triangle (N, E, S, W) whose side it is nearest to.  Pixels exactly on a diagonal go
round clockwise (N-W to N, N-E to E, E-S to S, S-W to W) so the four triangles get equal
areas; with ``cell=1`` each of the four pixels is one triangle.

Empty squares are dim; with ``marks`` a red pixel pair straddles each mismatched join
(and each outer side that is not grey).  Where colour is not available (a console with
no colour system, e.g. output to a file) the same renderables print
:func:`board_text`, a plain layout of the colour numbers.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style

from ..errors import InputError
from ..model import EMPTY, Board, Puzzle
from ..model.squares import row_letters
from ..model.tiles import GREY, outer_sides
from .palette import MISMATCH, RGB, Palette, palette_for, text_colour

# Rich's colour systems (``Console(color_system=...)``).
ColorSystem = Literal["auto", "standard", "256", "truecolor", "windows"]

EMPTY_DIM: RGB = (44, 44, 44)
EMPTY_EDGE: RGB = (64, 64, 64)
UPPER_HALF = "\u2580"

Pixel = RGB | None  # None: no colour (the terminal's own background)


@dataclass
class _Cell:
    """One character: a glyph with optional foreground and background."""

    char: str
    fg: Pixel
    bg: Pixel
    bold: bool = False


def triangle_map(size: int) -> list[list[int]]:
    """For a ``size x size`` pixel square, the side (0 N, 1 E, 2 S, 3 W) each pixel shows."""
    sides = []
    for py in range(size):
        row = []
        for px in range(size):
            u, v = (px + 0.5) / size, (py + 0.5) / size
            distance = (v, 1 - u, 1 - v, u)  # to N, E, S, W
            nearest = min(distance)
            ties = [s for s in range(4) if abs(distance[s] - nearest) < 1e-9]
            if len(ties) == 1:
                row.append(ties[0])
            else:  # on a diagonal: go round clockwise (N-W -> N, N-E -> E, ...)
                pair = set(ties[:2])
                row.append(
                    {frozenset({0, 3}): 0, frozenset({0, 1}): 1, frozenset({1, 2}): 2, frozenset({2, 3}): 3}[
                        frozenset(pair)
                    ]
                )
        sides.append(row)
    return sides


class _Canvas:
    """A grid of pixels (two per character vertically) with text laid over characters."""

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height + height % 2
        self.pixels: list[list[Pixel]] = [[None] * width for _ in range(self.height)]
        self.text: dict[tuple[int, int], tuple[str, bool]] = {}  # (char row, col) -> glyph, bold

    def put_text(self, char_row: int, col: int, text: str, bold: bool = False) -> None:
        for i, ch in enumerate(text):
            if 0 <= col + i < self.width:
                self.text[(char_row, col + i)] = (ch, bold)

    def cells(self) -> list[list[_Cell]]:
        lines = []
        for char_row in range(self.height // 2):
            top, bottom = self.pixels[2 * char_row], self.pixels[2 * char_row + 1]
            line = []
            for col in range(self.width):
                upper, lower = top[col], bottom[col]
                if (char_row, col) in self.text:
                    glyph, bold = self.text[(char_row, col)]
                    back = lower if lower is not None else upper
                    fore = text_colour(back) if back is not None else None
                    line.append(_Cell(glyph, fore, back, bold))
                elif upper is None and lower is None:
                    line.append(_Cell(" ", None, None))
                else:
                    line.append(_Cell(UPPER_HALF, upper, lower))
            lines.append(line)
        return lines


def _paint_square(canvas: _Canvas, x0: int, y0: int, size: int, edges, palette: Palette, sides) -> None:
    for py in range(size):
        for px in range(size):
            canvas.pixels[y0 + py][x0 + px] = palette[int(edges[sides[py][px]])]


def _paint_empty(canvas: _Canvas, x0: int, y0: int, size: int) -> None:
    for py in range(size):
        for px in range(size):
            ring = py in (0, size - 1) or px in (0, size - 1)
            canvas.pixels[y0 + py][x0 + px] = EMPTY_EDGE if ring and size > 2 else EMPTY_DIM


def _mark_side(canvas: _Canvas, x0: int, y0: int, size: int, side: int) -> None:
    """Red pixels on the middle of one side of a square (one pixel when size is 2)."""
    middle = [size // 2 - 1, size // 2] if size > 2 else [size // 2 - (side in (0, 1))]
    for m in middle:
        px, py = {0: (m, 0), 1: (size - 1, m), 2: (m, size - 1), 3: (0, m)}[side]
        canvas.pixels[y0 + py][x0 + px] = MISMATCH


def _number_row(size: int) -> int:
    """The character row of a square (``size`` pixels high) where its number goes."""
    return (size // 2 - 1) // 2


def board_canvas(board: Board, numbers: bool, names: bool, marks: bool, cell: int, palette: Palette | None) -> _Canvas:
    _check_cell(cell)
    puzzle = board.puzzle
    palette = palette or palette_for(puzzle)
    size = 2 * cell
    width, height = puzzle.width, puzzle.height
    left = len(row_letters(height - 1)) + 1 if names else 0
    top = 2 if names else 0  # one character row of labels
    canvas = _Canvas(left + width * size, top + height * size)
    sides = triangle_map(size)
    edges = board.edges()

    def origin(square: int) -> tuple[int, int]:
        row, col = divmod(square, width)
        return left + col * size, top + row * size

    for square in range(puzzle.n_squares):
        x0, y0 = origin(square)
        if board.tiles[square] == EMPTY:
            _paint_empty(canvas, x0, y0, size)
        else:
            _paint_square(canvas, x0, y0, size, edges[square], palette, sides)
    if marks:
        for mismatch in board.mismatches():
            join = mismatch.join
            side_a, side_b = join.sides
            _mark_side(canvas, *origin(join.a), size, side_a)
            _mark_side(canvas, *origin(join.b), size, side_b)
        for square in board.placed():
            outer = outer_sides(int(square), width, height)
            for side in range(4):
                if outer[side] and edges[square, side] != GREY:
                    _mark_side(canvas, *origin(int(square)), size, side)
    hinted = {h.square for h in puzzle.hints}
    if numbers:
        for square in board.placed():
            label = str(int(board.tiles[square]) + 1)
            if len(label) <= size:
                x0, y0 = origin(int(square))
                canvas.put_text(
                    y0 // 2 + _number_row(size), x0 + (size - len(label)) // 2, label, int(square) in hinted
                )
    if names:
        for col in range(width):
            label = str(col + 1)
            canvas.put_text(0, left + col * size + (size - len(label)) // 2, label)
        for row in range(height):
            canvas.put_text(top // 2 + row * cell + (cell - 1) // 2, 0, row_letters(row))
    return canvas


def tiles_canvas(puzzle: Puzzle, columns: int | None, numbers: bool, cell: int, palette: Palette | None) -> _Canvas:
    _check_cell(cell)
    palette = palette or palette_for(puzzle)
    columns = puzzle.width if columns is None else int(columns)
    if columns < 1:
        raise InputError(f"a gallery needs at least one column (got {columns})")
    size = 2 * cell
    rows = -(-puzzle.n_tiles // columns)
    step_x, step_y = size + 1, size + 2  # one blank character between tiles, each way
    canvas = _Canvas(columns * step_x - 1, rows * step_y - 2)
    sides = triangle_map(size)
    for index, tile in enumerate(puzzle.tiles):
        row, col = divmod(index, columns)
        x0, y0 = col * step_x, row * step_y
        _paint_square(canvas, x0, y0, size, tile, palette, sides)
        label = str(index + 1)
        if numbers and len(label) <= size:
            canvas.put_text(y0 // 2 + _number_row(size), x0 + (size - len(label)) // 2, label)
    return canvas


class Picture:
    """A Rich renderable: colour pixels where the console has colour, plain text otherwise."""

    def __init__(self, canvas: _Canvas, plain: str):
        self.canvas = canvas
        self.plain = plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if console.color_system is None:
            for line in self.plain.splitlines():
                yield Segment(line)
                yield Segment.line()
            return
        for row in self.canvas.cells():
            run: list[str] = []
            style: Style | None = None
            for cell in row:
                cell_style = Style(color=_rgb(cell.fg), bgcolor=_rgb(cell.bg), bold=cell.bold or None)
                if style is not None and cell_style != style:
                    yield Segment("".join(run), style)
                    run = []
                style = cell_style
                run.append(cell.char)
            if run:
                yield Segment("".join(run), style)
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = (
            self.canvas.width if console.color_system is not None else max(map(len, self.plain.splitlines()), default=0)
        )
        return Measurement(width, width)


def board_renderable(
    board: Board,
    numbers: bool = False,
    names: bool = False,
    marks: bool = True,
    cell: int = 3,
    palette: Palette | None = None,
) -> Picture:
    """A Rich renderable of the board (``console.print`` it)."""
    return Picture(board_canvas(board, numbers, names, marks, cell, palette), board_text(board, marks=marks))


def tiles_renderable(
    puzzle: Puzzle,
    columns: int | None = None,
    numbers: bool = True,
    cell: int = 2,
    palette: Palette | None = None,
) -> Picture:
    """A Rich renderable of the puzzle's tiles as stored, numbered from 1."""
    return Picture(tiles_canvas(puzzle, columns, numbers, cell, palette), tiles_text(puzzle, columns))


def board_ansi(
    board: Board,
    numbers: bool = False,
    names: bool = False,
    marks: bool = True,
    cell: int = 3,
    color_system: ColorSystem | None = "truecolor",
) -> str:
    """The board as text with ANSI colour codes (``color_system=None``: the plain text)."""
    return render_to_string(board_renderable(board, numbers, names, marks, cell), color_system)


def render_to_string(renderable, color_system: ColorSystem | None = "truecolor") -> str:
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=color_system is not None,
        color_system=color_system,
        width=100000,
        legacy_windows=False,
        no_color=color_system is None,
    )
    console.print(renderable, crop=False, soft_wrap=True)
    return buffer.getvalue()


# ---------------------------------------------------------------------------- plain text
def board_text(board: Board, marks: bool = True) -> str:
    """The board as plain text: each square shows its N, W, E and S colours and its piece.

    ``!`` replaces the separator across a mismatched join (when ``marks``); empty squares
    show ``.``.
    """
    puzzle = board.puzzle
    width, height = puzzle.width, puzzle.height
    digits = max(1, len(str(max(puzzle.colours, default=0))))
    piece_digits = len(str(puzzle.n_tiles))
    inner = 2 * digits + piece_digits + 2
    edges = board.edges()
    bad_h: set[int] = set()  # squares whose E join is mismatched
    bad_v: set[int] = set()  # squares whose S join is mismatched
    if marks:
        for m in board.mismatches():
            (bad_h if m.join.horizontal else bad_v).add(m.join.a)

    def rule(row: int) -> str:
        parts = []
        for col in range(width):
            square = (row - 1) * width + col
            if 1 <= row < height and square in bad_v:
                mark = "!" * min(3, inner)
                parts.append(mark.center(inner, "-"))
            else:
                parts.append("-" * inner)
        return "+" + "+".join(parts) + "+"

    lines = [rule(0)]
    for row in range(height):
        top, middle, bottom = [], [], []
        for col in range(width):
            square = row * width + col
            if board.tiles[square] == EMPTY:
                top.append(" " * inner)
                middle.append(".".center(inner))
                bottom.append(" " * inner)
            else:
                n, e, s, w = (int(c) for c in edges[square])
                piece = str(int(board.tiles[square]) + 1)
                top.append(str(n).center(inner))
                middle.append(f"{w:>{digits}} {piece:^{piece_digits}} {e:<{digits}}")
                bottom.append(str(s).center(inner))
        seps = ["!" if row * width + col in bad_h else "|" for col in range(width - 1)]
        lines.append("|" + "|".join(top) + "|")
        lines.append("|" + "".join(m + sep for m, sep in zip(middle, seps + ["|"])))
        lines.append("|" + "|".join(bottom) + "|")
        lines.append(rule(row + 1))
    return "\n".join(lines) + "\n"


def tiles_text(puzzle: Puzzle, columns: int | None = None) -> str:
    """The tiles as plain text, one per line: number and N E S W colours."""
    digits = len(str(puzzle.n_tiles))
    return "".join(
        f"{index + 1:>{digits}}: {' '.join(str(int(c)) for c in tile)}\n" for index, tile in enumerate(puzzle.tiles)
    )


def _rgb(pixel: Pixel) -> str | None:
    if pixel is None:
        return None
    red, green, blue = pixel
    return f"rgb({red},{green},{blue})"


def _check_cell(cell: int) -> None:
    if not isinstance(cell, int) or not 1 <= cell <= 16:
        raise InputError(f"terminal cell size must be 1..16 lines (got {cell!r})")
