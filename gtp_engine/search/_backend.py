"""Which implementation of the search kernels runs: a pure-Python mirror until the compiled
ones are ready (as ``board._backend`` does for the board), so a ``genmove`` that arrives during
the first compile on a machine still searches, slowly, within its time.

The mirror runs ``kernels.py`` with ``jit`` the identity over the board's mirror. The compiled
kernels call the compiled board kernels; numba's cache does not notice a change in a file that
a cached function calls into, so the search's compile is stamped with the content of both
sources, and a stale cache of the search kernels is dropped before a new compile.

- ``start_warmup()``: the engine calls it at start. On a machine that never compiled these
  sources, a child (``python -m gtp_engine.search.warmup``) compiles them in parts, in worker
  processes side by side, the search's parts first; as soon as those are in the cache, the
  compiled search kernels are loaded here and switched in (``ready`` is set), and the board's
  follow when the child is done. The child's progress goes to stderr, and as records to
  ``status`` (``CompileStatus``: GTP ``vargo-compile_progress``, the words of a search
  summary made meanwhile). On a warm cache they are loaded at once, and the engine waits for
  them (``wait_for_warm_start``, a second or so) before its first set-up command.
  ``wait_compiled`` lets a search wait for them as long as its budget allows.
- ``compile_now()``: board and search for the calling thread (scripts, tests, benchmarks): a
  cold cache is filled by the same child first.
- ``load_search()``: the search kernels only (the compiled board kernels they call are inside
  their compiled code), in the calling thread.
"""

import hashlib
import importlib
import importlib.util
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from ..board import _backend as board_backend
from ..board import warmup as board_warmup

_log = logging.getLogger(__name__)
_SOURCE = Path(__file__).with_name("kernels.py")
_BOARD_SOURCE = Path(board_backend.__file__).with_name("kernels.py")


def _load_mirror():
    spec = importlib.util.spec_from_file_location("gtp_engine.search._kernels_mirror", _SOURCE)
    module = importlib.util.module_from_spec(spec)
    module.PURE_PYTHON = True
    module.BOARD_KERNELS = board_backend.mirror
    spec.loader.exec_module(module)
    return module


mirror = _load_mirror()
active = mirror          #: the search kernels in use; the player reads it at every chunk
ready = threading.Event()  #: set once the compiled search kernels are in use
_lock = threading.Lock()
_thread = None
CHILD_POLL = 0.2       #: seconds between looks at a compiling child's progress


def stamp() -> Path:
    """Names a compile of exactly these two sources, with this cache and this Python."""
    digest = hashlib.sha1(_SOURCE.read_bytes() + b"\0" + _BOARD_SOURCE.read_bytes()).hexdigest()
    key = "|".join((str(_SOURCE.resolve()), digest, os.environ.get("NUMBA_CACHE_DIR", ""),
                    sys.version))
    return board_warmup.stamp_path("search", key)


def compiled() -> bool:
    return active is not mirror


def cache_is_warm() -> bool:
    """Whether these kernels were compiled before on this machine (loading takes seconds)."""
    return board_warmup.cache_is_warm(stamp())


def warming_up() -> bool:
    """Whether the background warm-up is still on its way to the compiled kernels."""
    return _thread is not None and _thread.is_alive() and not ready.is_set()


def wait_compiled(timeout: float) -> bool:
    """Wait at most ``timeout`` seconds for the compiled kernels; whether they are in use."""
    if not ready.is_set() and warming_up():
        ready.wait(max(0.0, timeout))
    return compiled()


def cache_folder() -> Path:
    """Where numba keeps the search kernels' cache: under ``NUMBA_CACHE_DIR`` when it is set
    (numba's own path for this source there), else ``__pycache__`` beside the source."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if folder:
        from numba.core.caching import UserProvidedCacheLocator
        return Path(folder) / UserProvidedCacheLocator.get_suitable_cache_subpath(str(_SOURCE))
    return _SOURCE.parent / "__pycache__"


def drop_stale_cache():
    """Remove numba's cached search kernels: they may embed an older board. Only those of the
    cache in use (``cache_folder``): a compile in a cache of its own (``NUMBA_CACHE_DIR``, as
    ``scripts/bench_startup.py --cold`` does) used to empty the checkout's own cache too."""
    for path in cache_folder().glob("kernels.*.nb[ic]"):
        try:
            path.unlink()
        except OSError:
            pass


