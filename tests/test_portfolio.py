"""optimize --jobs N: a portfolio of tabu searches sharing the best board, one durable run."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

from edgematch.engines.base import StopFlag
from edgematch.errors import InputError
from edgematch.formats import format_puzzle, parse_board
from edgematch.generator import generate
from edgematch.local import TabuParams, TabuVLNS
from edgematch.runs import RunStore
from edgematch.runs.optimize import optimize, resume
from edgematch.runs.portfolio import Member, Portfolio, SharedBest, member_seeds, pack_states, unpack_states
from support.cli import console_command
from support.cli import run_cli as cli

CLI = console_command()


@pytest.fixture(scope="module")
def planted():
    return generate(6, seed=11)


def test_member_seeds_keep_the_runs_seed_and_differ():
    seeds = member_seeds(7, 4)
    assert seeds[0] == 7 and len(set(seeds)) == 4
    assert member_seeds(7, 4) == seeds  # drawn from the run's seed: a resumed run gets the same


def test_shared_best_keeps_only_a_better_board(planted):
    import multiprocessing

    puzzle, solution = planted.puzzle, planted.solution
    shared = SharedBest(puzzle.n_squares, multiprocessing.get_context("fork"))
    assert shared.offer(10, solution.tiles, solution.rotations)
    assert not shared.offer(10, solution.tiles[::-1], solution.rotations)  # not better: kept out
    score, board = shared.board(puzzle)
    assert score == 10 and np.array_equal(board.tiles, solution.tiles)


def test_checkpoint_blob_holds_every_member():
    states = [b"first state", b"", b"third"]
    assert unpack_states(pack_states(states)) == states
    with pytest.raises(InputError, match="unreadable"):
        unpack_states(b"not a checkpoint")


def test_adopt_hook_begins_a_segment_on_the_given_board(planted):
    """A member that takes the shared board goes on from it: here the solution, so the
    search ends at once at the target, one segment later."""
    puzzle, solution = planted.puzzle, planted.solution
    given = []

    def adopt(state):
        if given:
            return None
        given.append(state.moves)
        return solution

    result = TabuVLNS(seed=1).optimize(puzzle, max_moves=10_000, adopt=adopt)
    assert given == [0]
    assert result.best_score == puzzle.max_score and result.stopped_by == "target"
    assert result.state.segment == 1 and result.moves < 10_000


def test_portfolio_is_one_recorded_run_with_every_member(tmp_path, planted):
    puzzle = planted.puzzle
    db = tmp_path / "runs.sqlite"
    result = optimize(puzzle, moves=3000, jobs=2, seed=5, db=db, start_method="random", target=puzzle.max_score - 6,
                      handle_signals=False)
    members = result.portfolio["members"]
    assert [m["seed"] for m in members] == member_seeds(5, 2)
    assert all(m["moves"] <= 3000 for m in members) and result.moves == sum(m["moves"] for m in members)
    assert result.best_score == result.best_board.score() == max(m["best_score"] for m in members)
    with RunStore(db) as store:
        assert [r.id for r in store.runs()] == [result.run_id]  # one run, not one per member
        record = store.run(result.run_id)
        assert record.info["portfolio"]["members"] == 2 and record.status == "finished"
        assert record.best_score == result.best_score
        saved = unpack_states(store.latest_checkpoint(result.run_id)["state"])
        assert len(saved) == 2
        best = store.best(result.run_id)
        assert parse_board(best["board"], puzzle, "<db>", "edgematch").score() == result.best_score


def test_a_lagging_member_takes_the_shared_best_board(tmp_path, planted):
    """Member 0 starts on the solution; member 1, from a random board, stalls below it and
    after ``share_after`` idle moves goes on from the solution (and so ends at the target)."""
    puzzle, solution = planted.puzzle, planted.solution
    with RunStore(tmp_path / "r.sqlite") as store:
        run_id = store.create_run(
            puzzle_name="planted", puzzle_text=format_puzzle(puzzle, "edgematch"), max_score=puzzle.max_score,
            method="tabu-vlns", params=TabuParams().to_dict(), seed=1, start="board", budget_seconds=None,
            max_moves=50_000, target=None, info={"portfolio": {"members": 2, "seeds": [1, 2], "share_after": 50}},
        )
        members = [Member(0, 1, start_board=solution, start_method="board"), Member(1, 2, start_method="random")]
        done = Portfolio(store, run_id, puzzle, TabuParams(), members, time_limit=None, moves=50_000, target=None,
                         restart_spec=None, share_after=50).run()
    first, second = done["members"]
    assert first["adopted"] == 0 and first["moves"] == 0 and first["stopped_by"] == "target"
    assert second["adopted"] == 1 == done["adoptions"]
    assert second["best_score"] == puzzle.max_score and second["stopped_by"] == "target" and second["moves"] < 50_000


def test_stopped_portfolio_resumes_every_member(tmp_path):
    # 12x12: the 6x6 of the other tests was once solved inside the 2 s before the stop (CI)
    puzzle = generate(12, seed=11).puzzle
    db = tmp_path / "runs.sqlite"
    stop = StopFlag()
    threading.Timer(2.0, stop.set).start()
    first = optimize(puzzle, time_limit=120, jobs=2, seed=9, db=db, start_method="random", stop=stop,
                     handle_signals=False)
    assert first.status == "interrupted" and first.stopped_by == "interrupted" and first.moves > 0
    with RunStore(db) as store:
        assert store.run(first.run_id).status == "interrupted"
        assert store.latest_checkpoint(first.run_id)["moves"] == first.moves  # checkpointed on the way out
    again = resume(first.run_id, db=db, time_limit=1.0, handle_signals=False)
    assert again.run_id == first.run_id and again.status == "finished"
    # the resumed second may solve the puzzle (seen in CI): then it stops on the target
    if again.stopped_by == "target":
        assert again.best_score == puzzle.max_score and again.seconds > first.seconds
    else:
        assert again.stopped_by == "time" and again.seconds >= first.seconds + 0.9
    assert again.moves > first.moves
    assert again.best_score >= first.best_score
    assert [m["seed"] for m in again.portfolio["members"]] == member_seeds(9, 2)


def test_front_door_runs_a_portfolio(tmp_path, planted):
    import edgematch

    result = edgematch.optimize(planted.puzzle, moves=500, jobs=2, share_after=100, seed=1, db=tmp_path / "r.sqlite",
                                start_method="random", handle_signals=False)
    assert len(result.portfolio["members"]) == 2 and result.best_score == result.best_board.score()


def test_portfolio_needs_the_run_store(planted):
    with pytest.raises(InputError, match="jobs"):
        optimize(planted.puzzle, moves=10, jobs=2, store=False)


def test_cli_portfolio_json_and_runs_listing(capsys, tmp_path, planted):
    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(planted.puzzle, "edgematch"))
    db = tmp_path / "r.sqlite"
    code, out, err = cli(capsys, "optimize", path, "--moves", "2000", "--jobs", "2", "--seed", "4", "--db", db,
                         "--start-method", "random", "--share-after", "500", "--json", "--quiet")
    assert code == 0, err
    report = json.loads(out)
    assert len(report["portfolio"]["members"]) == 2 and report["run_id"] == 1
    with RunStore(db) as store:
        assert store.run(1).info["portfolio"]["share_after"] == 500
    code, out, _ = cli(capsys, "runs", "--db", db)
    assert code == 0 and "4 x2" in out
    code, _, err = cli(capsys, "optimize", "--resume", "1", "--jobs", "3", "--db", db)
    assert code == 2 and "--jobs" in err and len(err.strip().splitlines()) == 1


def test_cli_bad_jobs_is_one_line(capsys, tmp_path):
    code, _, err = cli(capsys, "optimize", "owen1-4x4", "--moves", "10", "--jobs", "0", "--db", tmp_path / "r.sqlite")
    assert code == 2 and "--jobs" in err and len(err.strip().splitlines()) == 1


def test_sigkill_of_the_coordinator_then_resume(tmp_path):
    """Killed hard, the members leave too, and the run resumes from its last checkpoint."""
    db = tmp_path / "runs.sqlite"
    proc = subprocess.Popen([*CLI, "optimize", "owen1-7x7", "--seconds", "120", "--jobs", "2", "--db", str(db),
                             "--quiet", "--start-method", "random", "--checkpoint-every", "0.3", "--seed", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            with RunStore(db) as store:
                if store.runs() and (store.latest_checkpoint(1) or {}).get("moves", 0) > 0:
                    break
            time.sleep(0.2)
        else:
            raise AssertionError("no checkpoint with moves in time")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    with RunStore(db) as store:
        saved = store.latest_checkpoint(1)
        assert store.run(1).state_label == "killed" and len(unpack_states(saved["state"])) == 2
    time.sleep(1.5)  # each member checks for its coordinator twice a second
    members_gone = subprocess.run(["pgrep", "-f", f"--db {db}"], capture_output=True, text=True)
    assert members_gone.stdout.strip() == ""
    result = subprocess.run([*CLI, "optimize", "--resume", "1", "--seconds", "1", "--db", str(db), "--json", "--quiet"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["moves"] > saved["moves"] and report["status"] == "finished"
