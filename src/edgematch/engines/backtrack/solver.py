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
from typing import Any

import numpy as np

from ...errors import InputError
from ...model import Board, Puzzle
from ...model.orders import resolve_order, search_order
from ...model.rotation_sets import RotationSet
from ...model.squares import parse_squares
from ...model.symmetry import board_turns
from ...model.tiles import rotation_convention
from ..base import Engine, Limits, Subtree
from ..kept_boards import KEEP_BOARDS
from ..result import SearchResult
from ..start import start_placements
from .best import best_search
from .bit_kernel import bit_tables
from .exact import exact_search
from .placements import prefix_placements
from .plan import SearchPlan, build_plan

ProgressCallback = Callable[[dict], None]
KERNELS = ("auto", "lists", "bits", "generated")

FIRST_SLICE_NODES = 200_000
SLICE_SECONDS = 0.2
#: best mode's slices are shorter: each slice drops the tiles of the settled prefix from the
#: candidate lists (:mod:`.prefix_filter`), and on e2 slices of 0.02 s track the prefix closely
#: enough for 5-10 % more nodes per second than 0.2 s, at about 0.35 ms of overhead a slice
#: (docs/backtracking.md, "Candidate lists without the settled prefix")
BEST_SLICE_SECONDS = 0.02


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
    each_rotation:
        Count every rotation of a rotationally symmetric tile as its own placement, as
        Eternity2Puzzles.jl does: the search tries all four rotations of every tile, so
        nodes and solutions grow (solutions by exactly the product of the symmetry
        factors, 2 or 4, of the tiles that are not hints; hints keep their own rotation).
        The default tries one rotation per distinct look (``result.rotations`` says which).
    rotations:
        A :class:`~edgematch.model.rotation_sets.RotationSet` of the puzzle (or its plain
        data, ``{"rotations": [...], "colours": [...] or None}``): every tile that is not a
        hint is tried in its one rotation of the set only (hints keep theirs), so count,
        solve, enumerate, best and split see exactly the solutions whose rotation set it
        is (with colours: whose tiles also stand on squares of their colour, black where
        ``row + col`` is even).  A set that contradicts a hint, or a start board, has no
        solution.  Kept as plain data (``params()`` carries it to parallel workers); not
        combined with ``symmetry`` (turning the board changes every tile's rotation) or
        ``each_rotation``.
    time_limit, node_limit:
        Stop after that many seconds / nodes (``complete`` is then False).
    schedule:
        Best mode: maximum cumulative invalid inner joins allowed per number of tiles on
        the board (see :mod:`.schedule`); default none.
    frame_exact:
        Best mode: joins between two border squares must always match.
    exact_squares:
        Best mode: squares (indices or names such as ``"B16"``) where no invalid join may
        be placed, before the endgame's squares: Blackwood's solver allows none on the
        border squares its order fills after his last break index.
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
        Best mode: restart from an empty board with the next seed after this many nodes
        (restart ``k`` shuffles with ``seed + k``).
    save_boards:
        Best mode: keep every complete board scoring at least this (``result.boards``;
        ``statistics["boards_by_score"]`` counts complete boards per score anyway).
    keep_boards:
        Best mode: of those boards, keep the best this many in memory (None: all), so
        that a long search's memory stays bounded; a recorded parallel run stores every
        one in its run store.
    endgame, polish:
        Best mode: the last ``endgame`` squares of the order are searched by branch and
        bound (any join may be invalid there; each complete board raises the score the
        next one must beat, down to ``save_boards``); every new best board with at most
        ``endgame`` empty squares is completed with the best possible score (CP-SAT,
        :mod:`.endgame`), and every new best board is then improved by ``polish`` seconds
        of tabu search; improved boards join ``result.boards``
        (``statistics["endgame_best"]``: the best of them).  0: off.
    good_group:
        Best mode: keep this many tiles for the last squares of the order, Verhaard's good
        group (:mod:`.good_group`: tiles of the kinds those squares need, chosen per seed
        to share many colours); every candidate list tries them last.  0: off.
    board_turns:
        Best mode: search the puzzle with its board turned this many quarter turns
        clockwise (the hints move, the scan order stays), ``"all"`` for every turn that
        keeps the board's shape, or a list of turns: restart ``k`` searches turn
        ``k mod len(list)``.  Boards are reported on the puzzle as given.
    priority_colours, priority_schedule:
        Best mode heuristic: colours to use up early (or ``["auto"]``: the Julia package's
        choice, see :func:`.best.auto_priority_colours`), and the minimum number of their sides
        placed per number of tiles on the board (same forms as ``schedule``, or
        ``julia:TARGET`` for the package's logistic bound).
    priority_first:
        Best mode, with priority colours: every candidate list tries the tiles with more
        sides of those colours first (the seed orders equals), and the first candidate
        below the bound ends its list, as in Blackwood's solver.
    kernel:
        Exact modes: ``auto`` (default) runs the bitboard kernel (:mod:`.bit_kernel`)
        when every class of tiles has at most 64 members and the list kernel
        (:mod:`.kernel`) otherwise; ``lists`` or ``bits`` force one (``bits`` raises
        when it does not apply).  ``generated`` writes the list kernel out as source
        for this puzzle and order (:mod:`.generated`: faster on large boards, compiled
        on first use and cached); plans it cannot run use the list kernel.  Where ``auto``
        runs the list kernel, a search still running after a few seconds with long enough
        left takes the generated kernel, compiling it beside itself first where it is not
        compiled (:mod:`.background_compile`).  All walk
        the same tree: nodes, counts and solution order are identical; only the speed
        differs.  Best mode: ``generated`` writes the best kernel out per puzzle, order
        and schedule (:mod:`.generated_best`), ``auto`` runs it when it is compiled
        already (else the list kernel, and a long search compiles it in another process
        and switches to it: :mod:`.background_compile`), ``lists`` or ``bits`` run the
        list kernel.
    progress:
        Called about every ``progress_interval`` seconds with a dict of statistics
        (nodes, nodes_per_second, deepest, solutions, best_score, seconds).
    """

    name = "backtrack"
    #: Best mode in a parallel run: the best score found elsewhere so far (read between
    #: slices; boards are kept only above it).
    shared_best: Callable[[], int] | None = None

    def __init__(
        self,
        order="rowscan",
        corner: str | None = None,
        symmetry: bool = False,
        each_rotation: bool = False,
        time_limit: float | None = None,
        node_limit: int | None = None,
        schedule=None,
        frame_exact: bool = True,
        exact_squares: Iterable[int | str] | str | None = None,
        max_tile_errors: int = 1,
        target: int | None = None,
        seed: int | None = None,
        restart_nodes: int | None = None,
        board_turns: int | str | Iterable[int] = 0,
        save_boards: int | None = None,
        keep_boards: int | None = KEEP_BOARDS,
        endgame: int = 0,
        polish: float = 0.0,
        good_group: int = 0,
        priority_colours: Iterable[int] | None = None,
        priority_schedule=None,
        priority_first: bool = False,
        kernel: str = "auto",
        progress: ProgressCallback | None = None,
        progress_interval: float = 0.5,
        limits: Limits | None = None,
        rotations=None,
    ):
        if kernel not in KERNELS:
            raise InputError(f"unknown kernel {kernel!r}: choose one of {', '.join(KERNELS)}")
        self.kernel = kernel
        self.order = order
        self.corner = corner
        self.symmetry = symmetry
        self.each_rotation = bool(each_rotation)
        self.limits = Limits.of(limits, time_limit=time_limit, node_limit=node_limit)
        self.schedule = schedule
        self.frame_exact = frame_exact
        self.exact_squares = (
            None if exact_squares is None else exact_squares if isinstance(exact_squares, str) else list(exact_squares)
        )
        if not 1 <= int(max_tile_errors) <= 4:
            raise InputError(f"max_tile_errors must be 1..4, not {max_tile_errors}")
        self.max_tile_errors = int(max_tile_errors)
        self.target = target
        self.seed = seed
        self.restart_nodes = restart_nodes
        self.board_turns = plain_turns(board_turns)
        self.save_boards = None if save_boards is None else int(save_boards)
        if keep_boards is not None and int(keep_boards) < 0:
            raise InputError(f"keep_boards must be a number of boards >= 0, not {keep_boards}")
        self.keep_boards = None if keep_boards is None else int(keep_boards)
        if int(endgame) < 0 or float(polish) < 0 or (float(polish) > 0 and int(endgame) == 0):
            raise InputError("endgame must be a number of squares >= 0, and polish (seconds >= 0) needs an endgame")
        self.endgame = int(endgame)
        self.polish = float(polish)
        if int(good_group) < 0:
            raise InputError(f"good_group must be a number of tiles >= 0, not {good_group}")
        self.good_group = int(good_group)
        self.priority_colours = list(priority_colours) if priority_colours is not None else None
        self.priority_schedule = priority_schedule
        self.priority_first = bool(priority_first)
        self.progress = progress
        self.progress_interval = progress_interval
        if rotations is not None and symmetry:
            raise InputError(
                "a rotation set cannot be combined with symmetry (turning the board changes every tile's rotation)"
            )
        if rotations is not None and each_rotation:
            raise InputError("a rotation set fixes one rotation per tile: each_rotation does not apply")
        self.rotations = plain_rotations(rotations)

    # ------------------------------------------------------------------ helpers
    def rotation_set(self, puzzle: Puzzle) -> RotationSet | None:
        """The fixed rotation set for ``puzzle`` (None: every rotation is tried); a set
        with another number of tiles raises :class:`InputError`."""
        data = plain_rotations(self.rotations)
        if data is None:
            return None
        if len(data["rotations"]) != puzzle.n_tiles:
            raise InputError(
                f"the rotation set has {len(data['rotations'])} tiles, the puzzle {puzzle.n_tiles}: "
                "it belongs to another puzzle"
            )
        return RotationSet.of_plain(puzzle, data)

    def turns(self, puzzle: Puzzle) -> list[int]:
        """The board turns the restarts cycle through on ``puzzle``."""
        allowed = board_turns(puzzle)
        turns = allowed if self.board_turns == "all" else [int(t) for t in self.board_turns]
        wrong = [t for t in turns if t not in allowed]
        if wrong:
            raise InputError(
                f"board turn {wrong[0]} does not keep the shape of this {puzzle.width}x{puzzle.height} board "
                f"(turns: {', '.join(map(str, allowed))})"
            )
        return turns

    def _rotations_key(self):
        data = plain_rotations(self.rotations)
        if data is None:
            return None
        colours = data["colours"]
        return (tuple(data["rotations"]), None if colours is None else tuple(colours))

    def search_squares(self, puzzle: Puzzle) -> np.ndarray:
        """The squares the search fills, in order (hint squares left out)."""
        full = resolve_order(self.order, puzzle.width, puzzle.height, self.corner)
        return search_order(full, puzzle.width, puzzle.height, [h.square for h in puzzle.hints])

    def exact_square_indices(self, puzzle: Puzzle) -> list[int]:
        """``exact_squares`` as indices of ``puzzle``'s board (sorted, no repeats)."""
        if self.exact_squares is None:
            return []
        return parse_squares(self.exact_squares, puzzle.width, puzzle.height)

    def plan(self, puzzle: Puzzle, **options) -> SearchPlan:
        """The precomputed kernel arrays for ``puzzle`` (exposed for inspection and tools).

        The exact-search plan of the last few puzzles is cached, so that the many
        ``count(puzzle, start=prefix)`` calls of a split do not rebuild it.
        """
        fixed: dict[str, Any] = {"each_rotation": self.each_rotation, "rotation_set": self.rotation_set(puzzle)}
        if options:
            return build_plan(puzzle, self.search_squares(puzzle), **{**fixed, **options})
        cache = self.__dict__.setdefault("_plans", {})
        key = (puzzle, repr(self.order), self.corner, self.each_rotation, self._rotations_key())
        if key not in cache:
            if len(cache) >= 8:
                cache.pop(next(iter(cache)))
            cache[key] = build_plan(puzzle, self.search_squares(puzzle), **fixed)
        return cache[key]

    def bit_tables(self, plan: SearchPlan, rows: np.ndarray):
        """The plan's bitboard masks (cached on the plan), or None for the list kernel."""
        if self.kernel in ("lists", "generated"):
            return None
        if "_bits" not in plan.__dict__:
            plan.__dict__["_bits"] = bit_tables(plan, rows)
        bits = plan.__dict__["_bits"]
        if bits is None and self.kernel == "bits":
            raise InputError(
                "the bitboard kernel needs at most 64 tiles per class and every known side in "
                "the look-up key; use the list kernel (--kernel lists or auto)"
            )
        return bits

    # ------------------------------------------------------------------ public modes
    def split(self, puzzle: Puzzle, depth: int, start=None) -> tuple[list[Subtree], SearchResult]:
        """All valid partial boards filling the first ``depth`` squares of the order.

        The subtrees below them partition the search: for the full search,
        ``solutions == sum(count(start=b).solutions)`` and
        ``nodes == split_result.nodes + sum(count(start=b).nodes)``, which is how
        parallel runs divide work (``split_result.solutions`` is 0: every leaf of the cut is a
        subtree).  Not combined with ``symmetry``.
        """
        squares = self.search_squares(puzzle)
        if not 0 <= depth <= len(squares):
            raise InputError(f"split depth {depth} outside 0..{len(squares)}")
        return self._split_at_leaves(puzzle, depth, start)

    def depth(self, puzzle: Puzzle) -> int:
        return len(self.search_squares(puzzle))

    def _start_level(self, puzzle: Puzzle, start) -> int:
        return len(start_placements(puzzle, prefix_placements(self.plan(puzzle), start)))

    # ------------------------------------------------------------------ the drivers
    def _search(self, puzzle, start, limits: Limits, *, callback, collect, record, leaf=None) -> SearchResult:
        total = SearchResult(solver=self.name, rotations=rotation_convention(self.each_rotation))
        driver = self.driver(total, limits, first_budget=FIRST_SLICE_NODES, slice_seconds=SLICE_SECONDS)
        return exact_search(self, puzzle, start, driver, total, callback, collect, record, leaf)

    def best(
        self,
        puzzle: Puzzle,
        start=None,
        *,
        limits: Limits | None = None,
        callback: Callable[[Board, int], bool | None] | None = None,
        segment: int | None = None,
    ) -> SearchResult:
        """Search for the largest score (matched inner joins) under the schedule.

        ``segment``: run restart ``segment`` alone (its seed and board turn, for at most
        ``restart_nodes`` nodes), as a task of a parallel portfolio does.

        ``result.best_score`` / ``result.best_board`` hold the best (possibly partial)
        board found; ``callback(board, score)`` is called when it improves (checked
        between kernel slices, so several improvements within one slice are reported
        once, as the best of them).  ``complete`` means the whole space allowed by the
        schedule was searched, so the best score is optimal under that schedule.
        """
        total = SearchResult(solver=self.name, best_score=-1, rotations=rotation_convention(self.each_rotation))
        driver = self.driver(
            total,
            self.call_limits(limits),
            first_budget=FIRST_SLICE_NODES,
            slice_seconds=BEST_SLICE_SECONDS,
            timeline=True,
        )
        return best_search(self, puzzle, start, driver, total, callback, segment)


def plain_turns(turns) -> str | list[int]:
    """Board turns as plain data: ``"all"`` or a list of quarter turns 0..3."""
    if isinstance(turns, str) and turns.strip().lower() == "all":
        return "all"
    if isinstance(turns, str):  # "1" or "0,2", as the command line gives them
        values: list = turns.replace(",", " ").split()
    else:
        values = [turns] if isinstance(turns, int) else list(turns)
    try:
        plain = [int(t) for t in values]
    except (TypeError, ValueError):
        raise InputError(f"board turns must be 0..3, a list of them, or 'all', not {turns!r}") from None
    if not plain or any(not 0 <= t <= 3 for t in plain):
        raise InputError(f"board turns must be 0..3, a list of them, or 'all', not {turns!r}")
    return plain


def plain_rotations(rotations) -> dict | None:
    """A rotation set (or its plain data) as plain data ``{"rotations": [...], "colours":
    [...] or None}``, with one-line errors for anything else."""
    if rotations is None:
        return None
    if isinstance(rotations, RotationSet):
        return rotations.to_plain()
    if not isinstance(rotations, Mapping) or "rotations" not in rotations:
        raise InputError(
            "rotations must be a RotationSet or its plain data {'rotations': [...], 'colours': [...] or None}"
        )
    try:
        values = [int(r) for r in rotations["rotations"]]
        colours = rotations.get("colours")
        tones = None if colours is None else [int(c) for c in colours]
    except (TypeError, ValueError):
        raise InputError("a rotation set's rotations and colours must be lists of integers") from None
    if any(not 0 <= r <= 3 for r in values):
        raise InputError("a rotation set's rotations must be 0..3")
    if tones is not None and (len(tones) != len(values) or any(c not in (0, 1) for c in tones)):
        raise InputError("a rotation set's colours must be one per tile, each 0 (black) or 1 (white)")
    return {"rotations": values, "colours": tones}
