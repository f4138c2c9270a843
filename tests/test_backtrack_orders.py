"""Scan orders: every order is a permutation, every order gives the same solutions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edgematch.engines.backtrack import BacktrackSolver
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model import square_name
from edgematch.model.orders import (
    CORNERS,
    ORDER_NAMES,
    parse_order_text,
    resolve_order,
    scan_order,
    search_order,
)

# The path of jwortmann/Eternity2Puzzles.jl, src/solvers/e2_backtracking.jl (E2BacktrackingSearch).
JULIA_E2_PATH = """I8 P1 P2 O1 O2 P3 O3 N1 N2 N3 P4 O4 N4 M1 M2 M3 M4 P5 O5 N5 M5 L1 L2 L3 L4 L5 P6 O6 N6 M6 L6
K1 K2 K3 K4 K5 K6 P7 O7 N7 M7 L7 K7 J1 J2 J3 J4 J5 J6 J7 P8 O8 N8 M8 L8 K8 J8 I1 I2 I3 I4 I5 I6 I7
P9 P10 P11 P12 P13 P14 P15 P16 O9 O10 O11 O12 O13 O14 O15 O16 N9 N10 N11 N12 N13 N14 N15 N16
M9 M10 M11 M12 M13 M14 M15 M16 L9 L10 L11 L12 L13 L14 L15 L16 K9 K10 K11 K12 K13 K14 K15 K16
J9 J10 J11 J12 J13 J14 J15 J16 I9 I10 I11 I12 I13 I14 I15 I16 H1 H2 H3 H4 H5 H6 H7 H8 H9 H10 H11
H12 H13 H14 H15 H16 G1 G2 G3 G4 G5 G6 G7 G8 G9 G10 G11 G12 G13 G14 G15 G16 F1 F2 F3 F4 F5 F6 F7 F8
F9 F10 F11 F12 F13 F14 F15 F16 E1 E2 E3 E4 E5 E6 E7 E8 E9 E10 E11 E12 E13 E14 E15 E16 D1 C1 B1 A1
D2 C2 B2 A2 D3 C3 B3 A3 D4 C4 B4 A4 D5 C5 B5 A5 D6 C6 B6 A6 D7 C7 B7 A7 D8 C8 B8 A8 D9 C9 B9 A9 D10
C10 B10 A10 D11 C11 B11 A11 D12 C12 B12 A12 D13 C13 B13 A13 D14 D15 D16 C14 B14 A14 C15 C16 B15 A15
B16 A16""".split()


def test_e2path_on_16x16_is_the_julia_package_path():
    assert [square_name(s, 16) for s in scan_order("e2path", 16, 16)] == JULIA_E2_PATH


def test_e2path_keeps_left_and_bottom_neighbours_placed_on_16x16():
    """The package only uses orders where each square's left and bottom neighbours (or the
    border) come first; ours reproduces that property (after the starter square)."""
    order = scan_order("e2path", 16, 16)
    position = {sq: i for i, sq in enumerate(order)}
    for i, sq in enumerate(order[1:], start=1):
        r, c = divmod(sq, 16)
        if c > 0:
            assert position[sq - 1] < i
        if r < 15:
            assert position[sq + 16] < i


@pytest.mark.parametrize("name", ORDER_NAMES)
def test_every_named_order_from_every_corner_is_a_permutation(name):
    for w in range(2, 9):
        for h in range(2, 9):
            for corner in CORNERS:
                order = scan_order(name, w, h, corner)
                assert sorted(order) == list(range(w * h)), (name, w, h, corner)


def test_corners_mirror_the_order():
    assert scan_order("rowscan", 3, 2, "TL") == [0, 1, 2, 3, 4, 5]
    assert scan_order("rowscan", 3, 2, "TR") == [2, 1, 0, 5, 4, 3]
    assert scan_order("rowscan", 3, 2, "BL") == [3, 4, 5, 0, 1, 2]
    assert scan_order("colscan", 3, 2, "BR") == [5, 2, 4, 1, 3, 0]
    assert scan_order("spiral-in", 3, 3) == [0, 1, 2, 5, 8, 7, 6, 3, 4]
    assert scan_order("spiral-out", 3, 3) == [4, 3, 6, 7, 8, 5, 2, 1, 0]
    assert scan_order("diagonal", 3, 3) == [0, 1, 3, 6, 4, 2, 5, 7, 8]
    assert scan_order("frame", 3, 3)[-1] == 4


@pytest.mark.parametrize("w,h,b,i,hints,seed", [
    (4, 4, 2, 3, "none", 1), (5, 4, 2, 4, 2, 2), (4, 5, 2, 4, "corner", 3), (5, 5, 2, 5, 3, 4), (3, 6, 3, 4, "none", 5),
])
def test_every_order_gives_the_same_solutions(w, h, b, i, hints, seed):
    g = generate(w, h, b, i, seed=seed, hints=hints)
    reference = BacktrackSolver().solve(g.puzzle, k=None)
    assert reference.complete and reference.solutions >= 1
    expected = reference.solution_set()
    for name in ORDER_NAMES:
        for corner in CORNERS:
            result = BacktrackSolver(order=name, corner=corner).solve(g.puzzle, k=None)
            assert result.complete
            assert result.solution_set() == expected, (name, corner)
            assert result.solutions == reference.solutions


def test_user_order_as_text_file_and_sequence(tmp_path):
    g = generate(4, 4, 2, 3, seed=1, hints=1)
    hint = g.puzzle.hints[0].square
    names = [square_name(s, 4) for s in reversed(range(16))]
    path = tmp_path / "order.txt"
    path.write_text("# reversed row scan\n" + "\n".join(" ".join(names[r * 4:(r + 1) * 4]) for r in range(4)))
    expected = BacktrackSolver().count(g.puzzle).solutions
    assert BacktrackSolver(order=str(path)).count(g.puzzle).solutions == expected
    without_hint = [s for s in range(16) if s != hint][::-1]
    assert BacktrackSolver(order=without_hint).count(g.puzzle).solutions == expected


def test_bad_orders_are_input_errors_naming_the_problem(tmp_path):
    with pytest.raises(InputError, match="twice"):
        parse_order_text("A1 B1\nA1", 2, 2, "o.txt")
    with pytest.raises(InputError, match="misses 1 square"):
        search_order([0, 1, 2], 2, 2)
    assert list(search_order([0, 1, 2], 2, 2, hint_squares=[3])) == [0, 1, 2]
    with pytest.raises(InputError, match="off the"):
        search_order([0, 1, 2, 9], 2, 2)
    with pytest.raises(InputError, match="neither"):
        resolve_order("no-such-order", 4, 4)
    with pytest.raises(InputError) as err:
        parse_order_text("A1 Z9", 2, 2, "o.txt")
    assert err.value.source == "o.txt" and err.value.line == 1
    with pytest.raises(InputError, match="corner"):
        scan_order("rowscan", 4, 4, "XX")



@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), size=st.sampled_from([(3, 3), (4, 3), (4, 4), (5, 3)]),
       hints=st.sampled_from(["none", 1, 2]), data=st.data())
def test_any_permutation_of_the_squares_gives_the_same_solutions(seed, size, hints, data):
    """Arbitrary orders (no neighbour placed yet, three or four known sides, hints in the
    middle) all search the same solution set."""
    w, h = size
    g = generate(w, h, 2, 3, seed=seed, hints=hints)
    order = data.draw(st.permutations(range(w * h)))
    expected = BacktrackSolver().solve(g.puzzle, k=None).solution_set()
    result = BacktrackSolver(order=list(order)).solve(g.puzzle, k=None)
    assert result.complete and result.solution_set() == expected
