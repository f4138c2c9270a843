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
from ...model.tiles import rotation_convention
from ..backtrack.exact import NODES_ARE
from ..backtrack.kernel import FINISHED
from ..backtrack.plan import P_NCHK, build_plan
from ..backtrack.solver import BacktrackSolver
from ..base import Engine, Limits, SliceReport, StopReason
from ..result import SearchResult
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
        self.batch = int(batch)
        self.limits = Limits.of(limits, time_limit=time_limit, node_limit=node_limit)
        self.progress = progress
        self.progress_interval = progress_interval

    def depth(self, puzzle: Puzzle) -> int:
        return len(BacktrackSolver(self.order, self.corner).search_squares(puzzle))

    def _search(self, puzzle: Puzzle, start, limits: Limits, *, callback, collect, record) -> SearchResult:
        if start is not None:
            raise self.cannot("start from a board (its phase one fixes every tile's rotation first)")
        total = SearchResult(solver=self.name, rotations=rotation_convention(False))
        squares = BacktrackSolver(self.order, self.corner).search_squares(puzzle)
        plan = build_plan(puzzle, squares, colour_tables=self.parity)
        depth = plan.depth
        total.nodes_per_depth = [0] * depth
        batches = BalancedBatches(puzzle, self.parity, self.batch)
        set_stats = np.zeros(3, np.int64)
        total.statistics = {
            "nodes_are": NODES_ARE + " (phase two, summed over the rotation sets)",
            "order": self.order if isinstance(self.order, str) else "custom",
            "parity": self.parity,
        }

        def figures() -> dict:
            return {
                "rotation_sets_searched": int(set_stats[0]),
                "rotation_sets_with_solutions": int(set_stats[1]),
                "phase_one_nodes": int(batches.nodes),
            }

        driver = self.driver(
            total, limits, first_budget=FIRST_SLICE_NODES, slice_seconds=SLICE_SECONDS, extra_progress=figures
        )
        if not Board.from_codes(puzzle, plan.board0).verify(require_complete=False).valid or depth == 0:
            # hints that contradict each other (no solution), or nothing to place
            ok = depth == 0 and Board.from_codes(puzzle, plan.board0).verify().valid
            if ok:
                driver.add(solutions=1)
                full = Board.from_codes(puzzle, plan.board0)
                if collect and record:
                    total.boards.append(full)
                if callback is not None and record:
                    callback(full)
            total.complete = True
            total.statistics.update(figures())
            return total

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

        def run_slice(want: int) -> SliceReport:
            if current[0] is None or position[0] >= current[1]:
                if batches.finished:
                    return SliceReport(nodes=0, finished=True)
                batch = batches.next_batch(PHASE_ONE_NODES)
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
            for d in np.flatnonzero(npd):
                total.nodes_per_depth[d] += int(npd[d])
            finished = status == FINISHED and batches.finished
            return SliceReport(
                nodes=int(nodes),
                solutions=int(leaves),
                finished=finished,
                boards=[Board.from_codes(puzzle, out[r]) for r in range(written)],
            )

        done = driver.run(run_slice, callback=callback, collect=collect)
        total.complete = done and total.stopped_by is None
        if not total.complete and total.stopped_by is None:
            total.stopped_by = StopReason.INTERRUPTED
        total.seconds = driver.elapsed()
        total.statistics.update(figures())
        return total
