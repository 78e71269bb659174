"""Terrain Go maps (RULES T1, T2, T7): parameters, the seeded generator, text form, validation.

CONTRACT (names used by game, GTP, SGF):

TERRAIN kinds are board.PLAIN / MOUNTAIN / WATER. A map's ``kinds`` is a tuple of size*size ints
indexed ``row*size + col`` with row 0 at the bottom (GTP orientation).

@dataclass(frozen=True) class TerrainParams:
    mountains: int; water: int; min_groups: int; max_groups: int; min_group: int;
    forts: int (per side); fort_value: int
    for_size(size) -> TerrainParams        the RULES T1/T2/T7 defaults, scaled by r = N*N/361
    with_options(options: dict[str, str]) -> TerrainParams   keys ``mountains water
        groups=MIN-MAX min_group forts fort_value``; TerrainError for unknown keys or bad values

@dataclass(frozen=True) class TerrainMap:
    size: int; kinds: tuple; forts_per_side: int; fort_value: int
    kind_at(point) -> int
    to_text(forts=()) -> str    rows from the top joined by '/', '.' plain '^' mountain '~' water;
                                forts given as (Color, point) pairs are written 'b'/'w'
    from_text(text, forts_per_side=None, fort_value=None) -> TerrainMap  (classmethod; TerrainError
                                for bad characters, ragged or non-square rows, sizes outside
                                5..25; 'b'/'w' read as plain); counts default to for_size(size)
    validate(params=None)      TerrainError naming the first T1 rule the map breaks
    plain(size) -> TerrainMap  (classmethod) all plain, default counts

generate_map(size, seed, params=None) -> TerrainMap
    deterministic for (size, seed, params) on every machine; TerrainError for impossible params

INTERPRETATION OF T1 (what ``validate`` checks and ``generate_map`` guarantees):

- A *terrain group* is a maximal 4-connected set of points of one kind (mountain or water).
  Two groups of the same kind therefore never touch: touching points would make them one group.
  Groups of different kinds may touch.
- *Counts*: exactly ``mountains`` mountain points and ``water`` water points.
- *Group counts*: a kind with points has between ``min_groups`` and ``max_groups`` groups; a kind
  with 0 points has 0 groups, whatever the range says (0 points is allowed: no groups).
- *Group sizes*: every group has at least ``min_group`` points.
- *No enclosure*: for every single group G, the points not in G (plain points, and the points of
  every other group, of either kind) form one 4-connected set. A point is cut off by G together
  with the board edge exactly when it is cut off from the rest in this sense, so the edge needs
  no separate test. The rule is about *any one group*: a mountain group and a water group (or
  two groups together with the edge) may jointly surround plain points. Such points are not
  sealed off, since stones may be played on terrain, and the seed forbids only a group that
  surrounds. Because the test for G looks only at G's own points, the groups of a map can be
  checked (and generated) one at a time.
- *Forts*: the map must leave at least ``2 * forts`` plain points (T2, checked last).

DEFAULTS (``TerrainParams.for_size``): with r = N*N/361 and rounding half up, each kind has
round(60 r) points in 2 to 4 groups of at least max(2, round(12 r)) points; forts per side are
3 for N >= 13, 2 for 9 <= N <= 12, 1 below 9; a fort is worth max(1, round(12 r)). Board sizes
are 5..25. On 19x19 this is exactly the seed: 60 and 60 points, 2-4 groups of at least 12, 3
forts worth 12.

GENERATOR: a stable SplitMix64 generator (``StableRandom``, defined here, so that no library's
stream can change under us) is seeded from (seed, size). For each kind it draws a group count
from the feasible range and splits the points into group sizes of at least ``min_group``; the
groups are then grown largest first, each from a random seed point by random frontier growth
that takes only plain points not touching another group of the same kind and never lets the
points outside the group fall apart. A group that gets stuck is retried from a new seed point,
a layout whose group cannot be placed is restarted, and after a bounded number of attempts the
settings are refused with a TerrainError (never an endless loop).
"""

import functools
from dataclasses import dataclass, replace
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..board.constants import MOUNTAIN, PLAIN, WATER
from ..coords import MAX_SIZE, Color, Point, format_vertex, reading_order
from ..errors import TerrainError, quote

