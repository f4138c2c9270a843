"""Small random valid puzzles for the format tests (independent of edgematch.generate).

A puzzle is made the obvious way: colour every inner join of a W x H board at random, read
each square's tile off the board, then shuffle the tiles and turn each one at random.  The
planted placement is returned too, so tests can build hints and boards from it.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from edgematch import Board, Puzzle


def planted(width: int, height: int, colours: int, seed: int, n_hints: int = 0, name: str = ""):
    """(puzzle, solution board) for a random W x H puzzle with ``n_hints`` hints from the solution."""
    rng = random.Random(seed)
    horizontal = [[rng.randint(1, colours) for _ in range(width - 1)] for _ in range(height)]
    vertical = [[rng.randint(1, colours) for _ in range(width)] for _ in range(height - 1)]
    shown = []  # per square: N E S W as placed
    for r in range(height):
        for c in range(width):
            shown.append([
                vertical[r - 1][c] if r > 0 else 0,
                horizontal[r][c] if c < width - 1 else 0,
                vertical[r][c] if r < height - 1 else 0,
                horizontal[r][c - 1] if c > 0 else 0,
            ])
    order = list(range(width * height))
    rng.shuffle(order)  # order[k] = square whose tile becomes tile k
    tiles, rotations, square_of = [], [], {}
    for k, square in enumerate(order):
        rot = rng.randrange(4)
        # stored tile turned by `rot` clockwise must show `shown[square]`: stored side s = shown side (s + rot)
        tiles.append([shown[square][(s + rot) % 4] for s in range(4)])
        rotations.append(rot)
        square_of[k] = square
    board_tiles = [0] * (width * height)
    board_rots = [0] * (width * height)
    for k, square in square_of.items():
        board_tiles[square] = k
        board_rots[square] = rotations[k]
    hinted = rng.sample(range(width * height), min(n_hints, width * height))
    hints = {sq: (board_tiles[sq], board_rots[sq]) for sq in hinted}
    puzzle = Puzzle(tiles, width, height, hints, name)
    return puzzle, Board(puzzle, board_tiles, board_rots)


@st.composite
def puzzles(draw, min_side: int = 2, max_side: int = 8, hints: bool = True, square: bool = False,
            wide: bool = False, max_colours: int = 9):
    """Random valid puzzles: sizes 2..8 (rectangular unless ``square``; W >= H if ``wide``)."""
    width = draw(st.integers(min_side, max_side))
    height = width if square else draw(st.integers(min_side, width if wide else max_side))
    colours = draw(st.integers(1, max_colours))
    n_hints = draw(st.integers(0, 3)) if hints else 0
    seed = draw(st.integers(0, 2**32 - 1))
    return planted(width, height, colours, seed, n_hints, name=draw(st.sampled_from(["", "random", "a b"])))[0]


@st.composite
def boards(draw, **kwargs):
    """Random boards (complete or partial) of random puzzles."""
    width = draw(st.integers(2, 8))
    height = draw(st.integers(2, 8))
    seed = draw(st.integers(0, 2**32 - 1))
    puzzle, solution = planted(width, height, draw(st.integers(1, 9)), seed)
    board = solution.copy()
    empty = draw(st.lists(st.integers(0, puzzle.n_squares - 1), max_size=puzzle.n_squares, unique=True))
    for sq in empty:
        board.remove(sq)
    return board
