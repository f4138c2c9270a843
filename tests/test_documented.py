"""Every command and option named in README.md and docs/*.md, through the command line, with
its effect checked (tests/test_cli.py, test_backtrack_cli.py, test_colorpair_cli.py,
test_runs.py and test_macro_search.py cover the rest; test_documented_guard.py makes sure no
documented option is left without a test).

Pinned numbers come from a published figure (docs/, the data folders' SOURCE.txt, the Julia
package's documentation quoted in ``estimate --help``), from the brute-force reference of
tests/support/reference.py, or from a second engine.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

import edgematch
from edgematch.formats import format_board, format_puzzle, read_board, read_puzzle
from edgematch.generator import generate
from edgematch.model import Puzzle
from support.cli import run_cli, small_puzzle, write_puzzle_file
from support.puzzles import planted
from support.reference import all_boards_max_score, board_key, reference_solutions, reference_solve

MISMATCH_RED = 'fill="#ff0000"'
HINT_FRAME = re.compile(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="none" stroke="#000000"')
TEXT = re.compile(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>')


def json_of(capsys, *argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def texts(svg: str) -> list[tuple[float, float, str]]:
    return [(float(x), float(y), t) for x, y, t in TEXT.findall(svg)]


@pytest.fixture
def planted_files(tmp_path):
    """A planted 4x4 puzzle, its solution, both written in the edgematch formats."""
    puzzle, board = planted(4, 4, 3, seed=5)
    puzzle_file = write_puzzle_file(tmp_path, puzzle)
    board_file = tmp_path / "solution.txt"
    board_file.write_text(format_board(board, "edgematch"))
    return puzzle, board, puzzle_file, board_file


# ============================================================================ convert --from
def test_convert_from_reads_with_the_named_format(capsys, tmp_path):
    puzzle = small_puzzle()
    # a julia pieces file with its header has the shape of an Owen file (docs/formats.md)
    pieces = tmp_path / "pieces.txt"
    pieces.write_text(format_puzzle(puzzle, "julia"))
    code, _, err = run_cli(capsys, "convert", pieces, tmp_path / "x.txt")
    assert code == 2 and "ambiguous" in err and "--from" in err and len(err.strip().splitlines()) == 1

    out = tmp_path / "back.txt"
    assert run_cli(capsys, "convert", pieces, out, "--from", "julia")[0] == 0
    back = read_puzzle(out)
    assert np.array_equal(back.tiles, puzzle.tiles) and (back.width, back.height) == (4, 4)

    # the same file read as an Owen file (sides N E S W instead of bottom left top right)
    # gives every tile turned half a turn: --from really chooses the reader
    assert run_cli(capsys, "convert", pieces, out, "--from", "owen")[0] == 0
    assert np.array_equal(read_puzzle(out).tiles, np.roll(np.asarray(puzzle.tiles), 2, axis=1))


def test_convert_from_a_wrong_format_is_one_clear_line(capsys, tmp_path):
    pieces = tmp_path / "pieces.txt"
    pieces.write_text(format_puzzle(small_puzzle(), "julia"))
    code, _, err = run_cli(capsys, "convert", pieces, tmp_path / "x.txt", "--from", "heule")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and f"{pieces}:1:" in lines[0] and "Traceback" not in err
    code, _, err = run_cli(capsys, "convert", pieces, "-", "--from", "klingon")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "klingon" in err
    assert not (tmp_path / "x.txt").exists()


def test_convert_board_from_named_format(capsys, planted_files, tmp_path):
    puzzle, board, puzzle_file, _ = planted_files
    et2 = tmp_path / "board.dat"  # an extension that says nothing
    et2.write_text(format_board(board, "et2"))
    out = tmp_path / "board.txt"
    assert run_cli(capsys, "convert", "--puzzle", puzzle_file, et2, out, "--from", "et2")[0] == 0
    assert board_key(read_board(out, puzzle)) == board_key(board)
    code, _, err = run_cli(capsys, "convert", "--puzzle", puzzle_file, et2, out, "--from", "owen-solution")
    assert code == 2 and str(et2) in err and len(err.strip().splitlines()) == 1


# ============================================================================ show
def test_show_numbers_writes_each_squares_piece_number(capsys, planted_files, tmp_path):
    puzzle, board, puzzle_file, board_file = planted_files
    plain, numbered = tmp_path / "plain.svg", tmp_path / "numbers.svg"
    assert run_cli(capsys, "show", puzzle_file, board_file, "--out", plain)[0] == 0
    assert run_cli(capsys, "show", puzzle_file, board_file, "--out", numbered, "--numbers")[0] == 0
    assert texts(plain.read_text()) == []
    found = {(int(y // 48), int(x // 48)): text for x, y, text in texts(numbered.read_text())}
    expected = {(sq // 4, sq % 4): str(int(board.tiles[sq]) + 1) for sq in range(16)}  # numbered from 1
    assert found == expected


def test_show_numbers_changes_the_png(capsys, planted_files, tmp_path):
    from PIL import Image, ImageChops

    _, _, puzzle_file, board_file = planted_files
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    run_cli(capsys, "show", puzzle_file, board_file, "--out", a)
    run_cli(capsys, "show", puzzle_file, board_file, "--out", b, "--numbers")
    with Image.open(a) as x, Image.open(b) as y:
        assert x.size == y.size
        assert ImageChops.difference(x.convert("RGB"), y.convert("RGB")).getbbox() is not None


def test_show_names_labels_rows_and_columns(capsys, planted_files, tmp_path):
    _, _, puzzle_file, board_file = planted_files
    svg = tmp_path / "names.svg"
    assert run_cli(capsys, "show", puzzle_file, board_file, "--out", svg, "--names")[0] == 0
    labels = texts(svg.read_text())
    columns = sorted((x, t) for x, y, t in labels if t.isdigit())
    rows = sorted((y, t) for x, y, t in labels if t.isalpha())
    assert [t for _, t in columns] == ["1", "2", "3", "4"] and [t for _, t in rows] == ["A", "B", "C", "D"]
    assert len({y for x, y, t in labels if t.isdigit()}) == 1 and len({x for x, y, t in labels if t.isalpha()}) == 1
    plain = tmp_path / "plain.svg"
    run_cli(capsys, "show", puzzle_file, board_file, "--out", plain)
    size = lambda path: [int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', path.read_text()).groups()]  # noqa: E731
    assert size(svg)[0] > size(plain)[0] and size(svg)[1] > size(plain)[1]  # room for the labels


@pytest.mark.parametrize("columns", [3, 8])
def test_show_columns_lays_out_the_tile_set(capsys, tmp_path, columns):
    puzzle_file = write_puzzle_file(tmp_path, small_puzzle())  # 16 tiles
    svg = tmp_path / "tiles.svg"
    assert run_cli(capsys, "show", puzzle_file, "--out", svg, "--columns", columns)[0] == 0
    numbers = texts(svg.read_text())
    assert sorted(int(t) for _, _, t in numbers) == list(range(1, 17))
    assert len({x for x, _, _ in numbers}) == columns
    assert len({y for _, y, _ in numbers}) == math.ceil(16 / columns)


def test_show_no_marks_drops_mismatch_bars_and_hint_frames(capsys, tmp_path):
    marked, bare = tmp_path / "marked.svg", tmp_path / "bare.svg"
    assert run_cli(capsys, "show", "e2", "record/Joshua_Blackwood_470", "--out", marked)[0] == 0
    assert run_cli(capsys, "show", "e2", "record/Joshua_Blackwood_470", "--out", bare, "--no-marks")[0] == 0
    text = marked.read_text()
    # one red bar per mismatched join: 480 - 470 (the board's published score)
    assert text.count(MISMATCH_RED) == 480 - 470
    frames = HINT_FRAME.findall(text)
    assert len(frames) == 1  # the starter piece, I8 = row 8, column 7 counted from 0
    x, y, w, h = map(float, frames[0])
    assert (int((x + w / 2) // 48), int((y + h / 2) // 48)) == (7, 8)
    assert bare.read_text().count(MISMATCH_RED) == 0 and HINT_FRAME.findall(bare.read_text()) == []


def test_show_hints_draws_the_board_with_only_the_hints(capsys, tmp_path):
    board, tiles = tmp_path / "e2.svg", tmp_path / "tiles.svg"
    assert run_cli(capsys, "show", "e2", "--hints", "--out", board)[0] == 0  # show --help's example
    assert run_cli(capsys, "show", "e2", "--out", tiles)[0] == 0
    text = board.read_text()
    assert text.count('fill="#eeeeee"') == 255 and text.count("<polygon") == 4  # one tile, 255 empty squares
    assert len(HINT_FRAME.findall(text)) == 1
    assert tiles.read_text().count("<polygon") == 4 * 256  # without --hints: the tile set


# ============================================================================ estimate
def test_estimate_per_depth_text_lists_every_depth(capsys):
    code, plain, _ = run_cli(capsys, "estimate", "owen1-4x4")
    code, out, _ = run_cli(capsys, "estimate", "owen1-4x4", "--per-depth")
    assert code == 0 and out.startswith(plain) and len(out) > len(plain)
    rows = [line.split() for line in out[len(plain):].splitlines()[1:]]
    assert [int(r[0]) for r in rows] == list(range(1, 17))
    assert [r[1] for r in rows] == [f"{row}{col}" for row in "ABCD" for col in range(1, 5)]  # the row scan
    data = json_of(capsys, "estimate", "owen1-4x4", "--json", "--per-depth")
    per_depth = [float(r[2]) for r in rows]
    assert per_depth == pytest.approx(data["expected_nodes_per_depth"], rel=1e-6)
    assert sum(per_depth) == pytest.approx(data["expected_nodes"], rel=1e-5)
    # the last depth holds the complete boards: the expected solutions
    assert per_depth[-1] == pytest.approx(data["expected_solutions"], rel=1e-5)


def test_estimate_per_depth_json_reproduces_the_julia_package(capsys):
    """estimate --help: the Julia package's figures for e2 (row scan from BL, pooled hints):
    ~14,702 solutions, 1.365e47 nodes.  The per-depth list must add up to them."""
    without = json_of(capsys, "estimate", "e2", "--order", "rowscan", "--corner", "BL", "--hints", "pooled", "--json")
    assert "expected_nodes_per_depth" not in without
    data = json_of(capsys, "estimate", "e2", "--order", "rowscan", "--corner", "BL", "--hints", "pooled", "--json",
                   "--per-depth")
    per_depth = data["expected_nodes_per_depth"]
    assert len(per_depth) == len(data["order"]) == 255  # 256 squares, the starter is a hint
    assert data["order"][0] == "P1"  # the bottom-left corner
    assert sum(per_depth) == pytest.approx(1.365e47, rel=1e-3)
    assert per_depth[-1] == pytest.approx(14702, rel=1e-4)
    assert data["widest_depth"] == 1 + int(np.argmax(per_depth))


def test_estimate_compare_json_keeps_the_order_names_with_per_depth(capsys):
    rows = json_of(capsys, "estimate", "owen1-4x4", "--compare", "rowscan", "spiral-in", "--json", "--per-depth")
    assert sorted(r["order"] for r in rows) == ["rowscan", "spiral-in"]
    single = json_of(capsys, "estimate", "owen1-4x4", "--order", "spiral-in", "--json", "--per-depth")
    spiral = next(r for r in rows if r["order"] == "spiral-in")
    assert spiral["expected_nodes_per_depth"] == pytest.approx(single["expected_nodes_per_depth"])
    assert spiral["squares"] == single["order"]


def test_estimate_schedule_allows_more_nodes(capsys):
    exact = json_of(capsys, "estimate", "owen1-4x4", "--json")
    loose = json_of(capsys, "estimate", "owen1-4x4", "--json", "--schedule", "1")
    assert exact["schedule"] is None and set(loose["schedule"]) == {1}
    assert loose["expected_nodes"] > exact["expected_nodes"]


# ============================================================================ search
def _scrambled_inner(seed: int) -> Puzzle:
    """A 3x3 puzzle whose inner tile was replaced by a random one (tests/test_backtrack_best.py)."""
    g = generate(3, 3, 2, 3, seed=seed)
    tiles = np.array(g.puzzle.tiles)
    inner = [i for i, t in enumerate(tiles) if (t == 0).sum() == 0][0]
    tiles[inner] = np.random.default_rng(seed).integers(3, 6, 4)
    return Puzzle(tiles, 3, 3)


def _broken_frame() -> Puzzle:
    """A planted 3x3 with one frame colour of one edge tile changed: no complete board keeps
    the frame matched."""
    puzzle, _ = planted(3, 3, 3, seed=0)
    tiles = np.array(puzzle.tiles)
    edge = [i for i, t in enumerate(tiles) if (t == 0).sum() == 1][0]
    grey = list(tiles[edge]).index(0)
    tiles[edge][(grey + 1) % 4] = tiles[edge][(grey + 1) % 4] % 3 + 1
    return Puzzle(tiles, 3, 3)


def _search(capsys, puzzle_file, *options):
    return json_of(capsys, "search", puzzle_file, "--json", "--quiet", *options)


def test_search_max_tile_errors_reaches_the_brute_force_best(capsys, tmp_path):
    puzzle = _scrambled_inner(15)
    path = write_puzzle_file(tmp_path, puzzle)
    best = all_boards_max_score(puzzle, frame_exact=True)
    four = _search(capsys, path, "--schedule", "12", "--max-tile-errors", "4")
    assert four["best_score"] == best and four["complete"]
    out = tmp_path / "one.txt"
    one = _search(capsys, path, "--schedule", "12", "--out", out, "--no-fill")  # default: one per tile
    assert one["best_score"] < best
    board = read_board(out, puzzle)
    bad = {(m.join.a, m.join.b) for m in board.mismatches()}
    for square in board.placed():  # row scan: a tile meets its north and west neighbours when placed
        square = int(square)
        assert sum((other, square) in bad for other in (square - 3, square - 1)) <= 1


def test_search_allow_frame_errors(capsys, tmp_path):
    puzzle = _broken_frame()
    path = write_puzzle_file(tmp_path, puzzle)
    assert all_boards_max_score(puzzle, frame_exact=True) == -1  # no complete board with a matched frame
    free = _search(capsys, path, "--schedule", "12", "--max-tile-errors", "4", "--allow-frame-errors")
    assert free["best_score"] == all_boards_max_score(puzzle, frame_exact=False)
    assert free["statistics"]["frame_exact"] is False
    out = tmp_path / "framed.txt"
    framed = _search(capsys, path, "--schedule", "12", "--max-tile-errors", "4", "--out", out, "--no-fill")
    assert framed["statistics"]["frame_exact"] is True
    board = read_board(out, puzzle)
    assert not board.is_complete and framed["best_score"] < free["best_score"]
    assert all(4 in (m.join.a, m.join.b) for m in board.mismatches())  # only joins of the centre may break


def test_search_schedule_forms_are_the_same_schedule(capsys, tmp_path):
    puzzle = _scrambled_inner(15)
    path = write_puzzle_file(tmp_path, puzzle)
    schedule_file = tmp_path / "schedule.txt"
    schedule_file.write_text("12\n")
    forms = ["12", "1:12", "list:12", "breaks:" + ",".join(["1"] * 12), schedule_file]
    results = [_search(capsys, path, "--schedule", form, "--max-tile-errors", "4") for form in forms]
    assert {(r["best_score"], r["nodes"]) for r in results} == {(all_boards_max_score(puzzle, True), results[0]["nodes"])}
    # a schedule of two: no reported board holds more than two invalid joins
    out = tmp_path / "two.txt"
    two = _search(capsys, path, "--schedule", "2", "--max-tile-errors", "4", "--out", out, "--no-fill")
    assert len(read_board(out, puzzle).mismatches()) <= 2 and two["best_score"] <= results[0]["best_score"]


def test_search_target_stops_there(capsys, tmp_path):
    puzzle = _scrambled_inner(15)
    path = write_puzzle_file(tmp_path, puzzle)
    target = all_boards_max_score(puzzle, True) - 2
    data = _search(capsys, path, "--schedule", "12", "--max-tile-errors", "4", "--target", target)
    assert data["stopped_by"] == "target" and data["best_score"] >= target
    assert data["statistics"]["target"] == target and not data["complete"]


def test_search_seed_shuffles_and_repeats(capsys, tmp_path):
    puzzle = small_puzzle()
    path = write_puzzle_file(tmp_path, puzzle)
    solutions = reference_solutions(puzzle)
    boards = {}
    for seed in (None, 1, 2, 1):
        options = ["--seed", seed] if seed is not None else []
        data = _search(capsys, path, *options)
        board = edgematch.Board(puzzle)  # the JSON numbers tiles from 1, as users see them
        for square, (tile, rot) in enumerate(zip(data["best_board"]["tiles"], data["best_board"]["rotations"])):
            board.place(square, tile - 1, rot)
        key = board_key(board)
        assert data["best_score"] == 24 and key in solutions
        assert boards.setdefault(seed, key) == key  # the same seed finds the same board
    assert len(set(boards.values())) == 3  # different seeds, different first solutions


def test_search_restart_nodes(capsys):
    data = _search(capsys, "owen1-8x8", "--schedule", "3", "--seed", "1", "--restart-nodes", "1e3",
                   "--node-limit", "3500")
    assert data["nodes"] == 3500 and data["stopped_by"] == "nodes"
    assert data["statistics"]["restarts"] == 3500 // 1000


def test_search_priority_colours_and_schedule(capsys, tmp_path):
    made = generate(5, 5, 2, 4, seed=4)
    puzzle = made.puzzle
    path = write_puzzle_file(tmp_path, puzzle)
    colour = int(puzzle.inner_colours[0])
    everything = sum(int(c) == colour for t in puzzle.tiles for c in t)
    out = tmp_path / "cut.txt"
    cut = _search(capsys, path, "--priority-colours", colour, "--priority-schedule", f"3:{everything + 1}",
                  "--out", out, "--no-fill")
    assert cut["statistics"]["priority_colours"] == [colour]
    # no three tiles can show more sides of the colour than the whole set: two tiles at most
    assert read_board(out, puzzle).n_placed == 2 and cut["best_score"] == 1
    # a bound the planted solution meets keeps it reachable
    first10 = sum(int(c) == colour for sq in range(10) for c in puzzle.tiles[int(made.solution.tiles[sq])])
    kept = _search(capsys, path, "--priority-colours", colour, "--priority-schedule", f"10:{first10}")
    assert kept["best_score"] == puzzle.max_score


def test_search_priority_auto_on_e2_is_the_julia_packages_choice(capsys):
    """Eternity2Puzzles.jl notes its colour choice for the official puzzle: "94 pieces, 122 sides
    total" (the --help example with a node limit)."""
    data = _search(capsys, "e2", "--order", "e2path", "--schedule", "julia:470", "--priority-colours", "auto",
                   "--priority-schedule", "julia:470", "--node-limit", "20000")
    colours = set(data["statistics"]["priority_colours"])
    tiles = edgematch.load("e2").tiles
    assert sum(any(int(c) in colours for c in t) for t in tiles) == 94
    assert sum(int(c) in colours for t in tiles for c in t) == 122
    assert data["nodes"] == 20000 and data["statistics"]["order"] == "e2path"


