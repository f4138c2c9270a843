"""Complete a partial board greedily, never lowering its score.

A best-score search reports the best board it reached, which is usually partial.  Any
partial board can be completed (every remaining tile fits some remaining square of its
kind in some rotation), and adding tiles never removes a matched join, so the completed
board scores at least as much.  This fills the empty squares one by one (row by row),
each with the unused tile and rotation that fits the border there and matches the most
already placed neighbours.
"""

from __future__ import annotations

import numpy as np

from ...model import Board
from ...model import tiles as T


def fill_board(board: Board) -> Board:
    """A complete board holding ``board``'s tiles plus the remaining ones, placed greedily
    (ties go to the lowest tile, then the lowest rotation)."""
    puzzle = board.puzzle
    W, H = puzzle.width, puzzle.height
    result = board.copy()
    rotated = T.rotated_table(np.asarray(puzzle.tiles))  # (tile, rotation, side)
    grey = rotated == T.GREY
    free = np.ones(puzzle.n_tiles, dtype=bool)
    free[result.tiles[result.tiles >= 0]] = False
    edges = result.edges()
    fits: dict[tuple[bool, ...], np.ndarray] = {}  # per border pattern: (tile, rotation) facing it right
    for square in range(puzzle.n_squares):
        if result.tiles[square] >= 0:
            continue
        outer = T.outer_sides(square, W, H)
        if outer not in fits:
            fits[outer] = (grey == np.array(outer)).all(axis=2)
        r, c = divmod(square, W)
        matched = np.zeros(rotated.shape[:2], dtype=np.int64)
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, c + dc
            if 0 <= rr < H and 0 <= cc < W and result.tiles[rr * W + cc] >= 0:
                matched += rotated[:, :, side] == edges[rr * W + cc, (side + 2) % 4]
        matched[~(fits[outer] & free[:, None])] = -1
        tile, rotation = divmod(int(np.argmax(matched)), 4)
        if matched[tile, rotation] < 0:  # cannot happen for a valid puzzle: kinds always balance
            raise RuntimeError(f"no remaining tile fits square {square}")
        result.place(square, tile, rotation)
        edges[square] = rotated[tile, rotation]
        free[tile] = False
    return result
