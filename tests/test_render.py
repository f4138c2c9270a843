"""Pictures: palette, SVG, PNG and terminal output of boards and tile sets."""

import itertools
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image
from rich.console import Console

from edgematch.errors import InputError
from edgematch.generator import generate
from edgematch.model import EMPTY, Board, Puzzle
from edgematch.render import board_png, board_svg, palette_for, tiles_png, tiles_svg
from edgematch.render.palette import (
    EMPTY_FILL,
    GREY_RGB,
    HINT_FRAME,
    MISMATCH,
    OFFICIAL_COLOURS,
    OFFICIAL_PATTERNS,
    Palette,
    difference,
    generated_colours,
    text_colour,
)
from edgematch.render.scene import board_scene, tiles_scene
from edgematch.render.terminal import (
    board_ansi,
    board_renderable,
    board_text,
    render_to_string,
    tiles_renderable,
    triangle_map,
)

SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def generated():
    return generate(5, 4, seed=7, hints="corner")


def broken_board(g):
    """The planted solution with one square turned (mismatches) and two squares emptied."""
    board = g.solution.copy()
    square = 6  # an inner square of the 5x4 board
    board.place(square, int(board.tiles[square]), (int(board.rotations[square]) + 1) % 4)
    board.remove(13)
    board.remove(18)
    assert board.mismatches()
    return board


def hexa(rgb):
    return "#{:02x}{:02x}{:02x}".format(*rgb)


# ---------------------------------------------------------------------------- palette
def test_official_palette_has_23_distinct_colours():
    assert len(OFFICIAL_COLOURS) == 23
    assert OFFICIAL_PATTERNS[0][0] == "grey"
    for (_, a), (_, b) in itertools.combinations(OFFICIAL_PATTERNS, 2):
        assert difference(a, b) > 20
    for colour in OFFICIAL_COLOURS:
        assert difference(colour, MISMATCH) > 20
        assert difference(colour, EMPTY_FILL) > 10


def test_generated_colours_are_distinct_and_deterministic():
    colours = generated_colours(60)
    assert colours == generated_colours(60)
    assert len(set(colours)) == 60
    assert generated_colours(10) == colours[:10]
    for a, b in itertools.combinations(colours[:10], 2):
        assert difference(a, b) > 20
    for colour in colours:
        assert difference(colour, MISMATCH) >= 20 and difference(colour, GREY_RGB) >= 20


def test_palette_choice():
    official = palette_for(generate(6, seed=1).puzzle)
    assert [official[c] for c in range(23)] == list(OFFICIAL_COLOURS)
    wide = generate(6, frame_colours=10, inner_colours=20, seed=1).puzzle
    palette = palette_for(wide)
    assert palette[0] == GREY_RGB
    assert max(wide.colours) > 22
    shown = [palette[c] for c in wide.colours]
    assert len(set(shown)) == len(shown)
    assert shown == generated_colours(len(shown))  # by rank among the colours present
    assert Palette.for_colours([5, 900])[900] == generated_colours(2)[1]


def test_text_colour_contrasts():
    assert text_colour((255, 222, 23)) == (0, 0, 0)
    assert text_colour((15, 25, 80)) == (255, 255, 255)


# ---------------------------------------------------------------------------- SVG
def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode())
    assert root.tag == SVG + "svg"
    return root


def test_board_svg_draws_every_triangle_in_its_colour(generated):
    board = generated.solution
    root = parse(board_svg(board, cell=40))
    polygons = root.findall(SVG + "polygon")
    assert len(polygons) == 4 * 20
    palette = palette_for(generated.puzzle)
    edges = board.edges()
    fills = [p.get("fill") for p in polygons]
    assert fills == [hexa(palette[c]) for c in edges.reshape(-1)]
    scene = board_scene(board, cell=40)
    assert (int(root.get("width")), int(root.get("height"))) == (scene.width, scene.height)


def test_board_svg_marks_mismatches_hints_and_empty_squares(generated):
    board = broken_board(generated)
    root = parse(board_svg(board, numbers=True, names=True))
    rects = root.findall(SVG + "rect")
    red = [r for r in rects if r.get("fill") == hexa(MISMATCH)]
    assert len(red) == len(board.mismatches())
    empty = [r for r in rects if r.get("fill") == hexa(EMPTY_FILL)]
    assert len(empty) == 2
    hint_frames = [r for r in rects if r.get("fill") == "none" and r.get("stroke") == hexa(HINT_FRAME)]
    assert len(hint_frames) == 1
    texts = [t.text for t in root.findall(SVG + "text")]
    assert len(texts) == 18 + 5 + 4  # piece numbers, column numbers, row letters
    assert str(int(board.tiles[0]) + 1) in texts
    assert {"A", "B", "C", "D", "1", "5"} <= set(texts)
    assert len(root.findall(SVG + "polygon")) == 4 * 18


