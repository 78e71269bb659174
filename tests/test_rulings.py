"""Every ruling and every example of RULES.md (C, Go, L, G, D; Terrain Go is in test_rulings_terrain).

Each test names the ruling it covers and runs on both the product (``Game`` on the fast board) and
the slow reference (the ``backend`` fixture), with positions as diagrams: top row first, ``X``
black, ``O`` white, ``.`` empty, other capitals name empty points; vertices are GTP (row 1 at the
bottom, no column I). Game-only behaviour (sizes, komi, undo, copies) is in test_game.py.
"""

import pytest

from diagrams import parse, rows, vertex, vertices
from gtp_engine.coords import Color
from gtp_engine.errors import Illegal, IllegalMoveError

B, W = Color.BLACK, Color.WHITE
ALL_GAMES = ["go", "loose", "goncrete", "disto", "terrain"]


def assert_refused(b, color, vertex, reason):
    """The move raises IllegalMoveError for ``reason`` and changes nothing (C4)."""
    before = b.state()
    assert b.illegal_reason(color, vertex) == reason
    with pytest.raises(IllegalMoveError) as caught:
        b.play(color, vertex)
    assert caught.value.reason == reason
    assert b.state() == before


def assert_board(b, diagram):
    assert b.rows() == rows(diagram, b.size), "\n" + "\n".join(b.rows())


def new(backend, rules, size, **kw):
    """A game; Terrain Go gets an all-plain map without forts, so it plays like Go."""
    if rules == "terrain" and "map_text" not in kw:
        kw["map_text"] = "\n".join("." * size for _ in range(size))
    return backend(rules, size, **kw)


# ======================================================================= the diagrams themselves

def test_diagrams_read_top_row_first_in_gtp_coordinates():
    d = parse("""
        X . A
        . O .
    """, size=4)
    assert d.stones == {vertex("A4", 4): B, vertex("B3", 4): W}
    assert d["A"] == vertex("C4", 4)
    assert d.rows() == ["X...", ".O..", "....", "...."]


# ======================================================================= common (C2-C8)

def test_C2_adjacent_is_orthogonal_a_diagonal_stone_is_another_group(backend):
    b = new(backend, "go", 5)
    b.setup("""
        . . . . .
        . . X . .
        . X O X .
        . . . O .
        . . . . .
    """)
    effects = b.play(B, "C2")
    assert vertices(effects.captured) == ["C3"]
    assert_board(b, """
        . . . . .
        . . X . .
        . X . X .
        . . X O .
        . . . . .
    """)


@pytest.mark.parametrize("rules", ALL_GAMES)
def test_C3_black_first_then_the_opponent_of_the_last_mover(backend, rules):
    b = new(backend, rules, 5)
    assert b.game.to_move == B
    b.play(B, "C3")
    assert b.game.to_move == W
    b.play(B, "D4")  # either colour may play (setup practice): the side to move follows
    assert b.game.to_move == W
    b.play(W, "B2")
    assert b.game.to_move == B


@pytest.mark.parametrize("rules", ALL_GAMES)
def test_C3_two_passes_end_the_game_and_a_repeated_pass_is_refused(backend, rules):
    b = new(backend, rules, 5)
    b.play(B, "C3")
    b.play(W, None)
    assert not b.over
    assert_refused(b, W, None, Illegal.REPEATED_PASS)
    b.play(B, None)
    assert b.over
    b = new(backend, rules, 5)
    b.play(B, "C3")
    assert_refused(b, B, None, Illegal.REPEATED_PASS)  # the last mover's pass, even after a stone


@pytest.mark.parametrize("rules", ALL_GAMES)
def test_C4_occupied_point_is_refused_and_changes_nothing(backend, rules):
    b = new(backend, rules, 5)
    b.play(B, "C3")
    assert_refused(b, W, "C3", Illegal.OCCUPIED)
    assert_refused(b, B, "C3", Illegal.OCCUPIED)


@pytest.mark.parametrize("rules", ALL_GAMES)
def test_C5_a_play_after_two_passes_resumes_the_game(backend, rules):
    b = new(backend, rules, 5)
    b.play(B, None)
    b.play(W, None)
    assert b.over
    b.play(B, "C3")
    assert not b.over
    assert b.rows()[2] == "..X.."


