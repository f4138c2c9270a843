"""``edgematch optimize``: maximise the score with tabu search over the assignment
neighbourhood (Schaus & Deville 2008), as a durable run recorded in the run database.

This module only parses the options and prints the outcome; the run itself (start phase,
defaults, seeds, restarts, the recorded search) is :mod:`edgematch.runs.optimize`, the very
code behind ``edgematch.optimize``.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from pathlib import Path

from ..engines.base import Limits
from ..errors import InputError
from ..formats import BOARD_FORMATS, format_board
from ..formats.registry import format_for_extension
from .common import (
    HelpFormatter,
    add_puzzle_argument,
    known_format,
    naming_option,
    print_json,
    puzzle_from,
    write_output,
)

EXAMPLES = """examples:
  edgematch optimize e2 --time-limit 3600 --seed 1 --out best.txt
  edgematch optimize e2 --time-limit 600 --start-method cp --relax 30 --json
  edgematch optimize e2-clues --time-limit 90 --selection checkerboard --set-size 32
  edgematch optimize e2 --start best.txt --time-limit 600    improve a saved board further
  edgematch optimize owen2-9x9 --moves 10000       a move limit bounds the start phase too
  edgematch optimize e2 --time-limit 3600 --jobs 8     a portfolio of 8 searches sharing the best board
  edgematch optimize --resume 12                   continue run 12 (after Ctrl-C, a crash, kill -9)
  edgematch runs                                   every recorded run

Ctrl-C (or SIGTERM), in the start phase or the search, ends the run early: it is recorded
(with its start board and a checkpoint, so that --resume continues it), the outcome so far
is printed (JSON with --json) and the exit status is 130 (143 after SIGTERM).
"""

STARTS = ("random", "cp", "backtrack")
OLD = "(old spelling, kept for one release)"
#: TabuParams fields that have an option of their own
PARAM_OPTIONS = ("set_size", "set_size_max", "selection", "restart_after")


def _seconds(text: str) -> float:
    """A time option: a finite number of seconds (checked by Limits, as for every engine)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    try:
        Limits(time=value)
    except InputError as err:
        raise argparse.ArgumentTypeError(err.message) from None
    return value


def _minutes(text: str) -> float:
    return _seconds(text)  # the same checks; the caller multiplies by 60


