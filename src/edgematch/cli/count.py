"""``edgematch count``: the exact number of solutions of a puzzle.

Also home of the options every search command shares (solver, order, limits, progress),
used by ``solve`` and ``search`` too.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time

from ..engines import SOLVERS, make_solver
from ..engines.base import NOTHING_SEARCHED, StopFlag, StopReason, stop_on_signals
from ..engines.result import SearchResult
from ..errors import InputError
from ..model.tiles import rotation_convention
from .common import (
    HelpFormatter,
    add_order_arguments,
    add_puzzle_argument,
    board_from,
    node_count,
    print_json,
    puzzle_from,
)
from .parallel import add_parallel_options, check_puzzle_or_resume, resumed_puzzle
from .parallel import resume as resume_run
from .parallel import run as run_split
from .progress import ProgressLine, human

EXAMPLES = """examples:
  edgematch count owen1-6x6                       260 solutions (65 up to rotation)
  edgematch count owen1-6x6 --symmetry --json
  edgematch count benoist/E_9_13 --order spiral-in --time-limit 60
  edgematch count my.txt --order my_order.txt     an order file lists square names (A1 B1 ...)
  edgematch count owen1-6x6 --rotations owen6.rot  the solutions with that rotation set
                                                  (edgematch rotations owen1-6x6 --out owen6.rot)

