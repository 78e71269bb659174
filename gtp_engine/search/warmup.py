"""``python -m gtp_engine.search.warmup``: compile the board and search kernels into numba's
cache, so that engines start with the fast search at once. Run it at install or in CI; the
engine also runs it in the background at start (``search.start_warmup``).

The compile is cut into parts (``PARTS``), compiled by worker processes side by side, one per
core (``--jobs``): numba compiles one kernel at a time in a process, so one process would
leave the other cores idle. A part compiles one big branch of the call tree (the search's
playouts, its tree code, ...) into the cache; a part ``after`` others calls into their
kernels and loads them from the cache instead of compiling them again, which works only when
it calls them with the very argument types the earlier part compiled them for: each part
names the kernels it ``provides``, and a later part that compiles one of them again reports
it (``plan mismatch``). The search's parts come first: the engine loads the compiled search
as soon as they are in the cache, while the board's parts go on.

Progress (unless ``--quiet``): a line on stderr when a part starts or ends and at least every
``HEARTBEAT`` seconds, naming what is compiling, the parts done of all, the share of the
work done and about how long is left (``Progress``); with ``--machine`` the same as one
``progress ...`` record (``_backend.Snapshot``) per line on stdout, which the engine reads
(``_backend.status``).
"""

import argparse
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..board import warmup as board_warmup
from ._backend import Snapshot

HEARTBEAT = 6.0   #: seconds at most between two progress lines (the promise is 10; a loaded
#: machine wakes the orchestra late)


@dataclass(frozen=True)
class Part:
    """One part of the compile, done by one worker process."""

    name: str
    seconds: float       #: its CPU seconds on the reference machine (idle, 2 cores): its weight
    after: Tuple[str, ...] = ()     #: parts whose kernels it loads from the cache
    provides: Tuple[str, ...] = ()  #: ``module.kernel`` names it compiles for later parts
    search: bool = False  #: the compiled search (the engine's first search) needs it


# The reference CPU seconds: each part's own, from the worker's report (``done PART CPU``) in
# a compile of these kernels (f636170, numba 0.68); only their ratios matter: they weigh the
# parts for the share done and the ETA. The search's first four are the big branches of
# ``run``'s call tree (before the parts, ``scripts/profile_compile.py`` found run's tree 90% of
# the compile); "search" compiles ``run`` on top of them. With two workers the search is ready
# after about 36 + 13 s of one core's CPU, the rest about 11 s later.
PARTS = (
    Part("search playouts", 36.0, provides=("search.playout",), search=True),
    Part("search priors", 16.0, provides=("search.prior",), search=True),
    Part("search moves", 5.0, provides=("search._placements",), search=True),
    Part("search fights", 9.0, provides=("search.read_fights",), search=True),
    Part("search", 13.0, after=("search playouts", "search priors", "search moves",
                                "search fights"), search=True),
    Part("board playouts", 6.0, provides=("board.playout",)),
    Part("board moves", 4.0, after=("board playouts",)),
    Part("search extras", 3.0, after=("search",)),
)


