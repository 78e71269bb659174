"""Which implementation of the kernels runs: the pure-Python mirror until the compiled ones are
ready, so that nothing on the protocol path ever waits for numba.

``kernels.py`` is loaded twice: once as a plain module (``gtp_engine.board.kernels``, numba
functions, imported only when compiling or loading the cache) and once, at import of this
module, as the mirror (same source, ``jit`` the identity, no numba import). Both work on the
same numpy arrays, so positions move freely from one to the other.

- ``start_warmup()``: background thread: unless a compile of this source already succeeded
  (``warmup.cache_is_warm``), a ``python -m gtp_engine.board.warmup`` subprocess fills the
  numba cache; then the compiled kernels are loaded from the cache here and switched in.
- ``compile_now()``: the same, in the calling thread (scripts, tests, benchmarks).
"""

import importlib
import importlib.util
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

_log = logging.getLogger(__name__)
_SOURCE = Path(__file__).with_name("kernels.py")


def _load_mirror():
    spec = importlib.util.spec_from_file_location("gtp_engine.board._kernels_mirror", _SOURCE)
    module = importlib.util.module_from_spec(spec)
    module.PURE_PYTHON = True
    spec.loader.exec_module(module)
    return module


mirror = _load_mirror()
active = mirror          #: the kernels module in use; Position reads it on every call
_lock = threading.Lock()
_thread = None


def compiled() -> bool:
    """Whether the compiled kernels are in use."""
    return active is not mirror


def import_numba():
    """Import numba and the registry of its array functions without SciPy.

    Loading that registry (at the first compile or cache load) runs numba's BLAS check, which
    imports ``scipy.linalg`` where SciPy is installed: 0.25 s, a third of loading our cached
    kernels, in every new engine process before its first search. No kernel of ours calls
    BLAS (``np.dot``, ``np.linalg``), so ``scipy.linalg`` is hidden for that one import, unless
    it was imported already; it imports normally afterwards."""
    hide = "scipy.linalg" not in sys.modules
    if hide:
        sys.modules["scipy.linalg"] = None   # an import of it now raises ImportError
    try:
        importlib.import_module("numba.np.arraymath")
    finally:
        if hide and sys.modules.get("scipy.linalg", False) is None:
            del sys.modules["scipy.linalg"]


def compile_now():
    """Compile (or load from the numba cache) every kernel and use them from now on; returns
    the compiled module. Blocks the caller: minutes on a cold cache, a moment on a warm one."""
    global active
    with _lock:
        if active is mirror:
            import_numba()
            from .warmup import one_compile_at_a_time
            with one_compile_at_a_time():
                module = importlib.import_module("gtp_engine.board.kernels")
                module.warm_all()
            active = module
    return active


def _warm_in_background():
    try:
        from .warmup import cache_is_warm
        if not cache_is_warm():
            _fill_cache_in_subprocess()
        compile_now()  # loads from the cache: a second or two, shared with the protocol thread
        _log.info("compiled board kernels in use")
    except Exception:  # the mirror keeps working; say why the fast path is missing
        _log.exception("could not compile the board kernels; staying with pure Python")


def _fill_cache_in_subprocess():
    fill_cache_in_subprocess("gtp_engine.board.warmup")


def fill_cache_in_subprocess(module: str, *options: str):
    """Compile in a child process (``python -m module``), so the compile never holds this
    process's GIL, and wait for it. The child reports its progress on our stderr. Returns
    whether it succeeded (see ``start_compile_child``)."""
    return wait_for_child(start_compile_child(module, *options), module)


def start_compile_child(module: str, *options: str, stdout: bool = False) -> subprocess.Popen:
    """Start ``python -m module --progress --exit-with-parent OPTIONS``. The child gets a pipe
    as stdin that only we hold: if we die while it waits for another compile, it sees end of
    file and leaves (engines started and stopped by a test run leave no orphans). Its stdout
    is a pipe (text) with ``stdout``, else discarded. The search's warm-up uses it too."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.Popen([sys.executable, "-m", module, "--progress", "--exit-with-parent",
                             *options], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
                            text=stdout, env=env)


def wait_for_child(child: subprocess.Popen, module: str) -> bool:
    """Wait for a ``start_compile_child`` child; whether it succeeded (else a warning)."""
    child.wait()
    child.stdin.close()
    if child.returncode != 0:
        _log.warning("%s subprocess failed (exit code %s); compiling in-process", module,
                     child.returncode)
    return child.returncode == 0


def start_warmup() -> threading.Thread:
    """Start compiling the kernels in the background (idempotent); returns the thread."""
    global _thread
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_warm_in_background, name="kernel-warmup",
                                       daemon=True)
            _thread.start()
        return _thread
