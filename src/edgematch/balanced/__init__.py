"""Balanced rotation sets (the strategies page's last idea, phase one of a two-phase search).

A rotation set gives every tile one rotation (and, with checkerboard parity, a square
colour) before any tile is placed; it is *balanced* when every colour shows as many east
as west sides and as many north as south sides (with parity: between black and white
tiles), which every solution's set is.  This package counts them
(:func:`count_rotation_sets`, :func:`count_balanced`, the page's
:func:`random_walk_estimate`), lists them with a compiled search (:func:`iter_balanced`,
:class:`BalancedBatches`, whose kernel another compiled kernel can drive) and finds one
with CP-SAT (:func:`find_balanced`).
"""

from ..kernel_cache import guard

guard(__file__)  # before any kernel module is imported: no stale machine code

from .counting import (  # noqa: E402
    count_balanced,
    count_rotation_sets,
    log10_random_walk_estimate,
    page_rotation_sets,
    random_walk_estimate,
    random_walk_fraction,
    walk_return_probability,
)
from .enumerate import BalancedBatches, balanced_batch, count_enumerated, iter_balanced  # noqa: E402
from .find import cpsat_count_balanced, find_balanced  # noqa: E402
from .tables import BalanceTables, build_tables  # noqa: E402

__all__ = [
    "BalanceTables",
    "BalancedBatches",
    "balanced_batch",
    "build_tables",
    "count_balanced",
    "count_enumerated",
    "count_rotation_sets",
    "cpsat_count_balanced",
    "find_balanced",
    "iter_balanced",
    "log10_random_walk_estimate",
    "page_rotation_sets",
    "random_walk_estimate",
    "random_walk_fraction",
    "walk_return_probability",
]
