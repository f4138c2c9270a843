"""Helpers for the backtracking tests: a tiny brute-force solver and board rotation.

The brute force shares nothing with the engine (no tables, no kernel): it tries every
unused tile in every rotation on the squares in row order and checks the rules directly.
Solutions are normalised like :func:`edgematch.engines.result.board_key` (rotation = the
smallest quarter-turn count showing the same edges) so that the two can be compared.
"""

from __future__ import annotations

import itertools

import numpy as np

from edgematch.model import Board, Puzzle


def shown(edges, r):
    return tuple(int(edges[(s - r) % 4]) for s in range(4))


def first_rotation(edges, r):
    target = shown(edges, r)
    return next(q for q in range(4) if shown(edges, q) == target)


def brute_force_solutions(puzzle: Puzzle) -> set:
    W, H = puzzle.width, puzzle.height
    tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
    hints = {h.square: (h.tile, h.rotation) for h in puzzle.hints}
    hinted_tiles = {t for t, _ in hints.values()}
    board: list = [None] * (W * H)
    found = set()

    def fits(sq, look):
        r, c = divmod(sq, W)
        outside = (r == 0, c == W - 1, r == H - 1, c == 0)
        for s in range(4):
            if outside[s] != (look[s] == 0):
                return False
        if c > 0 and board[sq - 1] is not None and board[sq - 1][2][1] != look[3]:
            return False
        if r > 0 and board[sq - W] is not None and board[sq - W][2][2] != look[0]:
            return False
        return True

    def place(sq, used):
        if sq == W * H:
            found.add(tuple((t, first_rotation(tiles[t], rot)) for t, rot, _ in board))
            return
        if sq in hints:
            t, rot = hints[sq]
            look = shown(tiles[t], rot)
            if fits(sq, look):
                board[sq] = (t, rot, look)
                place(sq + 1, used)
                board[sq] = None
            return
        for t in range(len(tiles)):
            if t in used or t in hinted_tiles:
                continue
            seen = set()
            for rot in range(4):
                look = shown(tiles[t], rot)
                if look in seen:
                    continue
                seen.add(look)
                if fits(sq, look):
                    board[sq] = (t, rot, look)
                    used.add(t)
                    place(sq + 1, used)
                    used.discard(t)
                    board[sq] = None

    place(0, set())
    return found


def all_boards_max_score(puzzle: Puzzle, frame_exact: bool) -> int:
    """The best score over every complete border-respecting board (3x3 only: 2,304 boards)."""
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
                best = max(best, board.score())
    return best


def _border_rotation(puzzle, tile, square):
    r, c = divmod(square, puzzle.width)
    outside = (r == 0, c == puzzle.width - 1, r == puzzle.height - 1, c == 0)
    for rot in range(4):
        look = shown(puzzle.tiles[tile], rot)
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
