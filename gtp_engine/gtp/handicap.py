"""Where the GTP ``fixed_handicap`` stones go (GTP v2 spec, section 4.1.1).

Defined for boards of 7 and more: corners on the third line up to 12x12 and on the fourth line
from 13x13, then the sides' midpoints and the centre on odd boards. Even boards and 7x7 take at
most 4 stones, odd boards 9.
"""

from typing import List

from ..coords import Point
from ..errors import RulesError

MIN_SIZE = 7


def max_fixed_handicap(size: int) -> int:
    """How many stones ``fixed_handicap`` can place on this board (0: none)."""
    if size < MIN_SIZE:
        return 0
    return 4 if size % 2 == 0 or size == MIN_SIZE else 9


def fixed_handicap_points(size: int, stones: int) -> List[Point]:
    """The standard points for ``stones`` handicap stones; RulesError when not defined."""
    top = max_fixed_handicap(size)
    if top == 0:
        raise RulesError(f"fixed handicap needs a board of at least {MIN_SIZE}x{MIN_SIZE}")
    if not 2 <= stones <= top:
        raise RulesError(f"invalid number of handicap stones on {size}x{size}: {stones} (2 to {top})")
    low = 2 if size <= 12 else 3
    high, mid = size - 1 - low, size // 2
    corners = [(low, low), (high, high), (high, low), (low, high)]   # D4 Q16 D16 Q4 on 19x19
    sides = [(mid, low), (mid, high)]                                # D10 Q10
    columns = [(low, mid), (high, mid)]                              # K4 K16
    centre = (mid, mid)
    layouts = {
        2: corners[:2], 3: corners[:3], 4: corners,
        5: corners + [centre], 6: corners + sides, 7: corners + sides + [centre],
        8: corners + sides + columns, 9: corners + sides + columns + [centre],
    }
    return layouts[stones]
