"""Thierry Benoist's instance files (his 2008 "E2 Benchmark", ``E_<size>_<k>.b<B>i<I>.nohint``).

Layout (his readme.txt)::

    sizeOfTheBoard
    numberOfColors                      (grey 0 not counted; colours are 0..numberOfColors)
    numberOfHints
    row column tileIndex rotation       one line per hint
    topColor rightColor bottomColor leftColor    one line per tile (size*size lines)

Rows count from 1 at the top, columns from 1 at the left, tiles from 1.  Only square boards.

Rotation: the readme only says "an integer in [0,3]".  Benoist & Bourreau (Constraint
Programming Letters 3, 2008, section 2) define "the rotation as the side of the tile oriented
northwards", and use that the east side of a tile with rotation p shows its side (1 + p) mod 4:
the file's rotation p turns the tile COUNTER-clockwise, so it is this package's rotation
(-p) mod 4 (the writer writes (-r) mod 4).  The distributed data cannot tell the
directions apart -- all 48 instances hint one corner tile at rotation 0 -- but it confirms
the rest: each hint sits at row = size, column 1 and its tile (e.g. E_7_1 tile 15,
``6 5 0 0``) has grey bottom and left sides at rotation 0, i.e. fits the bottom-left corner
with rows counted from the top.

Detection: three lines holding one number each, then only lines of four numbers.
"""

from __future__ import annotations

from ..errors import InputError
from ..model import Hint, Puzzle
from . import _text
from .lines import content_lines, integers
from .registry import PuzzleFormat, register_puzzle_format


def read_puzzle(text: str, source: str = "<text>") -> Puzzle:
    lines = content_lines(text)
    labels = ("board size", "number of colours", "number of hints")
    if len(lines) < 3:
        raise InputError(f"the file ends before the {labels[len(lines)]} line", source, _text.last_line_number(text))
    size_line, colours_line, hints_line = lines[:3]
    (size,) = integers(size_line, source, 1, labels[0])
    (n_colours,) = integers(colours_line, source, 1, labels[1])
    (n_hints,) = integers(hints_line, source, 1, labels[2])
    _text.check_side(size, "board size", source, size_line.number)
    if n_colours < 0:
        raise InputError(f"the number of colours {n_colours} is negative", source, colours_line.number)
    if n_hints < 0:
        raise InputError(f"the number of hints {n_hints} is negative", source, hints_line.number)
    if 3 + n_hints > len(lines):
        raise InputError(
            f"line {hints_line.number} announces {n_hints} hint lines but the file ends after {len(lines) - 3}",
            source,
            _text.last_line_number(text),
        )
    hint_lines = lines[3 : 3 + n_hints]
    tile_lines = lines[3 + n_hints :]
    hint_values = [integers(line, source, 4, "hint value") for line in hint_lines]
    _text.check_tile_count(size * size, tile_lines, text, source, f"the {size}x{size} board of line {size_line.number}")
    tiles = _text.read_tiles(tile_lines, source)
    for line, sides in zip(tile_lines, tiles):
        above = [c for c in sides if c > n_colours]
        if above:
            raise InputError(
                f"colour {above[0]} is above the {n_colours} colours declared on line {colours_line.number}",
                source,
                line.number,
            )
    puzzle = _text.build_puzzle(tiles, size, size, source, tile_lines, size_line.number, _text.default_name(source))
    hints = []
    for line, (row, col, tile, rotation) in zip(hint_lines, hint_values):
        _text.check_hint_field(row, 1, size, "row", source, line.number)
        _text.check_hint_field(col, 1, size, "column", source, line.number)
        _text.check_hint_field(tile, 1, puzzle.n_tiles, "tile", source, line.number)
        _text.check_hint_field(rotation, 0, 3, "rotation", source, line.number)
        hints.append(Hint((row - 1) * size + (col - 1), tile - 1, (-rotation) % 4))
    return _text.add_hints(puzzle, hints, source, hint_lines)


def write_puzzle(puzzle: Puzzle) -> str:
    if puzzle.width != puzzle.height:
        raise InputError(f"the benoist format stores square boards only; this one is {puzzle.width}x{puzzle.height}")
    out = [str(puzzle.width), str(int(puzzle.tiles.max())), str(len(puzzle.hints))]
    for h in puzzle.hints:
        row, col = divmod(h.square, puzzle.width)
        out.append(f"{row + 1} {col + 1} {h.tile + 1} {(-h.rotation) % 4}")
    out.extend(_text.tile_text(t) for t in puzzle.tiles)
    return _text.write_lines(out)


def sniff_puzzle(text: str) -> bool:
    return _text.header_then_rows(text, (1, 1, 1), 4)


PUZZLE_FORMAT = register_puzzle_format(
    PuzzleFormat(
        name="benoist",
        description="Benoist's E2 Benchmark file: size, colours, hints 'row col tile rot' (counter-clockwise), tiles T R B L",
        read=read_puzzle,
        write=write_puzzle,
        sniff=sniff_puzzle,
        extensions=(".nohint", ".hint"),
    )
)
