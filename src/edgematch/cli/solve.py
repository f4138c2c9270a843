"""``edgematch solve``: find the first k solutions (or all) and write them as board files.

Board formats hold one board per file, so:

* ``-k 1`` (the default) writes exactly ``--out FILE``;
* ``-k K`` with K > 1, or ``--all``, writes numbered files ``STEM_0001.EXT``,
  ``STEM_0002.EXT``, ... next to ``FILE`` (``sol.txt`` -> ``sol_0001.txt``), streamed as
  solutions are found, so ``--all`` on a puzzle with millions of solutions never holds
  them in memory;
* ``--out DIR/`` (or an existing folder) writes files named after the puzzle inside it
  (``DIR/owen1-6x6.emb``, or ``DIR/owen1-6x6_0001.emb`` ... for several);
* without ``--out`` (or with ``--out -``) the boards go to standard output, separated by
  a blank line; with ``--json`` they go inside the JSON instead (``boards``), so that
  standard output stays one JSON document.

Every file is in ``--board-format`` (default: from the extension, else ``edgematch``) and
is read back by ``edgematch verify PUZZLE FILE``.  Exit status 0 when at least one
solution was written, 1 when none was found.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from ..errors import InputError
from ..formats import format_board
from ..formats.registry import BOARD_FORMATS, format_for_extension
from .common import HelpFormatter, add_puzzle_argument, positive_int, print_json
from .count import add_search_options, exit_status, resume_hint, rotation_options, run_search, searched, summary_line

EXAMPLES = """examples:
  edgematch solve owen1-6x6 --out solution.txt       the first solution
  edgematch verify owen1-6x6 solution.txt
  edgematch solve owen1-6x6 -k 5 --out sol.txt       sol_0001.txt .. sol_0005.txt
  edgematch solve owen1-6x6 --all --out all/sol.txt --json
  edgematch solve owen1-6x6 -k 3 --out boards/     boards/owen1-6x6_0001.emb .. _0003.emb

exit status: 0 when at least one solution was written; 1 when none was (the puzzle has
none, or a limit stopped the search first); 2 for bad input; 130 after Ctrl-C (143 after
SIGTERM), with the statistics so far.
"""


def register(sub) -> None:
    p = sub.add_parser(
        "solve", help="find solutions and write them as board files", epilog=EXAMPLES, formatter_class=HelpFormatter
    )
    add_puzzle_argument(p, optional=True)
    many = p.add_mutually_exclusive_group()
    many.add_argument("-k", type=positive_int, default=1, metavar="K", help="number of solutions to find (default 1)")
    many.add_argument("--all", action="store_true", help="find every solution")
    p.add_argument("--out", metavar="FILE", help="board file to write (numbered files for several); default stdout")
    add_search_options(p)
    p.set_defaults(func=run)


def numbered_path(path: Path, index: int) -> Path:
    """``sol.txt`` -> ``sol_0001.txt`` (at least four digits)."""
    return path.with_name(f"{path.stem}_{index:04d}{path.suffix}")


def names_folder(out: str) -> bool:
    """``--out DIR/`` or an existing folder: files named after the puzzle go inside it."""
    return out.endswith(("/", os.sep)) or Path(out).is_dir()


def output_paths(out: str, puzzle_name: str, fmt: str, numbered: bool):
    """``path(index)`` for the files of ``--out``: FILE itself, numbered files beside it, or
    files named after the puzzle inside a folder (``--out DIR/`` or an existing folder)."""
    target = Path(out)
    if names_folder(out):
        if not target.is_dir():
            raise InputError("the output folder does not exist", out)
        ext = BOARD_FORMATS[fmt].extensions[0] if BOARD_FORMATS[fmt].extensions else ".txt"
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", puzzle_name).strip("_.") or "solution"
        base = target / f"{stem}{ext}"
    else:
        if target.parent and not target.parent.exists():
            raise InputError("the folder of the output file does not exist", str(target.parent))
        base = target
    return (lambda index: numbered_path(base, index)) if numbered else (lambda index: base)


def run(args) -> int:
    if args.k == 0:
        raise InputError("-k must be at least 1")
    k = None if args.all else args.k
    to_stdout = args.out in (None, "-")
    as_dir = not to_stdout and names_folder(args.out)
    fmt = args.board_format or ("edgematch" if to_stdout or as_dir else format_for_extension(args.out, BOARD_FORMATS))
    if fmt not in BOARD_FORMATS:
        raise InputError(f"unknown board format '{fmt}' (known: {', '.join(sorted(BOARD_FORMATS))})")
    call, puzzle = searched(
        args,
        "solve",
        lambda solver, puzzle, start: solver.solve(puzzle, k=k, callback=emit, collect=False, start=start),
        k=k,
        callback=lambda board: emit(board),
    )
    numbered = k is None or k > 1
    written: list[str] = []
    in_json: list[str] = []  # boards on standard output with --json go inside the JSON
    path_of = None if to_stdout else output_paths(args.out, puzzle.name or str(args.puzzle), fmt, numbered)

    def emit(board) -> None:
        text = format_board(board, fmt)
        if to_stdout and args.json:
            in_json.append(text)
            written.append("-")
            return
        if to_stdout:
            if written:
                sys.stdout.write("\n")
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            written.append("-")
            return
        assert path_of is not None
        path = path_of(len(written) + 1)
        try:
            path.write_text(text)
        except OSError as exc:
            raise InputError(f"cannot write file ({exc.strerror})", str(path)) from None
        written.append(str(path))

    def report(result) -> int:
        if args.json:
            data = {"puzzle": puzzle.name or args.puzzle, "files": written if not to_stdout else []}
            data.update(result.to_dict())
            if to_stdout:
                data["boards"] = in_json
                data["board_format"] = fmt
            print_json(data)
        elif not to_stdout:
            found = len(written)
            print(
                f"{found} solution{'s' if found != 1 else ''} written"
                + (f": {written[0]}" + (f" .. {written[-1]}" if found > 1 else "") if found else "")
            )
            print(summary_line(result))
        else:
            print(summary_line(result), file=sys.stderr)
        resume_hint(args, "solve", result)
        return exit_status(result, 0 if written else 1)

    return run_search(args, call, report, **rotation_options(args, puzzle))
