"""Stopping a real engine process: GoGui's *Interrupt* (the engine lists ``gogui-interrupt``,
GoGui writes ``# interrupt`` during a command) ends a search, which answers with its best move
so far and plays it; ``quit`` ends the process while it searches, ponders or analyses.

The searches here would take ten minutes if nothing stopped them; the generous deadlines of
``communicate``/``wait`` only keep a broken engine from hanging the test run."""

import subprocess
import sys
import tempfile
import time

import pytest

from test_gtp_cli import GtpProcess

HANG_GUARD = 120   # seconds: far beyond any answer of a working engine


@pytest.fixture(autouse=True)
def _compiled(compiled_search_kernels):
    """Warm numba cache: the engines load compiled kernels in a moment."""


def test_gogui_interrupt_is_listed_and_ends_a_long_genmove_with_a_move_it_plays():
    engine = GtpProcess(["--size", "9", "--time", "600", "--threads", "1", "--quiet"])
    try:
        assert "gogui-interrupt" in engine.send("list_commands").split("\n")
        assert engine.send("gogui-interrupt") == ""
        engine.process.stdin.write(b"genmove b\n")
        engine.process.stdin.flush()
        time.sleep(1.0)   # the search is under way
        engine.process.stdin.write(b"# interrupt\n")
        engine.process.stdin.flush()
        move = engine.process.stdout.readline().decode().strip()
        assert engine.process.stdout.readline() == b"\n"
        assert move.startswith("= ") and move[2:] not in ("", "pass", "resign"), move
        vertex = move[2:]
        # the move is on our board, and the next command is searched in full, not aborted
        assert engine.send("play w pass") == ""
        rows = engine.send("gogui-rules_board").split("\n")
        column = "ABCDEFGHJ".index(vertex[0])
        assert rows[9 - int(vertex[1:])].split()[column] == "X"
    finally:
        engine.process.kill()
        engine.process.wait()


@pytest.mark.parametrize("start, pause", [
    ("genmove b", 1.0),                  # searching (ten minutes a move)
    ("kata-analyze b 50", 1.0),          # analysing
    ("genmove b\nplay w pass", 1.5),     # pondering after a quick genmove (--ponder)
])
def test_quit_ends_the_process_while_it_searches_ponders_or_analyses(start, pause):
    args = ["--size", "9", "--threads", "1", "--quiet"]
    args += ["--time", "0.2", "--ponder"] if "play" in start else ["--time", "600"]
    # stderr in a file: a compile child the engine started may hold a pipe open after it left
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
        try:
            process.stdin.write(start.encode() + b"\n")
            process.stdin.flush()
            time.sleep(pause)
            process.stdin.write(b"quit\n")
            process.stdin.flush()
            out, _ = process.communicate(timeout=HANG_GUARD)
        finally:
            process.kill()
        log.seek(0)
        err = log.read()
    assert process.returncode == 0, err.decode()[-2000:]
    assert out.decode().endswith("=\n\n")          # quit was answered, last
    assert b"Fatal Python error" not in err
