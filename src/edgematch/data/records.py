"""Notable Eternity II boards (the 470 record, 469s, 467s, the five-clue 464/465 ...), bundled.

The boards come from public viewer links (see files/record_boards/SOURCE.txt); each is stored
twice in record_boards.tsv: as ``pieces_rot`` tokens (``piece/rot``: official 1-based tile,
clockwise quarter turns from the standard orientation, ``---/-`` for an empty square) and as
the viewer's ``board_edges`` letters in the default colour numbering.  Loading places the
tokens and checks them against the letters, so a board that loads is the board that was
published.

Name a board ``record/NAME`` or ``NAME`` (any case).  Without a puzzle a board is placed on the
bundled puzzle whose hints it honours: ``e2`` (starter 139@I8) for the boards that keep only
the starter, ``e2-clues`` for those that keep all five official clues.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from ..errors import InputError
from ..model import Board, Puzzle
from ..model.squares import square_name

PREFIX = "record/"
EMPTY_TOKEN = "---/-"
ALL_CLUES = ("I8", "N3", "C14", "N14", "C3")


class RecordDataError(RuntimeError):
    """The bundled record data contradicts itself (a bug in the data, not in the user's input)."""


@dataclass(frozen=True)
class RecordInfo:
    name: str
    pieces_placed: int
    score: int  # matched inner joins, as published (and re-scored when the data was prepared)
    fixed_honoured: tuple[str, ...]  # squares of the official fixed pieces the board keeps
    source: str
    original_motifs_order: str  # the colour numbering of the link it was taken from
    puzzle: str  # bundled puzzle the board is placed on by default ("e2" or "e2-clues")
    board_edges: str  # the published viewer letters, default numbering
    pieces_rot: tuple[str, ...]


@lru_cache(maxsize=1)
def _table() -> dict[str, RecordInfo]:
    path = resources.files("edgematch.data").joinpath("files/record_boards/record_boards.tsv")
    rows = [line.split("\t") for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    header, body = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    table: dict[str, RecordInfo] = {}
    for row in body:
        fixed = tuple(s for s in row[col["fixed_honoured"]].split(",") if s)
        info = RecordInfo(
            name=row[col["name"]],
            pieces_placed=int(row[col["pieces_placed"]]),
            score=int(row[col["score_rescored"]]),
            fixed_honoured=fixed,
            source=row[col["source"]],
            original_motifs_order=row[col["original_motifs_order"]],
            puzzle="e2-clues" if set(fixed) >= set(ALL_CLUES) else "e2",
            board_edges=row[col["board_edges_default"]],
            pieces_rot=tuple(row[col["pieces_rot"]].split()),
        )
        table[info.name.lower()] = info
    return table


def record_names() -> list[str]:
    """Names of the bundled boards, in the order of the data file (best first)."""
    return [info.name for info in _table().values()]


def _key(spec: str) -> str:
    text = str(spec).strip()
    if text.lower().startswith(PREFIX):
        text = text[len(PREFIX) :]
    return text.lower()


def is_record(spec) -> bool:
    """True for ``record/NAME`` or ``NAME`` of a bundled board (any case)."""
    return _key(spec) in _table()


def record_info(spec) -> RecordInfo:
    """Facts about a bundled board; :class:`InputError` for an unknown name."""
    key = _key(spec)
    if key not in _table():
        raise InputError(f"no bundled record board '{spec}' (see 'edgematch info --list')")
    return _table()[key]


def published_score(spec) -> int:
    """The board's score as published (matched inner joins out of 480)."""
    return record_info(spec).score


def _default_puzzle(info: RecordInfo) -> Puzzle:
    from . import catalogue

    return catalogue.load_bundled(info.puzzle)


def _check_puzzle(info: RecordInfo, puzzle: Puzzle) -> None:
    """A record board can only go on the official tiles, numbered as the community does."""
    official = _default_puzzle(info)
    if (puzzle.width, puzzle.height) != (official.width, official.height) or not np.array_equal(
        puzzle.tiles, official.tiles
    ):
        label = f"'{puzzle.name}'" if puzzle.name else "the given puzzle"
        raise InputError(
            f"record/{info.name} is a board of the official Eternity II tiles (bundled 'e2'); "
            f"{label} has other tiles or another numbering"
        )


def _decode_token(token: str, info: RecordInfo, square: int) -> tuple[int, int] | None:
    if token == EMPTY_TOKEN:
        return None
    piece, sep, rot = token.partition("/")
    if not sep or not piece.isdigit() or rot not in ("0", "1", "2", "3"):
        raise RecordDataError(f"record {info.name}: square {square_name(square, 16)} has bad token '{token}'")
    return int(piece) - 1, int(rot)


def load_record(spec, puzzle: Puzzle | None = None) -> Board:
    """The bundled board ``spec`` on ``puzzle`` (default: ``e2`` or ``e2-clues``, see module doc)."""
    info = record_info(spec)
    if puzzle is None:
        puzzle = _default_puzzle(info)
    else:
        _check_puzzle(info, puzzle)
    if len(info.pieces_rot) != puzzle.n_squares or len(info.board_edges) != 4 * puzzle.n_squares:
        raise RecordDataError(f"record {info.name}: expected {puzzle.n_squares} squares in the data")
    board = Board(puzzle)
    for square, token in enumerate(info.pieces_rot):
        placed = _decode_token(token, info, square)
        if placed is not None:
            board.place(square, *placed)
    _cross_check(board, info)
    return board


def _cross_check(board: Board, info: RecordInfo) -> None:
    """The placed tiles must show exactly the published viewer letters."""
    for square, shown in enumerate(board.edges()):
        letters = "aaaa" if shown[0] < 0 else "".join(chr(97 + int(c)) for c in shown)
        published = info.board_edges[4 * square : 4 * square + 4]
        if letters != published:
            raise RecordDataError(
                f"record {info.name}: square {square_name(square, board.width)} shows '{letters}' "
                f"but the published board_edges say '{published}'"
            )
    if board.n_placed != info.pieces_placed:
        raise RecordDataError(f"record {info.name}: {board.n_placed} tiles placed, the data says {info.pieces_placed}")
