"""The exact driver of the backtracker: counts and lists every solution below a start.

:class:`~.solver.BacktrackSolver` builds the slice driver (limits, progress, stopping) and
calls :func:`exact_search`; this module only turns one puzzle into kernel arrays and runs
the list or bitboard kernel one slice at a time.
"""

from __future__ import annotations

import numpy as np

from ...errors import InputError
from ...model import Board, Puzzle
from ..base import SliceDriver, SliceReport, StopReason
from ..result import SearchResult, add_nodes_per_depth
from . import background_compile, generated
from . import kernel as K
from .bit_kernel import bit_search
from .placements import start_arrays
from .plan import P_NCHK, list_kernel_tables
from .prefix_filter import PrefixFilter

#: What this engine counts as a node (the statistics key every engine fills).
NODES_ARE = "nodes = every (tile, rotation) the search places on a square, counted when placed"


def exact_search(
    solver,
    puzzle: Puzzle,
    start,
    driver: SliceDriver,
    total: SearchResult,
    callback,
    collect: bool,
    record: bool,
    leaf: int | None = None,
) -> SearchResult:
    """Every solution of ``puzzle`` below ``start`` (or of its symmetry variants), into
    ``total``; ``leaf`` stops each branch at that depth (a split)."""
    if solver.symmetry and start is not None:
        raise InputError("symmetry and a start board cannot be combined")
    variants = solver.variants(puzzle) if start is None else [puzzle]
    total.statistics = {
        "nodes_are": NODES_ARE,
        "order": solver.order if isinstance(solver.order, str) else "custom",
        "corner": solver.corner,
        "symmetry": bool(solver.symmetry),
        "kernel_calls": 0,
    }
    note_rotation_set(solver, total)
    if solver.symmetry:
        sym = variants[0].hints[0]
        total.statistics["symmetry_fixed"] = {
            "tile": sym.tile + 1,
            "squares": [int(v.hints[0].square) for v in variants],
            "divides_raw_count_by": 4 // len(variants),
        }
    complete = True
    for variant in variants:
        part = _search_one(solver, variant, start, callback, collect, record, leaf, driver, total, owner=puzzle)
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


def note_rotation_set(solver, total: SearchResult) -> None:
    """Say in the statistics that the search had its rotations fixed (and how)."""
    fixed = getattr(solver, "rotations", None)
    if fixed is not None:
        parity = getattr(fixed, "colours", None) is not None or (isinstance(fixed, dict) and fixed.get("colours"))
        total.statistics["rotation_set"] = "fixed, with parity" if parity else "fixed"


