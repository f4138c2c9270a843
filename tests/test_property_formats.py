"""Property tests: every pair of file formats round-trips (issue 15, point 3).

For every puzzle format A and every puzzle format B (and every pair of board formats), a
Hypothesis-drawn puzzle (board) that both can express is written in A, read, written in B,
read, written in A again and read: the result must be the original, and the last A text
must be the first one, character for character (every writer here is deterministic).

What "the original" means:

* puzzles: the same size, the same tiles in the same order and orientation, the same hints
  in the same order with the same rotations (``Puzzle.__eq__``).  Names travel only through
  formats that store one (``edgematch``, ``e2dev``); after any other format the name is
  empty, and the last A text is compared with A's text of the original under that name;
* boards: the same tile on every square and the same rotation, except that the formats that
  store the colours a square shows rather than its rotation (``bucas``, ``e2dev-board``) give
  back, for a rotationally symmetric tile, the smallest rotation showing those colours: after
  them the placements are compared with rotations normalised, and the texts with the
  original's rotations normalised.

What a format cannot express (docs/formats.md) is refused by its writer with an InputError:
``benoist`` square boards only; ``heule`` no board taller than wide; ``julia`` no hints,
colours up to 255; ``owen`` no hints; ``owen-solution`` complete boards only; ``bucas`` and
``e2dev-board`` colours up to 25.  The strategies draw mostly puzzles both formats of a pair
can express, the rest is skipped with ``assume``, and a separate test checks that writers
refuse exactly those cases and nothing else.

Puzzles are bent towards what formats get wrong: duplicate tiles (equal up to rotation),
rotationally symmetric tiles (also hinted, in any of their equivalent rotations), 2xN and
Nx2 boards, colours near the formats' limits, arbitrary (invalid, partial) boards.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

import edgematch
from edgematch import Board, Puzzle
from edgematch.errors import InputError
from edgematch.formats import (
    BOARD_FORMATS,
    PUZZLE_FORMATS,
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
)
from support.puzzles import planted
from support.rotations import normalised_rotation, turned

# ---------------------------------------------------------------------------- what formats can say
NAMED_PUZZLE_FORMATS = {"edgematch", "e2dev"}
SHOWN_COLOUR_BOARD_FORMATS = {"bucas", "e2dev-board"}  # rotations come back normalised


def max_colour(puzzle: Puzzle) -> int:
    return int(puzzle.tiles.max())


def puzzle_expressible(puzzle: Puzzle, fmt: str) -> bool:
    """docs/formats.md: what each puzzle format can store."""
    if fmt == "benoist":
        return puzzle.width == puzzle.height
    if fmt == "heule":
        return puzzle.width >= puzzle.height
    if fmt == "julia":
        return not puzzle.hints and max_colour(puzzle) <= 255
    if fmt == "owen":
        return not puzzle.hints
    return True


def board_expressible(board: Board, fmt: str) -> bool:
    """docs/formats.md: what each board format can store."""
    if fmt == "owen-solution":
        return board.is_complete
    if fmt in ("bucas", "e2dev-board"):
        return max_colour(board.puzzle) <= 25 and board.puzzle.n_tiles <= 999
    return True


def test_every_registered_format_is_described():
    """A new format must say here what it can express (and so join the pairs below)."""
    assert set(PUZZLE_FORMATS) == {"benoist", "e2dev", "heule", "julia", "edgematch", "owen"}
    assert set(BOARD_FORMATS) == {"bucas", "e2dev-board", "et2", "edgematch", "owen-solution"}


# ---------------------------------------------------------------------------- strategies
SHAPES = [(w, h) for w in range(2, 8) for h in range(2, 8)]


@st.composite
def cases(draw, square=False, wide=False, hints=True, colour_limit=None, complete=False):
    """``(puzzle, board)``: a planted puzzle with twists, and a board of it.

    Twists: a tile replaced by a copy of another tile of its kind (turned so that its grey
    sides stay where the replaced tile had them, so hints still fit), inner tiles made
    ``(a, a, a, a)`` or ``(a, b, a, b)``, every colour shifted up (to the formats' limits).
    Boards: the planted solution with squares left empty, its tiles in random rotations, or
    random tiles on random squares; ``complete`` boards only if asked.
    """
    shapes = [(w, h) for w, h in SHAPES if (w == h or not square) and (w >= h or not wide)]
    width, height = draw(st.sampled_from(shapes))
    n = width * height
    colours = draw(st.integers(1, 9))
    shifts = [s for s in (0, 0, 16, 200, 246, 1000, 65000) if colour_limit is None or colours + s <= colour_limit]
    shift = draw(st.sampled_from(shifts))
    n_hints = draw(st.integers(0, min(3, n))) if hints else 0
    empty = 0.0 if complete else draw(st.sampled_from([0.0, 0.3, 1.0]))
    puzzle, board = planted(width, height, colours, draw(st.integers(0, 2**32 - 1)), n_hints, empty,
                            name=draw(st.sampled_from(["", "random", "a b", "x_9.z"])))
    tiles = [list(map(int, t)) for t in puzzle.tiles]
    grey = [[c == 0 for c in t] for t in tiles]
    for _ in range(draw(st.integers(0, 3))):
        twist = draw(st.sampled_from(["duplicate", "symmetric4", "symmetric2"]))
        target = draw(st.integers(0, n - 1))
        if twist == "duplicate":
            source = draw(st.sampled_from([t for t in range(n) if sum(grey[t]) == sum(grey[target])]))
            turn = next(q for q in range(4) if [c == 0 for c in turned(tiles[source], q)] == grey[target])
            tiles[target] = list(turned(tiles[source], turn))
        elif not any(grey[target]):
            a, b = draw(st.integers(1, colours)), draw(st.integers(1, colours))
            tiles[target] = [a, a, a, a] if twist == "symmetric4" else [a, b, a, b]
    tiles = [[c + shift if c else 0 for c in t] for t in tiles]
    hints = []
    for h in puzzle.hints:  # any rotation showing the same edges (all four on an (a, a, a, a) tile)
        look = turned(tiles[h.tile], h.rotation)
        hints.append((h.square, h.tile, draw(st.sampled_from([q for q in range(4) if turned(tiles[h.tile], q) == look]))))
    puzzle = Puzzle(tiles, width, height, {sq: (t, r) for sq, t, r in hints}, name=puzzle.name)

    layout = draw(st.sampled_from(["planted", "turned", "random"]))
    placed, rotations = np.array(board.tiles), np.array(board.rotations)
    if layout == "turned":
        rotations = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    elif layout == "random":
        placed = np.array(draw(st.permutations(range(n))))
        rotations = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
        if not complete:
            holes = draw(st.lists(st.booleans(), min_size=n, max_size=n))
            placed = np.where(holes, -1, placed)
    rotations = np.where(placed >= 0, rotations, 0)
    board = Board(puzzle, placed, rotations)
    note(f"{width}x{height} tiles {tiles} hints {hints} board {placed.tolist()} / {rotations.tolist()}")
    return puzzle, board


def puzzle_cases(first: str, second: str):
    """Puzzles both formats can usually express (the strategy knows the documented limits)."""
    pair = {first, second}
    return cases(square="benoist" in pair, wide="heule" in pair, hints=not pair & {"julia", "owen"},
                 colour_limit=255 if "julia" in pair else None).map(lambda case: case[0])


def board_cases(first: str, second: str):
    pair = {first, second}
    return cases(colour_limit=25 if pair & SHOWN_COLOUR_BOARD_FORMATS else None, complete="owen-solution" in pair)


def normalised(board: Board) -> Board:
    """The board with each rotation replaced by the smallest showing the same colours."""
    tiles = board.puzzle.tiles
    rotations = [normalised_rotation(tuple(tiles[t]), r) if t >= 0 else 0 for t, r in zip(board.tiles, board.rotations)]
    return Board(board.puzzle, board.tiles, rotations)


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PUZZLE_PAIRS = [(a, b) for a in sorted(PUZZLE_FORMATS) for b in sorted(PUZZLE_FORMATS)]
BOARD_PAIRS = [(a, b) for a in sorted(BOARD_FORMATS) for b in sorted(BOARD_FORMATS)]


# ---------------------------------------------------------------------------- round trips
def puzzle_chain(puzzle: Puzzle, first: str, second: str):
    text1 = format_puzzle(puzzle, first)
    read1 = parse_puzzle(text1, fmt=first)
    read2 = parse_puzzle(format_puzzle(read1, second), fmt=second)
    text3 = format_puzzle(read2, first)
    return text1, read1, read2, text3, parse_puzzle(text3, fmt=first)


@pytest.mark.parametrize("first, second", PUZZLE_PAIRS, ids=[f"{a}-{b}" for a, b in PUZZLE_PAIRS])
@SETTINGS
@given(data=st.data())
def test_puzzle_round_trip_through_every_pair(first, second, data):
    puzzle = data.draw(puzzle_cases(first, second))
    assume(puzzle_expressible(puzzle, first) and puzzle_expressible(puzzle, second))
    text1, read1, read2, text3, read3 = puzzle_chain(puzzle, first, second)
    for got in (read1, read2, read3):
        assert got == puzzle  # size, tiles in order and orientation, hints with their rotations
        assert got.name in ("", puzzle.name)
    kept = first in NAMED_PUZZLE_FORMATS and second in NAMED_PUZZLE_FORMATS
    assert read3.name == (puzzle.name if kept else "")
    if kept:
        assert text3 == text1
    else:  # the name was lost on the way: the text is the original's under no name
        assert text3 == format_puzzle(Puzzle(puzzle.tiles, puzzle.width, puzzle.height, puzzle.hints), first)


def board_chain(board: Board, first: str, second: str):
    puzzle = board.puzzle
    text1 = format_board(board, first)
    read1 = parse_board(text1, puzzle, fmt=first)
    read2 = parse_board(format_board(read1, second), puzzle, fmt=second)
    text3 = format_board(read2, first)
    return text1, read1, read2, text3, parse_board(text3, puzzle, fmt=first)


@pytest.mark.parametrize("first, second", BOARD_PAIRS, ids=[f"{a}-{b}" for a, b in BOARD_PAIRS])
@SETTINGS
@given(data=st.data())
def test_board_round_trip_through_every_pair(first, second, data):
    puzzle, board = data.draw(board_cases(first, second))
    assume(board_expressible(board, first) and board_expressible(board, second))
    text1, read1, read2, text3, read3 = board_chain(board, first, second)
    exact = not {first, second} & SHOWN_COLOUR_BOARD_FORMATS
    expected = board if exact else normalised(board)
    for got in (read1, read2, read3):
        assert got.puzzle is puzzle
        assert np.array_equal(got.tiles, board.tiles)
        assert got.same_placement(board)  # same tiles showing the same colours
    assert np.array_equal(read3.rotations, expected.rotations)
    assert text3 == format_board(expected, first)
    if exact:
        assert text3 == text1


# ---------------------------------------------------------------------------- limits
@settings(SETTINGS, max_examples=150)
@given(case=cases())
def test_writers_refuse_exactly_what_their_format_cannot_express(case):
    """The round trips skip a pair only when a writer refuses: that must be an InputError, and
    only for the documented limits."""
    puzzle, board = case
    for name in PUZZLE_FORMATS:
        try:
            format_puzzle(puzzle, name)
            wrote = True
        except InputError:
            wrote = False
        assert wrote == puzzle_expressible(puzzle, name), name
    for name in BOARD_FORMATS:
        try:
            format_board(board, name)
            wrote = True
        except InputError:
            wrote = False
        assert wrote == board_expressible(board, name), name


# ---------------------------------------------------------------------------- the official set
def test_official_set_round_trips_through_every_pair():
    """The 256 official tiles (e2dev stores them turned 180 degrees and turns them back), the
    starter hint and the five clues, and a record board, through every pair."""
    for name in ("e2-bare", "e2", "e2-clues"):
        puzzle = edgematch.load(name)
        for first, second in PUZZLE_PAIRS:
            if not (puzzle_expressible(puzzle, first) and puzzle_expressible(puzzle, second)):
                continue
            text1, read1, read2, text3, read3 = puzzle_chain(puzzle, first, second)
            assert read1 == read2 == read3 == puzzle, (name, first, second)
            if first in NAMED_PUZZLE_FORMATS and second in NAMED_PUZZLE_FORMATS:
                assert text3 == text1
    puzzle = edgematch.load("e2")
    board = edgematch.load_board(puzzle, "record/Joshua_Blackwood_470")
    for first, second in BOARD_PAIRS:
        text1, read1, read2, text3, read3 = board_chain(board, first, second)
        assert read3.same_placement(board) and np.array_equal(read3.tiles, board.tiles), (first, second)
        assert text3 == text1, (first, second)
