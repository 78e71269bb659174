"""vargo: a GTP engine for Go and the finite variants Loose, Goncrete, Disto and Terrain Go.

Reading guide, in dependency order (imports point one way, down this list):

- ``coords``, ``errors``: value types (colours, points, vertices) and the error hierarchy.
- ``board``: the mechanics, numba kernels over flat arrays with a border, and ``Position``.
- ``rules``: what each game is (names, sizes, komi, switches for the board) and terrain maps.
- ``game``: a game in progress with history, undo, end and score; the referee of matches.
- ``search``: move generation; reads a game, never changes it.
- ``gtp``: the GTP server, a dispatch table of handlers.
"""

NAME = "vargo"
__version__ = "0.1.0"