def test_search_no_fill_and_board_format(capsys, tmp_path):
    puzzle = edgematch.load("e2")
    filled, raw = tmp_path / "filled.txt", tmp_path / "raw.txt"
    common = ["--order", "e2path", "--schedule", "julia:470", "--node-limit", "3000"]
    data = _search(capsys, "e2", *common, "--out", filled, "--board-format", "et2")
    raw_data = _search(capsys, "e2", *common, "--out", raw, "--no-fill")
    with pytest.raises(edgematch.InputError):
        read_board(filled, puzzle, "edgematch")
    full = read_board(filled, puzzle, "et2")  # written as et2 in spite of .txt
    partial = read_board(raw, puzzle)
    assert full.is_complete and full.score() == data["written_score"] >= data["best_score"]
    assert partial.n_placed < 256 and partial.score() == raw_data["written_score"] == raw_data["best_score"]


@pytest.mark.parametrize("corner", ["TL", "BR"])
def test_search_order_and_corner_fill_that_prefix(capsys, tmp_path, corner):
    out = tmp_path / "b.txt"
    data = _search(capsys, "owen1-6x6", "--order", "rowscan", "--corner", corner, "--node-limit", "2000",
                   "--out", out, "--no-fill")
    board = read_board(out, edgematch.load("owen1-6x6"))
    order = list(range(36)) if corner == "TL" else list(range(35, -1, -1))  # rows mirrored from BR
    placed = {int(s) for s in board.placed()}
    assert 0 < len(placed) < 36 and placed == set(order[:len(placed)])
    assert data["statistics"]["corner"] == corner


