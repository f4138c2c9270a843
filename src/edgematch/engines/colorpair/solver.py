"""The Python front of the ColorPair engine: :class:`ColorPairSolver`.

Configured once, used on any number of puzzles, like the other engines::

    solver = ColorPairSolver(heuristic="min-expected-gap", shaving="all")
    result = solver.count(puzzle)             # exact count (result.complete says if it is)
    result = solver.solve(puzzle, k=3)        # the first 3 solutions as Boards
    solver.enumerate(puzzle, callback=print)  # stream every solution
    nodes, prefix = solver.split(puzzle, 3)   # subtrees for parallel runs

Every rule and strategy of Benoist & Bourreau (2008) has its own switch, so each ablation
of the paper can be rerun.  The compiled kernel runs in slices (see :mod:`.search`);
between slices Python checks the limits, reports progress, drains solutions and lets
Ctrl-C through.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ...errors import InputError
from ...model import Board, Puzzle
from ...model.tiles import rotation_convention
from ..base import Engine, Limits, SliceReport, Subtree
from ..result import SearchResult
from ..start import start_placements
from . import search as K
from .tables import (
    CFG,
    CFG_BACKJUMP,
    CFG_CONTRADICTION,
    CFG_CYCLES,
    CFG_HEURISTIC,
    CFG_INSTANTIATION,
    CFG_OPPOSITE,
    CFG_PATTERNS,
    CFG_PREEMPTION,
    CFG_SHARED_EDGES,
    CFG_SHAVE,
    CFG_SHAVE_REPEAT,
    CFG_SIZE,
    CFG_VALUE_ORDER,
    HEURISTICS,
    NPD,
    STAT,
    STAT_NAMES,
    STATS,
    VALUE_ORDERS,
    build_state,
)

FIRST_SLICE_NODES = 50_000
SLICE_SECONDS = 0.25
BUFFER_ROWS = 1024

NODE_NOTE = (
    "nodes = every (tile, rotation) placed: branching decisions, placements forced by the "
    "instantiation rule, shaving probes and the placements their propagation forces"
)


def parse_shaving(shaving, n_tiles: int) -> int:
    """``None``, ``"-"`` or ``"none"``: no shaving (-1); ``"all"``: every square; an
    integer ``L >= 0``: squares with at most ``L`` candidate values."""
    if shaving is None or shaving is False:
        return -1
    if isinstance(shaving, str):
        text = shaving.strip().lower()
        if text in ("-", "none", "off", ""):
            return -1
        if text == "all":
            return 4 * n_tiles
        try:
            shaving = int(text)
        except ValueError:
            raise InputError(f"shaving limit {shaving!r}: use '-', 'all' or a number") from None
    value = int(shaving)
    if value < 0:
        raise InputError(f"shaving limit {value} is negative (use '-' for none)")
    return min(value, 4 * n_tiles)


class ColorPairSolver(Engine):
    """Enumeration with the O(1) ColorPair filtering of Benoist & Bourreau (2008).

    Parameters
    ----------
    heuristic:
        Choice of the most urgent pair when no pattern applies (section 5.1):
        ``min-offer``, ``min-expected-offer``, ``min-expected-gap`` (the paper's best),
        ``min-expected-ratio``, ``max-expected-filtering``.
    preemption:
        Tag tiles preempted by a pair with ``|Offer| = |Demand|`` (section 4.1).
    backjumping:
        Conflict-directed backjumping with explanations (section 5.2).
    shaving:
        ``None``/``"-"`` (none), an integer ``L`` or ``"all"``.
    shaving_passes:
        ``fixpoint`` (repeat the probing pass while it places tiles) or ``one`` (one
        pass per node).
    opposite_pairs:
        Keep ColorPairs for opposite sides as well as clockwise ones (section 3.2).
    contradiction, instantiation:
        The two rules of section 3.1.
    shared_edges, cycles:
        The two rules on remaining tiles of section 4.2.
    patterns:
        The pattern priorities of section 5.1 (off: always the pair heuristic).
    value_order:
        ``tile`` (tile number, then rotation), ``probability`` (decreasing P(t -> p)),
        ``reverse``.  Counts never depend on it.
    each_rotation:
        Place a rotationally symmetric tile in every rotation, each its own placement (as
        Eternity2Puzzles.jl counts), instead of once per distinct look: solutions grow by
        exactly the product of the symmetry factors of the tiles that are not hints.
    time_limit, node_limit:
        Stop after that many seconds / nodes (``complete`` is then False).
    progress:
        Called about every ``progress_interval`` seconds with a dict of statistics.
    """

    name = "colorpair"

    def __init__(
        self,
        heuristic: str = "min-expected-gap",
        preemption: bool = True,
        backjumping: bool = True,
        shaving=None,
        shaving_passes: str = "fixpoint",
        opposite_pairs: bool = True,
        contradiction: bool = True,
        instantiation: bool = True,
        shared_edges: bool = True,
        cycles: bool = True,
        patterns: bool = True,
        value_order: str = "tile",
        each_rotation: bool = False,
        time_limit: float | None = None,
        node_limit: int | None = None,
        progress: Callable[[dict], None] | None = None,
        progress_interval: float = 0.5,
        limits: Limits | None = None,
    ):
        if heuristic not in HEURISTICS:
            raise InputError(f"unknown heuristic {heuristic!r}; choose from {', '.join(HEURISTICS)}")
        if value_order not in VALUE_ORDERS:
            raise InputError(f"unknown value order {value_order!r}; choose from {', '.join(VALUE_ORDERS)}")
        parse_shaving(shaving, 1)  # validate early
        self.heuristic = heuristic
        self.preemption = bool(preemption)
        self.backjumping = bool(backjumping)
        self.shaving = shaving
        if shaving_passes not in ("fixpoint", "one"):
            raise InputError(f"shaving_passes must be 'fixpoint' or 'one', not {shaving_passes!r}")
        self.shaving_passes = shaving_passes
        self.opposite_pairs = bool(opposite_pairs)
        self.contradiction = bool(contradiction)
        self.instantiation = bool(instantiation)
        self.shared_edges = bool(shared_edges)
        self.cycles = bool(cycles)
        self.patterns = bool(patterns)
        self.value_order = value_order
        self.each_rotation = bool(each_rotation)
        self.limits = Limits.of(limits, time_limit=time_limit, node_limit=node_limit)
        self.progress = progress
        self.progress_interval = progress_interval

    # ------------------------------------------------------------------ configuration
    def options(self) -> dict:
        return {
            "heuristic": self.heuristic,
            "preemption": self.preemption,
            "backjumping": self.backjumping,
            "shaving": "-" if parse_shaving(self.shaving, 1) < 0 else str(self.shaving),
            "shaving_passes": self.shaving_passes,
            "opposite_pairs": self.opposite_pairs,
            "contradiction": self.contradiction,
            "instantiation": self.instantiation,
            "shared_edges": self.shared_edges,
            "cycles": self.cycles,
            "patterns": self.patterns,
            "value_order": self.value_order,
            "each_rotation": self.each_rotation,
        }

    def config(self, puzzle: Puzzle) -> np.ndarray:
        cfg = np.zeros(CFG_SIZE, np.int64)
        cfg[CFG_OPPOSITE] = self.opposite_pairs
        cfg[CFG_CONTRADICTION] = self.contradiction
        cfg[CFG_INSTANTIATION] = self.instantiation
        cfg[CFG_PREEMPTION] = self.preemption
        cfg[CFG_SHARED_EDGES] = self.shared_edges
        cfg[CFG_CYCLES] = self.cycles
        cfg[CFG_PATTERNS] = self.patterns
        cfg[CFG_BACKJUMP] = self.backjumping
        cfg[CFG_SHAVE] = parse_shaving(self.shaving, puzzle.n_tiles)
        cfg[CFG_HEURISTIC] = HEURISTICS[self.heuristic]
        cfg[CFG_VALUE_ORDER] = VALUE_ORDERS[self.value_order]
        cfg[CFG_SHAVE_REPEAT] = self.shaving_passes == "fixpoint"
        return cfg

    # ------------------------------------------------------------------ public modes
    def split(self, puzzle: Puzzle, depth: int, start=None) -> tuple[list[Subtree], SearchResult]:
        """The search tree cut after ``depth`` decisions: the consistent nodes at that depth.

        Solutions found above the cut are counted in the returned result.  Searching each
        node (``count(puzzle, start=node)``) replays its decisions, so without backjumping
        ``result.nodes + sum(node counts) == whole search nodes`` exactly; solutions always
        add up.  With backjumping a subtree search cannot jump above its own root, so the
        parts may explore more than the whole search (never fewer solutions).
        """
        if depth < 0:
            raise InputError(f"split depth {depth} is negative")
        nodes: list[Subtree] = []
        result = self._search(
            puzzle, start, Limits(), callback=None, collect=True, record=True, leaf_depth=depth, split_out=nodes
        )
        return nodes, result

    def split_below(self, puzzle: Puzzle, levels: int, start=None) -> tuple[list[Subtree], SearchResult]:
        """``split`` counts its depth from the start already: the subtrees' levels are the
        lengths of their decision paths."""
        return self.split(puzzle, levels, start)

    def _start_level(self, puzzle: Puzzle, start) -> int:
        return len(start.path) if isinstance(start, Subtree) else 0

    # ------------------------------------------------------------------ the run
    def _root(self, puzzle: Puzzle, start):
        """(root placements, decision path) for a start given as a Board, a mapping, a
        Subtree or a sequence of (square, tile, rotation) decisions."""
        hints = {h.square: (h.tile, h.rotation) for h in puzzle.hints}
        path: list[tuple[int, int, int]] = []
        placed = dict(hints)
        if start is None:
            pass
        elif isinstance(start, Subtree) and start.path:
            path = [(int(s), int(t), int(r)) for s, t, r in start.path]
        elif isinstance(start, Board) or isinstance(start, Mapping):
            placed.update(start_placements(puzzle, start))
        else:
            try:
                path = [(int(s), int(t), int(r)) for s, t, r in start]
            except (TypeError, ValueError):
                raise InputError(
                    "start must be a Board, a mapping square -> (tile, rotation), a Subtree "
                    "or a sequence of (square, tile, rotation) decisions"
                ) from None
        for square, tile, rotation in path:
            if not (0 <= square < puzzle.n_squares and 0 <= tile < puzzle.n_tiles and 0 <= rotation < 4):
                raise InputError(f"bad decision (square {square}, tile {tile + 1}, rotation {rotation})")
        # int64 throughout, like the kernel's own integers: one compiled specialisation
        squares = np.array(list(placed.keys()), np.int64)
        tiles = np.array([placed[s][0] for s in placed], np.int64)
        rotations = np.array([placed[s][1] % 4 for s in placed], np.int64)
        path_array = np.array([(s, t * 4 + r) for s, t, r in path], np.int64).reshape(-1, 2)
        return squares, tiles, rotations, path_array

    def _search(
        self, puzzle, start, limits: Limits, *, callback, collect, record, leaf_depth=None, split_out=None
    ) -> SearchResult:
        result = SearchResult(solver=self.name, rotations=rotation_convention(self.each_rotation))
        cfg = self.config(puzzle)
        squares, tiles, rotations, path = self._root(puzzle, start)
        M, layout = _fresh_state(puzzle, cfg, self.each_rotation)
        stat = M[STATS : STATS + len(STAT_NAMES)]  # a view: the statistics as the kernel updates them
        npd = layout.view(M, NPD)[0]
        driver = self.driver(result, limits, first_budget=FIRST_SLICE_NODES, slice_seconds=SLICE_SECONDS)
        ok = K.place_root(M, squares, tiles, rotations)
        start_level = 0
        if ok and len(path):
            ok = K.replay(M, path)
            start_level = len(path)
            stat[:] = 0  # the replayed nodes belong to the search that made the split
            npd[:] = 0
        stats: dict[str, Any] = {"options": self.options(), "nodes_are": NODE_NOTE, "kernel_calls": 0}
        if not ok:
            result.complete = True
            return self._finish(result, stat, npd, stats, driver.started)
        k = limits.solutions
        leaf = -1 if leaf_depth is None else start_level + int(leaf_depth)
        st = np.array([K.MODE_NODE, start_level, start_level, leaf, 0], np.int64)
        rows = 0
        if record:
            rows = BUFFER_ROWS if k is None else max(1, min(BUFFER_ROWS, k))
        out_boards = np.zeros((rows, puzzle.n_squares), np.int32)
        path_width = 2 * (leaf - start_level) if split_out is not None else 0
        out_paths = np.zeros((rows, max(0, path_width)), np.int32)
        prefix = tuple((int(s), int(v) >> 2, int(v) & 3) for s, v in path)
        weights = np.zeros(4 * puzzle.n_tiles + 1, np.float64)

        def run_slice(want: int) -> SliceReport:
            nonlocal out_boards, out_paths
            nodes_before, solutions_before = int(stat[STAT["nodes"]]), int(stat[STAT["solutions"]])
            status = K.search(M, st, np.int64(want), out_boards, out_paths, weights)
            stats["kernel_calls"] += 1
            boards = []
            for row in range(int(st[4])):
                board = Board.from_codes(puzzle, out_boards[row])
                if split_out is not None and not board.is_complete:
                    pairs = out_paths[row].reshape(-1, 2)
                    decisions = prefix + tuple((int(s), int(v) >> 2, int(v) & 3) for s, v in pairs)
                    split_out.append(Subtree(board, decisions, level=len(decisions)))
                    continue
                boards.append(board)
            solutions = int(stat[STAT["solutions"]])
            if status == K.BUFFER and k is not None:  # the buffer is full: fit it to what is left to find
                st_rows = max(1, min(BUFFER_ROWS, k - solutions))
                if st_rows != out_boards.shape[0]:
                    out_boards = np.zeros((st_rows, puzzle.n_squares), np.int32)
                    out_paths = np.zeros((st_rows, out_paths.shape[1]), np.int32)
            return SliceReport(
                nodes=int(stat[STAT["nodes"]]) - nodes_before,
                solutions=solutions - solutions_before,
                finished=status == K.FINISHED,
                boards=boards,
                deepest=int(stat[STAT["max_level"]]),
            )

        if driver.run(run_slice, callback=callback, collect=collect):
            result.complete = True
        return self._finish(result, stat, npd, stats, driver.started)

    def _finish(self, result: SearchResult, stat, npd, stats: dict, started: float) -> SearchResult:
        for name in STAT_NAMES:
            stats[name] = int(stat[STAT[name]])
        result.solutions = stats["solutions"]
        result.nodes = stats["nodes"]
        per_depth = [int(v) for v in npd]
        while per_depth and per_depth[-1] == 0:
            per_depth.pop()
        result.nodes_per_depth = per_depth
        result.statistics.update(stats)  # keeps what the driver noted (an interruption while warming)
        result.seconds = time.perf_counter() - started
        return result


_STATES: dict = {}
_STATES_KEPT = 8


def _fresh_state(puzzle: Puzzle, cfg: np.ndarray, each_rotation: bool = False):
    """A copy of the empty-board state of ``puzzle`` with the switches ``cfg``.

    Building the tables takes milliseconds of Python; the many short searches of a split
    (one per subtree) or of the tests would spend most of their time there, so the last
    few empty states are kept (keyed by what they depend on: size, tiles, opposite pairs,
    the rotations tried).
    """
    key = (puzzle.width, puzzle.height, puzzle.tiles.tobytes(), bool(cfg[CFG_OPPOSITE]), bool(each_rotation))
    entry = _STATES.get(key)
    if entry is None:
        M, layout = build_state(puzzle, opposite=bool(cfg[CFG_OPPOSITE]), each_rotation=each_rotation)
        M[CFG : CFG + CFG_SIZE] = cfg
        K.init_state(M)  # reads only the opposite-pairs switch
        if len(_STATES) >= _STATES_KEPT:
            _STATES.pop(next(iter(_STATES)))
        entry = _STATES[key] = (M, layout)
    template, layout = entry
    M = template.copy()
    M[CFG : CFG + CFG_SIZE] = cfg
    return M, layout