def _search_one(
    solver,
    puzzle: Puzzle,
    start,
    callback,
    collect,
    record,
    leaf,
    driver: SliceDriver,
    total: SearchResult,
    owner: Puzzle,
) -> bool:
    """One exact search of ``puzzle`` (the puzzle or a symmetry variant); True when its
    space was exhausted. Solutions are boards of ``owner``, the puzzle asked about."""
    plan = solver.plan(puzzle)
    D = plan.depth
    if len(total.nodes_per_depth) < D:
        total.nodes_per_depth.extend([0] * (D - len(total.nodes_per_depth)))
    leaf = D if leaf is None else leaf
    board, used, first = start_arrays(plan, start, exact=True)
    if board is None:  # hints contradict each other (or the rotation set a hint or the start)
        return True
    if first == leaf:  # nothing left to place below the start
        driver.add(solutions=1)
        if record:
            solution = Board.from_codes(owner, board)
            if collect:
                total.boards.append(solution)
            if callback is not None and callback(solution):
                driver.halt(StopReason.CALLBACK)
        return True
    if first > leaf:
        raise InputError(f"the start board already fills {first} squares of the order, more than {leaf}")
    cur = np.zeros(D + 1, np.int64)
    end = np.zeros(D + 1, np.int64)
    state = np.array([first, first, leaf, 1], dtype=np.int64)
    rows = plan.exact_phases()
    bits = solver.bit_tables(plan, rows)
    total.statistics["kernel"] = "bits" if bits is not None else "lists"
    written_out = None
    waiting = None  # auto on the list kernel: the generated kernel's arguments (take_generated)
    if bits is None:
        tables = plan_tables(plan)
        board = tables.board(board)
        rows = tables.rows(rows)
        align = None
        if solver.kernel in ("generated", "auto") and leaf == D and generated.supports(tables, rows):
            # written for the whole puzzle (hints only, from depth 0), so that every subtree
            # of a split shares it: a subtree's slices run it from the first function start
            # at or below the subtree's own depth, where the prefix filter puts them
            arguments = (
                rows, plan.order, tables.board(plan.board0), tables.cmask, tables.pmask, 0, puzzle.n_tiles,
                len(tables.starts),
            )  # fmt: skip
            if solver.kernel == "generated":
                written_out = generated.load(*arguments)
                align = (0, generated.DEPTHS_PER_FUNCTION)
            else:
                waiting = arguments
        prefix = PrefixFilter(
            tables, plan.order, puzzle.n_tiles, rows[:, None, :].copy(), np.zeros(D + 1, np.int32), align
        )
    checks = rows if (rows[:, P_NCHK] > 0).any() else None
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

    text = None  # the generated kernel's source, written once a search is worth a compile

    def start_compile() -> background_compile.BackgroundCompile:
        nonlocal text
        assert waiting is not None
        text = generated.source(*waiting)
        return background_compile.compile_once(text, "edgematch_exact", "int64")

    def take_generated() -> None:
        nonlocal written_out
        assert waiting is not None
        written_out = generated.load(*waiting, text=text)
        prefix.align = (0, generated.DEPTHS_PER_FUNCTION)

    switch: background_compile.KernelSwitch | None = None  # auto, until it takes the generated kernel
    if waiting is not None:
        switch = background_compile.KernelSwitch(driver, start_compile, take_generated, total.statistics)

    def run_slice(want: int) -> SliceReport:
        if switch is not None:
            switch.poll()
        left = driver.solutions_left()
        max_solutions = -1 if left is None else left
        fell_back = False
        if bits is None:
            cand, starts = prefix.enter(board, cur, end, state, npd)
        npd[:] = 0
        if bits is not None:
            nodes, leaves, written, status = bit_search(
                plan.cand,
                bits.list_first,
                bits.keymask,
                bits.dups,
                plan.pcol,
                plan.order,
                bits.rows,
                board,
                umask,
                rem,
                occ,
                keys,
                tile_bits,
                state,
                np.int64(want),
                np.int64(max_solutions),
                out,
                npd,
            )
        else:
            if written_out is not None and written_out.runs(int(state[1])):
                total.statistics["kernel"] = "generated"
                nodes, leaves, written, status = written_out.search(
                    cand, starts, board, used, cur, end, state, np.int64(want), np.int64(max_solutions), out, npd
                )
            else:
                nodes, leaves, written, status = K.exact_search(
                    cand,
                    starts,
                    tables.pcol,
                    plan.order,
                    rows,
                    board,
                    used,
                    cur,
                    end,
                    state,
                    np.int64(want),
                    np.int64(max_solutions),
                    out,
                    npd,
                    checks,
                    np.int64(tables.cmask),
                    np.int64(tables.pmask),
                )
            fell_back = prefix.leave(board, used, cur, end, state, status == K.FINISHED, clear=False)
            prefix.note(total.statistics)
        total.statistics["kernel_calls"] += 1
        add_nodes_per_depth(total.nodes_per_depth, npd)
        return SliceReport(
            nodes=int(nodes),
            solutions=int(leaves),
            finished=status == K.FINISHED and not fell_back,
            boards=[Board.from_codes(owner, out[r]) for r in range(written)],
        )

    return driver.run(run_slice, callback=callback, collect=collect)


def plan_tables(plan):
    """The plan's :class:`~.plan.KernelTables` (packed codes where they fit), cached on it."""
    if "_tables" not in plan.__dict__:
        plan.__dict__["_tables"] = list_kernel_tables(plan)
    return plan.__dict__["_tables"]