JSON keys: solutions, nodes, nodes_per_depth, seconds, nodes_per_second, complete
(false when a limit or Ctrl-C stopped the search), stopped_by, deepest, rotations
("distinct", or "each" with --each-rotation), statistics.
Ctrl-C (or SIGTERM) stops the search after its current slice, prints the statistics so far
and exits with status 130 (143 after SIGTERM); a second Ctrl-C interrupts at once.
"""


#: Defaults of the ColorPair options that take a value (their flags, and the test that
#: refuses them on other engines, read this one table).
COLORPAIR_DEFAULTS = {
    "heuristic": "min-expected-gap",
    "shaving": None,
    "shaving_passes": "fixpoint",
    "value_order": "tile",
}


def add_search_options(p: argparse.ArgumentParser, best: bool = False) -> None:
    """Options shared by count, solve and search (``best``: the best-score search, which
    only the backtracking engine does, so it has neither the other engines nor their switches)."""
    p.add_argument(
        "--solver",
        default="backtrack",
        choices=["backtrack"] if best else list(SOLVERS),
        help="search engine (default: backtrack)"
        if not best
        else "search engine: only backtrack searches for the best score",
    )
    if best:  # the search fills in its order by board size (engines.backtrack.recipe)
        add_order_arguments(
            p, default=None, shown="blackwood on e2, e2path on other boards of 100 squares or more, else rowscan"
        )
    else:
        add_order_arguments(p)
    if best:
        p.add_argument(
            "--kernel",
            choices=("auto", "lists", "generated"),
            default="auto",
            help="best-score kernel of the backtracking engine: lists, or generated (the list kernel "
            "written out for this puzzle, order and schedule: compiled on first use, about 4 minutes "
            "on e2, then cached); the same tree every way (default: auto, the generated kernel once "
            "compiled, else the list kernel, and a search that runs 10 minutes or more compiles it "
            "beside itself and switches to it)",
        )
    if not best:
        p.add_argument(
            "--symmetry",
            action="store_true",
            help="fix the first corner tile in a corner: counts up to board rotation (exactly raw/4 on "
            "square boards, raw/2 on rectangular ones); puzzles without hints only",
        )
        p.add_argument(
            "--kernel",
            choices=("auto", "lists", "bits", "generated"),
            default="auto",
            help="exact kernel of the backtracking engine: bits (bitboards, classes of at most 64 "
            "tiles), lists, or generated (the list kernel written out for this puzzle and order: "
            "compiled on first use, about 90 s on a 16x16 board, then cached); the same tree and counts "
            "every way (default: auto, bits where they apply, else the list kernel until the generated "
            "one is compiled: a search that runs 10 minutes or more compiles it beside itself)",
        )
    p.add_argument(
        "--start",
        metavar="BOARD",
        help="search only below this partial board (it must fill a prefix of the order; "
        "counts of the subtrees of a split add up to the full count)",
    )
    p.add_argument(
        "--board-format",
        metavar="FMT",
        help="format of the board files read and written (default: detect, or by extension; else edgematch)",
    )
    p.add_argument(
        "--each-rotation",
        action="store_true",
        help="count every rotation of a symmetric tile as its own placement, as Eternity2Puzzles.jl "
        "does (default: once per distinct look; see docs/conventions.md)",
    )
    p.add_argument(
        "--rotations",
        metavar="FILE",
        help="fix every tile's rotation (and, with parity, its square colour) to a rotation-set file "
        "(written by 'edgematch rotations --out'); backtracking engine only",
    )
    p.add_argument("--time-limit", type=float, metavar="S", help="stop after S seconds")
    p.add_argument("--node-limit", type=node_count, metavar="N", help="stop after N nodes (e.g. 2e9)")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    add_parallel_options(p)
    if not best:
        add_colorpair_options(p)


def add_colorpair_options(p: argparse.ArgumentParser) -> None:
    """Switches of the ColorPair engine (--solver colorpair), one per rule of the paper."""
    from ..engines.colorpair.tables import HEURISTICS, VALUE_ORDERS

    g = p.add_argument_group("colorpair engine (--solver colorpair; Benoist & Bourreau 2008)")
    g.add_argument(
        "--heuristic",
        choices=list(HEURISTICS),
        default=COLORPAIR_DEFAULTS["heuristic"],
        help="choice of the most urgent colour pair (default: min-expected-gap)",
    )
    g.add_argument(
        "--shaving",
        metavar="L",
        default=COLORPAIR_DEFAULTS["shaving"],
        help="probe squares with at most L values: '-' (none, default), a number, or 'all'",
    )
    g.add_argument(
        "--shaving-passes",
        choices=("fixpoint", "one"),
        default=COLORPAIR_DEFAULTS["shaving_passes"],
        help="repeat the probing pass while it places tiles (default) or one pass per node",
    )
    g.add_argument(
        "--value-order",
        choices=list(VALUE_ORDERS),
        default=COLORPAIR_DEFAULTS["value_order"],
        help="order of the values tried",
    )
    for flag, text in [
        ("preemption", "preemption tags (section 4.1)"),
        ("backjumping", "conflict-directed backjumping (section 5.2)"),
        ("opposite-pairs", "colour pairs of opposite sides (section 3.2)"),
        ("contradiction", "the |Offer| < |Demand| rule"),
        ("instantiation", "the |Offer| = |Demand| = 1 rule"),
        ("shared-edges", "the shared-edges bound (section 4.2)"),
        ("cycles", "border-colour cycle detection (section 4.2)"),
        ("patterns", "pattern priorities of section 5.1"),
    ]:
        g.add_argument(
            f"--no-{flag}", dest=f"cp_{flag.replace('-', '_')}", action="store_false", help=f"without {text}"
        )


def colorpair_options(args) -> dict:
    return dict(
        heuristic=args.heuristic,
        shaving=args.shaving,
        shaving_passes=args.shaving_passes,
        value_order=args.value_order,
        preemption=args.cp_preemption,
        backjumping=args.cp_backjumping,
        opposite_pairs=args.cp_opposite_pairs,
        contradiction=args.cp_contradiction,
        instantiation=args.cp_instantiation,
        shared_edges=args.cp_shared_edges,
        cycles=args.cp_cycles,
        patterns=args.cp_patterns,
    )


def colorpair_flags(args) -> list[tuple[str, bool]]:
    """(flag, given) for every ColorPair switch: given means set away from its default."""
    flags = [
        (f"--{name.replace('_', '-')}", getattr(args, name) != default) for name, default in COLORPAIR_DEFAULTS.items()
    ]
    flags += [
        (f"--no-{name[3:].replace('_', '-')}", not getattr(args, name)) for name in vars(args) if name.startswith("cp_")
    ]
    return flags


def solver_from(args, **extra):
    if args.solver == "colorpair":
        if (
            args.order != "rowscan"
            or args.corner
            or getattr(args, "symmetry", False)
            or getattr(args, "kernel", "auto") != "auto"
        ):
            raise InputError(
                "--order, --corner, --symmetry and --kernel belong to the backtracking engine; "
                "the colorpair engine chooses its own squares"
            )
        options = dict(time_limit=args.time_limit, node_limit=args.node_limit, **colorpair_options(args))
        options.update(extra)
        return make_solver(args.solver, **options)
    changed = [flag for flag, value in colorpair_flags(args) if value] if hasattr(args, "heuristic") else []
    if changed:
        raise InputError(
            f"{changed[0]} belongs to the colorpair engine (--solver colorpair), not --solver {args.solver}"
        )
    options = dict(order=args.order, corner=args.corner, time_limit=args.time_limit, node_limit=args.node_limit)
    if getattr(args, "symmetry", False):
        options["symmetry"] = True
    if getattr(args, "kernel", "auto") != "auto":
        if args.solver != "backtrack":
            raise InputError(f"--kernel belongs to the backtracking engine, not --solver {args.solver}")
        options["kernel"] = args.kernel
    options.update(extra)
    return make_solver(args.solver, **options)


def run_search(args, call, report, **extra) -> int:
    """Run ``call(solver)`` with a progress line and print its result with ``report(result)``,
    which returns the exit status.

    Ctrl-C or SIGTERM end the search after its current slice with the result so far; while
    nothing has been searched yet (the kernels still compiling) they end it at once, and if
    the compiler does not give control back within a second, the signal watcher reports
    the empty result itself and exits (``_exit``: nothing else is left to save).
    """
    stop = StopFlag()
    finishing = threading.Lock()
    started = time.perf_counter()

    def abandon() -> None:
        if not finishing.acquire(blocking=False):
            return  # the main thread is reporting already
        code = report(interrupted_result(args, stop, time.perf_counter() - started))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)

    stop.abandon = abandon
    try:
        # warm: building the solver imports and compiles kernels, and so may the first slice
        with stop_on_signals(stop), ProgressLine(enabled=not args.quiet) as progress, stop.warm():
            if getattr(args, "each_rotation", False):
                extra["each_rotation"] = True
            solver = solver_from(args, **extra)
            solver.progress = progress
            solver.stop = stop
            result = call(solver)
    except KeyboardInterrupt:
        if stop.signal is None:
            raise
        result = interrupted_result(args, stop, time.perf_counter() - started)
    if stop.signal is not None:
        result.statistics["signal"] = int(stop.signal)
    finishing.acquire()  # kept: a late watcher must not report a second time
    return report(result)


def interrupted_result(args, stop: StopFlag, seconds: float) -> SearchResult:
    """The result of a search a signal ended before it returned one of its own."""
    what = (
        NOTHING_SEARCHED
        if stop.warming or stop.interrupted_warming
        else "a second Ctrl-C interrupted at once: the statistics of the search were lost"
    )
    return SearchResult(
        solver=getattr(args, "solver", "backtrack"),
        complete=False,
        rotations=rotation_convention(bool(getattr(args, "each_rotation", False))),
        stopped_by=StopReason.INTERRUPTED,
        seconds=seconds,
        statistics={"signal": int(stop.signal or signal.SIGINT), "interrupted": what},
    )


def summary_line(result: SearchResult) -> str:
    state = "complete" if result.complete else f"incomplete: stopped by {result.stopped_by}"
    return (
        f"{result.nodes:,} nodes in {result.seconds:.2f} s ({human(result.nodes_per_second)} nodes/s), "
        f"deepest {result.deepest}, {state}, rotations: {result.rotations}"
    )


def exit_status(result: SearchResult, normal: int = 0) -> int:
    """``normal``, or 130 after Ctrl-C (SIGINT) and 143 after SIGTERM, the shell's codes."""
    if result.stopped_by == StopReason.INTERRUPTED:
        print("edgematch: interrupted (statistics so far above)", file=sys.stderr)
        return 143 if result.statistics.get("signal") == signal.SIGTERM else 130
    return normal


