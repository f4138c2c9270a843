"""The web formats: e2.bucas.name viewer links ("bucas") and eternity2.dev JSON ("e2dev").

Reference facts used below were taken from the sites' own data, not from our code:
* SITE_PIECES_HEAD / SITE_HINTS: raphael-anjou/eternity2 research/datasets/instances/
  e2-16x16-v00.json (the official set as eternity2.dev stores it, with its clue pins);
* SITE_BOARD_*: raphael-anjou/eternity2 research/experiments/repair-study/results/boards/
  accept-anneal_v00.json (a board document written by the site's tools: score 378,
  board_hash 9586690792615897613).
"""

import json
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import edgematch
from edgematch import Board, InputError, format_board, format_puzzle, parse_board, parse_puzzle
from edgematch.formats import BOARD_FORMATS, PUZZLE_FORMATS, read_board
from edgematch.formats.e2dev import fnv1a64
from support.puzzles import planted

# --------------------------------------------------------------------------- helpers
boards = st.builds(  # (puzzle, board) pairs: up to 25 colours, hints, partial boards
    planted,
    width=st.integers(2, 7),
    height=st.integers(2, 7),
    colours=st.integers(1, 25),
    seed=st.integers(0, 2**32 - 1),
    hints=st.integers(0, 3),
    empty=st.sampled_from([0.0, 0.3, 1.0]),
)

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def link_for(puzzle, edges, pieces=None, extra=""):
    link = f"https://e2.bucas.name/#board_w={puzzle.width}&board_h={puzzle.height}&board_edges={edges}"
    if pieces is not None:
        link += f"&board_pieces={pieces}"
    return link + extra


# --------------------------------------------------------------------------- bucas


@FAST
@given(boards)
def test_bucas_round_trip(made):
    puzzle, board = made
    link = format_board(board, "bucas").strip()
    assert link.startswith("https://e2.bucas.name/#puzzle=")
    assert f"&board_w={puzzle.width}&board_h={puzzle.height}&" in link
    back = parse_board(link, puzzle, "<url>", "bucas")
    assert back == board and np.array_equal(back.tiles, board.tiles)


@FAST
@given(boards)
def test_bucas_edges_alone_give_the_same_placement(made):
    puzzle, board = made
    link = re.sub(r"&board_pieces=\d+", "", format_board(board, "bucas").strip())
    back = parse_board(link, puzzle, "<url>", "bucas")
    assert np.array_equal(back.edges(), board.edges())
    placed = back.tiles[back.tiles >= 0]
    assert len(set(placed.tolist())) == len(placed)  # each tile once
    assert not [r for r in back.verify(require_complete=False).reasons if "hint" in r or "placed" in r]


def test_bucas_letters_and_numbers_follow_the_viewer():
    puzzle, board = planted(3, 2, 5, seed=1)
    link = format_board(board, "bucas").strip()
    params = dict(p.split("=", 1) for p in link.split("#", 1)[1].split("&"))
    edges = board.edges()
    assert params["board_edges"] == "".join(chr(97 + c) for c in edges.ravel())
    assert params["board_pieces"] == "".join(f"{t + 1:03d}" for t in board.tiles)
    board.remove(4)
    params = dict(p.split("=", 1) for p in format_board(board, "bucas").strip().split("#", 1)[1].split("&"))
    assert params["board_edges"][16:20] == "aaaa" and params["board_pieces"][12:15] == "000"


def test_bucas_empty_board():
    puzzle, _ = planted(4, 4, 3, seed=2)
    link = format_board(Board(puzzle), "bucas").strip()
    assert "board_edges=" + "a" * 64 in link and "board_pieces=" + "0" * 48 in link
    assert parse_board(link, puzzle, "<url>", "bucas").n_placed == 0


