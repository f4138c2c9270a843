"""The Python front of the backtracking engine: :class:`BacktrackSolver`.

Configured once in the constructor (scikit-learn style), then used on any number of
puzzles::

    solver = BacktrackSolver(order="rowscan", time_limit=60)
    result = solver.count(puzzle)            # exact count (result.complete says if it is)
    result = solver.solve(puzzle, k=3)       # the first 3 solutions, as Boards
    solver.enumerate(puzzle, callback=print) # stream every solution
    result = solver.best(puzzle)             # largest score under a schedule of errors

All modes drive a compiled kernel in slices of a few hundred milliseconds (see
:mod:`.kernel`): between slices Python checks limits, reports progress, hands solutions
to the callback and lets Ctrl-C through.  An interrupted search returns what it has, with
``stopped_by="interrupted"``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np

from ...errors import InputError
from ...model import Board, Puzzle, square_name
from ...model import tiles as T
from ...model.orders import resolve_order, search_order
from ...model.schedules import julia_priority_schedule, schedule_array
from ...model.symmetry import symmetry_variants
from ..base import Engine, Limits, SliceDriver, SliceReport, StopReason, check_k
from ..result import SearchResult
from . import kernel as K
from .best_kernel import best_search
from .bit_kernel import bit_search, bit_tables
from .plan import P_NCHK, SearchPlan, build_plan

ProgressCallback = Callable[[dict], None]
KERNELS = ("auto", "lists", "bits")

FIRST_SLICE_NODES = 200_000
SLICE_SECONDS = 0.2


class BacktrackSolver(Engine):
    """Depth-first search in a fixed scan order, compiled with Numba.

    Parameters
    ----------
    order:
        A scan order name (``rowscan``, ``colscan``, ``spiral-in``, ``spiral-out``,
        ``diagonal``, ``frame``, ``e2path``), a file of square names, or a sequence of
        squares.  Hint squares may be listed or not.
    corner:
        ``TL``, ``TR``, ``BL`` or ``BR``: the corner a named order starts from (default
        TL, BL for ``e2path``).
    symmetry:
        Count each solution once per board rotation class.  Only for puzzles without
        hints.  On a square board the first corner tile ``c`` (lowest number) is fixed on
        the top-left corner.  The four rotations of a solution put ``c`` on four
        different corners, so they are four different raw solutions and exactly one of
        them has ``c`` top-left: the count is **exactly** the raw count divided by 4,
        whatever symmetric or duplicate tiles the puzzle has (solutions are counted as
        tile assignments; two solutions that look identical because of duplicate tiles
        stay two).  On a rectangular board only the half turn maps solutions to
        solutions: ``c`` is restricted to the two top corners and the count is exactly
        half the raw count.  The raw count is the default.
    time_limit, node_limit:
        Stop after that many seconds / nodes (``complete`` is then False).
    schedule:
        Best mode: maximum cumulative invalid inner joins allowed per number of tiles on
        the board (see :mod:`.schedule`); default none.
    frame_exact:
        Best mode: joins between two border squares must always match.
    max_tile_errors:
        Best mode: how many invalid joins one placement may create (1 by default, as in
        the Julia package; up to 4).  Each extra allowed side adds look-ups whose
        candidate lists are long, so raising it slows every node that may err.
    target:
        Best mode: stop as soon as this score is reached (default: the maximum score).
    seed:
        Shuffle candidates within each look-up key (None: tile order).  Used by the best
        mode and its restarts; counts do not depend on it.
    restart_nodes:
        Best mode: restart from an empty board with the next seed after this many nodes.
    priority_colours, priority_schedule:
        Best mode heuristic: colours to use up early (or ``["auto"]``: the Julia package's
        choice, see :func:`auto_priority_colours`), and the minimum number of their sides
        placed per number of tiles on the board (same forms as ``schedule``, or
        ``julia:TARGET`` for the package's logistic bound).
    kernel:
        Exact modes: ``auto`` (default) runs the bitboard kernel (:mod:`.bit_kernel`)
        when every class of tiles has at most 64 members and the list kernel
        (:mod:`.kernel`) otherwise; ``lists`` or ``bits`` force one (``bits`` raises
        when it does not apply).  Both walk the same tree: nodes, counts and solution
        order are identical; only the speed differs.
    progress:
        Called about every ``progress_interval`` seconds with a dict of statistics
        (nodes, nodes_per_second, deepest, solutions, best_score, seconds).
    """

    name = "backtrack"

    def __init__(
        self,
        order="rowscan",
        corner: str | None = None,
        symmetry: bool = False,
        time_limit: float | None = None,
        node_limit: int | None = None,
        schedule=None,
        frame_exact: bool = True,
        max_tile_errors: int = 1,
        target: int | None = None,
        seed: int | None = None,
        restart_nodes: int | None = None,
        priority_colours: Iterable[int] | None = None,
        priority_schedule=None,
        kernel: str = "auto",
        progress: ProgressCallback | None = None,
        progress_interval: float = 0.5,
        limits: Limits | None = None,
    ):
        if kernel not in KERNELS:
            raise InputError(f"unknown kernel {kernel!r}: choose one of {', '.join(KERNELS)}")
        self.kernel = kernel
        self.order = order
        self.corner = corner
        self.symmetry = symmetry
        self.limits = Limits.of(limits, time_limit=time_limit, node_limit=node_limit)
        self.schedule = schedule
        self.frame_exact = frame_exact
        if not 1 <= int(max_tile_errors) <= 4:
            raise InputError(f"max_tile_errors must be 1..4, not {max_tile_errors}")
        self.max_tile_errors = int(max_tile_errors)
        self.target = target
        self.seed = seed
        self.restart_nodes = restart_nodes
        self.priority_colours = list(priority_colours) if priority_colours is not None else None
        self.priority_schedule = priority_schedule
        self.progress = progress
        self.progress_interval = progress_interval

    # ------------------------------------------------------------------ helpers
    def search_squares(self, puzzle: Puzzle) -> np.ndarray:
        """The squares the search fills, in order (hint squares left out)."""
        full = resolve_order(self.order, puzzle.width, puzzle.height, self.corner)
        return search_order(full, puzzle.width, puzzle.height, [h.square for h in puzzle.hints])

    def plan(self, puzzle: Puzzle, **options) -> SearchPlan:
        """The precomputed kernel arrays for ``puzzle`` (exposed for inspection and tools).

        The exact-search plan of the last few puzzles is cached, so that the many
        ``count(puzzle, start=prefix)`` calls of a split do not rebuild it.
        """
        if options:
            return build_plan(puzzle, self.search_squares(puzzle), **options)
        cache = self.__dict__.setdefault("_plans", {})
        key = (puzzle, repr(self.order), self.corner)
        if key not in cache:
            if len(cache) >= 8:
                cache.pop(next(iter(cache)))
            cache[key] = build_plan(puzzle, self.search_squares(puzzle))
        return cache[key]

    def _bit_tables(self, plan: SearchPlan, rows: np.ndarray):
        """The plan's bitboard masks (cached on the plan), or None for the list kernel."""
        if self.kernel == "lists":
            return None
        if "_bits" not in plan.__dict__:
            plan.__dict__["_bits"] = bit_tables(plan, rows)
        bits = plan.__dict__["_bits"]
        if bits is None and self.kernel == "bits":
            raise InputError("the bitboard kernel needs at most 64 tiles per class and every known side in "
                             "the look-up key; use the list kernel (--kernel lists or auto)")
        return bits

    def _variants(self, puzzle: Puzzle) -> list[Puzzle]:
        """The puzzles to search: the puzzle itself, or its symmetry-broken versions."""
        return symmetry_variants(puzzle) if self.symmetry else [puzzle]

    # ------------------------------------------------------------------ public modes
    def count(self, puzzle: Puzzle, start=None, *, limits: Limits | None = None) -> SearchResult:
        """Count every solution (of the subtree below ``start`` if given)."""
        return self._exact(puzzle, start, self.call_limits(limits), callback=None, collect=False, record=False)

    def solve(self, puzzle: Puzzle, k: int | None = 1, start=None, *, limits: Limits | None = None,
              callback=None, collect: bool = True) -> SearchResult:
        """The first ``k`` solutions (all with ``k=None``) as Boards in ``result.boards``.

        ``callback(board)`` is called for each solution as it is found; returning True
        stops the search (``stopped_by="callback"``).
        """
        check_k(k)
        return self._exact(puzzle, start, self.call_limits(limits, k), callback=callback, collect=collect,
                           record=True)

    def enumerate(self, puzzle: Puzzle, callback: Callable[[Board], bool | None], start=None, *,
                  limits: Limits | None = None, collect: bool = False) -> SearchResult:
        """Stream every solution to ``callback`` (boards are not kept unless ``collect``)."""
        return self._exact(puzzle, start, self.call_limits(limits), callback=callback, collect=collect, record=True)

    def split(self, puzzle: Puzzle, depth: int, start=None) -> tuple[list[Board], SearchResult]:
        """All valid partial boards filling the first ``depth`` squares of the order.

        The subtrees below them partition the search: for the full search,
        ``solutions == sum(count(start=b).solutions)`` and
        ``nodes == split_result.nodes + sum(count(start=b).nodes)``, which is how
        parallel runs divide work (``split_result.solutions`` is 0: every leaf of the cut is a
        subtree).  Not combined with ``symmetry``.
        """
        if self.symmetry:
            raise InputError("split() works on the puzzle as given; add the symmetry hint yourself")
        squares = self.search_squares(puzzle)
        if not 0 <= depth <= len(squares):
            raise InputError(f"split depth {depth} outside 0..{len(squares)}")
        boards: list[Board] = []
        result = self._exact(puzzle, start, Limits(), callback=boards.append, collect=False, record=True, leaf=depth)
        # every leaf of the cut is a subtree (counted by its own search), none a solution here:
        # the same meaning as the ColorPair engine's split
        result.statistics["subtrees"] = result.solutions
        result.solutions = 0
        return boards, result

    # ------------------------------------------------------------------ exact search
    def _exact(self, puzzle, start, limits: Limits, callback, collect, record, leaf=None) -> SearchResult:
        variants = self._variants(puzzle) if start is None else [puzzle]
        if self.symmetry and start is not None:
            raise InputError("symmetry and a start board cannot be combined")
        total = SearchResult(solver=self.name)
        driver = self.driver(total, limits, first_budget=FIRST_SLICE_NODES, slice_seconds=SLICE_SECONDS)
        total.statistics = {"order": self.order if isinstance(self.order, str) else "custom",
                            "corner": self.corner, "symmetry": bool(self.symmetry), "kernel_calls": 0}
        if self.symmetry:
            sym = variants[0].hints[0]
            total.statistics["symmetry_fixed"] = {
                "tile": sym.tile + 1,
                "squares": [int(v.hints[0].square) for v in variants],
                "divides_raw_count_by": 4 // len(variants),
            }
        complete = True
        for variant in variants:
            part = self._exact_one(variant, start, callback, collect, record, leaf, driver, total, owner=puzzle)
            complete = complete and part
            if total.stopped_by is not None:
                complete = False
                break
            wanted = driver.solutions_left()
            if wanted is not None and wanted <= 0:
                break
        total.complete = complete and total.stopped_by is None
        total.seconds = driver.elapsed()
        return total

    def _exact_one(self, puzzle, start, callback, collect, record, leaf, driver: SliceDriver, total: SearchResult,
                   owner: Puzzle | None = None) -> bool:
        """One exact search of ``puzzle`` (the puzzle or a symmetry variant); True when its
        space was exhausted. Solutions are boards of ``owner``, the puzzle asked about."""
        owner = puzzle if owner is None else owner
        plan = self.plan(puzzle)
        D = plan.depth
        if len(total.nodes_per_depth) < D:
            total.nodes_per_depth.extend([0] * (D - len(total.nodes_per_depth)))
        leaf = D if leaf is None else leaf
        board, used, first = _start_arrays(plan, start, exact=True)
        if board is None:  # hints (or the start board) contradict each other
            return True
        if first == leaf:  # nothing left to place below the start
            total.solutions += 1
            driver.solutions_done += 1
            if record:
                solution = _to_board(owner, board)
                if collect:
                    total.boards.append(solution)
                if callback is not None and callback(solution):
                    driver.halt(StopReason.CALLBACK)
            return True
        if first > leaf:
            raise InputError(f"the start board already fills {first} squares of the order, more than {leaf}")
        cur = np.zeros(D + 1, np.int32)
        end = np.zeros(D + 1, np.int32)
        state = np.array([first, first, leaf, 1], dtype=np.int64)
        rows = plan.exact_phases()
        checks = rows if (rows[:, P_NCHK] > 0).any() else None
        bits = self._bit_tables(plan, rows)
        total.statistics["kernel"] = "bits" if bits is not None else "lists"
        if bits is not None:
            umask = bits.used_masks(used)
            rem = np.zeros(D + 1, np.uint64)
            occ = np.zeros(D + 1, np.int64)
            keys = np.zeros(D + 1, np.int64)
            tile_bits = np.zeros(D + 1, np.int64)
        npd = np.zeros(D, np.int64)
        wanted = driver.solutions_left()
        buffer_rows = 0
        if record:
            buffer_rows = 1024 if wanted is None else max(1, min(1024, wanted))
        out = np.zeros((buffer_rows, puzzle.n_squares), np.int32)

        def run_slice(want: int) -> SliceReport:
            left = driver.solutions_left()
            max_solutions = -1 if left is None else left
            npd[:] = 0
            if bits is not None:
                nodes, leaves, written, status = bit_search(
                    plan.cand, bits.list_first, bits.keymask, bits.dups, plan.pcol, plan.order, bits.rows, board,
                    umask, rem, occ, keys, tile_bits, state, np.int64(want), np.int64(max_solutions), out, npd,
                )
            else:
                nodes, leaves, written, status = K.exact_search(
                    plan.cand, plan.starts, plan.pcol, plan.order, rows,
                    board, used, cur, end, state, np.int64(want), np.int64(max_solutions), out, npd, checks,
                )
            total.statistics["kernel_calls"] += 1
            total.nodes += int(nodes)
            total.solutions += int(leaves)
            for d in np.flatnonzero(npd):
                total.nodes_per_depth[d] += int(npd[d])
            return SliceReport(nodes=int(nodes), solutions=int(leaves), finished=status == K.FINISHED,
                               boards=[_to_board(owner, out[r]) for r in range(written)])

        return driver.run(run_slice, callback=callback, collect=collect)

    # ------------------------------------------------------------------ best mode
    def best(self, puzzle: Puzzle, start=None, *, limits: Limits | None = None,
             callback: Callable[[Board, int], bool | None] | None = None) -> SearchResult:
        """Search for the largest score (matched inner joins) under the schedule.

        ``result.best_score`` / ``result.best_board`` hold the best (possibly partial)
        board found; ``callback(board, score)`` is called when it improves (checked
        between kernel slices, so several improvements within one slice are reported
        once, as the best of them).  ``complete`` means the whole space allowed by the
        schedule was searched, so the best score is optimal under that schedule.
        """
        variants = self._variants(puzzle) if start is None else [puzzle]
        n_sq = puzzle.n_squares
        allowed_by_tiles = schedule_array(self.schedule, n_sq, max_score=puzzle.max_score, what="schedule")
        target = puzzle.max_score if self.target is None else int(self.target)
        if not 0 < target <= puzzle.max_score:
            raise InputError(f"the target score {target} is outside 1..{puzzle.max_score}, the maximum of this puzzle")
        prio_w = np.zeros(puzzle.n_tiles, np.int32)
        prio_by_tiles = np.zeros(n_sq + 1, np.int32)
        priority = self.priority_colours
        if priority is not None and len(priority) == 1 and str(priority[0]).lower() == "auto":
            priority = auto_priority_colours(puzzle)
        if priority:
            colours = set(int(c) for c in priority)
            unknown = sorted(colours - set(puzzle.colours))
            if unknown:
                raise InputError(f"priority colour {unknown[0]} is not a colour of this puzzle "
                                 f"(its colours: {', '.join(str(c) for c in puzzle.colours)})")
            prio_w = np.array([sum(int(c) in colours for c in tile) for tile in puzzle.tiles], np.int32)
            spec = self.priority_schedule
            if isinstance(spec, str) and spec.lower().startswith("julia:"):
                try:
                    julia_target = int(spec.split(":", 1)[1])
                except ValueError:
                    raise InputError(f"priority schedule: '{spec}' needs an integer target (julia:470)") from None
                required = int(prio_w.sum()) + julia_target // 10 - 54
                prio_by_tiles = julia_priority_schedule(julia_target, n_sq, max(required, 0)).astype(np.int32)
            else:
                prio_by_tiles = schedule_array(spec, n_sq, what="priority schedule")
        total = SearchResult(solver=self.name, best_score=-1)
        driver = self.driver(total, self.call_limits(limits), first_budget=FIRST_SLICE_NODES,
                             slice_seconds=SLICE_SECONDS)
        total.statistics = {"order": self.order if isinstance(self.order, str) else "custom", "corner": self.corner,
                            "target": target, "priority_colours": list(priority or []), "restarts": 0, "complete_boards": 0, "kernel_calls": 0,
                            "frame_exact": self.frame_exact}
        restart = 0
        for variant in variants:  # one, or two symmetry classes on a rectangular board
            while True:
                seed = self.seed if self.restart_nodes is None else (self.seed or 0) + restart
                finished = self._best_run(variant, start, seed, allowed_by_tiles, prio_w, prio_by_tiles, target,
                                          driver, total, callback)
                if finished or total.stopped_by is not None:
                    break
                restart += 1
                total.statistics["restarts"] = restart
            if total.stopped_by is not None:
                break
        total.complete = total.stopped_by is None
        total.seconds = driver.elapsed()
        if total.best_board is not None:
            total.best_board = Board(puzzle, total.best_board.tiles, total.best_board.rotations)
            total.best_score = total.best_board.score()
        if total.best_score is not None and total.best_score >= 0 and total.best_board is not None \
                and total.best_board.is_complete and total.best_score == puzzle.max_score:
            total.solutions = max(total.solutions, 1)
        return total

    def _best_run(self, puzzle, start, seed, allowed_by_tiles, prio_w, prio_by_tiles, target, driver: SliceDriver,
                  total, callback) -> bool:
        """One run from the start board; True when its search space is exhausted."""
        squares = self.search_squares(puzzle)
        n_hints = len(puzzle.hints)
        D = len(squares)
        depth_tiles = n_hints + np.arange(1, D + 1)
        allowed = allowed_by_tiles[depth_tiles].astype(np.int32) if D else np.zeros(0, np.int32)
        prio_min = prio_by_tiles[depth_tiles].astype(np.int32) if D else np.zeros(0, np.int32)
        max_errors = int(min(allowed.max(), self.max_tile_errors)) if D else 0
        plan = build_plan(puzzle, squares, max_errors=max_errors, frame_exact=self.frame_exact, seed=seed)
        if len(total.nodes_per_depth) < D:
            total.nodes_per_depth.extend([0] * (D - len(total.nodes_per_depth)))
        board, used, first = _start_arrays(plan, start, exact=False)
        board_obj = _to_board(puzzle, board)
        start_score = board_obj.score()
        start_errors = len(board_obj.mismatches())
        start_prio = int(sum(prio_w[t] for t in board_obj.tiles if t >= 0))
        if start_score > total.best_score:
            total.best_score = start_score
            total.best_board = board_obj
        if first >= D:
            if board_obj.is_complete:
                total.statistics["complete_boards"] += 1
            return True
        cur = np.zeros(D + 1, np.int32)
        end = np.zeros(D + 1, np.int32)
        phase = np.zeros(D + 1, np.int32)
        err_stack = np.zeros(D + 1, np.int32)
        match_stack = np.zeros(D + 1, np.int32)
        prio_stack = np.zeros(D + 1, np.int32)
        err_stack[first] = start_errors
        match_stack[first] = start_score
        prio_stack[first] = start_prio
        best_board = board.copy()
        rows0 = plan.exact_phases()
        checks0 = rows0 if (rows0[:, P_NCHK] > 0).any() else None
        state = np.array([first, first, D, 1, total.best_score], dtype=np.int64)
        npd = np.zeros(D, np.int64)
        run_nodes = 0
        reported = total.best_score
        priority_weights = prio_w if self.priority_colours else None

        def run_slice(want: int) -> SliceReport:
            nonlocal run_nodes, reported
            if self.restart_nodes is not None:
                want = min(want, max(1, self.restart_nodes - run_nodes))
            npd[:] = 0
            nodes, complete_boards, status = best_search(
                plan.cand, plan.starts, plan.pcol, plan.order,
                plan.n_phases, plan.phases, plan.known_joins, allowed, priority_weights, prio_min,
                board, used, cur, end, phase, err_stack, match_stack, prio_stack,
                state, best_board, np.int64(want), np.int64(target), npd, rows0, checks0,
            )
            total.statistics["kernel_calls"] += 1
            total.nodes += int(nodes)
            run_nodes += int(nodes)
            total.statistics["complete_boards"] += int(complete_boards)
            for d in np.flatnonzero(npd):
                total.nodes_per_depth[d] += int(npd[d])
            if state[4] > total.best_score:
                total.best_score = int(state[4])
                total.best_board = _to_board(puzzle, best_board)
            stop = None
            if total.best_score > reported:
                reported = total.best_score
                if callback is not None and callback(total.best_board, total.best_score):
                    stop = StopReason.CALLBACK
            if stop is None and status == K.TARGET:
                stop = StopReason.TARGET
            return SliceReport(nodes=int(nodes), finished=status == K.FINISHED, stop=stop,
                               end_run=self.restart_nodes is not None and run_nodes >= self.restart_nodes)

        return driver.run(run_slice)


# ---------------------------------------------------------------------------- helpers
def _to_board(puzzle: Puzzle, placements: np.ndarray) -> Board:
    p = np.asarray(placements)
    tiles = np.where(p >= 0, p >> 2, -1)
    rotations = np.where(p >= 0, p & 3, 0)
    return Board(puzzle, tiles, rotations)


def _start_placements(plan: SearchPlan, start) -> dict[int, tuple[int, int]]:
    """Non-hint placements of a start board given as a Board, mapping or sequence."""
    puzzle = plan.puzzle
    if start is None:
        return {}
    if isinstance(start, Board):
        placed = start.placements()
    elif isinstance(start, Mapping):
        placed = {int(s): (int(t), int(r)) for s, (t, r) in start.items()}
    else:
        items = list(start)
        if len(items) > plan.depth:
            raise InputError(f"the start lists {len(items)} placements but the order has {plan.depth} squares")
        placed = {int(plan.order[i]): (int(t), int(r)) for i, (t, r) in enumerate(items)}
    hints = {h.square: (h.tile, h.rotation) for h in puzzle.hints}
    result = {}
    for square, (tile, rotation) in placed.items():
        if not 0 <= square < puzzle.n_squares:
            raise InputError(f"the start board names square {square}, which is off the board")
        if not 0 <= tile < puzzle.n_tiles or not 0 <= rotation < 4:
            raise InputError(f"the start board places an unknown tile {tile + 1} or rotation {rotation}")
        if square in hints:
            hint_tile, hint_rotation = hints[square]
            if tile != hint_tile or not np.array_equal(
                T.rotate(puzzle.tiles[tile], rotation), T.rotate(puzzle.tiles[hint_tile], hint_rotation)
            ):
                raise InputError(f"the start board disagrees with the hint on square {square_name(square, puzzle.width)}")
            continue
        result[square] = (tile, rotation)
    return result


def _start_arrays(plan: SearchPlan, start, exact: bool):
    """Board and used arrays with hints and the start prefix placed, and the first depth.

    Returns ``(None, None, 0)`` when (in exact mode) the hints or the start contradict
    each other, so that the subtree is empty.
    """
    puzzle = plan.puzzle
    board = plan.board0.copy()
    used = plan.used0.copy()
    if exact and not _to_board(puzzle, board).verify(require_complete=False).valid:
        return None, None, 0  # the hints contradict each other: no solution
    placed = _start_placements(plan, start)
    k = len(placed)
    prefix = set(int(s) for s in plan.order[:k])
    if set(placed) != prefix:
        raise InputError(
            f"the start board must fill exactly the first {k} squares of the search order (a prefix), "
            "besides the hints"
        )
    for square, (tile, rotation) in placed.items():
        if used[tile]:
            raise InputError(f"the start board uses tile {tile + 1} twice (or a hint tile)")
        used[tile] = 1
        board[square] = tile * 4 + rotation
    board_obj = _to_board(puzzle, board)
    if exact:
        reasons = board_obj.verify(require_complete=False).reasons
        if reasons:
            raise InputError(f"the start board is not a valid partial solution: {'; '.join(reasons[:3])}")
    else:
        for square in placed:
            tile, rotation = placed[square]
            if not T.fits_border(puzzle.tiles[tile], rotation, square, puzzle.width, puzzle.height):
                raise InputError(f"the start board turns tile {tile + 1} the wrong way against the border "
                                 f"on {square_name(square, puzzle.width)}")
    return board, used, k


def auto_priority_colours(puzzle: Puzzle) -> list[int]:
    """The Julia package's prioritised colours: the frame colour least used on corner
    tiles, and the two inner colours that, with it, appear on the fewest tiles (so that
    they can be used up with few tiles).  Ties go to the smaller colour numbers."""
    tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
    corners = [t for t in tiles if t.count(T.GREY) == 2]
    frame = puzzle.frame_colours
    inner = puzzle.inner_colours
    if not frame or len(inner) < 2:
        raise InputError("automatic priority colours need frame colours and at least two inner colours")
    c1 = min(frame, key=lambda c: (sum(t.count(c) for t in corners), c))
    best = None
    for a in range(len(inner)):
        for b in range(a + 1, len(inner)):
            chosen = {c1, inner[a], inner[b]}
            n = sum(any(c in chosen for c in t) for t in tiles)
            if best is None or n < best[0]:
                best = (n, [c1, inner[a], inner[b]])
    assert best is not None  # at least two inner colours: one pair was tried
    return best[1]

