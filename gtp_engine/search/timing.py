"""The time manager: how long ``genmove`` may think, from the time control the controller
announced (``time_settings``, ``kgs-time_settings``, ``time_left``) or ``--time``; and the
engine's own clock (``after_move``) for controllers that never send ``time_left``.

Sudden death (absolute time, and the main time of byo-yomi and Canadian): the time left, less
a reserve (``RESERVE_SHARE`` of the main time, for quick moves if the game goes on and on), is
spread over the own moves the game probably still has,
``MOVES_SHARE`` of the empty points but never fewer than ``MIN_MOVES_LEFT``; moves while more
than ``OPENING_EMPTY`` of the board is empty get ``OPENING_FACTOR`` times that share (the
opening and middle game decide the game; the end gets what is left, which the floor of moves
left keeps from running out). In byo-yomi a move gets its period (Japanese) or the period's
time per stone left (Canadian), less the margin; in main time with byo-yomi to come, the share
of the main time plus one period's worth.

The margin: ``MARGIN_SECONDS`` and ``MARGIN_SHARE`` of what a move may use, plus ``overhead``,
what the engine measured its recent answers to come later than their budgets (the session
keeps it: under load it grows, and so does the margin). A fixed per-move margin of a third of a
second left 19x19 games at a minute a side with 32 simulations a move; the reserve is per game
instead. When the previous search found the game settled (win rate beyond ``SETTLED``), the
budget shrinks by ``SETTLED_FACTOR``, except in byo-yomi (``in_byo_yomi``), where time not
used is lost: there the search also does not stop early. A move whose two best moves stay close
at its budget may think on (``move_limit``), as Pachi does by its ``best2_ratio``.
"""

from typing import Optional

MOVES_SHARE = 0.4          #: own moves left per empty point (9x9: 32 at the start, 19x19: 144)
MIN_MOVES_LEFT = 8         #: the fewest own moves the time left is spread over
OPENING_EMPTY = 0.5        #: share of empty points above which a move gets more time
OPENING_FACTOR = 1.5
RESERVE_SHARE = 0.05       #: of the sudden-death time left, never spent
MARGIN_SECONDS = 0.05      #: kept back from every budget (pipe, controller, scheduling)
MARGIN_SHARE = 0.05        #: and this share of the time a move may use
MIN_BUDGET = 0.05          #: never think less than this (a move must still be searched)
SETTLED = 0.95             #: a win rate this sure (or this unsure) means the result is settled
SETTLED_FACTOR = 0.3       #: the share of the budget a settled game gets
EXTEND_FACTOR = 2.0        #: an unsure move may think this many times its budget
EXTEND_SHARE = 0.1         #: but never more than this share of the main time left


def moves_left(empty_points: int) -> float:
    """The own moves the game probably still has."""
    return max(MIN_MOVES_LEFT, MOVES_SHARE * empty_points)


def _within(seconds: float, available: float, overhead: float) -> float:
    """``seconds`` to think, at most ``available`` less the margin."""
    limit = available - MARGIN_SECONDS - MARGIN_SHARE * available - overhead
    return max(MIN_BUDGET, min(seconds, limit))


def _sudden_death_share(seconds_left: float, main_time: float, empty_points: int,
                        area: int) -> float:
    """The main time's share of a move: the time left above the reserve, spread."""
    usable = seconds_left - RESERVE_SHARE * max(main_time, seconds_left)
    if usable <= 0:   # down to the reserve: quick moves, as many as it takes
        return MIN_BUDGET
    share = usable / moves_left(empty_points)
    if area and empty_points > OPENING_EMPTY * area:
        share *= OPENING_FACTOR
    return share