# ============================================================================ count / solve
def test_count_and_solve_with_cpsat(capsys, tmp_path):
    puzzle = small_puzzle()
    path = write_puzzle_file(tmp_path, puzzle)
    reference = reference_solutions(puzzle)
    cpsat = json_of(capsys, "count", path, "--solver", "cpsat", "--json", "--quiet")
    backtrack = json_of(capsys, "count", path, "--json", "--quiet")
    assert cpsat["solver"] == "cpsat" and cpsat["complete"]
    assert cpsat["solutions"] == backtrack["solutions"] == len(reference)

    owen = edgematch.load("owen1-4x4")
    (tmp_path / "all").mkdir()
    data = json_of(capsys, "solve", "owen1-4x4", "--solver", "cpsat", "--all", "--out", tmp_path / "all" / "s.txt",
                   "--json", "--quiet")
    found = {board_key(read_board(name, owen)) for name in data["files"]}
    assert data["solver"] == "cpsat" and len(data["files"]) == data["solutions"]
    assert found == reference_solutions(owen)


def test_solve_all_with_colorpair_as_in_the_docs(capsys, tmp_path):
    """docs/colorpair.md: edgematch solve owen1-4x4 --solver colorpair --no-preemption --all"""
    owen = edgematch.load("owen1-4x4")
    code, out, err = run_cli(capsys, "solve", "owen1-4x4", "--solver", "colorpair", "--no-preemption", "--all")
    assert code == 0, err
    boards = [b for b in out.split("\n\n") if b.strip()]
    found = {board_key(edgematch.parse_board(b, owen, "<stdout>", "edgematch")) for b in boards}
    assert len(boards) == len(found) and found == reference_solutions(owen)


