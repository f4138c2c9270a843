"""Counting, listing and finding balanced rotation sets: three implementations (the dynamic
programme, the compiled enumeration, CP-SAT) agree with each other and with brute force."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import edgematch
from edgematch.balanced import (
    BalancedBatches,
    count_balanced,
    count_enumerated,
    count_rotation_sets,
    cpsat_count_balanced,
    find_balanced,
    iter_balanced,
    log10_random_walk_estimate,
    page_rotation_sets,
    random_walk_fraction,
)
from edgematch.engines import make_solver
from edgematch.errors import InputError
from edgematch.model import Puzzle
from edgematch.model.rotation_sets import RotationSet, tile_options


def brute_force(puzzle: Puzzle, parity: bool) -> set[RotationSet]:
    """Every choice of the tiles' options, kept when the set fits and balances."""
    options = tile_options(puzzle, parity)
    found = set()
    for pick in itertools.product(*options):
        rotations = [r for r, _ in pick]
        colours = [c for _, c in pick] if parity else None
        candidate = RotationSet(puzzle, rotations, colours)
        if candidate.is_balanced():
            found.add(candidate)
    return found


def small(width, height, seed, hints="none", frame=2, inner=2) -> Puzzle:
    return edgematch.generate(width, height, seed=seed, hints=hints, frame_colours=frame, inner_colours=inner).puzzle


@pytest.mark.parametrize("shape", [(2, 2), (3, 2), (2, 3)])
@pytest.mark.parametrize("parity", [False, True])
def test_every_count_equals_brute_force_on_tiny_boards(shape, parity):
    for seed in range(4):
        puzzle = small(*shape, seed, hints="corner" if seed % 2 else "none")
        expected = brute_force(puzzle, parity)
        listed = list(iter_balanced(puzzle, parity))
        assert len(listed) == len(set(listed)), "a set listed twice"
        assert set(listed) == expected
        assert count_balanced(puzzle, parity) == len(expected) == count_enumerated(puzzle, parity)
        assert cpsat_count_balanced(puzzle, parity) == len(expected)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    width=st.integers(2, 4),
    height=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    hints=st.sampled_from(["none", "corner", "1", "2"]),
    parity=st.booleans(),
)
def test_the_counter_the_enumeration_and_cpsat_agree(width, height, seed, hints, parity):
    puzzle = small(width, height, seed, hints=hints)
    note(f"tiles {puzzle.tiles.tolist()} hints {puzzle.hints}")
    exact = count_balanced(puzzle, parity)
    assert count_enumerated(puzzle, parity) == exact
    if exact <= 1_000:  # CP-SAT lists each set through a callback: keep that short
        assert cpsat_count_balanced(puzzle, parity) == exact
    assert exact <= count_rotation_sets(puzzle, parity)
    # every solution's set is balanced, so there are at least as many sets as distinct ones
    sets = {RotationSet.of_board(b, parity) for b in make_solver("backtrack").solve(puzzle, k=None).boards}
    assert all(s.is_balanced() for s in sets)
    assert len(sets) <= exact


def listed_keys(puzzle: Puzzle, parity: bool) -> list[tuple]:
    """The listed sets as plain keys (the batches' arrays, without building objects)."""
    batches = BalancedBatches(puzzle, parity, 4096)
    keys = []
    while not batches.finished:
        rotations, colours = batches.next_batch()
        keys += [(r.tobytes(), c.tobytes() if parity else b"") for r, c in zip(rotations, colours)]
    return keys


def key_of(rotation_set: RotationSet) -> tuple:
    colours = rotation_set.colours.tobytes() if rotation_set.parity else b""
    return rotation_set.rotations.astype(np.int64).tobytes(), colours


def test_listed_sets_hold_every_solution_set_and_drop_parity_onto_plain_sets():
    """On owen1-4x4: each set listed once, as many as counted, every solution's set among
    them; and a balanced set with parity, its colours dropped, is a balanced plain set."""
    puzzle = edgematch.load("owen1-4x4")
    solutions = make_solver("backtrack").solve(puzzle, k=None).boards
    listed = {}
    for parity in (False, True):
        keys = listed_keys(puzzle, parity)
        listed[parity] = set(keys)
        assert len(keys) == len(listed[parity]) == count_balanced(puzzle, parity)
        assert {key_of(RotationSet.of_board(b, parity)) for b in solutions} <= listed[parity]
    assert {(rotations, b"") for rotations, _ in listed[True]} <= listed[False]


def test_e2_rotation_sets_and_the_pages_estimate():
    e2 = edgematch.load("e2")
    page = math.factorial(4) * math.comb(56, 14) * math.comb(42, 14) * math.comb(28, 14) * 4**195
    assert count_rotation_sets(e2) == page == page_rotation_sets(e2)
    assert f"{float(page):.3e}" == "7.450e+149"
    assert f"{10 ** (log10_random_walk_estimate(e2) % 1):.3f}" == "5.529"
    assert int(log10_random_walk_estimate(e2)) == 109
    # parity: more rotation sets (each tile also a colour), a smaller balanced share of them
    assert count_rotation_sets(e2, parity=True) > count_rotation_sets(e2)
    share = {p: random_walk_fraction(e2, p) / count_rotation_sets(e2, p) for p in (False, True)}
    assert share[True] < share[False]


def test_symmetric_inner_tiles_count_once_per_look():
    puzzle = edgematch.load("owen1-4x4")
    tiles = puzzle.tiles.copy()
    inner = next(t for t in range(puzzle.n_tiles) if (tiles[t] > 0).all())
    tiles[inner] = [tiles[inner][0]] * 4
    symmetric = Puzzle(tiles, 4, 4)
    assert page_rotation_sets(symmetric) == count_rotation_sets(symmetric) * 4


@pytest.mark.parametrize("parity", [False, True])
def test_cpsat_finds_a_balanced_set_on_owen_6x6_and_e2(parity):
    for name in ("owen1-6x6", "e2"):
        puzzle = edgematch.load(name)
        found = find_balanced(puzzle, parity=parity, seed=1, workers=1, time_limit=60)
        assert found is not None and found.parity == parity
        assert found.is_balanced(), (name, found.misfits(), found.imbalance())  # hints keep theirs


def test_an_odd_colour_has_no_balanced_set():
    puzzle = edgematch.load("owen1-4x4")
    tiles = puzzle.tiles.copy()
    inner = next(t for t in range(puzzle.n_tiles) if (tiles[t] > 0).all())
    tiles[inner][0] = tiles.max() + 1  # a colour shown by one side only
    spoiled = Puzzle(tiles, 4, 4)
    assert count_balanced(spoiled) == 0 == count_enumerated(spoiled)
    assert find_balanced(spoiled, seed=0, workers=1, time_limit=30) is None


def test_find_balanced_refuses_bad_options():
    puzzle = edgematch.load("owen1-3x3")
    for kwargs, message in (({"seed": -1}, "seed"), ({"time_limit": 0}, "time limit"), ({"workers": 0}, "worker")):
        with pytest.raises(InputError, match=message):
            find_balanced(puzzle, **kwargs)


def test_the_counter_stops_with_one_line_before_memory_runs_out():
    puzzle = edgematch.load("owen1-5x5")
    with pytest.raises(InputError, match="GiB of states: out of reach"):
        count_balanced(puzzle, max_state_bytes=1000)