def register(sub) -> None:
    p = sub.add_parser("count", help="count every solution of a puzzle", epilog=EXAMPLES, formatter_class=HelpFormatter)
    add_puzzle_argument(p, optional=True)
    add_search_options(p)
    p.set_defaults(func=run)


def rotation_options(args, puzzle) -> dict:
    """``{"rotations": RotationSet}`` for ``--rotations FILE`` (read for ``puzzle``), else
    nothing; one-line errors where it cannot apply."""
    path = getattr(args, "rotations", None)
    if path is None:
        return {}
    if args.solver != "backtrack":
        raise InputError(
            f"--rotations belongs to the backtracking engine (--solver backtrack), not --solver {args.solver}"
        )
    if args.resume is not None:
        raise InputError("--resume takes the rotation set from the run store: leave out --rotations")
    if getattr(args, "symmetry", False):
        raise InputError("--rotations cannot be combined with --symmetry (turning the board changes every rotation)")
    if getattr(args, "each_rotation", False):
        raise InputError("--rotations fixes one rotation per tile: leave out --each-rotation")
    from ..formats.rotation_file import read_rotation_set

    return {"rotations": read_rotation_set(path, puzzle)}


def start_board(args, puzzle):
    """The ``--start`` board, or None."""
    if not getattr(args, "start", None):
        return None
    return board_from(args, puzzle, args.start)


