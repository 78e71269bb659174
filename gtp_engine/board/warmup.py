"""``python -m gtp_engine.board.warmup``: compile every board kernel into the numba cache.

Run it once at install or in CI; afterwards the engine loads the compiled kernels in a moment.
``board.start_warmup`` runs it in the background, with ``--progress``: each kernel numba
finishes is reported on stderr (``report_compiles``). The engine compiles the board's kernels
with the search's instead (``search.warmup``, in parallel parts).
"""

import argparse
import contextlib
import hashlib
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no lock, each warm-up compiles on its own
    fcntl = None


def _stamp() -> Path:
    """A path prefix naming this kernels source (path, size, time), cache and Python."""
    source = Path(__file__).with_name("kernels.py").resolve()
    info = source.stat()
    key = "|".join((str(source), str(info.st_size), str(info.st_mtime_ns),
                    os.environ.get("NUMBA_CACHE_DIR", ""), sys.version))
    return stamp_path("kernels", key)


def stamp_path(kind: str, key: str) -> Path:
    """The stamp prefix (in the temporary directory) of a compile of ``kind`` named by ``key``."""
    return Path(tempfile.gettempdir()) / f"vargo-{kind}-{hashlib.sha1(key.encode()).hexdigest()[:16]}"


@contextlib.contextmanager
def one_compile_at_a_time(stamp: Path = None, waiting=None):
    """A machine-wide lock around the first compile of this source (or of what ``stamp``
    names): engines started together (a match, a test run, GoGui's player and ruler) then
    compile once, and the others load the result from the cache. Once a compile has succeeded,
    loads take no lock (they can run side by side). While another process holds the lock,
    ``waiting(seconds)`` is called about every second (to say so), if given. The body ending
    with an exception leaves the stamp cold."""
    stamp = _stamp() if stamp is None else stamp
    ready = stamp.with_suffix(".ready")
    if fcntl is None or ready.exists():
        yield
        return
    with open(stamp.with_suffix(".lock"), "w") as lock:
        if waiting is None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        else:
            start = time.monotonic()
            while True:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    waiting(time.monotonic() - start)
                    time.sleep(1.0)
        try:
            yield
            ready.touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cache_is_warm(stamp: Path = None) -> bool:
    """Whether a compile of exactly this source (or of what ``stamp`` names) has succeeded
    (then loading the kernels takes a moment and needs no separate process). Cheap: one file
    test, no numba import."""
    return (_stamp() if stamp is None else stamp).with_suffix(".ready").exists()


def leave_when_parent_leaves(compiling: threading.Event) -> None:
    """Exit at end of standard input (the parent holds the only write end) unless already
    compiling: finishing a compile helps the next engine, waiting for the lock helps nobody."""
    def watch():
        sys.stdin.buffer.read()
        if not compiling.is_set():
            os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def leave(exit_with_parent: bool, status: int = 0) -> int:
    """The end of a warm-up's ``main``: with ``--exit-with-parent``, leave at once with
    ``status`` (the thread watching stdin would block the interpreter's shutdown on stdin's
    lock, a fatal error, so the parent would think the compile failed); otherwise return
    ``status``, the exit status."""
    if exit_with_parent:
        sys.stderr.flush()
        os._exit(status)
    return status


@contextlib.contextmanager
def report_compiles(label: str, out=None, total: int = 0):
    """While active, write one line to ``out`` (stderr) for each kernel numba compiles whose
    compile was not started by another one (an entry point and, inside it, everything it
    calls; of ``total``), and one for each kernel such an entry point calls, with the time so
    far: the progress of a first compile. (The engine's warm-up, which compiles the board's
    kernels with the search's, reports by parts instead: ``search.warmup``.)"""
    from numba.core import event

    out = sys.stderr if out is None else out
    start = time.perf_counter()
    depth = [0]
    count = [0]

    def say(line: str) -> None:
        # after the engine has gone, nobody may read its stderr: the compile goes on silently
        try:
            out.write(line)
            out.flush()
        except (OSError, ValueError):
            pass

    class Listener(event.Listener):
        def on_start(self, ev):
            if depth[0] == 0 and count[0] == 0:   # not when another process compiled it all
                say(f"vargo: compiling the {label} kernels for this machine, once "
                    "(later starts load them in a second)\n")
            depth[0] += 1

        def on_end(self, ev):
            depth[0] -= 1
            name = getattr(ev.data.get("dispatcher"), "py_func", None)
            name = getattr(name, "__name__", "?")
            if depth[0] == 0:
                count[0] += 1
                of = f" of {total}" if total else ""
                say(f"vargo: compiling the {label} kernels: {name} ready "
                    f"({count[0]}{of} entry points done, {time.perf_counter() - start:.0f} s)\n")
            elif depth[0] == 1:   # what the entry point calls: the big ones take a minute
                say(f"vargo: compiling the {label} kernels:   ... {name} "
                    f"({time.perf_counter() - start:.0f} s)\n")

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gtp_engine.board.warmup",
                                     description="compile the board kernels into the numba cache")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    parser.add_argument("--progress", action="store_true",
                        help="report each compiled kernel on stderr")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="give up while waiting for another compile when stdin closes")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    compiling = threading.Event()
    if args.exit_with_parent:
        leave_when_parent_leaves(compiling)
    with one_compile_at_a_time():
        compiling.set()
        from . import kernels
        with report_compiles("board", total=len(kernels.ENTRY_POINTS)) if args.progress \
                else contextlib.nullcontext():
            kernels.warm_all()
    if not args.quiet:
        print(f"vargo: board kernels ready in {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
    return leave(args.exit_with_parent)


if __name__ == "__main__":
    sys.exit(main())
