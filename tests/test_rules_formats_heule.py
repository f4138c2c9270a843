"""Heule's SAT benchmark files (edgematch.formats.heule) pinned against their documented layout.

Layout (docs/formats.md, the module docstring): number of hint lines, hints ``row col piece
rotation`` (1-based, rotation 0..3), then pieces N E S W.  The files are written out by hand
here; error tests compare the whole one line ``file:line: problem``.
Written to kill the mutants mutation testing found alive (docs/testing.md).
"""

import pytest

from edgematch import InputError
from edgematch.formats.heule import read_puzzle

# The 3x2 puzzle of test_formats_heule (N E S W): 4 corners, 2 edge pieces -> 3 wide, 2 high.
TILES = "1 2 0 0\n3 1 0 3\n2 0 0 1\n2 3 0 0\n2 3 1 0\n1 0 0 1\n"


def message(text, *source):
    with pytest.raises(InputError) as err:
        read_puzzle(text, *source)
    return str(err.value)


def test_default_source_is_text_placeholder():
    assert message("") == "<text>:1: empty file (expected the number of hint lines)"
    assert read_puzzle("0\n" + TILES).name == ""


def test_name_is_the_file_stem():
    assert read_puzzle("0\n" + TILES, "bench/clue1.txt").name == "clue1"


@pytest.mark.parametrize("text, expected", [
    ("\n\n", "h.txt:2: empty file (expected the number of hint lines)"),
    ("x\n" + TILES, "h.txt:1: number of hints 'x' is not an integer"),
    ("1\n1 1 1 4\n" + TILES, "h.txt:2: hint rotation 4 is out of range (0..3)"),
    ("1\n1 y 1 0\n" + TILES, "h.txt:2: hint value 'y' is not an integer"),
    # two lines, two hints announced: one line after the count, so the file is too short
    ("2\n1 1 1 1\n", "h.txt:2: line 1 announces 2 hint lines but the file ends after 1 lines"),
    ("4\n1 1 1 1\n1 2 2 0\n", "h.txt:3: line 1 announces 4 hint lines but the file ends after 2 lines"),
    ("1\n1 1 1 1\n", "h.txt:2: no pieces after the hint lines"),
    ("1\n1 1 1 1\n\n", "h.txt:3: no pieces after the hint lines"),
])
def test_bad_files_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(text, "h.txt") == expected


def test_rotation_3_is_accepted():
    # A1 is the top-left corner: piece 1 (1 2 0 0) turned clockwise 1 shows 0 1 2 0 (grey N and W).
    p = read_puzzle("1\n1 1 1 1\n" + TILES, "h.txt")
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(0, 0, 1)]
    # piece 3 (2 0 0 1) turned 3 shows 0 0 1 2: grey N and E, the top-right corner A3.
    p = read_puzzle("1\n1 3 3 3\n" + TILES, "h.txt")
    assert [(h.square, h.tile, h.rotation) for h in p.hints] == [(2, 2, 3)]