def register(sub) -> None:
    p = sub.add_parser(
        "optimize",
        help="maximise the score (tabu search, very large neighbourhood), durable runs",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    add_puzzle_argument(p, optional=True)
    time_ = p.add_argument_group("end conditions (the first reached ends the run)")
    time_.add_argument("--time-limit", type=_seconds, metavar="S", help="run time in seconds, start phase included")
    time_.add_argument("--seconds", dest="time_limit", type=_seconds, metavar="S", help=f"same as --time-limit {OLD}")
    time_.add_argument(
        "--minutes", type=_minutes, metavar="M", help=f"run time in minutes, added to --time-limit {OLD}"
    )
    time_.add_argument(
        "--moves",
        type=int,
        metavar="N",
        help="stop after N moves; without --start-seconds the start phase then stops after 20 nodes per move too",
    )
    time_.add_argument(
        "--target",
        type=int,
        metavar="SCORE",
        help="stop once the best score reaches SCORE (at most the puzzle's maximum score)",
    )
    start = p.add_argument_group("start")
    start.add_argument(
        "--start",
        metavar="BOARD",
        help="start from this board (file, URL or record/NAME; format: --board-format). "
        f"--start cp|random|backtrack (a name that is no file) means --start-method {OLD}",
    )
    start.add_argument("--start-board", metavar="BOARD", help="same as --start BOARD")
    start.add_argument(
        "--start-method",
        choices=STARTS,
        default=None,
        help="how to build the start board without --start: cp (default): exact search of the "
        "puzzle with --relax squares' joins relaxed, its deepest board completed at random; "
        "random: a random board; backtrack: the backtracker's best-score search",
    )
    start.add_argument(
        "--relax",
        type=int,
        default=None,
        metavar="K",
        help="cp start: number of non-adjacent squares whose joins are relaxed (default 0)",
    )
    start.add_argument(
        "--start-seconds",
        type=_seconds,
        default=None,
        metavar="S",
        help="time limit of the cp/backtrack start, part of the run time (default: 10%% of the "
        "run time, at least 1 s, at most 30 s)",
    )
    start.add_argument("--schedule", metavar="SPEC", help="backtrack start: invalid joins allowed by depth")
    search = p.add_argument_group("search parameters (defaults: see docs/optimize.md)")
    search.add_argument("--seed", type=int, help="random seed (default: fresh entropy, recorded in the run)")
    search.add_argument("--set-size", type=int, metavar="K", help="holes per move (|S|)")
    search.add_argument("--set-size-max", type=int, metavar="K", help="draw |S| in set-size..set-size-max")
    search.add_argument("--selection", choices=("violated", "random", "checkerboard"), help="how holes are chosen")
    search.add_argument(
        "--restart-after",
        type=int,
        metavar="MOVES",
        help="start a new segment from a fresh start (same kind as the first) after MOVES moves "
        "without a new best in the segment (0: never)",
    )
    search.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any tabu parameter, e.g. plateau_length=2000, arc_tenure=5,20 or assignment=scipy (repeatable)",
    )
    cores = p.add_argument_group("many cores (docs/parallel.md)")
    cores.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="run a portfolio of N tabu searches, one process each, with seeds drawn from --seed, "
        "sharing the best board; recorded as one run (default 1: one search, reproducible from its seed)",
    )
    cores.add_argument(
        "--share-after",
        type=int,
        metavar="MOVES",
        help="a portfolio member that has not improved for MOVES moves goes on from a better shared board "
        "(default 20000)",
    )
    out = p.add_argument_group("output and runs")
    out.add_argument("--out", metavar="FILE", help="write the best board (format by extension, default edgematch)")
    out.add_argument(
        "--board-format",
        metavar="FMT",
        help=f"board format of --out and of the --start board ({', '.join(sorted(BOARD_FORMATS))})",
    )
    out.add_argument("--out-format", metavar="FMT", help=f"board format of --out only {OLD}")
    out.add_argument("--json", action="store_true", help="print the outcome as JSON")
    out.add_argument(
        "--db",
        metavar="PATH",
        help="run database (default: runs.sqlite in the user data directory; its folder must exist)",
    )
    out.add_argument("--resume", type=int, metavar="RUN", help="continue run RUN from its last checkpoint")
    out.add_argument(
        "--checkpoint-every", type=_seconds, default=30.0, metavar="S", help="seconds between checkpoints (default 30)"
    )
    out.add_argument("--quiet", action="store_true", help="no live display")
    p.set_defaults(func=run)


def time_limit_from(args) -> float | None:
    """--time-limit (or --seconds) plus --minutes, None when neither is given."""
    if args.minutes is None and args.time_limit is None:
        return None
    return (args.minutes or 0.0) * 60 + (args.time_limit or 0.0)


def start_from(args) -> tuple[str | None, str | None]:
    """(start board, start method) from --start, --start-board and --start-method."""
    if args.start is not None and args.start_board is not None:
        raise InputError("--start and --start-board both name a start board: give one")
    board, method = args.start if args.start is not None else args.start_board, args.start_method
    if args.start is not None and args.start in STARTS and not Path(args.start).exists():
        if method is not None and method != args.start:  # the old spelling of --start-method
            raise InputError(f"--start {args.start} and --start-method {method} disagree: give --start-method only")
        board, method = None, args.start
    if board is not None and method is not None:
        raise InputError("--start-method builds a start board: give it or a start board (--start), not both")
    return board, method


def params_from(args) -> tuple[dict, dict]:
    """(tabu parameters given, the option that gave each) from --param and the options of their own."""
    from ..runs.optimize import parse_params

    names: dict[str, str] = {}
    values: dict = {}
    for item in args.param:
        try:
            name, value = next(iter(parse_params([item]).items()))
        except InputError as err:
            raise InputError(f"--param {err.message}") from None
        values[name] = value
        names[name] = f"--param {name}"
    for name in PARAM_OPTIONS:
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
            names[name] = "--" + name.replace("_", "-")
    return values, names


