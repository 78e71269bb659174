"""``Game``: settings (C1, C6, C7), turns and passes (C3, C5), undo, copies, handicap, results."""

import math

import pytest

from diagrams import rows, setup_game, vertex
from gtp_engine.coords import Color
from gtp_engine.errors import Illegal, IllegalMoveError, RulesError
from gtp_engine.game import Game, Score

B, W = Color.BLACK, Color.WHITE
GAMES = ["go", "loose", "goncrete", "disto", "terrain"]


def state(game):
    return (game.rules, game.size, game.komi, game.position.rows(), list(game.moves), game.to_move,
            list(game.setup), list(game.forts), game.terrain)


def place_forts(game):
    """Place every fort of a Terrain Go game on plain points from the top right down (T2)."""
    from gtp_engine.board import PLAIN
    plains = [(r, c) for r in range(game.size - 1, -1, -1) for c in range(game.size - 1, -1, -1)
              if game.terrain.kind_at((r, c)) == PLAIN]
    while game.fort_turn is not None:
        game.place_fort(game.fort_turn, plains[len(game.forts)])


def play_all(game, moves):
    for color, text in moves:
        game.play(color, None if text == "pass" else vertex(text, game.size))


# ======================================================================= C1 sizes

@pytest.mark.parametrize("name, good, bad", [
    ("go", [2, 9, 19, 25], [1, 26, 0]),
    ("goncrete", [2, 13, 25], [1, 26]),
    ("disto", [2, 7, 25], [1, 26]),
    ("loose", [3, 5, 9, 25], [1, 2, 4, 8, 19 + 1, 27]),
    ("terrain", [5, 9, 19], [2, 4, 26]),
])
def test_C1_L6_board_sizes_each_game_allows(name, good, bad):
    for size in good:
        assert Game(name, size).size == size
    for size in bad:
        with pytest.raises(RulesError):
            Game(name, size)


def test_C1_a_refused_size_changes_nothing():
    game = Game("loose", 9)
    game.play(B, (4, 4))
    before = state(game)
    for size in (8, 1, 26):
        with pytest.raises(RulesError):
            game.set_size(size)
    assert state(game) == before


# ======================================================================= C6, C7 komi

@pytest.mark.parametrize("name, komi", [("go", 7.5), ("goncrete", 7.5), ("terrain", 7.5), ("loose", 6),
                                        ("disto", 6.5)])
def test_C7_default_komi(name, komi):
    """On sizes without a calibrated komi (docs/RESEARCH.md "Komi"; 11x11 has none) RULES C7 holds."""
    assert Game(name, 11).komi == komi


@pytest.mark.parametrize("name", ["go", "goncrete", "disto", "terrain"])
def test_C6_komi_is_any_multiple_of_a_half(name):
    game = Game(name, 9)
    for komi in (0, 0.5, -3.5, 100):
        game.set_komi(komi)
        assert game.komi == komi
    for komi in (0.25, 7.1, math.nan, math.inf):
        with pytest.raises(RulesError):
            game.set_komi(komi)
    assert game.komi == 100


def test_C6_L6_loose_komi_is_an_even_integer():
    game = Game("loose", 9)
    for komi in (0, 2, -4, 8):
        game.set_komi(komi)
        assert game.komi == komi
    for komi in (1, 7, 6.5, -3):
        with pytest.raises(RulesError):
            game.set_komi(komi)
    assert game.komi == 8
    with pytest.raises(RulesError):
        Game("loose", 9, komi=5)


# ======================================================================= C3, C5 turns, passes, end

def test_C3_side_to_move_follows_whoever_played_last():
    game = Game("go", 9)
    assert game.to_move == B
    play_all(game, [(W, "E5")])
    assert game.to_move == B
    play_all(game, [(B, "D4"), (B, "C3")])
    assert game.to_move == W


def test_C3_repeated_pass_is_refused_and_the_game_goes_on():
    game = Game("go", 9)
    play_all(game, [(B, "E5"), (W, "pass")])
    before = state(game)
    with pytest.raises(IllegalMoveError) as caught:
        game.play(W, None)
    assert caught.value.reason == Illegal.REPEATED_PASS
    assert state(game) == before and not game.over


