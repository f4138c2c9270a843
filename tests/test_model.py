"""The puzzle model: rotations, square names, puzzle validation, derived facts, score, verify."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import edgematch
from edgematch import Board, InputError, Puzzle
from edgematch.generator import generate
from edgematch.model import infer_size, parse_square, rotate, square_name
from edgematch.model.tiles import distinct_rotations


# ---------------------------------------------------------------------------- rotations
def test_rotation_convention():
    tile = np.array([1, 2, 3, 4])  # N E S W
    # one clockwise quarter turn: the old west side now faces north
    assert list(rotate(tile, 1)) == [4, 1, 2, 3]
    assert list(rotate(tile, 2)) == [3, 4, 1, 2]
    for r in range(4):
        shown = rotate(tile, r)
        assert all(shown[s] == tile[(s - r) % 4] for s in range(4))


def test_symmetric_tiles_have_fewer_distinct_rotations():
    assert distinct_rotations([5, 5, 5, 5]) == [0]
    assert distinct_rotations([5, 6, 5, 6]) == [0, 1]
    assert distinct_rotations([5, 6, 7, 8]) == [0, 1, 2, 3]


# ---------------------------------------------------------------------------- squares
def test_community_square_names():
    assert square_name(135, 16) == "I8"
    assert parse_square("I8", 16, 16) == 135
    assert parse_square("a1", 16, 16) == 0
    assert square_name(255, 16) == "P16"
    assert square_name(11, 12) == "A12"  # rectangular 12 wide
    assert square_name(26 * 3, 3) == "AA1"


@given(st.integers(2, 40), st.integers(2, 40), st.data())
def test_square_names_round_trip(width, height, data):
    square = data.draw(st.integers(0, width * height - 1))
    assert parse_square(square_name(square, width), width, height) == square


@pytest.mark.parametrize("name", ["Q1", "A17", "A0", "1A", "", "I8x"])
def test_bad_square_names(name):
    with pytest.raises(InputError):
        parse_square(name, 16, 16)


# ---------------------------------------------------------------------------- puzzle
def test_official_puzzle_facts():
    e2 = edgematch.load("e2")
    assert (e2.width, e2.height, e2.n_tiles, e2.max_score) == (16, 16, 256, 480)
    assert [int((e2.kinds == k).sum()) for k in (2, 1, 0)] == [4, 56, 196]
    assert e2.frame_colours == [1, 2, 3, 4, 5] and e2.inner_colours == list(range(6, 23))
    assert e2.hints[0].square == 135 and e2.hints[0].tile == 138 and e2.hints[0].rotation == 2
    assert sum(e2.colour_histogram.values()) == 4 * 256 - 4 * 16  # every side but the 64 outer ones
    assert [e2.colour_histogram[c] for c in e2.frame_colours] == [24] * 5
    assert e2.symmetric_tiles == [] and e2.duplicate_groups == []
    assert e2.warnings() == []


def test_duplicate_and_symmetric_tiles_are_found():
    clue1 = edgematch.load("clue1")
    assert clue1.duplicate_groups  # the clue puzzles are full of duplicates
    assert all(len(group) >= 2 for group in clue1.duplicate_groups)


def test_size_inference_for_rectangles():
    made = generate(12, 6, seed=3)
    assert infer_size(made.puzzle.tiles) == (12, 6)
    assert Puzzle(made.puzzle.tiles).width == 12


def _tiles_2x2():
    return [[0, 1, 2, 0], [0, 0, 1, 2], [1, 0, 0, 2], [2, 2, 0, 0]]


@pytest.mark.parametrize("tiles, hints, message", [
    (_tiles_2x2()[:3], None, "3 tiles"),
    ([[0, 1, 2, 0], [0, 0, 1, 2], [1, 0, 0, 2], [0, 2, 0, 2]], None, "opposite"),
    ([[0, 1, 2, 0], [0, 0, 1, 2], [1, 0, 0, 2], [0, 0, 0, 2]], None, "3 grey"),
    ([[0, 1, 2, 0], [0, 0, 1, 2], [1, 0, 0, 2], [2, -1, 0, 0]], None, "negative"),
    (_tiles_2x2(), {4: (0, 0)}, "off the"),
    (_tiles_2x2(), {0: (9, 0)}, "tile 10"),
    (_tiles_2x2(), {0: (0, 1)}, "does not fit"),
    (_tiles_2x2(), [(0, 0, 0), (1, 0, 3)], "hinted twice"),
    (_tiles_2x2(), [(0, 0, 0), (0, 1, 1)], "two hints"),
])
def test_puzzle_validation(tiles, hints, message):
    with pytest.raises(InputError, match=message):
        Puzzle(tiles, 2, 2, hints)


def test_kind_counts_are_checked():
    tiles = [[0, 1, 2, 0]] * 4 + [[1, 2, 3, 4]] * 5
    with pytest.raises(InputError, match="edge tiles"):
        Puzzle(tiles, 3, 3)


def test_odd_colour_count_is_a_warning_not_an_error():
    p = Puzzle([[0, 1, 2, 0], [0, 0, 1, 2], [1, 0, 0, 2], [2, 3, 0, 0]], 2, 2)
    assert any("odd" in w for w in p.warnings())


# ---------------------------------------------------------------------------- board
@settings(max_examples=30, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(0, 10_000))
def test_planted_solution_scores_max_and_verifies(width, height, seed):
    made = generate(width, height, seed=seed)
    assert made.solution.score() == made.puzzle.max_score
    assert made.solution.verify().valid
    assert made.solution.mismatches() == []


def test_score_counts_only_matching_inner_joins():
    made = generate(5, seed=1)
    board = made.solution.copy()
    before = board.score()
    inner = [sq for sq in range(25) if 0 < sq // 5 < 4 and 0 < sq % 5 < 4][0]
    board.place(inner, int(board.tiles[inner]), (int(board.rotations[inner]) + 1) % 4)
    turned = board.score()
    assert turned <= before - 1 or np.array_equal(board.edges()[inner], made.solution.edges()[inner])
    board.remove(inner)
    assert board.score() == before - 4
    assert not board.is_complete


def test_verify_lists_every_reason_not_just_the_first():
    made = generate(4, seed=2, hints=1)
    board = made.solution.copy()
    hint = made.puzzle.hints[0]
    others = [sq for sq in range(16) if sq != hint.square]
    board.place(others[0], int(board.tiles[others[1]]), int(board.rotations[others[1]]))  # duplicate
    board.remove(others[2])  # empty
    board.place(hint.square, int(board.tiles[hint.square]), (hint.rotation + 1) % 4)  # hint turned
    reasons = " | ".join(board.verify().reasons)
    assert "empty square" in reasons
    assert "placed 2 times" in reasons
    assert "hint broken" in reasons or "faces the outside" in reasons
    assert "colours differ" in reasons or "grey" in reasons


def test_board_rejects_unknown_tiles():
    p = generate(3, seed=0).puzzle
    with pytest.raises(InputError):
        Board(p, [99] * 9, [0] * 9)


def test_rotations_showing_same_edges_are_one_placement():
    made = generate(3, seed=4)
    tiles = made.puzzle.tiles.copy()
    centre = 4
    tile = int(made.solution.tiles[centre])
    shown = rotate(tiles[tile], int(made.solution.rotations[centre]))
    tiles[tile] = [shown[0], shown[1], shown[0], shown[1]]  # make the centre tile half-turn symmetric
    p = Puzzle(tiles, 3, 3)
    a = Board(p, made.solution.tiles, made.solution.rotations)
    b = a.copy()
    b.place(centre, tile, (int(a.rotations[centre]) + 2) % 4)
    assert a == b and a.same_placement(b)
    b.place(centre, tile, (int(a.rotations[centre]) + 1) % 4)
    assert not a.same_placement(b)
