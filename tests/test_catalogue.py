"""The bundled puzzles: every name and every data file loads through the public readers."""

from pathlib import Path

import numpy as np
import pytest

import edgematch
from edgematch import Board, InputError, parse_square
from edgematch.data import catalogue
from edgematch.formats import parse_board, parse_puzzle
from edgematch.model import tiles as T

FILES = Path(catalogue.__file__).parent / "files"
OTHER_HELPERS = ("record_boards",)  # bundled and tested by data/records.py's owner


def tsv_rows(path):
    lines = [line for line in (FILES / path).read_text().splitlines() if line.strip() and not line.startswith("#")]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def test_data_is_inside_the_package():
    root = Path(str(catalogue.data_root()))
    assert root.is_dir() and root.resolve() == FILES.resolve()
    assert Path(edgematch.__file__).parent.resolve() in root.resolve().parents


def test_names_of_every_family():
    names = catalogue.bundled_names()
    assert names[:11] == ["e2", "e2-clues", "e2-bare", "clue1", "clue2", "clue3", "clue4",
                          "meta10", "meta12", "meta14", "meta16"]
    owen1 = [n for n in names if n.startswith("owen1-")]
    owen2 = [n for n in names if n.startswith("owen2-")]
    assert len(owen1) == len(owen2) == 171  # W = 3..20, H = 3..W
    assert {"owen1-6x6", "owen2-9x9", "owen1-6x4", "owen1-20x20", "owen2-20x3"} <= set(names)
    assert [n for n in names if n.startswith("owen-profile")] == [f"owen-profile-{n}x{n}" for n in (10, 11, 12)]
    assert len([n for n in names if n.startswith("benoist/")]) == 48
    assert "benoist/E_10_5" in names and "heule/em_7_3_6" in names
    assert len([n for n in names if n.startswith("heule/")]) == 8
    assert len(names) == len(set(n.lower() for n in names))


def test_names_are_case_insensitive_and_unknown_names_fail():
    assert catalogue.is_bundled("E2") and catalogue.is_bundled("Benoist/e_10_5") and catalogue.is_bundled("OWEN1-6X6")
    assert catalogue.load_bundled("BENOIST/E_10_5") is catalogue.load_bundled("benoist/E_10_5")  # cached
    assert not catalogue.is_bundled("e3") and not catalogue.is_bundled("owen1-2x2")
    with pytest.raises(InputError, match="unknown bundled puzzle"):
        catalogue.load_bundled("e3")
    with pytest.raises(InputError, match="no planted solution"):
        catalogue.planted_solution("owen2-6x6")


def test_every_name_loads_through_the_public_api_and_matches_its_file():
    for name in catalogue.bundled_names():
        puzzle = edgematch.load(name)
        assert puzzle.name == name
        assert catalogue.describe(name)
        data = catalogue.data_file(name)
        direct = edgematch.read_puzzle(FILES / data.path, data.fmt)
        extra_hints = {"e2": 1, "e2-clues": 5}.get(name, 0)
        assert puzzle.without_hints() == direct.without_hints()
        assert len(puzzle.hints) == len(direct.hints) + extra_hints


def test_every_data_file_is_listed_and_loads():
    listed = {f.path: f for f in catalogue.data_files()}
    seen = set()
    for path in sorted(FILES.rglob("*")):
        rel = path.relative_to(FILES).as_posix()
        if path.is_dir() or rel.split("/")[0] in OTHER_HELPERS:
            continue
        if path.name in catalogue.DOCUMENT_NAMES or path.suffix in catalogue.DOCUMENT_SUFFIXES:
            continue
        assert rel in listed, f"{rel} is bundled but no format is known for it"
        seen.add(rel)
        entry = listed[rel]
        if entry.kind == "puzzle":
            edgematch.read_puzzle(path, entry.fmt)
        else:
            puzzle = edgematch.read_puzzle(FILES / entry.puzzle, "owen")
            board = edgematch.read_board(path, puzzle, entry.fmt)
            assert board.verify().valid, rel
    assert seen == set(listed)
    assert sum(1 for f in listed.values() if f.kind == "board") == 171


def test_every_folder_keeps_its_source_note():
    for folder in FILES.iterdir():
        if folder.is_dir():
            assert (folder / "SOURCE.txt").is_file(), folder.name


def test_official_set_facts():
    e2 = edgematch.load("e2")
    assert (e2.width, e2.height, e2.n_tiles) == (16, 16, 256)
    kinds = np.bincount(e2.kinds, minlength=3)
    assert (kinds[T.CORNER], kinds[T.EDGE], kinds[T.INNER]) == (4, 56, 196)
    assert len(e2.colours) == 22
    assert e2.frame_colours == [1, 2, 3, 4, 5] and e2.inner_colours == list(range(6, 23))
    assert [(h.square, h.tile, h.rotation) for h in e2.hints] == [(parse_square("I8", 16, 16), 138, 2)]
    assert edgematch.load("e2-bare").hints == ()
    assert edgematch.load("e2-bare") == e2.without_hints()


