"""Every registered reader, fed garbage: it returns a valid object or raises InputError.

Readers face files from anywhere.  Whatever the text (random characters, random bytes
decoded, or a valid file of that format damaged by truncation, deleted or repeated lines,
and tokens replaced by garbage, huge or negative numbers), a reader must either give a
well-formed Puzzle/Board or raise :class:`InputError` (one line for the user), never another
exception.  The formats are taken from the registry, so a new format is fuzzed automatically.
"""

import re
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edgematch import Board, InputError, Puzzle
from edgematch.formats import BOARD_FORMATS, PUZZLE_FORMATS
from support.puzzles import planted

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
MUTATION_SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))

GARBAGE = [
    "", "x", "-1", "-7", "0", "-0", "3.5", "1e9", "NaN", "null", "true", "99999999999999999999999",
    "4294967296", "65536", "1025", "-99999999999", "9" * 60, "\x00", "\u00e9", "\U0001F642", "[", "]", "{",
    "}", '"', ",", ":", "#", "\t", "\n", "/", "aaaa", "---/-", "0x10", "+5", "１２",
]


# Formats differ in what they can store (square boards, hints, complete boards only): each
# sample suits some, and every format can write at least one.
SAMPLES = [
    planted(4, 4, 4, seed=1, hints=0, empty=0.5),
    planted(5, 3, 6, seed=2, hints=2, empty=0.5),
    planted(3, 3, 5, seed=3, hints=0),
]


@cache
def valid_texts(kind: str, name: str) -> tuple[tuple[int, str], ...]:
    """(sample index, file) for the samples the format's own writer can express."""
    texts = []
    for index, (puzzle, board) in enumerate(SAMPLES):
        fmt = PUZZLE_FORMATS[name] if kind == "puzzle" else BOARD_FORMATS[name]
        try:
            texts.append((index, fmt.write(puzzle if kind == "puzzle" else board)))
        except InputError:
            continue
    return tuple(texts)


def read_and_check(kind: str, name: str, text: str, puzzle: Puzzle) -> None:
    try:
        if kind == "puzzle":
            result = PUZZLE_FORMATS[name].read(text, "fuzz.txt")
            assert isinstance(result, Puzzle)
            assert result.tiles.shape == (result.width * result.height, 4)
        else:
            result = BOARD_FORMATS[name].read(text, "fuzz.txt", puzzle)
            assert isinstance(result, Board)
            assert result.puzzle == puzzle and result.tiles.shape == (puzzle.n_squares,)
            assert ((result.tiles >= -1) & (result.tiles < puzzle.n_tiles)).all()
            assert ((result.rotations >= 0) & (result.rotations < 4)).all()
    except InputError as err:
        assert str(err)  # a message the CLI can print


@st.composite
def mutated(draw, texts: tuple[str, ...]):
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 3))):
        lines = text.splitlines(keepends=True)
        op = draw(st.sampled_from(["truncate", "delete", "duplicate", "token", "token", "insert"]))
        if op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        elif op in ("delete", "duplicate") and lines:
            i = draw(st.integers(0, len(lines) - 1))
            lines[i: i + 1] = [] if op == "delete" else [lines[i], lines[i]]
            text = "".join(lines)
        elif op == "token":
            tokens = list(re.finditer(r"-?\w+|[^\w\s]", text))
            if tokens:
                m = tokens[draw(st.integers(0, len(tokens) - 1))]
                new = draw(st.sampled_from(GARBAGE) | st.integers(-(10**15), 10**15).map(str) | st.text(max_size=5))
                text = text[: m.start()] + new + text[m.end():]
        else:
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(GARBAGE) | st.text(max_size=8)) + text[at:]
    return text


READERS = [("puzzle", name) for name in sorted(PUZZLE_FORMATS)] + [("board", name) for name in sorted(BOARD_FORMATS)]
IDS = [f"{kind}-{name}" for kind, name in READERS]


def test_every_reader_is_fuzzed():
    assert {"bucas", "e2dev-board"} <= {name for kind, name in READERS if kind == "board"}
    assert "e2dev" in {name for kind, name in READERS if kind == "puzzle"}


@pytest.mark.parametrize("kind, name", READERS, ids=IDS)
@SETTINGS
@given(text=st.text(max_size=300))
def test_arbitrary_text(kind, name, text):
    read_and_check(kind, name, text, SAMPLES[0][0])


@pytest.mark.parametrize("kind, name", READERS, ids=IDS)
@SETTINGS
@given(data=st.binary(max_size=300), encoding=st.sampled_from(["utf-8", "latin-1"]))
def test_arbitrary_bytes(kind, name, data, encoding):
    read_and_check(kind, name, data.decode(encoding, errors="replace"), SAMPLES[0][0])


@pytest.mark.parametrize("kind, name", READERS, ids=IDS)
@MUTATION_SETTINGS
@given(data=st.data())
def test_damaged_valid_files(kind, name, data):
    texts = valid_texts(kind, name)
    assert texts, f"{name} can write none of the samples"
    index = data.draw(st.sampled_from([i for i, _ in texts]))
    text = data.draw(mutated(tuple(t for i, t in texts if i == index)))
    read_and_check(kind, name, text, SAMPLES[index][0])


@pytest.mark.parametrize("kind, name", READERS, ids=IDS)
def test_valid_files_read_back(kind, name):
    """The undamaged samples are read back, so the mutations start from files that work."""
    assert valid_texts(kind, name)
    for index, text in valid_texts(kind, name):
        puzzle, board = SAMPLES[index]
        if kind == "puzzle":
            back = PUZZLE_FORMATS[name].read(text, "sample")
            assert np.array_equal(np.sort(back.tiles, axis=None), np.sort(puzzle.tiles, axis=None))
        else:
            back = BOARD_FORMATS[name].read(text, "sample", puzzle)
            assert np.array_equal(back.edges(), board.edges())
