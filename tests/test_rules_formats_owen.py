"""Owen's puzzle and solution files (edgematch.formats.owen) pinned against their documented layout.

Layout (module docstring, docs/formats.md): puzzle = ``W H`` then W*H lines ``up right down
left``; solution = ``W H`` then per piece ``x y r`` (x from the left, y from the BOTTOM,
0-based; r clockwise).  The files are written out by hand here; error tests compare the whole
one line ``file:line: problem``.  Written to kill the mutants mutation testing found alive
(docs/testing.md).
"""

import pytest

from edgematch import Board, InputError, Puzzle
from edgematch.formats.owen import read_board, read_puzzle, write_board, write_puzzle
from edgematch.model import Hint

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4.  Tile i belongs on square i, rotation 0.
TILES = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
TILES_TEXT = "0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"
PUZZLE = Puzzle(TILES, 2, 2)
# squares A1 A2 B1 B2 = (x 0, y 1) (x 1, y 1) (x 0, y 0) (x 1, y 0): y counts from the bottom
SOLUTION = "2 2\n0 1 0\n1 1 0\n0 0 0\n1 0 0\n"


def message(call, *args):
    with pytest.raises(InputError) as err:
        call(*args)
    return str(err.value)


def test_default_source_is_text_placeholder():
    assert message(read_puzzle, "") == "<text>:1: empty file (expected the header 'W H' of an Owen puzzle)"
    assert read_puzzle("2 2\n" + TILES_TEXT).name == ""


def test_name_is_the_file_stem():
    assert read_puzzle("2 2\n" + TILES_TEXT, "set1/pieces_02x02.txt").name == "pieces_02x02"


@pytest.mark.parametrize("text, expected", [
    ("\n", "o.txt:1: empty file (expected the header 'W H' of an Owen puzzle)"),
    ("2 x\n" + TILES_TEXT, "o.txt:1: board size 'x' is not an integer"),
    ("1 2\n" + TILES_TEXT, "o.txt:1: board width 1 is too small (at least 2)"),
    ("2 1\n" + TILES_TEXT, "o.txt:1: board height 1 is too small (at least 2)"),
    ("2 2\n0 1 3 0\n0 0 4 1\n\n3 2 0 0\n", "o.txt:5: the 2x2 board of line 1 needs 4 tiles but the file ends after 3"),
])
def test_bad_puzzle_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_puzzle, text, "o.txt") == expected


def test_solution_y_counts_from_the_bottom():
    b = read_board(SOLUTION, "s.txt", PUZZLE)
    assert b.tiles.tolist() == [0, 1, 2, 3] and b.rotations.tolist() == [0, 0, 0, 0]
    assert b.is_complete


@pytest.mark.parametrize("text, expected", [
    ("", "s.txt:1: empty file (expected the header 'W H' of an Owen solution)"),
    ("2 x\n", "s.txt:1: board size 'x' is not an integer"),
    ("2 1\n", "s.txt:1: board height 1 is too small (at least 2)"),
    ("2 2\n0 1 0\n", "s.txt:2: a solution of the 2x2 puzzle needs 4 tiles but the file ends after 1"),
    ("2 2\n0 1 0\n1 z 0\n0 0 0\n1 0 0\n", "s.txt:3: position 'z' is not an integer"),
    ("2 2\n0 1 0\n2 1 0\n0 0 0\n1 0 0\n", "s.txt:3: piece 2: x = 2 is off the board (0..1)"),
    ("2 2\n0 1 0\n1 2 0\n0 0 0\n1 0 0\n", "s.txt:3: piece 2: y = 2 is off the board (0..1)"),
    ("2 2\n0 1 0\n1 1 4\n0 0 0\n1 0 0\n", "s.txt:3: piece 2: rotation 4 is not 0..3"),
])
def test_bad_solution_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_board, text, "s.txt", PUZZLE) == expected


def test_solution_bounds_follow_width_and_height_separately():
    # 3 wide, 2 high by hand: A1|A2 1, A2|A3 2, B1|B2 3, B2|B3 1, A1/B1 2, A2/B2 3, A3/B3 1.
    p = Puzzle([(0, 1, 2, 0), (0, 2, 3, 1), (0, 0, 1, 2), (2, 3, 0, 0), (3, 1, 0, 3), (1, 0, 0, 1)], 3, 2)
    head = "3 2\n0 1 0\n"
    rest = "2 1 0\n0 0 0\n1 0 0\n2 0 0\n"
    assert message(read_board, head + "3 1 0\n" + rest, "s.txt", p) == "s.txt:3: piece 2: x = 3 is off the board (0..2)"
    assert message(read_board, head + "1 2 0\n" + rest, "s.txt", p) == "s.txt:3: piece 2: y = 2 is off the board (0..1)"


def test_write_puzzle_refuses_hints():
    assert message(write_puzzle, PUZZLE.with_hints([Hint(0, 0, 0)])) == (
        "the owen format cannot store hints and this puzzle has 1; "
        "write it without hints (for example e2-bare instead of e2, or Puzzle.without_hints()) "
        "or use a format that keeps them (edgematch, heule, benoist)")


def test_write_board_refuses_a_piece_used_twice():
    # every square filled, but piece 1 twice and piece 2 never: not a solution file's content
    board = Board(PUZZLE, [0, 0, 2, 3], [0, 0, 0, 0])
    assert board.is_complete
    assert message(write_board, board) == "the owen-solution format stores complete boards (every piece once) only"
    assert message(write_board, Board(PUZZLE)) == "the owen-solution format stores complete boards (every piece once) only"
