"""Goncrete (RULES G1-G5): captured groups flip, then lose a stone each where that keeps the
new group whole; no superko; the game ends when a capture leaves the opponent no stone."""

from .. import board
from .base import Rules


class Goncrete(Rules):
    name = "goncrete"
    sgf_ru = "Goncrete"
    gogui_id = "Goncrete"
    capture = board.CAPTURE_FLIP_REMOVE
    reads_ladders = False
    superko = False          # finite by design (G3); the game layer still never hangs on a repeat
    ends_on_annihilation = True
    allows_handicap = False
    calibrated_komi = {7: 9.5, 9: 8.5, 13: 7.5, 19: 8.5}   #: measured: docs/RESEARCH.md "Komi"
