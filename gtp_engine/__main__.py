"""``python -m gtp_engine`` (and the ``vargo`` console script): a GTP session on stdin/stdout."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
