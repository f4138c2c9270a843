"""Shared helpers of the command-line tests: run ``edgematch`` in-process, write a puzzle."""

from __future__ import annotations

from edgematch.cli.main import main
from edgematch.formats import format_puzzle
from edgematch.generate import generate


def run_cli(capsys, *argv):
    """Exit status, stdout and stderr of ``edgematch ARGV`` (arguments may be paths)."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write_small_puzzle(folder):
    """A seeded 4x4 puzzle with several solutions, written in the edgematch format."""
    made = generate(4, 4, 2, 3, seed=3)
    path = folder / "p.txt"
    path.write_text(format_puzzle(made.puzzle, "edgematch"))
    return path
