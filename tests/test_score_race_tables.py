"""The score race's bookkeeping (no engine is run): which rows a new measurement replaces,
and the side-by-side rate table's pairing, ratios and counts."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest
from benchmarks import score_race


def pair_rows(date, code, puzzle, round_no, ours, theirs, peer="libblackwood", seconds=60, seed=1):
    common = {
        "seed": seed,
        "puzzle": puzzle,
        "race": "rate pair",
        "round": round_no,
        "date": date,
        "code": code,
        "pair_seconds": seconds,
        "seconds": seconds + 0.1,
    }
    return [
        {"engine": "edgematch", "nodes_per_second": ours, "core": (round_no - 1) % 2, **common},
        {"engine": peer, "nodes_per_second": theirs, "core": round_no % 2, **common},
    ]


def test_a_rate_pair_replaces_only_the_same_round_of_the_same_day_code_machine_seed_and_length():
    today = pair_rows("2026-11-26", "abc", "e2", 1, 70, 60)[0]
    assert score_race.key(today) == score_race.key(pair_rows("2026-11-26", "abc", "e2", 1, 1, 1)[0])
    assert score_race.key(today) != score_race.key(pair_rows("2026-11-26", "abc", "e2", 2, 70, 60)[0])
    assert score_race.key(today) != score_race.key(pair_rows("2026-11-25", "abc", "e2", 1, 70, 60)[0])
    assert score_race.key(today) != score_race.key(pair_rows("2026-11-26", "def", "e2", 1, 70, 60)[0])
    assert score_race.key(today) != score_race.key(pair_rows("2026-11-26", "abc", "e2", 1, 70, 60, seconds=300)[0])
    assert score_race.key(today) != score_race.key(pair_rows("2026-11-26", "abc", "e2", 1, 70, 60, seed=4)[0])
    elsewhere = {**today, "machine": "Intel(R) Xeon(R) Processor, 2 logical CPUs, Python 3.11.7"}
    assert score_race.key(today) != score_race.key(elsewhere)
    # rows written before pairs kept their length: the seconds they measured, rounded
    older = {k: v for k, v in today.items() if k != "pair_seconds"}
    assert score_race.key(older) == score_race.key(today)
    # a one-core rate of the same engine and board is another row
    alone = {"engine": "edgematch", "puzzle": "e2", "nodes_per_second": 70}
    assert score_race.key(today) != score_race.key(alone)


def test_rows_written_before_the_seed_field_take_it_from_their_command():
    ours, theirs = pair_rows("2026-11-27", "abc", "e2", 1, 70, 60)
    del ours["seed"], theirs["seed"]
    ours["command"] = "edgematch search e2 --order blackwood --seed 3 --jobs 1 --time-limit 300"
    theirs["command"] = "SCENARIO=jb470perf PUZZLE=E2ncud SEED=3.. BW_SECONDS=300 python3 bw_run.py"
    assert score_race.pair_seed(ours) == score_race.pair_seed(theirs) == 3
    assert score_race.key(ours) == score_race.key(pair_rows("2026-11-27", "abc", "e2", 1, 1, 1, seed=3)[0])
    assert score_race.pair_seed({"command": "edgematch solve e2dev/bench-hard --jobs 1"}) is None
    assert "| 2026-11-27 | abc | not recorded | e2 | 3 | 60 | 1 | 70 (0) |" in "\n".join(
        score_race.rate_pair_table([ours, theirs])
    )


def test_the_side_by_side_table_pairs_rounds_and_counts_the_faster():
    rows = [
        *pair_rows("2026-11-26", "abc", "e2", 1, 66, 60),
        *pair_rows("2026-11-26", "abc", "e2", 2, 57, 60),
        *pair_rows("2026-11-26", "abc", "e2", 3, 72, 60),
        *pair_rows("2026-11-26", "abc", "e2dev/bench-hard", 1, 120, 100, peer="eternity2.dev", seed=None),
        # another seed of the same round is its own pair
        *pair_rows("2026-11-26", "abc", "e2", 1, 55, 50, seed=2),
        # a longer pair of the same round is its own line and its own summary
        *pair_rows("2026-11-26", "abc", "e2", 1, 50, 60, seconds=300),
        # a round whose peer row is missing is left out, not counted
        pair_rows("2026-11-26", "abc", "e2", 4, 90, 60)[0],
    ]
    amd = "AMD EPYC, 2 logical CPUs, Python 3.11.7"
    # the same round of the same day and code on another machine is its own pair and summary
    rows += [{**r, "machine": amd} for r in pair_rows("2026-11-26", "abc", "e2", 1, 40, 80)]
    text = "\n".join(score_race.rate_pair_table(rows))
    row = "| 2026-11-26 | abc | not recorded | {} | libblackwood | {} |"
    assert row.format("e2 | 1 | 60 | 1 | 66 (0)", "60 (1) | 1.10") in text
    assert row.format("e2 | 1 | 60 | 2 | 57 (1)", "60 (0) | 0.95") in text
    assert row.format("e2 | 2 | 60 | 1 | 55 (0)", "50 (1) | 1.10") in text
    assert row.format("e2 | 1 | 300 | 1 | 50 (0)", "60 (1) | 0.83") in text
    assert f"| 2026-11-26 | abc | {amd} | e2 | 1 | 60 | 1 | 40 (0) | libblackwood | 80 (1) | 0.50 |" in text
    assert (
        "| 2026-11-26 | abc | not recorded | e2dev/bench-hard | - | 60 | 1 | 120 (0) | eternity2.dev | 100 (1) | 1.20 |"
        in text
    )
    assert "| e2 beside libblackwood, 60 s | not recorded | 4 | 3 | 1.10 |" in text
    assert f"| e2 beside libblackwood, 60 s | {amd} | 1 | 0 | 0.50 |" in text
    assert "| e2 beside libblackwood, 300 s | not recorded | 1 | 0 | 0.83 |" in text
    assert "| e2dev/bench-hard beside eternity2.dev, 60 s | not recorded | 1 | 1 | 1.20 |" in text
    assert "| 60 | 4 |" not in text
    assert score_race.rate_pair_table([]) == []


def test_a_seed_measured_often_counts_once_seed_by_seed():
    # one tree measured in four pairs, slower, and three trees once each, faster
    rows = [r for n in (1, 2, 3, 4) for r in pair_rows("2026-12-05", "abc", "e2", n, 90, 100, seed=33)]
    rows += [r for seed in (1, 2, 3) for r in pair_rows("2026-12-06", "abc", "e2", 1, 110, 100, seed=seed)]
    text = "\n".join(score_race.rate_pair_table(rows))
    # by pair the often measured tree decides the median, by seed it is one tree of four
    assert "| e2 beside libblackwood, 60 s | not recorded | 7 | 3 | 0.90 |" in text
    assert "| e2 beside libblackwood, 60 s | not recorded | 4 | 3 | 0.62 | 1.10 |" in text
    # a seed's pairs are averaged before it is counted faster or slower
    mixed = pair_rows("2026-12-06", "abc", "e2", 1, 80, 100, seed=5) + pair_rows(
        "2026-12-06", "abc", "e2", 2, 130, 100, seed=5
    )
    assert "| e2 beside libblackwood, 60 s | not recorded | 1 | 1 | 1.00 | 1.05 |" in "\n".join(
        score_race.rate_pair_table(mixed)
    )


def test_the_sign_test_is_the_exact_two_sided_binomial_tail():
    assert score_race.sign_test(0, 0) == 1.0
    assert score_race.sign_test(3, 3) == 1.0
    # 10 against 6: 2 * P(X <= 6), X ~ Binomial(16, 1/2) = 2 * 0.2272491455 = 0.454...
    assert abs(score_race.sign_test(10, 6) - 0.4544982910) < 1e-9
    assert score_race.sign_test(6, 10) == score_race.sign_test(10, 6)
    # 9 against 0: 2 / 2**9
    assert abs(score_race.sign_test(9, 0) - 2 / 512) < 1e-12


def depth_rows(horizon, seed, ours, theirs):
    common = {"race": "depth", "horizon": horizon, "seed": seed}
    return [
        {"engine": "edgematch", "deepest_tiles": ours, **common},
        {"engine": "libblackwood", "deepest_tiles": theirs, **common},
    ]


def test_the_depth_summary_counts_seed_for_seed_and_gives_means_and_the_sign_test():
    rows = [
        *depth_rows(60, 1, 248, 247),
        *depth_rows(60, 2, 250, 248),
        *depth_rows(60, 3, 247, 248),
        *depth_rows(60, 4, 248, 248),
        # a seed only one engine ran is left out
        {"engine": "edgematch", "deepest_tiles": 255, "race": "depth", "horizon": 60, "seed": 5},
        *depth_rows(600, 1, 249, 251),
    ]
    table = "\n".join(score_race.depth_summary(rows))
    assert (
        "| 60 s | 4 | 2 | 1 | 1 | 1.00 | 250, 248, 248.25 | 248, 248, 247.75 | +0.50 | -1.55 to +2.55 | 0.75 |" in table
    )
    assert "| 600 s | 1 | 0 | 0 | 1 | 1.00 | 249, 249, 249.00 | 251, 251, 251.00 | -2.00 | - | 1.00 |" in table


def test_p_values_below_a_hundredth_keep_one_significant_digit():
    assert score_race.p_text(0.4966) == "0.50"
    assert score_race.p_text(0.0118) == "0.01"
    assert score_race.p_text(0.0011852) == "0.001"
    assert score_race.p_text(2 / 512) == "0.004"


def test_a_p_below_the_line_is_never_rounded_onto_it():
    assert score_race.p_text(0.047) == "0.047"
    assert score_race.p_text(0.0499) == "0.0499"
    assert score_race.p_text(0.05) == "0.05"
    assert score_race.p_text(0.0531) == "0.05"
    assert score_race.p_text(0.0449) == "0.04"


def test_the_mean_difference_interval_is_students_t_over_the_pairs():
    # differences 1, 2, -1, 0: mean 0.5, standard deviation sqrt(5/3), t(3, 0.975) = 3.1824
    low, high = score_race.mean_difference_interval([1, 2, -1, 0])
    half_width = 3.182446305 * (5 / 3) ** 0.5 / 2
    assert abs(low - (0.5 - half_width)) < 1e-6 and abs(high - (0.5 + half_width)) < 1e-6
    assert score_race.mean_difference_interval([-2]) is None
    assert score_race.mean_difference_interval([1, 1, 1]) is None


def test_the_signed_rank_test_weighs_how_many_tiles_deeper():
    # nine one-tile leads: the exact tail equals the sign test's, 2 / 2**9
    assert abs(score_race.signed_rank_test([1] * 9) - 2 / 512) < 1e-12
    assert score_race.signed_rank_test([0, 0]) == 1.0
    # the same split of signs, but the leads larger than the losses: a smaller p than the sign test's
    leads = [2, 2, 2, 2, 2, 2, -1, -1, 0]
    assert score_race.signed_rank_test(leads) < score_race.sign_test(6, 2)


def test_a_long_depth_race_gives_the_depths_first_reached_by_each_shorter_horizon():
    race = {
        "engine": "edgematch",
        "puzzle": "e2",
        "race": "depth",
        "horizon": 3600,
        "jobs": 1,
        "seed": 1001,
        "deepest_tiles": 250,
        "best_score": 452,
        "depth_at": {"240": 3.5, "247": 59.9, "248": 60.2, "249": 580.0, "250": 2000.0},
        "best_score_at": {"440": 3.5, "448": 59.0, "450": 700.0},
        "nodes_per_second_per_core": 40_000_000,
    }
    at_60, at_300, at_600, at_1800 = score_race.checkpoints(race)
    assert (at_60["horizon"], at_60["within"], at_60["deepest_tiles"], at_60["best_score"]) == (60, 3600, 247, 448)
    assert (at_300["horizon"], at_300["deepest_tiles"]) == (300, 248)
    assert (at_600["horizon"], at_600["deepest_tiles"], at_600["best_score"]) == (600, 249, 448)
    assert (at_1800["horizon"], at_1800["deepest_tiles"], at_1800["best_score"]) == (1800, 249, 450)
    assert at_60["nodes_per_second_per_core"] is None and "depth_at" not in at_60 and at_60["seed"] == 1001
    # libblackwood tracks depths above 245 only: none by then reads as unknown
    assert score_race.reached_by({"246": 61.0}, 60) is None
    # a race to 600 s gives rows at 60 s and 300 s; rows written before the timelines give none
    assert [r["horizon"] for r in score_race.checkpoints({**race, "horizon": 600})] == [60, 300]
    # the tables are written again with the checkpoints of the horizons chosen now
    rows = score_race.with_checkpoints([race])
    assert [(r["horizon"], r.get("within")) for r in rows] == [
        (3600, None),
        (60, 3600),
        (300, 3600),
        (600, 3600),
        (1800, 3600),
    ]
    assert score_race.checkpoints({k: v for k, v in race.items() if k != "depth_at"}) == []


def test_a_checkpoint_never_replaces_a_race_run_to_that_horizon():
    direct = {
        "engine": "edgematch",
        "puzzle": "e2",
        "race": "depth",
        "horizon": 60,
        "jobs": 1,
        "seed": 7,
        "deepest_tiles": 248,
    }
    read = {**direct, "within": 600, "deepest_tiles": 249}
    assert score_race.merged([direct], read) == [direct]
    assert score_race.merged([read], direct) == [direct]
    newer = {**read, "deepest_tiles": 247}
    assert score_race.merged([read], newer) == [newer]


def test_a_reading_within_a_race_stays_when_a_later_race_of_the_seed_reads_it_again():
    def race(horizon, date, tiles_at_60):
        return {
            "engine": "edgematch",
            "puzzle": "e2",
            "race": "depth",
            "horizon": horizon,
            "jobs": 1,
            "seed": 7,
            "deepest_tiles": 250,
            "date": date,
            "code": date,
            "depth_at": {str(tiles_at_60): 50.0, "250": 500.0},
        }

    earlier, later = race(600, "2026-11-28", 248), race(1800, "2026-12-05", 249)
    first, second = score_race.checkpoints(earlier)[0], score_race.checkpoints(later)[0]
    assert first["horizon"] == second["horizon"] == 60
    assert score_race.merged([first], second) == [first]
    # read afresh, in whatever order the rows stand, the earlier race's reading stays
    for rows in ([earlier, later], [later, earlier], [later, second, earlier]):
        at_60 = [r for r in score_race.with_checkpoints(rows) if r["horizon"] == 60]
        assert [(r["within"], r["deepest_tiles"]) for r in at_60] == [(600, 248)]


def test_reading_the_checkpoints_afresh_moves_no_row_it_leaves_as_it_was(tmp_path, monkeypatch):
    def race(seed, date):
        return {
            "engine": "edgematch",
            "puzzle": "e2",
            "race": "depth",
            "horizon": 1800,
            "jobs": 1,
            "seed": seed,
            "command": "edgematch search e2",
            "deepest_tiles": 250,
            "best_score": 458,
            "nodes_per_second_per_core": 80_000_000,
            "seconds": 1800,
            "load_average": 2.0,
            "date": date,
            "code": date,
            "machine": "AMD",
            "depth_at": {"248": 50.0, "250": 500.0},
        }

    saved: list[dict] = []
    for row in (race(7, "2026-12-05"), race(8, "2026-12-06")):  # as the races wrote them, one after another
        saved = score_race.merged(saved, row)
        for cut in score_race.checkpoints(row):
            saved = score_race.merged(saved, cut)
    fresh = score_race.with_checkpoints(saved)
    assert list(map(json.dumps, fresh)) == list(map(json.dumps, saved))
    # a reading that reads differently now is replaced where it stands
    for i in (1, len(saved) - 1):
        stale = [*saved[:i], {**saved[i], "deepest_tiles": 249}, *saved[i + 1 :]]
        assert list(map(json.dumps, score_race.with_checkpoints(stale))) == list(map(json.dumps, saved))
    # a reading no race gives any more goes; one it gives anew comes last
    lost = [r for r in saved if (r.get("within"), r["seed"], r["horizon"]) != (1800, 7, 300)]
    assert score_race.with_checkpoints(lost) == [*lost, saved[2]]
    assert score_race.with_checkpoints([*saved, {**saved[1], "seed": 9}]) == saved
    # a race writes a reading's fields in its own order; read afresh, the row keeps them
    saved[1] = {"within": saved[1]["within"], **{k: v for k, v in saved[1].items() if k != "within"}}
    # --rewrite writes score_race.json back byte for byte when nothing in it reads differently
    monkeypatch.setattr(score_race, "RESULTS", tmp_path)
    text = json.dumps({"machine": "AMD", "code": "abc", "date": "2026-12-06", "rows": saved}, indent=1) + "\n"
    (tmp_path / "score_race.json").write_text(text)
    assert score_race.main(["--rewrite"]) == 0
    assert (tmp_path / "score_race.json").read_text() == text
    assert (tmp_path / "score_race.md").exists()


def test_a_race_saves_its_readings_with_the_fields_a_rewrite_gives(tmp_path, monkeypatch):
    mine = {
        "engine": "edgematch",
        "puzzle": "e2",
        "race": "depth",
        "horizon": 1800,
        "jobs": 1,
        "seed": 7,
        "deepest_tiles": 250,
        "depth_at": {"248": 50.0, "250": 500.0},
        "best_score_at": {"450": 40.0},
        "best_score": 450,
        "nodes_per_second_per_core": 80_000_000,
        "command": "edgematch search e2",
        "seconds": 1800,
        "load_average": 2.0,
    }
    theirs = {**mine, "engine": "libblackwood", "best_depth_tracked": 245, "race": "depth"}
    del theirs["best_score_at"]
    monkeypatch.setattr(score_race, "depth_race", lambda folder, horizon, seed: [dict(mine), dict(theirs)])
    monkeypatch.setattr(score_race, "libblackwood_problem", lambda folder: None)
    monkeypatch.setattr(score_race, "peer_python_problem", lambda python: None)
    monkeypatch.setattr(score_race, "machine", lambda: "AMD")
    monkeypatch.setattr(score_race, "code_version", lambda: "abc")
    monkeypatch.setattr(score_race, "RESULTS", tmp_path)
    race = ["--no-race", "--no-rates", "--libblackwood", str(tmp_path), "--depth-horizons", "1800", "--seed", "7"]
    assert score_race.main(race) == 0
    text = (tmp_path / "score_race.json").read_text()
    rows = json.loads(text)["rows"]
    assert [(r["engine"], r["horizon"], r.get("within"), r["code"]) for r in rows] == [
        *[("edgematch", h, w, "abc") for h, w in ((1800, None), (60, 1800), (300, 1800), (600, 1800))],
        *[("libblackwood", h, w, "abc") for h, w in ((1800, None), (60, 1800), (300, 1800), (600, 1800))],
    ]
    assert rows[1]["deepest_tiles"] == 248 and rows[1]["best_score"] == 450 and "best_depth_tracked" not in rows[5]
    read_afresh = score_race.with_checkpoints([r for r in rows if not r.get("within")])
    assert sorted(map(json.dumps, read_afresh)) == sorted(map(json.dumps, rows))  # fields in one order
    assert score_race.main(["--rewrite"]) == 0
    assert (tmp_path / "score_race.json").read_text() == text


def test_the_depth_summary_splits_the_pooled_rows_by_machine():
    rows = [
        *({**r, "machine": "AMD"} for r in depth_rows(300, 1, 249, 248)),
        *({**r, "machine": "AMD"} for r in depth_rows(300, 2, 248, 249)),
        *({**r, "machine": "Xeon"} for r in depth_rows(300, 3, 250, 248)),
        *depth_rows(300, 4, 249, 249),  # before rows recorded their machine
    ]
    table = "\n".join(score_race.depth_summary(rows))
    assert "| 300 s | 4 | 2 | 1 | 1 | 1.00 | 250, 249, 249.00 | 249, 248.5, 248.50 | +0.50 |" in table
    assert "| 300 s | AMD | 2 | 1 | 0 | 1 | 1.00 | 249, 248.5, 248.50 | 249, 248.5, 248.50 | +0.00 |" in table
    assert "| 300 s | Xeon | 1 | 1 | 0 | 0 | 1.00 | 250, 250, 250.00 | 248, 248, 248.00 | +2.00 | - | 1.00 |" in table
    assert "| 300 s | not recorded | 1 | 0 | 1 | 0 | 1.00 |" in table


def test_the_depth_races_rates_are_paired_race_by_race_per_machine_and_length():
    def race(horizon, seed, ours, theirs, machine="AMD"):
        rows = depth_rows(horizon, seed, 250, 250)
        rows[0]["nodes_per_second_per_core"], rows[1]["nodes_per_second_per_core"] = ours, theirs
        return [{**r, "machine": machine} for r in rows]

    rows = [
        *race(300, 1, 90_000_000, 80_000_000),
        *race(300, 2, 70_000_000, 80_000_000),
        *race(300, 3, 99_000_000, 90_000_000),
        *race(3600, 4, 60_000_000, 75_000_000),
        *race(3600, 5, 80_000_000, 70_000_000, machine="Xeon"),
        # a reading at a shorter horizon has no rate of its own; one engine alone is no pair
        {**race(300, 4, 1, 1)[0], "within": 3600, "nodes_per_second_per_core": None},
        {"engine": "edgematch", "race": "depth", "horizon": 600, "seed": 6, "nodes_per_second_per_core": 5},
    ]
    table = "\n".join(score_race.race_rates(rows))
    assert "| AMD | 300 s | 3 | 2 | 1.00 | 1.10 | 90.0 M | 80.0 M |" in table
    assert "| AMD | 3600 s | 1 | 0 | 1.00 | 0.80 | 60.0 M | 75.0 M |" in table
    assert "| Xeon | 3600 s | 1 | 1 | 1.00 | 1.14 | 80.0 M | 70.0 M |" in table
    assert "| 600 s" not in table
    assert score_race.race_rates(depth_rows(60, 1, 248, 248)) == []


def test_a_races_rate_stretch_by_stretch_comes_from_the_first_mark_past_each_bound():
    row = {
        "engine": "edgematch",
        "race": "depth",
        "horizon": 600,
        "seed": 1,
        "machine": "AMD",
        "seconds": 600.0,
        "nodes_per_second_per_core": 100,
        # marks at 30 and 60.5 s, 120 and 300.25 s; the race ends at 600 s with 60,000 nodes
        "nodes_at": [[30.0, 1_000], [60.5, 6_050], [120.0, 10_000], [300.25, 30_025]],
    }
    rates = score_race.stretch_rates(row)
    assert rates == {(0, 60): 100.0, (60, 300): (30_025 - 6_050) / (300.25 - 60.5), (300, 600): 29_975 / 299.75}
    assert score_race.stretch_rates({**row, "nodes_at": []}) == {}
    # a race of an hour whose marks stop at 600 s: no stretch is made up past them
    assert set(score_race.stretch_rates({**row, "horizon": 3600, "seconds": 3600.0})) == {(0, 60), (60, 300)}

    theirs = {
        **row,
        "engine": "libblackwood",
        "nodes_at": [[60.0, 3_000], [300.0, 27_000]],
        "nodes_per_second_per_core": 90,
    }
    table = "\n".join(score_race.race_stretches([row, theirs, {**row, "seed": 2}]))  # seed 2: one engine only
    assert "| AMD | 0-60 s | 1 | 1 | 2.00 | 0.0 M | 0.0 M |" in table
    assert "| AMD | 300-600 s | 1 | 1 |" in table
    assert score_race.race_stretches([row]) == []


def test_the_deepest_of_independent_segments_is_the_expected_maximum():
    """Half the draws 248, half 250: the deepest of two is 250 but with chance 1/4, so
    248 + 2 * (1 - 1/4) = 249.5; of one, the mean; a constant stays itself."""
    assert score_race.best_of_segments([248, 250], 2) == 249.5
    assert score_race.best_of_segments([248, 249, 250, 251], 1) == 249.5
    assert score_race.best_of_segments([249, 249, 249], 12) == 249


def test_the_restart_estimate_needs_twenty_seeds_and_names_the_measured_runs_beside_it():
    rows = [row for seed in range(20) for row in depth_rows(300, seed, 249 + seed % 2, 249)]
    rows += depth_rows(3600, 100, 250, 251)
    table = "\n".join(score_race.restart_estimate(rows))
    # edgematch: 249 or 250 with chance 1/2 each; 12 segments reach 250 but with chance 2**-12
    assert f"| 3600 s | 300 s | 12 | 20 | {249 + 1 - 0.5**12:.2f} | 249.00 | +1.00 |" in table
    assert "| 250.00, 251.00 (1) |" in table
    assert "| 1800 s | 300 s | 6 | 20 |" in table
    assert "| 600 s |" not in table  # no seed raced to 600 s
    assert score_race.restart_estimate(rows[:-4]) == score_race.restart_estimate(rows[:-4])  # seeded bootstrap
    few = [row for seed in range(19) for row in depth_rows(300, seed, 250, 249)]
    assert "| 3600 s |" not in "\n".join(score_race.restart_estimate(few))


def test_an_interpreter_that_cannot_run_libblackwoods_driver_is_named_before_the_race(tmp_path):
    missing = str(tmp_path / "no-python")
    assert score_race.peer_python_problem(missing).startswith(f"--peer-python {missing} cannot be run")
    fake = tmp_path / "python-without-requests"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    assert "cannot import requests" in score_race.peer_python_problem(str(fake))
    real = tmp_path / "python-with-requests"
    real.write_text("#!/bin/sh\nexit 0\n")
    real.chmod(0o755)
    assert score_race.peer_python_problem(str(real)) is None


def test_the_long_races_are_listed_seed_for_seed_with_each_horizon_both_engines_ran():
    rows = [
        *depth_rows(1800, 7, 250, 251),
        *depth_rows(3600, 7, 251, 251),
        # a seed's machine and code are those of its first long row
        *[{**r, "machine": "Xeon", "code": "abc1234"} for r in depth_rows(3600, 3, 250, 249)],
        # a long seed only one engine ran, and a short horizon, are left out
        {"engine": "edgematch", "deepest_tiles": 252, "race": "depth", "horizon": 3600, "seed": 9},
        *depth_rows(600, 4, 250, 249),
    ]
    table = score_race.long_races(rows)
    assert table[-2:] == [
        "| 3 | Xeon | abc1234 | - | 250 / 249 (deeper) |",
        "| 7 | not recorded | - | 250 / 251 (shallower) | 251 / 251 (as deep) |",
    ]
    assert not any(line.startswith(("| 4 |", "| 9 |")) for line in table)


def timed_race(engine: str, seed: int, tiles: int, depth_at: dict, rate: int, marks: list, horizon=3600) -> dict:
    """A depth race's row with its depth timeline and node marks, as score_race.json keeps it."""
    return {
        "engine": engine,
        "race": "depth",
        "horizon": horizon,
        "seed": seed,
        "machine": "AMD",
        "code": "abc1234",
        "date": "2026-12-07",
        "deepest_tiles": tiles,
        "best_score": 458 if engine == "edgematch" else None,
        "depth_at": depth_at,
        "seconds": float(horizon),
        "nodes_per_second_per_core": rate,
        "nodes_at": marks,
    }


