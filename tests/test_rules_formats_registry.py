"""The format registry (edgematch.formats.registry): reading files, detection, dispatch.

Texts and files are written out by hand here (into pytest's tmp_path); the registered names
and extensions are those documented in docs/formats.md; error tests compare the whole one
line ``file[:line]: problem``.  Written to kill the mutants mutation testing found alive
(docs/testing.md).
"""

import pathlib

import pytest

from edgematch import Board, InputError, Puzzle
from edgematch.formats import registry
from edgematch.formats.registry import (
    PuzzleFormat,
    _safe_sniff,
    detect_board_format,
    detect_puzzle_format,
    format_board,
    format_puzzle,
    parse_board,
    parse_puzzle,
    read_board,
    read_puzzle,
    read_text,
    register_board_format,
    register_puzzle_format,
    write_board,
    write_puzzle,
)

# 2x2 by hand (N E S W): A1|A2 1, B1|B2 2, A1/B1 3, A2/B2 4; tile i belongs on square i.
TILES = [(0, 1, 3, 0), (0, 0, 4, 1), (3, 2, 0, 0), (4, 0, 0, 2)]
PUZZLE = Puzzle(TILES, 2, 2)
HEULE = "0\n0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"  # Heule layout: hint count, then N E S W
ET2 = "1/0 2/0\n3/0 4/0\n"  # .et2 layout: rows of piece/rotation
PUZZLE_NAMES = "benoist, e2dev, edgematch, heule, julia, owen"
BOARD_NAMES = "bucas, e2dev-board, edgematch, et2, owen-solution"


def message(call, *args):
    with pytest.raises(InputError) as err:
        call(*args)
    return str(err.value)


# ------------------------------------------------------------------ read_text
def test_read_text_missing_file(tmp_path):
    path = tmp_path / "none.txt"
    assert message(read_text, path) == f"{path}: no such file"


def test_read_text_directory(tmp_path):
    assert message(read_text, tmp_path) == f"{tmp_path}: is a directory, not a file"


def test_read_text_size_limit_is_inclusive(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "MAX_FILE_BYTES", 10)
    path = tmp_path / "p.txt"
    path.write_bytes(b"0123456789")  # exactly the limit: read
    assert read_text(path) == "0123456789"
    path.write_bytes(b"0123456789\n")  # one byte more
    assert message(read_text, path) == f"{path}: file is too large (11 bytes)"


