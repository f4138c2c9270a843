"""Puzzle validation and derived facts (edgematch.model.puzzle) pinned against the rules.

Every expected message and figure is worked by hand from the small puzzles spelled out here.
Written to kill the mutants mutation testing found alive (docs/testing.md).
"""

import numpy as np
import pytest

from edgematch import InputError, Puzzle
from edgematch.model.puzzle import Hint, expected_kind_counts, infer_size
from support.puzzles import planted

# 3x2 by hand (see test_rules_board.py): A1|A2 1, A2|A3 2, B1|B2 3, B2|B3 1, A1/B1 2, A2/B2 3, A3/B3 1.
TILES_3x2 = [(0, 1, 2, 0), (0, 2, 3, 1), (0, 0, 1, 2), (2, 3, 0, 0), (3, 1, 0, 3), (1, 0, 0, 1)]
TILES_3x3 = [(0, 3, 7, 0), (0, 4, 1, 3), (0, 0, 9, 4), (7, 2, 8, 0), (1, 2, 1, 2), (9, 0, 10, 2),
             (8, 5, 0, 0), (1, 6, 0, 5), (10, 0, 0, 6)]


def error(*args, **kwargs):
    with pytest.raises(InputError) as info:
        Puzzle(*args, **kwargs)
    return info.value


def replaced(tiles, index, tile):
    out = list(tiles)
    out[index] = tile
    return out


# ---------------------------------------------------------------------------- sizes
def test_expected_kind_counts_by_hand():
    assert expected_kind_counts(16, 16) == {2: 4, 1: 56, 0: 196}
    assert expected_kind_counts(3, 2) == {2: 4, 1: 2, 0: 0}


@pytest.mark.parametrize("w, h", [(2, 2), (3, 2), (3, 3), (5, 3), (7, 4)])
def test_infer_size_finds_the_planted_size_wider_than_tall(w, h):
    puzzle, _ = planted(w, h, 3, seed=w * h)
    assert infer_size(puzzle.tiles) == (w, h)
    assert (Puzzle(puzzle.tiles).width, Puzzle(puzzle.tiles).height) == (w, h)


def test_infer_size_errors():
    three_corners = replaced(TILES_3x2, 0, (5, 1, 2, 0))  # 3 corners, 3 edges
    with pytest.raises(InputError) as info:
        infer_size(np.array(three_corners))
    assert str(info.value) == ("cannot infer the board size: 6 tiles with 3 corner and 3 edge tiles fit no "
                               "rectangular board (give the size explicitly)")
    odd_edges = replaced(TILES_3x2, 1, (4, 2, 3, 1))  # 4 corners, 1 edge
    with pytest.raises(InputError) as info:
        infer_size(np.array(odd_edges))
    assert "6 tiles with 4 corner and 1 edge tiles fit no rectangular board" in str(info.value)
    seven = TILES_3x2 + [(1, 2, 3, 4)]  # 4 corners, 2 edges (a 3x2 frame) but 7 tiles
    with pytest.raises(InputError) as info:
        infer_size(np.array(seven))
    assert str(info.value) == ("cannot infer the board size: 7 tiles with 4 corner and 2 edge tiles fit no "
                               "rectangular board (give the size explicitly)")


def test_one_side_given_means_a_square_board():
    assert (Puzzle(TILES_3x3, 3).width, Puzzle(TILES_3x3, 3).height) == (3, 3)
    assert (Puzzle(TILES_3x3, None, 3).width, Puzzle(TILES_3x3, None, 3).height) == (3, 3)


@pytest.mark.parametrize("w, h, message", [
    (1, 6, "board size 1x6 is too small (at least 2x2)"),
    (6, 1, "board size 6x1 is too small (at least 2x2)"),
    (1025, 2, "board size 1025x2 is too large (at most 1024 per side)"),
    (2, 1025, "board size 2x1025 is too large (at most 1024 per side)"),
    (3, 3, "6 tiles given but a 3x3 board needs 9"),
])
def test_size_errors(w, h, message):
    assert str(error(TILES_3x2, w, h)) == message


def test_largest_side_is_accepted():
    puzzle, _ = planted(1024, 2, 2, seed=0)
    assert (puzzle.width, puzzle.height) == (1024, 2)


# ---------------------------------------------------------------------------- tiles
@pytest.mark.parametrize("tiles, message, index", [
    (replaced(TILES_3x2, 0, (0, 0, 0, 5)), "tile 1 (0 0 0 5) has 3 grey sides; at most 2 can face the outside", 0),
    (replaced(TILES_3x2, 1, (0, 5, 0, 6)), "tile 2 (0 5 0 6) has grey on opposite sides, which can never both face the outside", 1),
    (replaced(TILES_3x2, 1, (5, 0, 6, 0)), "tile 2 (5 0 6 0) has grey on opposite sides, which can never both face the outside", 1),
    (replaced(TILES_3x2, 0, (0, 1, 2, 3)), "a 3x2 board needs 4 corner tiles (grey on 2 sides) but 3 are given", None),
    (replaced(TILES_3x2, 1, (5, 2, 3, 1)), "a 3x2 board needs 2 edge tiles (grey on 1 side) but 1 are given", None),
])
def test_tile_errors_name_the_tile(tiles, message, index):
    err = error(tiles, 3, 2)
    assert str(err) == message and err.tile == index