#: edgematch 80 M/s throughout; libblackwood 60 M/s but 100 M/s from 600 to 1800 s (72 M/s over the hour)
STEADY_MARKS = [[60.0, 4.8e9], [300.0, 24e9], [600.0, 48e9], [1800.0, 144e9]]
UNEVEN_MARKS = [[60.0, 3.6e9], [300.0, 18e9], [600.0, 36e9], [1800.0, 156e9]]


def test_each_race_of_an_hour_is_listed_with_when_each_engine_first_had_250_tiles_and_its_rates():
    hour, ours, theirs = timed_race, STEADY_MARKS, UNEVEN_MARKS
    rows = [
        hour("edgematch", 7, 251, {"249": 12.5, "250": 1234.56, "251": 3000.0}, 80_000_000, ours),
        hour("libblackwood", 7, 249, {"248": 3.0, "249": 202.04}, 72_000_000, theirs),
        # seed 8: no timelines or marks; seed 9: one engine only; a reading within a longer race
        *[{**r, "seed": 8, "depth_at": {}, "nodes_at": []} for r in depth_rows(3600, 8, 250, 250)],
        {"engine": "edgematch", "race": "depth", "horizon": 3600, "seed": 9, "deepest_tiles": 252},
        *[{**r, "within": 7200} for r in depth_rows(3600, 10, 250, 250)],
    ]
    table = score_race.hour_races(rows)
    assert (
        "| 7 | AMD | abc1234 | 251 / 249 | 1,234.6 s | never (249 after 202.0 s) | 80.0 / 72.0 | 1.111 | 600-1800 s |"
        in table
    )
    assert "| 8 | not recorded | - | 250 / 250 | - | - | - | - | - |" in table
    assert not any(line.startswith(("| 9 |", "| 10 |")) for line in table)
    assert table[-4:] == [
        "| engine | 249 tiles | 250 tiles | 251 tiles | mean |",
        "|---|---:|---:|---:|---:|",
        "| edgematch | 0 | 1 | 1 | 250.50 |",
        "| libblackwood | 1 | 1 | 0 | 249.50 |",
    ]
    # a race where edgematch is never the slower says so; none of an hour, no section
    faster = [
        rows[0],
        {**rows[1], "nodes_at": [[t, n / 2] for t, n in theirs], "nodes_per_second_per_core": 30_000_000},
    ]
    assert score_race.hour_races(faster)[4].endswith("| 2.667 | none |")
    assert score_race.hour_races(depth_rows(1800, 7, 250, 250)) == []


