"""The first compile's progress: what is compiling, how much is done, how long is left
(``search.warmup``), what the engine keeps of it (``_backend.status``, GTP
``vargo-compile_progress``), and the words a search made before the compiled kernels says."""

import inspect
import sys
import textwrap
from pathlib import Path

import pytest

from gtp_engine.coords import Color
from gtp_engine.search import _backend, warmup
from gtp_engine.search.player import Analysis, SearchPlayer
from gtp_engine.search.warmup import Orchestra, Part, Progress, Snapshot

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


PARTS = (Part("a", 40.0, search=True), Part("b", 40.0, search=True),
         Part("c", 20.0, after=("a", "b"), search=True), Part("d", 20.0))
SPACED = (Part("search a", 40.0, search=True), Part("search b", 40.0, search=True),
          Part("search c", 20.0, after=("search a", "search b"), search=True),
          Part("board d", 20.0))


def test_progress_counts_parts_and_shares_by_weight():
    clock = Clock()
    progress = Progress(PARTS, workers=2, guess=1.0, clock=clock)
    snap = progress.snapshot()
    assert (snap.done, snap.total, snap.share, snap.what) == (0, 4, 0.0, "nothing")
    # a and b side by side (40 s), then c and d (20 s): 60 s; the search's 60 s too
    assert snap.eta == pytest.approx(60.0) and snap.eta_search == pytest.approx(60.0)
    progress.start("a")
    progress.start("b")
    clock.now += 10
    progress.kernel("a", "playout_move")
    snap = progress.snapshot()
    assert snap.what == "a (playout_move), b"
    assert snap.share == pytest.approx(20 / 120)
    assert snap.eta == pytest.approx(50.0)


def test_progress_learns_the_speed_from_the_parts_finished():
    clock = Clock()
    progress = Progress(PARTS, workers=2, guess=1.0, clock=clock)
    progress.start("a")
    progress.start("b")
    clock.now += 80           # twice as slow as the reference: a loaded machine
    progress.finish("a")
    progress.finish("b")
    assert progress.speed() == pytest.approx(0.5)
    snap = progress.snapshot()
    assert (snap.done, snap.share) == (2, pytest.approx(80 / 120))
    assert snap.eta == pytest.approx(40.0)          # c and d, 20 s each, side by side
    progress.start("c")
    progress.start("d")
    clock.now += 40
    progress.finish("c")
    snap = progress.snapshot()
    assert snap.eta_search == 0.0 and snap.done == 3


def test_progress_schedules_a_part_after_those_it_needs():
    clock = Clock()
    progress = Progress(PARTS, workers=3, guess=1.0, clock=clock)
    ends = progress.schedule(clock.now)
    # d takes the third worker at once; c waits for a and b
    assert ends["d"] == pytest.approx(120.0) and ends["c"] == pytest.approx(160.0)


def test_a_part_overrunning_its_weight_is_never_counted_done():
    clock = Clock()
    progress = Progress(PARTS[:1], workers=1, guess=1.0, clock=clock)
    progress.start("a")
    clock.now += 500
    snap = progress.snapshot()
    assert snap.share == pytest.approx(0.95) and snap.done == 0 and snap.eta > 0


def test_snapshot_record_round_trips_and_the_line_says_it_all():
    snap = Snapshot("search tree (prior), board moves", 2, 6, 0.4567, 41.2, 12.0)
    back = Snapshot.parse(snap.record())
    assert back.what == snap.what and (back.done, back.total) == (2, 6)
    assert back.share == pytest.approx(0.457) and (back.eta, back.eta_search) == (41.0, 12.0)
    line = snap.line()
    assert "2 of 6 parts done (46%)" in line and "about 41 s left" in line
    assert "the search's kernels in 12 s" in line and line.endswith("compiling " + snap.what)
    unknown = Snapshot.parse(Snapshot("x", 0, 1, 0.0, None, None).record())
    assert unknown.eta is None and "not known" in unknown.line()
    with pytest.raises(ValueError):
        Snapshot.parse("vargo: something else")