def searched(args, mode: str, serial_call, *, k=None, callback=None):
    """``(call, puzzle)``: ``call(solver)`` (for :func:`run_search`) runs the search of
    ``mode`` serially (``serial_call(solver, puzzle, start)``), on many workers, or finishes
    run ``--resume``; ``puzzle`` is the puzzle searched."""
    check_puzzle_or_resume(args)
    if args.resume is not None:
        return (lambda solver: resume_run(args, mode, solver, callback=callback)), resumed_puzzle(args)
    puzzle = puzzle_from(args)
    start = start_board(args, puzzle)

    def call(solver):
        return run_split(
            args, mode, solver, puzzle, lambda: serial_call(solver, puzzle, start), start=start, k=k, callback=callback
        )

    return call, puzzle


def run(args) -> int:
    call, puzzle = searched(args, "count", lambda solver, puzzle, start: solver.count(puzzle, start=start))

    def report(result: SearchResult) -> int:
        if args.json:
            data = {"puzzle": puzzle.name or args.puzzle}
            data.update(result.to_dict())
            print_json(data)
        else:
            qualifier = "" if result.complete else "at least "
            sym = " up to board rotation" if getattr(args, "symmetry", False) else ""
            print(f"{qualifier}{result.solutions:,} solution{'s' if result.solutions != 1 else ''}{sym}")
            print(summary_line(result))
        resume_hint(args, "count", result)
        return exit_status(result)

    return run_search(args, call, report, **rotation_options(args, puzzle))


def resume_hint(args, command: str, result: SearchResult) -> None:
    """How to continue a recorded run that did not finish."""
    run_id = result.statistics.get("run_id")
    if run_id is not None and not result.complete:
        print(f"recorded as run {run_id}: edgematch {command} --resume {run_id}" + _db_flag(args), file=sys.stderr)


def _db_flag(args) -> str:
    return f" --db {args.db}" if getattr(args, "db", None) else ""
