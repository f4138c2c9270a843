"""The edgematch plain-text format: round trips, detection, and errors with their lines."""

import pytest
from hypothesis import given, settings

from edgematch import Board, InputError, Puzzle
from edgematch.formats import (
    detect_board_format,
    detect_puzzle_format,
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
)
from support.puzzles import boards, planted, puzzles

# A solved 3x2 puzzle by hand.  Joins: A1|A2 1, A2|A3 2, B1|B2 3, B2|B3 1, A1/B1 2, A2/B2 3,
# A3/B3 1; tiles 1..6 are A1 (rot 1), B2, A3 (rot 3), B1, A2 (rot 1), B3.
SMALL = """\
# a comment line
name small one
size 3 2
hint A1 1 1   # tile 1 turned once: shows 0 1 2 0
1 2 0 0
3 1 0 3
2 0 0 1
2 3 0 0
2 3 1 0
1 0 0 1
"""


def read(text, fmt="edgematch"):
    return parse_puzzle(text, "p.em", fmt)


def error_of(text, fmt="edgematch"):
    with pytest.raises(InputError) as info:
        read(text, fmt)
    return info.value


def test_reads_size_name_hints_and_tiles():
    p = read(SMALL)
    assert (p.width, p.height, p.name) == (3, 2, "small one")
    assert p.tiles[0].tolist() == [1, 2, 0, 0]
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(0, 0, 1)]


def test_size_is_inferred_without_size_line_and_square_size_short_form():
    bare = "\n".join(line for line in SMALL.splitlines() if not line.startswith(("size", "hint")))
    p = read(bare)
    assert (p.width, p.height) == (3, 2)
    square, _ = planted(4, 4, 3, seed=1)
    text = format_puzzle(square).replace("size 4 4", "size 4")
    assert read(text) == square


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_round_trip(puzzle):
    text = format_puzzle(puzzle, "edgematch")
    again = read(text)
    assert again == puzzle
    assert again.name == (" ".join(puzzle.name.split()) or "p")  # no name line: the file's stem
    assert detect_puzzle_format(text, "x.txt").name == "edgematch"


@settings(max_examples=60, deadline=None)
@given(boards())
def test_board_round_trip(board):
    text = format_board(board, "edgematch")
    again = parse_board(text, board.puzzle, "b.emb", "edgematch")
    assert again == board
    assert detect_board_format(text, "b.txt").name == "edgematch"


def test_board_example_and_empty_squares():
    p = read(SMALL)
    text = "board 3 2\n1/1 . 5/0\n. 3/2 .\n"
    b = parse_board(text, p, "b", "edgematch")
    assert b.tiles.tolist() == [0, -1, 4, -1, 2, -1]
    assert b.rotations.tolist() == [1, 0, 0, 0, 2, 0]