def test_C6_C8_komi_goes_to_white_and_equal_scores_are_a_draw(backend):
    # Black: 6 stones + A5 A4 + A2 A1 = 10; White: 6 stones + 8 territory = 14; C3 is neutral.
    diagram = """
        . X O . .
        . X O . .
        X X . O O
        . X O . .
        . X O . .
    """
    b = new(backend, "go", 5, komi=-4)
    b.setup(diagram)
    assert b.score() == (10, 10, None)
    b = new(backend, "go", 5, komi=0.5)
    b.setup(diagram)
    assert b.score() == (10, 14.5, W)
    b = new(backend, "go", 5, komi=-4.5)
    b.setup(diagram)
    assert b.score() == (10, 9.5, B)


# ======================================================================= Go (Go1-Go3)

def test_Go1_a_capture_removes_the_group_before_the_suicide_check(backend):
    b = new(backend, "go", 5)
    b.setup("""
        . O X . .
        O O X . .
        X X . . .
        . . . . .
        . . . . .
    """)
    effects = b.play(B, "A5")  # no liberty of its own until the three white stones go
    assert vertices(effects.captured) == ["B5", "A4", "B4"]
    assert_board(b, """
        X . X . .
        . . X . .
        X X . . .
        . . . . .
        . . . . .
    """)


@pytest.mark.parametrize("rules", ["go", "goncrete", "terrain"])
def test_Go1_G3_suicide_is_illegal(backend, rules):
    b = new(backend, rules, 5)
    b.setup("""
        . O X . .
        O O X . .
        X X . . .
        . . . . .
        . . . . .
    """)
    assert_refused(b, W, "A5", Illegal.SUICIDE)  # a three-stone group would have no liberty
    b2 = new(backend, rules, 5)
    b2.setup("""
        . X . . .
        X . . . .
        . . . . .
        . . . . .
        . . . . .
    """)
    assert_refused(b2, W, "A5", Illegal.SUICIDE)  # a single stone in the corner


KO = """
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . .
"""


@pytest.mark.parametrize("rules", ["go", "terrain"])
def test_Go2_superko_refuses_the_immediate_ko_recapture(backend, rules):
    b = new(backend, rules, 5)
    b.setup(KO)
    assert vertices(b.play(B, "C3").captured) == ["B3"]
    assert_refused(b, W, "B3", Illegal.SUPERKO)
    assert vertex("B3", 5) not in b.legal_moves(W)
    b.play(W, "E5")
    b.play(B, "E1")
    assert vertices(b.play(W, "B3").captured) == ["C3"]  # the whole board differs now


def test_Go3_area_score_counts_stones_and_single_coloured_regions(backend):
    b = new(backend, "go", 5, komi=7.5)
    b.setup("""
        . X O . .
        . X O . .
        X X . O O
        . X O . .
        . X O . .
    """)
    assert b.score() == (10, 14 + 7.5, W)


def test_Go3_an_empty_board_counts_for_nobody(backend):
    b = new(backend, "go", 5, komi=0)
    assert b.score() == (0, 0, None)


# ======================================================================= Loose (L1-L6)

def test_L1_false_liberty_touches_both_colours_and_no_empty_point(backend):
    b = new(backend, "loose", 5)
    b.setup("""
        . X O . .
        X . X . .
        . X O . .
        . O X . .
        X . O . .
    """)
    # A5 and B4 touch black only; A2 touches the empty A3. B1 (on the edge: three
    # neighbours) touches A1 X, C1 O, B2 O and no empty point: the only false liberty.
    assert vertices(b.false_liberties()) == ["B1"]


def test_L1_a_point_touching_one_colour_only_is_a_true_liberty(backend):
    b = new(backend, "loose", 5)
    b.setup("""
        . . . . .
        . . X . .
        . X . X .
        . . X . .
        . . . . .
    """)
    assert b.false_liberties() == []
    b.play(W, "A5")
    assert b.false_liberties() == []


LOOSE_CAPTURE = """
    . . . . .
    . O O . .
    O X . . .
    . O O . .
    . . . . .
"""


