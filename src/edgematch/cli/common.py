"""Argument helpers shared by subcommands: puzzle/board arguments, JSON and file output."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from ..errors import InputError
from ..loading import load, load_board


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples in epilogs as written."""


def add_puzzle_argument(parser: argparse.ArgumentParser, optional: bool = False) -> None:
    parser.add_argument(
        "puzzle",
        nargs="?" if optional else None,
        help="a bundled puzzle name (see 'edgematch info --list') or a puzzle file",
    )
    parser.add_argument("--format", dest="puzzle_format", metavar="FMT", help="puzzle file format (default: detect)")


def add_order_arguments(
    parser: argparse.ArgumentParser, default: str | None = "rowscan", shown: str = "rowscan"
) -> None:
    """``--order`` and ``--corner``: the scan order of the searches and of the estimator
    (``default`` None: chosen later, as ``shown`` tells the user)."""
    from ..model.orders import CORNERS, ORDER_NAMES

    parser.add_argument(
        "--order",
        default=default,
        metavar="ORDER",
        help=f"scan order: {', '.join(ORDER_NAMES)}, or a file of square names (default: {shown})",
    )
    parser.add_argument(
        "--corner", choices=CORNERS, type=str.upper, help="corner a named order starts from (default TL; BL for e2path)"
    )


def add_board_argument(parser: argparse.ArgumentParser, optional: bool = False) -> None:
    parser.add_argument(
        "board",
        nargs="?" if optional else None,
        help="a board file, an e2.bucas.name viewer URL or a bundled record board (record/NAME)",
    )
    parser.add_argument("--board-format", metavar="FMT", help="board file format (default: detect)")


def naming_option(option: str, call, *a):
    """``call(*a)``, with a failed format detection's advice ("give --format") naming the
    option this command really has for that file (``--board-format``, ``--from``, ...)."""
    try:
        return call(*a)
    except InputError as err:
        if option == "--format" or "give --format" not in err.message:
            raise
        raise InputError(
            err.message.replace("give --format", f"give {option}"), err.source, err.line, tile=err.tile, hint=err.hint
        ) from None


def known_format(fmt: str | None, known, option: str, source: str | None = None) -> str | None:
    """``fmt`` when it names a registered format (or is None); else one clear line naming
    the file, even where the format would not be needed (a bundled name)."""
    if fmt is not None and fmt not in known:
        raise InputError(f"{option}: unknown format '{fmt}' (known: {', '.join(sorted(known))})", source)
    return fmt


def puzzle_from(args):
    from ..formats import PUZZLE_FORMATS

    return load(args.puzzle, known_format(args.puzzle_format, PUZZLE_FORMATS, "--format", str(args.puzzle)))


def board_from(args, puzzle, source=None):
    """The board at ``source`` (default: the BOARD argument), read in ``--board-format``."""
    from ..formats import BOARD_FORMATS

    source = args.board if source is None else source
    fmt = known_format(args.board_format, BOARD_FORMATS, "--board-format", str(source))
    return naming_option("--board-format", load_board, puzzle, source, fmt)


def print_json(data) -> None:
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")


def print_json_streaming(data: dict, key: str) -> None:
    """``print_json(data)`` where ``data[key]`` is an iterable written item by item as it
    is read (a long run's saved boards, never all in memory at once); it comes last."""
    items = data[key]
    rest = {k: v for k, v in data.items() if k != key}
    head = json.dumps(rest, indent=2)[:-2] + ",\n" if rest else "{\n"  # without its closing brace
    sys.stdout.write(head + f"  {json.dumps(key)}: [")
    first = True
    for item in items:
        text = json.dumps(item, indent=2).replace("\n", "\n    ")
        sys.stdout.write(("\n    " if first else ",\n    ") + text)
        first = False
    sys.stdout.write("]\n}\n" if first else "\n  ]\n}\n")


def write_output(text: str, path: str | None) -> None:
    """Write to a file, or to standard output for None or '-'."""
    if path in (None, "-"):
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        Path(path).write_text(text)
    except OSError as exc:
        raise InputError(f"cannot write file ({exc.strerror})", path) from None


def _whole_count(text: str, least: int) -> int:
    """A whole number of at least ``least``, written as an integer or in float notation (``2e9``)."""
    try:
        value = int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not (math.isfinite(number) and number == int(number)):
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        value = int(number)
    if value < least:
        raise argparse.ArgumentTypeError(f"'{text}' must be at least {least}")
    return value


def node_count(text: str) -> int:
    """A node limit: 0 or more, ``2e9`` allowed."""
    return _whole_count(text, 0)


def node_budget(text: str) -> int:
    """A number of nodes to spend before something happens (a restart): 1 or more."""
    return _whole_count(text, 1)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must not be negative")
    return value
