"""The GTP server: line syntax (``protocol``), the session and its error contract (``engine``),
and one table of handlers per topic: ``core`` (the standard commands), ``extensions`` (the
games' own commands) and ``gogui`` (GoGui's ruler queries and analyze commands).

``GtpEngine(game).run_command(name, args)`` is the protocol without the wire;
``serve(engine, infile, outfile)`` puts it on a byte stream.
"""

from .engine import EngineSettings, GtpEngine
from .errors import GtpError, GtpFatalError, GtpQuit
from .protocol import Command, format_response, parse_line, serve

__all__ = ["GtpEngine", "EngineSettings", "GtpError", "GtpFatalError", "GtpQuit", "Command",
           "format_response", "parse_line", "serve"]
