"""``vargo-sgf`` from a checkout: ``python scripts/sgftool.py check|view|record FILE [-o OUT]``.

A thin wrapper: the tool is ``sgf.tool`` (``vargo-sgf --help`` for the commands). Run as a file,
it puts this checkout first on the path, so it reads files with this checkout's code.
"""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: this checkout, not whatever is installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sgf.tool import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
