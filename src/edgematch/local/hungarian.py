"""The assignment problem solved inside compiled code (Hungarian method, O(k^3)).

``scipy.optimize.linear_sum_assignment`` is the reference solver of the neighbourhood
(:mod:`.neighbourhood` uses it, and so does the tabu search with ``assignment="scipy"``),
but calling it costs a few microseconds of Python per move, which matters to a search
making tens of thousands of moves per second; the tabu search's ``assignment="compiled"``
mode and the reduced exact method solve their assignments here instead.  This is the classic shortest-augmenting-path form of the Hungarian method with
row/column potentials (Kuhn-Munkres as given by Jonker & Volgenant without their
initialisation heuristics), on integer costs so that results are exact; the tests check
it against SciPy on random and adversarial matrices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INFINITY = np.int64(1) << np.int64(62)


@njit(cache=True)
def _hungarian(matrix, sign, k, assign, u, v, p, way, minv, used):
    """Minimum of ``sum(sign * matrix[i, assign[i]])`` (``sign`` is 1 or -1, so that one
    loop serves both the minimum-cost and the maximum-weight problem)."""
    for j in range(k + 1):
        u[j] = 0
        v[j] = 0
        p[j] = 0
        way[j] = 0
    for i in range(1, k + 1):
        p[0] = i
        j0 = 0
        for j in range(k + 1):
            minv[j] = INFINITY
            used[j] = False
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = INFINITY
            j1 = 0
            for j in range(1, k + 1):
                if not used[j]:
                    cur = sign * matrix[i0 - 1, j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(k + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    total = 0
    for j in range(1, k + 1):
        assign[p[j] - 1] = j - 1
        total += matrix[p[j] - 1, j - 1]
    return total


@njit(cache=True)
def min_cost_assignment(cost, k, assign, u, v, p, way, minv, used):
    """Rows ``0..k-1`` of ``cost`` assigned to distinct columns at minimum total cost.

    Writes the column of row ``i`` into ``assign[i]``.  ``u, v, p, way, minv, used`` are
    work arrays of at least ``k + 1`` entries (passed in so a search allocates them once).
    Returns the total cost.
    """
    return _hungarian(cost, 1, k, assign, u, v, p, way, minv, used)


@njit(cache=True)
def max_weight_assignment(weights, k, assign, u, v, p, way, minv, used):
    """Rows ``0..k-1`` of ``weights`` assigned to distinct columns at maximum total weight
    (what ``linear_sum_assignment(weights, maximize=True)`` computes); returns the total."""
    return _hungarian(weights, -1, k, assign, u, v, p, way, minv, used)


def solve(cost: np.ndarray, maximize: bool = False) -> tuple[np.ndarray, int]:
    """Convenience wrapper: the assignment (row -> column) and its total cost (or weight,
    with ``maximize``)."""
    cost = np.ascontiguousarray(cost, dtype=np.int64)
    k = cost.shape[0]
    if cost.shape != (k, k):
        raise ValueError("the cost matrix must be square")
    assign = np.zeros(k, dtype=np.int64)
    work = [np.zeros(k + 1, dtype=np.int64) for _ in range(5)]
    used = np.zeros(k + 1, dtype=np.bool_)
    solver = max_weight_assignment if maximize else min_cost_assignment
    total = solver(cost, k, assign, work[0], work[1], work[2], work[3], work[4], used)
    return assign, int(total)
