"""``edgematch verify``: exit 0 for a valid complete solution, 1 otherwise (with every reason)."""

from __future__ import annotations

from .common import HelpFormatter, add_board_argument, add_puzzle_argument, board_from, print_json, puzzle_from
from .score import board_report

EXAMPLES = """examples:
  edgematch verify owen1-6x6 solution.txt
  edgematch verify e2 record/Joshua_Blackwood_470     (exit 1: 10 mismatched joins)

exit status: 0 valid complete solution, 1 not a solution, 2 bad input
"""


def register(sub) -> None:
    p = sub.add_parser(
        "verify", help="check that a board is a complete valid solution", epilog=EXAMPLES, formatter_class=HelpFormatter
    )
    add_puzzle_argument(p)
    add_board_argument(p)
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    puzzle = puzzle_from(args)
    board = board_from(args, puzzle)
    report = board_report(board)
    if args.json:
        print_json({k: report[k] for k in ("valid", "complete", "score", "max_score", "reasons")})
    elif report["valid"]:
        print(f"valid solution ({report['score']}/{report['max_score']})")
    else:
        print(f"not a solution: {len(report['reasons'])} problem{'s' if len(report['reasons']) != 1 else ''}")
        for reason in report["reasons"]:
            print(f"  {reason}")
    return 0 if report["valid"] else 1
