"""Score, mismatches and verification (edgematch.model.board) pinned against the rules.

The boards here are worked by hand (their joins are spelled out next to them) or planted
boards whose score is brute-forced in the test with ``support.rotations.turned``.  Written
to kill the mutants mutation testing found alive (docs/testing.md).
"""

import numpy as np
import pytest

from edgematch import Board, InputError, Puzzle
from edgematch.model.board import Join, Mismatch, Verification, inner_joins
from support.puzzles import planted
from support.rotations import turned

# 3x2 by hand: squares A1 A2 A3 / B1 B2 B3 (0..5).  Joins: A1|A2 1, A2|A3 2, B1|B2 3,
# B2|B3 1, A1/B1 2, A2/B2 3, A3/B3 1.  Tile i is the tile of square i in rotation 0.
TILES_3x2 = [(0, 1, 2, 0), (0, 2, 3, 1), (0, 0, 1, 2), (2, 3, 0, 0), (3, 1, 0, 3), (1, 0, 0, 1)]
# 2x2 by hand: A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4.
TILES_2x2 = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
# 3x3 by hand with a half-turn symmetric centre 1 2 1 2: A1|A2 3, A2|A3 4, B1|B2 2, B2|B3 2,
# C1|C2 5, C2|C3 6, A1/B1 7, B1/C1 8, A2/B2 1, B2/C2 1, A3/B3 9, B3/C3 10.
TILES_3x3 = [(0, 3, 7, 0), (0, 4, 1, 3), (0, 0, 9, 4), (7, 2, 8, 0), (1, 2, 1, 2), (9, 0, 10, 2),
             (8, 5, 0, 0), (1, 6, 0, 5), (10, 0, 0, 6)]


def p3x2(hints=None):
    return Puzzle(TILES_3x2, 3, 2, hints)


def solved(puzzle):
    return Board(puzzle, list(range(puzzle.n_tiles)), [0] * puzzle.n_tiles)


def brute_score(board):
    """Matched inner joins counted from the rules: both placed, same colour, not grey."""
    w, h = board.width, board.height
    shown = {sq: turned(board.puzzle.tiles[t], int(r)) for sq, (t, r) in
             enumerate(zip(board.tiles, board.rotations)) if t >= 0}
    count = 0
    for sq in range(w * h):
        row, col = divmod(sq, w)
        for other, mine, theirs in ((sq + 1, 1, 3), (sq + w, 2, 0)):
            if (other == sq + 1 and col == w - 1) or (other == sq + w and row == h - 1):
                continue
            if sq in shown and other in shown and shown[sq][mine] == shown[other][theirs] != 0:
                count += 1
    return count


# ---------------------------------------------------------------------------- joins
def test_inner_joins_of_3x2_by_hand():
    assert inner_joins(3, 2) == [Join(0, 1, True), Join(0, 3, False), Join(1, 2, True), Join(1, 4, False),
                                 Join(2, 5, False), Join(3, 4, True), Join(4, 5, True)]
    for w, h in [(2, 2), (5, 3), (16, 16)]:
        assert len(inner_joins(w, h)) == 2 * w * h - w - h


def test_join_sides():
    assert Join(0, 1, True).sides == (1, 3)  # a's E meets b's W
    assert Join(0, 3, False).sides == (2, 0)  # a's S meets b's N


def test_empty_verification_is_valid():
    assert Verification().valid and bool(Verification())
    assert not Verification(["x"]).valid and not bool(Verification(["x"]))


# ---------------------------------------------------------------------------- score
def test_solved_hand_boards_score_the_maximum():
    for tiles, w, h, best in [(TILES_3x2, 3, 2, 7), (TILES_2x2, 2, 2, 4), (TILES_3x3, 3, 3, 12)]:
        board = solved(Puzzle(tiles, w, h))
        assert board.score() == best == board.puzzle.max_score
        assert board.mismatches() == []
        assert board.verify().reasons == []


def test_turned_square_3x2_by_hand():
    # B2 (3 1 0 3) turned twice shows 0 3 3 1: it loses B1|B2, B2|B3 and A2/B2 -> 7 - 3 = 4
    board = solved(p3x2())
    board.place(4, 4, 2)
    assert board.score() == 4 == brute_score(board)
    assert board.mismatches() == [Mismatch(Join(1, 4, False), 3, 0), Mismatch(Join(3, 4, True), 3, 1),
                                  Mismatch(Join(4, 5, True), 3, 1)]
    assert board.verify().reasons == [
        "B2: side N shows grey inside the board",
        "B2: side S faces the outside but shows colour 3, not grey",
        "A2-B2: colours differ (S=3 vs N=0)",
        "B1-B2: colours differ (E=3 vs W=1)",
        "B2-B3: colours differ (E=3 vs W=1)",
    ]


