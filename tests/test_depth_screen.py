"""The depth screen's bookkeeping (no engine is run): variants, seeds, the command a variant
runs and the summary against the search as it is."""

from __future__ import annotations

import argparse

import pytest
from benchmarks import depth_screen
from benchmarks.score_race import DEPTH_SEARCH

from edgematch.cli.main import build_parser


def test_a_variant_is_a_name_and_shell_split_options():
    assert depth_screen.parse_variant("base=") == ("base", [])
    assert depth_screen.parse_variant("c8=--priority-colours 20,5,8") == ("c8", ["--priority-colours", "20,5,8"])
    with pytest.raises(argparse.ArgumentTypeError):
        depth_screen.parse_variant("--priority-colours 20,5,8")


def test_seeds_take_ranges_and_lists():
    assert depth_screen.parse_seeds("1-4,9,11-12") == [1, 2, 3, 4, 9, 11, 12]


def test_a_variants_option_replaces_the_depth_races_own():
    args = depth_screen.command(["--priority-colours", "20,5,8"], seed=3, nodes=2000)
    assert args[: 2 + len(DEPTH_SEARCH)] == ["search", "e2", *DEPTH_SEARCH]
    parsed = build_parser().parse_args(args)
    assert parsed.priority_colours == "20,5,8"
    assert (parsed.seed, parsed.node_limit, parsed.jobs) == (3, 2000, 1)


def row(variant, seed, tiles, code="abc", nodes=100, tail=None, options=None):
    return dict(
        variant=variant,
        options=options if options is not None else ([] if variant == "base" else ["--x", variant]),
        seed=seed,
        nodes=nodes,
        tiles=tiles,
        tail=tail or {},
        code=code,
    )


def test_the_summary_counts_seed_by_seed_against_base_of_the_same_code():
    data = [
        row("base", 1, 248),
        row("base", 2, 250),
        row("base", 3, 247),
        row("v", 1, 249, tail={"244": 5, "243": 7}),
        row("v", 2, 250, tail={"250": 1}),
        row("v", 3, 246),
        row("v", 4, 251),  # no base for seed 4: not in the split
        row("base", 1, 200, code="old"),
        row("v", 1, 150, nodes=7),
    ]
    by = {(v["variant"], v["code"]): v for v in depth_screen.summary(data, 100)}
    v = by[("v", "abc")]
    assert v["tiles"] == [249, 250, 246, 251] and v["seeds"] == [1, 2, 3, 4]
    assert v["split"] == (1, 1, 1)
    assert v["base_mean"] == pytest.approx((248 + 250 + 247) / 3)
    assert v["mean"] == pytest.approx((249 + 250 + 246 + 251) / 4)
    assert v["deep_nodes"] == 6
    assert by[("base", "old")]["tiles"] == [200]
    assert ("v", "old") not in by


def test_the_probes_run_the_depth_races_search():
    """depth_probes.py (and the profiles that borrow its options) build the solver in-process
    from the library's recipe; it must be the search the depth race runs from the command line."""
    from benchmarks.depth_probes import BLACKWOOD_JB470

    parsed = build_parser().parse_args(["search", "e2", *DEPTH_SEARCH])
    assert BLACKWOOD_JB470 == dict(
        order=parsed.order,
        schedule=parsed.schedule,
        priority_colours=[int(c) for c in parsed.priority_colours.split(",")],
        priority_schedule=parsed.priority_schedule,
        priority_first=parsed.priority_first,
        exact_squares=parsed.exact_squares,
        kernel="generated",
    )
