"""Helpers shared by the text formats (edgematch.formats._text) pinned against their rules.

Every text and tile list here is written out by hand in the test; every expected message is
the whole one line ``file:line: problem`` the project promises for bad input
(edgematch.errors).  Written to kill the mutants mutation testing found alive (docs/testing.md).
"""

import pytest

from edgematch import InputError, Puzzle
from edgematch.formats import _text
from edgematch.formats.lines import Line
from edgematch.model import Hint

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4.
TILES_2x2 = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
LINES_2x2 = [Line(3, "0 1 3 0"), Line(4, "0 0 4 1"), Line(5, "3 2 0 0"), Line(6, "4 0 0 2")]


def message(call, *args, **kwargs):
    with pytest.raises(InputError) as err:
        call(*args, **kwargs)
    return str(err.value)


def test_tokens_split_commas_like_spaces():
    assert _text.tokens(Line(1, "1,2 ,3, 4")) == ["1", "2", "3", "4"]


@pytest.mark.parametrize("source, name", [
    ("dir/pieces_06x06.txt", "pieces_06x06"),  # the docstring's example
    ("<text>", ""),  # no file: the placeholder names of in-memory texts start with '<'
    ("<stdin>", ""),
    ("", ""),
])
def test_default_name_is_the_file_stem(source, name):
    assert _text.default_name(source) == name


def test_read_tiles_names_a_bad_value_a_colour():
    assert message(_text.read_tiles, [Line(1, "1 2 3 4"), Line(3, "1 2 x 4")], "f.txt") == \
        "f.txt:3: colour 'x' is not an integer"


def test_check_tile_count_one_too_many_names_the_first_extra_tile():
    lines = [Line(2, "a"), Line(3, "b"), Line(5, "c"), Line(7, "d")]
    assert message(_text.check_tile_count, 2, lines, "x\na\nb\n\nc\n\nd\n", "f.txt", "a 2x1 board") == \
        "f.txt:5: a 2x1 board needs 2 tiles but there are more: tile 3 is one too many"


def test_check_side_accepts_1024_and_refuses_1025():
    _text.check_side(1024, "width", "f.txt", 1)  # MAX_SIDE_IN_FILE = 1024 is allowed
    assert message(_text.check_side, 1025, "width", "f.txt", 1) == "f.txt:1: width 1025 is too large (at most 1024)"


def test_locate_index_one_past_the_lines_falls_back():
    assert str(_text.locate(InputError("m", tile=1), "f.txt", [Line(4, "t")], (), 9)) == "f.txt:9: m"
    assert str(_text.locate(InputError("m", hint=1), "f.txt", (), [Line(2, "h")], None)) == "f.txt: m"


def test_build_puzzle_default_name_is_empty():
    p = _text.build_puzzle(TILES_2x2, 2, 2, "f.txt", LINES_2x2, 6)
    assert p.name == ""
    assert (p.width, p.height) == (2, 2)


def test_build_puzzle_names_the_tile_that_cannot_fit_when_inferring_the_size():
    # Tile 4 has grey on three sides: 3 corners, so no size can be inferred; the tile is blamed.
    tiles = TILES_2x2[:3] + [(0, 0, 0, 12)]
    lines = LINES_2x2[:3] + [Line(6, "0 0 0 12")]
    assert message(_text.build_puzzle, tiles, None, None, "f.txt", lines, 6) == \
        "f.txt:6: tile 4 (0 0 0 12) has grey on 3 sides that cannot all face the outside"


def test_build_puzzle_names_grey_on_opposite_sides():
    # 3 tiles with two grey sides and one with three: no size; the first impossible tile,
    # tile 1 (grey N and S), is blamed before tile 4.
    tiles = [(0, 5, 0, 5)] + TILES_2x2[1:3] + [(0, 0, 0, 2)]
    lines = [Line(3, "0 5 0 5")] + LINES_2x2[1:3] + [Line(6, "0 0 0 2")]
    assert message(_text.build_puzzle, tiles, None, None, "f.txt", lines, 6) == \
        "f.txt:3: tile 1 (0 5 0 5) has grey on 2 sides that cannot all face the outside"


def test_build_puzzle_with_a_given_size_reports_the_model_error_not_a_tile():
    # A size is given: the wrong tile count is the problem, reported at the fallback line,
    # even though tile 5 (grey on three sides) could never fit either.
    tiles = TILES_2x2 + [(0, 0, 0, 7)]
    lines = LINES_2x2 + [Line(8, "0 0 0 7")]
    assert message(_text.build_puzzle, tiles, 2, 2, "f.txt", lines, 1) == \
        "f.txt:1: 5 tiles given but a 2x2 board needs 4"


def test_add_hints_hint_without_a_line_is_reported_at_the_first_hint_line():
    p = Puzzle(TILES_2x2, 2, 2)
    # Two hints, one hint line: the second hint (tile 9 of 4) has no line of its own.
    hints = [Hint(0, 0, 0), Hint(3, 8, 0)]
    assert message(_text.add_hints, p, hints, "f.txt", [Line(2, "1 1 1 0")]) == \
        "f.txt:2: hint on B2 names tile 9, but there are 4 tiles"


def test_no_hints_message():
    p = Puzzle(TILES_2x2, 2, 2, [Hint(0, 0, 0)])
    assert message(_text.no_hints, p, "julia") == (
        "the julia format cannot store hints and this puzzle has 1; "
        "write it without hints (for example e2-bare instead of e2, or Puzzle.without_hints()) "
        "or use a format that keeps them (edgematch, heule, benoist)")


@pytest.mark.parametrize("token, expected", [
    ("5", True), ("-5", True), ("+12", True), ("X5", False), ("XX5", False), ("-", False), ("+-5", False), ("5a", False),
])
def test_is_int_allows_one_sign_then_digits(token, expected):
    assert _text.is_int(token) is expected


def test_header_then_rows_needs_a_row_after_the_header():
    assert _text.header_then_rows("5\n", (1,), 4) is False
    assert _text.header_then_rows("5\n1 2 3 4\n", (1,), 4) is True
