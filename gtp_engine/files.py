"""Files in and out, safely.

Writing: a crash, a kill or a full disk leaves either the old content or the new, never a part:
every file the project writes (``printsgf FILE``, match results and records, set-ups, script
outputs) goes through ``write_atomically``.

Reading: every file a user names (``loadsgf``, ``--setup``, ``vargo-sgf``) is opened by
``open_regular``, which refuses without blocking anything but a regular file: a fifo with no
writer would wait for ever, a device such as ``/dev/zero`` never ends.
"""

import errno
import os
import secrets
import stat
import threading
from pathlib import Path
from typing import Union


#: The reason ``open_regular`` gives (as the OSError's ``strerror``) for a fifo, device or folder.
NOT_REGULAR = "not a regular file"


class NotRegularFile(OSError):
    """A path that names something other than a regular file (``open_regular``)."""


def open_regular(path: Union[str, Path], flags: int = os.O_RDONLY) -> int:
    """``os.open(path, flags)`` for a regular file only: NotRegularFile (an OSError whose
    ``strerror`` is ``NOT_REGULAR``) for a fifo, a device, a socket or a folder, checked before
    opening and again on the open file, which is opened without blocking (``O_NONBLOCK``: a fifo
    with no writer answers at once) and without becoming our terminal. Other failures raise the
    OSError of ``os.open``. The caller closes the descriptor."""
    refused = NotRegularFile(errno.EINVAL, NOT_REGULAR, str(path))
    if os.path.exists(path) and not os.path.isfile(path):
        raise refused
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped in after the check above
            raise refused
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bounded(path: Union[str, Path], limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (``open_regular``), at most ``limit + 1`` of
    them read: more than ``limit`` tells the caller the file is too big without reading it all.
    OSError (NotRegularFile among them) when it cannot be read."""
    with os.fdopen(open_regular(path), "rb") as f:
        return f.read(limit + 1)


def write_atomically(path: Union[str, Path], data: Union[bytes, str]) -> None:
    """Write ``data`` (``str`` is written as UTF-8) to ``path`` through a temporary file in the
    same folder, flushed to disk (``fsync``) and then renamed over ``path``.

    An existing file keeps its permissions; a symbolic link stays a link (its target is
    replaced). On any failure the temporary file is removed, ``path`` is untouched and the
    ``OSError`` is raised."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}"
                               f".{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        except FileNotFoundError:  # a new file: the umask's permissions, as open() gives
            pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable where the system allows it (POSIX folders open read-only)."""
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