def test_a_races_entry_draft_gives_both_timelines_rates_stretches_its_shorter_race_and_the_pooled_row():
    rows = score_race.depth_races(
        [
            timed_race(
                "edgematch", 7, 251, {"248": 1.0, "249": 12.5, "250": 1234.56, "251": 3000.0}, 80_000_000, STEADY_MARKS
            ),
            timed_race("libblackwood", 7, 249, {"247": 0.5, "248": 3.0, "249": 202.04}, 72_000_000, UNEVEN_MARKS),
            timed_race("edgematch", 7, 250, {"249": 12.0, "250": 1200.0}, 90_000_000, [], horizon=1800),
            timed_race("libblackwood", 7, 250, {"250": 900.0}, 70_000_000, [], horizon=1800),
            *depth_rows(3600, 8, 250, 250),
        ]
    )
    entry = score_race.race_entry(rows, 7)
    assert entry.startswith(
        "2026-12-07, on AMD, seed 7 for 3600 s (code abc1234; `--depth-horizons 3600 --depth-seeds 1 --seed 7`): "
        "edgematch 251 tiles (its 249th after 12.5 s, 250th after 1,234.6 s, 251st after 3,000.0 s; best score 458), "
        "libblackwood 249 (its 247th after 0.5 s, 248th after 3.0 s, 249th after 202.0 s): deeper at 3600 s. "
        "80.0 against 72.0 million nodes per second over the race (1.111); by stretch 80.0 against 60.0 to 60 s, "
        "80.0 against 60.0 from 60 to 300 s, 80.0 against 60.0 from 300 to 600 s, 80.0 against 100.0 from 600 to "
        "1800 s, 80.0 against 57.3 after 1800 s. Its race of 1800 s (2026-12-07, code abc1234): edgematch 250 "
        "(its 249th after 12.0 s, 250th after 1,200.0 s), libblackwood 250 (its 250th after 900.0 s), 90.0 against 70.0."
    )
    assert entry.endswith(
        " Pooled at 3600 s: 2 seeds, 1, 1, 0 (p = 1.00; +1.00, -11.71 to +13.71; signed-rank p = 1.00)."
    )
    assert score_race.race_entry(rows, 9) == "seed 9: no depth race in score_race.json"
    hour_alone = [r for r in rows if r["horizon"] == 3600 and r["engine"] == "edgematch"]
    assert score_race.race_entry(hour_alone, 7) == "seed 7: only one engine ran its race of 3600 s"
    assert [score_race.ordinal(n) for n in (248, 251, 252, 253, 211, 212)] == [
        "248th",
        "251st",
        "252nd",
        "253rd",
        "211th",
        "212th",
    ]


