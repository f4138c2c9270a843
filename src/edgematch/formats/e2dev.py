"""eternity2.dev JSON: the site's ``Puzzle`` and its canonical board document ``BoardDoc``.

Schemas (repository raphael-anjou/eternity2: ``engine/src/types.rs`` and ``web/src/lib/types.ts``
for the puzzle, ``research/experiments/common/crates/e2-io/src/format.rs`` for the board)::

    Puzzle   {"name": str, "width": int, "height": int, "numColors": int,
              "pieces": [[up, right, down, left], ...],        # rotation 0; colour 0 = grey
              "hints": [{"pos": square, "piece": 0-based, "rot": 0..3}, ...]}
    BoardDoc {"name": str, "size": int, "score": int, "breaks": int,
              "board": [piece*4 + rot or -1, ...],               # row by row from the top
              "board_hash": FNV-1a 64 of the board as little-endian int32,
              "board_edges": viewer letters, "board_pieces": 3-digit 1-based numbers,
              "url": "https://eternity2.dev/viewer?..."}

Their sides and rotations are ours: up/right/down/left = N/E/S/W, rotation = clockwise
quarter turns (``rotateEdges``: new[i] = old[(i - r) mod 4]).  Squares are ``row * width + col``.
Unknown keys (``id``, ``family``, ``maxScore`` ...) are ignored.

Orientation of the official set: eternity2.dev stores every official piece turned 180 degrees
from the community's standard orientation (its piece 0 is ``[0, 0, 1, 3]``, standard piece 1 is
``1 3 0 0`` top-right-bottom-left), so its rotations are ours + 2: the starter is
``{"pos": 135, "piece": 138, "rot": 0}`` for the standard 139@I8 rotation 2 (verified on the
site's ``research/datasets/instances/e2-16x16-v00.json`` and on its board documents, e.g.
``research/experiments/repair-study/results/boards/accept-anneal_v00.json`` whose cell 0 is
code 3 = piece 0 rotation 3 showing ``abda``).  We convert at the boundary: a puzzle whose
pieces are exactly the official set turned 180 degrees is read in the standard orientation
(equal to the bundled ``e2`` tiles), and the official set is written turned, so files
exchanged with the site mean the same placements there and here.  Any other puzzle is read
and written as stored.  Reading a board takes each square's rotation from ``board_edges``
when present (independent of how the pieces are stored) and from the code otherwise.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

import numpy as np

from ..errors import InputError
from ..model import EMPTY, Board, Hint, Puzzle
from ..model.puzzle import MAX_COLOUR
from .bucas import (
    MAX_NUMBERED_TILES,
    board_from_cells,
    check_letter_colours,
    decode_letters,
    decode_pieces,
    edge_letters,
    piece_digits,
)
from .lines import relocate
from .registry import BoardFormat, PuzzleFormat, register_board_format, register_puzzle_format

SITE = "https://eternity2.dev"
OFFICIAL_TURN = 2  # quarter turns between the site's stored official pieces and the standard ones

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1


# --------------------------------------------------------------------------- JSON helpers
def load_json(text: str, source: str):
    """Parsed JSON, or an :class:`InputError` at the line where it goes wrong."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", source, exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # e.g. a 5000-digit number, absurd nesting
        raise InputError(f"not valid JSON: {str(exc)[:80]}", source) from None


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def key_line(text: str, key: str) -> int | None:
    """Line of the first ``"key":`` in the text (for messages about that key)."""
    m = re.search(rf'"{re.escape(key)}"\s*:', text)
    return line_of(text, m.start()) if m else None


def element_lines(text: str, key: str) -> list[int]:
    """Line where each element of the array under ``"key":`` starts ([] if it cannot tell)."""
    m = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text)
    if not m:
        return []
    decoder = json.JSONDecoder()
    lines: list[int] = []
    pos = m.end()
    space = re.compile(r"[\s,]*")
    try:
        while True:
            gap = space.match(text, pos)
            assert gap is not None  # [\s,]* matches everywhere
            pos = gap.end()
            if pos >= len(text) or text[pos] == "]":
                return lines
            lines.append(line_of(text, pos))
            _, pos = decoder.raw_decode(text, pos)
    except (ValueError, RecursionError):
        return lines


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_field(data: dict, key: str, text: str, source: str, required: bool = True, low: int = 0) -> int | None:
    if key not in data:
        if required:
            raise InputError(f'missing "{key}"', source)
        return None
    value = data[key]
    if not is_int(value) or value < low:
        raise InputError(
            f'"{key}" must be an integer >= {low}, not {json.dumps(value)[:30]}', source, key_line(text, key)
        )
    return value


