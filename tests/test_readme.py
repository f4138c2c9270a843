"""The README's own examples, taken from the README text at test time so that the README
cannot drift from what the package does.

* the ```python block is executed as written (in a temporary working directory) and what its
  comments promise is checked: it prints ``470 480``, the reasons it prints are reasons the
  Blackwood board is not a solution, and the ``p8.txt`` it writes reads back as the same puzzle;
* the ``edgematch`` commands of the first set-up line (after ``pip install -e . &&``) run
  through the *installed* console script, each exits 0, and the PNG written is a real PNG of
  a 16 x 16 board;
* ``edgematch --version`` prints the installed package's version.
"""

from __future__ import annotations

import ast
import csv
import importlib.metadata
import re
import shlex
import tomllib
from pathlib import Path

import numpy as np
from PIL import Image

import edgematch
from edgematch.formats import read_puzzle
from support.cli import run_console
from support.reference import reference_solutions

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
RECORDS_TSV = ROOT / "src" / "edgematch" / "data" / "files" / "record_boards" / "record_boards.tsv"
FIXED_PIECES_TSV = ROOT / "src" / "edgematch" / "data" / "files" / "e2_official" / "e2_fixed_pieces.tsv"


def fenced_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.S)


def published_score(name: str) -> int:
    """The score of a record board from the bundled data table (its SOURCE.txt: "All rescored
    values equal the published scores")."""
    lines = [line for line in RECORDS_TSV.read_text().splitlines() if line and not line.startswith("#")]
    rows = list(csv.reader(lines, delimiter="\t"))
    column = rows[0].index("score_rescored")
    return next(int(row[column]) for row in rows[1:] if row[0] == name)


def starter_piece() -> tuple[str, int, int]:
    """(square, piece number from 1, clockwise rotation) of the starter from e2_fixed_pieces.tsv."""
    rows = [line.split("\t") for line in FIXED_PIECES_TSV.read_text().splitlines() if line and not line.startswith("#")]
    header, body = rows[0], rows[1:]
    row = next(r for r in body if "starter" in r[-1])
    return row[header.index("square")], int(row[header.index("piece")]), int(row[header.index("rot_cw")])


# ---------------------------------------------------------------------------- the Python example
def test_readme_has_one_python_example():
    blocks = fenced_blocks("python")
    assert len(blocks) == 1 and "import edgematch" in blocks[0]


def test_python_example_runs_as_written_and_keeps_its_promises(tmp_path, monkeypatch, capsys):
    code = fenced_blocks("python")[0]
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__readme__"}
    exec(compile(code, str(ROOT / "README.md"), "exec"), namespace)  # noqa: S102 - the README's own code
    printed = capsys.readouterr().out.splitlines()

    # Each print(...) line's comment says what it prints; the first gives it literally.
    print_lines = [line for line in code.splitlines() if line.lstrip().startswith("print(")]
    assert len(print_lines) == len(printed) == 3
    promised = print_lines[0].split("#", 1)[1].strip()
    assert printed[0] == promised == "470 480"
    # ... and those figures have independent sources: the published score of the board, and
    # the README's own formula for the maximum, 2WH - W - H on the 16x16
    assert int(promised.split()[0]) == published_score("Joshua_Blackwood_470")
    assert int(promised.split()[1]) == 2 * 16 * 16 - 16 - 16

    # "every reason it is not a solution": the first two of them, as a list of strings; the
    # board is complete, so its reasons are mismatched joins (480 - 470 = 10 of them)
    reasons = ast.literal_eval(printed[1])
    assert isinstance(reasons, list) and len(reasons) == 2
    assert all(isinstance(r, str) and "colours differ" in r for r in reasons)
    board = namespace["board"]
    assert board.verify().reasons[:2] == reasons and len(board.verify().reasons) == 480 - 470

    # "official 256 pieces + starter 139 at I8": the square, piece and rotation of the
    # starter as the bundled table of fixed pieces gives them
    puzzle = namespace["puzzle"]
    square, piece, rotation = starter_piece()
    assert puzzle.n_tiles == 256 and len(puzzle.hints) == 1
    hint = puzzle.hints[0]
    assert (edgematch.square_name(hint.square, 16), hint.tile + 1, hint.rotation) == (square, piece, rotation) == ("I8", 139, 2)

    # ".puzzle and its planted .solution": the solution solves the puzzle, with one hint in
    # the bottom-left corner (generate --help: "bottom-left corner fixed")
    made = namespace["made"]
    assert made.puzzle.width == made.puzzle.height == 8
    assert made.solution.verify().valid
    assert [edgematch.square_name(h.square, 8) for h in made.puzzle.hints] == ["H1"]

    # the front door's count of owen1-5x5: the brute-force reference counts it by the rules
    assert print_lines[2].split("#", 1)[1].strip().startswith(printed[2] + " ")
    assert int(printed[2]) == len(reference_solutions(edgematch.load("owen1-5x5"))) == 16

    # p8.txt lands in the working directory and reads back as the same puzzle
    written = tmp_path / "p8.txt"
    assert written.exists()
    for back in (read_puzzle(written), edgematch.load(str(written))):
        assert (back.width, back.height) == (8, 8)
        assert np.array_equal(np.asarray(back.tiles), np.asarray(made.puzzle.tiles))
        assert [(h.square, h.tile, h.rotation) for h in back.hints] == \
               [(h.square, h.tile, h.rotation) for h in made.puzzle.hints]


