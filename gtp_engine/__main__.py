"""``python -m gtp_engine`` (and the ``vargo`` console script): a GTP session on stdin/stdout."""

import os
import sys

from .import_path import forget_working_directory

if __name__ == "__main__":  # a folder of game records named sgf/ must not hide our sgf package
    forget_working_directory()

from .cli import main as run_session  # noqa: E402


def main(argv=None) -> int:
    """Run the session, then leave at once (``quit`` or end of input): the thread reading
    the input is still blocked on it, and the interpreter's shutdown would wait for it and
    fail (a fatal error, a second and more); searches and warm-ups in background threads end
    with the process, and a warm-up child finishes its compile on its own."""
    code = run_session(argv)
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


if __name__ == "__main__":
    main()
