"""``MoveEffects``: what one placement did, for GTP ``last_move_info``, SGF comments and frontends."""

from dataclasses import dataclass
from typing import Tuple

from ..coords import Point


@dataclass(frozen=True)
class MoveEffects:
    """Each field is a tuple of points in reading order (top row first, left to right).

    ``captured``: enemy stones removed by a Go capture. ``flipped``: stones that changed colour
    (Loose, Goncrete). ``removed``: Goncrete's removals after the flip (G1, G2). ``meals``: the
    stones of every person that became a meal with this move (Disto), own or enemy.
    """

    captured: Tuple[Point, ...] = ()
    flipped: Tuple[Point, ...] = ()
    removed: Tuple[Point, ...] = ()
    meals: Tuple[Point, ...] = ()
