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
    assert serial.statistics["restarts"] == 7  # eight restarts' nodes: restarts 1 to 7 after the first
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
    """Task k is restart k: searched alone with the nodes the task ran, every restart gives
    the same best score and complete boards, and the restart named best finds the board."""
    puzzle = load("owen1-8x8")
    engine = make_solver("backtrack", board_turns="all", **SEARCH)
    result = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(nodes=10 * 20_000))
    assert result.stopped_by == StopReason.NODES and result.nodes == 10 * 20_000
    tasks = sorted((s["key"], s["nodes"]) for s in result.statistics["subtrees"])
    assert [k for k, _ in tasks] == list(range(len(tasks))) and all(0 < n <= 20_000 for _, n in tasks)
    assert result.statistics["restarts"] == len(tasks) - 1  # as many as the serial search's
    best_scores, counts = {}, {}
    for k, nodes in tasks:
        alone = make_solver("backtrack", board_turns="all", **SEARCH).best(puzzle, segment=k, limits=Limits(nodes=nodes))
        best_scores[k] = alone.best_score
        for score, n in alone.statistics["boards_by_score"].items():
            counts[score] = counts.get(score, 0) + n
        if k == result.statistics["best_restart"]:
            assert np.array_equal(alone.best_board.tiles, result.best_board.tiles)
    assert max(best_scores.values()) == result.best_score == best_scores[result.statistics["best_restart"]]
    assert counts == result.statistics["boards_by_score"]


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


def test_a_resumed_run_keeps_its_clock_and_when_it_first_reached_each_score(capsys, tmp_path):
    # the run's seconds go on from its earlier session, and the time-to-score records of the
    # first session survive the resume, with the later ones on the same clock
    puzzle = load("owen1-8x8")
    store = RunStore(tmp_path / "runs.sqlite")
    engine = make_solver("backtrack", **SEARCH)
    first = parallel_search("search", engine, puzzle, jobs=1, limits=Limits(nodes=4 * 20_000), store=store)
    run_id = first.statistics["run_id"]
    earlier = {int(v): t for v, t in first.statistics["best_score_at"].items()}
    assert store.run(run_id).seconds == pytest.approx(first.seconds, abs=0.05)
    _, again = resume_search(run_id, store, jobs=1, limits=Limits(nodes=12 * 20_000))
    assert again.seconds > first.seconds and store.run(run_id).seconds == pytest.approx(again.seconds, abs=0.05)
    reached = {int(v): t for v, t in again.statistics["best_score_at"].items()}
    assert {v: reached[v] for v in earlier} == earlier  # the first session's records, as they were
    later = {v: t for v, t in reached.items() if v > max(earlier)}
    assert all(t >= first.seconds - 0.05 for t in later.values())
    assert max(reached) == again.best_score
    code, out, _ = run_cli(capsys, "runs", "--db", tmp_path / "runs.sqlite", "--run", str(run_id))
    assert code == 0
    shown = max(reached)
    assert "best score first reached at: " in out and f"{shown} ({reached[shown]:g} s)" in out
    code, out, _ = run_cli(capsys, "runs", "--db", tmp_path / "runs.sqlite", "--run", str(run_id), "--json")
    data = json.loads(out)
    assert code == 0 and data["best_score_at"] == again.statistics["best_score_at"]
    assert data["deepest_at"] == again.statistics["deepest_at"]


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


def _unsolvable(width, height, seed):
    """A generated puzzle with one inner side recoloured to a colour no other side has."""
    planted = generate(width, height, 3, 4, seed=seed).puzzle
    tiles = planted.tiles.copy()
    inner = int(np.flatnonzero((tiles > 0).all(axis=1))[0])
    tiles[inner, seed % 4] = max(planted.inner_colours) + 1
    return Puzzle(tiles, width, height)


def _reference_complete_boards(puzzle, order, allowed):
    """Complete boards per score of an exhaustive error-tolerant search: plain recursion,
    frame joins exact, at most one invalid join per placed tile, ``allowed[n]`` invalid
    joins in all once n tiles are placed."""
    W, H = puzzle.width, puzzle.height
    border = [r in (0, H - 1) or c in (0, W - 1) for r in range(H) for c in range(W)]
    tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
    counts: dict[int, int] = {}
    board: dict[int, tuple[int, ...]] = {}
    used = [False] * len(tiles)

    def dfs(depth, errors):
        if depth == len(order):
            score = 2 * W * H - W - H - errors
            counts[score] = counts.get(score, 0) + 1
            return
        square = order[depth]
        r, c = divmod(square, W)
        for t, colours in enumerate(tiles):
            if used[t]:
                continue
            for shown in {tuple(colours[(s - k) % 4] for s in range(4)) for k in range(4)}:
                new = 0
                for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                    rr, cc = r + dr, c + dc
                    outside = not (0 <= rr < H and 0 <= cc < W)
                    if outside != (shown[side] == 0):
                        new = 9
                        break
                    other = rr * W + cc
                    if not outside and other in board and board[other][(side + 2) % 4] != shown[side]:
                        new += 9 if border[square] and border[other] else 1
                if new <= 1 and errors + new <= allowed[depth + 1]:
                    board[square] = shown
                    used[t] = True
                    dfs(depth + 1, errors + new)
                    used[t] = False
                    del board[square]

    dfs(0, 0)
    return counts


