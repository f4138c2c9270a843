"""Line-numbered parsing helpers shared by the text formats.

Readers work on :class:`Line` objects (1-based number, content without comment) so that
every error they raise names the exact line, and use :func:`integers` to turn a line into
numbers with a precise message for whatever is wrong with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError

MAX_INT_DIGITS = 12


@dataclass(frozen=True)
class Line:
    number: int  # 1-based line number in the file
    text: str  # stripped content, comment removed


def content_lines(text: str, comment: str | None = "#") -> list[Line]:
    """Non-blank lines with their numbers, comments (from ``comment`` to end of line) removed."""
    result = []
    for i, raw in enumerate(text.splitlines(), start=1):
        body = raw.split(comment, 1)[0] if comment else raw
        body = body.strip()
        if body:
            result.append(Line(i, body))
    return result


def integer(token: str, source: str, line: int, what: str = "value") -> int:
    """One integer token, or an :class:`InputError` naming file, line and token."""
    t = token.strip()
    digits = t[1:] if t[:1] in "+-" else t
    if not digits.isdigit() or not digits.isascii():
        raise InputError(f"{what} '{token}' is not an integer", source, line)
    if len(digits) > MAX_INT_DIGITS:
        raise InputError(f"{what} '{token[:20]}...' is too large", source, line)
    return int(t)


def integers(line: Line, source: str, count: int | None = None, what: str = "value") -> list[int]:
    """All whitespace-separated integers of a line; exactly ``count`` of them if given."""
    tokens = line.text.replace(",", " ").split()
    if count is not None and len(tokens) != count:
        raise InputError(f"expected {count} numbers, found {len(tokens)}: '{line.text[:60]}'", source, line.number)
    return [integer(t, source, line.number, what) for t in tokens]


def relocate(
    error: InputError, source: str, tile_lines: list[int] | None = None, hint_lines: list[int] | None = None
) -> InputError:
    """Name the file and line of a model error that points at a tile or hint by index."""
    line = error.line
    if line is None and error.tile is not None and tile_lines and error.tile < len(tile_lines):
        line = tile_lines[error.tile]
    if line is None and error.hint is not None and hint_lines and error.hint < len(hint_lines):
        line = hint_lines[error.hint]
    return error.located(source, line)
