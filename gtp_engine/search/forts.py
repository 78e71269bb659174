"""Where to put a fort (RULES T2, T3, T7): the choice behind GTP ``genfort`` and ``--forts auto``.

A fort is a liability: it scores ``fort_value`` for the opponent when it ends in the opponent's
territory, and nothing for its owner. So the owner wants it where the owner will be strong and
the opponent weak. Without reading ahead, that is approximated by a score over the candidates
(empty plain points without a fort), all in whole numbers so every machine agrees:

- ``EDGE_WEIGHT`` per line away from the edge, up to the board's "fourth line" (``_line_cap``):
  a fort on the first lines is easily sealed into the opponent's territory from the centre;
- ``ENEMY_WEIGHT`` per step (Manhattan) away from the nearest opponent fort, up to half the
  board: the opponent will build strength around its own forts;
- ``OWN_WEIGHT`` per step away from the nearest own fort, up to half the board: spread forts
  claim more of the board and cannot all be lost in one fight;
- ``WATER_WEIGHT`` per water point within distance 2, counting at most ``WATER_CAP``: water
  is worth 1.5 (T5), so the area the owner builds around the fort is worth more, but a fort
  inside a lake is hard to surround for either side, so more water earns nothing more;
- ``MOUNTAIN_WEIGHT`` per mountain neighbour (a penalty): stones beside mountains are hard to
  defend (T4), so the fort is harder to protect;
- a seeded jitter below ``JITTER``, so that different seeds give different, equally sound
  set-ups; the seed is mixed with the number of forts already placed and the colour.

The highest score wins; remaining ties go to reading order (top row first, left to right). The
same map, forts, stones and seed therefore always give the same point, on every machine.
"""

from typing import Iterable, List, Optional, Sequence, Tuple

from ..board.constants import EMPTY, MOUNTAIN, PLAIN, WATER
from ..coords import Color, Point, reading_order
from ..errors import TerrainError
from ..rules.terrain_map import StableRandom, TerrainMap

EDGE_WEIGHT = 4
ENEMY_WEIGHT = 2
OWN_WEIGHT = 2
WATER_WEIGHT = 1
MOUNTAIN_WEIGHT = 2
JITTER = 4
WATER_REACH = 2
WATER_CAP = 4


def _line_cap(size: int) -> int:
    """How far from the edge still earns the edge bonus: 3 on 19x19 (the fourth line), 1 on 5x5."""
    return max(1, (size + 3) // 6)


def _distance(a: Point, b: Point) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def fort_candidates(terrain: TerrainMap, forts: Sequence[Tuple[Color, Point]],
                    occupied: Iterable[Point] = ()) -> List[Point]:
    """The points a fort may go on (T2): plain, without a fort or a stone; in reading order."""
    taken = {point for _, point in forts} | set(occupied)
    size = terrain.size
    return reading_order((row, col) for row in range(size) for col in range(size)
                         if terrain.kind_at((row, col)) == PLAIN and (row, col) not in taken)


def fort_score(terrain: TerrainMap, forts: Sequence[Tuple[Color, Point]], color: Color, point: Point) -> int:
    """The heuristic value of ``point`` for a fort of ``color`` (see the module docstring),
    without the seeded jitter."""
    size = terrain.size
    row, col = point
    reach = size // 2
    edge = min(row, col, size - 1 - row, size - 1 - col, _line_cap(size))
    enemy = min([_distance(point, p) for c, p in forts if c != color] + [reach])
    own = min([_distance(point, p) for c, p in forts if c == color] + [reach])
    water = mountains = 0
    for r in range(max(0, row - WATER_REACH), min(size, row + WATER_REACH + 1)):
        for c in range(max(0, col - WATER_REACH), min(size, col + WATER_REACH + 1)):
            distance = abs(r - row) + abs(c - col)
            kind = terrain.kind_at((r, c))
            if kind == WATER and distance <= WATER_REACH:
                water += 1
            elif kind == MOUNTAIN and distance == 1:
                mountains += 1
    return (EDGE_WEIGHT * edge + ENEMY_WEIGHT * enemy + OWN_WEIGHT * own
            + WATER_WEIGHT * min(water, WATER_CAP) - MOUNTAIN_WEIGHT * mountains)


def choose_fort_on_map(terrain: TerrainMap, forts: Sequence[Tuple[Color, Point]], color: Color,
                       seed: int = 0, occupied: Iterable[Point] = ()) -> Point:
    """The best point for ``color``'s next fort on ``terrain`` with ``forts`` placed (in
    placement order) and stones on ``occupied``. TerrainError when no point is free."""
    candidates = fort_candidates(terrain, forts, occupied)
    if not candidates:
        raise TerrainError(f"no empty plain point is left for a {Color(color).word} fort")
    rng = StableRandom(seed, len(forts), int(color))
    best: Optional[Point] = None
    best_score = None
    for point in candidates:  # reading order, and only a strictly better score replaces the best
        score = fort_score(terrain, forts, color, point) + rng.below(JITTER)
        if best_score is None or score > best_score:
            best, best_score = point, score
    return best


def choose_fort(game, color: Color, seed: int = 0) -> Point:
    """The point ``genfort`` proposes for ``color`` in ``game`` (a ``game.Game``); changes nothing.

    It does not check whose turn it is (``game.place_fort`` does). TerrainError for a game
    without terrain or when no empty plain point without a fort is left.
    """
    if game.terrain is None:
        raise TerrainError(f"{game.rules.name} has no forts")
    position = game.position
    size = game.size
    occupied = [(row, col) for row in range(size) for col in range(size)
                if position.stone_at((row, col)) != EMPTY]
    return choose_fort_on_map(game.terrain, game.forts, color, seed, occupied)


def auto_forts(game, seed: int = 0) -> List[Tuple[Color, Point]]:
    """Place every fort still due in ``game``, each side in turn (White first, T2), with
    ``choose_fort``; return what was placed. The same game and seed give the same set-up in
    every process (``--forts auto``). Nothing is placed when no fort is due."""
    placed = []
    while game.fort_turn is not None:
        color = game.fort_turn
        point = choose_fort(game, color, seed)
        game.place_fort(color, point)
        placed.append((color, point))
    return placed
