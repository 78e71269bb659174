"""Files in and out, safely.

Writing: a crash, a kill or a full disk leaves either the old content or the new, never a part:
every file the project writes (``printsgf FILE``, match results and records, set-ups, script
outputs) goes through ``write_atomically``.

Reading: every file a user names (``loadsgf``, ``--setup``, ``vargo-sgf``) is opened by
``open_regular``, which refuses without blocking anything but a regular file: a fifo with no
writer would wait for ever, a device such as ``/dev/zero`` never ends.
"""

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
import threading
from pathlib import Path
from typing import List, Union


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
    ``OSError`` is raised; so it is on KeyboardInterrupt, and on SIGTERM where the process leaves
    that signal to its default (``_terminated_after_cleanup``). A write that succeeds then
    removes what killed writers left beside ``path`` (``sweep_stale_temporaries``), so a SIGKILL
    mid-write leaves a hidden temporary file only until the next write to the same file."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}"
                               f".{secrets.token_hex(4)}{_TMP_SUFFIX}")
    with _terminated_after_cleanup():
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
    sweep_stale_temporaries(target)


_TMP_SUFFIX = ".tmp"


def sweep_stale_temporaries(target: Union[str, Path]) -> List[str]:
    """Remove the temporary files ``write_atomically`` left beside ``target`` in a process that
    no longer runs (killed with SIGKILL, or the machine stopped, mid-write): those named
    ``.NAME.PID.THREAD.HEX.tmp`` for ``target``'s NAME whose PID is no live process here. The
    files of live writers, this process's other threads among them, are left alone. Returns the
    paths removed; errors are ignored (another writer may sweep the same file)."""
    folder, name = os.path.split(os.path.realpath(target))
    pattern = re.compile(re.escape(f".{name}.") + r"(\d+)\.\d+\.[0-9a-f]{8}" + re.escape(_TMP_SUFFIX))
    removed = []
    try:
        entries = [e.name for e in os.scandir(folder or ".") if e.name.startswith(f".{name}.")]
    except OSError:
        return removed
    for entry in entries:
        match = pattern.fullmatch(entry)
        if match is None or _process_runs(int(match.group(1))):
            continue
        try:
            os.unlink(os.path.join(folder, entry))
            removed.append(os.path.join(folder, entry))
        except OSError:
            pass
    return removed


def _process_runs(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):  # another user's, or not a pid we can ask
        return True
    return True


class _Terminated(BaseException):
    """SIGTERM arrived while ``write_atomically`` held a temporary file."""


@contextlib.contextmanager
def _terminated_after_cleanup():
    """In the main thread of a process that leaves SIGTERM to its default (the engine: a
    frontend ends it so), a SIGTERM during the block raises _Terminated, so that the block's
    cleanup removes the temporary file; the process then dies of the signal as it would have.
    A process that handles SIGTERM itself (vargo-match raises KeyboardInterrupt, which the
    cleanup handles too) keeps its handler; SIGINT is Python's KeyboardInterrupt already."""
    if (not hasattr(signal, "SIGTERM") or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def terminated(signum, frame):
        raise _Terminated()
    signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise SystemExit(128 + signal.SIGTERM)  # only if the signal is blocked in this thread
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


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
