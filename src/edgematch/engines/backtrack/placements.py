"""Kernel arrays of a backtracking search's first squares: hints and a start prefix."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import InputError
from ...model import Board
from ..start import start_placements
from .plan import SearchPlan


def prefix_placements(plan: SearchPlan, start) -> Board | Mapping | None:
    """A start given as a sequence of (tile, rotation) along the search order, as a
    mapping; Boards and mappings pass through unchanged."""
    if start is None or isinstance(start, (Board, Mapping)):
        return start
    items = list(start)
    if len(items) > plan.depth:
        raise InputError(f"the start lists {len(items)} placements but the order has {plan.depth} squares")
    return {int(plan.order[i]): (int(t), int(r)) for i, (t, r) in enumerate(items)}


def start_arrays(plan: SearchPlan, start, exact: bool):
    """Board and used arrays with hints and the start prefix placed, and the first depth.

    Returns ``(None, None, 0)`` when (in exact mode) the hints contradict each other, so
    that the subtree is empty.
    """
    puzzle = plan.puzzle
    board = plan.board0.copy()
    used = plan.used0.copy()
    if exact and not Board.from_codes(puzzle, board).verify(require_complete=False).valid:
        return None, None, 0  # the hints contradict each other: no solution
    placed = start_placements(puzzle, prefix_placements(plan, start), exact=exact)
    k = len(placed)
    if set(placed) != set(int(s) for s in plan.order[:k]):
        raise InputError(
            f"the start board must fill exactly the first {k} squares of the search order (a prefix), besides the hints"
        )
    for square, (tile, rotation) in placed.items():
        used[tile] = 1
        board[square] = tile * 4 + rotation
    return board, used, k