def _object(text: str, source: str, what: str) -> dict:
    data = load_json(text, source)
    if not isinstance(data, dict):
        raise InputError(f"an eternity2.dev {what} is a JSON object {{...}}", source, 1)
    return data


# --------------------------------------------------------------------------- official orientation
#: The official pieces as the community numbers and orients them (the bundled ``e2``).
OFFICIAL_PIECES_FILE = "files/e2_official/e2pieces_standard_TRBL_default.txt"


@lru_cache(maxsize=1)
def _official_tiles() -> bytes | None:
    """The official tiles in the standard orientation (bundled ``e2``), as bytes for comparison."""
    # read the bundled file itself, not through data.catalogue (which imports the formats:
    # formats must not import the catalogue, or the two would import each other)
    try:
        text = (resources.files("edgematch.data") / OFFICIAL_PIECES_FILE).read_text()
    except OSError:
        return None
    from .registry import parse_puzzle

    tiles = parse_puzzle(text, f"edgematch-data/{OFFICIAL_PIECES_FILE}", "edgematch").tiles
    return np.ascontiguousarray(tiles, dtype=np.int32).tobytes()


def is_official_standard(tiles: np.ndarray) -> bool:
    """True for exactly the official set, numbered and oriented as the community does."""
    official = _official_tiles()
    return official is not None and np.ascontiguousarray(tiles, dtype=np.int32).tobytes() == official


def _turned(tiles: np.ndarray) -> np.ndarray:
    return np.roll(np.asarray(tiles, dtype=np.int32), OFFICIAL_TURN, axis=1)


def site_turn(puzzle: Puzzle) -> int:
    """Quarter turns to add to our rotations to get the site's (2 for the official set)."""
    return OFFICIAL_TURN if is_official_standard(puzzle.tiles) else 0


# --------------------------------------------------------------------------- Puzzle
def read_puzzle(text: str, source: str) -> Puzzle:
    data = _object(text, source, "puzzle")
    pieces = data.get("pieces")
    if not isinstance(pieces, list) or not pieces:
        raise InputError(
            '"pieces" must be a non-empty list of [up, right, down, left]', source, key_line(text, "pieces")
        )
    tile_lines = element_lines(text, "pieces")
    for i, piece in enumerate(pieces):
        if not (isinstance(piece, list) and len(piece) == 4 and all(is_int(c) for c in piece)):
            at = tile_lines[i] if i < len(tile_lines) else key_line(text, "pieces")
            raise InputError(f"piece {i} must be four integer colours [up, right, down, left]", source, at)
        if not all(0 <= c <= MAX_COLOUR for c in piece):
            at = tile_lines[i] if i < len(tile_lines) else key_line(text, "pieces")
            raise InputError(f"piece {i}: colours must be 0..{MAX_COLOUR}", source, at)
    width = _int_field(data, "width", text, source, required=False)
    height = _int_field(data, "height", text, source, required=False)
    _int_field(data, "numColors", text, source, required=False)
    name = data.get("name", data.get("id", ""))
    if not isinstance(name, str):
        raise InputError('"name" must be a string', source, key_line(text, "name"))

    raw_hints = data.get("hints", [])
    if raw_hints is None:
        raw_hints = []
    if not isinstance(raw_hints, list):
        raise InputError('"hints" must be a list of {"pos", "piece", "rot"}', source, key_line(text, "hints"))
    hint_lines = element_lines(text, "hints")
    hints = []
    for i, h in enumerate(raw_hints):
        at = hint_lines[i] if i < len(hint_lines) else key_line(text, "hints")
        if not isinstance(h, dict) or not all(is_int(h.get(k)) for k in ("pos", "piece", "rot")):
            raise InputError(f'hint {i} must be {{"pos": square, "piece": 0-based, "rot": 0..3}}', source, at)
        if not (0 <= h["rot"] <= 3) or h["pos"] < 0 or h["piece"] < 0:
            raise InputError(f"hint {i}: pos and piece must be >= 0 and rot 0..3", source, at)
        hints.append([h["pos"], h["piece"], h["rot"]])

    tiles = np.array(pieces, dtype=np.int64)
    turn = 0
    if len(tiles) == 256 and is_official_standard(_turned(tiles)):
        tiles, turn = _turned(tiles), OFFICIAL_TURN
    try:
        return Puzzle(
            tiles,
            width,
            height,
            [Hint(pos, piece, (rot + turn) % 4) for pos, piece, rot in hints],
            name,
        )
    except InputError as err:
        raise relocate(err, source, tile_lines, hint_lines) from None


