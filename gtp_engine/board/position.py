"""``Position``: one board position, a thin wrapper over the kernels' state array.

The whole position is one int32 numpy array (see ``kernels``), so ``copy`` is one memory copy
and replaying a game is a loop of kernel calls. Points are converted to cells and back here,
once; every kernel call passes Python ints so that the compiled kernels never meet a new
argument type (which would compile on the spot).
"""

import threading
from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ..coords import MAX_SIZE, Color, Point, format_vertex
from ..errors import Illegal, IllegalMoveError, TerrainError
from . import _backend
from .constants import CAPTURE_FLIP_REMOVE, CAPTURE_LOOSE, CAPTURE_MEALS, CAPTURE_REMOVE, PLAIN
from .effects import MoveEffects

_K = _backend.mirror                      # layout constants (identical in both implementations)
_ZOBRIST = _K.zobrist_keys()
_REASONS = {code: reason for code, reason in enumerate(Illegal, start=1)}
_CAPTURES = (CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS)


class PlayoutResult(NamedTuple):
    """The end of one random playout: scores in half points (no komi), placements made, and
    why it ended: ``two passes``, ``annihilation`` (G4) or ``move cap``."""

    black_halves: int
    white_halves: int
    moves: int
    end: str


_PLAYOUT_ENDS = ("two passes", "annihilation", "move cap")


class _Buffers(NamedTuple):
    """Scratch arrays of one board size (never part of a position)."""

    work: np.ndarray      # the kernels' work array
    spare: np.ndarray     # a state for trial moves
    out: np.ndarray       # what a move did
    owner: np.ndarray     # per cell, for scoring
    cells: np.ndarray     # a list of cells (legal points)


class _Scratch(threading.local):
    """Per-thread buffers by board size, so threads never share scratch space."""

    def __init__(self):
        self.by_size = {}

    def get(self, size: int) -> _Buffers:
        found = self.by_size.get(size)
        if found is None:
            area = (size + 2) * (size + 2)
            found = _Buffers(np.zeros(_K.work_length(size), np.int32),
                             np.zeros(_K.state_shape(size), np.int32),
                             np.zeros(_K.effects_length(size), np.int32),
                             np.zeros(area, np.int32),
                             np.zeros(size * size, np.int32))
            self.by_size[size] = found
        return found


_scratch = _Scratch()
_NO_EFFECTS = MoveEffects((), (), (), ())


def _rng_seed(seed: int) -> int:
    """A nonzero 32-bit state for the kernels' xorshift generator."""
    return (int(seed) * 2654435761 + 12345) % 0xFFFFFFFF + 1