def load_search():
    """Compile (or load from the cache) the search kernels and use them from now on; the
    board kernels they call are compiled into them, so the board's own warm-up may still be
    running. Blocks the caller (about a minute of CPU on a cold cache, a second or two on a
    warm one)."""
    global active
    with _lock:
        if active is mirror:
            board_backend.import_numba()
            name = stamp()
            with board_warmup.one_compile_at_a_time(name):
                warm = board_warmup.cache_is_warm(name)
                if not warm:
                    drop_stale_cache()
                module = importlib.import_module("gtp_engine.search.kernels")
                # a warm cache: the player's entry points only, the others load on first use;
                # a compile here compiles (and caches) them all
                module.warm_all(everything=not warm)
            active = module
            ready.set()
    return active


def compile_now():
    """Compile (or load from the cache) the board and search kernels and use them from now
    on; blocks the caller (a minute or so on a cold cache, seconds on a warm one). A cold
    cache is filled by ``python -m gtp_engine.search.warmup`` (its worker processes compile
    side by side; progress on stderr); the kernels are then loaded here."""
    if not cache_is_warm() and not compiled():
        board_backend.fill_cache_in_subprocess("gtp_engine.search.warmup")
    board_backend.compile_now()
    return load_search()


@dataclass
class Snapshot:
    """The compile as it stands: ``what`` is compiling, ``done`` parts of ``total`` finished,
    ``share`` (0..1) of the work done, ``eta`` seconds left for all of it (None: not known)
    and ``eta_search`` for the parts the compiled search needs (0 once they are done)."""

    what: str
    done: int
    total: int
    share: float
    eta: Optional[float]
    eta_search: Optional[float]

    def record(self) -> str:
        """One line for the engine: ``progress DONE TOTAL SHARE ETA ETA_SEARCH WHAT``."""
        eta = "-" if self.eta is None else f"{self.eta:.0f}"
        eta_search = "-" if self.eta_search is None else f"{self.eta_search:.0f}"
        return f"progress {self.done} {self.total} {self.share:.3f} {eta} {eta_search} {self.what}"

    @classmethod
    def parse(cls, line: str) -> "Snapshot":
        """The inverse of ``record``; ValueError for a line that is not one."""
        words = line.rstrip("\n").split(" ", 6)
        if len(words) != 7 or words[0] != "progress":
            raise ValueError(f"not a progress record: {line!r}")
        _, done, total, share, eta, eta_search, what = words
        return cls(what, int(done), int(total), float(share),
                   None if eta == "-" else float(eta),
                   None if eta_search == "-" else float(eta_search))

    def line(self) -> str:
        """The human words: what is compiling, how much is done, about how long is left."""
        if self.eta is None:
            left = "time left not known yet"
        else:
            left = f"about {_duration(self.eta)} left"
        if self.eta_search and self.eta is not None and self.eta_search < self.eta - 1:
            left += f" (the search's kernels in {_duration(self.eta_search)})"
        return (f"{self.done} of {self.total} parts done ({100 * self.share:.0f}%), {left}; "
                f"compiling {self.what}")


def _duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    return f"{seconds:.0f} s" if seconds < 100 else f"{seconds / 60:.0f} min"


