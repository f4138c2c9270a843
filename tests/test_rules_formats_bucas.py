"""Board links for Jef Bucas's viewer (edgematch.formats.bucas) pinned against their documented layout.

Layout (module docstring, docs/formats.md; the viewer's readParameters): parameters after
``?`` or ``#``, ``name=value`` joined by ``&``; ``board_w``/``board_h`` (or ``puzzle_size``);
``board_edges`` = four letters per square, top right bottom left, ``chr(97 + colour)``,
``aaaa`` empty; ``board_pieces`` = three digits per square, ``000`` empty; ``motifs_order``.
The links are written out by hand here; error tests compare the whole one line
``file:line: problem``.  Written to kill the mutants mutation testing found alive
(docs/testing.md).
"""

import pytest

from edgematch import Board, InputError, Puzzle
from edgematch.formats.bucas import (
    _letters,
    board_from_cells,
    board_url,
    check_letter_colours,
    edge_letters,
    parse_params,
    read,
    safe_name,
    sniff,
)

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4; tile i belongs on square i.
TILES = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
PUZZLE = Puzzle(TILES, 2, 2)
# letters of the solved board, rotation 0: a=0 b=1 c=2 d=3 e=4
A1, A2, B1, B2 = "abda", "aaeb", "dcaa", "eaac"
EDGES = A1 + A2 + B1 + B2
VIEW = "https://e2.bucas.name/#"


def message(call, *args):
    with pytest.raises(InputError) as err:
        call(*args)
    return str(err.value)


def link(**params):
    return VIEW + "&".join(f"{k}={v}" for k, v in params.items())


def test_reads_the_solved_board():
    b = read(link(board_w=2, board_h=2, board_edges=EDGES), "u.url", PUZZLE)
    assert b.tiles.tolist() == [0, 1, 2, 3] and b.rotations.tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("text, expected", [
    ("", "u.url: no viewer link found (the text is empty)"),
    (" \n\n", "u.url: no viewer link found (the text is empty)"),
    (link(board_edges=EDGES) + "\n\n" + link(board_edges=EDGES) + "\n", "u.url:3: a viewer link is a single line; found more than one"),
    ("\n" + VIEW + "board_edges=" + EDGES + " x\n", "u.url:2: a viewer link contains no spaces"),
    (VIEW + "board_w=2", "u.url:1: the link has no board_edges parameter"),
    (link(board_w="x", board_edges=EDGES), "u.url:1: board_w 'x' is not a board size"),
    (link(board_h="0000002", board_edges=EDGES), "u.url:1: board_h '0000002' is not a board size"),
    (link(puzzle_size="y", board_edges=EDGES), "u.url:1: puzzle_size 'y' is not a board size"),
    (link(board_w="1" * 25, board_edges=EDGES), "u.url:1: board_w '" + "1" * 20 + "' is not a board size"),
    (link(board_w=3, board_edges=EDGES), "u.url:1: the link shows a 3x? board, but the puzzle is 2x2"),
    (link(board_h=3, board_edges=EDGES), "u.url:1: the link shows a ?x3 board, but the puzzle is 2x2"),
    (link(board_w=2, board_h=3, board_edges=EDGES), "u.url:1: the link shows a 2x3 board, but the puzzle is 2x2"),
    (link(puzzle_size=3, board_edges=EDGES), "u.url:1: the link shows a 3x3 board, but the puzzle is 2x2"),
    (link(motifs_order="q" * 25, board_edges=EDGES),
     "u.url:1: unknown motifs_order '" + "q" * 20 + "' (known: jblackwood, marie, jef)"),
    (link(board_edges=EDGES[:-1]), "u.url:1: board_edges has 15 letters; a 4-square board needs 16"),
    (link(board_edges=A1 + "aaeY" + B1 + B2), "u.url:1: board_edges: square A2 has 'Y', not a letter a..z"),
    # jef's numbering has 23 letters a..w (colour_numbering_maps.tsv); 'z' names no colour
    (link(motifs_order="jef", board_edges=A1 + A2 + B1 + "aaaz"),
     "u.url:1: board_edges: square B2 has 'z', which names no colour in motifs_order=jef"),
    (link(board_edges=EDGES, board_pieces="00100200300"),
     "u.url:1: board_pieces must be 12 digits (three per square); got 11 characters"),
    (link(board_edges="aaaa" + A2 + B1 + B2, board_pieces="001002003004"),
     "u.url:1: square A1 names tile 1 but board_edges shows it empty"),
    # tile 1 named on A1, but A1 shows tile 2's sides
    (link(board_edges=A2 + A1 + B1 + B2, board_pieces="001002003004"),
     "u.url:1: square A1: tile 1 (0 1 3 0, N E S W) cannot show aaeb (top right bottom left) in any rotation"),
    # tile 1 named on A1, and A2 shows tile 1 again: it fits no other (unused) tile
    (link(board_edges=A1 + A1 + B1 + B2, board_pieces="001000000000"),
     ("u.url:1: square A2: abda (top right bottom left) matches no unused tile of the puzzle; "
      "the tiles that fit (1) are placed elsewhere")),
    (link(board_edges=A1 + "bbbb" + B1 + B2),
     "u.url:1: square A2: bbbb (top right bottom left) matches no unused tile of the puzzle"),
])
def test_bad_links_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read, text, "u.url", PUZZLE) == expected