MIN_SIZE = 5                     #: Terrain Go needs N >= 5 (RULES C1)
REFERENCE_AREA = 19 * 19         #: the seed's board; other sizes scale by r = N*N / 361
TERRAIN_KINDS = (MOUNTAIN, WATER)
KIND_NAMES = {PLAIN: "plain", MOUNTAIN: "mountain", WATER: "water"}

GROUP_ATTEMPTS = 12              #: new seed points tried for one group before restarting the layout
LAYOUT_ATTEMPTS = 60             #: layouts tried before the settings are refused

_CHAR_OF_KIND = {PLAIN: ".", MOUNTAIN: "^", WATER: "~"}
_KIND_OF_CHAR = {".": PLAIN, "^": MOUNTAIN, "~": WATER, "b": PLAIN, "w": PLAIN, "B": PLAIN, "W": PLAIN}
_OPTION_KEYS = ("mountains", "water", "groups", "min_group", "forts", "fort_value")


def _scaled(base: int, size: int) -> int:
    """round(base * N*N / 361), halves rounded up, in exact integer arithmetic."""
    return (2 * base * size * size + REFERENCE_AREA) // (2 * REFERENCE_AREA)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _check_size(size: int) -> None:
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise TerrainError(f"terrain maps need a board size from {MIN_SIZE} to {MAX_SIZE}, not {size!r}")


# --------------------------------------------------------------------------- random numbers
_MASK64 = (1 << 64) - 1
_GOLDEN64 = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    """The SplitMix64 finaliser: a bijection of 64-bit words that spreads every input bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class StableRandom:
    """SplitMix64: a tiny generator whose stream is fixed by this code on every machine and
    Python version (the ``random`` module promises that only for ``random()``).

    ``StableRandom(*keys)`` mixes any number of Python ints of any size and sign into the state,
    so (seed, size) or (seed, move number, colour) give independent streams.
    """

    def __init__(self, *keys: int):
        state = _GOLDEN64
        for key in keys:
            key = int(key)
            magnitude = abs(key)
            while True:  # fold every 64-bit word of the key; the sign and length go in below
                state = _mix64(state ^ (magnitude & _MASK64))
                magnitude >>= 64
                if not magnitude:
                    break
            state = _mix64((state + (1 if key < 0 else 2) * _GOLDEN64) & _MASK64)
        self._state = state

    def next64(self) -> int:
        """The next 64-bit word."""
        self._state = (self._state + _GOLDEN64) & _MASK64
        return _mix64(self._state)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n); n must be positive."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        limit = (1 << 64) - (1 << 64) % n  # reject the top sliver so every residue is equally likely
        while True:
            word = self.next64()
            if word < limit:
                return word % n

    def fraction(self) -> float:
        """A uniform float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) / float(1 << 53)


