"""The two-phase solver (--solver balanced): balanced rotation sets, then placements."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import edgematch
from edgematch.cli.main import main
from edgematch.engines import make_solver
from edgematch.engines.base import Limits
from edgematch.errors import InputError
from edgematch.model.rotation_sets import RotationSet


@settings(max_examples=30, deadline=None)
@given(
    st.integers(2, 5),
    st.integers(2, 4),
    st.integers(0, 10_000),
    st.sampled_from(["none", "corner", "1", "2"]),
    st.booleans(),
)
def test_two_phase_counts_equal_the_plain_backtracker(width, height, seed, hints, parity):
    planted = edgematch.generate(width, height, seed=seed, hints=hints, frame_colours=2, inner_colours=2)
    plain = make_solver("backtrack").count(planted.puzzle)
    two_phase = make_solver("balanced", parity=parity).count(planted.puzzle)
    assert two_phase.complete and two_phase.solutions == plain.solutions
    assert two_phase.statistics["rotation_sets_with_solutions"] <= two_phase.statistics["rotation_sets_searched"]
    assert sum(two_phase.nodes_per_depth) == two_phase.nodes


@pytest.mark.parametrize("parity", [False, True])
def test_two_phase_solutions_are_verified_and_each_set_is_searched_once(parity):
    puzzle = edgematch.load("owen1-4x4")
    plain = make_solver("backtrack").solve(puzzle, k=None)
    result = make_solver("balanced", parity=parity).solve(puzzle, k=None)
    assert sorted(map(_key, result.boards)) == sorted(map(_key, plain.boards))
    assert all(b.verify().valid for b in result.boards)
    sets = {RotationSet.of_board(b, parity) for b in plain.boards}
    assert result.statistics["rotation_sets_with_solutions"] == len(sets)
    first = make_solver("balanced", parity=parity).solve(puzzle, k=2)
    assert len(first.boards) == 2 and not first.complete


def test_two_phase_limits_and_start_boards():
    puzzle = edgematch.load("owen1-5x5")
    stopped = make_solver("balanced").count(puzzle, limits=Limits(nodes=5_000))
    assert not stopped.complete and stopped.stopped_by == "nodes" and stopped.nodes >= 5_000
    planted = edgematch.load("owen1-3x3")
    with pytest.raises(InputError, match="balanced solver cannot start"):
        make_solver("balanced").count(planted, start=edgematch.Board.from_hints(planted))


def test_cli_rotations_find_write_count_and_errors(tmp_path, capsys):
    out = tmp_path / "owen4.rot"
    assert main(["rotations", "owen1-4x4", "--out", str(out), "--seed", "3", "--time-limit", "30"]) == 0
    assert "balanced rotation set found" in capsys.readouterr().out
    found = out.read_text()
    assert found.startswith("# edgematch rotation set") and "parity no" in found
    assert main(["rotations", "owen1-4x4", "--parity", "--count", "--json"]) == 0
    text = capsys.readouterr().out
    assert '"balanced_sets"' in text and '"rotation_sets"' in text
    assert main(["rotations", "e2", "--estimate"]) == 0
    assert "7.450e+149" in (shown := capsys.readouterr().out) and "5.529e+109" in shown
    assert main(["rotations", "owen1-4x4", "--count", "--out", str(out)]) == 2
    assert "--out writes a set" in capsys.readouterr().err
    assert main(["count", "owen1-4x4", "--solver", "balanced", "--json", "--quiet"]) == 0
    assert '"solutions": 36' in capsys.readouterr().out


def _key(board) -> tuple:
    return tuple(board.tiles.tolist()), tuple(board.rotations.tolist())