ROOT = Path(__file__).resolve().parent.parent


def docs_prose() -> str:
    """docs/backtracking.md with its line breaks and runs of spaces read as single spaces, as
    the guards below match its sentences."""
    return " ".join((ROOT / "docs/backtracking.md").read_text().split())


def recorded_depths() -> list[dict]:
    """The depth races benchmarks/results/score_race.json records, in score_race's own order."""
    return score_race.depth_races(json.loads((ROOT / "benchmarks/results/score_race.json").read_text())["rows"])


def split_cells(pairs: list[tuple[int, int]]) -> list[str]:
    """score_race's own depth-summary cells for these pairs: seeds, deeper, as deep, shallower,
    sign p, each engine's deepest/median/mean, mean difference, its interval, signed-rank p."""
    return [cell.strip() for cell in score_race.depth_cells(pairs).split("|")[:-1]]


def test_the_pooled_depth_table_in_the_docs_is_the_one_score_race_json_gives():
    """docs/backtracking.md carries a short copy of the pooled depth rows; it must not drift
    from the races recorded in benchmarks/results/score_race.json."""
    depths = recorded_depths()
    documented = [
        line
        for line in (ROOT / "docs/backtracking.md").read_text().splitlines()
        if re.match(r"\| \d+ s \| \d+ \| \d+ \| \d+ \| \d+ \| ", line)
    ]
    expected = []
    for horizon in sorted({r["horizon"] for r in depths}):
        seeds, deeper, as_deep, shallower, p, _, _, mean, interval, signed_rank_p = split_cells(
            score_race.depth_pairs(depths, horizon)
        )
        expected.append(
            f"| {horizon} s | {seeds} | {deeper} | {as_deep} | {shallower} | {p} | {mean} ({interval}) | {signed_rank_p} |"
        )
    assert documented == expected


NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
TENS_WORDS = {
    word: 10 * tens for tens, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)
}


def number_of(word: str) -> int:
    """The docs spell counts below a hundred in words ("twenty-two"); this reads them back."""
    tens, _, unit = word.partition("-")
    if tens in TENS_WORDS:
        return TENS_WORDS[tens] + (NUMBER_WORDS.index(unit) if unit else 0)
    return NUMBER_WORDS.index(word)


def test_number_words_read_back_as_the_docs_spell_them():
    assert [number_of(w) for w in ("two", "seventeen", "twenty", "twenty-two", "thirty-eight")] == [2, 17, 20, 22, 38]


def test_the_hour_figures_in_the_docs_prose_are_the_ones_score_race_json_gives():
    """The sentences around the pooled table say how deep each engine got within an hour, how
    the hour's means stand beside the restart estimate, and give the estimate itself; score_race.md
    carries the counts, so the prose states only what holds over them, and must stay true."""
    depths = recorded_depths()
    text = docs_prose()
    hours = score_race.depth_pairs(depths, 3600)

    assert (
        "Within an hour both engines most often reached 250 tiles, and libblackwood ended short of it more often "
        "than edgematch" in text
    )
    generated = (ROOT / "benchmarks/results/score_race.md").read_text()
    assert score_race.hour_races(depths)[0].startswith("Races of an hour, race by race (")
    assert "\n".join(score_race.hour_races(depths)) in generated, "score_race.md is not the one score_race.json gives"
    for column in (0, 1):
        depths_reached = [pair[column] for pair in hours]
        assert statistics.mode(depths_reached) == 250, column
    assert sum(b < 250 for _, b in hours) > sum(a < 250 for a, _ in hours)
    deepest = [(max(pair), seed) for seed, pair in score_race_hours(depths).items()]
    assert "The 252 (seed 38, best score 462, after 3,390 s) came in the first race of an hour" in text
    assert max(deepest) == (252, 38) and [d for d, _ in deepest].count(252) == 1
    ties = sum(a == b for a, b in hours)
    assert "So about half of the hour's seeds are ties" in text and 0.4 <= ties / len(hours) <= 0.65

    estimate = {
        e["segment"]: (
            f"{e['edgematch']:.2f}",
            f"{e['libblackwood']:.2f}",
            f"{e['lead']:+.2f}",
            f"{e['low']:+.2f}",
            f"{e['high']:+.2f}",
        )
        for e in score_race.restart_estimates(depths)
        if e["horizon"] == 3600
    }
    restarts = re.search(
        r"a restart every 300 s would take edgematch to (\S+) tiles on average at an hour and libblackwood "
        r"\(whose own main.py restarts every 300 s\) to (\S+), a lead of (\S+) \(95 % bootstrap interval (\S+) to "
        r"(\S+)\); every 600 s, (\S+) against (\S+), (\S+) \((\S+) to (\S+)\)\.",
        text,
    )
    assert restarts
    assert restarts.groups()[:5] == estimate[300]
    assert restarts.groups()[5:] == estimate[600]
    assert (
        "The hour's single searches measured so far averaged within a tenth of a tile of the estimate with a "
        "restart every 300 s, each engine" in text
    )
    for column in (0, 1):
        measured = statistics.mean(pair[column] for pair in hours)
        assert abs(measured - float(estimate[300][column])) < 0.1, column


def score_race_hours(depths: list[dict]) -> dict[int, tuple[int, int]]:
    """Seed -> (edgematch's, libblackwood's) tiles at the end of its race of an hour."""
    return {
        seed: (a["deepest_tiles"], b["deepest_tiles"]) for seed, (a, b) in score_race.races_to(depths, 3600).items()
    }


#: the bounds the docs name the hour's mean lead under ("by less than a quarter of a tile")
BOUND_WORDS = {"a tenth": 0.1, "a quarter": 0.25, "half": 0.5}


def test_the_long_horizons_splits_in_the_docs_prose_are_the_ones_score_race_json_gives():
    """The prose beside the pooled table spells the half hour's split in words (seeds, deeper,
    as deep, shallower, the mean difference), and says of the hour's row which engine is ahead on
    average, under which fraction of a tile (the least that holds) and which tests tell them
    apart; these must not drift from score_race.json."""
    depths = recorded_depths()
    text = docs_prose()
    hour = re.search(
        r"at an hour \(the last row\) edgematch is (ahead|behind) on average by less than (.+?) of a tile, "
        r"and (no test tells them apart|the sign test tells them apart|the sign test does not tell them apart "
        r"\(p = (\S+)\); the signed-rank test reads p = (\S+) there, and the mean's interval (leaves out|reaches) "
        r"zero \((\S+) to (\S+)\), nominally \(the row has been read after each of its (\S+) races; the "
        r"signed-rank p first read below 0.05 after seed (\d+), the interval first left out zero after seed (\d+)\))",
        text,
    )
    half = re.search(
        r"at half an hour, with (\S+) seeds \((\S+) deeper, (\S+) as deep, (\S+) shallower: (\S+)\), "
        r"the sign test (does not either|tells the lead from chance \(p = (\S+)\))",
        text,
    )
    assert hour and half, "the hour's or the half hour's split is missing from docs/backtracking.md"
    seeds, deeper, as_deep, shallower, _, _, _, mean, *_ = split_cells(score_race.depth_pairs(depths, 1800))
    assert [number_of(w) for w in half.groups()[:4]] == [int(seeds), int(deeper), int(as_deep), int(shallower)]
    assert half.group(5) == mean
    p = score_race.sign_test(int(deeper), int(shallower))
    if half.group(6) == "does not either":
        assert p >= 0.05, "the sign test tells them apart now"
    else:
        assert p < 0.05 and half.group(7) == score_race.p_text(p)

    pairs = score_race.depth_pairs(depths, 3600)
    differences = [a - b for a, b in pairs]
    lead = statistics.mean(differences)
    assert hour.group(1) == ("ahead" if lead > 0 else "behind")
    assert hour.group(2) == min((w for w in BOUND_WORDS if BOUND_WORDS[w] > abs(lead)), key=BOUND_WORDS.get)
    told = score_race.sign_test(sum(d > 0 for d in differences), sum(d < 0 for d in differences)) < 0.05
    untold = "The hour (the pooled table's last row, which the sign test does not tell from chance) is not settled"
    if hour.group(3) == "no test tells them apart":
        assert not told and score_race.signed_rank_test(differences) >= 0.05
        assert untold in text
    elif hour.group(3) == "the sign test tells them apart":
        assert told
    else:
        cells = split_cells(pairs)
        assert not told and hour.group(4) == cells[4] and hour.group(5) == cells[-1]
        assert f"{hour.group(7)} to {hour.group(8)}" == cells[-2]
        assert (hour.group(6) == "leaves out") == (float(hour.group(7)) > 0 or float(hour.group(8)) < 0)
        assert number_of(hour.group(9)) == len(pairs)
        first_rank, first_interval = first_hour_seeds_told()
        assert (int(hour.group(10)), int(hour.group(11))) == (first_rank, first_interval)
        assert untold in text


def first_hour_seeds_told() -> tuple[int | None, int | None]:
    """The hour races in the order they were run (the order of their rows in score_race.json)
    and the seeds after which the hour's pooled signed-rank p first read below 0.05 and the
    mean's 95 % interval first left out zero, as the docs name them."""
    rows = json.loads((ROOT / "benchmarks/results/score_race.json").read_text())["rows"]
    hours = score_race.races_to(score_race.depth_races(rows), 3600)
    run_order = dict.fromkeys(r["seed"] for r in rows if r.get("race") == "depth" and r["horizon"] == 3600)
    first_rank = first_interval = None
    so_far: list[int] = []
    for seed in (s for s in run_order if s in hours):
        ours, theirs = hours[seed]
        so_far.append(ours["deepest_tiles"] - theirs["deepest_tiles"])
        if first_rank is None and any(so_far) and score_race.signed_rank_test(so_far) < 0.05:
            first_rank = seed
        interval = score_race.mean_difference_interval(so_far)
        if first_interval is None and interval and (interval[0] > 0 or interval[1] < 0):
            first_interval = seed
    return first_rank, first_interval


