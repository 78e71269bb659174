"""What GoGui accepts, as checks for tests: gfx answers, live gfx on stderr, the
``gogui-analyze_commands`` list and ``param`` answers.

Written from GoGui's manual (``doc/manual/xml/analyze.xml``, ``live-gfx.xml``) and source
(``AnalyzeDefinition``, ``AnalyzeShow.showGfxLine``, ``AnalyzeUtil.parseParameterLine``,
``LiveGfx.handleLine``, ``GoPoint.parsePoint``). GoGui silently skips what it cannot read;
these checks are stricter and fail on anything GoGui would skip, so that nothing we send is
lost on the way.
"""

import re
from typing import List, Optional, Tuple

GFX_COMMANDS = ("BLACK", "CIRCLE", "CLEAR", "COLOR", "INFLUENCE", "LABEL", "MARK", "SQUARE",
                "TEXT", "TRIANGLE", "VAR", "WHITE")
POINT_LIST_COMMANDS = ("BLACK", "CIRCLE", "MARK", "SQUARE", "TRIANGLE", "WHITE")
COLOR_NAMES = ("black", "blue", "cyan", "green", "gray", "magenta", "pink", "red", "white",
               "yellow")
ANALYZE_TYPES = ("bwboard", "cboard", "dboard", "eplist", "gfx", "hstring", "hpstring", "none",
                 "param", "plist", "pspairs", "pstring", "sboard", "string", "var", "varb",
                 "varc", "varp", "varpo", "varw")
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def point(text: str, size: int) -> Optional[Tuple[int, int]]:
    """A vertex GoGui reads on this board (None for pass); AssertionError otherwise."""
    t = text.upper()
    if t == "PASS":
        return None
    assert re.fullmatch(r"[A-HJ-Z][0-9]{1,2}", t), f"not a vertex: {text!r}"
    col, row = COLUMNS.index(t[0]), int(t[1:]) - 1
    assert 0 <= col < size and 0 <= row < size, f"off a {size}x{size} board: {text!r}"
    return (row, col)


def check_gfx_line(line: str, size: int) -> Tuple[str, List[str]]:
    """One draw command; returns (command, arguments)."""
    words = line.split()
    assert words, "an empty gfx line"
    command, args = words[0], words[1:]
    assert command in GFX_COMMANDS, f"unknown gfx command {command!r} in {line!r}"
    assert '"' not in line or command == "TEXT", f"quotes change GoGui's splitting: {line!r}"
    if command in POINT_LIST_COMMANDS:
        assert args, f"{command} without points"
        for word in args:
            assert point(word, size) is not None, f"pass in a point list: {line!r}"
    elif command == "COLOR":
        assert len(args) >= 2, line
        assert args[0] in COLOR_NAMES or re.fullmatch(r"#[0-9a-fA-F]{6}", args[0]), line
        for word in args[1:]:
            assert point(word, size) is not None, line
    elif command == "INFLUENCE":
        assert args and len(args) % 2 == 0, f"INFLUENCE needs point/number pairs: {line!r}"
        for vertex, value in zip(args[::2], args[1::2]):
            assert point(vertex, size) is not None, line
            assert _NUMBER.fullmatch(value) and -1 <= float(value) <= 1, f"{value!r} in {line!r}"
    elif command == "LABEL":
        assert args and len(args) % 2 == 0, f"LABEL needs point/text pairs: {line!r}"
        for vertex in args[::2]:
            assert point(vertex, size) is not None, line
    elif command == "VAR":
        assert args and len(args) % 2 == 0, f"VAR needs colour/move pairs: {line!r}"
        colours = [c.lower() for c in args[::2]]
        assert all(c in ("b", "w") for c in colours), line
        assert all(a != b for a, b in zip(colours, colours[1:])), f"colours alternate: {line!r}"
        for move in args[1::2]:
            point(move, size)
    elif command == "CLEAR":
        assert not args, line
    return command, args


def check_gfx(text: str, size: int) -> List[Tuple[str, List[str]]]:
    """A whole gfx answer: every line a draw command (an empty answer draws nothing)."""
    return [check_gfx_line(line, size) for line in text.split("\n") if line.strip()]


def live_gfx_blocks(stderr_lines: List[str]) -> List[str]:
    """The live views in a stderr transcript, as GoGui's ``LiveGfx`` reads them: a line
    ``gogui-gfx: COMMAND``, or ``gogui-gfx:`` alone followed by commands up to an empty line."""
    blocks, current = [], None
    for raw in stderr_lines:
        line = raw.strip()
        if current is not None:
            if line == "":
                blocks.append("\n".join(current))
                current = None
            else:
                current.append(line)
        elif line.startswith("gogui-gfx:"):
            rest = line[len("gogui-gfx:"):].strip()
            if rest:
                blocks.append(rest)
            else:
                current = []
    assert current is None, "a live gfx block without its empty line"
    return blocks


def check_analyze_commands(text: str) -> List[Tuple[str, str, str]]:
    """``type/label/command`` lines, as ``AnalyzeDefinition`` splits them on ``/``."""
    entries = []
    for line in text.split("\n"):
        parts = line.split("/")
        assert len(parts) == 3, f"not type/label/command: {line!r}"
        kind, label, command = parts
        assert kind in ANALYZE_TYPES and label and command.strip(), line
        entries.append((kind, label, command))
    return entries


def check_param(text: str) -> List[Tuple[str, str, str]]:
    """A ``param`` answer: ``[type] key value`` lines (``AnalyzeUtil.parseParameterLine``);
    returns (type, key, value)."""
    found = []
    for line in text.split("\n"):
        match = re.fullmatch(r"\[(string|bool|list/[^\]\s]+)\] (\S+)(?: (.*))?", line.strip())
        assert match, f"not a parameter line: {line!r}"
        kind, key, value = match.group(1), match.group(2), match.group(3) or ""
        if kind == "bool":
            assert value in ("0", "1"), line
        found.append((kind, key, value))
    return found
