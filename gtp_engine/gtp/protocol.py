"""GTP v2 line syntax: from raw input lines to commands, from answers to response text, and the
loop that serves a stream.

This module knows the wire format only (spec sections 2.2-2.11), never what a command means:
``serve`` hands each command to ``engine.execute(name, args)``, which answers
``(success, text)`` or raises ``GtpQuit``/``GtpFatalError`` after having its answer written.

Some answers are written while their command works (analysis streams, ``genmove_analyze``):
the handler returns a ``StreamedAnswer`` instead of text, and the server opens a
``ResponseStream`` for it (``=id`` at once, then lines as they come, then the empty line).
Work may go on in the background after a command (an analysis stream, pondering): every input
line, even an empty or comment line, first calls ``engine.interrupt()``, which stops that work
and waits for it (closing an open stream) before the line is read as a command. So the next
command ends a stream and is answered at once, after it.

Input preprocessing, as the spec orders it: control characters other than HT and LF are
dropped (CR and any other byte below 32, and DEL); everything from ``#`` on is a comment; HT
becomes a space; lines that are then empty are ignored. A line is ``[id] name [args...]``, the
id an unsigned integer echoed in the response. Each response is ``=[id] text`` or
``?[id] text`` followed by one empty line, written and flushed at once, strictly in the order
the commands came (controllers such as Sabaki send many commands before reading).
"""

import queue
import re
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import BinaryIO, Callable, List, Optional

from .errors import GtpFatalError, GtpQuit

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")            # all but HT, on input
_CONTROL_BUT_LF = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")       # in answers, LF separates lines
_ID = re.compile(r"[0-9]+")
#: Bytes that are not UTF-8 travel through as lone surrogates and come back out unchanged.
ENCODING, ERRORS = "utf-8", "surrogateescape"


@dataclass(frozen=True)
class Command:
    """One parsed command line. ``id`` is the id's text (None when absent); ``name`` may be empty
    when a line held only an id."""

    id: Optional[str]
    name: str
    args: List[str]


def parse_line(line: str) -> Optional[Command]:
    """The command in one input line (without its newline), or None for a line to ignore."""
    line = line.split("#", 1)[0]
    line = _CONTROL.sub("", line).replace("\t", " ")
    words = line.split(" ")
    words = [w for w in words if w]
    if not words:
        return None
    command_id = None
    if _ID.fullmatch(words[0]):
        command_id, words = words[0], words[1:]
    name = words[0] if words else ""
    return Command(command_id, name, words[1:])


def format_response(command_id: Optional[str], success: bool, text: str) -> str:
    """``=id text`` or ``?id text`` and the empty line that ends a response.

    The text's trailing whitespace is dropped and empty lines inside it are removed (an empty
    line would end the response early), as are control characters other than LF; tabs become
    spaces (the spec's output whitespace).
    """
    text = _CONTROL_BUT_LF.sub("", text.replace("\t", " "))
    lines = [line.rstrip() for line in text.rstrip().split("\n")]
    body = "\n".join(line for i, line in enumerate(lines) if line or i == 0)
    head = ("=" if success else "?") + (command_id or "")
    if body and not body.startswith("\n"):
        head += " "
    return f"{head}{body}\n\n"


class ResponseStream:
    """One response written while its command works: ``=id`` when opened, then each ``line``
    as it comes (flushed), then ``close`` writes the last lines and the empty line that ends
    it. Thread-safe; lines after ``close`` are dropped. Lines are cleaned as ``format_response``
    cleans a body (no control characters, no empty line: it would end the response early)."""

    def __init__(self, outfile: BinaryIO, lock: threading.Lock, command_id: Optional[str]):
        self._outfile = outfile
        self._lock = lock
        self.closed = False
        self._write("=" + (command_id or "") + "\n")

    def _write(self, text: str, closing: bool = False) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = closing
            try:
                self._outfile.write(text.encode(ENCODING, ERRORS))
                self._outfile.flush()
            except (BrokenPipeError, ValueError):  # the controller went away (or closed us)
                self.closed = True

    @staticmethod
    def _clean(text: str) -> str:
        lines = _CONTROL_BUT_LF.sub("", text.replace("\t", " ")).split("\n")
        return "".join(line.rstrip() + "\n" for line in lines if line.strip())

    def line(self, text: str) -> None:
        """Write one or more lines of the body now (dropped once closed)."""
        self._write(self._clean(text))

    def close(self, text: str = "") -> None:
        """Write ``text`` (may be empty) and the empty line ending the response; once."""
        self._write(self._clean(text) + "\n", closing=True)