def test_read_text_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "p.txt"
    path.write_text("1\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(pathlib.Path, "read_bytes", refuse)
    assert message(read_text, path) == f"{path}: cannot read file (Permission denied)"


def test_read_text_binary(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes(b"1 2\0 3\n")
    assert message(read_text, path) == f"{path}: binary data, not a text file"


def test_read_text_not_utf8(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes(b"12\xff\n")  # 0xff never occurs in UTF-8; it is byte 2
    assert message(read_text, path) == f"{path}: not UTF-8 text (byte 2)"


def test_read_text_empty(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(" \n\n")
    assert message(read_text, path) == f"{path}: file is empty"


# ------------------------------------------------------------------ detection
def test_unknown_format_names_the_known_ones():
    assert message(detect_puzzle_format, HEULE, "p.txt", "nope") == \
        f"p.txt: unknown puzzle format 'nope' (known: {PUZZLE_NAMES})"
    assert message(detect_board_format, ET2, "b.et2", "nope") == \
        f"b.et2: unknown board format 'nope' (known: {BOARD_NAMES})"


def test_undetectable_text_names_the_formats():
    assert message(detect_puzzle_format, "zzz") == f"<text>: cannot tell the puzzle format; give --format ({PUZZLE_NAMES})"
    assert message(detect_board_format, "zzz") == f"<text>: cannot tell the board format; give --format ({BOARD_NAMES})"
    assert message(parse_puzzle, "zzz") == f"<text>: cannot tell the puzzle format; give --format ({PUZZLE_NAMES})"
    assert message(parse_board, "zzz", PUZZLE) == f"<text>: cannot tell the board format; give --format ({BOARD_NAMES})"


def test_ambiguous_text_names_the_claimants():
    # 'W H' then lines of four: Owen's pieces file and a julia file with its header alike.
    text = "2 2\n0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"
    assert message(detect_puzzle_format, text, "p.txt") == "p.txt: the puzzle format is ambiguous (julia, owen); give --format"


def test_extension_decides_by_the_last_suffix_only():
    # nobody claims 'zzz'; '.nohint' is benoist's extension alone (docs/formats.md)
    assert detect_puzzle_format("zzz", "data/E_2_1.b4i0.nohint").name == "benoist"


def test_parse_puzzle_reads_the_text_it_detects():
    assert parse_puzzle(HEULE, "h.txt") == PUZZLE


def test_safe_sniff_a_sniffer_that_raises_does_not_claim():
    def boom(text):
        raise ValueError(text)

    fmt = PuzzleFormat("boom", "raises", read=None, write=None, sniff=boom)
    assert _safe_sniff(fmt, "1 2 3") is False


def test_register_puzzle_and_board_format_store_the_format(monkeypatch):
    monkeypatch.setattr(registry, "PUZZLE_FORMATS", {})
    monkeypatch.setattr(registry, "BOARD_FORMATS", {})
    fmt = PuzzleFormat("mine", "a test format", read=None, write=None, sniff=lambda text: False)
    assert register_puzzle_format(fmt) is fmt
    assert registry.PUZZLE_FORMATS == {"mine": fmt}
    assert register_board_format(fmt) is fmt
    assert registry.BOARD_FORMATS == {"mine": fmt}


# ------------------------------------------------------------------ files
def test_read_puzzle_from_a_file_uses_its_name_and_the_given_format(tmp_path):
    path = tmp_path / "clue.txt"
    path.write_text(HEULE)
    p = read_puzzle(path)
    assert p == PUZZLE and p.name == "clue"
    # the same text read as an Owen file: its first line '0' is no 'W H' header
    assert message(read_puzzle, path, "owen") == f"{path}:1: expected 2 numbers, found 1: '0'"


def test_read_board_from_a_file_uses_the_given_format(tmp_path):
    path = tmp_path / "b.et2"
    path.write_text(ET2)
    assert read_board(path, PUZZLE).tiles.tolist() == [0, 1, 2, 3]
    # the same text read as an Owen solution: its first line is no 'W H' header
    assert message(read_board, path, PUZZLE, "owen-solution") == f"{path}:1: board size '1/0' is not an integer"


@pytest.mark.parametrize("url", ["http://e2.bucas.name/?board_w=2", "https://e2.bucas.name/?board_w=2"])
def test_read_board_reads_a_viewer_link_as_bucas(url):
    assert message(read_board, url, PUZZLE) == "<url>:1: the link has no board_edges parameter"


def test_unknown_format_to_write():
    assert message(format_puzzle, PUZZLE, "nope") == f"unknown puzzle format 'nope' (known: {PUZZLE_NAMES})"
    assert message(format_board, Board(PUZZLE), "nope") == f"unknown board format 'nope' (known: {BOARD_NAMES})"


@pytest.mark.parametrize("name, expected", [
    ("p.nohint", "2\n4\n0\n0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"),  # benoist: size, colours, hints, tiles
    ("p.NOHINT", "2\n4\n0\n0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"),
    ("E.b4.hint", "2\n4\n0\n0 1 3 0\n0 0 4 1\n3 2 0 0\n4 0 0 2\n"),
])
def test_write_puzzle_picks_the_format_of_the_extension(tmp_path, name, expected):
    write_puzzle(PUZZLE, tmp_path / name)
    assert (tmp_path / name).read_text() == expected


def test_write_puzzle_falls_back_to_edgematch(tmp_path):
    # '.txt' belongs to several formats and '.xyz' to none: our own format is written
    for name in ("p.txt", "p.xyz"):
        write_puzzle(PUZZLE, tmp_path / name)
        assert (tmp_path / name).read_text() == format_puzzle(PUZZLE, "edgematch")
    write_puzzle(PUZZLE, tmp_path / "q.txt", "heule")
    assert (tmp_path / "q.txt").read_text() == HEULE


def test_write_board_picks_the_format_of_the_extension(tmp_path):
    board = Board(PUZZLE, [0, 1, 2, 3], [0, 0, 0, 0])
    write_board(board, tmp_path / "b.et2")
    # the package's own layout: six characters per square (module docstring of julia)
    assert (tmp_path / "b.et2").read_text() == "   1/0   2/0\n   3/0   4/0\n"
    write_board(board, tmp_path / "b.xyz")
    assert (tmp_path / "b.xyz").read_text() == format_board(board, "edgematch")
    write_board(board, tmp_path / "c.xyz", "et2")
    assert (tmp_path / "c.xyz").read_text() == "   1/0   2/0\n   3/0   4/0\n"
