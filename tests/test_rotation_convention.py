"""Counting conventions for rotationally symmetric tiles (issue 16, point 10).

By default a tile whose rotations show the same edges is placed once per distinct look.
Eternity2Puzzles.jl places every (tile, rotation) pair, so its counts and estimates are
larger by the product of the symmetry factors (2 or 4) of the tiles that are not hints.
``each_rotation=True`` (``--each-rotation``) is that convention on every engine, the
estimator, the front door and the command line; results say which one they use
(``rotations``: ``"distinct"`` or ``"each"``).

The expected factor is computed independently (:func:`support.rotations.symmetry_factor`),
and the reference solver (:mod:`support.reference`, with its own ``each_rotation``) gives
the solution sets and the backtracker's nodes per depth.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import edgematch
from edgematch import Puzzle
from edgematch.engines import SOLVERS, make_solver
from edgematch.engines.result import board_key
from edgematch.errors import InputError
from edgematch.estimator import compare_orders, estimate
from edgematch.model.orders import resolve_order
from support.cli import run_cli, write_puzzle_file
from support.puzzles import planted
from support.reference import board_key as reference_key
from support.reference import reference_solve
from support.rotations import symmetry_factor, turned

#: Eternity2Puzzles.jl's documentation: clue 1, row scan from the bottom-left corner.
CLUE1_JULIA = 262_881_014_825
CLUE1_DISTINCT = 65_720_253_706


def _outside(square, width, height):
    row, col = divmod(square, width)
    return (row == 0, col == width - 1, row == height - 1, col == 0)


def symmetric_planted(width, height, colours, seed, symmetric=2, hints=0, hint_symmetric=False):
    """A planted puzzle (:func:`support.puzzles.planted`) in which up to ``symmetric`` inner
    squares of the solution show ``(a, b, a, b)`` (a third of them ``(a, a, a, a)``), so their
    tiles are rotationally symmetric; ``hints`` squares become hints, one of them on a
    symmetric tile (in any rotation showing its edges) when ``hint_symmetric``."""
    _, board = planted(width, height, colours, seed)
    rng = np.random.default_rng(seed + 1)
    n = width * height
    shown = [list(map(int, e)) for e in board.edges()]
    tile_at = [int(t) for t in board.tiles]
    turn_at = [int(r) for r in board.rotations]
    step = ((-1, 0), (0, 1), (1, 0), (0, -1))

    def set_join(square, side, colour):
        shown[square][side] = colour
        row, col = divmod(square, width)
        other = (row + step[side][0]) * width + col + step[side][1]
        shown[other][(side + 2) % 4] = colour

    inner = [s for s in range(n) if not any(_outside(s, width, height))]
    chosen = [int(s) for s in rng.permutation(inner)[:symmetric]]
    for square in chosen:
        a = int(rng.integers(1, colours + 1))
        b = a if rng.random() < 1 / 3 else int(rng.integers(1, colours + 1))
        for side, colour in enumerate((a, b, a, b)):
            set_join(square, side, colour)
    tiles = [None] * n  # original side i is shown on side (i + r) % 4
    for square in range(n):
        tiles[tile_at[square]] = tuple(shown[square][(i + turn_at[square]) % 4] for i in range(4))
    squares = [int(s) for s in rng.permutation(n)[:hints]]
    if hint_symmetric and chosen and hints:
        squares = [chosen[0]] + [s for s in squares if s != chosen[0]][: hints - 1]
    hinted = {}
    for square in squares:
        tile = tile_at[square]
        look = turned(tiles[tile], turn_at[square])
        hinted[square] = (tile, int(rng.choice([q for q in range(4) if turned(tiles[tile], q) == look])))
    return Puzzle(tiles, width, height, hinted, name=f"symmetric-{seed}")


def factor(puzzle) -> int:
    """Product of the symmetry factors of the tiles that are not hints."""
    hinted = {h.tile for h in puzzle.hints}
    return math.prod(symmetry_factor(t) for i, t in enumerate(puzzle.tiles) if i not in hinted)


def expanded(puzzle, distinct_solutions) -> set:
    """Every (tile, rotation) solution behind the distinct ones: each free tile in every
    rotation showing its edges, each hint in its given rotation."""
    hints = puzzle.hint_map
    out = set()
    for key in distinct_solutions:
        choices = []
        for square, (tile, rotation) in enumerate(key):
            if square in hints:
                choices.append([hints[square]])
                continue
            look = turned(puzzle.tiles[tile], rotation)
            choices.append([(tile, q) for q in range(4) if turned(puzzle.tiles[tile], q) == look])
        out.update(itertools.product(*choices))
    return out


def engines_for(puzzle) -> list[str]:
    """The engines a case runs on: macro needs even sides; the two-phase engine lists every
    balanced rotation set first, hundreds of thousands on a 24-square board with four
    colours (about a minute), so it runs on the boards of at most 20 squares here (its own
    tests cover larger ones with more colours)."""
    even = puzzle.width % 2 == 0 and puzzle.height % 2 == 0 and min(puzzle.width, puzzle.height) >= 4
    return [name for name in SOLVERS if (name != "macro" or even) and (name != "balanced" or puzzle.n_squares <= 20)]


FIXED = [  # (width, height, colours, seed, symmetric, hints, hint_symmetric)
    (4, 4, 3, 0, 3, 0, False),
    (4, 4, 3, 2, 2, 1, True),
    (5, 4, 3, 7, 3, 0, False),
    (4, 4, 2, 5, 4, 2, True),
    (4, 6, 4, 3, 4, 1, False),
]


@pytest.fixture(scope="module", params=FIXED, ids=lambda c: f"{c[0]}x{c[1]}-seed{c[3]}")
def case(request):
    puzzle = symmetric_planted(*request.param[:3], request.param[3], *request.param[4:])
    assert factor(puzzle) > 1, "the case must have a free symmetric tile"
    return puzzle, reference_solve(puzzle), reference_solve(puzzle, each_rotation=True)


# ---------------------------------------------------------------------------- engines
def test_the_reference_grows_by_the_symmetry_factors(case):
    puzzle, distinct, each = case
    assert each.count == distinct.count * factor(puzzle)
    assert each.solutions == expanded(puzzle, distinct.solutions)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_engine_enumerates_every_rotation_once(case, name):
    puzzle, distinct, each = case
    if name == "balanced" and name not in engines_for(puzzle):
        return  # too many rotation sets for a quick test (see engines_for)
    if name not in engines_for(puzzle):  # the macro engine on an odd side: refused in one line
        with pytest.raises(InputError, match="even width and height"):
            make_solver(name, each_rotation=True).solve(puzzle, k=None)
        return
    result = make_solver(name, each_rotation=True).solve(puzzle, k=None)
    assert result.complete and result.rotations == "each"
    keys = [board_key(b, each_rotation=True) for b in result.boards]
    assert result.solutions == len(keys) == len(set(keys)) == each.count
    assert set(keys) == {reference_key(b, each_rotation=True) for b in result.boards} == each.solutions
    assert result.solution_set() == each.solutions  # nothing merged by the result's own keys
    assert all(b.verify().valid for b in result.boards)
    plain = make_solver(name).solve(puzzle, k=None)
    assert plain.rotations == "distinct" and plain.solution_set() == distinct.solutions


def test_backtrack_nodes_are_the_reference_tree(case):
    puzzle, _, each = case
    for order in ("rowscan", "spiral-in"):
        ref = reference_solve(puzzle, order=resolve_order(order, puzzle.width, puzzle.height), each_rotation=True)
        for kernel in ("lists", "bits"):
            try:
                result = make_solver("backtrack", order=order, kernel=kernel, each_rotation=True).count(puzzle)
            except edgematch.InputError:
                assert kernel == "bits"
                continue
            assert result.solutions == each.count
            assert result.nodes_per_depth == ref.nodes[1:], (order, kernel)


@st.composite
def symmetric_puzzles(draw):
    width, height, colours = draw(
        st.sampled_from([(3, 3, 2), (4, 3, 3), (3, 4, 3), (4, 4, 3), (4, 4, 4), (5, 4, 4), (4, 6, 5), (6, 4, 5)])
    )
    return symmetric_planted(
        width,
        height,
        colours,
        draw(st.integers(0, 2**31)),
        symmetric=draw(st.integers(1, 4)),
        hints=draw(st.integers(0, 2)),
        hint_symmetric=draw(st.booleans()),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_puzzles())
def test_each_rotation_counts_are_the_distinct_counts_times_the_factors(puzzle):
    note(f"tiles {puzzle.tiles.tolist()} hints {puzzle.hints}")
    expected = factor(puzzle)
    for name in engines_for(puzzle):
        distinct = make_solver(name).count(puzzle)
        each = make_solver(name, each_rotation=True).count(puzzle)
        assert distinct.complete and each.complete
        assert (distinct.rotations, each.rotations) == ("distinct", "each")
        assert each.solutions == distinct.solutions * expected, name
    first = make_solver("backtrack", each_rotation=True).count(puzzle)
    again = make_solver("backtrack", order="colscan", corner="BR", each_rotation=True).count(puzzle)
    assert first.solutions == again.solutions


@pytest.mark.parametrize("shape", [(4, 4, 3, 11), (5, 4, 3, 4), (4, 6, 4, 3)])
def test_symmetry_breaking_in_both_conventions(shape):
    width, height, colours, seed = shape
    puzzle = symmetric_planted(width, height, colours, seed, symmetric=3)
    divisor = 4 if width == height else 2
    for name in engines_for(puzzle):
        if name == "colorpair":
            continue  # no symmetry option
        raw = make_solver(name, each_rotation=True).count(puzzle).solutions
        broken = make_solver(name, symmetry=True, each_rotation=True).count(puzzle).solutions
        plain = make_solver(name, symmetry=True).count(puzzle).solutions
        assert raw == broken * divisor, name
        assert broken == plain * factor(puzzle), name


def test_best_search_uses_every_rotation(case):
    """The best-score search walks the exact tree when no join may fail: on a puzzle with no
    solution it is exhaustive, with as many nodes as the exact count, in either convention;
    the best score does not depend on the convention."""
    puzzle, _, _ = case
    tiles = puzzle.tiles.copy()
    inner = next(i for i, t in enumerate(tiles) if (t > 0).all() and i not in {h.tile for h in puzzle.hints})
    tiles[inner][0] = tiles.max() + 1  # a colour no other side shows: no solution
    spoiled = Puzzle(tiles, puzzle.width, puzzle.height, puzzle.hint_map)
    scores = set()
    for each in (False, True):
        best = make_solver("backtrack", each_rotation=each).best(spoiled)
        count = make_solver("backtrack", each_rotation=each).count(spoiled)
        assert best.complete and count.solutions == 0
        assert best.nodes == count.nodes and best.rotations == ("each" if each else "distinct")
        scores.add(best.best_score)
    assert len(scores) == 1
    allowed = [make_solver("backtrack", schedule=1, each_rotation=each).best(puzzle) for each in (False, True)]
    assert allowed[0].best_score == allowed[1].best_score == puzzle.max_score


def test_board_key_keeps_rotations_apart_only_when_asked():
    puzzle = symmetric_planted(4, 4, 3, 0, symmetric=3)
    board = make_solver("backtrack", each_rotation=True).solve(puzzle, k=1).boards[0]
    square = next(s for s in range(puzzle.n_squares) if symmetry_factor(puzzle.tiles[board.tiles[s]]) > 1)
    other = edgematch.Board(puzzle, board.tiles, board.rotations)
    tile = int(board.tiles[square])
    other.place(square, tile, (int(board.rotations[square]) + 4 // symmetry_factor(puzzle.tiles[tile])) % 4)
    assert other.verify().valid
    assert board_key(board) == board_key(other)
    assert board_key(board, each_rotation=True) != board_key(other, each_rotation=True)


def test_front_door_passes_the_option():
    puzzle = symmetric_planted(4, 4, 3, 2, symmetric=2)
    plain = edgematch.count(puzzle)
    each = edgematch.count(puzzle, each_rotation=True)
    assert each.solutions == plain.solutions * factor(puzzle) and each.to_dict()["rotations"] == "each"
    assert edgematch.count(puzzle, solver="colorpair", each_rotation=True).solutions == each.solutions
    assert plain.to_dict()["rotations"] == "distinct"
    assert edgematch.estimate(puzzle, each_rotation=True).rotations == "each"


# ---------------------------------------------------------------------------- the estimator
@pytest.mark.parametrize("hints", ["fixed", "pooled"])
@pytest.mark.parametrize("seed", [0, 2, 5])
def test_estimate_grows_by_the_symmetry_factors(hints, seed):
    puzzle = symmetric_planted(5, 5, 4, seed, symmetric=4, hints=seed % 3, hint_symmetric=seed == 2)
    plain = estimate(puzzle, "rowscan", hints=hints)
    each = estimate(puzzle, "rowscan", hints=hints, each_rotation=True)
    assert factor(puzzle) > 1
    assert each.partial[-1] == plain.partial[-1] * factor(puzzle)  # exact fractions
    assert (plain.rotations, each.rotations) == ("distinct", "each")
    # frame squares come first on a row scan: no inner tile placed, no difference yet
    assert each.partial[1 : puzzle.width] == plain.partial[1 : puzzle.width]
    assert each.nodes > plain.nodes
    ranked = compare_orders(puzzle, ["rowscan", "spiral-in"], hints=hints, each_rotation=True)
    assert all(est.rotations == "each" and est.partial[-1] == each.partial[-1] for _, est in ranked)


def test_estimate_with_each_rotation_places_every_rotation_at_depth_one():
    """The first inner square of a scan: expected placements = free inner tiles x 4 x the
    chance its joins match; with symmetric tiles the distinct convention has fewer."""
    puzzle = symmetric_planted(3, 3, 3, 1, symmetric=1)
    order = [4, 0, 1, 2, 3, 5, 6, 7, 8]  # the only inner square first: no join closed yet
    each = estimate(puzzle, order, each_rotation=True)
    plain = estimate(puzzle, order)
    assert each.partial[1] == 4
    assert plain.partial[1] == 4 // symmetry_factor(next(t for t in puzzle.tiles if (t > 0).all()))


def test_clue1_estimate_matches_eternity2puzzles_jl():
    clue1 = edgematch.load("clue1")
    each = estimate(clue1, "rowscan", hints="pooled", corner="BL", each_rotation=True)
    plain = estimate(clue1, "rowscan", hints="pooled", corner="BL")
    assert round(each.solutions) == CLUE1_JULIA
    assert round(plain.solutions) == CLUE1_DISTINCT
    assert factor(clue1) == 4 and each.partial[-1] == 4 * plain.partial[-1]


# ---------------------------------------------------------------------------- command line
def test_cli_estimate_clue1_in_both_conventions(capsys):
    base = ["estimate", "clue1", "--order", "rowscan", "--corner", "BL", "--hints", "pooled"]
    code, out, err = run_cli(capsys, *base, "--json", "--each-rotation")
    assert code == 0, err
    data = json.loads(out)
    assert round(data["expected_solutions"]) == CLUE1_JULIA and data["rotations"] == "each"
    code, out, err = run_cli(capsys, *base, "--json")
    data = json.loads(out)
    assert round(data["expected_solutions"]) == CLUE1_DISTINCT and data["rotations"] == "distinct"
    code, out, _ = run_cli(capsys, *base, "--each-rotation")
    assert code == 0 and "rotations each" in out.splitlines()[0]
    assert "expected solutions: 2.6288e+11" in out
    code, out, _ = run_cli(capsys, *base)
    assert code == 0 and "rotations distinct" in out.splitlines()[0]
    assert "expected solutions: 6.5720e+10" in out
    code, out, _ = run_cli(
        capsys, "estimate", "clue1", "--compare", "rowscan", "spiral-in", "--each-rotation", "--json"
    )
    assert code == 0 and all(row["rotations"] == "each" for row in json.loads(out))


@pytest.fixture
def puzzle_file(tmp_path):
    puzzle = symmetric_planted(4, 4, 3, 0, symmetric=3)
    return puzzle, write_puzzle_file(tmp_path, puzzle)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_cli_count_says_which_convention(capsys, puzzle_file, solver):
    puzzle, path = puzzle_file
    code, out, err = run_cli(capsys, "count", path, "--solver", solver, "--json", "--quiet")
    assert code == 0, err
    plain = json.loads(out)
    code, out, err = run_cli(capsys, "count", path, "--solver", solver, "--each-rotation", "--json", "--quiet")
    assert code == 0, err
    each = json.loads(out)
    assert (plain["rotations"], each["rotations"]) == ("distinct", "each")
    assert each["solutions"] == plain["solutions"] * factor(puzzle) > 0
    code, out, _ = run_cli(capsys, "count", path, "--solver", solver, "--each-rotation", "--quiet")
    assert code == 0 and out.startswith(f"{each['solutions']:,} solutions") and "rotations: each" in out
    code, out, _ = run_cli(capsys, "count", path, "--solver", solver, "--quiet")
    assert code == 0 and "rotations: distinct" in out


def test_cli_count_symmetry_and_each_rotation(capsys, puzzle_file):
    puzzle, path = puzzle_file
    code, out, _ = run_cli(capsys, "count", path, "--symmetry", "--each-rotation", "--json", "--quiet")
    broken = json.loads(out)
    code, out, _ = run_cli(capsys, "count", path, "--each-rotation", "--json", "--quiet")
    assert code == 0 and broken["solutions"] * 4 == json.loads(out)["solutions"]


def test_cli_solve_all_writes_every_rotation(capsys, puzzle_file, tmp_path):
    puzzle, path = puzzle_file
    expected = reference_solve(puzzle, each_rotation=True)
    (tmp_path / "all").mkdir()
    code, out, err = run_cli(
        capsys, "solve", path, "--all", "--each-rotation", "--out", tmp_path / "all" / "s.txt", "--json", "--quiet"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["rotations"] == "each" and data["solutions"] == len(data["files"]) == expected.count
    boards = {reference_key(edgematch.load_board(puzzle, f), each_rotation=True) for f in data["files"]}
    assert boards == expected.solutions
    code, out, err = run_cli(
        capsys, "solve", path, "-k", "2", "--each-rotation", "--out", tmp_path / "two.txt", "--quiet"
    )
    assert code == 0 and "rotations: each" in out


def test_cli_search_says_which_convention(capsys, puzzle_file):
    _, path = puzzle_file
    code, out, err = run_cli(capsys, "search", path, "--schedule", "1", "--each-rotation", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert data["rotations"] == "each" and data["best_score"] == data["max_score"]
    code, out, _ = run_cli(capsys, "search", path, "--each-rotation", "--quiet")
    assert code == 0 and "rotations: each" in out


def test_the_documented_exact_count(capsys, tmp_path):
    """docs/conventions.md: a generated 4x4 with two (a, b, a, b) tiles, 1,536 solutions
    (1536 = the brute-force reference's count) and 4 x as many with every rotation."""
    path = tmp_path / "p4.txt"
    code, _, err = run_cli(
        capsys,
        "generate",
        "4",
        "--frame-colours",
        "2",
        "--inner-colours",
        "2",
        "--seed",
        "2",
        "--hints",
        "none",
        "--out",
        path,
    )
    assert code == 0, err
    puzzle = edgematch.load(path)
    assert factor(puzzle) == 4 and [symmetry_factor(puzzle.tiles[t]) for t in puzzle.symmetric_tiles] == [2, 2]
    assert reference_solve(puzzle).count == 1536
    code, out, _ = run_cli(capsys, "count", path)
    assert code == 0 and out.startswith("1,536 solutions\n") and out.rstrip().endswith("rotations: distinct")
    code, out, _ = run_cli(capsys, "count", path, "--each-rotation")
    assert code == 0 and out.startswith("6,144 solutions\n") and out.rstrip().endswith("rotations: each")
