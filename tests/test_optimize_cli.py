"""``edgematch optimize`` on the command line: the option vocabulary shared with the other
commands (--time-limit, --start BOARD, --start-method, --board-format) and its old spellings,
one-line refusals of impossible values, the move limit bounding the start phase, and
Ctrl-C / SIGTERM in the start phase and in the search (exit 130 / 143, run saved, outcome
printed)."""

from __future__ import annotations

import json
import signal

import pytest

import edgematch
from edgematch.formats import format_board, read_board
from edgematch.generator import generate
from edgematch.runs import RunStore
from edgematch.runs.optimize import START_NODES_PER_MOVE, plan_run
from support.cli import interrupt, run_cli, write_puzzle_file


@pytest.fixture(scope="module")
def made():
    return generate(5, 5, 2, 4, seed=6)


@pytest.fixture
def files(tmp_path, made):
    puzzle_file = write_puzzle_file(tmp_path, made.puzzle)
    solution = tmp_path / "planted.txt"
    solution.write_text(format_board(made.solution, "edgematch"))
    return puzzle_file, solution, tmp_path / "runs.sqlite"


def report(capsys, *argv):
    code, out, err = run_cli(capsys, "optimize", *argv, "--json", "--quiet")
    assert code == 0, err
    return json.loads(out)


# ----------------------------------------------------------------------------- one vocabulary
def test_time_limit_ends_the_run_and_counts_the_start(capsys, files):
    puzzle_file, _, db = files
    data = report(capsys, puzzle_file, "--time-limit", "0.5", "--start-method", "random", "--target", "0",
                  "--seed", 1, "--db", db)
    assert data["stopped_by"] == "target" and data["start"]["kind"] == "random"  # target 0: reached at once
    data = report(capsys, puzzle_file, "--time-limit", "0.6", "--start-method", "cp", "--seed", 1, "--db", db,
                  "--param", "plateau_length=0")
    with RunStore(db) as store:
        budget = store.run(data["run_id"]).budget_seconds
    # the start is given at most the run time (its own limit; what it took is wall-clock time)
    assert plan_run(edgematch.load(puzzle_file), time_limit=0.6, store=False).start_seconds <= 0.6
    assert budget == pytest.approx(max(0.6 - data["start"]["seconds"], 0.001), abs=2e-3)


def test_old_time_spellings_still_work(capsys, files):
    puzzle_file, _, db = files
    for argv in (["--seconds", "0.3"], ["--minutes", "0.005"]):
        data = report(capsys, puzzle_file, *argv, "--start-method", "random", "--db", db)
        assert data["stopped_by"] in ("time", "target")
    code, out, _ = run_cli(capsys, "optimize", "--help")
    assert code == 0
    for option in ("--time-limit", "--seconds", "--minutes", "--start-method", "--start-board", "--board-format",
                   "--out-format"):
        assert option in out
    assert " ".join(out.split()).count("old spelling, kept for one release") >= 4  # --seconds, --minutes, --start NAME, --out-format


def test_start_board_and_board_format(capsys, files, made):
    puzzle_file, solution, db = files
    et2 = solution.with_suffix(".et2")
    et2.write_text(format_board(made.solution, "et2"))
    out = files[2].parent / "best.out"
    data = report(capsys, puzzle_file, "--moves", 50, "--start", et2, "--board-format", "et2", "--out", out,
                  "--db", db)
    assert data["start"]["kind"] == "board" and data["start"]["board"] == str(et2)
    assert data["best_score"] == made.puzzle.max_score and data["stopped_by"] == "target"
    assert read_board(out, made.puzzle, "et2").verify().valid  # --board-format is --out's format too
    same = report(capsys, puzzle_file, "--moves", 50, "--start-board", solution, "--db", db)  # the alias
    assert same["start"]["board"] == str(solution) and same["best_score"] == made.puzzle.max_score
    old = report(capsys, puzzle_file, "--moves", 50, "--start-board", solution, "--out", out, "--out-format",
                 "et2", "--db", db)
    assert old["best_score"] == read_board(out, made.puzzle, "et2").score()


@pytest.mark.parametrize("argv, kind", [(["--start-method", "backtrack"], "backtrack"),
                                        (["--start", "random"], "random"),  # old spelling of --start-method
                                        (["--start", "cp", "--relax", "2"], "cp")])
def test_start_method_and_its_old_spelling(capsys, files, argv, kind):
    puzzle_file, _, db = files
    data = report(capsys, puzzle_file, "--moves", 100, "--seed", 2, *argv, "--db", db)
    assert data["start"]["kind"] == kind


def test_a_move_limit_bounds_the_start_phase(capsys, tmp_path):
    """owen2-9x9 with --moves 10 used to spend 30 s building its cp start: the start now stops
    after 20 nodes per move of the limit, and a seeded run limited by moves is reproducible."""
    db = tmp_path / "runs.sqlite"
    first = report(capsys, "owen2-9x9", "--moves", 10, "--seed", 4, "--db", db)
    assert first["start"]["kind"] == "cp" and first["start"]["status"] == "nodes"
    assert first["start"]["nodes"] <= 10 * START_NODES_PER_MOVE
    again = report(capsys, "owen2-9x9", "--moves", 10, "--seed", 4, "--db", db)
    assert (again["best_score"], again["url"]) == (first["best_score"], first["url"])