def write_puzzle(puzzle: Puzzle) -> str:
    turn = site_turn(puzzle)
    tiles = _turned(puzzle.tiles) if turn else puzzle.tiles
    pieces = ",\n".join(f"    [{', '.join(str(int(c)) for c in t)}]" for t in tiles)
    hints = ",\n".join(
        f'    {{"pos": {h.square}, "piece": {h.tile}, "rot": {(h.rotation + turn) % 4}}}' for h in puzzle.hints
    )
    return (
        "{\n"
        f'  "name": {json.dumps(puzzle.name)},\n'
        f'  "width": {puzzle.width},\n'
        f'  "height": {puzzle.height},\n'
        f'  "numColors": {max(puzzle.colours, default=0)},\n'
        f'  "pieces": [\n{pieces}\n  ],\n'
        f'  "hints": [{chr(10) + hints + chr(10) + "  " if hints else ""}]\n'
        "}\n"
    )


def sniff_puzzle(text: str) -> bool:
    return text.lstrip().startswith("{") and '"pieces"' in text and '"numColors"' in text


# --------------------------------------------------------------------------- BoardDoc
def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bits.

    ``board_hash`` is this over the ``board`` codes as little-endian int32, the definition of
    the site's canonical format (``format.rs``: ``board_hash``).  Some of the site's engines
    fill the field with another fingerprint (FNV-1a over each square's piece as little-endian
    uint16 then its rotation byte, e2-core ``Board::hash``), so readers must not check it.
    """
    h = _FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & _MASK64
    return h


def board_codes(board: Board) -> list[int]:
    """The site's ``board``: piece * 4 + rotation in the site's orientation, -1 when empty."""
    turn = site_turn(board.puzzle)
    return [-1 if t == EMPTY else int(t) * 4 + (int(r) + turn) % 4 for t, r in zip(board.tiles, board.rotations)]


def site_name(name: str) -> str:
    """The site's URL-safe name: letters, digits and single underscores."""
    cleaned = re.sub(r"[^A-Za-z0-9_]+", "_", name)
    return cleaned or "eternity2_board"


def write_board(board: Board) -> str:
    p = board.puzzle
    check_letter_colours(p, "an eternity2.dev board")
    if p.n_tiles > MAX_NUMBERED_TILES:
        raise InputError(
            f"cannot write an eternity2.dev board: its board_pieces numbers tiles in three digits, "
            f"and the puzzle has {p.n_tiles} tiles"
        )
    codes = board_codes(board)
    name = site_name(p.name)
    edges = edge_letters(board)
    pieces = piece_digits(board)
    size = f"puzzle_size={p.width}" if p.width == p.height else f"board_w={p.width}&board_h={p.height}"
    url = f"{SITE}/viewer?puzzle={name}&{size}&board_edges={edges}&board_pieces={pieces}"
    score = board.score()
    rows = ",\n".join(
        "    " + ", ".join(str(c) for c in codes[r * p.width : (r + 1) * p.width]) for r in range(p.height)
    )
    shape = f'  "size": {p.width},\n'
    if p.width != p.height:  # our extension: the site's boards are square
        shape += f'  "width": {p.width},\n  "height": {p.height},\n'
    return (
        "{\n"
        f'  "name": {json.dumps(name)},\n'
        f"{shape}"
        f'  "score": {score},\n'
        f'  "breaks": {p.max_score - score},\n'
        f'  "board": [\n{rows}\n  ],\n'
        f'  "board_hash": {fnv1a64(np.array(codes, dtype="<i4").tobytes())},\n'
        f'  "board_edges": "{edges}",\n'
        f'  "board_pieces": "{pieces}",\n'
        f'  "url": "{url}"\n'
        "}\n"
    )


