"""Good 3x3 shapes: the table the playouts and priors look up (``kernels.pat3_code``).

The shapes are the classic ones of MoGo's playouts (Gelly, Wang, Munos, Teytaud: "Modification
of UCT with Patterns in Monte-Carlo Go", 2006): hane, cuts, and moves along the edge. Each is a
3x3 diagram around the candidate point (the centre, always empty), top row first:

- ``X`` / ``O``: a stone of one colour / of the other (the shapes hold for either player, so
  every shape is also taken with the colours swapped);
- ``.`` empty; ``x`` not X (empty or O); ``o`` not O (empty or X); ``?`` empty or a stone;
- ``#`` off the board (the edge; a fort counts as edge too: no stone can stand there).

Each diagram is taken in its 8 rotations and reflections. The table has one byte per code
(2 bits per neighbour, clockwise from north: 0 empty, 1 own, 2 enemy, 3 edge).
"""

import itertools
from functools import lru_cache

import numpy as np

SHAPES = (
    ("XOX",   # hane that encloses
     "...",
     "???"),
    ("XO.",   # hane that does not cut
     "...",
     "?.?"),
    ("XO?",   # hane bending round (magari)
     "X..",
     "x.?"),
    (".O.",   # diagonal attachment
     "X..",
     "..."),
    ("XO?",   # cut where nothing protects
     "O.o",
     "?o?"),
    ("XO?",   # cut after a peep
     "O.X",
     "???"),
    ("?X?",   # pushing through between two stones
     "O.O",
     "ooo"),
    ("OX?",   # cutting a knight's move
     "o.O",
     "???"),
    ("X.?",   # edge: chasing along the side
     "O.?",
     "###"),
    ("OX?",   # edge: blocking a cut on the side
     "X.O",
     "###"),
    ("?X?",   # edge: blocking a connection on the side
     "x.O",
     "###"),
    ("?XO",   # edge: descending to the edge (sagari)
     "x.x",
     "###"),
    ("?OX",   # edge: cutting on the side
     "X.O",
     "###"),
)

EMPTY, OWN, ENEMY, EDGE = 0, 1, 2, 3
# the neighbour order of pat3_code: N, NE, E, SE, S, SW, W, NW as (row, col) in the diagram
_ORDER = ((0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0))


def _values(char: str, x: int, o: int):
    return {"X": (x,), "O": (o,), ".": (EMPTY,), "x": (EMPTY, o), "o": (EMPTY, x),
            "?": (EMPTY, x, o), "#": (EDGE,)}[char]


def _symmetries(shape):
    grid = [list(row) for row in shape]
    for _ in range(4):
        grid = [list(row) for row in zip(*grid[::-1])]   # rotate a quarter turn
        yield grid
        yield [row[::-1] for row in grid]                 # and its mirror image


@lru_cache(maxsize=None)
def table() -> np.ndarray:
    """One byte per 3x3 code: 1 where the centre is a good point for the player to move.
    The first 65,536 bytes are indexed by the code seen by the player to move
    (``kernels.pat3_code``); the next 65,536 by the code in absolute colours
    (``kernels.pat3_raw``, 1 Black, 2 White) when White is to move, so that the playout need
    not translate colours (Black's view of absolute colours is the first half)."""
    own_view = _own_view()
    codes = np.arange(1 << 16)
    swapped = np.zeros(1 << 16, np.int64)
    for k in range(8):
        v = (codes >> (2 * k)) & 3
        swapped |= np.where((v == OWN) | (v == ENEMY), 3 - v, v) << (2 * k)
    return np.concatenate([own_view, own_view[swapped]])


def _own_view() -> np.ndarray:
    result = np.zeros(1 << 16, np.uint8)
    for shape in SHAPES:
        if shape[1][1] != ".":
            raise ValueError(f"the centre of a shape must be empty: {shape}")
        for grid in _symmetries(shape):
            for x, o in ((OWN, ENEMY), (ENEMY, OWN)):
                choices = [_values(grid[r][c], x, o) for r, c in _ORDER]
                for values in itertools.product(*choices):
                    code = 0
                    for k, v in enumerate(values):
                        code |= v << (2 * k)
                    result[code] = 1
    return result
