"""The classical CP model of an edge-matching puzzle, solved with OR-Tools CP-SAT.

This is the baseline of Benoist & Bourreau (2008), whose Choco model it follows:

* per square a *tile* variable and a *rotation* variable;
* ``AllDifferent`` on the tile variables;
* per square four edge-colour variables (N, E, S, W) linked to (tile, rotation) by a
  table constraint (``AddAllowedAssignments``) listing, for every tile that may stand on
  the square, every rotation in which it fits the square's border;
* equal colours on both sides of every join;
* the grey border: sides facing the outside are 0, every other side is not 0;
* hints fix the tile and rotation of their squares.

It shares no search code with the other engines, which is what makes it useful as an
independent check of their counts and solution sets.

Rotationally symmetric tiles: a solution is a distinct *placement*, so rotations that
show the same edges must count once.  The table lists only the smallest rotation of each
distinct arrangement of edges (and a hint's rotation is normalised the same way), so each
placement is exactly one assignment of the variables and enumeration never repeats it.
With ``each_rotation`` (Eternity2Puzzles.jl's convention) the table lists all four
rotations instead and a hint keeps its given rotation: every rotation is its own solution.

Nodes: CP-SAT does not report placed tiles; ``nodes`` holds its number of *branches*
(``NumBranches``), which the statistics say explicitly.  Compare node counts between
engines only with that in mind.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import numpy as np
from ortools.sat.python import cp_model

from ..errors import InputError
from ..model import Board, Hint, Puzzle
from ..model import tiles as T
from .base import Engine, Limits, StopFlag, stop_on_signals
from .result import SearchResult
from .start import start_placements

NODE_NOTE = "nodes = CP-SAT search branches (NumBranches), not placed tiles"


class CpSatModel:
    """The CP model of one puzzle: variables kept so that a solution reads back as a Board."""

    def __init__(self, puzzle: Puzzle, each_rotation: bool = False):
        self.puzzle = puzzle
        self.each_rotation = each_rotation
        self.model = cp_model.CpModel()
        W, H = puzzle.width, puzzle.height
        n = puzzle.n_squares
        n_tiles = puzzle.n_tiles
        max_colour = int(puzzle.tiles.max()) if puzzle.n_tiles else 0
        m = self.model
        hint_map = puzzle.hint_map
        hinted_tiles = {tile for tile, _ in hint_map.values()}

        self.tile = [m.new_int_var(0, n_tiles - 1, f"tile_{s}") for s in range(n)]
        self.rotation = [m.new_int_var(0, 3, f"rot_{s}") for s in range(n)]
        self.colour = []  # colour[s][side]
        for s in range(n):
            outer = T.outer_sides(s, W, H)
            sides = []
            for side in range(4):
                if outer[side]:
                    sides.append(m.new_constant(T.GREY))  # grey border
                else:
                    sides.append(m.new_int_var(1, max(max_colour, 1), f"c_{s}_{'NESW'[side]}"))  # never grey inside
            self.colour.append(sides)

        m.add_all_different(self.tile)

        # Candidate (tile, rotation) rows per border shape: shape = which sides are outer.
        rotated = T.rotated_table(puzzle.tiles)  # (n, 4, 4)
        rows_by_shape: dict[tuple[bool, ...], list[tuple[int, ...]]] = {}
        for s in range(n):
            outer = T.outer_sides(s, W, H)
            if s in hint_map:
                tile, rot = hint_map[s]
                if not each_rotation:
                    rot = T.canonical_rotation(puzzle.tiles[tile], rot)
                shown = rotated[tile, rot]
                rows = [(tile, rot, *map(int, shown))]
            else:
                if outer not in rows_by_shape:
                    rows_by_shape[outer] = self._rows(rotated, outer, hinted_tiles)
                rows = rows_by_shape[outer]
            m.add_allowed_assignments([self.tile[s], self.rotation[s], *self.colour[s]], rows)

        # Equal colours on both sides of every join.
        for s in range(n):
            row, col = divmod(s, W)
            if col + 1 < W:
                m.add(self.colour[s][T.E] == self.colour[s + 1][T.W])
            if row + 1 < H:
                m.add(self.colour[s][T.S] == self.colour[s + W][T.N])

    def _rows(self, rotated: np.ndarray, outer: tuple[bool, ...], hinted_tiles: set[int]) -> list[tuple[int, ...]]:
        """Allowed (tile, rotation, N, E, S, W) on a square with these outer sides."""
        rows = []
        for tile in range(self.puzzle.n_tiles):
            if tile in hinted_tiles:
                continue
            for rot in T.placement_rotations(self.puzzle.tiles[tile], self.each_rotation):
                shown = rotated[tile, rot]
                if all((int(shown[side]) == T.GREY) == outer[side] for side in range(4)):
                    rows.append((tile, rot, *map(int, shown)))
        return rows

    def board(self, values: Callable) -> Board:
        """The board of the current solution; ``values`` reads a variable's value."""
        tiles = [values(v) for v in self.tile]
        rotations = [values(v) for v in self.rotation]
        return Board(self.puzzle, tiles, rotations)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Counts solutions, keeps the first ``keep`` boards, stops after ``stop_after`` or
    when ``callback(board)`` returns True."""

    def __init__(self, model: CpSatModel, keep: int | None, stop_after: int | None, callback=None):
        super().__init__()
        self._model = model
        self._keep = keep
        self._stop_after = stop_after
        self._callback = callback
        self.count = 0
        self.boards: list[Board] = []
        self.stopped_by: str | None = None

    def on_solution_callback(self) -> None:
        if self.stopped_by is not None:
            return  # another worker's solution, reported after the stop was asked for
        self.count += 1
        wants_board = self._keep is None or len(self.boards) < self._keep
        if wants_board or self._callback is not None:
            board = self._model.board(self.Value)
            if wants_board:
                self.boards.append(board)
            if self._callback is not None and self._callback(board):
                self.stopped_by = "callback"
        if self.stopped_by is None and self._stop_after is not None and self.count >= self._stop_after:
            self.stopped_by = "solutions"
        if self.stopped_by is not None:
            self.StopSearch()


class CpSatSolver(Engine):
    """Count or enumerate the solutions of a puzzle with the CP-SAT model.

    ``time_limit``: seconds (None = no limit).  ``workers``: CP-SAT search workers; full
    enumeration (``count`` and ``solve`` with ``k`` other than 1) always runs on one
    worker, as CP-SAT's exact enumeration requires.  ``symmetry``: count up to board
    rotation, as the backtracking engine does (the lowest-numbered corner tile fixed on
    the top-left corner, or on one of the two top corners of a rectangular board; only
    for puzzles without hints).  CP-SAT picks its own branching, so a scan ``order``
    other than the default row scan, or a ``corner``, is refused rather than ignored;
    ``node_limit`` is not supported (CP-SAT has no branch limit).  ``each_rotation``:
    every rotation of a symmetric tile is its own placement (Eternity2Puzzles.jl's count).
    """

    name = "cpsat"

    def __init__(
        self,
        time_limit: float | None = None,
        workers: int = 1,
        symmetry: bool = False,
        order=None,
        corner: str | None = None,
        node_limit: int | None = None,
        limits: Limits | None = None,
        each_rotation: bool = False,
    ):
        self.limits = self._checked(Limits.of(limits, time_limit=time_limit, node_limit=node_limit))
        if order not in (None, "rowscan") or corner is not None:
            raise InputError("the cpsat solver picks its own branching: --order and --corner do not apply to it")
        self.workers = max(1, int(workers))
        self.symmetry = symmetry
        self.each_rotation = bool(each_rotation)

    @staticmethod
    def _checked(limits: Limits) -> Limits:
        if limits.nodes is not None:
            raise InputError("the cpsat solver has no node limit (use --time-limit)")
        return limits

    def _search(self, puzzle: Puzzle, start, limits: Limits, *, callback, collect, record) -> SearchResult:
        keep = limits.solutions if record and collect else 0  # boards kept: the k wanted, or all (None)
        return self._run(puzzle, start, self._checked(limits), keep=keep, callback=callback if record else None)

    def _rooted(self, puzzle: Puzzle, start) -> Puzzle:
        """The puzzle with the start board's placements fixed like hints (the subtree below it)."""
        if start is None:
            return puzzle
        if self.symmetry:
            raise InputError("symmetry and a start board cannot be combined")
        placed = dict(puzzle.hint_map)
        placed.update(start_placements(puzzle, start))
        return puzzle.with_hints([Hint(sq, t, r) for sq, (t, r) in placed.items()])

    def _run(self, owner: Puzzle, root, limits: Limits, keep: int | None, callback=None) -> SearchResult:
        puzzle = self._rooted(owner, root)
        stop_after = limits.solutions
        start = time.perf_counter()
        total = SearchResult(
            solver=self.name,
            complete=True,
            rotations=T.rotation_convention(self.each_rotation),
            statistics={
                "nodes_are": NODE_NOTE,
                "branches": 0,
                "conflicts": 0,
                "status": [],
                "solver_wall_seconds": 0.0,
            },
        )
        for variant in self.variants(puzzle):
            left = None if limits.time is None else limits.time - (time.perf_counter() - start)
            want = None if stop_after is None else stop_after - total.solutions
            want_boards = None if keep is None else keep - len(total.boards)
            if self.stop is not None and self.stop.is_set():
                total.complete = False
                total.stopped_by = str(self.stop.reason)
                break
            if (left is not None and left <= 0) or (want is not None and want <= 0):
                total.complete = False
                total.stopped_by = total.stopped_by or ("solutions" if want is not None and want <= 0 else "time")
                break
            part = self._run_one(variant, want_boards, want, callback, left)
            total.solutions += part.solutions
            total.nodes += part.nodes
            total.boards.extend(Board(owner, b.tiles, b.rotations) for b in part.boards)
            for key in ("branches", "conflicts", "solver_wall_seconds"):
                total.statistics[key] += part.statistics[key]
            total.statistics["status"].append(part.statistics["status"])
            total.statistics["workers"] = part.statistics["workers"]
            if not part.complete:
                total.complete = False
                total.stopped_by = part.stopped_by
                break
        total.statistics["status"] = ", ".join(total.statistics["status"])
        total.seconds = time.perf_counter() - start
        return total

    def _run_one(
        self, puzzle: Puzzle, keep: int | None, stop_after: int | None, callback, time_limit: float | None
    ) -> SearchResult:
        built = CpSatModel(puzzle, self.each_rotation)
        solver = cp_model.CpSolver()
        enumerate_all = stop_after != 1
        solver.parameters.enumerate_all_solutions = enumerate_all
        solver.parameters.num_workers = 1 if enumerate_all else self.workers
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = float(time_limit)
        # CP-SAT would catch SIGINT itself and end as if its time were up; a stop flag's hook
        # stops it instead, so that a signal is reported as the interruption it is.  Without
        # the caller's flag (a Python caller), the call watches SIGINT/SIGTERM with its own.
        solver.parameters.catch_sigint_signal = False
        stop = self.stop if self.stop is not None else StopFlag()
        watching = contextlib.nullcontext() if self.stop is not None else stop_on_signals(stop)
        collector = _Collector(built, keep, stop_after, callback)
        with watching, stop.hook(solver.stop_search):
            stop.working()
            status = solver.Solve(built.model, collector)

        stopped_by = collector.stopped_by
        if stopped_by is None and stop.is_set():
            stopped_by = str(stop.reason)
        if stop_after == 1 and collector.count >= 1 and stopped_by is None:
            stopped_by = "solutions"  # without enumeration CP-SAT ends at its first solution
        complete = stopped_by is None and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
        if not complete and stopped_by is None:
            stopped_by = "time"
        return SearchResult(
            solutions=collector.count,
            nodes=int(solver.NumBranches()),
            complete=complete,
            stopped_by=stopped_by,
            boards=collector.boards,
            statistics={
                "branches": int(solver.NumBranches()),
                "conflicts": int(solver.NumConflicts()),
                "status": solver.StatusName(status),
                "solver_wall_seconds": float(solver.WallTime()),
                "workers": 1 if enumerate_all else self.workers,
            },
            solver=self.name,
        )
