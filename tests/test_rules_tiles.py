"""Rotations and border geometry (edgematch.model.tiles) pinned against the rules.

Every expectation is either worked by hand in the test or brute-forced with
``support.rotations`` (which re-derives rotations from the rules and shares no code with
``edgematch.model.tiles``).  Written to kill the mutants mutation testing found alive
(docs/testing.md).
"""

import itertools

import numpy as np
import pytest

from edgematch.model import tiles as T
from support.rotations import different_rotations, turned

# Tiles with every symmetry: none, half turn, quarter turn; plus border tiles.
SAMPLES = [(1, 2, 3, 4), (1, 2, 1, 2), (5, 5, 5, 5), (0, 0, 5, 6), (0, 7, 8, 9), (3, 1, 2, 0), (2, 2, 1, 1)]


def test_side_and_kind_constants_follow_the_conventions():
    # N, E, S, W clockwise from north are sides 0..3; colour 0 is grey; kinds count grey sides.
    assert (T.N, T.E, T.S, T.W) == (0, 1, 2, 3)
    assert T.SIDE_NAMES == "NESW" and T.GREY == 0
    assert (T.INNER, T.EDGE, T.CORNER) == (0, 1, 2)
    assert T.KIND_NAMES == {0: "inner", 1: "edge", 2: "corner"}


def test_rotate_by_hand():
    # One clockwise quarter turn: the old west side (4) comes to the north.
    assert T.rotate([1, 2, 3, 4], 1).tolist() == [4, 1, 2, 3]
    assert T.rotate([1, 2, 3, 4], 2).tolist() == [3, 4, 1, 2]
    assert T.rotate([1, 2, 3, 4], 3).tolist() == [2, 3, 4, 1]
    assert T.rotate([1, 2, 3, 4], 0).tolist() == [1, 2, 3, 4]


@pytest.mark.parametrize("r", range(-5, 9))
def test_rotate_any_count_is_taken_mod_4(r):
    for tile in SAMPLES:
        assert tuple(T.rotate(tile, r).tolist()) == turned(tile, r % 4)


def test_rotate_turns_each_row_of_a_table():
    table = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    assert T.rotate(table, 1).tolist() == [[4, 1, 2, 3], [8, 5, 6, 7]]


def test_rotated_table_holds_every_rotation_of_every_tile():
    tiles = np.array(SAMPLES)
    table = T.rotated_table(tiles)
    assert table.shape == (len(SAMPLES), 4, 4)
    for i, tile in enumerate(SAMPLES):
        for r in range(4):
            assert tuple(table[i, r].tolist()) == turned(tile, r)


@pytest.mark.parametrize("tile", SAMPLES)
def test_distinct_rotations_brute_force(tile):
    assert T.distinct_rotations(tile) == different_rotations(tile)


def test_distinct_rotations_by_hand():
    assert T.distinct_rotations([1, 2, 3, 4]) == [0, 1, 2, 3]
    assert T.distinct_rotations([1, 2, 1, 2]) == [0, 1]  # a half turn shows the same
    assert T.distinct_rotations([5, 5, 5, 5]) == [0]


@pytest.mark.parametrize("tile", SAMPLES)
def test_canonical_form_is_the_smallest_rotation(tile):
    assert T.canonical_form(tile) == min(turned(tile, r) for r in range(4))
    for r in range(4):
        assert T.canonical_form(turned(tile, r)) == T.canonical_form(tile)


def test_canonical_form_by_hand():
    # rotations of 3 1 2 0: 3120, 0312, 2031, 1203 -> smallest 0312
    assert T.canonical_form([3, 1, 2, 0]) == (0, 3, 1, 2)
    assert all(type(c) is int for c in T.canonical_form(np.array([3, 1, 2, 0])))


def test_outer_sides_on_a_3x2_board_by_hand():
    # squares 0 1 2 / 3 4 5; N is outside on row 0, S on row 1, W on column 0, E on column 2
    expected = {
        0: (True, False, False, True), 1: (True, False, False, False), 2: (True, True, False, False),
        3: (False, False, True, True), 4: (False, False, True, False), 5: (False, True, True, False),
    }
    for sq, sides in expected.items():
        assert T.outer_sides(sq, 3, 2) == sides


def test_square_kind_on_a_4x3_board_by_hand():
    # corners 0, 3, 8, 11; the two inner squares 5, 6; the rest edges
    kinds = [T.square_kind(sq, 4, 3) for sq in range(12)]
    assert kinds == [2, 1, 1, 2,
                     1, 0, 0, 1,
                     2, 1, 1, 2]
    assert [T.square_kind(sq, 2, 2) for sq in range(4)] == [2, 2, 2, 2]


def _fits(tile, r, sq, w, h):
    """Brute force from the rules: grey exactly where the square faces the outside."""
    row, col = divmod(sq, w)
    outside = (row == 0, col == w - 1, row == h - 1, col == 0)
    return all((c == 0) == o for c, o in zip(turned(tile, r), outside))


def test_fits_border_and_border_rotations_brute_force():
    for w, h in [(3, 3), (4, 2), (2, 2)]:
        for tile, sq in itertools.product(SAMPLES, range(w * h)):
            for r in range(4):
                assert T.fits_border(tile, r, sq, w, h) == _fits(tile, r, sq, w, h), (tile, r, sq, w, h)
            assert T.border_rotations(tile, sq, w, h) == [
                r for r in different_rotations(tile) if _fits(tile, r, sq, w, h)
            ]


def test_border_rotations_by_hand():
    # corner 0 0 5 6 fits the top-left corner turned 3 times: shows 0 5 6 0 (N and W grey)
    assert T.border_rotations([0, 0, 5, 6], 0, 3, 3) == [3]
    assert T.border_rotations([0, 0, 5, 6], 2, 3, 3) == [0]  # top-right: N and E grey
    assert T.border_rotations([0, 0, 5, 6], 4, 3, 3) == []  # the centre
    assert T.border_rotations([1, 2, 1, 2], 4, 3, 3) == [0, 1]  # inner, both distinct rotations