def test_count_order_file_walks_the_reference_tree(capsys, tmp_path):
    puzzle = small_puzzle()
    path = write_puzzle_file(tmp_path, puzzle)
    columns = [r * 4 + c for c in range(4) for r in range(4)]  # column by column
    order_file = tmp_path / "order.txt"
    order_file.write_text(" ".join(edgematch.square_name(s, 4) for s in columns) + "\n")
    data = json_of(capsys, "count", path, "--order", order_file, "--json", "--quiet")
    reference = reference_solve(puzzle, order=columns)
    assert data["solutions"] == reference.count
    assert data["nodes_per_depth"] == reference.nodes[1:]


def test_count_corner_mirrors_the_order(capsys, tmp_path):
    # one hint: without it the mirrored scan walks a tree of the same shape (the board turned)
    puzzle = generate(4, 4, 2, 3, seed=0, hints=1).puzzle
    path = write_puzzle_file(tmp_path, puzzle)
    data = json_of(capsys, "count", path, "--order", "rowscan", "--corner", "BR", "--json", "--quiet")
    reference = reference_solve(puzzle, order=list(range(15, -1, -1)))  # rows from the bottom, right to left
    assert data["solutions"] == reference.count and data["nodes_per_depth"] == reference.nodes[1:]
    assert data["nodes_per_depth"] != reference_solve(puzzle).nodes[1:]  # not the top-left scan