# --------------------------------------------------------------------------- progress
class Progress:
    """Follows the parts of a compile done by ``workers`` processes, and estimates from the
    parts' reference seconds (``Part.seconds``, CPU seconds) how much is done and how long is
    left.

    A running part has done the CPU seconds its worker spent on it (``cpu``, read from /proc),
    at most 95% of its weight; without that figure (not Linux), its wall time at the speed. The
    speed: CPU seconds a worker gets in a wall second, from the parts finished and running (a
    busy machine gives each worker a fraction of a core); before any figure, ``guess`` (one
    on an idle machine, less on a loaded one: ``speed_guess``). The share done never goes back.
    """

    def __init__(self, parts: Sequence[Part], workers: int, guess: float = 1.0,
                 clock: Callable[[], float] = time.monotonic):
        self.parts = {part.name: part for part in parts}
        self.order = [part.name for part in parts]
        self.workers = max(1, workers)
        self.guess = guess
        self.clock = clock
        self.running: Dict[str, float] = {}    # part -> its start
        self.used: Dict[str, float] = {}       # running part -> CPU seconds spent on it
        self.finished: Dict[str, float] = {}   # part -> its wall seconds
        self.spent: Dict[str, float] = {}      # finished part -> its CPU seconds
        self.latest: Dict[str, str] = {}       # part -> the last kernel it compiled
        self.shown = 0.0                       # the largest share reported

    def start(self, name: str) -> None:
        self.running[name] = self.clock()

    def kernel(self, name: str, kernel: str) -> None:
        self.latest[name] = kernel

    def cpu(self, name: str, seconds: float) -> None:
        """The CPU seconds the worker has spent on running part ``name`` so far."""
        if name in self.running:
            self.used[name] = seconds

    def finish(self, name: str, cpu: Optional[float] = None) -> None:
        """Part ``name`` ended, after ``cpu`` CPU seconds (None: not known)."""
        start = self.running.pop(name, self.clock())
        self.used.pop(name, None)
        self.finished[name] = self.clock() - start
        self.spent[name] = self.parts[name].seconds if cpu is None else cpu

    def speed(self) -> float:
        """CPU seconds a worker gets in a wall second (see the class)."""
        now = self.clock()
        wall = sum(self.finished.values())
        work = sum(self.spent.values())
        for name, used in self.used.items():
            wall += now - self.running[name]
            work += used
        if wall >= 5.0 and work > 0:
            return work / wall
        return self.guess

    def _done(self, name: str, now: float, speed: float) -> float:
        """Reference seconds of running part ``name`` done (see the class)."""
        weight = self.parts[name].seconds
        used = self.used.get(name)
        if used is None:
            used = (now - self.running[name]) * speed
        return min(used, 0.95 * weight)

    def _left(self, name: str, now: float, speed: float) -> float:
        """Wall seconds a part still needs at ``speed``."""
        weight = self.parts[name].seconds
        if name in self.finished:
            return 0.0
        if name in self.running:
            return max(weight - self._done(name, now, speed), 0.05 * weight) / speed
        return weight / speed

    def done_seconds(self, now: float) -> float:
        speed = self.speed()
        total = sum(self.parts[n].seconds for n in self.finished)
        for name in self.running:
            total += self._done(name, now, speed)
        return total

    def schedule(self, now: float) -> Dict[str, float]:
        """When each part should end (wall clock): each free worker in turn takes the part that
        can start first, once the parts it comes ``after`` have ended (as ``Orchestra`` does)."""
        speed = self.speed()
        ends = {name: now for name in self.finished}
        free = sorted(now + self._left(name, now, speed) for name in self.running)
        for name in self.running:
            ends[name] = now + self._left(name, now, speed)
        free += [now] * (self.workers - len(free))
        free.sort()
        pending = [n for n in self.order if n not in ends]
        while pending:
            # the free worker takes the part that can start first (the first such in order)
            ready = [n for n in pending if all(a in ends for a in self.parts[n].after)] or pending
            begins = [max([free[0]] + [ends.get(a, now) for a in self.parts[n].after])
                      for n in ready]
            begin = min(begins)
            name = ready[begins.index(begin)]
            ends[name] = begin + self._left(name, now, speed)
            free[0] = ends[name]
            free.sort()
            pending.remove(name)
        return ends

    def snapshot(self) -> Snapshot:
        now = self.clock()
        total = sum(part.seconds for part in self.parts.values())
        ends = self.schedule(now)
        search = [n for n in self.order if self.parts[n].search]
        eta = max(ends.values()) - now
        eta_search = max([ends[n] for n in search], default=now) - now
        what = ", ".join(f"{n} ({self.latest[n]})" if n in self.latest else n
                         for n in self.order if n in self.running) or "nothing"
        share = min(1.0, self.done_seconds(now) / total) if total else 1.0
        self.shown = max(self.shown, share)
        return Snapshot(what, len(self.finished), len(self.parts), self.shown, eta, eta_search)


