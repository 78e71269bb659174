"""Which implementation of the search kernels runs: a pure-Python mirror until the compiled
ones are ready (as ``board._backend`` does for the board), so a ``genmove`` that arrives during
the first compile on a machine still searches, slowly, within its time.

The mirror runs ``kernels.py`` with ``jit`` the identity over the board's mirror. The compiled
kernels call the compiled board kernels; numba's cache does not notice a change in a file that
a cached function calls into, so the search's compile is stamped with the content of both
sources, and a stale cache of the search kernels is dropped before a new compile.

- ``start_warmup()``: after the board's warm-up, compile (in a child process, unless the stamp
  says the cache is warm) and switch to the compiled kernels.
- ``compile_now()``: the same in the calling thread (scripts, tests, benchmarks).
"""

import hashlib
import importlib
import importlib.util
import logging
import os
import sys
import threading
from pathlib import Path

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
active = mirror          #: the search kernels in use; the player reads it at every search
_lock = threading.Lock()
_thread = None


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
    return board_warmup.cache_is_warm(stamp()) and board_warmup.cache_is_warm()


def _drop_stale_cache():
    """Remove numba's cached search kernels: they may embed an older board."""
    cache = _SOURCE.parent / "__pycache__"
    for path in cache.glob("kernels.*.nb[ic]"):
        try:
            path.unlink()
        except OSError:
            pass


def compile_now():
    """Compile (or load from the cache) the board and search kernels and use them from now
    on; blocks the caller (a minute or two on a cold cache, seconds on a warm one)."""
    global active
    board_backend.compile_now()
    with _lock:
        if active is mirror:
            name = stamp()
            with board_warmup.one_compile_at_a_time(name):
                if not board_warmup.cache_is_warm(name):
                    _drop_stale_cache()
                module = importlib.import_module("gtp_engine.search.kernels")
                module.warm_all()
            active = module
    return active


def _warm_in_background():
    try:
        board_backend.start_warmup().join()
        if not board_warmup.cache_is_warm(stamp()):
            board_backend.fill_cache_in_subprocess("gtp_engine.search.warmup")
        compile_now()
        _log.info("compiled search kernels in use")
    except Exception:  # the mirror keeps working; say why the fast path is missing
        _log.exception("could not compile the search kernels; staying with pure Python")


def start_warmup() -> threading.Thread:
    """Start compiling the board and search kernels in the background (idempotent)."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_warm_in_background, name="search-warmup",
                                       daemon=True)
            _thread.start()
        return _thread
