"""``Rules``: what a game is, as data plus a few hooks with neutral defaults.

A game class declares its names (the rules name of the interface, the SGF ``RU`` text, the
GoGui game id), its board-size and komi constraints, its default komi (RULES C7) and the
switches the board kernels need. Subclasses override only what is new. Nothing outside
``gtp_engine.rules`` branches on the name of a game: callers read these attributes.
"""

import math
from typing import Optional

from .. import board
from ..coords import MAX_SIZE, Color
from ..errors import RulesError, quote


def _short_number(value) -> str:
    """A number for a message: ``1e+308``, not its 309 digits as an int."""
    try:
        return f"{value:g}"
    except (TypeError, ValueError, OverflowError):
        return quote(str(value))


class Rules:
    """Standard Go's settings; every game subclasses this and overrides what differs."""

    name = "go"                      #: rules name for GTP ``variant``, SGF ``VR`` and the CLI
    sgf_ru = "Chinese"               #: human-readable SGF ``RU``
    gogui_id = "Go"                  #: ``gogui-rules_game_id``
    aliases: tuple = ()              #: other names accepted on input (lower case)
    default_komi = 7.5               #: RULES C7, for sizes without a calibrated komi
    #: the default komi by board size, calibrated by the search and self-play (docs/RESEARCH.md "Komi",
    #: ``scripts/calibrate_komi.py``); other sizes keep ``default_komi``
    calibrated_komi: dict = {}
    capture = board.CAPTURE_REMOVE   #: board switch: what a placement does to enemy groups
    scoring = board.SCORE_AREA       #: board switch: how the final position is counted
    superko = True                   #: positional superko (Go2) applies
    ends_on_annihilation = False     #: a capture that leaves the opponent no stone ends the game (G4)
    has_terrain = False              #: the game is played on a map with forts (Terrain Go)
    allows_handicap = True           #: GTP handicap commands are accepted
    playout_eyes = True              #: random play never fills its own single-point eye...
    eyes_score = True                #: ...as an eye counts for its owner at the end; where it
    #: does not (stones score, empty points nobody), ``genmove`` fills every own eye that its
    #: groups do not need for their two (``search.kernels.spare_eye``) before it passes
    has_draws = True                 #: equal scores are a draw (C8); else the L5 tie-break
    reads_ladders = True             #: the search reads ladders (its reader knows removal only)
    meals_are_dead = False           #: final_status_list reports meals as dead (Disto D4)
    min_size = 2
    default_size = 19

    @classmethod
    def default_komi_for(cls, size: int) -> float:
        """The default komi on a ``size`` board: the calibrated table, else RULES C7's."""
        return cls.calibrated_komi.get(size, cls.default_komi)

    @classmethod
    def check_size(cls, size: int) -> None:
        """Raise RulesError unless ``size`` is a board size this game allows (RULES C1)."""
        if not isinstance(size, int) or not cls.min_size <= size <= MAX_SIZE:
            raise RulesError(f"{cls.name} needs a board size from {cls.min_size} to {MAX_SIZE}, not {size}")

    @classmethod
    def check_komi(cls, komi: float) -> None:
        """Raise RulesError unless ``komi`` is finite and a multiple of 0.5 (RULES C6)."""
        cls.check_komi_is_a_number(komi)
        if komi * 2 != int(komi * 2):
            raise RulesError(f"{cls.name} komi must be a multiple of 0.5, not {komi!r}")

    @classmethod
    def nearest_komi(cls, value: float) -> float:
        """The komi these rules accept that is nearest to ``value``: a multiple of 0.5, else of
        1, else of 2 (Loose takes even integers only, C6); ``default_komi`` if none is."""
        for step in (0.5, 1.0, 2.0):
            komi = round(value / step) * step
            try:
                cls.check_komi(komi)
                return float(komi)
            except RulesError:
                continue
        return float(cls.default_komi)

    @staticmethod
    def check_komi_is_a_number(komi: float) -> None:
        """Raise RulesError unless ``komi`` is a finite number of reasonable size."""
        if not isinstance(komi, (int, float)) or not math.isfinite(komi) or abs(komi) > 1000:
            raise RulesError(f"komi must be a finite number of reasonable size, not {_short_number(komi)}")

    @classmethod
    def winner(cls, black: float, white: float, last_mover: Optional[Color]) -> Optional[Color]:
        """The winner for final scores (komi included in ``white``).

        Equal scores are a draw (None, C8), or in games without draws a loss for the player who
        made the last move, the final pass (L5); with no move at all White wins (Black would
        have passed first).
        """
        if black != white:
            return Color.BLACK if black > white else Color.WHITE
        if cls.has_draws:
            return None
        return last_mover.opponent if last_mover is not None else Color.WHITE

    def __repr__(self) -> str:
        return f"<rules {self.name}>"
