"""One home for the helpers every test uses.

- :mod:`support.cli`: run ``edgematch`` in-process or as the installed console script,
  interrupt a running command, write puzzles to files.
- :mod:`support.puzzles`: planted puzzles (a random grid cut into tiles) and Hypothesis
  strategies that draw them.
- :mod:`support.rotations`: rotations re-derived from the rules, sharing no code with
  ``edgematch.model.tiles``.
- :mod:`support.reference`: the independent brute-force solver and score oracle that engine
  tests compare against.
"""
