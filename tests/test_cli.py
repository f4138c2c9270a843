"""The command line: the stable interface scripts rely on, and the bad-input rule.

Bad input must give exactly one line on stderr naming the file (and line) and the problem,
exit status 2 and no traceback.  Most cases run in-process through ``main`` (fast); a few run
the installed ``edgematch`` command to check real exit statuses.
"""

from __future__ import annotations

import json

import pytest
from PIL import Image

from edgematch.formats import format_board, format_puzzle
from edgematch.generator import generate
from support.cli import run_cli, run_console


@pytest.fixture
def small(tmp_path):
    """A generated 4x4 puzzle and its planted solution, written in our own formats."""
    made = generate(4, seed=11)
    puzzle_file = tmp_path / "p.txt"
    board_file = tmp_path / "s.board"
    puzzle_file.write_text(format_puzzle(made.puzzle, "edgematch"))
    board_file.write_text(format_board(made.solution, "edgematch"))
    return made, puzzle_file, board_file


# ---------------------------------------------------------------------------- stable interface
def test_info_json_has_the_promised_keys(capsys):
    code, out, _ = run_cli(capsys, "info", "e2", "--json")
    facts = json.loads(out)
    assert code == 0
    assert (facts["width"], facts["height"], facts["tiles"], facts["colours"]) == (16, 16, 256, 22)
    assert facts["hints"] == [{"square": "I8", "index": 135, "tile": 139, "rotation": 2}]


def test_info_of_rectangular_clue_puzzle(capsys):
    code, out, _ = run_cli(capsys, "info", "clue2", "--json")
    facts = json.loads(out)
    assert code == 0 and (facts["width"], facts["height"], facts["tiles"]) == (12, 6, 72)


def test_info_lists_bundled_names(capsys):
    code, out, _ = run_cli(capsys, "info", "--list", "--json")
    listing = json.loads(out)
    assert code == 0
    for name in ("e2", "e2-clues", "e2-bare", "clue1", "clue4", "meta16", "owen1-6x6", "owen2-9x9", "benoist/E_10_5"):
        assert name in listing["puzzles"]
    assert "record/Joshua_Blackwood_470" in listing["records"]


