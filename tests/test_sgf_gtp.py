"""SGF through GTP: ``loadsgf`` and ``printsgf`` in process, and the file limits of ``loadsgf``
and ``--setup`` through real processes."""

import os
import subprocess
import sys

import pytest

import sgf
from gtp_engine.errors import quote_path
from test_gtp_engine import gtp, make_engine, refused


# ----------------------------------------------------------------- reading files, bounded
def test_loadsgf_refuses_a_file_over_the_limit_and_keeps_the_game(tmp_path, monkeypatch):
    monkeypatch.setattr(sgf, "MAX_FILE_BYTES", 64)
    path = tmp_path / "big.sgf"
    path.write_bytes(b"(;SZ[9];B[ee]C[" + b"x" * 100 + b"])")
    engine = make_engine("go", 9)
    gtp(engine, "play b C3")
    message = refused(engine, f"loadsgf {path}")
    assert message == f"cannot read {quote_path(path)}: more than 64 bytes, too big for an sgf file"
    assert [m.point for m in engine.game.moves] == [(2, 2)]
    path.write_bytes(b"(;SZ[9];B[ee])")                      # under the limit: read as usual
    gtp(engine, f"loadsgf {path}")
    assert [m.point for m in engine.game.moves] == [(4, 4)]


def test_loadsgf_of_an_endless_device_is_a_quick_clear_error():
    # loadsgf reads regular files only (a device, fifo or our own stdin is refused before reading)
    result = subprocess.run([sys.executable, "-m", "gtp_engine"], capture_output=True,
                            input=b"loadsgf /dev/zero\nname\n")
    assert result.returncode == 0
    answers = result.stdout.decode().split("\n\n")
    assert answers[0] == "? cannot read '/dev/zero': not a regular file"
    assert answers[1] == "= vargo"
    assert b"Traceback" not in result.stderr


@pytest.mark.parametrize("kind", ["device", "fifo", "too big"])
def test_setup_option_of_what_is_no_sgf_file_exits_with_a_usage_error(tmp_path, kind):
    """``--setup`` reads as loadsgf does: a device or a fifo with no writer (which used to block
    the engine before its first answer) is refused unread, a huge regular file unread whole."""
    path = {"device": "/dev/zero", "fifo": "fifo", "too big": "huge.sgf"}[kind]  # short: not cut
    if kind == "fifo":
        os.mkfifo(tmp_path / path)
    if kind == "too big":
        with open(tmp_path / path, "wb") as f:
            f.truncate(16 * 2 ** 20 + 1)                # sparse: no disk space taken
    result = subprocess.run([sys.executable, "-m", "gtp_engine", "--setup", path],
                            capture_output=True, input=b"name\n", cwd=tmp_path)
    reason = "more than 16 MiB, too big for an sgf file" if kind == "too big" else "not a regular file"
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.decode().endswith(f"--setup: cannot read {path!r}: {reason}\n")
    assert b"Traceback" not in result.stderr


# ----------------------------------------------------------------- printsgf after loadsgf
def test_printsgf_after_a_partial_loadsgf_writes_the_game_the_engine_holds(tmp_path):
    # The shared reproducer: the side variation W[dd] B[ee] ... used to become the main line.
    path = tmp_path / "branched.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9];B[aa](;W[bb];B[cc])(;W[dd];B[ee];W[ff];B[gg]))")
    engine = make_engine("go", 9)
    gtp(engine, f"loadsgf {path} 2")
    written = gtp(engine, "printsgf").replace("\n", "")
    assert written.endswith(";B[aa])") and "W[" not in written
    gtp(engine, "play w F4")
    again = sgf.game_from_sgf(gtp(engine, "printsgf").encode())
    assert [(m.color.letter, m.point) for m in again.moves] == [("b", (8, 0)), ("w", (3, 5))]


# ----------------------------------------------------------------- encodings
@pytest.mark.parametrize("data, message", [
    (b"(;GM[1]FF[4]CA[rot13]RU[Japanese]SZ[9];B[aa])", "node 0: bad CA[rot13]: not a character set"),
    (b"(;GM[1]FF[4]CA[UTF-16]RU[AGA]SZ[9];B[aa])", "node 0: bad CA[UTF-16]: the file is not in UTF-16"),
])
def test_loadsgf_blames_a_ca_it_cannot_honour_and_keeps_the_game(tmp_path, data, message):
    # Before: "? internal error: lookuperror ..." and "? node 0: unreadable RU[AGA]".
    path = tmp_path / "bad-ca.sgf"
    path.write_bytes(data)
    engine = make_engine("go", 9)
    gtp(engine, "play b C3")
    assert refused(engine, f"loadsgf {path}").startswith(message)
    assert len(engine.game.moves) == 1


def test_loadsgf_of_a_utf16_file_then_printsgf_in_utf8(tmp_path):
    path = tmp_path / "utf16.sgf"
    path.write_bytes("(;GM[1]SZ[9]PB[黒];B[ee])".encode("utf-16"))
    engine = make_engine("go", 9)
    gtp(engine, f"loadsgf {path}")
    assert [m.point for m in engine.game.moves] == [(4, 4)]
    assert "PB[黒]" in gtp(engine, "printsgf")
