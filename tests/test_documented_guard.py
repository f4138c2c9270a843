"""Drift guard: every ``edgematch COMMAND ... --option`` written in README.md or docs/*.md (and
every option in the README's table of commands) must be

(a) accepted by that command's parser (``edgematch.cli.main.build_parser``), and
(b) used by at least one test file under tests/ that also names the command,

so that a documented option that does not exist, or a newly documented option without a
test, fails.  Options mentioned in prose without a command must be accepted by some command
and be tested too.  This file itself is not counted as a test of any option.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from edgematch.cli.main import SUBCOMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-k)(?![\w-])")
COMMAND = re.compile(r"\bedgematch\s+(" + "|".join(SUBCOMMANDS) + r")\b")
# commands that are not edgematch (benchmark scripts, installation, test runners): a part of a
# code line (between `&&`, `;` or `|`) starting with one of these is not scanned
NOT_EDGEMATCH = re.compile(r"^\s*(python3?|pip|pytest|mutmut|ruff|mypy|dask|\.|source|cd|git)\b")

# (command or None, option) -> why it needs no test of its own.  Keep this short.
EXCEPTIONS: dict[tuple[str | None, str], str] = {}


def _code_pieces(text: str) -> list[str]:
    """Lines of fenced blocks (without trailing `# comments`) and inline code spans."""
    pieces = []
    for block in re.findall(r"```[^\n]*\n(.*?)```", text, re.S):
        pieces += [re.split(r"\s#\s", line)[0] for line in block.splitlines()]
    prose = re.sub(r"```[^\n]*\n.*?```", "", text, flags=re.S)
    pieces += [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]
    parts = [part for piece in pieces for part in re.split(r"&&|;|\s\|\s", piece)]
    return [part.strip() for part in parts if part.strip() and not NOT_EDGEMATCH.match(part)]


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| `edgematch ")]


@cache
def documented() -> tuple[set, set]:
    """``(with_command, loose)``: {(command, option, where)} and {(option, where)}."""
    with_command, loose = set(), set()
    for path in DOCS:
        text = path.read_text()
        where = path.relative_to(ROOT).as_posix()
        table = _table_rows(text) if path.name == "README.md" else []
        for row in table:  # every option in a row belongs to the row's command ...
            command = None
            for span in re.findall(r"`([^`]+)`", row):
                head = re.match(r"(?:edgematch\s+)?(" + "|".join(SUBCOMMANDS) + r")\b", span)
                if head:  # ... or to the command a span names (`optimize --resume RUN`)
                    command = head.group(1)
                with_command.update((command, option, where) for option in OPTION.findall(span))
        for piece in _code_pieces(text):
            if any(piece in row for row in table):
                continue
            matches = list(COMMAND.finditer(piece))
            if not matches:
                loose.update((option, where) for option in OPTION.findall(piece))
            for i, match in enumerate(matches):
                end = matches[i + 1].start() if i + 1 < len(matches) else len(piece)
                rest = piece[match.end():end]
                with_command.update((match.group(1), option, where) for option in OPTION.findall(rest))
    return with_command, loose


@cache
def accepted() -> dict[str, set[str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return {name: set(p._option_string_actions) for name, p in sub.choices.items()}


@cache
def texts_of_tests() -> dict[str, str]:
    here = Path(__file__).resolve()
    return {p.name: p.read_text() for p in (ROOT / "tests").rglob("*.py") if p.resolve() != here}


def _used(option: str, command: str | None) -> list[str]:
    quoted = re.compile(r"""["']""" + re.escape(option) + r"""(?:["'=\s])""")
    name = re.compile(r"""["']""" + command + r"""["']""") if command else None
    return [file for file, text in texts_of_tests().items()
            if quoted.search(text) and (name is None or name.search(text))]


def test_the_scan_finds_the_documented_options():
    """The scan itself works: it sees options the issue names as documented."""
    with_command, loose = documented()
    found = {(c, o) for c, o, _ in with_command}
    for pair in [("optimize", "--minutes"), ("convert", "--from"), ("show", "--numbers"), ("estimate", "--compare"),
                 ("solve", "-k"), ("info", "--list"), ("optimize", "--resume"), ("search", "--schedule"),
                 ("count", "--solver"), ("runs", "--run")]:
        assert pair in found, pair
    assert {"--kernel", "--allow-frame-errors", "--no-fill", "--priority-colours"} <= {o for o, _ in loose} | {o for _, o, _ in with_command}


def _cases():
    with_command, loose = documented()
    cases = sorted({(c, o) for c, o, _ in with_command})
    cases += sorted({(None, o) for o, _ in loose} - {(None, o) for _, o in cases})
    return cases


@pytest.mark.parametrize("command,option", _cases(), ids=lambda v: str(v))
def test_documented_option_exists_and_is_tested(command, option):
    with_command, loose = documented()
    where = sorted({w for c, o, w in with_command if (c, o) == (command, option)} |
                   {w for o, w in loose if command is None and o == option})
    if command is not None:
        assert option in accepted()[command], f"{where}: 'edgematch {command}' has no option {option}"
    else:
        assert any(option in opts for opts in accepted().values()), f"{where}: no command has {option}"
    if (command, option) in EXCEPTIONS:
        return
    assert _used(option, command), f"{where} documents {command or 'an'} {option}, but no test under tests/ uses it"
