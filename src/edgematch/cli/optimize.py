"""``edgematch optimize``: maximise the score with tabu search over the assignment
neighbourhood (Schaus & Deville 2008), as a durable run recorded in the run database."""

from __future__ import annotations

import sys
import time
from dataclasses import fields
from pathlib import Path

from ..errors import InputError
from ..formats import BOARD_FORMATS, format_board
from ..formats.registry import format_for_extension
from .common import HelpFormatter, add_puzzle_argument, print_json, puzzle_from, write_output

EXAMPLES = """examples:
  edgematch optimize e2 --minutes 60 --seed 1 --out best.txt
  edgematch optimize e2 --minutes 10 --start cp --relax 30 --json
  edgematch optimize e2-clues --seconds 90 --selection checkerboard --set-size 32
  edgematch optimize --resume 12                   continue run 12 (after Ctrl-C, a crash, kill -9)
  edgematch runs                                   every recorded run
"""

STARTS = ("random", "cp", "backtrack")


def register(sub) -> None:
    p = sub.add_parser("optimize", help="maximise the score (tabu search, very large neighbourhood), durable runs",
                       epilog=EXAMPLES, formatter_class=HelpFormatter)
    add_puzzle_argument(p, optional=True)
    time_ = p.add_argument_group("end conditions (the first reached ends the run)")
    time_.add_argument("--minutes", type=float, metavar="M", help="run time in minutes")
    time_.add_argument("--seconds", type=float, metavar="S", help="run time in seconds (added to --minutes)")
    time_.add_argument("--moves", type=int, metavar="N", help="stop after N moves")
    time_.add_argument("--target", type=int, metavar="SCORE", help="stop once the best score reaches SCORE")
    start = p.add_argument_group("start")
    start.add_argument("--start", choices=STARTS, default="cp",
                       help="cp (default): exact search of the puzzle with --relax squares' joins relaxed, its "
                            "deepest board completed at random; random: a random board; backtrack: the "
                            "backtracker's best-score search")
    start.add_argument("--start-board", metavar="BOARD", help="start from this board (file, URL or record/NAME)")
    start.add_argument("--relax", type=int, default=None, metavar="K",
                       help="cp start: number of non-adjacent squares whose joins are relaxed (default 0)")
    start.add_argument("--start-seconds", type=float, default=None, metavar="S",
                       help="time limit of the cp/backtrack start, part of the run time (default: 10%% of the "
                            "run time, at most 30 s)")
    start.add_argument("--schedule", metavar="SPEC", help="backtrack start: invalid joins allowed by depth")
    search = p.add_argument_group("search parameters (defaults: see docs/optimize.md)")
    search.add_argument("--seed", type=int, help="random seed (default: fresh entropy, recorded in the run)")
    search.add_argument("--set-size", type=int, metavar="K", help="holes per move (|S|)")
    search.add_argument("--set-size-max", type=int, metavar="K", help="draw |S| in set-size..set-size-max")
    search.add_argument("--selection", choices=("violated", "random", "checkerboard"), help="how holes are chosen")
    search.add_argument("--restart-after", type=int, metavar="MOVES",
                        help="start a new segment from a fresh start (same kind as --start) after MOVES moves "
                             "without a new best in the segment (0: never)")
    search.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="any tabu parameter, e.g. plateau_length=2000, arc_tenure=5,20 or "
                             "assignment=scipy (repeatable)")
    out = p.add_argument_group("output and runs")
    out.add_argument("--out", metavar="FILE", help="write the best board (format by extension, default edgematch)")
    out.add_argument("--out-format", metavar="FMT", help=f"board format of --out ({', '.join(sorted(BOARD_FORMATS))})")
    out.add_argument("--json", action="store_true", help="print the outcome as JSON")
    out.add_argument("--db", metavar="PATH", help="run database (default: runs.sqlite in the user data directory)")
    out.add_argument("--resume", type=int, metavar="RUN", help="continue run RUN from its last checkpoint")
    out.add_argument("--checkpoint-every", type=float, default=30.0, metavar="S",
                     help="seconds between checkpoints (default 30)")
    out.add_argument("--quiet", action="store_true", help="no live display")
    p.set_defaults(func=run)


def time_limit_from(args) -> float | None:
    if args.minutes is None and args.seconds is None:
        return None
    total = (args.minutes or 0.0) * 60 + (args.seconds or 0.0)
    if total <= 0:
        raise InputError("the run time must be positive")
    return total


def params_from(args):
    # Imported here, not at module level: the tabu search pulls in SciPy and its compiled
    # kernels, which every other subcommand would otherwise pay for at start-up.
    from ..local.tabu import TabuParams

    values: dict = {}
    known = {f.name: f for f in fields(TabuParams)}
    for item in args.param:
        name, eq, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or name not in known:
            raise InputError(f"--param {item}: expected NAME=VALUE with NAME one of {', '.join(known)}")
        values[name] = _parse_value(name, text.strip())
    for name in ("set_size", "set_size_max", "selection", "restart_after"):
        if getattr(args, name) is not None:
            values[name] = getattr(args, name)
    if "set_size" in values and "set_size_max" not in values:
        values["set_size_max"] = None
    return TabuParams(**values)


