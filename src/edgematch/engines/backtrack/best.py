"""The best-score driver of the backtracker: the largest score under a schedule of errors.

:class:`~.solver.BacktrackSolver` builds the slice driver and calls :func:`best_search`;
this module prepares the schedule, the target and the priority colours, runs the best
kernel one slice at a time and restarts it with the next seed when asked to.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ...errors import InputError
from ...model import Board, Puzzle
from ...model import tiles as T
from ...model.schedules import julia_priority_schedule, schedule_array
from ...model.symmetry import turned_board, turned_puzzle
from ..base import SliceDriver, SliceReport, StopReason
from ..kept_boards import BestBoards
from ..result import SearchResult, add_nodes_per_depth
from . import background_compile, generated, generated_best
from . import kernel as K
from .best_kernel import best_search as best_kernel
from .best_kernel import endgame_cap
from .exact import NODES_ARE, note_rotation_set
from .good_group import good_group
from .placements import start_arrays
from .plan import P_NCHK, build_plan, list_kernel_tables
from .prefix_filter import PrefixFilter

#: complete boards the kernel keeps before it hands them over (the slice ends when full)
SAVED_ROWS = 64

#: with ``priority_first``, the first candidate below the priority bound ends its list
#: (off only to test that the cut searches the same tree as skipping candidate by candidate)
CUT_SORTED_LISTS = True


def segment_seed(solver, segment: int) -> int | None:
    """The shuffle seed of restart ``segment``: the solver's seed for a search that never
    restarts, else ``seed + segment`` (0 + segment without a seed)."""
    if segment == 0 and solver.restart_nodes is None:
        return solver.seed
    return (solver.seed or 0) + segment


def best_search(
    solver, puzzle: Puzzle, start, driver: SliceDriver, total: SearchResult, callback, segment: int | None = None
) -> SearchResult:
    """The best board the schedule allows below ``start``, into ``total``; ``segment``:
    only that restart (see :meth:`.solver.BacktrackSolver.best`)."""
    variants = solver.variants(puzzle) if start is None else [puzzle]
    turns = solver.turns(puzzle)
    if start is not None and turns != [0]:
        raise InputError("a start board cannot be combined with board turns (it fixes the board's orientation)")
    if solver.rotations is not None and solver.good_group:
        raise InputError("a good group cannot be combined with a rotation set")
    if solver.rotations is not None and turns != [0]:
        raise InputError("a rotation set cannot be combined with board turns (turning changes every tile's rotation)")
    if len(turns) > 1 and solver.restart_nodes is None and segment is None:
        raise InputError("several board turns need restarts (--restart-nodes) or a parallel run")
    n_sq = puzzle.n_squares
    allowed_by_tiles = schedule_array(solver.schedule, n_sq, max_score=puzzle.max_score, what="schedule")
    target = puzzle.max_score if solver.target is None else int(solver.target)
    if not 0 < target <= puzzle.max_score:
        raise InputError(f"the target score {target} is outside 1..{puzzle.max_score}, the maximum of this puzzle")
    priority, prio_w, prio_by_tiles = _priorities(puzzle, solver.priority_colours, solver.priority_schedule)
    total.best_score = -1
    total.statistics = {
        "nodes_are": NODES_ARE,
        "order": solver.order if isinstance(solver.order, str) else "custom",
        "corner": solver.corner,
        "schedule": None if solver.schedule is None else str(solver.schedule),
        "endgame_squares": solver.endgame,
        "good_group": solver.good_group,
        "save_boards": solver.save_boards,
        "target": target,
        "priority_colours": list(priority or []),
        "restarts": 0,
        "restart_nodes": solver.restart_nodes,
        "complete_boards": 0,
        "boards_saved": 0,
        "kernel_calls": 0,
        "frame_exact": solver.frame_exact,
        "exact_squares": solver.exact_square_indices(puzzle),
        "priority_first": bool(solver.priority_first and priority),
    }
    note_rotation_set(solver, total)
    counts = np.zeros(puzzle.max_score + 1, np.int64)
    kept = BestBoards(solver.keep_boards)  # the saved boards held: the best keep_boards
    restart = 0 if segment is None else int(segment)
    for variant in variants:  # one, or two symmetry classes on a rectangular board
        while True:
            seed = segment_seed(solver, restart)
            turn = turns[restart % len(turns)]
            weights = prio_w if priority else None
            before = total.best_score
            nodes_before = total.nodes
            finished = _run(
                solver,
                turned_puzzle(variant, turn),
                start,
                seed,
                allowed_by_tiles,
                weights,
                prio_w,
                prio_by_tiles,
                target,
                driver,
                total,
                callback,
                back=lambda board, to=variant, turn=turn: turned_board(board, to, -turn),
                counts=counts,
                kept=kept,
            )
            if total.best_score > before:  # how to search this board again
                total.statistics.update(best_seed=seed, best_turn=turn, best_restart=restart)
            if restart > 0 and total.nodes > nodes_before:
                # a restart counts once it has searched; a parallel run's task k is restart
                # k, so its tasks' counts add up to the serial search's
                total.statistics["restarts"] += 1
            if finished or total.stopped_by is not None or segment is not None:
                break
            restart += 1
        if total.stopped_by is None and segment is not None and not finished:
            total.stopped_by = StopReason.RESTARTS  # the segment's restart budget ran out
        if total.stopped_by is not None:
            break
    total.complete = total.stopped_by is None
    total.seconds = driver.elapsed()
    total.boards = kept.items()
    total.statistics["boards_by_score"] = {str(score): int(counts[score]) for score in np.flatnonzero(counts)}
    if total.best_board is not None:
        total.best_board = Board(puzzle, total.best_board.tiles, total.best_board.rotations)
        total.best_score = total.best_board.score()
    if (
        total.best_score is not None
        and total.best_score >= 0
        and total.best_board is not None
        and total.best_board.is_complete
        and total.best_score == puzzle.max_score
    ):
        total.solutions = max(total.solutions, 1)
    return total


def _priorities(puzzle: Puzzle, colours, spec):
    """(priority colours, their sides per tile, minimum placed per number of tiles)."""
    prio_w = np.zeros(puzzle.n_tiles, np.int32)
    prio_by_tiles = np.zeros(puzzle.n_squares + 1, np.int32)
    priority = colours
    if priority is not None and len(priority) == 1 and str(priority[0]).lower() == "auto":
        priority = auto_priority_colours(puzzle)
    if not priority:
        return priority, prio_w, prio_by_tiles
    chosen = set(int(c) for c in priority)
    unknown = sorted(chosen - set(puzzle.colours))
    if unknown:
        raise InputError(
            f"priority colour {unknown[0]} is not a colour of this puzzle "
            f"(its colours: {', '.join(str(c) for c in puzzle.colours)})"
        )
    prio_w = np.array([sum(int(c) in chosen for c in tile) for tile in puzzle.tiles], np.int32)
    if isinstance(spec, str) and spec.lower().startswith("julia:"):
        try:
            julia_target = int(spec.split(":", 1)[1])
        except ValueError:
            raise InputError(f"priority schedule: '{spec}' needs an integer target (julia:470)") from None
        required = int(prio_w.sum()) + julia_target // 10 - 54
        prio_by_tiles = julia_priority_schedule(julia_target, puzzle.n_squares, max(required, 0)).astype(np.int32)
    else:
        prio_by_tiles = schedule_array(spec, puzzle.n_squares, what="priority schedule", hints=len(puzzle.hints))
    return priority, prio_w, prio_by_tiles


def _run(
    solver,
    puzzle: Puzzle,
    start,
    seed,
    allowed_by_tiles,
    priority_weights,
    prio_w,
    prio_by_tiles,
    target,
    driver: SliceDriver,
    total,
    callback,
    back,
    counts,
    kept: BestBoards,
) -> bool:
    """One run from the start board; True when its search space is exhausted.  Boards
    are kept as ``back(board)``: on the puzzle as given when ``puzzle`` is turned."""
    squares = solver.search_squares(puzzle)
    n_hints = len(puzzle.hints)
    D = len(squares)
    depth_tiles = n_hints + np.arange(1, D + 1)
    allowed = allowed_by_tiles[depth_tiles].astype(np.int32) if D else np.zeros(0, np.int32)
    prio_min = prio_by_tiles[depth_tiles].astype(np.int32) if D else np.zeros(0, np.int32)
    max_errors = int(min(allowed.max(), solver.max_tile_errors)) if D else 0
    endgame_from = max(D - solver.endgame, 0) if solver.endgame else D
    keep_from = puzzle.max_score + 1 if solver.save_boards is None else int(solver.save_boards)
    endgame = np.array([endgame_from, puzzle.max_score], np.int64)
    if endgame_from < D:  # the bound from the best complete board known (this run, earlier ones)
        known = np.flatnonzero(counts)
        allowed[endgame_from:] = endgame_cap(puzzle.max_score, int(known[-1]) if len(known) else -1, keep_from)
    priority_first = bool(solver.priority_first) and priority_weights is not None
    preference = candidate_preference(puzzle, squares, solver.good_group, seed, prio_w if priority_first else None)
    plan = build_plan(
        puzzle,
        squares,
        max_errors=max_errors,
        frame_exact=solver.frame_exact,
        exact_squares=solver.exact_square_indices(puzzle),
        seed=seed,
        each_rotation=solver.each_rotation,
        rotation_set=solver.rotation_set(puzzle),
        preference=preference,
        endgame_from=endgame_from if endgame_from < D else None,
    )
    if len(total.nodes_per_depth) < D:
        total.nodes_per_depth.extend([0] * (D - len(total.nodes_per_depth)))
    board, used, first = start_arrays(plan, start, exact=False)
    board_obj = Board.from_codes(puzzle, board)
    start_score = board_obj.score()
    start_errors = len(board_obj.mismatches())
    start_prio = int(sum(prio_w[t] for t in board_obj.tiles if t >= 0))
    if start_score > total.best_score:
        total.best_score = start_score
        total.best_board = back(board_obj)
    if first >= D:
        if board_obj.is_complete:
            total.statistics["complete_boards"] += 1
            counts[start_score] += 1
            if solver.save_boards is not None and start_score >= solver.save_boards:
                kept.offer(start_score, lambda: back(board_obj))
                total.statistics["boards_saved"] += 1
        return True
    cur = np.zeros(D + 1, np.int64)
    end = np.zeros(D + 1, np.int64)
    phase = np.zeros(D + 1, np.int32)
    err_stack = np.zeros(D + 1, np.int32)
    match_stack = np.zeros(D + 1, np.int32)
    prio_stack = np.zeros(D + 1, np.int32)
    err_stack[first] = start_errors
    match_stack[first] = start_score
    prio_stack[first] = start_prio
    best_board = board.copy()
    tables = list_kernel_tables(plan)
    board = tables.board(board)
    phases = tables.rows(plan.phases)
    rows0 = np.ascontiguousarray(phases[:, 0, :])
    checks0 = rows0 if (rows0[:, P_NCHK] > 0).any() else None
    state = np.array([first, first, D, 1, total.best_score], dtype=np.int64)
    npd = np.zeros(D, np.int64)
    run_nodes = 0
    reported = total.best_score
    restart_nodes = solver.restart_nodes

    saved = np.zeros((SAVED_ROWS, puzzle.n_squares), np.int64)
    side_colours = T.rotated_table(puzzle.tiles).reshape(-1, 4)  # by placement code tile * 4 + rotation

    def saved_board(codes) -> Board:
        return back(Board.from_codes(puzzle, codes))

    save_state = np.array([0, keep_from], np.int64)
    shared_best = getattr(solver, "shared_best", None)
    written_out = None
    align = None
    hints_only = Board.from_codes(puzzle, plan.board0)
    waiting = None  # auto: the spec of a generated kernel not compiled yet
    if solver.kernel in ("generated", "auto") and generated_best.supports(
        tables, phases, max(start_errors, len(hints_only.mismatches()))
    ):
        # auto: the generated kernel when it costs no compile (a search with --kernel
        # generated compiled it before), else the list kernel until a compile in the
        # background has cached it.  It is written for the whole puzzle (hints only, from
        # depth 0), so that every subtree and restart shares it.
        spec = {
            "phases": phases,
            "n_phases": plan.n_phases,
            "known_joins": plan.known_joins,
            "order": plan.order,
            "board": tables.board(plan.board0),
            "cmask": tables.cmask,
            "pmask": tables.pmask,
            "start": 0,
            "allowed": allowed.copy(),
            "endgame_from": endgame_from,
            "prio_min": prio_min if priority_weights is not None else None,
            "prio_sorted": priority_first and CUT_SORTED_LISTS,
            "n_tiles": puzzle.n_tiles,
            "max_score": puzzle.max_score,
            "n_starts": len(tables.starts),
            "n_colours": plan.n_colours,
            "start_match": hints_only.score(),
        }
        written_out = generated_best.load(spec, only_compiled=solver.kernel == "auto")
        if written_out is None:
            waiting = spec
    if written_out is not None:
        align = (0, generated.DEPTHS_PER_FUNCTION)
        written_out.reserve(tables.cand, tables.starts, saved.size)  # the prefix filter's tables fit
    prefix = PrefixFilter(tables, plan.order, puzzle.n_tiles, phases, phase, align)

    def take_generated() -> None:
        nonlocal written_out
        assert waiting is not None
        written_out = generated_best.load(waiting)
        assert written_out is not None
        written_out.reserve(tables.cand, tables.starts, saved.size)
        prefix.align = (0, generated.DEPTHS_PER_FUNCTION)

    switch: background_compile.KernelSwitch | None = None  # auto, until it takes the generated kernel
    if waiting is not None:
        switch = background_compile.KernelSwitch(
            driver, partial(generated_best.background_compile, waiting), take_generated, total.statistics
        )

    def run_slice(want: int) -> SliceReport:
        nonlocal run_nodes, reported
        if switch is not None:
            switch.poll()
        if restart_nodes is not None:
            want = min(want, max(1, restart_nodes - run_nodes))
        if shared_best is not None:  # a parallel run: aim above the best found elsewhere
            state[4] = max(int(state[4]), int(shared_best()))
        before = int(state[4])
        cand, starts = prefix.enter(board, cur, end, state, npd)
        npd[:] = 0
        if written_out is not None and written_out.runs(int(state[1])):
            total.statistics["kernel"] = "generated"
            nodes, complete_boards, status = written_out.search(
                cand,
                starts,
                board,
                used,
                cur,
                end,
                phase,
                err_stack,
                match_stack,
                prio_stack,
                state,
                best_board,
                want,
                target,
                priority_weights,
                allowed,
                counts,
                saved,
                save_state,
                endgame,
                npd,
            )
        else:
            nodes, complete_boards, status = best_kernel(
                cand,
                starts,
                tables.pcol,
                plan.order,
                plan.n_phases,
                phases,
                plan.known_joins,
                allowed,
                priority_weights,
                prio_min,
                board,
                used,
                cur,
                end,
                phase,
                err_stack,
                match_stack,
                prio_stack,
                state,
                best_board,
                np.int64(want),
                np.int64(target),
                npd,
                rows0,
                checks0,
                np.int64(tables.cmask),
                np.int64(tables.pmask),
                priority_first and CUT_SORTED_LISTS,
                counts,
                saved,
                save_state,
                endgame,
            )
        total.statistics["kernel_calls"] += 1
        n_saved = int(save_state[0])  # complete boards at or above save_boards
        if n_saved:
            for row, score in enumerate(codes_scores(side_colours, saved[:n_saved], puzzle.height, puzzle.width)):
                kept.offer(int(score), partial(saved_board, saved[row]))
            total.statistics["boards_saved"] += n_saved
            save_state[0] = 0
        fell_back = prefix.leave(board, used, cur, end, state, status == K.FINISHED, clear=True)
        run_nodes += int(nodes)
        prefix.note(total.statistics)
        total.statistics["complete_boards"] += int(complete_boards)
        add_nodes_per_depth(total.nodes_per_depth, npd)
        if state[4] > before:  # the kernel wrote a better board
            total.best_score = int(state[4])
            better = total.best_board = back(Board.from_codes(puzzle, best_board))
            if 0 < puzzle.n_squares - better.n_placed <= solver.endgame or (better.is_complete and solver.polish):
                completed = _endgame(solver, total, better, seed, kept)
                if completed.score() > total.best_score:  # completed or polished better: report that board
                    total.best_board, total.best_score = completed, completed.score()
                    state[4] = total.best_score  # the kernel now keeps only boards above it
                    cap = endgame_cap(puzzle.max_score, total.best_score, keep_from)
                    np.minimum(allowed[endgame_from:], cap, out=allowed[endgame_from:])
        stop = None
        if total.best_score > reported:
            reported = total.best_score
            if callback is not None and callback(total.best_board, total.best_score):
                stop = StopReason.CALLBACK
        if stop is None and status == K.TARGET:
            stop = StopReason.TARGET
        return SliceReport(
            nodes=int(nodes),
            finished=status == K.FINISHED and not fell_back,
            stop=stop,
            end_run=restart_nodes is not None and run_nodes >= restart_nodes,
        )

    return driver.run(run_slice)


def codes_scores(side_colours: np.ndarray, codes: np.ndarray, height: int, width: int) -> np.ndarray:
    """The scores of complete boards given as rows of placement codes, all at once (a
    search saving thousands of boards a second ranks them without building each one)."""
    c = side_colours[codes].reshape(len(codes), height, width, 4)
    east, west = c[:, :, :-1, T.E], c[:, :, 1:, T.W]
    south, north = c[:, :-1, :, T.S], c[:, 1:, :, T.N]
    h = ((east == west) & (east > T.GREY)).sum(axis=(1, 2))
    v = ((south == north) & (south > T.GREY)).sum(axis=(1, 2))
    return h + v


def candidate_preference(puzzle: Puzzle, squares, good_group_size: int, seed, prio_w) -> np.ndarray | None:
    """How the candidate lists are sorted (largest first, None: the seed's order): tiles
    richer in the priority colours first (``prio_w``, Blackwood's lists), then, among
    equals, the tiles outside the good group before those kept for the end."""
    preference = None if prio_w is None else prio_w.astype(np.int64) * 2
    if good_group_size:
        kept = np.zeros(puzzle.n_tiles, np.int64)
        kept[good_group(puzzle, squares, good_group_size, seed)] = 1
        preference = (np.zeros(puzzle.n_tiles, np.int64) if preference is None else preference) + 1 - kept
    return preference


def _endgame(solver, total: SearchResult, best: Board, seed, kept: BestBoards) -> Board:
    """Complete the new best board with the best possible score, polish it with the tabu
    search, keep the result among ``total.boards`` and return it."""
    from .endgame import complete_best

    stats = total.statistics
    board = best
    if not best.is_complete:
        completion = complete_best(best)
        board = completion.board
        stats["endgame_completions"] = stats.get("endgame_completions", 0) + 1
        stats["endgame_proved_optimal"] = stats.get("endgame_proved_optimal", 0) + int(completion.optimal)
    if solver.polish > 0:
        from ...local.tabu import TabuVLNS

        polished = TabuVLNS(seed=seed).optimize(board.puzzle, board, time_limit=solver.polish).best_board
        if polished.score() > board.score():
            board = polished
    stats["endgame_best"] = max(int(stats.get("endgame_best", -1)), board.score())
    if board is not best:  # a complete best board the polish left as it was is reported already
        kept.offer(board.score(), lambda: board)
        stats["boards_saved"] = stats.get("boards_saved", 0) + 1
    return board


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
