"""The engine driven from Node by ``@sabaki/gtp``, the controller Sabaki uses
(``tests/node/sabaki_gtp_test.js``: start-up commands, a user commands string, state-tracker
syncs with clear_board/play/undo, genmove, rewind and resync, the board read back; and a
Terrain Go session whose forts and map survive the syncs).

``sabaki_analysis_test.js`` reads our analysis streams in every game the way Sabaki does.

Skipped only when node or ``tests/node/node_modules`` is missing (``npm install --prefix
tests/node`` installs it; CI does).
"""

import os
import shutil
import subprocess
import sys

import pytest

NODE_DIR = os.path.join(os.path.dirname(__file__), "node")
REPO_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_node_script(name: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    for package in ("gtp", "go-board"):
        if not os.path.isdir(os.path.join(NODE_DIR, "node_modules", "@sabaki", package)):
            pytest.skip("run 'npm install --prefix tests/node' first")
    result = subprocess.run([node, os.path.join(NODE_DIR, name), sys.executable, REPO_DIR],
                            cwd=NODE_DIR, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("ok")


def test_sabaki_controller_session():
    run_node_script("sabaki_gtp_test.js")


def test_sabaki_reads_our_analysis_in_every_game():
    """``tests/node/sabaki_analysis_test.js``: kata-analyze, lz-analyze (and Lizzie's ownership)
    streamed and stopped as Sabaki does it, every line read by Sabaki's parsing rules; then
    kata-/lz-genmove_analyze queued on Sabaki's state tracker; in all five games."""
    run_node_script("sabaki_analysis_test.js")