def test_speed_guess_shares_the_cores_with_the_load():
    assert warmup.speed_guess(2, load=0.0, cores=2) == 1.0
    assert warmup.speed_guess(2, load=6.0, cores=2) == pytest.approx(0.25)


# A worker that compiles nothing: it sleeps a while per part and reports as the real one does.
FAKE_WORKER = textwrap.dedent("""
    import sys, time
    for line in sys.stdin:
        part = line.strip()
        time.sleep(0.3 if part == "search a" else 0.05)
        print("kernel", part, "k", sep="\\t", flush=True)
        if part == "board d":
            print("failed", part, "RuntimeError: no", sep="\\t", flush=True)
        else:
            print("done", part, "0.1", sep="\\t", flush=True)
""")


def test_orchestra_runs_parts_in_order_with_heartbeats(monkeypatch):
    """Part names hold spaces; a part starts once those it comes after are done."""
    monkeypatch.setattr(warmup, "HEARTBEAT", 0.05)
    events = []
    ready = []
    orchestra = Orchestra(SPACED, 2, lambda snap, event: events.append((event, snap)),
                          search_ready=lambda: ready.append([e for e, _ in events]),
                          guess=1.0, command=(sys.executable, "-c", FAKE_WORKER))
    assert orchestra.run() is False              # board d failed
    assert orchestra.failed == ["board d"]
    names = [e for e, _ in events]
    assert names[0] == "start"
    assert names.index("start\tsearch c") > max(names.index("done\tsearch a\t0.1"),
                                               names.index("done\tsearch b\t0.1"))
    assert "heartbeat" in names                   # search a sleeps six heartbeats long
    assert "failed\tboard d\tRuntimeError: no" in names
    # the search's parts were reported ready once, when search c was done
    assert len(ready) == 1 and "done\tsearch c\t0.1" in ready[0]
    last = events[-1][1]
    assert (last.done, last.total, last.share, last.what) == (4, 4, 1.0, "nothing")


def test_reporter_writes_lines_and_records_and_survives_a_closed_reader(capsys):
    class Closed:
        def write(self, text):
            raise BrokenPipeError

        def flush(self):
            pass

    out = []

    class Lines:
        def write(self, text):
            out.append(text)

        def flush(self):
            pass

    reporter = warmup.Reporter(Lines(), Closed(), start=0.0)
    snap = Snapshot("search tree", 1, 6, 0.3, 50.0, 20.0)
    reporter(snap, "start")
    reporter(snap, "done\tsearch playouts\t30.2")
    reporter(snap, "start\tsearch moves")
    assert reporter.machine is None
    assert "compiling the kernels for this machine, once, in 6 parts" in out[0]
    assert ("search playouts done (30.2 s of CPU); 1 of 6 parts done (30%), about 50 s left"
            in out[1])
    assert len(out) == 3 and "compiling search tree" in out[2]


def test_the_plan_calls_each_kernel_with_all_its_arguments(monkeypatch):
    """Each part compiled by signature passes every parameter of the kernel (the mirror's
    kernels here: nothing compiles)."""
    calls = []
    monkeypatch.setattr(warmup, "_compile",
                        lambda function, *values: calls.append((function, values)))
    by_signature = [part.name for part in warmup.PARTS if part.provides]
    for name in by_signature:
        warmup._COMPILES[name](_backend.mirror)
    assert len(calls) == len(by_signature) == 5
    assert [f"{f.__module__.split('.')[-2]}.{f.__name__}"
            for f, _ in calls] == [part.provides[0] for part in warmup.PARTS if part.provides]
    for function, values in calls:
        assert len(inspect.signature(function).parameters) == len(values), function.__name__
    assert {part.name for part in warmup.PARTS} == set(warmup._COMPILES)
    for part in warmup.PARTS:
        assert all(a in warmup._COMPILES for a in part.after)