def read_board(text: str, source: str, puzzle: Puzzle) -> Board:
    data = _object(text, source, "board")
    size = _int_field(data, "size", text, source, required=False, low=1)
    width = _int_field(data, "width", text, source, required=False, low=1)
    height = _int_field(data, "height", text, source, required=False, low=1)
    width = width if width is not None else size
    height = height if height is not None else size
    if (width is not None and width != puzzle.width) or (height is not None and height != puzzle.height):
        raise InputError(
            f"the board is {width or '?'}x{height or '?'}, but the puzzle is {puzzle.width}x{puzzle.height}",
            source,
            key_line(text, "size") or key_line(text, "width"),
        )
    n = puzzle.n_squares

    cells = None
    if data.get("board_edges") is not None:
        letters = data["board_edges"]
        at = key_line(text, "board_edges")
        if not isinstance(letters, str):
            raise InputError('"board_edges" must be a string of letters', source, at)
        cells = decode_letters(letters, "default", n, puzzle.width, source, at)

    tiles: list[int] | None = None
    rotations: list[int] | None = None
    if data.get("board") is not None:
        codes = data["board"]
        at = key_line(text, "board")
        if not isinstance(codes, list) or len(codes) != n:
            got = len(codes) if isinstance(codes, list) else "no list"
            raise InputError(f'"board" must list {n} codes (piece*4+rot or -1), one per square; got {got}', source, at)
        code_lines = element_lines(text, "board")
        tiles, rotations = [], []
        for sq, code in enumerate(codes):
            if not is_int(code) or code < -1 or code >= 4 * puzzle.n_tiles:
                where = code_lines[sq] if sq < len(code_lines) else at
                raise InputError(
                    f"board[{sq}] = {json.dumps(code)[:20]} is not -1 or piece*4+rot for {puzzle.n_tiles} pieces",
                    source,
                    where,
                )
            tiles.append(-1 if code < 0 else code >> 2)
            rotations.append(0 if code < 0 else code & 3)
    elif data.get("board_pieces") is not None:
        digits = data["board_pieces"]
        at = key_line(text, "board_pieces")
        if not isinstance(digits, str):
            raise InputError('"board_pieces" must be a string of digits', source, at)
        tiles = decode_pieces(digits, n, puzzle.n_tiles, puzzle.width, source, at)

    if cells is not None:
        at = key_line(text, "board_edges")
        return board_from_cells(puzzle, cells, tiles, source, at)
    if tiles is None or rotations is None:
        raise InputError('the board document has neither "board" nor "board_edges"', source)
    turn = site_turn(puzzle)
    board = Board(puzzle)
    for sq, (tile, rot) in enumerate(zip(tiles, rotations)):
        if tile >= 0:
            board.place(sq, tile, (rot - turn) % 4)
    return board


def sniff_board(text: str) -> bool:
    return text.lstrip().startswith("{") and '"board_edges"' in text and '"board"' in text


PUZZLE_FORMAT = register_puzzle_format(
    PuzzleFormat(
        name="e2dev",
        description="eternity2.dev Puzzle JSON (width, height, numColors, pieces [up,right,down,left], hints)",
        read=read_puzzle,
        write=write_puzzle,
        sniff=sniff_puzzle,
        extensions=(".json",),
    )
)

BOARD_FORMAT = register_board_format(
    BoardFormat(
        name="e2dev-board",
        description="eternity2.dev BoardDoc JSON (board codes piece*4+rot, board_edges, board_pieces, url)",
        read=read_board,
        write=write_board,
        sniff=sniff_board,
        extensions=(".json",),
    )
)
