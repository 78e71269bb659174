"""Terrain Go rulings (RULES T1-T8) as far as Game and Position expose them.

Maps are diagrams too: ``.`` plain, ``^`` mountain, ``~`` water, ``b``/``w`` a fort's plain point
(the forts themselves are placed in the order given, White first). Map generation (T1) and the
fair komi (T9) have their own tests; here: forts, terrain legality, weighted scores, clear_board.
"""

import pytest

from conftest import terrain_map
from diagrams import vertex, vertices
from gtp_engine.coords import Color
from gtp_engine.errors import Illegal, IllegalMoveError, TerrainError
from test_rulings import assert_board, assert_refused

B, W = Color.BLACK, Color.WHITE


def fort_game(size, seed=0):
    from gtp_engine.game import Game
    return Game("terrain", size, terrain_seed=seed)


# ======================================================================= T1, T2, T7: counts from the size

@pytest.mark.parametrize("size, forts, value", [(19, 3, 12), (13, 3, 6), (12, 2, 5), (9, 2, 3),
                                                (8, 1, 2), (5, 1, 1)])
def test_T2_T7_fort_count_and_value_scale_with_the_board(size, forts, value):
    game = fort_game(size)
    assert game.forts_per_side == forts
    assert game.fort_value == value  # round(12 * N*N / 361), at least 1


def test_T1_the_same_seed_and_size_give_the_same_map():
    assert fort_game(9, seed=5).terrain == fort_game(9, seed=5).terrain
    assert fort_game(9, seed=5).terrain != fort_game(9, seed=6).terrain


# ======================================================================= T2: placing forts

def plain_points(game):
    from gtp_engine.board import PLAIN
    return [p for p in reversed(sorted((r, c) for r in range(game.size) for c in range(game.size)))
            if game.terrain.kind_at(p) == PLAIN]


def test_T2_white_places_the_first_fort_then_alternately_and_black_moves_first():
    game = fort_game(9)
    points = plain_points(game)
    turns = []
    for i in range(4):
        turns.append(game.fort_turn)
        game.place_fort(game.fort_turn, points[i])
    assert turns == [W, B, W, B]
    assert game.fort_turn is None
    assert [c for c, _ in game.forts] == [W, B, W, B]
    assert game.to_move == B
    game.play(B, points[5])


def test_T2_a_fort_out_of_turn_or_beyond_the_count_is_refused():
    game = fort_game(7)
    points = plain_points(game)
    with pytest.raises(TerrainError):
        game.place_fort(B, points[0])  # White places first
    game.place_fort(W, points[0])
    game.place_fort(B, points[1])
    with pytest.raises(TerrainError):
        game.place_fort(W, points[2])  # one each on 7x7
    assert game.forts == [(W, points[0]), (B, points[1])]


def test_T2_no_stone_before_both_sides_have_all_their_forts():
    game = fort_game(7)
    points = plain_points(game)
    game.place_fort(W, points[0])
    before = (game.position.rows(), list(game.moves), game.to_move)
    for move in (points[3], None):
        with pytest.raises(IllegalMoveError) as caught:
            game.play(B, move)
        assert caught.value.reason == Illegal.FORTS_PENDING
    assert game.legal_moves(B) == []
    with pytest.raises(IllegalMoveError) as caught:
        game.add_setup(B, points[3])  # setup stones (handicap, SGF AB) wait for the forts too
    assert caught.value.reason == Illegal.FORTS_PENDING
    assert (game.position.rows(), list(game.moves), game.to_move) == before
    assert game.setup == []


def test_T2_forts_go_on_empty_plain_points_only():
    from gtp_engine.board import MOUNTAIN, WATER
    game = fort_game(9)
    mountain = next(p for p in game.terrain.points_of(MOUNTAIN))
    water = next(p for p in game.terrain.points_of(WATER))
    for point in (mountain, water):
        with pytest.raises(TerrainError):
            game.place_fort(W, point)
    point = plain_points(game)[0]
    game.place_fort(W, point)
    with pytest.raises(IllegalMoveError) as caught:
        game.place_fort(B, point)
    assert caught.value.reason == Illegal.FORT
    assert game.forts == [(W, point)]


def test_T2_forts_only_before_the_first_stone_and_zero_forts_allowed():
    from gtp_engine.game import Game
    game = Game("terrain", 5, terrain=terrain_map(". . . . .\n" * 5, forts_per_side=0))
    assert game.fort_turn is None
    game.play(B, (2, 2))
    with pytest.raises(TerrainError):
        game.place_fort(W, (0, 0))


# ======================================================================= T3: what a fort is

FORT_MAP = """
    . . . . .
    . . . . .
    . . . . .
    . . . . .
    w . b . .
"""
FORTS = [(W, "A1"), (B, "C1")]


def test_T3_a_fort_never_holds_a_stone(backend):
    b = backend("terrain", 5, map_text=FORT_MAP, forts=FORTS)
    assert_refused(b, B, "A1", Illegal.FORT)
    assert_refused(b, W, "C1", Illegal.FORT)
    assert vertex("A1", 5) not in b.legal_moves(B)


def test_T3_a_fort_is_never_a_liberty(backend):
    b = backend("terrain", 5, map_text=FORT_MAP, forts=FORTS)
    b.setup("""
        . . . . .
        . . . . .
        . . . . .
        . O . . .
        . . . . .
    """)
    assert_refused(b, B, "B1", Illegal.SUICIDE)  # between two forts, under a white stone