def _analysis(simulations, interim, compiled, note=""):
    return Analysis(Color.BLACK, 9, [], simulations, 10.0, compiled=compiled,
                    interim_simulations=interim, kernels_note=note)


def test_a_summary_made_by_the_interim_kernels_says_so_and_gives_no_speed():
    text = SearchPlayer.summary(_analysis(80, 80, False, "compiling 45% done, ready in about 30 s"))
    assert text.startswith("80 simulations in 10.00 s (interim pure-Python kernels while the "
                           "compiled ones are prepared: compiling 45% done, ready in about 30 s;"
                           " not the engine's speed")
    assert "/s" not in text.split("\n")[0]


def test_a_summary_half_interim_says_how_many_and_a_compiled_one_gives_the_speed():
    mixed = SearchPlayer.summary(_analysis(5000, 40, True))
    assert "40 of them by the interim pure-Python kernels, the rest compiled" in mixed
    assert "/s" not in mixed.split("\n")[0]
    compiled = SearchPlayer.summary(_analysis(5000, 0, True))
    assert "(500/s, 1 thread(s), compiled, 0 nodes, 0 edges)" in compiled


def test_compile_status_keeps_the_latest_record_and_counts_down(monkeypatch):
    status = _backend.CompileStatus()
    assert status.snapshot() == ("idle", None) or status.snapshot()[0] == "ready"
    monkeypatch.setattr(_backend, "compiled", lambda: False)
    status.set_state("compiling")
    status.record("not a record\n")
    assert status.snapshot() == ("compiling", None)
    status.record(Snapshot("search tree", 1, 6, 0.25, 60.0, 20.0).record() + "\n")
    state, snap = status.snapshot()
    assert state == "compiling" and snap.what == "search tree" and snap.eta <= 60.0
    assert status.words().startswith("compiling 25% done, ready in about ")
    monkeypatch.setattr(_backend, "compiled", lambda: True)
    assert status.state() == "ready"


def test_gtp_compile_progress_answers_the_status(monkeypatch):
    from gtp_engine.gtp.extensions import compile_progress
    status = _backend.CompileStatus()
    monkeypatch.setattr(_backend, "status", status)
    monkeypatch.setattr(_backend, "compiled", lambda: False)
    status.set_state("compiling")
    status.record(Snapshot("search tree (prior), board moves", 1, 6, 0.25, None, 20.0).record())
    answer = compile_progress(None, [])
    assert answer.startswith("state compiling done 1 total 6 share 0.25 eta - search_eta ")
    assert answer.endswith(" what search tree (prior), board moves")
    monkeypatch.setattr(_backend, "compiled", lambda: True)
    assert compile_progress(None, []) == "state ready"


def test_the_engine_keeps_the_records_its_compile_child_writes(monkeypatch):
    import io
    status = _backend.CompileStatus()
    monkeypatch.setattr(_backend, "status", status)
    monkeypatch.setattr(_backend, "compiled", lambda: False)
    status.set_state("compiling")

    class Child:
        stdout = io.StringIO("vargo: a line for people\n"
                             + Snapshot("search priors", 0, 8, 0.1, 90.0, 80.0).record() + "\n"
                             + Snapshot("search moves", 2, 8, 0.5, 40.0, 30.0).record() + "\n")

    _backend._read_records(Child())
    state, snap = status.snapshot()
    assert state == "compiling" and (snap.what, snap.done, snap.total) == ("search moves", 2, 8)


@pytest.mark.slow
def test_a_cold_compile_in_parts_compiles_each_branch_once(tmp_path):
    """The whole warm-up from an empty cache (minutes of CPU): every part succeeds and none
    compiles again a kernel an earlier part provides (the plan's argument types are right)."""
    import os
    import subprocess
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-m", "gtp_engine.search.warmup", "--progress"],
                          capture_output=True, text=True, env=env, cwd=str(ROOT))
    assert done.returncode == 0, done.stderr
    assert "again (the compile plan" not in done.stderr
    assert f"{len(warmup.PARTS)} of {len(warmup.PARTS)} parts done (100%)" in done.stderr
    assert "board and search kernels ready in" in done.stderr


