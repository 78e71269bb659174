"""``vargo-match`` from a checkout: ``python scripts/match.py ENGINE_A ENGINE_B [options]``.

A thin wrapper: the match runner is ``gtp_engine.match`` (``vargo-match --help`` for the options).
Run as a file, it puts this checkout first on the path, so it plays with this checkout's code.
"""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: this checkout, not whatever is installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gtp_engine.match.runner import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
