"""Heule's SAT benchmark files: hint count, hints 'row col piece rotation', pieces N E S W."""

import pytest
from hypothesis import given, settings

from edgematch import Board, InputError
from edgematch.formats import detect_puzzle_format, format_puzzle, parse_puzzle
from support.puzzles import planted, puzzles

# The 3x2 puzzle of test_formats_native (N E S W), with its A1 hint: row 1, column 1, piece 1,
# clockwise rotation 1.
TILES = "1 2 0 0\n3 1 0 3\n2 0 0 1\n2 3 0 0\n2 3 1 0\n1 0 0 1\n"
TEXT = "1\n1 1 1 1\n" + TILES


def read(text):
    return parse_puzzle(text, "h.txt", "heule")


def test_reads_hints_one_based_from_the_top_left():
    p = read(TEXT)
    assert (p.width, p.height) == (3, 2)  # inferred, wider than tall
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(0, 0, 1)]
    assert detect_puzzle_format(TEXT, "h.txt").name == "heule"


def test_inner_hint_rotation_is_clockwise_as_in_the_encoder():
    # em-encode.c printHints: side j of the square shows piece side (j + 4 - rotation) % 4.
    p, solution = planted(4, 4, 5, seed=11)
    square = 5  # B2, an inner square
    tile, rot = int(solution.tiles[square]), int(solution.rotations[square])
    text = format_puzzle(p.with_hints({square: (tile, rot)}), "heule")
    assert text.splitlines()[1] == f"2 2 {tile + 1} {rot}"
    q = read(text)
    shown = Board.from_hints(q).edges()[square].tolist()
    assert shown == [int(p.tiles[tile][(j + 4 - rot) % 4]) for j in range(4)]


@settings(max_examples=60, deadline=None)
@given(puzzles(wide=True))
def test_round_trip(p):
    text = format_puzzle(p, "heule")
    assert read(text) == p
    assert detect_puzzle_format(text, "x.txt").name == "heule"


def test_refuses_boards_taller_than_wide():
    p, _ = planted(3, 5, 3, seed=1)
    with pytest.raises(InputError, match="wider than tall"):
        format_puzzle(p, "heule")


@pytest.mark.parametrize("text, line, message", [
    ("", 1, "empty file"),
    ("x\n" + TILES, 1, "not an integer"),
    ("1 2\n" + TILES, 1, "expected 1 numbers"),
    ("-1\n" + TILES, 1, "negative"),
    ("9\n1 1 1 1\n", 2, "announces 9 hint lines"),
    ("1\n1 1 1 1\n", 2, "no pieces"),
    ("1\n1 1 1\n" + TILES, 2, "expected 4 numbers"),
    ("1\n3 1 1 1\n" + TILES, 2, "row 3 is out of range (1..2)"),
    ("1\n1 0 1 1\n" + TILES, 2, "column 0 is out of range"),
    ("1\n1 1 7 1\n" + TILES, 2, "piece 7 is out of range"),
    ("1\n1 1 1 4\n" + TILES, 2, "rotation 4"),
    ("1\n1 1 1 0\n" + TILES, 2, "does not fit the border"),
    ("2\n1 1 1 1\n1 1 4 0\n" + TILES, 3, "two hints on square A1"),
    ("2\n1 1 1 1\n2 1 1 0\n" + TILES, 3, "hinted twice"),
    (TEXT.replace("3 1 0 3", "3 1 0 x"), 4, "not an integer"),
    (TEXT.replace("3 1 0 3", "3 1 0 -3"), 4, "negative"),
    (TEXT.replace("3 1 0 3", "3 1 0 99999999999999"), 4, "too large"),
    (TEXT.replace("3 1 0 3", "3 0 0 0"), 4, "grey on 3 sides"),
    (TEXT.replace("3 1 0 3", "3 0 3 0"), 4, "grey on 2 sides"),
    (TEXT + "1 2 3 4\n", 9, "cannot infer the board size"),
])
def test_errors_name_the_line(text, line, message):
    with pytest.raises(InputError) as info:
        read(text)
    assert (info.value.source, info.value.line) == ("h.txt", line)
    assert message in info.value.message
