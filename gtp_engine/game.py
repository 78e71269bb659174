"""A game in progress: rules, map and forts, setup, the moves with what each did, the end, the score.

``Game`` is the one source of truth behind every GTP command, the referee of matches and the
source of SGF records. It applies RULES C3-C8 and the game-level parts of each game (superko
Go2, Goncrete's annihilation G4, Terrain Go's forts T2/T8, Loose's tie-break L5); the board
mechanics are ``board.Position``'s. Every method that raises leaves the game exactly as it was.

History is a list of positions, one per move, so ``undo`` to any earlier point is a pop. Stones
set up after a move (``edit``, SGF's ``AB``/``AW``/``AE`` in a later node) replace the
position of that move.
"""

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

from .board import MoveEffects, Position
from .coords import Color, Move, Point, format_vertex, reading_order
from .errors import Illegal, IllegalMoveError, RulesError, TerrainError
from .rules import Rules, find_rules
from .rules.terrain_map import TerrainMap, generate_map


@dataclass(frozen=True)
class MoveRecord:
    """One turn: who, where (None for a pass) and what the placement did (None for a pass)."""

    color: Color
    point: Move
    effects: Optional[MoveEffects]

    @property
    def is_pass(self) -> bool:
        return self.point is None


@dataclass(frozen=True)
class SetupEdit:
    """Stones set up in the middle of a game (SGF ``AB``/``AW``/``AE`` after a move): after
    move number ``after`` (1 for the first move), these points became Black, White, empty."""

    after: int
    black: Tuple[Point, ...] = ()
    white: Tuple[Point, ...] = ()
    empty: Tuple[Point, ...] = ()


@dataclass(frozen=True)
class Score:
    """Final counts: ``white`` includes komi; ``winner`` None is a draw (RULES C8)."""

    black: float
    white: float
    winner: Optional[Color]

    @property
    def margin(self) -> float:
        return abs(self.black - self.white)

    @property
    def result(self) -> str:
        """The GTP/SGF result text: ``B+3.5``, ``W+2``, ``0`` for a draw."""
        if self.winner is None:
            return "0"
        margin = self.margin
        text = str(int(margin)) if margin == int(margin) else str(margin)
        return f"{self.winner.letter.upper()}+{text}"


_HISTORY_IDS = itertools.count(1)