@pytest.mark.parametrize("tiles, message, index", [
    ([[1, 2, 3]] * 2, "tiles must be rows of 4 colours, got shape (2, 3)", None),
    ([1, 2, 3, 4], "tiles must be rows of 4 colours, got shape (4,)", None),
    ([[0, 1, 2, 0], [0, 1.5, 2, 0]], "tile 2: colour 1.5 is not an integer", 1),
    ([[True, 1, 2, 0]], "tile 1: colour True is not an integer", 0),
    ([[0, 1, 2, 0], [0, -1, 2, 0]], "tile 2: colour -1 is negative", 1),
    (np.array([[0, 1, 2, 0], [0, 65536, 2, 0]]), "tile 2: colour 65536 is too large (at most 65535)", 1),
    ([[0, 1, 2, 0], [0, 7, 70000, -3]], "tile 2: colour 70000 is too large (at most 65535)", 1),
])
def test_colour_errors_name_the_tile(tiles, message, index):
    err = error(tiles, 2, 2)
    assert str(err) == message and err.tile == index


def test_ragged_tiles_are_refused():
    assert str(error([[0, 1, 2, 0], [0, 1]], 2, 2)) == "tiles must be rows of 4 colours, got shape (2,)"


def test_largest_colour_is_accepted():
    big = [tuple(65535 if c == 1 else c for c in t) for t in TILES_3x2]
    assert Puzzle(big, 3, 2).colours == [2, 3, 65535]


# ---------------------------------------------------------------------------- hints
@pytest.mark.parametrize("hints, message, index", [
    ({6: (0, 0)}, "hint square 6 is off the 3x2 board", 0),
    ([Hint(0, 0, 0), Hint(-1, 1, 0)], "hint square -1 is off the 3x2 board", 1),
    ({0: (6, 0)}, "hint on A1 names tile 7, but there are 6 tiles", 0),
    ({0: (-1, 0)}, "hint on A1 names tile 0, but there are 6 tiles", 0),
    ({0: (0, 4)}, "hint on A1 has rotation 4 (must be 0..3)", 0),
    ({0: (0, -1)}, "hint on A1 has rotation -1 (must be 0..3)", 0),
    ([(0, 0, 0), (0, 1, 0)], "two hints on square A1", 1),
    ([(0, 0, 0), (2, 0, 0)], "tile 1 is hinted twice (A1 and A3)", 1),
    ({0: (0, 1)}, "hint tile 1 in rotation 1 shows 0 0 1 2 (N E S W), which does not fit the border at A1", 0),
])
def test_hint_errors_name_the_hint(hints, message, index):
    err = error(TILES_3x2, 3, 2, hints)
    assert str(err) == message and err.hint == index


def test_hints_at_the_boundaries_are_accepted():
    # B3 = square 5 (the last) holds tile 6 (1 0 0 1: E and S grey); B1 holds tile 1 (0 1 2 0)
    # turned 3 times, showing 1 2 0 0 (S and W grey).
    p = Puzzle(TILES_3x2, 3, 2, [(5, 5, 0), (3, 0, 3)])
    assert p.hints == (Hint(5, 5, 0), Hint(3, 0, 3))


# ---------------------------------------------------------------------------- derived facts
def test_facts_of_the_3x2_puzzle_by_hand():
    p = Puzzle(TILES_3x2, 3, 2, {0: (0, 0)}, name="small")
    assert (p.n_tiles, p.n_squares, p.max_score, p.is_square) == (6, 6, 7, False)
    assert Puzzle(TILES_3x3, 3, 3).is_square
    assert not p.tiles.flags.writeable
    assert p.kinds.tolist() == [2, 1, 2, 2, 1, 2]
    assert p.tiles_of_kind(2).tolist() == [0, 2, 3, 5] and p.tiles_of_kind(1).tolist() == [1, 4]
    assert p.hint_map == {0: (0, 0)}
    assert p.colours == [1, 2, 3]
    # sides: colour 1 on tiles 1, 2, 3, 5 and twice on 6; colour 2 on 1, 2, 3, 4; colour 3 on 2, 4 and twice 5
    assert p.colour_histogram == {1: 6, 2: 4, 3: 4}
    # only 3 on tile 2's S and tile 5's N face inward; every other side runs along the frame
    assert p.frame_colours == [1, 2, 3] and p.inner_colours == [3]
    assert p.symmetric_tiles == [] and p.duplicate_groups == [[0, 2]]  # 0 1 2 0 is 0 0 1 2 turned
    assert p.warnings() == []
    assert p.summary() == {
        "name": "small", "width": 3, "height": 2, "tiles": 6, "corner_tiles": 4, "edge_tiles": 2,
        "inner_tiles": 0, "colours": 3, "frame_colours": [1, 2, 3], "inner_colours": [3],
        "colour_histogram": {"1": 6, "2": 4, "3": 4},
        "hints": [{"square": "A1", "index": 0, "tile": 1, "rotation": 0}],
        "symmetric_tiles": [], "duplicate_tiles": [[1, 3]], "max_score": 7, "warnings": [],
    }
    assert repr(p) == "<Puzzle 'small' 3x2, 3 colours, 1 hints>"
    assert repr(p.without_hints(name="")) == "<Puzzle 3x2, 3 colours, 0 hints>"


