"""The stand-in player until the search exists: a legal random move that does not fill its own
eye, or pass when there is none. Deterministic for a given ``random.Random`` state."""

import random

from ..coords import Color, Move


def choose_move(game, color: Color, rng: random.Random) -> Move:
    """A uniformly random legal placement for ``color`` that does not fill a single-point eye of
    its own (where ``rules.playout_eyes`` says so), or None (pass) when nothing else is legal.

    Game-level legality (superko, game over, forts pending) is checked for the chosen candidate
    only, in random order, so the cost stays near one board scan.
    """
    candidates = game.position.legal_points(color, skip_own_eyes=game.rules.playout_eyes)
    rng.shuffle(candidates)
    for point in candidates:
        if game.illegal_reason(color, point) is None:
            return point
    return None


def is_hopeless(game, color: Color) -> bool:
    """Whether ``color``, with nothing but a pass left, loses when the game is scored now: the
    random player's reason to resign when resigning is allowed."""
    winner = game.score().winner
    return winner is not None and winner != color
