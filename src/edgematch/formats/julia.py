"""Eternity2Puzzles.jl (J. Wortmann) pieces files and its ``.et2`` board files.

Pieces (``pieces/*.txt`` of the package, v0.2 and later): one piece per line, four colours
clockwise starting at the BOTTOM: ``bottom left top right`` (grey 0); the file may start
with a header line ``rows cols``.  Without it the size is inferred from the tile kinds
(wider than tall, as the package's clue2/clue4 are 6 rows x 12 columns).  Pieces are
numbered from 1 in file order and keep the file's orientation: the package's e2pieces.txt
is the official set in the official orientation.  The package stores colours as bytes, so
the writer refuses colours above 255; it always writes the header (the package reads it)
and refuses hints, which the pieces format cannot hold.

Boards (``.et2``, written by the package's ``save``): one line per board row from the top,
one token per square: ``piece/rotation`` with the piece numbered from 1 and the rotation in
clockwise quarter turns (the package's ``score`` reads the right edge of a piece with
rotation r from its stored side 4 - r), or ``---/-`` for an empty square.  No header: the
grid's shape is the board's.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import InputError
from ..model import Board, Puzzle, square_name
from ..model.board import EMPTY
from . import _text
from .lines import content_lines, integer, integers
from .registry import BoardFormat, PuzzleFormat, register_board_format, register_puzzle_format

# File column (bottom, left, top, right) -> our side: N = top (col 2), E = right (3), S = bottom (0), W = left (1).
FILE_COLUMN_OF_SIDE = (2, 3, 0, 1)
MAX_JULIA_COLOUR = 255
EMPTY_TOKEN = "---/-"
_CELL = re.compile(r"^(\d+)/(\d+)$")


def read_puzzle(text: str, source: str = "<text>") -> Puzzle:
    lines = content_lines(text)
    if not lines:
        raise InputError("no pieces in the file", source, _text.last_line_number(text))
    width = height = None
    header = None
    tile_lines = lines
    if len(_text.tokens(lines[0])) == 2:
        header = lines[0]
        height, width = integers(header, source, 2, "board size")
        _text.check_side(height, "number of rows", source, header.number)
        _text.check_side(width, "number of columns", source, header.number)
        tile_lines = lines[1:]
        _text.check_tile_count(
            width * height,
            tile_lines,
            text,
            source,
            f"the board of {height} rows x {width} columns of line {header.number}",
        )
    if not tile_lines:
        raise InputError("no pieces in the file", source, _text.last_line_number(text))
    tiles = _text.read_tiles(tile_lines, source, FILE_COLUMN_OF_SIDE)
    fallback = header.number if header is not None else tile_lines[-1].number
    return _text.build_puzzle(tiles, width, height, source, tile_lines, fallback, _text.default_name(source))


def write_puzzle(puzzle: Puzzle) -> str:
    _text.no_hints(puzzle, "julia")
    if puzzle.tiles.size and int(puzzle.tiles.max()) > MAX_JULIA_COLOUR:
        raise InputError(
            f"the julia format stores colours 0..{MAX_JULIA_COLOUR}; this puzzle uses {int(puzzle.tiles.max())}"
        )
    out = [f"{puzzle.height} {puzzle.width}"]
    out.extend(_text.tile_text(t[[2, 3, 0, 1]]) for t in puzzle.tiles)  # bottom left top right
    return _text.write_lines(out)


def sniff_puzzle(text: str) -> bool:
    """A ``rows cols`` header then lines of four: claimed, but Owen's files share the shape."""
    return _text.header_then_rows(text, (2,), 4)


# ---------------------------------------------------------------------- .et2 boards
def read_board(text: str, source: str, puzzle: Puzzle) -> Board:
    rows = content_lines(text)
    if len(rows) != puzzle.height:
        at = rows[puzzle.height].number if len(rows) > puzzle.height else _text.last_line_number(text)
        raise InputError(f"the board has {len(rows)} rows but the puzzle has {puzzle.height}", source, at)
    width = puzzle.width
    tiles = np.full(puzzle.n_squares, EMPTY, dtype=np.int64)
    rotations = np.zeros(puzzle.n_squares, dtype=np.int64)
    for r, line in enumerate(rows):
        cells = line.text.split()
        if len(cells) != width:
            raise InputError(
                f"a row needs {width} squares (the puzzle's columns), found {len(cells)}", source, line.number
            )
        for c, cell in enumerate(cells):
            if cell == EMPTY_TOKEN:
                continue
            square = r * width + c
            where = square_name(square, width)
            match = _CELL.match(cell)
            if not match:
                raise InputError(
                    f"square {where}: '{cell[:20]}' is not piece/rotation or {EMPTY_TOKEN}", source, line.number
                )
            piece = integer(match.group(1), source, line.number, f"square {where}: piece")
            rotation = integer(match.group(2), source, line.number, f"square {where}: rotation")
            if not 1 <= piece <= puzzle.n_tiles:
                raise InputError(
                    f"square {where}: piece {piece} does not exist (pieces are 1..{puzzle.n_tiles})",
                    source,
                    line.number,
                )
            if rotation > 3:
                raise InputError(f"square {where}: rotation {rotation} is not 0..3", source, line.number)
            tiles[square], rotations[square] = piece - 1, rotation
    return Board(puzzle, tiles, rotations)


def write_board(board: Board) -> str:
    """The package's own layout: every square six characters wide (' 139/2', ' ---/-')."""
    puzzle = board.puzzle
    out = []
    for r in range(puzzle.height):
        cells = []
        for c in range(puzzle.width):
            sq = r * puzzle.width + c
            tile = int(board.tiles[sq])
            cells.append(" " + EMPTY_TOKEN if tile == EMPTY else f" {tile + 1:>3}/{int(board.rotations[sq])}")
        out.append("".join(cells))
    return _text.write_lines(out)


def sniff_board(text: str) -> bool:
    rows = _text.shape(text)
    if not rows or len({len(r) for r in rows}) != 1:
        return False
    return all(tok == EMPTY_TOKEN or _CELL.match(tok) for row in rows for tok in row)


PUZZLE_FORMAT = register_puzzle_format(
    PuzzleFormat(
        name="julia",
        description="Eternity2Puzzles.jl pieces file: optional 'rows cols', then lines 'bottom left top right'",
        read=read_puzzle,
        write=write_puzzle,
        sniff=sniff_puzzle,
        extensions=(".txt",),
    )
)

BOARD_FORMAT = register_board_format(
    BoardFormat(
        name="et2",
        description="Eternity2Puzzles.jl .et2 board: rows from the top of 'piece/rotation' (clockwise) or '---/-'",
        read=read_board,
        write=write_board,
        sniff=sniff_board,
        extensions=(".et2",),
    )
)
