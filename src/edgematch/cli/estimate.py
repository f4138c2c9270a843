"""``edgematch estimate``: Brendan Owen's expected solutions and search-tree size."""

from __future__ import annotations

from ..errors import InputError
from ..estimator import HINT_MODELS, compare_orders, estimate
from ..model.squares import square_name
from .common import HelpFormatter, add_order_arguments, add_puzzle_argument, print_json, puzzle_from

EXAMPLES = """examples:
  edgematch estimate e2 --order rowscan --corner BL --hints pooled
                            the Julia package's figures: ~14,702 solutions, 1.365e47 nodes
  edgematch estimate clue1 --order rowscan --corner BL --hints pooled --each-rotation
                            the package's convention for symmetric tiles: 262,881,014,825
                            expected solutions (65,720,253,706 without --each-rotation)
  edgematch estimate e2 --compare rowscan colscan e2path diagonal frame spiral-in
  edgematch estimate e2 --corner BL --schedule breaks:192,192,192,192,192,192,192,192,192,192
  edgematch estimate owen1-6x6 --json --per-depth
  edgematch estimate owen1-6x6 --rotations owen6.rot
                            with every tile's rotation fixed by a rotation set (the
                            search of 'edgematch count owen1-6x6 --rotations owen6.rot')

The estimate is the expected number of valid partial boards at each depth of a search
along the scan order (Owen's model: tiles drawn from the puzzle's own colour pools).
A node is one tile placed by the search; hint squares are not nodes.  Hints: 'fixed'
(default) takes the hints' sides out of the pools and makes their neighbours match
their specific colours; 'pooled' treats hinted joins as random ones, like the package.
"""


def register(sub) -> None:
    p = sub.add_parser(
        "estimate",
        help="expected solutions and search-tree nodes (Owen's model)",
        epilog=EXAMPLES,
        formatter_class=HelpFormatter,
    )
    add_puzzle_argument(p)
    add_order_arguments(p)
    p.add_argument(
        "--schedule",
        metavar="SPEC",
        help="invalid inner joins allowed per number of tiles on the board, as for 'edgematch search'",
    )
    p.add_argument("--hints", choices=HINT_MODELS, default="fixed", help="how hinted squares count (default: fixed)")
    p.add_argument(
        "--each-rotation",
        action="store_true",
        help="count every rotation of a symmetric tile as its own placement, as Eternity2Puzzles.jl "
        "does (default: once per distinct look; see docs/conventions.md)",
    )
    p.add_argument(
        "--rotations",
        metavar="FILE",
        help="every tile's rotation (and, with parity, square colour) fixed by a rotation-set file "
        "(edgematch rotations --out FILE): the estimate of 'count --rotations FILE'",
    )
    p.add_argument("--compare", nargs="+", metavar="ORDER", help="rank these orders by expected nodes instead")
    p.add_argument("--per-depth", action="store_true", help="also list the expected nodes at every depth")
    p.add_argument("--json", action="store_true", help="print the estimate as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    puzzle = puzzle_from(args)
    width = puzzle.width
    rotations = None
    if args.rotations is not None:
        from ..formats.rotation_file import read_rotation_set

        if args.each_rotation:
            raise InputError("--rotations fixes one rotation per tile: leave out --each-rotation")
        if args.schedule:
            raise InputError("the estimate with --rotations does not model invalid joins: leave out --schedule")
        rotations = read_rotation_set(args.rotations, puzzle)
    if args.compare:
        ranked = compare_orders(
            puzzle, args.compare, args.schedule, args.hints, args.corner, args.each_rotation, rotations
        )
        if args.json:
            rows = []
            for name, est in ranked:
                data = est.to_dict(width, per_depth=args.per_depth)
                squares = data.pop("order", None)  # the squares of the order: keep the order's name
                rows.append({"order": name, **data, **({"squares": squares} if squares is not None else {})})
            print_json(rows)
            return 0
        print(f"{'order':<16} {'expected nodes':>16} {'widest depth':>13}")
        for name, est in ranked:
            print(
                f"{name:<16} {est.nodes:>16.4e} {est.widest_depth:>7} ({square_name(est.widest_square, width) if est.widest_square is not None else '-'})"
            )
        return 0

    est = estimate(puzzle, args.order, args.schedule, args.hints, args.corner, args.each_rotation, rotations)
    if args.json:
        print_json(est.to_dict(width, per_depth=args.per_depth))
        return 0
    print(
        f"{puzzle.name or args.puzzle}: {len(est.order)} squares to fill, order {args.order}"
        f"{' from ' + args.corner if args.corner else ''}, hints {args.hints}, rotations "
        f"{est.rotations if est.rotation_set is None else est.rotation_set + ' (' + args.rotations + ')'}"
        f"{', schedule ' + args.schedule if args.schedule else ''}"
    )
    print(f"expected solutions: {_number(est.solutions)}")
    print(f"expected nodes:     {_number(est.nodes)}")
    if est.depth:
        widest = est.widest_square
        assert widest is not None  # there are squares to fill
        where = square_name(widest, width)
        print(
            f"widest depth:       {est.widest_depth} (square {where}, {_number(est.nodes_per_depth[est.widest_depth - 1])} expected nodes)"
        )
    for note in est.notes:
        print(f"note: {note}")
    if args.per_depth:
        print("depth square  expected nodes")
        for depth, (square, nodes) in enumerate(zip(est.order, est.nodes_per_depth), start=1):
            print(f"{depth:5d} {square_name(square, width):>6}  {nodes:.6e}")
    return 0


def _number(x: float) -> str:
    if x != x or x in (float("inf"),):
        return str(x)
    if abs(x) < 1e7:
        return f"{x:,.1f}"
    return f"{x:.4e}"
