"""``python -m gtp_engine`` (and the ``vargo`` console script): a GTP session on stdin/stdout."""

import sys

from .import_path import forget_working_directory

if __name__ == "__main__":  # a folder of game records named sgf/ must not hide our sgf package
    forget_working_directory()

from .cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
