"""Kernel arrays of a backtracking search's first squares: hints and a start prefix."""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import InputError
from ...model import Board
from ...model import tiles as T
from ...model.rotation_sets import square_parity
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

    Returns ``(None, None, 0)`` when (in exact mode) the hints contradict each other, or
    the plan's rotation set contradicts a hint or a placement of the start board, so that
    the subtree is empty.
    """
    puzzle = plan.puzzle
    board = plan.board0.copy()
    used = plan.used0.copy()
    if exact and plan.void is not None:
        return None, None, 0  # the rotation set contradicts a hint: no solution has it
    if exact and not Board.from_codes(puzzle, board).verify(require_complete=False).valid:
        return None, None, 0  # the hints contradict each other: no solution
    placed = start_placements(puzzle, prefix_placements(plan, start), exact=exact)
    k = len(placed)
    if set(placed) != set(int(s) for s in plan.order[:k]):
        raise InputError(
            f"the start board must fill exactly the first {k} squares of the search order (a prefix), besides the hints"
        )
    if exact and not fits_rotation_set(plan, placed):
        return None, None, 0  # the start turns a tile otherwise than the rotation set
    for square, (tile, rotation) in placed.items():
        used[tile] = 1
        board[square] = tile * 4 + rotation
    return board, used, k


def fits_rotation_set(plan: SearchPlan, placed: Mapping) -> bool:
    """Whether placements ``square -> (tile, rotation)`` turn every tile as the plan's
    rotation set does (and, with its colours, stand on squares of the tile's colour)."""
    if plan.fixed_rotations is None:
        return True
    puzzle = plan.puzzle
    for square, (tile, rotation) in placed.items():
        if T.canonical_rotation(puzzle.tiles[tile], rotation) != plan.fixed_rotations[tile]:
            return False
        if plan.fixed_colours is not None and plan.fixed_colours[tile] != square_parity(square, puzzle.width):
            return False
    return True
