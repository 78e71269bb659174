"""A slow, obviously correct reference for the board mechanics of all five games (RULES.md).

Written for the reader, not for speed: a board is a dict from point to colour, groups are found
by flood fill, and Goncrete's removal choice (G2) is found by trying every candidate set. The
fast board (``gtp_engine.board``) must agree with this module on random games; the rulings tests
check this module against every diagram of RULES.md as well.

Independence: nothing here imports ``gtp_engine.board``, ``gtp_engine.rules`` or
``gtp_engine.game``; only the shared value types (colours, points, errors) come from the package.

Reading guide: settings per game (``GAMES``) -> the board (``RefBoard``: groups, liberties, one
placement per capture kind, terrain and forts, scoring) -> a game with history (``RefGame``:
turns, passes, superko, annihilation, the result).
"""

from dataclasses import dataclass, field
from itertools import product
from typing import Dict, FrozenSet, List, Optional, Tuple

from gtp_engine.coords import Color, Point, reading_order
from gtp_engine.errors import Illegal, IllegalMoveError

BLACK, WHITE = Color.BLACK, Color.WHITE

# Terrain kinds, with the weights of RULES T5 in half points (water is worth 1.5).
PLAIN, MOUNTAIN, WATER = 0, 1, 2
HALF_POINTS = {PLAIN: 2, MOUNTAIN: 0, WATER: 3}

# What a placement does to enemy groups.
REMOVE = "remove"            # Go1: groups without liberties are removed
LOOSE = "loose"              # L1-L3: groups without a true liberty flip
FLIP_REMOVE = "flip_remove"  # G1-G3: groups without liberties flip, then lose a stone each
MEALS = "meals"              # D1-D3: nothing happens; enemy gluttons may not be fed

# How a final position is counted.
AREA = "area"                          # Go3 / T5-T7
STONES = "stones"                      # L4
STONES_NOT_MEALS = "stones_not_meals"  # D4


@dataclass(frozen=True)
class GameSettings:
    """What RULES.md says each game is, as far as the board and the game record are concerned."""

    capture: str
    scoring: str
    superko: bool            # Go2 positional superko
    annihilation_ends: bool  # G4
    has_draws: bool          # C8 / L5
    default_komi: float      # C7


GAMES: Dict[str, GameSettings] = {
    "go": GameSettings(REMOVE, AREA, True, False, True, 7.5),
    "loose": GameSettings(LOOSE, STONES, False, False, False, 6),
    "goncrete": GameSettings(FLIP_REMOVE, AREA, False, True, True, 7.5),
    "disto": GameSettings(MEALS, STONES_NOT_MEALS, False, False, True, 6.5),
    "terrain": GameSettings(REMOVE, AREA, True, False, True, 7.5),
}


@dataclass(frozen=True)
class RefEffects:
    """What a placement did; every field is a tuple of points in reading order.

    ``flipped`` lists every stone that changed colour, in Goncrete including those then removed.
    """

    captured: Tuple[Point, ...] = ()
    flipped: Tuple[Point, ...] = ()
    removed: Tuple[Point, ...] = ()
    meals: Tuple[Point, ...] = ()


def reading_key(p: Point) -> Tuple[int, int]:
    """Sort key of reading order: the top row first, then left to right."""
    return (-p[0], p[1])


def _ordered(points) -> Tuple[Point, ...]:
    return tuple(reading_order(points))