def test_clue_hints_show_the_documented_edges():
    """The placed edges in e2_fixed_pieces.tsv were derived independently of our rotation rule."""
    board = Board.from_hints(edgematch.load("e2-clues"))
    rows = tsv_rows("e2_official/e2_fixed_pieces.tsv")
    assert len(rows) == 5
    for row in rows:
        square = parse_square(row["square"], 16, 16)
        assert board.tiles[square] + 1 == int(row["piece"])
        assert board.edges()[square].tolist() == [int(c) for c in row["placed_TRBL_default"].split(",")]


def test_alternative_encodings_of_the_official_set():
    bare = edgematch.load("e2-bare")
    jwortmann = edgematch.read_puzzle(FILES / "e2_official/e2pieces_jwortmann_BLTR.txt", "julia")
    assert jwortmann == bare
    heule = edgematch.read_puzzle(FILES / "e2_official/e2pieces_heule_NESW.txt", "heule")
    to_jblackwood = {int(r["default"]): int(r["jblackwood"]) for r in tsv_rows("e2_official/colour_numbering_maps.tsv")}
    relabelled = np.vectorize(to_jblackwood.get)(bare.tiles)
    assert np.array_equal(relabelled, heule.tiles)
    assert not np.array_equal(bare.tiles, heule.tiles)


def profile(puzzle):
    return sorted(puzzle.colour_histogram.values())


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_clue_puzzles_heule_and_jwortmann_agree(k):
    ours = edgematch.load(f"clue{k}")
    heule = edgematch.read_puzzle(FILES / f"clue_puzzles/clue{k}_heule_NESW.txt", "heule")
    assert (ours.width, ours.height) == (heule.width, heule.height) == ((12, 6) if k in (2, 4) else (6, 6))
    assert profile(ours) == profile(heule)
    assert len(ours.frame_colours) == len(heule.frame_colours)
    assert len(ours.inner_colours) == len(heule.inner_colours)
    assert sorted(T.canonical_form(t).count(0) for t in ours.tiles) == sorted(T.canonical_form(t).count(0) for t in heule.tiles)


def test_meta_and_owen_sizes():
    for n in (10, 12, 14, 16):
        p = edgematch.load(f"meta{n}")
        assert (p.width, p.height) == (n, n)
    p = edgematch.load("owen1-6x4")
    assert (p.width, p.height, p.hints) == (6, 4, ())
    assert (edgematch.load("owen-profile-11x11").width, edgematch.load("owen2-9x9").height) == (11, 9)


def test_planted_solutions_solve_their_puzzles():
    for name in ("owen1-3x3", "owen1-6x4", "owen1-16x16", "owen1-20x7"):
        board = catalogue.planted_solution(name)
        assert board.puzzle == edgematch.load(name)
        assert board.is_complete and board.verify().valid
        assert board.score() == board.puzzle.max_score


def test_benoist_instances_fix_one_corner_at_the_bottom_left():
    for name in (n for n in catalogue.bundled_names() if n.startswith("benoist/")):
        p = edgematch.load(name)
        size = int(name.split("_")[1])
        assert (p.width, p.height) == (size, size)
        (hint,) = p.hints
        assert hint.square == (size - 1) * size and hint.rotation == 0
        assert p.kinds[hint.tile] == T.CORNER
        frame, inner = (int(x) for x in catalogue.data_file(name).path.split(".")[1][1:].split("i"))
        assert (len(p.frame_colours), len(p.inner_colours)) == (frame, inner)


def test_heule_instances_match_their_names():
    for name in (n for n in catalogue.bundled_names() if n.startswith("heule/")):
        size, frame, inner = (int(x) for x in name.split("_")[1:])
        p = edgematch.load(name)
        assert (p.width, p.height, len(p.frame_colours), len(p.inner_colours)) == (size, size, frame, inner)


def test_bundled_text_goes_through_the_same_readers():
    data = catalogue.data_file("clue2")
    text = (FILES / data.path).read_text()
    assert parse_puzzle(text, "clue2.txt", "julia") == edgematch.load("clue2")
    solution = catalogue.planted_solution("owen1-5x4")
    text = (FILES / "brendan_owen/solutions_set_1/solutions_05x04.txt").read_text()
    assert parse_board(text, edgematch.load("owen1-5x4"), "s.txt", "owen-solution") == solution


def test_e2dev_benchmark_boards_are_bundled_with_their_hints():
    hard = edgematch.load("e2dev/bench-hard")
    easy = edgematch.load("E2DEV/bench-easy")
    assert (hard.width, hard.height, len(hard.tiles), len(hard.hints)) == (16, 16, 256, 40)
    assert (easy.width, easy.height, len(easy.tiles), len(easy.hints)) == (16, 16, 256, 18)
    assert catalogue.data_file("e2dev/bench-hard").fmt == "e2dev"
    # the easy board's pieces are listed in solved order: a row scan finds its solution at once
    result = edgematch.solve(easy, time_limit=60)
    assert result.solutions == 1 and result.boards[0].verify().valid
