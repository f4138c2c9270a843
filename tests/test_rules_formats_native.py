"""The package's own "edgematch" text format (edgematch.formats.native) pinned against its
documented layout.

Layout (module docstring, docs/formats.md): puzzle = optional ``name``, ``size W H`` (or
``size N``), ``hint SQUARE TILE ROTATION`` lines and one tile per line N E S W; board =
``board W H`` then rows of ``TILE/ROT`` or ``.``.  The files are written out by hand here;
error tests compare the whole one line ``file:line: problem``.  Written to kill the mutants
mutation testing found alive (docs/testing.md).
"""

import pytest

from edgematch import Board, InputError, Puzzle
from edgematch.formats.native import read_board, read_puzzle, write_board, write_puzzle

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4; tile i belongs on square i.
TILES = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
TILES_TEXT = "0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"
PUZZLE = Puzzle(TILES, 2, 2)
LONG = "abcdefghij" * 7  # 70 characters


def message(call, *args):
    with pytest.raises(InputError) as err:
        call(*args)
    return str(err.value)


def test_default_source_is_text_placeholder():
    assert message(read_puzzle, "") == "<text>:1: no tiles in the file"
    assert read_puzzle("size 2 2\n" + TILES_TEXT).name == ""


@pytest.mark.parametrize("text, expected", [
    ("\n\n# nothing\n", "n.txt:3: no tiles in the file"),
    ("name only a name\n\n", "n.txt:2: no tiles in the file"),
    ("size 2 x\n" + TILES_TEXT, "n.txt:1: size 'x' is not an integer"),
    ("size " + "2 " * 40 + "\n" + TILES_TEXT,  # 40 numbers: the quoted line stops after 60 characters
     "n.txt:1: expected 'size W H (or size N for a square board)', found '" + ("size " + "2 " * 40)[:60] + "'"),
    ("size 1 2\n" + TILES_TEXT, "n.txt:1: board width 1 is too small (at least 2)"),
    ("size 2 1\n" + TILES_TEXT, "n.txt:1: board height 1 is too small (at least 2)"),
    ("size 2 2\n0 1 3 0\n0 0 4 1\n3 2 0 0\n", "n.txt:4: the 2x2 board of line 1 needs 4 tiles but the file ends after 3"),
    ("board 2 2\n" + TILES_TEXT, "n.txt:1: this is a board file ('board' line), not a puzzle"),
    (LONG + "\n" + TILES_TEXT,
     "n.txt:1: '" + LONG[:30] + "' is neither a keyword (size, name, hint) nor a tile (four colours N E S W)"),
    ("size 2 2\n" + TILES_TEXT + "hint A1 x 0\n", "n.txt:6: hint tile 'x' is not an integer"),
    ("size 2 2\n" + TILES_TEXT + "hint A1 1 x\n", "n.txt:6: hint rotation 'x' is not an integer"),
    ("size 2 2\n" + TILES_TEXT + "hint A1 1 4\n", "n.txt:6: hint rotation 4 is out of range (0..3)"),
    ("size 2 2\n" + TILES_TEXT + "hint " + "A1 " * 30 + "\n",
     "n.txt:6: expected 'hint SQUARE TILE ROTATION' (e.g. hint I8 139 2), found '" + ("hint " + "A1 " * 30)[:60] + "'"),
    # no size line: 4 corners and one inner tile fit no board; reported at the LAST tile line
    ("0 1 3 0\n0 0 4 1\n3 2 0 0\n5 6 7 8\n4 0 0 2\n\n",
     ("n.txt:5: cannot infer the board size: 5 tiles with 4 corner and 0 edge tiles fit no rectangular board "
      "(give the size explicitly)")),
])
def test_bad_puzzle_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_puzzle, text, "n.txt") == expected


def test_hint_rotation_3_is_accepted():
    # tile 2 (0 0 4 1) turned clockwise 3 shows 0 4 1 0: grey N and W, the top-left corner A1
    p = read_puzzle("size 2 2\nhint A1 2 3\n" + TILES_TEXT, "n.txt")
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(0, 1, 3)]


def test_write_puzzle_layout():
    # '#' would start a comment: it becomes a space, and runs of spaces one space
    text = write_puzzle(Puzzle(TILES, 2, 2, name="a#b  c"))
    assert text == (
        "# edgematch puzzle: one tile per line, colours N E S W (clockwise from north), tiles numbered from 1\n"
        "name a b c\n"
        "size 2 2\n" + TILES_TEXT)


# ------------------------------------------------------------------ boards
@pytest.mark.parametrize("text, expected", [
    ("\n", "b.txt:1: empty board file (expected 'board W H')"),
    (LONG + "\n", "b.txt:1: expected the header 'board W H', found '" + LONG[:60] + "'"),
    ("board x 2\n", "b.txt:1: board width 'x' is not an integer"),
    ("board 2 x\n", "b.txt:1: board height 'x' is not an integer"),
    ("board 2 2\n1/0 " + LONG + "\n3/0 4/0\n", "b.txt:2: square A2: '" + LONG[:20] + "' is not TILE/ROTATION or '.'"),
    ("board 2 2\n1/0 x/0\n3/0 4/0\n", "b.txt:2: square A2: tile 'x' is not an integer"),
    ("board 2 2\n1/0 2/x\n3/0 4/0\n", "b.txt:2: square A2: rotation 'x' is not an integer"),
    ("board 2 2\n1/0 .\n3/0 2/1/3\n", "b.txt:3: square B2: rotation '1/3' is not an integer"),
])
def test_bad_board_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_board, text, "b.txt", PUZZLE) == expected


def test_write_board_layout():
    board = Board(PUZZLE, [0, 1, 2, -1], [0, 0, 0, 0])
    # joins A1|A2 (1) and A1/B1 (3) match; B2 is empty: score 2 of 4, 3 of 4 squares filled
    assert write_board(board) == (
        "# edgematch board: rows from the top, squares TILE/ROTATION (tile from 1, clockwise quarter turns), '.' empty\n"
        "# score 2 of 4, 3 of 4 squares filled\n"
        "board 2 2\n"
        "1/0 2/0\n"
        "3/0   .\n")
