"""Line-numbered parsing helpers (edgematch.formats.lines) pinned against their documented rules.

Every text here is written out by hand in the test; every expected message is the whole
one line ``file:line: problem`` the project promises for bad input (edgematch.errors).
Written to kill the mutants mutation testing found alive (docs/testing.md).
"""

import pytest

from edgematch import InputError
from edgematch.formats.lines import Line, content_lines, integer, integers, relocate


# ------------------------------------------------------------------ content_lines
def test_content_lines_without_comment_marker_keeps_the_whole_line():
    # comment=None: nothing is a comment, so '#' and every token after the first stay.
    text = "1 2 # 3\n\n  4 5  \n"
    assert content_lines(text, comment=None) == [Line(1, "1 2 # 3"), Line(3, "4 5")]


def test_content_lines_cuts_at_the_first_comment_marker():
    # "1 2 # a # b": the comment starts at the first '#', not the last.
    assert content_lines("1 2 # a # b\n# only a comment\n3\n") == [Line(1, "1 2"), Line(3, "3")]


# ------------------------------------------------------------------ integer
def test_integer_default_what_is_value():
    with pytest.raises(InputError) as err:
        integer("x7", "f.txt", 3)
    assert str(err.value) == "f.txt:3: value 'x7' is not an integer"


def test_integer_rejects_a_token_starting_with_a_letter_x_as_not_an_integer():
    # 'X5' has no sign: only '+' and '-' may precede the digits.
    with pytest.raises(InputError) as err:
        integer("X5", "f.txt", 2, "colour")
    assert str(err.value) == "f.txt:2: colour 'X5' is not an integer"


def test_integer_accepts_twelve_digits_and_refuses_thirteen():
    # MAX_INT_DIGITS = 12: twelve digits are still a number, thirteen are "too large".
    assert integer("123456789012", "f.txt", 1) == 123456789012
    assert integer("-123456789012", "f.txt", 1) == -123456789012
    with pytest.raises(InputError) as err:
        integer("1234567890123", "f.txt", 4, "colour")
    assert str(err.value) == "f.txt:4: colour '1234567890123...' is too large"


def test_integer_too_large_message_shows_the_first_twenty_characters():
    token = "1234567890" * 3  # 30 digits; the message shows token[:20] then '...'
    with pytest.raises(InputError) as err:
        integer(token, "f.txt", 5)
    assert str(err.value) == "f.txt:5: value '12345678901234567890...' is too large"


# ------------------------------------------------------------------ integers
def test_integers_splits_on_commas_as_on_spaces():
    assert integers(Line(1, "1,2, 3 ,4"), "f.txt", 4) == [1, 2, 3, 4]


def test_integers_default_what_is_value():
    with pytest.raises(InputError) as err:
        integers(Line(6, "1 y 3"), "f.txt")
    assert str(err.value) == "f.txt:6: value 'y' is not an integer"


def test_integers_passes_what_to_each_token():
    with pytest.raises(InputError) as err:
        integers(Line(7, "1 2 z 4"), "f.txt", 4, "colour")
    assert str(err.value) == "f.txt:7: colour 'z' is not an integer"


def test_integers_count_message_quotes_the_first_sixty_characters():
    text = " ".join(["1"] * 40)  # 79 characters, 40 numbers
    with pytest.raises(InputError) as err:
        integers(Line(8, text), "f.txt", 4)
    assert str(err.value) == f"f.txt:8: expected 4 numbers, found 40: '{text[:60]}'"
    assert len(text[:60]) == 60 and text[:61] != text[:60]


# ------------------------------------------------------------------ relocate
def test_relocate_names_the_file_even_without_any_line():
    err = relocate(InputError("tile 1 is odd", tile=0), "f.txt")
    assert str(err) == "f.txt: tile 1 is odd"


def test_relocate_takes_the_line_of_the_tile():
    err = relocate(InputError("tile 2 is odd", tile=1), "f.txt", tile_lines=[4, 9])
    assert str(err) == "f.txt:9: tile 2 is odd"


def test_relocate_takes_the_line_of_the_hint():
    err = relocate(InputError("hint 1 is odd", hint=0), "f.txt", tile_lines=[4, 9], hint_lines=[2])
    assert str(err) == "f.txt:2: hint 1 is odd"


def test_relocate_index_one_past_the_lines_gives_no_line():
    # tile 2 / hint 2 of a file with one tile line and one hint line: no line to name.
    assert str(relocate(InputError("m", tile=1), "f.txt", tile_lines=[4])) == "f.txt: m"
    assert str(relocate(InputError("m", hint=1), "f.txt", hint_lines=[2])) == "f.txt: m"


def test_relocate_keeps_a_known_line():
    err = relocate(InputError("m", "g.txt", 3, tile=0, hint=0), "f.txt", tile_lines=[4], hint_lines=[2])
    assert str(err) == "g.txt:3: m"
