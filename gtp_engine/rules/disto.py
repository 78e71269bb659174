"""Disto (RULES D1-D4): nothing is captured; persons without liberties are meals, and nobody
may feed an enemy glutton. The score is stones not in a meal."""

from .. import board
from .base import Rules


class Disto(Rules):
    name = "disto"
    sgf_ru = "Disto"
    gogui_id = "Disto"
    default_komi = 6.5
    #: the search's fair komi, checked by self-play on 7x7 and 9x9 (on 9x9 also against 1.5
    #: and 2 in 924 games: docs/RESEARCH.md "Komi"; 2 came out fairest, but a default never
    #: lets a game draw)
    calibrated_komi = {7: 2.5, 9: 2.5, 13: 2.5, 19: 2.5}
    capture = board.CAPTURE_MEALS
    reads_ladders = False
    scoring = board.SCORE_STONES_NOT_MEALS
    eyes_score = False       # stones score, empty points count for nobody (L4 / D4)
    superko = False          # stones are never removed, so no position can repeat
    allows_handicap = False
    meals_are_dead = True
