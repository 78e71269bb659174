"""``python -m gtp_engine.match``: the same program as the ``vargo-match`` console script."""

import sys

from .runner import main

if __name__ == "__main__":
    sys.exit(main())
