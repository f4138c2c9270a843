"""``--solver balanced``: the two-phase search of the strategies page's last idea.

Phase one goes through the balanced rotation sets of the puzzle (every tile one rotation,
frame tiles sent to a side, each colour's east sides equal to its west sides and north to
south; with ``parity`` also a black or white square colour per tile); phase two searches
each set with the backtracker, rotations fixed, so each square's candidates are about a
quarter of the plain search's.  Each solution has exactly one rotation set and it is
balanced, so the counts are the plain engine's; the nodes are phase two's placements
summed over all sets, and ``statistics`` says how many sets were searched.  Whether that
pays is measured in benchmarks/balanced.py (docs/balanced-rotations.md).
"""

from __future__ import annotations

import numpy as np

from ...balanced import BalancedBatches
from ...model import Board, Puzzle
from ...model import tiles as T
from ...model.symmetry import divides_raw_count_by
from ...model.tiles import rotation_convention
from ..backtrack.exact import NODES_ARE
from ..backtrack.kernel import FINISHED
from ..backtrack.plan import P_NCHK, build_plan
from ..backtrack.solver import BacktrackSolver
from ..base import Engine, Limits, SliceReport, StopReason
from ..result import SearchResult, add_nodes_per_depth
from .kernel import search_sets

FIRST_SLICE_NODES = 200_000
SLICE_SECONDS = 0.2
BATCH = 4096
#: Options phase one may try per call before it hands back the sets it has (short slices
#: even where balanced sets are rare).
PHASE_ONE_NODES = 2_000_000


