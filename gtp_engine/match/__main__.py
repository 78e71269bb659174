"""``python -m gtp_engine.match``: the same program as the ``vargo-match`` console script."""

import sys

from ..import_path import forget_working_directory

if __name__ == "__main__":  # a folder of game records named sgf/ must not hide our sgf package
    forget_working_directory()

from .runner import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
