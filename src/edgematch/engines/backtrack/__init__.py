"""The backtracking engine: a fixed scan order, candidate tables, a compiled kernel.

See :class:`~.solver.BacktrackSolver` for the interface, :mod:`.orders` for scan orders,
:mod:`.plan` for the precomputed tables, :mod:`.kernel` / :mod:`.best_kernel` for the
compiled searches and :mod:`.schedule` for invalid-join schedules.
"""

from .orders import CORNERS, ORDER_NAMES, resolve_order, scan_order, search_order
from .solver import BacktrackSolver

__all__ = ["BacktrackSolver", "CORNERS", "ORDER_NAMES", "resolve_order", "scan_order", "search_order"]
