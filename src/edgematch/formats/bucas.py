"""Board links for Jef Bucas's web viewer, e2.bucas.name (the community's way to share boards).

A link carries the board in its parameters (after ``#`` or ``?``, ``name=value`` joined by
``&``), as the viewer's ``readParameters`` (jfbucas/eternityII-viewer, puzzle.js) reads them:

* ``board_w``, ``board_h``: the board size (the viewer needs both);
* ``board_edges``: four letters per square, row by row from the top, giving the colours the
  PLACED tile shows on its top, right, bottom and left sides; letter = ``chr(97 + colour)``
  (``a`` = grey, so the viewer can show colours 0..25).  An empty square is ``aaaa``;
* ``board_pieces`` (optional): three decimal digits per square, the 1-based tile number,
  ``000`` for an empty square;
* ``motifs_order`` (optional): ``jef`` or ``jblackwood`` (alias ``marie``) says the letters use
  another numbering of the official Eternity II colours; without it they use the default
  numbering (ours for the official set: colour_numbering_maps.tsv relabels the others);
* ``puzzle`` (optional): a name.  Other parameters (``board_types``, ``show_*``) are ignored.

Reading places tiles of a given puzzle: ``board_pieces`` names the tile when present (its
rotation follows from the edges); otherwise each square's edges are matched against the
puzzle's tiles, each tile used once, hinted squares first (tiles that are equal up to rotation
are interchangeable, which is the only ambiguity).  Writing gives a link that opens the board
in the viewer, with ``board_pieces`` whenever the tiles can be numbered in three digits.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

import numpy as np

from ..errors import InputError
from ..model import EMPTY, Board, Puzzle
from ..model import tiles as T
from ..model.squares import square_name
from .registry import BoardFormat, register_board_format

VIEWER = "https://e2.bucas.name/"
MAX_LETTER_COLOUR = 25  # 'z'
MAX_NUMBERED_TILES = 999  # board_pieces has three digits per square
EMPTY_LETTERS = "aaaa"
MOTIF_ORDERS = ("default", "jblackwood", "marie", "jef")
_SIDES_TRBL = "top right bottom left"


# --------------------------------------------------------------------------- colour letters
def check_letter_colours(puzzle: Puzzle, what: str = "a viewer link") -> None:
    """Refuse puzzles whose colours cannot be written as the viewer's letters a..z."""
    top = max(puzzle.colours, default=0)
    if top > MAX_LETTER_COLOUR:
        raise InputError(
            f"cannot write {what}: the puzzle uses colours up to {top}, but viewer letters "
            f"a..z encode only colours 0..{MAX_LETTER_COLOUR}"
        )


def edge_letters(board: Board) -> str:
    """``board_edges``: the shown colours of every square as letters, ``aaaa`` when empty."""
    check_letter_colours(board.puzzle)
    parts = []
    for shown in board.edges():
        parts.append(EMPTY_LETTERS if shown[0] < 0 else "".join(chr(97 + int(c)) for c in shown))
    return "".join(parts)


def piece_digits(board: Board) -> str | None:
    """``board_pieces``: 1-based tile numbers in three digits, or None when they do not fit."""
    if board.puzzle.n_tiles > MAX_NUMBERED_TILES:
        return None
    return "".join("000" if t == EMPTY else f"{int(t) + 1:03d}" for t in board.tiles)