def test_bucas_hint_tile_stays_on_its_square_among_equal_tiles():
    # Four identical inner tiles (a 4x4 board with one colour): edges cannot tell them apart,
    # so the hinted one must land on its hint square.
    puzzle, board = planted(4, 4, 1, seed=3)
    inner = [int(t) for t in puzzle.tiles_of_kind(0)]
    square = 5
    tile = int(board.tiles[square])
    hinted = puzzle.with_hints({square: (tile, int(board.rotations[square]))})
    link = re.sub(r"&board_pieces=\d+", "", format_board(Board(hinted, board.tiles, board.rotations), "bucas"))
    back = parse_board(link.strip(), hinted, "<url>", "bucas")
    assert back.tiles[square] == tile and len(inner) == 4
    assert back.verify().valid


def test_bucas_many_tiles_skip_board_pieces():
    puzzle, board = planted(32, 32, 20, seed=4)  # 1024 tiles: no three-digit numbers
    link = format_board(board, "bucas").strip()
    assert "board_pieces" not in link
    back = parse_board(link, puzzle, "<url>", "bucas")
    assert np.array_equal(back.edges(), board.edges())


def test_bucas_refuses_colours_without_letters():
    puzzle, board = planted(3, 3, 26, seed=5)
    assert max(puzzle.colours) > 25
    with pytest.raises(InputError, match="a..z"):
        format_board(board, "bucas")


def test_bucas_query_string_bare_parameters_and_puzzle_size():
    puzzle, board = planted(3, 3, 4, seed=6)
    fragment = format_board(board, "bucas").strip().split("#", 1)[1]
    for text in (f"https://e2.bucas.name/?{fragment}", f"http://e2.bucas.name/index.html?{fragment}",
                 f"https://eternity2.dev/viewer?{fragment.replace('board_w=3&board_h=3', 'puzzle_size=3')}"):
        assert parse_board(text, puzzle, "<url>", "bucas") == board
    assert parse_board(fragment, puzzle, "<url>", "bucas") == board
    # A file holding the link, as written by format_board, reads through detection too.
    assert parse_board(format_board(board, "bucas"), puzzle, "board.url") == board


def test_bucas_reads_a_link_through_read_board_and_detects_it(tmp_path):
    puzzle, board = planted(3, 4, 4, seed=7)
    link = format_board(board, "bucas").strip()
    assert read_board(link, puzzle) == board
    path = tmp_path / "board.txt"
    path.write_text(link + "\n")
    assert read_board(path, puzzle) == board
    assert BOARD_FORMATS["bucas"].sniff(link)
    assert not BOARD_FORMATS["bucas"].sniff("https://example.org/")
    assert not BOARD_FORMATS["bucas"].sniff('{"board_edges": "aaaa", "board": [-1]}')


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda e, p: (e[:-1], p), "letters"),
        (lambda e, p: ("A" + e[1:], p), "not a letter"),
        (lambda e, p: (e, p[:-1]), "digits"),
        (lambda e, p: (e, "x" + p[1:]), "digits"),
        (lambda e, p: (e, "999" + p[3:]), "names tile 999"),
        (lambda e, p: ("aaaa" + e[4:], p), "shows it empty"),
        (lambda e, p: (e[4:8] + e[4:], None), "matches no unused tile"),
        (lambda e, p: (e, p[3:6] + p[3:]), "cannot show"),
    ],
)
def test_bucas_bad_links_are_input_errors(change, message):
    puzzle, board = planted(3, 3, 4, seed=8)
    params = dict(x.split("=", 1) for x in format_board(board, "bucas").strip().split("#", 1)[1].split("&"))
    edges, pieces = change(params["board_edges"], params["board_pieces"])
    with pytest.raises(InputError, match=message) as caught:
        parse_board(link_for(puzzle, edges, pieces), puzzle, "<url>", "bucas")
    assert caught.value.source == "<url>" and caught.value.line == 1


