"""Saved boards of long searches: the best ``keep_boards`` held in memory, every one in the
run store (scored, paged best first), and stores of the earlier layout moved over."""

from __future__ import annotations

import io
import json
import sqlite3
from contextlib import redirect_stdout

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from edgematch.cli.common import print_json_streaming
from edgematch.engines import make_solver
from edgematch.engines.base import Limits
from edgematch.engines.kept_boards import BestBoards
from edgematch.loading import load
from edgematch.model import Board
from edgematch.parallel import parallel_search, resume_search
from edgematch.runs import RunStore
from edgematch.runs.subtrees import SubtreeLedger
from support.cli import run_cli

OPTIONS = dict(schedule=6, seed=2, restart_nodes=200_000, save_boards=54)


def _ranked(boards) -> list[int]:
    return [b.score() for b in boards]


@given(st.lists(st.integers(0, 5), max_size=40), st.one_of(st.none(), st.integers(0, 12)))
def test_best_boards_are_a_stable_sort_cut_to_the_limit(scores, limit):
    kept = BestBoards(limit)
    for arrival, score in enumerate(scores):
        kept.add(score, arrival)
    expected = sorted(range(len(scores)), key=lambda i: -scores[i])  # stable: earlier first among equals
    assert kept.items() == (expected if limit is None else expected[:limit])


@given(st.lists(st.dictionaries(st.sampled_from("ab"), st.integers()), max_size=4), st.booleans())
def test_streamed_json_reads_back_as_the_whole(items, with_head):
    data = {"id": 3, "nested": {"x": [1, 2]}} if with_head else {}
    out = io.StringIO()
    with redirect_stdout(out):
        print_json_streaming({**data, "listed": iter(items)}, "listed")
    assert json.loads(out.getvalue()) == {**data, "listed": items}


def test_a_serial_search_keeps_the_best_and_counts_every_saved_board():
    puzzle = load("owen1-6x6")
    every = make_solver("backtrack", node_limit=600_000, keep_boards=None, **OPTIONS).best(puzzle)
    best3 = make_solver("backtrack", node_limit=600_000, keep_boards=3, **OPTIONS).best(puzzle)
    assert len(every.boards) > 3 and every.statistics["boards_saved"] == len(every.boards)
    assert best3.statistics["boards_saved"] == len(every.boards) and best3.nodes == every.nodes
    assert _ranked(every.boards) == sorted(_ranked(every.boards), reverse=True)
    assert [b.tiles.tolist() for b in best3.boards] == [b.tiles.tolist() for b in every.boards[:3]]


def test_a_recorded_run_stores_every_board_and_holds_the_best(tmp_path, capsys):
    puzzle = load("owen1-6x6")
    store = RunStore(tmp_path / "runs.sqlite")
    engine = make_solver("backtrack", keep_boards=2, **OPTIONS)
    first = parallel_search("search", engine, puzzle, jobs=2, limits=Limits(nodes=2 * 200_000), store=store)
    run_id = first.statistics["run_id"]
    assert len(first.boards) <= 2
    _, again = resume_search(run_id, store, jobs=2, limits=Limits(nodes=6 * 200_000))
    saved = sum(n for s, n in again.statistics["boards_by_score"].items() if int(s) >= 54)
    assert again.statistics["boards_saved"] == saved > 2
    ledger = SubtreeLedger(store, run_id)
    stored = [score for score, _, _ in ledger.saved_boards()]
    assert ledger.saved_board_count() == len(stored) == saved and stored == sorted(stored, reverse=True)
    assert _ranked(again.boards) == stored[:2]
    store.close()
    db = str(tmp_path / "runs.sqlite")
    code, out, _ = run_cli(capsys, "runs", "--db", db, "--run", str(run_id), "--boards", "1")
    assert code == 0 and f"saved: {saved} boards; the best 1:" in out
    code, out, _ = run_cli(capsys, "runs", "--db", db, "--run", str(run_id), "--json")
    data = json.loads(out)
    assert data["saved_board_count"] == len(data["saved_boards"]) == saved
    assert [b["score"] for b in data["saved_boards"]] == stored and all(b["url"] for b in data["saved_boards"])
    code, out, _ = run_cli(capsys, "runs", "--db", db, "--run", str(run_id), "--json", "--boards", "2")
    assert [b["score"] for b in json.loads(out)["saved_boards"]] == stored[:2]