def test_dropping_a_stale_cache_leaves_other_caches_alone(tmp_path, monkeypatch):
    """With NUMBA_CACHE_DIR set, only the search kernels' files there go; the checkout's own
    ``__pycache__`` (another cache, maybe in use) stays."""
    source = tmp_path / "src" / "kernels.py"
    (source.parent / "__pycache__").mkdir(parents=True)
    source.write_text("")
    monkeypatch.setattr(_backend, "_SOURCE", source)
    own = source.parent / "__pycache__" / "kernels.run-1.py311.nbi"
    own.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    other = _backend.cache_folder() / "kernels.run-1.py311.nbi"
    assert str(other).startswith(str(tmp_path / "numba"))
    other.parent.mkdir(parents=True)
    other.write_text("")
    _backend.drop_stale_cache()
    assert own.exists() and not other.exists()
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert _backend.cache_folder() == source.parent / "__pycache__"
    _backend.drop_stale_cache()
    assert not own.exists()


def test_waiting_for_another_compile_is_said_and_a_failed_compile_leaves_the_stamp_cold(tmp_path):
    import fcntl
    import threading
    from gtp_engine.board import warmup as board_warmup
    stamp = tmp_path / "vargo-search-x"
    waits = []
    with open(stamp.with_suffix(".lock"), "w") as other:
        fcntl.flock(other, fcntl.LOCK_EX)          # another process compiling

        def compile_here():
            with board_warmup.one_compile_at_a_time(stamp, waiting=waits.append):
                pass

        thread = threading.Thread(target=compile_here)
        thread.start()
        while not waits:
            thread.join(0.05)
        fcntl.flock(other, fcntl.LOCK_UN)
    thread.join()
    assert waits[0] == pytest.approx(0.0, abs=1.0) and board_warmup.cache_is_warm(stamp)
    cold = tmp_path / "vargo-search-y"
    with pytest.raises(RuntimeError):
        with board_warmup.one_compile_at_a_time(cold):
            raise RuntimeError("a part failed")
    assert not board_warmup.cache_is_warm(cold)


def test_the_reporter_says_it_waits_once_a_heartbeat():
    out = []

    class Lines:
        def write(self, text):
            out.append(text)

        def flush(self):
            pass

    reporter = warmup.Reporter(Lines(), None, start=0.0)
    for seconds in range(0, 20):
        reporter.waiting(float(seconds))
    assert len(out) == len(range(0, 20, int(warmup.HEARTBEAT)))
    assert "another process is compiling the kernels for this machine" in out[0]


def test_progress_counts_the_cpu_the_workers_spent_and_never_goes_back():
    """On a busy machine each worker gets a fraction of a core: the share done is the CPU
    spent, the time left follows from the CPU a worker gets a second."""
    clock = Clock()
    progress = Progress(PARTS, workers=2, guess=1.0, clock=clock)
    progress.start("a")
    progress.start("b")
    clock.now += 40
    progress.cpu("a", 10.0)       # a quarter of a core each
    progress.cpu("b", 10.0)
    assert progress.speed() == pytest.approx(0.25)
    snap = progress.snapshot()
    assert snap.share == pytest.approx(20 / 120)
    # a and b need 30 s of CPU more (120 s), then c and d 20 s (80 s)
    assert snap.eta == pytest.approx(200.0)
    progress.finish("a", cpu=40.0)          # a finished early on the clock...
    clock.now += 0.0
    progress.cpu("b", 2.0)                  # ...a smaller figure never lowers the share
    assert progress.snapshot().share >= snap.share