def restart_seconds(args, time_limit: float | None) -> float:
    """Time for the start of each later segment: a third of the first start's time."""
    first = args.start_seconds if args.start_seconds is not None else (
        30.0 if time_limit is None else min(30.0, max(1.0, 0.1 * time_limit)))
    return max(1.0, first / 3)


def _parse_value(name: str, text: str):
    try:
        if name in ("position_tenure", "arc_tenure"):
            low, _, high = text.partition(",")
            return (int(low), int(high or low))
        if name in ("selection", "diversify_rotation", "tie_break", "assignment"):
            return text
        if name == "set_size_max" and text.lower() in ("none", ""):
            return None
        return int(text)
    except ValueError:
        raise InputError(f"--param {name}={text}: not a valid value") from None


def run(args) -> int:
    from ..runs import resume_run, start_run
    from .live_display import LiveDisplay

    time_limit = time_limit_from(args)
    if args.checkpoint_every <= 0:
        raise InputError("--checkpoint-every must be positive")
    if args.moves is not None and args.moves < 1:
        raise InputError("--moves must be at least 1")
    if args.target is not None and args.target < 0:
        raise InputError("--target must not be negative")
    if args.out is not None:
        fmt = args.out_format or format_for_extension(Path(args.out), BOARD_FORMATS)
        if fmt not in BOARD_FORMATS:
            raise InputError(f"unknown board format '{fmt}' (known: {', '.join(sorted(BOARD_FORMATS))})")
    interactive = not args.quiet and sys.stderr.isatty()
    display = LiveDisplay() if interactive else None

    if args.resume is not None:
        if args.puzzle is not None or args.start_board or args.seed is not None:
            raise InputError("--resume continues a recorded run: give no puzzle, start or seed")
        with display or _nothing():
            outcome = resume_run(args.resume, db=args.db, time_limit=time_limit, checkpoint_every=args.checkpoint_every,
                                 display=display)
        puzzle = outcome.best_board.puzzle
        start = None
    else:
        if args.puzzle is None:
            raise InputError("give a puzzle (or --resume RUN)")
        if time_limit is None and args.moves is None:
            raise InputError("give a run time (--minutes/--seconds) or --moves")
        puzzle = puzzle_from(args)
        params = params_from(args)
        from ..local.startup import build_start

        seed = args.seed
        if seed is None:
            import numpy as np

            entropy = np.random.SeedSequence().entropy
            assert isinstance(entropy, int)  # drawn from the OS when none is given
            seed = int(entropy % (2**63))
        start_board, start_info = None, {"kind": args.start}
        started = time.perf_counter()
        if args.start_board:
            from ..loading import load_board

            start_board = load_board(puzzle, args.start_board)
            start_info = {"kind": "board", "board": args.start_board}
        elif args.start != "random":
            start_seconds = args.start_seconds
            if start_seconds is None:
                start_seconds = 30.0 if time_limit is None else min(30.0, max(1.0, 0.1 * time_limit))
            if display is not None:
                display.note(f"building the {args.start} start ({start_seconds:g} s) ...")
                display.console.print(display.notes[-1], style="dim")
            start_board, start_info = build_start(puzzle, args.start, seed=seed, relax=args.relax,
                                                  time_limit=start_seconds, schedule=args.schedule)
        start_info["seconds"] = round(time.perf_counter() - started, 3)
        if time_limit is not None:  # the start is part of the run time
            time_limit = max(time_limit - start_info["seconds"], 0.001)
        if display is not None:
            display.note(f"run on {puzzle.name or 'puzzle'}: seed {seed}, start {start_info['kind']}")
        with display or _nothing():
            restart_spec = {"kind": "random" if args.start_board else args.start, "relax": args.relax,
                            "time_limit": restart_seconds(args, time_limit), "schedule": args.schedule}
            outcome = start_run(puzzle, params=params, seed=seed, start_board=start_board,
                                start=start_info["kind"], start_info=start_info, time_limit=time_limit,
                                max_moves=args.moves, target=args.target, db=args.db,
                                checkpoint_every=args.checkpoint_every, display=display, restart_spec=restart_spec)
        start = start_info

    board = outcome.best_board
    score = board.score()  # the model re-scores what we report
    start_seconds = float((start or outcome.start_info or {}).get("seconds", 0.0) or 0.0)
    from ..runs.session import viewer_url

    url = viewer_url(board)
    if args.out is not None:
        write_output(format_board(board, fmt), args.out)
    report = {
        "run_id": outcome.run_id,
        "puzzle": puzzle.name,
        "best_score": score,
        "max_score": puzzle.max_score,
        "seconds": round(outcome.seconds + start_seconds, 3),
        "search_seconds": round(outcome.seconds, 3),
        "moves": outcome.result.moves,
        "moves_per_second": round(outcome.result.moves / outcome.seconds, 1) if outcome.seconds else 0.0,
        "stopped_by": outcome.result.stopped_by,
        "status": outcome.status,
        "seed": outcome.result.statistics.get("seed"),
        "start": start,
        "url": url,
        "out": args.out,
    }
    if args.json:
        print_json(report)
        return 0
    print(f"run {outcome.run_id}: best score {score} / {puzzle.max_score} after {outcome.seconds + start_seconds:.1f} s, "
          f"{outcome.result.moves} moves ({outcome.status}, stopped by {outcome.result.stopped_by})")
    if args.out is not None:
        print(f"wrote {args.out}")
    if url:
        print(url)
    return 0


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