def test_the_half_hour_batchs_verdict_in_the_docs_is_the_one_its_table_row_gives():
    """docs/backtracking.md states the half-hour batch's verdict in words; it must be the row
    score_race's table of planned batches gives for it, and the verdict the rule it was read by."""
    text = docs_prose()
    read = re.search(
        r"edgematch deeper in (\S+) seeds, as deep in (\S+), shallower in (\S+), sign test p = (\S+), "
        r"mean (\S+) tiles \(95 % interval (\S+) to (\S+)\)\. \*\*At half an hour the target (holds|does not hold)\*\*",
        text,
    )
    assert read, "the half-hour batch's verdict is missing from docs/backtracking.md"
    row = next(line for line in score_race.planned_batches(recorded_depths()) if line.startswith("| 2026-12-05 |"))
    _, _, seeds, horizon, in_, _, deeper, as_deep, shallower, p, mean = [c.strip() for c in row.split("|")[:-1]]
    assert (seeds, horizon, in_) == ("54 to 83", "1800 s", "30 of 30")
    assert [number_of(w) for w in read.groups()[:3]] == [int(deeper), int(as_deep), int(shallower)]
    assert f"{read.group(5)} ({read.group(6)} to {read.group(7)})" == mean and read.group(4) == p
    holds = int(deeper) > int(shallower) and score_race.sign_test(int(deeper), int(shallower)) < 0.05
    assert read.group(8) == ("holds" if holds else "does not hold")


def machine_rows(depths: list[dict], prefix: str) -> list[dict]:
    """The rows of the one machine whose name starts with ``prefix``."""
    names = {score_race.machine_of(r) for r in depths if score_race.machine_of(r).startswith(prefix)}
    assert len(names) == 1, names
    return [r for r in depths if score_race.machine_of(r) in names]


def test_the_machine_split_in_the_docs_prose_is_the_one_score_race_json_gives():
    """docs/backtracking.md says in words how the 60 s, 300 s and 600 s rows split by machine
    (and each engine's mean depth at 300 s on each); those figures are typed after every race
    and must not drift from score_race.json."""
    depths = recorded_depths()
    text = docs_prose()

    def split(rows: list[dict], horizon: int) -> tuple[str, ...]:
        """seeds, deeper, as deep, shallower, sign p, mean difference; then each engine's mean depth."""
        seeds, deeper, as_deep, shallower, p, ours, theirs, mean, *_ = split_cells(
            score_race.depth_pairs(rows, horizon)
        )
        return seeds, deeper, as_deep, shallower, p, mean, ours.split(", ")[2], theirs.split(", ")[2]

    amd, xeon = machine_rows(depths, "AMD EPYC"), machine_rows(depths, "Intel(R) Xeon(R)")
    at_300 = re.search(
        r"on the AMD EPYC, (\d+) seeds, edgematch was deeper (\d+) times, as deep (\d+), shallower (\d+) "
        r"\(p = (\S+), (\S+) tiles\), on the Intel Xeon, (\d+) seeds, (\d+), (\d+) and (\d+) \(p = (\S+), (\S+)\)\.",
        text,
    )
    assert at_300, "the 300 s machine split is missing from docs/backtracking.md"
    assert at_300.groups() == split(amd, 300)[:6] + split(xeon, 300)[:6]
    at_600 = re.search(r"the Xeon's (\d+) seeds give p = (\S+), the AMD's (\d+) p = (\S+)\.", text)
    assert at_600
    xeon_600, amd_600 = split(xeon, 600), split(amd, 600)
    assert at_600.groups() == (xeon_600[0], xeon_600[4], amd_600[0], amd_600[4])
    at_60 = re.search(r"At 60 s both machines tell the lead \(p = (\S+) and (\S+)\)", text)
    assert at_60
    assert at_60.groups() == (split(amd, 60)[4], split(xeon, 60)[4])
    depths_300 = re.search(
        r"libblackwood's own depths were lower on the Xeon \(mean (\S+) tiles at 300 s, (\S+) on the AMD\), "
        r"ours about the same \((\S+) and (\S+)\)\.",
        text,
    )
    assert depths_300
    (ours_xeon, theirs_xeon), (ours_amd, theirs_amd) = split(xeon, 300)[6:], split(amd, 300)[6:]
    assert depths_300.groups() == (theirs_xeon, theirs_amd, ours_xeon, ours_amd)


def seeds_named(listed: str) -> list[int]:
    """The seeds a docs list names ("41, 52, 53 and 59", "6 to 10 and 12"), in order."""
    seeds: list[int] = []
    for part in re.split(r", | and ", listed.strip()):
        first, _, last = part.partition(" to ")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def rounds_to(seconds: float, documented: str) -> bool:
    """Whether ``seconds`` rounds to the figure the docs typed ("2,270", "15.5")."""
    figure = documented.replace(",", "")
    decimals = len(figure.partition(".")[2])
    return f"{seconds:.{decimals}f}" == figure


def test_seeds_and_seconds_read_back_as_the_docs_type_them():
    assert seeds_named("6 to 10, 12, 13, 16 and 18 to 27") == [6, 7, 8, 9, 10, 12, 13, 16, *range(18, 28)]
    assert seeds_named("59") == [59] and seeds_named("41, 52, 53 and 59") == [41, 52, 53, 59]
    assert rounds_to(2270.34, "2,270") and rounds_to(15.54, "15.5") and not rounds_to(15.54, "15")


def first_250(row: dict) -> float | None:
    """When one engine's race of an hour first had 250 tiles or more on the board."""
    return min((at for depth, at in row["depth_at"].items() if int(depth) >= 250), default=None)


def test_when_the_hours_first_reached_250_tiles_in_the_docs_is_what_score_race_json_gives():
    """What the docs say of when each engine first had 250 tiles on the board in the hours that
    noted it (which hours those are, the fastest, the spread to the last minutes, and the races
    that never did: stuck at 249, at their usual rate but in the races the docs name,
    libblackwood's the more) must stay true of benchmarks/results/score_race.json, which
    score_race.md lists race by race."""
    races = score_race.races_to(recorded_depths(), 3600)
    text = docs_prose()
    found = re.search(
        r"in the hours that noted when each depth came \(every hour from seed (\d+) on\): from the first second "
        r"\(seed (\d+): edgematch went from (\d+) at (\S+) s to (\d+) at (\S+) s\) to the last minutes of the hour, "
        r"and in some races never: each of those engines stopped at (\d+) and searched the rest of the hour no "
        r"deeper, at its usual rate \(within a fifth of its median over these hours, but libblackwood in seeds? "
        r"([\d, and to]+), on a day the machine ran slow: [^)]*\), libblackwood in more races than edgematch\.",
        text,
    )
    assert found, "the sentence on when each engine first reached 250 tiles is missing from docs/backtracking.md"
    first_noted, seed, before, before_at, reached, reached_at, stuck_at, slow_listed = found.groups()
    noted = {s: race for s, race in races.items() if all(r.get("depth_at") for r in race)}
    assert sorted(noted) == [s for s in sorted(races) if s >= int(first_noted)]
    times = {engine: {s: first_250(race[engine]) for s, race in noted.items()} for engine in (0, 1)}
    reached_times = [t for column in times.values() for t in column.values() if t is not None]
    steps = {int(d): at for d, at in noted[int(seed)][0]["depth_at"].items()}
    assert times[0][int(seed)] == min(reached_times) < 1 and steps[int(reached)] == min(reached_times)
    assert rounds_to(steps[int(reached)], reached_at) and int(reached) >= 250
    assert max(d for d in steps if d < int(reached)) == int(before) and rounds_to(steps[int(before)], before_at)
    assert max(reached_times) > 3600 - 5 * 60, "no engine reached 250 tiles in the last minutes of an hour"
    never = {engine: [s for s, t in column.items() if t is None] for engine, column in times.items()}
    assert 0 < len(never[0]) < len(never[1])
    for engine, seeds in never.items():
        same_engine = [race[engine]["nodes_per_second_per_core"] for race in noted.values()]
        slow = []
        for s in seeds:
            row = noted[s][engine]
            assert row["deepest_tiles"] == int(stuck_at), (engine, s)
            if row["nodes_per_second_per_core"] < 0.8 * statistics.median(same_engine):
                slow.append(s)
        assert sorted(slow) == ([] if engine == 0 else sorted(seeds_named(slow_listed))), (engine, slow)


