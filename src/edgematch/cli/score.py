"""``edgematch score``: the score of a (partial) board and what keeps it from being a solution."""

from __future__ import annotations

from ..model import square_name
from .common import HelpFormatter, add_board_argument, add_puzzle_argument, board_from, print_json, puzzle_from

EXAMPLES = """examples:
  edgematch score e2 record/Joshua_Blackwood_470
  edgematch score e2 board.et2 --json
  edgematch score e2 'https://e2.bucas.name/#board_w=16&board_h=16&board_edges=...'
"""


def register(sub) -> None:
    p = sub.add_parser(
        "score", help="score a board (matched inner joins)", epilog=EXAMPLES, formatter_class=HelpFormatter
    )
    add_puzzle_argument(p)
    add_board_argument(p)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=run)


def board_report(board) -> dict:
    """Plain data shared by ``score`` and ``verify``."""
    verdict = board.verify()
    width = board.width
    return {
        "score": board.score(),
        "max_score": board.puzzle.max_score,
        "placed": board.n_placed,
        "squares": board.puzzle.n_squares,
        "complete": board.is_complete,
        "valid": verdict.valid,
        "mismatches": [
            {"a": square_name(m.join.a, width), "b": square_name(m.join.b, width), "colours": [m.colour_a, m.colour_b]}
            for m in board.mismatches()
        ],
        "reasons": verdict.reasons,
    }


def run(args) -> int:
    puzzle = puzzle_from(args)
    board = board_from(args, puzzle)
    report = board_report(board)
    if args.json:
        print_json(report)
        return 0
    print(f"score: {report['score']} / {report['max_score']}")
    print(f"placed: {report['placed']} / {report['squares']}" + (" (complete)" if report["complete"] else ""))
    print(f"mismatched joins: {len(report['mismatches'])}")
    print("valid solution" if report["valid"] else "not a solution (see 'edgematch verify' for every reason)")
    return 0
