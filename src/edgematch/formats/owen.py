"""Brendan Owen's puzzle and solution files (his generated puzzle sets 1 and 2, 3x3 .. 20x20).

Puzzle (``pieces_WWxHH.txt``): a first line ``W H`` (columns, rows), then W*H lines
``up right down left`` (= N E S W, grey 0).  These files have no hints.

Solution (``solutions_WWxHH.txt``): a first line ``W H``, then one line per piece, in the
order of the puzzle file: ``x y r`` with x the column counted from the LEFT (0-based), y the
row counted from the BOTTOM (0-based) and r clockwise quarter turns (new top = old left),
which is this package's rotation.  Only complete boards fit this format.

Detection: a ``W H`` line followed by lines of four numbers is also the shape of a
Eternity2Puzzles.jl pieces file with its optional ``rows cols`` header, so such a text is
reported as ambiguous and needs ``--format owen`` (or ``julia``).  A solution file (lines of
three numbers) is unambiguous.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..model import Board, Puzzle, square_name
from ..model.board import EMPTY
from . import _text
from .lines import content_lines, integers
from .registry import BoardFormat, PuzzleFormat, register_board_format, register_puzzle_format


def _read_header(text: str, source: str, what: str):
    lines = content_lines(text)
    if not lines:
        raise InputError(f"empty file (expected the header 'W H' of {what})", source, _text.last_line_number(text))
    header = lines[0]
    width, height = integers(header, source, 2, "board size")
    _text.check_side(width, "board width", source, header.number)
    _text.check_side(height, "board height", source, header.number)
    return header, width, height, lines[1:]


def read_puzzle(text: str, source: str = "<text>") -> Puzzle:
    header, width, height, tile_lines = _read_header(text, source, "an Owen puzzle")
    _text.check_tile_count(
        width * height, tile_lines, text, source, f"the {width}x{height} board of line {header.number}"
    )
    tiles = _text.read_tiles(tile_lines, source)
    return _text.build_puzzle(tiles, width, height, source, tile_lines, header.number, _text.default_name(source))


def write_puzzle(puzzle: Puzzle) -> str:
    _text.no_hints(puzzle, "owen")
    return _text.write_lines([f"{puzzle.width} {puzzle.height}", *(_text.tile_text(t) for t in puzzle.tiles)])


def sniff_puzzle(text: str) -> bool:
    return _text.header_then_rows(text, (2,), 4)


def read_board(text: str, source: str, puzzle: Puzzle) -> Board:
    header, width, height, piece_lines = _read_header(text, source, "an Owen solution")
    if (width, height) != (puzzle.width, puzzle.height):
        raise InputError(
            f"the solution is for a {width}x{height} board but the puzzle is {puzzle.width}x{puzzle.height}",
            source,
            header.number,
        )
    _text.check_tile_count(puzzle.n_tiles, piece_lines, text, source, f"a solution of the {width}x{height} puzzle")
    tiles = np.full(puzzle.n_squares, EMPTY, dtype=np.int64)
    rotations = np.zeros(puzzle.n_squares, dtype=np.int64)
    holder: dict[int, int] = {}
    for piece, line in enumerate(piece_lines):
        x, y, r = integers(line, source, 3, "position")
        if not 0 <= x < width:
            raise InputError(f"piece {piece + 1}: x = {x} is off the board (0..{width - 1})", source, line.number)
        if not 0 <= y < height:
            raise InputError(f"piece {piece + 1}: y = {y} is off the board (0..{height - 1})", source, line.number)
        if not 0 <= r <= 3:
            raise InputError(f"piece {piece + 1}: rotation {r} is not 0..3", source, line.number)
        square = (height - 1 - y) * width + x
        if square in holder:
            raise InputError(
                f"pieces {holder[square] + 1} and {piece + 1} are both on {square_name(square, width)}",
                source,
                line.number,
            )
        holder[square] = piece
        tiles[square], rotations[square] = piece, r
    return Board(puzzle, tiles, rotations)


def write_board(board: Board) -> str:
    puzzle = board.puzzle
    where = {int(board.tiles[sq]): sq for sq in board.placed()}
    if not board.is_complete or len(where) != puzzle.n_tiles:
        raise InputError("the owen-solution format stores complete boards (every piece once) only")
    out = [f"{puzzle.width} {puzzle.height}"]
    for piece in range(puzzle.n_tiles):
        row, col = divmod(where[piece], puzzle.width)
        out.append(f"{col} {puzzle.height - 1 - row} {int(board.rotations[where[piece]])}")
    return _text.write_lines(out)


def sniff_board(text: str) -> bool:
    return _text.header_then_rows(text, (2,), 3)


PUZZLE_FORMAT = register_puzzle_format(
    PuzzleFormat(
        name="owen",
        description="Brendan Owen's pieces file: 'W H', then W*H lines 'up right down left'",
        read=read_puzzle,
        write=write_puzzle,
        sniff=sniff_puzzle,
        extensions=(".txt",),
    )
)

BOARD_FORMAT = register_board_format(
    BoardFormat(
        name="owen-solution",
        description="Brendan Owen's solution file: 'W H', then per piece 'x y r' (x from left, y from bottom, r clockwise)",
        read=read_board,
        write=write_board,
        sniff=sniff_board,
        extensions=(".txt",),
    )
)
