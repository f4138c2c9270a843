"""The bitboard kernel walks exactly the list kernel's tree.

Both exact kernels must agree on everything a user or a split can observe: solutions and
their order, nodes, nodes per depth, split prefixes and subtree counts, and the results of
runs cut into tiny slices.  The instances include duplicate tiles, rotationally symmetric
tiles and tiles showing one colour pair in two rotations (the bitboard's duplicate
layers), hints, rectangular boards and every named scan order.
"""

from __future__ import annotations

import numpy as np
import pytest

import edgematch
from edgematch.engines import base as engine_base
from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.backtrack import solver as solver_module
from edgematch.engines.backtrack.bit_kernel import bit_tables
from edgematch.engines.result import board_key
from edgematch.errors import InputError
from edgematch.generator import generate

ORDERS = ["rowscan", "colscan", "spiral-in", "spiral-out", "diagonal", "frame"]
CASES = [  # width, height, frame colours, inner colours, hints, seed
    (w, h, b, i, hints, seed)
    for seed, (w, h, b, i, hints) in enumerate([
        (3, 3, 2, 2, "none"), (4, 3, 2, 2, "none"), (4, 4, 2, 2, "none"), (4, 4, 2, 3, "none"),
        (4, 4, 2, 4, 2), (5, 3, 2, 3, "corner"), (5, 4, 2, 4, "none"), (3, 5, 2, 2, 1),
        (5, 5, 2, 4, "none"), (5, 5, 3, 5, "corner"), (2, 2, 1, 1, "none"), (2, 5, 1, 2, "none"),
        (6, 4, 2, 4, 2), (4, 6, 3, 5, "none"),
    ])
]


FIRST = 200  # solutions compared in order (all of them are counted)


def _both(puzzle, order, **kw):
    """Counts and the first solutions of each kernel."""
    results = {}
    for kernel in ("lists", "bits"):
        solver = BacktrackSolver(order=order, kernel=kernel, **kw)
        count = solver.count(puzzle)
        count.boards = solver.solve(puzzle, k=FIRST).boards
        assert count.statistics["kernel"] == kernel
        results[kernel] = count
    return results["lists"], results["bits"]


def _same(a, b):
    assert a.solutions == b.solutions
    assert a.nodes == b.nodes
    assert a.nodes_per_depth == b.nodes_per_depth
    assert [board_key(x) for x in a.boards] == [board_key(x) for x in b.boards]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("w,h,b,i,hints,seed", CASES)
def test_both_kernels_give_the_same_solutions_in_the_same_order_and_nodes(w, h, b, i, hints, seed, order):
    puzzle = generate(w, h, b, i, seed=seed, hints=hints).puzzle
    lists, bits = _both(puzzle, order)
    _same(lists, bits)
    for board in bits.boards:
        assert board.verify().valid


def test_the_instances_exercise_duplicate_layers():
    """Some lists of the cases above hold one tile in two rotations (three equal sides)."""
    layered = 0
    for w, h, b, i, hints, seed in CASES:
        for order in ORDERS:
            solver = BacktrackSolver(order=order)
            plan = solver.plan(generate(w, h, b, i, seed=seed, hints=hints).puzzle)
            tables = bit_tables(plan, plan.exact_phases())
            layered += tables is not None and tables.dups is not None
    assert layered >= 5


def test_owen_6x6_with_duplicate_layers_counts_260_on_both_kernels():
    """Both kernels count Brendan Owen's set 1 6x6 to the end: 260 solutions (65 up to board
    rotation) in 69,284,103 row-scan nodes, the community's figures (data/files/brendan_owen/
    SOURCE.txt; groups.io eternity2 msgs 4604, 7771, 7777), on a puzzle whose bitboard
    tables need duplicate layers."""
    puzzle = edgematch.load("owen1-6x6")
    plan = BacktrackSolver().plan(puzzle)
    assert bit_tables(plan, plan.exact_phases()).dups is not None
    lists = BacktrackSolver(kernel="lists").count(puzzle)
    bits = BacktrackSolver(kernel="bits").count(puzzle)
    for result in (lists, bits):
        assert result.complete and (result.solutions, result.nodes) == (260, 69_284_103)
    assert lists.nodes_per_depth == bits.nodes_per_depth


@pytest.mark.parametrize("order", ["rowscan", "spiral-in"])
def test_split_prefixes_and_subtrees_agree(order):
    puzzle = generate(5, 4, 2, 3, seed=21).puzzle
    prefixes = {}
    for kernel in ("lists", "bits"):
        solver = BacktrackSolver(order=order, kernel=kernel)
        boards, head = solver.split(puzzle, 6)
        subtotal = [solver.count(puzzle, start=b) for b in boards]
        prefixes[kernel] = ([board_key(b) for b in boards], head.nodes,
                            [(r.solutions, r.nodes) for r in subtotal])
    assert prefixes["lists"] == prefixes["bits"]


def test_first_k_and_tiny_slices_agree(monkeypatch):
    puzzle = generate(5, 5, 3, 5, seed=9, hints="corner").puzzle
    whole = BacktrackSolver(kernel="lists").solve(puzzle, k=None)
    first = BacktrackSolver(kernel="bits").solve(puzzle, k=3)
    assert [board_key(b) for b in first.boards] == [board_key(b) for b in whole.boards[:3]]
    monkeypatch.setattr(solver_module, "FIRST_SLICE_NODES", 97)
    monkeypatch.setattr(engine_base, "next_budget", lambda budget, nodes, elapsed, slice_seconds: 97)
    sliced = BacktrackSolver(kernel="bits").solve(puzzle, k=None)
    assert sliced.statistics["kernel_calls"] > 1000
    _same(whole, sliced)


def test_auto_uses_lists_when_a_class_exceeds_64_tiles_and_bits_refuses():
    puzzle = generate(11, 11, 3, 6, seed=1).puzzle  # 81 inner tiles
    result = BacktrackSolver(node_limit=20_000).count(puzzle)
    assert result.statistics["kernel"] == "lists"
    with pytest.raises(InputError, match="64 tiles per class"):
        BacktrackSolver(kernel="bits", node_limit=10).count(puzzle)
    with pytest.raises(InputError, match="unknown kernel"):
        BacktrackSolver(kernel="fast")


def test_auto_uses_bits_on_benoist_sized_puzzles():
    puzzle = generate(10, 10, 4, 12, seed=2).puzzle  # 64 inner tiles: one full word
    result = BacktrackSolver(node_limit=50_000).count(puzzle)
    assert result.statistics["kernel"] == "bits"
    lists = BacktrackSolver(kernel="lists", node_limit=50_000).count(puzzle)
    assert (lists.nodes, lists.nodes_per_depth) == (result.nodes, result.nodes_per_depth)
    assert np.sum(result.nodes_per_depth) == result.nodes
