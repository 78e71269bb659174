"""Matches between GTP engines, refereed by our own rules core: the product behind ``vargo-match``.

Reading guide, in dependency order:

- ``gtp_client``: one peer engine as a subprocess, commands with deadlines, typed failures.
- ``referee``: one game between two engines, every move checked by ``gtp_engine.game.Game``.
- ``stats``: the figures of a match from its game records (wins, intervals, Elo, times).
- ``runner``: the match: games in parallel, SGF and logs, ``results.json``, resume; the
  ``vargo-match`` command line (``main``).
- ``cluster``: the same games as tasks of a Dask distributed cluster (``--cluster``, optional).

The match sits beside the GTP server, above the game: it imports ``game``, ``rules`` and ``sgf``,
and nothing in ``gtp_engine`` imports it.
"""