def test_C5_play_after_two_passes_resumes_and_two_more_passes_end_again():
    game = Game("disto", 7)
    play_all(game, [(B, "D4"), (W, "pass"), (B, "pass")])
    assert game.over and game.end_reason == "two passes"
    play_all(game, [(W, "C3")])
    assert not game.over and game.end_reason is None
    play_all(game, [(B, "pass"), (W, "pass")])
    assert game.over


def test_G4_C5_annihilation_is_final_until_undone():
    game = Game("goncrete", 3)
    setup_game(game, """
        X X X
        X X X
        X . O
    """)
    game.play(W, (0, 1))
    assert game.end_reason == "annihilation"
    for color in (B, W):
        with pytest.raises(IllegalMoveError) as caught:
            game.play(color, (1, 1))
        assert caught.value.reason == Illegal.GAME_OVER
    assert game.legal_moves(B) == [] and game.legal_moves(W) == []
    # C3/C5: passes stay legal, so controllers that end games by two passes can finish
    game.play(B, None)
    game.play(W, None)
    assert game.end_reason == "annihilation" and game.legal_moves(B) == []
    game.undo()
    game.undo()
    assert game.end_reason == "annihilation"
    game.undo()
    assert not game.over
    assert game.position.rows() == ["XXX", "XXX", "X.O"]


@pytest.mark.parametrize("point", [(9, 0), (0, 9), (-1, 0), (0, -1), (100, 100)])
def test_C4_a_point_off_the_board_is_refused_and_changes_nothing(point):
    game = Game("go", 9)
    game.play(B, (4, 4))
    before = state(game)
    assert game.illegal_reason(W, point) == Illegal.OFF_BOARD
    with pytest.raises(IllegalMoveError) as caught:
        game.play(W, point)
    assert caught.value.reason == Illegal.OFF_BOARD
    assert state(game) == before


# ======================================================================= undo and history

UNDO_GAME = [(B, "C3"), (W, "D3"), (B, "D4"), (W, "C4"), (B, "E3"), (W, "B3"), (B, "D2"),
             (W, "C2"), (B, "pass"), (W, "D3")]


@pytest.mark.parametrize("name", GAMES)
def test_undo_goes_back_through_every_position_to_the_start(name):
    game = Game(name, 5)
    if game.terrain is not None:
        place_forts(game)
    seen = [game.position.rows()]
    for color, text in UNDO_GAME:
        move = None if text == "pass" else vertex(text, 5)
        if game.illegal_reason(color, move) is None:
            game.play(color, move)
            seen.append(game.position.rows())
    assert len(seen) > 5
    while game.moves:
        assert game.position.rows() == seen.pop()
        game.undo()
    assert game.position.rows() == seen.pop() and not seen
    assert game.to_move == B and game.moves == []
    with pytest.raises(RulesError):
        game.undo()


def test_undo_to_a_move_number_and_superko_forgets_undone_positions():
    game = Game("go", 5)
    setup_game(game, """
        . . . . .
        . X O . .
        X O . O .
        . X O . .
        . . . . .
    """)
    game.play(B, (2, 2))  # takes the ko
    assert game.illegal_reason(W, (2, 1)) == Illegal.SUPERKO
    game.play(W, (4, 4))
    game.play(B, (0, 4))
    game.play(W, (2, 1))  # retakes: the board differs now
    game.undo_to(1)
    assert len(game.moves) == 1 and game.illegal_reason(W, (2, 1)) == Illegal.SUPERKO
    with pytest.raises(RulesError):
        game.undo_to(5)
    game.undo_to(0)
    assert game.position.rows() == rows("""
        . . . . .
        . X O . .
        X O . O .
        . X O . .
        . . . . .
    """)


def test_move_records_say_what_each_move_did():
    game = Game("loose", 5)
    setup_game(game, """
        . . . . .
        . O O . .
        O X . . .
        . O O . .
        . . . . .
    """)
    record = game.play(W, (2, 3))
    assert record.color == W and record.point == (2, 3) and not record.is_pass
    assert record.effects.flipped == ((2, 1),)
    record = game.play(B, None)
    assert record.is_pass and record.effects is None
    assert game.last_move == record