# ---------------------------------------------------------------------------- the set-up line
def setup_commands() -> list[list[str]]:
    """The ``edgematch`` commands of the first ```bash block, after ``pip install -e . &&``."""
    first = fenced_blocks("bash")[0].strip()
    head, sep, tail = first.partition("pip install -e . &&")
    assert sep, "the first bash block no longer installs with 'pip install -e . &&'"
    commands = [shlex.split(part) for part in tail.split("&&")]
    assert commands and all(c[0] == "edgematch" for c in commands)
    return commands


def test_setup_line_runs_through_the_installed_console_script(tmp_path):
    commands = setup_commands()
    assert [c[1] for c in commands] == ["info", "score", "show"]
    outputs = []
    for argv in commands:
        done = run_console(*argv[1:], cwd=tmp_path)
        assert done.returncode == 0, (argv, done.stderr)
        assert "Traceback" not in done.stderr
        outputs.append(done.stdout)
    info, score, _ = outputs
    assert "16 x 16 board, 256 tiles" in info and "139@I8 r2" in info
    assert re.search(r"score: 470 / 480", score), score

    # the picture: named by --out in the README's own command
    show = commands[2]
    png = tmp_path / show[show.index("--out") + 1]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(png) as image:
        assert image.format == "PNG"
        width, height = image.size
    # 16 x 16 squares of the default 48 pixels (show --help), plus margins narrower than a square
    assert width == height and 16 * 48 <= width < 17 * 48


def test_readme_test_command_has_its_extra():
    """The second set-up line installs '.[test,cluster]' (pytest and its tools; Dask for the
    cluster tests) and runs pytest, on every core with pytest-xdist: the extras must bring them."""
    second = fenced_blocks("bash")[1]
    last = second.strip().split("&&")[-1].split()
    assert "'.[test,cluster]'" in second and last[0] == "pytest" and "-n" in last
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("pytest") for req in extras["test"])
    assert any(req.startswith("pytest-xdist") for req in extras["test"])
    assert any(req.startswith("mypy") for req in extras["test"]) and " mypy " in f" {second} "
    assert any(req.startswith("ruff") for req in extras["test"]) and " ruff check src tests benchmarks " in f" {second} "
    assert " ruff format --check src " in f" {second} "
    assert any(req.startswith("dask[distributed]") for req in extras["cluster"])
    # CI runs exactly the README's command (a line of .ci/run), so the two cannot drift
    assert second.strip() in (ROOT / ".ci" / "run").read_text().splitlines()


def test_version_of_the_console_script():
    done = run_console("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"edgematch {importlib.metadata.version('edgematch')}"
    assert importlib.metadata.version("edgematch") == edgematch.__version__
