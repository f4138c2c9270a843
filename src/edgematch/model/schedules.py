"""Schedules: a limit per depth, such as the invalid joins a best-score search may make.

A schedule gives, for every number ``n`` of tiles on the board (hints included,
``1 .. n_squares``), the maximum *cumulative* number of invalid inner joins allowed once
``n`` tiles are placed.  The community's variants are all step functions of this kind:

* Blackwood's *break indexes* ``b1, b2, ...``: from ``b_k`` tiles on, ``k`` errors allowed
  (``breaks:201,206,211``);
* the Julia package's per-depth error limits (``julia:TARGET``, its logistic formula with
  ``K = max_score - TARGET``, ``B = 0.24``, ``M = n_squares - 32``, ``nu = 3.8``, applied from
  the middle of the board on), or any explicit list (the "slip array" style).

Accepted text forms (``--schedule``):

``N``                 N errors allowed everywhere;
``D:E,D:E,...``       from D tiles on, E errors (0 before the first pair);
``breaks:B1,B2,...``  Blackwood-style break indexes;
``julia:TARGET``      the Julia package's formula;
``blackwood``         on 16x16 boards: as an error schedule, Blackwood's break indexes of
                      his 470 board (libblackwood's JB470: ``breaks:198,204,211,217,222,
                      226,230,234,237,239``, his depths 197, 203, ... counted as tiles placed);
                      as a priority schedule, his colour-pattern bound (at least 2 sides
                      after 18 tiles rising to 119 after 161, see :func:`blackwood_pattern_bound`;
                      on a board with more hints than a starter it counts the tiles the
                      search placed, as his solver does);
``list:E1,E2,...``    one value per number of tiles (1, 2, ...), the last value extends;
a file name          a file holding any of the above (newlines count as commas).

The same forms describe the colour-priority lower bounds (minimum number of sides of the
prioritised colours placed once ``n`` tiles are on the board).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..errors import InputError


def schedule_array(
    spec,
    n_squares: int,
    *,
    max_score: int | None = None,
    what: str = "schedule",
    non_decreasing: bool = True,
    hints: int = 1,
) -> np.ndarray:
    """Values for ``0 .. n_squares`` tiles on the board (index = tiles placed); ``hints``
    places Blackwood's colour-pattern bound (``blackwood`` as a priority schedule)."""
    if spec is None:
        return np.zeros(n_squares + 1, dtype=np.int32)
    if isinstance(spec, (int, np.integer)):
        values = np.full(n_squares + 1, int(spec), dtype=np.int64)
    elif isinstance(spec, str):
        values = _parse_text(spec, n_squares, max_score, what, hints)
    else:
        values = _from_list(list(spec), n_squares, what)
    if (values < 0).any():
        raise InputError(f"{what}: values must not be negative")
    if non_decreasing and (np.diff(values) < 0).any():
        at = int(np.flatnonzero(np.diff(values) < 0)[0]) + 1
        raise InputError(f"{what}: values are cumulative and must not decrease (they do after {at} tiles)")
    return values.astype(np.int32)


def _from_list(items: Sequence, n_squares: int, what: str) -> np.ndarray:
    if not items:
        raise InputError(f"{what}: empty list")
    if len(items) > n_squares:
        raise InputError(f"{what}: {len(items)} values for a board of {n_squares} squares")
    try:
        given = [int(v) for v in items]
    except (TypeError, ValueError):
        raise InputError(f"{what}: values must be integers") from None
    values = np.empty(n_squares + 1, dtype=np.int64)
    values[0] = given[0]
    values[1 : len(given) + 1] = given
    values[len(given) + 1 :] = given[-1]
    return values


def _ints(text: str, what: str) -> list[int]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise InputError(f"{what}: '{text}' is not a list of integers") from None


def _parse_text(spec: str, n_squares: int, max_score: int | None, what: str, hints: int = 1) -> np.ndarray:
    text = spec.strip()
    if not _looks_like_spec(text) and Path(text).is_file():
        try:
            content = Path(text).read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read the {what} file ({exc})", text) from None
        lines = [ln.split("#", 1)[0].strip() for ln in content.splitlines()]
        joined = ",".join(ln for ln in lines if ln)
        if not joined:
            raise InputError(f"{what}: the file is empty", text)
        if re.fullmatch(r"[\d\s,;]+", joined):
            return _from_list(_ints(joined, what), n_squares, what)
        return _parse_text(joined, n_squares, max_score, what, hints)
    if re.fullmatch(r"\d+", text):
        return np.full(n_squares + 1, int(text), dtype=np.int64)
    if text.lower() == "blackwood":
        if n_squares != 256:
            raise InputError(f"{what}: 'blackwood' is made for 16x16 boards (this one has {n_squares} squares)")
        if what == "priority schedule":
            return blackwood_pattern_bound(hints)
        return _parse_text("breaks:" + ",".join(str(d + 1) for d in BLACKWOOD_BREAK_DEPTHS), n_squares, max_score, what)
    head, _, body = text.partition(":")
    kind = head.strip().lower()
    if kind == "breaks":
        values = np.zeros(n_squares + 1, dtype=np.int64)
        breaks = _ints(body, what)
        for b in breaks:
            if not 0 <= b <= n_squares:
                raise InputError(f"{what}: break index {b} is off the board (0..{n_squares})")
            values[b:] += 1
        return values
    if kind == "julia":
        if max_score is None:
            raise InputError(f"{what}: julia:TARGET needs the puzzle's maximum score")
        target = _ints(body, what)
        if len(target) != 1:
            raise InputError(f"{what}: julia:TARGET takes one target score")
        return julia_schedule(target[0], n_squares, max_score)
    if kind == "list":
        return _from_list(_ints(body, what), n_squares, what)
    pairs = [p for p in re.split(r"[\s,;]+", text) if p]
    if pairs and all(re.fullmatch(r"\d+:\d+", p) for p in pairs):
        values = np.zeros(n_squares + 1, dtype=np.int64)
        for pair in pairs:
            depth, errors = (int(x) for x in pair.split(":"))
            if depth > n_squares:
                raise InputError(f"{what}: depth {depth} is beyond the {n_squares} squares of the board")
            values[depth:] = errors
        return values
    raise InputError(
        f"{what}: cannot read '{spec}' "
        "(use N, D:E,D:E..., breaks:B1,B2,..., julia:TARGET, blackwood, list:E1,E2,... or a file)"
    )