class CompileStatus:
    """What the background warm-up is doing, for stderr's readers and the GTP command
    ``compile_progress`` (the browser board polls it): ``state`` is ``"loading"`` (from a warm
    cache), ``"compiling"`` (a first compile on this machine: the search runs the interim
    pure-Python kernels meanwhile), ``"ready"`` (the compiled search is in use), ``"failed"``
    (staying with pure Python) or ``"idle"`` (no warm-up started: scripts); the rest is the
    compile's latest ``warmup.Snapshot`` (None before the first)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._state = "idle"
        self._snapshot = None
        self._at = time.monotonic()

    def set_state(self, state: str) -> None:
        with self._lock:
            self._state = state

    def record(self, line: str) -> None:
        """Take a progress record of the compiling child (other lines are ignored)."""
        try:
            snapshot = Snapshot.parse(line)
        except ValueError:
            return
        with self._lock:
            self._snapshot = snapshot
            self._at = time.monotonic()

    def state(self) -> str:
        with self._lock:
            return "ready" if compiled() else self._state

    def snapshot(self):
        """(state, snapshot) with the ETAs counted down to now."""
        with self._lock:
            state = "ready" if compiled() else self._state
            snap = self._snapshot
            if snap is not None:
                gone = time.monotonic() - self._at
                snap = replace(snap, eta=_less(snap.eta, gone), eta_search=_less(snap.eta_search, gone))
            return state, snap

    def words(self) -> str:
        """A few words for a search's summary made before the compiled kernels arrived."""
        state, snap = self.snapshot()
        if state == "loading":
            return "loading the compiled kernels"
        if state != "compiling" or snap is None:
            return "the compiled kernels are not available"
        left = "" if snap.eta_search is None else f", ready in about {snap.eta_search:.0f} s"
        return f"compiling {100 * snap.share:.0f}% done{left}"


def _less(seconds: Optional[float], gone: float) -> Optional[float]:
    return None if seconds is None else max(0.0, seconds - gone)


status = CompileStatus()   #: the background warm-up's progress


def _read_records(child) -> None:
    for line in child.stdout:
        status.record(line)


def _warm_in_background():
    try:
        if not cache_is_warm():
            # One child compiles it all, in worker processes of its own, the search's parts
            # first; it writes its progress on our stderr, and records of it on its stdout,
            # which ``status`` keeps.
            status.set_state("compiling")
            module = "gtp_engine.search.warmup"
            child = board_backend.start_compile_child(module, "--machine", stdout=True)
            threading.Thread(target=_read_records, args=(child,), daemon=True).start()
            while child.poll() is None and not cache_is_warm():
                time.sleep(CHILD_POLL)
            if not cache_is_warm():   # the child failed: say so before compiling here
                board_backend.wait_for_child(child, module)
            status.set_state("loading")
            load_search()             # from the cache the child filled, or compiled here
            if child.returncode is None:
                board_backend.wait_for_child(child, module)
        else:
            status.set_state("loading")
            load_search()
        _log.info("compiled search kernels in use")
        board_backend.start_warmup().join()
    except Exception:  # the mirror keeps working; say why the fast path is missing
        status.set_state("failed")
        _log.exception("could not compile the search kernels; staying with pure Python")


WARM_START_LIMIT = 10.0  #: seconds the first set-up command may wait for kernels from a warm cache


def wait_for_warm_start(limit: float = WARM_START_LIMIT) -> bool:
    """On a warm cache, wait (at most ``limit`` seconds) until the background warm-up has
    loaded the compiled kernels, search and board (the board's loading beside the first search
    would slow it); on a cold one return at once, since a compile takes minutes and the
    controller must get its answers meanwhile. Whether the compiled search kernels are in use.

    The engine calls it before its first set-up command (``gtp.engine.KERNEL_WAIT_COMMANDS``;
    the others are answered at once), as engines that load a network do: a controller's clock starts when
    it sends ``genmove``, and a first ``genmove`` sent at once after the set-up would otherwise
    spend most of its second loading the kernels."""
    if cache_is_warm() and _thread is not None:
        _thread.join(max(0.0, limit))
    return compiled()


def start_warmup() -> threading.Thread:
    """Start compiling (or loading) the board and search kernels in the background
    (idempotent); returns the thread."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_warm_in_background, name="search-warmup",
                                       daemon=True)
            _thread.start()
        return _thread
