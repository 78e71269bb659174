"""The time control the controller announced (``time_settings``, ``kgs-time_settings``) and
the time it says is left (``time_left``): plain data, kept by the session (``engine``), set
by the commands (``core``), read by ``search.timing``."""

from dataclasses import dataclass


@dataclass(frozen=True)
class TimeControl:
    """The time system the controller announced (``time_settings``, ``kgs-time_settings``).

    ``system`` is ``none``, ``absolute``, ``byoyomi`` or ``canadian``; times in seconds.
    ``byo_yomi_stones`` is stones per period (Canadian) and ``periods`` the number of periods
    (Japanese byo-yomi). Main time 0 with byo-yomi time 0 and stones 0 means no limit (GTP).
    """

    system: str = "none"
    main_time: float = 0.0
    byo_yomi_time: float = 0.0
    byo_yomi_stones: int = 0
    periods: int = 0


@dataclass(frozen=True)
class TimeLeft:
    """The last ``time_left`` for one colour: seconds, and stones (or periods) left in byo-yomi."""

    seconds: float
    stones: int
