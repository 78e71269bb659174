"""ASCII diagrams for tests: positions written top row first, as in RULES.md.

``X`` is black, ``O`` white, ``.`` empty; any other capital letter marks an empty point that a
test refers to by name (``A`` is White's next move in the Goncrete examples). Spaces are ignored.
A diagram smaller than the board sits in its top-left corner (the rest is empty). Terrain maps use
``.`` plain, ``^`` mountain, ``~`` water, and ``b``/``w`` for a plain point with a fort.
"""

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from gtp_engine.coords import Color, Point, format_vertex, parse_vertex, reading_order

from reference import MOUNTAIN, PLAIN, WATER, RefBoard

STONE_LETTERS = {"X": Color.BLACK, "O": Color.WHITE}
MAP_LETTERS = {".": PLAIN, "^": MOUNTAIN, "~": WATER, "b": PLAIN, "w": PLAIN}


def _lines(text: str) -> List[str]:
    return [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]


@dataclass(frozen=True)
class Diagram:
    """A position read from text: the board size, the stones and the named marks."""

    size: int
    stones: Dict[Point, Color]
    marks: Dict[str, Point]

    def rows(self) -> List[str]:
        """Top row first, 'X', 'O' and '.' (marks read as empty), as ``Position.rows()`` gives."""
        letter = {Color.BLACK: "X", Color.WHITE: "O"}
        return ["".join(letter.get(self.stones.get((r, c)), ".") for c in range(self.size))
                for r in range(self.size - 1, -1, -1)]

    def __getitem__(self, mark: str) -> Point:
        return self.marks[mark]


def parse(text: str, size: Optional[int] = None) -> Diagram:
    """Read a diagram; ``size`` (default: the diagram's height) embeds it top-left in a larger board."""
    lines = _lines(text)
    size = len(lines) if size is None else size
    if len(lines) > size or any(len(line) > size for line in lines):
        raise ValueError(f"diagram does not fit a {size}x{size} board")
    stones, marks = {}, {}
    for i, line in enumerate(lines):
        for col, ch in enumerate(line):
            point = (size - 1 - i, col)
            if ch in STONE_LETTERS:
                stones[point] = STONE_LETTERS[ch]
            elif ch.isalpha() and ch.isupper():
                marks[ch] = point
            elif ch != ".":
                raise ValueError(f"unexpected {ch!r} in diagram")
    return Diagram(size, stones, marks)


def rows(text: str, size: Optional[int] = None) -> List[str]:
    """The rows of a diagram as ``Position.rows()`` writes them."""
    return parse(text, size).rows()


def show(board_rows: List[str]) -> str:
    """Rows as a readable block with GTP row numbers, for assertion messages."""
    size = len(board_rows)
    return "\n".join(f"{size - i:2d} {' '.join(row)}" for i, row in enumerate(board_rows))


def vertex(text: str, size: int) -> Point:
    """A GTP vertex (``C3``) as a point; never a pass."""
    point = parse_vertex(text, size)
    assert point is not None
    return point


def vertices(points) -> List[str]:
    """Points as GTP vertices in reading order, for readable comparisons."""
    return [format_vertex(p) for p in reading_order(points)]


@dataclass(frozen=True)
class Map:
    """A terrain map read from text: ``kinds`` indexed ``row*size + col``, and the forts."""

    size: int
    kinds: Tuple[int, ...]
    forts: Dict[Point, Color]

    def terrain(self) -> Dict[Point, int]:
        return {(i // self.size, i % self.size): k for i, k in enumerate(self.kinds)}


def parse_map(text: str) -> Map:
    lines = _lines(text)
    size = len(lines)
    kinds = [PLAIN] * (size * size)
    forts = {}
    for i, line in enumerate(lines):
        if len(line) != size:
            raise ValueError("a map must be square")
        for col, ch in enumerate(line):
            row = size - 1 - i
            kinds[row * size + col] = MAP_LETTERS[ch]
            if ch in "bw":
                forts[(row, col)] = Color.BLACK if ch == "b" else Color.WHITE
    return Map(size, tuple(kinds), forts)


def reference_board(text: str, capture: str, size: Optional[int] = None, terrain=None, forts=None) -> RefBoard:
    d = parse(text, size)
    return RefBoard(d.size, capture, d.stones, terrain, forts)


def _quiet_order(position, stones: Dict[Point, Color]) -> List[Point]:
    """An order in which placing ``stones`` one by one on ``position`` is legal and captures,
    flips or removes nothing (meals may form). Raises ValueError when there is none (greedy)."""
    trial = position.copy()
    left = reading_order(stones)
    order = []
    while left:
        for p in left:
            attempt = trial.copy()
            try:
                effects = attempt.play(stones[p], p)
            except ValueError:
                continue
            if not (effects.captured or effects.flipped or effects.removed):
                trial = attempt
                order.append(p)
                left.remove(p)
                break
        else:
            raise ValueError(f"cannot set up the diagram: stuck at {vertices(left)}")
    return order


def setup_position(position, text: str):
    """Place a diagram's stones on a ``Position`` (in a quiet order) and return the diagram."""
    d = parse(text, position.size)
    for p in _quiet_order(position, d.stones):
        position.play(d.stones[p], p)
    return d


def setup_game(game, text: str) -> Diagram:
    """Put a diagram's stones on a fresh ``Game`` as setup stones (SGF AB/AW: as they stand,
    so any order, and a group without a liberty stays); returns the diagram."""
    d = parse(text, game.size)
    for p in reading_order(d.stones):
        game.add_setup(d.stones[p], p)
    return d
