"""SGF value text for our own properties: points, point lists, the map parameters ``MP``.

Points are ``(row, col)`` with row 0 at the bottom (as in ``gtp_engine.coords``); SGF letters
count rows from the top; a point may also be written as a vertex (``R16``), as some programs
do. Everything raises ``ValueError`` with a short lowercase reason; the
reader adds the node and the property.
"""

from typing import Dict, Iterable, List, Optional, Tuple

from gtp_engine.coords import Point, parse_vertex

LETTERS = "abcdefghijklmnopqrstuvwxy"


def point_text(point: Point, size: int) -> str:
    """The SGF text of a point on a board of ``size`` (``(0, 0)`` on 19x19 is ``as``)."""
    row, col = point
    return LETTERS[col] + LETTERS[size - 1 - row]


def is_human_readable(raw: bytes) -> bool:
    """A point written as a vertex (``R16``, ``pass``), as SmartGo writes them and GoGui reads
    them: longer than two characters, or a letter then a digit."""
    return len(raw) > 2 or (len(raw) == 2 and raw[1:2].isdigit())


def parse_point(raw: bytes, size: int) -> Point:
    """Read one point (surrounding whitespace ignored): two letters (``pd``), or a vertex
    (``R16``, see ``is_human_readable``); ValueError for anything else or off the board."""
    if len(raw) == 2:  # the usual ``pd``, read at once (a long record has 10^5 of them)
        col, up = raw[0] - 97, raw[1] - 97
        if 0 <= col < size and 0 <= up < size:
            return (size - 1 - up, col)
    raw = raw.strip()
    if not raw:
        raise ValueError("empty point value")
    if is_human_readable(raw):
        try:
            point = parse_vertex(raw.decode("ascii"), size)
        except (UnicodeDecodeError, ValueError):
            raise ValueError(f"bad point {show(raw)}") from None
        if point is None:
            raise ValueError(f"bad point {show(raw)} (a pass is no point)")
        return point
    if len(raw) != 2 or not raw.isalpha() or not raw.islower():
        raise ValueError(f"bad point {show(raw)}")
    col = raw[0] - ord("a")
    row = size - 1 - (raw[1] - ord("a"))
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"point {show(raw)} is off the {size}x{size} board")
    return (row, col)


def parse_point_list(values: Iterable[bytes], size: int, compressed: bool = True) -> List[Point]:
    """Read a list of points in the order given; ``compressed`` allows ``aa:cc`` rectangles
    (expanded top row first). Refuses duplicates, which would hide a mistake in our own lists."""
    points: List[Point] = []
    for raw in values:
        first, colon, second = raw.partition(b":")
        if not colon:
            points.append(parse_point(raw, size))
            continue
        if not compressed:
            raise ValueError(f"compressed point list {show(raw)} not allowed here (the order matters)")
        top, left = parse_point(first, size)
        bottom, right = parse_point(second, size)
        if bottom > top or left > right:
            raise ValueError(f"bad rectangle {show(raw)}")
        points.extend((row, col) for row in range(top, bottom - 1, -1) for col in range(left, right + 1))
    if len(set(points)) != len(points):
        raise ValueError("a point is listed twice")
    return points


def show(raw, limit: int = 24) -> str:
    """A raw value (bytes or text) as one printable line for messages, cut to ``limit`` characters."""
    text = raw.decode("utf-8", "backslashreplace") if isinstance(raw, (bytes, bytearray)) else str(raw)
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit] + "..."


def format_params(params: Dict[str, Optional[str]]) -> str:
    """``MP`` text: ``key=value`` words, or the bare key when the value is None."""
    return " ".join(key if value is None else f"{key}={value}" for key, value in params.items())


def parse_params(text: str) -> List[Tuple[str, Optional[str]]]:
    """Read ``MP`` text into (key, value) pairs in order; value None for a bare word."""
    pairs = []
    for word in text.split():
        key, equals, value = word.partition("=")
        if not key or (equals and not value):
            raise ValueError(f"bad map parameter {show(word)!r}")
        pairs.append((key.lower(), value if equals else None))
    return pairs
