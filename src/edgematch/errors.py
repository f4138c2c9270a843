"""Errors that reach users.

Every problem with what a user gave us (a file, a name, an option) is raised as an
:class:`InputError`.  It carries where the problem is (file and line) so that the
command line can print exactly one line, ``file:line: problem``, and exit with
status 2 instead of a traceback.  Library users catch it like any ``ValueError``.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: a malformed file, an inconsistent puzzle, an impossible option."""

    def __init__(
        self,
        message: str,
        source: str | None = None,
        line: int | None = None,
        *,
        tile: int | None = None,
        hint: int | None = None,
    ):
        self.message = message
        self.source = source
        self.line = line
        # Which tile / hint (0-based, in the order given) the problem is about, so that a
        # file reader can translate it into the line of its file.
        self.tile = tile
        self.hint = hint
        super().__init__(self.where_and_what())

    def where_and_what(self) -> str:
        """The one line shown to users: ``source:line: message``."""
        place = ""
        if self.source:
            place = f"{self.source}:"
            if self.line is not None:
                place += f"{self.line}:"
            place += " "
        elif self.line is not None:
            place = f"line {self.line}: "
        return place + self.message

    def located(self, source: str | None = None, line: int | None = None) -> InputError:
        """Return a copy that also names the file (and line) if they were not known yet."""
        return InputError(
            self.message,
            self.source if self.source else source,
            self.line if self.line is not None else line,
            tile=self.tile,
            hint=self.hint,
        )
