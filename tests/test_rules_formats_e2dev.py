"""eternity2.dev JSON puzzles and board documents (edgematch.formats.e2dev) pinned against
their documented schemas.

Schemas (module docstring, docs/formats.md; the site's types.rs / format.rs): Puzzle
``{"name", "width", "height", "numColors", "pieces": [[up, right, down, left]...], "hints":
[{"pos", "piece", "rot"}...]}``; BoardDoc ``{"name", "size", "score", "breaks", "board":
[piece*4+rot or -1...], "board_hash", "board_edges", "board_pieces", "url"}``.  The official
set is stored turned 180 degrees on the site (its piece 0 is [0, 0, 1, 3], the starter is
{"pos": 135, "piece": 138, "rot": 0}).  The documents are written out by hand here; error
tests compare the whole one line ``file[:line]: problem``.  Written to kill the mutants
mutation testing found alive (docs/testing.md).
"""

import json

import pytest

from edgematch import Board, InputError, Puzzle
from edgematch.data import catalogue
from edgematch.formats.e2dev import (
    element_lines,
    fnv1a64,
    key_line,
    load_json,
    read_board,
    read_puzzle,
    site_name,
    sniff_board,
    sniff_puzzle,
    write_board,
    write_puzzle,
)

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4; tile i belongs on square i.
TILES = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
PUZZLE = Puzzle(TILES, 2, 2)


def puzzle_json(name='"tiny"', width="2", height="2", colours="4", pieces=None, hints='{"pos": 0, "piece": 0, "rot": 0}'):
    """Lines: 1 {, 2 name, 3 width, 4 height, 5 numColors, 6 "pieces": [, 7-10 pieces, 11 ], 12 "hints": [, 13 hint."""
    pieces = pieces or ["[0, 1, 3, 0]", "[0, 0, 4, 1]", "[3, 2, 0, 0]", "[4, 0, 0, 2]"]
    return ("{\n"
            f'  "name": {name},\n'
            f'  "width": {width},\n'
            f'  "height": {height},\n'
            f'  "numColors": {colours},\n'
            '  "pieces": [\n    ' + ",\n    ".join(pieces) + "\n  ],\n"
            f'  "hints": [\n    {hints}\n  ]\n'
            "}\n")


def message(call, *args):
    with pytest.raises(InputError) as err:
        call(*args)
    return str(err.value)


def test_reads_the_documented_puzzle():
    p = read_puzzle(puzzle_json(), "p.json")
    assert p == Puzzle(TILES, 2, 2, [(0, 0, 0)]) and p.name == "tiny"


