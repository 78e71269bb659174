"""Golden GTP transcripts: ``tests/golden/<name>.gtp`` is a command script, ``<name>.out`` the
engine's expected stdout, byte for byte, through the real stdin/stdout of
``python -m gtp_engine``.

The script's first line is ``# args: ...``, the engine's command line. Comments in the scripts
hold the positions as diagrams and say what each answer must be by RULES.md; the committed
outputs were checked against them by hand. To regenerate after a deliberate change, run with
``VARGO_REGEN_GOLDEN=1`` and review the diff before committing it.
"""

import os
import pathlib
import shlex
import subprocess
import sys

import pytest

GOLDEN = pathlib.Path(__file__).parent / "golden"
REPO = GOLDEN.parent.parent
SCRIPTS = sorted(GOLDEN.glob("*.gtp"))


def engine_args(script: pathlib.Path):
    first = script.read_text().splitlines()[0]
    assert first.startswith("# args:"), f"{script.name} must start with '# args: ...'"
    return shlex.split(first[len("# args:"):])


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_golden_transcript(script):
    result = subprocess.run([sys.executable, "-m", "gtp_engine", *engine_args(script)],
                            input=script.read_bytes(), capture_output=True, cwd=REPO)
    assert result.returncode == 0, result.stderr.decode()
    expected = script.with_suffix(".out")
    if os.environ.get("VARGO_REGEN_GOLDEN"):
        expected.write_bytes(result.stdout)
    assert result.stdout.decode() == expected.read_text()


def test_every_game_has_a_transcript():
    from gtp_engine.rules import ALL_RULES
    assert {rules.name for rules in ALL_RULES} <= {s.stem for s in SCRIPTS}
