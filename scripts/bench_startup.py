"""Start-up benchmark: fresh engine processes, started the way a frontend or a match runner
starts them, and what their first moves get.

Warm cache (default): for each of ``--runs`` new processes, the time until ``name`` is
answered, the time ``boardsize`` and ``clear_board`` take (the set-up a frontend sends; its
first command waits for the kernels), then ``genmove b`` and ``genmove w`` with ``--time``
seconds a move:
each move's simulations, its wall time and whether it searched with the compiled kernels (from
the search summary on stderr). The first move should get about as many simulations as the
second.

``--cold``: the same from an empty numba cache (``NUMBA_CACHE_DIR`` in a new temporary folder,
which also makes the engine's compile stamps new): the time until ``name``, and until a first
``genmove`` that searched with the compiled kernels (a fixed-playout genmove waits for them);
then the engine is kept until its compile has ended (the line ``kernels ready in``), and the
CPU seconds of the whole compile are those of the engine and every process under it
(``RUSAGE_CHILDREN`` once all have ended), with the load average at start and end and the
longest silence on stderr while compiling. Run it from another checkout's root to measure
that checkout's engine (``python -m gtp_engine`` imports the current folder's).
``--venv`` first installs this checkout into a fresh virtual environment (``pip install .``,
the README's first command without ``-e``) and times that too; the cold start then runs with
that environment's Python.

    python scripts/bench_startup.py --runs 5
    python scripts/bench_startup.py --cold
    python scripts/bench_startup.py --cold --venv
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gtp_engine.match.gtp_client import GtpEngine  # noqa: E402

_SUMMARY = re.compile(r"^(\d+) simulations in ([0-9.]+) s \((.*)$", re.M)
_COMPILE_END = re.compile(r"board and search kernels (ready|partly compiled) in ([0-9.]+) s")


class Engine:
    """A fresh engine process with its stderr in a temporary file."""

    def __init__(self, python: str, options, env=None):
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log")
        saved = dict(os.environ)
        os.environ.update(env or {})
        try:
            self.started = time.perf_counter()
            self.gtp = GtpEngine([python, "-m", "gtp_engine", *options], stderr=self.log)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self._read = 0

    def timed(self, command: str, timeout: float = 900.0):
        t0 = time.perf_counter()
        answer = self.gtp.send(command, timeout=timeout)
        return answer, time.perf_counter() - t0

    def summaries(self):
        """The search summaries written since the last call: (simulations, seconds, compiled)."""
        self.log.flush()
        with open(self.log.name) as text:
            text.seek(self._read)
            new = text.read()
            self._read += len(new.encode())
        return [(int(n), float(s), "compiled" in rest and "interim" not in rest
                 and "pure Python" not in rest) for n, s, rest in _SUMMARY.findall(new)]

    def text(self) -> str:
        self.log.flush()
        with open(self.log.name) as text:
            return text.read()

    def close(self):
        self.gtp.close()
        self.log.close()


def warm(args) -> None:
    # no opening book: its moves are not searched, and this measures the search
    options = ["--size", str(args.size), "--time", str(args.time), "--threads", "1", "--no-book"]
    print(f"warm cache, {args.size}x{args.size}, --time {args.time}, one thread:")
    rows = []
    for run in range(args.runs):
        engine = Engine(sys.executable, options)
        try:
            _, name_s = engine.timed("name")
            name_s = time.perf_counter() - engine.started
            # the set-up every frontend sends before its first move (the first of it waits
            # for the kernels on a warm cache)
            _, setup_s = engine.timed(f"boardsize {args.size}")
            engine.timed("clear_board")
            moves = []
            for color in "bw":
                _, wall = engine.timed(f"genmove {color}")
                sims, _, compiled = (engine.summaries() or [(0, 0.0, False)])[-1]
                moves.append((sims, wall, compiled))
        finally:
            engine.close()
        rows.append((name_s, moves))
        (s1, w1, c1), (s2, w2, c2) = moves
        print(f"  run {run + 1}: name after {name_s:.2f} s, set-up {setup_s:.2f} s; "
              f"first move {s1:6d} simulations in {w1:.2f} s ({'compiled' if c1 else 'mirror'}); second {s2:6d} in "
              f"{w2:.2f} s ({'compiled' if c2 else 'mirror'}); first/second "
              f"{s1 / max(s2, 1):.2f}", flush=True)
    ratios = sorted(m[0][0] / max(m[1][0], 1) for _, m in rows)
    print(f"first/second move simulations: median {ratios[len(ratios) // 2]:.2f}, "
          f"min {ratios[0]:.2f}, max {ratios[-1]:.2f}")


def _has_children(pid: int) -> bool:
    """Whether process ``pid`` has a child process (Linux /proc; False elsewhere)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                if f.read().strip():
                    return True
        except OSError:
            pass
    return False


