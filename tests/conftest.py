"""The suite runs searches serially unless a test asks for workers (``--jobs``,
``jobs=``): the default, every core, would fork worker pools for thousands of tiny
searches.  tests/test_parallel.py checks the default itself."""

import os

os.environ.setdefault("EDGEMATCH_JOBS", "1")