class BalancedSolver(Engine):
    """Two-phase exact search: balanced rotation sets, then placements with them fixed.

    Parameters
    ----------
    parity:
        Also give every tile a square colour (checkerboard parity); the sets are fewer and
        each is searched on its own colour's squares only.
    order, corner:
        The backtracker's scan order for phase two (see ``BacktrackSolver``).
    symmetry:
        Count solutions up to board rotation (the lowest corner tile fixed on a corner, as
        every exact engine does: :mod:`edgematch.model.symmetry`); phase one then goes
        through the balanced sets of each such hinted puzzle.
    each_rotation:
        Count rotations of a symmetric tile that show the same edges as different
        placements (Eternity2Puzzles.jl's convention): phase two tries each of them
        wherever the set's rotation is allowed.
    time_limit, node_limit, limits:
        Stop after that many seconds / phase-two nodes.
    batch:
        Rotation sets produced by phase one per call of its kernel.
    """

    name = "balanced"

    def __init__(
        self,
        parity: bool = False,
        order="rowscan",
        corner: str | None = None,
        symmetry: bool = False,
        each_rotation: bool = False,
        time_limit: float | None = None,
        node_limit: int | None = None,
        batch: int = BATCH,
        progress=None,
        progress_interval: float = 0.5,
        limits: Limits | None = None,
    ):
        self.parity = bool(parity)
        self.order = order
        self.corner = corner
        self.symmetry = bool(symmetry)
        self.each_rotation = bool(each_rotation)
        self.batch = int(batch)
        self.limits = Limits.of(limits, time_limit=time_limit, node_limit=node_limit)
        self.progress = progress
        self.progress_interval = progress_interval

    def depth(self, puzzle: Puzzle) -> int:
        return len(BacktrackSolver(self.order, self.corner).search_squares(puzzle))

    def _search(self, puzzle: Puzzle, start, limits: Limits, *, callback, collect, record) -> SearchResult:
        if start is not None:
            raise self.cannot("start from a board (its phase one fixes every tile's rotation first)")
        total = SearchResult(solver=self.name, rotations=rotation_convention(self.each_rotation))
        variants = self.variants(puzzle)
        search = BacktrackSolver(self.order, self.corner)
        total.nodes_per_depth = [0] * max(len(search.search_squares(v)) for v in variants)
        set_stats = np.zeros(3, np.int64)
        phase_one = [0]
        total.statistics = {
            "nodes_are": NODES_ARE + " (phase two, summed over the rotation sets)",
            "order": self.order if isinstance(self.order, str) else "custom",
            "parity": self.parity,
            "symmetry": self.symmetry,
        }
        if self.symmetry:
            total.statistics["symmetry_divides_raw_count_by"] = divides_raw_count_by(puzzle)

        def figures() -> dict:
            return {
                "rotation_sets_searched": int(set_stats[0]),
                "rotation_sets_with_solutions": int(set_stats[1]),
                "phase_one_nodes": int(phase_one[0]),
            }

        driver = self.driver(
            total, limits, first_budget=FIRST_SLICE_NODES, slice_seconds=SLICE_SECONDS, extra_progress=figures
        )
        complete = True
        for variant in variants:
            done = self._search_variant(
                variant,
                puzzle,
                search.search_squares(variant),
                driver,
                total,
                set_stats,
                phase_one,
                callback,
                collect,
                record,
            )
            complete = complete and done
            wanted = driver.solutions_left()
            if total.stopped_by is not None or not done or (wanted is not None and wanted <= 0):
                break
        total.complete = complete and total.stopped_by is None
        if not complete and total.stopped_by is None:
            total.stopped_by = StopReason.INTERRUPTED
        total.seconds = driver.elapsed()
        total.statistics.update(figures())
        return total

    def _search_variant(
        self, puzzle: Puzzle, owner: Puzzle, squares, driver, total, set_stats, phase_one, callback, collect, record
    ) -> bool:
        """Both phases on ``puzzle`` (the puzzle, or one symmetry variant of ``owner``);
        True when every balanced set was searched to the end."""
        plan = build_plan(puzzle, squares, colour_tables=self.parity, each_rotation=self.each_rotation)
        depth = plan.depth
        start_board = Board.from_codes(owner, plan.board0)
        if depth == 0 or not start_board.verify(require_complete=False).valid:
            # nothing to place, or hints that contradict each other (no solution)
            if depth == 0 and start_board.verify().valid:
                driver.add(solutions=1)
                if collect and record:
                    total.boards.append(start_board)
                if callback is not None and record:
                    callback(start_board)
            return True
        batches = BalancedBatches(puzzle, self.parity, self.batch)
        canon = canonical_rotations(puzzle)
        rows = plan.exact_phases()
        checks = rows if (rows[:, P_NCHK] > 0).any() else None
        cand = np.empty_like(plan.cand)
        starts = np.empty_like(plan.starts)
        board = plan.board0.copy()
        used = plan.used0.copy()
        cur = np.zeros(depth + 1, np.int32)
        end = np.zeros(depth + 1, np.int32)
        state = np.zeros(4, np.int64)
        position = np.array([0, 1], np.int64)
        npd = np.zeros(depth, np.int64)
        wanted = driver.solutions_left()
        rows_out = (1024 if wanted is None else max(1, min(1024, wanted))) if record else 0
        out = np.zeros((rows_out, puzzle.n_squares), np.int32)
        current: list = [None, 0]  # the batch in hand and its size
        counted = [0]  # phase-one nodes of this variant already added to phase_one

        def run_slice(want: int) -> SliceReport:
            if current[0] is None or position[0] >= current[1]:
                if batches.finished:
                    return SliceReport(nodes=0, finished=True)
                batch = batches.next_batch(PHASE_ONE_NODES)
                phase_one[0] += batches.nodes - counted[0]
                counted[0] = batches.nodes
                current[0], current[1] = batch, len(batch[0])
                position[:] = (0, 1)
                if current[1] == 0:
                    return SliceReport(nodes=0, finished=batches.finished)
            rotations, colours = current[0]
            left = driver.solutions_left()
            npd[:] = 0
            nodes, leaves, written, status = search_sets(
                rotations,
                colours,
                current[1],
                position,
                plan.cand,
                plan.starts,
                plan.cand_colour,
                canon,
                plan.pcol,
                plan.order,
                rows,
                plan.board0,
                plan.used0,
                cand,
                starts,
                board,
                used,
                cur,
                end,
                state,
                np.int64(want),
                np.int64(-1 if left is None else left),
                out,
                npd,
                checks,
                set_stats,
            )
            add_nodes_per_depth(total.nodes_per_depth, npd)
            return SliceReport(
                nodes=int(nodes),
                solutions=int(leaves),
                finished=status == FINISHED and batches.finished,
                boards=[Board.from_codes(owner, out[r]) for r in range(written)],
            )

        return driver.run(run_slice, callback=callback, collect=collect)


def canonical_rotations(puzzle: Puzzle) -> np.ndarray:
    """For every placement ``t * 4 + r`` the first rotation of tile ``t`` that shows the
    same edges (the rotation a rotation set names)."""
    canon = np.zeros(puzzle.n_tiles * 4, np.int8)
    for t, edges in enumerate(puzzle.tiles):
        for r in range(4):
            look = T.rotate(edges, r)
            canon[t * 4 + r] = next(q for q in range(4) if (T.rotate(edges, q) == look).all())
    return canon