def test_boards_kept_in_subtree_rows_by_an_earlier_version_move_to_the_table(tmp_path):
    puzzle = load("owen1-6x6")
    store = RunStore(tmp_path / "runs.sqlite")
    result = parallel_search(
        "search", make_solver("backtrack", **OPTIONS), puzzle, jobs=1, limits=Limits(nodes=600_000), store=store
    )
    run_id = result.statistics["run_id"]
    before = list(SubtreeLedger(store, run_id).saved_boards())
    assert before
    by_key: dict = {}
    for _, key, packed in before:  # write them back as the earlier layout kept them
        board = Board.from_packed(puzzle, packed)
        by_key.setdefault(key, []).append([board.tiles.tolist(), board.rotations.tolist()])
    with store.transaction():
        store.conn.execute("DELETE FROM saved_boards WHERE run_id=?", (run_id,))
        for key, boards in by_key.items():
            store.conn.execute(
                "UPDATE subtrees SET boards=? WHERE run_id=? AND key=?", (json.dumps(boards), run_id, key)
            )
    after = list(SubtreeLedger(store, run_id).saved_boards())
    assert sorted(map(str, after)) == sorted(map(str, before))
    left = store.conn.execute("SELECT COUNT(*) FROM subtrees WHERE boards != '[]'").fetchone()[0]
    assert left == 0
    store.close()
    assert sqlite3.connect(tmp_path / "runs.sqlite").execute("SELECT COUNT(*) FROM saved_boards").fetchone()[0]


def test_the_search_command_says_how_many_boards_it_saved_and_kept(capsys):
    args = ["search", "owen1-6x6", "--schedule", "6", "--seed", "2", "--save-boards", "54", "--node-limit", "600000"]
    code, out, _ = run_cli(capsys, *args, "--jobs", "1", "--keep-boards", "2", "--restart-nodes", "200000")
    assert code == 0 and "complete boards saved (--save-boards 54), the best 2 kept (--keep-boards)" in out
    assert "the others were counted, not kept" in out
    code, out, err = run_cli(capsys, *args, "--keep-boards", "-1")
    assert code == 2 and "--keep-boards" in err and "Traceback" not in err
    code, _, err = run_cli(capsys, "runs", "--boards", "3")
    assert code == 2 and "--boards" in err and "needs --run" in err
    code, _, err = run_cli(capsys, "runs", "--run", "1", "--boards", "many")
    assert code == 2 and "'many' is not an integer" in err


@given(st.integers(0, 2**32 - 1))
def test_a_packed_board_reads_back_as_the_same_board(seed):
    rng = np.random.default_rng(seed)
    puzzle = load("owen1-6x6")
    tiles = rng.permutation(puzzle.n_tiles)
    tiles[rng.random(puzzle.n_squares) < 0.3] = -1  # some squares empty
    rotations = np.where(tiles >= 0, rng.integers(0, 4, puzzle.n_squares), 0)
    board = Board(puzzle, tiles, rotations)
    again = Board.from_packed(puzzle, board.packed())
    assert len(board.packed()) == 2 * puzzle.n_squares
    assert again.tiles.tolist() == board.tiles.tolist() and again.rotations.tolist() == board.rotations.tolist()


def test_a_worker_returns_at_least_a_task_worth_of_boards_for_the_run_store():
    from edgematch.parallel.job import TASK_BOARDS, Job, job_parts

    puzzle = load("owen1-6x6")
    for keep, expected in ((2, TASK_BOARDS), (TASK_BOARDS * 2, TASK_BOARDS * 2), (None, None)):
        job = Job.of("search", make_solver("backtrack", keep_boards=keep, **OPTIONS), puzzle)
        assert job_parts(job)[0].keep_boards == expected
    params = {k: v for k, v in job.params.items() if k != "keep_boards"}  # a run stored before the option
    old = Job("search", "backtrack", params, job.puzzle_text, job.puzzle_name)
    assert job_parts(old)[0].keep_boards == TASK_BOARDS


def test_a_recorded_search_says_where_its_boards_are(tmp_path, capsys, monkeypatch):
    from edgematch.parallel import job

    args = ["search", "owen1-6x6", "--schedule", "6", "--seed", "2", "--save-boards", "54", "--node-limit", "600000"]
    args += ["--restart-nodes", "200000", "--keep-boards", "2", "--jobs", "1"]
    code, out, _ = run_cli(capsys, *args, "--db", str(tmp_path / "all.sqlite"))
    assert code == 0 and "every one is in run 1 (edgematch runs --run 1 --json)" in out
    monkeypatch.setattr(job, "TASK_BOARDS", 3)  # the forked worker returns the best 3 of each task
    monkeypatch.setattr(job, "_CACHE", {})  # (the engine built with the bound before is not reused)
    code, out, _ = run_cli(capsys, *args, "--db", str(tmp_path / "capped.sqlite"), "--json", "--quiet")
    stats = json.loads(out)["statistics"]
    assert code == 0 and stats["boards_stored"] <= 3 * 3 < stats["boards_saved"]
    code, out, _ = run_cli(capsys, *args, "--db", str(tmp_path / "capped2.sqlite"))
    assert "run 1 stores the best" in out and "at most 3 a task" in out
