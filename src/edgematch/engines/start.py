"""The ``start=`` board of every engine, checked once.

Every engine's ``count``, ``solve``, ``enumerate`` and ``best`` take a start board: a
:class:`~edgematch.model.Board` or a mapping ``square -> (tile, rotation)``.  The checks a
user's start board must pass are the same whichever engine runs it, so they live here and
each engine only turns the checked placements into its own arrays.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import InputError
from ..model import Board, Puzzle, square_name
from ..model import tiles as T


def start_placements(puzzle: Puzzle, start, *, exact: bool = True) -> dict[int, tuple[int, int]]:
    """The placements of ``start`` that are not hints, after every check.

    A start board may repeat a hint (with the same tile showing the same edges) but not
    contradict one, names squares on the board, known tiles and rotations 0..3, and uses
    each tile once.  For an exact search (``exact``) it must be a valid partial solution
    with the hints; for a best-score search its tiles need only face the border the right
    way.  When the hints alone contradict each other, the joins are not checked: the
    subtree is simply empty, which the engine finds itself.
    """
    if start is None:
        return {}
    if isinstance(start, Board):
        if start.puzzle.n_squares != puzzle.n_squares:
            raise InputError(f"the start board has {start.puzzle.n_squares} squares, the puzzle {puzzle.n_squares}")
        items = start.placements()
    elif isinstance(start, Mapping):
        try:
            items = {int(s): (int(t), int(r)) for s, (t, r) in start.items()}
        except (TypeError, ValueError):
            raise InputError("a start mapping must map squares to (tile, rotation) pairs") from None
    else:
        raise InputError(f"start must be a Board or a mapping square -> (tile, rotation), not {type(start).__name__}")
    hints = puzzle.hint_map
    board = Board.from_hints(puzzle)
    hints_valid = board.verify(require_complete=False).valid
    used = {tile for tile, _ in hints.values()}
    placed: dict[int, tuple[int, int]] = {}
    for square, (tile, rotation) in items.items():
        if not 0 <= square < puzzle.n_squares:
            raise InputError(f"the start board names square {square}, which is off the board")
        if not 0 <= tile < puzzle.n_tiles or not 0 <= rotation < 4:
            raise InputError(f"the start board places an unknown tile {tile + 1} or rotation {rotation}")
        where = square_name(square, puzzle.width)
        if square in hints:
            hint_tile, hint_rotation = hints[square]
            if tile != hint_tile or not np.array_equal(
                T.rotate(puzzle.tiles[tile], rotation), T.rotate(puzzle.tiles[hint_tile], hint_rotation)
            ):
                raise InputError(f"the start board disagrees with the hint on square {where}")
            continue
        if tile in used:
            raise InputError(f"the start board uses tile {tile + 1} twice (or a hint tile), again on {where}")
        used.add(tile)
        if not exact and not T.fits_border(puzzle.tiles[tile], rotation, square, puzzle.width, puzzle.height):
            raise InputError(f"the start board turns tile {tile + 1} the wrong way against the border on {where}")
        board.place(square, tile, rotation)
        placed[square] = (tile, rotation)
    if exact and hints_valid:
        reasons = board.verify(require_complete=False).reasons
        if reasons:
            raise InputError(f"the start board is not a valid partial solution: {'; '.join(reasons[:3])}")
    return placed


__all__ = ["start_placements"]
