"""``edgematch rotations``: find or count balanced rotation sets (the strategies page's
last idea), and write one for ``count --rotations`` / ``search --rotations``."""

from __future__ import annotations

import time

from ..errors import InputError
from .common import HelpFormatter, add_puzzle_argument, print_json, puzzle_from

EXAMPLES = """examples:
  edgematch rotations owen1-6x6 --out owen6.rot
                            a balanced rotation set (OR-Tools CP-SAT), written to a file
  edgematch count owen1-6x6 --rotations owen6.rot
                            the solutions whose rotations are that set's
  edgematch rotations owen1-4x4 --count --parity
                            how many balanced sets with checkerboard colours exist (exact)
  edgematch rotations e2 --estimate
                            the strategies page's figures: 7.45e149 rotation sets, about
                            5.53e109 of them balanced (its random-walk model)

A rotation set gives every tile one rotation (frame tiles then belong to one side of the
board); it is balanced when, for every colour, as many east sides as west sides and as
many north sides as south sides show it.  Every solution has exactly one rotation set and
it is balanced.  With --parity every tile is also given a square colour (black where row
+ col is even) and the balance holds between black and white tiles.
"""


def register(sub) -> None:
    p = sub.add_parser(
        "rotations",
        help="find or count balanced rotation sets (two-phase search, phase one)",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    add_puzzle_argument(p)
    p.add_argument("--parity", action="store_true", help="also give every tile a checkerboard square colour")
    p.add_argument("--count", action="store_true", help="count every balanced rotation set exactly (small puzzles)")
    p.add_argument(
        "--estimate",
        action="store_true",
        help="the number of rotation sets and the random-walk estimate of the balanced ones",
    )
    p.add_argument("--out", metavar="FILE", help="write the balanced rotation set found to FILE")
    p.add_argument("--seed", type=int, default=0, help="CP-SAT's random seed (default 0)")
    p.add_argument("--time-limit", type=float, metavar="SECONDS", help="give up finding a set after this long")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..balanced import count_balanced, count_rotation_sets, find_balanced, random_walk_estimate
    from ..formats.rotation_file import write_rotation_set

    if args.out and (args.count or args.estimate):
        raise InputError("--out writes a set that was found: leave out --count and --estimate")
    if args.time_limit is not None and args.time_limit <= 0:
        raise InputError(f"--time-limit must be a positive number of seconds, not {args.time_limit}")
    puzzle = puzzle_from(args)
    name = puzzle.name or args.puzzle
    figures: dict = {"puzzle": name, "parity": args.parity}
    if args.estimate:
        figures["rotation_sets"] = count_rotation_sets(puzzle, parity=args.parity)
        figures["estimated_balanced_sets"] = random_walk_estimate(puzzle, parity=args.parity)
    if args.count:
        started = time.perf_counter()
        figures["balanced_sets"] = count_balanced(puzzle, parity=args.parity)
        figures["count_seconds"] = round(time.perf_counter() - started, 3)
        figures.setdefault("rotation_sets", count_rotation_sets(puzzle, parity=args.parity))
    found = None
    if not (args.count or args.estimate):
        started = time.perf_counter()
        found = find_balanced(puzzle, parity=args.parity, seed=args.seed, time_limit=args.time_limit)
        figures["found"] = found is not None
        figures["find_seconds"] = round(time.perf_counter() - started, 3)
        if found is not None and args.out:
            write_rotation_set(found, args.out)
            figures["out"] = args.out
    if args.json:
        print_json(
            {
                k: (str(v) if isinstance(v, int) and not isinstance(v, bool) and v > 2**53 else v)
                for k, v in figures.items()
            }
        )
        return 0 if found is not None or args.count or args.estimate else 1
    kind = "balanced rotation sets" + (" with checkerboard colours" if args.parity else "")
    if "rotation_sets" in figures:
        print(f"{name}: {_big(figures['rotation_sets'])} rotation sets fit the board")
    if "estimated_balanced_sets" in figures:
        print(f"random-walk estimate of the {kind}: {_big(figures['estimated_balanced_sets'])}")
    if "balanced_sets" in figures:
        print(f"{kind}: {figures['balanced_sets']:,} (exact, {figures['count_seconds']:.2f} s)")
    if not (args.count or args.estimate):
        if found is None:
            print(
                f"{name}: no balanced rotation set{' with parity' if args.parity else ''} found"
                + (" within the time limit" if args.time_limit else " (none exists)")
            )
            return 1
        where = f", written to {args.out}" if args.out else ""
        print(
            f"{name}: a balanced rotation set{' with parity' if args.parity else ''} found in {figures['find_seconds']:.2f} s{where}"
        )
    return 0


def _big(x) -> str:
    if isinstance(x, int) and x < 10**7:
        return f"{x:,}"
    return f"{float(x):.3e}"
