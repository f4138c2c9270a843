"""Square indices and the community's square names.

A square is an index ``row * width + col`` with row 0 at the top and column 0 at the left.
The community names rows with letters from the top (A, B, ... P on the 16x16 board) and
columns with numbers from 1 at the left, so the starter square I8 is row 8, column 7.
Boards taller than 26 rows continue with AA, AB, ... as spreadsheets do.
"""

from __future__ import annotations

import re

from ..errors import InputError

_NAME = re.compile(r"^([A-Za-z]+)(\d+)$")


def row_letters(row: int) -> str:
    """Letters for a 0-based row: 0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    if row < 0:
        raise ValueError(f"row {row} is negative")
    letters = ""
    n = row + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def letters_row(letters: str) -> int:
    """0-based row for row letters: 'A' -> 0, 'AA' -> 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def square_name(square: int, width: int) -> str:
    """Community name of a square index, e.g. 135 on a 16-wide board -> 'I8'."""
    row, col = divmod(square, width)
    return f"{row_letters(row)}{col + 1}"


def parse_square(name: str, width: int, height: int) -> int:
    """Square index of a community name ('I8') or of a plain index ('135').

    Raises :class:`InputError` for names that are malformed or off the board.
    """
    text = name.strip()
    if text.isdigit():
        index = int(text)
        if index >= width * height:
            raise InputError(f"square {index} is off the {width}x{height} board")
        return index
    match = _NAME.match(text)
    if not match:
        raise InputError(f"'{name}' is not a square name (expected e.g. A1 or I8)")
    row = letters_row(match.group(1))
    col = int(match.group(2)) - 1
    if not (0 <= row < height and 0 <= col < width):
        raise InputError(f"square {text.upper()} is off the {width}x{height} board")
    return row * width + col


def parse_squares(items, width: int, height: int) -> list[int]:
    """Square indices from names or indices: a text (``"B16,C16"``, commas or spaces) or a
    sequence of names and ints.  Raises :class:`InputError` for a square off the board."""
    if isinstance(items, str):
        items = [token for token in re.split(r"[\s,;]+", items.strip()) if token]
    squares = []
    for item in items:
        if isinstance(item, str):
            squares.append(parse_square(item, width, height))
        else:
            index = int(item)
            if not 0 <= index < width * height:
                raise InputError(f"square {index} is off the {width}x{height} board")
            squares.append(index)
    return sorted(set(squares))