def test_L2_example_a_capture_white_D3_flips_B3(backend):
    b = new(backend, "loose", 5)
    b.setup(LOOSE_CAPTURE)
    effects = b.play(W, "D3")
    assert vertices(effects.flipped) == ["B3"]
    assert vertices(effects.captured) == [] and vertices(effects.removed) == []
    assert_board(b, """
        . . . . .
        . O O . .
        O O . O .
        . O O . .
        . . . . .
    """)


def test_L2_example_not_a_capture_without_white_C2(backend):
    b = new(backend, "loose", 5)
    b.setup("""
        . . . . .
        . O O . .
        O X . . .
        . O . . .
        . . . . .
    """)
    effects = b.play(W, "D3")
    assert effects.flipped == ()
    assert_board(b, """
        . . . . .
        . O O . .
        O X . O .
        . O . . .
        . . . . .
    """)


def test_L2_example_illegal_white_B3_has_no_true_liberty(backend):
    b = new(backend, "loose", 5)
    b.setup("""
        . . . . .
        . X X . .
        X . . X .
        . X X . .
        . . . . .
    """)
    assert_refused(b, W, "B3", Illegal.NO_TRUE_LIBERTY)


def test_L2_a_flipped_group_need_not_touch_the_placed_stone(backend):
    b = new(backend, "loose", 5)
    b.setup("""
        . . . . .
        O O . . .
        X . . . .
        O O . . .
        . . . . .
    """)
    effects = b.play(W, "C3")  # makes B3 false: A3 loses its only true liberty, two points away
    assert vertices(effects.flipped) == ["A3"]
    assert_board(b, """
        . . . . .
        O O . . .
        O . O . .
        O O . . .
        . . . . .
    """)


def test_L2_all_groups_without_a_true_liberty_flip_together(backend):
    b = new(backend, "loose", 5)
    b.setup("""
        . . . . .
        O . O . .
        X . X O .
        O O O . .
        . . . . .
    """)
    effects = b.play(W, "B4")  # B3 turns false, the only liberty of both A3 and C3
    assert vertices(effects.flipped) == ["A3", "C3"]
    assert_board(b, """
        . . . . .
        O O O . .
        O . O O .
        O O O . .
        . . . . .
    """)


def test_L3_a_move_that_leaves_an_own_group_without_a_true_liberty_is_illegal(backend):
    diagram = """
        . . . . .
        X X . . .
        O . . . .
        X X . . .
        . . . . .
    """
    b = new(backend, "loose", 5)
    b.setup(diagram)
    # White C3 makes B3 false; it is white A3's only liberty, and nothing black flips.
    assert_refused(b, W, "C3", Illegal.NO_TRUE_LIBERTY)
    # The same point for Black is a capture: white A3 flips.
    assert vertices(b.play(B, "C3").flipped) == ["A3"]


def test_L4_score_is_stones_on_the_board_plus_komi(backend):
    b = new(backend, "loose", 5, komi=6)
    b.setup("""
        . . . . .
        . O O . .
        O O . O .
        . O O . .
        . . . . .
    """)
    b.play(B, "E1")
    assert b.score() == (1, 7 + 6, W)


def test_L5_tie_goes_against_the_final_passer(backend):
    b = new(backend, "loose", 5, komi=0)
    b.play(B, "C3")
    b.play(W, "D4")
    b.play(B, None)
    b.play(W, None)
    assert b.over and b.score() == (1, 1, B)  # White passed last and loses the tie
    b = new(backend, "loose", 5, komi=2)
    b.play(B, "C3")
    b.play(W, None)
    b.play(B, "D4")
    b.play(W, "B2")
    b.play(B, None)
    b.play(W, None)
    assert b.score() == (2, 3, W)  # no tie: the higher score wins whoever passed last
    b = new(backend, "loose", 5, komi=-2)
    b.play(B, "C3")
    b.play(W, "D4")
    b.play(B, "B2")
    b.play(W, None)
    b.play(B, None)
    assert b.score() == (2, -1, B)


def test_L5_tie_black_passes_last_and_loses(backend):
    b = new(backend, "loose", 5, komi=0)
    b.play(W, "D4")  # White may move first (C3); Black placed last, so Black passes last
    b.play(B, "C3")
    b.play(W, "E5")
    b.play(B, "B2")
    b.play(W, None)
    b.play(B, None)
    assert b.score() == (2, 2, W)