def test_board_svg_without_marks(generated):
    root = parse(board_svg(broken_board(generated), marks=False))
    assert not [r for r in root.findall(SVG + "rect") if r.get("fill") == hexa(MISMATCH)]
    assert not [r for r in root.findall(SVG + "rect") if r.get("stroke") == hexa(HINT_FRAME)]


def test_a_solution_has_no_mismatch_marks(generated):
    root = parse(board_svg(generated.solution))
    assert not [r for r in root.findall(SVG + "rect") if r.get("fill") == hexa(MISMATCH)]


def test_non_grey_outer_side_is_marked():
    g = generate(3, seed=5)
    board = g.solution.copy()
    board.place(0, int(board.tiles[0]), (int(board.rotations[0]) + 2) % 4)  # corner turned outwards
    root = parse(board_svg(board))
    red = [r for r in root.findall(SVG + "rect") if r.get("fill") == hexa(MISMATCH)]
    assert len(red) == len(board.mismatches()) + 2


def test_tiles_svg_gallery(generated):
    puzzle = generated.puzzle
    root = parse(tiles_svg(puzzle))
    polygons = root.findall(SVG + "polygon")
    palette = palette_for(puzzle)
    assert [p.get("fill") for p in polygons] == [hexa(palette[c]) for c in puzzle.tiles.reshape(-1)]
    assert [t.text for t in root.findall(SVG + "text")] == [str(i) for i in range(1, 21)]
    wide = parse(tiles_svg(puzzle, columns=10, numbers=False))
    assert int(wide.get("width")) > int(root.get("width"))
    assert not wide.findall(SVG + "text")


def test_bad_cell_and_columns(generated):
    with pytest.raises(InputError):
        board_svg(generated.solution, cell=2)
    with pytest.raises(InputError):
        tiles_svg(generated.puzzle, columns=0)


# ---------------------------------------------------------------------------- PNG
def triangle_centre(scene, square: int, side: int) -> tuple[int, int]:
    """A pixel well inside the given triangle of a square."""
    x, y = scene.corners[square]
    c = scene.cell
    dx, dy = [(0.5, 0.17), (0.83, 0.5), (0.5, 0.83), (0.17, 0.5)][side]
    return int(x + dx * c), int(y + dy * c)


def test_board_png_colours(generated, tmp_path):
    board = broken_board(generated)
    path = tmp_path / "board.png"
    image = board_png(board, path, cell=40)
    scene = board_scene(board, cell=40)
    assert image.size == (scene.width, scene.height)
    with Image.open(path) as saved:
        assert saved.format == "PNG"
        assert saved.size == image.size
        assert saved.convert("RGB").getpixel((10, 10)) == image.getpixel((10, 10))
    palette = palette_for(board.puzzle)
    edges = board.edges()
    for square in board.placed():
        for side in range(4):
            assert image.getpixel(triangle_centre(scene, int(square), side)) == palette[edges[square, side]]
    for square in (13, 18):
        x, y = scene.corners[square]
        assert image.getpixel((int(x + 20), int(y + 20))) == EMPTY_FILL


def test_board_png_marks(generated):
    board = broken_board(generated)
    image = board_png(board, cell=40)
    scene = board_scene(board, cell=40)
    for mismatch in board.mismatches():
        x, y = scene.corners[mismatch.join.a]
        point = (x + 40, y + 20) if mismatch.join.horizontal else (x + 20, y + 40)
        assert image.getpixel((int(point[0]), int(point[1]))) == MISMATCH
    hint = generated.puzzle.hints[0]
    x, y = scene.corners[hint.square]
    assert image.getpixel((int(x + 1), int(y + 12))) == HINT_FRAME
    # without marks the same pixels show the tiles
    plain = board_png(board, cell=40, marks=False)
    m = board.mismatches()[0]
    x, y = scene.corners[m.join.a]
    point = (x + 40, y + 20) if m.join.horizontal else (x + 20, y + 40)
    assert plain.getpixel((int(point[0]), int(point[1]))) != MISMATCH


def test_board_png_with_names_is_larger(generated):
    plain = board_png(generated.solution, cell=32)
    named = board_png(generated.solution, cell=32, names=True, numbers=True)
    assert named.size[0] > plain.size[0] and named.size[1] > plain.size[1]


def test_tiles_png(generated, tmp_path):
    puzzle = generated.puzzle
    image = tiles_png(puzzle, tmp_path / "tiles.png", columns=4, numbers=False, cell=32)
    scene = tiles_scene(puzzle, columns=4, cell=32)
    assert image.size == (scene.width, scene.height)
    assert (tmp_path / "tiles.png").exists()
    palette = palette_for(puzzle)
    for index, tile in enumerate(puzzle.tiles):
        for side in range(4):
            assert image.getpixel(triangle_centre(scene, index, side)) == palette[tile[side]]


