"""Three independent engines give the same solution sets.

On 200+ random small puzzles (square and rectangular, few colours so that many have
several solutions, with and without hints), the backtracking engine, the plain Python
reference solver and the CP-SAT model must find exactly the same set of solutions (as
placements: tile and normalised rotation per square), and every solution must pass the
verifier.  The backtracking engine is also run along a second scan order.
"""

from __future__ import annotations

import pytest

import edgematch
from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.cpsat import CpSatSolver
from edgematch.generator import generate
from edgematch.model import Hint
from edgematch.model.tiles import border_rotations
from support.reference import board_key, reference_solve

# (width, height, frame colours, inner colours, hints, seeds)
BATCHES = [
    (3, 3, 2, 2, "none", range(0, 12)),
    (3, 3, 1, 2, 1, range(0, 10)),
    (2, 4, 1, 2, "none", range(0, 6)),
    (3, 3, 2, 2, "corner", range(12, 22)),
    (4, 3, 2, 2, "none", range(0, 12)),
    (4, 3, 2, 3, 1, range(0, 10)),
    (3, 4, 2, 3, "corner", range(0, 8)),
    (4, 4, 2, 3, "none", range(0, 5)),
    (4, 4, 2, 4, "none", range(10, 20)),
    (4, 4, 2, 3, 1, range(20, 32)),
    (4, 4, 2, 4, "corner", range(0, 10)),
    (4, 4, 3, 4, 2, range(0, 10)),
    (5, 3, 2, 3, "none", range(0, 5)),
    (4, 4, 3, 3, "none", range(0, 8)),
    (5, 3, 2, 3, 1, range(8, 18)),
    (3, 5, 2, 3, "corner", range(0, 8)),
    (5, 4, 2, 4, 1, range(0, 8)),
    (5, 4, 3, 4, 2, range(0, 8)),
    (5, 5, 3, 5, 1, range(0, 8)),
    (5, 5, 3, 5, 2, range(8, 14)),
    (5, 5, 3, 4, 3, range(0, 8)),
    (6, 3, 2, 3, 2, range(0, 8)),
    (6, 4, 3, 5, 2, range(0, 8)),
    (4, 6, 3, 5, 3, range(0, 6)),
]


def test_at_least_200_instances():
    assert sum(len(seeds) for *_, seeds in BATCHES) >= 200


def _solution_set(boards) -> set:
    """Boards as reference-solver tuples (rotations normalised by the reference's rule)."""
    return {board_key(board) for board in boards}


@pytest.mark.parametrize("width,height,frame,inner,hints,seeds", BATCHES,
                         ids=[f"{w}x{h}-b{b}i{i}-{hint}" for w, h, b, i, hint, _ in BATCHES])
def test_engines_give_the_same_solution_sets(width, height, frame, inner, hints, seeds):
    for seed in seeds:
        g = generate(width, height, frame, inner, seed=seed, hints=hints)
        puzzle = g.puzzle
        reference = reference_solve(puzzle).solutions

        backtrack = BacktrackSolver().solve(puzzle, k=None)
        assert backtrack.complete, (puzzle.name, backtrack.stopped_by)
        assert backtrack.solutions == len(backtrack.boards)
        assert _solution_set(backtrack.boards) == reference, puzzle.name

        other_order = BacktrackSolver(order="spiral-in", corner="BR").count(puzzle)
        assert other_order.solutions == len(reference), puzzle.name

        cpsat = CpSatSolver().solve(puzzle, k=None)
        assert cpsat.complete, (puzzle.name, cpsat.stopped_by)
        assert cpsat.solutions == len(cpsat.boards)
        assert _solution_set(cpsat.boards) == reference, puzzle.name

        # the three sets are equal: verifying one engine's boards checks every solution
        for board in backtrack.boards:
            verification = board.verify()
            assert verification.valid, (puzzle.name, verification.reasons)


def test_the_instances_are_interesting():
    """Most instances must have several solutions, or the comparison of solution sets above
    would be nearly as weak as a comparison of counts (counted here by the backtracker,
    which the batches check against the reference)."""
    several = [BacktrackSolver().count(generate(w, h, b, i, seed=seed, hints=hints).puzzle).solutions > 1
               for w, h, b, i, hints, seeds in BATCHES for seed in seeds]
    assert sum(several) >= len(several) // 2


@pytest.mark.slow
def test_owen_6x6_set_1_cpsat_finds_the_backtrackers_solutions():
    """Brendan Owen's set 1 6x6: 260 solutions, 65 up to board rotation (community figure,
    data/files/brendan_owen/SOURCE.txt). CP-SAT alone enumerates them far too slowly (65 of
    the 260 after 800 s here), so the first corner tile is fixed in the top-left corner (a
    quarter of the solutions remain: test_backtrack checks that the 65 turn into the 260),
    the backtracker cuts the tree after 5 squares, and CP-SAT completes every subtree, its
    placed squares given as hints (about 3-5 minutes here). Together they give exactly the
    backtracker's 65 solutions, each of which the verifier accepts."""
    puzzle = edgematch.load("owen1-6x6")
    corner = min(t for t in range(puzzle.n_tiles) if puzzle.kinds[t] == 2)
    fixed = puzzle.with_hints([Hint(0, corner, border_rotations(puzzle.tiles[corner], 0, 6, 6)[0])])
    backtrack = BacktrackSolver().solve(fixed, k=None)
    assert backtrack.complete and backtrack.solutions == 65
    prefixes, _ = BacktrackSolver().split(fixed, 5)
    found = []
    for prefix in prefixes:
        hints = [Hint(sq, int(prefix.tiles[sq]), int(prefix.rotations[sq]))
                 for sq in range(puzzle.n_squares) if prefix.tiles[sq] >= 0]
        part = CpSatSolver().solve(fixed.with_hints(hints), k=None)
        assert part.complete
        found.extend(part.boards)
    assert len(found) == 65 and _solution_set(found) == _solution_set(backtrack.boards)
    assert all(board.verify().valid for board in found)