def _looks_like_spec(text: str) -> bool:
    return (
        bool(re.fullmatch(r"\d+", text))
        or text.lower() == "blackwood"
        or bool(re.match(r"(breaks|julia|list):", text, re.I))
        or bool(re.fullmatch(r"(\d+:\d+[\s,;]*)+", text))
    )


#: Blackwood's break depths for 470 (libblackwood's JB470): at his depth d (0-based, every
#: tile counted, the starter too) as many invalid joins are allowed as entries are <= d.
BLACKWOOD_BREAK_DEPTHS = (197, 203, 210, 216, 221, 225, 229, 233, 236, 238)


#: the starter's place in Blackwood's order (his depth of square I8): before it, his board
#: lacks the starter that ours holds from the start
BLACKWOOD_STARTER_DEPTH = 119


def blackwood_pattern_bound(hints: int = 1) -> np.ndarray:
    """Blackwood's colour-pattern bound on 16x16 (libblackwood's JB470): at his depth ``d``
    (17 .. 160) the tiles placed must carry at least ``T(d)`` sides of the pattern colours,
    a piecewise-linear ramp from 2 to 119 (of the 122 such sides of e2's colours 20, 5 and
    7); held after depth 160.  Indexed here by tiles on the board, starter included: his
    depth ``d`` holds ``d + 1`` tiles from the starter's depth on, ``d + 2`` of ours before.
    Each hint beyond the starter is on the board from the start, so the ramp moves that
    many tiles later: it counts the tiles the search placed, as in his solver (on
    e2-clues this kept the search fertile, docs/backtracking.md, "Eternity II with its
    clues")."""
    values = np.zeros(257, dtype=np.int64)
    for d in range(17, 161):
        if d == BLACKWOOD_STARTER_DEPTH:
            continue  # the starter's own square: no search node of ours sits there
        if d <= 26:
            bound = (d - 16) * 2.8
        elif d <= 56:
            bound = (d - 26) * 1.43333 + 28
        elif d <= 76:
            bound = (d - 56) * 0.9 + 71
        elif d <= 102:
            bound = (d - 76) * 0.6538 + 89
        else:
            bound = (d - 102) / 4.4615 + 106
        values[d + 2 if d < BLACKWOOD_STARTER_DEPTH else d + 1] = math.floor(bound)
    values[162:] = values[161]
    later = max(0, hints - 1)
    return np.concatenate([np.zeros(later, dtype=np.int64), values[: len(values) - later]])


def julia_schedule(target: int, n_squares: int, max_score: int) -> np.ndarray:
    """The Julia package's error limits: ``floor((K+1) / (1 + exp(-B (n - M - K)))**(1/nu))``.

    ``n`` counts tiles on the board; applied to the second half of the board only (the
    package searches the first half without errors).  On 16x16: ``M = 224``.
    """
    if not 0 <= target <= max_score:
        raise InputError(f"julia schedule: target {target} outside 0..{max_score}")
    K = max_score - target
    B, nu = 0.24, 3.8
    M = n_squares - 32
    values = np.zeros(n_squares + 1, dtype=np.int64)
    for n in range(n_squares // 2 + 1, n_squares + 1):
        values[n] = math.floor((K + 1) / (1 + math.exp(-B * (n - M - K))) ** (1 / nu))
    return np.maximum.accumulate(values)


def julia_priority_schedule(target: int, n_squares: int, required: int) -> np.ndarray:
    """The Julia package's lower bounds on prioritised sides placed (first half of the board).

    With ``R = required`` (the package: all prioritised sides + target // 10 - 54), after
    ``n`` tiles at least ``floor(clamp((R + 300) / (1 + exp(-0.02 (n + 22))) - 280, 0, R))``
    sides of the prioritised colours must be on the board, for ``n`` up to half the board;
    the bound then stays at its last value, which adds no constraint because placed sides
    never decrease.
    """
    values = np.zeros(n_squares + 1, dtype=np.int64)
    for n in range(1, n_squares // 2 + 1):
        bound = (required + 300) / (1 + math.exp(-0.02 * (n + 22))) - 280
        values[n] = math.floor(min(max(bound, 0), required))
    values[n_squares // 2 + 1 :] = values[n_squares // 2]
    return np.maximum.accumulate(values)