def speed_guess(workers: int, load: Optional[float] = None, cores: Optional[int] = None) -> float:
    """A worker's expected speed before any part has ended: one core's worth when the machine
    has a core for each, less when ``load`` (other runnable processes) shares them."""
    cores = cores or os.cpu_count() or 1
    load = os.getloadavg()[0] if load is None and hasattr(os, "getloadavg") else (load or 0.0)
    return min(1.0, cores / max(1.0, load + workers))


# --------------------------------------------------------------------------- the parts' compiles
class _Values:
    """Arguments of the types the search player passes (``kernels.warm_all`` makes the same),
    for compiles by signature: a branch of the call tree compiled without running it."""

    def __init__(self, K, size: int = 5):
        import numpy as np
        B = K.B
        w = size + 2
        self.st = np.zeros(B.state_shape(size), np.int32)
        B.init_state(self.st, int(size), np.zeros(size * size, np.int32))
        self.zob = B.zobrist_keys()
        self.spare = np.zeros_like(self.st)
        self.work = np.zeros(B.work_length(size), np.int32)
        self.out = np.zeros(B.effects_length(size), np.int32)
        self.owner = np.zeros(w * w, np.int32)
        self.sx = np.zeros(K.scratch_length(size), np.int32)
        self.ti = np.zeros((K.NI_FIELDS, 8), np.int32)
        self.tf = np.zeros((K.NF_FIELDS, 8), np.float64)
        self.em = np.zeros(32, np.int16)                      # the edges, as ``tree`` makes them
        self.ef = np.zeros((32, K.EF_FIELDS), np.float32)
        self.thdr = np.zeros(K.T_HEADER, np.int64)
        self.params = np.zeros(K.P_COUNT, np.float64)
        self.pat3 = np.zeros(2 << 16, np.uint8)
        self.seq = np.zeros(16, np.int32)
        self.rng = np.array([1], np.int64)
        self.model = K.empty_model()
        self.value = K.empty_value()
        self.ownership = np.zeros(2 * w * w, np.int32)
        self.feats = self.sx[len(self.sx) - K.MAX_FEATURES:]   # as ``expand`` passes it


def _compile(dispatcher, *values) -> None:
    """Compile ``dispatcher`` for the types of ``values`` (or load it from the cache)."""
    import numba
    dispatcher.compile(tuple(numba.typeof(v) for v in values))


def _search_playouts(K) -> None:
    v = _Values(K)
    # Python ints are int64: the type every kernel gets for an integer (``board.kernels._plain``)
    _compile(K.playout, v.st, v.zob, v.work, v.spare, v.out, v.sx, 1, 0, 0, 0, v.rng, v.params,
             v.pat3, v.seq, 0)


def _search_priors(K) -> None:
    v = _Values(K)
    _compile(K.prior, v.st, v.zob, v.work, v.spare, v.out, v.sx, 0, 1, 0, 0, v.params, v.pat3,
             v.feats)


def _search_moves(K) -> None:
    v = _Values(K)
    _compile(K._placements, v.st, v.zob, v.work, v.spare, v.out, v.sx, 1, v.params)


def _search_fights(K) -> None:
    v = _Values(K)
    _compile(K.read_fights, v.st, v.zob, v.work, v.spare, v.out, v.sx, v.em, v.ef, 0, 0, 1, 0, 0,
             v.params)


def _search(K) -> None:
    K.warm_all(everything=False)


def _search_extras(K) -> None:
    K.warm_all(everything=True)


def _board_playouts(K) -> None:
    v = _Values(K)
    B = K.B
    _compile(B.playout, v.st, v.zob, v.work, v.spare, v.out, v.owner, 1, True, 75, v.rng, 0, 1)


def _board_moves(K) -> None:
    K.B.warm_all()


_COMPILES = {
    "search playouts": _search_playouts,
    "search priors": _search_priors,
    "search moves": _search_moves,
    "search fights": _search_fights,
    "search": _search,
    "search extras": _search_extras,
    "board playouts": _board_playouts,
    "board moves": _board_moves,
}


def _kernel_name(ev) -> str:
    function = getattr(ev.data.get("dispatcher"), "py_func", None)
    if function is None:
        return "?"
    return f"{function.__module__.split('.')[-2]}.{function.__name__}"


