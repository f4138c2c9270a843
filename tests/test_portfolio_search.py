"""Seeded best-score searches: board turns, restarts that can be searched again alone, and
the parallel portfolio (task k = restart k) with its run store."""

from __future__ import annotations

import json

import numpy as np
import pytest

from edgematch.data.records import load_record
from edgematch.engines import make_solver
from edgematch.engines.base import Limits, StopReason
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.loading import load
from edgematch.model import Board, Puzzle
from edgematch.model.symmetry import board_turns, turn_square, turned_board, turned_puzzle
from edgematch.parallel import parallel_search, resume_search
from edgematch.runs import RunStore

from support.cli import run_cli

SEARCH = dict(schedule="breaks:20,28,34", seed=5, restart_nodes=20_000)


def test_turning_a_board_keeps_its_score_and_four_turns_give_it_back():
    puzzle = load("e2")
    record = load_record("record/Joshua_Blackwood_470", puzzle)
    for turns in range(4):
        turned = turned_puzzle(puzzle, turns)
        board = turned_board(record, turned, turns)
        assert board.score() == record.score() == 470
        assert all(board.tiles[h.square] == h.tile and board.rotations[h.square] == h.rotation for h in turned.hints)
        back = turned_board(board, puzzle, -turns)
        assert np.array_equal(back.tiles, record.tiles) and np.array_equal(back.rotations, record.rotations)
    assert turned_puzzle(puzzle, 1).hints[0].square == 7 * 16 + 7  # I8 (row 8, column 7) goes to row 7, column 7


def test_a_quarter_turn_of_a_rectangle_swaps_its_sides():
    puzzle = generate(5, 3, 3, 3, seed=1).puzzle
    assert board_turns(puzzle) == [0, 2]
    assert turn_square(0, 5, 3, 1) == 2  # top-left goes to top-right of the 3 x 5 board
    turned = turned_puzzle(puzzle, 1)
    assert (turned.width, turned.height) == (3, 5)
    with pytest.raises(InputError, match="does not keep the shape"):
        make_solver("backtrack", board_turns=1, schedule=1).best(puzzle)


def test_a_turned_search_is_the_search_of_the_turned_puzzle_reported_unturned():
    puzzle = load("owen1-6x6")
    options = dict(schedule="breaks:20,28,34", seed=3, node_limit=40_000)
    turned = make_solver("backtrack", board_turns=1, **options).best(puzzle)
    direct = make_solver("backtrack", **options).best(turned_puzzle(puzzle, 1))
    assert turned.nodes == direct.nodes and turned.best_score == direct.best_score
    expected = turned_board(direct.best_board, puzzle, -1)
    assert turned.best_board.puzzle is puzzle or turned.best_board.puzzle == puzzle
    assert np.array_equal(turned.best_board.tiles, expected.tiles)
    assert np.array_equal(turned.best_board.rotations, expected.rotations)
    assert turned.best_board.score() == turned.best_score


def test_the_restart_that_found_the_best_board_finds_it_again_alone():
    puzzle = load("owen1-8x8")
    serial = make_solver("backtrack", board_turns="all", node_limit=8 * 20_000, **SEARCH).best(puzzle)
    k = serial.statistics["best_restart"]
    assert serial.statistics["best_seed"] == SEARCH["seed"] + k
    assert serial.statistics["best_turn"] == k % 4
    alone = make_solver("backtrack", board_turns="all", **SEARCH).best(puzzle, segment=k)
    assert alone.stopped_by == StopReason.RESTARTS and alone.nodes == 20_000
    assert alone.best_score == serial.best_score
    assert np.array_equal(alone.best_board.tiles, serial.best_board.tiles)
    # the same board from the command line: that restart's seed and turn, restart_nodes nodes
    again = make_solver(
        "backtrack", schedule=SEARCH["schedule"], seed=serial.statistics["best_seed"], board_turns=k % 4
    ).best(puzzle, limits=Limits(nodes=20_000))
    assert np.array_equal(again.best_board.tiles, serial.best_board.tiles)