def amd_hours(depths: list[dict]) -> dict[int, tuple[dict, dict]]:
    """Seed -> (edgematch's, libblackwood's) row of each race of an hour run on the AMD EPYC."""
    return score_race.races_to(machine_rows(depths, "AMD EPYC"), 3600)


def rate_ratio(race: tuple[dict, dict]) -> float:
    """edgematch's rate over libblackwood's in one race (an ``amd_hours`` value)."""
    ours, theirs = race
    return ours["nodes_per_second_per_core"] / theirs["nodes_per_second_per_core"]


#: the first seed raced for an hour with the union lists (code 7cbbf31)
FIRST_UNION_LIST_SEED = 38


def test_the_depth_races_rates_in_the_docs_prose_are_the_ones_score_race_json_gives():
    """The speed paragraph counts, per machine and length of race, how often edgematch was the
    faster in the depth races and the median ratio (the AMD's hours: only that it was the
    faster in most), and gives the range of the AMD's hours before the union lists and that
    every one with them was faster; these must not drift from benchmarks/results/score_race.json."""
    depths = recorded_depths()
    text = docs_prose()
    rates: dict[tuple[str, int], list[str]] = {}
    for line in score_race.race_rates(depths):
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        if len(cells) == 8 and cells[1].endswith(" s") and cells[1][:-2].isdigit():
            # machine, race, pairs, edgematch faster, sign test p, median ratio, ...
            rates[(cells[0].split(",")[0], int(cells[1][:-2]))] = cells[2:6]
    assert rates, "race_rates gave no rows"

    def faster(machine: str, horizon: int) -> tuple[str, str, str]:
        """How many races edgematch was the faster in, of how many, and the median ratio."""
        pairs, faster_in, _, ratio = rates[(machine, horizon)]
        return faster_in, pairs, ratio

    amd = re.search(
        r"on the AMD EPYC edgematch was faster in (\d+) of (\d+) races of 60 s \(median ratio (\S+)\), "
        r"(\d+) of (\d+) of 300 s \((\S+)\), (\d+) of (\d+) of 600 s \((\S+)\), and in most of its races "
        r"of an hour \(score_race.md counts them; of those from seed (\d+) on, since 2026-12-04, the (\S+) before "
        r"the union lists ran at (\S+) to (\S+) of libblackwood's rate and (?:every one with them was faster|all "
        r"with them but seeds? ([\d, and]+) \(([\d., and]+)\) were faster):",
        text,
    )
    assert amd, "the AMD's depth-race rates are missing from docs/backtracking.md"
    typed = amd.groups()
    assert typed[:9] == tuple(x for h in (60, 300, 600) for x in faster("AMD EPYC", h))
    faster_in, pairs, _ = faster("AMD EPYC", 3600)
    assert 2 * int(faster_in) > int(pairs)
    hours = amd_hours(depths)
    listed = [seed for seed in sorted(hours) if seed >= int(typed[9])]
    assert all(hours[s][0]["date"] >= "2026-12-04" for s in listed)
    before = [rate_ratio(hours[s]) for s in listed if s < FIRST_UNION_LIST_SEED]
    assert number_of(typed[10]) == len(before)
    assert (float(typed[11]), float(typed[12])) == (round(min(before), 2), round(max(before), 2))
    slower = [s for s in listed if s >= FIRST_UNION_LIST_SEED and rate_ratio(hours[s]) <= 1]
    assert slower == (seeds_named(typed[13]) if typed[13] else [])
    assert [f"{rate_ratio(hours[s]):.3f}" for s in slower] == (re.split(r", | and ", typed[14]) if typed[14] else [])

    xeon = re.search(r"Intel Xeon it was ahead at every length \((\d+) of its (\d+) hours, (\S+)\)", text)
    assert xeon
    assert xeon.groups() == faster("Intel(R) Xeon(R) Processor", 3600)
    assert all(
        2 * int(faster(machine, horizon)[0]) > int(faster(machine, horizon)[1])
        for machine, horizon in rates
        if machine.startswith("Intel")
    )


def test_the_hours_stretches_in_the_docs_prose_are_the_ones_score_race_json_gives():
    """The summary of the AMD's hours with the kernel of 36a6021 (seeds 40 on): the seeds named
    as slower over the hour, those named as not ahead over every stretch, and what three of
    them were behind in; it must stay true as races come in (score_race.md lists each race's
    stretches)."""
    hours = amd_hours(recorded_depths())
    text = docs_prose()
    found = re.search(
        r"Of those after it \(seeds (\d+) on, the kernel of \w+[^)]*\), (?:every one was|all but seeds? ([\d, and]+) "
        r"were) faster over the hour, and all but seeds ([\d, and]+?) over every stretch \([^)]*\)\. "
        r"Seed (\d+) was ahead over its first half hour only \((\S+) against (\S+) over "
        r"the second; (\S+) over the hour\), seed (\d+) over every stretch but the one from (\d+) to (\d+) s "
        r"\((\S+) against (\S+); (\S+) over the hour\) and seed (\d+) over its first ten minutes only \((\S+) "
        r"against (\S+) from 600 to 1800 s and (\S+) against (\S+) after; (\S+) over the hour[^)]*\)\.",
        text,
    )
    assert found, "the summary of the hours' stretches is missing from docs/backtracking.md"
    first, slower_seeds, exceptions, other, ours_late, theirs_late, other_ratio, *rest = found.groups()
    one, start, end, ours_one, theirs_one, one_ratio, early, *rest = rest
    ours_mid, theirs_mid, ours_end, theirs_end, early_ratio = rest
    seeds = [seed for seed in sorted(hours) if seed >= int(first)]
    stretches = {seed: tuple(score_race.stretch_rates(row) for row in hours[seed]) for seed in seeds}

    def ratio(seed: int) -> float:
        return round(rate_ratio(hours[seed]), 2)

    always = [s for s in seeds if all(stretches[s][0][k] > stretches[s][1][k] for k in stretches[s][0])]
    assert [s for s in seeds if s not in always] == seeds_named(exceptions)
    assert {int(other), int(one), int(early)} <= set(seeds_named(exceptions))
    assert [s for s in seeds if rate_ratio(hours[s]) <= 1] == (seeds_named(slower_seeds) if slower_seeds else [])
    ours, theirs = stretches[int(other)]
    assert [k for k in ours if ours[k] > theirs[k]] == [k for k in ours if k[1] <= 1800]
    assert (ours_late, theirs_late) == (f"{ours[(1800, 3600)] / 1e6:.1f}", f"{theirs[(1800, 3600)] / 1e6:.1f}")
    assert float(other_ratio) == ratio(int(other))
    ours, theirs = stretches[int(one)]
    stretch = (int(start), int(end))
    assert [k for k in ours if ours[k] <= theirs[k]] == [stretch]
    assert (ours_one, theirs_one) == (f"{ours[stretch] / 1e6:.1f}", f"{theirs[stretch] / 1e6:.1f}")
    assert float(one_ratio) == ratio(int(one))
    ours, theirs = stretches[int(early)]
    assert [k for k in ours if ours[k] > theirs[k]] == [k for k in ours if k[1] <= 600]
    typed = (ours_mid, theirs_mid, ours_end, theirs_end)
    assert typed == tuple(f"{rates[k] / 1e6:.1f}" for k in ((600, 1800), (1800, 3600)) for rates in (ours, theirs))
    assert float(early_ratio) == ratio(int(early))


def test_the_half_hours_running_reading_in_the_docs_is_the_one_score_race_json_gives():
    """When the half hour's pooled interval and signed-rank test left out zero, seed by seed from
    seed 36 (pooled over the seeds up to it), and the latest reading with its sign test."""
    depths = recorded_depths()
    text = docs_prose()
    found = re.search(
        r"At half an hour the mean's interval and the signed-rank test left out zero after seeds (\d+) and (\d+), "
        r"not after (\d+) and (\d+), and again from seed (\d+) on \(after seed (\d+), (\S+ to \S+) and p = (\S+)\); "
        r"the sign test, the criterion, reads p = (\S+) there \((\S+) to three decimals\)\.",
        text,
    )
    assert found, "the half hour's running reading is missing from docs/backtracking.md"
    left_out, not_left_out, since, latest = found.groups()[:2], found.groups()[2:4], found.group(5), found.group(6)
    grouped = score_race.depths_by_seed(depths, (1800,))
    differences, clear = [], {}
    for seed in sorted(grouped):
        tiles = score_race.tiles_by_horizon(grouped[seed])[1800]
        if len(tiles) == 2:
            differences.append(tiles["edgematch"] - tiles["libblackwood"])
            if seed >= 36:
                interval = score_race.mean_difference_interval(differences)
                signed_rank = score_race.signed_rank_test(differences)
                assert (interval[0] > 0) == (signed_rank < 0.05), seed
                clear[seed] = interval[0] > 0
    assert int(latest) == max(clear)
    assert [s for s in clear if clear[s]] == [int(s) for s in left_out] + list(range(int(since), int(latest) + 1))
    assert all(not clear[int(s)] for s in not_left_out) and min(clear) < int(left_out[0])
    half = split_cells(score_race.depth_pairs(depths, 1800))
    three_decimals = f"{score_race.sign_test(int(half[1]), int(half[3])):.3f}"
    assert found.groups()[6:] == (half[8], half[9], half[4], three_decimals)