def worker(inp, out) -> int:
    """A worker process's loop: compile each part named on a line of ``inp`` and report on
    ``out``, fields separated by tabs (part names hold spaces): ``kernel PART NAME`` for each
    kernel compiled that a part's entry calls, then ``done PART CPU-SECONDS`` or ``failed PART
    WHY``; ends at end of input. A part compiling again what another part ``provides`` is
    reported as ``mismatch PART NAME``."""
    from numba.core import event

    from ..board import _backend as board_backend
    board_backend.import_numba()
    from . import kernels as K
    provided = {}
    for part in PARTS:
        for name in part.provides:
            provided[name] = part.name
    current = [None]
    depth = [0]

    def say(*fields: str) -> None:
        out.write("\t".join(fields) + "\n")
        out.flush()

    class Listener(event.Listener):
        def on_start(self, ev):
            depth[0] += 1

        def on_end(self, ev):
            depth[0] -= 1
            name = _kernel_name(ev)
            owner = provided.get(name)
            if owner is not None and owner != current[0] and owner in _before(current[0]):
                say("mismatch", current[0], name)
            if depth[0] <= 1 and name.split(".")[0] in ("board", "search"):   # not numba's own
                say("kernel", current[0], name.split(".")[-1])

    event.register("numba:compile", Listener())
    for line in inp:
        part = line.strip()
        if not part:
            continue
        current[0] = part
        cpu = time.process_time()
        try:
            _COMPILES[part](K)
        except Exception as err:  # the parts after it compile what it would have
            why = str(err).splitlines()[0] if str(err) else ""
            say("failed", part, f"{type(err).__name__}: {why}")
            continue
        say("done", part, f"{time.process_time() - cpu:.1f}")
    return 0


def _before(name: Optional[str]) -> set:
    """The parts that end before part ``name`` starts (those it comes after, and theirs)."""
    parts = {part.name: part for part in PARTS}
    seen, todo = set(), list(parts[name].after) if name in parts else []
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(parts[n].after)
    return seen