class Game:
    """A game of any of the five rules.

    ``rules`` is a Rules class or a name; ``size`` defaults to the rules' default size; ``komi``
    to the rules' default for the size (C7, ``Rules.default_komi_for``). For Terrain Go a map
    is generated from ``terrain_seed`` unless ``terrain`` gives one. Raises RulesError or TerrainError for settings the game refuses.
    """

    def __init__(self, rules: Union[str, type] = "go", size: Optional[int] = None,
                 komi: Optional[float] = None, terrain: Optional[TerrainMap] = None,
                 terrain_seed: int = 0):
        rules = find_rules(rules) if isinstance(rules, str) else rules
        size = rules.default_size if size is None else size
        rules.check_size(size)
        komi = rules.default_komi_for(size) if komi is None else komi
        rules.check_komi(komi)
        self.rules: type = rules
        self.size: int = size
        self.komi: float = float(komi)
        self.terrain_seed: int = terrain_seed
        self.terrain: Optional[TerrainMap] = None
        if rules.has_terrain:
            self.terrain = terrain if terrain is not None else generate_map(size, terrain_seed)
            self._check_map_size(self.terrain)
            self.terrain.check_fort_room()
        self.forts: List[Tuple[Color, Point]] = []
        self.setup: List[Tuple[Color, Point]] = []
        self._reset_history()

    # ----------------------------------------------------------------- settings
    def set_rules(self, rules: Union[str, type]) -> None:
        """Switch games: clears the board and forts, sets the default komi (GTP ``variant``).

        Refused with RulesError, changing nothing, when the board size does not fit (C1).
        """
        rules = find_rules(rules) if isinstance(rules, str) else rules
        rules.check_size(self.size)
        terrain = generate_map(self.size, self.terrain_seed) if rules.has_terrain else None
        self.rules, self.komi, self.terrain = rules, float(rules.default_komi_for(self.size)), terrain
        self.forts, self.setup = [], []
        self._reset_history()

    def set_size(self, size: int) -> None:
        """Change the board size and clear the board (GTP ``boardsize``).

        The same size keeps komi, map and forts (frontends resend ``boardsize`` on every sync);
        a new size in Terrain Go generates a new map from the terrain seed and clears the forts.
        """
        self.rules.check_size(size)
        if size != self.size:
            terrain = generate_map(size, self.terrain_seed) if self.rules.has_terrain else None
            self.size, self.terrain, self.forts = size, terrain, []
        self.setup = []
        self._reset_history()

    def set_komi(self, komi: float) -> None:
        """Set komi, refused with RulesError when it breaks RULES C6 for these rules."""
        self.rules.check_komi(komi)
        self.komi = float(komi)

    def set_terrain(self, terrain: TerrainMap) -> None:
        """Use a new map (Terrain Go only): resizes the board to the map, clears board and forts (T8).
        Refused, changing nothing, for a size the rules do not allow, or a map with too few plain
        points for its forts (``TerrainMap.check_fort_room``: the game could never start)."""
        if not self.rules.has_terrain:
            raise RulesError(f"{self.rules.name} has no terrain; use 'variant terrain' first")
        self.rules.check_size(terrain.size)
        terrain.check_fort_room()
        self.size, self.terrain, self.forts, self.setup = terrain.size, terrain, [], []
        self._reset_history()

    def clear(self) -> None:
        """Empty the board and history, keeping rules, komi, map and forts (GTP ``clear_board``, T8)."""
        self.setup = []
        self._reset_history()

    def _check_map_size(self, terrain: TerrainMap) -> None:
        if terrain.size != self.size:
            raise TerrainError(f"map is {terrain.size}x{terrain.size} but the board is {self.size}x{self.size}")

    # ----------------------------------------------------------------- forts
    @property
    def forts_per_side(self) -> int:
        return self.terrain.forts_per_side if self.terrain is not None else 0

    @property
    def fort_turn(self) -> Optional[Color]:
        """Who places the next fort (White first, then alternately, T2), or None when all are placed."""
        if len(self.forts) >= 2 * self.forts_per_side:
            return None
        return Color.WHITE if len(self.forts) % 2 == 0 else Color.BLACK

    def place_fort(self, color: Color, point: Point) -> None:
        """Place a fort (T2, T3). Refused (TerrainError or IllegalMoveError, nothing changed) in a
        game without forts, after the first stone, out of turn, beyond the count, or on a point
        that is not empty plain."""
        if self.terrain is None:
            raise TerrainError(f"{self.rules.name} has no forts")
        if self.moves or self.setup:
            raise TerrainError("forts can only be placed before the first stone")
        turn = self.fort_turn
        if turn is None:
            raise TerrainError(f"all {2 * self.forts_per_side} forts are already placed")
        if color != turn:
            raise TerrainError(f"it is {turn.word}'s turn to place a fort")
        position = self._positions[0].copy()
        position.place_fort(color, point)
        self.forts.append((color, point))
        self._reset_history(position)

    # ----------------------------------------------------------------- setup
    def add_setup(self, color: Color, point: Point) -> None:
        """Put a stone before the first move as it stands (SGF ``AB``/``AW``): no captures and
        no placement rules (``Position.put``), so a setup that surrounds a group keeps it on the
        board, and the next move settles it by the rules. Refused when moves were played, forts
        are pending (T2), or the point is not empty."""
        self._add_setup(color, point, checked=False)

    def _add_setup(self, color: Color, point: Point, checked: bool) -> None:
        if self.moves:
            raise RulesError("setup stones can only be added before the first move")
        if self.fort_turn is not None:
            raise IllegalMoveError(Illegal.FORTS_PENDING, format_vertex(point))
        position = self._positions[0].copy()
        if checked:
            position.play(color, point)
        else:
            position.put(color, point)
        self.setup.append((color, point))
        self._reset_history(position)

    def edit(self, black: Sequence[Point] = (), white: Sequence[Point] = (),
             empty: Sequence[Point] = ()) -> SetupEdit:
        """Set up stones after a move, as SGF ``AB``/``AW``/``AE`` in a later node do (problem
        collections, edited games): each listed point becomes Black, White or empty whatever
        was there (SGF overwrites), stones stand as put (no captures, as ``add_setup``), and
        the side to move stays the last mover's opponent. The edit belongs to the last move:
        ``undo`` of that move takes it back. Before the first move, use ``add_setup``. Refused
        (changing nothing) when a point is listed twice or is a fort."""
        if not self.moves:
            raise RulesError("an edit needs a move before it (setup before the first move is add_setup)")
        edit = SetupEdit(len(self.moves), tuple(black), tuple(white), tuple(empty))
        listed = [*edit.black, *edit.white, *edit.empty]
        if len(set(listed)) != len(listed):
            twice = next(p for p in listed if listed.count(p) > 1)
            raise RulesError(f"setup lists {format_vertex(twice)} twice")
        stones = {}
        for row in range(self.size):
            for col in range(self.size):
                color = self.position.stone_at((row, col))
                if color:
                    stones[(row, col)] = Color(color)
        for point in edit.empty:
            stones.pop(point, None)
        stones.update({p: Color.BLACK for p in edit.black})
        stones.update({p: Color.WHITE for p in edit.white})
        position = self._empty_position()
        for point in reading_order(stones):
            position.put(stones[point], point)
        self._seen[self._positions[-1].zobrist] -= 1
        self._positions[-1] = position
        self._seen[position.zobrist] += 1
        self.edits.append(edit)
        self.history_id = next(_HISTORY_IDS)   # another position: a search tree is not reused
        return edit

    def edits_after(self, move_number: int) -> List[SetupEdit]:
        """The edits made after move ``move_number``, in order."""
        return [edit for edit in self.edits if edit.after == move_number]

    def place_handicap(self, points: Sequence[Point]) -> None:
        """Place Black handicap stones on an empty board (Go and Terrain Go only); White moves next.

        Unlike SGF setup, each stone must be a legal Black placement (GTP handicap commands
        choose or name points to play, so a mountain or water point that T4 forbids is refused).
        All-or-nothing: an illegal point refuses the whole list.
        """
        if not self.rules.allows_handicap:
            raise RulesError(f"{self.rules.name} has no handicap")
        if self.moves or self.setup:
            raise RulesError("handicap needs an empty board")
        if len(points) < 2 or len(set(points)) != len(points):
            raise RulesError("handicap needs at least two distinct points")
        before = (list(self.setup), self._positions, self._seen)
        try:
            for p in points:
                self._add_setup(Color.BLACK, p, checked=True)
        except ValueError:
            self.setup, self._positions, self._seen = before
            raise

    # ----------------------------------------------------------------- history
    def _reset_history(self, initial: Optional[Position] = None) -> None:
        if initial is None:
            initial = self._build_initial()
        self.moves: List[MoveRecord] = []
        self.edits: List[SetupEdit] = []
        #: changes whenever a new history begins (clear, size, rules, map, forts, setup), and
        #: not with moves or undo; copies share it. A record loaded from a file describes this
        #: game only while the id is the one it had after loading.
        self.history_id: int = next(_HISTORY_IDS)
        self._positions: List[Position] = [initial]
        self._seen: Counter = Counter([initial.zobrist])
        self._annihilated_by: Optional[int] = None  # index of the move that ended the game by G4

    def _empty_position(self) -> Position:
        """The map and the forts, no stones."""
        kinds = self.terrain.kinds if self.terrain is not None else None
        position = Position(self.size, self.rules.capture, kinds)
        for color, point in self.forts:
            position.place_fort(color, point)
        return position

    def _build_initial(self) -> Position:
        position = self._empty_position()
        for color, point in self.setup:
            position.put(color, point)
        return position

    @property
    def position(self) -> Position:
        """The current position (read it; never change it: use play)."""
        return self._positions[-1]

    @property
    def last_move(self) -> Optional[MoveRecord]:
        return self.moves[-1] if self.moves else None

    @property
    def to_move(self) -> Color:
        """The opponent of the last mover; before any move Black, or White after handicap."""
        if self.moves:
            return self.moves[-1].color.opponent
        if any(color is Color.BLACK for color, _ in self.setup) and self.rules.allows_handicap:
            return Color.WHITE
        return Color.BLACK

    @property
    def end_reason(self) -> Optional[str]:
        """``'annihilation'`` (G4), ``'two passes'`` (C3), or None while the game goes on."""
        if self._annihilated_by is not None:
            return "annihilation"
        if len(self.moves) >= 2 and self.moves[-1].is_pass and self.moves[-2].is_pass:
            return "two passes"
        return None

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    # ----------------------------------------------------------------- moves
    def illegal_reason(self, color: Color, move: Move) -> Optional[Illegal]:
        """Why ``play(color, move)`` would be refused, or None when it is legal. Changes nothing."""
        try:
            self._next(color, move)
        except IllegalMoveError as err:
            return err.reason
        return None

    def play(self, color: Color, move: Move, superko: bool = True) -> MoveRecord:
        """Play a placement or a pass (None) for ``color`` and return what it did.

        Either colour may move (GTP setup practice, C3); a pass by the last mover, a placement
        after annihilation (C5: passes stay legal, so two-pass controllers can finish), any move
        before all forts (T2), or one the rules forbid raises IllegalMoveError with the reason,
        and changes nothing. ``superko=False`` replays a record played under rules without
        positional superko (Japanese rules allow long cycles): a repeated position is played.
        """
        record, position, annihilates, zobrist = self._next(color, move, superko)
        self.moves.append(record)
        self._positions.append(position)
        self._seen[zobrist] += 1
        if annihilates:
            self._annihilated_by = len(self.moves) - 1
        return record

    def _next(self, color: Color, move: Move, superko: bool = True):
        if self.fort_turn is not None:
            raise IllegalMoveError(Illegal.FORTS_PENDING, self._move_text(move))
        if move is None:
            last = self.last_move
            if last is not None and last.color == color:
                raise IllegalMoveError(Illegal.REPEATED_PASS, self._move_text(move))
            return MoveRecord(color, None, None), self.position, False, self.position.zobrist
        if self._annihilated_by is not None:
            raise IllegalMoveError(Illegal.GAME_OVER, self._move_text(move))
        position = self.position.copy()
        effects = position.play(color, move)
        zobrist = position.zobrist
        if superko and self.rules.superko and self._seen[zobrist]:
            raise IllegalMoveError(Illegal.SUPERKO, self._move_text(move))
        annihilates = (self.rules.ends_on_annihilation and bool(effects.flipped)
                       and position.stone_count(color.opponent) == 0)
        return MoveRecord(color, move, effects), position, annihilates, zobrist

    def _move_text(self, move: Move) -> str:
        """The move as a refusal quotes it; no vertex name for a point far off the board. Made
        only on refusal: a long record replays without it."""
        if move is None or all(0 <= v < self.size for v in move):
            return format_vertex(move)
        return str(move)

    def undo(self) -> MoveRecord:
        """Take back the last move (pass or placement); RulesError when there is none."""
        if not self.moves:
            raise RulesError("cannot undo: no moves")
        record = self.moves.pop()
        position = self._positions.pop()
        self._seen[position.zobrist] -= 1
        if self.edits and self.edits[-1].after > len(self.moves):
            self.edits = [edit for edit in self.edits if edit.after <= len(self.moves)]
            self.history_id = next(_HISTORY_IDS)   # the same moves again would not be the same game
        if self._annihilated_by is not None and self._annihilated_by >= len(self.moves):
            self._annihilated_by = None
        return record

    def undo_to(self, move_number: int) -> None:
        """Undo until ``move_number`` moves remain (0 is the start)."""
        if not 0 <= move_number <= len(self.moves):
            raise RulesError(f"no move number {move_number} (the game has {len(self.moves)} moves)")
        while len(self.moves) > move_number:
            self.undo()

    def legal_moves(self, color: Optional[Color] = None, skip_own_eyes: bool = False) -> List[Point]:
        """Every placement ``color`` (default: side to move) may make now, in reading order.

        Empty when the game is over by annihilation or forts are pending. Pass is always legal
        for the side to move and is not listed.
        """
        color = self.to_move if color is None else color
        if self._annihilated_by is not None or self.fort_turn is not None:
            return []
        points = self.position.legal_points(color, skip_own_eyes)
        if self.rules.superko:
            points = [p for p in points if self.illegal_reason(color, p) is None]
        return points

    # ----------------------------------------------------------------- result
    @property
    def fort_value(self) -> int:
        return self.terrain.fort_value if self.terrain is not None else 0

    def score(self) -> Score:
        """Score the current position as final (RULES Go3, L4/L5, G5, D4, T5-T7), komi to White."""
        black, white = self.position.score_halves(self.rules.scoring, self.fort_value)
        black, white = black / 2, white / 2 + self.komi
        last = self.last_move.color if self.moves else None
        return Score(black, white, self.rules.winner(black, white, last))

    def dead_stones(self) -> List[Point]:
        """Stones that count as dead at the end: Disto's meals (D4); none in the other games
        until the player's ownership estimate replaces this simple rule."""
        if self.rules.meals_are_dead:
            return reading_order(self.position.meals())
        return []

    # ----------------------------------------------------------------- copies
    def copy(self) -> "Game":
        """An independent game with the same settings and history (positions are shared
        read-only snapshots, so this is cheap)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.forts, other.setup, other.moves = list(self.forts), list(self.setup), list(self.moves)
        other.edits = list(self.edits)
        other._positions, other._seen = list(self._positions), Counter(self._seen)
        return other
