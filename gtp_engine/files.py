"""Writing a file so that a crash, a kill or a full disk leaves either the old content or the new,
never a part: every file the project writes (``printsgf FILE``, match results and records,
set-ups, script outputs) goes through ``write_atomically``.
"""

import os
import secrets
import stat
import threading
from pathlib import Path
from typing import Union


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
