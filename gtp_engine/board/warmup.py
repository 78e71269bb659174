"""``python -m gtp_engine.board.warmup``: compile every board kernel into the numba cache.

Run it once at install or in CI; afterwards the engine loads the compiled kernels in a moment.
The engine also runs it in the background at start (``board.start_warmup``).
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
def one_compile_at_a_time(stamp: Path = None):
    """A machine-wide lock around the first compile of this source (or of what ``stamp``
    names): engines started together (a match, a test run) then compile once, and the others
    load the result from the cache. Once a compile has succeeded, loads take no lock (they can
    run side by side)."""
    stamp = _stamp() if stamp is None else stamp
    ready = stamp.with_suffix(".ready")
    if fcntl is None or ready.exists():
        yield
        return
    with open(stamp.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gtp_engine.board.warmup",
                                     description="compile the board kernels into the numba cache")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
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
        kernels.warm_all()
    if not args.quiet:
        print(f"board kernels ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if args.exit_with_parent:
        # the thread watching stdin would block the interpreter's shutdown on stdin's lock
        # (a fatal error, so the parent would think the compile failed): leave at once
        sys.stderr.flush()
        os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
