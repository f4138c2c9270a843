"""``edgematch.optimize``: the run of ``edgematch optimize`` as one Python call (the command
line only parses and prints what it returns), the tabu search's use of the shared Limits and
StopFlag, and the run store's refusal of a missing folder."""

from __future__ import annotations

import json

import pytest

import edgematch
from edgematch import InputError, Limits, StopFlag
from edgematch.generator import generate
from edgematch.local import TabuVLNS
from edgematch.runs import RunStore
from edgematch.runs.optimize import default_start_seconds, plan_run, resume
from support.cli import run_cli


@pytest.fixture(scope="module")
def made():
    return generate(5, 5, 2, 4, seed=6)


def test_optimize_returns_plain_results_and_records_the_run(tmp_path):
    db = tmp_path / "runs.sqlite"
    run = edgematch.optimize("owen1-6x6", moves=2000, seed=1, db=db)
    assert run.moves == 2000 and run.stopped_by == "moves" and run.status == "finished" and run.seed == 1
    assert run.best_board.score() == run.best_score <= run.max_score == 60
    assert run.start["kind"] == "cp" and run.seconds >= run.search_seconds
    with RunStore(db) as store:
        record = store.run(run.run_id)
        assert (record.seed, record.max_moves, record.best_score) == (1, 2000, run.best_score)
    assert set(run.to_dict()) >= {"run_id", "best_score", "max_score", "moves", "seed", "stopped_by", "start", "url"}


def test_the_command_line_makes_the_same_run(capsys, tmp_path):
    """A seeded run limited by moves is reproducible (its start is bounded by nodes too), so
    the command line and the Python call must reach the very same board."""
    api = edgematch.optimize("owen1-6x6", moves=1500, seed=7, store=False, set_size=4)
    assert api.run_id is None
    code, out, err = run_cli(capsys, "optimize", "owen1-6x6", "--moves", 1500, "--seed", 7, "--set-size", 4,
                             "--db", tmp_path / "r.sqlite", "--json", "--quiet")
    assert code == 0, err
    cli = json.loads(out)
    assert (cli["best_score"], cli["url"], cli["start"]["nodes"]) == (api.best_score, api.url, api.start["nodes"])


def test_a_start_board_a_target_and_limits(made):
    run = edgematch.optimize(made.puzzle, start=made.solution, limits=Limits(time=5), store=False)
    assert run.stopped_by == "target" and run.best_score == made.puzzle.max_score and run.start["kind"] == "board"
    timed = edgematch.optimize(made.puzzle, time_limit=0.3, start_method="random", target=made.puzzle.max_score,
                               store=False, seed=2, plateau_length=0)
    assert timed.stopped_by in ("time", "target")


@pytest.mark.parametrize("kwargs, message", [
    (dict(time_limit=float("nan")), "time_limit: the time limit must be a finite number"),
    (dict(time_limit=-1), "time_limit"),
    (dict(time_limit=0), "time_limit: must be more than 0 seconds"),
    (dict(limits=Limits(nodes=10)), "counts moves, not nodes"),
    (dict(), "give a run time"),
    (dict(moves=0), "moves: must be a whole number >= 1"),
    (dict(moves=10, target=61), "target: 61 is above the puzzle's maximum score 60"),
    (dict(moves=10, set_size=1000), "set_size: 1000 holes"),
    (dict(moves=10, relax=19), "relax: 19 squares cannot be relaxed"),
    (dict(moves=10, restart_after=-1), "restart_after"),
    (dict(moves=10, nonsense=1), "unknown tabu parameter"),
    (dict(moves=10, start_method="magic"), "start_method: unknown start method"),
    (dict(moves=10, start_seconds=float("inf")), "start_seconds"),
    (dict(moves=10, seed=-1), "seed"),
])
def test_impossible_values_name_the_parameter(tmp_path, kwargs, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        edgematch.optimize("owen1-6x6", db=tmp_path / "r.sqlite", **kwargs)


def test_a_missing_database_folder_is_refused_not_created(tmp_path):
    missing = tmp_path / "no" / "such" / "runs.sqlite"
    with pytest.raises(InputError, match="no folder"):
        RunStore(missing)
    with pytest.raises(InputError, match="db: .*no folder"):
        edgematch.optimize("owen1-6x6", moves=10, db=missing)
    assert not (tmp_path / "no").exists()


def test_a_stopped_run_is_recorded_and_resumes(tmp_path):
    """A stop requested before the first move (Ctrl-C in the start phase) records the run with
    its start board and a checkpoint; resume continues it."""
    db = tmp_path / "runs.sqlite"
    stop = StopFlag()
    stop.set()
    run = edgematch.optimize("owen1-6x6", time_limit=30, start_method="random", seed=3, db=db, stop=stop,
                             handle_signals=False)
    assert run.stopped_by == "interrupted" and run.status == "interrupted" and run.moves == 0
    with RunStore(db) as store:
        assert store.run(run.run_id).status == "interrupted" and store.latest_checkpoint(run.run_id) is not None
    more = resume(run.run_id, db=db, time_limit=0.3, handle_signals=False)
    assert more.run_id == run.run_id and more.moves > 0 and more.status == "finished"


def test_start_time_defaults():
    assert default_start_seconds(None) == 30 and default_start_seconds(3600) == 30
    assert default_start_seconds(60) == 6 and default_start_seconds(5) == 1 and default_start_seconds(0.5) == 0.5
    plan = plan_run(edgematch.load("owen1-6x6"), moves=100, store=False)
    assert plan.start_nodes == 2000 and plan.seed >= 0  # a fresh seed, drawn and kept
    spec = plan.restart_spec()
    assert spec["kind"] == "cp" and spec["time_limit"] == 10 and spec["node_limit"] == 666


def test_tabu_search_takes_limits_and_a_stop_flag(made):
    search = TabuVLNS(seed=1, plateau_length=0)
    assert search.optimize(made.puzzle, limits=Limits(time=0.2), target=made.puzzle.max_score + 1).stopped_by == "time"
    for bad in (dict(time_limit=float("nan")), dict(limits=Limits(nodes=5)), dict(max_moves=-1)):
        with pytest.raises(InputError):
            search.optimize(made.puzzle, **bad)
    stop = StopFlag()
    stop.set()
    stopped = search.optimize(made.puzzle, max_moves=1000, stop=stop)
    assert stopped.stopped_by == "interrupted" and stopped.moves == 0
