"""Brendan Owen's pieces and solution files."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from edgematch import InputError
from edgematch.formats import (
    detect_board_format,
    detect_puzzle_format,
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
)
from support.puzzles import planted, puzzles

# 3x2 solved by hand (see test_formats_native): rows from the top A1 A2 A3 / B1 B2 B3.
PIECES = "3 2\n1 2 0 0\n3 1 0 3\n2 0 0 1\n2 3 0 0\n2 3 1 0\n1 0 0 1\n"
# piece -> square: 1 A1 rot 1, 2 B2, 3 A3 rot 3, 4 B1, 5 A2 rot 1, 6 B3.  x from the left,
# y from the BOTTOM: A-row squares have y = 1, B-row squares y = 0.
SOLUTION = "3 2\n0 1 1\n1 0 0\n2 1 3\n0 0 0\n1 1 1\n2 0 0\n"


def puzzle():
    return parse_puzzle(PIECES, "pieces.txt", "owen")


def test_reads_header_and_up_right_down_left():
    p = puzzle()
    assert (p.width, p.height, p.n_tiles, p.name) == (3, 2, 6, "pieces")
    assert p.tiles[1].tolist() == [3, 1, 0, 3]


def test_solution_rows_count_from_the_bottom_and_rotations_clockwise():
    board = parse_board(SOLUTION, puzzle(), "solution.txt", "owen-solution")
    assert board.tiles.tolist() == [0, 4, 2, 3, 1, 5]
    assert board.rotations.tolist() == [1, 1, 3, 0, 0, 0]
    assert board.verify().valid
    assert format_board(board, "owen-solution") == SOLUTION


@settings(max_examples=50, deadline=None)
@given(puzzles(hints=False))
def test_round_trip(p):
    assert parse_puzzle(format_puzzle(p, "owen"), "x", "owen") == p


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_solution_round_trip(width, height, colours, seed):
    p, solution = planted(width, height, colours, seed)
    text = format_board(solution, "owen-solution")
    again = parse_board(text, p, "s", "owen-solution")
    assert again == solution and again.verify().valid
    assert detect_board_format(text, "s.txt").name == "owen-solution"


def test_refuses_hints_and_incomplete_boards():
    p, solution = planted(4, 3, 3, seed=5, hints=1)
    with pytest.raises(InputError, match="cannot store hints"):
        format_puzzle(p, "owen")
    board = solution.copy()
    board.remove(0)
    with pytest.raises(InputError, match="complete boards"):
        format_board(board, "owen-solution")


def test_pieces_file_is_ambiguous_with_julia_and_needs_format():
    with pytest.raises(InputError, match="ambiguous"):
        detect_puzzle_format(PIECES, "pieces.txt")


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "empty file"),
    ("3\n1 2 0 0\n", 1, "expected 2 numbers"),
    ("3 x\n1 2 0 0\n", 1, "not an integer"),
    ("1 6\n" + PIECES[4:], 1, "too small"),
    ("3000 2\n" + PIECES[4:], 1, "too large"),
    (PIECES.rsplit("1 0 0 1\n", 1)[0], 6, "ends after 5"),
    (PIECES + "1 0 0 1\n", 8, "one too many"),
    (PIECES.replace("3 1 0 3", "3 1 0 3 3"), 3, "expected 4 numbers, found 5"),
    (PIECES.replace("3 1 0 3", "3 1 0 -3"), 3, "negative"),
    (PIECES.replace("3 1 0 3", "3 1 0 0"), 1, "corner tiles"),
])
def test_pieces_errors(text, line, message):
    with pytest.raises(InputError) as info:
        parse_puzzle(text, "pieces.txt", "owen")
    assert (info.value.source, info.value.line) == ("pieces.txt", line)
    assert message in info.value.message


@pytest.mark.parametrize("text, line, message", [
    ("2 3\n" + SOLUTION[4:], 1, "puzzle is 3x2"),
    (SOLUTION.rsplit("2 0 0\n", 1)[0], 6, "ends after 5"),
    (SOLUTION + "2 0 0\n", 8, "one too many"),
    (SOLUTION.replace("1 0 0\n", "3 0 0\n"), 3, "x = 3 is off the board"),
    (SOLUTION.replace("1 0 0\n", "1 2 0\n"), 3, "y = 2 is off the board"),
    (SOLUTION.replace("1 0 0\n", "1 0 4\n"), 3, "rotation 4"),
    (SOLUTION.replace("1 0 0\n", "1 0\n"), 3, "expected 3 numbers"),
    (SOLUTION.replace("2 0 0\n", "1 0 0\n"), 7, "pieces 2 and 6 are both on B2"),
])
def test_solution_errors(text, line, message):
    with pytest.raises(InputError) as info:
        parse_board(text, puzzle(), "solution.txt", "owen-solution")
    assert (info.value.source, info.value.line) == ("solution.txt", line)
    assert message in info.value.message