# ======================================================================= settings and clearing

def test_set_rules_clears_the_board_and_sets_the_default_komi_or_refuses_and_changes_nothing():
    game = Game("go", 11, komi=3.5)
    game.play(B, (4, 4))
    game.set_rules("disto")
    assert game.rules.name == "disto" and game.komi == 6.5 and game.moves == []
    assert all(set(r) == {"."} for r in game.position.rows())
    game = Game("go", 8)
    game.play(B, (4, 4))
    before = state(game)
    with pytest.raises(RulesError):
        game.set_rules("loose")  # 8x8 is even
    with pytest.raises(RulesError):
        game.set_rules("chess")
    assert state(game) == before


def test_set_size_clears_the_board_and_keeps_komi():
    game = Game("goncrete", 9, komi=0.5)
    game.play(B, (4, 4))
    game.set_size(9)
    assert game.moves == [] and game.komi == 0.5 and game.position.stone_at((4, 4)) == 0
    game.set_size(13)
    assert game.size == 13 and game.position.size == 13 and game.komi == 0.5


def test_clear_keeps_rules_size_and_komi():
    game = Game("loose", 7, komi=-2)
    play_all(game, [(B, "D4"), (W, "C3")])
    game.clear()
    assert (game.rules.name, game.size, game.komi, game.moves, game.to_move) == ("loose", 7, -2, [], B)
    assert all(set(r) == {"."} for r in game.position.rows())


# ======================================================================= copies

def test_copy_is_independent_both_ways():
    game = Game("go", 9)
    play_all(game, [(B, "E5"), (W, "D4")])
    other = game.copy()
    play_all(other, [(B, "C3")])
    assert len(game.moves) == 2 and game.position.stone_at((2, 2)) == 0
    play_all(game, [(B, "G7"), (W, "pass")])
    assert len(other.moves) == 3 and other.position.stone_at((6, 6)) == 0
    other.undo_to(0)
    assert len(game.moves) == 4
    other.set_komi(0.5)
    assert game.komi == 7.5


# ======================================================================= handicap

@pytest.mark.parametrize("name", ["loose", "goncrete", "disto"])
def test_handicap_is_refused_outside_go_and_terrain(name):
    game = Game(name, 9)
    before = state(game)
    with pytest.raises(RulesError):
        game.place_handicap([(2, 2), (6, 6)])
    assert state(game) == before


@pytest.mark.parametrize("name", ["go", "terrain"])
def test_handicap_places_black_stones_and_white_moves_next(name):
    game = Game(name, 9)
    if game.terrain is not None:
        place_forts(game)
    free = [p for p in game.legal_moves(B) if p in [(2, 2), (6, 6), (2, 6), (6, 2), (4, 4), (3, 3), (5, 5)]][:2]
    game.place_handicap(free)
    assert all(game.position.stone_at(p) == B for p in free)
    assert game.to_move == W and game.moves == []
    with pytest.raises(RulesError):
        game.place_handicap(free)  # not on an empty board


def test_handicap_is_all_or_nothing():
    game = Game("go", 9)
    before = state(game)
    for points in ([(2, 2)], [(2, 2), (2, 2)], [(2, 2), (6, 6), (2, 2)]):
        with pytest.raises(RulesError):
            game.place_handicap(points)
        assert state(game) == before


# ======================================================================= results

@pytest.mark.parametrize("black, white, winner, text", [(10, 6.5, B, "B+3.5"), (4, 6, W, "W+2"),
                                                         (7.5, 7.5, None, "0")])
def test_C8_result_text(black, white, winner, text):
    assert Score(black, white, winner).result == text


def test_D4_dead_stones_are_disto_meals_and_none_elsewhere():
    diagram = """
        . . . . .
        . . O . .
        . O X O .
        . . O . .
        . . . . .
    """
    game = Game("disto", 5)
    setup_game(game, diagram)
    assert game.dead_stones() == [(2, 2)]
    game = Game("go", 5)
    setup_game(game, diagram.replace("X", "."))
    assert game.dead_stones() == []
