"""The "edgematch" format: this package's own plain text for puzzles and boards.

Puzzle files list one tile per line as four colours N E S W (clockwise from north, colour 0
= grey border), tiles numbered from 1 in file order, with optional keyword lines::

    # comments run from '#' to the end of the line
    name e2
    size 16 16            # width height; without it the size is inferred from the tiles
    hint I8 139 2         # square (row letter from the top, column from 1), tile, rotation
    1 3 0 0
    ...

Rotations are clockwise quarter turns, as everywhere in this package.  The writer always
writes the ``size`` line, so that files it writes are recognised without ``--format``: a
keyword line makes a text unmistakably ours, while a bare list of four numbers per line
could be several community formats.

Board files start with ``board W H`` and hold H rows of W squares, each ``TILE/ROT`` (tile
numbered from 1) or ``.`` for an empty square.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..model import Board, Hint, Puzzle, parse_square, square_name
from ..model.board import EMPTY
from . import _text
from .lines import Line, content_lines, integer
from .registry import BoardFormat, PuzzleFormat, register_board_format, register_puzzle_format

PUZZLE_KEYWORDS = ("size", "name", "hint")
BOARD_KEYWORD = "board"


# ---------------------------------------------------------------------- puzzles
def read_puzzle(text: str, source: str = "<text>") -> Puzzle:
    lines = content_lines(text)
    if not lines:
        raise InputError("no tiles in the file", source, _text.last_line_number(text))
    size_line: Line | None = None
    width = height = None
    name_line: Line | None = None
    name = _text.default_name(source)
    hint_lines: list[Line] = []
    tile_lines: list[Line] = []
    for line in lines:
        first = line.text.split()[0]
        key = first.lower()
        if key == "size":
            if size_line is not None:
                raise InputError(f"a second size line (the first is line {size_line.number})", source, line.number)
            size_line = line
            numbers = _keyword_integers(line, source, "size", (1, 2), "size W H (or size N for a square board)")
            width, height = (numbers[0], numbers[-1])
            _text.check_side(width, "board width", source, line.number)
            _text.check_side(height, "board height", source, line.number)
        elif key == "name":
            if name_line is not None:
                raise InputError(f"a second name line (the first is line {name_line.number})", source, line.number)
            name_line = line
            name = line.text[len(first) :].strip()
        elif key == "hint":
            hint_lines.append(line)
        elif key == BOARD_KEYWORD:
            raise InputError("this is a board file ('board' line), not a puzzle", source, line.number)
        elif _text.is_int(first):
            tile_lines.append(line)
        else:
            raise InputError(
                f"'{first[:30]}' is neither a keyword (size, name, hint) nor a tile (four colours N E S W)",
                source,
                line.number,
            )
    if not tile_lines:
        raise InputError("no tiles in the file", source, _text.last_line_number(text))
    tiles = _text.read_tiles(tile_lines, source)
    if size_line is not None:
        assert width is not None and height is not None  # read with the size line
        _text.check_tile_count(
            width * height, tile_lines, text, source, f"the {width}x{height} board of line {size_line.number}"
        )
    fallback = size_line.number if size_line is not None else tile_lines[-1].number
    puzzle = _text.build_puzzle(tiles, width, height, source, tile_lines, fallback, name)
    hints = [_read_hint(line, puzzle, source) for line in hint_lines]
    return _text.add_hints(puzzle, hints, source, hint_lines)


def _keyword_integers(line: Line, source: str, keyword: str, counts: tuple[int, ...], usage: str) -> list[int]:
    toks = _text.tokens(line)[1:]
    if len(toks) not in counts:
        raise InputError(f"expected '{usage}', found '{line.text[:60]}'", source, line.number)
    return [integer(t, source, line.number, keyword) for t in toks]


def _read_hint(line: Line, puzzle: Puzzle, source: str) -> Hint:
    toks = line.text.split()[1:]
    if len(toks) != 3:
        raise InputError(
            f"expected 'hint SQUARE TILE ROTATION' (e.g. hint I8 139 2), found '{line.text[:60]}'", source, line.number
        )
    try:
        square = parse_square(toks[0], puzzle.width, puzzle.height)
    except InputError as err:
        raise err.located(source, line.number) from None
    tile = integer(toks[1], source, line.number, "hint tile")
    rotation = integer(toks[2], source, line.number, "hint rotation")
    if tile < 1:
        raise InputError(f"hint tile {tile}: tiles are numbered from 1", source, line.number)
    _text.check_hint_field(rotation, 0, 3, "rotation", source, line.number)
    return Hint(square, tile - 1, rotation)


def write_puzzle(puzzle: Puzzle) -> str:
    out = ["# edgematch puzzle: one tile per line, colours N E S W (clockwise from north), tiles numbered from 1"]
    name = " ".join(puzzle.name.replace("#", " ").split())
    if name:
        out.append(f"name {name}")
    out.append(f"size {puzzle.width} {puzzle.height}")
    for h in puzzle.hints:
        out.append(f"hint {square_name(h.square, puzzle.width)} {h.tile + 1} {h.rotation}")
    out.extend(_text.tile_text(t) for t in puzzle.tiles)
    return _text.write_lines(out)


def sniff_puzzle(text: str) -> bool:
    """Ours when some line starts with one of our keywords (and it is not a board)."""
    keys = {toks[0].lower() for toks in _text.shape(text) if toks}
    return bool(keys & set(PUZZLE_KEYWORDS)) and BOARD_KEYWORD not in keys


# ---------------------------------------------------------------------- boards
def read_board(text: str, source: str, puzzle: Puzzle) -> Board:
    lines = content_lines(text)
    if not lines:
        raise InputError("empty board file (expected 'board W H')", source, _text.last_line_number(text))
    header = lines[0]
    toks = header.text.split()
    if toks[0].lower() != BOARD_KEYWORD or len(toks) != 3:
        raise InputError(f"expected the header 'board W H', found '{header.text[:60]}'", source, header.number)
    width = integer(toks[1], source, header.number, "board width")
    height = integer(toks[2], source, header.number, "board height")
    if (width, height) != (puzzle.width, puzzle.height):
        raise InputError(
            f"the board is {width}x{height} but the puzzle is {puzzle.width}x{puzzle.height}", source, header.number
        )
    rows = lines[1:]
    if len(rows) < height:
        raise InputError(
            f"a {width}x{height} board needs {height} rows but the file ends after {len(rows)}",
            source,
            _text.last_line_number(text),
        )
    if len(rows) > height:
        raise InputError(
            f"a {width}x{height} board has {height} rows; this line is one too many", source, rows[height].number
        )
    tiles = np.full(width * height, EMPTY, dtype=np.int64)
    rotations = np.zeros(width * height, dtype=np.int64)
    for r, line in enumerate(rows):
        cells = line.text.split()
        if len(cells) != width:
            raise InputError(
                f"a row of the {width}x{height} board needs {width} squares, found {len(cells)}", source, line.number
            )
        for c, cell in enumerate(cells):
            square = r * width + c
            if cell == ".":
                continue
            tile, rotation = _read_cell(cell, puzzle, source, line.number, square_name(square, width))
            tiles[square], rotations[square] = tile, rotation
    return Board(puzzle, tiles, rotations)


def _read_cell(cell: str, puzzle: Puzzle, source: str, line: int, where: str) -> tuple[int, int]:
    tile_text, slash, rot_text = cell.partition("/")
    if not slash:
        raise InputError(f"square {where}: '{cell[:20]}' is not TILE/ROTATION or '.'", source, line)
    tile = integer(tile_text, source, line, f"square {where}: tile")
    rotation = integer(rot_text, source, line, f"square {where}: rotation")
    if not 1 <= tile <= puzzle.n_tiles:
        raise InputError(f"square {where}: tile {tile} does not exist (tiles are 1..{puzzle.n_tiles})", source, line)
    if not 0 <= rotation <= 3:
        raise InputError(f"square {where}: rotation {rotation} is not 0..3", source, line)
    return tile - 1, rotation


def write_board(board: Board) -> str:
    puzzle = board.puzzle
    digits = len(str(puzzle.n_tiles))
    out = [
        "# edgematch board: rows from the top, squares TILE/ROTATION (tile from 1, clockwise quarter turns), '.' empty",
        f"# score {board.score()} of {puzzle.max_score}, {board.n_placed} of {puzzle.n_squares} squares filled",
        f"board {puzzle.width} {puzzle.height}",
    ]
    for r in range(puzzle.height):
        cells = []
        for c in range(puzzle.width):
            sq = r * puzzle.width + c
            tile = int(board.tiles[sq])
            cells.append(".".rjust(digits + 2) if tile == EMPTY else f"{tile + 1:>{digits}}/{int(board.rotations[sq])}")
        out.append(" ".join(cells))
    return _text.write_lines(out)


def sniff_board(text: str) -> bool:
    rows = _text.shape(text)
    return bool(rows) and rows[0][0].lower() == BOARD_KEYWORD


PUZZLE_FORMAT = register_puzzle_format(
    PuzzleFormat(
        name="edgematch",
        description="edgematch plain text: 'size W H', optional 'name', 'hint SQUARE TILE ROT', tiles N E S W",
        read=read_puzzle,
        write=write_puzzle,
        sniff=sniff_puzzle,
        extensions=(".em", ".txt"),
    )
)

BOARD_FORMAT = register_board_format(
    BoardFormat(
        name="edgematch",
        description="edgematch board text: 'board W H', then rows of TILE/ROT (tile from 1) or '.'",
        read=read_board,
        write=write_board,
        sniff=sniff_board,
        extensions=(".emb", ".txt"),
    )
)
