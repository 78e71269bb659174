"""Shared fixtures: the two implementations of the rules that the rulings tests drive alike.

``backend`` is parametrized over the product (``gtp_engine.game.Game`` on the fast board) and
the slow reference (``tests/reference.py``), so every ruling and diagram is checked on both
through one small interface (``GameBackend`` / ``ReferenceBackend``).
"""

import os
import sys
from typing import Optional, Sequence, Tuple

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # the helper modules beside the tests

import diagrams  # noqa: E402
import reference  # noqa: E402
from gtp_engine.coords import Color, Point, parse_vertex  # noqa: E402


def terrain_map(text: str, forts_per_side: int = 0, fort_value: int = 12):
    """A ``TerrainMap`` from a diagram in the syntax of ``tests/diagrams.py`` (forts read as plain)."""
    from gtp_engine.rules.terrain_map import TerrainMap
    rows = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    return TerrainMap.from_text("/".join(rows), forts_per_side=forts_per_side, fort_value=fort_value)


def _point(vertex, size: int) -> Optional[Point]:
    return parse_vertex(vertex, size) if isinstance(vertex, str) else vertex


class GameBackend:
    """The product: a ``Game``; vertices may be GTP text or points."""

    name = "game"

    def __init__(self, rules: str, size: int, komi=None, map_text: Optional[str] = None,
                 forts: Sequence[Tuple[Color, str]] = (), fort_value: int = 12):
        from gtp_engine.game import Game
        terrain = None
        if map_text is not None:
            terrain = terrain_map(map_text, len(forts) // 2, fort_value)
        self.game = Game(rules, size, komi, terrain=terrain)
        for color, vertex in forts:
            self.game.place_fort(color, _point(vertex, size))
        self.size = size

    def setup(self, text: str) -> diagrams.Diagram:
        return diagrams.setup_game(self.game, text)

    def play(self, color: Color, vertex):
        return self.game.play(color, _point(vertex, self.size)).effects

    def illegal_reason(self, color: Color, vertex):
        return self.game.illegal_reason(color, _point(vertex, self.size))

    def legal_moves(self, color: Color):
        return self.game.legal_moves(color)

    def rows(self):
        return self.game.position.rows()

    def state(self):
        """What an illegal move must leave unchanged (C4): position, history, side to move."""
        return self.rows(), list(self.game.moves), self.game.to_move, self.game.over

    def meals(self):
        return sorted(self.game.position.meals())

    def gluttons(self):
        return sorted(self.game.position.gluttons())

    def false_liberties(self):
        return sorted(self.game.position.false_liberties())

    def fort_at(self, vertex):
        return self.game.position.fort_at(_point(vertex, self.size))

    def score(self):
        s = self.game.score()
        return s.black, s.white, s.winner

    @property
    def over(self) -> bool:
        return self.game.over


class ReferenceBackend:
    """The slow reference: a ``RefGame``; setup stones go straight onto the first board."""

    name = "reference"

    def __init__(self, rules: str, size: int, komi=None, map_text: Optional[str] = None,
                 forts: Sequence[Tuple[Color, str]] = (), fort_value: int = 12):
        terrain, fort_points = None, {}
        if map_text is not None:
            terrain = diagrams.parse_map(map_text).terrain()
            fort_points = {_point(v, size): c for c, v in forts}
        self.game = reference.RefGame(rules, size, komi, terrain, fort_points, fort_value)
        self.size = size

    def setup(self, text: str) -> diagrams.Diagram:
        d = diagrams.parse(text, self.size)
        self.game.boards[0] = self.game.board.copy_with(d.stones)
        return d

    def play(self, color: Color, vertex):
        return self.game.play(color, _point(vertex, self.size))

    def illegal_reason(self, color: Color, vertex):
        return self.game.illegal_reason(color, _point(vertex, self.size))

    def legal_moves(self, color: Color):
        return self.game.legal_points(color)

    def rows(self):
        return self.game.board.rows()

    def state(self):
        return self.rows(), list(self.game.moves), self.game.to_move, self.game.over

    def meals(self):
        return sorted(self.game.board.meals())

    def gluttons(self):
        return sorted(self.game.board.gluttons())

    def false_liberties(self):
        return sorted(self.game.board.false_liberties())

    def fort_at(self, vertex):
        return self.game.board.fort_at(_point(vertex, self.size))

    def score(self):
        return self.game.score()

    @property
    def over(self) -> bool:
        return self.game.over


@pytest.fixture(params=[GameBackend, ReferenceBackend], ids=["game", "reference"])
def backend(request):
    """A factory ``backend(rules, size, komi=None, map_text=None, forts=(), fort_value=12)``."""
    return request.param


@pytest.fixture(scope="session", autouse=True)
def fort_cache(tmp_path_factory):
    """The run's own cache of searched forts (``search.fortcache``), shared by its engines and
    never the user's; tests that watch the cache set a fresh one."""
    from gtp_engine.search.fortcache import CACHE_ENV
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("vargo-cache"))
    yield
    if before is None:
        del os.environ[CACHE_ENV]
    else:
        os.environ[CACHE_ENV] = before


@pytest.fixture(scope="session", autouse=True)
def compiled_search_kernels():
    """Compile the board and search kernels once per run (a minute or two on a cold cache,
    seconds after): in-process searches then run at full speed, and every engine a test
    starts finds the numba cache warm, so its searches are compiled and reproducible."""
    from gtp_engine.search import _backend
    _backend.compile_now()