def test_grey_meeting_grey_is_a_mismatch_reported_once_2x2_by_hand():
    # A1 (0 1 3 0) turned once shows 0 0 1 3, A2 (0 0 4 1) turned 3 times shows 0 4 1 0:
    # grey meets grey on A1|A2, A1/B1 is 1 vs 3, A2/B2 1 vs 4; only B1|B2 (2) matches.
    board = Board(Puzzle(TILES_2x2, 2, 2), [0, 1, 2, 3], [1, 3, 0, 0])
    assert board.score() == 1 == brute_score(board)
    assert board.mismatches() == [Mismatch(Join(0, 1, True), 0, 0), Mismatch(Join(0, 2, False), 1, 3),
                                  Mismatch(Join(1, 3, False), 1, 4)]
    assert board.verify().reasons == [
        "A1: side E shows grey inside the board",
        "A1: side W faces the outside but shows colour 3, not grey",
        "A2: side E faces the outside but shows colour 4, not grey",
        "A2: side W shows grey inside the board",
        "A1-B1: colours differ (S=1 vs N=3)",
        "A2-B2: colours differ (S=1 vs N=4)",
    ]


@pytest.mark.parametrize("seed", range(6))
def test_score_of_planted_boards_brute_force(seed):
    _, board = planted(4 + seed % 3, 3 + seed % 2, 3, seed=seed, empty=0.3 * (seed % 3))
    assert board.score() == brute_score(board)
    rng = np.random.default_rng(seed)
    board.rotations[:] = rng.integers(0, 4, size=board.puzzle.n_squares)
    assert board.score() == brute_score(board)


def test_partial_board_counts_only_joins_between_two_placed_tiles():
    board = Board(p3x2())
    assert board.score() == 0 and board.mismatches() == []
    board.place(0, 0, 0)
    board.place(1, 1, 0)
    board.place(5, 2, 0)  # A3's tile on B3: no placed neighbour
    assert board.score() == 1  # A1|A2 only
    board.place(4, 3, 0)  # B1's tile (2 3 0 0) on B2: A2/B2 is 3 vs 2, B2|B3 is 3 vs 2 (0 0 1 2's W)
    assert board.mismatches() == [Mismatch(Join(1, 4, False), 3, 2), Mismatch(Join(4, 5, True), 3, 2)]


# ---------------------------------------------------------------------------- verify
def test_empty_squares_are_listed():
    board = solved(p3x2())
    board.remove(5)
    assert board.verify().reasons == ["1 empty square: B3"]
    assert board.verify(require_complete=False).valid
    board.remove(0)
    assert board.verify().reasons == ["2 empty squares: A1, B3"]


def test_empty_squares_beyond_ten_are_elided():
    puzzle, board = planted(4, 4, 3, seed=2)
    for sq in range(10):
        board.remove(sq)
    assert board.verify().reasons == ["10 empty squares: A1, A2, A3, A4, B1, B2, B3, B4, C1, C2"]
    board.remove(10)
    assert board.verify().reasons == ["11 empty squares: A1, A2, A3, A4, B1, B2, B3, B4, C1, C2 ..."]


def test_a_tile_placed_twice_is_named_with_its_squares():
    board = Board(p3x2(), [1, 1, 2, 0, 0, 0], [0] * 6)
    reasons = board.verify().reasons
    dup = [r for r in reasons if "placed" in r]
    assert dup == ["tile 1 is placed 3 times: B1, B2, B3", "tile 2 is placed 2 times: A1, A2"]
    assert not board.verify(require_complete=False).valid


def test_hints_are_checked():
    puzzle = p3x2({0: (0, 0)})
    board = solved(puzzle)
    assert board.verify().valid
    board.remove(0)
    assert "hint broken: A1 must hold tile 1, holds empty" in board.verify(require_complete=False).reasons
    board.place(0, 1, 0)
    assert "hint broken: A1 must hold tile 1, holds tile 2" in board.verify().reasons
    board.place(0, 0, 1)
    assert "hint broken: tile 1 on A1 must have rotation 0, has 1" in board.verify().reasons


