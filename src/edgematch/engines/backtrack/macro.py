"""2x2 macro pieces: every valid corner, edge and inner 2x2 block of a puzzle.

A macro piece is four distinct tiles, each in a rotation, standing on a 2x2 block of
squares so that the four joins inside the block match and each tile shows grey on
exactly the block's outer sides.  A search on the half-size board (one macro piece per
2x2 block) then has a quarter of the depth and many more candidates per step.

Kinds, each stored in one canonical orientation:

* ``"corner"``: the block in the top-left corner of the board (grey on the north side of
  the top row and the west side of the left column): one corner tile, two edge tiles,
  one inner tile;
* ``"edge"``: a block on the top border away from the corners (grey on the north side of
  the top row): two edge tiles above two inner tiles;
* ``"inner"``: four inner tiles, no grey.  Every rotation of an inner block is another
  inner block, and all of them are listed, since the search needs them all.

A block of another corner or border is the canonical block turned by quarter turns
(:func:`turn_blocks`), so the canonical lists count each such set of blocks once.

Tiles stand in their distinct rotations (a symmetric tile once per look, its rotation
normalised); ``each_rotation=True`` lists every rotation of a symmetric tile as its own
block, Eternity2Puzzles.jl's convention (the census always uses the distinct one).

Counting convention of the community census for the official set (5,248 corner /
292,012 edge / 4,059,952 interior blocks): see ``docs/macro-pieces.md``, and
:func:`census`, which reports our counts in the same convention.

Block layout: the four tiles in reading order ``TL, TR, BL, BR`` (squares ``(0,0),
(0,1), (1,0), (1,1)`` of the block).  ``outer`` holds the eight outer sides clockwise
from the top-left: ``TL.N, TR.N, TR.E, BR.E, BR.S, BL.S, BL.W, TL.W`` -- so that the
macro side ``k`` (N, E, S, W) is ``outer[2k:2k+2]`` read clockwise, and turning a block by
a quarter turn rolls ``outer`` by two.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ...model import Puzzle
from ...model import tiles as T

KINDS = ("corner", "edge", "inner")

#: Outer sides (N, E, S, W) of the four cells TL, TR, BL, BR of each canonical block.
TEMPLATES = {
    "corner": ((True, False, False, True), (True, False, False, False), (False, False, False, True), (False,) * 4),
    "edge": ((True, False, False, False), (True, False, False, False), (False,) * 4, (False,) * 4),
    "inner": ((False,) * 4,) * 4,
}

#: Cell of a block that each cell moves to when the block turns a quarter clockwise.
_TURN_CELL = np.array([1, 3, 0, 2])  # TL->TR, TR->BR, BL->TL, BR->BL


@dataclass
class MacroBlocks:
    """Valid 2x2 blocks of one kind, in its canonical orientation.

    ``tiles`` (n, 4) tile indices TL, TR, BL, BR; ``rotations`` (n, 4); ``outer`` (n, 8)
    colours of the outer sides clockwise from TL's north side.
    """

    kind: str
    tiles: np.ndarray
    rotations: np.ndarray
    outer: np.ndarray

    def __len__(self) -> int:
        return len(self.tiles)

    def without_tiles(self, tiles) -> MacroBlocks:
        """The blocks that use none of ``tiles`` (e.g. the hinted ones)."""
        mask = ~np.isin(self.tiles, np.asarray(list(tiles), dtype=self.tiles.dtype)).any(axis=1)
        return MacroBlocks(self.kind, self.tiles[mask], self.rotations[mask], self.outer[mask])

    def with_tile(self, tile: int) -> np.ndarray:
        """Mask of the blocks that contain ``tile``."""
        return (self.tiles == tile).any(axis=1)


def _candidates(rotated: np.ndarray, outer: tuple[bool, ...], each_rotation: bool = False) -> np.ndarray:
    """(tile, rotation) pairs, rotation among the distinct ones (any with
    ``each_rotation``), that show grey exactly on the ``outer`` sides; shape (k, 2)."""
    n = rotated.shape[0]
    # rotation r is distinct when no smaller rotation shows the same four colours
    distinct = np.ones((n, 4), dtype=bool)
    for r in range(1, 4):
        for q in range(r):
            if not each_rotation:
                distinct[:, r] &= ~(rotated[:, r] == rotated[:, q]).all(axis=1)
    border = np.ones((n, 4), dtype=bool)
    for side in range(4):
        border &= (rotated[:, :, side] == T.GREY) == outer[side]
    tiles, rots = np.nonzero(distinct & border)
    return np.stack([tiles, rots], axis=1).astype(np.int64).reshape(-1, 2)


def _index_by(cands: np.ndarray, rotated: np.ndarray, sides: tuple[int, ...], n_colours: int):
    """CSR index of candidates by the (dense) colours they show on ``sides``."""
    key = np.zeros(len(cands), dtype=np.int64)
    for s in sides:
        key = key * n_colours + rotated[cands[:, 0], cands[:, 1], s]
    n_keys = n_colours ** len(sides)
    order = np.argsort(key, kind="stable")
    start = np.searchsorted(key[order], np.arange(n_keys + 1))
    return cands[order], start.astype(np.int64)


@njit(cache=True)
def _enumerate(rot, shown, c0, c1, s1, c2, s2, c3, s3, n_colours, out_tiles, out_rots, out_outer, fill):
    """Count (fill=False) or write (fill=True) every valid block; returns the count.

    ``rot``: dense colours of every rotation, ``shown``: the original colours.
    c0: TL candidates; c1/s1: TR by W colour; c2/s2: BL by N colour; c3/s3: BR by (N, W)."""
    count = 0
    for i0 in range(c0.shape[0]):
        t0 = c0[i0, 0]
        r0 = c0[i0, 1]
        e0 = rot[t0, r0, 1]
        s0 = rot[t0, r0, 2]
        for i1 in range(s1[e0], s1[e0 + 1]):
            t1 = c1[i1, 0]
            if t1 == t0:
                continue
            r1 = c1[i1, 1]
            south1 = rot[t1, r1, 2]
            for i2 in range(s2[s0], s2[s0 + 1]):
                t2 = c2[i2, 0]
                if t2 == t0 or t2 == t1:
                    continue
                r2 = c2[i2, 1]
                key = south1 * n_colours + rot[t2, r2, 1]
                for i3 in range(s3[key], s3[key + 1]):
                    t3 = c3[i3, 0]
                    if t3 == t0 or t3 == t1 or t3 == t2:
                        continue
                    if fill:
                        out_tiles[count, 0] = t0
                        out_tiles[count, 1] = t1
                        out_tiles[count, 2] = t2
                        out_tiles[count, 3] = t3
                        out_rots[count, 0] = r0
                        out_rots[count, 1] = r1
                        out_rots[count, 2] = r2
                        r3 = c3[i3, 1]
                        out_rots[count, 3] = r3
                        # outer sides clockwise from TL's north: TL.N TR.N TR.E BR.E BR.S BL.S BL.W TL.W
                        out_outer[count, 0] = shown[t0, r0, 0]
                        out_outer[count, 1] = shown[t1, r1, 0]
                        out_outer[count, 2] = shown[t1, r1, 1]
                        out_outer[count, 3] = shown[t3, r3, 1]
                        out_outer[count, 4] = shown[t3, r3, 2]
                        out_outer[count, 5] = shown[t2, r2, 2]
                        out_outer[count, 6] = shown[t2, r2, 3]
                        out_outer[count, 7] = shown[t0, r0, 3]
                    count += 1
    return count


def _blocks_of_kind(puzzle: Puzzle, kind: str, each_rotation: bool = False) -> MacroBlocks:
    colours = np.unique(puzzle.tiles)
    dense = np.searchsorted(colours, puzzle.tiles).astype(np.int64)  # colour -> 0..K-1 (grey stays 0)
    n_colours = len(colours)
    rotated = T.rotated_table(dense)  # (n, 4, 4) dense colours
    cells = TEMPLATES[kind]
    c0 = _candidates(rotated, cells[0], each_rotation)
    c1, s1 = _index_by(_candidates(rotated, cells[1], each_rotation), rotated, (T.W,), n_colours)
    c2, s2 = _index_by(_candidates(rotated, cells[2], each_rotation), rotated, (T.N,), n_colours)
    c3, s3 = _index_by(_candidates(rotated, cells[3], each_rotation), rotated, (T.N, T.W), n_colours)
    tile_dtype = np.int16 if puzzle.n_tiles < 2**15 else np.int32
    colour_dtype = _colour_dtype(puzzle)
    shown = T.rotated_table(puzzle.tiles).astype(colour_dtype)
    args = (rotated, shown, c0, c1, s1, c2, s2, c3, s3, n_colours)
    count = _enumerate(
        *args, np.zeros((0, 4), tile_dtype), np.zeros((0, 4), np.int8), np.zeros((0, 8), colour_dtype), False
    )
    tiles = np.empty((count, 4), dtype=tile_dtype)
    rots = np.empty((count, 4), dtype=np.int8)
    outer = np.empty((count, 8), dtype=colour_dtype)
    _enumerate(*args, tiles, rots, outer, True)
    return MacroBlocks(kind, tiles, rots, outer)


def _colour_dtype(puzzle: Puzzle):
    max_colour = int(puzzle.tiles.max()) if puzzle.n_tiles else 0
    return np.uint8 if max_colour < 256 else (np.uint16 if max_colour < 65536 else np.int32)


def outer_colours(puzzle: Puzzle, tiles: np.ndarray, rotations: np.ndarray) -> np.ndarray:
    """The eight outer sides of each block, clockwise from TL's north side."""
    dtype = _colour_dtype(puzzle)
    shown = T.rotated_table(puzzle.tiles)  # (n, 4 rot, 4 sides), original colours
    t = tiles.astype(np.int64)
    r = rotations.astype(np.int64)
    N, E, S, W = T.N, T.E, T.S, T.W
    TL, TR, BL, BR = 0, 1, 2, 3
    picks = [(TL, N), (TR, N), (TR, E), (BR, E), (BR, S), (BL, S), (BL, W), (TL, W)]
    out = np.empty((len(tiles), 8), dtype=dtype)
    for k, (cell, side) in enumerate(picks):
        out[:, k] = shown[t[:, cell], r[:, cell], side]
    return out


