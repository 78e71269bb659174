"""Reading command arguments: counts, numbers, colours, vertices. Every failure is a GtpError
with a lowercase message that quotes the input, briefly (``errors.quote``).

Numbers are what GTP means by them, written in ASCII: ``7``, ``-3``, ``6.5``, ``.5``, ``1e2``.
Python's own ``int``/``float`` also take ``7_5`` (as 75), digits of other scripts, surrounding
whitespace, ``inf`` and ``nan``; all of these are refused here.
"""

import math
import re
from typing import Optional, Sequence

from ..errors import quote
from .errors import GtpError

INTEGER = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: Longer numbers are refused before conversion (Python refuses ints of over 4300 digits).
MAX_INT_DIGITS = 18
MAX_DECIMAL_CHARS = 40


def expect(args: Sequence[str], low: int, high: Optional[int] = None, usage: str = "") -> None:
    """Refuse unless ``low <= len(args) <= high`` (``high`` None: exactly ``low``; -1: no limit).

    ``usage`` is the command's syntax, e.g. ``play COLOR VERTEX``; too many arguments are
    quoted back (briefly) so that the user sees what was not expected."""
    high = low if high is None else high
    expected = f": expected {usage}{' (no arguments)' if high == 0 else ''}" if usage else ""
    if len(args) < low:
        raise GtpError(f"wrong number of arguments{expected}")
    if 0 <= high < len(args):
        raise GtpError(f"wrong number of arguments{expected}, "
                       f"got extra {quote(' '.join(args[high:]))}")


def parse_int(text: str, what: str, low: Optional[int] = None, high: Optional[int] = None) -> int:
    """A decimal integer in ASCII digits (sign allowed), optionally within ``[low, high]``."""
    if not INTEGER.fullmatch(text):
        raise GtpError(f"{what} must be an integer (digits 0-9), not {quote(text)}")
    if len(text.lstrip("+-")) > MAX_INT_DIGITS:
        raise GtpError(f"{what} is too large: {quote(text)}")
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        if low is None:
            raise GtpError(f"{what} must be at most {high}, not {quote(text)}")
        bounds = f"at least {low}" if high is None else f"from {low} to {high}"
        raise GtpError(f"{what} must be {bounds}, not {quote(text)}")
    return value


def parse_float(text: str, what: str, low: Optional[float] = None) -> float:
    """A finite decimal number in ASCII (``6.5``, ``-2``, ``.5``, ``1e2``), optionally at least
    ``low``."""
    if not DECIMAL.fullmatch(text):
        raise GtpError(f"{what} must be a decimal number such as 6.5 (digits 0-9), "
                       f"not {quote(text)}")
    value = float(text) if len(text) <= MAX_DECIMAL_CHARS else math.inf
    if not math.isfinite(value):
        raise GtpError(f"{what} is too large or too long: {quote(text)}")
    if low is not None and value < low:
        raise GtpError(f"{what} must be at least {low:g}, not {quote(text)}")
    return value


def parse_color(text: str):
    from ..coords import Color
    return Color.parse(text)


def parse_move(text: str, size: int):
    from ..coords import parse_vertex
    return parse_vertex(text, size)


def parse_point(text: str, size: int):
    """A vertex that is not ``pass``."""
    move = parse_move(text, size)
    if move is None:
        raise GtpError(f"a point is needed here, not {quote(text)}")
    return move


def format_vertices(points) -> str:
    from ..coords import format_vertex
    return " ".join(format_vertex(p) for p in points)
