"""The runs of the Benoist & Bourreau (2008) benchmark: which, in what order, and running one.

What is run (the engines and their options, the heuristics of Table 3, the shaving limits
of Figure 7), the instance variants (as distributed; four corners fixed from the first
solution found), which runs are worth starting, and :func:`run`, which times one run and
appends it to the :class:`~benchmarks.benoist2008_store.Store` unless Ctrl-C or SIGTERM
cut it short (then :class:`~benchmarks.interrupts.Interrupted` is raised and nothing is
written).  The command line is ``benoist2008.py``.
"""

from __future__ import annotations

import json
import time

import edgematch
from benchmarks import benoist2008_paper as paper
from benchmarks.benoist2008_store import Store, latest
from benchmarks.interrupts import Interrupted, check
from benchmarks.machine_info import code_version, load_average
from edgematch.data import catalogue
from edgematch.model import Hint

QUICK = ["E_10_5", "E_10_7", "E_9_4", "E_10_16", "E_10_17", "E_9_13", "E_10_22", "E_9_11"]
SHAVING_LIMITS = ["-", 1, 2, 3, 4, 6, 8, 12, 16, "all"]
DEFAULT_TIME_LIMIT = 60.0  # seconds per run; the report names the runs given more
HEURISTIC_NAMES = ["min-offer", "min-expected-offer", "min-expected-gap", "min-expected-ratio",
                   "max-expected-filtering"]
PAPER_CONFIG = dict(heuristic="min-expected-gap", preemption=True, backjumping=True, shaving="all")
ENGINES = {
    "backtrack": ("backtrack", dict(order="rowscan", corner="BL")),
    "colorpair": ("colorpair", PAPER_CONFIG),
    "colorpair_no_backjumping": ("colorpair", dict(PAPER_CONFIG, backjumping=False)),
    "colorpair_no_preemption": ("colorpair", dict(PAPER_CONFIG, preemption=False)),
    "cpsat": ("cpsat", dict(workers=1)),
}


# ---------------------------------------------------------------------------- instances
def instance_names() -> list[str]:
    names = [n.split("/", 1)[1] for n in catalogue.bundled_names() if n.startswith("benoist/")]

    def key(name):
        _, size, k = name.split("_")
        return int(size), int(k)

    return sorted(names, key=key)


def find_corners(name: str) -> dict | None:
    """The ``corners`` record of an instance: the four corner placements of the first
    solution our ColorPair engine finds on the instance as distributed (untimed work: on
    the hard instances it takes longer than the timed runs).  None when Ctrl-C or SIGTERM
    cut the search short (it also runs in worker processes, which return rather than raise)."""
    from edgematch.engines.colorpair import ColorPairSolver

    puzzle = edgematch.load("benoist/" + name)
    started = time.process_time()
    first = ColorPairSolver(**PAPER_CONFIG).solve(puzzle, k=1)
    if not first.boards:
        if first.stopped_by == "interrupted":
            return None
        raise RuntimeError(f"{name}: the ColorPair engine found no solution ({first.stopped_by or 'complete'})")
    board = first.boards[0]
    W, H = puzzle.width, puzzle.height
    corners = [0, W - 1, (H - 1) * W, H * W - 1]
    return {"kind": "corners", "instance": name, "found_by": "colorpair (first solution)",
            "cpu_seconds": round(time.process_time() - started, 3),
            "corners": [[s, int(board.tiles[s]), int(board.rotations[s])] for s in corners]}


def find_all_corners(store: Store, names: list[str], workers: int) -> None:
    """Find the missing ``corners`` records, ``workers`` instances at a time.  No run is
    timed meanwhile, so every core may be used; this process alone writes the results."""
    missing = [n for n in names if store.find(kind="corners", instance=n) is None]
    if not missing:
        return
    print(f"corners: {len(missing)} instances ({', '.join(missing)}), {workers} at a time", flush=True)
    import contextlib
    import multiprocessing

    with contextlib.ExitStack() as stack:
        if workers <= 1:
            found = map(find_corners, missing)
        else:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(workers))
            found = pool.imap_unordered(find_corners, missing)
        for record in found:
            if record is None:
                raise Interrupted("finding the corners was interrupted")
            store.add(record)
            print(f"{record['instance']:8} corners found in {record['cpu_seconds']:.1f} s cpu", flush=True)


def four_corner_puzzle(name: str, store: Store):
    """The instance with its four corners fixed as in the first solution found."""
    puzzle = edgematch.load("benoist/" + name)
    record = store.find(kind="corners", instance=name)
    if record is None:
        record = find_corners(name)
        if record is None:
            raise Interrupted(f"finding the corners of {name} was interrupted")
        store.add(record)
    hints = [Hint(s, t, r) for s, t, r in record["corners"]]
    return puzzle.without_hints().with_hints(hints)


def variant_puzzle(name: str, variant: str, store: Store):
    if variant == "distributed":
        return edgematch.load("benoist/" + name)
    return four_corner_puzzle(name, store)


# ---------------------------------------------------------------------------- runs
def make(engine: str, options: dict, time_limit: float):
    from edgematch.engines import make_solver

    return make_solver(engine, time_limit=time_limit, **options)


def warm_up(engine: str, options: dict, puzzle) -> None:
    """Load the compiled kernels this puzzle uses first (Numba reads them from its cache on
    their first call, up to two seconds), so that the time is the search's."""
    if engine in ("colorpair", "backtrack"):
        from edgematch.engines import make_solver

        check(make_solver(engine, node_limit=1000, **options).count(puzzle), "the warm-up")


