"""docs/python.md runs as written: its python blocks are executed in order in one namespace,
and each print's trailing comment is what it prints."""

from __future__ import annotations

import re
from pathlib import Path

import edgematch
from support.reference import reference_solve

DOC = Path(__file__).resolve().parent.parent / "docs" / "python.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_every_example_prints_what_its_comment_says(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    checked = 0
    for block in python_blocks():
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102 - the page's own examples
        printed = capsys.readouterr().out.splitlines()
        promised = [line.split("#", 1)[1].strip() for line in block.splitlines()
                    if line.startswith("print(") and "#" in line]
        assert printed == promised
        checked += len(promised)
    assert checked == sum(block.count("\nprint(") + block.startswith("print(") for block in python_blocks()) > 0


def test_the_figures_on_the_page_have_independent_sources():
    """16 = the brute-force reference's count of owen1-5x5; 14702 = Eternity2Puzzles.jl's
    estimate_solutions for e2 (1.47022707e4, see test_estimate); 60 = 2WH - W - H on 6x6."""
    assert len(reference_solve(edgematch.load("owen1-5x5")).solutions) == 16
    assert "# 16 True" in DOC.read_text() and "# 14702" in DOC.read_text()
    assert 2 * 6 * 6 - 6 - 6 == 60


def test_puzzles_and_boards_render_themselves_in_jupyter():
    made = edgematch.generate(4, seed=1)
    for thing in (made.puzzle, made.solution):
        svg = thing._repr_svg_()
        assert "<svg" in svg[:120] and svg.count("<polygon") == 4 * 16  # four triangles per tile