def test_bucas_other_bad_links():
    puzzle, board = planted(3, 3, 4, seed=9)
    edges = format_board(board, "bucas").split("board_edges=")[1].split("&")[0]
    cases = {
        "https://e2.bucas.name/#board_w=3&board_h=3": "no board_edges",
        link_for(puzzle, edges).replace("board_w=3", "board_w=4"): "4x3 board, but the puzzle is 3x3",
        link_for(puzzle, edges).replace("board_w=3", "board_w=x"): "not a board size",
        link_for(puzzle, edges, extra="&motifs_order=picasso"): "unknown motifs_order",
        link_for(puzzle, "x" * 36, extra="&motifs_order=jef"): "names no colour",
        link_for(puzzle, edges) + "\n" + link_for(puzzle, edges): "single line",
    }
    for text, message in cases.items():
        with pytest.raises(InputError, match=message):
            parse_board(text, puzzle, "<url>", "bucas")


# --------------------------------------------------------------------------- e2dev Puzzle

SITE_PIECES_HEAD = [[0, 0, 1, 3], [0, 0, 1, 4], [0, 0, 2, 3], [0, 0, 3, 2], [0, 1, 6, 1], [0, 1, 7, 2]]
SITE_PIECES_TAIL = [[18, 20, 21, 20], [18, 22, 20, 22], [19, 22, 21, 22]]
SITE_HINTS = [  # the five clues; the file also pins three corners
    {"pos": 135, "piece": 138, "rot": 0},
    {"pos": 210, "piece": 180, "rot": 1},
    {"pos": 34, "piece": 207, "rot": 1},
    {"pos": 221, "piece": 248, "rot": 2},
    {"pos": 45, "piece": 254, "rot": 1},
]


@FAST
@given(boards)
def test_e2dev_puzzle_round_trip(made):
    puzzle, _ = made
    text = format_puzzle(puzzle, "e2dev")
    data = json.loads(text)
    assert data["width"] == puzzle.width and data["numColors"] == max(puzzle.colours)
    back = parse_puzzle(text, "p.json", "e2dev")
    assert back == puzzle and back.name == puzzle.name


def test_e2dev_official_set_is_written_as_the_site_stores_it():
    clues = edgematch.load("e2-clues")
    data = json.loads(format_puzzle(clues, "e2dev"))
    assert data["pieces"][:6] == SITE_PIECES_HEAD and data["pieces"][-3:] == SITE_PIECES_TAIL
    assert sorted(data["hints"], key=lambda h: h["piece"]) == sorted(SITE_HINTS, key=lambda h: h["piece"])
    assert data["numColors"] == 22


def test_e2dev_official_set_is_read_in_the_standard_orientation():
    clues = edgematch.load("e2-clues")
    site = json.loads(format_puzzle(clues, "e2dev"))
    site.update({"id": "e2-16x16-v00", "family": "official", "maxScore": 480})  # unknown keys are ignored
    del site["name"]
    puzzle = parse_puzzle(json.dumps(site, indent=2), "v00.json", "e2dev")
    assert np.array_equal(puzzle.tiles, clues.tiles) and puzzle == clues
    assert puzzle.name == "e2-16x16-v00"
    assert (135, 138, 2) in [(h.square, h.tile, h.rotation) for h in puzzle.hints]  # 139@I8 rotation 2


def test_e2dev_other_puzzles_are_read_as_stored():
    puzzle, _ = planted(4, 4, 3, seed=10, hints=2)
    data = json.loads(format_puzzle(puzzle, "e2dev"))
    assert data["pieces"] == puzzle.tiles.tolist()
    assert data["hints"] == [{"pos": h.square, "piece": h.tile, "rot": h.rotation} for h in puzzle.hints]