def test_L5_tie_with_komi_is_still_decided(backend):
    b = new(backend, "loose", 5, komi=2)
    b.play(B, "C3")
    b.play(W, "D4")
    b.play(B, "B2")
    b.play(B, "A1")
    b.play(W, None)
    b.play(B, None)
    assert b.score() == (3, 3, W)


def test_L5_two_passes_and_nothing_else_final_passer_loses(backend):
    b = new(backend, "loose", 5, komi=0)
    b.play(B, None)
    b.play(W, None)
    assert b.score() == (0, 0, B)


# ======================================================================= Goncrete (G1-G5)

def test_G1_example_the_single_flipped_stone_stays_it_would_split_the_group(backend):
    b = new(backend, "goncrete", 7)
    d = b.setup("""
        . A . .
        O X O .
        . O . X
    """)
    effects = b.play(W, d["A"])
    assert vertices(effects.flipped) == ["B6"]
    assert effects.removed == ()
    assert_board(b, """
        . O . .
        O O O .
        . O . X
    """)


def test_G1_example_removals_are_mandatory_left_group_loses_one_right_keeps_all(backend):
    b = new(backend, "goncrete", 9)
    d = b.setup("""
        . O O . O O . X
        O X X A X X O .
        O O O . O O . .
    """)
    effects = b.play(W, d["A"])
    assert vertices(effects.flipped) == ["B8", "C8", "E8", "F8"]
    assert vertices(effects.removed) == ["B8"]
    assert_board(b, """
        . O O . O O . X
        O . O O O O O .
        O O O . O O . .
    """)


def test_G1_G2c_example_three_equal_candidates_reading_order_picks_the_top_left(backend):
    b = new(backend, "goncrete", 7)
    d = b.setup("""
        . O A . X
        O X X O .
        O O X O .
        . O O . .
    """)
    effects = b.play(W, d["A"])
    assert vertices(effects.flipped) == ["B6", "C6", "C5"]
    assert vertices(effects.removed) == ["B6"]
    assert_board(b, """
        . O O . X
        O . O O .
        O O O O .
        . O O . .
    """)


def test_G1_G4_example_all_black_stones_captured_ends_the_game(backend):
    b = new(backend, "goncrete", 3)
    d = b.setup("""
        X X X
        X X X
        X A O
    """)
    effects = b.play(W, d["A"])
    assert len(effects.flipped) == 7
    assert vertices(effects.removed) == ["B2"]  # the centre: 4 neighbours, the corners 2
    assert_board(b, """
        O O O
        O . O
        O O O
    """)
    assert b.over
    assert_refused(b, B, "B2", Illegal.GAME_OVER)
    assert b.legal_moves(B) == []


def test_G2a_as_many_flipped_groups_as_possible_lose_a_stone(backend):
    b = new(backend, "goncrete", 6)
    b.setup("""
        O O X . O O
        O O . O O X
        X . X . O .
        . X . O O O
        X O O X X O
        O O X . O O
    """)
    # Taking D2 (first in reading order) from the D2-E2 group would leave no removable stone
    # in C1; taking E2 lets C1 go too: two groups lose a stone.
    effects = b.play(W, "D1")
    assert vertices(effects.flipped) == ["D2", "E2", "C1"]
    assert vertices(effects.removed) == ["E2", "C1"]


def test_G2c_ties_in_two_groups_go_to_the_first_candidate_of_each_in_reading_order(backend):
    b = new(backend, "goncrete", 5)
    b.setup("""
        O O O X X
        O X X . X
        . O O O O
        O O O X X
        O . O . O
    """)
    effects = b.play(W, "D4")
    # Flipped: D5 E5 E4 (first group: D5 comes first) and B4 C4. Best by (a) and (b): D5 or E4
    # (3 neighbours each), and B4 or C4 (4 each); reading order takes D5 and B4.
    assert vertices(effects.flipped) == ["D5", "E5", "B4", "C4", "E4"]
    assert vertices(effects.removed) == ["D5", "B4"]
    assert_board(b, """
        O O O . O
        O . O O O
        . O O O O
        O O O X X
        O . O . O
    """)


