"""SGF for all five games: write a game record, read any Go file, round trips, the view export.

The only package that imports sgfmill. Reading guide:

- ``errors``: ``SgfError``, naming the node and the reason.
- ``encoding``: a file's bytes as UTF-8 (byte order marks, UTF-16, ``CA``, legacy charsets).
- ``values``: point and parameter text of our own properties.
- ``viewer``: the board a Go viewer (Sabaki) shows, for the view export.
- ``writer``: a ``Game`` -> an sgfmill tree, record form or view form (``WriteOptions``).
- ``reader``: an sgfmill tree -> a ``Game`` (tolerant of foreign files, strict about ours).
- ``record``: ``SgfRecord``, a loaded game that writes back everything it does not manage.
- ``read_file``: the bytes of a file, bounded by ``MAX_FILE_BYTES``; ``find_files``: the SGF
  files under folders; ``read_records``: the games of many files, the broken ones left out.

Properties (see INTERFACE.md, SGF): ``GM[1] FF[4] CA[UTF-8] AP SZ KM RU VR PB PW DT RE HA
AB AW``, moves ``B``/``W`` (pass ``B[]``), Terrain Go's ``MT WA`` (map), ``FB FW`` (forts in
placement order), ``MP[forts=N fort_value=V]`` (plus ``custom`` for a map outside the T1
defaults) and the markup ``TR`` (mountains) ``SQ`` (water) ``LB`` (forts labelled ``FB``/``FW``);
per move a comment ``C`` of what it did and ``SBKV``
(Black's win rate in percent, Sabaki's win-rate graph); ``VV[1]`` marks a view export.
"""

import logging
import os
from typing import Iterable, Iterator, List, Optional, Tuple

from gtp_engine.errors import quote_path
from gtp_engine.files import read_bounded

from .errors import SgfError
from .record import SgfRecord
from .writer import VIEW_NOTICE, WriteOptions

log = logging.getLogger(__name__)

#: The largest file ``read_file`` reads. Real records are kilobytes; big commented collections
#: a few megabytes. Anything larger (``/dev/zero``, a disk image) is refused before it is read.
MAX_FILE_BYTES = 16 * 1024 * 1024


def read_file(path) -> bytes:
    """The bytes of the regular file at ``path``, read no further than ``MAX_FILE_BYTES`` (a
    huge file ends in a quick error, not in memory exhaustion). SgfError, quoting the path, when
    the file cannot be opened, is larger, or is not a regular file (a fifo or a device is
    refused without waiting: ``gtp_engine.files.open_regular``). Every command that reads an SGF
    file a user names (``loadsgf``, ``--setup`` of ``vargo`` and ``vargo-match``, ``vargo-sgf``)
    reads it here."""
    limit = MAX_FILE_BYTES
    try:
        data = read_bounded(path, limit)
    except OSError as err:
        raise SgfError(f"cannot read {quote_path(path)}: {(err.strerror or 'unreadable').lower()}") from err
    if len(data) > limit:
        amount = f"{limit // 2 ** 20} MiB" if limit % 2 ** 20 == 0 else f"{limit} bytes"
        raise SgfError(f"cannot read {quote_path(path)}: more than {amount}, too big for an sgf file")
    return data


def find_files(folders: Iterable) -> List[str]:
    """The SGF files under ``folders``, in subfolders too, sorted: regular files named ``.sgf``
    in any case (collections of records name them ``.SGF`` as often as ``.sgf``)."""
    found = set()
    for folder in folders:
        for root, _, names in os.walk(folder):
            found.update(os.path.join(root, name) for name in names
                         if name.lower().endswith(".sgf")
                         and os.path.isfile(os.path.join(root, name)))
    return sorted(found)


def read_records(paths: Iterable) -> Iterator[Tuple[str, SgfRecord]]:
    """``(path, record)`` for each of ``paths`` (collections of records: training, books)
    whose file reads as a game; one that does not (unreadable, broken, a setting our games
    refuse) is left out with a warning naming it, and the others go on."""
    for path in paths:
        try:
            record = SgfRecord.from_bytes(read_file(path))
        except Exception as error:   # one broken record in a collection is not fatal
            log.warning("skipped %s: %s", path, error)
            continue
        yield path, record


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


__all__ = ["SgfError", "SgfRecord", "WriteOptions", "game_to_sgf", "game_from_sgf", "VIEW_NOTICE",
           "MAX_FILE_BYTES", "read_file", "find_files"]
