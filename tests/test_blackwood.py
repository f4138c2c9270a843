"""Blackwood's method: his scan order, break indexes, colour-pattern bound and sorted lists."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from edgematch.engines.backtrack import BacktrackSolver
from edgematch.engines.backtrack import best as best_module
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model.orders import scan_order
from edgematch.model.schedules import schedule_array

PEERS = Path(__file__).resolve().parents[1] / "benchmarks" / "peers" / "jb470_scan_order.txt"


def test_the_blackwood_order_is_jb470s_on_16x16():
    """The grid of the step at which libblackwood's JB470 fills each cell (official
    orientation, transcribed in benchmarks/peers) read back into an order."""
    lines = PEERS.read_text().splitlines()
    at = lines.index("# frame B grid: step (depth) at which each cell is filled, rows top->bottom")
    steps = np.array([[int(x) for x in line.split()] for line in lines[at + 1 : at + 17]]).ravel()
    assert scan_order("blackwood", 16, 16) == list(np.argsort(steps))


def test_the_blackwood_order_on_other_boards():
    for w, h in ((10, 6), (12, 9), (16, 16)):
        order = scan_order("blackwood", w, h)
        assert sorted(order) == list(range(w * h))
        assert order[: w] == [(h - 1) * w + c for c in range(w)]  # the bottom row first, from the left
        assert order[-1] == w - 1  # the top-right corner last
    assert scan_order("blackwood", 16, 16, "TL")[0] == 0
    assert scan_order("blackwood", 9, 9) == scan_order("rowscan", 9, 9, "BL")  # too small for its parts


def test_the_clued_order_fills_his_first_three_rows_column_by_column():
    his, clued = scan_order("blackwood", 16, 16), scan_order("blackwood-clues", 16, 16)
    assert clued[:48] == [r * 16 + c for c in range(16) for r in (15, 14, 13)]  # P1, O1, N1, P2, ...
    assert clued[48:] == his[48:] and sorted(clued[:48]) == sorted(his[:48])
    assert scan_order("blackwood-clues", 16, 16, "TL")[:3] == [0, 16, 32]
    for w, h in ((10, 6), (9, 9)):
        assert sorted(scan_order("blackwood-clues", w, h)) == list(range(w * h))


def test_his_bound_on_a_clued_board_counts_the_tiles_the_search_placed():
    """Each hint beyond the starter is on the board from the start: his ramp moves that many
    tiles later, the same search as the ramp written out shifted."""
    from edgematch.loading import load
    from edgematch.model.schedules import blackwood_pattern_bound

    his, clued = blackwood_pattern_bound(), blackwood_pattern_bound(5)
    assert len(clued) == len(his) == 257 and clued[:4].sum() == 0 and (clued[4:] == his[:-4]).all()
    assert his[30] > 0 and clued[34] == his[30] and clued[-1] == his[-1] == 119
    assert (schedule_array("blackwood", 256, what="priority schedule", hints=5) == clued).all()
    puzzle = load("e2-clues")
    common = dict(order="blackwood-clues", schedule="blackwood", priority_colours=[20, 5, 7], priority_first=True)
    common.update(node_limit=300_000, seed=1, kernel="lists", endgame=0)
    named = BacktrackSolver(priority_schedule="blackwood", **common).best(puzzle)
    written = BacktrackSolver(priority_schedule=[int(v) for v in clued[1:]], **common).best(puzzle)
    unshifted = BacktrackSolver(priority_schedule=[int(v) for v in his[1:]], **common).best(puzzle)
    assert named.nodes_per_depth == written.nodes_per_depth
    assert named.nodes_per_depth != unshifted.nodes_per_depth


def test_blackwood_schedules():
    errors = schedule_array("blackwood", 256, max_score=480)
    assert list(np.flatnonzero(np.diff(errors)) + 1) == [198, 204, 211, 217, 222, 226, 230, 234, 237, 239]
    assert errors[197] == 0 and errors[198] == 1 and errors[256] == 10
    bound = schedule_array("blackwood", 256, what="priority schedule")
    # his T(d) at the ends of his five ramps: 17..26, 27..56, 57..76, 77..102, 103..160; his
    # depth d holds d + 1 tiles, the starter counted where it sits in his order (depth 119):
    # before it our board, which holds the starter from the start, has d + 2
    depths = (16, 17, 26, 27, 56, 57, 76, 77, 102, 103, 160)
    tiles = [d + 2 if d < 119 else d + 1 for d in depths]
    assert [bound[t] for t in tiles] == [0, 2, 28, 29, 70, 71, 89, 89, 105, 106, 119]
    assert bound[18] == 0 and bound[120] == math.floor((118 - 102) / 4.4615 + 106)
    assert bound[121] == math.floor((120 - 102) / 4.4615 + 106)
    assert bound[256] == 119 and (np.diff(bound) >= 0).all()
    with pytest.raises(InputError, match="16x16"):
        schedule_array("blackwood", 100)


def _reference_nodes(puzzle, order, weights, bound):
    """Placements of an exhaustive exact search in ``order`` that keeps ``bound[n]`` sides
    of the priority colours on the board once ``n`` tiles are placed: plain recursion."""
    W = puzzle.width
    tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
    nodes = [0] * len(order)
    board: dict[int, tuple[int, ...]] = {}
    used = [False] * len(tiles)

    def fits(square, shown):
        r, c = divmod(square, W)
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < puzzle.height and 0 <= cc < W):
                if shown[side] != 0:
                    return False
            elif shown[side] == 0:
                return False
            elif rr * W + cc in board and board[rr * W + cc][(side + 2) % 4] != shown[side]:
                return False
        return True

    def dfs(depth, prio):
        if depth == len(order):
            return
        for t, colours in enumerate(tiles):
            if used[t] or prio + weights[t] < bound[depth + 1]:
                continue
            looks = {tuple(colours[(s - r) % 4] for s in range(4)) for r in range(4)}
            for shown in looks:
                if fits(order[depth], shown):
                    nodes[depth] += 1
                    board[order[depth]] = shown
                    used[t] = True
                    dfs(depth + 1, prio + weights[t])
                    used[t] = False
                    del board[order[depth]]

    dfs(0, 0)
    return nodes


@pytest.mark.parametrize("first", [False, True])
def test_priority_search_visits_exactly_the_reference_tree(first):
    """With the bound and no invalid joins, an exhausted search places exactly the nodes of
    a plain recursive search, depth by depth, whatever order the lists are in: the look
    into a child's list and Blackwood's cut of a sorted list skip only what fails."""
    checked = 0
    for seed in range(12):
        puzzle = generate(4, 4, 2, 3, seed=seed).puzzle
        colour = puzzle.inner_colours[seed % len(puzzle.inner_colours)]
        weights = [sum(int(c) == colour for c in t) for t in puzzle.tiles]
        bound = [0] * 17
        for n in range(1, 17):
            bound[n] = min(sum(weights), (n * sum(weights)) // 12)
        spec = "list:" + ",".join(str(b) for b in bound[1:])
        result = BacktrackSolver(
            schedule="0", priority_colours=[colour], priority_schedule=spec, priority_first=first, seed=seed
        ).best(puzzle)
        if not result.complete:
            continue  # reached the maximum score: the tree was not exhausted
        order = list(BacktrackSolver().search_squares(puzzle))
        assert result.nodes_per_depth == _reference_nodes(puzzle, order, weights, bound)
        checked += 1
    assert checked >= 6


def test_the_cut_of_a_sorted_list_is_the_same_tree_as_skipping(monkeypatch):
    """Blackwood's cut (the first tile below the bound ends a sorted list) against skipping
    candidate by candidate, with invalid joins allowed and a node limit."""
    for seed in range(3):
        puzzle = generate(6, 6, 3, 5, seed=seed).puzzle
        colours = list(puzzle.inner_colours[:2])
        options = dict(schedule="12:1,24:3", priority_colours=colours, priority_schedule="10:6,20:14",
                       priority_first=True, seed=seed, node_limit=40_000)
        cut = BacktrackSolver(**options).best(puzzle)
        with monkeypatch.context() as patch:
            patch.setattr(best_module, "CUT_SORTED_LISTS", False)
            skipped = BacktrackSolver(**options).best(puzzle)
        assert cut.statistics["priority_first"] is True
        assert cut.nodes == skipped.nodes and cut.nodes_per_depth == skipped.nodes_per_depth
        assert cut.best_score == skipped.best_score and (cut.best_board.tiles == skipped.best_board.tiles).all()


def test_priority_first_tries_the_richest_tiles_first():
    """The first tile placed is one with the most sides of the priority colours."""
    puzzle = generate(6, 6, 3, 5, seed=7).puzzle
    colour = puzzle.frame_colours[0]
    weights = [sum(int(c) == colour for c in t) for t in puzzle.tiles]
    result = BacktrackSolver(schedule="0", priority_colours=[colour], priority_first=True, node_limit=2).best(puzzle)
    first = int(result.best_board.tiles[0])  # the two placements make the first join: a best board
    assert first >= 0 and result.best_board.n_placed == 2
    corners = [t for t, tile in enumerate(puzzle.tiles) if (np.asarray(tile) == 0).sum() == 2]
    assert weights[first] == max(weights[t] for t in corners)
