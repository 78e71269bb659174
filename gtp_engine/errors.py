"""The engine's errors: all are ``ValueError``s so callers can catch bad input in one place.

``InvalidMoveError`` is bad syntax (an unreadable vertex or colour); ``IllegalMoveError`` is a
well-formed move that the rules forbid, with a machine-readable ``reason``. Messages are
lowercase and quote the input with ``quote``, which keeps a long input short.
"""

from enum import Enum

#: Inputs longer than this are cut in messages (a GTP argument can be a megabyte).
QUOTE_LIMIT = 40
#: File paths are cut later: a real path is often longer than 40 characters and worth seeing.
PATH_QUOTE_LIMIT = 160


def quote_path(path) -> str:
    """A file path quoted for an error message (``quote`` with ``PATH_QUOTE_LIMIT``)."""
    return quote(str(path), PATH_QUOTE_LIMIT)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message, as ``repr`` does, and cut when long:
    ``'xxxx...' (1048576 characters)``, so that an answer never echoes a huge input back."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    shown = repr(text[:limit - 8])
    return f"{shown[:-1]}...{shown[-1]} ({len(text)} characters)"


class EngineError(ValueError):
    """Root of every error the engine raises for bad input."""


class InvalidMoveError(EngineError):
    """A move, vertex or colour that cannot be read."""


class RulesError(EngineError):
    """A setting the current game does not allow (board size, komi, handicap, unknown game)."""


class TerrainError(EngineError):
    """An impossible terrain setting, or a map or fort that breaks RULES T1-T3."""


class Illegal(Enum):
    """Why a move is illegal. The value is the message, and also the board kernel's code order."""

    OCCUPIED = "occupied"
    SUICIDE = "suicide"
    SUPERKO = "superko"
    NO_TRUE_LIBERTY = "no true liberty"
    FEEDS_GLUTTON = "would feed a glutton"
    MOUNTAIN = "mountain without an outside liberty"
    WATER = "water without a stone outside"
    FORT = "on a fort"
    GAME_OVER = "game over"
    FORTS_PENDING = "forts not yet placed"
    REPEATED_PASS = "pass by the player who moved last"
    OFF_BOARD = "off the board"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid; ``reason`` says which rule."""

    def __init__(self, reason: Illegal, move_text: str = ""):
        self.reason = reason
        message = f"illegal move: {move_text} ({reason.value})" if move_text else f"illegal move ({reason.value})"
        super().__init__(message)
