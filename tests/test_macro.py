"""2x2 macro pieces: census of the official set, and enumeration checked independently."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from edgematch.engines.backtrack.macro import (
    KINDS,
    PUBLISHED_E2_CENSUS,
    TEMPLATES,
    census,
    macro_blocks,
    outer_colours,
    turn_blocks,
)
from edgematch.generator import generate
from edgematch.model import Board, Puzzle
from support.rotations import normalised_rotation
from support.rotations import turned as _turned


def _plain_blocks(puzzle: Puzzle, kind: str) -> set:
    """Every valid block by nested loops, written from the rules alone."""
    tiles = [tuple(int(c) for c in t) for t in puzzle.tiles]
    cells = TEMPLATES[kind]
    options = []
    for outer in cells:
        cell = []
        for t, edges in enumerate(tiles):
            seen = set()
            for r in range(4):
                shown = _turned(edges, r)
                if shown in seen:
                    continue
                seen.add(shown)
                if all((shown[s] == 0) == outer[s] for s in range(4)):
                    cell.append((t, r, shown))
        options.append(cell)
    found = set()
    for tl in options[0]:
        for tr in options[1]:
            if tr[0] == tl[0] or tr[2][3] != tl[2][1]:
                continue
            for bl in options[2]:
                if bl[0] in (tl[0], tr[0]) or bl[2][0] != tl[2][2]:
                    continue
                for br in options[3]:
                    if br[0] in (tl[0], tr[0], bl[0]) or br[2][0] != tr[2][2] or br[2][3] != bl[2][1]:
                        continue
                    found.add(((tl[0], tl[1]), (tr[0], tr[1]), (bl[0], bl[1]), (br[0], br[1])))
    return found


def _as_set(blocks) -> set:
    return {
        tuple((int(t), int(r)) for t, r in zip(ts, rs))
        for ts, rs in zip(blocks.tiles, blocks.rotations)
    }


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("size", [(4, 4, 2, 2), (5, 5, 2, 4), (6, 4, 2, 3)])
def test_blocks_equal_plain_enumeration(size, seed):
    w, h, b, i = size
    puzzle = generate(w, h, b, i, seed=seed).puzzle
    blocks = macro_blocks(puzzle)
    for kind in KINDS:
        ours = _as_set(blocks[kind])
        assert len(ours) == len(blocks[kind]), "a block is listed twice"
        assert ours == _plain_blocks(puzzle, kind)


def test_outer_colours_and_placement_on_the_board():
    g = generate(6, 6, 2, 3, seed=11)
    puzzle = g.puzzle
    blocks = macro_blocks(puzzle)
    # canonical positions: corner at A1, edge at A3 (top border), inner at B2..C3 (rows 1-2, cols 1-2)
    origin = {"corner": (0, 0), "edge": (0, 2), "inner": (2, 2)}
    for kind, b in blocks.items():
        assert len(b) > 0
        np.testing.assert_array_equal(b.outer, outer_colours(puzzle, b.tiles, b.rotations))
        row0, col0 = origin[kind]
        for ts, rs in zip(b.tiles[:40], b.rotations[:40]):
            board = Board(puzzle)
            for cell, (t, r) in enumerate(zip(ts, rs)):
                dr, dc = divmod(cell, 2)
                board.place((row0 + dr) * puzzle.width + col0 + dc, int(t), int(r))
            assert board.verify(require_complete=False).valid


def test_turned_corner_blocks_fit_the_other_corners():
    puzzle = generate(6, 6, 2, 3, seed=5).puzzle
    corner = macro_blocks(puzzle, kinds=("corner",))["corner"]
    w, h = puzzle.width, puzzle.height
    # top-left, top-right, bottom-right, bottom-left origins of the 2x2 corner blocks
    origins = [(0, 0), (0, w - 2), (h - 2, w - 2), (h - 2, 0)]
    for q in range(4):
        turned = turn_blocks(puzzle, corner, q)
        assert len(turned) == len(corner)
        row0, col0 = origins[q]
        for ts, rs in zip(turned.tiles[:40], turned.rotations[:40]):
            board = Board(puzzle)
            for cell, (t, r) in enumerate(zip(ts, rs)):
                dr, dc = divmod(cell, 2)
                board.place((row0 + dr) * w + col0 + dc, int(t), int(r))
            assert board.verify(require_complete=False).valid
        # a quarter turn rolls the outer sides by two
        np.testing.assert_array_equal(turned.outer, np.roll(corner.outer, 2 * q, axis=1))


@pytest.mark.parametrize("seed", range(3))
def test_every_block_of_a_solution_is_listed(seed):
    g = generate(8, 6, seed=seed)
    puzzle, solution = g.puzzle, g.solution
    blocks = macro_blocks(puzzle)
    sets = {kind: _as_set(b) for kind, b in blocks.items()}
    w, h = puzzle.width, puzzle.height
    def key(sq):
        tile = int(solution.tiles[sq])
        return tile, int(solution.rotations[sq])

    def normalised(tile, r):
        return tile, normalised_rotation(puzzle.tiles[tile], r)

    for row0, col0 in itertools.product(range(0, h, 2), range(0, w, 2)):
        cells = [row0 * w + col0, row0 * w + col0 + 1, (row0 + 1) * w + col0, (row0 + 1) * w + col0 + 1]
        top, bottom, left, right = row0 == 0, row0 + 2 == h, col0 == 0, col0 + 2 == w
        n_border = top + bottom + left + right
        # turn the block (by turning the whole board) so that it sits at the canonical place
        if n_border == 0:
            kind, q = "inner", 0
        elif n_border == 2:
            kind, q = "corner", {(True, True): 0, (True, False): 3, (False, False): 2, (False, True): 1}[(top, left)]
        else:
            kind, q = "edge", {"top": 0, "right": 3, "bottom": 2, "left": 1}[
                "top" if top else "bottom" if bottom else "left" if left else "right"
            ]
        block = [key(sq) for sq in cells]
        for _ in range(q):  # a clockwise quarter turn: TL->TR, TR->BR, BL->TL, BR->BL
            tl, tr, bl, br = block
            block = [(bl[0], (bl[1] + 1) % 4), (tl[0], (tl[1] + 1) % 4), (br[0], (br[1] + 1) % 4), (tr[0], (tr[1] + 1) % 4)]
        assert tuple(normalised(t, r) for t, r in block) in sets[kind], (row0, col0, kind)


def test_e2_census_matches_the_published_one():
    import edgematch

    e2 = edgematch.load("e2")
    counts = census(e2)
    print("\n2x2 blocks of e2:", counts)
    # published convention: corners and edges summed over the four corners/borders,
    # interior blocks counted in every rotation; all 256 tiles (starter included)
    assert counts["corner"]["all_positions"] == PUBLISHED_E2_CENSUS["corner"]
    assert counts["edge"]["all_positions"] == PUBLISHED_E2_CENSUS["edge"]
    assert counts["inner"]["canonical"] == PUBLISHED_E2_CENSUS["inner"]
    assert counts["inner"]["up_to_rotation"] * 4 == counts["inner"]["canonical"]
    assert counts["corner"]["canonical_without_hints"] < counts["corner"]["canonical"]
