"""Eternity2Puzzles.jl pieces files (bottom left top right) and .et2 boards."""

import pytest
from hypothesis import given, settings

import edgematch
from edgematch import Board, InputError
from edgematch.formats import (
    detect_board_format,
    detect_puzzle_format,
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
)
from support.puzzles import boards, planted, puzzles

# The 3x2 puzzle of test_formats_native, tile by tile as bottom left top right.
# N E S W "1 2 0 0" -> B L T R "0 0 1 2", and so on.
PIECES = "0 0 1 2\n0 3 3 1\n0 1 2 0\n0 0 2 3\n1 0 2 3\n0 1 1 0\n"


def test_sides_are_bottom_left_top_right():
    p = parse_puzzle(PIECES, "pieces.txt", "julia")
    assert (p.width, p.height) == (3, 2)
    assert p.tiles.tolist() == [[1, 2, 0, 0], [3, 1, 0, 3], [2, 0, 0, 1], [2, 3, 0, 0], [2, 3, 1, 0], [1, 0, 0, 1]]


def test_header_is_rows_then_columns():
    p = parse_puzzle("2 3\n" + PIECES, "pieces.txt", "julia")
    assert (p.width, p.height) == (3, 2)
    # The same tiles fit a 2-wide, 3-high board too (kind counts are symmetric): the header decides.
    q = parse_puzzle("3 2\n" + PIECES, "pieces.txt", "julia")
    assert (q.width, q.height) == (2, 3)


def test_writer_writes_header_and_bottom_left_top_right():
    p = parse_puzzle(PIECES, "pieces.txt", "julia")
    assert format_puzzle(p, "julia") == "2 3\n" + PIECES


@settings(max_examples=60, deadline=None)
@given(puzzles(hints=False))
def test_round_trip(p):
    assert parse_puzzle(format_puzzle(p, "julia"), "x", "julia") == p


def test_refuses_hints_and_colours_above_255():
    p, _ = planted(3, 3, 4, seed=2, hints=1)
    with pytest.raises(InputError, match="cannot store hints"):
        format_puzzle(p, "julia")
    big = edgematch.Puzzle(p.tiles * 100, 3, 3)
    with pytest.raises(InputError, match="0..255"):
        format_puzzle(big, "julia")


def test_detection_never_guesses():
    with pytest.raises(InputError, match="cannot tell"):
        detect_puzzle_format(PIECES, "pieces.txt")
    with pytest.raises(InputError, match="ambiguous"):
        detect_puzzle_format("2 3\n" + PIECES, "pieces.txt")


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "no pieces"),
    ("2 3\n", 1, "ends after 0"),
    ("2 3\n" + PIECES[:-8], 6, "ends after 5"),
    ("2 3\n" + PIECES + "0 1 1 0\n", 8, "one too many"),
    ("2 x\n" + PIECES, 1, "not an integer"),
    ("2 1\n" + PIECES, 1, "too small"),
    (PIECES.replace("0 3 3 1", "0 3 3"), 2, "expected 4 numbers"),
    (PIECES.replace("0 3 3 1", "0 3 3 y"), 2, "not an integer"),
    (PIECES.replace("0 3 3 1", "0 3 -3 1"), 2, "negative"),
    (PIECES.replace("0 3 3 1", "0 0 3 1"), 6, "cannot infer the board size"),  # no header: last tile line
    ("2 3\n" + PIECES.replace("0 3 3 1", "0 0 3 1"), 1, "corner tiles"),
])
def test_pieces_errors(text, line, message):
    with pytest.raises(InputError) as info:
        parse_puzzle(text, "pieces.txt", "julia")
    assert (info.value.source, info.value.line) == ("pieces.txt", line)
    assert message in info.value.message


# ---------------------------------------------------------------------- .et2
def test_et2_layout_matches_the_package():
    e2 = edgematch.load("e2")
    text = format_board(Board.from_hints(e2), "et2")
    rows = text.splitlines()
    assert len(rows) == 16
    assert rows[8] == " ---/-" * 7 + " 139/2" + " ---/-" * 8  # I8 = row 9, column 8
    again = parse_board(text, e2, "b.et2", "et2")
    assert again.placements() == {135: (138, 2)}
    assert detect_board_format(text, "b.et2").name == "et2"


@settings(max_examples=60, deadline=None)
@given(boards())
def test_et2_round_trip(board):
    text = format_board(board, "et2")
    assert parse_board(text, board.puzzle, "b", "et2") == board
    assert detect_board_format(text, "b.txt").name == "et2"


def test_et2_rotation_is_clockwise():
    p = parse_puzzle(PIECES, "pieces.txt", "julia")
    # tile 1 (N E S W 1 2 0 0) turned once clockwise shows 0 1 2 0 and fits A1.
    board = parse_board("1/1 ---/- ---/-\n---/- ---/- ---/-\n", p, "b.et2", "et2")
    assert board.edges()[0].tolist() == [0, 1, 2, 0]


ET2 = "   1/1    5/1    3/3\n   4/0    2/0    6/0\n"


def test_et2_solution_verifies():
    p = parse_puzzle(PIECES, "pieces.txt", "julia")
    assert parse_board(ET2, p, "b.et2", "et2").verify().valid


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "0 rows"),
    (ET2.splitlines()[0] + "\n", 1, "1 rows"),
    (ET2 + "---/- ---/- ---/-\n", 3, "3 rows"),
    (ET2.replace("   6/0", ""), 2, "needs 3 squares"),
    (ET2.replace("5/1", "5-1"), 1, "not piece/rotation"),
    (ET2.replace("5/1", "7/1"), 1, "piece 7 does not exist"),
    (ET2.replace("5/1", "0/1"), 1, "piece 0 does not exist"),
    (ET2.replace("5/1", "5/4"), 1, "rotation 4"),
    (ET2.replace("5/1", "1234567890123/1"), 1, "too large"),
])
def test_et2_errors(text, line, message):
    p = parse_puzzle(PIECES, "pieces.txt", "julia")
    with pytest.raises(InputError) as info:
        parse_board(text, p, "b.et2", "et2")
    assert (info.value.source, info.value.line) == ("b.et2", line)
    assert message in info.value.message


def test_et2_board_placing_a_piece_twice_reads_and_fails_verification():
    """A duplicate is a board that is not a solution, not bad input: verify must list it."""
    p = parse_puzzle(PIECES, "pieces.txt", "julia")
    board = parse_board(ET2.replace("6/0", "1/0"), p, "b.et2", "et2")
    assert any("placed 2 times" in reason for reason in board.verify().reasons)