@pytest.mark.parametrize("text, expected", [
    ("[1, 2]", "p.json:1: an eternity2.dev puzzle is a JSON object {...}"),
    ("{\n", "p.json:2: not valid JSON: Expecting property name enclosed in double quotes"),
    ('{"width": ' + "1" * 5000 + "}",
     "p.json: not valid JSON: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 di"),
    ('{"width": 2}', 'p.json: "pieces" must be a non-empty list of [up, right, down, left]'),
    ('{\n"width": 2,\n"pieces": []}', 'p.json:3: "pieces" must be a non-empty list of [up, right, down, left]'),
    (puzzle_json(pieces=["[0, 1, 3, 0]", "[0, 0, 4]", "[3, 2, 0, 0]", "[4, 0, 0, 2]"]),
     "p.json:8: piece 1 must be four integer colours [up, right, down, left]"),
    (puzzle_json(pieces=["[0, 1, 3, 0]", "[0, 0, 4, 1]", "[3, true, 0, 0]", "[4, 0, 0, 2]"]),
     "p.json:9: piece 2 must be four integer colours [up, right, down, left]"),
    (puzzle_json(pieces=["[0, 1, 3, 0]", "[0, 0, 4, 1]", "[3, 2, 0, 0]", "[4, 0, 0, -2]"]),
     "p.json:10: piece 3: colours must be 0..65535"),
    (puzzle_json(pieces=["[0, 1, 3, 65536]", "[0, 0, 4, 1]", "[3, 2, 0, 0]", "[4, 0, 0, 2]"]),
     "p.json:7: piece 0: colours must be 0..65535"),
    (puzzle_json(width='"2"'), 'p.json:3: "width" must be an integer >= 0, not "2"'),
    (puzzle_json(height="-1"), 'p.json:4: "height" must be an integer >= 0, not -1'),
    (puzzle_json(colours="1.5"), 'p.json:5: "numColors" must be an integer >= 0, not 1.5'),
    (puzzle_json(colours='"' + "c" * 40 + '"'), 'p.json:5: "numColors" must be an integer >= 0, not "' + "c" * 29),
    (puzzle_json(name="5"), 'p.json:2: "name" must be a string'),
    (puzzle_json(hints='"x"').replace('"hints": [\n    "x"\n  ]', '"hints": "x"'),
     'p.json:12: "hints" must be a list of {"pos", "piece", "rot"}'),
    (puzzle_json(hints='{"pos": 0, "piece": 0}'), 'p.json:13: hint 0 must be {"pos": square, "piece": 0-based, "rot": 0..3}'),
    (puzzle_json(hints='[0, 0, 0]'), 'p.json:13: hint 0 must be {"pos": square, "piece": 0-based, "rot": 0..3}'),
    (puzzle_json(hints='{"pos": 0, "piece": 0, "rot": 4}'), "p.json:13: hint 0: pos and piece must be >= 0 and rot 0..3"),
    (puzzle_json(hints='{"pos": 0, "piece": 0, "rot": -1}'), "p.json:13: hint 0: pos and piece must be >= 0 and rot 0..3"),
    (puzzle_json(hints='{"pos": -1, "piece": 0, "rot": 0}'), "p.json:13: hint 0: pos and piece must be >= 0 and rot 0..3"),
    (puzzle_json(hints='{"pos": 0, "piece": -1, "rot": 0}'), "p.json:13: hint 0: pos and piece must be >= 0 and rot 0..3"),
    (puzzle_json(hints='{"pos": 9, "piece": 0, "rot": 0}'), "p.json:13: hint square 9 is off the 2x2 board"),
    (puzzle_json(pieces=["[0, 1, 3, 0]", "[0, 0, 0, 1]", "[3, 2, 0, 0]", "[4, 0, 0, 2]"]),
     "p.json:8: tile 2 (0 0 0 1) has 3 grey sides; at most 2 can face the outside"),
])
def test_bad_puzzles_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_puzzle, text, "p.json") == expected


def test_name_falls_back_to_id_and_hints_may_be_null():
    text = '{"id": "e2-x", "pieces": [[0, 1, 3, 0], [0, 0, 4, 1], [3, 2, 0, 0], [4, 0, 0, 2]], "hints": null}'
    p = read_puzzle(text, "p.json")
    assert p.name == "e2-x" and p.hints == () and (p.width, p.height) == (2, 2)


def test_the_official_set_is_turned_at_the_boundary():
    e2 = catalogue.load_bundled("e2")
    data = json.loads(write_puzzle(e2))
    # the site's piece 0 is [0, 0, 1, 3]; standard piece 1 is 1 3 0 0 (module docstring)
    assert data["pieces"][0] == [0, 0, 1, 3]
    assert data["hints"] == [{"pos": 135, "piece": 138, "rot": 0}]
    back = read_puzzle(json.dumps(data), "e2.json")
    assert back.tiles[0].tolist() == [1, 3, 0, 0]
    assert [(h.square, h.tile, h.rotation) for h in back.hints] == [(135, 138, 2)]


