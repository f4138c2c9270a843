"""``edgematch info``: facts about a puzzle, or the list of bundled puzzles."""

from __future__ import annotations

from ..data import catalogue, records
from ..errors import InputError
from .common import HelpFormatter, add_puzzle_argument, print_json, puzzle_from

EXAMPLES = """examples:
  edgematch info e2
  edgematch info clue2 --json
  edgematch info my_puzzle.txt --format julia
  edgematch info --list
"""


def register(sub) -> None:
    p = sub.add_parser("info", help="facts about a puzzle", epilog=EXAMPLES, formatter_class=HelpFormatter)
    add_puzzle_argument(p, optional=True)
    p.add_argument("--json", action="store_true", help="print the facts as JSON")
    p.add_argument("--list", action="store_true", help="list bundled puzzles and record boards")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.list:
        names = catalogue.bundled_names()
        if args.json:
            print_json({"puzzles": names, "records": [f"record/{n}" for n in records.record_names()]})
        else:
            print("Bundled puzzles:")
            for name in names:
                print(f"  {name:28s} {catalogue.describe(name)}")
            print("Record boards (use as BOARD):")
            for name in records.record_names():
                print(f"  record/{name}")
        return 0
    if not args.puzzle:
        raise InputError("give a puzzle (bundled name or file), or --list")
    puzzle = puzzle_from(args)
    facts = puzzle.summary()
    if args.json:
        print_json(facts)
        return 0
    print(
        f"{facts['name'] or args.puzzle}: {facts['width']} x {facts['height']} board, {facts['tiles']} tiles "
        f"({facts['corner_tiles']} corner, {facts['edge_tiles']} edge, {facts['inner_tiles']} inner)"
    )
    print(
        f"colours: {facts['colours']} ({len(facts['frame_colours'])} frame: {_ranges(facts['frame_colours'])}; "
        f"{len(facts['inner_colours'])} inner: {_ranges(facts['inner_colours'])})"
    )
    print(f"max score: {facts['max_score']} inner joins")
    if facts["hints"]:
        hints = ", ".join(f"{h['tile']}@{h['square']} r{h['rotation']}" for h in facts["hints"])
        print(f"hints: {hints}")
    else:
        print("hints: none")
    print(f"symmetric tiles: {', '.join(map(str, facts['symmetric_tiles'])) or 'none'}")
    if facts["duplicate_tiles"]:
        print(f"duplicate tiles: {'; '.join(' = '.join(map(str, g)) for g in facts['duplicate_tiles'])}")
    else:
        print("duplicate tiles: none")
    for warning in facts["warnings"]:
        print(f"warning: {warning}")
    return 0


def _ranges(values: list[int]) -> str:
    """'1-5, 7' style listing of sorted integers."""
    parts, start, prev = [], None, None
    for v in values:
        if start is None or prev is None:
            start = prev = v
        elif v == prev + 1:
            prev = v
        else:
            parts.append(f"{start}-{prev}" if prev != start else f"{start}")
            start = prev = v
    if start is not None:
        parts.append(f"{start}-{prev}" if prev != start else f"{start}")
    return ", ".join(parts) or "none"
