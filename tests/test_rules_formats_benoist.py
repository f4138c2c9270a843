"""Benoist's E2 Benchmark files (edgematch.formats.benoist) pinned against their documented layout.

Layout (his readme.txt, quoted in the module docstring and docs/formats.md): size, number of
colours (grey 0 not counted), number of hints, hints ``row column tile rotation`` (1-based,
rotation 0..3 counter-clockwise), then size*size tiles top right bottom left.  The files are
written out by hand here; error tests compare the whole one line ``file:line: problem``.
Written to kill the mutants mutation testing found alive (docs/testing.md).
"""

import pytest

from edgematch import InputError
from edgematch.formats.benoist import read_puzzle

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4; colours 1..4.
TILES = "0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"
GOOD = "2\n4\n0\n" + TILES


def message(text, *source):
    with pytest.raises(InputError) as err:
        read_puzzle(text, *source)
    return str(err.value)


def test_default_source_is_text_placeholder():
    assert message("2\n") == "<text>:1: the file ends before the number of colours line"
    assert read_puzzle(GOOD).name == ""


def test_name_is_the_file_stem():
    assert read_puzzle(GOOD, "data/E_2_1.b4i0.nohint").name == "E_2_1.b4i0"


@pytest.mark.parametrize("text, expected", [
    ("", "b.txt:1: the file ends before the board size line"),
    ("2\n4\n", "b.txt:2: the file ends before the number of hints line"),
    # three header lines and nothing else: the tiles are missing, not a header line
    ("2\n4\n0\n", "b.txt:3: the 2x2 board of line 1 needs 4 tiles but the file ends after 0"),
    # one hint announced and one line after the header: it is the hint, no tiles follow
    ("2\n4\n1\n1 1 1 0\n", "b.txt:4: the 2x2 board of line 1 needs 4 tiles but the file ends after 0"),
    ("2\n4\n3\n1 1 1 0\n", "b.txt:4: line 3 announces 3 hint lines but the file ends after 1"),
    ("x\n4\n0\n" + TILES, "b.txt:1: board size 'x' is not an integer"),
    ("2\nx\n0\n" + TILES, "b.txt:2: number of colours 'x' is not an integer"),
    ("2\n4\nx\n" + TILES, "b.txt:3: number of hints 'x' is not an integer"),
    ("2 2\n4\n0\n" + TILES, "b.txt:1: expected 1 numbers, found 2: '2 2'"),
    ("2\n4 5\n0\n" + TILES, "b.txt:2: expected 1 numbers, found 2: '4 5'"),
    ("2\n4\n0 0\n" + TILES, "b.txt:3: expected 1 numbers, found 2: '0 0'"),
    ("1\n4\n0\n" + TILES, "b.txt:1: board size 1 is too small (at least 2)"),
    ("2\n-1\n0\n" + TILES, "b.txt:2: the number of colours -1 is negative"),
    ("2\n4\n-1\n" + TILES, "b.txt:3: the number of hints -1 is negative"),
    # zero colours is allowed by the layout; then colour 1 is too high
    ("2\n0\n0\n" + TILES, "b.txt:4: colour 1 is above the 0 colours declared on line 2"),
    ("2\n4\n0\n0 1 3 0\n0 0 5 1\n3 2 0 0\n5 0 0 2\n", "b.txt:5: colour 5 is above the 4 colours declared on line 2"),
    ("2\n4\n1\n1 y 1 0\n" + TILES, "b.txt:4: hint value 'y' is not an integer"),
    ("2\n4\n1\n1 1 1 4\n" + TILES, "b.txt:4: hint rotation 4 is out of range (0..3)"),
    ("2\n4\n2\n1 1 1 0\n1 1 2 0\n" + TILES, "b.txt:5: two hints on square A1"),
    ("2\n4\n0\n0 1 3 0\n0 0 0 1\n3 2 0 0\n4 0 0 2\n",
     "b.txt:5: tile 2 (0 0 0 1) has 3 grey sides; at most 2 can face the outside"),
    ("2\n4\n0\n0 1 3 0\n1 2 3 4\n3 2 0 0\n4 0 0 2\n",
     "b.txt:1: a 2x2 board needs 4 corner tiles (grey on 2 sides) but 3 are given"),
])
def test_bad_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(text, "b.txt") == expected


def test_hint_rotation_counts_counter_clockwise():
    # Tile 1 (0 1 3 0) fits A1 at rotation 0; file rotation 0 is package rotation 0.
    p = read_puzzle("2\n4\n1\n1 1 1 0\n" + TILES, "b.txt")
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(0, 0, 0)]
    # Tile 2 (0 0 4 1) turned clockwise 3 shows 0 4 1 0, the top-left corner; Benoist's
    # counter-clockwise rotation 1 is that turn, and 3 is still in range.
    p = read_puzzle("2\n4\n1\n1 1 2 1\n" + TILES, "b.txt")
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(0, 1, 3)]
    p = read_puzzle("2\n4\n1\n1 2 1 3\n" + TILES, "b.txt")
    # tile 1 turned clockwise 1 shows 0 0 1 3: grey N and E, the top-right corner A2
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(1, 0, 1)]