def test_other_puzzles_are_written_as_stored():
    text = write_puzzle(Puzzle(TILES, 2, 2, [(1, 1, 0)], name="tiny"))
    assert text == (
        "{\n"
        '  "name": "tiny",\n'
        '  "width": 2,\n'
        '  "height": 2,\n'
        '  "numColors": 4,\n'
        '  "pieces": [\n    [0, 1, 3, 0],\n    [0, 0, 4, 1],\n    [3, 2, 0, 0],\n    [4, 0, 0, 2]\n  ],\n'
        '  "hints": [\n    {"pos": 1, "piece": 1, "rot": 0}\n  ]\n'
        "}\n")
    assert '"hints": []' in write_puzzle(PUZZLE)


# ------------------------------------------------------------------ helpers
def test_key_line_and_element_lines():
    text = '{\n "a": 1,\n "list": [\n  [1, 2],\n\n  [3,\n 4], 5\n ]\n}'
    assert key_line(text, "list") == 3 and key_line(text, "zz") is None
    assert element_lines(text, "list") == [4, 6, 7]
    assert element_lines(text, "a") == []
    assert element_lines('{"list": [1, 2', "list") == [1, 1]  # unterminated: what it could tell


def test_fnv1a64_matches_the_published_constants():
    # FNV-1a 64: offset basis 0xcbf29ce484222325; "a" -> 0xaf63dc4c8601ec8c (the FNV reference test vectors)
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8


@pytest.mark.parametrize("name, cleaned", [("my board #1", "my_board_1"), ("A_b9", "A_b9"), ("", "eternity2_board"), ("é", "_")])
def test_site_name(name, cleaned):
    assert site_name(name) == cleaned


@pytest.mark.parametrize("text, puzzle, board", [
    ('  {"pieces": [], "numColors": 1}', True, False),
    ('{"pieces": []}', False, False),
    ('[{"pieces": [], "numColors": 1}]', False, False),
    ('\n{"board": [], "board_edges": ""}', False, True),
    ('{"board": []}', False, False),
    ('{"board_edges": ""}', False, False),
])
def test_sniffers(text, puzzle, board):
    assert sniff_puzzle(text) is puzzle
    assert sniff_board(text) is board


def test_load_json_reports_deep_nesting_without_a_line():
    # Python's RecursionError text, cut after 80 characters as the reader does
    assert message(load_json, "[" * 100000 + "]" * 100000, "d.json") == (
        "d.json: not valid JSON: maximum recursion depth exceeded while decoding a JSON array from a unicode stri")


# ------------------------------------------------------------------ boards
EDGES = "abda" + "aaeb" + "dcaa" + "eaac"  # the solved board's letters, rotation 0 (a=0 .. e=4)


def board_json(size='"size": 2,', board="0, 4,\n    8, 12", edges=f'"{EDGES}"', pieces='"001002003004"'):
    """Lines: 1 {, 2 name, 3 size, 4 "board": [, 5-6 codes, 7 ], 8 board_edges, 9 board_pieces."""
    return ("{\n"
            '  "name": "tiny",\n'
            f"  {size}\n"
            f'  "board": [\n    {board}\n  ],\n'
            f'  "board_edges": {edges},\n'
            f'  "board_pieces": {pieces}\n'
            "}\n")


def test_reads_the_documented_board():
    b = read_board(board_json(), "b.json", PUZZLE)
    assert b.tiles.tolist() == [0, 1, 2, 3] and b.rotations.tolist() == [0, 0, 0, 0]


def test_board_codes_alone_give_piece_and_rotation():
    # code 7 = piece 1 rotation 3; -1 empty
    b = read_board('{"size": 2, "board": [-1, 7, -1, -1]}', "b.json", PUZZLE)
    assert b.tiles.tolist() == [-1, 1, -1, -1] and b.rotations.tolist() == [0, 3, 0, 0]