def test_score_json_of_record_board(capsys):
    code, out, _ = run_cli(capsys, "score", "e2", "record/Joshua_Blackwood_470", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["score"] == 470 and report["max_score"] == 480
    assert report["complete"] is True and report["valid"] is False
    assert len(report["mismatches"]) == 10


def test_verify_exit_codes(capsys, small):
    made, puzzle_file, board_file = small
    assert run_cli(capsys, "verify", str(puzzle_file), str(board_file))[0] == 0
    code, out, _ = run_cli(capsys, "verify", "e2", "record/Joshua_Blackwood_470")
    assert code == 1
    assert "10 problems" in out and "colours differ" in out


def test_verify_lists_every_reason(capsys, small, tmp_path):
    made, puzzle_file, _ = small
    broken = made.solution.copy()
    broken.remove(0)
    broken.place(5, int(made.solution.tiles[6]), 0)  # a duplicate, and mismatches
    path = tmp_path / "broken.board"
    path.write_text(format_board(broken, "edgematch"))
    code, out, _ = run_cli(capsys, "verify", str(puzzle_file), str(path), "--json")
    verdict = json.loads(out)
    assert code == 1 and not verdict["valid"]
    text = " ".join(verdict["reasons"])
    assert "empty square" in text and "placed 2 times" in text


def test_verify_reads_a_viewer_url(capsys):
    code, out, _ = run_cli(capsys, "convert", "--puzzle", "e2", "record/Joshua_Blackwood_470", "-", "--to", "bucas")
    url = out.strip()
    assert code == 0 and url.startswith("http")
    code, out, _ = run_cli(capsys, "score", "e2", url, "--json")
    assert json.loads(out)["score"] == 470


def test_generate_then_verify_roundtrip(capsys, tmp_path):
    puzzle, solution = tmp_path / "g.txt", tmp_path / "g.sol"
    code, out, _ = run_cli(capsys, "generate", "6x4", "--seed", "5", "--hints", "corner",
                           "--out", str(puzzle), "--solution", str(solution), "--json")
    assert code == 0 and json.loads(out)["width"] == 6
    assert run_cli(capsys, "verify", str(puzzle), str(solution))[0] == 0


def test_convert_puzzle_between_formats(capsys, tmp_path):
    out_file = tmp_path / "e2.heule"
    assert run_cli(capsys, "convert", "e2", str(out_file), "--to", "heule")[0] == 0
    code, out, _ = run_cli(capsys, "info", str(out_file), "--format", "heule", "--json")
    assert code == 0 and json.loads(out)["tiles"] == 256


def test_show_writes_png_and_svg(capsys, tmp_path):
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    code, _, _ = run_cli(capsys, "show", "e2", "record/Joshua_Blackwood_470", "--out", str(png), "--out", str(svg), "--cell", "20")
    assert code == 0
    with Image.open(png) as image:
        assert image.size[0] >= 16 * 20 and image.size[1] >= 16 * 20
    assert svg.read_text().lstrip().startswith("<")


def test_show_in_terminal(capsys):
    code, out, _ = run_cli(capsys, "show", "owen1-4x4", "--hints")
    assert code == 0 and out.strip()


def test_help_has_examples(capsys):
    for command in ("info", "generate", "convert", "show", "score", "verify"):
        code, out, _ = run_cli(capsys, command, "--help")
        assert code == 0
        assert "examples:" in out


# ---------------------------------------------------------------------------- bad input
VALID_2X2 = "size 2 2\n0 1 2 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n"

BROKEN_PUZZLES = {
    "empty": ("", None),
    "blank lines": ("\n\n   \n", None),
    "binary garbage": (b"\x00\x01\x02\xff\xfe garbage \x00", None),
    "not utf-8": (b"size 2 2\n\xff\xfe\xfd 1 2 0\n", None),
    "truncated": ("size 2 2\n0 1 2 0\n0 0 1 2\n1 0 0 2\n", 4),
    "non-integer colour": ("size 2 2\n0 1 2 0\n0 0 one 2\n1 0 0 2\n2 2 0 0\n", 3),
    "float colour": ("size 2 2\n0 1 2.5 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "negative colour": ("size 2 2\n0 1 -2 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "huge number": ("size 2 2\n0 1 99999999999999999999999 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "too large colour": ("size 2 2\n0 1 70000 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "three colours on a line": ("size 2 2\n0 1 2\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "five colours on a line": ("size 2 2\n0 1 2 0 4\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "too many tiles": (VALID_2X2 + "2 2 0 0\n", 6),
    "grey on opposite sides": ("size 3 3\n" + "0 1 0 1\n" * 9, 2),
    "three grey sides": ("size 2 2\n0 0 2 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n", 2),
    "wrong kind counts": ("size 3 2\n0 1 2 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n0 1 2 0\n0 1 2 0\n", None),
    "hint off the board": ("size 2 2\nhint C1 1 0\n" + VALID_2X2.split("\n", 1)[1], 2),
    "hint tile out of range": ("size 2 2\nhint A1 9 0\n" + VALID_2X2.split("\n", 1)[1], 2),
    "hint rotation out of range": ("size 2 2\nhint A1 1 7\n" + VALID_2X2.split("\n", 1)[1], 2),
    "duplicate hint square": ("size 2 2\nhint A1 1 0\nhint A1 2 1\n" + VALID_2X2.split("\n", 1)[1], 3),
    "tile hinted twice": ("size 2 2\nhint A1 1 0\nhint A2 1 1\n" + VALID_2X2.split("\n", 1)[1], 3),
    "hint not fitting the border": ("size 2 2\nhint A1 1 1\n" + VALID_2X2.split("\n", 1)[1], 2),
    "bad size header": ("size two 2\n" + VALID_2X2.split("\n", 1)[1], 1),
    "zero size": ("size 0 0\n", 1),
}


@pytest.mark.parametrize("case", sorted(BROKEN_PUZZLES))
def test_broken_puzzle_files(capsys, tmp_path, case):
    content, line = BROKEN_PUZZLES[case]
    path = tmp_path / "broken.txt"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = run_cli(capsys, "info", str(path), "--format", "edgematch")
    assert code == 2, case
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert str(path) in lines[0]
    if line is not None:
        assert f"{path}:{line}:" in lines[0], lines[0]


def test_valid_2x2_sample_is_valid(capsys, tmp_path):
    path = tmp_path / "ok.txt"
    path.write_text(VALID_2X2)
    assert run_cli(capsys, "info", str(path))[0] == 0


BROKEN_OTHER_FORMATS = {
    "owen wrong header": ("owen", "6\n0 0 1 1\n"),
    "owen truncated": ("owen", "3 3\n0 0 1 1\n0 0 1 1\n"),
    "benoist bad hint count": ("benoist", "2\n2\n5\n1 1 1 0\n"),
    "heule missing tiles": ("heule", "1\n1 1 1 0\n"),
    "julia non-integer": ("julia", "0 0 1 x\n0 0 1 2\n0 0 2 1\n0 0 2 2\n"),
    "e2dev malformed json": ("e2dev", '{"pieces": [1, 2,'),
    "unknown format": ("klingon", VALID_2X2),
}


@pytest.mark.parametrize("case", sorted(BROKEN_OTHER_FORMATS))
def test_broken_files_in_other_formats(capsys, tmp_path, case):
    fmt, content = BROKEN_OTHER_FORMATS[case]
    path = tmp_path / "broken.dat"
    path.write_text(content)
    code, _, err = run_cli(capsys, "info", str(path), "--format", fmt)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert str(path) in err


def test_ambiguous_file_asks_for_format(capsys, tmp_path):
    path = tmp_path / "pieces.dat"
    path.write_text("0 1 2 0\n0 0 1 2\n1 0 0 2\n2 2 0 0\n")  # plain lists of 4 colours fit several formats
    code, _, err = run_cli(capsys, "info", str(path))
    assert code == 2 and "--format" in err


@pytest.mark.parametrize("argv, needle", [
    (["info", "no-such-puzzle"], "no-such-puzzle"),
    (["info", "."], "directory"),
    (["score", "e2", "no-such-board.txt"], "no-such-board.txt"),
    (["score", "e2", "https://e2.bucas.name/#board_w=16&board_h=16&board_edges=abc"], "board_edges"),
    (["score", "owen1-6x6", "record/Joshua_Blackwood_470"], "is a board of the official Eternity II tiles"),
    (["generate", "0"], "too small"),
    (["generate", "5x"], "size"),
    (["generate", "5", "--hints", "999"], "hint"),
    (["generate", "5", "--frame-colours", "0"], "colour"),
    (["generate", "5", "--seed", "abc"], "seed"),
    (["convert", "e2", "-", "--to", "klingon"], "klingon"),
    (["show", "e2", "--out", "picture.gif"], "picture.gif"),
    (["show", "e2", "--cell", "0", "--out", "x.png"], "cell"),
    (["info", "e2", "--no-such-option"], "no-such-option"),
])
def test_bad_arguments(capsys, argv, needle):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2, argv
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert needle in err


def test_board_with_wrong_square_count(capsys, small, tmp_path):
    made, puzzle_file, _ = small
    path = tmp_path / "wrong.board"
    path.write_text("board 3 3\n1/0 2/0 3/0\n4/0 5/0 6/0\n7/0 8/0 9/0\n")
    code, _, err = run_cli(capsys, "score", str(puzzle_file), str(path))
    assert code == 2 and str(path) in err and len(err.strip().splitlines()) == 1


def test_board_with_unknown_tile(capsys, small, tmp_path):
    made, puzzle_file, _ = small
    path = tmp_path / "unknown.board"
    rows = ["board 4 4"] + [" ".join(["99/0"] * 4)] * 4
    path.write_text("\n".join(rows) + "\n")
    code, _, err = run_cli(capsys, "score", str(puzzle_file), str(path))
    assert code == 2 and str(path) in err


def test_real_process_exit_status_and_single_line(tmp_path):
    path = tmp_path / "garbage.txt"
    path.write_bytes(bytes(range(256)) * 4)
    done = run_console("info", path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    done = run_console("verify", "e2", "record/Joshua_Blackwood_470")
    assert done.returncode == 1


@pytest.mark.parametrize("argv,needle", [
    (["info", "e2", "--format", "bogus"], "--format: unknown format 'bogus'"),
    (["score", "e2", "record/Joshua_Blackwood_470", "--board-format", "bogus"], "--board-format: unknown format 'bogus'"),
    (["search", "owen1-4x4", "--target", "25"], "the target score 25 is outside 1..24"),
    (["search", "owen1-4x4", "--priority-colours", "99", "--priority-schedule", "3:1"], "priority colour 99 is not"),
    (["count", "owen1-4x4", "--shaving", "all"], "--shaving belongs to the colorpair engine"),
    (["count", "owen1-4x4", "--no-backjumping"], "--no-backjumping belongs to the colorpair engine"),
    (["count", "owen1-4x4", "--solver", "cpsat", "--order", "spiral-in"], "--order and --corner do not apply"),
    (["count", "owen1-4x4", "--time-limit", "nan"], "time limit must be a finite number"),
    (["count", "owen1-4x4", "--time-limit", "-1"], "time limit must be a finite number"),
])
def test_meaningless_options_are_refused_in_one_line(capsys, argv, needle):
    """Options that were silently accepted (or ignored) before the engine contract: each is
    refused with one line naming it, exit 2."""
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err
