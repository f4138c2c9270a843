"""Eternity2Puzzles.jl pieces and .et2 board files (edgematch.formats.julia) pinned against
their documented layout.

Layout (module docstring, docs/formats.md): pieces = optional ``rows cols`` header, then one
piece per line ``bottom left top right``; colours 0..255.  Boards (.et2) = one line per row
from the top, ``piece/rotation`` (piece from 1, clockwise) or ``---/-``.  The files are
written out by hand here; error tests compare the whole one line ``file:line: problem``.
Written to kill the mutants mutation testing found alive (docs/testing.md).
"""

import pytest

from edgematch import InputError, Puzzle
from edgematch.formats.julia import read_board, read_puzzle, sniff_board, write_puzzle
from edgematch.model import Hint

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4; tile i belongs on square i.
TILES = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
# the same pieces as the file writes them: bottom left top right
PIECES = "3 0 0 1\n4 1 0 0\n0 0 3 2\n0 2 4 0\n"
PUZZLE = Puzzle(TILES, 2, 2)


def message(call, *args):
    with pytest.raises(InputError) as err:
        call(*args)
    return str(err.value)


def test_reads_bottom_left_top_right():
    p = read_puzzle("2 2\n" + PIECES, "j.txt")
    assert p.tiles.tolist() == [list(t) for t in TILES]


def test_default_source_is_text_placeholder():
    assert message(read_puzzle, "") == "<text>:1: no pieces in the file"
    assert read_puzzle(PIECES).name == ""


def test_name_is_the_file_stem():
    assert read_puzzle(PIECES, "pieces/e2_2x2.txt").name == "e2_2x2"


@pytest.mark.parametrize("text, expected", [
    ("\n# nothing\n\n", "j.txt:3: no pieces in the file"),
    ("2 x\n" + PIECES, "j.txt:1: board size 'x' is not an integer"),
    ("1 2\n" + PIECES, "j.txt:1: number of rows 1 is too small (at least 2)"),
    ("2 1\n" + PIECES, "j.txt:1: number of columns 1 is too small (at least 2)"),
    ("2 2\n3 0 0 1\n4 1 0 0\n0 0 3 2\n",
     "j.txt:4: the board of 2 rows x 2 columns of line 1 needs 4 tiles but the file ends after 3"),
])
def test_bad_pieces_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_puzzle, text, "j.txt") == expected


def test_write_puzzle_refuses_hints():
    assert message(write_puzzle, PUZZLE.with_hints([Hint(0, 0, 0)])) == (
        "the julia format cannot store hints and this puzzle has 1; "
        "write it without hints (for example e2-bare instead of e2, or Puzzle.without_hints()) "
        "or use a format that keeps them (edgematch, heule, benoist)")


def test_write_puzzle_allows_colour_255_and_refuses_256():
    # the package stores colours as bytes: 255 is the largest
    p255 = Puzzle([(0, 1, 3, 0), (0, 0, 255, 1), (3, 2, 0, 0), (255, 0, 0, 2)], 2, 2)
    assert write_puzzle(p255) == "2 2\n3 0 0 1\n255 1 0 0\n0 0 3 2\n0 2 255 0\n"
    p256 = Puzzle([(0, 1, 3, 0), (0, 0, 256, 1), (3, 2, 0, 0), (256, 0, 0, 2)], 2, 2)
    assert message(write_puzzle, p256) == "the julia format stores colours 0..255; this puzzle uses 256"


# ------------------------------------------------------------------ .et2 boards
def test_too_many_rows_is_reported_at_the_first_extra_row():
    text = "1/0 2/0\n3/0 4/0\n1/0 2/0\n\n# end\n"
    assert message(read_board, text, "b.et2", PUZZLE) == "b.et2:3: the board has 3 rows but the puzzle has 2"


@pytest.mark.parametrize("text, expected", [
    ("1/0 2/0\n3/0 x/1\n", "b.et2:2: square B2: 'x/1' is not piece/rotation or ---/-"),
    ("1/0 2/0\n3/0 " + "9" * 30 + "\n",
     "b.et2:2: square B2: '" + "9" * 20 + "' is not piece/rotation or ---/-"),
    ("1/0 2/0\n3/0 1234567890123/0\n", "b.et2:2: square B2: piece '1234567890123...' is too large"),
    ("1/0 2/0\n3/0 4/1234567890123\n", "b.et2:2: square B2: rotation '1234567890123...' is too large"),
    ("1/0 2/0\n3/0 4/4\n", "b.et2:2: square B2: rotation 4 is not 0..3"),
    ("1/0 2/0\n3/0 5/0\n", "b.et2:2: square B2: piece 5 does not exist (pieces are 1..4)"),
])
def test_bad_board_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_board, text, "b.et2", PUZZLE) == expected


def test_reads_a_board_with_empty_squares():
    b = read_board("1/0 ---/-\n---/- 4/3\n", "b.et2", PUZZLE)
    assert b.tiles.tolist() == [0, -1, -1, 3] and b.rotations.tolist() == [0, 0, 0, 3]


def test_sniff_board_needs_rows_of_equal_length():
    assert sniff_board("1/0 2/0\n3/0 4/0\n") is True
    assert sniff_board("1/0 2/0\n3/0\n") is False
    assert sniff_board("") is False
    assert sniff_board("# only a comment\n") is False