def test_count_time_limit_stops_the_search(capsys):
    data = json_of(capsys, "count", "owen1-7x7", "--time-limit", "0.2", "--json", "--quiet")
    # owen1-7x7: 67,667,477,364 nodes for the full search (Brendan Owen SOURCE.txt)
    assert data["complete"] is False and data["stopped_by"] == "time" and 0 < data["nodes"] < 67_667_477_364


# ============================================================================ generate
def test_generate_colour_counts_name_and_formats(capsys, tmp_path):
    puzzle_file, solution = tmp_path / "g.txt", tmp_path / "g.sol"
    code, _, err = run_cli(capsys, "generate", "6x4", "--frame-colours", 2, "--inner-colours", 3, "--seed", 7,
                           "--name", "tiny", "--out", puzzle_file, "--solution", solution, "--board-format",
                           "owen-solution")
    assert code == 0, err
    facts = json_of(capsys, "info", puzzle_file, "--json")
    assert (facts["width"], facts["height"], facts["name"]) == (6, 4, "tiny")
    assert len(facts["frame_colours"]) == 2 and len(facts["inner_colours"]) == 3
    lines = solution.read_text().split("\n")
    assert lines[0].split() == ["6", "4"] and all(len(line.split()) == 3 for line in lines[1:] if line.strip())
    assert run_cli(capsys, "verify", puzzle_file, solution, "--board-format", "owen-solution")[0] == 0