def test_e2dev_puzzle_errors_name_the_line():
    puzzle, _ = planted(3, 3, 3, seed=11, hints=1)
    text = format_puzzle(puzzle, "e2dev")
    lines = text.splitlines()
    piece_line = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("["))
    broken = text.replace(lines[piece_line - 1] + "\n", lines[piece_line - 1] + ",,\n", 1)
    with pytest.raises(InputError, match="not valid JSON") as caught:
        parse_puzzle(broken, "p.json", "e2dev")
    assert (caught.value.source, caught.value.line) == ("p.json", piece_line)

    data = json.loads(text)
    data["pieces"][4] = [0, 0, 0, 1]  # three grey sides: the model refuses tile 5
    with pytest.raises(InputError, match="grey") as caught:
        parse_puzzle(format_puzzle_json(data), "p.json", "e2dev")
    assert caught.value.line == piece_line + 4

    data = json.loads(text)
    data["hints"][0]["piece"] = 99
    with pytest.raises(InputError, match="tile 100") as caught:
        parse_puzzle(format_puzzle_json(data), "p.json", "e2dev")
    assert caught.value.line == format_puzzle_json(data).splitlines().index(
        next(line for line in format_puzzle_json(data).splitlines() if '"piece": 99' in line)) + 1


def format_puzzle_json(data):
    """The layout our writer uses: one piece or hint per line."""
    pieces = ",\n".join("    " + json.dumps(p) for p in data["pieces"])
    hints = ",\n".join("    " + json.dumps(h) for h in data["hints"])
    return (f'{{\n  "name": {json.dumps(data["name"])},\n  "width": {data["width"]},\n  "height": {data["height"]},\n'
            f'  "numColors": {data["numColors"]},\n  "pieces": [\n{pieces}\n  ],\n  "hints": [\n{hints}\n  ]\n}}\n')


@pytest.mark.parametrize(
    "text, message",
    [
        ("[1, 2]", "JSON object"),
        ('{"pieces": 3, "numColors": 1}', "pieces"),
        ('{"pieces": [[0, 0, 1]], "numColors": 1}', "four integer colours"),
        ('{"pieces": [[0, 0, 1, true]], "numColors": 1}', "four integer colours"),
        ('{"pieces": [[0, 0, 1, -1]], "numColors": 1}', "colours must be"),
        ('{"pieces": [[0, 0, 1, 1]], "width": "2"}', '"width" must be an integer'),
        ('{"pieces": [[0, 0, 1, 1]], "hints": [{"pos": 0}]}', "hint 0"),
        ('{"pieces": [[0, 0, 1, 1]], "hints": {}}', '"hints" must be a list'),
        ('{"pieces": [[0, 0, 1, 1]], "name": 3}', '"name" must be a string'),
        ('{"pieces": [[0, 0, 1, 1e400]]}', "four integer colours"),
        ("{" * 100000, "not valid JSON"),
        ('{"pieces": [[0, 0, 1, ' + "9" * 5000 + "]]}", "not valid JSON"),
    ],
)
def test_e2dev_puzzle_bad_files(text, message):
    with pytest.raises(InputError, match=message):
        parse_puzzle(text, "p.json", "e2dev")


# --------------------------------------------------------------------------- e2dev BoardDoc

