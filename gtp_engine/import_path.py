"""Where ``python -m gtp_engine`` (and ``python -m gtp_engine.match``) find our packages.

``python -m`` puts the working directory first on ``sys.path``. A Go player's folder often
holds a directory of game records named ``sgf/``; Python then imports that directory, as a
namespace package, in place of our ``sgf`` package whenever ours is found later than the path
(an editable install's finder comes after it), or in any case when the folder's ``sgf/`` has an
``__init__.py``. ``printsgf``, ``loadsgf`` and ``--setup`` then fail with ``module 'sgf' has no
attribute ...``. The console scripts ``vargo`` and ``vargo-match`` never had the working
directory on the path; ``forget_working_directory`` gives the ``-m`` forms the same footing.
"""

import os
import sys
from pathlib import Path

#: The directory that holds the ``gtp_engine`` package (and, in a checkout, ``sgf`` beside it).
PACKAGE_PARENT = Path(__file__).resolve().parent.parent


def forget_working_directory() -> None:
    """Drop the working directory that ``python -m`` put first on ``sys.path`` (what ``python
    -P`` does), unless our package was found there: run from a checkout, the ``sgf`` beside
    ``gtp_engine`` is ours. Call it before anything imports ``sgf``."""
    if getattr(sys.flags, "safe_path", False) or not sys.path:  # python -P: nothing was added
        return
    try:
        first = Path(sys.path[0] or os.curdir).resolve()
        working_directory = Path.cwd().resolve()
    except OSError:  # the working directory is gone: nothing can be imported from it anyway
        return
    if first == working_directory and first != PACKAGE_PARENT:
        del sys.path[0]
