"""``edgematch count`` and ``solve`` with ``--solver colorpair``: every switch reaches the
engine, the statistics of issue 4 are in the JSON, counts equal the backtracker's."""

from __future__ import annotations

import json

import pytest

from edgematch.formats import format_puzzle
from edgematch.generator import generate
from support.cli import run_cli, small_puzzle, write_small_puzzle
from support.reference import reference_solutions


@pytest.fixture
def puzzle_file(tmp_path):
    return write_small_puzzle(tmp_path)


@pytest.fixture(scope="module")
def small_count():
    """Solutions of the small puzzle by the brute-force reference (320)."""
    return len(reference_solutions(small_puzzle()))


def _count(capsys, puzzle_file, *options):
    code, out, err = run_cli(capsys, "count", puzzle_file, "--json", "--quiet", *options)
    assert code == 0, err
    return json.loads(out)


def test_count_json_has_the_statistics(capsys, puzzle_file):
    backtrack = _count(capsys, puzzle_file)
    data = _count(capsys, puzzle_file, "--solver", "colorpair")
    assert data["solver"] == "colorpair" and data["complete"] is True
    # the backtracker and the brute-force reference agree (320 solutions)
    assert data["solutions"] == backtrack["solutions"] == len(reference_solutions(small_puzzle()))
    assert sum(data["nodes_per_depth"]) == data["nodes"]
    stats = data["statistics"]
    for key in ("nodes", "backjumps", "levels_skipped", "probes", "fail_pair", "fail_instantiation",
                "fail_shared_edges", "fail_cycle", "fail_empty_square", "shaving_failures", "preemptions",
                "preempted_tiles", "options", "nodes_are"):
        assert key in stats, key
    assert data["seconds"] > 0
    assert stats["options"]["heuristic"] == "min-expected-gap"


@pytest.mark.parametrize("options,expected", [
    (["--no-preemption"], {"preemption": False}),
    (["--no-backjumping"], {"backjumping": False}),
    (["--no-shared-edges", "--no-cycles"], {"shared_edges": False, "cycles": False}),
    (["--no-opposite-pairs", "--no-patterns"], {"opposite_pairs": False, "patterns": False}),
    (["--no-contradiction", "--no-instantiation"], {"contradiction": False, "instantiation": False}),
    (["--shaving", "all", "--shaving-passes", "one"], {"shaving": "all", "shaving_passes": "one"}),
    (["--shaving", "2"], {"shaving": "2"}),
    (["--shaving", "-"], {"shaving": "-"}),
    (["--heuristic", "min-offer"], {"heuristic": "min-offer"}),
    (["--heuristic", "min-expected-offer"], {"heuristic": "min-expected-offer"}),
    (["--heuristic", "min-expected-ratio"], {"heuristic": "min-expected-ratio"}),
    (["--heuristic", "max-expected-filtering", "--value-order", "probability"],
     {"heuristic": "max-expected-filtering", "value_order": "probability"}),
])
def test_each_switch_reaches_the_engine(capsys, puzzle_file, options, expected, small_count):
    data = _count(capsys, puzzle_file, "--solver", "colorpair", *options)
    assert data["solutions"] == small_count and data["complete"]
    for key, value in expected.items():
        assert data["statistics"]["options"][key] == value
    if "--no-backjumping" in options:
        assert data["statistics"]["backjumps"] == 0
    if "--no-preemption" in options:
        assert data["statistics"]["preemptions"] == 0
    if "all" in options:
        assert data["statistics"]["probes"] > 0


def test_count_text_and_start_board(capsys, tmp_path):
    made = generate(4, 4, 2, 3, seed=11)
    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(made.puzzle, "edgematch"))
    code, out, _ = run_cli(capsys, "count", path, "--solver", "colorpair", "--quiet")
    assert code == 0 and "solution" in out and "nodes" in out
    total = int(out.split()[0].replace(",", ""))
    # a start board: the planted solution's first row; its count is part of the total
    from edgematch.formats import format_board
    from edgematch.model import Board

    start = Board(made.puzzle)
    for square in range(4):
        start.place(square, int(made.solution.tiles[square]), int(made.solution.rotations[square]))
    board_path = tmp_path / "start.txt"
    board_path.write_text(format_board(start, "edgematch"))
    sub = _count(capsys, path, "--solver", "colorpair", "--start", board_path)
    bt = _count(capsys, path, "--start", board_path)
    assert 1 <= sub["solutions"] == bt["solutions"] <= total


def test_solve_writes_a_verified_board(capsys, tmp_path, puzzle_file):
    out_path = tmp_path / "solution.txt"
    code, out, err = run_cli(capsys, "solve", puzzle_file, "--solver", "colorpair", "--shaving", "all",
                             "--no-backjumping", "--quiet", "--out", out_path)
    assert code == 0, err
    code, out, err = run_cli(capsys, "verify", puzzle_file, out_path)
    assert code == 0, out + err


def test_limits_and_incomplete(capsys):
    data = json.loads(run_cli(capsys, "count", "benoist/E_10_16", "--solver", "colorpair", "--node-limit", "2000",
                              "--json", "--quiet")[1])
    assert data["complete"] is False and data["stopped_by"] == "nodes"


@pytest.mark.parametrize("argv,needle", [
    (["--solver", "colorpair", "--order", "spiral-in"], "--order"),
    (["--solver", "colorpair", "--symmetry"], "--symmetry"),
    (["--solver", "colorpair", "--shaving", "lots"], "shaving"),
])
def test_bad_options_are_one_line_exit_2(capsys, puzzle_file, argv, needle):
    code, out, err = run_cli(capsys, "count", puzzle_file, *argv)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1
