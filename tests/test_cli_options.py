"""Options of count, solve, search, show and generate as a new user tries them: one
vocabulary (``--start BOARD``, ``--board-format``), clean output, every refusal in one line."""

from __future__ import annotations

import json

import edgematch
from edgematch.formats import format_board
from edgematch.formats.registry import parse_board
from support.cli import run_cli


def test_solve_json_on_standard_output_keeps_the_boards_inside_the_json(capsys):
    """`solve -k 2 --json` without --out used to print boards and then JSON on stdout."""
    code, out, _ = run_cli(capsys, "solve", "owen1-4x4", "-k", "2", "--json")
    data = json.loads(out)  # one JSON document, nothing else
    puzzle = edgematch.load("owen1-4x4")
    assert code == 0 and data["solutions"] == 2 and data["board_format"] == "edgematch"
    boards = [parse_board(text, puzzle, fmt="edgematch") for text in data["boards"]]
    assert len(boards) == 2 and all(b.verify().valid for b in boards) and boards[0] != boards[1]


def test_solve_out_folder_writes_files_named_after_the_puzzle_inside_it(capsys, tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    code, _, _ = run_cli(capsys, "solve", "owen1-4x4", "-k", "3", "--out", f"{folder}/")
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == [f"owen1-4x4_000{i}.emb" for i in (1, 2, 3)]
    assert not list(tmp_path.glob("adir_*"))  # nothing beside the folder
    code, _, _ = run_cli(capsys, "solve", "owen1-4x4", "--out", folder)  # an existing folder, no slash, -k 1
    assert code == 0 and (folder / "owen1-4x4.emb").exists()
    code, _, err = run_cli(capsys, "solve", "owen1-4x4", "--out", f"{tmp_path / 'missing'}/")
    assert code == 2 and err.strip().endswith("the output folder does not exist") and len(err.strip().splitlines()) == 1


def test_solve_documents_and_returns_exit_status_1_when_a_limit_stops_it_first(capsys):
    code, out, _ = run_cli(capsys, "solve", "owen1-5x5", "--node-limit", "10", "--json")
    assert code == 1 and json.loads(out)["stopped_by"] == "nodes"
    code, out, _ = run_cli(capsys, "solve", "--help")
    assert "exit status: 0 when at least one solution was written; 1 when none was" in out


def test_node_limit_takes_float_notation_and_refuses_what_is_not_a_count(capsys):
    code, out, _ = run_cli(capsys, "solve", "owen1-5x5", "--node-limit", "1e1", "--json")
    assert code == 1 and json.loads(out)["nodes"] == 10
    for value in ("-5", "2.5", "nan", "inf", "many"):
        code, _, err = run_cli(capsys, "count", "owen1-4x4", "--node-limit", value)
        assert code == 2 and "--node-limit" in err and f"'{value}'" in err and len(err.strip().splitlines()) == 1, value


def test_search_offers_only_the_backtracker_and_none_of_the_colorpair_switches(capsys):
    code, out, _ = run_cli(capsys, "search", "--help")
    assert code == 0 and "{backtrack}" in out
    assert "--shaving" not in out and "--no-backjumping" not in out and "colorpair" not in out
    code, _, err = run_cli(capsys, "search", "owen1-4x4", "--solver", "colorpair")
    assert code == 2 and "invalid choice" in err


def test_search_starts_from_a_board(capsys, tmp_path):
    """`--start BOARD` means the same partial board on count, solve and search."""
    from edgematch.engines.backtrack import BacktrackSolver

    puzzle = edgematch.load("owen1-5x5")
    prefixes, _ = BacktrackSolver().split(puzzle, 3)
    path = tmp_path / "start.txt"
    path.write_text(format_board(prefixes[0], "edgematch"))
    code, out, _ = run_cli(capsys, "search", "owen1-5x5", "--start", path, "--json", "--no-fill")
    data = json.loads(out)
    expected = BacktrackSolver().best(puzzle, start=prefixes[0])
    assert code == 0 and data["best_score"] == expected.best_score and data["nodes"] == expected.nodes


def test_a_start_board_of_unknown_kind_names_the_board_format_option(capsys, tmp_path):
    garbage = tmp_path / "g.txt"
    garbage.write_text("garbage\n")
    for command in ("count", "solve", "search"):
        code, _, err = run_cli(capsys, command, "owen1-4x4", "--start", garbage)
        assert code == 2 and "give --board-format" in err and str(garbage) in err
    code, _, err = run_cli(capsys, "count", "owen1-4x4", "--start", garbage, "--board-format", "bogus")
    assert code == 2 and "--board-format: unknown format 'bogus'" in err


def test_restart_nodes_refusals_name_the_option(capsys):
    for value in ("0", "-5", "nan", "inf", "2.5", "many"):
        code, _, err = run_cli(capsys, "search", "owen1-4x4", "--restart-nodes", value)
        assert code == 2 and f"--restart-nodes: '{value}'" in err, value


def test_exact_squares_off_the_board_name_the_option(capsys):
    for value in ("Z99", "B17", "256", "B16;X"):
        code, _, err = run_cli(capsys, "search", "e2", "--exact-squares", value, "--node-limit", "10", "--jobs", "1")
        assert code == 2 and err.strip().startswith("edgematch search: --exact-squares: ") and len(err.strip().splitlines()) == 1, value


def test_generate_a_huge_size_says_it_is_too_large(capsys):
    code, _, err = run_cli(capsys, "generate", "1000000")
    assert code == 2 and "'1000000' is too large (at most 1024 squares per side)" in err


def test_show_refuses_a_board_with_hints(capsys, tmp_path):
    """`show PUZZLE BOARD --hints` used to ignore the board silently."""
    board = tmp_path / "b.txt"
    board.write_text(format_board(edgematch.solve("owen1-4x4").boards[0], "edgematch"))
    code, _, err = run_cli(capsys, "show", "owen1-4x4", board, "--hints")
    assert code == 2 and "cannot be combined with a BOARD" in err


def test_blackwoods_bound_on_a_clued_board_needs_no_warning(capsys):
    """His ramp counts the tiles the search placed (tests/test_blackwood.py), so a board with
    more hints than the starter gets it as he meant it, with nothing to warn of."""
    blackwood = ["--order", "blackwood", "--schedule", "blackwood", "--priority-colours", "20,5,7"]
    blackwood += ["--priority-schedule", "blackwood", "--endgame", "0", "--polish", "0", "--kernel", "lists"]
    blackwood += ["--node-limit", "2000", "--jobs", "1", "--no-record", "--json", "--quiet"]
    for puzzle in ("e2-clues", "e2"):
        code, out, err = run_cli(capsys, "search", puzzle, *blackwood)
        assert code == 0 and json.loads(out)["nodes"] == 2000 and "warning" not in err
