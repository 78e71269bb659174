"""Work that goes on between commands: an analysis stream, pondering.

A ``BackgroundJob`` runs ``work(stop)`` in a daemon thread; ``stop()`` sets the event and
waits until the work has returned (a search looks at the event between chunks of simulations,
a few hundredths of a second apart), then calls ``finish`` (an analysis stream writes the end of
its response there). The session holds at most one job at a time
(``GtpEngine.run_in_background``) and stops it before every command (``GtpEngine.interrupt``).
A job works on a copy of the game, so the session's game is never read by two threads.

A search may be busy where it does not look at the event: loading the compiled kernels from
numba's cache (seconds, once per process) blocks the first search. ``stop`` waits at most
``STOP_WAIT`` seconds for it, so the next command is answered at once anyway; the work then
ends by itself at its next look, and whatever it still writes to a finished stream is dropped.
"""

import logging
import threading
from typing import Callable, Optional

log = logging.getLogger(__name__)

STOP_WAIT = 0.5   #: seconds ``stop`` waits for the work before leaving it to end by itself


class BackgroundJob:
    """``work(stop)`` in a thread of its own until it returns or ``stop()`` is called."""

    def __init__(self, name: str, work: Callable[[threading.Event], None],
                 finish: Optional[Callable[[], None]] = None):
        self.name = name
        self._work = work
        self._finish = finish
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"vargo-{name}", daemon=True)

    def _run(self) -> None:
        try:
            self._work(self._stop)
        except Exception:  # a bug in background work must not take the session down
            log.exception("background %s failed", self.name)

    def start(self) -> "BackgroundJob":
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, wait: float = STOP_WAIT) -> None:
        """Ask the work to end, wait for it (at most ``wait`` seconds), then ``finish``."""
        self._stop.set()
        self._thread.join(wait)
        if self._thread.is_alive():
            log.info("background %s still busy; it ends by itself", self.name)
        if self._finish is not None:
            self._finish()
