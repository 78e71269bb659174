"""Loose (RULES L1-L6): groups without a true liberty flip; the score is stones on the board."""

from .. import board
from ..errors import RulesError
from .base import Rules


class Loose(Rules):
    """Loose: odd boards, even komi, no draws (the player who made the final pass loses a tie)."""

    name = "loose"
    sgf_ru = "Loose"
    gogui_id = "Loose"
    default_komi = 6
    calibrated_komi = {7: 4, 9: 6, 13: 6, 19: 6}     #: measured: docs/RESEARCH.md "Komi"
    capture = board.CAPTURE_LOOSE
    reads_ladders = False
    scoring = board.SCORE_STONES
    eyes_score = False       # stones score, empty points count for nobody (L4 / D4)
    superko = False          # nothing is ever removed, so no position can repeat
    allows_handicap = False
    has_draws = False
    min_size = 3

    @classmethod
    def check_size(cls, size: int) -> None:
        """Odd sizes from 3 to 25 only (L6)."""
        super().check_size(size)
        if size % 2 == 0:
            raise RulesError(f"loose needs an odd board size, not {size}")

    @classmethod
    def check_komi(cls, komi: float) -> None:
        """An even integer, negative allowed (L6, C6)."""
        cls.check_komi_is_a_number(komi)
        if komi != int(komi) or int(komi) % 2 != 0:
            raise RulesError(f"loose komi must be an even integer, not {komi!r}")