def run(store: Store, name: str, variant: str, label: str, engine: str, options: dict, time_limit: float) -> dict:
    """The record of one run: an earlier one that answers it (``Store.answer``), or a new
    run, timed and appended to the store.  A run cut short by Ctrl-C or SIGTERM raises
    :class:`Interrupted` and is not recorded: it neither finished nor reached its limit."""
    key = dict(kind="run", instance=name, variant=variant, label=label, engine=engine,
               options=json.loads(json.dumps(options)), time_limit=time_limit)
    done = store.answer(key)
    if done is not None:
        return done
    puzzle = variant_puzzle(name, variant, store)
    solver = make(engine, options, time_limit)
    warm_up(engine, options, puzzle)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    result = solver.count(puzzle)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    check(result, f"{name} {variant} {label}", time_limit, wall)
    record = dict(key, solutions=result.solutions, nodes=result.nodes, complete=result.complete,
                  stopped_by=result.stopped_by, cpu_seconds=round(cpu, 3), wall_seconds=round(wall, 3),
                  statistics={k: v for k, v in result.statistics.items() if isinstance(v, (int, float, str))},
                  when=time.strftime("%Y-%m-%d %H:%M:%S"), code=code_version(), load=load_average())
    store.add(record)
    state = "" if result.complete else f" (stopped by {result.stopped_by})"
    print(f"{name:8} {variant:11} {label:26} {result.solutions:>3} sol {result.nodes:>14,} nodes "
          f"{cpu:9.2f} s cpu{state}", flush=True)
    return record


def easiest_first(names: list[str]) -> list[str]:
    """The paper's order (increasing best time in Table 1), the instances it leaves out
    last: a run stopped part way has then finished as many instances as it could."""
    rank = {row[0]: i for i, row in enumerate(paper.TABLE1)}
    return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))


def colorpair_limit(name: str, variant: str, limit: float, share: float) -> float:
    """Time limit of the main ColorPairs run: at least ``share`` of the paper's ColorPairs
    time on the four-corner variant, so that the "10 times below the paper's time" target
    can be measured (with share 0.3 a miss by up to a factor 3.3 still finishes).  Only the
    main run gets it: the target is about that run, and the ablations are compared with it
    where both finish (see ``worth_running``)."""
    rows = {row[0]: row for row in paper.TABLE1}
    if variant != "four_corners" or name not in rows or share <= 0:
        return limit
    return max(limit, float(round(share * rows[name][3])))


def finished_within(record: dict | None, limit: float) -> bool:
    return bool(record and record["complete"] and record["cpu_seconds"] <= limit)


def worth_running(store: Store, name: str, variant: str, baseline: str | None, limit: float) -> bool:
    """Runs whose figures the report cannot use are not started, so that the hours go
    where they tell something.  A run is started only where its ``baseline`` run finished
    within the same limit: the ablations (no backjumping, no preemption) need the main
    ColorPairs run, as the report compares the three where all finish; the heuristics need
    MinOffer, the baseline of Table 3; the shaving limits need no shaving ("-", the
    slowest), as Figure 7 sums the instances where every limit finished.  Runs without a
    baseline (the main ones) are always started."""
    if baseline is None:
        return True
    return finished_within(latest(store, name, variant, baseline), limit)


def run_all(args, store: Store) -> None:
    """Every run the arguments ask for (``benoist2008.py``'s options), in order; raises
    :class:`Interrupted` (or ``KeyboardInterrupt``) at the first interruption, with every
    run finished before it recorded."""
    names = easiest_first(args.instances or (QUICK if args.quick else instance_names()))
    limit = args.time_limit
    parts = args.parts
    if any(part in parts for part in ("corners", "table1", "heuristics", "shaving")):
        find_all_corners(store, names, args.workers)

    def run_if_worth(name, variant, label, engine, options, own, baseline=None):
        if worth_running(store, name, variant, baseline, own):
            run(store, name, variant, label, engine, options, own)
        else:
            print(f"{name:8} {variant:11} {label:26} not run ({baseline} did not finish within {own:g} s)",
                  flush=True)

    if "table1" in parts:
        for variant in ("four_corners", "distributed"):
            for name in names:
                for label in args.engines:
                    engine, options = ENGINES[label]
                    own = colorpair_limit(name, variant, limit, args.colorpair_share) if label == "colorpair" else limit
                    ablation = label in ("colorpair_no_backjumping", "colorpair_no_preemption")
                    run_if_worth(name, variant, label, engine, options, own, "colorpair" if ablation else None)
    if "heuristics" in parts:
        for name in names:
            for h in HEURISTIC_NAMES:
                label = "colorpair" if h == "min-expected-gap" else f"heuristic:{h}"
                run_if_worth(name, "four_corners", label, "colorpair", dict(PAPER_CONFIG, heuristic=h), limit,
                             None if h == "min-offer" else "heuristic:min-offer")
    if "shaving" in parts:
        for name in names:
            for value in SHAVING_LIMITS:
                label = "colorpair" if value == "all" else f"shaving:{value}"
                run_if_worth(name, "four_corners", label, "colorpair", dict(PAPER_CONFIG, shaving=value), limit,
                             None if value == "-" else "shaving:-")
