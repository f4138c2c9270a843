"""``edgematch count``, ``solve`` and ``search``: the interface scripts rely on."""

from __future__ import annotations

import json
import re
import signal

import pytest

import edgematch
from edgematch.formats import format_puzzle
from edgematch.generator import generate
from support.cli import interrupt, run_cli, small_puzzle, write_small_puzzle
from support.reference import reference_solutions, reference_solve


@pytest.fixture
def puzzle_file(tmp_path):
    return write_small_puzzle(tmp_path)


def test_count_json_has_the_promised_keys(capsys, puzzle_file):
    code, out, err = run_cli(capsys, "count", puzzle_file, "--json", "--solver", "backtrack", "--order", "spiral-in")
    data = json.loads(out)
    assert code == 0
    for key in ("solutions", "nodes", "seconds", "complete", "nodes_per_depth", "nodes_per_second"):
        assert key in data
    # the brute-force reference counts the same puzzle by the rules alone (320 solutions)
    assert data["solutions"] == len(reference_solutions(small_puzzle())) and data["complete"] is True
    assert sum(data["nodes_per_depth"]) == data["nodes"]


def test_count_reports_incomplete_under_a_limit(capsys):
    code, out, _ = run_cli(capsys, "count", "owen1-6x6", "--node-limit", "5000", "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] is False and data["stopped_by"] == "nodes" and data["nodes"] == 5000


def test_count_symmetry_text(capsys):
    code, out, _ = run_cli(capsys, "count", "owen2-6x6", "--symmetry")
    assert code == 0 and out.startswith("40 solutions up to board rotation")


def test_solve_writes_files_that_verify_reads(capsys, tmp_path, puzzle_file):
    one = tmp_path / "one.txt"
    code, out, _ = run_cli(capsys, "solve", puzzle_file, "--out", one)
    assert code == 0 and one.exists()
    assert run_cli(capsys, "verify", puzzle_file, one)[0] == 0
    code, out, _ = run_cli(capsys, "solve", puzzle_file, "-k", 3, "--out", tmp_path / "many.txt", "--json")
    data = json.loads(out)
    assert code == 0 and data["solutions"] == 3 and len(data["files"]) == 3
    for name in data["files"]:
        assert name.endswith(("_0001.txt", "_0002.txt", "_0003.txt"))
        assert run_cli(capsys, "verify", puzzle_file, name)[0] == 0


def test_solve_all_in_another_board_format(capsys, tmp_path):
    made = generate(4, 4, 2, 4, seed=1)
    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(made.puzzle, "edgematch"))
    code, out, _ = run_cli(capsys, "solve", path, "--all", "--out", tmp_path / "all" / "s.txt", "--json")
    assert code == 2  # folder missing: a bad-input error
    (tmp_path / "all").mkdir()
    code, out, _ = run_cli(capsys, "solve", path, "--all", "--out", tmp_path / "all" / "s.txt", "--board-format", "owen-solution", "--json")
    data = json.loads(out)
    reference = reference_solutions(made.puzzle)  # brute force, by the rules alone
    assert code == 0 and data["complete"] and len(data["files"]) == data["solutions"] == len(reference)
    assert run_cli(capsys, "verify", path, data["files"][-1], "--board-format", "owen-solution")[0] == 0


def test_solve_without_solution_exits_1(capsys, tmp_path):
    made = generate(3, 3, 2, 2, seed=0)
    import numpy as np

    tiles = np.array(made.puzzle.tiles)
    inner = [i for i, t in enumerate(tiles) if (t == 0).sum() == 0][0]
    tiles[inner] = [9, 9, 9, 9]  # a colour no neighbour has
    from edgematch.model import Puzzle

    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(Puzzle(tiles, 3, 3), "edgematch"))
    code, out, err = run_cli(capsys, "solve", path, "--json", "--out", tmp_path / "none.txt")
    data = json.loads(out)
    assert code == 1 and data["solutions"] == 0 and data["complete"] is True and data["files"] == []
    assert not (tmp_path / "none.txt").exists()


