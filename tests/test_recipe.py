"""The default search's recipe lives in the library, so that ``edgematch.search`` and
``edgematch search`` fill in the same options (the command line's own test is
test_endgame.test_search_fills_in_the_recipe_on_big_boards_only)."""

from __future__ import annotations

import numpy as np

import edgematch
from edgematch.engines.backtrack.recipe import (
    BLACKWOOD_CLUES_RECIPE,
    BLACKWOOD_EXACT_SQUARES,
    CLUED_BLACKWOOD_RESTART_NODES,
    CLUED_RESTART_NODES,
    default_search_options,
)
from edgematch.loading import load


def test_eternity_ii_with_its_starter_gets_blackwoods_method():
    filled = default_search_options(load("e2"), {})
    assert filled == dict(
        order="blackwood",
        schedule="blackwood",
        priority_colours=[20, 5, 7],
        priority_schedule="blackwood",
        priority_first=True,
        exact_squares=BLACKWOOD_EXACT_SQUARES,
        endgame=12,
        save_boards=464,
        polish=1.0,
    )


def test_eternity_ii_with_its_clues_gets_his_method_fitted_to_them():
    clues = load("e2-clues")
    filled = default_search_options(clues, {})
    assert filled == dict(
        BLACKWOOD_CLUES_RECIPE,
        exact_squares=BLACKWOOD_EXACT_SQUARES,
        restart_nodes=CLUED_BLACKWOOD_RESTART_NODES,
        endgame=12,
        save_boards=460,
        polish=1.0,
    )
    assert filled["order"] == "blackwood-clues" and filled["schedule"].endswith(",239,241,243")
    given = default_search_options(clues, {"restart_nodes": 5, "polish": 0.0, "endgame": 0})
    assert (given["restart_nodes"], given["polish"], given["endgame"]) == (5, 0.0, 0)


def test_other_big_boards_get_the_julia_path_and_clued_ones_restarts():
    e2 = load("e2")
    general = default_search_options(e2, {"order": "e2path"})  # one option of his method given
    assert (general["order"], general["schedule"], general["endgame"], general["save_boards"]) == (
        "e2path",
        "julia:470",
        16,
        460,
    )
    assert "restart_nodes" not in general and "priority_colours" not in general
    clues = load("e2-clues")
    clued = default_search_options(clues, {"order": "e2path"})  # one option of his method given
    assert (clued["schedule"], clued["restart_nodes"]) == ("julia:465", CLUED_RESTART_NODES)
    given = default_search_options(clues, {"order": "e2path", "restart_nodes": 5, "polish": 0.0, "endgame": 0})
    assert (given["restart_nodes"], given["polish"], given["endgame"]) == (5, 0.0, 0)


def test_small_boards_keep_the_exact_row_scan_and_input_is_not_changed():
    options = {"seed": 3}
    filled = default_search_options(load("owen1-6x6"), options)
    assert filled == {"seed": 3, "order": "rowscan", "endgame": 0, "polish": 0.0}
    assert options == {"seed": 3}


def test_an_order_given_as_an_array_counts_as_given():
    e2 = load("e2")
    order = np.arange(e2.n_squares)
    filled = default_search_options(e2, {"order": order})
    assert filled["order"] is order and filled["schedule"] == "julia:470"


def test_the_python_search_fills_in_the_recipe_unless_told_not_to():
    common = dict(node_limit=20_000, jobs=1, endgame=0, polish=0.0)
    stats = edgematch.search("e2-clues", **common).statistics
    clued = (BLACKWOOD_CLUES_RECIPE["order"], BLACKWOOD_CLUES_RECIPE["schedule"], CLUED_BLACKWOOD_RESTART_NODES)
    assert (stats["order"], stats["schedule"], stats["restart_nodes"]) == clued
    bare = edgematch.search("e2-clues", recipe=False, **common).statistics
    assert (bare["order"], bare["schedule"], bare["restart_nodes"]) == ("rowscan", None, None)