def test_symmetric_tiles_and_inner_counts_3x3():
    p = Puzzle(TILES_3x3, 3, 3)
    assert p.symmetric_tiles == [4] and p.duplicate_groups == []
    assert p.summary()["inner_tiles"] == 1 and p.summary()["symmetric_tiles"] == [5]
    assert p.inner_colours == [1, 2]  # the centre's sides and the sides facing it
    assert p.frame_colours == [3, 4, 5, 6, 7, 8, 9, 10]


def test_odd_colour_counts_are_warned():
    frame_odd = Puzzle(replaced(TILES_3x2, 4, (3, 1, 0, 4)), 3, 2)  # frame 3 once (tile 4), frame 4 once
    assert frame_odd.warnings() == ["frame colour 3 appears on 1 frame sides (odd: no solution)",
                                    "frame colour 4 appears on 1 frame sides (odd: no solution)"]
    inner_odd = Puzzle(replaced(TILES_3x2, 4, (5, 1, 0, 3)), 3, 2)  # inner 3 once (tile 2's S), inner 5 once
    assert inner_odd.warnings() == ["inner colour 3 appears on 1 inner sides (odd: no solution)",
                                    "inner colour 5 appears on 1 inner sides (odd: no solution)"]


def test_derived_puzzles_equality_and_hash():
    p = Puzzle(TILES_3x2, 3, 2, {0: (0, 0)}, name="small")
    assert p.with_hints(None).name == "small" and p.with_hints(None, name="other").name == "other"
    bare = p.without_hints()
    assert bare.hints == () and bare.name == "small" and bare != p
    assert bare == Puzzle(TILES_3x2, 3, 2) and hash(bare) == hash(Puzzle(TILES_3x2, 3, 2))
    assert p.__eq__("puzzle") is NotImplemented
    assert Puzzle(TILES_3x2, 3, 2) != Puzzle(replaced(TILES_3x2, 5, (2, 0, 0, 1)), 3, 2)
    assert Puzzle(TILES_3x3, 3, 3) != Puzzle([TILES_3x3[i] for i in (0, 1, 2, 3, 4, 5, 6, 7, 8)][::-1], 3, 3)


# ---------------------------------------------------------------------------- found by mutation testing
def test_float_arrays_are_refused_like_float_lists():
    tiles = np.array([[0, 1, 2, 0], [0, 1.5, 2, 0], [0, 1, 2, 0], [0, 1, 2, 0]])
    err = error(tiles, 2, 2)
    assert str(err) == "tile 1: colour 0.0 is not an integer" and err.tile == 0  # a float array: all floats


def test_the_first_out_of_range_colour_is_named_not_the_largest_allowed_one():
    err = error([[0, 1, 2, 0], [0, 65535, 70000, 0]], 2, 2)
    assert str(err) == "tile 2: colour 70000 is too large (at most 65535)"


def test_tiles_given_as_lists_are_stored_as_integers():
    # the engines index arrays with tile colours: the model must not keep Python objects
    assert Puzzle(TILES_3x2, 3, 2).tiles.dtype.kind == "i"


def test_infer_size_refuses_three_corners_even_when_a_size_would_fit():
    # 3 corners, 2 edges, 1 inner = 6 tiles: 3x2 by the counts alone, but it has no 4 corners
    tiles = [TILES_3x2[0], (5, 1, 2, 0), TILES_3x2[2], TILES_3x2[3], TILES_3x2[1], (3, 1, 4, 3)]
    with pytest.raises(InputError) as info:
        infer_size(np.array(tiles))
    assert "6 tiles with 3 corner and 2 edge tiles fit no rectangular board" in str(info.value)


def test_the_default_name_is_empty():
    assert Puzzle(TILES_3x2, 3, 2).name == ""


def test_one_side_given_is_not_inferred():
    # width 3 alone means 3x3, which 6 tiles cannot fill, although inference would find 3x2
    assert str(error(TILES_3x2, 3)) == "6 tiles given but a 3x3 board needs 9"
    assert str(error(TILES_3x2, None, 3)) == "6 tiles given but a 3x3 board needs 9"


def test_largest_height_is_accepted():
    puzzle, _ = planted(2, 1024, 2, seed=0)
    assert (puzzle.width, puzzle.height) == (2, 1024)