# --------------------------------------------------------------------------- the orchestra
class _Worker:
    """A worker process and the thread that passes its reports to the orchestra's queue."""

    def __init__(self, command: Sequence[str], events: "queue.Queue"):
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        self.part = None
        self.cpu_at_start = None
        self.process = subprocess.Popen(list(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env)
        threading.Thread(target=self._read, args=(events,), daemon=True).start()

    def _read(self, events) -> None:
        for line in self.process.stdout:
            events.put((self, line.rstrip("\n")))
        events.put((self, "exit"))

    def give(self, part: str) -> None:
        self.part = part
        self.cpu_at_start = self.cpu()
        self.process.stdin.write(part + "\n")
        self.process.stdin.flush()

    def cpu(self) -> Optional[float]:
        """The process's CPU seconds so far (Linux /proc; None elsewhere or once it is gone)."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def used(self) -> Optional[float]:
        """CPU seconds spent on its part so far."""
        now = self.cpu()
        if now is None or self.cpu_at_start is None:
            return None
        return now - self.cpu_at_start

    def close(self) -> None:
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.wait()


def _seconds(text: str) -> Optional[float]:
    try:
        return float(text)
    except ValueError:
        return None


class Orchestra:
    """Hands the parts to ``jobs`` worker processes in order, each as soon as a worker is free
    and the parts it comes after are done; reports progress through ``report(snapshot,
    event)``; calls ``search_ready()`` once the parts the search needs are done. A worker is
    ``command`` (by default this module's ``--worker``)."""

    WORKER = (sys.executable, "-m", "gtp_engine.search.warmup", "--worker")

    def __init__(self, parts: Sequence[Part], jobs: int, report: Callable[[Snapshot, str], None],
                 search_ready: Callable[[], None] = lambda: None, guess: Optional[float] = None,
                 command: Sequence[str] = WORKER):
        self.command = command
        self.parts = list(parts)
        self.jobs = max(1, min(jobs, len(self.parts)))
        self.report = report
        self.search_ready = search_ready
        self.progress = Progress(self.parts, self.jobs,
                                 speed_guess(self.jobs) if guess is None else guess)
        self.failed: List[str] = []
        self.mismatches: List[str] = []
        self._workers: List[_Worker] = []

    def run(self) -> bool:
        """Compile every part; whether all succeeded (a failed part's kernels are compiled by
        the parts after it, or on first use)."""
        events = queue.Queue()
        workers = self._workers = [_Worker(self.command, events) for _ in range(self.jobs)]
        pending = [part.name for part in self.parts]
        ended = set()
        search = {part.name for part in self.parts if part.search}
        told_search = not search
        last = 0.0
        try:
            self._say("start")
            while len(ended) < len(self.parts):
                for w in workers:
                    if w.part is None and w.process.poll() is None:
                        ready = [n for n in pending
                                 if all(a in ended for a in self._part(n).after)]
                        if ready:
                            pending.remove(ready[0])
                            self.progress.start(ready[0])
                            w.give(ready[0])
                            self._say(f"start\t{ready[0]}")
                            last = time.monotonic()
                if not any(w.process.poll() is None for w in workers) and events.empty():
                    self.failed.extend(n for n in pending)
                    break
                try:
                    w, line = events.get(timeout=max(0.1, HEARTBEAT - (time.monotonic() - last)))
                except queue.Empty:
                    self._say("heartbeat")
                    last = time.monotonic()
                    continue
                kind, part, rest = (line.split("\t", 2) + ["", ""])[:3]
                if kind == "kernel":
                    self.progress.kernel(part, rest)
                    if time.monotonic() - last >= 3.0:   # not a line per small kernel
                        self._say("kernel")
                        last = time.monotonic()
                elif kind in ("done", "failed") and part == w.part:
                    if kind == "failed":
                        self.failed.append(part)
                    self.progress.finish(part, _seconds(rest) if kind == "done" else None)
                    ended.add(part)
                    w.part = None
                    self._say(f"{kind}\t{part}\t{rest}")
                    last = time.monotonic()
                    if not told_search and search <= ended:
                        told_search = True
                        if not self._search_failed(search):
                            self.search_ready()
                elif kind == "mismatch":
                    self.mismatches.append(f"{part}: {rest}")
                    self._say(f"mismatch\t{part}\t{rest}")
                elif kind == "exit" and w.part is not None:   # died in a part
                    self.failed.append(w.part)
                    self.progress.finish(w.part)
                    ended.add(w.part)
                    self._say(f"failed\t{w.part}\tworker exited with {w.process.wait()}")
                    w.part = None
            if not told_search and search <= ended and not self._search_failed(search):
                self.search_ready()
        finally:
            for w in workers:
                w.close()
        return not self.failed

    def _search_failed(self, search: set) -> bool:
        """Whether the search's last parts failed (a failed branch before them is compiled
        by them instead, so the search is ready all the same)."""
        needed = {a for n in search for a in self._part(n).after}
        return any(n in self.failed for n in search - needed)

    def _part(self, name: str) -> Part:
        return next(part for part in self.parts if part.name == name)

    def _say(self, event: str) -> None:
        """Report ``event``, its fields separated by tabs: ``start``, ``start PART``,
        ``heartbeat``, ``kernel``, ``done PART CPU``, ``failed PART WHY``, ``mismatch PART
        KERNEL``, with the running parts' CPU seconds brought up to date."""
        for w in self._workers:
            used = w.used() if w.part is not None else None
            if used is not None:
                self.progress.cpu(w.part, used)
        self._report(event)

    def _report(self, event: str) -> None:
        self.report(self.progress.snapshot(), event)


class _Failed(Exception):
    """A part failed: the lock is released without the ``.ready`` stamp."""


def compile_all(jobs: int, report: Callable[[Snapshot, str], None],
                compiling: Optional[threading.Event] = None,
                waiting: Optional[Callable[[float], None]] = None) -> bool:
    """The whole compile, once per machine for these sources: under the machine-wide lock of
    the search's compile (engines started together compile once; ``waiting(seconds)`` is
    called while another process holds it, ``compiling`` is set once it is ours), each
    kind's ``.ready`` stamp made as soon as its parts are done. Whether it all succeeded."""
    from . import _backend
    stamp = _backend.stamp()
    board_stamp = board_warmup._stamp()
    try:
        with board_warmup.one_compile_at_a_time(stamp, waiting):
            if compiling is not None:
                compiling.set()
            search_warm = board_warmup.cache_is_warm(stamp)
            board_warm = board_warmup.cache_is_warm(board_stamp)
            parts = [p for p in PARTS if not (p.name.startswith("search") and search_warm)
                     and not (p.name.startswith("board") and board_warm)]
            if not parts:
                return True
            if not search_warm:
                _backend.drop_stale_cache()
            if not Orchestra(parts, jobs, report,
                             search_ready=lambda: stamp.with_suffix(".ready").touch()).run():
                raise _Failed
            board_stamp.with_suffix(".ready").touch()
            return True
    except _Failed:
        return False


def default_jobs() -> int:
    """Worker processes: one per core."""
    return max(1, os.cpu_count() or 1)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gtp_engine.search.warmup",
                                     description="compile the board and search kernels into "
                                     "numba's cache, in parallel processes")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    parser.add_argument("--progress", action="store_true",
                        help="report progress on stderr (parts, share done, time left): the "
                        "default unless --quiet")
    parser.add_argument("--machine", action="store_true",
                        help="also write progress records on stdout (the engine reads them)")
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help="worker processes (default: one per core)")
    parser.add_argument("--search-first", action="store_true",
                        help="no effect: the search's parts always come first")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="give up while waiting for another compile when stdin closes")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(sys.stdin, sys.stdout)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    start = time.perf_counter()
    compiling = threading.Event()
    if args.exit_with_parent:
        board_warmup.leave_when_parent_leaves(compiling)
    reporter = Reporter(None if args.quiet else sys.stderr,
                        sys.stdout if args.machine else None, start)
    ok = compile_all(args.jobs, reporter, compiling, reporter.waiting)
    if not args.quiet:
        print(f"vargo: board and search kernels {'ready' if ok else 'partly compiled'} in "
              f"{time.perf_counter() - start:.1f} s", file=sys.stderr)
    return board_warmup.leave(args.exit_with_parent, 0 if ok else 1)


