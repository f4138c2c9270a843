"""``edgematch search``: the best score reachable under a schedule of invalid joins.

The schedule says how many invalid inner joins the board may hold, cumulatively, once a
given number of tiles is placed (see ``--schedule`` forms below).  The search reports
the best board it reached; ``--out`` writes it completed greedily (never lowering the
score; ``--no-fill`` writes it as reached, with empty squares).
"""

from __future__ import annotations

import sys

from ..engines.kept_boards import KEEP_BOARDS
from ..errors import InputError
from ..formats import format_board
from ..formats.registry import BOARD_FORMATS, format_for_extension
from .common import HelpFormatter, add_puzzle_argument, node_budget, positive_int, print_json, write_output
from .count import add_search_options, exit_status, resume_hint, rotation_options, run_search, searched, summary_line

EXAMPLES = """examples:
  edgematch search e2 --schedule breaks:201,206,211,216,221,225,229,233,237,239 --time-limit 60
  edgematch search e2 --order e2path --schedule julia:470 --seed 1 --restart-nodes 2e9 --out best.txt
  edgematch search owen1-8x8 --schedule 3 --target 110 --json
  edgematch search e2 --order e2path --schedule julia:470 --priority-colours auto --priority-schedule julia:470
  edgematch search e2 --order blackwood --schedule blackwood --priority-colours 20,5,7 --priority-schedule blackwood --priority-first

schedule forms (tiles = tiles on the board, hints included):
  N                    N invalid joins allowed at any point
  D:E,D:E,...          from D tiles on, E invalid joins in total
  breaks:B1,B2,...     Blackwood's break indexes: from B_k tiles on, k invalid joins
  julia:TARGET         the Julia package's formula for a target score
  list:E1,E2,...       one value per number of tiles (1, 2, ...); the last one extends
  FILE                 a file with any of these (one item per line allowed)
"""


def fill_in_recipe(args, puzzle) -> None:
    """The options left out, as the library's recipe fills them in
    (:func:`~edgematch.engines.backtrack.recipe.default_search_options`)."""
    from ..engines.backtrack.recipe import RECIPE_OPTIONS, default_search_options

    filled = default_search_options(puzzle, {key: getattr(args, key) for key in RECIPE_OPTIONS})
    for key, value in filled.items():
        setattr(args, key, value)


def score_histogram(counts: dict) -> str:
    """``460: 12, 461: 3`` from ``{"460": 12, "461": 3}``, highest scores last."""
    return ", ".join(f"{score}: {counts[score]:,}" for score in sorted(counts, key=int))


def time_to_score_line(statistics: dict, last: int = 5) -> str | None:
    """``best score first reached at: 452 (2.1 s), 456 (9.8 s), ...``: the last few new best
    scores of the search and when it reached them (None where none were noted)."""
    reached = statistics.get("best_score_at") or {}
    if not reached:
        return None
    shown = sorted(reached, key=int)[-last:]
    return "best score first reached at: " + ", ".join(f"{score} ({reached[score]:g} s)" for score in shown)


def kept_boards_line(result, threshold) -> str | None:
    """How many boards the search saved, how many it holds, and where the rest are."""
    from ..parallel.job import TASK_BOARDS

    if not result.boards:
        return None
    kept = len(result.boards)
    saved = int(result.statistics.get("boards_saved", kept))
    if saved <= kept:
        return f"{kept:,} complete boards kept (--save-boards {threshold}); best:"
    run_id = result.statistics.get("run_id")
    stored = int(result.statistics.get("boards_stored", 0))
    if run_id is None:
        rest = "the others were counted, not kept (the run was not recorded)"
    elif stored >= saved:
        rest = f"every one is in run {run_id} (edgematch runs --run {run_id} --json)"
    else:  # a task returns its best TASK_BOARDS
        rest = (
            f"run {run_id} stores the best {stored:,} (at most {TASK_BOARDS:,} a task: raise --save-boards to keep "
            f"all; edgematch runs --run {run_id} --json)"
        )
    return f"{saved:,} complete boards saved (--save-boards {threshold}), the best {kept:,} kept (--keep-boards); {rest}; best:"


def saved_board(board) -> dict:
    """A kept board as plain data: its score (re-scored here), tiles as users number them,
    and its viewer URL (None where the puzzle's colours have no viewer letters)."""
    from ..engines.result import board_data
    from ..runs.session import viewer_url

    data = board_data(board)
    data["url"] = viewer_url(board)
    return data


