"""Rotations re-derived from the rules alone (no code shared with ``edgematch.model.tiles``).

After ``r`` clockwise quarter turns side ``s`` shows the tile's original side ``(s - r) mod 4``.
A tile whose rotations show the same edges is one placement: its rotation is normalised to
the smallest quarter-turn count showing those edges.
"""

from __future__ import annotations


def turned(edges, r):
    """The colours N, E, S, W shown after ``r`` clockwise quarter turns."""
    n = len(edges)
    return tuple(int(edges[(s - r) % n]) for s in range(n))


def normalised_rotation(edges, r):
    """Smallest rotation showing the same colours as rotation ``r``."""
    shown = turned(edges, r)
    for q in range(4):
        if turned(edges, q) == shown:
            return q
    raise AssertionError("unreachable")


def different_rotations(edges):
    """Rotations 0..3 that each show a different arrangement of colours."""
    return sorted({normalised_rotation(edges, r) for r in range(4)})


def symmetry_factor(edges) -> int:
    """How many rotations show the same edges (1, 2 or 4): Eternity2Puzzles.jl counts each."""
    return 4 // len(different_rotations(edges))