def move_budget(control, left, empty_points: int, move_time: Optional[float] = None,
                last_winrate: Optional[float] = None, area: int = 0,
                overhead: float = 0.0) -> Optional[float]:
    """Seconds for the next move, or None when no clock limits it (then the settings decide).

    ``control``: ``gtp.engine.TimeControl``-like (``system`` none / absolute / byoyomi /
    canadian, ``main_time``, ``byo_yomi_time``, ``byo_yomi_stones``, ``periods``); ``left``:
    the mover's time left (``seconds``, ``stones``: stones left in a Canadian period, periods
    left in Japanese byo-yomi, 0 in main time) or None (then the full main time is assumed
    left); ``empty_points`` of the board's ``area`` points; ``move_time``: ``--time``, used
    when no clock is set; ``overhead``: seconds the engine's answers recently came later than
    their budgets.
    """
    system = getattr(control, "system", "none")
    if system == "none":
        return move_time
    period = control.byo_yomi_time
    if system == "absolute":
        remaining = left.seconds if left is not None else control.main_time
        share = _sudden_death_share(remaining, control.main_time, empty_points, area)
        budget = _within(share, remaining, overhead)
    elif left is not None and left.stones > 0 or left is None and control.main_time <= 0:
        # in byo-yomi: the time left of this period (a new one when none was reported)
        seconds = left.seconds if left is not None else period
        stones = left.stones if left is not None else max(control.byo_yomi_stones, 1)
        per_move = seconds / stones if system == "canadian" else seconds
        budget = _within(per_move, per_move, overhead)
    else:   # main time, byo-yomi to come: the main time's share and one move's worth of byo-yomi
        main = left.seconds if left is not None else control.main_time
        per_stone = period / max(control.byo_yomi_stones, 1) if system == "canadian" else period
        share = _sudden_death_share(main, control.main_time, empty_points, area)
        budget = _within(share + per_stone, main + per_stone, overhead)
    if move_time is not None:
        budget = min(budget, move_time)
    if last_winrate is not None and (last_winrate > SETTLED or last_winrate < 1 - SETTLED) \
            and not in_byo_yomi(control, left):
        budget = max(MIN_BUDGET, budget * SETTLED_FACTOR)
    return budget


def move_limit(control, left, budget: Optional[float], move_time: Optional[float] = None,
               overhead: float = 0.0) -> Optional[float]:
    """The most a move may think when its search stays unsure at ``budget`` (``move_budget``'s
    answer; the two best moves close, ``SearchPlayer.search``'s ``extend_to``): in sudden
    death, and in main time before byo-yomi, ``EXTEND_FACTOR`` times the budget but at most
    ``EXTEND_SHARE`` of the main time left (less the margin) and never more than ``move_time``
    (``--time``); elsewhere the budget itself (a byo-yomi period is the same for every move,
    ``--time`` alone is the user's per move, no clock has nothing to spare). Time spent here
    comes off the later moves' shares, as the clock runs down."""
    system = getattr(control, "system", "none")
    if budget is None or system == "none" or in_byo_yomi(control, left):
        return budget
    remaining = left.seconds if left is not None else control.main_time
    limit = min(budget * EXTEND_FACTOR, _within(EXTEND_SHARE * remaining, remaining, overhead))
    if move_time is not None:
        limit = min(limit, move_time)
    return max(budget, limit)


def in_byo_yomi(control, left) -> bool:
    """Whether the next move is played in a byo-yomi period, whose unused time is lost: then
    the search should use its whole budget (no early stop, no settled discount)."""
    system = getattr(control, "system", "none")
    if system not in ("byoyomi", "canadian"):
        return False
    return left.stones > 0 if left is not None else control.main_time <= 0


def after_move(control, left, elapsed: float):
    """The mover's clock after a move that took ``elapsed`` seconds, as the controller would
    keep it: ``(seconds, stones)`` as in ``move_budget``'s ``left`` (None: the full main time
    before). The session uses it until the controller sends ``time_left`` (not every one
    does); None without a clock."""
    system = getattr(control, "system", "none")
    if system == "none":
        return None
    seconds = left.seconds if left is not None else control.main_time
    stones = left.stones if left is not None else 0
    if system != "absolute" and stones == 0 and seconds <= 0:   # byo-yomi from the start
        seconds, stones = control.byo_yomi_time, _period_stones(control)
    if system == "absolute" or stones == 0:
        seconds -= elapsed
        if seconds >= 0 or system == "absolute":
            return seconds, 0
        # main time ran out during the move: the rest came out of the first period
        elapsed, seconds, stones = -seconds, control.byo_yomi_time, _period_stones(control)
    if system == "canadian":
        seconds -= elapsed
        stones -= 1
        if stones <= 0:   # the period is done: a new one
            seconds, stones = control.byo_yomi_time, _period_stones(control)
        return seconds, stones
    # Japanese byo-yomi: a move within the period keeps it; each period overrun is lost
    while elapsed > seconds and stones > 0:
        elapsed -= seconds
        seconds, stones = control.byo_yomi_time, stones - 1
    return control.byo_yomi_time, max(stones, 0)


def _period_stones(control) -> int:
    """What ``time_left`` counts in byo-yomi: stones per period (Canadian), periods
    (Japanese)."""
    return max(control.byo_yomi_stones if control.system == "canadian" else control.periods, 1)
