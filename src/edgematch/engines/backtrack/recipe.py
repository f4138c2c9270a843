"""The default best-score search: the options a user leaves out, filled in as measured best
for the kind of board (docs/backtracking.md, "The default search").

One place for the command line (``edgematch search``) and the Python front door
(:func:`edgematch.search`), so that both run the same search when given the same options.
Options use the names of :class:`~.solver.BacktrackSolver`; None (or absent) means left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.schedules import BLACKWOOD_BREAK_DEPTHS

#: boards of at least this many squares get a best-score recipe; smaller ones, where exact
#: search is the point, a row scan and no invalid joins
RECIPE_SQUARES = 100
#: invalid joins of the general recipe's schedule (``julia:MAX-N``); on a board with more
#: hints than a starter (e2-clues) 10 are too few to complete a board within minutes, and a
#: search that stalls short of the endgame moves on to the next seed after
#: ``CLUED_RESTART_NODES`` nodes
RECIPE_INVALID_JOINS = 10
CLUED_INVALID_JOINS = 15
CLUED_RESTART_NODES = 1_000_000_000

#: Blackwood's method, filled in on Eternity II itself (the official pieces, the starter
#: alone) when order, schedule and priority are all left out: order, break indexes,
#: colour-pattern bound on e2's colours 20, 5 and 7, sorted lists
BLACKWOOD_RECIPE: dict[str, Any] = dict(
    order="blackwood",
    schedule="blackwood",
    priority_colours=[20, 5, 7],
    priority_schedule="blackwood",
    priority_first=True,
)

#: the break indexes (tiles on the board) of his method on e2-clues: his ten and two more
#: invalid joins at 241 and 243 tiles, before the endgame
CLUED_BLACKWOOD_BREAKS = (*(depth + 1 for depth in BLACKWOOD_BREAK_DEPTHS), 241, 243)

#: his method fitted to Eternity II with clue hints (e2-clues; docs/backtracking.md,
#: "Eternity II with its clues"): his order with its first three rows column by column,
#: his bound counted in tiles the search placed, ``CLUED_BLACKWOOD_BREAKS``, and a restart
#: every ``CLUED_BLACKWOOD_RESTART_NODES`` nodes, since a seed can stall for minutes short
#: of the endgame
BLACKWOOD_CLUES_RECIPE: dict[str, Any] = dict(
    BLACKWOOD_RECIPE,
    order="blackwood-clues",
    schedule="breaks:" + ",".join(map(str, CLUED_BLACKWOOD_BREAKS)),
)
CLUED_BLACKWOOD_RESTART_NODES = 2_000_000_000

#: the border squares his order fills after his last break index where his solver (as
#: libblackwood's JB470 runs it) allows no invalid join: the right column, rows B to E
BLACKWOOD_EXACT_SQUARES = "B16,C16,D16,E16"

#: every option the recipe may fill in
RECIPE_OPTIONS = (
    *BLACKWOOD_RECIPE,
    "exact_squares",
    "restart_nodes",
    "endgame",
    "save_boards",
    "polish",
)


def blackwood_recipe_applies(puzzle, options: Mapping[str, Any]) -> bool:
    """Eternity II (the official pieces, the starter or more hints), and none of the options
    of his method given."""
    from ...formats.e2dev import is_official_standard

    given = any(options.get(key) is not None and options.get(key) is not False for key in BLACKWOOD_RECIPE)
    return (
        not given
        and len(puzzle.hints) >= 1
        and puzzle.width == puzzle.height == 16
        and is_official_standard(puzzle.tiles)
    )


def default_search_options(puzzle, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the recipe's options that are left out filled in.

    On Eternity II with the starter alone: Blackwood's method (his exact squares too), the
    endgame over the last 12 squares, a second of polish and every board within 16 of the
    maximum kept; with more hints, his method fitted to them (``BLACKWOOD_CLUES_RECIPE``,
    restarts) and every board within 20 kept.  On other boards of ``RECIPE_SQUARES`` or
    more: the Julia package's path and its schedule for 10 invalid joins (15, and a
    restart every 1e9 nodes, with more hints than a starter), the endgame over the last
    16 squares, a second of polish and every board within 20 of the maximum kept.  On
    smaller boards: a row scan, no invalid joins, no endgame and no polish (the engine's
    own defaults)."""
    filled = dict(options)

    def left_out(key: str) -> bool:
        return filled.get(key) is None

    big = puzzle.n_squares >= RECIPE_SQUARES
    blackwood = big and blackwood_recipe_applies(puzzle, filled)
    clued = len(puzzle.hints) > 1  # more hints than a starter
    if blackwood:
        recipe = BLACKWOOD_CLUES_RECIPE if clued else BLACKWOOD_RECIPE
        filled.update({key: list(value) if isinstance(value, list) else value for key, value in recipe.items()})
        if left_out("exact_squares"):
            filled["exact_squares"] = BLACKWOOD_EXACT_SQUARES
        if clued and left_out("restart_nodes"):
            filled["restart_nodes"] = CLUED_BLACKWOOD_RESTART_NODES
    if left_out("order"):
        filled["order"] = "e2path" if big else "rowscan"
    if left_out("schedule") and big:
        filled["schedule"] = f"julia:{puzzle.max_score - (CLUED_INVALID_JOINS if clued else RECIPE_INVALID_JOINS)}"
        if clued and left_out("restart_nodes"):
            filled["restart_nodes"] = CLUED_RESTART_NODES
    if left_out("endgame"):
        filled["endgame"] = (12 if blackwood else 16) if big else 0
    if left_out("save_boards") and big:
        filled["save_boards"] = puzzle.max_score - (16 if blackwood and not clued else 20)
    if left_out("polish"):
        filled["polish"] = 1.0 if big and filled["endgame"] else 0.0
    return filled
