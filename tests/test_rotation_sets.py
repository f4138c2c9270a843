"""Rotation sets (the balanced-rotations model) and their file format."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import edgematch
from edgematch.errors import InputError
from edgematch.formats.rotation_file import format_rotation_set, parse_rotation_set
from edgematch.model import tiles as T
from edgematch.model.rotation_sets import BLACK, WHITE, RotationSet, square_classes, square_parity, tile_options


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10_000), st.booleans())
def test_every_solution_has_a_balanced_rotation_set(width, height, seed, parity):
    planted = edgematch.generate(width, height, seed=seed)
    rotation_set = RotationSet.of_board(planted.solution, parity=parity)
    assert rotation_set.misfits() == []
    assert rotation_set.imbalance() == {}
    assert rotation_set.is_balanced()


def test_a_turned_frame_does_not_fit_and_a_swapped_colour_does_not_balance():
    planted = edgematch.generate(5, 4, seed=1)
    good = RotationSet.of_board(planted.solution, parity=True)
    turned = RotationSet(planted.puzzle, (good.rotations + 1) % 4)
    assert any("edge squares on side N" in r for r in turned.misfits())
    inner = next(t for t in range(planted.puzzle.n_tiles) if not (planted.puzzle.tiles[t] == T.GREY).any())
    colours = good.colours.copy()
    colours[inner] = 1 - colours[inner]
    flipped = RotationSet(planted.puzzle, good.rotations, colours)
    assert flipped.misfits() and not flipped.is_balanced()


def test_symmetric_tiles_keep_their_smallest_rotation():
    corners = [[0, 1, 1, 0], [0, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 0]]
    edges = [[0, 1, 1, 1]] * 4
    puzzle = edgematch.Puzzle([*corners, *edges, [1, 2, 1, 2]], 3, 3)
    rotation_set = RotationSet(puzzle, [0, 0, 0, 0, 0, 1, 2, 3, 3])
    assert rotation_set.rotations.tolist()[-1] == 1  # a half turn shows the same edges
    assert rotation_set == RotationSet(puzzle, [0, 0, 0, 0, 0, 1, 2, 3, 1])


def test_square_classes_and_options_follow_the_board():
    puzzle = edgematch.load("owen1-4x4")
    classes = square_classes(puzzle, parity=True)
    assert sum(classes.values()) == 16
    assert classes[(0, BLACK)] == 2 and classes[(0, WHITE)] == 2  # the 2x2 inner squares
    assert square_parity(0, 4) == BLACK and square_parity(1, 4) == WHITE
    options = tile_options(puzzle, parity=False)
    for edges, choices in zip(puzzle.tiles, options):
        greys = int((edges == T.GREY).sum())
        assert len(choices) == {0: len(T.distinct_rotations(edges)), 1: 4, 2: 4}[greys]


def test_hints_keep_their_rotation_and_colour():
    puzzle = edgematch.load("e2")
    hint = puzzle.hints[0]
    options = tile_options(puzzle, parity=True)
    assert options[hint.tile] == [(hint.rotation, square_parity(hint.square, 16))]


def test_file_round_trip_and_errors_name_the_line():
    planted = edgematch.generate(4, 3, seed=3)
    for parity in (False, True):
        rotation_set = RotationSet.of_board(planted.solution, parity=parity)
        text = format_rotation_set(rotation_set)
        assert parse_rotation_set(text, planted.puzzle) == rotation_set
    text = format_rotation_set(RotationSet.of_board(planted.solution, parity=True))
    bad = {
        text.replace("\n2 ", "\n1 ", 1): "listed twice",
        text.replace("size 4x3", "size 5x3"): "5x3",
        text.replace(" W\n", " X\n", 1): "must be B or W",
        "\n".join(text.splitlines()[:-1]): "tile 12 is missing",
        text.replace("parity yes", "parity maybe"): "parity yes",
    }
    for broken, words in bad.items():
        with pytest.raises(InputError, match=words) as caught:
            parse_rotation_set(broken, planted.puzzle, "set.rot")
        assert caught.value.source == "set.rot" and caught.value.line is not None


def test_of_board_needs_a_complete_board():
    planted = edgematch.generate(3, 3, seed=0)
    board = planted.solution.copy() if hasattr(planted.solution, "copy") else planted.solution
    tiles = np.array(board.tiles)
    tiles[0] = -1
    partial = edgematch.Board(planted.puzzle, tiles, np.array(board.rotations))
    with pytest.raises(InputError):
        RotationSet.of_board(partial)
    assert WHITE == 1