def macro_blocks(puzzle: Puzzle, kinds=KINDS, each_rotation: bool = False) -> dict[str, MacroBlocks]:
    """Every valid 2x2 block of each kind (canonical orientation, see the module doc);
    ``each_rotation``: with every rotation of a symmetric tile, not one per look.

    Hints are ignored here (use :meth:`MacroBlocks.without_tiles` or
    :meth:`MacroBlocks.with_tile` to honour them).
    """
    result = {}
    for kind in kinds:
        if kind not in TEMPLATES:
            raise ValueError(f"unknown macro kind {kind!r} (choose from {', '.join(KINDS)})")
        result[kind] = _blocks_of_kind(puzzle, kind, each_rotation)
    return result


def turn_blocks(puzzle: Puzzle, blocks: MacroBlocks, quarter_turns: int, normalise: bool = True) -> MacroBlocks:
    """The same blocks turned clockwise by ``quarter_turns`` (each tile moves to the next
    cell and turns with it): a top-left corner block turned once fits the top-right.

    ``normalise`` gives symmetric tiles their smallest equivalent rotation, as the
    distinct lists store them; blocks listing every rotation are turned as they are."""
    q = quarter_turns % 4
    tiles, rots = blocks.tiles.copy(), blocks.rotations.copy()
    for _ in range(q):
        new_t = np.empty_like(tiles)
        new_r = np.empty_like(rots)
        new_t[:, _TURN_CELL] = tiles
        new_r[:, _TURN_CELL] = (rots + 1) % 4
        tiles, rots = new_t, new_r
    if normalise:  # rotations of symmetric tiles to the smallest equivalent one
        rots = _normalise_rotations(puzzle, tiles, rots)
    return MacroBlocks(blocks.kind, tiles, rots, outer_colours(puzzle, tiles, rots))