class Position:
    """A board position and nothing else (no history, no side to move, no komi).

    ``terrain`` is a sequence of ``size*size`` kinds indexed ``row*size + col`` (row 0 at the
    bottom), or None for all plain. See the package docstring for the whole contract.
    """

    __slots__ = ("size", "capture", "_st")

    def __init__(self, size: int, capture: int, terrain: Optional[Sequence[int]] = None):
        if not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
            raise ValueError(f"board size must be from 1 to {MAX_SIZE}, not {size!r}")
        if capture not in _CAPTURES:
            raise ValueError(f"unknown capture kind: {capture!r}")
        if terrain is None:
            kinds = np.zeros(size * size, np.int32)
        else:
            kinds = np.asarray(list(terrain), dtype=np.int32)
            if kinds.shape != (size * size,) or kinds.min(initial=0) < 0 or kinds.max(initial=0) > 2:
                raise TerrainError(f"terrain must be {size * size} kinds from 0 to 2")
        self.size = size
        self.capture = int(capture)
        self._st = np.zeros(_K.state_shape(size), np.int32)
        k = _backend.active
        k.init_state(self._st, int(size), kinds)
        k.set_capture(self._st, int(capture))

    # ------------------------------------------------------------------ conversions
    def _cell(self, point: Point) -> int:
        row, col = point
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IllegalMoveError(Illegal.OFF_BOARD, f"({row}, {col})")
        return (row + 1) * (self.size + 2) + col + 1

    def _point(self, cell: int) -> Point:
        w = self.size + 2
        return (int(cell) // w - 1, int(cell) % w - 1)

    def _section(self, index: int) -> np.ndarray:
        area = (self.size + 2) * (self.size + 2)
        return self._st[index, :area]

    def _points(self, cells) -> Tuple[Point, ...]:
        """The points of ``cells`` (any iterable of cell indices) in reading order."""
        cells = np.asarray(cells if isinstance(cells, np.ndarray) else list(cells), dtype=np.int64)
        w = self.size + 2
        rows, cols = cells // w - 1, cells % w - 1
        order = np.lexsort((cols, -rows))  # top row first, then left to right: reading_order's
        return tuple(zip(rows[order].tolist(), cols[order].tolist()))

    # ------------------------------------------------------------------ basics
    def copy(self) -> "Position":
        """An independent copy (one array copy)."""
        other = Position.__new__(Position)
        other.size = self.size
        other.capture = self.capture
        other._st = self._st.copy()
        return other

    def __eq__(self, other) -> bool:
        """Same size, rules switch, terrain, forts and stones."""
        if not isinstance(other, Position) or other.size != self.size:
            return False
        return self.capture == other.capture and all(
            np.array_equal(self._section(i), other._section(i))
            for i in (_K.BOARD, _K.TERR, _K.FORT_OWNER))

    __hash__ = None

    def __repr__(self) -> str:
        return f"<Position {self.size}x{self.size} {'/'.join(self.rows())}>"

    @property
    def state(self) -> np.ndarray:
        """The kernels' state array (read-only by contract: the search copies it)."""
        return self._st

    def stone_at(self, point: Point) -> int:
        value = int(self._section(_K.BOARD)[self._cell(point)])
        return value if value in (Color.BLACK, Color.WHITE) else 0

    def terrain_at(self, point: Point) -> int:
        return int(self._section(_K.TERR)[self._cell(point)])

    def fort_at(self, point: Point) -> int:
        return int(self._section(_K.FORT_OWNER)[self._cell(point)])

    def stone_count(self, color: int) -> int:
        return int(self._st[_K.HDR, _K.H_BLACKS + int(color) - 1])

    @property
    def zobrist(self) -> int:
        """64-bit hash of the stones (not the forts or terrain), from fixed keys."""
        lo, hi = self._st[_K.HDR, _K.H_HASH_LO:_K.H_HASH_HI + 1].tolist()  # adjacent: one read
        return ((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)

    def rows(self) -> List[str]:
        """Top row first, 'X' black, 'O' white, '.' anything else."""
        letters = {Color.BLACK: "X", Color.WHITE: "O"}
        return ["".join(letters.get(self.stone_at((row, col)), ".") for col in range(self.size))
                for row in range(self.size - 1, -1, -1)]

    # ------------------------------------------------------------------ forts and moves
    def place_fort(self, color: int, point: Point) -> None:
        """A fort of ``color`` on an empty plain point (T2, T3)."""
        cell = self._cell(point)
        text = format_vertex(point)
        board = self._section(_K.BOARD)
        if board[cell] == _K.FORT:
            raise IllegalMoveError(Illegal.FORT, text)
        if board[cell] != _K.EMPTY:
            raise IllegalMoveError(Illegal.OCCUPIED, text)
        if self._section(_K.TERR)[cell] != PLAIN:
            raise TerrainError(f"a fort needs a plain point, not {text}")
        _backend.active.put_fort(self._st, int(cell), int(Color(color)))

    def put(self, color: int, point: Point) -> None:
        """Put a stone as it stands, SGF setup's way: no captures and no placement rules, so a
        group may be left without a liberty (Loose: a true liberty); the next move then applies
        the rules to such groups wherever they are. Raises IllegalMoveError (OFF_BOARD, FORT,
        OCCUPIED) for a point that is not empty, changing nothing."""
        cell = self._cell(point)
        text = format_vertex(point)
        board = self._section(_K.BOARD)
        if board[cell] == _K.FORT:
            raise IllegalMoveError(Illegal.FORT, text)
        if board[cell] != _K.EMPTY:
            raise IllegalMoveError(Illegal.OCCUPIED, text)
        work = _scratch.get(self.size).work
        _backend.active.put(self._st, _ZOBRIST, work, int(cell), int(Color(color)))

    def _code(self, color: int, point: Point) -> int:
        work, spare, out, _, _ = _scratch.get(self.size)
        return int(_backend.active.check(self._st, _ZOBRIST, work, spare, int(self._cell(point)),
                                         int(Color(color)), out))

    def illegal_reason(self, color: int, point: Point) -> Optional[Illegal]:
        """Why ``play`` would fail (board rules only: never SUPERKO or GAME_OVER), or None."""
        try:
            code = self._code(color, point)
        except IllegalMoveError as err:
            return err.reason
        return _REASONS.get(code)

    def play(self, color: int, point: Point) -> MoveEffects:
        """Place a stone and resolve the game's captures; raises IllegalMoveError (changing
        nothing) when the board rules forbid it."""
        cell = self._cell(point)
        work, spare, out, _, _ = _scratch.get(self.size)
        code = int(_backend.active.play(self._st, _ZOBRIST, work, spare, int(cell),
                                        int(Color(color)), out))
        if code != _K.LEGAL:
            raise IllegalMoveError(_REASONS[code], format_vertex(point))
        counts = out[:_K.E_HEADER].tolist()
        if not any(counts):  # most moves: one shared value (a record of 10^5 moves replays many)
            return _NO_EFFECTS
        area = (self.size + 2) * (self.size + 2)

        def listed(kind):
            start = _K.E_HEADER + kind * area
            return self._points(out[start:start + counts[kind]]) if counts[kind] else ()

        return MoveEffects(captured=listed(_K.E_CAPTURED), flipped=listed(_K.E_FLIPPED),
                           removed=listed(_K.E_REMOVED), meals=listed(_K.E_MEALS))

    def legal_points(self, color: int, skip_own_eyes: bool = False) -> List[Point]:
        """Every point where ``color`` may place now, in reading order. ``skip_own_eyes``
        leaves out the mover's single-point eyes (``is_own_eye``), as random play does."""
        work, spare, out, _, cells = _scratch.get(self.size)
        n = int(_backend.active.legal_cells(self._st, _ZOBRIST, work, spare, out,
                                            int(Color(color)), bool(skip_own_eyes), cells))
        return [self._point(c) for c in cells[:n]]

    def is_own_eye(self, color: int, point: Point) -> bool:
        """An empty point whose neighbours are all ``color`` (or edge or fort), with at most
        one enemy diagonal, none on the edge: the eye random play never fills."""
        cell = self._cell(point)
        if self._section(_K.BOARD)[cell] != _K.EMPTY:
            return False
        return bool(_backend.active.is_own_eye(self._st, int(cell), int(Color(color))))

    # ------------------------------------------------------------------ random play
    def _max_moves(self, max_moves: Optional[int]) -> int:
        return 3 * self.size * self.size if max_moves is None else int(max_moves)

    def playout(self, color: int, seed: int, scoring: int, fort_value: int = 0,
                skip_own_eyes: bool = True, max_moves: Optional[int] = None) -> PlayoutResult:
        """Play uniformly random legal moves on this position (changed in place: copy first to
        keep it) from ``color`` to move, never filling one's own single-point eye when
        ``skip_own_eyes`` and never retaking a simple ko, until two passes, annihilation or
        ``max_moves`` placements (default 3*N*N); the same seed gives the same game."""
        work, spare, out, owner, _ = _scratch.get(self.size)
        rng = np.array([_rng_seed(seed)], np.int64)
        black, white, moves, end = _backend.active.playout(
            self._st, _ZOBRIST, work, spare, out, owner, int(Color(color)), bool(skip_own_eyes),
            self._max_moves(max_moves), rng, int(scoring), int(fort_value))
        return PlayoutResult(int(black), int(white), int(moves), _PLAYOUT_ENDS[int(end)])

    def playouts(self, color: int, count: int, seed: int, scoring: int, fort_value: int = 0,
                 komi_halves: int = 0, skip_own_eyes: bool = True,
                 max_moves: Optional[int] = None) -> Tuple[float, List[float]]:
        """``count`` random playouts from this position (unchanged). Returns Black's share of
        wins (a tie counts half; ``komi_halves`` goes to White) and, per point ``row*size +
        col``, the share of playouts Black owned it minus the share White did."""
        work, spare, out, owner, _ = _scratch.get(self.size)
        area = (self.size + 2) * (self.size + 2)
        ownership = np.zeros(2 * area, np.int32)
        game = np.empty_like(self._st)
        rng = np.array([_rng_seed(seed)], np.int64)
        half_wins = _backend.active.playout_batch(
            self._st, _ZOBRIST, work, spare, game, out, owner, int(Color(color)),
            bool(skip_own_eyes), self._max_moves(max_moves), rng, int(scoring), int(fort_value),
            int(komi_halves), int(count), ownership)
        count = max(int(count), 1)
        w = self.size + 2
        balance = [(int(ownership[c]) - int(ownership[area + c])) / count
                   for c in ((row + 1) * w + col + 1 for row in range(self.size) for col in range(self.size))]
        return int(half_wins) / (2 * count), balance

    # ------------------------------------------------------------------ scoring and status
    def _owner_cells(self, scoring: int) -> np.ndarray:
        work, _, _, owner, _ = _scratch.get(self.size)
        _backend.active.owner_cells(self._st, work, int(scoring), owner)
        return owner

    def owner_map(self, scoring: int) -> List[int]:
        """Per point, ``row*size + col``: 1 black, 2 white, 0 nobody, as score_halves counts."""
        owner = self._owner_cells(scoring)
        w = self.size + 2
        return [int(owner[(row + 1) * w + col + 1]) for row in range(self.size) for col in range(self.size)]

    def score_halves(self, scoring: int, fort_value: int = 0) -> Tuple[int, int]:
        """(black, white) in half points, without komi (Go3, L4, D4, T5-T7)."""
        work, _, _, owner, _ = _scratch.get(self.size)
        black, white = _backend.active.score_halves(self._st, work, int(scoring), int(fort_value), owner)
        return int(black), int(white)

    def _stone_cells(self):
        board = self._section(_K.BOARD)
        return np.nonzero((board == Color.BLACK) | (board == Color.WHITE))[0]

    def _meal_mask(self) -> np.ndarray:
        """Per cell: a stone whose person has no liberty."""
        board, gid, glibs = self._section(_K.BOARD), self._section(_K.GID), self._section(_K.GLIBS)
        stones = (board == Color.BLACK) | (board == Color.WHITE)
        return stones & (glibs[gid] == 0)

    def meals(self) -> List[Point]:
        """Stones in persons without liberties (D1), in reading order."""
        return list(self._points(np.nonzero(self._meal_mask())[0]))

    def gluttons(self) -> List[Point]:
        """Stones in persons adjacent to a meal (D1), in reading order."""
        meal = self._meal_mask()
        board, gid = self._section(_K.BOARD), self._section(_K.GID)
        w = self.size + 2
        hungry = set()
        for cell in np.nonzero(meal)[0]:
            for q in (cell - 1, cell + 1, cell - w, cell + w):
                if board[q] in (Color.BLACK, Color.WHITE):
                    hungry.add(int(gid[q]))
        stones = self._stone_cells()
        return list(self._points(c for c in stones if int(gid[c]) in hungry))

    def false_liberties(self) -> List[Point]:
        """Empty points touching both colours and no empty point (L1), in reading order."""
        board = self._section(_K.BOARD)
        w = self.size + 2
        found = []
        for cell in np.nonzero(board == _K.EMPTY)[0]:
            around = [int(board[q]) for q in (cell - 1, cell + 1, cell - w, cell + w)]
            if _K.EMPTY not in around and Color.BLACK in around and Color.WHITE in around:
                found.append(cell)
        return list(self._points(found))