@pytest.mark.parametrize("text, expected", [
    ("[]", "b.json:1: an eternity2.dev board is a JSON object {...}"),
    (board_json(size='"size": "2",'), 'b.json:3: "size" must be an integer >= 1, not "2"'),
    (board_json(size='"size": 0,'), 'b.json:3: "size" must be an integer >= 1, not 0'),
    (board_json(size='"width": 0,'), 'b.json:3: "width" must be an integer >= 1, not 0'),
    (board_json(size='"height": 0,'), 'b.json:3: "height" must be an integer >= 1, not 0'),
    (board_json(size='"size": 3,'), "b.json:3: the board is 3x3, but the puzzle is 2x2"),
    (board_json(size='"width": 3,'), "b.json:3: the board is 3x?, but the puzzle is 2x2"),
    (board_json(size='"height": 3,'), "b.json: the board is ?x3, but the puzzle is 2x2"),
    (board_json(size='"size": 2, "height": 3,'), "b.json:3: the board is 2x3, but the puzzle is 2x2"),
    (board_json(edges="5"), 'b.json:8: "board_edges" must be a string of letters'),
    (board_json(edges='"abc"'), "b.json:8: board_edges has 3 letters; a 4-square board needs 16"),
    (board_json(board="0, 4, 8"), 'b.json:4: "board" must list 4 codes (piece*4+rot or -1), one per square; got 3'),
    (board_json(board="0, 4, 8, 12, 1"), 'b.json:4: "board" must list 4 codes (piece*4+rot or -1), one per square; got 5'),
    (board_json().replace('"board": [\n    0, 4,\n    8, 12\n  ]', '"board": 7'),
     'b.json:4: "board" must list 4 codes (piece*4+rot or -1), one per square; got no list'),
    (board_json(board="0, 4,\n    8, 16"), "b.json:6: board[3] = 16 is not -1 or piece*4+rot for 4 pieces"),
    (board_json(board="0, -2,\n    8, 12"), "b.json:5: board[1] = -2 is not -1 or piece*4+rot for 4 pieces"),
    (board_json(board='0, 4,\n    "' + "x" * 30 + '", 12'),
     'b.json:6: board[2] = "' + "x" * 19 + " is not -1 or piece*4+rot for 4 pieces"),
    (board_json(board="true, 4,\n    8, 12"), "b.json:5: board[0] = true is not -1 or piece*4+rot for 4 pieces"),
    ('{"size": 2,\n "board_pieces": 5}', 'b.json:2: "board_pieces" must be a string of digits'),
    ('{"size": 2,\n "board_pieces": "001002003004"}', 'b.json: the board document has neither "board" nor "board_edges"'),
    ('{"size": 2}', 'b.json: the board document has neither "board" nor "board_edges"'),
    ('{"size": 2,\n "board_pieces": "00100200300"}',
     "b.json:2: board_pieces must be 12 digits (three per square); got 11 characters"),
    # board_edges decide the rotation; the codes name the tiles: tile 2 cannot show tile 1's sides
    (board_json(board="4, 0,\n    8, 12"),
     "b.json:8: square A1: tile 2 (0 0 4 1, N E S W) cannot show abda (top right bottom left) in any rotation"),
])
def test_bad_boards_give_one_line_naming_file_line_and_problem(text, expected):
    assert message(read_board, text, "b.json", PUZZLE) == expected


def test_board_pieces_name_tiles_when_there_are_no_codes():
    text = '{"size": 2,\n "board_edges": "aaaa' + EDGES[4:] + '",\n "board_pieces": "000002003004"}'
    b = read_board(text, "b.json", PUZZLE)
    assert b.tiles.tolist() == [-1, 1, 2, 3]


def test_official_board_codes_are_turned():
    # the site's code 138*4 + 0 on I8 (square 135) is the standard 139@I8 rotation 2
    e2 = catalogue.load_bundled("e2")
    codes = [-1] * 256
    codes[135] = 138 * 4
    b = read_board(json.dumps({"size": 16, "board": codes}), "b.json", e2)
    assert int(b.tiles[135]) == 138 and int(b.rotations[135]) == 2
    assert json.loads(write_board(b))["board"][135] == 138 * 4


