"""Marijn Heule's edge-matching files (the SAT benchmarks of github.com/marijnheule/edge-matching).

Layout: the first line is the number h of hint lines; then h lines ``row col piece rotation``;
then one piece per line, ``N E S W`` (grey 0).  The board size is not stored: like Heule's
encoder (``em-encode.c``: it tries rows = 3, 4, ... and takes columns = edges/2 - rows + 4)
we infer it from the numbers of corner and edge pieces, with the smaller side as the
height; his clue2/clue4 files are therefore 6 rows x 12 columns, as in Eternity2Puzzles.jl.

Hint convention, read from the encoder (``printHints``): row and column count from 1 at the
top left (it calls ``getVariable(piece, row - 1, col - 1)``, whose row 0 is the board's
north row), pieces count from 1 in file order, and side j of the square shows the piece's
side ``(j + 4 - rotation) % 4`` -- a clockwise rotation, exactly this package's.  (His
encoder only uses the rotation of inner pieces; for border pieces it follows from the
square.  We keep it as given, so a border hint must fit its square.)  The GIF names in his
``clues/`` folder ("P181@N3 (R1)") follow some other rotation convention and are not used.

Detection: a first line with a single number followed only by lines of four numbers is
Heule's shape and nobody else's here.
"""

from __future__ import annotations

from ..errors import InputError
from ..model import Hint, Puzzle
from . import _text
from .lines import content_lines, integers
from .registry import PuzzleFormat, register_puzzle_format


def read_puzzle(text: str, source: str = "<text>") -> Puzzle:
    lines = content_lines(text)
    if not lines:
        raise InputError("empty file (expected the number of hint lines)", source, _text.last_line_number(text))
    first = lines[0]
    (n_hints,) = integers(first, source, 1, "number of hints")
    if n_hints < 0:
        raise InputError(f"the number of hints {n_hints} is negative", source, first.number)
    if n_hints > len(lines) - 1:
        raise InputError(
            f"line {first.number} announces {n_hints} hint lines but the file ends after {len(lines) - 1} lines",
            source,
            _text.last_line_number(text),
        )
    hint_lines = lines[1 : 1 + n_hints]
    tile_lines = lines[1 + n_hints :]
    if not tile_lines:
        raise InputError("no pieces after the hint lines", source, _text.last_line_number(text))
    hint_values = [integers(line, source, 4, "hint value") for line in hint_lines]
    tiles = _text.read_tiles(tile_lines, source)
    puzzle = _text.build_puzzle(
        tiles, None, None, source, tile_lines, tile_lines[-1].number, _text.default_name(source)
    )
    hints = []
    for line, (row, col, piece, rotation) in zip(hint_lines, hint_values):
        _text.check_hint_field(row, 1, puzzle.height, "row", source, line.number)
        _text.check_hint_field(col, 1, puzzle.width, "column", source, line.number)
        _text.check_hint_field(piece, 1, puzzle.n_tiles, "piece", source, line.number)
        _text.check_hint_field(rotation, 0, 3, "rotation", source, line.number)
        hints.append(Hint((row - 1) * puzzle.width + (col - 1), piece - 1, rotation))
    return _text.add_hints(puzzle, hints, source, hint_lines)


def write_puzzle(puzzle: Puzzle) -> str:
    if puzzle.width < puzzle.height:
        raise InputError(
            f"the heule format does not store the size and reads a {puzzle.width}x{puzzle.height} puzzle back as "
            f"{puzzle.height}x{puzzle.width} (wider than tall); rotate the puzzle first"
        )
    out = [str(len(puzzle.hints))]
    for h in puzzle.hints:
        row, col = divmod(h.square, puzzle.width)
        out.append(f"{row + 1} {col + 1} {h.tile + 1} {h.rotation}")
    out.extend(_text.tile_text(t) for t in puzzle.tiles)
    return _text.write_lines(out)


def sniff_puzzle(text: str) -> bool:
    return _text.header_then_rows(text, (1,), 4)


PUZZLE_FORMAT = register_puzzle_format(
    PuzzleFormat(
        name="heule",
        description="Heule's SAT benchmark file: number of hints, hints 'row col piece rot', then pieces N E S W",
        read=read_puzzle,
        write=write_puzzle,
        sniff=sniff_puzzle,
        extensions=(".txt",),
    )
)
