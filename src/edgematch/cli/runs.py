"""``edgematch runs``: the optimisation runs recorded in the run database."""

from __future__ import annotations

from ..errors import InputError
from ..runs.subtrees import SPLIT_METHODS
from .common import HelpFormatter, positive_int, print_json, print_json_streaming

EXAMPLES = """examples:
  edgematch runs                        the latest runs (newest first)
  edgematch runs --json --db my.sqlite  every run of another database, as JSON
  edgematch runs --run 12               one run: parameters, best board, viewer URL
"""


def register(sub) -> None:
    p = sub.add_parser(
        "runs",
        help="list the recorded runs (optimize, and count/solve/search runs on many workers)",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    p.add_argument("--db", metavar="PATH", help="run database (default: runs.sqlite in the user data directory)")
    p.add_argument("--json", action="store_true", help="print the runs as JSON")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="only the N newest runs")
    p.add_argument("--run", type=int, metavar="RUN", help="details of one run")
    p.add_argument(
        "--boards",
        type=_board_count,
        metavar="N",
        help=f"with --run: list the N best saved boards of a search run, or 'all' (default: {SHOWN_BOARDS}, "
        "with --json all)",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from pathlib import Path

    from ..runs import RunStore, default_db_path

    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be at least 1")
    if args.boards is not None and args.run is None:
        raise InputError("--boards lists a run's saved boards: it needs --run RUN")
    path = args.db if args.db is not None else default_db_path()
    if args.db is not None and not Path(path).exists():
        raise InputError("no such run database", str(path))
    with RunStore(path) as store:
        if args.run is not None:
            record = store.run(args.run)
            if args.boards is not None and record.method != "search":
                article = "an" if record.method[:1] in "aeiou" else "a"
                raise InputError(
                    f"--boards lists a search run's saved boards: run {args.run} is {article} {record.method} run"
                )
            if record.method in SPLIT_METHODS:
                wanted = (None if args.json else SHOWN_BOARDS) if args.boards is None else args.boards
                return _show_split_run(store, record, args.json, None if wanted == "all" else wanted)
            data = record.to_dict()
            best = store.best(args.run)
            checkpoint = store.latest_checkpoint(args.run)
            data["best_board"] = best["board"] if best else None
            data["best_url"] = best["url"] if best else None
            data["bests"] = [{k: b[k] for k in ("seconds", "moves", "score")} for b in store.bests(args.run)]
            data["last_checkpoint"] = (
                None
                if checkpoint is None
                else {k: checkpoint[k] for k in ("created", "seconds", "moves", "best_score")}
            )
            if args.json:
                print_json(data)
                return 0
            for key in (
                "id",
                "puzzle_name",
                "status",
                "seed",
                "start",
                "created",
                "updated",
                "seconds",
                "moves",
                "best_score",
                "max_score",
                "budget_seconds",
            ):
                print(f"{key:>15}: {data[key]}")
            print(f"{'params':>15}: {data['params']}")
            if data["last_checkpoint"]:
                c = data["last_checkpoint"]
                print(f"{'checkpoint':>15}: {c['seconds']:.1f} s, {c['moves']} moves, best {c['best_score']}")
            if data["best_url"]:
                print(data["best_url"])
            return 0
        records = store.runs(args.limit)
        if args.json:
            print_json({"db": str(store.path), "runs": [_row(store, r) for r in records]})
            return 0
        if not records:
            print(f"no runs in {store.path}")
            return 0
        print(
            f"{'run':>5} {'puzzle':<14} {'status':<11} {'best':>9} {'seconds':>9} {'moves':>12} {'seed':>20}  created"
        )
        for r in records:
            if r.method in SPLIT_METHODS:
                summary = split_summary(store, r)
                print(
                    f"{r.id:>5} {r.puzzle_name[:14]:<14} {r.state_label:<11} {r.method:>9} {r.seconds:>9.1f}  "
                    f"{_progress_text(summary)}  {r.created}"
                )
                if r.method == "search":
                    print(f"{'':>6}{_search_text(summary)}")
                continue
            best = f"{r.best_score}/{r.max_score}" if r.best_score is not None else "-"
            members = r.info.get("portfolio", {}).get("members")
            seed = f"{r.seed} x{members}" if members else str(r.seed)  # a portfolio: its seed, its size
            print(
                f"{r.id:>5} {r.puzzle_name[:14]:<14} {r.state_label:<11} {best:>9} {r.seconds:>9.1f} {r.moves:>12} "
                f"{seed:>20}  {r.created}"
            )
    return 0


def split_summary(store, record, totals=None) -> dict:
    """done / total subtrees, nodes, solutions (from the subtree rows, or their ``totals``
    when read already) and the estimated time left (from the run's last report) of a
    count, solve or search run."""
    from ..runs.subtrees import ledger_summary

    data = ledger_summary(store, record.id, totals)
    data["eta_seconds"] = None if record.state_label == "finished" else record.info.get("eta_seconds")
    return data


def _progress_text(s: dict) -> str:
    eta = s.get("eta_seconds")
    left = "" if eta is None else f", about {eta:,.0f} s left on {s.get('workers') or 'its'} workers"
    return (
        f"{s['subtrees_done']}/{s['subtrees_total']} subtrees, {s['nodes']:,} nodes, {s['solutions']:,} solutions{left}"
    )


def _search_text(summary: dict) -> str:
    """A search run's best score and complete boards per score (Verhaard's log), one line."""
    from .search import score_histogram

    best = summary.get("best_score")
    histogram = score_histogram(summary.get("boards_by_score") or {}) or "no complete board yet"
    return f"best {'-' if best is None else best}; complete boards per score: {histogram}"


def _show_search(data: dict) -> None:
    from .search import score_histogram, time_to_score_line

    best = data["best"]
    if best is not None:
        found = ""
        if "best_restart" in best:
            found = f" (restart {best['best_restart']}: seed {best['best_seed']}, board turn {best['best_turn']})"
        print(f"{'best':>15}: {best['score']}{found}")
        if best["url"]:
            print(f"{'':>15}  {best['url']}")
    reached = time_to_score_line(data)
    if reached is not None:
        print(f"{'':>15}  {reached}")
    counts = data["boards_by_score"]
    print(f"{'boards':>15}: {score_histogram(counts) or 'no complete board yet'} (complete boards per score)")
    saved = data["saved_board_count"]
    if saved:
        listed = data["saved_boards"]
        print(f"{'saved':>15}: {saved:,} boards; the best {len(listed):,}:")
        for board in listed:
            print(f"{board['score']:>15}: {board['url'] or '(no viewer URL)'}")


def _row(store, record, totals=None) -> dict:
    data = record.to_dict()
    if record.method in SPLIT_METHODS:
        data.update(split_summary(store, record, totals))
    return data


#: saved boards listed by ``edgematch runs --run N`` (the best ones; --json lists them all)
SHOWN_BOARDS = 10


def _board_count(text: str) -> int | str:
    """``--boards``: a number of boards, or ``all``."""
    return "all" if text.lower() == "all" else positive_int(text)


def search_summary(store, record, totals=None, boards: int | None = None) -> dict:
    """A search run's best board (re-scored, with its viewer URL and the restart that
    found it), its complete boards per score, how many boards it saved and the best
    ``boards`` of them (None: all), read one at a time as the caller iterates."""
    from ..engines.result import BEST_STATISTICS
    from ..formats.native import read_puzzle
    from ..parallel.job import board_of
    from ..runs.subtrees import SubtreeLedger
    from .search import saved_board

    ledger = SubtreeLedger(store, record.id)
    if totals is None:
        totals = ledger.totals()
    puzzle = read_puzzle(store.puzzle_text(record.id), record.puzzle_name)
    best = None if totals.best_board is None else saved_board(board_of(puzzle, totals.best_board))
    if best is not None:
        best.update({k: totals.statistics[k] for k in BEST_STATISTICS if k in totals.statistics})
    listed = (saved_board(board_of(puzzle, codes)) for _, _, codes in ledger.saved_boards(boards))
    return {
        "best": best,
        "boards_by_score": totals.statistics.get("boards_by_score") or {},
        # when the run (all its sessions) first reached each new best score and depth
        **(record.info.get("reached") or {}),
        "saved_board_count": ledger.saved_board_count(),
        "saved_boards": listed,
    }


def _show_split_run(store, record, as_json: bool, boards: int | None = SHOWN_BOARDS) -> int:
    from ..runs.subtrees import SubtreeLedger

    totals = SubtreeLedger(store, record.id).totals()  # read once: a long search run has many rows
    data = _row(store, record, totals)
    if record.method == "search":
        data.update(search_summary(store, record, totals, boards))
    if as_json:
        if "saved_boards" in data:
            print_json_streaming(data, "saved_boards")
        else:
            print_json(data)
        return 0
    if record.method == "search":
        data["saved_boards"] = list(data["saved_boards"])
    for key in ("id", "method", "puzzle_name", "status", "created", "updated", "seconds", "stopped_by"):
        print(f"{key:>15}: {data[key]}")
    print(f"{'engine':>15}: {record.params.get('solver')} {record.params.get('engine')}")
    print(f"{'progress':>15}: {_progress_text(data)}")
    if record.method == "search":
        _show_search(data)
    if record.state_label != "finished":
        print(f"continue with: edgematch {record.method} --resume {record.id} --db {store.path}")
    return 0
