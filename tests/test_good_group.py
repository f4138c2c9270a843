"""Verhaard's good group: the tiles kept for the last squares, and the lists that try them last."""

from __future__ import annotations

import json

import numpy as np
import pytest

from edgematch.engines import make_solver
from edgematch.engines.backtrack.best import candidate_preference
from edgematch.engines.backtrack.good_group import concentration, good_group, square_kinds
from edgematch.engines.backtrack.plan import build_plan
from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.loading import load
from edgematch.model import Puzzle
from support.cli import run_cli


def _squares(puzzle, order="rowscan"):
    return make_solver("backtrack", order=order).search_squares(puzzle)


@pytest.mark.parametrize("size", [1, 8, 32, 100])
def test_the_group_has_the_kinds_of_the_last_squares_and_no_hint(size):
    puzzle = load("e2")
    squares = _squares(puzzle, "e2path")
    group = good_group(puzzle, squares, size, seed=3)
    assert len(group) == len(set(group.tolist())) == size
    assert sorted(puzzle.kinds[group]) == sorted(square_kinds(puzzle, squares[-size:]))
    assert not {h.tile for h in puzzle.hints} & set(group.tolist())


def test_the_group_is_a_local_maximum_of_its_concentration():
    """No swap of one group tile for an outside tile of the same kind raises the measure."""
    puzzle = generate(6, seed=2, frame_colours=3, inner_colours=5).puzzle
    squares = _squares(puzzle)
    kinds = puzzle.kinds
    for seed in range(3):
        group = good_group(puzzle, squares, 12, seed)
        value = concentration(puzzle, group)
        outside = [t for t in range(puzzle.n_tiles) if t not in set(group.tolist())]
        for i, t in enumerate(group):
            for u in outside:
                if kinds[u] == kinds[t]:
                    trial = group.copy()
                    trial[i] = u
                    assert concentration(puzzle, trial) <= value
        need = np.bincount(square_kinds(puzzle, squares[-12:]), minlength=3)
        rng = np.random.default_rng(seed)  # and it beats random groups of the same kinds
        for _ in range(20):
            random_group = np.concatenate(
                [rng.choice(np.flatnonzero(kinds == k), size=int(n), replace=False) for k, n in enumerate(need) if n]
            )
            assert concentration(puzzle, random_group) <= value


def test_each_seed_may_keep_its_own_group_and_the_same_seed_the_same_one():
    puzzle = load("e2")
    squares = _squares(puzzle, "e2path")
    groups = {tuple(good_group(puzzle, squares, 32, seed)) for seed in range(4)}
    assert len(groups) > 1
    assert tuple(good_group(puzzle, squares, 32, 7)) == tuple(good_group(puzzle, squares, 32, 7))


def test_every_list_tries_the_group_last_and_the_priority_colours_first():
    puzzle = load("e2")
    squares = _squares(puzzle, "e2path")
    group = set(good_group(puzzle, squares, 40, 5).tolist())
    prio_w = np.array([sum(int(c) in (1, 5, 9) for c in tile) for tile in puzzle.tiles], np.int32)
    for weights in (None, prio_w):
        preference = candidate_preference(puzzle, squares, 40, 5, weights)
        plan = build_plan(puzzle, squares, seed=5, preference=preference)
        checked = 0
        for a, b in zip(plan.starts[:-1], plan.starts[1:]):
            tiles = plan.cand[a:b] // 4
            kept = np.array([t in group for t in tiles], dtype=bool)
            if weights is None:
                # within one key's list: every tile outside the group before every kept one
                assert not (kept[:-1] & ~kept[1:]).any()
            else:
                w = weights[tiles]
                assert (np.diff(w) <= 0).all()  # the priority colours still rule the order
                same = w[:-1] == w[1:]
                assert not (same & kept[:-1] & ~kept[1:]).any()
            checked += int(kept.any() and not kept.all())
        assert checked > 0  # lists that mix both exist, so the order was tested
    assert candidate_preference(puzzle, squares, 0, 5, None) is None


@pytest.mark.parametrize("seed", range(4))
def test_the_group_reorders_the_tree_but_searches_all_of_it(seed):
    """Exhausted, the search with a good group walks the same tree in another order: the
    same nodes per depth, the same best score and the same boards per score."""
    tiles = np.array(generate(4, 4, 2, 3, seed=seed).puzzle.tiles)
    inner = int(np.flatnonzero((tiles > 0).all(axis=1))[0])
    tiles[inner, 0] = next(c for c in range(1, 9) if c not in set(tiles[inner].tolist()))  # no perfect board
    puzzle = Puzzle(tiles, 4, 4)
    options = dict(schedule="1:0,9:2,16:4", max_tile_errors=2, seed=seed, save_boards=1)
    plain = make_solver("backtrack", **options).best(puzzle)
    grouped = make_solver("backtrack", good_group=6, **options).best(puzzle)
    assert plain.complete and grouped.complete
    assert grouped.statistics["good_group"] == 6 and plain.statistics["good_group"] == 0
    assert grouped.nodes == plain.nodes and grouped.nodes_per_depth == plain.nodes_per_depth
    assert grouped.best_score == plain.best_score
    assert grouped.statistics["boards_by_score"] == plain.statistics["boards_by_score"]
    assert sorted(b.score() for b in grouped.boards) == sorted(b.score() for b in plain.boards)


def test_the_option_travels_to_workers_and_is_checked():
    assert make_solver("backtrack", good_group=9).params()["good_group"] == 9
    with pytest.raises(InputError, match="good_group"):
        make_solver("backtrack", good_group=-1)
    puzzle = generate(4, seed=1).puzzle
    with pytest.raises(InputError, match="good group must keep"):
        make_solver("backtrack", good_group=17, schedule="1").best(puzzle)


def test_search_good_group_on_the_command_line(capsys, tmp_path):
    db = str(tmp_path / "runs.sqlite")
    args = ["search", "e2", "--good-group", "32", "--node-limit", "3000000", "--seed", "2", "--db", db]
    code, out, err = run_cli(capsys, *args, "--jobs", "1", "--json", "--quiet")
    assert code == 0, err
    data = json.loads(out)
    assert data["statistics"]["good_group"] == 32
    code, out, err = run_cli(capsys, "search", "e2", "--good-group", "300", "--node-limit", "1000", "--jobs", "1", "--db", db)
    assert code == 2 and "good group must keep 1..255" in err and "Traceback" not in err
