"""The macro search (2x2 blocks on the half-size board) against the plain backtracker.

The plain engine is the reference: it shares no search code with the macro engine (only
the puzzle model), and is itself checked against a brute force, a reference solver and
CP-SAT in its own tests.  Every comparison is of exact counts *and* of solution sets.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import edgematch
from edgematch.engines import base as engine_base
from edgematch.engines import make_solver
from edgematch.engines.backtrack import macro_kernel as MK
from edgematch.engines.backtrack import macro_search as MS
from edgematch.engines.backtrack.macro_search import MacroSolver, build_macro_plan, position_class
from edgematch.engines.backtrack.solver import BacktrackSolver
from edgematch.errors import InputError
from edgematch.formats import format_puzzle
from edgematch.generator import generate
from edgematch.model import Hint
from support.cli import run_cli as _cli_json

# (width, height, frame colours, inner colours, hints, seeds): few colours, so that most
# instances have several solutions (up to a thousand); seeds with many thousands are left
# out only to keep the test fast.  60 puzzles.
CASES = [
    (4, 4, 2, 2, "none", (0,)),
    (4, 4, 2, 2, "corner", (0, 2, 3)),
    (4, 4, 2, 2, 2, range(6)),
    (4, 4, 1, 3, 3, (1, 3, 4)),
    (4, 4, 2, 3, "none", (0, 1, 3, 4, 5)),
    (6, 4, 2, 4, 2, (0, 1, 3, 4, 5)),
    (4, 6, 2, 4, 2, (0, 1, 2, 4, 5)),
    (6, 4, 2, 5, "none", (0, 2, 3, 4, 5)),
    (4, 6, 2, 5, "none", range(6)),
    (6, 6, 3, 6, 2, range(6)),
    (6, 6, 3, 6, 3, range(6)),
    (6, 6, 3, 7, "none", range(6)),
    (6, 6, 3, 6, "corner", (0, 1, 5)),
]


def _puzzles(cases=CASES):
    for w, h, b, i, hints, seeds in cases:
        for seed in seeds:
            yield generate(w, h, b, i, seed, hints).puzzle


def _assert_same(puzzle, macro_solver=None):
    reference = BacktrackSolver().solve(puzzle, k=None)
    macro = (macro_solver or MacroSolver()).solve(puzzle, k=None)
    assert reference.complete and macro.complete
    assert macro.solutions == reference.solutions == len(macro.boards)
    assert macro.solution_set() == reference.solution_set(), puzzle.name
    for board in macro.boards:
        assert board.verify().valid, (puzzle.name, board.verify().reasons)
    return reference, macro


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}x{c[1]}-b{c[2]}i{c[3]}-hints-{c[4]}")
def test_counts_and_solution_sets_equal_the_plain_engine(case):
    multiple = 0
    for puzzle in _puzzles([case]):
        reference, macro = _assert_same(puzzle)
        assert MacroSolver().count(puzzle).solutions == reference.solutions
        multiple += reference.solutions > 1
    assert multiple > 0  # the case exercises several solutions


def test_owen1_6x6_has_260_solutions_that_all_verify():
    puzzle = edgematch.load("owen1-6x6")
    result = MacroSolver().solve(puzzle, k=None)
    assert result.complete and result.solutions == 260
    assert len(result.solution_set()) == 260
    assert all(board.verify().valid for board in result.boards)
    assert result.statistics["tiles_placed"] == 4 * result.nodes
    assert sum(result.nodes_per_depth) == result.nodes and len(result.nodes_per_depth) == 9


@pytest.mark.parametrize("name", ["owen1-4x4", "owen1-6x4", "owen2-6x4", "owen1-8x4"])
def test_owen_puzzles_agree_with_the_plain_engine(name):
    _assert_same(edgematch.load(name))


def test_hash_table_path_gives_the_same_results(monkeypatch):
    """Large key spaces use the hash table instead of the direct one: force it."""
    monkeypatch.setattr(MK, "DIRECT_LIMIT", 0)
    puzzles = list(_puzzles([(4, 4, 2, 3, "none", (0, 1)), (6, 6, 3, 6, 2, range(3)), (4, 6, 2, 4, 2, (1, 2))]))
    assert build_macro_plan(puzzles[0]).bits > 0
    for puzzle in puzzles:
        _assert_same(puzzle)


def test_many_colours_use_wide_rows_and_the_hash_table():
    """Over 255 colours: pairs no longer fit 16 bits (int32 rows) and the key space is
    far too large for a direct table."""
    puzzle = generate(14, 14, 50, 600, 3, 3).puzzle
    plan = build_macro_plan(puzzle)
    assert plan.blocks.dtype == np.int32 and plan.bits > 0
    _assert_same(puzzle)


def test_search_resumes_exactly_across_tiny_slices(monkeypatch):
    """A few nodes per kernel call: the same solutions, nodes and nodes per depth."""
    puzzles = list(_puzzles([(4, 4, 2, 2, 2, range(3)), (6, 6, 3, 6, 3, (0,))]))
    whole = [MacroSolver().solve(p, k=None) for p in puzzles]
    monkeypatch.setattr(MS, "FIRST_SLICE_NODES", 1)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 3)
    for puzzle, full in zip(puzzles, whole):
        sliced = MacroSolver().solve(puzzle, k=None)
        assert sliced.solution_set() == full.solution_set()
        assert (sliced.solutions, sliced.nodes, sliced.nodes_per_depth) == (full.solutions, full.nodes, full.nodes_per_depth)
        assert sliced.statistics["kernel_calls"] > full.statistics["kernel_calls"]


def test_first_k_and_node_limit_stop_early():
    puzzle = generate(4, 4, 2, 2, 0, "none").puzzle  # 1536 solutions
    first = MacroSolver().solve(puzzle, k=5)
    assert (first.solutions, len(first.boards), first.complete, first.stopped_by) == (5, 5, False, "solutions")
    everything = MacroSolver().solve(puzzle, k=None).solution_set()
    assert first.solution_set() <= everything
    limited = MacroSolver(node_limit=100).count(puzzle)
    assert (limited.nodes, limited.complete, limited.stopped_by) == (100, False, "nodes")


def test_callback_can_stop_the_enumeration():
    puzzle = generate(4, 4, 2, 2, 0, "none").puzzle
    seen = []
    result = MacroSolver().enumerate(puzzle, lambda board: seen.append(board) or len(seen) == 3)
    assert len(seen) == 3 and result.stopped_by == "callback" and not result.boards


def test_symmetry_counts_exactly_a_quarter():
    for puzzle in _puzzles([(4, 4, 2, 3, "none", range(3)), (6, 6, 3, 7, "none", range(2))]):
        raw = MacroSolver().count(puzzle).solutions
        assert MacroSolver(symmetry=True).count(puzzle).solutions * 4 == raw


def test_hints_are_honoured_including_contradictory_ones():
    made = generate(6, 6, 3, 6, 3, 2)
    puzzle = made.puzzle
    _, macro = _assert_same(puzzle)
    for board in macro.boards:
        for h in puzzle.hints:
            assert board.tiles[h.square] == h.tile
    # an inner square's planted tile, hinted in each rotation next to its planted east
    # neighbour: the wrong rotations contradict the neighbour's hint (0 solutions)
    square = 2 * 6 + 2
    counts = []
    for turn in range(4):
        hints = [Hint(s, int(made.solution.tiles[s]), (int(made.solution.rotations[s]) + (turn if s == square else 0)) % 4)
                 for s in (square, square + 1)]
        hinted = puzzle.without_hints().with_hints(hints)
        reference = BacktrackSolver().count(hinted).solutions
        assert MacroSolver().count(hinted).solutions == reference
        counts.append(reference)
    assert counts[0] > 0 and 0 in counts[1:]


def test_symmetric_hint_rotation_is_kept_on_the_board():
    """A hint in a rotation that shows the same edges as a smaller one keeps its own."""
    tiles = generate(4, 4, 2, 2, 0, "none").puzzle.tiles.copy()
    inner = next(i for i in range(len(tiles)) if (tiles[i] != 0).all())
    tiles[inner] = [tiles[inner][0], tiles[inner][1]] * 2  # half-turn symmetric
    puzzle = edgematch.model.Puzzle(tiles, 4, 4)
    base = BacktrackSolver().solve(puzzle, k=1)
    assert base.boards, "the altered puzzle must keep a solution for this test to mean anything"
    board = base.boards[0]
    square = int(np.flatnonzero(board.tiles == inner)[0])
    rotation = (int(board.rotations[square]) + 2) % 4
    hinted = puzzle.with_hints([Hint(square, inner, rotation)])
    reference, macro = _assert_same(hinted)
    assert macro.boards and all(int(b.rotations[square]) == rotation for b in macro.boards)


def test_position_classes_turn_corner_and_edge_blocks_to_their_side():
    classes = [[position_class(r, c, 4, 3) for c in range(4)] for r in range(3)]
    assert classes == [
        [("corner", 0), ("edge", 0), ("edge", 0), ("corner", 1)],
        [("edge", 3), ("inner", 0), ("inner", 0), ("edge", 1)],
        [("corner", 3), ("edge", 2), ("edge", 2), ("corner", 2)],
    ]


def test_hash_table_finds_every_key_and_no_other():
    rng = np.random.default_rng(3)
    keys = np.unique(rng.integers(0, 10**12, 5000))
    bits = MK.table_bits(len(keys))
    slot_key, slot_value = MK.build_hash(keys, bits)
    assert all(MK.lookup(int(k), slot_key, slot_value, bits) == i for i, k in enumerate(keys))
    absent = np.setdiff1d(rng.integers(0, 10**12, 2000), keys)
    assert all(MK.lookup(int(k), slot_key, slot_value, bits) == -1 for k in absent)


def test_skips_jump_exactly_over_the_blocks_sharing_the_used_tile():
    plan = build_macro_plan(generate(6, 6, 3, 6, 3, 2).puzzle)
    blocks = plan.blocks
    assert plan.bits == 0
    keys = np.repeat(np.arange(len(plan.key_start) - 1), np.diff(plan.key_start))  # direct table: key of each block
    assert len(keys) == len(blocks)
    for i in range(0, len(blocks), 7):
        for c, column in ((0, MK.B_SKIP0), (1, MK.B_SKIP1)):
            j = i + 1
            while j < len(blocks) and keys[j] == keys[i] and (blocks[j, :c + 1] == blocks[i, :c + 1]).all():
                j += 1
            assert i + blocks[i, column] == j


@pytest.mark.parametrize("size", [(5, 4), (4, 5), (5, 5), (2, 4), (4, 2)])
def test_boards_that_cannot_be_cut_into_2x2_blocks_are_refused(size):
    puzzle = generate(*size, seed=1).puzzle
    with pytest.raises(InputError, match="macro solver"):
        MacroSolver().count(puzzle)


def test_only_the_row_scan_is_offered():
    with pytest.raises(InputError, match="row scan"):
        make_solver("macro", order="spiral-in")
    with pytest.raises(InputError, match="top-left"):
        make_solver("macro", corner="BR")



def test_count_command_with_the_macro_solver(tmp_path, capsys):
    puzzle = generate(6, 4, 2, 5, 0, "none").puzzle
    path = tmp_path / "p.txt"
    path.write_text(format_puzzle(puzzle, "edgematch"))
    results = {}
    for solver in ("macro", "backtrack"):
        code, out, _ = _cli_json(capsys, "count", str(path), "--solver", solver, "--json", "--quiet")
        assert code == 0
        results[solver] = json.loads(out)
    macro = results["macro"]
    assert macro["solver"] == "macro" and macro["complete"] is True
    assert macro["solutions"] == results["backtrack"]["solutions"] > 1
    assert macro["statistics"]["nodes_are"].startswith("nodes = macro pieces")

    odd = tmp_path / "odd.txt"
    odd.write_text(format_puzzle(generate(5, 4, seed=2).puzzle, "edgematch"))
    code, out, err = _cli_json(capsys, "count", str(odd), "--solver", "macro", "--json")
    assert code == 2 and "even width and height" in err and len(err.strip().splitlines()) == 1


def test_split_partitions_the_search_at_every_depth():
    """Macro split: every valid filling of the first macro squares; the counts below them add
    up to the whole count at every depth (the root alone at depth 0, the solutions at full depth)."""
    from edgematch.engines.base import Subtree

    puzzle = generate(6, 4, 2, 5, seed=5).puzzle  # 528 solutions
    solver = MacroSolver()
    whole = solver.count(puzzle)
    assert whole.complete and whole.solutions > 0
    for depth in (0, 1, 6):  # (between them the cut holds up to 150,000 subtrees here)
        subtrees, head = solver.split(puzzle, depth)
        assert head.solutions == 0 and head.statistics["subtrees"] == len(subtrees)
        assert all(isinstance(s, Subtree) and s.verify(require_complete=False).valid for s in subtrees)
        assert all(s.n_placed == 4 * depth for s in subtrees)
        assert sum(solver.count(puzzle, start=s).solutions for s in subtrees) == whole.solutions, depth
    assert len(solver.split(puzzle, 6)[0]) == whole.solutions  # full depth: the solutions themselves
    with pytest.raises(InputError, match="split depth 7 outside 0..6"):
        solver.split(puzzle, 7)
