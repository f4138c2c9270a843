"""The benchmark scripts, run from the repository root as ``python benchmarks/<script>.py``.

A package so that the tests import them as ``benchmarks.<module>`` (pytest puts the
repository root on ``sys.path``: ``pythonpath`` in ``pyproject.toml``).  The scripts import
their siblings the same way; run as a file, a script first puts the repository root on
``sys.path`` itself, so both ways of running one load the same modules.
"""
