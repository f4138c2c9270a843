"""The suite runs searches serially unless a test asks for workers (``--jobs``,
``jobs=``): the default, every core, would fork worker pools for thousands of tiny
searches.  tests/test_parallel.py checks the default itself.  Nor does a search compile
a generated kernel in the background (tests/test_generated_best.py turns it on)."""

import os

os.environ.setdefault("EDGEMATCH_JOBS", "1")
os.environ.setdefault("EDGEMATCH_BACKGROUND_COMPILE", "0")

from hypothesis import settings  # noqa: E402

# Property tests draw the same examples on every run (a fresh clone has no example
# database): CI is then reproducible, and a slow example shows up here first, not in CI.
settings.register_profile("edgematch", derandomize=True)
settings.load_profile("edgematch")
