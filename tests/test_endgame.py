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
from edgematch.model import Puzzle
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


@pytest.mark.parametrize("seed", range(6))
def test_the_endgame_bound_loses_no_board_it_must_find(seed):
    """Exhausted, the branch and bound over the last K squares finds the best complete
    board, and every board at or above the save threshold, that the plain search finds
    when it lets those squares take any invalid joins (and enumerates every completion)."""
    tiles = np.array(generate(4, 4, 2, 3 + seed % 2, seed=seed).puzzle.tiles)
    inner = int(np.flatnonzero((tiles > 0).all(axis=1))[0])
    colours = sorted({int(c) for c in tiles[inner]})
    other = next(c for c in range(1, 9) if c not in colours)
    tiles[inner, 0] = other  # an odd number of sides of two colours: no perfect board
    puzzle = Puzzle(tiles, 4, 4)
    K = 5 + seed % 2
    floor = puzzle.max_score - 3
    tail = f"1:1,{puzzle.n_squares - K + 1}:{puzzle.max_score}"  # any error on the last K squares
    # the endgame lets frame joins err too: so does the plain search, everywhere
    options = dict(save_boards=floor, frame_exact=False)
    plain = make_solver("backtrack", schedule=tail, max_tile_errors=4, **options).best(puzzle)
    bounded = make_solver("backtrack", schedule="1", endgame=K, **options).best(puzzle)
    assert plain.complete and bounded.complete
    assert bounded.best_score == plain.best_score == max(int(s) for s in plain.statistics["boards_by_score"])
    at_least = {s: n for s, n in plain.statistics["boards_by_score"].items() if int(s) >= floor}
    kept = {s: n for s, n in bounded.statistics["boards_by_score"].items() if int(s) >= floor}
    assert kept == at_least
    assert sorted(b.score() for b in bounded.boards) == sorted(b.score() for b in plain.boards)
    assert bounded.nodes < plain.nodes  # the bound cut something


def test_a_search_with_an_endgame_completes_and_polishes_its_boards():
    puzzle = generate(6, 6, 3, 5, seed=3).puzzle
    options = dict(schedule="2", seed=4, node_limit=300_000)
    plain = make_solver("backtrack", **options).best(puzzle)
    assert not plain.best_board.is_complete  # the schedule alone completes no board here
    with_endgame = make_solver("backtrack", endgame=8, polish=0.2, **options).best(puzzle)
    best = with_endgame.best_board
    assert best.is_complete and with_endgame.best_score == best.score() >= plain.best_score
    stats = with_endgame.statistics
    assert stats["endgame_best"] == max(b.score() for b in [best, *with_endgame.boards])
    # the reported best is the polished board when the polish did better than the search
    assert with_endgame.best_score == max(stats["endgame_best"], *map(int, stats["boards_by_score"]))
    with pytest.raises(InputError, match="polish"):
        make_solver("backtrack", polish=1.0)


def test_a_new_best_partial_board_is_completed_by_cp_sat():
    """A best board that stopped short of the endgame's squares is completed by CP-SAT."""
    puzzle = generate(6, 6, 3, 5, seed=3).puzzle
    options = dict(schedule="2", seed=4, node_limit=300_000)
    plain = make_solver("backtrack", **options).best(puzzle)
    empty = puzzle.n_squares - plain.best_board.n_placed
    result = make_solver("backtrack", endgame=empty, **options).best(puzzle)
    stats = result.statistics
    assert stats["endgame_completions"] >= 1 and result.boards
    assert stats["endgame_best"] == max(b.score() for b in result.boards)


