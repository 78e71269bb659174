"""A GTP controller's side of the wire: one engine subprocess, commands with deadlines.

``GtpEngine`` starts a GTP engine from a shell-style command line, sends one command at a time
and reads its response with a deadline. It knows the protocol, not the games: what a response
means is the caller's business (the match referee in ``gtp_engine.match.referee``).

How an exchange can fail, as exceptions the referee turns into a lost game:

- ``GtpCommandError``: the engine answered ``? message`` (it is still usable);
- ``EngineDied``: end of output or a broken pipe (the process is gone);
- ``EngineTimeout``: no complete response before the deadline (the process is killed);
- ``MalformedResponse``: output that is not a GTP response (the process is killed, since the
  stream can no longer be trusted).

The engine runs in its own session, so a Ctrl-C meant for the controller does not reach it,
and ``kill`` ends the engine and anything it started. A reader thread moves the engine's
output into a queue, which is what makes deadlines possible on a pipe. ``transcript`` (any
text stream) receives every command and response, prefixed by the engine's label.

Analysis streams (``kata-analyze``, ``lz-analyze``): ``open_stream`` sends the command and reads
its ``=``; ``stream_line`` hands out the lines that follow as they come; ``close_stream`` (and
any ``send`` while a stream is open) writes an empty line, which ends the stream as every input
line does, and reads up to the empty line that ends its response.
"""

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from typing import IO, List, Optional, Sequence, Union

#: Seconds an engine gets to answer a command that is not ``genmove`` (start-up included).
DEFAULT_COMMAND_TIMEOUT = 60.0


class GtpFailure(Exception):
    """Root of everything that can go wrong talking to an engine. ``kind`` names it for records."""

    kind = "failure"


class GtpCommandError(GtpFailure):
    """The engine answered ``? message``; ``message`` is its text."""

    kind = "error"

    def __init__(self, command: str, message: str):
        self.command = command
        self.message = message
        super().__init__(f"{command.split()[0]!r} refused: {message}" if command else message)


class EngineDied(GtpFailure):
    """The engine's output ended or its input broke: the process has exited."""

    kind = "crash"


class EngineTimeout(GtpFailure):
    """No complete response before the deadline; the engine has been killed."""

    kind = "timeout"


class MalformedResponse(GtpFailure):
    """The engine wrote something that is not a GTP response; it has been killed."""

    kind = "malformed"