def test_six_digit_sizes_and_empty_motifs_order_are_accepted():
    b = read(link(board_w="000002", board_h=2, motifs_order="", board_edges=EDGES), "u.url", PUZZLE)
    assert b.tiles.tolist() == [0, 1, 2, 3]


def test_named_tiles_are_placed_in_the_rotation_the_edges_show():
    # tile 1 (0 1 3 0) turned clockwise 1 shows 0 0 1 3 on A2 (grey top and right)
    b = read(link(board_edges="aaaa" + "aabd" + "aaaa" + "aaaa", board_pieces="000001000000"), "u.url", PUZZLE)
    assert b.tiles.tolist() == [-1, 0, -1, -1] and b.rotations.tolist() == [0, 1, 0, 0]


def test_board_from_cells_defaults_name_text_and_board_edges():
    import numpy as np
    cells = np.full((4, 4), -1)
    assert message(board_from_cells, PUZZLE, cells, [0, -1, -1, -1]) == \
        "<text>: square A1 names tile 1 but board_edges shows it empty"


def test_letters_shows_0_to_25_as_letters_and_others_in_brackets():
    assert _letters([0, 1, 25, 26, 30]) == "abz(26)(30)"


def test_check_letter_colours_allows_25_and_refuses_26():
    ok = Puzzle([(0, 1, 3, 0), (0, 0, 25, 1), (3, 2, 0, 0), (25, 0, 0, 2)], 2, 2)
    check_letter_colours(ok)
    assert edge_letters(Board(ok, [0, 1, 2, 3], [0, 0, 0, 0])) == "abda" + "aazb" + "dcaa" + "zaac"
    bad = Puzzle([(0, 1, 3, 0), (0, 0, 26, 1), (3, 2, 0, 0), (26, 0, 0, 2)], 2, 2)
    assert message(check_letter_colours, bad) == (
        "cannot write a viewer link: the puzzle uses colours up to 26, but viewer letters a..z encode only colours 0..25")


@pytest.mark.parametrize("text, params", [
    ("https://x/?a=1&b=2#c=3&a=4", {"a": "4", "b": "2", "c": "3"}),  # later names win
    ("https://x/#a=1#2", {"a": "1#2"}),  # the fragment runs from the first '#'
    ("https://x/?a=1?2", {"a": "1?2"}),  # the query runs from the first '?'
    ("https://x/board_w=2", {}),  # a link without '?' or '#' has no parameters
    ("a=1#b=2", {"b": "2"}),  # a bare string with '#': only the fragment
    ("a=1&b=2", {"a": "1", "b": "2"}),  # a bare parameter string
    ("https://x/#a=b=c", {"a": "b=c"}),  # the value runs from the first '='
])
def test_parse_params(text, params):
    assert parse_params(text) == params