def _turns(text: str) -> str | list[int]:
    from ..engines.backtrack.solver import plain_turns

    try:
        return plain_turns(text)
    except InputError:
        raise InputError(f"--board-turns: '{text}' must be 0, 1, 2, 3, a list of them (0,2) or 'all'") from None


def _colours(given: str | list) -> list:
    """``--priority-colours`` as given (text) or as the recipe filled it in (a list)."""
    if isinstance(given, list):
        return list(given)
    if given.strip().lower() == "auto":
        return ["auto"]
    try:
        return [int(c) for c in given.replace(",", " ").split()]
    except ValueError:
        raise InputError(f"--priority-colours: '{given}' is not a list of colour numbers") from None


def register(sub) -> None:
    p = sub.add_parser(
        "search",
        help="best score under a schedule of allowed invalid joins",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    add_puzzle_argument(p, optional=True)
    p.add_argument(
        "--schedule",
        metavar="SPEC",
        help="invalid joins allowed per number of tiles (default: blackwood on e2, with its order and colour "
        "bound; julia:MAX-10 on other boards of 100 squares or more, julia:MAX-15 with restarts every 1e9 nodes "
        "where they have more hints than a starter; else none)",
    )
    p.add_argument(
        "--target", type=positive_int, metavar="SCORE", help="stop when this score is reached (default: maximum)"
    )
    p.add_argument(
        "--allow-frame-errors",
        action="store_true",
        help="let joins between two border squares be invalid too (default: the frame always matches)",
    )
    p.add_argument(
        "--exact-squares",
        metavar="SQ,SQ,...",
        help="squares where no invalid join may be placed before the endgame's squares, e.g. B16,C16,D16,E16 "
        "(default: those four on e2, where Blackwood's solver allows none; else none)",
    )
    p.add_argument(
        "--max-tile-errors",
        type=int,
        default=1,
        choices=(1, 2, 3, 4),
        help="invalid joins one placed tile may create (default 1)",
    )
    p.add_argument("--seed", type=positive_int, help="shuffle the candidates with this seed")
    p.add_argument(
        "--restart-nodes", type=node_budget, metavar="N", help="restart with the next seed after N nodes (e.g. 2e9)"
    )
    p.add_argument(
        "--board-turns",
        metavar="T",
        help="search with the board turned T quarter turns clockwise (0-3), or 'all': restart k (or worker task k) "
        "searches turn k mod 4 (default 0); boards are reported unturned",
    )
    p.add_argument(
        "--priority-colours",
        metavar="C,C,...",
        help="colours to place early (heuristic), or 'auto' for the Julia package's choice",
    )
    p.add_argument(
        "--priority-schedule",
        metavar="SPEC",
        help="minimum number of sides of the priority colours placed per number of tiles "
        "(schedule forms, julia:TARGET, or blackwood)",
    )
    p.add_argument(
        "--priority-first",
        action="store_true",
        help="try the tiles with more sides of the priority colours first; the first one below the bound "
        "ends its list (Blackwood's lists)",
    )
    p.add_argument(
        "--save-boards",
        type=positive_int,
        metavar="SCORE",
        help="keep every complete board scoring at least SCORE (in the run store with its viewer URL; "
        "--json lists them; default: MAX-16 on e2, MAX-20 on other boards of 100 squares or more)",
    )
    p.add_argument(
        "--keep-boards",
        type=positive_int,
        default=KEEP_BOARDS,
        metavar="N",
        help="of the saved boards, hold the best N in memory and in the result (a recorded run stores every "
        f"one; default: {KEEP_BOARDS})",
    )
    p.add_argument(
        "--endgame",
        type=int,
        metavar="K",
        help="search the last K squares by branch and bound (any join may fail there; only boards better "
        "than the best so far, or at least --save-boards, are completed), and complete every new best "
        "board with at most K empty squares by CP-SAT; 0: off (default: 12 on e2, 16 on other boards of 100 squares "
        "or more, else 0)",
    )
    p.add_argument(
        "--polish",
        type=float,
        metavar="S",
        help="then improve each new best board for S seconds of tabu search (needs --endgame; default: 1 where "
        "the endgame is on by default, else 0)",
    )
    p.add_argument(
        "--good-group",
        type=int,
        default=0,
        metavar="N",
        help="keep N tiles, chosen per seed to share many colours, for the last N squares (Verhaard's good "
        "group: every candidate list tries them last); 0: off (default)",
    )
    p.add_argument("--out", metavar="FILE", help="write the best board here")
    p.add_argument("--no-fill", action="store_true", help="write the best board as reached (may have empty squares)")
    add_search_options(p, best=True)
    p.set_defaults(func=run)


def run(args) -> int:
    call, puzzle = searched(
        args, "search", lambda solver, puzzle, start: solver.best(puzzle, start=start, callback=improved)
    )
    fill_in_recipe(args, puzzle)
    if args.exact_squares is not None:
        from ..model.squares import parse_squares

        try:
            parse_squares(args.exact_squares, puzzle.width, puzzle.height)
        except InputError as err:
            raise InputError(f"--exact-squares: {err.message}") from None
    extra = dict(
        schedule=args.schedule,
        target=args.target,
        frame_exact=not args.allow_frame_errors,
        exact_squares=args.exact_squares,
        seed=args.seed,
        max_tile_errors=args.max_tile_errors,
    )
    if args.save_boards is not None:
        extra["save_boards"] = args.save_boards
    extra["keep_boards"] = args.keep_boards
    if args.good_group:
        extra["good_group"] = args.good_group
    if args.endgame or args.polish:
        extra["endgame"] = args.endgame
        extra["polish"] = args.polish
    if args.restart_nodes is not None:
        extra["restart_nodes"] = args.restart_nodes
    if args.board_turns is not None:
        extra["board_turns"] = _turns(args.board_turns)
    if args.priority_colours:
        extra["priority_colours"] = _colours(args.priority_colours)
        extra["priority_schedule"] = args.priority_schedule
        extra["priority_first"] = args.priority_first
    elif args.priority_schedule or args.priority_first:
        raise InputError(
            f"{'--priority-schedule' if args.priority_schedule else '--priority-first'} needs --priority-colours"
        )
    fmt = None
    if args.out:
        fmt = args.board_format or ("edgematch" if args.out == "-" else format_for_extension(args.out, BOARD_FORMATS))
        if fmt not in BOARD_FORMATS:
            raise InputError(f"unknown board format '{fmt}' (known: {', '.join(sorted(BOARD_FORMATS))})")

    def improved(board, score) -> None:
        if not args.quiet and not args.json and sys.stderr.isatty():
            print(f"best score {score} ({board.n_placed} tiles placed)", file=sys.stderr)

    def report(result) -> int:
        board = result.best_board
        written = None
        if board is not None and not args.no_fill:
            from ..engines.backtrack.fill import fill_board

            board = fill_board(board)
            completed = [b for b in result.boards if b.is_complete]
            if completed:  # the endgame's completions and kept boards may beat the greedy fill
                board = max([board, *completed], key=lambda b: b.score())
        if args.out and board is not None:
            assert fmt is not None  # chosen above whenever --out is given
            write_output(format_board(board, fmt), args.out)
            written = args.out
        if args.json:
            data = {
                "puzzle": puzzle.name or args.puzzle,
                "max_score": puzzle.max_score,
                "written_score": board.score() if board is not None else None,
                "file": written,
            }
            data.update(result.to_dict())
            data["saved_boards"] = [saved_board(b) for b in result.boards]
            print_json(data)
        else:
            placed = result.best_board.n_placed if result.best_board is not None else 0
            print(f"best score {result.best_score} of {puzzle.max_score} ({placed} of {puzzle.n_squares} tiles placed)")
            if board is not None and not args.no_fill and board.score() != result.best_score:
                how = "greedily" if "endgame_best" not in result.statistics else "(endgame, greedy fill, kept boards)"
                print(f"completed {how}: score {board.score()}")
            if written and written != "-":
                print(f"board written to {written}")
            reached_line = time_to_score_line(result.statistics)
            if reached_line:
                print(reached_line)
            histogram = score_histogram(result.statistics.get("boards_by_score") or {})
            if histogram:
                print(f"complete boards by score: {histogram}")
            kept_line = kept_boards_line(result, args.save_boards)
            if kept_line:
                print(kept_line)
                print(saved_board(max(result.boards, key=lambda b: b.score()))["url"] or "(no viewer URL)")
            print(summary_line(result))
        resume_hint(args, "search", result)
        return exit_status(result)

    return run_search(args, call, report, **extra, **rotation_options(args, puzzle))
