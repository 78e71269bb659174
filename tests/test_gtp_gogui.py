"""GoGui's conversations with the engine, as GoGui 1.6 (Remi-Coulom/gogui, ``src/net/sf/gogui/``)
sends them to a player and to a ruler started with the same command line.

- GoGui's komi goes to the player only (``GtpSynchronizer.sendGameInfo``, which also ignores a
  refused ``komi`` without a word); the ruler keeps the komi of its command line.
"""

import subprocess
import sys

LOOSE_9 = ["--variant", "loose", "--size", "9"]


class GtpProcess:
    """An engine process driven one command at a time, as GoGui's ``GtpClient`` does."""

    def __init__(self, args):
        self.process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)

    def send(self, command: str):
        """``(success, text)`` of one command."""
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline().decode()
            assert line, f"the engine died on {command!r}"
            if line == "\n":
                break
            lines.append(line)
        text = "".join(lines)
        assert text[:1] in "=?", text
        return text[0] == "=", text[1:].strip()

    def ok(self, command: str) -> str:
        success, text = self.send(command)
        assert success, f"{command}: {text}"
        return text

    def close(self):
        """Exit code and stderr, after end of input (GoGui closes the pipe)."""
        self.process.stdin.close()
        stderr = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return self.process.wait(), stderr


def test_a_refused_komi_is_also_a_warning_on_stderr():
    """GoGui drops a refused ``komi`` silently, so the engine says it where GoGui's GTP shell
    shows it."""
    engine = GtpProcess(LOOSE_9)
    assert engine.send("komi 6.5") == (False, "loose komi must be an even integer, not 6.5")
    assert engine.send("komi 7_5")[0] is False
    engine.ok("komi 4")
    code, stderr = engine.close()
    warnings = [line for line in stderr.splitlines() if "komi refused" in line]
    assert len(warnings) == 2, stderr
    assert "loose komi must be an even integer, not 6.5" in warnings[0]
    assert "keeps komi 6" in warnings[0] and "-komi 6" in warnings[0]
    assert "'7_5'" in warnings[1]
