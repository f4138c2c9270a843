"""One balanced rotation set from OR-Tools CP-SAT, and CP-SAT's count of them.

The model is the balance problem of :mod:`.tables` as it stands: a boolean ``x[o]`` per
option (a tile's rotation, and with parity its square colour), exactly one per tile, as
many options of each square class as the board has squares, and every balance dimension
of every colour summing to 0.  It shares the tables with the counter and the compiled
enumeration but none of their search, so :func:`cpsat_count_balanced` is an independent
check of both on small puzzles; :func:`find_balanced` gives the two-phase search a set to
start from when enumerating them all is out of reach (e2).
"""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from ..errors import InputError
from ..model.puzzle import Puzzle
from ..model.rotation_sets import RotationSet
from .tables import BalanceTables, build_tables


def balance_model(tables: BalanceTables) -> tuple[cp_model.CpModel, list]:
    """The CP-SAT model of the tables and its option variables (see the module doc)."""
    model = cp_model.CpModel()
    n_options = len(tables.opt_class)
    x = [model.new_bool_var(f"option{o}") for o in range(n_options)]
    for d in range(tables.n_tiles):
        model.add_exactly_one(x[o] for o in range(tables.opt_start[d], tables.opt_start[d + 1]))
    for k, cap in enumerate(tables.caps):
        model.add(sum(x[o] for o in np.flatnonzero(tables.opt_class == k)) == int(cap))
    for j in range(tables.n_dims):
        column = tables.opt_delta[:, j]
        terms = [int(column[o]) * x[o] for o in np.flatnonzero(column)]
        if terms:
            model.add(sum(terms) == 0)
    return model, x


def find_balanced(
    puzzle: Puzzle,
    parity: bool = False,
    seed: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
) -> RotationSet | None:
    """A balanced rotation set of ``puzzle`` (with ``parity``, square colours too), or
    None: none exists (proven), or ``time_limit`` seconds passed first.

    With ``parity`` a plain balanced set comes first and then square colours for its
    rotations (a set with parity is a plain balanced set once its colours are dropped):
    measured on e2, the joint model found nothing in 120 s, the two steps take under a
    second.  Only where the colours cannot be given does the joint model run, with the
    time left.  ``seed`` is CP-SAT's random seed; with several ``workers`` (default:
    CP-SAT's choice) which set comes back also depends on the threads' timing, with
    ``workers=1`` only on the seed.  Raises :class:`InputError` for a negative seed, a
    time limit that is not positive or fewer than one worker.
    """
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise InputError(f"the seed must be a whole number 0 or more, not {seed!r}")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"the time limit must be a positive number of seconds, not {time_limit!r}")
    if workers is not None and workers < 1:
        raise InputError(f"at least one worker is needed, not {workers!r}")
    deadline = None if time_limit is None else time.monotonic() + float(time_limit)

    def left() -> float | None:
        return None if deadline is None else deadline - time.monotonic()

    plain = _solve(puzzle, build_tables(puzzle, False), seed, left(), workers)
    if not parity or plain is None:
        return plain  # no plain set: none with parity either
    tables = build_tables(puzzle, True)
    coloured = _solve(puzzle, tables, seed, left(), workers, rotations=plain.rotations)
    remaining = left()
    if coloured is not None or (remaining is not None and remaining <= 0):
        return coloured
    return _solve(puzzle, tables, seed, left(), workers)


def _solve(
    puzzle: Puzzle,
    tables: BalanceTables,
    seed: int | None,
    time_limit: float | None,
    workers: int | None,
    rotations: np.ndarray | None = None,
) -> RotationSet | None:
    """One CP-SAT solve of the balance model (with ``rotations`` fixed when given)."""
    if time_limit is not None and time_limit <= 0:
        return None
    model, x = balance_model(tables)
    if rotations is not None:
        for d in range(tables.n_tiles):
            wanted = rotations[tables.order[d]]
            for o in range(tables.opt_start[d], tables.opt_start[d + 1]):
                if tables.opt_rotation[o] != wanted:
                    model.add(x[o] == 0)
    solver = cp_model.CpSolver()
    if seed is not None:
        solver.parameters.random_seed = int(seed)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    if workers is not None:
        solver.parameters.num_workers = int(workers)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError("CP-SAT rejected the balance model: " + model.validate())
        return None
    chosen = [o for o in range(len(x)) if solver.boolean_value(x[o])]
    found_rotations = np.zeros(tables.n_tiles, dtype=np.int64)
    colours = np.zeros(tables.n_tiles, dtype=np.int64)
    for d in range(tables.n_tiles):
        o = next(o for o in chosen if tables.opt_start[d] <= o < tables.opt_start[d + 1])
        found_rotations[tables.order[d]] = tables.opt_rotation[o]
        colours[tables.order[d]] = tables.opt_colour[o]
    return RotationSet(puzzle, found_rotations, colours if tables.parity else None)


class _Counter(cp_model.CpSolverSolutionCallback):
    def __init__(self, limit: int | None):
        super().__init__()
        self.count = 0
        self.limit = limit

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.limit is not None and self.count >= self.limit:
            self.StopSearch()


def cpsat_count_balanced(puzzle: Puzzle, parity: bool = False, limit: int | None = None) -> int:
    """The number of balanced rotation sets, by CP-SAT enumerating every solution of the
    balance model (one worker, as enumeration requires); at most ``limit`` when given.
    For cross-checks on small puzzles: it visits every set."""
    if limit is not None and limit < 0:
        raise InputError(f"the limit must be 0 or more, not {limit!r}")
    if limit == 0:
        return 0
    tables = build_tables(puzzle, bool(parity))
    model, _ = balance_model(tables)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = _Counter(limit)
    status = solver.Solve(model, counter)
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError("CP-SAT rejected the balance model: " + model.validate())
    return counter.count