# --------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class TerrainParams:
    """The settings of a map (RULES T1, T2, T7). Construction refuses negative numbers, an
    empty group range and ``min_group`` < 1 with a TerrainError; ``check(size)`` refuses what
    cannot fit a given board."""

    mountains: int
    water: int
    min_groups: int
    max_groups: int
    min_group: int
    forts: int       #: forts per side (T2)
    fort_value: int  #: what a fort in the opponent's territory is worth to that opponent (T7)

    def __post_init__(self):
        for name in ("mountains", "water", "min_groups", "max_groups", "min_group", "forts", "fort_value"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise TerrainError(f"terrain {name} must be a whole number >= 0, not {value!r}")
        if self.max_groups < self.min_groups:
            raise TerrainError(f"terrain groups range {self.min_groups}-{self.max_groups} is empty "
                               "(max below min)")
        if self.min_group < 1:
            raise TerrainError("terrain min_group must be at least 1")

    @classmethod
    def for_size(cls, size: int) -> "TerrainParams":
        """The defaults for an N x N board (see the module docstring); TerrainError outside 5..25."""
        _check_size(size)
        forts = 3 if size >= 13 else 2 if size >= 9 else 1
        return cls(mountains=_scaled(60, size), water=_scaled(60, size), min_groups=2, max_groups=4,
                   min_group=max(2, _scaled(12, size)), forts=forts,
                   fort_value=max(1, _scaled(12, size)))

    def with_options(self, options: Mapping[str, str]) -> "TerrainParams":
        """A copy with ``key=value`` overrides (values as text, e.g. from GTP).

        Keys: ``mountains water min_group forts fort_value`` (whole numbers >= 0) and
        ``groups`` (``MIN-MAX`` or a single number for both). TerrainError for an unknown key
        or a bad value; nothing is changed then (the original is frozen anyway).
        """
        changes: Dict[str, int] = {}
        for key, text in options.items():
            if key not in _OPTION_KEYS:
                raise TerrainError(f"unknown terrain option: {quote(key)} (known: {' '.join(_OPTION_KEYS)})")
            if key == "groups":
                low, sep, high = str(text).partition("-")
                changes["min_groups"] = _option_number(key, low, text)
                changes["max_groups"] = _option_number(key, high, text) if sep else changes["min_groups"]
            else:
                changes[key] = _option_number(key, str(text), text)
        return replace(self, **changes)

    @classmethod
    def parse_options(cls, size: int, words: Iterable[str]) -> "TerrainParams":
        """The defaults for ``size`` with ``key=value`` words applied (GTP ``terrain_generate``)."""
        options: Dict[str, str] = {}
        for word in words:
            key, sep, value = word.partition("=")
            if not sep:
                raise TerrainError(f"terrain option must be key=value, not {quote(word)}")
            options[key.strip()] = value.strip()
        return cls.for_size(size).with_options(options)

    def points_of(self, kind: int) -> int:
        """How many points of ``kind`` (MOUNTAIN or WATER) a map has."""
        return self.mountains if kind == MOUNTAIN else self.water

    def group_count_range(self, kind: int) -> range:
        """The numbers of groups ``kind`` may have: ``range(0, 1)`` for 0 points, else those in
        min_groups..max_groups (at least 1) whose minimum sizes fit the points. May be empty."""
        points = self.points_of(kind)
        if points == 0:
            return range(0, 1)
        return range(max(self.min_groups, 1), min(self.max_groups, points // self.min_group) + 1)

    def check(self, size: int) -> None:
        """Raise TerrainError naming the first reason these settings cannot make a map of ``size``."""
        _check_size(size)
        area = size * size
        for kind in TERRAIN_KINDS:
            points, name = self.points_of(kind), KIND_NAMES[kind]
            if points == 0:
                continue
            if self.max_groups == 0:
                raise TerrainError(f"{points} {name} points need at least one group, but groups is 0-0")
            if self.min_group > points:
                raise TerrainError(f"min_group {self.min_group} is more than the {points} {name} points")
            if max(self.min_groups, 1) * self.min_group > points:
                raise TerrainError(f"{self.min_groups} {name} groups of at least {self.min_group} points need "
                                   f"{self.min_groups * self.min_group} points, but there are only {points}")
        if self.mountains + self.water > area:
            raise TerrainError(f"{self.mountains} mountain and {self.water} water points do not fit on a "
                               f"{size}x{size} board ({area} points)")
        plain = area - self.mountains - self.water
        if 2 * self.forts > plain:
            raise TerrainError(f"{2 * self.forts} forts need {2 * self.forts} plain points, but only "
                               f"{plain} remain on a {size}x{size} board")

    def to_options(self) -> str:
        """The settings as ``key=value`` words, the form ``with_options`` reads."""
        return (f"mountains={self.mountains} water={self.water} groups={self.min_groups}-{self.max_groups} "
                f"min_group={self.min_group} forts={self.forts} fort_value={self.fort_value}")


#: More digits than any count on a 25x25 board needs; also keeps int() below Python's limit.
_MAX_OPTION_DIGITS = 9


def _option_number(key: str, text: str, whole: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > _MAX_OPTION_DIGITS:
        expected = "MIN-MAX with whole numbers >= 0" if key == "groups" else "a whole number >= 0"
        raise TerrainError(f"terrain option {key} needs {expected}, not {quote(whole)}")
    return int(text)


# --------------------------------------------------------------------------- geometry
@functools.lru_cache(maxsize=None)
def _neighbours(size: int) -> Tuple[Tuple[int, ...], ...]:
    """For each index, the indices of its on-board orthogonal neighbours."""
    table = []
    for index in range(size * size):
        row, col = divmod(index, size)
        table.append(tuple(r * size + c for r, c in ((row + 1, col), (row, col + 1), (row - 1, col), (row, col - 1))
                           if 0 <= r < size and 0 <= c < size))
    return tuple(table)


_RING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))  # N NE E SE S SW W NW


@functools.lru_cache(maxsize=None)
def _rings(size: int) -> Tuple[Tuple[int, ...], ...]:
    """For each index, its 8 surrounding indices in cyclic order (-1 off the board); the even
    positions are the orthogonal neighbours, and cyclically consecutive cells are adjacent."""
    table = []
    for index in range(size * size):
        row, col = divmod(index, size)
        table.append(tuple((row + dr) * size + col + dc if 0 <= row + dr < size and 0 <= col + dc < size else -1
                           for dr, dc in _RING))
    return tuple(table)


def _rest_connected(size: int, excluded: Sequence[bool], count: int) -> bool:
    """Whether the ``size*size - count`` points not marked in ``excluded`` form one 4-connected set."""
    neighbours = _neighbours(size)
    start = next((i for i in range(size * size) if not excluded[i]), None)
    if start is None:
        return True
    seen = bytearray(excluded)
    seen[start] = 1
    stack, reached = [start], 1
    while stack:
        for n in neighbours[stack.pop()]:
            if not seen[n]:
                seen[n] = 1
                reached += 1
                stack.append(n)
    return reached == size * size - count


def _can_join(size: int, in_group: bytearray, index: int, group_size: int) -> bool:
    """Whether adding ``index`` to the group keeps the points outside the group connected.

    Fast path: if the outside neighbours of ``index`` are linked through its ring of 8 cells,
    removing it cannot disconnect anything. Otherwise a full search decides.
    """
    ring = _rings(size)[index]
    open_cells = [cell >= 0 and not in_group[cell] for cell in ring]
    outside = [k for k in (0, 2, 4, 6) if open_cells[k]]
    if len(outside) <= 1:
        return True
    first_closed = next((k for k in range(8) if not open_cells[k]), None)
    if first_closed is None:
        return True
    run_of = [0] * 8  # the run of consecutive open ring cells each cell belongs to
    run = 0
    for step in range(1, 9):
        k = (first_closed + step) % 8
        if open_cells[k]:
            run_of[k] = run
        else:
            run += 1
    if len({run_of[k] for k in outside}) == 1:
        return True
    in_group[index] = 1
    connected = _rest_connected(size, in_group, group_size + 1)
    in_group[index] = 0
    return connected


# --------------------------------------------------------------------------- the map
@dataclass(frozen=True)
class TerrainGroup:
    """One terrain group: its kind and its point indices (``row*size + col``), ascending."""

    kind: int
    indices: Tuple[int, ...]

    def __len__(self) -> int:
        return len(self.indices)


@dataclass(frozen=True)
class TerrainMap:
    """A Terrain Go map: the kind of every point, and the fort count and value that go with it.

    ``kinds`` may be given as any sequence; it is stored as a tuple. TerrainError for a size
    outside 5..25, a wrong number of kinds, an unknown kind or a negative count.
    """

    size: int
    kinds: tuple
    forts_per_side: int
    fort_value: int

    def __post_init__(self):
        _check_size(self.size)
        kinds = tuple(int(k) for k in self.kinds)
        if len(kinds) != self.size * self.size:
            raise TerrainError(f"a {self.size}x{self.size} map needs {self.size * self.size} points, not {len(kinds)}")
        if any(k not in _CHAR_OF_KIND for k in kinds):
            raise TerrainError(f"unknown terrain kind in map: {sorted(set(kinds) - set(_CHAR_OF_KIND))}")
        for name in ("forts_per_side", "fort_value"):
            if getattr(self, name) < 0:
                raise TerrainError(f"terrain {name} must be >= 0, not {getattr(self, name)}")
        object.__setattr__(self, "kinds", kinds)

    def __repr__(self) -> str:
        return (f"TerrainMap.from_text({self.to_text()!r}, forts_per_side={self.forts_per_side}, "
                f"fort_value={self.fort_value})")

    @classmethod
    def plain(cls, size: int) -> "TerrainMap":
        """An all-plain map with the default fort count and value for ``size``."""
        params = TerrainParams.for_size(size)
        return cls(size, (PLAIN,) * (size * size), params.forts, params.fort_value)

    def kind_at(self, point: Point) -> int:
        row, col = point
        return self.kinds[row * self.size + col]

    def count(self, kind: int) -> int:
        """How many points of ``kind`` the map has."""
        return self.kinds.count(kind)

    def points_of(self, kind: int) -> List[Point]:
        """The points of ``kind`` as (row, col), row 0 first."""
        return [divmod(i, self.size) for i, k in enumerate(self.kinds) if k == kind]

    # ----------------------------------------------------------------- text
    def to_text(self, forts: Iterable[Tuple[Color, Point]] = ()) -> str:
        """Rows from the top joined by '/': '.' plain, '^' mountain, '~' water, forts 'b'/'w'."""
        chars = [_CHAR_OF_KIND[k] for k in self.kinds]
        for color, (row, col) in forts:
            chars[row * self.size + col] = Color(color).letter
        n = self.size
        return "/".join("".join(chars[row * n:(row + 1) * n]) for row in range(n - 1, -1, -1))

    @classmethod
    def from_text(cls, text: str, forts_per_side: Optional[int] = None,
                  fort_value: Optional[int] = None) -> "TerrainMap":
        """Read the ``to_text`` form (whitespace ignored; 'b'/'w' read as plain). Does not check
        T1 (call ``validate``). Fort count and value default to ``TerrainParams.for_size``."""
        rows = ["".join(row.split()) for row in text.split("/")]
        if not any(rows):
            raise TerrainError("empty terrain map")
        for number, row in enumerate(rows, 1):
            bad = next((c for c in row if c not in _KIND_OF_CHAR), None)
            if bad is not None:
                raise TerrainError(f"invalid terrain character {bad!r} in row {number} "
                                   "(use . plain, ^ mountain, ~ water, b/w forts)")
        widths = sorted({len(row) for row in rows})
        if len(widths) > 1:
            short = next(n for n, row in enumerate(rows, 1) if len(row) != len(rows[0]))
            raise TerrainError(f"terrain map rows differ in length: row 1 has {len(rows[0])} points, "
                               f"row {short} has {len(rows[short - 1])}")
        size = len(rows)
        if widths[0] != size:
            raise TerrainError(f"terrain map must be square, not {size} rows of {widths[0]} points")
        _check_size(size)
        defaults = TerrainParams.for_size(size)
        kinds = [PLAIN] * (size * size)
        for top_index, row in enumerate(rows):
            board_row = size - 1 - top_index
            for col, char in enumerate(row):
                kinds[board_row * size + col] = _KIND_OF_CHAR[char]
        return cls(size, tuple(kinds),
                   defaults.forts if forts_per_side is None else forts_per_side,
                   defaults.fort_value if fort_value is None else fort_value)

    @staticmethod
    def forts_in_text(text: str) -> List[Tuple[Color, Point]]:
        """The forts written ``w``/``b`` in a ``to_text`` form, in placement order: each side's
        in reading order, interleaved White first (``interleave_forts``)."""
        rows = ["".join(row.split()) for row in text.split("/")]
        size = len(rows)
        found = {Color.WHITE: [], Color.BLACK: []}
        for top_index, row in enumerate(rows):
            for col, char in enumerate(row):
                if char in "wb":
                    found[Color.WHITE if char == "w" else Color.BLACK].append((size - 1 - top_index, col))
        return interleave_forts(reading_order(found[Color.WHITE]), reading_order(found[Color.BLACK]))

    # ----------------------------------------------------------------- rules
    def groups(self) -> List[TerrainGroup]:
        """Every terrain group (maximal 4-connected set of one non-plain kind), in reading order
        of their first points (top row first, left to right)."""
        neighbours = _neighbours(self.size)
        seen = bytearray(self.size * self.size)
        found = []
        for start in _reading_indices(self.size):
            kind = self.kinds[start]
            if kind == PLAIN or seen[start]:
                continue
            seen[start] = 1
            stack, members = [start], [start]
            while stack:
                for n in neighbours[stack.pop()]:
                    if not seen[n] and self.kinds[n] == kind:
                        seen[n] = 1
                        stack.append(n)
                        members.append(n)
            found.append(TerrainGroup(kind, tuple(sorted(members))))
        return found

    def enclosing_group(self) -> Optional[TerrainGroup]:
        """The first group whose outside is not one connected set (it encloses something), or None."""
        for group in self.groups():
            inside = bytearray(self.size * self.size)
            for i in group.indices:
                inside[i] = 1
            if not _rest_connected(self.size, inside, len(group)):
                return group
        return None

    def validate(self, params: Optional[TerrainParams] = None) -> None:
        """Raise TerrainError naming the first rule of T1 (then T2's room for forts) the map
        breaks, checked in this order over both kinds: point counts, group counts, group sizes,
        enclosure, plain points for forts. ``params`` defaults to ``for_size(size)`` with this
        map's fort count."""
        if params is None:
            params = replace(TerrainParams.for_size(self.size), forts=self.forts_per_side,
                             fort_value=self.fort_value)
        groups = self.groups()
        for kind in TERRAIN_KINDS:
            have, want = self.count(kind), params.points_of(kind)
            if have != want:
                raise TerrainError(f"map has {_plural(have, KIND_NAMES[kind] + ' point')}, expected {want} (T1)")
        for kind in TERRAIN_KINDS:
            have = sum(1 for g in groups if g.kind == kind)
            allowed = range(params.min_groups, params.max_groups + 1) if params.points_of(kind) else (0,)
            if have not in allowed:
                wanted = ("0" if params.points_of(kind) == 0
                          else f"{params.min_groups} to {params.max_groups}")
                raise TerrainError(f"map has {_plural(have, KIND_NAMES[kind] + ' group')}, expected {wanted} (T1)")
        for group in groups:
            if len(group) < params.min_group:
                raise TerrainError(f"{KIND_NAMES[group.kind]} group at {self._vertex(group)} has "
                                   f"{_plural(len(group), 'point')}, "
                                   f"fewer than the minimum {params.min_group} (T1)")
        enclosing = self.enclosing_group()
        if enclosing is not None:
            raise TerrainError(f"{KIND_NAMES[enclosing.kind]} group at {self._vertex(enclosing)} encloses "
                               "points: the rest of the board is not connected (T1)")
        _check_fort_room(self.count(PLAIN), params.forts)

    def check_fort_room(self) -> None:
        """Raise TerrainError when the map has fewer plain points than its forts need (T2): on
        such a map the forts can never all be placed, so a game could never start. Every map a
        game takes is checked so (``Game.set_terrain``), ``strict`` or not."""
        _check_fort_room(self.count(PLAIN), self.forts_per_side)

    def _vertex(self, group: TerrainGroup) -> str:
        return format_vertex(reading_order(divmod(i, self.size) for i in group.indices)[0])


@functools.lru_cache(maxsize=None)
def _check_fort_room(plain: int, forts_per_side: int) -> None:
    if plain < 2 * forts_per_side:
        raise TerrainError(f"map has {_plural(plain, 'plain point')}, too few for "
                           f"{2 * forts_per_side} forts (T2): the game could never start")


def _reading_indices(size: int) -> Tuple[int, ...]:
    """Every index in reading order: top row first, left to right."""
    return tuple(row * size + col for row in range(size - 1, -1, -1) for col in range(size))


# --------------------------------------------------------------------------- the generator
def generate_map(size: int, seed: int, params: Optional[TerrainParams] = None) -> TerrainMap:
    """A random map satisfying T1 for ``params`` (default ``for_size(size)``), the same for the
    same (size, seed, params) on every machine.

    TerrainError, before any work, for settings ``params.check`` refuses, and after
    ``LAYOUT_ATTEMPTS`` failed layouts for settings that pass the arithmetic but do not fit.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TerrainError(f"terrain seed must be a whole number, not {seed!r}")
    params = TerrainParams.for_size(size) if params is None else params
    params.check(size)
    rng = StableRandom(seed, size)
    for _ in range(LAYOUT_ATTEMPTS):
        kinds = _try_layout(size, params, rng)
        if kinds is not None:
            return TerrainMap(size, tuple(kinds), params.forts, params.fort_value)
    raise TerrainError(f"could not lay out {params.to_options()} on a {size}x{size} board in "
                       f"{LAYOUT_ATTEMPTS} attempts; use fewer terrain points or smaller groups")


def _group_plan(params: TerrainParams, rng: StableRandom) -> List[Tuple[int, int]]:
    """(kind, size) of every group to grow, largest first (the hardest to fit)."""
    plan = []
    for kind in TERRAIN_KINDS:
        counts = params.group_count_range(kind)
        if not counts:
            raise TerrainError(f"no number of {KIND_NAMES[kind]} groups in {params.min_groups}-"
                               f"{params.max_groups} has groups of at least {params.min_group} points")
        count = counts[rng.below(len(counts))]
        if count == 0:
            continue
        spare = params.points_of(kind) - count * params.min_group
        cuts = sorted(rng.below(spare + 1) for _ in range(count - 1))
        bounds = [0] + cuts + [spare]
        plan.extend((kind, params.min_group + bounds[i + 1] - bounds[i]) for i in range(count))
    plan.sort(key=lambda item: -item[1])
    return plan


def _try_layout(size: int, params: TerrainParams, rng: StableRandom) -> Optional[List[int]]:
    """One attempt at a whole map: the kinds, or None when some group could not be placed."""
    kinds = [PLAIN] * (size * size)
    for kind, group_size in _group_plan(params, rng):
        for _ in range(GROUP_ATTEMPTS):
            members = _grow_group(size, kinds, kind, group_size, rng)
            if members is not None:
                for index in members:
                    kinds[index] = kind
                break
        else:
            return None
    return kinds


def _grow_group(size: int, kinds: List[int], kind: int, target: int, rng: StableRandom) -> Optional[List[int]]:
    """Grow one group of ``target`` points of ``kind`` on plain points that touch no other group
    of that kind, keeping the rest of the board connected; None if it gets stuck.

    The frontier holds one entry per (member, outside neighbour) pair, so a point touching more
    members is likelier to be taken: groups come out as compact blobs with ragged coasts.
    """
    neighbours = _neighbours(size)

    def allowed(index: int) -> bool:
        return kinds[index] == PLAIN and all(kinds[n] != kind for n in neighbours[index])

    starts = [i for i in range(size * size) if allowed(i)]
    if len(starts) < target:
        return None
    start = starts[rng.below(len(starts))]
    in_group = bytearray(size * size)
    members: List[int] = []
    frontier: List[int] = []

    def join(index: int) -> None:
        in_group[index] = 1
        members.append(index)
        frontier.extend(n for n in neighbours[index] if not in_group[n] and allowed(n))

    join(start)
    while len(members) < target:
        if not frontier:
            return None
        pick = rng.below(len(frontier))
        index = frontier[pick]
        frontier[pick] = frontier[-1]
        frontier.pop()
        if not in_group[index] and _can_join(size, in_group, index, len(members)):
            join(index)
    return members


def interleave_forts(white: Sequence[Point], black: Sequence[Point]) -> List[Tuple[Color, Point]]:
    """Each side's forts, in its own placement order, as one placement order: White first, then
    alternately (T2). Raises TerrainError when the counts cannot come from alternate placement
    (White has as many forts as Black, or one more)."""
    if not len(black) <= len(white) <= len(black) + 1:
        raise TerrainError(f"white places first and then alternately, so {len(white)} white and "
                           f"{len(black)} black forts cannot be")
    order = []
    for index, point in enumerate(white):
        order.append((Color.WHITE, point))
        if index < len(black):
            order.append((Color.BLACK, black[index]))
    return order