def test_cli_endgame_and_polish_write_the_best_completed_board(capsys, tmp_path):
    out = tmp_path / "best.txt"
    args = ["search", "e2", "--order", "e2path", "--schedule", "julia:470", "--node-limit", "100000000", "--jobs", "1"]
    code, text, _ = run_cli(capsys, *args, "--endgame", "0", "--json", "--quiet")
    greedy = json.loads(text)["written_score"]
    code, text, _ = run_cli(capsys, *args, "--endgame", "12", "--polish", "0.5", "--out", out, "--json", "--quiet")
    data = json.loads(text)
    stats = data["statistics"]
    assert code == 0 and stats["boards_by_score"]  # boards completed by the endgame's branch and bound
    assert data["written_score"] == stats["endgame_best"] >= max(greedy, *map(int, stats["boards_by_score"]))
    assert data["best_score"] == data["written_score"]  # the best reported is the board written
    code, _, err = run_cli(capsys, "search", "e2", "--endgame", "0", "--polish", "1")
    assert code == 2 and "polish" in err


def test_search_fills_in_the_recipe_on_big_boards_only(capsys):
    """``edgematch search e2`` alone runs Blackwood's method with the endgame, e2-clues his
    method fitted to its clues; other big boards the Julia package's path; small boards
    keep the exact row scan; options given win over the recipe."""
    code, text, _ = run_cli(capsys, "search", "e2", "--node-limit", "5000000", "--jobs", "1", "--json", "--quiet")
    stats = json.loads(text)["statistics"]
    recipe = ("blackwood", "blackwood", 12, 464, [20, 5, 7], True, [31, 47, 63, 79])  # B16, C16, D16, E16
    got = ("order", "schedule", "endgame_squares", "save_boards", "priority_colours", "priority_first", "exact_squares")
    assert code == 0 and tuple(stats[k] for k in got) == recipe
    code, text, _ = run_cli(capsys, "search", "e2-clues", "--node-limit", "5000000", "--jobs", "1", "--json", "--quiet")
    stats = json.loads(text)["statistics"]
    clued = "breaks:198,204,211,217,222,226,230,234,237,239,241,243"  # two invalid joins more than his
    recipe = ("blackwood-clues", clued, 12, 460, [20, 5, 7], True, [31, 47, 63, 79])
    assert code == 0 and tuple(stats[k] for k in got) == recipe and stats["restart_nodes"] == 2_000_000_000
    given = ["--order", "e2path", "--node-limit", "100000", "--jobs", "1", "--json", "--quiet"]
    code, text, _ = run_cli(capsys, "search", "e2-clues", *given)  # an option of his given: the general recipe
    stats = json.loads(text)["statistics"]  # 15 invalid joins and restarts for its clues
    assert code == 0 and (stats["schedule"], stats["restart_nodes"]) == ("julia:465", 1_000_000_000)
    given = ["--schedule", "julia:470", "--node-limit", "100000", "--jobs", "1", "--json", "--quiet"]
    code, text, _ = run_cli(capsys, "search", "e2-clues", *given)
    stats = json.loads(text)["statistics"]  # a schedule given: no restarts filled in
    assert code == 0 and stats["schedule"] == "julia:470" and stats["restart_nodes"] is None
    args = ["--order", "e2path", "--node-limit", "100000", "--jobs", "1", "--json", "--quiet"]
    code, text, _ = run_cli(capsys, "search", "e2", *args)  # one recipe option given: the general recipe
    stats = json.loads(text)["statistics"]
    assert (stats["order"], stats["schedule"], stats["priority_colours"]) == ("e2path", "julia:470", [])
    code, text, _ = run_cli(capsys, "search", "owen1-4x4", "--json", "--quiet")
    stats = json.loads(text)["statistics"]
    assert (stats["order"], stats["schedule"], stats["endgame_squares"], stats["save_boards"]) == ("rowscan", None, 0, None)
    args = ["--order", "rowscan", "--schedule", "3", "--endgame", "0", "--node-limit", "100000", "--jobs", "1"]
    code, text, _ = run_cli(capsys, "search", "e2", *args, "--json", "--quiet")
    stats = json.loads(text)["statistics"]
    assert (stats["order"], stats["schedule"], stats["endgame_squares"]) == ("rowscan", "3", 0)
