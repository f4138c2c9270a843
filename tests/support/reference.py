"""A deliberately simple, independent solver used as the reference in engine tests.

It shares no code with the engines or with :mod:`edgematch.model.tiles`: rotations, the
border rule and the join rule are re-derived here from the puzzle rules alone, in plain
Python, so that a bug in a shared helper cannot make every engine agree on a wrong answer.

The search visits the squares in a given order (row scan by default) and tries every
unused tile in every rotation that shows different edges on every square, keeping a
placement when

* its sides facing the outside are grey and its other sides are not,
* it matches every already placed neighbour (any direction, so any order works),
* on a hinted square it is the hinted tile showing the hinted edges, and a hinted tile
  is never used elsewhere.

A solution is a tuple, per square, of ``(tile, rotation)`` with the rotation normalised
to the smallest quarter-turn count that shows the same edges, so that a rotationally
symmetric tile gives one placement, not two or four.  Only for tiny puzzles (up to about
5x5 with few colours): it is exponential and runs in Python.

``nodes[d]`` counts the placements kept at depth ``d`` (``d`` = number of non-hint
squares filled, 1-based), the project's node convention: one (tile, rotation) placed on a
square, counted when placed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from edgematch.model import Board, Puzzle
from support.rotations import different_rotations, normalised_rotation, turned


@dataclass
class ReferenceResult:
    solutions: set = field(default_factory=set)
    nodes: list = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.solutions)


def row_scan(width, height):
    return list(range(width * height))


def reference_solve(puzzle, order=None, limit=None, each_rotation=False) -> ReferenceResult:
    """Every solution of ``puzzle`` (a :class:`edgematch.model.Puzzle` or anything with
    ``tiles``, ``width``, ``height`` and ``hints``), found by exhaustive search.

    ``order``: squares in the order to fill them (hint squares may be listed or not).
    ``limit``: stop after this many solutions (then the set is partial).
    ``each_rotation``: Eternity2Puzzles.jl's convention: every rotation 0..3 of a free tile
    is its own placement (rotations kept as placed, not normalised); a hint keeps its
    given rotation.
    """
    width, height = int(puzzle.width), int(puzzle.height)
    tiles = [tuple(int(c) for c in row) for row in puzzle.tiles]
    n = width * height
    hints = {int(h.square): (int(h.tile), int(h.rotation) % 4 if each_rotation else
                             normalised_rotation(tiles[int(h.tile)], int(h.rotation))) for h in puzzle.hints}
    hinted_tiles = {t for t, _ in hints.values()}
    if order is None:
        order = row_scan(width, height)
    order = [int(s) for s in order if int(s) not in hints]
    assert sorted(order) == sorted(set(range(n)) - set(hints)), "order must list every free square once"

    tile_at = [-1] * n
    shown = [None] * n
    used = [False] * len(tiles)
    for square, (tile, rot) in hints.items():
        tile_at[square] = tile
        shown[square] = turned(tiles[tile], rot)
        used[tile] = True

    def outside(square):
        row, col = divmod(square, width)
        return (row == 0, col == width - 1, row == height - 1, col == 0)

    def neighbour(square, side):
        row, col = divmod(square, width)
        dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[side]
        r, c = row + dr, col + dc
        if 0 <= r < height and 0 <= c < width:
            return r * width + c
        return None

    def fits(square, colours):
        out = outside(square)
        for side in range(4):
            if out[side] != (colours[side] == 0):
                return False
            other = neighbour(square, side)
            if other is not None and shown[other] is not None:
                if shown[other][(side + 2) % 4] != colours[side]:
                    return False
        return True

    # Hints must agree with each other and with the border before anything else.
    result = ReferenceResult(nodes=[0] * (len(order) + 1))
    for square in hints:
        if not fits(square, shown[square]):
            return result

    # The border test depends on the square alone: do it once per square, not per node.
    fitting_border = {}
    for square in order:
        out = outside(square)
        fitting_border[square] = [
            (tile, r, turned(tiles[tile], r))
            for tile in range(len(tiles))
            if tile not in hinted_tiles
            for r in (range(4) if each_rotation else different_rotations(tiles[tile]))
            if all(out[side] == (turned(tiles[tile], r)[side] == 0) for side in range(4))
        ]
    placed_neighbours = {
        square: [(side, neighbour(square, side)) for side in range(4) if neighbour(square, side) is not None]
        for square in order
    }

    class Done(Exception):
        pass

    def place(depth):
        if depth == len(order):
            result.solutions.add(tuple((tile_at[s], rot_at[s]) for s in range(n)))
            if limit is not None and len(result.solutions) >= limit:
                raise Done
            return
        square = order[depth]
        sides = [(side, other) for side, other in placed_neighbours[square] if shown[other] is not None]
        for tile, r, colours in fitting_border[square]:
            if used[tile]:
                continue
            if any(shown[other][(side + 2) % 4] != colours[side] for side, other in sides):
                continue
            tile_at[square], shown[square], used[tile], rot_at[square] = tile, colours, True, r
            result.nodes[depth + 1] += 1
            place(depth + 1)
            tile_at[square], shown[square], used[tile] = -1, None, False

    rot_at = [0] * n
    for square, (_, rot) in hints.items():
        rot_at[square] = rot

    try:
        place(0)
    except Done:
        pass
    return result


def reference_solutions(puzzle, order=None) -> set:
    """The set of all solutions (see :func:`reference_solve`)."""
    return reference_solve(puzzle, order).solutions


def board_key(board, each_rotation=False) -> tuple:
    """A :class:`edgematch.model.Board` as a reference solution tuple (normalised rotations,
    or as placed with ``each_rotation``)."""
    tiles = board.puzzle.tiles
    return tuple(
        (int(t), int(r) if each_rotation else normalised_rotation(tuple(int(c) for c in tiles[int(t)]), int(r)))
        for t, r in zip(board.tiles, board.rotations)
    )


def all_boards_max_score(puzzle: Puzzle, frame_exact: bool, keep=None) -> int:
    """The best score over every complete border-respecting board (3x3 only: 2,304 boards),
    of those for which ``keep(board)`` holds when given."""
    assert puzzle.width == puzzle.height == 3 and not puzzle.hints
    kinds = [sum(int(c) == 0 for c in t) for t in puzzle.tiles]
    corners = [i for i, k in enumerate(kinds) if k == 2]
    edges = [i for i, k in enumerate(kinds) if k == 1]
    inner = [i for i, k in enumerate(kinds) if k == 0][0]
    corner_sq, edge_sq = [0, 2, 6, 8], [1, 3, 5, 7]
    best = -1
    for cp in itertools.permutations(corners):
        for ep in itertools.permutations(edges):
            for rot in range(4):
                board = Board(puzzle)
                for sq, t in zip(corner_sq, cp):
                    board.place(sq, t, _border_rotation(puzzle, t, sq))
                for sq, t in zip(edge_sq, ep):
                    board.place(sq, t, _border_rotation(puzzle, t, sq))
                board.place(4, inner, rot)
                if frame_exact and _frame_mismatch(board):
                    continue
                if keep is not None and not keep(board):
                    continue
                best = max(best, board.score())
    return best


def _border_rotation(puzzle, tile, square):
    r, c = divmod(square, puzzle.width)
    outside = (r == 0, c == puzzle.width - 1, r == puzzle.height - 1, c == 0)
    for rot in range(4):
        look = turned(puzzle.tiles[tile], rot)
        if all((look[s] == 0) == outside[s] for s in range(4)):
            return rot
    raise AssertionError("tile does not fit")


def _frame_mismatch(board) -> bool:
    e = board.edges()
    ring_pairs = [(0, 1, 1, 3), (1, 2, 1, 3), (6, 7, 1, 3), (7, 8, 1, 3), (0, 3, 2, 0), (3, 6, 2, 0), (2, 5, 2, 0), (5, 8, 2, 0)]
    return any(e[a, sa] != e[b, sb] for a, b, sa, sb in ring_pairs)


def rotate_board(board: Board) -> Board:
    """The same solution seen after turning a square board a quarter turn clockwise."""
    p = board.puzzle
    n = p.width
    assert p.width == p.height
    tiles = np.empty_like(board.tiles)
    rotations = np.empty_like(board.rotations)
    for sq in range(n * n):
        r, c = divmod(sq, n)
        target = c * n + (n - 1 - r)
        tiles[target] = board.tiles[sq]
        rotations[target] = (board.rotations[sq] + 1) % 4
    return Board(p, tiles, rotations)