def test_search_writes_the_best_board(capsys, tmp_path, puzzle_file):
    out_file = tmp_path / "best.txt"
    code, out, _ = run_cli(capsys, "search", puzzle_file, "--schedule", "5:1", "--out", out_file, "--json")
    data = json.loads(out)
    assert code == 0 and data["best_score"] == data["max_score"] == 24
    assert run_cli(capsys, "verify", puzzle_file, out_file)[0] == 0


def test_search_says_when_it_first_reached_its_best_scores(capsys, puzzle_file):
    code, out, _ = run_cli(capsys, "search", puzzle_file, "--schedule", "5:1", "--json")
    data = json.loads(out)
    reached = data["statistics"]["best_score_at"]
    assert code == 0 and max(map(int, reached)) == data["best_score"] and str(data["deepest"]) in data["statistics"]["deepest_at"]
    code, out, _ = run_cli(capsys, "search", puzzle_file, "--schedule", "5:1")
    line = next(x for x in out.splitlines() if x.startswith("best score first reached at: "))
    assert code == 0 and re.search(rf"\b{data['best_score']} \([0-9.e-]+ s\)$", line.rstrip())


def test_search_time_limit_and_fill(capsys, tmp_path):
    out_file = tmp_path / "best.txt"
    code, out, _ = run_cli(capsys, "search", "owen1-8x8", "--schedule", "breaks:40,50,55", "--time-limit", "0.5",
                           "--out", out_file, "--json", "--seed", "1")
    data = json.loads(out)
    assert code == 0 and data["stopped_by"] in ("time", "target") and data["written_score"] >= data["best_score"]
    assert run_cli(capsys, "score", "owen1-8x8", out_file, "--json")[0] == 0


def test_search_with_blackwoods_method(capsys, tmp_path):
    """His order, break indexes, pattern bound and sorted lists, on e2 for a few nodes."""
    out_file = tmp_path / "best.txt"
    code, out, _ = run_cli(capsys, "search", "e2", "--order", "blackwood", "--schedule", "blackwood",
                           "--priority-colours", "20,5,7", "--priority-schedule", "blackwood", "--priority-first",
                           "--seed", "1", "--node-limit", "3000000", "--jobs", "1", "--out", out_file, "--json")
    data = json.loads(out)
    assert code == 0 and data["statistics"]["priority_first"] is True and data["statistics"]["order"] == "blackwood"
    assert data["best_score"] > 100 and data["statistics"]["priority_colours"] == [20, 5, 7]
    assert run_cli(capsys, "score", "e2", out_file, "--json")[0] == 0


