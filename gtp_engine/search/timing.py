"""The time manager: how long ``genmove`` may think, from the time control the controller
announced (``time_settings``, ``kgs-time_settings``, ``time_left``) or ``--time``.

The budget spreads the time left over the moves the game probably still has (about half the
empty points of the board for each player, never fewer than ``MIN_MOVES_LEFT``), so more goes
to the opening and middle game than to the end; in byo-yomi it is the period's time per stone.
A safety margin (``SAFETY_SECONDS`` plus ``SAFETY_SHARE`` of the time) covers start-up, the
pipe and the controller's own clock, so the engine never loses on time. When the previous
search found the game settled (win rate beyond ``SETTLED``), the budget shrinks by
``SETTLED_FACTOR``.
"""

from typing import Optional

MIN_MOVES_LEFT = 12        #: the fewest moves the time left is spread over
SAFETY_SECONDS = 0.3       #: kept back from every budget (start-up, pipe, controller)
SAFETY_SHARE = 0.1         #: and this share of the time a move may use
MIN_BUDGET = 0.05          #: never think less than this (a move must still be searched)
SETTLED = 0.95             #: a win rate this sure (or this unsure) means the result is settled
SETTLED_FACTOR = 0.3       #: the share of the budget a settled game gets


def moves_left(empty_points: int) -> float:
    """The own moves the game probably still has."""
    return max(MIN_MOVES_LEFT, empty_points / 2.0)


def _safe(seconds: float, available: float) -> float:
    budget = min(seconds, available) - SAFETY_SECONDS - SAFETY_SHARE * min(seconds, available)
    return max(MIN_BUDGET, budget)


def move_budget(control, left, empty_points: int, move_time: Optional[float] = None,
                last_winrate: Optional[float] = None) -> Optional[float]:
    """Seconds for the next move, or None when no clock limits it (then the settings decide).

    ``control``: ``gtp.engine.TimeControl``-like (``system`` none / absolute / byoyomi /
    canadian, ``main_time``, ``byo_yomi_time``, ``byo_yomi_stones``, ``periods``); ``left``:
    the mover's last ``time_left`` (``seconds``, ``stones``) or None (then the full main time
    is assumed left); ``move_time``: ``--time``, used when no clock is set.
    """
    system = getattr(control, "system", "none")
    if system == "none":
        return move_time
    spread = moves_left(empty_points)
    if system == "absolute":
        remaining = left.seconds if left is not None else control.main_time
        budget = _safe(remaining / spread, remaining)
    elif system == "canadian":
        if left is not None and left.stones > 0:   # in byo-yomi: the period's time per stone
            budget = _safe(left.seconds / left.stones, left.seconds)
        else:
            main = left.seconds if left is not None else control.main_time
            period = control.byo_yomi_time / max(control.byo_yomi_stones, 1)
            budget = _safe(main / spread + period, main + period)
    else:   # Japanese byo-yomi: main time, then periods of byo_yomi_time per move
        if left is not None and left.stones > 0:   # in a period: its time left
            budget = _safe(left.seconds, left.seconds)
        elif left is None and control.main_time <= 0:
            budget = _safe(control.byo_yomi_time, control.byo_yomi_time)
        else:
            main = left.seconds if left is not None else control.main_time
            budget = _safe(main / spread + control.byo_yomi_time, main + control.byo_yomi_time)
    if move_time is not None:
        budget = min(budget, move_time)
    if last_winrate is not None and (last_winrate > SETTLED or last_winrate < 1 - SETTLED):
        budget = max(MIN_BUDGET, budget * SETTLED_FACTOR)
    return budget
