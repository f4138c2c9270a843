"""``edgematch solve``: find the first k solutions (or all) and write them as board files.

Board formats hold one board per file, so:

* ``-k 1`` (the default) writes exactly ``--out FILE``;
* ``-k K`` with K > 1, or ``--all``, writes numbered files ``STEM_0001.EXT``,
  ``STEM_0002.EXT``, ... next to ``FILE`` (``sol.txt`` -> ``sol_0001.txt``), streamed as
  solutions are found, so ``--all`` on a puzzle with millions of solutions never holds
  them in memory;
* without ``--out`` (or with ``--out -``) the boards go to standard output, separated by
  a blank line.

Every file is in ``--board-format`` (default: from the extension, else ``edgematch``) and
is read back by ``edgematch verify PUZZLE FILE``.  Exit status 0 when at least one
solution was written, 1 when none was found.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import InputError
from ..formats import format_board
from ..formats.registry import BOARD_FORMATS, format_for_extension
from .common import HelpFormatter, add_puzzle_argument, positive_int, print_json, puzzle_from
from .count import add_search_options, exit_status, run_search, start_board, summary_line

EXAMPLES = """examples:
  edgematch solve owen1-6x6 --out solution.txt       the first solution
  edgematch verify owen1-6x6 solution.txt
  edgematch solve owen1-6x6 -k 5 --out sol.txt       sol_0001.txt .. sol_0005.txt
  edgematch solve owen1-6x6 --all --out all/sol.txt --json
"""


def register(sub) -> None:
    p = sub.add_parser("solve", help="find solutions and write them as board files", epilog=EXAMPLES,
                       formatter_class=HelpFormatter)
    add_puzzle_argument(p)
    many = p.add_mutually_exclusive_group()
    many.add_argument("-k", type=positive_int, default=1, metavar="K", help="number of solutions to find (default 1)")
    many.add_argument("--all", action="store_true", help="find every solution")
    p.add_argument("--out", metavar="FILE", help="board file to write (numbered files for several); default stdout")
    p.add_argument("--board-format", metavar="FMT", help="board format (default: from the extension, else edgematch)")
    add_search_options(p)
    p.set_defaults(func=run)


def numbered_path(path: Path, index: int) -> Path:
    """``sol.txt`` -> ``sol_0001.txt`` (at least four digits)."""
    return path.with_name(f"{path.stem}_{index:04d}{path.suffix}")


def run(args) -> int:
    puzzle = puzzle_from(args)
    if args.k == 0:
        raise InputError("-k must be at least 1")
    k = None if args.all else args.k
    to_stdout = args.out in (None, "-")
    fmt = args.board_format or ("edgematch" if to_stdout else format_for_extension(args.out, BOARD_FORMATS))
    if fmt not in BOARD_FORMATS:
        raise InputError(f"unknown board format '{fmt}' (known: {', '.join(sorted(BOARD_FORMATS))})")
    numbered = k is None or k > 1
    written: list[str] = []
    if not to_stdout:
        out = Path(args.out)
        if out.parent and not out.parent.exists():
            raise InputError("the folder of the output file does not exist", str(out.parent))

    def emit(board) -> None:
        text = format_board(board, fmt)
        if to_stdout:
            if written:
                sys.stdout.write("\n")
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            written.append("-")
            return
        path = numbered_path(Path(args.out), len(written) + 1) if numbered else Path(args.out)
        try:
            path.write_text(text)
        except OSError as exc:
            raise InputError(f"cannot write file ({exc.strerror})", str(path)) from None
        written.append(str(path))

    start = start_board(args, puzzle)
    options = {"start": start} if start is not None else {}
    result = run_search(args, lambda solver: solver.solve(puzzle, k=k, callback=emit, collect=False, **options))
    if args.json:
        data = {"puzzle": puzzle.name or args.puzzle, "files": written if not to_stdout else []}
        data.update(result.to_dict())
        print_json(data)
    elif not to_stdout:
        found = len(written)
        print(f"{found} solution{'s' if found != 1 else ''} written"
              + (f": {written[0]}" + (f" .. {written[-1]}" if found > 1 else "") if found else ""))
        print(summary_line(result))
    else:
        print(summary_line(result), file=sys.stderr)
    return exit_status(result, 0 if written else 1)