def fnv(data):
    """FNV-1a 64 written out from its definition (offset basis, prime 0x100000001b3)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) % 2 ** 64
    return h


def test_write_board_layout():
    board = Board(PUZZLE, [0, 1, 2, -1], [0, 0, 0, 0])
    codes = [0, 4, 8, -1]
    raw = b"".join(c.to_bytes(4, "little", signed=True) for c in codes)
    # joins A1|A2 (1) and A1/B1 (3) match, B2 empty: score 2 of 4, 2 breaks
    assert write_board(board) == (
        "{\n"
        '  "name": "eternity2_board",\n'
        '  "size": 2,\n'
        '  "score": 2,\n'
        '  "breaks": 2,\n'
        '  "board": [\n    0, 4,\n    8, -1\n  ],\n'
        f'  "board_hash": {fnv(raw)},\n'
        '  "board_edges": "abdaaaebdcaaaaaa",\n'
        '  "board_pieces": "001002003000",\n'
        '  "url": "https://eternity2.dev/viewer?puzzle=eternity2_board&puzzle_size=2'
        '&board_edges=abdaaaebdcaaaaaa&board_pieces=001002003000"\n'
        "}\n")


def test_write_board_of_a_rectangle_states_width_and_height():
    # 3x2 by hand: A1|A2 1, A2|A3 2, B1|B2 3, B2|B3 1, A1/B1 2, A2/B2 3, A3/B3 1.
    p = Puzzle([(0, 1, 2, 0), (0, 2, 3, 1), (0, 0, 1, 2), (2, 3, 0, 0), (3, 1, 0, 3), (1, 0, 0, 1)], 3, 2, name="r")
    text = write_board(Board(p, list(range(6)), [0] * 6))
    data = json.loads(text)
    assert (data["size"], data["width"], data["height"], data["score"], data["breaks"]) == (3, 3, 2, 7, 0)
    assert data["url"] == ("https://eternity2.dev/viewer?puzzle=r&board_w=3&board_h=2"
                           "&board_edges=abcaacdbaabccdaadbadbaab&board_pieces=001002003004005006")
    assert read_board(text, "r.json", p).tiles.tolist() == list(range(6))


def test_write_board_refuses_colours_above_z():
    p = Puzzle([(0, 1, 3, 0), (0, 0, 26, 1), (3, 2, 0, 0), (26, 0, 0, 2)], 2, 2)
    assert message(write_board, Board(p)) == (
        "cannot write an eternity2.dev board: the puzzle uses colours up to 26, but viewer letters a..z "
        "encode only colours 0..25")


# ------------------------------------------------------------------ second round
def test_width_zero_passes_the_field_check_and_fails_the_model():
    # ">= 0" admits 0 as a field; the model then refuses the board size (no tile, so no line)
    assert message(read_puzzle, puzzle_json(width="0"), "p.json") == "p.json: board size 0x2 is too small (at least 2x2)"
    assert message(read_board, board_json(size='"size": 1,'), "b.json", PUZZLE) == \
        "b.json:3: the board is 1x1, but the puzzle is 2x2"


def test_lines_count_a_leading_newline():
    assert message(read_puzzle, '\n{\n"pieces": []}', "p.json") == \
        'p.json:3: "pieces" must be a non-empty list of [up, right, down, left]'


def test_colour_65535_is_allowed():
    p = read_puzzle(puzzle_json(pieces=["[0, 1, 3, 0]", "[0, 0, 65535, 1]", "[3, 2, 0, 0]", "[65535, 0, 0, 2]"]), "p.json")
    assert p.tiles[1].tolist() == [0, 0, 65535, 1]


def test_name_defaults_to_empty():
    assert read_puzzle('{"pieces": [[0, 1, 3, 0], [0, 0, 4, 1], [3, 2, 0, 0], [4, 0, 0, 2]]}', "p.json").name == ""


def test_board_edges_alone_are_matched_against_the_tiles():
    b = read_board('{"size": 2, "board_edges": "' + EDGES + '"}', "b.json", PUZZLE)
    assert b.tiles.tolist() == [0, 1, 2, 3]


def test_board_edges_and_board_pieces_errors_name_the_square():
    assert message(read_board, '{"size": 2,\n "board_edges": "abdaaaeY' + EDGES[8:] + '"}', "b.json", PUZZLE) == \
        "b.json:2: board_edges: square A2 has 'Y', not a letter a..z"
    assert message(read_board, '{"size": 2,\n "board_edges": "' + EDGES + '",\n "board_pieces": "009002003004"}',
                   "b.json", PUZZLE) == "b.json:3: board_pieces: square A1 names tile 9, but the puzzle has 4"


# An unknown key on line 2 holding its own '"pieces": [1]' (ignored by the reader) comes first, so
# the element lines of the real array cannot be told; the reader then names the first '"pieces":'.
def test_elements_that_cannot_be_located_are_reported_at_the_key():
    text = puzzle_json(name='"x", "meta": {"pieces": [1]}', pieces=["[0, 1, 3, 0]", "[0, 0, 4, 1]", "[3, 2]", "[4, 0, 0, 2]"])
    assert message(read_puzzle, text, "p.json") == "p.json:2: piece 2 must be four integer colours [up, right, down, left]"
    text = puzzle_json(name='"x", "meta": {"pieces": [1]}', pieces=["[0, 1, 3, 0]", "[0, 0, 4, 1]", "[3, 2, 0, -5]", "[4, 0, 0, 2]"])
    assert message(read_puzzle, text, "p.json") == "p.json:2: piece 2: colours must be 0..65535"
    text = puzzle_json(name='"x", "meta": {"hints": [1]}', hints='{"pos": 0, "piece": 0, "rot": 0},\n    {"pos": 1}')
    assert message(read_puzzle, text, "p.json") == \
        'p.json:2: hint 1 must be {"pos": square, "piece": 0-based, "rot": 0..3}'
    text = '{\n "meta": {"board": [1]},\n "size": 2,\n "board": [\n 0,\n 4,\n 8,\n 99]}'
    assert message(read_board, text, "b.json", PUZZLE) == "b.json:2: board[3] = 99 is not -1 or piece*4+rot for 4 pieces"


def test_write_board_numbers_up_to_999_tiles():
    from support.puzzles import planted
    _, solution = planted(37, 27, 4, seed=3)  # 999 tiles: three digits number them all
    assert len(json.loads(write_board(solution))["board_pieces"]) == 3 * 999
    _, solution = planted(40, 25, 4, seed=3)  # 1000 tiles
    assert message(write_board, solution) == (
        "cannot write an eternity2.dev board: its board_pieces numbers tiles in three digits, and the puzzle has 1000 tiles")


def test_the_element_just_past_the_located_ones_is_reported_at_the_key():
    # the decoy '"pieces": [1]' locates one element; element 1 is the first that cannot be located
    text = puzzle_json(name='"x", "meta": {"pieces": [1]}', pieces=["[0, 1, 3, 0]", "[0, 0]", "[3, 2, 0, 0]", "[4, 0, 0, 2]"])
    assert message(read_puzzle, text, "p.json") == "p.json:2: piece 1 must be four integer colours [up, right, down, left]"
    text = puzzle_json(name='"x", "meta": {"pieces": [1]}', pieces=["[0, 1, 3, 0]", "[0, 0, 4, -1]", "[3, 2, 0, 0]", "[4, 0, 0, 2]"])
    assert message(read_puzzle, text, "p.json") == "p.json:2: piece 1: colours must be 0..65535"
    text = '{\n "meta": {"board": [1]},\n "size": 2,\n "board": [\n 0,\n 99,\n 8,\n 12]}'
    assert message(read_board, text, "b.json", PUZZLE) == "b.json:2: board[1] = 99 is not -1 or piece*4+rot for 4 pieces"
