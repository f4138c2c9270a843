"""Time to score on Eternity II: edgematch's search beside the peers, same horizon, same cores.

For each puzzle (``e2``, ``e2-clues``) and horizon (seconds), runs ``edgematch search`` with
the options of :data:`SEARCH` on ``--jobs`` workers (a seeded portfolio), keeps every
complete board at or above :data:`LOGGED` (the Verhaard-style log: boards per score, per
hour), re-scores the best board from the file it wrote, and copies that file to
``results/score_race_boards/``.  Then, one core each, the nodes per second on ``e2`` (the same
search) and on ``e2dev/bench-hard`` (the exact search, as eternity2.dev's engine does it).

Peers, where their folders are given (see benchmarks/peers/README.md for the builds):
``--libblackwood DIR`` runs libblackwood's JB470 (``bw_run.py``, one process per core, seeds
``seed``, ``seed + 1``, ...) on ``e2`` at the same horizons: its nodes per second, its deepest
depth (libblackwood tracks depths above 245 only) and its board's score (it keeps boards
from depth 252 on).  ``--eternity2 DIR`` runs eternity2.dev's generated engine
(``run_dfs_codegen_jit --chain2``) on its hard board for the rate.  ``--depth-horizons``
runs the two side by side, one core each, with Blackwood's method (JB470's rule: at most 10
invalid joins, no endgame): the deepest board each reaches.

Prints each row as it is measured and writes ``results/score_race.md`` and ``.json``
(``--merge`` keeps the rows of earlier runs that this one did not measure again;
``--rewrite`` measures nothing and writes the tables again from the ``.json``; ``--entry SEED``
prints a draft of libblackwood_races.md's entry for that seed's longest depth race).

    python benchmarks/score_race.py [--puzzles e2,e2-clues] [--horizons 60,600,3600] [--jobs 2]
        [--seed 1] [--rate-seconds 60] [--libblackwood DIR] [--eternity2 DIR] [--no-rates] [--merge]
        [--depth-horizons 60,600 [--alone]] [--peers-only] [--rate-pairs K] [--rewrite] [--entry SEED]

``--rate-pairs K`` measures the rates side by side: edgematch and each peer given at the
same time, one core each, K rounds with the cores swapped each round.  ``--alone`` runs the
depth race's two searches one after the other instead, each engine alone on its race core,
to read the races' rates against.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scipy.stats import binomtest, ttest_1samp, wilcoxon

if not __package__:  # run as `python benchmarks/score_race.py`: import the siblings as `benchmarks.*`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.machine_info import code_version, load_average, machine
from edgematch.loading import load, load_board

RESULTS = Path(__file__).resolve().parent / "results"
BOARDS = RESULTS / "score_race_boards"

#: options of the search raced beyond seed, workers, horizon and save threshold: none, the
#: default recipe of `edgematch search` (on e2 Blackwood's method with the endgame over the
#: last 12 squares; on e2-clues the Julia package's path and schedule with 16), see
#: docs/backtracking.md "The default search"
SEARCH: list[str] = []
#: the depth race: Blackwood's method as libblackwood's JB470 runs it (his order, break
#: indexes, colour-pattern bound, sorted lists and the squares where he allows no invalid
#: join: at most 10 invalid joins), no endgame, so that tiles placed mean the same for both
DEPTH_SEARCH = ["--order", "blackwood", "--schedule", "blackwood", "--priority-colours", "20,5,7"]
DEPTH_SEARCH += ["--priority-schedule", "blackwood", "--priority-first", "--exact-squares", "B16,C16,D16,E16"]
DEPTH_SEARCH += ["--endgame", "0", "--polish", "0"]
#: the horizons a longer depth race also reports, from when each engine first reached each
#: depth (so that one race of an hour gives a depth at a minute and at ten minutes too;
#: 300 s is the horizon of the issue's first comparison)
DEPTH_CHECKPOINTS = (60, 300, 600, 1800, 3600)
#: complete boards at or above this score are logged (and counted per score)
LOGGED = 463
#: the scores whose boards-per-hour rates the table shows
RATED = (463, 464, 465)
#: the interpreter that runs libblackwood's driver (it needs ``requests``; set by --peer-python)
PEER_PYTHON = "python3"
EDGEMATCH = [sys.executable, "-c", "import sys; from edgematch.cli.main import main; sys.exit(main(sys.argv[1:]))"]


def edgematch(args: list[str], core: int | None = None) -> dict:
    """Runs the command (pinned to ``core`` when given) and returns its JSON output."""
    done = subprocess.run((pinned(core) if core is not None else []) + EDGEMATCH + args, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"edgematch {' '.join(args)} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def warm(args: list[str]) -> None:
    """Compiles the generated kernel of this command (minutes, once per configuration;
    cached on disk), so that the timed run takes it (``--kernel auto``) and pays no compile."""
    edgematch(args + ["--kernel", "generated", "--node-limit", "100000", "--json", "--quiet"])


def race_edgematch(puzzle_name: str, horizon: int, jobs: int, seed: int) -> dict:
    """One race: the best board within ``horizon`` seconds on ``jobs`` workers."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "best.txt"
        args = ["search", puzzle_name, *SEARCH, "--seed", str(seed), "--jobs", str(jobs)]
        args += ["--time-limit", str(horizon), "--save-boards", str(LOGGED), "--out", str(out), "--json", "--quiet"]
        if jobs > 1:
            args += ["--db", str(Path(scratch) / "runs.sqlite")]
        started = time.perf_counter()
        data = edgematch(args, core=0 if jobs == 1 else None)
        wall = time.perf_counter() - started
        puzzle = load(puzzle_name)
        board = load_board(puzzle, out)
        score = board.score()
        if score != data["written_score"]:
            raise RuntimeError(f"the written board scores {score}, the search said {data['written_score']}")
        BOARDS.mkdir(parents=True, exist_ok=True)
        kept = BOARDS / f"{puzzle_name.replace('/', '_')}_{horizon}s_{jobs}jobs_seed{seed}.txt"
        shutil.copyfile(out, kept)
    stats = data["statistics"]
    seconds = float(data["seconds"])
    by_score = {int(s): n for s, n in (stats.get("boards_by_score") or {}).items() if int(s) >= LOGGED}
    npd = data.get("nodes_per_depth") or []
    deepest = max((d for d, n in enumerate(npd) if n), default=-1) + 1 + len(puzzle.hints)
    return {
        "engine": "edgematch",
        "puzzle": puzzle_name,
        "horizon": horizon,
        "jobs": jobs,
        "seed": seed,
        "command": "edgematch " + " ".join(args[: args.index("--out")] + ["--out", kept.name]),
        "best_score": score,
        "deepest_tiles": deepest,
        "nodes_per_second_per_core": round(data["nodes"] / seconds / jobs) if seconds else None,
        "kernel": stats.get("kernel", "lists"),
        # the restart that found the best board: its seed and board turn search it again alone
        "found_by": {k: stats[k] for k in ("best_restart", "best_seed", "best_turn") if k in stats},
        "boards_by_score": {str(s): by_score[s] for s in sorted(by_score)},
        "per_hour": {str(s): round(by_score.get(s, 0) * 3600 / seconds, 1) for s in RATED},
        "seconds": round(seconds, 1),
        "wall_seconds": round(wall, 1),
        "board_file": f"score_race_boards/{kept.name}",
        "load_average": load_average(),
    }


def peer_python_problem(python: str) -> str | None:
    """Why ``python`` cannot run libblackwood's driver (it imports ``requests``), or None.
    Inside edgematch's virtual environment ``python3`` is the environment's own, without it."""
    try:
        found = subprocess.run([python, "-c", "import requests"], capture_output=True).returncode == 0
    except OSError as error:
        return f"--peer-python {python} cannot be run ({error.strerror})"
    if not found:
        return f"--peer-python {python} cannot import requests, which libblackwood needs: name an interpreter that can"
    return None