def test_T3_a_group_beside_forts_only_is_captured_and_the_fort_stays(backend):
    b = backend("terrain", 5, map_text=FORT_MAP, forts=FORTS)
    b.setup("""
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . O . . .
    """)
    effects = b.play(B, "B2")  # B1's neighbours are the forts A1, C1 and now B2
    assert vertices(effects.captured) == ["B1"]
    assert b.fort_at("A1") == W and b.fort_at("C1") == B
    assert_refused(b, W, "B1", Illegal.SUICIDE)  # still no liberty there for White


# ======================================================================= T4: mountains and water

MOUNTAIN_MAP = """
    . . . . .
    . . . . .
    . . . . .
    ^ . . . .
    ^ . . . .
"""


def test_T4_mountain_stone_needs_a_liberty_off_the_mountain(backend):
    b = backend("terrain", 5, map_text=MOUNTAIN_MAP)
    b.setup("""
        . . . . .
        . . . . .
        . . . . .
        . X . . .
        . O . . .
    """)
    # Black A1: its only liberty would be A2, a mountain (white B1 keeps C1, so no capture).
    assert_refused(b, B, "A1", Illegal.MOUNTAIN)
    b.play(B, "A2")  # A3 is plain: legal
    assert b.rows()[3] == "XX..."


def test_T4_mountain_liberty_is_judged_after_captures(backend):
    b = backend("terrain", 5, map_text=MOUNTAIN_MAP)
    b.setup("""
        . . . . .
        . . . . .
        . . . . .
        . X . . .
        . O X . .
    """)
    effects = b.play(B, "A1")  # capturing B1 gives A1 a plain liberty
    assert vertices(effects.captured) == ["B1"]
    assert_board(b, """
        . . . . .
        . . . . .
        . . . . .
        . X . . .
        X . X . .
    """)


WATER_MAP = """
    . . . . .
    . . . . .
    . . ~ ~ .
    . . . . .
    . . . . .
"""


def test_T4_water_stone_needs_a_stone_of_its_group_off_the_water(backend):
    b = backend("terrain", 5, map_text=WATER_MAP)
    assert_refused(b, B, "C3", Illegal.WATER)
    assert_refused(b, W, "D3", Illegal.WATER)
    b.play(B, "B3")
    b.play(B, "C3")  # joined to B3 on the plain
    b.play(B, "D3")  # joined through C3
    assert b.rows()[2] == ".XXX."


def test_T4_water_beside_an_enemy_stone_is_still_alone(backend):
    b = backend("terrain", 5, map_text=WATER_MAP)
    b.play(W, "B3")
    assert_refused(b, B, "C3", Illegal.WATER)


# ======================================================================= T5-T7: scores

SCORE_MAP = """
    ^ . . . b
    . ^ . . .
    ~ . b . w
    . . . ~ .
    w . . . ~
"""
SCORE_FORTS = [(W, "A1"), (B, "E5"), (W, "E3"), (B, "C3")]
SCORE_POSITION = """
    . X . O .
    . X . O .
    . X . O .
    . X . O .
    . X . O .
"""


def test_T5_T6_T7_weighted_area_with_forts(backend):
    b = backend("terrain", 5, komi=0.5, map_text=SCORE_MAP, forts=SCORE_FORTS, fort_value=5)
    b.setup(SCORE_POSITION)
    # Black: B1 B2 B3 B5 plain 4, B4 mountain 0; territory A5 mountain 0, A4 1, A3 water 1.5,
    # A2 1, A1 a white fort in Black's territory 5 (no plain value): 12.5.
    # White: D1 D3 D4 D5 plain 4, D2 water 1.5; territory E5 black fort 5, E4 1, E3 its own fort
    # 0, E2 1, E1 water 1.5: 14, plus komi 0.5. Column C (with Black's fort C3) is neutral.
    assert b.score() == (12.5, 14.5, W)


def test_T5_empty_board_with_forts_counts_for_nobody(backend):
    b = backend("terrain", 5, komi=0, map_text=SCORE_MAP, forts=SCORE_FORTS, fort_value=5)
    assert b.score() == (0, 0, None)


# ======================================================================= T8: clear_board and new maps

def test_T8_clear_keeps_the_map_and_the_forts_a_new_map_clears_the_forts():
    game = fort_game(7, seed=2)
    points = plain_points(game)
    game.place_fort(W, points[0])
    game.place_fort(B, points[1])
    game.play(B, points[2])
    terrain, forts = game.terrain, list(game.forts)
    game.clear()
    assert game.terrain == terrain and game.forts == forts
    assert game.moves == [] and game.to_move == B and game.fort_turn is None
    assert game.position.fort_at(points[0]) == W and game.position.fort_at(points[1]) == B
    assert all(set(row) == {"."} for row in game.position.rows())
    game.play(B, points[2])
    game.set_size(7)  # frontends resend boardsize before replaying: the same size keeps it all
    assert game.terrain == terrain and game.forts == forts and game.moves == []
    game.set_terrain(fort_game(7, seed=3).terrain)
    assert game.forts == [] and game.fort_turn == W
    assert game.position.fort_at(points[0]) == 0
