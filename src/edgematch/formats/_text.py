"""Helpers shared by the plain-text formats of this package.

Every text format here is "some header lines, then one tile per line", so the readers share
how they turn lines into numbers, how they build the :class:`Puzzle` while keeping every
model error tied to a file line, and how their sniffers look at the shape of a text
(how many tokens each line has) without judging its values: a sniffer claims a text by
its structure, and the reader then reports any bad value with its exact line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePath

from ..errors import InputError
from ..model import Hint, Puzzle
from .lines import Line, content_lines, integers

# A header or size that no real board has; checked before anything is allocated for it.
MAX_SIDE_IN_FILE = 1024


def tokens(line: Line) -> list[str]:
    """The whitespace (or comma) separated tokens of a line, as :func:`lines.integers` sees them."""
    return line.text.replace(",", " ").split()


def last_line_number(text: str) -> int:
    """Number of the last line of a text (where a truncated file ends)."""
    return max(1, len(text.splitlines()))


def default_name(source: str) -> str:
    """A puzzle name from a file name: 'dir/pieces_06x06.txt' -> 'pieces_06x06'."""
    if not source or source.startswith("<"):
        return ""
    return PurePath(source).stem


def read_tiles(lines: Sequence[Line], source: str, order: tuple[int, int, int, int] = (0, 1, 2, 3)) -> list[list[int]]:
    """Tiles N E S W from lines of four colours; ``order[k]`` is the file column holding side k."""
    tiles = []
    for line in lines:
        values = integers(line, source, 4, "colour")
        tiles.append([values[k] for k in order])
    return tiles


def check_tile_count(expected: int, tile_lines: Sequence[Line], text: str, source: str, what: str) -> None:
    """A precise error when a header promises another number of tiles than the file holds.

    Too few: the file is truncated, reported at its last line.  Too many: reported at the
    first tile line beyond the promised number.
    """
    found = len(tile_lines)
    if found < expected:
        raise InputError(
            f"{what} needs {expected} tiles but the file ends after {found}", source, last_line_number(text)
        )
    if found > expected:
        raise InputError(
            f"{what} needs {expected} tiles but there are more: tile {expected + 1} is one too many",
            source,
            tile_lines[expected].number,
        )


def check_side(value: int, what: str, source: str, line: int) -> None:
    if value < 2:
        raise InputError(f"{what} {value} is too small (at least 2)", source, line)
    if value > MAX_SIDE_IN_FILE:
        raise InputError(f"{what} {value} is too large (at most {MAX_SIDE_IN_FILE})", source, line)


def locate(
    error: InputError,
    source: str,
    tile_lines: Sequence[Line] = (),
    hint_lines: Sequence[Line] = (),
    fallback: int | None = None,
) -> InputError:
    """Tie a model error to the file line of its tile or hint, else to ``fallback``."""
    line = error.line
    if line is None and error.tile is not None and error.tile < len(tile_lines):
        line = tile_lines[error.tile].number
    if line is None and error.hint is not None and error.hint < len(hint_lines):
        line = hint_lines[error.hint].number
    if line is None:
        line = fallback
    return error.located(source, line)


def build_puzzle(
    tiles,
    width: int | None,
    height: int | None,
    source: str,
    tile_lines: Sequence[Line],
    fallback: int | None,
    name: str = "",
) -> Puzzle:
    """The model's puzzle (without hints), any validation error tied to a file line."""
    try:
        return Puzzle(tiles, width, height, None, name)
    except InputError as err:
        if err.tile is None and width is None:
            # Size inference counts corner and edge tiles before the model looks at single
            # tiles; one malformed tile is the likelier culprit, and it has a line.
            culprit = _impossible_tile(tiles)
            if culprit is not None:
                shown = " ".join(str(c) for c in tiles[culprit])
                raise InputError(
                    f"tile {culprit + 1} ({shown}) has grey on {sum(c == 0 for c in tiles[culprit])} "
                    "sides that cannot all face the outside",
                    source,
                    tile_lines[culprit].number,
                ) from None
        raise locate(err, source, tile_lines, (), fallback) from None


def _impossible_tile(tiles) -> int | None:
    """The first tile with more than two grey sides or grey on opposite sides, if any."""
    for index, tile in enumerate(tiles):
        grey = [c == 0 for c in tile]
        if sum(grey) > 2 or (sum(grey) == 2 and grey[0] == grey[2]):
            return index
    return None


def add_hints(puzzle: Puzzle, hints: Iterable[Hint], source: str, hint_lines: Sequence[Line]) -> Puzzle:
    """``puzzle`` with ``hints`` (the i-th from ``hint_lines[i]``), errors tied to hint lines."""
    hints = list(hints)
    if not hints:
        return puzzle
    try:
        return puzzle.with_hints(hints)
    except InputError as err:
        raise locate(err, source, (), hint_lines, hint_lines[0].number) from None


def check_hint_field(value: int, low: int, high: int, what: str, source: str, line: int) -> None:
    """A hint's row/column/rotation must lie in low..high (checked before squares are computed)."""
    if not low <= value <= high:
        raise InputError(f"hint {what} {value} is out of range ({low}..{high})", source, line)


def no_hints(puzzle: Puzzle, fmt: str) -> None:
    """Writers of formats that cannot store hints refuse rather than drop them silently."""
    if puzzle.hints:
        raise InputError(
            f"the {fmt} format cannot store hints and this puzzle has {len(puzzle.hints)}; "
            "write it without hints (for example e2-bare instead of e2, or Puzzle.without_hints()) "
            "or use a format that keeps them (edgematch, heule, benoist)"
        )


# ---------------------------------------------------------------------- sniffing helpers
def is_int(token: str) -> bool:
    digits = token[1:] if token[:1] in "+-" else token
    return digits.isascii() and digits.isdigit()


def shape(text: str) -> list[list[str]]:
    """Token lists of the content lines (comments and blank lines dropped)."""
    return [tokens(line) for line in content_lines(text)]


def is_int_line(toks: list[str], count: int) -> bool:
    return len(toks) == count and all(is_int(t) for t in toks)


def header_then_rows(text: str, header: Sequence[int], row_width: int) -> bool:
    """True when the text is header lines of integers (``header[i]`` numbers on line i),
    followed by at least one line, every one of which has ``row_width`` tokens."""
    rows = shape(text)
    if len(rows) <= len(header):
        return False
    for toks, count in zip(rows, header):
        if not is_int_line(toks, count):
            return False
    return all(len(toks) == row_width for toks in rows[len(header) :])


def write_lines(lines: Iterable[str]) -> str:
    return "\n".join(lines) + "\n"


def tile_text(values: Iterable[int]) -> str:
    return " ".join(str(int(v)) for v in values)
