"""``edgematch show``: pictures of a tile set or a (partial) board, as SVG, PNG or in the terminal."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from ..errors import InputError
from ..model import Board
from ..render import board_png, board_svg, tiles_png, tiles_svg
from ..render.terminal import board_renderable, tiles_renderable
from .common import HelpFormatter, add_board_argument, add_puzzle_argument, board_from, puzzle_from

EXAMPLES = """examples:
  edgematch show e2                                   the 256 tiles in the terminal
  edgematch show e2 --hints --out e2.svg              the board with the starter piece
  edgematch show e2 record/Joshua_Blackwood_470 --out b470.png --numbers
  edgematch show clue1 solution.txt --names --out clue1.png --out clue1.svg
"""


def register(sub) -> None:
    p = sub.add_parser(
        "show", help="draw a tile set or a board (SVG, PNG, terminal)", epilog=EXAMPLES, formatter_class=HelpFormatter
    )
    add_puzzle_argument(p)
    add_board_argument(p, optional=True)
    p.add_argument("--hints", action="store_true", help="draw the board with only the hints placed")
    p.add_argument(
        "--out",
        action="append",
        metavar="FILE",
        help="write a picture (.svg or .png by extension; repeatable); default: the terminal",
    )
    p.add_argument("--numbers", action="store_true", help="show piece numbers (tile sets show them always)")
    p.add_argument("--names", action="store_true", help="show square names (A1 ...)")
    p.add_argument("--no-marks", action="store_true", help="do not mark mismatched joins and hints")
    p.add_argument(
        "--cell",
        type=int,
        default=None,
        metavar="N",
        help="size of a square: pixels in pictures (default 48), characters in the terminal (default 3)",
    )
    p.add_argument("--columns", type=int, default=None, metavar="N", help="tiles per row in a tile-set picture")
    p.set_defaults(func=run)


def run(args) -> int:
    puzzle = puzzle_from(args)
    board = None
    if args.board and args.hints:
        raise InputError(
            "--hints draws the board with only the hints placed; it cannot be combined with a BOARD", str(args.board)
        )
    if args.board:
        board = board_from(args, puzzle)
    elif args.hints:
        board = Board.from_hints(puzzle)
    limits = (8, 256) if args.out else (1, 16)
    if args.cell is not None and not limits[0] <= args.cell <= limits[1]:
        raise InputError(
            f"--cell {args.cell} is out of range ({limits[0]}..{limits[1]} for {'pictures' if args.out else 'the terminal'})"
        )
    if args.columns is not None and args.columns < 1:
        raise InputError(f"--columns {args.columns} must be at least 1")
    marks = not args.no_marks
    if not args.out:
        cell = args.cell or 3
        picture = (
            board_renderable(board, args.numbers, args.names, marks, cell)
            if board is not None
            else tiles_renderable(puzzle, args.columns, True, max(2, args.cell or 2))
        )
        Console().print(picture, crop=False, soft_wrap=True)
        return 0
    for out in args.out:
        suffix = Path(out).suffix.lower()
        if suffix not in (".svg", ".png"):
            raise InputError("unknown picture type (use .svg or .png)", out)
        cell = args.cell or 48
        try:
            if suffix == ".svg":
                text = (
                    board_svg(board, args.numbers, args.names, marks, cell)
                    if board is not None
                    else tiles_svg(puzzle, args.columns, True, marks, cell)
                )
                Path(out).write_text(text)
            elif board is not None:
                board_png(board, out, args.numbers, args.names, marks, cell)
            else:
                tiles_png(puzzle, out, args.columns, True, marks, cell)
        except OSError as exc:
            raise InputError(f"cannot write picture ({exc.strerror})", out) from None
        print(f"wrote {out}")
    return 0
