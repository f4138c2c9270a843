"""``edgematch generate``: a random puzzle with a planted solution (Benoist & Bourreau's scheme)."""

from __future__ import annotations

import re

from ..errors import InputError
from ..formats import format_board, format_puzzle
from ..generator import generate
from ..model.puzzle import MAX_SIDE
from .common import HelpFormatter, print_json, write_output

EXAMPLES = """examples:
  edgematch generate 8 --seed 1                        8x8 with E2-like colour counts, to the terminal
  edgematch generate 6x12 --frame-colours 3 --inner-colours 6 --seed 7 --out p.txt --solution p.board
  edgematch generate 10 --hints corner --out e10.txt --format benoist
  edgematch generate 7 --hints 3 --seed 2 --json
"""


def register(sub) -> None:
    p = sub.add_parser(
        "generate",
        help="generate a random puzzle with a planted solution",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    p.add_argument("size", help="side N for N x N, or WxH (width x height, e.g. 6x12)")
    p.add_argument("--frame-colours", type=int, metavar="B", help="number of frame colours (default: E2-like)")
    p.add_argument("--inner-colours", type=int, metavar="I", help="number of inner colours (default: E2-like)")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same puzzle; default 0)")
    p.add_argument(
        "--hints",
        default="none",
        metavar="H",
        help="'none', 'corner' (bottom-left corner fixed, breaks board rotations) or a number of random hints",
    )
    p.add_argument("--name", help="puzzle name")
    p.add_argument("--out", metavar="FILE", help="puzzle file (default: standard output)")
    p.add_argument(
        "--format",
        dest="puzzle_format",
        default=None,
        metavar="FMT",
        help="puzzle format (default by extension, else edgematch)",
    )
    p.add_argument("--solution", metavar="FILE", help="also write the planted solution to this file")
    p.add_argument(
        "--board-format",
        metavar="FMT",
        default=None,
        help="format of the solution file (default by extension, else edgematch)",
    )
    p.add_argument("--json", action="store_true", help="print a summary as JSON (the puzzle then needs --out)")
    p.set_defaults(func=run)


def parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*(?:[xX]\s*(\d+))?\s*", text)
    if not match:
        raise InputError(f"size '{text}' is not N or WxH (e.g. 8 or 6x12)")
    if any(len(side) > 5 for side in match.groups() if side):
        raise InputError(f"size '{text}' is too large (at most {MAX_SIDE} squares per side)")
    width = int(match.group(1))
    height = int(match.group(2)) if match.group(2) else width
    return width, height


def run(args) -> int:
    from ..formats.registry import BOARD_FORMATS, PUZZLE_FORMATS, format_for_extension

    width, height = parse_size(args.size)
    made = generate(width, height, args.frame_colours, args.inner_colours, args.seed, args.hints, args.name)
    puzzle_fmt = args.puzzle_format or (format_for_extension(args.out, PUZZLE_FORMATS) if args.out else "edgematch")
    text = format_puzzle(made.puzzle, puzzle_fmt)
    if args.json and not args.out:
        raise InputError("--json prints a summary: give --out for the puzzle itself")
    write_output(text, args.out)
    if args.solution:
        board_fmt = args.board_format or format_for_extension(args.solution, BOARD_FORMATS)
        write_output(format_board(made.solution, board_fmt), args.solution)
    if args.json:
        summary = made.puzzle.summary()
        print_json(
            {
                "name": made.puzzle.name,
                "width": width,
                "height": height,
                "seed": made.seed,
                "frame_colours": made.frame_colours,
                "inner_colours": made.inner_colours,
                "tiles": made.puzzle.n_tiles,
                "hints": summary["hints"],
                "out": args.out,
                "solution": args.solution,
            }
        )
    return 0