def _normalise_rotations(puzzle: Puzzle, tiles: np.ndarray, rots: np.ndarray) -> np.ndarray:
    smallest = T.canonical_rotation_table(puzzle.tiles)
    return smallest[tiles.astype(np.int64), rots.astype(np.int64)]


# --------------------------------------------------------------------------- census
#: The community's published census for the official Eternity II set.
PUBLISHED_E2_CENSUS = {"corner": 5_248, "edge": 292_012, "inner": 4_059_952}


def census(puzzle: Puzzle, blocks: dict[str, MacroBlocks] | None = None) -> dict[str, dict[str, int]]:
    """Block counts in several conventions (see ``docs/macro-pieces.md``).

    * ``canonical``: blocks in the one canonical orientation (top-left corner, top edge;
      inner: every rotation listed);
    * ``all_positions``: summed over the four corners / four borders (= 4 x canonical)
      and, for inner blocks, up to rotation of the block (= canonical / 4);
    * the same with the hinted tiles excluded (``*_without_hints``).
    """
    blocks = macro_blocks(puzzle) if blocks is None else blocks
    hinted = [h.tile for h in puzzle.hints]
    out = {}
    for kind, b in blocks.items():
        free = b.without_tiles(hinted) if hinted else b
        row = {"canonical": len(b), "canonical_without_hints": len(free)}
        if kind == "inner":
            row["up_to_rotation"] = len(b) // 4
            row["up_to_rotation_without_hints"] = len(free) // 4
        else:
            row["all_positions"] = 4 * len(b)
            row["all_positions_without_hints"] = 4 * len(free)
        out[kind] = row
    return out
