"""The endgame of a best-score search: the best completion of a nearly full board (CP-SAT),
checked against trying every completion, and its use by the search and the command."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from edgematch.engines import make_solver
from edgematch.engines.backtrack.endgame import complete_best
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model import tiles as T

from support.cli import run_cli


def _brute_force_best(board):
    """The largest score of any completion: every assignment of the free tiles to the empty
    squares, in every rotation that fits the border."""
    puzzle = board.puzzle
    W, H = puzzle.width, puzzle.height
    empty = [int(s) for s in np.flatnonzero(board.tiles < 0)]
    free = sorted(set(range(puzzle.n_tiles)) - {int(t) for t in board.tiles if t >= 0})
    best = -1
    for perm in itertools.permutations(free):
        options = [
            [r for r in range(4) if T.fits_border(puzzle.tiles[t], r, s, W, H)] for s, t in zip(empty, perm)
        ]
        for rots in itertools.product(*options):
            trial = board.copy()
            for s, t, r in zip(empty, perm, rots):
                trial.place(s, t, r)
            best = max(best, trial.score())
    return best


@pytest.mark.parametrize("seed", range(8))
def test_the_completion_is_the_best_of_every_completion(seed):
    rng = np.random.default_rng(seed)
    board = generate(4, 4, 2, 3, seed=seed).solution.copy()
    a, b = (int(s) for s in rng.choice(np.flatnonzero(board.puzzle.kinds[board.tiles] == T.INNER), 2, replace=False))
    board.tiles[[a, b]] = board.tiles[[b, a]]  # two inner tiles swapped: not the planted solution any more
    for s in rng.choice(16, size=int(rng.integers(3, 6)), replace=False):
        board.remove(int(s))
    completion = complete_best(board)
    assert completion.optimal and completion.board.is_complete
    assert completion.board.score() == _brute_force_best(board) >= completion.greedy_score
    placed = board.tiles >= 0
    assert np.array_equal(completion.board.tiles[placed], board.tiles[placed])


def test_a_search_with_an_endgame_keeps_its_completions(capsys):
    puzzle = generate(6, 6, 3, 5, seed=3).puzzle
    options = dict(schedule="2", seed=4, node_limit=300_000)
    plain = make_solver("backtrack", **options).best(puzzle)
    with_endgame = make_solver("backtrack", endgame=8, **options).best(puzzle)
    assert with_endgame.nodes == plain.nodes and with_endgame.best_score == plain.best_score
    stats = with_endgame.statistics
    assert puzzle.n_squares - 8 <= plain.best_board.n_placed < puzzle.n_squares  # the endgame applies
    assert stats["endgame_completions"] >= 1 and with_endgame.boards
    assert stats["endgame_best"] == max(b.score() for b in with_endgame.boards)
    assert stats["endgame_best"] == complete_best(plain.best_board).board.score()
    with pytest.raises(InputError, match="polish"):
        make_solver("backtrack", polish=1.0)


def test_cli_endgame_and_polish_write_the_best_completed_board(capsys, tmp_path):
    out = tmp_path / "best.txt"
    args = ["search", "e2", "--order", "e2path", "--schedule", "julia:470", "--node-limit", "100000000", "--jobs", "1"]
    code, text, _ = run_cli(capsys, *args, "--json", "--quiet")
    greedy = json.loads(text)["written_score"]
    code, text, _ = run_cli(capsys, *args, "--endgame", "12", "--polish", "0.5", "--out", out, "--json", "--quiet")
    data = json.loads(text)
    assert code == 0 and data["statistics"]["endgame_completions"] >= 1
    assert data["written_score"] == data["statistics"]["endgame_best"] >= greedy
    code, _, err = run_cli(capsys, "search", "e2", "--polish", "1")
    assert code == 2 and "polish" in err
