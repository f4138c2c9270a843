"""Starts of the local search (relaxed problem, backtracking) and the reduced exact method."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.local.reduced import reduced_exact, reduced_solve
from edgematch.local.relaxed import choose_relaxed_squares, relaxed_cp_start
from edgematch.local.startup import build_start
from edgematch.local.tables import build_tables
from edgematch.model import Board, Puzzle


def brute_force_optimum(puzzle: Puzzle) -> int:
    """Best score over every board that puts each tile on a square of its kind (tiny puzzles)."""
    t = build_tables(puzzle)
    kinds = (t.neighbours < 0).sum(axis=1)
    tile_kinds = puzzle.kinds
    groups = []
    for kind in (0, 1, 2):
        squares = [int(q) for q in np.flatnonzero(kinds == kind)]
        tiles = [int(x) for x in np.flatnonzero(tile_kinds == kind)]
        groups.append((squares, tiles))
    best = -1
    board = Board(puzzle)
    options = []
    for squares, tiles in groups:
        per_group = []
        for perm in itertools.permutations(tiles):
            rot_choices = [[r for r in range(4) if t.fit[tile, t.outer_mask[q]] >> r & 1] for tile, q in zip(perm, squares)]
            for rots in itertools.product(*rot_choices):
                per_group.append([(q, tile, r) for q, tile, r in zip(squares, perm, rots)])
        options.append(per_group)
    for combo in itertools.product(*options):
        for group in combo:
            for q, tile, r in group:
                board.tiles[q] = tile
                board.rotations[q] = r
        best = max(best, board.score())
    return best


def scrambled(puzzle: Puzzle, seed: int) -> Puzzle:
    """The same puzzle with some inner colours changed: usually no longer solvable."""
    tiles = np.array(puzzle.tiles)
    rng = np.random.default_rng(seed)
    inner = np.flatnonzero(puzzle.kinds == 0)
    for tile in rng.choice(inner, size=min(2, len(inner)), replace=False):
        side = int(rng.integers(4))
        tiles[tile, side] = int(max(puzzle.colours)) + 1
    return Puzzle(tiles, puzzle.width, puzzle.height)


# ----------------------------------------------------------------------------- reduced exact method
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reduced_best_is_the_brute_force_optimum_on_3x3(seed):
    for puzzle in (generate(3, seed=seed).puzzle, scrambled(generate(3, seed=seed).puzzle, seed)):
        expected = brute_force_optimum(puzzle)
        for colour in (0, 1):
            result = reduced_exact(puzzle, colour=colour)
            assert result.complete
            assert result.best_score == expected == result.best_board.score()


@pytest.mark.parametrize("hints", ["none", "corner", 2])
def test_reduced_solve_finds_a_solution_of_planted_puzzles(hints):
    puzzle = generate(4, seed=7, hints=hints).puzzle
    result = reduced_solve(puzzle)
    assert result.solved and result.best_board.verify().valid
    best = reduced_exact(puzzle, colour=1)
    assert best.complete and best.best_score == puzzle.max_score


def test_reduced_exhausts_an_unsolvable_puzzle():
    puzzle = scrambled(generate(3, seed=5).puzzle, 5)
    optimum = brute_force_optimum(puzzle)
    result = reduced_solve(puzzle)
    if optimum < puzzle.max_score:
        assert result.complete and not result.solved
    with pytest.raises(InputError):
        reduced_exact(puzzle, colour=2)


# ----------------------------------------------------------------------------- relaxed problem
def test_relaxed_squares_are_non_adjacent_and_not_hints():
    puzzle = generate(8, seed=1, hints=3).puzzle
    t = build_tables(puzzle)
    squares = choose_relaxed_squares(puzzle, 12, 4)
    assert len(squares) == 12 and not t.fixed[squares].any()
    chosen = set(squares)
    assert not any(int(nb) in chosen for q in squares for nb in t.neighbours[q] if nb >= 0)


@pytest.mark.parametrize("engine", ["dfs", "cpsat"])
def test_relaxed_start_solves_small_relaxed_problems(engine):
    made = generate(5, seed=3, hints=1)
    start = relaxed_cp_start(made.puzzle, relax=3, time_limit=20, rng=1, engine=engine)
    assert start.solved and start.status == "solved"
    board = start.board
    assert board.is_complete and sorted(board.tiles.tolist()) == list(range(made.puzzle.n_tiles))
    assert not any("hint" in r or "grey" in r or "outside" in r for r in board.verify().reasons)
    # every join away from the relaxed squares matches
    relaxed = set(start.relaxed)
    for m in board.mismatches():
        assert m.join.a in relaxed or m.join.b in relaxed


def test_relaxed_start_without_solution_completes_the_deepest_board():
    puzzle = scrambled(generate(6, seed=4).puzzle, 1)
    start = relaxed_cp_start(puzzle, relax=0, time_limit=10, rng=2, node_limit=2000)
    assert not start.solved and start.status in ("nodes", "exhausted")
    assert 0 < start.placed < puzzle.n_squares
    assert start.board.is_complete
    # the deepest board had matched joins, and completing it only adds tiles around them
    assert start.cp_score > 0 and start.board.score() >= start.cp_score
    assert sorted(start.board.tiles.tolist()) == list(range(puzzle.n_tiles))


def test_build_start_kinds():
    puzzle = generate(5, seed=9, hints=1).puzzle
    for kind in ("random", "cp", "backtrack"):
        board, info = build_start(puzzle, kind, seed=3, time_limit=2)
        assert info["kind"] == kind and board.is_complete
        assert sorted(board.tiles.tolist()) == list(range(puzzle.n_tiles))
        assert info["score"] == board.score()  # the score each start reports is the board's
    with pytest.raises(InputError):
        build_start(puzzle, "nowhere")