@pytest.mark.parametrize("argv,needle", [
    (["count", "owen1-4x4", "--order", "zigzag"], "neither a scan order"),
    (["search", "owen1-4x4", "--schedule", "sometimes"], "schedule"),
    (["count", "owen1-4x4", "--frobnicate"], "unrecognized arguments"),
    (["count", "owen1-4x4", "--solver", "nope"], "invalid choice"),
    (["search", "owen1-4x4", "--priority-schedule", "3"], "needs --priority-colours"),
    (["search", "owen1-4x4", "--priority-first"], "--priority-first needs --priority-colours"),
    (["search", "owen1-4x4", "--schedule", "blackwood"], "16x16"),
    (["count", "e2", "--kernel", "bits"], "--kernel lists"),
    (["count", "owen1-4x4", "--kernel", "bits", "--solver", "cpsat"], "--kernel"),
])
def test_bad_options_are_one_line_exit_2(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_bad_order_file_names_the_line(capsys, tmp_path):
    order = tmp_path / "order.txt"
    order.write_text("A1 A2\nA3 Q9\n")
    code, out, err = run_cli(capsys, "count", "owen1-4x4", "--order", order)
    assert code == 2 and f"{order}:2:" in err


@pytest.mark.parametrize("ignore_sigint", [False, True], ids=["foreground", "background-job"])
def test_ctrl_c_prints_statistics_and_exits_130(ignore_sigint):
    """The installed command, interrupted with SIGINT mid-search, prints the JSON so far and
    exits 130, also when started with SIGINT ignored as a shell starts a background job
    (the search installs its own handler)."""
    code, out, err = interrupt(["count", "owen1-7x7", "--json"], ignore_sigint=ignore_sigint,
                               after_cpu_seconds=3.0)
    assert code == 130, err
    data = json.loads(out)
    assert data["complete"] is False and data["stopped_by"] == "interrupted" and data["nodes"] > 0


def test_count_start_board_counts_the_subtree(capsys, tmp_path):
    import edgematch
    from edgematch.engines.backtrack import BacktrackSolver
    from edgematch.formats import format_board

    puzzle = edgematch.load("owen1-5x5")
    prefixes, head = BacktrackSolver().split(puzzle, 3)
    parts = []
    for i, prefix in enumerate(prefixes):
        path = tmp_path / f"prefix{i}.txt"
        path.write_text(format_board(prefix, "edgematch"))
        code, out, _ = run_cli(capsys, "count", "owen1-5x5", "--start", path, "--json")
        data = json.loads(out)
        assert code == 0 and data["complete"]
        parts.append((data["solutions"], data["nodes"]))
    # the subtrees partition the whole tree: the reference brute force (same row scan,
    # same node convention) gives the totals
    reference = reference_solve(puzzle)
    assert sum(s for s, _ in parts) == len(reference.solutions) == 16
    assert head.nodes + sum(n for _, n in parts) == sum(reference.nodes)


@pytest.mark.parametrize("kernel", ["lists", "bits"])
def test_count_kernel_option_reports_the_kernel_and_the_same_tree(capsys, kernel):
    code, out, _ = run_cli(capsys, "count", "owen1-5x5", "--kernel", kernel, "--json")
    data = json.loads(out)
    assert code == 0 and data["statistics"]["kernel"] == kernel
    # Owen's set 1 5x5: the brute-force reference, same row scan and node convention
    reference = reference_solve(edgematch.load("owen1-5x5"))
    assert (data["solutions"], data["nodes"]) == (len(reference.solutions), sum(reference.nodes)) == (16, 113_211)


def test_sigterm_prints_statistics_and_exits_143():
    """SIGTERM stops the search after its current slice like Ctrl-C; the shell's code 143."""
    code, out, err = interrupt(["count", "owen1-7x7", "--json"], signal_number=signal.SIGTERM,
                               after_cpu_seconds=3.0)
    assert code == 143, err
    data = json.loads(out)
    assert data["stopped_by"] == "interrupted" and data["statistics"]["signal"] == signal.SIGTERM


def test_every_solver_takes_a_start_board(capsys, tmp_path):
    """The contract: `--start` on every solver counts the subtree below the board (the
    backtracker's count of it is the reference); a board that breaks a join is refused in
    one line."""
    from edgematch.engines.backtrack import BacktrackSolver
    from edgematch.formats import format_board

    puzzle = edgematch.load("owen1-4x4")
    prefixes, _ = BacktrackSolver().split(puzzle, 2)
    path = tmp_path / "start.txt"
    path.write_text(format_board(prefixes[0], "edgematch"))
    expected = BacktrackSolver().count(puzzle, start=prefixes[0]).solutions
    for solver in ("cpsat", "macro", "colorpair"):
        code, out, err = run_cli(capsys, "count", "owen1-4x4", "--solver", solver, "--start", path, "--json")
        assert code == 0, err
        assert json.loads(out)["solutions"] == expected, solver
    broken = prefixes[0].copy()
    broken.rotations[1] = (broken.rotations[1] + 1) % 4
    path.write_text(format_board(broken, "edgematch"))
    for solver in ("backtrack", "cpsat", "macro", "colorpair"):
        code, out, err = run_cli(capsys, "count", "owen1-4x4", "--solver", solver, "--start", path)
        assert code == 2 and len(err.strip().splitlines()) == 1 and "the start board" in err, solver
