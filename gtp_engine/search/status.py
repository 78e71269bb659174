"""The end of a game as the search sees it: which stones are dead, alive or in seki, and the
final score without the dead stones (GTP ``final_status_list`` and ``final_score``, as GNU Go
answers them from its own reading).

In area-scored games (Go, Goncrete, Terrain Go) a stone is dead when the other side owns its
point in most playouts from the current position (``player.DEAD``); stones that live while an
empty point beside them stays nobody's belong to a seki. Disto's meals are dead by the rules
(D4); Loose has no dead stones (every stone counts, L4).
"""

from typing import List, Tuple

from ..board import Position
from ..coords import Color, reading_order
from .player import Analysis, SearchPlayer

FINAL_PLAYOUTS_PER_POINT = 20    #: playouts per point of the board for the final ownership
SEKI_NEUTRAL = 0.3               #: an empty point owned less than this is nobody's


def final_analysis(player: SearchPlayer, game) -> Analysis:
    """A search of the final position for its ownership (deterministic for the seed): the
    player's playouts per move when set, else ``FINAL_PLAYOUTS_PER_POINT`` per point."""
    playouts = player.settings.playouts or FINAL_PLAYOUTS_PER_POINT * game.size ** 2
    return player.search(game, game.to_move, playouts=playouts, early_stop=False)


def stone_status(game, analysis: Analysis) -> Tuple[List, List]:
    """(dead, seki) stones in reading order; without an analysis (games that are not
    area-scored, or over by annihilation) the rules' own dead stones (Disto's meals)."""
    if analysis is None:
        return reading_order(game.dead_stones()), []
    dead = set(SearchPlayer.dead_stones(game, analysis))
    size, position = game.size, game.position
    seki = set()
    for index, own in enumerate(analysis.ownership):
        point = (index // size, index % size)
        if position.stone_at(point) or position.fort_at(point) or abs(own) >= SEKI_NEUTRAL:
            continue
        colours = set()
        around = []
        for q in _neighbours(point, size):
            stone = position.stone_at(q)
            if stone and q not in dead:
                colours.add(stone)
                around.append(q)
        if len(colours) == 2:
            for q in around:
                seki.update(_group(position, q, size))
    return reading_order(dead), reading_order(seki - dead)


def final_score(game, dead) -> "object":
    """The game's ``Score`` with the ``dead`` stones taken off the board first."""
    if not dead:
        return game.score()
    position = _without(game, set(dead))
    from ..game import Score
    black, white = position.score_halves(game.rules.scoring, game.fort_value)
    black, white = black / 2, white / 2 + game.komi
    last = game.last_move.color if game.moves else None
    return Score(black, white, game.rules.winner(black, white, last))


def _without(game, dead) -> Position:
    """The current position without ``dead``: the map, the forts and every other stone, put
    as they stand (``Position.put``: no rule is applied, nothing is captured)."""
    size, current = game.size, game.position
    kinds = game.terrain.kinds if game.terrain is not None else None
    position = Position(size, game.rules.capture, kinds)
    for color, point in game.forts:
        position.place_fort(color, point)
    for row in range(size):
        for col in range(size):
            stone = current.stone_at((row, col))
            if stone and (row, col) not in dead:
                position.put(stone, (row, col))
    return position


def _neighbours(point, size):
    row, col = point
    for q in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
        if 0 <= q[0] < size and 0 <= q[1] < size:
            yield q


def _group(position, start, size):
    color = position.stone_at(start)
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for q in _neighbours(p, size):
            if q not in seen and position.stone_at(q) == color:
                seen.add(q)
                stack.append(q)
    return seen


__all__ = ["final_analysis", "stone_status", "final_score", "Color"]
