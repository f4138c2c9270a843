"""Search the half-size board with 2x2 macro pieces: :class:`MacroSolver`.

A W x H puzzle (W and H even, at least 4) is a (W/2) x (H/2) puzzle whose pieces are the
valid 2x2 blocks of :mod:`.macro`.  The search places one block per macro square in row
scan order, a quarter of the plain search's depth, so the tree has far fewer levels but
many more branches per level.  Each step looks up the blocks whose west and north macro
edges (a pair of colours each) equal the east and south edges of the placed neighbours,
then keeps those whose four tiles are all unused.  Counts, solution sets and boards are
the same as the plain engine's (a solution is a tile assignment either way).

Candidate tables (built with NumPy, searched by :func:`.macro_kernel.macro_search`):

* every macro square gets the blocks of its border class (a corner or border block
  turned to face its side of the board: :func:`.macro.turn_blocks`, or inner blocks),
  minus every block that uses a hinted tile;
* a macro square holding hints gets its own table: the blocks of its class that put each
  hinted tile on its square in its rotation (up to the tile's symmetry) and no other
  hinted tile anywhere.

Each table is sorted by the key (west pair, north pair), and one hash table maps
``(table, west pair, north pair)`` to the range of candidates, so that memory stays in
proportion to the number of blocks, whatever the number of colours.

Nodes are **macro pieces placed** (four tiles each); ``statistics["tiles_placed"]`` is
four times that.  Neither is comparable with the plain engine's node count, which also
counts the tiles of partial blocks that fail before their block is complete.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...errors import InputError
from ...model import Board, Hint, Puzzle
from ...model import tiles as T
from ..base import Engine, Limits, SliceDriver, SliceReport, StopReason, Subtree
from ..result import SearchResult, add_nodes_per_depth
from ..start import start_placements
from . import macro_kernel as MK
from .macro import MacroBlocks, macro_blocks, turn_blocks

FIRST_SLICE_NODES = 100_000
SLICE_SECONDS = 0.2
#: Candidates examined per kernel call, at most (keeps slices short when most are rejected).
WORK_PER_NODE = 64

ProgressCallback = Callable[[dict], None]


def check_macro_size(puzzle: Puzzle) -> None:
    """Raise :class:`InputError` unless the puzzle can be cut into 2x2 macro squares."""
    W, H = puzzle.width, puzzle.height
    if W % 2 or H % 2:
        raise InputError(
            f"the macro solver needs an even width and height, and this puzzle is {W}x{H} (use --solver backtrack)"
        )
    if W < 4 or H < 4:
        raise InputError(
            f"the macro solver needs a board of at least 4x4 (this one is {W}x{H}): a 2-wide board "
            "has blocks touching both opposite borders (use --solver backtrack)"
        )


def position_class(mr: int, mc: int, MW: int, MH: int) -> tuple[str, int]:
    """Block kind and clockwise quarter turns of the canonical block for macro square
    (row ``mr``, column ``mc``) of a ``MW`` x ``MH`` macro board."""
    top, bottom, left, right = mr == 0, mr == MH - 1, mc == 0, mc == MW - 1
    if top and left:
        return "corner", 0
    if top and right:
        return "corner", 1
    if bottom and right:
        return "corner", 2
    if bottom and left:
        return "corner", 3
    if top:
        return "edge", 0
    if right:
        return "edge", 1
    if bottom:
        return "edge", 2
    if left:
        return "edge", 3
    return "inner", 0


@dataclass
class MacroPlan:
    """Everything the kernel needs for one puzzle, plus what converts results back.

    Blocks of all tables are concatenated and sorted by key; ``block_tiles`` /
    ``block_rotations`` (n, 4) are in cell order TL, TR, BL, BR.  Depth ``d`` is macro
    square ``d`` (row scan); ``west[d]`` / ``north[d]`` are the neighbours' depths, or
    ``D`` (the grey sentinel) on the border.
    """

    puzzle: Puzzle
    macro_width: int
    macro_height: int
    blocks: np.ndarray
    block_tiles: np.ndarray
    block_rotations: np.ndarray
    key_start: np.ndarray
    slot_key: np.ndarray
    slot_value: np.ndarray
    bits: int
    k2: int
    base: np.ndarray
    west: np.ndarray
    north: np.ndarray
    table_of_square: list[int]
    table_sizes: list[int]
    block_counts: dict[str, int]

    @property
    def depth(self) -> int:
        return self.macro_width * self.macro_height

    def squares_of(self, macro_square: int) -> tuple[int, int, int, int]:
        """The four board squares TL, TR, BL, BR of a macro square."""
        W = self.puzzle.width
        mr, mc = divmod(macro_square, self.macro_width)
        tl = 2 * mr * W + 2 * mc
        return tl, tl + 1, tl + W, tl + W + 1

    def to_board(self, placed: np.ndarray) -> Board:
        """The ordinary board of a solution given as the block index per macro square (or of
        a partial one: the blocks of the first macro squares, with the hints)."""
        puzzle = self.puzzle
        tiles = np.full(puzzle.n_squares, -1, np.int64)
        rotations = np.zeros(puzzle.n_squares, np.int64)
        blocks = np.asarray(placed, np.int64)
        if len(blocks):
            squares = np.array([self.squares_of(m) for m in range(len(blocks))])  # (filled, 4)
            tiles[squares] = self.block_tiles[blocks]
            rotations[squares] = self.block_rotations[blocks]
        for h in puzzle.hints:  # same edges as the block's normalised rotation; show the hint's own
            tiles[h.square] = h.tile
            rotations[h.square] = h.rotation
        return Board(puzzle, tiles, rotations)


def build_macro_plan(
    puzzle: Puzzle, blocks: dict[str, MacroBlocks] | None = None, each_rotation: bool = False
) -> MacroPlan:
    """Candidate tables and per-depth arrays of the macro search (see the module doc).

    ``each_rotation``: blocks with every rotation of a symmetric tile (Eternity2Puzzles.jl's
    count); ``blocks``, when given, must have been built the same way.

    Intermediate arrays are dropped as soon as possible: on ``e2`` (4 million blocks) the
    build is the memory peak of a run.
    """
    check_macro_size(puzzle)
    W, H = puzzle.width, puzzle.height
    MW, MH = W // 2, H // 2
    D = MW * MH
    colours = np.unique(puzzle.tiles)
    if colours[0] != T.GREY:
        raise InputError("the puzzle has no grey border colour, so it has no macro blocks")
    K = len(colours)
    k2 = K * K
    blocks = macro_blocks(puzzle, each_rotation=each_rotation) if blocks is None else blocks
    block_counts = {kind: len(b) for kind, b in blocks.items()}
    tables, table_of_square = _tables(puzzle, blocks, each_rotation)
    del blocks
    table_sizes = [len(t) for t in tables]
    key_space = len(tables) * k2 * k2
    if key_space >= 2**62:
        raise InputError(f"too many colours ({K}) for the macro solver's table keys")
    if sum(table_sizes) >= 2**31:
        raise InputError(f"too many macro blocks ({sum(table_sizes):,}) for the macro solver")

    tiles = np.concatenate([t.tiles for t in tables]).astype(np.int16 if puzzle.n_tiles < 2**15 else np.int32)
    rotations = np.concatenate([t.rotations for t in tables]).astype(np.int8)
    outer = np.concatenate([t.outer for t in tables])
    which = np.concatenate([np.full(len(t), i, np.int32) for i, t in enumerate(tables)])
    del tables
    dense = np.zeros(int(colours[-1]) + 1, np.int32)  # colour -> 0..K-1 (grey stays 0)
    dense[colours] = np.arange(K, dtype=np.int32)

    def pair(sides: np.ndarray, first: int, second: int) -> np.ndarray:
        return dense[sides[:, first]] * np.int32(K) + dense[sides[:, second]]

    # pairs: north/south read left to right, east/west top to bottom (see macro.py's outer layout)
    keys = which.astype(np.int64) * (k2 * k2)  # key = (table, west pair, north pair)
    keys += pair(outer, 7, 6).astype(np.int64) * k2
    keys += pair(outer, 0, 1)
    east, south = pair(outer, 2, 3), pair(outer, 5, 4)
    del outer, which

    # within a key, blocks sorted by their tiles TL, TR, BL, BR: the blocks sharing a used
    # tile (and the tiles before it) then form one run the kernel jumps over at once
    tile_key = np.zeros(len(keys), np.uint64)
    for c in range(4):
        tile_key = (tile_key << np.uint64(16)) | tiles[:, c].astype(np.uint64)
    if puzzle.n_tiles < 2**16:
        order = np.argsort(tile_key, kind="stable")
        order = order[np.argsort(keys[order], kind="stable")]
    else:
        order = np.lexsort((tiles[:, 3], tiles[:, 2], tiles[:, 1], tiles[:, 0], keys))
    del tile_key
    keys = keys[order]
    tiles = tiles[order]
    # 16 bytes per block when tile numbers and pairs fit in 16 bits (e2: 4.3 million blocks)
    row_type = np.uint16 if puzzle.n_tiles <= 0xFFFF and k2 <= 0xFFFF else np.int32
    packed = np.empty((len(keys), 8), row_type)
    packed[:, MK.B_T0 : MK.B_T3 + 1] = tiles
    MK.fill_skips(keys, tiles, packed, np.iinfo(row_type).max)
    packed[:, MK.B_EAST] = east[order]
    packed[:, MK.B_SOUTH] = south[order]
    del east, south
    if key_space <= MK.DIRECT_LIMIT:  # direct: candidates of key k are key_start[k]:key_start[k + 1]
        bits = 0
        slot_key = slot_value = np.zeros(0, np.int64)
        key_start = np.searchsorted(keys, np.arange(key_space + 1, dtype=np.int64)).astype(np.int64)
    else:  # hashed: key -> rank among the distinct keys -> key_start[rank]:key_start[rank + 1]
        unique_keys, first = np.unique(keys, return_index=True)
        bits = MK.table_bits(len(unique_keys))
        slot_key, slot_value = MK.build_hash(unique_keys.astype(np.int64), bits)
        key_start = np.append(first, len(keys)).astype(np.int64)

    west_of = np.array([m - 1 if m % MW else D for m in range(D)] + [D], np.int64)
    north_of = np.array([m - MW if m >= MW else D for m in range(D)] + [D], np.int64)
    base = np.array([table_of_square[m] * k2 * k2 for m in range(D)], np.int64)
    return MacroPlan(
        puzzle=puzzle,
        macro_width=MW,
        macro_height=MH,
        blocks=packed,
        block_tiles=tiles,
        block_rotations=rotations[order],
        key_start=key_start,
        slot_key=slot_key,
        slot_value=slot_value,
        bits=bits,
        k2=k2,
        base=base,
        west=west_of,
        north=north_of,
        table_of_square=table_of_square,
        table_sizes=table_sizes,
        block_counts=block_counts,
    )


def _tables(
    puzzle: Puzzle, blocks: dict[str, MacroBlocks], each_rotation: bool = False
) -> tuple[list[MacroBlocks], list[int]]:
    """The candidate tables and the table of each macro square.

    One table per border class (shared by its squares) without the hinted tiles, and one
    per macro square that holds hints: the blocks with each hinted tile on its square in
    its rotation (rotations compared after normalisation, as blocks store them; exactly
    with ``each_rotation``, where a hint keeps its own rotation only), and no other hinted
    tile.
    """
    W, H = puzzle.width, puzzle.height
    MW, MH = W // 2, H // 2
    hint_map = {
        h.square: (h.tile, h.rotation if each_rotation else T.canonical_rotation(puzzle.tiles[h.tile], h.rotation))
        for h in puzzle.hints
    }
    hinted = sorted({t for t, _ in hint_map.values()})
    turned: dict[tuple[str, int], MacroBlocks] = {}

    def class_blocks(kind: str, turns: int) -> MacroBlocks:
        if (kind, turns) not in turned:
            turned[(kind, turns)] = (
                blocks[kind] if turns == 0 else turn_blocks(puzzle, blocks[kind], turns, normalise=not each_rotation)
            )
        return turned[(kind, turns)]

    tables: list[MacroBlocks] = []
    table_index: dict[object, int] = {}
    table_of_square: list[int] = []
    for m in range(MW * MH):
        mr, mc = divmod(m, MW)
        kind, turns = position_class(mr, mc, MW, MH)
        tl = 2 * mr * W + 2 * mc
        cells = (tl, tl + 1, tl + W, tl + W + 1)
        ident: tuple[str, int] = ("hinted", m) if any(sq in hint_map for sq in cells) else (kind, turns)
        if ident not in table_index:
            source = class_blocks(kind, turns)
            if ident[0] == "hinted":
                keep = np.ones(len(source), dtype=bool)
                for c, sq in enumerate(cells):
                    if sq in hint_map:
                        tile, rot = hint_map[sq]
                        keep &= (source.tiles[:, c] == tile) & (source.rotations[:, c] == rot)
                    else:
                        keep &= ~np.isin(source.tiles[:, c], hinted)
                table = MacroBlocks(kind, source.tiles[keep], source.rotations[keep], source.outer[keep])
            else:
                table = source.without_tiles(hinted) if hinted else source
            table_index[ident] = len(tables)
            tables.append(table)
        table_of_square.append(table_index[ident])
    return tables, table_of_square


class MacroSolver(Engine):
    """Exact search of the half-size board with 2x2 macro pieces, compiled with Numba.

    Parameters
    ----------
    time_limit, node_limit:
        Stop after that many seconds / macro pieces placed (``complete`` is then False).
    symmetry:
        Count each solution once per board rotation class, exactly as
        :class:`~.solver.BacktrackSolver` does (fix the lowest-numbered corner tile in the
        top-left corner, or in one of the two top corners on a rectangular board).
    each_rotation:
        Every rotation of a symmetric tile is its own placement (Eternity2Puzzles.jl's
        count), as in :class:`~.solver.BacktrackSolver`.
    order, corner:
        Accepted so that the shared ``--order`` / ``--corner`` options work: only the row
        scan from the top-left corner is implemented.
    progress:
        Called about every ``progress_interval`` seconds with a dict of statistics.

    ``nodes`` in results are macro pieces placed; ``statistics["tiles_placed"]`` is four
    times that.
    """

    name = "macro"

    def __init__(
        self,
        time_limit: float | None = None,
        node_limit: int | None = None,
        symmetry: bool = False,
        order="rowscan",
        corner: str | None = None,
        progress: ProgressCallback | None = None,
        progress_interval: float = 0.5,
        limits: Limits | None = None,
        each_rotation: bool = False,
    ):
        if not (isinstance(order, str) and order == "rowscan"):
            raise InputError(
                "the macro solver searches in row scan order only (drop --order or use --solver backtrack)"
            )
        if corner not in (None, "TL"):
            raise InputError("the macro solver starts from the top-left corner only (drop --corner)")
        self.limits = Limits.of(limits, time_limit=time_limit, node_limit=node_limit)
        self.symmetry = symmetry
        self.each_rotation = bool(each_rotation)
        self.progress = progress
        self.progress_interval = progress_interval

    # ------------------------------------------------------------------ public modes
    def plan(self, puzzle: Puzzle) -> MacroPlan:
        return build_macro_plan(puzzle, each_rotation=self.each_rotation)

    # ------------------------------------------------------------------ driver
    def split(self, puzzle: Puzzle, depth: int, start=None) -> tuple[list[Subtree], SearchResult]:
        """Every valid filling of the first ``depth`` macro squares (2x2 blocks) of the order,
        as partial boards: their subtrees partition the search, so the counts of
        ``count(puzzle, start=subtree)`` add up to the whole count (``split_result.solutions``
        is 0; ``statistics["subtrees"]`` counts them).  Not combined with ``symmetry``."""
        return self._split_at_leaves(puzzle, depth, start)

    def depth(self, puzzle: Puzzle) -> int:
        return (puzzle.width // 2) * (puzzle.height // 2)

    def _search(
        self, puzzle: Puzzle, start, limits: Limits, *, callback, collect, record, leaf: int | None = None
    ) -> SearchResult:
        """A start board's placements become hints of the puzzle searched (a macro square
        holding hints gets its own table), so the subtree below any valid partial board is
        searched, not only below whole macro squares; its solutions are boards of ``puzzle``."""
        check_macro_size(puzzle)
        owner = puzzle
        if start is not None:
            if self.symmetry:
                raise InputError("symmetry and a start board cannot be combined")
            placed = dict(puzzle.hint_map)
            placed.update(start_placements(puzzle, start))
            puzzle = puzzle.with_hints([Hint(sq, t, r) for sq, (t, r) in placed.items()])
        total = SearchResult(solver=self.name, rotations=T.rotation_convention(self.each_rotation))
        driver = self.driver(total, limits, first_budget=FIRST_SLICE_NODES, slice_seconds=SLICE_SECONDS)
        total.statistics = {
            "nodes_are": "nodes = macro pieces placed (2x2 blocks, 4 tiles each)",
            "macro_board": f"{puzzle.width // 2}x{puzzle.height // 2}",
            "tiles_placed": 0,
            "blocks_examined": 0,
            "kernel_calls": 0,
            "kernel_seconds": 0.0,
            "symmetry": bool(self.symmetry),
        }
        complete = True
        for variant in self.variants(puzzle):
            done = self._run_one(variant, callback, collect, record, driver, total, owner=owner, leaf=leaf)
            complete = complete and done
            wanted = driver.solutions_left()
            if total.stopped_by is not None or (wanted is not None and wanted <= 0):
                break
        total.complete = complete and total.stopped_by is None
        total.statistics["tiles_placed"] = 4 * total.nodes
        total.seconds = driver.elapsed()
        return total

    def _run_one(
        self,
        puzzle,
        callback,
        collect,
        record,
        driver: SliceDriver,
        total: SearchResult,
        owner: Puzzle | None = None,
        leaf: int | None = None,
    ) -> bool:
        """One search of ``puzzle`` (the puzzle or a symmetry variant); solutions are boards
        of ``owner``, the puzzle asked about.  ``leaf``: stop every branch after that many
        macro squares (a split; the kernel sees only the first ``leaf`` levels)."""
        owner = puzzle if owner is None else owner
        t_build = time.perf_counter()
        plan = build_macro_plan(puzzle, each_rotation=self.each_rotation)
        total.statistics["build_seconds"] = total.statistics.get("build_seconds", 0.0) + time.perf_counter() - t_build
        total.statistics["block_counts"] = plan.block_counts
        total.statistics["table_sizes"] = plan.table_sizes
        D = plan.depth
        if len(total.nodes_per_depth) < D:
            total.nodes_per_depth.extend([0] * (D - len(total.nodes_per_depth)))
        last = D if leaf is None else leaf
        if not 0 <= last <= D:
            raise InputError(f"split depth {leaf} outside 0..{D} (macro squares)")
        if last == 0:  # the root itself is the one subtree
            driver.add(solutions=1)
            if record:
                root = plan.to_board(np.zeros(0, np.int64))
                board = Board(owner, root.tiles, root.rotations)
                if collect:
                    total.boards.append(board)
                if callback is not None and callback(board):
                    driver.halt(StopReason.CALLBACK)
            return True
        base, west, north = plan.base[:last], plan.west[:last], plan.north[:last]
        used = np.zeros(puzzle.n_tiles, np.uint8)
        placed = np.zeros(D, np.int64)
        east = np.zeros(D + 1, np.int64)  # slot D: the grey sentinel (pair 0)
        south = np.zeros(D + 1, np.int64)
        cur = np.zeros(D + 1, np.int64)
        end = np.zeros(D + 1, np.int64)
        state = np.array([0, 1], np.int64)
        npd = np.zeros(D, np.int64)
        wanted = driver.solutions_left()
        rows = 0
        if record:
            rows = 1024 if wanted is None else max(1, min(1024, wanted))
        out = np.zeros((rows, last), np.int64)

        def run_slice(want: int) -> SliceReport:
            left = driver.solutions_left()
            npd[:] = 0
            t0 = time.perf_counter()
            nodes, solutions, written, examined, status = MK.macro_search(
                plan.blocks,
                plan.key_start,
                plan.slot_key,
                plan.slot_value,
                plan.bits,
                plan.k2,
                base,
                west,
                north,
                used,
                placed,
                east,
                south,
                cur,
                end,
                state,
                np.int64(want),
                np.int64(want * WORK_PER_NODE),
                np.int64(-1 if left is None else left),
                out,
                npd,
            )
            total.statistics["kernel_calls"] += 1
            total.statistics["kernel_seconds"] += time.perf_counter() - t0
            total.statistics["blocks_examined"] += int(examined)
            add_nodes_per_depth(total.nodes_per_depth, npd)
            boards = []
            for r in range(written):
                board = plan.to_board(out[r])
                if owner is not puzzle:  # a symmetry variant: the asked puzzle's board
                    board = Board(owner, board.tiles, board.rotations)
                boards.append(board)
            return SliceReport(
                nodes=int(nodes), solutions=int(solutions), finished=status == MK.FINISHED, boards=boards
            )

        return driver.run(run_slice, callback=callback, collect=collect)
