"""Score maximisation by local search (Schaus & Deville 2008): the assignment
neighbourhood, the tabu search around it, starting boards and the reduced exact method."""

from ..kernel_cache import guard

guard(__file__)  # before any kernel module is imported: no stale machine code

from .neighbourhood import (
    AssignmentMove,
    assignment_move,
    best_swap_move,
    choose_holes,
    hole_weights,
    swap_rotate_move,
)
from .starts import complete_randomly, random_start
from .state import LocalState
from .tabu import LocalSearchResult, Progress, SearchState, TabuParams, TabuVLNS

__all__ = [
    "AssignmentMove",
    "LocalSearchResult",
    "LocalState",
    "Progress",
    "SearchState",
    "TabuParams",
    "TabuVLNS",
    "assignment_move",
    "best_swap_move",
    "choose_holes",
    "complete_randomly",
    "hole_weights",
    "random_start",
    "swap_rotate_move",
]
