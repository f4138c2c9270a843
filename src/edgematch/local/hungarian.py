"""The assignment problem solved inside compiled code (Hungarian method, O(k^3)).

``scipy.optimize.linear_sum_assignment`` is the reference solver of the neighbourhood
(:mod:`.neighbourhood` uses it), but calling it costs a few microseconds of Python per
move, which would dominate a search making hundreds of thousands of small moves per
second.  This is the classic shortest-augmenting-path form of the Hungarian method with
row/column potentials (Kuhn-Munkres as given by Jonker & Volgenant without their
initialisation heuristics), on integer costs so that results are exact; the tests check
it against SciPy on random and adversarial matrices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INFINITY = np.int64(1) << np.int64(62)


@njit(cache=True)
def min_cost_assignment(cost, k, assign, u, v, p, way, minv, used):
    """Rows ``0..k-1`` of ``cost`` assigned to distinct columns at minimum total cost.

    Writes the column of row ``i`` into ``assign[i]``.  ``u, v, p, way, minv, used`` are
    work arrays of at least ``k + 1`` entries (passed in so a search allocates them once).
    Returns the total cost.
    """
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
                    cur = cost[i0 - 1, j - 1] - u[i0] - v[j]
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
        total += cost[p[j] - 1, j - 1]
    return total


def solve(cost: np.ndarray) -> tuple[np.ndarray, int]:
    """Convenience wrapper: the assignment (row -> column) and its total cost."""
    cost = np.ascontiguousarray(cost, dtype=np.int64)
    k = cost.shape[0]
    if cost.shape != (k, k):
        raise ValueError("the cost matrix must be square")
    assign = np.zeros(k, dtype=np.int64)
    work = [np.zeros(k + 1, dtype=np.int64) for _ in range(5)]
    used = np.zeros(k + 1, dtype=np.bool_)
    total = min_cost_assignment(cost, k, assign, work[0], work[1], work[2], work[3], work[4], used)
    return assign, int(total)
