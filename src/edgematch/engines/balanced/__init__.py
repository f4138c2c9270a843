"""The two-phase solver of the balanced-rotations idea (``--solver balanced``)."""

from .solver import BalancedSolver

__all__ = ["BalancedSolver"]