def test_generate_format_and_hints(capsys, tmp_path):
    nohint = tmp_path / "e6.dat"
    assert run_cli(capsys, "generate", "6", "--hints", "corner", "--seed", 2, "--out", nohint, "--format", "benoist")[0] == 0
    head = nohint.read_text().split("\n")[:3]
    assert [len(line.split()) for line in head] == [1, 1, 1] and head[0] == "6"  # Benoist: size, colours, hints
    facts = json_of(capsys, "info", nohint, "--json")  # detected as benoist
    assert [h["square"] for h in facts["hints"]] == ["F1"]  # the bottom-left corner
    code, out, _ = run_cli(capsys, "generate", "7", "--hints", "3", "--seed", 2, "--out", tmp_path / "h.txt", "--json")
    assert len(json.loads(out)["hints"]) == 3 == len(read_puzzle(tmp_path / "h.txt").hints)


# ============================================================================ optimize / runs
def _unsolvable_5x5() -> Puzzle:
    """A planted 5x5 whose centre tile shows a colour no other tile has: that tile's four
    joins never match, so the best score is at most max_score - 4."""
    puzzle, _ = planted(5, 5, 3, seed=2)
    tiles = np.array(puzzle.tiles)
    tiles[[i for i, t in enumerate(tiles) if (t == 0).sum() == 0][0]] = 9
    return Puzzle(tiles, 5, 5, name="unsolvable")


