"""The results file of the Benoist & Bourreau (2008) benchmark: ``results/benoist2008.jsonl``.

One JSON record per line, appended as soon as a run ends, never rewritten: records of kind
``run`` (one engine on one instance variant: the key fields ``instance``, ``variant``,
``label``, ``engine``, ``options``, ``time_limit``, then ``solutions``, ``nodes``,
``complete``, ``stopped_by``, ``cpu_seconds``, ``wall_seconds``, ``statistics``, ``when``,
``code``, ``load``) and of kind ``corners`` (the four corner placements of an instance).

A run is recorded finished (``complete``) or stopped at its time limit (``stopped_by``
"time"); a run interrupted by Ctrl-C or SIGTERM is never recorded (``Store.add`` refuses
it), and one found in a file written by hand or by older code is ignored by every query.
"""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def is_result(record: dict) -> bool:
    """False for a run that was interrupted (Ctrl-C, SIGTERM): it tells nothing."""
    return record.get("stopped_by") != "interrupted"


class Store:
    """The JSON-lines results file: every record ever written, and appending."""

    def __init__(self, path: Path):
        self.path = path
        self.records: list[dict] = []
        if path.exists():
            for line in path.read_text().splitlines():
                if line.strip():
                    self.records.append(json.loads(line))

    def add(self, record: dict) -> None:
        if not is_result(record):
            raise ValueError("an interrupted run is not a result: not recorded")
        self.records.append(record)
        with self.path.open("a") as f:
            f.write(json.dumps(record) + "\n")

    def results(self):
        """Every record but interrupted runs, in the order written."""
        return (r for r in self.records if is_result(r))

    def results_newest_first(self):
        return (r for r in reversed(self.records) if is_result(r))

    def answer(self, key: dict) -> dict | None:
        """An earlier run that tells what a run with ``key`` would give: same instance,
        variant, engine and options, and either the same time limit, or a run that finished
        within this limit, or one that was stopped at a limit at least as long.  So a change
        of limits reruns only what the new limits change."""
        limit = key["time_limit"]
        same = {k: v for k, v in key.items() if k != "time_limit"}
        for record in self.results_newest_first():
            if not all(record.get(k) == v for k, v in same.items()):
                continue
            if record["time_limit"] == limit:
                return record
            if record["complete"] and record["cpu_seconds"] <= limit:
                return record
            if not record["complete"] and record["stopped_by"] == "time" and record["time_limit"] >= limit:
                return record
        return None

    def find(self, **match) -> dict | None:
        for record in self.results_newest_first():
            if all(record.get(k) == v for k, v in match.items()):
                return record
        return None


def latest(store: Store, name: str, variant: str, label: str) -> dict | None:
    """The most informative run: a complete one, else the one with the longest limit."""
    runs = [r for r in store.results() if r.get("kind") == "run" and r["instance"] == name
            and r["variant"] == variant and r["label"] == label]
    if not runs:
        return None
    complete = [r for r in runs if r["complete"]]
    if complete:
        return complete[-1]
    return max(runs, key=lambda r: r["time_limit"])