def split_command(command: Union[str, Sequence[str]]) -> List[str]:
    """The argument vector of an engine command line (shell quoting rules, no shell)."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("empty engine command")
    return argv


class GtpEngine:
    """A running GTP engine.

    ``command`` is a command line (split with shell quoting, run without a shell) or an argument
    vector. ``label`` names the engine in messages and the transcript; ``stderr`` is a file
    object for the engine's standard error (default: discarded); ``cwd`` its working directory.
    Raises ``EngineDied`` when the program cannot be started.
    """

    def __init__(self, command: Union[str, Sequence[str]], label: str = "engine",
                 stderr: Optional[IO] = None, cwd: Optional[str] = None,
                 transcript: Optional[IO] = None):
        self.argv = split_command(command)
        self.label = label
        self.transcript = transcript
        self._known: Optional[dict] = None
        self._listed = False
        self._streaming: Optional[str] = None
        self._stream_head: Optional[str] = None
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=stderr if stderr is not None else subprocess.DEVNULL,
                cwd=cwd, start_new_session=True)
        except OSError as err:
            raise EngineDied(f"{label}: cannot start {self.argv[0]!r}: {err.strerror or err}") from err
        self._reader = threading.Thread(target=self._read_output, name=f"gtp-{label}", daemon=True)
        self._reader.start()

    # ----------------------------------------------------------------- process
    def _read_output(self) -> None:
        """Put each line the engine writes on the queue, then None at the end of its output."""
        stream = self.process.stdout
        try:
            for raw in iter(stream.readline, b""):
                self._lines.put(raw.decode("utf-8", "replace"))
        except (ValueError, OSError):
            pass   # ``kill`` closed the pipe between two lines: the output has ended all the same
        self._lines.put(None)

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    @property
    def pid(self) -> int:
        return self.process.pid

    def session_cpu_seconds(self) -> Optional[float]:
        """CPU seconds (user and system) used so far by the processes of the engine's session.

        Read from ``/proc``: the live processes whose session is the engine's, each with the
        children it has already waited for. None where ``/proc`` cannot say (another system,
        or the engine gone). This is how the referee measures an engine without ``cputime``.
        """
        ticks_per_second = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        session = self.process.pid
        total = 0
        found = False
        try:
            entries = os.listdir("/proc")
        except OSError:
            return None
        for entry in entries:
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    text = stat.read().decode("ascii", "replace")
            except OSError:
                continue
            # The name (field 2) may hold spaces and parentheses: the fields after it start past
            # the last ')'.
            fields = text[text.rfind(")") + 2:].split()
            if len(fields) < 15 or int(fields[3]) != session:
                continue
            found = True
            utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
            total += utime + stime + cutime + cstime
        return total / ticks_per_second if found else None

    def kill(self) -> None:
        """End the engine and everything in its session at once (no-op when already gone)."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        self._close_pipes()
        self.process.wait()

    def close(self, timeout: float = 5.0) -> None:
        """Ask the engine to ``quit`` and wait for it; kill it if it does not go in time."""
        if self.process.poll() is None:
            try:
                self.send("quit", timeout=timeout)
            except GtpFailure:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def _close_pipes(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def _log(self, direction: str, text: str) -> None:
        if self.transcript is not None:
            for line in text.splitlines() or [""]:
                self.transcript.write(f"{self.label} {direction} {line}\n")
            self.transcript.flush()

    # ----------------------------------------------------------------- protocol
    def send(self, command: str, timeout: Optional[float] = DEFAULT_COMMAND_TIMEOUT) -> str:
        """Send one command and return the text of a successful response (without ``=``).

        ``timeout`` in seconds (None waits for ever). Raises ``GtpCommandError`` for ``?``
        answers, and ``EngineDied``, ``EngineTimeout`` or ``MalformedResponse`` as described
        in the module docstring (the last two kill the engine).
        """
        self.close_stream(timeout)
        self._write(command)
        deadline = None if timeout is None else time.monotonic() + timeout
        ok, text = self._read_response(command, deadline)
        if not ok:
            raise GtpCommandError(command, text)
        return text

    def _write(self, command: str) -> None:
        self._log(">>", command)
        try:
            self.process.stdin.write(command.encode("utf-8") + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as err:
            name = command.split()[0] if command.strip() else "an empty line"
            raise EngineDied(f"{self.label} has exited (writing {name!r}: {err})") from err

    def interrupt(self) -> None:
        """Write GoGui's interrupt, the comment line ``# interrupt``, from any thread while a
        command runs: an engine that lists ``gogui-interrupt`` ends that command's search and
        answers at once; to any other engine it is a comment."""
        try:
            self._write("# interrupt")
        except EngineDied:
            pass

    # ----------------------------------------------------------------- streams
    def open_stream(self, command: str, timeout: Optional[float] = DEFAULT_COMMAND_TIMEOUT) -> None:
        """Send a command whose answer streams (``kata-analyze B 50``) and read its ``=`` line;
        raises as ``send`` does (``GtpCommandError`` when the engine refuses it)."""
        self.close_stream(timeout)
        self._write(command)
        deadline = None if timeout is None else time.monotonic() + timeout
        line = self._first_line(command, deadline)
        if line[0] == "?":
            body = [line[1:].lstrip("0123456789").strip()]
            line = self._next_line(command, deadline)
            while line.strip():
                body.append(line)
                line = self._next_line(command, deadline)
            text = "\n".join(body).strip()
            self._log("<<", "? " + text)
            raise GtpCommandError(command, text)
        self._log("<<", line)
        self._streaming = command
        first = line[1:].lstrip("0123456789").strip()
        self._stream_head = first or None  # an engine may write its first line on the = line

    @property
    def streaming(self) -> bool:
        return self._streaming is not None

    def stream_line(self, timeout: float) -> Optional[str]:
        """The next line of the open stream; None when none came within ``timeout`` seconds;
        ``""`` once the stream has ended (then no stream is open). Raises ``EngineDied``."""
        if self._streaming is None:
            return ""
        if self._stream_head is not None:
            line, self._stream_head = self._stream_head, None
            return line
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)
            command, self._streaming = self._streaming, None
            self.process.wait()
            raise EngineDied(f"{self.label} exited (code {self.process.returncode}) "
                             f"while streaming {command.split()[0]!r}")
        line = line.rstrip("\r\n").replace("\r", "")
        if not line.strip():
            self._streaming = None
            return ""
        return line

    def close_stream(self, timeout: Optional[float] = DEFAULT_COMMAND_TIMEOUT) -> None:
        """End the open stream, if any: an empty line stops it; its last lines are dropped."""
        if self._streaming is None:
            return
        command = self._streaming
        self._write("")
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while self._next_line(command, deadline).strip():
                pass
        finally:
            self._streaming = None

    def _next_line(self, command: str, deadline: Optional[float]) -> str:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self.kill()
            raise EngineTimeout(f"{self.label} did not answer {command.split()[0]!r} in time") from None
        if line is None:
            self._lines.put(None)  # keep reporting the end to later reads
            self.process.wait()
            raise EngineDied(f"{self.label} exited (code {self.process.returncode}) "
                             f"before answering {command.split()[0]!r}")
        return line.rstrip("\r\n").replace("\r", "")

    def _first_line(self, command: str, deadline: Optional[float]) -> str:
        """The first line of a response (``=...`` or ``?...``); stray empty lines between
        responses are tolerated, anything else is a ``MalformedResponse`` (engine killed)."""
        line = self._next_line(command, deadline)
        while not line.strip():
            line = self._next_line(command, deadline)
        if line[0] not in "=?":
            self._log("<<", line)
            self.kill()
            raise MalformedResponse(f"{self.label} answered {command.split()[0]!r} with {line[:80]!r}, "
                                    f"not a gtp response")
        return line

    def _read_response(self, command: str, deadline: Optional[float]):
        line = self._first_line(command, deadline)
        ok = line[0] == "="
        body = [line[1:].lstrip("0123456789").strip()]
        while True:
            line = self._next_line(command, deadline)
            if not line.strip():
                break
            body.append(line)
        text = "\n".join(body).strip()
        self._log("<<", ("= " if ok else "? ") + text)
        return ok, text

    # ----------------------------------------------------------------- helpers
    def known(self, command: str) -> bool:
        """Whether the engine implements ``command``: from ``list_commands`` when the engine has it,
        else by asking ``known_command`` (answers are remembered)."""
        if self._known is None:
            try:
                self._known = dict.fromkeys(self.send("list_commands").split(), True)
                self._listed = True
            except GtpCommandError:
                self._known, self._listed = {}, False
        if command not in self._known:
            if self._listed:
                return False
            try:
                self._known[command] = self.send(f"known_command {command}").strip().lower() == "true"
            except GtpCommandError:
                self._known[command] = False
        return self._known[command]

    def __repr__(self) -> str:
        return f"<GtpEngine {self.label} pid {self.process.pid} {shlex.join(self.argv)!r}>"
