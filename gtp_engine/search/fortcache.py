"""A machine-wide cache of the forts the search chose (``fortsearch.choose_fort``), so that
every process started with the same command line computes a fort once: GoGui starts the
player and then, with the same command line, the ruler (two or three processes), and a
restarted engine finds its forts at once.

An entry is named by everything that decides the choice (``fortsearch.choice_key``: the map,
the forts so far, the stones, komi, colour, seed, budget) and by ``source_stamp``, the content
of this package's sources, so a changed search never reuses an old answer. One file per entry,
``<name>.json``, holding the key itself (a collision or a damaged file is a miss) and the
point. A machine-wide lock per entry (``<name>.lock``, ``fcntl.flock``) makes the processes
that want the same fort at the same time wait for the one that computes it, then read its
answer; the lock is the operating system's, so a process that dies drops it. Entries are
written atomically (``files.write_atomically``), so a reader sees a whole entry or none.

The directory is ``$VARGO_CACHE_DIR/forts`` when that is set, else ``$XDG_CACHE_HOME/vargo/forts``
(``~/.cache/vargo/forts``). When it cannot be made or written, every process computes on its
own: the answers are the same, only slower.
"""

import functools
import hashlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Callable, Optional

from ..files import write_atomically

try:
    import fcntl
except ImportError:  # not POSIX: no lock, processes may compute the same entry side by side
    fcntl = None

_log = logging.getLogger(__name__)
CACHE_ENV = "VARGO_CACHE_DIR"
FORMAT = 1   #: of the entries' files
#: how long a process waits for another one's computation before it computes the entry itself
#: (the answer is the same; this only guards against a holder that hangs)
LOCK_PATIENCE = 600.0


def cache_dir() -> Optional[Path]:
    """The directory of the entries (made if missing), or None when there is none to use."""
    base = os.environ.get(CACHE_ENV)
    if base:
        directory = Path(base) / "forts"
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        directory = Path(home) / "vargo" / "forts"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        _log.debug("no fort cache (%s): each process chooses its forts itself", err)
        return None
    return directory


@functools.lru_cache(maxsize=None)
def source_stamp() -> str:
    """The content of every source file of the engine, hashed (a hundredth of a second)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def entry_name(key: dict) -> str:
    """The file name (without suffix) of the entry for ``key`` (JSON-able)."""
    text = json.dumps({"format": FORMAT, "source": source_stamp(), **key}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _read(path: Path, key: dict):
    try:
        with open(path, encoding="utf-8") as entry:
            stored = json.load(entry)
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict) or stored.get("key") != key or \
            stored.get("source") != source_stamp() or stored.get("format") != FORMAT:
        return None
    return stored.get("value")


def _write(path: Path, key: dict, value) -> None:
    entry = {"format": FORMAT, "source": source_stamp(), "key": key, "value": value}
    try:
        write_atomically(path, json.dumps(entry, sort_keys=True))
    except OSError as err:
        _log.debug("fort cache not written (%s)", err)


def cached(key: dict, compute: Callable[[], object], valid: Callable[[object], bool] = lambda v: True):
    """The value stored for ``key``, else ``compute()`` (stored for the next process). While
    one process computes an entry, the others that want it wait for it (the module
    docstring). ``valid`` rejects a stored value that cannot be right (then it is computed
    anew). Exceptions of ``compute`` propagate and store nothing."""
    directory = cache_dir()
    if directory is None:
        return compute()
    name = entry_name(key)
    path = directory / f"{name}.json"
    value = _read(path, key)
    if value is not None and valid(value):
        _log.info("from the cache: %s", path.name)
        return value
    try:
        lock = open(directory / f"{name}.lock", "a")
    except OSError:
        return compute()
    with lock:   # closing it releases the lock
        _take(lock)
        value = _read(path, key)   # written by the process we waited for
        if value is not None and valid(value):
            _log.info("from the cache, after waiting for its computation: %s", path.name)
            return value
        value = compute()
        _write(path, key, value)
        return value


def _take(lock) -> bool:
    """Take the machine-wide lock on the open file ``lock``, waiting at most ``LOCK_PATIENCE``;
    whether it was taken (without it the caller computes on its own)."""
    if fcntl is None:
        return False
    deadline = time.monotonic() + LOCK_PATIENCE
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                _log.warning("fort cache: gave up waiting for %s; computing it here", lock.name)
                return False
            time.sleep(0.05)
        except OSError as err:   # a file system without locks
            _log.debug("fort cache without lock (%s)", err)
            return False


def lock_path(key: dict) -> Optional[Path]:
    """The lock file of ``key``'s entry (tests hold it to keep the engines waiting)."""
    directory = cache_dir()
    return None if directory is None else directory / f"{entry_name(key)}.lock"
