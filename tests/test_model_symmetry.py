"""The model's shared helpers for symmetric tiles and board symmetry (one copy for every engine)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import edgematch
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model.symmetry import divides_raw_count_by, symmetry_variants
from edgematch.model.tiles import canonical_rotation, canonical_rotation_table
from support.rotations import normalised_rotation

tiles_strategy = st.lists(st.integers(0, 3), min_size=4, max_size=4)


@settings(max_examples=300, deadline=None)
@given(tiles_strategy, st.integers(0, 3))
def test_canonical_rotation_is_the_smallest_look_alike(edges, rotation):
    """Against the rule re-derived in support.rotations (no shared code)."""
    assert canonical_rotation(np.array(edges), rotation) == normalised_rotation(edges, rotation)


def test_canonical_rotation_by_hand():
    assert [canonical_rotation(np.array([1, 1, 1, 1]), r) for r in range(4)] == [0, 0, 0, 0]
    assert [canonical_rotation(np.array([1, 2, 1, 2]), r) for r in range(4)] == [0, 1, 0, 1]
    assert [canonical_rotation(np.array([1, 2, 3, 4]), r) for r in range(4)] == [0, 1, 2, 3]


def test_the_table_holds_every_tile_and_rotation_of_the_official_set():
    tiles = edgematch.load("e2").tiles
    table = canonical_rotation_table(tiles)
    assert table.shape == (256, 4)
    assert all(table[t, r] == normalised_rotation(tiles[t], r) for t in range(256) for r in range(4))


@pytest.mark.parametrize("width,height,expected_squares", [(4, 4, [0]), (5, 3, [0, 4])])
def test_symmetry_variants_fix_the_first_corner_tile(width, height, expected_squares):
    puzzle = generate(width, height, 2, 3, seed=1).puzzle
    variants = symmetry_variants(puzzle)
    corner = min(t for t in range(puzzle.n_tiles) if puzzle.kinds[t] == 2)
    assert [v.hints[0].square for v in variants] == expected_squares
    assert all(len(v.hints) == 1 and v.hints[0].tile == corner for v in variants)
    for v in variants:  # the fixed corner shows grey outside
        board = edgematch.Board.from_hints(v)
        assert board.verify(require_complete=False).valid
    assert divides_raw_count_by(puzzle) == (4 if width == height else 2)
    with pytest.raises(InputError, match="without hints"):
        symmetry_variants(variants[0])