def test_a_fresh_libblackwood_checkout_gets_our_driver_and_scenarios_once(tmp_path, capsys):
    """A fresh clone of libblackwood knows no scenario that counts its nodes (the race then
    dies a minute in): ensure_peer_files copies ours in, and again only when ours changed."""
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "jb470.py").write_text("# upstream's scenario\n")
    score_race.ensure_peer_files(tmp_path)
    peers = ROOT / "benchmarks" / "peers"
    for where, name in score_race.PEER_FILES.items():
        assert (tmp_path / where).read_bytes() == (peers / name).read_bytes(), where
    assert capsys.readouterr().err.count("copied") == 3
    score_race.ensure_peer_files(tmp_path)
    assert capsys.readouterr().err == ""
    (tmp_path / "scenarios" / "jb470perf.py").write_text("# an older copy\n")
    score_race.ensure_peer_files(tmp_path)
    assert capsys.readouterr().err.count("copied") == 1
    assert (tmp_path / "scenarios" / "jb470perf.py").read_bytes() == (peers / "jb470perf.py").read_bytes()


def test_a_folder_that_is_not_libblackwood_is_refused_in_one_line_before_any_race(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        score_race.main(["--no-race", "--no-rates", "--depth-horizons", "60", "--libblackwood", str(tmp_path)])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "not a libblackwood checkout" in err and str(tmp_path) in err
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "jb470.py").write_text("")
    assert score_race.libblackwood_problem(tmp_path) is None


def test_each_engine_alone_is_read_against_its_rate_in_the_race_of_the_same_seed_and_machine():
    def run(engine, race, horizon, rates, seed=35, machine="AMD", code="c1"):
        """A run whose rate is ``rates[k]`` million nodes a second over the k-th stretch."""
        bounds = [b for b in score_race.STRETCH_BOUNDS if b < horizon] + [horizon]
        marks, nodes = [], 0
        for (lo, hi), rate in zip(zip(bounds, bounds[1:]), rates, strict=True):
            nodes += (hi - lo) * rate * 1_000_000
            marks.append([float(hi), nodes])
        return {
            "engine": engine,
            "puzzle": "e2",
            "race": race,
            "horizon": horizon,
            "jobs": 1,
            "seed": seed,
            "machine": machine,
            "code": code,
            "seconds": float(horizon),
            "nodes_per_second_per_core": nodes // horizon,
            "nodes_at": marks[:-1],
        }

    rows = [
        run("edgematch", "depth", 3600, [80, 80, 60, 60, 60]),
        run("libblackwood", "depth", 3600, [60, 60, 90, 90, 90]),
        run("edgematch", "alone", 600, [100, 100, 100], code="c2"),
        run("libblackwood", "alone", 600, [50, 50, 100]),
        # one engine alone is no pair; a run alone on another machine has no race beside it
        run("edgematch", "alone", 600, [100, 100, 100], seed=36),
        run("edgematch", "alone", 300, [70, 70], seed=1, machine="Xeon"),
        run("libblackwood", "alone", 300, [35, 70], seed=1, machine="Xeon"),
    ]
    table = score_race.alone_and_beside(rows)
    text = "\n".join(table)
    assert "| AMD | 35 | c2 / c1 | 0-60 s | 100.0 | 80.0 | 50.0 | 60.0 | 2.00 | 1.33 |" in text
    assert "| AMD | 35 | c2 / c1 | 60-300 s | 100.0 | 80.0 | 50.0 | 60.0 | 2.00 | 1.33 |" in text
    assert "| AMD | 35 | c2 / c1 | 300-600 s | 100.0 | 60.0 | 100.0 | 90.0 | 1.00 | 0.67 |" in text
    assert "| AMD | 35 | c2 / c1 | all 600 s alone | 100.0 | | 75.0 | | 1.33 | |" in text
    assert "| Xeon | 1 | c1 / - | 0-60 s | 70.0 | - | 35.0 | - | 2.00 | - |" in text
    assert "| Xeon | 1 | c1 / - | all 300 s alone | 70.0 | | 63.0 | | 1.11 | |" in text
    assert not any("| 36 |" in line for line in table)
    # the race of the same length is read where there is one
    short = [run("edgematch", "depth", 600, [90, 90, 90]), run("libblackwood", "depth", 600, [45, 45, 45])]
    assert "| AMD | 35 | c2 / c1 | 0-60 s | 100.0 | 90.0 | 50.0 | 45.0 | 2.00 | 2.00 |" in "\n".join(
        score_race.alone_and_beside(rows + short)
    )
    # a run alone is told apart by its seed and never replaces the race
    assert score_race.key(rows[2]) != score_race.key(rows[0])
    assert score_race.key(rows[2]) != score_race.key(rows[4])
    assert score_race.alone_and_beside(rows[:2]) == []


def test_a_planned_batch_shows_only_how_many_are_in_until_all_its_seeds_are(monkeypatch):
    """A planned batch is read once: part-way its table row shows how many seeds are in and
    nothing else; rows dated before the plan do not count; an hour's 1800 s reading does."""
    monkeypatch.setattr(score_race, "PLANNED_BATCHES", (("2026-12-05", range(4, 7), 1800),))

    def dated(rows, date, machine="AMD"):
        return [{**r, "date": date, "machine": machine} for r in rows]

    hour = dated(depth_rows(3600, 5, 251, 250), "2026-12-06")
    hour[0]["depth_at"], hour[1]["depth_at"] = {"249": 10.0, "251": 1700.0}, {"249": 30.0, "250": 1900.0}
    rows = [
        *dated(depth_rows(1800, 4, 250, 250), "2026-12-05"),
        *[cut for row in hour for cut in score_race.checkpoints(row)],
        *dated(depth_rows(1800, 6, 249, 250), "2026-12-04"),  # raced before the plan
        *dated(depth_rows(1800, 7, 252, 249), "2026-12-05"),  # not one of the batch's seeds
    ]
    table = score_race.planned_batches(score_race.depth_races(rows))
    assert table[-1] == "| 2026-12-05 | 4 to 6 | 1800 s | 2 of 3 | AMD | - | - | - | - | - |"
    rows += dated(depth_rows(1800, 6, 249, 250), "2026-12-07", machine="Xeon")
    table = score_race.planned_batches(score_race.depth_races(rows))
    # seed 4 as deep, seed 5 two tiles deeper (251 against 249 at 1800 s), seed 6 one shallower:
    # mean +1/3, Student's t with two degrees of freedom (4.303) times 1.528 / sqrt(3)
    assert (
        table[-1] == "| 2026-12-05 | 4 to 6 | 1800 s | 3 of 3 | AMD; Xeon | 1 | 1 | 1 | 1.00 | +0.33 (-3.46 to +4.13) |"
    )


def test_the_planned_batches_in_the_docs_prose_are_the_ones_score_race_json_gives():
    """The pooled table's preamble quotes the batches planned before they began; each split it
    gives must be that batch's row in score_race.md's table of planned batches."""
    text = docs_prose()
    quoted = re.findall(
        r"seeds (\d+) to (\d+) at (\d+) s on (?:an? |the )[^,]+, deeper (\d+) times, as deep (\d+), shallower (\d+)",
        text,
    )
    assert len(quoted) == 3, quoted
    rows = {
        cells[1]: cells[2:]
        for line in score_race.planned_batches(recorded_depths())
        if (cells := [c.strip() for c in line.split("|")[1:-1]]) and cells[0].startswith("2026-")
    }
    for first, last, horizon, deeper, as_deep, shallower in quoted:
        row = rows[f"{first} to {last}"]
        assert row[0] == f"{horizon} s" and row[1] == f"{int(last) - int(first) + 1} of {int(last) - int(first) + 1}"
        assert row[3:6] == [deeper, as_deep, shallower]