class Silence:
    """The longest time between two lines the engine wrote on stderr, while watched."""

    def __init__(self, engine: "Engine"):
        self.longest = 0.0
        self._engine = engine
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        size, since = 0, time.perf_counter()
        while not self._done.wait(0.25):
            now_size = os.path.getsize(self._engine.log.name)
            now = time.perf_counter()
            if now_size != size:
                size, since = now_size, now
            self.longest = max(self.longest, now - since)

    def stop(self) -> None:
        self._done.set()
        self._thread.join()


def make_venv(folder: Path) -> str:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    python = str(folder / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "-q", str(ROOT)], check=True)
    print(f"fresh venv and pip install . : {time.perf_counter() - t0:.1f} s")
    return python


def cold(args) -> None:
    # the compile child may still be writing the board's cache when we leave
    with tempfile.TemporaryDirectory(prefix="vargo-cold-", ignore_cleanup_errors=True) as folder:
        python = make_venv(Path(folder) / "venv") if args.venv else sys.executable
        cache = Path(folder) / "numba-cache"
        cache.mkdir()
        t0 = time.perf_counter()
        load = os.getloadavg()[0]
        engine = Engine(python, ["--size", str(args.size), "--playouts", str(args.playouts),
                                 "--threads", "1", "--no-book"],   # a book move is no search
                        env={"NUMBA_CACHE_DIR": str(cache)})
        silence = Silence(engine)
        try:
            engine.timed("name")
            name_s = time.perf_counter() - t0
            engine.timed("genmove b")
            first_s = time.perf_counter() - t0
            sims, seconds, compiled = (engine.summaries() or [(0, 0.0, False)])[-1]
            while not _COMPILE_END.search(engine.text()) and engine.gtp.alive:
                time.sleep(0.5)   # the board's parts may go on after the first move
            whole_s = time.perf_counter() - t0
            while engine.gtp.alive and _has_children(engine.gtp.process.pid):
                time.sleep(0.2)   # the engine reaps its compile: its CPU then counts as ours
        finally:
            silence.stop()
            engine.close()
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_s = cpu.ru_utime + cpu.ru_stime
        print(f"cold cache ({'fresh venv' if args.venv else 'this Python'}, {os.cpu_count()} "
              f"cores), load average {load:.1f} at start, {os.getloadavg()[0]:.1f} at end: "
              f"name after {name_s:.2f} s; first genmove (--playouts "
              f"{args.playouts}) answered after {first_s:.1f} s, {sims} simulations in "
              f"{seconds:.2f} s, {'compiled' if compiled else 'NOT compiled'}; whole compile "
              f"done after {whole_s:.1f} s, {cpu_s:.1f} s of CPU (the engine and all its "
              f"processes); longest silence on stderr {silence.longest:.1f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh processes (warm cache)")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (warm cache)")
    parser.add_argument("--playouts", type=int, default=1000, help="the cold start's first move")
    parser.add_argument("--cold", action="store_true", help="start from an empty numba cache")
    parser.add_argument("--venv", action="store_true", help="--cold in a fresh venv")
    args = parser.parse_args(argv)
    if args.cold or args.venv:
        cold(args)
    else:
        warm(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