# ---------------------------------------------------------------------------- terminal
def test_triangle_map_gives_each_side_equal_area_and_turns_with_the_square():
    assert triangle_map(2) == [[0, 1], [3, 2]]
    for size in (2, 4, 6, 8):
        sides = np.array(triangle_map(size))
        assert [int((sides == s).sum()) for s in range(4)] == [size * size // 4] * 4
        # turning the square a quarter clockwise turns each side into the next
        assert np.array_equal((np.rot90(sides, -1) + 1) % 4, sides)
        if size > 2:  # the middle of the top row is north, of the right column east
            assert sides[0, size // 2] == 0 and sides[size // 2, size - 1] == 1


def test_board_ansi_shows_palette_colours(generated):
    board = generated.solution
    text = board_ansi(board, cell=3)
    palette = palette_for(board.puzzle)
    for colour in board.puzzle.colours + [0]:
        r, g, b = palette[colour]
        assert f"2;{r};{g};{b}m" in text or f"2;{r};{g};{b};" in text
    lines = ANSI.sub("", text).splitlines()
    assert len(lines) == 4 * 3
    assert all(len(line) == 5 * 6 for line in lines)
    assert "255;0;0" not in text


def test_board_ansi_marks_mismatches_and_writes_numbers(generated):
    board = broken_board(generated)
    text = board_ansi(board, numbers=True, names=True, cell=2)
    assert "2;255;0;0" in text
    plain = ANSI.sub("", text)
    assert str(int(board.tiles[0]) + 1) in plain
    assert plain.splitlines()[0].split() == ["1", "2", "3", "4", "5"]
    assert len(plain.splitlines()) == 1 + 4 * 2
    assert "2;255;0;0" not in board_ansi(board, marks=False)


def test_board_ansi_cell_one(generated):
    lines = ANSI.sub("", board_ansi(generated.solution, cell=1)).splitlines()
    assert len(lines) == 4 and all(len(line) == 10 for line in lines)


def test_plain_fallback_without_colour(generated):
    board = broken_board(generated)
    text = board_ansi(board, color_system=None)
    assert "\x1b" not in text
    assert text == board_text(board)
    console = Console(color_system=None, width=200, record=True, file=open("/dev/null", "w"))
    console.print(board_renderable(board))
    assert console.export_text() == board_text(board)


def test_board_text_layout(generated):
    board = broken_board(generated)
    text = board_text(board)
    lines = text.splitlines()
    assert len(lines) == 4 * 4 + 1
    assert len(set(map(len, lines))) == 1
    assert "!" in text
    assert "!" not in board_text(board, marks=False)
    assert lines[2].count(".") == 0 and text.count(".") == 2
    n, e, s, w = (int(c) for c in board.edges()[0])
    assert lines[1].split("|")[1].strip() == str(n)
    assert lines[2].split("|")[1].split() == [str(w), str(int(board.tiles[0]) + 1), str(e)]


def test_tiles_renderable(generated):
    puzzle = generated.puzzle
    text = render_to_string(tiles_renderable(puzzle, columns=5, cell=2))
    lines = ANSI.sub("", text).splitlines()
    assert len(lines) == 4 * 2 + 3  # 4 rows of tiles, 2 lines each, blank lines between
    assert "20" in ANSI.sub("", text)
    plain = render_to_string(tiles_renderable(puzzle), None)
    assert plain.splitlines()[0].split() == ["1:"] + [str(int(c)) for c in puzzle.tiles[0]]


def test_empty_board_renders(generated):
    board = Board(generated.puzzle)
    assert (board.tiles == EMPTY).all()
    svg = parse(board_svg(board, cell=16))
    assert svg.findall(SVG + "polygon") == []  # no tile, no triangle
    scene = board_scene(board, cell=16)
    assert board_png(board, cell=16).size == (scene.width, scene.height)
    assert "\x1b[" in board_ansi(board)
    assert board_text(board).count(".") == 20


def test_rectangular_and_large_colour_puzzle_renders():
    g = generate(7, 3, frame_colours=9, inner_colours=30, seed=3)
    board = g.solution
    image = board_png(board, cell=24)
    scene = board_scene(board, cell=24)
    palette = palette_for(g.puzzle)
    assert image.getpixel(triangle_centre(scene, 8, 0)) == palette[board.edges()[8, 0]]
    root = parse(board_svg(board, cell=24))
    assert (int(root.get("width")), int(root.get("height"))) == (scene.width, scene.height)
    assert scene.width > 2 * scene.height  # 7 columns by 3 rows
    assert len(root.findall(SVG + "polygon")) == 4 * 21
    assert "\x1b[" in board_ansi(board)
    puzzle = Puzzle(g.puzzle.tiles, 7, 3)
    assert "\x1b[" in render_to_string(tiles_renderable(puzzle))