def test_several_turns_need_restarts_and_no_start_board():
    puzzle = load("owen1-6x6")
    with pytest.raises(InputError, match="need restarts"):
        make_solver("backtrack", board_turns="all", schedule=1).best(puzzle)
    start = Board(puzzle)
    with pytest.raises(InputError, match="start board"):
        make_solver("backtrack", board_turns=[1], schedule=1).best(puzzle, start=start)
    with pytest.raises(InputError, match="board turns must be"):
        make_solver("backtrack", board_turns=[4])


def test_a_parallel_portfolio_runs_restarts_side_by_side_and_each_can_be_searched_again():
    puzzle = load("owen1-8x8")
    engine = make_solver("backtrack", board_turns="all", **SEARCH)
    result = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(nodes=10 * 20_000))
    assert result.stopped_by == StopReason.NODES and result.nodes == 10 * 20_000
    keys = sorted(s["key"] for s in result.statistics["subtrees"])
    assert keys == list(range(10)) and all(s["nodes"] == 20_000 for s in result.statistics["subtrees"])
    k = result.statistics["best_restart"]
    alone = make_solver("backtrack", board_turns="all", **SEARCH).best(puzzle, segment=k)
    assert alone.best_score == result.best_score
    assert np.array_equal(alone.best_board.tiles, result.best_board.tiles)
    serial = make_solver("backtrack", board_turns="all", node_limit=10 * 20_000, **SEARCH).best(puzzle)
    assert serial.best_score == result.best_score  # the same ten restarts, in another order


def test_a_portfolio_that_exhausts_the_space_is_complete_with_the_optimum():
    planted = generate(4, 4, 3, 4, seed=7).puzzle
    tiles = planted.tiles.copy()
    inner = int(np.flatnonzero((tiles > 0).all(axis=1))[0])
    tiles[inner, 0] = max(planted.inner_colours) + 1  # a colour no other side has: no solution
    puzzle = Puzzle(tiles, 4, 4)
    serial = make_solver("backtrack", schedule=2).best(puzzle)
    assert serial.complete
    result = parallel_search("search", make_solver("backtrack", schedule=2, seed=1), puzzle, jobs=2)
    assert result.complete and result.stopped_by is None and result.best_score == serial.best_score


def test_a_recorded_portfolio_resumes_with_new_restarts(tmp_path):
    puzzle = load("owen1-8x8")
    store = RunStore(tmp_path / "runs.sqlite")
    engine = make_solver("backtrack", board_turns="all", **SEARCH)
    first = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(nodes=4 * 20_000), store=store)
    run_id = first.statistics["run_id"]
    _, again = resume_search(run_id, store, jobs=2, limits=Limits(nodes=8 * 20_000))
    keys = [s["key"] for s in again.statistics["subtrees"]]
    assert min(keys) >= 4 and len(set(keys)) == len(keys)  # no restart is searched twice
    assert again.nodes == 8 * 20_000 and again.best_score >= first.best_score


def test_cli_board_turns(capsys):
    code, out, _ = run_cli(
        capsys,
        "search",
        "owen1-8x8",
        "--schedule",
        "breaks:20,28,34",
        "--seed",
        "5",
        "--restart-nodes",
        "20000",
        "--board-turns",
        "all",
        "--node-limit",
        "60000",
        "--jobs",
        "1",
        "--json",
        "--quiet",
    )
    data = json.loads(out)
    stats = data["statistics"]
    assert code == 0 and data["nodes"] == 60_000
    assert stats["best_turn"] == stats["best_restart"] % 4 and stats["best_seed"] == 5 + stats["best_restart"]
    code, _, err = run_cli(capsys, "search", "owen1-8x8", "--schedule", "3", "--board-turns", "north")
    assert code == 2 and "--board-turns: 'north'" in err
