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
    """A complete board holding ``board``'s tiles plus the remaining ones, placed greedily."""
    puzzle = board.puzzle
    W, H = puzzle.width, puzzle.height
    result = board.copy()
    used = set(int(t) for t in result.tiles if t >= 0)
    free = [t for t in range(puzzle.n_tiles) if t not in used]
    edges = result.edges()
    for square in range(puzzle.n_squares):
        if result.tiles[square] >= 0:
            continue
        r, c = divmod(square, W)
        want = []  # (side, colour the neighbour shows towards us)
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            rr, cc = r + dr, c + dc
            if 0 <= rr < H and 0 <= cc < W and result.tiles[rr * W + cc] >= 0:
                want.append((side, int(edges[rr * W + cc, (side + 2) % 4])))
        best = None
        for tile in free:
            for rotation in T.border_rotations(puzzle.tiles[tile], square, W, H):
                shown = T.rotate(puzzle.tiles[tile], rotation)
                matched = sum(int(shown[s]) == colour for s, colour in want)
                if best is None or matched > best[0]:
                    best = (matched, tile, rotation, shown)
        if best is None:  # cannot happen for a valid puzzle: kinds always balance
            raise RuntimeError(f"no remaining tile fits square {square}")
        _, tile, rotation, shown = best
        result.place(square, tile, rotation)
        edges[square] = np.asarray(shown)
        free.remove(tile)
    return result