def test_hint_on_a_symmetric_tile_accepts_the_rotation_showing_the_same_edges():
    puzzle = Puzzle(TILES_3x3, 3, 3, {4: (4, 0)})
    board = solved(puzzle)
    board.place(4, 4, 2)  # 1 2 1 2 turned twice shows the same
    assert board.verify().reasons == []
    board.place(4, 4, 1)  # shows 2 1 2 1
    assert board.verify().reasons[-1] == "hint broken: tile 5 on B2 must have rotation 0, has 1"


# ---------------------------------------------------------------------------- construction
@pytest.mark.parametrize("tiles, rotations, message", [
    ([0, 1, 2, 3, 4], [0] * 5, "a board for a 3x2 puzzle needs 6 squares"),
    ([0, 1, 2, 3, 4, 5], [0] * 5, "a board for a 3x2 puzzle needs 6 squares"),
    ([0, 6, 2, 3, 4, 5], [0] * 6, "square A2 holds tile 7, but the puzzle has 6 tiles"),
    ([0, 1, 2, 3, 4, -2], [0] * 6, "square B3 holds tile -1, but the puzzle has 6 tiles"),
    ([0, 1, 2, 3, 4, 5], [0, 0, 0, 0, 0, 4], "rotations must be 0..3"),
    ([0, 1, 2, 3, 4, 5], [0, 0, 0, 0, 0, -1], "rotations must be 0..3"),
])
def test_bad_boards_are_refused_with_the_square(tiles, rotations, message):
    with pytest.raises(InputError) as info:
        Board(p3x2(), tiles, rotations)
    assert str(info.value) == message


def test_boundary_tiles_and_rotations_are_accepted():
    board = Board(p3x2(), [-1, 5, 0, 1, 2, 3], [3, 3, 0, 0, 0, 0])
    assert board.tiles.tolist() == [-1, 5, 0, 1, 2, 3] and board.rotations.tolist() == [3, 3, 0, 0, 0, 0]


@pytest.mark.parametrize("square, tile, message", [
    (6, 0, "square 6 is off the board"), (-1, 0, "square -1 is off the board"),
    (0, 6, "tile 7 does not exist"), (0, -1, "tile 0 does not exist"),
])
def test_place_refuses_squares_and_tiles_that_do_not_exist(square, tile, message):
    with pytest.raises(InputError) as info:
        Board(p3x2()).place(square, tile, 0)
    assert str(info.value) == message


def test_place_remove_and_facts():
    board = Board(p3x2())
    assert board.tiles.tolist() == [-1] * 6 and board.rotations.tolist() == [0] * 6
    assert (board.width, board.height, board.n_placed, board.is_complete) == (3, 2, 0, False)
    board.place(5, 5, 6)  # 6 quarter turns = 2
    board.place(0, 2, 1)
    assert board.rotations[5] == 2 and board.placed().tolist() == [0, 5] and board.n_placed == 2
    assert board.placements() == {0: (2, 1), 5: (5, 2)}
    # edges: A1 shows tile 3 (0 0 1 2) turned once = 2 0 0 1; B3 tile 6 (1 0 0 1) turned twice = 0 1 1 0
    assert board.edges().tolist() == [[2, 0, 0, 1], [-1] * 4, [-1] * 4, [-1] * 4, [-1] * 4, [0, 1, 1, 0]]
    board.remove(5)
    assert board.tiles[5] == -1 and board.rotations[5] == 0 and board.n_placed == 1
    full = solved(p3x2())
    assert full.is_complete and full.n_placed == 6
    assert repr(full) == "<Board 3x2 6/6 placed, score 7/7>"


def test_construction_helpers_and_comparison():
    puzzle = Puzzle(TILES_3x3, 3, 3, {4: (4, 0), 0: (0, 0)})
    hinted = Board.from_hints(puzzle)
    assert hinted.placements() == {0: (0, 0), 4: (4, 0)}
    assert Board.from_placements(puzzle, {0: (0, 0), 4: (4, 2)}) == hinted  # 1 2 1 2 turned twice
    assert Board.from_placements(puzzle, {0: (0, 0), 4: (4, 1)}) != hinted
    assert Board.from_placements(puzzle, {0: (0, 0), 4: (4, 2)}).placements() == {0: (0, 0), 4: (4, 2)}
    copy = hinted.copy()
    copy.place(1, 1, 0)
    assert hinted.n_placed == 2 and copy.n_placed == 3 and copy != hinted
    assert hinted.same_placement(Board.from_hints(puzzle))
    assert Board.from_placements(puzzle.without_hints(), {0: (0, 0), 4: (4, 0)}) != hinted  # other puzzle
    assert hinted.__eq__("board") is NotImplemented
