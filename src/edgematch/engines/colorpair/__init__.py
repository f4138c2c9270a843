"""The ColorPair engine of Benoist & Bourreau (2008): exact enumeration with O(1) global
filtering on colour pairs, preemptions, shaving and conflict-directed backjumping.

The solver (and Numba) load on first use, so that command-line start-up stays fast.
"""

from ...kernel_cache import guard
from .tables import HEURISTICS, STAT_NAMES, VALUE_ORDERS

guard(__file__)  # before any kernel module is imported: no stale machine code

__all__ = ["ColorPairSolver", "parse_shaving", "HEURISTICS", "STAT_NAMES", "VALUE_ORDERS"]


def __getattr__(name):
    if name in ("ColorPairSolver", "parse_shaving"):
        from . import solver

        return getattr(solver, name)
    raise AttributeError(name)