@pytest.mark.parametrize("argv, message", [
    (["--seconds", "nan"], "argument --seconds"),
    (["--time-limit", "nan"], "argument --time-limit"),
    (["--time-limit", "inf"], "argument --time-limit"),
    (["--time-limit", "-1"], "argument --time-limit"),
    (["--minutes", "nan"], "argument --minutes"),
    (["--time-limit", "0"], "--time-limit: must be more than 0"),
    (["--moves", "10", "--target", "999"], "--target: 999 is above the puzzle's maximum score 60"),
    (["--moves", "10", "--set-size", "1000"], "--set-size: 1000 holes"),
    (["--moves", "10", "--set-size-max", "1000"], "--set-size-max: 1000 holes"),
    (["--moves", "10", "--relax", "1000"], "--relax: 1000 squares cannot be relaxed"),
    (["--moves", "10", "--restart-after", "-1"], "--restart-after"),
    (["--moves", "10", "--param", "restart_after=-5"], "--param restart_after"),
    (["--moves", "10", "--checkpoint-every", "0"], "--checkpoint-every"),
    (["--moves", "10", "--start-seconds", "nan"], "argument --start-seconds"),
    (["--moves", "10", "--seed", "-1"], "--seed"),
    (["--moves", "10", "--start", "nowhere.txt"], "nowhere.txt"),
    (["--moves", "10", "--start", "cp", "--start-method", "random"], "disagree"),
    (["--moves", "10", "--start", "x", "--start-board", "y"], "give one"),
    (["--moves", "10", "--board-format", "nope"], "--board-format"),
    (["--moves", "10", "--out", "x.txt", "--out-format", "nope"], "--out-format"),
    (["--moves", "10", "--db", "{tmp}/no/such/folder/runs.sqlite"], "--db"),
    (["--moves", "10", "--start-method", "random", "--relax", "3"],
     "--relax belongs to the cp start method; the random start method does not use it"),
    (["--moves", "10", "--schedule", "2"], "--schedule belongs to the backtrack start method; the cp start"),
])
def test_impossible_values_are_refused_in_one_line(capsys, tmp_path, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "--db" not in argv:
        argv += ["--db", str(tmp_path / "r.sqlite")]
    code, out, err = run_cli(capsys, "optimize", "owen1-6x6", *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert not (tmp_path / "no").exists()  # the missing folder is not created


def test_resume_takes_a_time_limit_only(capsys, files):
    puzzle_file, _, db = files
    data = report(capsys, puzzle_file, "--time-limit", "0.4", "--start-method", "random", "--seed", 5, "--db", db)
    resumed = report(capsys, "--resume", data["run_id"], "--time-limit", "0.3", "--db", db)
    assert resumed["run_id"] == data["run_id"] and resumed["moves"] >= data["moves"]
    code, _, err = run_cli(capsys, "optimize", "--resume", data["run_id"], "--moves", 5, "--db", db)
    assert code == 2 and "give no puzzle" in err


# ----------------------------------------------------------------------------- signals
def _saved(db, data):
    with RunStore(db) as store:
        record = store.run(data["run_id"])
        checkpoint = store.latest_checkpoint(data["run_id"])
        best = store.best(data["run_id"])
    return record, checkpoint, best


@pytest.mark.parametrize("method, ignore_sigint", [("cp", False), ("backtrack", False),
                                                   ("cp", True)])  # True: started as a shell's background job
def test_ctrl_c_in_the_start_phase_saves_the_run(tmp_path, method, ignore_sigint):
    db = tmp_path / "runs.sqlite"
    code, out, err = interrupt(["optimize", "e2", "--time-limit", "300", "--start-method", method, "--start-seconds",
                                "60", "--seed", "3", "--db", db, "--json", "--quiet"], after_cpu_seconds=2.0,
                               ignore_sigint=ignore_sigint)
    assert code == 130, err
    data = json.loads(out)
    assert data["start"]["kind"] == method and data["start"]["status"] == "interrupted"
    assert data["moves"] == 0 and data["stopped_by"] == "interrupted" and data["status"] == "interrupted"
    record, checkpoint, best = _saved(db, data)
    assert record.status == "interrupted" and checkpoint is not None and best["score"] == data["best_score"]
    assert "--resume" in err and len(err.strip().splitlines()) == 1


def test_sigterm_in_the_search_saves_the_run(tmp_path):
    db = tmp_path / "runs.sqlite"
    code, out, err = interrupt(["optimize", "e2", "--time-limit", "300", "--start-method", "random", "--seed", "3",
                                "--db", db, "--json", "--quiet", "--checkpoint-every", "1000"],
                               signal_number=signal.SIGTERM, after_cpu_seconds=4.0)
    assert code == 143, err
    data = json.loads(out)
    assert data["moves"] > 0 and data["stopped_by"] == "interrupted" and data["signal"] == signal.SIGTERM
    record, checkpoint, _ = _saved(db, data)
    assert record.status == "interrupted" and checkpoint["moves"] == data["moves"]  # checkpointed where it stopped
