"""The figures of the Benoist & Bourreau (2008) benchmark, as PNG beside the report.

Figures 5 (nodes per instance), 6 (time per instance) and 7 (the shaving limit), drawn from
the records of the results file; they need the ``bench`` extra (matplotlib), without which
no figure is drawn and the report is written without them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks import benoist2008_paper as paper
from benchmarks.benoist2008_report import paper_nodes, shaving_rows
from benchmarks.benoist2008_runner import SHAVING_LIMITS
from benchmarks.benoist2008_store import Store, latest


def plots(store: Store, names, folder: Path) -> list[tuple[str, Path]]:
    """Draw the figures of the instances ``names`` into ``folder``: (title, path) pairs,
    none without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing (pip install edgematch[bench]): no figures", file=sys.stderr)
        return []
    rows = {row[0]: row for row in paper.TABLE1}
    data = []
    for name in names:
        if name not in rows:
            continue
        recs = {k: latest(store, name, "four_corners", k) for k in ("backtrack", "colorpair", "cpsat")}
        if not recs["colorpair"]:
            continue
        data.append((paper.paper_best_time(rows[name]), name, rows[name], recs))
    data.sort()
    pictures = []
    if data:
        x = range(len(data))
        fig, ax = plt.subplots(figsize=(10, 4.5))

        def series(label, key):
            # 0 nodes (CP-SAT solving by propagation alone) has no place on a log axis: leave a gap.
            return [paper_nodes(r[key]) if r[key] and r[key]["complete"] and paper_nodes(r[key]) > 0
                    else float("nan") for _, _, _, r in data]

        ax.plot(x, series("backtrack", "backtrack"), "o-", label="our backtracker")
        ax.plot(x, series("colorpair", "colorpair"), "s-", label="our ColorPairs (decisions + probes)")
        ax.plot(x, series("cpsat", "cpsat"), "^-", label="our CP-SAT (branches)")
        ax.plot(x, [row[2] * 1e6 if row[2] else float("nan") for _, _, row, _ in data], "o:", alpha=0.6,
                label="paper doc_smith")
        ax.plot(x, [row[4] * 1e6 for _, _, row, _ in data], "s:", alpha=0.6, label="paper ColorPairs")
        ax.set_yscale("log")
        ax.set_xticks(list(x))
        ax.set_xticklabels([n for _, n, _, _ in data], rotation=90, fontsize=7)
        ax.set_ylabel("nodes")
        ax.set_title("Figure 5: nodes per instance (four corners fixed; sorted by the paper's best time)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = folder / "benoist2008_fig5_nodes.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        pictures.append(("Figure 5: nodes", path))

        fig, ax = plt.subplots(figsize=(10, 4.5))

        def times(key):
            return [r[key]["cpu_seconds"] if r[key] and r[key]["complete"] else float("nan") for _, _, _, r in data]

        ax.plot(x, times("backtrack"), "o-", label="our backtracker")
        ax.plot(x, times("colorpair"), "s-", label="our ColorPairs")
        ax.plot(x, [max(row[3], 0.5) for _, _, row, _ in data], "s:", alpha=0.6, label="paper ColorPairs")
        ax.plot(x, [max(row[1], 0.5) if row[1] is not None else float("nan") for _, _, row, _ in data], "o:",
                alpha=0.6, label="paper doc_smith")
        ax.set_yscale("log")
        ax.set_xticks(list(x))
        ax.set_xticklabels([n for _, n, _, _ in data], rotation=90, fontsize=7)
        ax.set_ylabel("seconds")
        ax.set_title("Figure 6: time per instance (four corners fixed)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = folder / "benoist2008_fig6_time.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        pictures.append(("Figure 6: time", path))

    used, sums = shaving_rows(store, names)
    if used:
        fig, ax1 = plt.subplots(figsize=(7, 4))
        labels = [str(v) for v in SHAVING_LIMITS]
        ax1.plot(labels, [sums[v][0] for v in SHAVING_LIMITS], "o-", color="tab:blue", label="CPU seconds")
        ax1.set_ylabel("total CPU seconds", color="tab:blue")
        ax1.set_ylim(bottom=0)
        ax2 = ax1.twinx()
        ax2.plot(labels, [sums[v][1] / 1e6 for v in SHAVING_LIMITS], "s--", color="tab:red",
                 label="decisions + probes")
        ax2.plot(labels, [sums[v][2] / 1e6 for v in SHAVING_LIMITS], "^:", color="tab:orange",
                 label="decisions")
        ax2.set_ylabel("total nodes (millions)", color="tab:red")
        ax2.set_ylim(bottom=0)
        # Both axes start at zero: a curve that only spans a few per cent must look flat.
        ax2.legend(fontsize=8, loc="center right")
        ax1.set_xlabel("shaving limit L")
        ax1.set_title(f"Figure 7: impact of shaving (sum over {used} instances)")
        fig.tight_layout()
        path = folder / "benoist2008_fig7_shaving.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        pictures.append(("Figure 7: shaving", path))
    return pictures