def test_G2b_the_removed_stone_has_the_most_neighbours_in_the_new_group(backend):
    b = new(backend, "goncrete", 5)
    b.setup("""
        . . . . .
        . . . . .
        O O O . .
        X X . . .
        O O . . .
    """)
    effects = b.play(W, "C2")
    # A2 has 3 neighbours in the new group, B2 has 4: B2 goes, though A2 comes first.
    assert vertices(effects.removed) == ["B2"]
    assert_board(b, """
        . . . . .
        . . . . .
        O O O . .
        O . O . .
        O O . . .
    """)


def test_G1_a_removal_may_not_split_the_new_group(backend):
    b = new(backend, "goncrete", 5)
    b.setup("""
        . . . . .
        . . . . .
        O O . . .
        X X . . .
        O O . . .
    """)
    effects = b.play(W, "C2")  # without C3, removing B2 would cut C2 off: A2 goes
    assert vertices(effects.removed) == ["A2"]


def test_G4_a_capture_that_leaves_the_opponent_stones_does_not_end_the_game(backend):
    b = new(backend, "goncrete", 5)
    b.setup("""
        . . . . .
        . . . . .
        . . . . X
        O O . . .
        X . . . .
    """)
    effects = b.play(W, "B1")
    assert vertices(effects.flipped) == ["A1"]
    assert not b.over


def test_G5_goncrete_scores_by_area(backend):
    b = new(backend, "goncrete", 5, komi=7.5)
    b.setup("""
        . X O . .
        . X O . .
        X X . O O
        . X O . .
        . X O . .
    """)
    assert b.score() == (10, 21.5, W)


# ======================================================================= Disto (D1-D4)

DISTO = """
    . . . . .
    . . O . .
    . O X O .
    . . . . .
    . . . . .
"""


def test_D_example_meal_gluttons_and_the_forbidden_feeding(backend):
    b = new(backend, "disto", 5)
    b.setup(DISTO)
    effects = b.play(W, "C2")
    assert vertices(effects.meals) == ["C3"]
    assert vertices(b.meals()) == ["C3"]
    assert vertices(b.gluttons()) == ["C4", "B3", "D3", "C2"]
    b.play(B, "B2")
    b.play(B, "D2")
    assert_board(b, """
        . . . . .
        . . O . .
        . O X O .
        . X O X .
        . . . . .
    """)
    assert_refused(b, B, "C1", Illegal.FEEDS_GLUTTON)
    effects = b.play(W, "C1")
    assert effects.meals == ()


def test_D2_glutton_status_is_judged_before_the_placement(backend):
    b = new(backend, "disto", 5)
    b.setup("""
        . . . . .
        . . . . .
        O . . . .
        . O . . .
        O X . . .
    """)
    # Black A2 makes white A1 a meal and itself a meal; A1 becomes a glutton only by this move.
    effects = b.play(B, "A2")
    assert vertices(effects.meals) == ["A2", "A1"]
    assert vertices(b.meals()) == ["A2", "A1"]


def test_D1_a_meal_next_to_a_meal_is_a_glutton_too(backend):
    b = new(backend, "disto", 5)
    b.setup("""
        . . . . .
        . . . . .
        O . . . .
        . O . . .
        O X . . .
    """)
    b.play(B, "A2")  # black A2 and white A1: two meals side by side
    assert vertices(b.gluttons()) == ["A3", "A2", "B2", "A1", "B1"]


def test_D2_nothing_is_ever_removed_or_flipped(backend):
    b = new(backend, "disto", 5)
    b.setup(DISTO)
    effects = b.play(W, "C2")
    assert effects.captured == () and effects.flipped == () and effects.removed == ()
    assert b.rows()[2] == ".OXO."


def test_D3_making_an_own_person_a_meal_is_legal(backend):
    b = new(backend, "disto", 5)
    b.setup("""
        . O . . .
        O . . . .
        . . . . .
        . . . . .
        . . . . .
    """)
    effects = b.play(B, "A5")
    assert vertices(effects.meals) == ["A5"]
    assert b.score()[0] == 0


def test_D4_score_is_stones_not_in_a_meal(backend):
    b = new(backend, "disto", 5, komi=6.5)
    b.setup(DISTO)
    b.play(W, "C2")
    b.play(B, "B2")
    b.play(B, "D2")
    assert b.score() == (2, 4 + 6.5, W)