def test_bare_tile_list_is_not_detected_but_extension_breaks_the_tie():
    bare = "\n".join(line for line in SMALL.splitlines() if line[:1].isdigit())
    with pytest.raises(InputError, match="format"):
        detect_puzzle_format(bare, "x.txt")
    assert detect_puzzle_format(bare, "x.em").name == "edgematch"


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "no tiles"),
    ("size 3 2\n1 2 0 0\n3 1 0 3\n2 0 0 1\n2 3 0 0\n2 3 1 0\n", 6, "ends after 5"),  # truncated
    (SMALL + "1 1 0 0\n", 11, "one too many"),
    (SMALL.replace("3 1 0 3", "3 1 x 3"), 6, "'x' is not an integer"),
    (SMALL.replace("3 1 0 3", "3 1 0"), 6, "expected 4 numbers, found 3"),
    (SMALL.replace("3 1 0 3", "3 1 0 -3"), 6, "negative"),
    (SMALL.replace("3 1 0 3", "3 1234567890123 0 3"), 6, "too large"),
    (SMALL.replace("3 1 0 3", "3 99999 0 3"), 6, "too large"),
    (SMALL.replace("3 1 0 3", "0 0 0 3"), 6, "tile 2 (0 0 0 3) has 3 grey sides"),
    (SMALL.replace("3 1 0 3", "3 1 0 0"), 3, "needs 4 corner tiles"),  # counts: at the size line
    (SMALL.replace("size 3 2", "size 3 2 1"), 3, "size W H"),
    (SMALL.replace("size 3 2", "size 0 2"), 3, "too small"),
    (SMALL.replace("size 3 2", "size 2000 2"), 3, "too large"),
    (SMALL.replace("size 3 2", "size 3 3"), 10, "needs 9 tiles but the file ends after 6"),
    (SMALL + "size 3 2\n", 11, "second size"),
    (SMALL + "name again\n", 11, "second name"),
    (SMALL.replace("hint A1 1 1", "hint C1 1 1"), 4, "off the 3x2 board"),
    (SMALL.replace("hint A1 1 1", "hint A9 1 1"), 4, "off the 3x2 board"),
    (SMALL.replace("hint A1 1 1", "hint A1 1 1\nhint A1 6 0"), 5, "two hints on square A1"),
    (SMALL.replace("hint A1 1 1", "hint A1 1 1\nhint A3 1 2"), 5, "hinted twice"),
    (SMALL.replace("hint A1 1 1", "hint A1 1 0"), 4, "does not fit the border"),
    (SMALL.replace("hint A1 1 1", "hint A1 1 4"), 4, "rotation 4"),
    (SMALL.replace("hint A1 1 1", "hint A1 0 1"), 4, "numbered from 1"),
    (SMALL.replace("hint A1 1 1", "hint A1 7 1"), 4, "there are 6 tiles"),
    (SMALL.replace("hint A1 1 1", "hint A1 1"), 4, "hint SQUARE TILE ROTATION"),
    (SMALL.replace("hint A1 1 1", "hint 1A 1 1"), 4, "not a square name"),
    (SMALL.replace("hint A1 1 1", "hints A1 1 1"), 4, "neither a keyword"),
    ("board 3 2\n1/0 . .\n. . .\n", 1, "board file"),
])
def test_errors_name_the_line(text, line, message):
    err = error_of(text)
    assert err.source == "p.em"
    assert err.line == line
    assert message in err.message


BOARD = "board 3 2\n1/1 . 5/0\n. 3/2 .\n"


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "board W H"),
    ("size 3 2\n", 1, "board W H"),
    ("board 3\n1/1 . 5/0\n. 3/2 .\n", 1, "board W H"),
    ("board 3 x\n1/1 . 5/0\n. 3/2 .\n", 1, "not an integer"),
    ("board 2 3\n1/1 .\n5/0 .\n. 3/2\n", 1, "puzzle is 3x2"),
    ("board 3 2\n1/1 . 5/0\n", 2, "ends after 1"),
    (BOARD + ". . .\n", 4, "one too many"),
    (BOARD.replace("1/1 . 5/0", "1/1 . 5/0 ."), 2, "needs 3 squares"),
    (BOARD.replace("1/1", "1-1"), 2, "not TILE/ROTATION"),
    (BOARD.replace("1/1", "x/1"), 2, "not an integer"),
    (BOARD.replace("1/1", "7/1"), 2, "does not exist"),
    (BOARD.replace("1/1", "0/1"), 2, "does not exist"),
    (BOARD.replace("1/1", "1/4"), 2, "rotation 4"),
])
def test_board_errors_name_the_line(text, line, message):
    puzzle = read(SMALL)
    with pytest.raises(InputError) as info:
        parse_board(text, puzzle, "b.emb", "edgematch")
    assert (info.value.source, info.value.line) == ("b.emb", line)
    assert message in info.value.message


def test_writer_layout_is_stable():
    p = read(SMALL)
    assert format_puzzle(p).splitlines()[1:5] == ["name small one", "size 3 2", "hint A1 1 1", "1 2 0 0"]
    board = Board.from_hints(p)
    assert format_board(board).splitlines()[-3:] == ["board 3 2", "1/1   .   .", "  .   .   ."]


def test_board_file_is_not_claimed_as_a_puzzle():
    with pytest.raises(InputError):
        detect_puzzle_format(BOARD, "b.txt")
    assert detect_board_format(BOARD, "b.txt").name == "edgematch"


def test_puzzle_with_two_digit_rows_round_trips():
    # 27 rows: square names go past Z (AA1) and must still round trip.
    p, solution = planted(3, 27, 4, seed=3, hints=0)
    last = p.n_squares - 1
    hinted = p.with_hints({last: (int(solution.tiles[last]), int(solution.rotations[last]))})
    text = format_puzzle(hinted)
    assert "hint AA3" in text
    assert read(text) == hinted
    assert isinstance(hinted, Puzzle)
