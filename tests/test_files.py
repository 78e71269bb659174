"""Safe writes: every file the project writes goes through ``files.write_atomically`` (a temporary
file in the same folder, fsync, rename), so a failed or killed write leaves the old file whole."""

import errno
import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gtp_engine.files import sweep_stale_temporaries, write_atomically

ROOT = Path(__file__).resolve().parent.parent


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;old game)")

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        write_atomically(path, b"(;new game)" * 1000)
    assert path.read_bytes() == b"(;old game)"
    assert os.listdir(tmp_path) == ["game.sgf"]


def test_the_data_reaches_the_disk_before_the_rename(tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd)))
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b)))
    path = tmp_path / "results.json"
    write_atomically(path, "{}\n")
    assert path.read_text() == "{}\n"
    assert calls[:2] == ["fsync", "replace"]


def test_permissions_and_symbolic_links_are_kept(tmp_path):
    real = tmp_path / "real.sgf"
    real.write_bytes(b"old")
    real.chmod(0o640)
    link = tmp_path / "link.sgf"
    link.symlink_to(real)
    write_atomically(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert real.stat().st_mode & 0o777 == 0o640


_PRINTSGF_OVER_THE_FILE_SIZE_LIMIT = textwrap.dedent("""
    import resource, signal, sys
    from gtp_engine.game import Game
    from gtp_engine.gtp import GtpEngine, GtpError
    engine = GtpEngine(Game("go", 19, None))
    for i, vertex in enumerate("D4 Q16 D16 Q4 C3 R17 C17 R3 K10 F3 O3 F17 O17 C10 R10".split()):
        engine.run_command("play", ["bw"[i % 2], vertex])
    half = len(engine.run_command("printsgf", [])) // 2
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)     # writes past the limit fail with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (half, half))
    try:
        engine.run_command("printsgf", [sys.argv[1]])
    except GtpError as err:
        print(err)
""")


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin", reason="RLIMIT_FSIZE")
def test_printsgf_that_fails_midway_leaves_the_old_file(tmp_path):
    """A real failed write: the file size limit stops the write halfway, as a full disk would. The old file (which the engine used to truncate first) is still whole."""
    path = tmp_path / "game.sgf"
    old = b"(;GM[1]FF[4]SZ[9];B[dd];W[ee])\n"
    path.write_bytes(old)
    done = subprocess.run([sys.executable, "-c", _PRINTSGF_OVER_THE_FILE_SIZE_LIMIT, str(path)],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"cannot write '{path}': file too large")
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["game.sgf"]


# Files written as a stream while they grow (a game's live transcript, an engine's stderr) and the
# lock files of the warm-up and of the fort cache are not replaced wholesale; everything else goes
# through write_atomically.
_STREAMED = {
    ("gtp_engine/match/runner.py", 'open(logs / f"game-{index + 1:04d}.gtp.log", "w")'),
    ("gtp_engine/match/runner.py", 'open(logs / f"{label}-seat{self.number}.stderr", "ab")'),
    ("gtp_engine/board/warmup.py", 'open(stamp.with_suffix(".lock"), "w")'),
    ("gtp_engine/search/fortcache.py", 'open(directory / f"{name}.lock", "a")'),
}
_DIRECT_WRITE = re.compile(r"""\.write_(?:text|bytes)\(|open\([^)]*["'][wax]b?["']\)""")


def test_the_project_writes_files_through_write_atomically_only():
    found = []
    for folder in ("gtp_engine", "sgf", "scripts"):
        for source in sorted((ROOT / folder).rglob("*.py")):
            name = source.relative_to(ROOT).as_posix()
            for line in source.read_text().splitlines():
                match = _DIRECT_WRITE.search(line)
                if match and not any(name == f and text in line for f, text in _STREAMED):
                    found.append(f"{name}: {line.strip()}")
    assert found == []


# ----------------------------------------------------------------- kills mid-write
# A writer that stops inside write_atomically, once its temporary file is written and before the
# rename: the fsync waits on its stdin (it never gets any), so the test kills it there, with no
# race. The real engine's printsgf, run in the main thread as the GTP loop runs it.
_PRINTSGF_THAT_HANGS_IN_FSYNC = textwrap.dedent("""
    import os, sys
    from gtp_engine.game import Game
    from gtp_engine.gtp import GtpEngine
    engine = GtpEngine(Game("go", 9, None))
    engine.run_command("play", ["b", "E5"])
    def hang(fd):
        print("in fsync", flush=True)
        sys.stdin.read()
    os.fsync = hang
    engine.run_command("printsgf", [sys.argv[1]])
""")


def _temporaries(folder):
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def _kill_during_printsgf(path, signum):
    writer = subprocess.Popen([sys.executable, "-c", _PRINTSGF_THAT_HANGS_IN_FSYNC, str(path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert writer.stdout.readline() == b"in fsync\n"
    assert len(_temporaries(path.parent)) == 1            # caught mid-write
    writer.send_signal(signum)
    _, stderr = writer.communicate()
    return writer.returncode, stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_terminated_printsgf_removes_its_temporary_file(tmp_path, signum):
    """SIGTERM (how frontends end an engine) and SIGINT mid-write: the temporary file goes, the
    old file stays whole, and SIGTERM still ends the process as the signal does."""
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9])\n")
    code, stderr = _kill_during_printsgf(path, signum)
    assert code == -signum, stderr            # the process still ends as the signal ends it
    assert os.listdir(tmp_path) == ["game.sgf"]
    assert path.read_bytes() == b"(;GM[1]FF[4]SZ[9])\n"


def test_a_killed_writers_temporary_file_goes_with_the_next_write_to_that_file(tmp_path):
    """SIGKILL cannot be handled: the hidden temporary file stays, until the next write to the
    same file succeeds and sweeps it. A live writer's temporary file and other files' are kept."""
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9])\n")
    code, _ = _kill_during_printsgf(path, signal.SIGKILL)
    assert code == -signal.SIGKILL
    [stale] = _temporaries(tmp_path)
    live_writer = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        kept = [f".game.sgf.{live_writer.pid}.1.0123abcd.tmp", f".game.sgf.{os.getpid()}.2.0123abcd.tmp",
                ".other.sgf.999999999.1.0123abcd.tmp", ".game.sgf.999999999.1.not-ours.tmp"]
        for name in kept:
            (tmp_path / name).write_bytes(b"partial")
        write_atomically(path, b"(;GM[1]FF[4]SZ[9];B[ee])\n")
        assert sorted(os.listdir(tmp_path)) == sorted(["game.sgf", *kept])
        assert path.read_bytes() == b"(;GM[1]FF[4]SZ[9];B[ee])\n"
    finally:
        live_writer.communicate(b"")
    assert sweep_stale_temporaries(path) == [str(tmp_path / kept[0])]     # its writer has ended
    assert stale not in os.listdir(tmp_path)