SITE_BOARD_SCORE = 378
SITE_BOARD_HASH = 9586690792615897613
SITE_BOARD_CODES = [int(x) for x in """
3 22 12 17 26 30 64 72 76 40 38 44 34 102 58 4 107 193 61 51 129 52 84 70 88 94 96 82 132 110 112 118
125 153 829 149 161 234 156 170 200 198 144 140 478 1017 640 225 123 896 605 183 179 213 303 245 251 411
612 913 265 395 696 217 172 794 976 184 208 228 238 220 279 753 481 495 644 680 617 254 188 261 399 273
311 845 296 834 282 702 939 971 780 693 430 304 318 560 574 636 1010 293 363 666 312 242 418 437 414 566
504 510 288 609 325 383 526 743 341 323 959 372 424 337 335 547 764 400 365 331 873 761 404 499 905 552
691 991 809 442 944 622 377 347 371 602 882 745 457 539 942 486 841 586 821 791 737 588 421 491 358 628
445 451 786 856 948 461 475 652 1022 542 920 633 571 718 432 679 513 519 706 1003 386 534 869 851 710 464
454 355 671 684 529 503 1013 973 656 799 350 468 598 927 269 391 520 916 954 861 651 901 721 713 735 884
256 583 551 727 624 661 558 994 964 1005 287 775 672 729 751 815 592 855 827 878 981 768 576 166 204 136
10 895 928 756 961 909 837 867 935 997 986 888 817 779 801 807
""".split()]
SITE_BOARD_EDGES = (
    "abdahcabaadcbabgjbabjfabackfacocacpcabpcoeababtemdabgcadhbacaabedgdafafgdacibtfacadtabveacrbnfac"
    "acrfsbacacvbqeacadtehdadadidofaddadsfaemwlmnfaeldaenvcafaencpcaeafhchbafaeibadwetwhpwswuiujsbafu"
    "dpcammupmiomeseaeqbaeafqnkpgoggkhhlghunhiowuwmsohgimwvjgjqovfafqaepdssksoqwsaeteafoeafufwdafaftd"
    "llognkolwhqkssphiuksjosuoiqogtgiaeuekgikwwvgtgiwolugulplgmtltplmorglonjrqoqnpprokrwpsjprqphjgnnp"
    "uvgoijnvvvijitvvusrtpgmstmrglljmgosljiggqphirhkpwjhhpjijhukjnvhugmpqniomigqivvlgrkhvmttkrgrtpnig"
    "svpngtqvhjntkgrjringisoikppshhrppgtnqmqgqlvmlkplhhrutrwhrmorijjmpppjqrqpnkvrrphknqrporiqkgtrrusg"
    "tnqgqwinvvlwoknvrhmowqlhosnqjuhsplouiwilvkvwsntkrkmnillkthjlsknhqugsisounhlslsuhmwkslrqwnrqumhmr"
    "ourhiwquvwtwushwmtrsjistjurioujuhjumoqtjlhuqusthkqjsqwtqqngwmqhwrluqqttlrujthmwukqhmsjwgnmpjjovm"
    "uhwktvphusuvtopsjklqtnlkgvgshnlvjmintrvmjgiswstghvjsmsutpwnsvlrwwpmipmonujvmpjttlwoklwvwgiiwlirij"
    "jlivomjiqwotjkqjrijqvprntqvrqrtmkigrvmkjnnvtkknokvkvrtkilprrlsllwolmulwwovukqmoiklqpbaeafjbadufcd"
    "aamsomnnnskounvntotmqnnlomsnplouqnvpsuvwppmmrwlkvurvwktkuvuwok"
)


def site_doc(**changes):
    doc = {"name": "e2_official_variant00_pin3corners", "size": 16, "score": SITE_BOARD_SCORE,
           "breaks": 480 - SITE_BOARD_SCORE, "board": SITE_BOARD_CODES, "board_hash": SITE_BOARD_HASH,
           "board_edges": SITE_BOARD_EDGES}
    doc.update(changes)
    return json.dumps({k: v for k, v in doc.items() if v is not None}, indent=2)


def test_fnv1a64_matches_the_published_vector_and_the_site_hash():
    assert fnv1a64(b"") == 0xCBF29CE484222325 and fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    # The site's engine fills board_hash with FNV-1a over (uint16 piece, rotation byte) per square.
    engine = b"".join((c >> 2).to_bytes(2, "little") + bytes([c & 3]) for c in SITE_BOARD_CODES)
    assert fnv1a64(engine) == SITE_BOARD_HASH


def test_site_board_reads_on_the_standard_official_puzzle():
    clues = edgematch.load("e2-clues")
    board = parse_board(site_doc(), clues, "site.json", "e2dev-board")
    assert board.score() == SITE_BOARD_SCORE and board.is_complete
    # Square A1 holds the site's piece 0 = official tile 1 (1 3 0 0 top right bottom left),
    # turned once to show grey on top and left; the five clues are where the puzzle says (this
    # search output breaks some border squares, so only hints and duplicates are checked).
    assert (board.tiles[0], board.rotations[0]) == (0, 1)
    assert not [r for r in board.verify().reasons if "hint" in r or "placed" in r]
    # The codes alone (site rotation = ours + 2) give the same board as the edges.
    assert parse_board(site_doc(board_edges=None), clues, "site.json", "e2dev-board") == board
    # Writing it back gives the site's codes and letters.
    out = json.loads(format_board(board, "e2dev-board"))
    assert out["board"] == SITE_BOARD_CODES and out["board_edges"] == SITE_BOARD_EDGES
    assert (out["score"], out["breaks"], out["size"]) == (SITE_BOARD_SCORE, 480 - SITE_BOARD_SCORE, 16)
    assert out["board_hash"] == fnv1a64(np.array(SITE_BOARD_CODES, dtype="<i4").tobytes())
    assert out["url"].startswith("https://eternity2.dev/viewer?puzzle=e2_clues&puzzle_size=16&board_edges=")


