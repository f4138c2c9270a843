"""``edgematch count``: the exact number of solutions of a puzzle.

Also home of the options every search command shares (solver, order, limits, progress),
used by ``solve`` and ``search`` too.
"""

from __future__ import annotations

import argparse
import inspect
import sys

from ..engines import SOLVERS, make_solver, solver_class
from ..engines.backtrack.orders import CORNERS, ORDER_NAMES
from ..engines.progress import ProgressLine, human
from ..engines.result import SearchResult
from .common import HelpFormatter, add_puzzle_argument, positive_int, print_json, puzzle_from

EXAMPLES = """examples:
  edgematch count owen1-6x6                       260 solutions (65 up to rotation)
  edgematch count owen1-6x6 --symmetry --json
  edgematch count benoist/E_9_13 --order spiral-in --time-limit 60
  edgematch count my.txt --order my_order.txt     an order file lists square names (A1 B1 ...)

JSON keys: solutions, nodes, nodes_per_depth, seconds, nodes_per_second, complete
(false when a limit or Ctrl-C stopped the search), stopped_by, deepest, statistics.
Ctrl-C prints the statistics so far and exits with status 130.
"""


def add_search_options(p: argparse.ArgumentParser, symmetry: bool = True) -> None:
    """Options shared by count, solve and search."""
    p.add_argument("--solver", default="backtrack", choices=list(SOLVERS), help="search engine (default: backtrack)")
    p.add_argument("--order", default="rowscan", metavar="ORDER",
                   help=f"scan order: {', '.join(ORDER_NAMES)}, or a file of square names (default: rowscan)")
    p.add_argument("--corner", choices=CORNERS, type=str.upper, help="corner a named order starts from (default TL; BL for e2path)")
    if symmetry:
        p.add_argument("--symmetry", action="store_true",
                       help="fix the first corner tile in a corner: counts up to board rotation (exactly raw/4 on "
                            "square boards, raw/2 on rectangular ones); puzzles without hints only")
    p.add_argument("--time-limit", type=float, metavar="S", help="stop after S seconds")
    p.add_argument("--node-limit", type=positive_int, metavar="N", help="stop after N nodes")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def solver_from(args, **extra):
    options = dict(order=args.order, corner=args.corner, time_limit=args.time_limit, node_limit=args.node_limit)
    if getattr(args, "symmetry", False):
        options["symmetry"] = True
    options.update(extra)
    return make_solver(args.solver, **options)


def run_search(args, call, **extra) -> SearchResult:
    """Run ``call(solver)`` with a progress line; Ctrl-C ends it with the result so far."""
    with ProgressLine(enabled=not args.quiet) as progress:
        if "progress" in inspect.signature(solver_class(args.solver)).parameters:
            extra["progress"] = progress
        solver = solver_from(args, **extra)
        return call(solver)


def summary_line(result: SearchResult) -> str:
    state = "complete" if result.complete else f"incomplete: stopped by {result.stopped_by}"
    return (f"{result.nodes:,} nodes in {result.seconds:.2f} s ({human(result.nodes_per_second)} nodes/s), "
            f"deepest {result.deepest}, {state}")


def exit_status(result: SearchResult, normal: int = 0) -> int:
    if result.stopped_by == "interrupted":
        print("edgematch: interrupted (statistics so far above)", file=sys.stderr)
        return 130
    return normal


def register(sub) -> None:
    p = sub.add_parser("count", help="count every solution of a puzzle", epilog=EXAMPLES, formatter_class=HelpFormatter)
    add_puzzle_argument(p)
    add_search_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    puzzle = puzzle_from(args)
    result = run_search(args, lambda solver: solver.count(puzzle))
    if args.json:
        data = {"puzzle": puzzle.name or args.puzzle}
        data.update(result.to_dict())
        print_json(data)
    else:
        qualifier = "" if result.complete else "at least "
        sym = " up to board rotation" if getattr(args, "symmetry", False) else ""
        print(f"{qualifier}{result.solutions:,} solution{'s' if result.solutions != 1 else ''}{sym}")
        print(summary_line(result))
    return exit_status(result)