def test_optimize_minutes_as_in_the_readme(capsys, tmp_path):
    puzzle = _unsolvable_5x5()
    path = write_puzzle_file(tmp_path, puzzle)
    db, out = tmp_path / "runs.sqlite", tmp_path / "best.txt"
    code, stdout, err = run_cli(capsys, "optimize", path, "--minutes", "0.01", "--out", out, "--db", db, "--seed", 1,
                                "--quiet")
    assert code == 0, err
    assert f"wrote {out}" in stdout
    runs = json_of(capsys, "runs", "--db", db, "--json")["runs"]
    assert len(runs) == 1
    run = runs[0]
    assert run["status"] == "finished" and run["stopped_by"] == "time"  # max score is out of reach
    start_seconds = run["info"]["start"]["seconds"]
    assert run["budget_seconds"] == pytest.approx(max(0.01 * 60 - start_seconds, 0.001), abs=2e-3)
    scored = json_of(capsys, "score", path, out, "--json")
    assert scored["score"] == run["best_score"] <= puzzle.max_score - 4 and scored["complete"]


def test_optimize_target_start_board_and_out_format(capsys, tmp_path):
    made = generate(5, 5, 2, 4, seed=6)
    path = write_puzzle_file(tmp_path, made.puzzle)
    db = tmp_path / "runs.sqlite"
    target = made.puzzle.max_score - 6
    hit = json_of(capsys, "optimize", path, "--moves", "200000", "--target", target, "--start", "random", "--seed", 3,
                  "--db", db, "--json", "--quiet")
    assert hit["stopped_by"] == "target" and target <= hit["best_score"] and hit["moves"] < 200000
    solution = tmp_path / "planted.txt"
    solution.write_text(format_board(made.solution, "edgematch"))
    out = tmp_path / "best.txt"
    started = json_of(capsys, "optimize", path, "--moves", "100", "--start-board", solution, "--db", db, "--out", out,
                      "--out-format", "et2", "--json", "--quiet")
    assert started["start"]["kind"] == "board" and started["best_score"] == made.puzzle.max_score
    assert read_board(out, made.puzzle, "et2").verify().valid
    # runs --limit: only the newest
    listed = json_of(capsys, "runs", "--db", db, "--json", "--limit", 1)["runs"]
    assert [r["id"] for r in listed] == [started["run_id"]]
    assert len(json_of(capsys, "runs", "--db", db, "--json")["runs"]) == 2


def test_optimize_search_parameters_are_recorded(capsys, tmp_path):
    from edgematch.runs import RunStore

    path = write_puzzle_file(tmp_path, _unsolvable_5x5())
    db = tmp_path / "runs.sqlite"
    report = json_of(capsys, "optimize", path, "--moves", "300", "--seed", 2, "--start", "cp", "--relax", 2,
                     "--start-seconds", "1", "--selection", "checkerboard", "--set-size", 4, "--set-size-max", 6,
                     "--db", db, "--json", "--quiet")
    assert report["start"]["kind"] == "cp" and report["start"]["relaxed"] == 2
    with RunStore(db) as store:
        params = store.run(report["run_id"]).params
    assert (params["selection"], params["set_size"], params["set_size_max"]) == ("checkerboard", 4, 6)
    back = json_of(capsys, "optimize", path, "--moves", "300", "--seed", 2, "--start", "backtrack", "--schedule", "2",
                   "--start-seconds", "1", "--db", db, "--json", "--quiet")
    assert back["start"]["kind"] == "backtrack"
    with RunStore(db) as store:
        assert store.run(back["run_id"]).info["restart"]["schedule"] == "2"
