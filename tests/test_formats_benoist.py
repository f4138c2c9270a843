"""Benoist's E2 Benchmark files: size, colours, hints (counter-clockwise rotation), tiles T R B L."""

import pytest
from hypothesis import given, settings

from edgematch import Board, InputError
from edgematch.formats import detect_puzzle_format, format_puzzle, parse_puzzle
from support.puzzles import planted, puzzles


def read(text):
    return parse_puzzle(text, "E_3_1.nohint", "benoist")


def small():
    """A 3x3 puzzle in Benoist's layout with one hint at the bottom-left corner, rotation 0."""
    p, solution = planted(3, 3, 4, seed=21)
    corner = next(t for t in range(9) if p.kinds[t] == 2 and p.tiles[t][2] == 0 and p.tiles[t][3] == 0)
    lines = ["3", str(int(p.tiles.max())), "1", f"3 1 {corner + 1} 0", *(" ".join(map(str, t)) for t in p.tiles)]
    return p, corner, "\n".join(lines) + "\n"


def test_reads_header_hint_and_tiles():
    p, corner, text = small()
    q = read(text)
    assert q.without_hints() == p
    assert [(h.square, h.tile, h.rotation) for h in q.hints] == [(6, corner, 0)]  # row 3 = bottom, col 1
    assert detect_puzzle_format(text, "x.txt").name == "benoist"


def test_file_rotation_names_the_side_facing_north():
    # Benoist & Bourreau: rotation p puts the tile's side p to the north (east shows side p + 1),
    # i.e. p counter-clockwise quarter turns; ours is (-p) mod 4.
    p, solution = planted(3, 3, 5, seed=4)
    tile = int(solution.tiles[4])  # the inner tile on the centre square
    for p_rot in range(4):
        lines = ["3", str(int(p.tiles.max())), "1", f"2 2 {tile + 1} {p_rot}", *(" ".join(map(str, t)) for t in p.tiles)]
        q = read("\n".join(lines) + "\n")
        shown = Board.from_hints(q).edges()[4].tolist()
        assert shown == [int(p.tiles[tile][(side + p_rot) % 4]) for side in range(4)]
        assert q.hints[0].rotation == (-p_rot) % 4
        assert format_puzzle(q, "benoist").splitlines()[3] == f"2 2 {tile + 1} {p_rot}"


@settings(max_examples=60, deadline=None)
@given(puzzles(square=True))
def test_round_trip(p):
    text = format_puzzle(p, "benoist")
    assert read(text) == p
    assert detect_puzzle_format(text, "x.txt").name == "benoist"


def test_refuses_rectangular_boards():
    p, _ = planted(4, 3, 3, seed=1)
    with pytest.raises(InputError, match="square boards only"):
        format_puzzle(p, "benoist")


def _replace_line(text, number, new):
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("edit, line, message", [
    (lambda t: "", 1, "before the board size"),
    (lambda t: "3\n4\n", 2, "before the number of hints"),
    (lambda t: _replace_line(t, 1, "3 3"), 1, "expected 1 numbers"),
    (lambda t: _replace_line(t, 1, "1"), 1, "too small"),
    (lambda t: _replace_line(t, 1, "100000"), 1, "too large"),
    (lambda t: _replace_line(t, 2, "-2"), 2, "negative"),
    (lambda t: _replace_line(t, 2, "1"), 5, "above the 1 colours declared on line 2"),
    (lambda t: _replace_line(t, 3, "-1"), 3, "negative"),
    (lambda t: _replace_line(t, 3, "99"), 13, "announces 99 hint lines"),
    (lambda t: _replace_line(t, 4, "3 1 1"), 4, "expected 4 numbers"),
    (lambda t: _replace_line(t, 4, "4 1 1 0"), 4, "row 4 is out of range"),
    (lambda t: _replace_line(t, 4, "3 4 1 0"), 4, "column 4 is out of range"),
    (lambda t: _replace_line(t, 4, "3 1 10 0"), 4, "tile 10 is out of range"),
    (lambda t: _replace_line(t, 4, "3 1 1 7"), 4, "rotation 7"),
    (lambda t: t.rsplit("\n", 2)[0] + "\n", 12, "needs 9 tiles but the file ends after 8"),
    (lambda t: t + "1 1 1 1\n", 14, "one too many"),
    (lambda t: _replace_line(t, 7, "1 2 x 4"), 7, "not an integer"),
    (lambda t: _replace_line(t, 7, "1 2 3"), 7, "expected 4 numbers"),
])
def test_errors_name_the_line(edit, line, message):
    _, _, text = small()
    with pytest.raises(InputError) as info:
        read(edit(text))
    assert (info.value.source, info.value.line) == ("E_3_1.nohint", line)
    assert message in info.value.message


def test_hint_that_does_not_fit_its_corner():
    p, corner, text = small()
    with pytest.raises(InputError) as info:
        read(_replace_line(text, 4, f"1 1 {corner + 1} 0"))  # top-left needs another rotation
    assert info.value.line == 4 and "does not fit the border at A1" in info.value.message