def race_libblackwood(folder: Path, horizon: int, jobs: int, seed: int, first_core: int = 0) -> dict:
    """libblackwood's JB470 on e2 for ``horizon`` seconds: one process per core, seeds
    ``seed``, ``seed + 1``, ...; the best of their depths and scores."""
    env = dict(os.environ, SCENARIO="jb470perf", PUZZLE="E2ncud", BW_SECONDS=str(horizon), HOSTNAME="bench")
    env.update(NOLCA="1", NICE="0", QUIET="1")
    if horizon > 300:  # the scenario's own limit is 5 minutes; its parameter is in minutes
        env["PARAMS"] = f"{{'timelimit': {math.ceil(horizon / 60 + 1)}}}"
    ensure_peer_files(folder)
    # the build folder depends on the parameters: build it once before the processes start,
    # or each would try to create it
    built = subprocess.run([PEER_PYTHON, "bw_run.py"], cwd=folder, env=dict(env, SEED=str(seed), BUILD_ONLY="1"))
    if built.returncode:
        raise RuntimeError(f"libblackwood's build failed ({built.returncode})")
    procs = []
    for k in range(jobs):
        procs.append(
            subprocess.Popen(
                pinned((first_core + k) % (os.cpu_count() or 1)) + [PEER_PYTHON, "bw_run.py"],
                cwd=folder,
                env=dict(env, SEED=str(seed + k)),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    results = []
    for proc in procs:
        text, _ = proc.communicate()
        line = next((x for x in text.splitlines() if x.startswith("RESULT engine=libblackwood")), None)
        if line is None:
            raise RuntimeError(f"libblackwood printed no RESULT line:\n{text[-2000:]}")
        results.append(dict(re.findall(r"(\w+)=(\S+)", line)))
    nodes = sum(int(r["nodes"]) for r in results)
    seconds = max(float(r["elapsed_s"]) for r in results)
    # when each depth was first seen, the earliest of the processes (drivers before 2026-11-28
    # did not print it)
    depth_at: dict[int, float] = {}
    for r in results:
        for item in r.get("depth_at", "none").split(","):
            if ":" in item:
                depth, at = item.split(":")
                depth_at[int(depth)] = min(float(at), depth_at.get(int(depth), math.inf))
    # the nodes placed by each node mark (one process: the processes' marks fall at other times)
    nodes_at = [[float(t), int(n)] for t, n in re.findall(r"([\d.]+):(\d+)", results[0].get("nodes_at", ""))]
    scores = [int(r["best_score"]) for r in results if r["best_score"].isdigit()]
    depths = [int(r["best_depth_tracked"]) for r in results]
    return {
        "engine": "libblackwood",
        "puzzle": "e2",
        "horizon": horizon,
        "jobs": jobs,
        "seed": seed,
        "command": f"SCENARIO=jb470perf PUZZLE=E2ncud SEED={seed}.. BW_SECONDS={horizon} python3 bw_run.py "
        f"(x{jobs}, one per core)",
        "best_score": max(scores) if scores else None,
        # libblackwood's best_depth_seen is set on entering depth d, when depths 0 .. d - 1
        # hold a tile (the starter is its depth 119): d tiles on the board
        "deepest_tiles": max(depths) if max(depths) > 0 else None,
        "best_depth_tracked": max(depths),
        "depth_at": {str(d): round(depth_at[d], 2) for d in sorted(depth_at)},
        **({"nodes_at": nodes_at} if nodes_at and jobs == 1 else {}),
        "nodes_per_second_per_core": round(nodes / seconds / jobs) if seconds else None,
        "seconds": round(seconds, 1),
        "load_average": load_average(),
    }


def machine_of(row: dict) -> str:
    """The machine a row ran on (rows from before 2026-11-26 did not record it)."""
    return row.get("machine", "not recorded")


def machines_text(rows: list[dict]) -> str:
    """How many rows each machine ran, so that a reader of pooled tables sees the mix."""
    counts = Counter(machine_of(r) for r in rows)
    return "; ".join(f"{name}: {n}" for name, n in counts.most_common())


#: our files a libblackwood checkout needs, by where they go in it (benchmarks/peers/README.md,
#: 1.3): the single-thread driver and the JB470 scenarios with its node counters switched on
PEER_FILES = {
    "bw_run.py": "bw_run.py",
    "scenarios/jb470perf.py": "jb470perf.py",
    "scenarios/jb470stats.py": "jb470stats.py",
}


def libblackwood_problem(folder: Path) -> str | None:
    """Why ``folder`` is not a libblackwood checkout the races can use, or None."""
    if not (folder / "scenarios" / "jb470.py").is_file():
        return f"--libblackwood {folder}: not a libblackwood checkout (no scenarios/jb470.py there)"
    return None


def ensure_peer_files(folder: Path) -> None:
    """Puts this repository's libblackwood driver and scenarios (benchmarks/peers/, ours, not
    libblackwood's) into ``folder`` where they are missing or older: a fresh checkout of
    libblackwood knows no scenario that counts its nodes."""
    here = Path(__file__).resolve().parent / "peers"
    for where, name in PEER_FILES.items():
        ours, theirs = here / name, folder / where
        if not theirs.exists() or theirs.read_bytes() != ours.read_bytes():
            shutil.copyfile(ours, theirs)
            print(f"copied {ours} to {theirs}", file=sys.stderr)


def reached_by(reached_at: dict | None, seconds: float) -> int | None:
    """The largest value (a depth, a score) first reached within ``seconds``, from a map of
    value to the seconds it was first reached at; None when none was."""
    values = [int(v) for v, at in (reached_at or {}).items() if at <= seconds]
    return max(values) if values else None


def checkpoints(row: dict) -> list[dict]:
    """The rows a depth race gives for the shorter horizons of :data:`DEPTH_CHECKPOINTS`:
    each engine's depth (and edgematch's best score) first reached by then, marked with the
    race they come from (``within``); no rate (only the whole race's was measured)."""
    rows: list[dict] = []
    if row.get("race") != "depth":
        return rows
    for horizon in DEPTH_CHECKPOINTS:
        if horizon >= row["horizon"] or "depth_at" not in row:
            continue
        cut = {k: v for k, v in row.items() if k not in ("depth_at", "best_score_at", "nodes_at")}
        cut.update(
            horizon=horizon,
            within=row["horizon"],
            deepest_tiles=reached_by(row["depth_at"], horizon),
            best_score=reached_by(row.get("best_score_at"), horizon),
            nodes_per_second_per_core=None,
            seconds=horizon,
        )
        if row["engine"] == "libblackwood":
            cut.pop("best_depth_tracked", None)
        rows.append(cut)
    return rows


def pinned(core: int) -> list[str]:
    """The prefix that runs a command on one core (none where taskset is missing)."""
    return ["taskset", "-c", str(core)] if shutil.which("taskset") else []


def beside(args: list[str], core: int, peer) -> tuple[dict, dict]:
    """Runs edgematch with ``args`` on ``core`` while ``peer(other core)`` runs: edgematch's
    JSON output and the peer's row."""
    ours = subprocess.Popen(pinned(core) + EDGEMATCH + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        theirs = peer(1 - core)
    except BaseException:  # the peer failed, or Ctrl-C: ours must not run on alone
        ours.kill()
        ours.wait()
        raise
    out, err = ours.communicate()
    if ours.returncode not in (0, 1):
        raise RuntimeError(f"edgematch {' '.join(args)} failed: {err.strip()}")
    return json.loads(out), theirs


def depth_args(horizon: int, seed: int) -> list[str]:
    """edgematch's command in a depth race (and alone: :func:`depth_alone`)."""
    args = ["search", "e2", *DEPTH_SEARCH, "--seed", str(seed), "--jobs", "1", "--time-limit", str(horizon)]
    return args + ["--no-record", "--json", "--quiet"]


def depth_row(args: list[str], data: dict, horizon: int, seed: int, race: str) -> dict:
    """edgematch's row of a depth race (``race`` "depth") or of its run alone ("alone")."""
    stats = data["statistics"]
    return {
        "engine": "edgematch",
        "puzzle": "e2",
        "race": race,
        "horizon": horizon,
        "jobs": 1,
        "seed": seed,
        "command": "edgematch " + " ".join(args),
        "deepest_tiles": int(data["deepest"]) + 1,  # the starter is on the board before the search
        # the search's depths, as tiles on the board, and its best scores: when first reached
        "depth_at": {str(int(d) + 1): at for d, at in (stats.get("deepest_at") or {}).items()},
        "best_score_at": stats.get("best_score_at") or {},
        # [seconds, nodes] by each node mark: the rate stretch by stretch (race_stretches)
        **({"nodes_at": stats["nodes_at"]} if stats.get("nodes_at") else {}),
        "best_score": data["best_score"],
        "nodes_per_second_per_core": round(data["nodes"] / float(data["seconds"])),
        "kernel": stats.get("kernel", "lists"),
        "seconds": round(float(data["seconds"]), 1),
        "load_average": load_average(),
    }


def depth_race(folder: Path, horizon: int, seed: int) -> list[dict]:
    """One core each, at the same time (edgematch on core 0, libblackwood on core 1): the
    deepest board each reaches under JB470's rule of at most 10 invalid joins."""
    args = depth_args(horizon, seed)
    warm(["search", "e2", *DEPTH_SEARCH, "--jobs", "1", "--no-record"])
    data, theirs = beside(args, 0, lambda other: race_libblackwood(folder, horizon, 1, seed, first_core=other))
    mine = depth_row(args, data, horizon, seed, "depth")
    return [mine, {**theirs, "race": "depth"}]


def depth_alone(folder: Path, horizon: int, seed: int) -> list[dict]:
    """The depth race's two runs one after the other, each engine alone on the core it has
    in the race (edgematch on core 0, libblackwood on core 1): their rates with nothing
    beside them, to read a race's rates against (:func:`alone_and_beside`)."""
    args = depth_args(horizon, seed)
    warm(["search", "e2", *DEPTH_SEARCH, "--jobs", "1", "--no-record"])
    mine = depth_row(args, edgematch(args, core=0), horizon, seed, "alone")
    theirs = {**race_libblackwood(folder, horizon, 1, seed, first_core=1), "race": "alone"}
    return [mine, theirs]


def rate_row(puzzle_name: str, args: list[str], data: dict) -> dict:
    """edgematch's nodes per second from its JSON output, with the command that ran."""
    return {
        "engine": "edgematch",
        "puzzle": puzzle_name,
        "command": "edgematch " + " ".join(args),
        "nodes_per_second": round(data["nodes"] / data["seconds"]),
        "kernel": data["statistics"].get("kernel", "lists"),
        "seconds": round(float(data["seconds"]), 1),
    }


def rate_edgematch(seconds: int) -> list[dict]:
    """Nodes per second on one core: on e2 Blackwood's method without the endgame (the
    method libblackwood's rate is measured on), the exact search on bench-hard."""
    rows = []
    for puzzle_name, args in (
        ("e2", ["search", "e2", *DEPTH_SEARCH, "--jobs", "1", "--no-record"]),
        ("e2dev/bench-hard", ["solve", "e2dev/bench-hard", "--kernel", "generated", "--jobs", "1"]),
    ):
        warm(args)
        args = args + ["--time-limit", str(seconds), "--json", "--quiet"]
        rows.append({**rate_row(puzzle_name, args, edgematch(args, core=0)), "load_average": load_average()})
    return rows


def rate_eternity2(folder: Path, seconds: int, core: int = 0) -> dict:
    """eternity2.dev's generated engine on its hard board, on one core."""
    engine = folder / "research/experiments/dfs-study/engine"
    args = ["./target/release/run_dfs_codegen_jit", "--puzzle", "crates/dfs-codegen/bench/bench-hard.json"]
    args += ["--budget-s", str(seconds), "--chain2", "--opt", "native"]
    text = subprocess.run(pinned(core) + args, cwd=engine, capture_output=True, text=True).stdout
    line = next((x for x in text.splitlines() if x.startswith("RESULT")), None)
    if line is None:
        raise RuntimeError(f"eternity2.dev's engine printed no RESULT line:\n{text[-2000:]}")
    fields = dict(re.findall(r"(\w+)=(\S+)", line))
    return {
        "engine": "eternity2.dev",
        "puzzle": "e2dev/bench-hard",
        "command": " ".join(args),
        "nodes_per_second": round(float(fields["nps"])),
        "seconds": round(float(fields["elapsed_s"]), 1),
        "load_average": load_average(),
    }


def rate_libblackwood(folder: Path, seconds: int, seed: int, core: int = 0) -> dict:
    row = race_libblackwood(folder, seconds, 1, seed, first_core=core)
    return {
        "engine": "libblackwood",
        "puzzle": "e2",
        "command": row["command"],
        "nodes_per_second": row["nodes_per_second_per_core"],
        "seconds": row["seconds"],
        "load_average": row["load_average"],
    }


def rate_pairs(libblackwood: Path | None, eternity2: Path | None, seconds: int, rounds: int, seed: int) -> list[dict]:
    """Nodes per second side by side: edgematch and a peer at the same time, one core each
    (on e2 beside libblackwood, Blackwood's method for both; on bench-hard beside
    eternity2.dev's engine, the exact search for both), ``rounds`` times, swapping the cores
    each round, so that the machine's drift and a slower core weigh on both alike."""
    pairs = []
    if libblackwood:
        our_args = ["search", "e2", *DEPTH_SEARCH, "--seed", str(seed), "--jobs", "1", "--no-record"]
        pairs.append(("e2", our_args, lambda core: rate_libblackwood(libblackwood, seconds, seed, core)))
    if eternity2:
        our_args = ["solve", "e2dev/bench-hard", "--kernel", "generated", "--jobs", "1"]
        pairs.append(("e2dev/bench-hard", our_args, lambda core: rate_eternity2(eternity2, seconds, core)))
    rows = []
    for puzzle_name, our_args, peer in pairs:
        warm(our_args)
        args = our_args + ["--time-limit", str(seconds), "--json", "--quiet"]
        for k in range(rounds):
            our_core = k % 2
            data, theirs = beside(args, our_core, peer)
            pair = {"race": "rate pair", "round": k + 1, "pair_seconds": seconds}
            if puzzle_name == "e2":  # the exact search of bench-hard takes no seed
                pair["seed"] = seed
            rows.append({**rate_row(puzzle_name, args, data), "core": our_core, **pair})
            rows.append({**theirs, "core": 1 - our_core, **pair})
    return rows


def key(row: dict) -> tuple:
    """What a row measured: a race (engine, puzzle, horizon, cores; a depth race and a run alone
    per seed too) or a rate (no horizon)."""
    race = row.get("race", "score")
    which: object = None  # what tells apart rows of one race
    if race in ("depth", "alone"):
        which = row.get("seed")
    elif race == "rate pair":  # pairs of other days, commits, machines, seeds and lengths are kept beside today's
        which = (row.get("date"), row.get("code"), machine_of(row), pair_seed(row), row.get("round"), pair_seconds(row))
    return (row["engine"], row["puzzle"], row.get("horizon"), row.get("jobs"), race, which)


def same_race(a: dict, b: dict) -> bool:
    """Whether two readings within longer races come from one race (its horizon, day and code)."""
    return all(a.get(k) == b.get(k) for k in ("within", "date", "code"))


def merged(rows: list[dict], row: dict) -> list[dict]:
    """``rows`` with ``row`` instead of the row that measured the same thing, at the end
    (:func:`with_checkpoints` keeps its readings where they stand itself).  A depth read
    at a checkpoint of a longer race (``within``) never replaces one raced to that horizon,
    nor one read within another race, so a later and longer race of the seed adds its longer
    horizons without moving the shorter rows."""
    same = [r for r in rows if key(r) == key(row)]
    if row.get("within") and any(not same_race(r, row) for r in same):
        return rows
    return [r for r in rows if key(r) != key(row)] + [row]


def with_checkpoints(rows: list[dict]) -> list[dict]:
    """``rows`` with the readings within depth races read afresh from each race's timeline
    (after a change to :data:`DEPTH_CHECKPOINTS`), the earlier day's race first: each in the
    place of the reading it replaces, kept as saved where it reads the same (so a rewrite
    changes no byte of score_race.json that it leaves as it was), new ones last."""
    races = [r for r in rows if not r.get("within")]
    read = races
    for race in sorted(races, key=lambda r: r.get("date") or ""):
        for cut in checkpoints(race):
            read = merged(read, cut)
    fresh = {key(r): r for r in read if r.get("within")}
    kept = []
    for r in rows:
        if not r.get("within"):
            kept.append(r)
        elif key(r) in fresh:
            cut = fresh.pop(key(r))
            kept.append(r if r == cut else cut)
    return kept + list(fresh.values())


#: the longer horizons given as extrapolations of a race's boards per score
EXTRAPOLATED_HOURS = (8, 24)


def extrapolated_best(row: dict, hours: float) -> int | None:
    """The best score expected within ``hours`` on the same cores: a least-squares line
    through log(boards per hour) against score, over the scores the race logged, and the
    highest score whose expected count within ``hours`` is at least one.  None with fewer
    than two scores logged.  An extrapolation, labelled as one wherever it is shown."""
    counts = {int(k): n for k, n in (row.get("boards_by_score") or {}).items() if n}
    if len(counts) < 2 or not row.get("seconds"):
        return None
    xs = sorted(counts)
    ys = [math.log(counts[x] * 3600 / row["seconds"]) for x in xs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    if slope >= 0:
        return None
    # log(rate(s) * hours) >= 0  <=>  my + slope (s - mx) + log(hours) >= 0
    return math.floor(mx + (my + math.log(hours)) / -slope)


def engine_label(row: dict) -> str:
    """The engine, with edgematch's kernel where the row names it (rows before it did not)."""
    return f"{row['engine']} ({row['kernel']} kernel)" if row.get("kernel") else row["engine"]


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test (SciPy's binomial test): the chance of a split at least this
    uneven between wins and losses (ties left out) if either engine were as likely to be deeper."""
    return 1.0 if wins + losses == 0 else float(binomtest(wins, wins + losses).pvalue)


def mean_difference_interval(differences: list[int]) -> tuple[float, float] | None:
    """95 % confidence interval of the mean paired difference (Student's t): how large the
    lead could be, which a test's p alone does not say. None below two pairs or with no spread."""
    if len(differences) < 2 or len(set(differences)) == 1:
        return None
    interval = ttest_1samp(differences, 0.0).confidence_interval(0.95)
    return float(interval.low), float(interval.high)


def signed_rank_test(differences: list[int]) -> float:
    """Two-sided Wilcoxon signed-rank p over the paired differences (ties left out, as in the
    sign test): it weighs a two-tile lead above a one-tile one, where the sign test does not."""
    if not any(differences):
        return 1.0
    return float(wilcoxon(differences, zero_method="wilcox").pvalue)


def interval_text(interval: tuple[float, float] | None) -> str:
    return "-" if interval is None else f"{interval[0]:+.2f} to {interval[1]:+.2f}"


def p_text(p: float) -> str:
    """Two decimals, or one significant digit where two decimals would show 0.00 (a p is never
    zero); more decimals where rounding would lift a p below 0.05 to 0.05, the line it is read by."""
    if p < 0.005:
        return f"{p:.1g}"
    decimals = 2
    while p < 0.05 <= float(f"{p:.{decimals}f}"):
        decimals += 1
    return f"{p:.{decimals}f}"


def depth_races(rows: list[dict]) -> list[dict]:
    """The depth-race rows of score_race.json, by horizon, seed and engine: the order every
    depth table (and the restart estimate's bootstrap) reads them in."""
    return sorted((r for r in rows if r.get("race") == "depth"), key=lambda r: (r["horizon"], r["seed"], r["engine"]))


def depths_by_seed(depths: list[dict], horizons: tuple[int, ...]) -> dict[int, list[dict]]:
    """The depth rows at ``horizons`` that reached a depth, grouped by seed in the order the
    seeds first appear (the restart estimate's bootstrap depends on that order)."""
    grouped: dict[int, list[dict]] = {}
    for r in depths:
        if r["horizon"] in horizons and r["deepest_tiles"]:
            grouped.setdefault(r["seed"], []).append(r)
    return grouped


def tiles_by_horizon(rows: list[dict]) -> dict[int, dict[str, int]]:
    """Horizon -> engine -> deepest tiles of one seed's rows (a later row of the same engine
    and horizon replaces an earlier one)."""
    tiles: dict[int, dict[str, int]] = {}
    for r in rows:
        tiles.setdefault(r["horizon"], {})[r["engine"]] = r["deepest_tiles"]
    return tiles


def depth_pairs(depths: list[dict], horizon: int) -> list[tuple[int, int]]:
    """(edgematch, libblackwood) deepest tiles of each seed both engines ran at ``horizon``."""
    pairs = [tiles_by_horizon(rows)[horizon] for rows in depths_by_seed(depths, (horizon,)).values()]
    return [(d["edgematch"], d["libblackwood"]) for d in pairs if len(d) == 2]


def depth_cells(pairs: list[tuple[int, int]]) -> str:
    """The cells after the label of a depth-summary row: seeds, the split, the sign test, each
    engine's deepest, median and mean, the mean difference, its interval, the signed-rank p."""
    ours, theirs = [p[0] for p in pairs], [p[1] for p in pairs]
    deeper, shallower = sum(a > b for a, b in pairs), sum(a < b for a, b in pairs)
    differences = [a - b for a, b in pairs]
    return (
        f"{len(pairs)} | {deeper} | {len(pairs) - deeper - shallower} | {shallower} | "
        f"{p_text(sign_test(deeper, shallower))} | "
        f"{max(ours)}, {statistics.median(ours):g}, {statistics.mean(ours):.2f} | "
        f"{max(theirs)}, {statistics.median(theirs):g}, {statistics.mean(theirs):.2f} | "
        f"{statistics.mean(ours) - statistics.mean(theirs):+.2f} | "
        f"{interval_text(mean_difference_interval(differences))} | {p_text(signed_rank_test(differences))} |"
    )


DEPTH_COLUMNS = (
    "seeds | edgematch deeper | as deep | shallower | sign test p | edgematch deepest, median, mean | "
    "libblackwood deepest, median, mean | mean difference | 95 % interval | signed-rank p |"
)


def depth_summary(depths: list[dict]) -> list[str]:
    """Per horizon, over the seeds both engines ran: how often edgematch was deeper, as
    deep or shallower, each engine's deepest, median and mean depth, and whether the split
    could be chance (a sign test), so that "deeper" is claimed only where it is not; then
    the same per machine, since a lead pooled over machines may hold on one of them only."""
    lines = [
        "Seed for seed at each horizon (every code version measured, pooled). The sign test's p is "
        "the chance of a split at least this uneven if both engines were as likely to be the deeper "
        "one: below 0.05, the deeper engine is deeper; above it, the two are not told apart. The sign "
        "test is the criterion the project declared; the signed-rank p (which also weighs how many tiles "
        "deeper) and the 95 % interval of the mean difference are given beside it, not in its place.",
        "",
        f"| horizon | {DEPTH_COLUMNS}",
        "|---:|---:|---:|---:|---:|---:|---|---|---:|---|---:|",
    ]
    horizons = sorted({r["horizon"] for r in depths})
    for horizon in horizons:
        pairs = depth_pairs(depths, horizon)
        if pairs:
            lines.append(f"| {horizon} s | {depth_cells(pairs)}")
    lines += [
        "",
        "The same, machine by machine (both engines of a race ran on one machine; rows from before "
        "2026-11-26 did not record theirs):",
        "",
        f"| horizon | machine | {DEPTH_COLUMNS}",
        "|---:|---|---:|---:|---:|---:|---:|---|---|---:|---|---:|",
    ]
    by_machine: dict[str, list[dict]] = {}
    for r in depths:
        by_machine.setdefault(machine_of(r), []).append(r)
    for horizon in horizons:
        for name, rows in sorted(by_machine.items()):
            pairs = depth_pairs(rows, horizon)
            if pairs:
                lines.append(f"| {horizon} s | {name} | {depth_cells(pairs)}")
    return lines


#: horizons whose races are few and long enough to list seed by seed
LONG_HORIZONS = (1800, 3600)


def long_races(depths: list[dict]) -> list[str]:
    """Each seed raced by both engines to half an hour or an hour, with its machine, code and
    tiles at each long horizon: the pooled rows there rest on a handful of seeds, so each one
    is shown rather than re-typed by hand in the docs."""
    lines = [
        "Races of half an hour and of an hour, seed for seed (tiles, edgematch / libblackwood):",
        "",
        "| seed | machine | code | " + " | ".join(f"{h} s" for h in LONG_HORIZONS) + " |",
        "|---:|---|---|" + "---|" * len(LONG_HORIZONS),
    ]
    for seed, rows in sorted(depths_by_seed(depths, LONG_HORIZONS).items()):
        race = tiles_by_horizon(rows)
        cells = []
        for horizon in LONG_HORIZONS:
            pair = race.get(horizon, {})
            if len(pair) < 2:
                cells.append("-")
                continue
            ours, theirs = pair["edgematch"], pair["libblackwood"]
            verdict = "deeper" if ours > theirs else "shallower" if ours < theirs else "as deep"
            cells.append(f"{ours} / {theirs} ({verdict})")
        if any(cell != "-" for cell in cells):
            first = rows[0]
            lines.append(f"| {seed} | {machine_of(first)} | {first.get('code', '-')} | " + " | ".join(cells) + " |")
    return lines


#: the depth the races of an hour are read by: both engines' median there, and the docs say when each first reached it
HOUR_DEPTH = 250


def races_to(depths: list[dict], horizon: int) -> dict[int, tuple[dict, dict]]:
    """Seed -> (edgematch's, libblackwood's) row of each race both engines ran to ``horizon``
    (not a reading within a longer race)."""
    races: dict[int, dict[str, dict]] = {}
    for r in depths:
        if r["horizon"] == horizon and not r.get("within"):
            races.setdefault(r["seed"], {})[r["engine"]] = r
    return {seed: (race["edgematch"], race["libblackwood"]) for seed, race in races.items() if len(race) == 2}


def first_reached(row: dict, depth: int = HOUR_DEPTH) -> str:
    """When one engine first had ``depth`` tiles or more on the board in its race, from its
    ``depth_at`` timeline; "never" with the deepest it reached and when; "-" without a timeline."""
    steps = {int(d): float(at) for d, at in (row.get("depth_at") or {}).items()}
    if not steps:
        return "-"
    reached = [at for d, at in steps.items() if d >= depth]
    if reached:
        return f"{min(reached):,.1f} s"
    deepest = max(steps)
    return f"never ({deepest} after {steps[deepest]:,.1f} s)"


def slower_stretches(ours: dict, theirs: dict) -> str:
    """The stretches of one race over which edgematch placed fewer nodes a second than
    libblackwood ("none", or "-" where either noted no marks)."""
    rates = (stretch_rates(ours), stretch_rates(theirs))
    if not rates[0] or not rates[1]:
        return "-"
    slower = [
        f"{lo}-{hi} s"
        for lo, hi in sorted(rates[0].keys() & rates[1].keys())
        if rates[0][(lo, hi)] <= rates[1][(lo, hi)]
    ]
    return ", ".join(slower) or "none"


def hour_races(depths: list[dict]) -> list[str]:
    """Each race of an hour with what the docs would otherwise retype after every race: the
    tiles each engine reached, when each first had 250 tiles on the board, both rates over
    the hour and the stretches edgematch was slower in; then how often each engine ended the
    hour at each depth."""
    races = races_to(depths, 3600)
    if not races:
        return []
    lines = [
        "Races of an hour, race by race (tiles at the hour; when each engine first had "
        f"{HOUR_DEPTH} tiles or more on the board, or the deepest it reached instead; both rates over "
        "the hour, million nodes per second, edgematch / libblackwood; the stretches over which "
        "edgematch was the slower, where both engines noted node marks):",
        "",
        f"| seed | machine | code | tiles | edgematch first {HOUR_DEPTH} | libblackwood first {HOUR_DEPTH} | "
        "nodes/s | ratio | edgematch slower over |",
        "|---:|---|---|---|---|---|---|---:|---|",
    ]
    for seed, (ours, theirs) in sorted(races.items()):
        a, b = ours.get("nodes_per_second_per_core"), theirs.get("nodes_per_second_per_core")
        rates, ratio = (f"{a / 1e6:.1f} / {b / 1e6:.1f}", f"{a / b:.3f}") if a and b else ("-", "-")
        lines.append(
            f"| {seed} | {machine_of(ours)} | {ours.get('code', '-')} | "
            f"{ours['deepest_tiles']} / {theirs['deepest_tiles']} | {first_reached(ours)} | {first_reached(theirs)} | "
            f"{rates} | {ratio} | {slower_stretches(ours, theirs)} |"
        )
    lines += ["", "How many races of an hour each engine ended at each depth, and its mean depth:", ""]
    tiles = {
        engine: [race[column]["deepest_tiles"] for race in races.values()]
        for column, engine in enumerate(("edgematch", "libblackwood"))
    }
    depths_seen = sorted({t for column in tiles.values() for t in column})
    lines += [
        "| engine | " + " | ".join(f"{d} tiles" for d in depths_seen) + " | mean |",
        "|---|" + "---:|" * (len(depths_seen) + 1),
    ]
    for engine, column in tiles.items():
        lines.append(
            f"| {engine} | "
            + " | ".join(str(column.count(d)) for d in depths_seen)
            + f" | {statistics.mean(column):.2f} |"
        )
    return lines


def ordinal(n: int) -> str:
    """248th, 251st, 252nd, 253rd."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def timeline_text(row: dict, steps: int = 3) -> str:
    """When one engine first reached its last few depths ("its 248th after 3.8 s, ...")."""
    at = sorted((int(d), float(t)) for d, t in (row.get("depth_at") or {}).items())[-steps:]
    return "its " + ", ".join(f"{ordinal(d)} after {t:,.1f} s" for d, t in at) if at else "no timeline"


def stretches_text(ours: dict, theirs: dict) -> str:
    """Both engines' rates stretch by stretch, in words, million nodes per second."""
    a, b = stretch_rates(ours), stretch_rates(theirs)
    keys = sorted(a.keys() & b.keys())
    parts = []
    for lo, hi in keys:
        where = f"to {hi} s" if lo == 0 else f"after {lo} s" if (lo, hi) == keys[-1] else f"from {lo} to {hi} s"
        parts.append(f"{a[(lo, hi)] / 1e6:.1f} against {b[(lo, hi)] / 1e6:.1f} {where}")
    return ", ".join(parts)


def race_entry(depths: list[dict], seed: int) -> str:
    """A draft of benchmarks/results/libblackwood_races.md's entry for the longest depth race
    of ``seed``, every figure from score_race.json: both engines' tiles and timelines, their
    rates over the race and by stretch, the seed's shorter race if it had one, and the pooled
    row at the race's horizon. The hours of day and any reading of the figures are added by hand."""
    horizons = sorted({r["horizon"] for r in depths if r["seed"] == seed and not r.get("within")}, reverse=True)
    if not horizons:
        return f"seed {seed}: no depth race in score_race.json"
    horizon = horizons[0]
    race = races_to(depths, horizon).get(seed)
    if race is None:
        return f"seed {seed}: only one engine ran its race of {horizon} s"
    ours, theirs = race
    verdict = {1: "deeper", 0: "as deep", -1: "shallower"}[
        (ours["deepest_tiles"] > theirs["deepest_tiles"]) - (ours["deepest_tiles"] < theirs["deepest_tiles"])
    ]
    a, b = ours["nodes_per_second_per_core"], theirs["nodes_per_second_per_core"]
    text = (
        f"{ours.get('date', '-')}, on {machine_of(ours)}, seed {seed} for {horizon} s (code {ours.get('code', '-')}; "
        f"`--depth-horizons {horizon} --depth-seeds 1 --seed {seed}`): edgematch {ours['deepest_tiles']} tiles "
        f"({timeline_text(ours)}; best score {ours.get('best_score') or '-'}), libblackwood {theirs['deepest_tiles']} "
        f"({timeline_text(theirs)}): {verdict} at {horizon} s. {a / 1e6:.1f} against {b / 1e6:.1f} million nodes "
        f"per second over the race ({a / b:.3f})"
    )
    stretches = stretches_text(ours, theirs)
    text += f"; by stretch {stretches}." if stretches else "."
    for h in horizons[1:]:
        if shorter := races_to(depths, h).get(seed):
            x, y = shorter
            text += (
                f" Its race of {h} s ({x.get('date', '-')}, code {x.get('code', '-')}): edgematch {x['deepest_tiles']} "
                f"({timeline_text(x)}), libblackwood {y['deepest_tiles']} ({timeline_text(y)}), "
                f"{x['nodes_per_second_per_core'] / 1e6:.1f} against {y['nodes_per_second_per_core'] / 1e6:.1f}."
            )
            break
    seeds, deeper, as_deep, shallower, p, _, _, mean, interval, signed_rank = (
        c.strip() for c in depth_cells(depth_pairs(depths, horizon)).split("|")[:-1]
    )
    return text + (
        f" Pooled at {horizon} s: {seeds} seeds, {deeper}, {as_deep}, {shallower} (p = {p}; {mean}, {interval}; "
        f"signed-rank p = {signed_rank})."
    )


#: Batches planned before their first race: (the day planned, the seeds, the horizon read).
#: Each is read once, when all its seeds are in at its horizon, so that its verdict is not one
#: of the many nominal looks at the pooled rows; a seed's rows dated before the plan do not count.
PLANNED_BATCHES: tuple[tuple[str, range, int], ...] = (
    ("2026-11-29", range(96, 126), 60),
    ("2026-11-29", range(173, 197), 300),
    ("2026-12-01", range(197, 221), 300),
    ("2026-12-05", range(54, 84), 1800),
)


def planned_batches(depths: list[dict]) -> list[str]:
    """Each planned batch's split, sign test and mean difference once all its seeds are in;
    until then only how many are in, so that nobody reads its verdict part-way."""
    lines = [
        "Batches planned before their first race, each read once, when all its seeds are in at its "
        "horizon (an hour's race counts at its 1800 s reading); until then only how many are in:",
        "",
        "| planned | seeds | horizon | in | machine | edgematch deeper | as deep | shallower | sign test p | "
        "mean difference (95 % interval) |",
        "|---|---|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for planned, seeds, horizon in PLANNED_BATCHES:
        rows = [r for r in depths if r["seed"] in seeds and r.get("date", "") >= planned]
        pairs = depth_pairs(rows, horizon)
        machines = "; ".join(sorted({machine_of(r) for r in rows if r["horizon"] == horizon})) or "-"
        head = f"| {planned} | {seeds[0]} to {seeds[-1]} | {horizon} s | {len(pairs)} of {len(seeds)} | {machines} | "
        if len(pairs) < len(seeds):
            lines.append(head + "- | - | - | - | - |")
            continue
        # the pooled summary's own cells: the split, the sign test, the mean difference and its interval
        _, deeper, as_deep, shallower, p, _, _, mean, interval, _ = (
            c.strip() for c in depth_cells(pairs).split("|")[:-1]
        )
        lines.append(head + f"{deeper} | {as_deep} | {shallower} | {p} | {mean} ({interval}) |")
    return lines


def paired_races(depths: list[dict], value) -> list[tuple[tuple[str, int], Any, Any]]:
    """``((machine, horizon), edgematch's, libblackwood's)`` ``value(row)`` for each race run to
    its horizon (not a reading within a longer one) where both engines have a value."""
    races: dict[tuple[str, int, int], dict[str, Any]] = {}
    for r in depths:
        if not r.get("within") and (v := value(r)):
            races.setdefault((machine_of(r), r["horizon"], r["seed"]), {})[r["engine"]] = v
    return [((m, h), v["edgematch"], v["libblackwood"]) for (m, h, _), v in races.items() if len(v) == 2]


def race_rates(depths: list[dict]) -> list[str]:
    """Both engines' rates in the depth races, per machine and length of race: each race is a
    pair measured at the same time on the two cores, so the races give many more side-by-side
    rates than the rate pairs, on other seeds' trees and over longer runs (a race's rate is its
    whole run's: the readings at shorter horizons have none)."""
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for (name, horizon), ours, theirs in paired_races(depths, lambda r: r.get("nodes_per_second_per_core")):
        groups.setdefault((name, horizon), []).append((ours, theirs))
    if not groups:
        return []
    lines = [
        "## Nodes per second in the depth races",
        "",
        "The rates the depth races above measured, both engines at once on one core each (edgematch on "
        "core 0), a race a pair, by machine and length of race (a race's rate is its whole run's). "
        "Sign test p as in the depth summary, on faster against slower.",
        "",
        "| machine | race | pairs | edgematch faster | sign test p | median ratio | "
        "edgematch median nodes/s | libblackwood median nodes/s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (name, horizon), pairs in sorted(groups.items()):
        faster = sum(a > b for a, b in pairs)
        slower = sum(a < b for a, b in pairs)
        ratio = statistics.median(a / b for a, b in pairs)
        lines.append(
            f"| {name} | {horizon} s | {len(pairs)} | {faster} | {p_text(sign_test(faster, slower))} | "
            f"{ratio:.2f} | {statistics.median(a for a, _ in pairs) / 1e6:.1f} M | "
            f"{statistics.median(b for _, b in pairs) / 1e6:.1f} M |"
        )
    return lines


#: the stretches of a race whose rates are compared: from one bound to the next (to the race's end)
STRETCH_BOUNDS = (0, 60, 300, 600, 1800)


def stretch_rates(row: dict) -> dict[tuple[int, int], float]:
    """One engine's nodes per second over each stretch of its race, from the nodes it had
    placed by each node mark (``nodes_at``, taken at the first slice or sample past the mark)
    and, for the last stretch, its totals; {} for a race that noted no marks."""
    if not row.get("nodes_at") or not row.get("nodes_per_second_per_core"):
        return {}
    horizon = row["horizon"]
    bounds = [b for b in STRETCH_BOUNDS if b < horizon] + [horizon]

    def at(bound: int) -> tuple[float, float] | None:
        if bound == 0:
            return 0.0, 0.0
        if bound == horizon:
            return float(row["seconds"]), float(row["nodes_per_second_per_core"]) * float(row["seconds"])
        return next(((float(t), float(n)) for t, n in row["nodes_at"] if t >= bound), None)

    rates = {}
    for lo, hi in zip(bounds, bounds[1:]):
        start, end = at(lo), at(hi)
        if start is not None and end is not None and end[0] > start[0]:
            rates[(lo, hi)] = (end[1] - start[1]) / (end[0] - start[0])
    return rates


def race_stretches(depths: list[dict]) -> list[str]:
    """The depth races' rates stretch by stretch (the races that noted node marks): whether
    edgematch's lead in rate holds over a long run or changes as the search goes deeper."""
    groups: dict[tuple[str, tuple[int, int]], list[tuple[float, float]]] = {}
    for (name, _horizon), ours, theirs in paired_races(depths, stretch_rates):
        for stretch in ours.keys() & theirs.keys():
            groups.setdefault((name, stretch), []).append((ours[stretch], theirs[stretch]))
    if not groups:
        return []
    lines = [
        "Stretch by stretch, in the races that noted the nodes placed by each mark (edgematch's "
        "slices and libblackwood's driver, every quarter second, note them; the last stretch ends "
        "with the race):",
        "",
        "| machine | stretch | races | edgematch faster | median ratio | edgematch median nodes/s | "
        "libblackwood median nodes/s |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for (name, (lo, hi)), pairs in sorted(groups.items()):
        faster = sum(a > b for a, b in pairs)
        lines.append(
            f"| {name} | {lo}-{hi} s | {len(pairs)} | {faster} | {statistics.median(a / b for a, b in pairs):.2f} | "
            f"{statistics.median(a for a, _ in pairs) / 1e6:.1f} M | {statistics.median(b for _, b in pairs) / 1e6:.1f} M |"
        )
    return lines


def alone_and_beside(rows: list[dict]) -> list[str]:
    """Each engine's rate alone (``--alone``) beside its rate in the depth race of the same
    seed on the same machine, stretch by stretch: what sharing the machine costs each engine
    in a race, and how the two rates compare without it (the race of the same length, else
    the longest that noted node marks)."""
    alone: dict[tuple[str, int, int], dict[str, dict]] = {}
    races: dict[tuple[str, int], list[dict]] = {}
    for r in rows:
        if r.get("race") == "alone":
            alone.setdefault((machine_of(r), r["seed"], r["horizon"]), {})[r["engine"]] = r
        elif r.get("race") == "depth" and not r.get("within") and r.get("nodes_at"):
            races.setdefault((machine_of(r), r["seed"]), []).append(r)
    lines = [
        "## Alone and side by side",
        "",
        "Each engine run alone on the core it has in the depth race (`--alone`: one after the other, "
        "nothing else running), beside its rate in the depth race of the same seed on the same machine "
        "(the race of the same length, else the longest that noted node marks), million nodes per "
        "second, stretch by stretch; the last line is the whole run alone. libblackwood's tree is not "
        "the same from run to run with one seed, edgematch's is. The code is edgematch's, alone and in "
        "the race: where they differ, the two columns measure different kernels.",
        "",
        "| machine | seed | code (alone / race) | stretch | edgematch alone | edgematch in the race | "
        "libblackwood alone | libblackwood in the race | ratio alone | ratio in the race |",
        "|---|---:|---|---|---:|---:|---:|---:|---:|---:|",
    ]

    def rate(value: float | None) -> str:
        return "-" if value is None else f"{value / 1e6:.1f}"

    def ratio(a: float | None, b: float | None) -> str:
        return "-" if a is None or not b else f"{a / b:.2f}"

    found = False
    for (name, seed, horizon), pair in sorted(alone.items()):
        if len(pair) < 2:
            continue
        found = True
        ours, theirs = pair["edgematch"], pair["libblackwood"]
        beside_rows = races.get((name, seed), [])
        lengths = {r["horizon"] for r in beside_rows}
        chosen = horizon if horizon in lengths else max(lengths, default=None)
        chosen_rows = {r["engine"]: r for r in beside_rows if r["horizon"] == chosen}
        race = {engine: stretch_rates(r) for engine, r in chosen_rows.items()}
        code = f"{ours.get('code', '-')} / {chosen_rows.get('edgematch', {}).get('code', '-')}"
        ours_a, theirs_a = stretch_rates(ours), stretch_rates(theirs)
        for stretch in sorted(ours_a.keys() & theirs_a.keys()):
            ours_r = race.get("edgematch", {}).get(stretch)
            theirs_r = race.get("libblackwood", {}).get(stretch)
            lines.append(
                f"| {name} | {seed} | {code} | {stretch[0]}-{stretch[1]} s | {rate(ours_a[stretch])} | {rate(ours_r)} | "
                f"{rate(theirs_a[stretch])} | {rate(theirs_r)} | {ratio(ours_a[stretch], theirs_a[stretch])} | "
                f"{ratio(ours_r, theirs_r)} |"
            )
        whole_ours, whole_theirs = ours["nodes_per_second_per_core"], theirs["nodes_per_second_per_core"]
        lines.append(
            f"| {name} | {seed} | {code} | all {horizon} s alone | {rate(whole_ours)} | | {rate(whole_theirs)} | | "
            f"{ratio(whole_ours, whole_theirs)} | |"
        )
    return lines if found else []


#: (segment, horizon) pairs of the restart estimate: the depth at ``horizon`` of a search that
#: restarts afresh every ``segment`` seconds, from the measured depths of races of ``segment``
RESTART_ESTIMATES = ((300, 1800), (300, 3600), (600, 1800), (600, 3600))


def best_of_segments(depths: list[int], segments: int) -> float:
    """The expected deepest of ``segments`` independent searches, each as deep as a draw
    from ``depths`` (the measured depths of independent races of one segment's length)."""
    values = range(min(depths), max(depths) + 1)
    below = [sum(d <= v for d in depths) / len(depths) for v in values]
    return min(depths) + sum(1 - f**segments for f in below[:-1])


def restart_estimates(depths: list[dict]) -> list[dict]:
    """Whether restarts would lift either engine's depth at the long horizons, where few seeds
    were raced: per (segment S, horizon H) with twenty seeds or more raced to S, the expected
    deepest of H / S independent searches of S seconds, each engine's, edgematch's lead and
    its 95 % bootstrap interval (seeded, so the same rows give the same figures), and the
    means of the searches raced to H without restarts (None where none was)."""
    rng = random.Random(0)
    estimates = []
    for segment, horizon in RESTART_ESTIMATES:
        pairs = depth_pairs(depths, segment)
        if len(pairs) < 20:
            continue
        n = horizon // segment
        ours = best_of_segments([a for a, _ in pairs], n)
        theirs = best_of_segments([b for _, b in pairs], n)
        leads = []
        for _ in range(2000):
            drawn = rng.choices(pairs, k=len(pairs))
            leads.append(best_of_segments([a for a, _ in drawn], n) - best_of_segments([b for _, b in drawn], n))
        leads.sort()
        single = depth_pairs(depths, horizon)
        estimates.append(
            {
                "horizon": horizon,
                "segment": segment,
                "segments": n,
                "seeds": len(pairs),
                "edgematch": ours,
                "libblackwood": theirs,
                "lead": ours - theirs,
                "low": leads[49],
                "high": leads[1949],
                "measured": (
                    (statistics.mean(a for a, _ in single), statistics.mean(b for _, b in single), len(single))
                    if single
                    else None
                ),
            }
        )
    return estimates


def restart_estimate(depths: list[dict]) -> list[str]:
    """The table of :func:`restart_estimates`, labelled as an estimate."""
    lines = [
        "## Depth with restarts, estimated (not measured)",
        "",
        "A search that starts afresh with a new seed every S seconds is, within H seconds, as deep "
        "as the deepest of H / S independent searches of S seconds. From the seeds both engines "
        "were raced to S (above), the expected deepest of H / S such searches, each engine's, and "
        "edgematch's lead with a 95 % bootstrap interval (2,000 resamples of the seeds as pairs). "
        "It assumes restarts as independent as separate seeds and costs nothing for a restart; "
        "libblackwood's own main.py restarts every 300 s. Beside it, the mean of the searches "
        "raced to H without restarts (few seeds).",
        "",
        "| horizon | restart every | segments | seeds raced to S | edgematch | libblackwood | lead | "
        "95 % interval | measured without restarts (seeds): edgematch, libblackwood |",
        "|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for e in restart_estimates(depths):
        measured = "{:.2f}, {:.2f} ({})".format(*e["measured"]) if e["measured"] else "-"
        lines.append(
            f"| {e['horizon']} s | {e['segment']} s | {e['segments']} | {e['seeds']} | {e['edgematch']:.2f} | "
            f"{e['libblackwood']:.2f} | {e['lead']:+.2f} | {e['low']:+.2f} to {e['high']:+.2f} | {measured} |"
        )
    return lines


def write(rows: list[dict], header: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "score_race.json").write_text(json.dumps({**header, "rows": rows}, indent=1) + "\n")
    races = sorted(
        (r for r in rows if "horizon" in r and r.get("race", "score") == "score"),
        key=lambda r: (r["puzzle"], r["horizon"], r["engine"]),
    )
    depths = depth_races(rows)
    rates = [r for r in rows if "horizon" not in r and r.get("race") != "rate pair"]
    rate_pair_rows = [r for r in rows if r.get("race") == "rate pair"]
    lines = [
        "# Score race on Eternity II",
        "",
        f"`python benchmarks/score_race.py`, latest run on {header['machine']}, code {header['code']} "
        f"(rows by machine, as score_race.json records it: {machines_text(rows)}).",
        f"edgematch's search: `edgematch search PUZZLE {' '.join(SEARCH + [''])}--seed S --jobs J "
        f"--time-limit H --save-boards {LOGGED}` (each row's command is in score_race.json; the default "
        "recipe of that day's code). Boards are re-scored from their files "
        "(score_race_boards/). libblackwood keeps boards from depth 252 on only, and tracks depths "
        "above 245 only; its depth d is d tiles on the board (rows before 2026-11-25's depth race counted one more, "
        "corrected in score_race.json). Rows measured on different days and commits are marked by their own code field "
        "in score_race.json.",
        "",
        "## Best score within the horizon",
        "",
        "| puzzle | horizon | cores | engine | best score | deepest tiles | nodes/s per core | "
        + " | ".join(f"{s}s per hour" for s in RATED)
        + f" | boards >= {LOGGED} by score | seed | load | code |",
        "|---|---:|---:|---|---:|---:|---:|" + "---:|" * len(RATED) + "---|---:|---:|---|",
    ]
    for r in races:
        per_hour = r.get("per_hour") or {}
        logged = ", ".join(f"{s}: {n}" for s, n in (r.get("boards_by_score") or {}).items()) or "-"
        lines.append(
            f"| {r['puzzle']} | {r['horizon']} s | {r['jobs']} | {engine_label(r)} | {r['best_score'] or '-'} | "
            f"{r['deepest_tiles'] or '-'} | {r['nodes_per_second_per_core'] or 0:,} | "
            + " | ".join(str(per_hour.get(str(s), "-")) for s in RATED)
            + f" | {logged} | {r['seed']} | {r['load_average']} | {r.get('code', '-')} |"
        )
    lines += [
        "",
        "## Longer horizons, extrapolated (not measured)",
        "",
        "From each race of 600 s or more: a line fitted through log(boards per hour) against score "
        f"(the complete boards at or above {LOGGED} it logged), and the highest score expected at "
        "least once within the horizon on the same cores. Bursts of boards from one subtree make "
        "this rough.",
        "",
        "| puzzle | race | cores | engine | " + " | ".join(f"{h} h (extrapolated)" for h in EXTRAPOLATED_HOURS) + " |",
        "|---|---:|---:|---|" + "---:|" * len(EXTRAPOLATED_HOURS),
    ]
    for r in races:
        if r["horizon"] < 600 or r["engine"] != "edgematch":
            continue
        guesses = [extrapolated_best(r, h) for h in EXTRAPOLATED_HOURS]
        lines.append(
            f"| {r['puzzle']} | {r['horizon']} s | {r['jobs']} | {engine_label(r)} | "
            + " | ".join("-" if g is None else str(g) for g in guesses)
            + " |"
        )
    lines += [
        "",
        "## Depth with Blackwood's method (JB470), one core each, side by side",
        "",
        "Both engines at once, one core each (edgematch on core 0, libblackwood on core 1), the same "
        "method: Blackwood's scan order, break indexes (at most 10 invalid joins on the board) and "
        "colour-pattern bound, no endgame (edgematch: `search e2 "
        + " ".join(DEPTH_SEARCH)
        + "`; libblackwood: its JB470 scenario). Deepest = tiles on the board, the starter included. "
        'A horizon "60 s (of 600 s)" is read from a longer race: the depth each engine had first '
        "reached by then (edgematch notes it after each slice of 0.02 s, libblackwood's driver samples "
        "its deepest depth every quarter second); such a race's seed is one not raced to that horizon, "
        "and where two longer races of a seed give a reading, the earlier race's stays.",
        "",
        "| horizon | engine | deepest tiles | best score (partial board) | nodes/s | seed | load | command |",
        "|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in depths:
        horizon = f"{r['horizon']} s" + (f" (of {r['within']} s)" if r.get("within") else "")
        rate = f"{r['nodes_per_second_per_core']:,}" if r.get("nodes_per_second_per_core") else "-"
        lines.append(
            f"| {horizon} | {engine_label(r)} | {r['deepest_tiles'] or '-'} | {r['best_score'] or '-'} | "
            f"{rate} | {r['seed']} | {r['load_average']} | `{r['command']}` |"
        )
    lines += ["", *depth_summary(depths)]
    lines += ["", *long_races(depths)]
    hours = hour_races(depths)
    lines += ["", *hours] if hours else []
    lines += ["", *planned_batches(depths)]
    lines += ["", *restart_estimate(depths)]
    lines += ["", "## Nodes per second, one core", "", "| puzzle | engine | nodes/s | seconds | command |"]
    lines.append("|---|---|---:|---:|---|")
    for r in rates:
        lines.append(
            f"| {r['puzzle']} | {engine_label(r)} | {r['nodes_per_second']:,} | {r['seconds']} | `{r['command']}` |"
        )
    lines += ["", *rate_pair_table(rate_pair_rows)]
    lines += ["", *race_rates(depths)]
    stretches = race_stretches(depths)
    lines += ["", *stretches] if stretches else []
    beside_alone = alone_and_beside(rows)
    lines += ["", *beside_alone] if beside_alone else []
    (RESULTS / "score_race.md").write_text("\n".join(lines) + "\n")


def pair_seconds(row: dict) -> int:
    """How long a rate pair ran (rows written before the field: their measured seconds)."""
    return int(row.get("pair_seconds") or round(row["seconds"]))


def pair_seed(row: dict) -> int | None:
    """The seed a rate pair searched with (rows written before the field: read from its
    command, ``--seed S`` for edgematch and ``SEED=S..`` for libblackwood; None if neither)."""
    if row.get("seed") is not None:
        return int(row["seed"])
    found = re.search(r"(?:--seed |SEED=)(\d+)", row.get("command", ""))
    return int(found.group(1)) if found else None


def rate_pair_table(rows: list[dict]) -> list[str]:
    """The side-by-side rates, a line per pair, then per board: how often edgematch was faster."""
    if not rows:
        return []
    lines = [
        "## Nodes per second, side by side",
        "",
        "edgematch and a peer at the same time, one core each, the cores swapped each round "
        "(`python benchmarks/score_race.py --no-race --no-rates --rate-pairs K`, `--libblackwood DIR` and `--eternity2 DIR` naming the peers): on e2 beside libblackwood "
        "(Blackwood's method, no endgame), on e2dev/bench-hard beside eternity2.dev's engine (the "
        "exact search). Commands as in the table above.",
        "",
        "| date | code | machine | puzzle | seed | seconds | round | edgematch nodes/s (core) | peer | "
        "peer nodes/s (core) | ratio |",
        "|---|---|---|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    pairs: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        seed = pair_seed(r)
        pairs.setdefault(
            (
                r["date"],
                r["code"],
                machine_of(r),
                r["puzzle"],
                -1 if seed is None else seed,
                pair_seconds(r),
                r["round"],
            ),
            {},
        )["edgematch" if r["engine"] == "edgematch" else "peer"] = r
    ratios: dict[tuple[str, str], list[float]] = {}
    by_seed: dict[tuple[str, str], dict[int, list[float]]] = {}
    for (date, code, machine_name, puzzle, seed, seconds, round_no), pair in sorted(pairs.items()):
        if len(pair) != 2:
            continue
        ours, theirs = pair["edgematch"], pair["peer"]
        ratio = ours["nodes_per_second"] / theirs["nodes_per_second"]
        board = (f"{puzzle} beside {theirs['engine']}, {seconds} s", machine_name)
        ratios.setdefault(board, []).append(ratio)
        by_seed.setdefault(board, {}).setdefault(seed, []).append(ratio)
        lines.append(
            f"| {date} | {code} | {machine_name} | {puzzle} | {'-' if seed < 0 else seed} | {seconds} | {round_no} | "
            f"{ours['nodes_per_second']:,} ({ours['core']}) | "
            f"{theirs['engine']} | {theirs['nodes_per_second']:,} ({theirs['core']}) | {ratio:.2f} |"
        )
    # a lead pooled over machines may hold on one of them only, so the counts are per machine
    lines += [
        "",
        "| board and peer | machine | pairs | edgematch faster | median ratio |",
        "|---|---|---:|---:|---:|",
    ]
    for (name, machine_name), values in sorted(ratios.items()):
        lines.append(
            f"| {name} | {machine_name} | {len(values)} | {sum(v > 1 for v in values)} | "
            f"{statistics.median(values):.2f} |"
        )
    # seeds measured often (to follow one tree from version to version) weigh as much as any other
    lines += [
        "",
        "Seed by seed (each seed's tree counted once: the mean of its pairs' ratios; "
        "sign test p on seeds faster against slower):",
        "",
        "| board and peer | machine | seeds | edgematch faster | sign test p | median ratio |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for (name, machine_name), seeds in sorted(by_seed.items()):
        means = [statistics.mean(values) for values in seeds.values()]
        faster, slower = sum(m > 1 for m in means), sum(m < 1 for m in means)
        lines.append(
            f"| {name} | {machine_name} | {len(means)} | {faster} | {p_text(sign_test(faster, slower))} | "
            f"{statistics.median(means):.2f} |"
        )
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", default="e2,e2-clues")
    parser.add_argument("--horizons", default="60,600,3600", help="seconds, comma-separated")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate-seconds", type=int, default=60)
    parser.add_argument("--no-rates", action="store_true", help="skip the nodes-per-second rows")
    parser.add_argument("--no-race", action="store_true", help="only the nodes-per-second rows")
    parser.add_argument(
        "--libblackwood",
        type=Path,
        metavar="DIR",
        help="libblackwood checkout (our driver and scenarios are copied in)",
    )
    parser.add_argument("--eternity2", type=Path, metavar="DIR", help="eternity2.dev checkout, engine built")
    parser.add_argument("--peer-python", default="python3", help="Python for libblackwood's driver (default python3)")
    parser.add_argument("--merge", action="store_true", help="keep earlier rows not measured again")
    parser.add_argument(
        "--rewrite",
        action="store_true",
        help="measure nothing: write score_race.md again from score_race.json (after a change to the tables)",
    )
    parser.add_argument(
        "--entry",
        type=int,
        metavar="SEED",
        help="measure nothing: print a draft of libblackwood_races.md's entry for SEED's longest depth race",
    )
    parser.add_argument(
        "--peers-only",
        action="store_true",
        help="measure only the peers (edgematch's rows come from an earlier run: use with --merge)",
    )
    parser.add_argument("--depth-seeds", type=int, default=1, help="seeds per depth-race horizon (--seed on)")
    parser.add_argument(
        "--depth-horizons",
        default="",
        help="seconds of the one-core depth race beside libblackwood (needs --libblackwood)",
    )
    parser.add_argument(
        "--alone",
        action="store_true",
        help="with --depth-horizons: each engine alone on its race core, one after the other (no race)",
    )
    parser.add_argument(
        "--rate-pairs",
        type=int,
        default=0,
        metavar="K",
        help="K rounds of side-by-side rates beside the peers given (--rate-seconds each)",
    )
    args = parser.parse_args(argv)
    global PEER_PYTHON
    PEER_PYTHON = args.peer_python
    if args.entry is not None:
        print(race_entry(depth_races(json.loads((RESULTS / "score_race.json").read_text())["rows"]), args.entry))
        return 0
    if args.rewrite:
        saved = json.loads((RESULTS / "score_race.json").read_text())
        write(with_checkpoints(saved["rows"]), {k: saved[k] for k in ("machine", "code", "date")})
        return 0
    if args.libblackwood and (problem := libblackwood_problem(args.libblackwood) or peer_python_problem(PEER_PYTHON)):
        parser.error(problem)  # before any compile or race, one line and status 2
    header = {"machine": machine(), "code": code_version(), "date": time.strftime("%Y-%m-%d")}
    rows: list[dict] = []
    if args.merge and (RESULTS / "score_race.json").exists():
        rows = json.loads((RESULTS / "score_race.json").read_text())["rows"]

    def add(row: dict) -> None:
        """Saves ``row`` stamped with today's code and machine, then the readings within it
        (taken from the stamped row, so they have the fields in the order a rewrite gives)."""
        row = {**row, "code": header["code"], "date": header["date"], "machine": header["machine"]}
        print(json.dumps(row), flush=True)
        rows[:] = merged(rows, row)
        write(rows, header)
        for cut in checkpoints(row):
            add(cut)

    # the races' recipe (the depth race and the rates warm their own configurations)
    warmed = [] if args.peers_only or args.no_race else args.puzzles.split(",")
    for puzzle_name in warmed:
        warm(["search", puzzle_name, *SEARCH, "--save-boards", str(LOGGED), "--jobs", "1", "--no-record"])
    if not args.no_race:
        for horizon in (int(h) for h in args.horizons.split(",")):
            for puzzle_name in args.puzzles.split(","):
                if not args.peers_only:
                    add(race_edgematch(puzzle_name, horizon, args.jobs, args.seed))
                if args.libblackwood and puzzle_name == "e2":
                    add(race_libblackwood(args.libblackwood, horizon, args.jobs, args.seed))
    if args.depth_horizons and args.libblackwood:
        for horizon in (int(h) for h in args.depth_horizons.split(",")):
            for seed in range(args.seed, args.seed + args.depth_seeds):
                for row in (depth_alone if args.alone else depth_race)(args.libblackwood, horizon, seed):
                    add(row)
    if not args.no_rates:
        for row in [] if args.peers_only else rate_edgematch(args.rate_seconds):
            add(row)
        if args.libblackwood:
            add(rate_libblackwood(args.libblackwood, args.rate_seconds, args.seed))
        if args.eternity2:
            add(rate_eternity2(args.eternity2, args.rate_seconds))
    if args.rate_pairs:
        for row in rate_pairs(args.libblackwood, args.eternity2, args.rate_seconds, args.rate_pairs, args.seed):
            add(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