def test_site_board_detected_by_content():
    board = parse_board(site_doc(), edgematch.load("e2"), "site.json")
    assert board.score() == SITE_BOARD_SCORE


@FAST
@given(boards)
def test_e2dev_board_round_trip(made):
    puzzle, board = made
    text = format_board(board, "e2dev-board")
    data = json.loads(text)
    assert data["score"] == board.score() and len(data["board"]) == puzzle.n_squares
    assert parse_board(text, puzzle, "b.json", "e2dev-board") == board
    data.pop("board_edges")
    back = parse_board(json.dumps(data), puzzle, "b.json", "e2dev-board")
    assert back == board and np.array_equal(back.tiles, board.tiles)
    if puzzle.width != puzzle.height:
        assert (data["width"], data["height"]) == (puzzle.width, puzzle.height)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"size": 15}, "15x15, but the puzzle is 16x16"),
        ({"board": SITE_BOARD_CODES[:-1]}, "must list 256 codes"),
        ({"board": [-2] + SITE_BOARD_CODES[1:]}, r"board\[0\]"),
        ({"board": [1024] + SITE_BOARD_CODES[1:]}, r"board\[0\]"),
        ({"board": ["3"] + SITE_BOARD_CODES[1:]}, r"board\[0\]"),
        ({"board": [SITE_BOARD_CODES[1]] + SITE_BOARD_CODES[1:]}, "cannot show"),
        ({"board_edges": SITE_BOARD_EDGES[:-4]}, "letters"),
        ({"board_edges": 7}, "string of letters"),
        ({"board": None, "board_edges": None}, "neither"),
        ({"size": "16"}, '"size" must be an integer'),
    ],
)
def test_e2dev_bad_boards(changes, message):
    with pytest.raises(InputError, match=message):
        parse_board(site_doc(**changes), edgematch.load("e2"), "site.json", "e2dev-board")


def test_e2dev_board_error_lines():
    text = site_doc(board=[-2] + SITE_BOARD_CODES[1:])
    with pytest.raises(InputError) as caught:
        parse_board(text, edgematch.load("e2"), "site.json", "e2dev-board")
    assert caught.value.line == text.splitlines().index("    -2,") + 1
    with pytest.raises(InputError) as caught:
        parse_board('{\n "board": [1,\n 2,,\n 3]\n}', edgematch.load("e2"), "b.json", "e2dev-board")
    assert caught.value.line == 3


def test_e2dev_board_refuses_what_the_site_cannot_show():
    puzzle, board = planted(3, 3, 26, seed=12)
    with pytest.raises(InputError, match="a..z"):
        format_board(board, "e2dev-board")


def test_e2dev_sniffs_are_exclusive():
    puzzle, board = planted(3, 3, 3, seed=13)
    puzzle_text = format_puzzle(puzzle, "e2dev")
    board_text = format_board(board, "e2dev-board")
    assert PUZZLE_FORMATS["e2dev"].sniff(puzzle_text) and not PUZZLE_FORMATS["e2dev"].sniff(board_text)
    assert BOARD_FORMATS["e2dev-board"].sniff(board_text) and not BOARD_FORMATS["e2dev-board"].sniff(puzzle_text)
    assert parse_puzzle(puzzle_text, "x.json") == puzzle
    assert parse_board(board_text, puzzle, "x.json") == board
