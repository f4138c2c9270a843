"""The rotation-set file: one tile per line, its rotation and (with parity) its square colour.

Written by ``edgematch rotations --out FILE`` and read by ``count --rotations FILE`` and
``search --rotations FILE``::

    # edgematch rotation set
    puzzle owen1-6x6
    size 6x6
    parity yes
    # tile rotation colour (tiles numbered from 1; B: black square, row + col even)
    1 0 B
    2 3 W
    ...

Tiles are numbered from 1, as every puzzle file of the community numbers them; rotations
are clockwise quarter turns of the tile as the puzzle lists it; without parity the colour
column is left out.  The ``size`` line is checked against the puzzle the set is used with,
and every line is checked (tile known and listed once, rotation 0..3, colour B or W).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InputError
from ..model import Puzzle
from ..model.rotation_sets import PARITY_NAMES, RotationSet
from .lines import content_lines, integer

HEADER = "# edgematch rotation set"


def format_rotation_set(rotation_set: RotationSet) -> str:
    puzzle = rotation_set.puzzle
    lines = [
        HEADER,
        f"puzzle {puzzle.name or '-'}",
        f"size {puzzle.width}x{puzzle.height}",
        f"parity {'yes' if rotation_set.parity else 'no'}",
        "# tile rotation"
        + (
            " colour (tiles numbered from 1; B: black square, row + col even)"
            if rotation_set.parity
            else " (tiles numbered from 1)"
        ),
    ]
    for tile, rotation in enumerate(rotation_set.rotations):
        line = f"{tile + 1} {int(rotation)}"
        if rotation_set.colours is not None:
            line += f" {PARITY_NAMES[int(rotation_set.colours[tile])]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def parse_rotation_set(text: str, puzzle: Puzzle, source: str = "<text>") -> RotationSet:
    """The rotation set a file describes, for ``puzzle``; every problem names its line."""
    parity: bool | None = None
    rotations: dict[int, int] = {}
    colours: dict[int, int] = {}
    last = 0
    for line in content_lines(text):
        last = line.number
        words = line.text.split()
        key = words[0].lower()
        if key == "puzzle":
            continue
        if key == "size":
            want = f"{puzzle.width}x{puzzle.height}"
            if len(words) != 2 or words[1].lower() != want:
                raise InputError(
                    f"the rotation set is for a {' '.join(words[1:])} board, the puzzle is {want}", source, line.number
                )
            continue
        if key == "parity":
            if len(words) != 2 or words[1].lower() not in ("yes", "no"):
                raise InputError("the parity line must say 'parity yes' or 'parity no'", source, line.number)
            parity = words[1].lower() == "yes"
            continue
        if parity is None:
            raise InputError("a 'parity yes' or 'parity no' line must come before the tiles", source, line.number)
        want_words = 3 if parity else 2
        if len(words) != want_words:
            shape = "tile rotation colour" if parity else "tile rotation"
            raise InputError(f"expected '{shape}', found {len(words)} values", source, line.number)
        tile = integer(words[0], source, line.number, "tile") - 1
        if not 0 <= tile < puzzle.n_tiles:
            raise InputError(f"tile {tile + 1} is not one of the puzzle's {puzzle.n_tiles} tiles", source, line.number)
        if tile in rotations:
            raise InputError(f"tile {tile + 1} is listed twice", source, line.number)
        rotation = integer(words[1], source, line.number, "rotation")
        if not 0 <= rotation <= 3:
            raise InputError(f"rotation {rotation} of tile {tile + 1} must be 0..3", source, line.number)
        rotations[tile] = rotation
        if parity:
            tone = words[2].upper()
            if tone not in PARITY_NAMES:
                raise InputError(f"colour '{words[2]}' of tile {tile + 1} must be B or W", source, line.number)
            colours[tile] = PARITY_NAMES.index(tone)
    if len(rotations) != puzzle.n_tiles:
        missing = next(t for t in range(puzzle.n_tiles) if t not in rotations)
        raise InputError(
            f"the rotation set lists {len(rotations)} of the puzzle's {puzzle.n_tiles} tiles (tile {missing + 1} is missing)",
            source,
            max(last, 1),
        )
    order = range(puzzle.n_tiles)
    try:
        return RotationSet(puzzle, [rotations[t] for t in order], [colours[t] for t in order] if parity else None)
    except InputError as exc:
        raise InputError(exc.message, source, max(last, 1)) from None


def read_rotation_set(path: str | os.PathLike, puzzle: Puzzle) -> RotationSet:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise InputError(f"cannot read the rotation set: {exc.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise InputError("the rotation set is not a text file", str(path)) from None
    return parse_rotation_set(text, puzzle, str(path))


def write_rotation_set(rotation_set: RotationSet, path: str | os.PathLike) -> None:
    Path(path).write_text(format_rotation_set(rotation_set))


__all__ = ["format_rotation_set", "parse_rotation_set", "read_rotation_set", "write_rotation_set"]
