"""Opening book: the moves that deep searches of our own chose in the first positions of a game.

In the first moves of an empty board every game meets the same few positions, and there a
search of one second cannot tell the moves apart: on the empty 9x9 Go board at komi 7.5, 11,000
simulations (one second when the book was built; about 18,000 since the tenth session's
faster kernels) give every good point 46-50% and the most visited one 17-28% of the visits, so the
choice changes with the seed (in the 1 s matches of issue 17 our first move as Black was the
centre in 5 games of 50, else the 3-3 point, a 3-4 point or the side), while 200,000 simulations
settle on the centre (61-63% of the visits with two seeds). The book holds the choices of such
deep searches, made once by ``scripts/build_book.py`` (command and budget in its docstring),
and ``genmove`` plays them without searching.

An entry is a position of a game (rules name, board size, komi) reached from the empty board by
placements alone: the stones of each colour, the player to move being the one the stone counts
say (Black when they are equal). Positions are stored once for their 8 rotations and
reflections (``canonical_key``), with the move in the frame of that stored form. The book
answers only for such positions: no set-up stones, handicap, edits, forts or Terrain Go map,
no pass and nothing taken off the board so far, and the player to move being asked.

The file is ``knowledge/book.json``: ``{"entries": {"<rules> <size> <komi>": {"<key>": {"move":
vertex, "winrate", "share", "simulations"}}}}``, the key ``"<black vertices>/<white vertices>"``
(each sorted, space-separated; ``"/"`` the empty board).
"""

import json
import logging
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, Optional, Tuple

from ..coords import Color, Move, format_vertex, parse_vertex

log = logging.getLogger(__name__)
BOOK_FILE = Path(__file__).with_name("knowledge") / "book.json"

Point = Tuple[int, int]


def transform(symmetry: int, point: Point, size: int) -> Point:
    """``point`` under symmetry 0..7 of the square board: ``symmetry // 2`` quarter turns, then
    a mirror of the columns when ``symmetry`` is odd."""
    row, col = point
    for _ in range(symmetry // 2):
        row, col = col, size - 1 - row
    if symmetry % 2:
        col = size - 1 - col
    return row, col


def inverse(symmetry: int, point: Point, size: int) -> Point:
    """The point that ``transform(symmetry, ., size)`` maps to ``point``: a reflection (odd
    ``symmetry``) undoes itself, ``k`` quarter turns are undone by ``4 - k``."""
    undo = symmetry if symmetry % 2 else 2 * ((4 - symmetry // 2) % 4)
    return transform(undo, point, size)


def position_key(black: Iterable[Point], white: Iterable[Point]) -> str:
    """The key of the position with these stones, in this frame (no symmetry applied)."""
    return (" ".join(sorted(format_vertex(p) for p in black)) + "/" +
            " ".join(sorted(format_vertex(p) for p in white)))


def keys_by_symmetry(black, white, size: int):
    """(key, symmetry) of the position under each of the 8 symmetries."""
    return [(position_key([transform(s, p, size) for p in black],
                          [transform(s, p, size) for p in white]), s) for s in range(8)]


def canonical_key(black, white, size: int) -> Tuple[str, int]:
    """The smallest key of the position's 8 symmetric forms, and a symmetry that gives it."""
    return min(keys_by_symmetry(black, white, size))


def table_name(rules_name: str, size: int, komi: float) -> str:
    """The name of the book's table for a game: rules, size and komi."""
    return f"{rules_name} {size} {float(komi):g}"


def book_stones(game, color: Color) -> Optional[Tuple[list, list]]:
    """The (black, white) stones of ``game`` when the book may answer for ``color`` there:
    the position came from the empty board by placements of alternating colours, nothing was
    taken off, and ``color`` is to move; else None."""
    if game.terrain is not None or game.setup or game.edits or game.forts:
        return None
    black, white = [], []
    for number, record in enumerate(game.moves):
        expected = Color.BLACK if number % 2 == 0 else Color.WHITE
        if record.is_pass or record.color != expected:
            return None
        (black if expected == Color.BLACK else white).append(record.point)
    if Color(color) != game.to_move:
        return None
    position = game.position
    if position.stone_count(int(Color.BLACK)) != len(black) or \
            position.stone_count(int(Color.WHITE)) != len(white):
        return None
    return black, white


class Book:
    """The book's tables (``{table name: {key: entry}}``) and lookups in them."""

    def __init__(self, tables: Dict[str, Dict[str, dict]]):
        self.tables = tables
        #: per table, the most stones of any of its positions: past that many moves a game
        #: is out of the book, and ``move`` says so without reading the game's moves
        self.depth = {name: max((len(key.replace("/", " ").split()) for key in table),
                                default=0) for name, table in tables.items()}

    @classmethod
    def load(cls, path: Path = BOOK_FILE) -> "Book":
        """The book in ``path``; an empty book (and a warning) when it is missing or broken:
        the engine then searches every move."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            tables = data["entries"]
            if not isinstance(tables, dict):
                raise ValueError("'entries' is not an object")
        except FileNotFoundError:
            return cls({})
        except (OSError, ValueError, KeyError, TypeError) as err:
            log.warning("opening book %s unreadable (%s); searching every move", path, err)
            return cls({})
        kept = {}
        for name, table in tables.items():
            if isinstance(table, dict) and all(isinstance(e, dict) for e in table.values()):
                kept[name] = table
            else:
                log.warning("opening book %s: table %r unreadable; not used", path, name)
        return cls(kept)

    def move(self, game, color: Color) -> Optional[Move]:
        """The book's move for ``color`` in ``game``, or None when the book has none (or its
        move is not legal there)."""
        name = table_name(game.rules.name, game.size, game.komi)
        table = self.tables.get(name)
        if not table or len(game.moves) > self.depth[name]:
            return None
        stones = book_stones(game, color)
        if stones is None:
            return None
        for key, symmetry in keys_by_symmetry(*stones, game.size):
            entry = table.get(key)
            if entry is None:
                continue
            try:
                stored = parse_vertex(str(entry["move"]), game.size)
            except (KeyError, ValueError) as err:
                log.warning("opening book entry %r unreadable: %s", key, err)
                return None
            if stored is None:
                return None
            move = inverse(symmetry, stored, game.size)
            if game.illegal_reason(color, move) is not None:
                return None
            return move
        return None


@lru_cache(maxsize=None)
def default_book() -> Book:
    """The book that ships with the engine (``knowledge/book.json``), read once."""
    return Book.load(BOOK_FILE)
