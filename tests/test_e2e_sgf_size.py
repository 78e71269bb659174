"""End-to-end: FF[4] writes the board size as ``SZ[N]`` or ``SZ[columns:rows]``; a square board
given in the composed form (``SZ[9:9]``) is still a square board and must load.

Found by an end-to-end check: ``loadsgf`` of ``(;GM[1]FF[4]SZ[9:9];B[ee])`` answered
``? node 0: bad SZ[9:9]: not a square board size we can play``.
"""

import subprocess
import sys

import pytest

SGF = b"(;GM[1]FF[4]SZ[9:9]KM[7.5];B[ee];W[dd])"


@pytest.fixture
def square_composed(tmp_path):
    path = tmp_path / "composed.sgf"
    path.write_bytes(SGF)
    return path


def test_loadsgf_accepts_composed_square_size(square_composed):
    commands = f"loadsgf {square_composed}\ngogui-rules_board_size\ngogui-rules_side_to_move\n"
    result = subprocess.run([sys.executable, "-m", "gtp_engine"], input=commands.encode(),
                            capture_output=True, timeout=60)
    blocks = result.stdout.decode().split("\n\n")[:-1]
    assert blocks == ["=", "= 9", "= black"], blocks


def test_composed_rectangular_size_is_refused_clearly(tmp_path):
    path = tmp_path / "rect.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9:7];B[ee])")
    result = subprocess.run([sys.executable, "-m", "gtp_engine"], input=f"loadsgf {path}\n".encode(),
                            capture_output=True, timeout=60)
    answer = result.stdout.decode().split("\n\n")[0]
    assert answer.startswith("? node 0: bad SZ[9:7]"), answer
