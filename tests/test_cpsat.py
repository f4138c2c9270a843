"""The CP-SAT model: solution sets equal the reference solver's, symmetric tiles counted
once, hints, limits and the shared result type."""

from __future__ import annotations

import numpy as np
import pytest

import edgematch
from edgematch.engines.cpsat import CpSatSolver
from edgematch.engines.result import SearchResult, board_key
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model import Puzzle
from support.reference import reference_solve


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("shape", [(3, 3, 2, 2, "none"), (4, 3, 2, 3, "none"), (4, 4, 2, 4, 1), (5, 3, 2, 3, "corner")])
def test_solution_sets_equal_the_reference(shape, seed):
    w, h, b, i, hints = shape
    g = generate(w, h, b, i, seed=seed, hints=hints)
    result = CpSatSolver().solve(g.puzzle, k=None)
    assert isinstance(result, SearchResult)
    assert result.complete and result.stopped_by is None
    assert result.solutions == len(result.boards)
    assert result.solution_set() == reference_solve(g.puzzle).solutions
    assert board_key(g.solution) in result.solution_set()
    for board in result.boards:
        assert board.verify().valid


def _symmetric_puzzle() -> Puzzle:
    """A 3x3 whose centre tile looks the same in all four rotations and whose edge tiles
    are all alike: many placements, each to be counted once."""
    tiles = [
        [0, 1, 1, 0], [0, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 0],  # corners
        [0, 1, 2, 1], [0, 1, 2, 1], [0, 1, 2, 1], [0, 1, 2, 1],  # edges (4 copies)
        [2, 2, 2, 2],  # centre, fully symmetric
    ]
    return Puzzle(np.array(tiles), 3, 3)


def test_symmetric_tiles_are_one_placement():
    puzzle = _symmetric_puzzle()
    result = CpSatSolver().solve(puzzle, k=None)
    reference = reference_solve(puzzle).solutions
    # corners: each fits one corner only in one rotation -> 4! ways; edges 4!; centre 1 way
    assert len(reference) == 24 * 24
    assert result.solutions == len(reference)
    assert result.solution_set() == reference
    assert len({tuple(b.tiles) + tuple(b.rotations) for b in result.boards}) == result.solutions


def test_hint_in_a_rotation_that_shows_the_same_edges():
    puzzle = _symmetric_puzzle().with_hints({4: (8, 3)})  # centre tile given as rotation 3
    result = CpSatSolver().count(puzzle)
    assert result.solutions == 24 * 24 and result.complete


def test_hints_are_honoured():
    g = generate(4, 4, 2, 3, seed=2, hints=3)
    result = CpSatSolver().solve(g.puzzle, k=None)
    assert result.solutions >= 1
    for board in result.boards:
        for h in g.puzzle.hints:
            assert board.tiles[h.square] == h.tile
        assert board.verify().valid


def test_first_k_and_counts():
    g = generate(4, 4, 2, 3, seed=2)
    full = CpSatSolver().count(g.puzzle)
    assert full.complete and full.solutions > 3 and full.boards == []
    first = CpSatSolver().solve(g.puzzle, k=3)
    assert first.solutions == 3 and len(first.boards) == 3
    assert not first.complete and first.stopped_by == "solutions"
    one = CpSatSolver(workers=2).solve(g.puzzle)
    assert one.solutions == 1 and one.boards[0].verify().valid and one.stopped_by == "solutions"
    many = CpSatSolver().solve(g.puzzle, k=full.solutions + 5)
    assert many.complete and many.solutions == full.solutions
    kept = CpSatSolver().enumerate(g.puzzle, callback=lambda board: None, collect=True)
    assert kept.solutions == full.solutions == len(kept.boards) and kept.complete
    seen = []
    streamed = CpSatSolver().solve(g.puzzle, k=None, callback=seen.append, collect=False)
    assert len(seen) == full.solutions == streamed.solutions and streamed.boards == []
    assert streamed.complete
    stopped = CpSatSolver().solve(g.puzzle, k=None, callback=lambda board: len(seen) > 0)
    assert stopped.solutions == 1 and stopped.stopped_by == "callback" and not stopped.complete


def test_statistics_say_what_nodes_are():
    result = CpSatSolver().count(generate(3, 3, 2, 2, seed=0).puzzle)
    assert result.solver == "cpsat"
    assert "branches" in result.statistics["nodes_are"]
    assert result.nodes == result.statistics["branches"]
    data = result.to_dict()
    assert data["solutions"] == result.solutions and data["complete"] is True


def test_no_solution():
    # a 2x2 of corners that cannot meet: the colours along the frame disagree
    puzzle = Puzzle(np.array([[0, 1, 1, 0], [0, 0, 2, 1], [2, 0, 0, 3], [3, 3, 0, 0]]), 2, 2)
    reference = reference_solve(puzzle).solutions
    result = CpSatSolver().count(puzzle)
    assert result.complete and result.solutions == len(reference)


def test_time_limit_stops_the_search():
    big = edgematch.load("owen1-7x7")  # 6,297 solutions: minutes of enumeration
    result = CpSatSolver(time_limit=0.5).count(big)
    assert not result.complete and result.stopped_by == "time"


def test_symmetry_option_counts_up_to_board_rotation():
    square = generate(4, 4, 2, 3, seed=0).puzzle
    raw = CpSatSolver().count(square).solutions
    assert CpSatSolver(symmetry=True).count(square).solutions * 4 == raw
    rectangle = generate(5, 3, 2, 3, seed=1).puzzle
    raw = CpSatSolver().count(rectangle).solutions
    reduced = CpSatSolver(symmetry=True).solve(rectangle, k=None)
    assert reduced.solutions * 2 == raw
    assert all(b.verify().valid for b in reduced.boards)
    with pytest.raises(InputError):
        CpSatSolver(symmetry=True).count(generate(4, 4, seed=0, hints=1).puzzle)
    with pytest.raises(InputError):
        CpSatSolver(node_limit=10)