@pytest.mark.parametrize("seed", range(4))
def test_complete_boards_per_score_are_those_of_a_plain_search(seed):
    puzzle = _unsolvable(4, 4, seed)
    schedule = "list:0,0,0,0,0,0,1,1,1,1,1,2,2,2,2,3"
    result = make_solver("backtrack", schedule=schedule, seed=seed, save_boards=puzzle.max_score - 2).best(puzzle)
    assert result.complete
    order = list(make_solver("backtrack").search_squares(puzzle))
    allowed = [0] + [int(x) for x in schedule.split(":")[1].split(",")]
    expected = _reference_complete_boards(puzzle, order, allowed)
    assert result.statistics["boards_by_score"] == {str(s): n for s, n in sorted(expected.items())}
    assert result.statistics["complete_boards"] == sum(expected.values())
    kept = list(result.boards)
    assert len(kept) == sum(n for s, n in expected.items() if s >= puzzle.max_score - 2)
    assert all(b.is_complete and b.score() >= puzzle.max_score - 2 for b in kept)
    assert len({(tuple(b.tiles), tuple(b.rotations)) for b in kept}) == len(kept)


def test_a_full_buffer_of_kept_boards_ends_the_slice_and_loses_none(monkeypatch):
    from edgematch.engines.backtrack import best as best_module

    puzzle = _unsolvable(4, 4, 1)
    options = dict(schedule="list:0,0,0,0,0,0,1,1,1,1,1,2,2,2,2,3", seed=1, save_boards=0)
    wide = make_solver("backtrack", **options).best(puzzle)
    monkeypatch.setattr(best_module, "SAVED_ROWS", 2)
    narrow = make_solver("backtrack", **options).best(puzzle)
    assert narrow.nodes == wide.nodes and len(narrow.boards) == len(wide.boards) > 2
    assert [b.tiles.tolist() for b in narrow.boards] == [b.tiles.tolist() for b in wide.boards]


def test_a_node_limit_gives_workers_whole_restarts_as_the_serial_search_runs_them():
    """Three restarts' nodes on two workers: the third restart runs whole on the first free
    worker (not two half restarts, one per worker: a restart cut short is never resumed)."""
    puzzle = load("owen1-6x6")
    options = dict(schedule=6, seed=2, restart_nodes=200_000, save_boards=54)
    serial = make_solver("backtrack", node_limit=3 * 200_000, **options).best(puzzle)
    engine = make_solver("backtrack", **options)
    both = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(nodes=3 * 200_000))
    assert both.nodes == serial.nodes == 3 * 200_000
    assert both.statistics["boards_by_score"] == serial.statistics["boards_by_score"]


def test_the_histogram_and_kept_boards_add_up_over_workers_and_sessions(tmp_path, capsys):
    puzzle = load("owen1-6x6")
    options = dict(schedule=6, seed=2, restart_nodes=200_000, save_boards=55)
    serial = make_solver("backtrack", node_limit=6 * 200_000, **options).best(puzzle)
    store = RunStore(tmp_path / "runs.sqlite")
    engine = make_solver("backtrack", **options)
    # two workers, 2 x 200,000 nodes: one whole restart each (a task stopped by the run's end
    # is recorded as it is and never resumed; each task is promised one whole restart)
    first = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(nodes=2 * 200_000), store=store)
    run_id = first.statistics["run_id"]
    _, again = resume_search(run_id, store, jobs=2, limits=Limits(nodes=6 * 200_000))
    assert again.nodes == serial.nodes
    assert again.statistics["boards_by_score"] == serial.statistics["boards_by_score"]  # the same six restarts
    assert sorted(b.score() for b in again.boards) == sorted(b.score() for b in serial.boards)
    store.close()
    code, out, _ = run_cli(capsys, "runs", "--db", tmp_path / "runs.sqlite", "--run", str(run_id), "--json")
    data = json.loads(out)
    assert code == 0 and data["boards_by_score"] == serial.statistics["boards_by_score"]
    assert data["best"]["score"] == serial.best_score and data["best"]["url"].startswith("https://e2.bucas.name/")
    assert data["best"]["best_seed"] == 2 + data["best"]["best_restart"]
    assert len(data["saved_boards"]) == len(serial.boards) and all(b["url"] for b in data["saved_boards"])
    code, out, _ = run_cli(capsys, "runs", "--db", tmp_path / "runs.sqlite", "--run", str(run_id))
    assert "(complete boards per score)" in out and f"saved: {len(serial.boards)} boards" in out
    code, out, _ = run_cli(capsys, "runs", "--db", tmp_path / "runs.sqlite")
    histogram = ", ".join(f"{s}: {n:,}" for s, n in serial.statistics["boards_by_score"].items())
    assert code == 0 and f"best {serial.best_score}; complete boards per score: {histogram}" in out
    code, out, _ = run_cli(capsys, "runs", "--db", tmp_path / "runs.sqlite", "--json")
    (row,) = json.loads(out)["runs"]
    assert row["boards_by_score"] == serial.statistics["boards_by_score"] and row["best_score"] == serial.best_score


def test_cli_save_boards_prints_the_histogram_and_lists_the_kept_boards(capsys):
    args = ["search", "owen1-6x6", "--schedule", "6", "--seed", "2", "--save-boards", "55", "--node-limit", "3000000"]
    code, out, _ = run_cli(capsys, *args, "--jobs", "1")
    assert code == 0 and "complete boards by score: 54: " in out and "https://e2.bucas.name/" in out
    code, out, _ = run_cli(capsys, *args, "--jobs", "1", "--json", "--quiet")
    data = json.loads(out)
    counts = data["statistics"]["boards_by_score"]
    assert len(data["saved_boards"]) == sum(n for s, n in counts.items() if int(s) >= 55) > 0
    assert all(b["score"] >= 55 and b["url"] for b in data["saved_boards"])
