"""Colours, points and GTP vertices.

A point is ``(row, col)`` with ``(0, 0)`` at the lower left, as in GTP and sgfmill; a move is a
point or ``None`` for a pass. Conversion to and from text happens here, once, at the boundary.
"""

from enum import IntEnum
from typing import Optional, Tuple

from .errors import InvalidMoveError, quote

Point = Tuple[int, int]
Move = Optional[Point]

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I
MAX_SIZE = 25


class Color(IntEnum):
    """A player. The values are the board kernels' stone codes (0 is empty)."""

    BLACK = 1
    WHITE = 2

    @property
    def opponent(self) -> "Color":
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def letter(self) -> str:
        """``'b'`` or ``'w'``, as sgfmill and SGF use."""
        return "b" if self is Color.BLACK else "w"

    @property
    def word(self) -> str:
        """``'black'`` or ``'white'``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Color":
        """Read ``b``, ``w``, ``black`` or ``white`` in any case; raise InvalidMoveError otherwise."""
        t = text.lower()
        if t in ("b", "black"):
            return cls.BLACK
        if t in ("w", "white"):
            return cls.WHITE
        raise InvalidMoveError(f"invalid color: {quote(text)}")


def parse_vertex(text: str, size: int) -> Move:
    """Read a GTP vertex (``D4``, ``d4``, ``pass``) on a board of ``size``.

    Returns the point, or None for pass. Raises InvalidMoveError for anything else, including a
    vertex off the board.
    """
    t = text.strip().upper()
    if t == "PASS":
        return None
    if len(t) < 2 or t[0] not in COLUMNS or not t[1:].isdigit() or not t[1:].isascii():
        raise InvalidMoveError(f"invalid vertex: {quote(text)}")
    col = COLUMNS.index(t[0])
    row = int(t[1:]) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise InvalidMoveError(f"vertex off the board: {quote(text)}")
    return (row, col)


def format_vertex(move: Move) -> str:
    """The GTP vertex of a point (upper case), or ``pass`` for None."""
    if move is None:
        return "pass"
    row, col = move
    return f"{COLUMNS[col]}{row + 1}"


def reading_order(points):
    """Points sorted top row first, left to right (the order RULES G2 and listings use)."""
    return sorted(points, key=lambda p: (-p[0], p[1]))