@pytest.mark.parametrize("name, cleaned", [
    ("Ab-c.d+e_f9", "Ab-c.d+e_f9"), ("a b#c", "a_b_c"), ("__a b__", "a_b"), ("###", "edgematch"), ("", "edgematch"),
])
def test_safe_name(name, cleaned):
    assert safe_name(name) == cleaned


def test_board_url_uses_the_given_name():
    url = board_url(Board(PUZZLE, [0, 1, 2, 3], [0, 0, 0, 0]), "my board")
    assert url == VIEW + "puzzle=my_board&board_w=2&board_h=2&board_edges=" + EDGES + "&board_pieces=001002003004"


@pytest.mark.parametrize("text, claimed", [
    ("  https://e2.bucas.name/#board_edges=aaaa\n", True),
    ("http://e2.bucas.name/#board_edges=aaaa", True),
    ("https://e2.bucas.name/#board_w=2", False),
    ("e2.bucas.name/#board_edges=aaaa", False),
])
def test_sniff(text, claimed):
    assert sniff(text) is claimed


def test_the_list_of_fitting_tiles_shows_at_most_eight():
    import numpy as np
    # 5x5 by hand: grey outside, colour 1 on every other side, so the 9 inner tiles are all 1 1 1 1
    # (tiles 7 8 9 12 13 14 17 18 19, numbered from 1 row by row).
    tiles = []
    for r in range(5):
        for c in range(5):
            tiles.append((0 if r == 0 else 1, 0 if c == 4 else 1, 0 if r == 4 else 1, 0 if c == 0 else 1))
    p = Puzzle(tiles, 5, 5)
    inner = [r * 5 + c for r in range(1, 4) for c in range(1, 4)]
    named = [sq if sq in inner else -1 for sq in range(25)]
    cells = np.full((25, 4), -1)
    for sq in inner:
        cells[sq] = 1
    cells[0] = 1  # A1 shows 1 1 1 1 too, and every tile that could show it is named elsewhere
    assert message(board_from_cells, p, cells, named, "u.url", 1) == (
        "u.url:1: square A1: bbbb (top right bottom left) matches no unused tile of the puzzle; "
        "the tiles that fit (7, 8, 9, 12, 13, 14, 17, 18) are placed elsewhere")


def test_board_pieces_are_written_up_to_999_tiles():
    from edgematch.formats.bucas import piece_digits
    from support.puzzles import planted
    p, solution = planted(37, 27, 4, seed=3)  # 999 tiles: three digits still number them all
    assert p.n_tiles == 999
    digits = piece_digits(solution)
    assert len(digits) == 3 * 999
    assert digits[:3] == f"{int(solution.tiles[0]) + 1:03d}"


def test_safe_name_keeps_capital_x():
    assert safe_name("X_a_X") == "X_a_X"


def test_a_hinted_square_gets_its_hint_tile_among_equal_tiles():
    # four equal corner tiles 0 1 1 0 (colour 1 = b): any of them fits any corner.  The hint puts
    # tile 1 on B2 (rotation 2); tile 3 is named on A1; A2 and B1 then take tiles 2 and 4 in order.
    p = Puzzle([(0, 1, 1, 0)] * 4, 2, 2, [(3, 0, 2)])
    b = read(link(board_edges="abba" + "aabb" + "bbaa" + "baab", board_pieces="003000000000"), "u.url", p)
    assert b.tiles.tolist() == [2, 1, 3, 0]
    assert b.rotations.tolist() == [0, 1, 3, 2]