class Reporter:
    """Writes the compile's progress: human lines to ``human`` (stderr), records to ``machine``
    (the engine's pipe). A reader that went away (the engine exited) is ignored: the compile
    goes on for the next engine."""

    def __init__(self, human, machine, start: float):
        self.human = human
        self.machine = machine
        self.start = start
        self._waited = -HEARTBEAT

    def __call__(self, snapshot: Snapshot, event: str) -> None:
        kind, part, rest = (event.split("\t", 2) + ["", ""])[:3]
        if self.human is not None:
            elapsed = time.perf_counter() - self.start
            if kind == "start" and not part:
                head = (f"compiling the kernels for this machine, once, in {snapshot.total} "
                        "parts (later starts load them in a second)")
            elif kind == "mismatch":
                head = (f"{part} compiled {rest} again (the compile plan's argument types are "
                        "out of date: search.warmup)")
            elif kind == "failed":
                head = f"{part} failed: {rest}"
            elif kind == "done":
                head = f"{part} done ({rest} s of CPU)"
            else:
                head = None
            text = f"{head}; {snapshot.line()}" if head else snapshot.line()
            self._write(self.human, f"vargo: [{elapsed:.0f} s] {text}\n")
        if self.machine is not None:
            self._write(self.machine, snapshot.record() + "\n")

    def waiting(self, seconds: float) -> None:
        """While another process compiles these kernels: a line every ``HEARTBEAT`` seconds."""
        if self.human is not None and seconds >= self._waited + HEARTBEAT:
            self._waited = seconds
            self._write(self.human, f"vargo: [{time.perf_counter() - self.start:.0f} s] another "
                        "process is compiling the kernels for this machine; they load here "
                        f"when it is done (waiting {seconds:.0f} s)\n")

    def _write(self, stream, text: str) -> None:
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):
            if stream is self.machine:
                self.machine = None
            else:
                self.human = None


if __name__ == "__main__":
    sys.exit(main())
