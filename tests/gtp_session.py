"""An engine served in process over pipes, driven line by line as a controller drives it:
``serve`` runs in a thread; the test writes command lines and reads the engine's output lines
as they come (streamed answers included). No deadlines: a read waits for the engine."""

import os
import threading
from typing import List

from gtp_engine.gtp import serve


class ServedEngine:
    def __init__(self, engine):
        self.engine = engine
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        self._to_engine = os.fdopen(in_write, "wb", buffering=0)
        self._from_engine = os.fdopen(out_read, "rb")
        engine_in, engine_out = os.fdopen(in_read, "rb"), os.fdopen(out_write, "wb")

        def run():
            try:
                serve(engine, engine_in, engine_out)
            finally:
                engine_out.close()
                engine_in.close()
        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def write(self, line: str) -> None:
        self._to_engine.write(line.encode() + b"\n")

    def read_line(self) -> str:
        """The next output line without its newline; AssertionError at end of output."""
        line = self._from_engine.readline()
        assert line, "the engine's output ended"
        return line.decode().rstrip("\n")

    def read_response(self) -> List[str]:
        """The lines of the next response up to (without) the empty line that ends it."""
        lines = []
        while True:
            line = self.read_line()
            if line == "":
                return lines
            lines.append(line)

    def send(self, line: str) -> str:
        """A command whose answer must be a success; the text after ``=``."""
        self.write(line)
        lines = self.read_response()
        assert lines and lines[0].startswith("="), f"{line}: {lines}"
        return "\n".join([lines[0][1:].strip()] + lines[1:]).strip()

    def close(self) -> bytes:
        """End of input: the engine stops; returns what it wrote that was not read."""
        self._to_engine.close()
        self._thread.join()
        rest = self._from_engine.read()
        self._from_engine.close()
        return rest
