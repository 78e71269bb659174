"""The fast board and the game agree with the slow reference (tests/reference.py) on random games.

At every step of many random games of every game and several board sizes: the legal points (and
why each other point is illegal), the board after every move, what each move flipped, removed,
captured and made a meal, Disto's meals and gluttons, Loose's false liberties, the score and the
territory. Whole games through ``Game`` add superko, the end (two passes, annihilation) and the
result. Properties: Loose's L3 (flipping never turns a true liberty false) and Goncrete's
finiteness (no position repeats). The default run is small; ``-m slow`` runs the big ones.
"""

import random
from typing import Dict, List, Optional

import pytest

import diagrams
import reference as ref
from diagrams import show
import gtp_engine.board as board
from gtp_engine.board import Position
from conftest import GameBackend, ReferenceBackend
from gtp_engine.coords import Color, Point, format_vertex, parse_vertex, reading_order
from gtp_engine.errors import IllegalMoveError
from gtp_engine.game import Game
from gtp_engine.rules import find_rules
from gtp_engine.rules.terrain_map import generate_map

B, W = Color.BLACK, Color.WHITE
GAMES = ["go", "loose", "goncrete", "disto", "terrain"]
SCORING = {ref.AREA: "SCORE_AREA", ref.STONES: "SCORE_STONES", ref.STONES_NOT_MEALS: "SCORE_STONES_NOT_MEALS"}
CAPTURE = {ref.REMOVE: "CAPTURE_REMOVE", ref.LOOSE: "CAPTURE_LOOSE", ref.FLIP_REMOVE: "CAPTURE_FLIP_REMOVE",
           ref.MEALS: "CAPTURE_MEALS"}


def sizes_for(game: str, sizes):
    return [n for n in sizes if find_rules(game).min_size <= n and (game != "loose" or n % 2)]


# ------------------------------------------------------------------ a game's settings on both sides

def test_reference_imports_nothing_of_the_product_but_value_types():
    import ast
    tree = ast.parse(open(ref.__file__, encoding="utf-8").read())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert {m for m in modules if m.startswith("gtp_engine")} <= {"gtp_engine.coords", "gtp_engine.errors"}


def test_rules_classes_declare_what_the_reference_says():
    for name, settings in ref.GAMES.items():
        rules = find_rules(name)
        assert rules.capture == getattr(board, CAPTURE[settings.capture]), name
        assert rules.scoring == getattr(board, SCORING[settings.scoring]), name
        assert rules.superko == settings.superko, name
        assert rules.ends_on_annihilation == settings.annihilation_ends, name
        assert rules.has_draws == settings.has_draws, name
        assert rules.default_komi == settings.default_komi, name
    assert (board.PLAIN, board.MOUNTAIN, board.WATER) == (ref.PLAIN, ref.MOUNTAIN, ref.WATER)


# ------------------------------------------------------------------ random boards on both sides