def out_format(args) -> str | None:
    if args.out is None:
        return None
    fmt = args.out_format or args.board_format or format_for_extension(Path(args.out), BOARD_FORMATS)
    option = "--out-format" if args.out_format else "--board-format"
    return known_format(fmt, BOARD_FORMATS, option, args.out)


OPTION_NAMES = {
    "time_limit": "--time-limit",
    "moves": "--moves",
    "target": "--target",
    "start": "--start",
    "start_method": "--start-method",
    "start_seconds": "--start-seconds",
    "relax": "--relax",
    "schedule": "--schedule",
    "seed": "--seed",
    "checkpoint_every": "--checkpoint-every",
    "db": "--db",
    "jobs": "--jobs",
    "share_after": "--share-after",
}


def run(args) -> int:
    from ..runs.optimize import plan_run, resume, run_plan

    time_limit = time_limit_from(args)
    fmt = out_format(args)
    if args.board_format is not None:
        known_format(args.board_format, BOARD_FORMATS, "--board-format")
    names = dict(OPTION_NAMES)
    if args.minutes is not None:
        names["time_limit"] = "--minutes" if args.time_limit is None else "--minutes/--time-limit"
    interactive = not args.quiet and sys.stderr.isatty()
    display = None
    if interactive:
        from .live_display import LiveDisplay

        display = LiveDisplay()

    if args.resume is not None:
        values, _ = params_from(args)
        given = [
            args.puzzle,
            args.start,
            args.start_board,
            args.start_method,
            args.seed,
            args.moves,
            args.target,
            args.relax,
            args.schedule,
            args.start_seconds,
            args.jobs,
            args.share_after,
        ] + list(values)
        if any(value is not None for value in given):
            raise InputError(
                "--resume continues a recorded run with its own puzzle, start, seed, limits and "
                "parameters: give no puzzle, start, seed, --moves, --target, --jobs or search parameter "
                "(--time-limit gives it more time)"
            )
        with display or contextlib.nullcontext():
            outcome = resume(
                args.resume,
                db=args.db,
                time_limit=time_limit,
                checkpoint_every=args.checkpoint_every,
                progress=display,
                names=names,
            )
    else:
        if args.puzzle is None:
            raise InputError("give a puzzle (or --resume RUN)")
        puzzle = puzzle_from(args)
        board, method = start_from(args)
        values, param_names = params_from(args)
        names.update(param_names)
        plan = naming_option(
            "--board-format",
            lambda: plan_run(
                puzzle,
                time_limit=time_limit,
                moves=args.moves,
                target=args.target,
                start=board,
                start_format=args.board_format,
                start_method=method,
                start_seconds=args.start_seconds,
                relax=args.relax,
                schedule=args.schedule,
                seed=args.seed,
                params=values,
                db=args.db,
                checkpoint_every=args.checkpoint_every,
                names=names,
                jobs=args.jobs,
                share_after=args.share_after,
            ),
        )
        with display or contextlib.nullcontext():
            outcome = run_plan(plan, progress=display, note=None if display is None else _noter(display))

    if args.out is not None:
        assert fmt is not None  # chosen above whenever --out is given
        write_output(format_board(outcome.best_board, fmt), args.out)
    if args.json:
        print_json(outcome.to_dict() | {"out": args.out})
    else:
        print(
            f"run {outcome.run_id}: best score {outcome.best_score} / {outcome.max_score} after "
            f"{outcome.seconds:.1f} s, {outcome.moves} moves ({outcome.status}, stopped by {outcome.stopped_by})"
        )
        if args.out is not None and args.out != "-":
            print(f"wrote {args.out}")
        if outcome.url:
            print(outcome.url)
    if outcome.stopped_by == "interrupted":
        print(
            f"edgematch: interrupted (run {outcome.run_id} saved: 'edgematch optimize --resume {outcome.run_id}' "
            "continues it)",
            file=sys.stderr,
        )
        return 143 if outcome.signal == signal.SIGTERM else 130
    return 0


def _noter(display):
    """Notes of the run (the start phase, the seed) shown in the live view at once."""

    def note(text: str) -> None:
        display.note(text)
        if display.live is not None:
            display.live.update(display._view(), refresh=True)

    return note
