"""Search engines: exact counting, solving and best-score search.

Every engine is a class configured in its constructor and offering some of
``count(puzzle)``, ``solve(puzzle, k=...)``, ``enumerate(puzzle, callback)`` and
``best(puzzle)``, each returning a :class:`~edgematch.engines.result.SearchResult`.

:data:`SOLVERS` maps the names accepted by ``--solver`` to the import path of the class,
so new engines (``colorpair``, ``cpsat``) plug in by adding one line; engines are
imported only when asked for, which keeps ``edgematch`` start-up fast.
"""

from __future__ import annotations

import importlib

from ..errors import InputError
from .result import SearchResult, board_key

#: ``--solver`` name -> "module:Class" (relative to this package).
SOLVERS: dict[str, str] = {
    "backtrack": ".backtrack.solver:BacktrackSolver",
    "colorpair": ".colorpair.solver:ColorPairSolver",
    "cpsat": ".cpsat:CpSatSolver",
    "macro": ".backtrack.macro_search:MacroSolver",
    "balanced": ".balanced.solver:BalancedSolver",
}


def solver_names() -> list[str]:
    return list(SOLVERS)


def solver_class(name: str):
    """The engine class registered under ``name``."""
    try:
        target = SOLVERS[name]
    except KeyError:
        raise InputError(f"unknown solver '{name}' (known: {', '.join(SOLVERS)})") from None
    module_name, _, class_name = target.partition(":")
    module = importlib.import_module(module_name, __package__)
    return getattr(module, class_name)


def make_solver(name: str, **options):
    """An engine instance; options the engine does not take raise :class:`InputError`."""
    cls = solver_class(name)
    try:
        return cls(**options)
    except TypeError as exc:
        raise InputError(f"solver '{name}' does not accept these options ({exc})") from None


__all__ = ["SOLVERS", "SearchResult", "board_key", "make_solver", "solver_class", "solver_names"]
