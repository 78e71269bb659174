"""Safe writes: every file the project writes goes through ``files.write_atomically`` (a temporary
file in the same folder, fsync, rename), so a failed or killed write leaves the old file whole."""

import errno
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gtp_engine.files import write_atomically

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
