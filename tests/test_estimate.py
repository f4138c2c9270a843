"""Owen's estimator: the published figures, the formulas against brute force, and the
estimate against real searches."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

import edgematch
from edgematch.engines.backtrack import BacktrackSolver
from edgematch.errors import InputError
from edgematch.estimator import (
    _arrangements,
    _frame_probabilities,
    _inner_probabilities,
    compare_orders,
    elementary_symmetric,
    estimate,
)
from edgematch.generator import generate
from support.cli import run_cli


@pytest.fixture(scope="module")
def e2():
    return edgematch.load("e2")


# ----------------------------------------------------------------------------- published figures
def test_e2_rowscan_reproduces_the_julia_package(e2):
    """Eternity2Puzzles.jl, estimate_solutions docstring: (1.47022707008833935e+04,
    1.36503111141314673e+47) for e2 with the starter, row scan from the bottom-left.
    The package also counts its fixed piece as one node (+1, invisible here)."""
    est = estimate(e2, "rowscan", corner="BL", hints="pooled")
    assert est.solutions == pytest.approx(1.47022707008833935e4, rel=1e-9)
    assert est.nodes == pytest.approx(1.36503111141314673e47, rel=1e-9)
    assert est.depth == 255
    # the package's documentation: the tree is widest after about 160 to 170 pieces
    assert 160 <= est.widest_depth <= 170


def test_e2_other_orders_of_the_package_documentation(e2):
    """theory.md, Figure 4: total nodes for other search orders (4 significant digits)."""
    published = {"frame": 1.110e57, "diagonal": 4.176e53, "spiral-in": 3.979e57, "spiral-out": 1.556e57}
    ranked = dict(compare_orders(e2, list(published) + ["rowscan"], hints="pooled", corner="BL"))
    for name, nodes in published.items():
        assert ranked[name].nodes == pytest.approx(nodes, rel=6e-4), name
    assert ranked["rowscan"].nodes < min(ranked[n].nodes for n in published)


def test_e2_invalid_join_schedule_of_the_package_documentation(e2):
    """theory.md, Figure 6: up to 10 invalid inner joins once 192 pieces are placed:
    1.481e25 configurations; 3.715e58 nodes for the row scan and 7.000e57 for the row scan
    with the last 4 rows filled column by column."""
    schedule = "breaks:" + ",".join(["192"] * 10)
    est = estimate(e2, "rowscan", schedule=schedule, corner="BL", hints="pooled")
    assert est.solutions == pytest.approx(1.481e25, rel=5e-4)
    assert est.nodes == pytest.approx(3.715e58, rel=5e-4)
    order = [r * 16 + c for r in range(15, 3, -1) for c in range(16)]
    order += [r * 16 + c for c in range(16) for r in range(3, -1, -1)]
    est2 = estimate(e2, order, schedule=schedule, hints="pooled")
    assert est2.solutions == pytest.approx(est.solutions, rel=1e-12)  # the order does not change the count
    assert est2.nodes == pytest.approx(7.000e57, rel=5e-4)


def test_fixed_hints_stay_close_to_pooled_on_e2(e2):
    pooled = estimate(e2, "rowscan", corner="BL", hints="pooled")
    fixed = estimate(e2, "rowscan", corner="BL", hints="fixed")
    assert fixed.solutions == pytest.approx(pooled.solutions, rel=0.05)
    assert fixed.nodes == pytest.approx(pooled.nodes, rel=0.1)
    # without hints the two treatments are the same model
    free = e2.without_hints()
    assert estimate(free, hints="fixed").partial == estimate(free, hints="pooled").partial


def test_owen_6x6_order_of_magnitude():
    """Brendan Owen's set 1 6x6: 260 raw solutions and 69,284,103 row-scan nodes (community
    figures, which our backtracker reproduces in its own tests)."""
    est = estimate(edgematch.load("owen1-6x6"), "rowscan")
    assert 0.5 < 260 / est.solutions < 2.0
    assert 0.5 < 69_284_103 / est.nodes < 2.0


# ----------------------------------------------------------------------------- formulas vs brute force
def _sides(pool):
    return [colour for colour, count in enumerate(pool) for _ in range(count)]


@pytest.mark.parametrize("pool,need", [([3, 3, 2], [0, 0, 0]), ([4, 2, 2], [1, 0, 1]), ([2, 5, 1], [0, 2, 0])])
def test_inner_probabilities_by_enumeration(pool, need):
    """Draw ordered sides from the pool: first the slots of hint joins (slot i needs colour
    need[i]), then two slots per free join; count the draws where the first m-k free joins
    match and the last k do not."""
    sides = _sides(pool)
    fixed_slots = _sides(need)
    m_max = (len(sides) - len(fixed_slots)) // 2
    q = _inner_probabilities(pool, need, m_max, k_max=2)
    for m in range(m_max + 1):
        draws = list(itertools.permutations(range(len(sides)), len(fixed_slots) + 2 * m))
        for k in range(min(2, m) + 1):
            good = 0
            for d in draws:
                colours = [sides[i] for i in d]
                if colours[: len(fixed_slots)] != fixed_slots:
                    continue
                free = colours[len(fixed_slots):]
                pairs = [free[2 * j] == free[2 * j + 1] for j in range(m)]
                if all(pairs[: m - k]) and not any(pairs[m - k:]):
                    good += 1
            assert q[k][m] == Fraction(good, len(draws)), (m, k)


def test_frame_probabilities_by_enumeration():
    """Frame joins pair an 'a' side with a 'b' side; hint joins need a given colour."""
    pool_a, pool_b = [2, 2, 1], [1, 2, 2]
    need_a, need_b = [0, 1, 0], [1, 0, 0]  # one slot needs an 'a' side of colour 1, one a 'b' side of colour 0
    a_sides, b_sides = _sides(pool_a), _sides(pool_b)
    p = _frame_probabilities(pool_a, pool_b, need_a, need_b, b_max=3)
    for b in range(4):
        good = total = 0
        for da in itertools.permutations(a_sides, b + 1):  # b free joins + 1 hint slot
            for db in itertools.permutations(b_sides, b + 1):
                total += 1
                ok = da[0] == 1 and db[0] == 0 and all(x == y for x, y in zip(da[1:], db[1:]))
                good += ok
        assert p[b] == Fraction(good, total), b


def test_arrangements_by_enumeration():
    joins_per_depth = [0, 1, 1, 3, 4, 6, 8]  # cumulative joins after each depth
    caps = [0, 1, 1, 1, 2, 3]  # cumulative invalid joins allowed at depths 1..6
    A = _arrangements(joins_per_depth, caps)
    n = joins_per_depth[-1]
    for depth in range(1, len(joins_per_depth)):
        closed = joins_per_depth[depth]
        for k in range(max(caps) + 1):
            count = 0
            for invalid in itertools.combinations(range(closed), k):
                if all(sum(1 for j in invalid if j < joins_per_depth[e]) <= caps[e - 1] for e in range(1, depth + 1)):
                    count += 1
            assert A[depth][k] == count, (depth, k)
    assert n == 8


def test_no_cap_means_any_arrangement():
    joins = [0, 2, 3, 5]
    A = _arrangements(joins, [2, 2, 2])
    assert A[3][:3] == [1, math.comb(5, 1), math.comb(5, 2)]


def test_rotation_ways_count_distinct_rotations():
    """e_k(r) k! = ways to place k of the tiles on k squares in distinct rotations."""
    weights = [4, 2, 1, 4]
    e = elementary_symmetric(weights)
    for k in range(len(weights) + 1):
        ways = sum(math.prod(weights[t] for t in chosen) for chosen in itertools.permutations(range(len(weights)), k))
        assert e[k] * math.factorial(k) == ways
    assert elementary_symmetric([4] * 5)[3] * math.factorial(3) == math.perm(5, 3) * 4**3


def test_first_depths_are_exact():
    """Depth 1 on a row scan is a corner: every free corner tile, whatever the colours."""
    p = generate(5, 4, 2, 3, seed=3).puzzle
    est = estimate(p, "rowscan")
    assert est.partial[0] == 1
    assert est.partial[1] == 4


def test_hints_that_disagree_give_zero():
    g = generate(4, 4, 2, 3, seed=1)
    p, sol = g.puzzle, g.solution
    a, b = 5, 6  # two inner squares side by side
    hints = {a: (int(sol.tiles[a]), int(sol.rotations[a])), b: (int(sol.tiles[b]), int(sol.rotations[b]))}
    assert estimate(p.with_hints(hints)).solutions > 0
    east_of_a = np.roll(p.tiles[hints[a][0]], hints[a][1])[1]
    turn = next(r for r in range(4) if np.roll(p.tiles[hints[b][0]], r)[3] != east_of_a)
    est = estimate(p.with_hints({a: hints[a], b: (hints[b][0], turn)}))
    assert est.solutions == 0 and est.nodes == 0 and est.notes


# ----------------------------------------------------------------------------- against real searches
def test_average_nodes_of_random_puzzles_match_the_estimate():
    """Over 40 random 5x4 puzzles, the mean real node count per depth of a full row-scan
    search against the mean estimate: within 10% on the first (frame) depths, and within
    a factor 2 overall (Owen's model is known to run low on small puzzles: the package's
    6x6 example estimates 146 solutions for 160)."""
    actual, expected = [], []
    for seed in range(40):
        puzzle = generate(5, 4, 2, 3, seed=seed).puzzle
        result = BacktrackSolver(order="rowscan").count(puzzle)
        actual.append(result.nodes_per_depth)
        expected.append(estimate(puzzle, "rowscan").nodes_per_depth)
    actual = np.array(actual, dtype=float).mean(axis=0)
    expected = np.array(expected, dtype=float).mean(axis=0)
    ratio = actual / expected
    assert np.all(np.abs(ratio[:5] - 1) < 0.1), ratio[:5]
    assert 0.7 < actual.sum() / expected.sum() < 2.0


def test_fixed_hints_predict_better_than_pooled():
    """With several hints, taking the hints' colours into account is closer to the truth:
    the mean log ratio of real to estimated nodes over 30 random puzzles is smaller."""
    fixed, pooled = [], []
    for seed in range(30):
        puzzle = generate(5, 5, 3, 4, seed=seed, hints=3).puzzle
        actual = BacktrackSolver().count(puzzle).nodes
        fixed.append(math.log(actual / estimate(puzzle, hints="fixed").nodes))
        pooled.append(math.log(actual / estimate(puzzle, hints="pooled").nodes))
    assert abs(np.mean(fixed)) < abs(np.mean(pooled))
    assert abs(np.mean(fixed)) < math.log(4)


# ----------------------------------------------------------------------------- API and CLI
def test_bad_orders_and_schedules():
    p = generate(4, 4, seed=0).puzzle
    with pytest.raises(InputError):
        estimate(p, [0, 1, 2])
    with pytest.raises(InputError):
        estimate(p, list(range(16)) + [3])
    with pytest.raises(InputError):
        estimate(p, "zigzagzoo")
    with pytest.raises(InputError):
        estimate(p, schedule="list:2,1")
    with pytest.raises(InputError):
        estimate(p, hints="maybe")


def test_compare_orders_ranks_by_nodes():
    p = edgematch.load("owen1-6x6")
    ranked = compare_orders(p, ["spiral-in", "rowscan", [s for s in reversed(range(36))]])
    nodes = [est.nodes for _, est in ranked]
    assert nodes == sorted(nodes)
    assert {name for name, _ in ranked} >= {"spiral-in", "rowscan"}
    # every order gives the same expected number of solutions
    assert len({round(est.solutions, 6) for _, est in ranked}) == 1


def test_cli_json(capsys):
    code, out, _ = run_cli(capsys, "estimate", "e2", "--order", "rowscan", "--corner", "BL", "--hints", "pooled", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["expected_solutions"] == pytest.approx(14702.27, rel=1e-6)
    assert data["expected_nodes"] == pytest.approx(1.365e47, rel=1e-3)
    # Eternity2Puzzles.jl's documentation: "widest after about 160 to 170 pieces"; the
    # command line reports what the library computes
    assert 160 <= data["widest_depth"] <= 170
    assert data["widest_depth"] == estimate(edgematch.load("e2"), "rowscan", corner="BL", hints="pooled").widest_depth


def test_cli_text_and_compare(capsys):
    code, out, _ = run_cli(capsys, "estimate", "owen1-6x6")
    assert code == 0
    assert "expected solutions" in out and "expected nodes" in out and "widest depth" in out
    code, out, _ = run_cli(capsys, "estimate", "owen1-6x6", "--compare", "rowscan", "spiral-in")
    assert code == 0
    assert out.splitlines()[1].startswith("rowscan")
    assert run_cli(capsys, "estimate", "owen1-6x6", "--order", "nowhere")[0] == 2
