"""The endgame of a best-score search: the empty squares of a nearly full board completed
with the best possible score (a CP-SAT model), then a short tabu polish of the whole board.

A break backtracker's best board usually stops some squares short of the end, where no
remaining tile fits within the schedule; the greedy fill (:mod:`.fill`) then places the
rest one square at a time.  With few squares left the best completion is a small
assignment problem with a quadratic objective (joins between two empty squares), which
CP-SAT solves to optimality in well under a second for a dozen squares.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from ...model import Board
from ...model import tiles as T
from .fill import fill_board

#: seconds CP-SAT may spend on one completion (it returns its best so far after that)
COMPLETION_SECONDS = 10.0


@dataclass
class Completion:
    """A completed board, whether CP-SAT proved its score the best possible, and the score
    of the greedy fill of the same partial board (for comparison)."""

    board: Board
    optimal: bool
    greedy_score: int


def complete_best(board: Board, seconds: float = COMPLETION_SECONDS) -> Completion:
    """``board`` with every empty square filled by a remaining tile so that the score is
    the largest possible (placed tiles stay; frame sides face the outside)."""
    puzzle = board.puzzle
    W, H = puzzle.width, puzzle.height
    greedy = fill_board(board)
    empty = [int(s) for s in np.flatnonzero(board.tiles < 0)]
    if not empty:
        return Completion(board.copy(), True, greedy.score())
    free = sorted(set(range(puzzle.n_tiles)) - {int(t) for t in board.tiles if t >= 0})
    rotated = T.rotated_table(np.asarray(puzzle.tiles))
    edges = board.edges()
    m = cp_model.CpModel()
    x: dict[tuple[int, int, int], cp_model.IntVar] = {}
    gain = []  # matched joins with placed neighbours, per placement
    for s in empty:
        outer = T.outer_sides(s, W, H)
        r, c = divmod(s, W)
        for t in free:
            for rot in T.placement_rotations(puzzle.tiles[t]):
                shown = rotated[t, rot]
                if not all((int(shown[k]) == T.GREY) == outer[k] for k in range(4)):
                    continue
                var = m.new_bool_var(f"x_{s}_{t}_{rot}")
                x[s, t, rot] = var
                matched = 0
                for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < H and 0 <= cc < W and board.tiles[rr * W + cc] >= 0:
                        matched += int(shown[side] == edges[rr * W + cc, (side + 2) % 4])
                if matched:
                    gain.append(matched * var)
    for s in empty:
        m.add_exactly_one(v for (q, _, _), v in x.items() if q == s)
    for t in free:
        m.add_exactly_one(v for (_, q, _), v in x.items() if q == t)
    # joins between two empty squares: matched on colour c only if both sides show c
    empty_set = set(empty)
    for s in empty:
        r, c = divmod(s, W)
        for side, other in ((1, s + 1 if c + 1 < W else -1), (2, s + W if r + 1 < H else -1)):
            if other not in empty_set:
                continue
            facing = (side + 2) % 4
            mine: dict[int, list] = {}
            theirs: dict[int, list] = {}
            for (q, t, rot), v in x.items():
                if q == s:
                    mine.setdefault(int(rotated[t, rot, side]), []).append(v)
                elif q == other:
                    theirs.setdefault(int(rotated[t, rot, facing]), []).append(v)
            for colour in set(mine) & set(theirs):
                if colour == T.GREY:
                    continue
                both = m.new_bool_var(f"m_{s}_{side}_{colour}")
                m.add(both <= sum(mine[colour]))
                m.add(both <= sum(theirs[colour]))
                gain.append(both)
    m.maximize(sum(gain))
    for (s, t, rot), v in x.items():  # the greedy completion as CP-SAT's first solution
        m.add_hint(v, int(greedy.tiles[s] == t and greedy.rotations[s] == rot))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(seconds)
    solver.parameters.num_workers = 1
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Completion(greedy, False, greedy.score())
    result = board.copy()
    for (s, t, rot), v in x.items():
        if solver.value(v):
            result.place(s, t, rot)
    if result.score() < greedy.score():  # a time-limited solve that ended below the hint
        return Completion(greedy, False, greedy.score())
    return Completion(result, status == cp_model.OPTIMAL, greedy.score())
