"""GTP v2 line syntax: from raw input lines to commands, from answers to response text, and the
loop that serves a stream.

This module knows the wire format only (spec sections 2.2-2.11), never what a command means:
``serve`` hands each command to ``engine.execute(name, args)``, which answers
``(success, text)`` or raises ``GtpQuit``/``GtpFatalError`` after having its answer written.

Input preprocessing, as the spec orders it: control characters other than HT and LF are
dropped (CR and any other byte below 32, and DEL); everything from ``#`` on is a comment; HT
becomes a space; lines that are then empty are ignored. A line is ``[id] name [args...]``, the
id an unsigned integer echoed in the response. Each response is ``=[id] text`` or
``?[id] text`` followed by one empty line, written and flushed at once, strictly in the order
the commands came (controllers such as Sabaki send many commands before reading).
"""

import re
from dataclasses import dataclass
from typing import BinaryIO, List, Optional

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


def serve(engine, infile: BinaryIO, outfile: BinaryIO) -> None:
    """Answer every command line of ``infile`` on ``outfile`` until ``quit``, a fatal error or
    end of input. ``engine.execute(name, args)`` returns ``(success, text)``; it raises
    ``GtpQuit``/``GtpFatalError`` (with their answer) to end the session."""
    def write(command, success, text):
        outfile.write(format_response(command.id, success, text).encode(ENCODING, ERRORS))
        outfile.flush()

    for raw in iter(infile.readline, b""):
        command = parse_line(raw.decode(ENCODING, ERRORS).rstrip("\n"))
        if command is None:
            continue
        if not command.name:
            write(command, False, "missing command name")
            continue
        try:
            success, text = engine.execute(command.name, command.args)
        except GtpQuit as stop:
            write(command, True, stop.text)
            return
        except GtpFatalError as fatal:
            write(command, False, str(fatal))
            return
        write(command, success, text)