class Pair:
    """A Position and a RefBoard kept in step, with every comparison in one place."""

    def __init__(self, game: str, size: int, seed: int, setup_density: float = 0.0):
        """``setup_density``: that share of the free points gets a random stone first, put as
        it stands (``Position.put``, SGF setup), often leaving groups without a liberty."""
        rules = find_rules(game)
        self.game, self.size, self.rules = game, size, rules
        self.settings = ref.GAMES[game]
        rng = random.Random(seed * 7919 + size)
        kinds, terrain, forts, self.fort_value = None, None, {}, 0
        if rules.has_terrain:
            tmap = generate_map(size, seed)
            kinds, self.fort_value = tmap.kinds, tmap.fort_value
            terrain = {(i // size, i % size): k for i, k in enumerate(kinds)}
            plains = [p for p, k in terrain.items() if k == ref.PLAIN]
            chosen = rng.sample(sorted(plains), 2 * tmap.forts_per_side)
            forts = {p: (W if i % 2 == 0 else B) for i, p in enumerate(chosen)}
        self.fast = Position(size, rules.capture, kinds)
        for p, c in forts.items():
            self.fast.place_fort(c, p)
        free = [(r, c) for r in range(size) for c in range(size) if (r, c) not in forts]
        setup = {p: rng.choice((B, W)) for p in free if rng.random() < setup_density}
        for p in reading_order(setup):
            self.fast.put(setup[p], p)
        self.slow = ref.RefBoard(size, self.settings.capture, setup, terrain, forts)
        self.far_effects = 0
        self.hashes: Dict[int, tuple] = {}
        self.hashes_of: Dict[tuple, int] = {}

    def where(self, step, color, point=None) -> str:
        return (f"{self.game} {self.size}x{self.size} step {step}, {color.word} {point}\n"
                + show(self.slow.rows()))

    def check_legality(self, color: Color, step: int, every_reason: bool) -> List[Point]:
        legal = self.slow.legal_points(color)
        assert self.fast.legal_points(color) == legal, self.where(step, color)
        if every_reason:
            for p in self.slow.points():
                assert self.fast.illegal_reason(color, p) == self.slow.illegal_reason(color, p), \
                    self.where(step, color, p)
            self.check_refusal_changes_nothing(color, legal)
        return legal

    def check_refusal_changes_nothing(self, color: Color, legal: List[Point]) -> None:
        """C4 on the board: an illegal placement raises and leaves stones and hash alone."""
        refused = [p for p in self.slow.points() if p not in legal and p not in self.slow.stones]
        if refused:
            before = (self.fast.rows(), self.fast.zobrist)
            with pytest.raises(IllegalMoveError):
                self.fast.play(color, refused[0])
            assert (self.fast.rows(), self.fast.zobrist) == before

    def play(self, color: Color, p: Point, step: int) -> None:
        fast = self.fast.play(color, p)
        self.slow, slow = self.slow.play(color, p)
        for field in ("captured", "flipped", "removed", "meals"):
            assert getattr(fast, field) == getattr(slow, field), (field, self.where(step, color, p))
        assert self.fast.rows() == self.slow.rows(), self.where(step, color, p)
        touched, reached, todo = set(slow.captured) | set(slow.flipped), {p}, [p]
        while todo:
            for n in self.slow.neighbours(todo.pop()):
                if n in touched and n not in reached:
                    reached.add(n)
                    todo.append(n)
        self.far_effects += bool(touched - reached)  # a group taken away from the move

    def check_copy_is_independent(self, color: Color, p: Point) -> None:
        before = (self.fast.rows(), self.fast.zobrist)
        clone = self.fast.copy()
        clone.play(color, p)
        assert clone.stone_at(p) == color
        assert (self.fast.rows(), self.fast.zobrist) == before

    def check_board(self, step: int, gluttons: bool = False) -> None:
        fast, slow = self.fast, self.slow
        here = self.where(step, W)
        rows = tuple(fast.rows())
        assert self.hashes.setdefault(fast.zobrist, rows) == rows, "two positions share a hash"
        assert self.hashes_of.setdefault(rows, fast.zobrist) == fast.zobrist, "a position changed hash"
        for c in (B, W):
            assert fast.stone_count(c) == slow.stone_count(c), here
        scoring = getattr(board, SCORING[self.settings.scoring])
        assert fast.score_halves(scoring, self.fort_value) == slow.score_halves(self.settings.scoring,
                                                                                self.fort_value), here
        if self.settings.scoring == ref.AREA:
            assert fast.owner_map(scoring) == slow.owner_map(ref.AREA), here
        if self.settings.capture == ref.MEALS:
            assert reading_order(fast.meals()) == slow.meals(), here
            if gluttons:
                assert reading_order(fast.gluttons()) == slow.gluttons(), here
        if self.settings.capture == ref.LOOSE:
            assert reading_order(fast.false_liberties()) == slow.false_liberties(), here


def own_eye(board: ref.RefBoard, color: Color, p: Point) -> bool:
    """An empty point whose every neighbour is a stone of ``color`` (random play keeps it)."""
    return all(board.stones.get(n) == color for n in board.neighbours(p))


def choose(rng: random.Random, board: ref.RefBoard, color: Color, legal: List[Point]) -> Optional[Point]:
    """A random legal point, rarely one's own eye (so games end yet big captures still happen)."""
    keep = [p for p in legal if not own_eye(board, color, p)]
    if keep and rng.random() < 0.97:
        return rng.choice(keep)
    return rng.choice(legal) if legal and rng.random() < 0.3 else None


def random_walk(game: str, size: int, seed: int, max_moves: int, every_reason: bool = True,
                gluttons: bool = False, legal_every: int = 1, setup_density: float = 0.0,
                stats: Optional[dict] = None) -> int:
    """Play one random game on a Position and a RefBoard in step, comparing everything
    (Disto's gluttons only when asked: they have a test of their own). The legal lists are
    compared every ``legal_every`` moves; in between the move comes from the fast board's list
    and the reference must accept it. ``setup_density``: start from random setup stones;
    ``stats`` counts setups that left a group unsettled and moves that took a group away from
    the move (keys ``unsettled``, ``far``)."""
    rng = random.Random(seed)
    pair = Pair(game, size, seed, setup_density)
    if setup_density:
        pair.check_board(-1, gluttons)
    if stats is not None:
        stats["unsettled"] += unsettled_groups(pair.slow) > 0
    color, passes, step = B, 0, 0
    for step in range(max_moves):
        if step % legal_every == 0:
            legal = pair.check_legality(color, step, every_reason)
        else:
            legal = pair.fast.legal_points(color)
        if legal and step % 7 == 3:
            pair.check_copy_is_independent(color, legal[len(legal) // 2])
        p = choose(rng, pair.slow, color, legal)
        if p is None:
            passes += 1
            if passes == 2:
                break
        else:
            passes = 0
            pair.play(color, p, step)
        if step % 5 == 0:
            pair.check_board(step, gluttons)
        color = color.opponent
    pair.check_board(step, gluttons)
    if stats is not None:
        stats["far"] += pair.far_effects
    return step


SMALL = [(g, n) for g in GAMES for n in sizes_for(g, [5, 7, 9])]


@pytest.mark.parametrize("game, size", SMALL)
def test_position_agrees_with_reference_on_random_games(game, size):
    for seed in range(2 if size < 9 else 1):
        random_walk(game, size, seed, max_moves=3 * size * size)


@pytest.mark.parametrize("size", [5, 7])
def test_D1_gluttons_agree_with_reference_on_random_games(size):
    # Kept apart from the walk above: a meal next to a meal is a glutton too (D1), so once
    # meals touch, the lists differ if the board leaves meals out.
    for seed in range(3):
        random_walk("disto", size, seed, max_moves=3 * size * size, every_reason=False, gluttons=True)


@pytest.mark.parametrize("game, size", [(g, n) for g in GAMES for n in sizes_for(g, [13, 19])])
def test_position_agrees_with_reference_on_big_boards(game, size):
    random_walk(game, size, seed=1, max_moves=25, every_reason=False)


@pytest.fixture(scope="module")
def compiled_kernels():
    """The numba kernels instead of their pure-Python mirror (minutes on a cold numba cache)."""
    from gtp_engine.board import _backend
    _backend.compile_now()
    assert _backend.compiled()


@pytest.mark.slow
@pytest.mark.parametrize("game, size", [(g, n) for g in GAMES for n in sizes_for(g, [5, 6, 7, 9])])
def test_compiled_position_agrees_with_reference_on_many_random_games(compiled_kernels, game, size):
    for seed in range(10, 18):
        random_walk(game, size, seed, max_moves=3 * size * size, every_reason=size <= 6,
                    legal_every=1 if size <= 7 else 3)


@pytest.mark.slow
@pytest.mark.parametrize("game, size", [(g, n) for g in GAMES for n in sizes_for(g, [13, 19])])
def test_compiled_position_agrees_with_reference_on_a_whole_big_game(compiled_kernels, game, size):
    random_walk(game, size, seed=2, max_moves=2 * size * size, every_reason=False, legal_every=15)


# ------------------------------------------------------------------ setup stones as they stand

def unsettled_groups(board: ref.RefBoard) -> int:
    """Groups play never leaves behind: without a liberty (Loose: a true liberty)."""
    if board.capture == ref.MEALS:
        return 0
    lacks = board.true_liberties if board.capture == ref.LOOSE else board.liberties
    return sum(1 for g in board.groups() if not lacks(g))


@pytest.mark.parametrize("game, size", [(g, n) for g in GAMES for n in sizes_for(g, [5, 7])])
def test_position_built_with_put_agrees_with_reference_on_random_games(game, size):
    # Random setups leave groups without a liberty (Loose: a true liberty); the next moves must
    # apply the rules to them wherever they stand, as the reference does.
    stats = {"unsettled": 0, "far": 0}
    for seed in range(6):
        random_walk(game, size, seed, max_moves=size * size, setup_density=(0.9, 0.75)[seed % 2],
                    stats=stats)
    if game != "disto":
        assert stats["unsettled"] >= 2, "the setups never left a group without a liberty"
        assert stats["far"] >= 1, "no move took a group away from it"


@pytest.mark.parametrize("game, expected", [
    ("go", {"captured": ("A1",)}),
    ("terrain", {"captured": ("A1",)}),
    ("loose", {"flipped": ("A1",)}),
    ("goncrete", {"flipped": ("A1",), "removed": ("A1",)}),
    ("disto", {}),
])
def test_a_setup_stone_without_a_liberty_stands_until_the_next_move(game, expected):
    # White A1 inside black A2 B1 (SGF AB[ad][be] AW[ae]): before, Game placed setup through
    # the rules and refused it (suicide) or, in another order, captured it at once.
    size = 5
    games = []
    for backend in (GameBackend, ReferenceBackend):
        b = backend(game, size, map_text="\n".join("." * size for _ in range(size)) if game == "terrain" else None)
        for vertex, color in (("A1", W), ("A2", B), ("B1", B)):
            if backend is GameBackend:
                b.game.add_setup(color, parse_vertex(vertex, size))
        if backend is ReferenceBackend:
            b.game.boards[0] = b.game.board.copy_with({parse_vertex(v, size): c for v, c in
                                                        (("A1", W), ("A2", B), ("B1", B))})
        assert b.rows()[-2:] == ["X....", "OX..."]
        effects = b.play(B, "C3")
        games.append((b.rows(), {f: tuple(format_vertex(p) for p in getattr(effects, f))
                                 for f in ("captured", "flipped", "removed", "meals")
                                 if getattr(effects, f)}))
    assert games[0] == games[1]
    assert games[0][1] == expected


HOLES = """
    X X X X X X X
    X O X O X O X
    X X X X X X X
    X O X O X O X
    X X X X X X X
    X O X . X O X
    X X X X X X X
"""


@pytest.mark.parametrize("limit", [None, 1])
def test_goncrete_flips_far_groups_of_a_setup_and_removes_one_stone_of_each(monkeypatch, limit):
    # Black D2 fills Black's last liberty: every white stone of the setup has none, so all
    # eight flip (G1), far from D2 but joined to the new group through Black's stones, and
    # each loses its stone (G2). ``limit`` 1 forces the group-by-group choice the kernel
    # falls back on beyond G2_ENUMERATION_LIMIT picks (the pure-Python mirror reads the
    # limit at run time), which must agree here.
    from gtp_engine.board import _backend
    if limit is not None:
        monkeypatch.setattr(_backend, "active", _backend.mirror)
        monkeypatch.setattr(_backend.mirror, "G2_ENUMERATION_LIMIT", limit)
    d = diagrams.parse(HOLES, 7)
    fast = Position(7, board.CAPTURE_FLIP_REMOVE)
    for p in reading_order(d.stones):
        fast.put(d.stones[p], p)
    slow = ref.RefBoard(7, ref.FLIP_REMOVE, d.stones)
    effects = fast.play(B, parse_vertex("D2", 7))
    slow, expected = slow.play(B, parse_vertex("D2", 7))
    assert effects.flipped == effects.removed == expected.flipped == expected.removed
    assert len(effects.removed) == 8 and fast.rows() == slow.rows()
    assert fast.stone_count(W) == 0 and fast.stone_count(B) == 49 - 8


def test_setup_through_sgf_keeps_a_stone_without_a_liberty():
    from sgf import game_from_sgf
    game = game_from_sgf(b"(;SZ[5]AB[ad][be]AW[ae];W[cc];B[dd])")
    assert sorted(game.setup) == [(B, (0, 1)), (B, (1, 0)), (W, (0, 0))]
    assert game.moves[0].effects.captured == ()           # White's own stone stays
    assert game.moves[1].effects.captured == ((0, 0),)    # Black's next move takes it (Go1)
    assert game.position.rows()[-1] == ".X..."


# ------------------------------------------------------------------ whole games through Game

def reference_game_for(game: Game) -> ref.RefGame:
    terrain, forts = None, {}
    if game.terrain is not None:
        terrain = {(i // game.size, i % game.size): k for i, k in enumerate(game.terrain.kinds)}
        forts = {p: c for c, p in game.forts}
    return ref.RefGame(game.rules.name, game.size, game.komi, terrain, forts, game.fort_value)


def play_whole_game(name: str, size: int, seed: int, max_moves: int, superko_log=None) -> Game:
    """A random game on Game and RefGame in step: legal moves with superko, each record, the
    end and the score. ``superko_log`` (a list) collects the points superko refused."""
    rng = random.Random(seed)
    game = Game(name, size, terrain_seed=seed)
    while game.fort_turn is not None:
        free = [p for p in game.position.legal_points(game.fort_turn)
                if game.terrain.kind_at(p) == ref.PLAIN]
        game.place_fort(game.fort_turn, rng.choice(free))
    mirror = reference_game_for(game)
    for step in range(max_moves):
        color = game.to_move
        assert mirror.to_move == color
        legal = mirror.legal_points(color)
        assert game.legal_moves(color) == legal, f"{name} step {step}\n" + show(mirror.board.rows())
        if superko_log is not None:
            superko_log.extend(set(mirror.board.legal_points(color)) - set(legal))
        p = choose(rng, mirror.board, color, legal)
        record = game.play(color, p)
        effects = mirror.play(color, p)
        assert record.point == p and record.color == color
        if p is not None:
            for field in ("captured", "flipped", "removed", "meals"):
                assert getattr(record.effects, field) == getattr(effects, field), (name, step, field)
        assert game.position.rows() == mirror.board.rows()
        assert game.over == mirror.over
        if game.over:
            break
    score = game.score()
    assert (score.black, score.white, score.winner) == mirror.score()
    if mirror.annihilated:
        assert game.end_reason == "annihilation"
    return game


@pytest.mark.parametrize("name", GAMES)
def test_game_agrees_with_reference_on_whole_random_games(name):
    ends = set()
    for seed in range(3):
        game = play_whole_game(name, 5, seed, max_moves=200)
        ends.add(game.end_reason)
    assert ends - {None}, "no game reached its end"


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("size", [5, 7])
def test_game_agrees_with_reference_on_many_whole_games(compiled_kernels, name, size):
    for seed in range(10, 20):
        play_whole_game(name, size, seed, max_moves=4 * size * size)


def test_goncrete_annihilation_ends_a_whole_game_like_the_reference():
    # Small boards make annihilation common; find one within a fixed set of seeds.
    ends = [play_whole_game("goncrete", 3, seed, max_moves=100).end_reason for seed in range(40)]
    assert "annihilation" in ends


def test_superko_shows_up_in_random_go_games():
    # 3x3 Go repeats positions often: the legal lists compared above then really use superko.
    refused = []
    for seed in range(10):
        play_whole_game("go", 3, seed, max_moves=60, superko_log=refused)
    assert refused


# ------------------------------------------------------------------ properties

def loose_l3_holds_through(size: int, seed: int, moves: int) -> int:
    """Random Loose game on the reference; checks L3 at every flip and returns the flips seen."""
    rng = random.Random(seed)
    board = ref.RefBoard(size, ref.LOOSE)
    color, flips = B, 0
    for _ in range(moves):
        legal = board.legal_points(color)
        p = choose(rng, board, color, legal)
        if p is not None:
            placed = board.after_placement(color, p)
            true_before = {q for q in board.points()
                           if board.is_empty(q, placed) and not board.is_false_liberty(q, placed)}
            new_board, effects = board.play(color, p)
            true_after = {q for q in board.points()
                          if new_board.is_empty(q) and not new_board.is_false_liberty(q)}
            assert true_before <= true_after, show(board.rows())
            for g in new_board.groups(color=color.opponent):
                assert new_board.true_liberties(g), "one pass of L2 left an enemy group without a true liberty"
            flips += bool(effects.flipped)
            board = new_board
        color = color.opponent
    return flips


def test_L3_flipping_never_turns_a_true_liberty_false():
    flips = sum(loose_l3_holds_through(n, seed, 3 * n * n) for n in (5, 7) for seed in range(4))
    assert flips >= 5  # the property was exercised


@pytest.mark.slow
def test_L3_flipping_never_turns_a_true_liberty_false_many_games():
    for n in (5, 7, 9):
        for seed in range(10, 15):
            loose_l3_holds_through(n, seed, 3 * n * n)


def goncrete_games_never_repeat(size: int, games: int, seed: int) -> int:
    """Uniformly random Goncrete games on the fast board (pass only when nothing is legal);
    asserts that no board ever repeats and that each game ends. Returns the moves played."""
    from gtp_engine.board import CAPTURE_FLIP_REMOVE
    rng = random.Random(seed)
    total = 0
    cap = 50 * size * size
    for _ in range(games):
        position = Position(size, CAPTURE_FLIP_REMOVE)
        seen = {tuple(position.rows())}
        color, passes, ended = B, 0, False
        for _ in range(cap):
            legal = position.legal_points(color)
            if not legal:
                passes += 1
                if passes == 2:
                    ended = True
                    break
            else:
                passes = 0
                effects = position.play(color, rng.choice(legal))
                total += 1
                if effects.flipped and position.stone_count(color.opponent) == 0:
                    ended = True  # G4
                    break
                key = tuple(position.rows())
                assert key not in seen, "a Goncrete position repeated:\n" + show(position.rows())
                seen.add(key)
            color = color.opponent
        assert ended, f"a {size}x{size} Goncrete game did not end within {cap} moves"
    return total


@pytest.mark.parametrize("size", [3, 4, 5])
def test_G3_goncrete_is_finite_no_position_repeats(size):
    assert goncrete_games_never_repeat(size, games=60, seed=size) > 0


@pytest.mark.slow
@pytest.mark.parametrize("size, games", [(3, 3000), (4, 3000), (5, 2000), (6, 500), (7, 300), (9, 100)])
def test_G3_goncrete_is_finite_in_thousands_of_games(compiled_kernels, size, games):
    goncrete_games_never_repeat(size, games=games, seed=100 + size)
