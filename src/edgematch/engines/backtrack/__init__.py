"""The backtracking engine: a fixed scan order, candidate tables, a compiled kernel.

See :class:`~.solver.BacktrackSolver` for the interface, :mod:`.orders` for scan orders,
:mod:`.plan` for the precomputed tables, :mod:`.kernel` / :mod:`.best_kernel` for the
compiled searches and :mod:`.schedule` for invalid-join schedules.

``BacktrackSolver`` is imported on first use, so that modules needing only the orders
(the command line, the estimator) do not pay for importing Numba.
"""

from ...kernel_cache import guard
from ...model.orders import CORNERS, ORDER_NAMES, resolve_order, scan_order, search_order

guard(__file__)  # before any kernel module is imported: no stale machine code

__all__ = ["BacktrackSolver", "CORNERS", "ORDER_NAMES", "resolve_order", "scan_order", "search_order"]


def __getattr__(name):
    if name == "BacktrackSolver":
        from .solver import BacktrackSolver

        return BacktrackSolver
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
