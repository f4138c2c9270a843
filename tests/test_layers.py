"""The architecture's one-way data flow (files -> model -> engines -> results -> storage /
pictures / CLI), checked on the import statements of src/edgematch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import edgematch

PACKAGE = Path(edgematch.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Absolute names of the edgematch modules a source file imports (anywhere in it)."""
    package = ".".join(("edgematch",) + path.relative_to(PACKAGE).with_suffix("").parts[:-1])
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.startswith("edgematch")}


@pytest.mark.parametrize("layer,forbidden", [
    ("model", ("edgematch.engines", "edgematch.cli", "edgematch.formats", "edgematch.data", "edgematch.local")),
    ("formats", ("edgematch.data.catalogue", "edgematch.engines", "edgematch.cli")),
    ("engines", ("edgematch.cli",)),
    ("local", ("edgematch.cli",)),
])
def test_lower_layers_never_import_higher_ones(layer, forbidden):
    offenders = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in imported_modules(path):
            if name.startswith(forbidden):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert offenders == []


@pytest.mark.parametrize("layer", ["model", "formats", "engines", "local", "runs", "data"])
def test_terminal_display_belongs_to_the_command_line(layer):
    """Progress lines and live displays (Rich) live in cli/; the library only reports."""
    offenders = [str(path.relative_to(PACKAGE)) for path in sorted((PACKAGE / layer).rglob("*.py"))
                 if any(isinstance(node, (ast.Import, ast.ImportFrom)) and
                        any((getattr(node, "module", None) or alias.name).startswith("rich") for alias in node.names)
                        for node in ast.walk(ast.parse(path.read_text())))]
    assert offenders == []


def test_the_checker_sees_relative_imports():
    """The scanner resolves ``from ..data import catalogue`` inside formats/ (it must, or the
    test above could not fail)."""
    probe = PACKAGE / "data" / "catalogue.py"
    assert "edgematch.formats" in imported_modules(probe)
