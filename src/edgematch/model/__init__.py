"""The puzzle model: tiles, squares, puzzles, boards, scoring and the verifier."""

from .board import EMPTY, Board, Join, Mismatch, Verification, inner_joins
from .puzzle import Hint, Puzzle, infer_size
from .squares import parse_square, square_name
from .tiles import CORNER, EDGE, GREY, INNER, E, N, S, W, rotate

__all__ = [
    "Board",
    "EMPTY",
    "Hint",
    "Join",
    "Mismatch",
    "Puzzle",
    "Verification",
    "infer_size",
    "inner_joins",
    "parse_square",
    "square_name",
    "rotate",
    "N",
    "E",
    "S",
    "W",
    "GREY",
    "CORNER",
    "EDGE",
    "INNER",
]
