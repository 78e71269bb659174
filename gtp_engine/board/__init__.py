"""Board mechanics: numba kernels over flat arrays with a border, and ``Position``, their wrapper.

This package knows mechanics only: placing a stone, groups and liberties, captures by removal,
Loose flips, Goncrete flip-and-remove, Disto meals, terrain legality, forts, and scoring. It
never knows a game's name: the rules pass scalar switches (``CAPTURE_*``, ``SCORE_*``).

Contract used by ``rules`` and ``game`` (CONTRACT: do not change names or meanings):

Switch constants (ints, also passed to the numba kernels):
  CAPTURE_REMOVE      Go/Terrain Go (Go1): enemy groups without liberties are removed.
  CAPTURE_LOOSE       Loose (L1-L3): enemy groups without a *true* liberty flip; every group
                      must then have a true liberty.
  CAPTURE_FLIP_REMOVE Goncrete (G1-G3): enemy groups without liberties flip, then one stone per
                      flipped group is removed where the new group stays connected (G2 choice).
  CAPTURE_MEALS       Disto (D1-D3): nothing removed; a placement may not turn an enemy glutton
                      into a meal.
  SCORE_AREA          stones + territory, weighted by terrain (plain 1, mountain 0, water 1.5)
                      with fort bonuses (T5-T7); with an all-plain map and no forts this is Go3.
  SCORE_STONES        stones on the board (Loose L4).
  SCORE_STONES_NOT_MEALS  stones not in a meal (Disto D4).
  PLAIN, MOUNTAIN, WATER   terrain kinds (0, 1, 2).
  EMPTY = 0; stone colours are gtp_engine.coords.Color values (BLACK 1, WHITE 2).

class MoveEffects (frozen dataclass): what one placement did, each a tuple of points in reading
  order (coords.reading_order): ``captured`` (removed by Go capture), ``flipped`` (changed
  colour), ``removed`` (Goncrete removals after the flip), ``meals`` (stones of persons that
  became meals with this move, own or enemy).

class Position(size, capture, terrain=None):
  A board position and nothing else (no history, no side to move, no komi).
  ``terrain`` is a sequence of size*size kinds indexed ``row*size + col`` (row 0 at the bottom),
  or None for all plain.
  .size, .capture
  .copy() -> Position                          independent copy
  .stone_at(point) -> int                      EMPTY, BLACK or WHITE
  .terrain_at(point) -> int                    PLAIN, MOUNTAIN or WATER
  .fort_at(point) -> int                       0, or the colour owning a fort there
  .place_fort(color, point)                    raises IllegalMoveError(OCCUPIED / FORT) or
                                               TerrainError (not plain); never a liberty after
  .illegal_reason(color, point) -> Illegal|None  whether play() would succeed; changes nothing
                                               (never returns SUPERKO/GAME_OVER: game-level)
  .play(color, point) -> MoveEffects           apply; raises IllegalMoveError and changes
                                               nothing when illegal
  .put(color, point)                           a stone as it stands (SGF setup): no captures,
                                               no placement rules; raises IllegalMoveError
                                               (OCCUPIED / FORT / OFF_BOARD) for a point that
                                               is not empty. A group left without a liberty
                                               (Loose: a true liberty) is settled by the rules
                                               on the next play, wherever it is
  .legal_points(color, skip_own_eyes=False) -> list[Point]   in reading order
  .zobrist -> int                              hash of the stones (positional superko)
  .stone_count(color) -> int
  .score_halves(scoring, fort_value) -> (black, white)  in half points, no komi
  .owner_map(scoring) -> list[int]             size*size (row*size+col): 1 black, 2 white,
                                               0 neither, as used for territory by score_halves
  .meals() -> list[Point]                      stones in persons without liberties
  .gluttons() -> list[Point]                   stones in persons adjacent to a meal
  .false_liberties() -> list[Point]            empty points that are false liberties (L1)
  .rows() -> list[str]                         top row first, 'X' 'O' '.' per point
  .is_own_eye(color, point) -> bool            the single-point eye random play never fills
  .playout(color, seed, scoring, fort_value=0, skip_own_eyes=True, max_moves=None)
        -> PlayoutResult(black_halves, white_halves, moves, end)   random play to the end,
                                               in place (copy first), reproducible by seed
  .playouts(color, count, seed, scoring, fort_value=0, komi_halves=0, ...)
        -> (black win share, ownership per point)   many playouts, position unchanged

Compilation (never on the protocol path): until the numba kernels are compiled, ``Position``
runs the same kernel source as plain Python (slow but immediate).
  start_warmup()   compile in the background (a ``python -m gtp_engine.board.warmup``
                   subprocess fills the numba cache, then the kernels are loaded and used)
  compile_now()    compile or load from the cache now, blocking (scripts, tests, search)
  compiled() -> bool   whether the compiled kernels are in use
``python -m gtp_engine.board.warmup`` fills the cache at install or CI time.
"""

from .constants import (CAPTURE_FLIP_REMOVE, CAPTURE_LOOSE, CAPTURE_MEALS, CAPTURE_REMOVE, EMPTY,
                        MOUNTAIN, PLAIN, SCORE_AREA, SCORE_STONES, SCORE_STONES_NOT_MEALS, WATER)
from .effects import MoveEffects
from ._backend import compile_now, compiled, start_warmup
from .position import PlayoutResult, Position