@dataclass(frozen=True)
class StreamedAnswer:
    """What a handler returns for a response written while it works. Once the response is
    open, the server calls ``start(stream)``, which either writes and closes it before
    returning (``genmove_analyze``) or hands it to background work that closes it when
    ``engine.interrupt()`` stops it (``lz-analyze``)."""

    start: Callable[[ResponseStream], None]


#: the comment line GoGui writes during a command when the engine lists ``gogui-interrupt``
INTERRUPT_LINE = "# interrupt"


class _Reader:
    """Reads the input in a thread of its own, so that a line can act on the command that is
    running: GoGui's ``# interrupt``, or a ``quit``, arriving while a command runs call
    ``engine.abort_command()``, which ends its search at once (it answers with what it has).
    Lines read before the command started never abort it, nor do other lines: a script that
    writes ``genmove b`` and ``quit`` together gets a whole search, and controllers that send
    commands ahead (Sabaki) never cut a ``genmove`` short."""

    def __init__(self, engine, infile: BinaryIO):
        self._engine = engine
        self._infile = infile
        self._lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        self._lock = threading.Lock()
        self._running = False
        threading.Thread(target=self._run, name="gtp-input", daemon=True).start()

    def _run(self) -> None:
        try:
            for raw in iter(self._infile.readline, b""):
                text = raw.decode(ENCODING, ERRORS).strip()
                command = parse_line(text)
                if text.lower() == INTERRUPT_LINE or (command is not None and command.name == "quit"):
                    with self._lock:
                        if self._running:
                            self._engine.abort_command()
                self._lines.put(raw)
        except (OSError, ValueError):   # the input was closed under us
            pass
        self._lines.put(None)

    def starting(self) -> None:
        """A command starts: no abort meant for an earlier one applies to it."""
        with self._lock:
            self._running = True
            self._engine.clear_abort()

    def finished(self) -> None:
        with self._lock:
            self._running = False

    def __iter__(self):
        return iter(self._lines.get, None)


def serve(engine, infile: BinaryIO, outfile: BinaryIO) -> None:
    """Answer every command line of ``infile`` on ``outfile`` until ``quit``, a fatal error or
    end of input. ``engine.execute(name, args)`` returns ``(success, text)``, the text possibly
    a ``StreamedAnswer``; it raises ``GtpQuit``/``GtpFatalError`` (with their answer) to end
    the session. ``engine.interrupt()`` is called on every input line and at the end; the
    input is read ahead by ``_Reader``, which may abort the running command
    (``engine.abort_command()``, ``engine.clear_abort()``)."""
    lock = threading.Lock()

    def write(command, success, text):
        data = format_response(command.id, success, text).encode(ENCODING, ERRORS)
        with lock:
            outfile.write(data)
            outfile.flush()

    try:
        reader = _Reader(engine, infile)
        for raw in reader:
            engine.interrupt()
            command = parse_line(raw.decode(ENCODING, ERRORS).rstrip("\n"))
            if command is None:
                continue
            if not command.name:
                write(command, False, "missing command name")
                continue
            reader.starting()
            try:
                success, text = engine.execute(command.name, command.args)
            except GtpQuit as stop:
                write(command, True, stop.text)
                return
            except GtpFatalError as fatal:
                write(command, False, str(fatal))
                return
            finally:
                reader.finished()
            if isinstance(text, StreamedAnswer):
                _start_stream(text, ResponseStream(outfile, lock, command.id))
            else:
                write(command, success, text)
    finally:
        engine.interrupt()


def _start_stream(answer: StreamedAnswer, stream: ResponseStream) -> None:
    """A failure after ``=`` went out cannot become ``?``: report it on stderr and end the
    response, so that the controller and the engine stay in step."""
    try:
        answer.start(stream)
    except Exception:  # a bug: keep serving
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        stream.close()
