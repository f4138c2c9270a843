"""``edgematch convert``: a puzzle or a board from one format to another."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..formats import BOARD_FORMATS, PUZZLE_FORMATS, format_board, format_puzzle
from ..formats.registry import format_for_extension
from ..loading import load, load_board
from .common import HelpFormatter, naming_option, write_output

EXAMPLES = """examples:
  edgematch convert e2 e2.txt --to heule             a bundled puzzle to Heule's format
  edgematch convert pieces.txt out.txt --from julia --to edgematch
  edgematch convert --puzzle e2 record/Joshua_Blackwood_470 best.et2
  edgematch convert --puzzle e2 board.et2 - --to bucas   print a viewer URL
"""


def register(sub) -> None:
    p = sub.add_parser(
        "convert", help="convert a puzzle or board between formats", epilog=EXAMPLES, formatter_class=HelpFormatter
    )
    p.add_argument("input", help="puzzle (name or file); with --puzzle: a board (file, URL or record/NAME)")
    p.add_argument("output", help="output file, or - for standard output")
    p.add_argument("--from", dest="source_format", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--to",
        dest="target_format",
        metavar="FMT",
        help=f"output format (puzzles: {', '.join(sorted(PUZZLE_FORMATS))}; "
        f"boards: {', '.join(sorted(BOARD_FORMATS))}; default: by extension, else edgematch)",
    )
    p.add_argument("--puzzle", metavar="PUZZLE", help="convert a board of this puzzle instead of a puzzle")
    p.add_argument("--puzzle-format", metavar="FMT", help="format of the --puzzle file (default: detect)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.puzzle:
        puzzle = naming_option("--puzzle-format", load, args.puzzle, args.puzzle_format)
        board = naming_option("--from", load_board, puzzle, args.input, args.source_format)
        target = args.target_format or _by_extension(args.output, BOARD_FORMATS)
        _check(target, BOARD_FORMATS, "board")
        write_output(format_board(board, target), args.output)
    else:
        puzzle = naming_option("--from", load, args.input, args.source_format)
        target = args.target_format or _by_extension(args.output, PUZZLE_FORMATS)
        _check(target, PUZZLE_FORMATS, "puzzle")
        write_output(format_puzzle(puzzle, target), args.output)
    return 0


def _by_extension(path: str, formats: dict) -> str:
    return "edgematch" if path == "-" else format_for_extension(Path(path), formats)


def _check(name: str, formats: dict, what: str) -> None:
    if name not in formats:
        raise InputError(f"unknown {what} format '{name}' (known: {', '.join(sorted(formats))})")
