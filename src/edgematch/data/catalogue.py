"""The bundled puzzles: names, descriptions, loading.

Every bundled puzzle is a data file under ``data/files`` (copied with its SOURCE.txt from
the public repository it comes from) read through the same public format readers a user's
file goes through; the catalogue only adds the name, and for ``e2`` / ``e2-clues`` the
hints listed in ``e2_official/e2_fixed_pieces.tsv``.  Names are case-insensitive:

=======================  =============================================================
``e2``                   official 256 pieces, starter piece 139 on I8 (rotation 2)
``e2-clues``             ... plus the four clue-puzzle hints (5 hints)
``e2-bare``              ... without hints
``clue1`` .. ``clue4``   the TOMY clue puzzles (clue2, clue4: 12 wide, 6 high)
``meta10`` .. ``meta16`` META 2010 contest instances
``owen1-WxH``            Brendan Owen's set 1 (W = 3..20, H = 3..W), planted solutions
``owen2-WxH``            Brendan Owen's set 2
``owen-profile-NxN``     Brendan Owen's profile puzzles, N = 10, 11, 12
``benoist/E_S_K``        Benoist's 48 E2 Benchmark instances (one corner hint each)
``heule/em_S_B_I``       Heule's 8 SAT benchmark instances
``e2dev/bench-easy``     eternity2.dev's speed benchmark boards, 16x16 (18 and 40 hints)
``e2dev/bench-hard``
=======================  =============================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from ..errors import InputError
from ..formats import parse_board, parse_puzzle
from ..model import Board, Hint, Puzzle, parse_square

E2_FIXED_PIECES = "e2_official/e2_fixed_pieces.tsv"
STARTER_SQUARE = "I8"


@dataclass(frozen=True)
class DataFile:
    """One puzzle or board file under ``data/files`` and the format that reads it."""

    path: str  # relative to data/files, '/'-separated
    fmt: str
    kind: str = "puzzle"  # or "board"
    puzzle: str | None = None  # for boards: the data file of their puzzle


@dataclass(frozen=True)
class Entry:
    name: str
    file: DataFile
    description: str
    hints: str = "none"  # "none", "starter" or "clues" (extra hints from e2_fixed_pieces.tsv)
    solution: DataFile | None = None


def data_root():
    """The folder of the bundled data files (works for editable and wheel installs)."""
    return resources.files("edgematch.data").joinpath("files")


def _resource(path: str):
    node = data_root()
    for part in path.split("/"):
        node = node.joinpath(part)
    return node


def read_data_text(path: str) -> str:
    """Text of a bundled data file, ``path`` relative to ``data/files``."""
    try:
        return _resource(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"bundled data file is missing ({exc.strerror})", f"edgematch-data/{path}") from None


def _list(folder: str) -> list[str]:
    node = _resource(folder)
    return sorted(child.name for child in node.iterdir() if child.is_file()) if node.is_dir() else []


# ---------------------------------------------------------------------- the table of names
_E2_TEXT = "Eternity II, the official 256 pieces (16x16, 5 frame + 17 inner colours)"


def _e2_entries() -> list[Entry]:
    pieces = DataFile("e2_official/e2pieces_standard_TRBL_default.txt", "edgematch")
    return [
        Entry("e2", pieces, f"{_E2_TEXT}, starter piece 139 on I8", "starter"),
        Entry("e2-clues", pieces, f"{_E2_TEXT}, starter piece and the 4 clue-puzzle hints", "clues"),
        Entry("e2-bare", pieces, f"{_E2_TEXT}, no hints"),
    ]


def _clue_entries() -> list[Entry]:
    sizes = {1: "6x6", 2: "12x6 (6 rows x 12 columns)", 3: "6x6", 4: "12x6 (6 rows x 12 columns)"}
    return [
        Entry(
            f"clue{k}",
            DataFile(f"clue_puzzles/clue{k}_jwortmann_BLTR.txt", "julia"),
            f"Eternity II clue puzzle {k}, {sizes[k]}, official colour numbering (Eternity2Puzzles.jl)",
        )
        for k in range(1, 5)
    ]


def _meta_entries() -> list[Entry]:
    return [
        Entry(
            f"meta{n}",
            DataFile(f"meta2010/meta_{n}x{n}_jwortmann_BLTR.txt", "julia"),
            f"META 2010 contest benchmark, {n}x{n} (Eternity2Puzzles.jl)",
        )
        for n in (10, 12, 14, 16)
    ]


_OWEN_FILE = re.compile(r"^pieces_(\d+)x(\d+)\.txt$")


def _owen_entries() -> list[Entry]:
    entries = []
    for set_number in (1, 2):
        folder = f"brendan_owen/pieces_set_{set_number}"
        solutions = set(_list("brendan_owen/solutions_set_1")) if set_number == 1 else set()
        found = []
        for filename in _list(folder):
            match = _OWEN_FILE.match(filename)
            if match:
                found.append((int(match.group(1)), int(match.group(2)), filename))
        for width, height, filename in sorted(found):
            pieces = DataFile(f"{folder}/{filename}", "owen")
            solution_name = filename.replace("pieces_", "solutions_")
            solution = None
            if solution_name in solutions:
                solution = DataFile(
                    f"brendan_owen/solutions_set_1/{solution_name}", "owen-solution", "board", pieces.path
                )
            note = ", planted solution bundled" if solution else ""
            entries.append(
                Entry(
                    f"owen{set_number}-{width}x{height}",
                    pieces,
                    f"Brendan Owen's generated puzzle, set {set_number}, {width}x{height}{note}",
                    solution=solution,
                )
            )
    for n in (10, 11, 12):
        entries.append(
            Entry(
                f"owen-profile-{n}x{n}",
                DataFile(f"brendan_owen/profile_2025/e2pieces_profile_{n:02d}x{n:02d}.txt", "owen"),
                f"Brendan Owen's profile puzzle, {n}x{n}",
            )
        )
    return entries


_BENOIST_FILE = re.compile(r"^(E_(\d+)_(\d+))\.b(\d+)i(\d+)\.nohint$")


def _benoist_entries() -> list[Entry]:
    folder = "benoist_2008/E2BenchmarkWithoutHints"
    found = []
    for filename in _list(folder):
        match = _BENOIST_FILE.match(filename)
        if match:
            stem, size, k, frame, inner = match.groups()
            found.append((int(size), int(k), stem, int(frame), int(inner), filename))
    return [
        Entry(
            f"benoist/{stem}",
            DataFile(f"{folder}/{filename}", "benoist"),
            f"Benoist's E2 Benchmark instance, {size}x{size}, {frame} frame + {inner} inner colours, one corner hint",
        )
        for size, k, stem, frame, inner, filename in sorted(found)
    ]


_HEULE_FILE = re.compile(r"^(em_(\d+)_(\d+)_(\d+))\.txt$")


def _heule_entries() -> list[Entry]:
    found = []
    for filename in _list("heule_em_2008"):
        match = _HEULE_FILE.match(filename)
        if match:
            stem, size, frame, inner = match.groups()
            found.append((int(size), int(frame), int(inner), stem, filename))
    return [
        Entry(
            f"heule/{stem}",
            DataFile(f"heule_em_2008/{filename}", "heule"),
            f"Heule's SAT benchmark instance, {size}x{size}, {frame} frame + {inner} inner colours",
        )
        for size, frame, inner, stem, filename in sorted(found)
    ]


def _e2dev_entries() -> list[Entry]:
    hints = {"easy": 18, "hard": 40}
    return [
        Entry(
            f"e2dev/bench-{level}",
            DataFile(f"e2dev_bench/bench-{level}.json", "e2dev"),
            f"eternity2.dev's {level} speed benchmark board, 16x16, {count} hints (single-core nodes per second)",
        )
        for level, count in hints.items()
    ]


# The same puzzles in other community encodings: not names of their own, but bundled (and
# tested) so that every format reader meets real files.
ALTERNATIVE_ENCODINGS = (
    DataFile("e2_official/e2pieces_jwortmann_BLTR.txt", "julia"),
    DataFile("e2_official/e2pieces_heule_NESW.txt", "heule"),
    *(DataFile(f"clue_puzzles/clue{k}_heule_NESW.txt", "heule") for k in range(1, 5)),
)

DOCUMENT_NAMES = ("SOURCE.txt", "readme.txt")
DOCUMENT_SUFFIXES = (".tsv",)


@lru_cache(maxsize=1)
def _table() -> dict[str, Entry]:
    entries = [
        *_e2_entries(),
        *_clue_entries(),
        *_meta_entries(),
        *_owen_entries(),
        *_benoist_entries(),
        *_heule_entries(),
        *_e2dev_entries(),
    ]
    return {entry.name.lower(): entry for entry in entries}


def _entry(name: str) -> Entry:
    key = str(name).strip().lower()
    table = _table()
    if key not in table:
        raise InputError(f"unknown bundled puzzle '{name}' (see 'edgematch info --list')")
    return table[key]


# ---------------------------------------------------------------------- public API
def bundled_names() -> list[str]:
    """Every bundled puzzle name, grouped by family."""
    return [entry.name for entry in _table().values()]


def is_bundled(name: str) -> bool:
    return str(name).strip().lower() in _table()


def describe(name: str) -> str:
    """One line on what the bundled puzzle is and where it comes from."""
    return _entry(name).description


def data_file(name: str) -> DataFile:
    """The data file a bundled puzzle is read from."""
    return _entry(name).file


def data_files() -> list[DataFile]:
    """Every puzzle and board file under ``data/files`` (record boards excepted), with its format."""
    seen: dict[str, DataFile] = {}
    for entry in _table().values():
        seen.setdefault(entry.file.path, entry.file)
        if entry.solution:
            seen.setdefault(entry.solution.path, entry.solution)
    for extra in ALTERNATIVE_ENCODINGS:
        seen.setdefault(extra.path, extra)
    return list(seen.values())


def load_bundled(name: str) -> Puzzle:
    """The bundled puzzle of that name (cached; puzzles are immutable)."""
    return _load(_entry(name).name)


@cache
def _load(canonical: str) -> Puzzle:
    entry = _table()[canonical.lower()]
    puzzle = parse_puzzle(read_data_text(entry.file.path), f"edgematch-data/{entry.file.path}", entry.file.fmt)
    hints = list(puzzle.hints)
    if entry.hints != "none":
        hints += _e2_fixed_hints(puzzle, starter_only=entry.hints == "starter")
    return puzzle.with_hints(hints, name=entry.name)


def planted_solution(name: str) -> Board:
    """The generator's planted solution of a Brendan Owen set-1 puzzle, as a board."""
    entry = _entry(name)
    if entry.solution is None:
        raise InputError(f"no planted solution is bundled for '{entry.name}' (only for the owen1-WxH puzzles)")
    source = f"edgematch-data/{entry.solution.path}"
    return parse_board(read_data_text(entry.solution.path), load_bundled(entry.name), source, entry.solution.fmt)


def _e2_fixed_hints(puzzle: Puzzle, starter_only: bool) -> list[Hint]:
    """Hints from e2_fixed_pieces.tsv: columns square, ..., piece (from 1), rot_cw."""
    source = f"edgematch-data/{E2_FIXED_PIECES}"
    rows = [
        line.split("\t")
        for line in read_data_text(E2_FIXED_PIECES).splitlines()
        if line.strip() and not line.startswith("#")
    ]
    header, body = rows[0], rows[1:]
    col = {title: i for i, title in enumerate(header)}
    hints = []
    for cells in body:
        square = cells[col["square"]]
        if starter_only and square != STARTER_SQUARE:
            continue
        try:
            index = parse_square(square, puzzle.width, puzzle.height)
            hints.append(Hint(index, int(cells[col["piece"]]) - 1, int(cells[col["rot_cw"]])))
        except (InputError, ValueError, IndexError) as exc:  # a damaged installation, not user input
            raise InputError(f"bad fixed-piece row {cells!r} ({exc})", source) from None
    return hints
