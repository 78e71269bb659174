"""SGF for all five games: write a game record, read any Go file, round trips, the view export.

The only package that imports sgfmill. Reading guide:

- ``errors``: ``SgfError``, naming the node and the reason.
- ``values``: point and parameter text of our own properties.
- ``viewer``: the board a Go viewer (Sabaki) shows, for the view export.
- ``writer``: a ``Game`` -> an sgfmill tree, record form or view form (``WriteOptions``).
- ``reader``: an sgfmill tree -> a ``Game`` (tolerant of foreign files, strict about ours).
- ``record``: ``SgfRecord``, a loaded game that writes back everything it does not manage.

Properties (see INTERFACE.md, SGF): ``GM[1] FF[4] CA[UTF-8] AP SZ KM RU VR PB PW DT RE HA
AB AW``, moves ``B``/``W`` (pass ``B[]``), Terrain Go's ``MT WA`` (map), ``FB FW`` (forts in
placement order), ``MP[forts=N fort_value=V]`` (plus ``custom`` for a map outside the T1
defaults) and the markup ``TR`` (mountains) ``SQ`` (water) ``LB`` (forts labelled ``FB``/``FW``);
per move a comment ``C`` of what it did and ``SBKV``
(Black's win rate in percent, Sabaki's win-rate graph); ``VV[1]`` marks a view export.
"""

from typing import Optional

from .errors import SgfError
from .record import SgfRecord
from .writer import VIEW_NOTICE, WriteOptions


def game_to_sgf(game, **options) -> bytes:
    """The game as SGF bytes (UTF-8). Options: see ``WriteOptions`` (``black_name``,
    ``white_name``, ``date``, ``result``, ``end_reason``, ``view``, ``comments``,
    ``winrates``). SgfError for bad win rates; TypeError for an unknown option."""
    return SgfRecord(game).to_bytes(**options)


def game_from_sgf(data: bytes, move_number: Optional[int] = None):
    """The game of SGF data's main line, replayed through the rules.

    ``move_number`` follows GTP ``loadsgf``: the position before that move (1 is the start,
    after setup and forts); None or a number beyond the end plays the whole main line.
    SgfError (naming the node) for unreadable data, settings our games refuse, a broken map or
    fort, or an illegal move. A view export reads as the game it shows (its corrections are
    checked, then skipped).
    """
    return SgfRecord.from_bytes(data, move_number).game


__all__ = ["SgfError", "SgfRecord", "WriteOptions", "game_to_sgf", "game_from_sgf", "VIEW_NOTICE"]