class RefBoard:
    """An immutable position: stones, terrain and forts on an N x N board.

    ``stones`` maps points to colours; ``terrain`` maps points to kinds (missing means plain);
    ``forts`` maps points to the colour owning the fort. ``play`` returns a new board.
    """

    def __init__(self, size: int, capture: str, stones=None, terrain=None, forts=None):
        self.size = size
        self.capture = capture
        self.stones: Dict[Point, Color] = {p: Color(c) for p, c in (stones or {}).items()}
        self.terrain: Dict[Point, int] = dict(terrain or {})
        self.forts: Dict[Point, Color] = {p: Color(c) for p, c in (forts or {}).items()}

    @classmethod
    def from_rows(cls, rows: List[str], capture: str, terrain=None, forts=None) -> "RefBoard":
        """A board from rows of 'X', 'O', '.' written top row first (spaces ignored)."""
        rows = [r.replace(" ", "") for r in rows]
        size = len(rows)
        stones = {}
        for i, row in enumerate(rows):
            for col, ch in enumerate(row):
                if ch in "XO":
                    stones[(size - 1 - i, col)] = BLACK if ch == "X" else WHITE
        return cls(size, capture, stones, terrain, forts)

    def copy_with(self, stones) -> "RefBoard":
        return RefBoard(self.size, self.capture, stones, self.terrain, self.forts)

    # ------------------------------------------------------------- geometry and groups
    def points(self) -> List[Point]:
        return [(r, c) for r in range(self.size) for c in range(self.size)]

    def neighbours(self, p: Point) -> List[Point]:
        r, c = p
        candidates = [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
        return [(rr, cc) for rr, cc in candidates if 0 <= rr < self.size and 0 <= cc < self.size]

    def kind(self, p: Point) -> int:
        return self.terrain.get(p, PLAIN)

    def is_empty(self, p: Point, stones=None) -> bool:
        """Empty means no stone and no fort (a fort is never a liberty, T3)."""
        stones = self.stones if stones is None else stones
        return p not in stones and p not in self.forts

    def group(self, p: Point, stones=None) -> FrozenSet[Point]:
        """The stones connected to the stone at ``p`` through stones of its colour (flood fill)."""
        stones = self.stones if stones is None else stones
        color = stones[p]
        seen = {p}
        todo = [p]
        while todo:
            q = todo.pop()
            for n in self.neighbours(q):
                if n not in seen and stones.get(n) == color:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    def groups(self, stones=None, color=None) -> List[FrozenSet[Point]]:
        """Every group (of ``color``, or of both colours)."""
        stones = self.stones if stones is None else stones
        found, seen = [], set()
        for p in reading_order(stones):
            if p in seen or (color is not None and stones[p] != color):
                continue
            g = self.group(p, stones)
            seen |= g
            found.append(g)
        return found

    def liberties(self, group, stones=None) -> set:
        stones = self.stones if stones is None else stones
        return {n for p in group for n in self.neighbours(p) if self.is_empty(n, stones)}

    def is_false_liberty(self, p: Point, stones=None) -> bool:
        """L1: an empty point touching both colours and no empty point."""
        stones = self.stones if stones is None else stones
        around = self.neighbours(p)
        colours = {stones.get(n) for n in around}
        has_empty = any(self.is_empty(n, stones) for n in around)
        return BLACK in colours and WHITE in colours and not has_empty

    def true_liberties(self, group, stones=None) -> set:
        stones = self.stones if stones is None else stones
        return {p for p in self.liberties(group, stones) if not self.is_false_liberty(p, stones)}

    # ------------------------------------------------------------- queries
    def stone_at(self, p: Point) -> int:
        return int(self.stones.get(p, 0))

    def fort_at(self, p: Point) -> int:
        return int(self.forts.get(p, 0))

    def stone_count(self, color: Color) -> int:
        return sum(1 for c in self.stones.values() if c == color)

    def false_liberties(self) -> List[Point]:
        return reading_order(p for p in self.points() if self.is_empty(p) and self.is_false_liberty(p))

    def meals(self, stones=None) -> List[Point]:
        """D1: stones of persons without liberties."""
        stones = self.stones if stones is None else stones
        return reading_order(p for g in self.groups(stones) if not self.liberties(g, stones) for p in g)

    def gluttons(self, stones=None) -> List[Point]:
        """D1: stones of persons adjacent to a meal."""
        stones = self.stones if stones is None else stones
        meal = set(self.meals(stones))
        found = []
        for g in self.groups(stones):
            if any(n in meal for p in g for n in self.neighbours(p)):
                found.extend(g)
        return reading_order(found)

    def rows(self) -> List[str]:
        """Top row first, 'X' black, 'O' white, '.' anything else."""
        letters = {BLACK: "X", WHITE: "O"}
        return ["".join(letters.get(self.stones.get((r, c)), ".") for c in range(self.size))
                for r in range(self.size - 1, -1, -1)]

    def key(self):
        """The whole-board position for superko (Go2): the stones only (forts never change)."""
        return frozenset(self.stones.items())

    # ------------------------------------------------------------- placement
    def illegal_reason(self, color: Color, p: Point) -> Optional[Illegal]:
        try:
            self.play(color, p)
        except IllegalMoveError as err:
            return err.reason
        return None

    def legal_points(self, color: Color) -> List[Point]:
        return [p for p in reading_order(self.points()) if self.illegal_reason(color, p) is None]

    def play(self, color: Color, p: Point) -> Tuple["RefBoard", RefEffects]:
        """The board after ``color`` places at ``p``, and what the placement did.

        Raises IllegalMoveError with the first reason that applies, in this order: on a fort,
        occupied, then the game's own rule (suicide, no true liberty, feeding a glutton), then
        terrain (mountain, water).
        """
        color = Color(color)
        if p in self.forts:
            raise IllegalMoveError(Illegal.FORT)
        if p in self.stones:
            raise IllegalMoveError(Illegal.OCCUPIED)
        resolve = {REMOVE: self._resolve_remove, LOOSE: self._resolve_loose,
                   FLIP_REMOVE: self._resolve_flip_remove, MEALS: self._resolve_meals}[self.capture]
        stones, effects = resolve(color, p)
        self._check_terrain(stones, p)
        return self.copy_with(stones), effects

    def _resolve_remove(self, color: Color, p: Point):
        """Go1: remove enemy groups without liberties; then the mover's group needs a liberty."""
        stones = dict(self.stones)
        stones[p] = color
        captured = []
        for g in self.groups(stones, color.opponent):
            if not self.liberties(g, stones):
                captured.extend(g)
        for q in captured:
            del stones[q]
        if not self.liberties(self.group(p, stones), stones):
            raise IllegalMoveError(Illegal.SUICIDE)
        return stones, RefEffects(captured=_ordered(captured))

    def after_placement(self, color: Color, p: Point) -> Dict[Point, Color]:
        """The stones right after the placement, before anything is flipped or removed."""
        stones = dict(self.stones)
        stones[p] = Color(color)
        return stones

    def loose_groups_to_flip(self, stones, color: Color) -> List[FrozenSet[Point]]:
        """L2: enemy groups of ``color`` without a true liberty (on the given stones)."""
        return [g for g in self.groups(stones, color.opponent) if not self.true_liberties(g, stones)]

    def _resolve_loose(self, color: Color, p: Point):
        """L2, L3: flip every enemy group without a true liberty, all at once; then every group
        of both colours must have a true liberty."""
        stones = self.after_placement(color, p)
        flipped = [q for g in self.loose_groups_to_flip(stones, color) for q in g]
        for q in flipped:
            stones[q] = color
        if any(not self.true_liberties(g, stones) for g in self.groups(stones)):
            raise IllegalMoveError(Illegal.NO_TRUE_LIBERTY)
        return stones, RefEffects(flipped=_ordered(flipped))

    def _resolve_flip_remove(self, color: Color, p: Point):
        """G1-G3: flip enemy groups without liberties, remove the G2 choice, forbid suicide."""
        stones = self.after_placement(color, p)
        captured_groups = [g for g in self.groups(stones, color.opponent) if not self.liberties(g, stones)]
        for g in captured_groups:
            for q in g:
                stones[q] = color
        removed = goncrete_removal(self, stones, p, captured_groups) if captured_groups else ()
        for q in removed:
            del stones[q]
        if not self.liberties(self.group(p, stones), stones):
            raise IllegalMoveError(Illegal.SUICIDE)
        flipped = [q for g in captured_groups for q in g]
        return stones, RefEffects(flipped=_ordered(flipped), removed=_ordered(removed))

    def _resolve_meals(self, color: Color, p: Point):
        """D2, D3: illegal only when an enemy person that was a glutton before the placement
        becomes a meal; report every stone that is newly in a meal."""
        if not hasattr(self, "_before"):  # the board never changes: compute once per board
            self._before = (set(self.meals()), set(self.gluttons()))
        meals_before, gluttons_before = self._before
        stones = self.after_placement(color, p)
        meals_after = set(self.meals(stones))
        for g in self.groups(stones, color.opponent):
            if g <= gluttons_before and g <= meals_after and not g <= meals_before:
                raise IllegalMoveError(Illegal.FEEDS_GLUTTON)
        return stones, RefEffects(meals=_ordered(meals_after - meals_before))

    def _check_terrain(self, stones, p: Point) -> None:
        """T4: after captures, a mountain stone's group needs a liberty off the mountains, and a
        water stone's group needs a stone off the water."""
        group = self.group(p, stones)
        if self.kind(p) == MOUNTAIN:
            if not any(self.kind(q) != MOUNTAIN for q in self.liberties(group, stones)):
                raise IllegalMoveError(Illegal.MOUNTAIN)
        if self.kind(p) == WATER:
            if not any(self.kind(q) != WATER for q in group):
                raise IllegalMoveError(Illegal.WATER)

    # ------------------------------------------------------------- scoring
    def regions(self) -> List[FrozenSet[Point]]:
        """Connected sets of points without stones (empty points and forts, T6)."""
        free = [p for p in reading_order(self.points()) if p not in self.stones]
        found, seen = [], set()
        for start in free:
            if start in seen:
                continue
            region, todo = {start}, [start]
            while todo:
                q = todo.pop()
                for n in self.neighbours(q):
                    if n not in self.stones and n not in region:
                        region.add(n)
                        todo.append(n)
            seen |= region
            found.append(frozenset(region))
        return found

    def region_owner(self, region) -> int:
        """The colour of the stones a region touches, if only one colour; else 0 (Go3, T6)."""
        touching = {self.stones[n] for q in region for n in self.neighbours(q) if n in self.stones}
        return int(touching.pop()) if len(touching) == 1 else 0

    def owner_map(self, scoring: str) -> List[int]:
        """Per point (``row*size + col``): who it counts for (1 black, 2 white, 0 nobody)."""
        owners = {p: 0 for p in self.points()}
        meal = set(self.meals()) if scoring == STONES_NOT_MEALS else set()
        for p, c in self.stones.items():
            if p not in meal:
                owners[p] = int(c)
        if scoring == AREA:
            for region in self.regions():
                who = self.region_owner(region)
                for q in region:
                    owners[q] = who
        return [owners[(r, c)] for r in range(self.size) for c in range(self.size)]

    def score_halves(self, scoring: str, fort_value: int = 0) -> Tuple[int, int]:
        """(black, white) in half points, without komi (Go3, L4, D4, T5-T7)."""
        halves = {BLACK: 0, WHITE: 0}
        if scoring == STONES:
            for c in self.stones.values():
                halves[c] += 2
        elif scoring == STONES_NOT_MEALS:
            meal = set(self.meals())
            for p, c in self.stones.items():
                if p not in meal:
                    halves[c] += 2
        else:
            for p, c in self.stones.items():
                halves[c] += HALF_POINTS[self.kind(p)]
            for region in self.regions():
                who = self.region_owner(region)
                if not who:
                    continue
                who = Color(who)
                for q in region:
                    if q in self.forts:
                        if self.forts[q] == who.opponent:
                            halves[who] += 2 * fort_value
                    else:
                        halves[who] += HALF_POINTS[self.kind(q)]
        return halves[BLACK], halves[WHITE]


def goncrete_removal(board: RefBoard, stones, placed: Point, flipped_groups) -> Tuple[Point, ...]:
    """The stones Goncrete removes after a flip (G1, G2), by trying every candidate set.

    ``stones`` is the board after the flip; the new group is the mover's group through
    ``placed``. A candidate set takes at most one stone from each flipped group and must leave
    the rest of the new group connected. The best set has (a) the most stones, then (b) the most
    neighbours in the new group in total, then (c) the earliest stones in reading order: groups
    are ordered by their first stone in reading order, and sets are compared group by group,
    an earlier stone of the first group beating a later one (or none).
    """
    new_group = board.group(placed, stones)
    groups = sorted(flipped_groups, key=lambda g: reading_key(reading_order(g)[0]))
    choices = [[None] + reading_order(g) for g in groups]

    def connected_without(removed) -> bool:
        rest = new_group - set(removed)
        return board.group(placed, {q: stones[q] for q in rest}) == rest

    def neighbours_in_group(q) -> int:
        return sum(1 for n in board.neighbours(q) if n in new_group)

    def rank(pick):
        removed = [q for q in pick if q is not None]
        order = tuple(len(choices[i]) if q is None else choices[i].index(q) for i, q in enumerate(pick))
        return (-len(removed), -sum(neighbours_in_group(q) for q in removed), order)

    best = None
    for pick in product(*choices):
        removed = [q for q in pick if q is not None]
        if connected_without(removed) and (best is None or rank(pick) < rank(best)):
            best = pick
    return tuple(q for q in best if q is not None)


@dataclass
class RefGame:
    """A game with history: turns (C3), passes and their end, superko (Go2), annihilation (G4)."""

    game: str
    size: int
    komi: float = None
    terrain: dict = None
    forts: dict = None       # point -> owner; placed before the game (T2)
    fort_value: int = 0
    boards: List[RefBoard] = field(default_factory=list)
    moves: List[Tuple[Color, Optional[Point], Optional[RefEffects]]] = field(default_factory=list)
    annihilated: bool = False

    def __post_init__(self):
        self.settings = GAMES[self.game]
        if self.komi is None:
            self.komi = self.settings.default_komi
        self.boards = [RefBoard(self.size, self.settings.capture, {}, self.terrain, self.forts)]

    @property
    def board(self) -> RefBoard:
        return self.boards[-1]

    @property
    def to_move(self) -> Color:
        return self.moves[-1][0].opponent if self.moves else BLACK

    @property
    def over(self) -> bool:
        two_passes = len(self.moves) >= 2 and self.moves[-1][1] is None and self.moves[-2][1] is None
        return self.annihilated or two_passes

    def next_board(self, color: Color, p: Point) -> Tuple[RefBoard, RefEffects]:
        """The board after a placement, with the game-level rules (G4 end, Go2 superko)."""
        if self.annihilated:
            raise IllegalMoveError(Illegal.GAME_OVER)
        board, effects = self.board.play(color, p)
        if self.settings.superko and any(board.key() == b.key() for b in self.boards):
            raise IllegalMoveError(Illegal.SUPERKO)
        return board, effects

    def illegal_reason(self, color: Color, p: Optional[Point]) -> Optional[Illegal]:
        try:
            if p is None:
                self.check_pass(color)
            else:
                self.next_board(color, p)
        except IllegalMoveError as err:
            return err.reason
        return None

    def check_pass(self, color: Color) -> None:
        """A pass is legal for anyone but the last mover (C3), even after an annihilation (C5
        forbids only placements)."""
        if self.moves and self.moves[-1][0] == color:
            raise IllegalMoveError(Illegal.REPEATED_PASS)

    def legal_points(self, color: Optional[Color] = None) -> List[Point]:
        color = self.to_move if color is None else color
        return [p for p in reading_order(self.board.points()) if self.illegal_reason(color, p) is None]

    def play(self, color: Color, p: Optional[Point]) -> Optional[RefEffects]:
        color = Color(color)
        if p is None:
            self.check_pass(color)
            self.moves.append((color, None, None))
            self.boards.append(self.board)
            return None
        board, effects = self.next_board(color, p)
        self.moves.append((color, p, effects))
        self.boards.append(board)
        if self.settings.annihilation_ends and effects.flipped and board.stone_count(color.opponent) == 0:
            self.annihilated = True
        return effects

    def score(self) -> Tuple[float, float, Optional[Color]]:
        """(black, white with komi, winner or None for a draw); L5 gives ties against the final passer."""
        b, w = self.board.score_halves(self.settings.scoring, self.fort_value)
        black, white = b / 2, w / 2 + self.komi
        if black != white:
            return black, white, BLACK if black > white else WHITE
        if self.settings.has_draws:
            return black, white, None
        last = self.moves[-1][0] if self.moves else None
        return black, white, last.opponent if last is not None else WHITE