@cache
def motif_maps() -> dict[str, dict[str, int]]:
    """For each ``motifs_order``: letter in that order -> colour in the default numbering."""
    text = resources.files("edgematch.data").joinpath("files/record_boards/colour_numbering_maps.tsv").read_text()
    rows = [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
    header, body = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    maps: dict[str, dict[str, int]] = {"default": {}, "jblackwood": {}, "jef": {}}
    for row in body:
        default = int(row[col["default"]])
        for order in maps:
            maps[order][chr(97 + int(row[col[order]]))] = default
    maps["marie"] = maps["jblackwood"]  # the viewer treats the two names alike
    return maps


# --------------------------------------------------------------------------- writing
def safe_name(name: str, fallback: str = "edgematch") -> str:
    """A puzzle name the viewer's '&'/'=' splitting and the URL leave intact."""
    cleaned = re.sub(r"[^A-Za-z0-9_.+-]+", "_", name).strip("_")
    return cleaned or fallback


def board_url(board: Board, name: str | None = None) -> str:
    """A link that opens ``board`` in the e2.bucas.name viewer (default colour letters)."""
    p = board.puzzle
    params = [
        f"puzzle={safe_name(name if name is not None else p.name)}",
        f"board_w={p.width}",
        f"board_h={p.height}",
        f"board_edges={edge_letters(board)}",
    ]
    pieces = piece_digits(board)
    if pieces is not None:
        params.append(f"board_pieces={pieces}")
    return VIEWER + "#" + "&".join(params)


def write(board: Board) -> str:
    return board_url(board) + "\n"


# --------------------------------------------------------------------------- reading
def parse_params(link: str) -> dict[str, str]:
    """Parameters of a viewer link: query then fragment, later names winning (as the viewer)."""
    query, fragment = "", ""
    rest = link
    if "#" in rest:
        rest, fragment = rest.split("#", 1)
    if "?" in rest:
        query = rest.split("?", 1)[1]
    elif "://" not in link and "#" not in link:
        query = link  # a bare "board_w=..&board_edges=.." parameter string
    params: dict[str, str] = {}
    for part in f"{query}&{fragment}".split("&"):
        if "=" in part:
            key, value = part.split("=", 1)
            params[key] = value
    return params


def _link_line(text: str) -> tuple[str, int]:
    """The one line holding the link, and its 1-based number."""
    lines = [(i, raw.strip()) for i, raw in enumerate(text.splitlines(), start=1) if raw.strip()]
    if not lines:
        raise InputError("no viewer link found (the text is empty)", None, None)
    if len(lines) > 1:
        raise InputError("a viewer link is a single line; found more than one", None, lines[1][0])
    number, link = lines[0]
    if any(ch.isspace() for ch in link):
        raise InputError("a viewer link contains no spaces", None, number)
    return link, number


def _size_param(params: dict[str, str], key: str, source: str, line: int) -> int | None:
    value = params.get(key)
    if value is None:
        return None
    if not value.isascii() or not value.isdigit() or len(value) > 6:
        raise InputError(f"{key} '{value[:20]}' is not a board size", source, line)
    return int(value)


def decode_letters(letters: str, order: str, n_squares: int, width: int, source: str, line: int | None) -> np.ndarray:
    """``board_edges`` -> (n_squares, 4) shown colours in the default numbering, -1 when empty."""
    if len(letters) != 4 * n_squares:
        raise InputError(
            f"board_edges has {len(letters)} letters; a {n_squares}-square board needs {4 * n_squares}", source, line
        )
    table = motif_maps()[order] if order != "default" else None
    cells = np.full((n_squares, 4), -1, dtype=np.int64)
    for sq in range(n_squares):
        four = letters[4 * sq : 4 * sq + 4]
        if four == EMPTY_LETTERS:
            continue
        for side, letter in enumerate(four):
            if not ("a" <= letter <= "z"):
                raise InputError(
                    f"board_edges: square {square_name(sq, width)} has '{letter}', not a letter a..z", source, line
                )
            if table is None:
                cells[sq, side] = ord(letter) - 97
            elif letter in table:
                cells[sq, side] = table[letter]
            else:
                raise InputError(
                    f"board_edges: square {square_name(sq, width)} has '{letter}', which names no colour "
                    f"in motifs_order={order}",
                    source,
                    line,
                )
    return cells


def decode_pieces(digits: str, n_squares: int, n_tiles: int, width: int, source: str, line: int | None) -> list[int]:
    """``board_pieces`` -> 0-based tile per square, -1 for ``000``."""
    if len(digits) != 3 * n_squares or not digits.isascii() or not digits.isdigit():
        raise InputError(
            f"board_pieces must be {3 * n_squares} digits (three per square); got {len(digits)} characters",
            source,
            line,
        )
    tiles = []
    for sq in range(n_squares):
        number = int(digits[3 * sq : 3 * sq + 3])
        if number > n_tiles:
            raise InputError(
                f"board_pieces: square {square_name(sq, width)} names tile {number}, but the puzzle has {n_tiles}",
                source,
                line,
            )
        tiles.append(number - 1)
    return tiles


def _letters(colours) -> str:
    return "".join(chr(97 + int(c)) if 0 <= c <= MAX_LETTER_COLOUR else f"({int(c)})" for c in colours)


def rotation_showing(puzzle: Puzzle, tile: int, shown) -> int | None:
    """The smallest rotation in which ``tile`` shows ``shown`` (N E S W), or None."""
    for r in range(4):
        if np.array_equal(T.rotate(puzzle.tiles[tile], r), shown):
            return r
    return None


def board_from_cells(
    puzzle: Puzzle,
    cells: np.ndarray,
    tiles: list[int] | None = None,
    source: str = "<text>",
    line: int | None = None,
    what: str = "board_edges",
) -> Board:
    """Place tiles of ``puzzle`` showing ``cells`` (shown N E S W colours, -1 = empty square).

    ``tiles`` (0-based per square, -1 = not given) names tiles where known; the others are
    found by matching the shown colours against the tiles not used yet, hinted squares first.
    """
    n = puzzle.n_squares
    width = puzzle.width
    board = Board(puzzle)
    used = np.zeros(puzzle.n_tiles, dtype=bool)
    pending: list[int] = []
    for sq in range(n):
        named = tiles[sq] if tiles is not None else -1
        empty = cells[sq, 0] < 0
        if empty:
            if named >= 0:
                raise InputError(
                    f"square {square_name(sq, width)} names tile {named + 1} but {what} shows it empty", source, line
                )
            continue
        if named < 0:
            pending.append(sq)
            continue
        rot = rotation_showing(puzzle, named, cells[sq])
        if rot is None:
            own = " ".join(str(int(c)) for c in T.rotate(puzzle.tiles[named], 0))
            raise InputError(
                f"square {square_name(sq, width)}: tile {named + 1} ({own}, N E S W) cannot show "
                f"{_letters(cells[sq])} ({_SIDES_TRBL}) in any rotation",
                source,
                line,
            )
        board.place(sq, named, rot)
        used[named] = True
    if not pending:
        return board

    candidates: dict[tuple[int, ...], list[int]] = {}
    for tile, edges in enumerate(puzzle.tiles):
        for r in T.distinct_rotations(edges):
            candidates.setdefault(tuple(int(c) for c in T.rotate(edges, r)), []).append(tile)
    # Hinted squares whose hint tile fits take that tile first, so that among tiles equal up
    # to rotation the hint's own tile ends up on its square; then row by row.
    for sq in pending:
        hint = puzzle.hint_map.get(sq)
        if hint is not None and not used[hint[0]]:
            rot = rotation_showing(puzzle, hint[0], cells[sq])
            if rot is not None:
                board.place(sq, hint[0], rot)
                used[hint[0]] = True
    for sq in pending:
        if board.tiles[sq] != EMPTY:
            continue
        shown = tuple(int(c) for c in cells[sq])
        fitting = candidates.get(shown, [])
        choice = next((t for t in fitting if not used[t]), None)
        if choice is None:
            detail = (
                f"; the tiles that fit ({', '.join(str(t + 1) for t in fitting[:8])}) are placed elsewhere"
                if fitting
                else ""
            )
            raise InputError(
                f"square {square_name(sq, width)}: {_letters(shown)} ({_SIDES_TRBL}) matches no unused tile of the "
                f"puzzle{detail}",
                source,
                line,
            )
        rot = rotation_showing(puzzle, choice, cells[sq])
        assert rot is not None  # choice is among the tiles that show these colours
        board.place(sq, choice, rot)
        used[choice] = True
    return board


def read(text: str, source: str, puzzle: Puzzle) -> Board:
    try:
        link, line = _link_line(text)
    except InputError as err:
        raise err.located(source) from None
    params = parse_params(link)
    if "board_edges" not in params:
        raise InputError("the link has no board_edges parameter", source, line)
    width = _size_param(params, "board_w", source, line)
    height = _size_param(params, "board_h", source, line)
    size = _size_param(params, "puzzle_size", source, line)  # eternity2.dev's square-board spelling
    width = width if width is not None else size
    height = height if height is not None else size
    if (width is not None and width != puzzle.width) or (height is not None and height != puzzle.height):
        shown = f"{width if width is not None else '?'}x{height if height is not None else '?'}"
        raise InputError(
            f"the link shows a {shown} board, but the puzzle is {puzzle.width}x{puzzle.height}", source, line
        )
    order = params.get("motifs_order", "default") or "default"
    if order not in MOTIF_ORDERS:
        raise InputError(f"unknown motifs_order '{order[:20]}' (known: {', '.join(MOTIF_ORDERS[1:])})", source, line)
    n = puzzle.n_squares
    cells = decode_letters(params["board_edges"], order, n, puzzle.width, source, line)
    tiles = None
    if params.get("board_pieces"):
        tiles = decode_pieces(params["board_pieces"], n, puzzle.n_tiles, puzzle.width, source, line)
    return board_from_cells(puzzle, cells, tiles, source, line)


def sniff(text: str) -> bool:
    head = text.lstrip()
    return head.startswith(("http://", "https://")) and "board_edges=" in head


FORMAT = register_board_format(
    BoardFormat(
        name="bucas",
        description="e2.bucas.name viewer link (board_w, board_h, board_edges letters, board_pieces)",
        read=read,
        write=write,
        sniff=sniff,
        extensions=(".url",),
    )
)
