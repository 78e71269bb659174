"""The board a Go viewer shows: literal setup stones, and moves with Go captures.

Viewers such as Sabaki apply Go's capture rule to every move, whatever the game: enemy groups
without liberties are removed, then the mover's own group if it has none. For Loose, Goncrete
and Disto (and Terrain Go, whose forts are no liberties while a viewer sees empty points) that
board can differ from the true one; the view export (``sgf.writer``) adds setup nodes that
correct it, and the reader checks them with this model.
"""

from typing import Dict, List, Set, Tuple

from gtp_engine.board import EMPTY
from gtp_engine.coords import Color, Point

Correction = Tuple[List[Point], List[Point], List[Point]]  # AB, AW, AE


class GoViewer:
    """A plain Go board: no rules beyond captures, no terrain, no forts."""

    def __init__(self, size: int):
        self.size = size
        self.stones: Dict[Point, Color] = {}

    def _neighbours(self, point: Point):
        row, col = point
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < self.size and 0 <= c < self.size:
                yield (r, c)

    def _group_without_liberty(self, start: Point) -> Set[Point]:
        """The group at ``start`` if it has no liberty, else an empty set."""
        color, group, todo = self.stones[start], {start}, [start]
        while todo:
            for n in self._neighbours(todo.pop()):
                if n not in self.stones:
                    return set()
                if self.stones[n] == color and n not in group:
                    group.add(n)
                    todo.append(n)
        return group

    def play(self, color: Color, point: Point) -> None:
        """Place a stone, remove enemy groups without liberties, then the own group if it has none."""
        self.stones[point] = color
        for n in self._neighbours(point):
            if self.stones.get(n) == color.opponent:
                for dead in self._group_without_liberty(n):
                    del self.stones[dead]
        for dead in self._group_without_liberty(point):
            del self.stones[dead]

    def apply(self, correction: Correction) -> None:
        """Apply setup properties (AB, AW, AE) literally."""
        black, white, empty = correction
        for point in empty:
            self.stones.pop(point, None)
        self.stones.update((p, Color.BLACK) for p in black)
        self.stones.update((p, Color.WHITE) for p in white)

    def correction_to(self, position) -> Correction:
        """The setup lists (each in reading order) that turn this board into ``position``'s."""
        black, white, empty = [], [], []
        for row in range(self.size - 1, -1, -1):
            for col in range(self.size):
                point = (row, col)
                truth = position.stone_at(point)
                if truth == self.stones.get(point, EMPTY):
                    continue
                {EMPTY: empty, Color.BLACK: black, Color.WHITE: white}[truth].append(point)
        return black, white, empty
