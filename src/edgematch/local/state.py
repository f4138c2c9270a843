"""A complete board held the way the local-search kernels want it, score kept incrementally.

:class:`LocalState` converts a :class:`~edgematch.model.Board` into per-square arrays
(``tile``, ``rot``, ``matched``) and back.  Local search only ever exchanges and turns
tiles, so it needs a complete board in which every tile stands on a square of its own kind
(corner, edge, inner) turned so that its grey sides face the outside;
:meth:`LocalState.from_board` checks that, turns border tiles into their fitting rotation
when only the rotation is wrong, and refuses boards that break a hint.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from ..model import EMPTY, Board, Puzzle
from ..model.squares import square_name
from .kernels import all_matches
from .tables import Tables, build_tables


class LocalState:
    """Tiles, rotations and matched sides per square of a complete board."""

    def __init__(self, puzzle: Puzzle, tile: np.ndarray, rot: np.ndarray):
        self.puzzle = puzzle
        self.tables: Tables = build_tables(puzzle)
        self.tile = np.ascontiguousarray(tile, dtype=np.int64)
        self.rot = np.ascontiguousarray(rot, dtype=np.int64)
        self.matched = np.zeros(puzzle.n_squares, dtype=np.int64)
        self.score = int(all_matches(self.tables.rotated, self.tables.neighbours, self.tile, self.rot, self.matched))

    # ------------------------------------------------------------------ conversions
    @classmethod
    def from_board(cls, board: Board) -> LocalState:
        """The state of a complete board whose tiles all stand on squares of their kind."""
        puzzle = board.puzzle
        tables = build_tables(puzzle)
        W = puzzle.width
        tile = board.tiles.astype(np.int64)
        rot = board.rotations.astype(np.int64)
        empty = np.flatnonzero(tile == EMPTY)
        if len(empty):
            raise InputError(
                f"local search needs a complete board; {len(empty)} squares are empty "
                f"(first {square_name(int(empty[0]), W)})"
            )
        if len(np.unique(tile)) != len(tile):
            raise InputError("local search needs a board that uses every tile once")
        for h in puzzle.hints:
            if tile[h.square] != h.tile:
                raise InputError(
                    f"the board breaks the hint on {square_name(h.square, W)} (tile {h.tile + 1} must stand there)"
                )
        fit = tables.fit[tile, tables.outer_mask]  # rotation bitmask per square
        for q in np.flatnonzero(fit == 0):
            raise InputError(
                f"tile {int(tile[q]) + 1} on {square_name(int(q), W)} is not a tile of that square's "
                "kind (corner, edge or inner), which local search cannot repair"
            )
        wrong = np.flatnonzero(((fit >> rot) & 1) == 0)
        for q in wrong:  # border tile turned the wrong way: turn it so grey faces outside
            rot[q] = int(np.flatnonzero((fit[q] >> np.arange(4)) & 1)[0])
        for h in puzzle.hints:
            if rot[h.square] != h.rotation and not np.array_equal(
                tables.rotated[h.tile, rot[h.square]], tables.rotated[h.tile, h.rotation]
            ):
                rot[h.square] = h.rotation
        return cls(puzzle, tile, rot)

    def to_board(self) -> Board:
        return Board(self.puzzle, self.tile.astype(np.int32), self.rot.astype(np.int8))

    def copy(self) -> LocalState:
        twin = object.__new__(LocalState)
        twin.puzzle = self.puzzle
        twin.tables = self.tables
        twin.tile = self.tile.copy()
        twin.rot = self.rot.copy()
        twin.matched = self.matched.copy()
        twin.score = self.score
        return twin

    # ------------------------------------------------------------------ facts
    def recompute_score(self) -> int:
        """The score computed from scratch (also refreshes ``matched``)."""
        t = self.tables
        self.score = int(all_matches(t.rotated, t.neighbours, self.tile, self.rot, self.matched))
        return self.score

    def violations(self) -> np.ndarray:
        """Unmatched sides of each square that face another square."""
        return self.tables.inner_sides - self.matched

    def movable_squares(self) -> np.ndarray:
        """Squares without a hint."""
        return np.flatnonzero(~self.tables.fixed)

    def __repr__(self) -> str:
        return f"<LocalState {self.puzzle.width}x{self.puzzle.height} score {self.score}/{self.puzzle.max_score}>"
