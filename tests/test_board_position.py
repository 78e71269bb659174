"""Unit tests of ``board.Position``: every mechanic on small diagrams (top row first, ``X``
black, ``O`` white, ``.`` empty; terrain maps ``.`` plain, ``^`` mountain, ``~`` water)."""

import pytest

from gtp_engine.board import (CAPTURE_FLIP_REMOVE, CAPTURE_LOOSE, CAPTURE_MEALS, CAPTURE_REMOVE,
                              MOUNTAIN, PLAIN, SCORE_AREA, SCORE_STONES, SCORE_STONES_NOT_MEALS,
                              WATER, Position)
from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.errors import Illegal, IllegalMoveError, TerrainError

B, W = Color.BLACK, Color.WHITE


def lines(text):
    return [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]


def terrain_kinds(text):
    """Kinds indexed row*size + col from a map diagram."""
    rows = lines(text)
    size = len(rows)
    kinds = [PLAIN] * (size * size)
    for i, row in enumerate(rows):
        for col, ch in enumerate(row):
            kinds[(size - 1 - i) * size + col] = {".": PLAIN, "^": MOUNTAIN, "~": WATER}[ch]
    return kinds


def build(text, capture=CAPTURE_REMOVE, size=None, terrain=None):
    """A position holding the diagram's stones (top-left corner of a ``size`` board), placed
    in an order where no placement captures, flips or removes anything."""
    rows = lines(text)
    size = size or len(rows)
    position = Position(size, capture, terrain_kinds(terrain) if terrain else None)
    todo = [((size - 1 - i, col), B if ch == "X" else W)
            for i, row in enumerate(rows) for col, ch in enumerate(row) if ch in "XO"]
    while todo:
        for k, (point, color) in enumerate(todo):
            trial = position.copy()
            try:
                effects = trial.play(color, point)
            except IllegalMoveError:
                continue
            if not (effects.captured or effects.flipped or effects.removed):
                position = trial
                del todo[k]
                break
        else:
            raise AssertionError(f"diagram cannot be set up quietly: {todo}")
    return position


def board_rows(text, size=None):
    """The diagram's rows as ``Position.rows()`` writes them (embedded top-left)."""
    rows = lines(text)
    size = size or len(rows)
    return [(rows[i] if i < len(rows) else "").ljust(size, ".") for i in range(size)]


def v(text, size):
    return parse_vertex(text, size)


def vs(points):
    return sorted(format_vertex(p) for p in points)


def snapshot(position):
    return (position.rows(), position.zobrist, position.stone_count(B), position.stone_count(W),
            position.legal_points(B), position.legal_points(W), position.meals())


# --------------------------------------------------------------------------- basics
def test_empty_board_and_bad_arguments():
    position = Position(5, CAPTURE_REMOVE)
    assert position.rows() == ["....."] * 5
    assert len(position.legal_points(B)) == 25
    assert position.stone_count(B) == position.stone_count(W) == 0
    with pytest.raises(ValueError):
        Position(0, CAPTURE_REMOVE)
    with pytest.raises(ValueError):
        Position(5, 17)
    with pytest.raises(TerrainError):
        Position(3, CAPTURE_REMOVE, [PLAIN] * 8)


def test_points_are_row_col_from_the_bottom_left():
    position = Position(5, CAPTURE_REMOVE)
    position.play(B, v("A1", 5))
    position.play(W, v("E4", 5))
    assert position.rows() == [".....", "....O", ".....", ".....", "X...."]
    assert position.stone_at((0, 0)) == B and position.stone_at((3, 4)) == W
    assert position.stone_count(B) == 1 and position.stone_count(W) == 1


@pytest.mark.parametrize("capture", [CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS])
def test_occupied_and_off_board_are_refused_and_change_nothing(capture):
    position = build("""
        . . .
        . X .
        . . .""", capture)
    before = snapshot(position)
    for point, reason in (((1, 1), Illegal.OCCUPIED), ((3, 0), Illegal.OFF_BOARD),
                          ((0, -1), Illegal.OFF_BOARD)):
        assert position.illegal_reason(W, point) is reason
        with pytest.raises(IllegalMoveError) as err:
            position.play(W, point)
        assert err.value.reason is reason
        assert snapshot(position) == before


def test_copy_is_independent():
    position = build("""
        . X .
        X O X
        . . .""")
    copy = position.copy()
    effects = copy.play(B, v("B1", 3))   # captures the white stone on the copy only
    assert vs(effects.captured) == ["B2"]
    assert position.rows() == [".X.", "XOX", "..."]
    assert copy.rows() == [".X.", "X.X", ".X."]
    assert position.stone_count(W) == 1 and copy.stone_count(W) == 0
    assert position.zobrist != copy.zobrist
    position.play(W, v("B1", 3))
    assert copy.stone_at(v("B1", 3)) == B and position.stone_at(v("B1", 3)) == W


def test_equal_positions_compare_equal():
    a, b = Position(5, CAPTURE_REMOVE), Position(5, CAPTURE_REMOVE)
    a.play(B, (1, 1))
    assert a != b
    b.play(B, (1, 1))
    assert a == b


# --------------------------------------------------------------------------- zobrist
def test_zobrist_depends_on_the_stones_not_the_order():
    first, second = Position(9, CAPTURE_REMOVE), Position(9, CAPTURE_REMOVE)
    moves = [(B, (2, 2)), (W, (6, 6)), (B, (2, 6)), (W, (6, 2))]
    for color, point in moves:
        first.play(color, point)
    for color, point in reversed(moves):
        second.play(color, point)
    assert first.zobrist == second.zobrist
    assert first.zobrist != Position(9, CAPTURE_REMOVE).zobrist
    swapped = Position(9, CAPTURE_REMOVE)
    for color, point in moves:
        swapped.play(color.opponent, point)
    assert swapped.zobrist != first.zobrist


def test_zobrist_after_a_capture_equals_the_same_stones_placed_directly():
    position = build("""
        . X . .
        X O X .
        . . . .
        . . . .""")
    position.play(B, v("B2", 4))
    direct = build("""
        . X . .
        X . X .
        . X . .
        . . . .""")
    assert position.rows() == direct.rows()
    assert position.zobrist == direct.zobrist


def test_zobrist_is_the_same_in_every_process():
    # fixed keys, not Python's hash: a fresh position always hashes the same
    position = Position(9, CAPTURE_REMOVE)
    position.play(B, (4, 4))
    again = Position(9, CAPTURE_REMOVE)
    again.play(B, (4, 4))
    assert position.zobrist == again.zobrist != 0
    assert 0 <= position.zobrist < 2 ** 64
    assert Position(9, CAPTURE_REMOVE).zobrist == 0


def test_zobrist_ignores_forts():
    position = Position(5, CAPTURE_REMOVE, [PLAIN] * 25)
    position.place_fort(W, (2, 2))
    assert position.zobrist == Position(5, CAPTURE_REMOVE).zobrist


# --------------------------------------------------------------------------- Go
def test_go_capture_removes_the_group():
    position = build("""
        . X X . .
        X O O X .
        . X . . .
        . . . . .
        . . . . .""")
    effects = position.play(B, v("C3", 5))
    assert vs(effects.captured) == ["B4", "C4"]
    assert effects.flipped == effects.removed == effects.meals == ()
    assert position.rows() == board_rows("""
        . X X . .
        X . . X .
        . X X . .
        . . . . .
        . . . . .""")
    assert position.stone_count(W) == 0
    assert position.legal_points(W).count(v("B4", 5)) == 1   # freed points are liberties again


def test_go_two_groups_captured_at_once_are_listed_in_reading_order():
    position = build("""
        . X O . .
        X O . . .
        O . . . .
        . . . . .
        . . . . .""")
    effects = position.play(W, v("A5", 5))
    assert [format_vertex(p) for p in effects.captured] == ["B5", "A4"]
    assert position.stone_count(B) == 0


def test_go_suicide_is_illegal_but_capturing_is_not():
    position = build("""
        . X . .
        X . X .
        . X . .
        . . . .""")
    assert position.illegal_reason(W, v("B3", 4)) is Illegal.SUICIDE
    before = snapshot(position)
    with pytest.raises(IllegalMoveError, match="suicide"):
        position.play(W, v("B3", 4))
    assert snapshot(position) == before
    ko = build("""
        . X O .
        X . X O
        . X O .
        . . . .""")
    effects = ko.play(W, v("B3", 4))   # no liberty of its own, but it captures C3
    assert vs(effects.captured) == ["C3"]


def test_go_multi_stone_suicide_is_illegal():
    position = build("""
        O O X .
        . O X .
        X X X .
        . . . .""")
    assert position.illegal_reason(W, v("A3", 4)) is Illegal.SUICIDE
    assert position.illegal_reason(B, v("A3", 4)) is None


# --------------------------------------------------------------------------- Loose
def test_loose_capture_flips_through_a_false_liberty():
    # RULES L2 example: White D3 makes C3 false, so black B3 has no true liberty and flips
    position = build("""
        . . . . .
        . O O . .
        O X . . .
        . O O . .
        . . . . .""", CAPTURE_LOOSE)
    assert position.false_liberties() == []
    effects = position.play(W, v("D3", 5))
    assert vs(effects.flipped) == ["B3"]
    assert effects.captured == effects.removed == ()
    assert position.rows() == board_rows("""
        . . . . .
        . O O . .
        O O . O .
        . O O . .
        . . . . .""")
    assert position.stone_count(B) == 0 and position.stone_count(W) == 7


def test_loose_no_capture_while_the_liberty_touches_an_empty_point():
    position = build("""
        . . . . .
        . O O . .
        O X . . .
        . O . . .
        . . . . .""", CAPTURE_LOOSE)
    effects = position.play(W, v("D3", 5))
    assert effects.flipped == ()
    assert position.stone_at(v("B3", 5)) == B


def test_loose_placement_without_a_true_liberty_is_illegal():
    position = build("""
        . . . . .
        . X X . .
        X . . X .
        . X X . .
        . . . . .""", CAPTURE_LOOSE)
    assert position.illegal_reason(W, v("B3", 5)) is Illegal.NO_TRUE_LIBERTY
    before = snapshot(position)
    with pytest.raises(IllegalMoveError, match="no true liberty"):
        position.play(W, v("B3", 5))
    assert snapshot(position) == before


def test_loose_false_liberties_are_listed():
    position = build("""
        . X . . .
        O . . . .
        . . . . .
        . . . . .
        . . . . .""", CAPTURE_LOOSE)
    # A5 touches black B5 and white A4 and no empty point (at the edge only on-board
    # neighbours count); B4 touches both colours but also empty points
    assert vs(position.false_liberties()) == ["A5"]


def test_loose_flip_of_a_group_not_touching_the_placed_stone():
    # Black B1 makes A1 false (it touches white A2 and black B1, no empty point), and A1 was
    # white A2's last true liberty: A2 flips although B1 does not touch it
    position = build("""
        . . . . .
        . . . . .
        X . . . .
        O X . . .
        . . . . .""", CAPTURE_LOOSE)
    effects = position.play(B, v("B1", 5))
    assert vs(effects.flipped) == ["A2"]
    assert position.rows()[2:] == ["X....", "XX...", ".X..."]
    assert position.false_liberties() == []


def test_loose_flip_gives_back_the_true_liberty_a_friend_needs():
    # Black C1 makes B1 false, and B1 is black A1's only liberty; but B1 was also the last
    # true liberty of white A2-B2, which flips, and then B1 touches black only: legal (L3 is
    # judged after the flips)
    position = build("""
        . . . . .
        . . . . .
        X X . . .
        O O X . .
        X . . . .""", CAPTURE_LOOSE)
    assert position.illegal_reason(B, v("C1", 5)) is None
    effects = position.play(B, v("C1", 5))
    assert vs(effects.flipped) == ["A2", "B2"]
    assert position.rows()[2:] == ["XX...", "XXX..", "X.X.."]
    assert position.false_liberties() == []


def test_loose_two_groups_flip_together():
    position = build("""
        . O . . .
        O X O . .
        . . . . .
        O X O . .
        . O . . .""", CAPTURE_LOOSE)
    effects = position.play(W, v("B3", 5))
    assert vs(effects.flipped) == ["B2", "B4"]
    assert position.stone_count(B) == 0


# --------------------------------------------------------------------------- Goncrete
def test_goncrete_seed_example_no_removal_when_it_would_split():
    position = build("""
        . . . .
        O X O .
        . O . X""", CAPTURE_FLIP_REMOVE, size=7)
    effects = position.play(W, v("B7", 7))
    assert vs(effects.flipped) == ["B6"]
    assert effects.removed == ()
    assert position.rows() == board_rows("""
        . O . .
        O O O .
        . O . X""", 7)


def test_goncrete_seed_example_left_group_loses_a_stone():
    position = build("""
        . O O . O O . X
        O X X . X X O .
        O O O . O O . .""", CAPTURE_FLIP_REMOVE, size=9)
    effects = position.play(W, v("D8", 9))
    assert vs(effects.flipped) == ["B8", "C8", "E8", "F8"]
    assert vs(effects.removed) == ["B8"]
    assert position.rows() == board_rows("""
        . O O . O O . X
        O . O O O O O .
        O O O . O O . .""", 9)


def test_goncrete_seed_example_reading_order_breaks_the_tie():
    position = build("""
        . O . . X
        O X X O .
        O O X O .
        . O O . .""", CAPTURE_FLIP_REMOVE, size=7)
    effects = position.play(W, v("C7", 7))
    assert vs(effects.flipped) == ["B6", "C5", "C6"]
    assert [format_vertex(p) for p in effects.removed] == ["B6"]
    assert position.rows() == board_rows("""
        . O O . X
        O . O O .
        O O O O .
        . O O . .""", 7)


def test_goncrete_seed_example_annihilation_board():
    position = build("""
        X X X
        X X X
        X . O""", CAPTURE_FLIP_REMOVE)
    effects = position.play(W, v("B1", 3))
    assert len(effects.flipped) == 7
    assert [format_vertex(p) for p in effects.removed] == ["B2"]
    assert position.rows() == ["OOO", "O.O", "OOO"]
    assert position.stone_count(B) == 0


def test_goncrete_suicide_is_illegal():
    position = build("""
        . X . .
        X . X .
        . X . .
        . . . .""", CAPTURE_FLIP_REMOVE)
    assert position.illegal_reason(W, v("B3", 4)) is Illegal.SUICIDE


# --------------------------------------------------------------------------- Disto
def test_disto_example_meal_and_glutton():
    position = build("""
        . . . . .
        . . O . .
        . O X O .
        . . . . .
        . . . . .""", CAPTURE_MEALS)
    effects = position.play(W, v("C2", 5))
    assert vs(effects.meals) == ["C3"]
    assert effects.captured == effects.flipped == effects.removed == ()
    assert vs(position.meals()) == ["C3"]
    assert vs(position.gluttons()) == ["B3", "C2", "C4", "D3"]
    position.play(B, v("B2", 5))
    position.play(B, v("D2", 5))
    assert position.illegal_reason(B, v("C1", 5)) is Illegal.FEEDS_GLUTTON
    before = snapshot(position)
    with pytest.raises(IllegalMoveError, match="glutton"):
        position.play(B, v("C1", 5))
    assert snapshot(position) == before
    assert position.illegal_reason(W, v("C1", 5)) is None


def test_disto_feeding_a_non_glutton_and_self_meals_are_legal():
    position = build("""
        . X . .
        X O X .
        . . . .
        . . . .""", CAPTURE_MEALS)
    effects = position.play(B, v("B2", 4))
    assert vs(effects.meals) == ["B3"]
    assert position.stone_at(v("B3", 4)) == W     # nothing is removed
    # a self-meal: White fills its own last liberty
    corner = build("""
        . X . .
        X . . .
        . . . .
        . . . .""", CAPTURE_MEALS)
    effects = corner.play(W, v("A4", 4))
    assert vs(effects.meals) == ["A4"]


def test_disto_gluttons_are_persons_next_to_a_meal():
    position = build("""
        X O . .
        O . . .
        . . . .
        . . . .""", CAPTURE_MEALS)
    assert vs(position.meals()) == ["A4"]
    assert vs(position.gluttons()) == ["A3", "B4"]


# --------------------------------------------------------------------------- Terrain
TERRAIN_5 = """
    ^ ^ . . .
    ^ ^ . ~ ~
    . . . ~ ~
    . . . . .
    . . . . ."""


def test_terrain_mountain_needs_a_liberty_off_the_mountains():
    position = Position(5, CAPTURE_REMOVE, terrain_kinds(TERRAIN_5))
    assert position.terrain_at(v("A5", 5)) == MOUNTAIN and position.terrain_at(v("C5", 5)) == PLAIN
    assert position.illegal_reason(W, v("A5", 5)) is Illegal.MOUNTAIN   # A4, B5: mountains
    before = snapshot(position)
    with pytest.raises(IllegalMoveError, match="mountain"):
        position.play(W, v("A5", 5))
    assert snapshot(position) == before
    assert position.illegal_reason(W, v("B5", 5)) is None               # C5 is plain
    position.play(W, v("B5", 5))
    assert position.illegal_reason(W, v("A5", 5)) is None               # the group has C5
    position.play(B, v("C5", 5))
    assert position.illegal_reason(W, v("A5", 5)) is Illegal.MOUNTAIN   # only A4, B4 left


def test_terrain_mountain_group_with_an_outside_liberty_is_legal():
    position = build("""
        . . . . .
        . . . . .
        X X . . .
        . . . . .
        . . . . .""", terrain=TERRAIN_5)
    position.play(B, v("A4", 5))
    position.play(B, v("B4", 5))
    assert position.illegal_reason(B, v("A5", 5)) is None   # A2, B2, C3... are plain


CAPTURE_ON_THE_MOUNTAIN = """
    . X O . .
    X O . . .
    . . . . .
    . . . . .
    . . . . ."""


def test_terrain_mountain_legal_when_a_capture_frees_a_plain_point():
    position = build(CAPTURE_ON_THE_MOUNTAIN, terrain="""
        ^ . . . .
        ^ ^ . . .
        . . . . .
        . . . . .
        . . . . .""")
    effects = position.play(W, v("A5", 5))   # captures B5, a plain point next to A5
    assert vs(effects.captured) == ["B5"]


def test_terrain_mountain_capture_freeing_only_a_mountain_is_illegal():
    position = build(CAPTURE_ON_THE_MOUNTAIN, terrain="""
        ^ ^ . . .
        ^ ^ . . .
        . . . . .
        . . . . .
        . . . . .""")
    # the capture of B5 gives A5 a liberty, but on a mountain: T4, not suicide
    assert position.illegal_reason(W, v("A5", 5)) is Illegal.MOUNTAIN
    assert position.stone_at(v("B5", 5)) == B


def test_terrain_water_needs_a_stone_off_the_water():
    position = Position(5, CAPTURE_REMOVE, terrain_kinds(TERRAIN_5))
    assert position.terrain_at(v("D4", 5)) == WATER
    assert position.illegal_reason(B, v("D4", 5)) is Illegal.WATER
    with pytest.raises(IllegalMoveError, match="water"):
        position.play(B, v("D4", 5))
    position.play(B, v("C4", 5))
    assert position.illegal_reason(B, v("D4", 5)) is None
    position.play(B, v("D4", 5))
    assert position.illegal_reason(B, v("E4", 5)) is None      # the group has C4 on plain
    assert position.illegal_reason(W, v("E3", 5)) is Illegal.WATER


def test_forts_hold_no_stone_and_are_no_liberty():
    position = Position(5, CAPTURE_REMOVE, [PLAIN] * 25)
    position.place_fort(W, v("B5", 5))
    assert position.fort_at(v("B5", 5)) == W and position.stone_at(v("B5", 5)) == 0
    assert position.illegal_reason(B, v("B5", 5)) is Illegal.FORT
    with pytest.raises(IllegalMoveError, match="fort"):
        position.play(B, v("B5", 5))
    assert v("B5", 5) not in position.legal_points(B)
    position.play(B, v("A5", 5))
    position.play(W, v("A4", 5))           # black A5's only neighbours: fort B5, white A4
    assert position.stone_at(v("A5", 5)) == 0   # captured: the fort is no liberty
    assert position.illegal_reason(B, v("A5", 5)) is Illegal.SUICIDE


def test_place_fort_refusals():
    kinds = terrain_kinds(TERRAIN_5)
    position = Position(5, CAPTURE_REMOVE, kinds)
    with pytest.raises(TerrainError):
        position.place_fort(W, v("A5", 5))      # mountain
    position.place_fort(W, v("C3", 5))
    with pytest.raises(IllegalMoveError) as err:
        position.place_fort(B, v("C3", 5))
    assert err.value.reason is Illegal.FORT
    position.play(B, v("A1", 5))
    with pytest.raises(IllegalMoveError) as err:
        position.place_fort(B, v("A1", 5))
    assert err.value.reason is Illegal.OCCUPIED


# --------------------------------------------------------------------------- scoring
def test_area_score_is_go3_without_terrain():
    position = build("""
        . X O .
        . X O .
        X X O O
        . . O .""")
    # black: 4 stones + A4 A3; white: 5 stones + D4 D3 + D1; A1 B1 touch both colours
    assert position.score_halves(SCORE_AREA, 0) == (2 * 6, 2 * 8)
    assert position.owner_map(SCORE_AREA) == [0, 0, W, W,     # row 1 (A1 first)
                                              B, B, W, W,
                                              B, B, W, W,
                                              B, B, W, W]


def test_area_score_counts_territory_touching_one_colour_only():
    position = build("""
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .""")
    assert position.score_halves(SCORE_AREA, 0) == (2 * 10, 2 * 10)   # column C: nobody's
    owners = position.owner_map(SCORE_AREA)
    assert owners[0] == B and owners[2] == 0 and owners[4] == W


def test_stone_scores_and_meals():
    position = build("""
        X O . .
        O . . X
        . . . .
        . . . .""", CAPTURE_MEALS)
    assert vs(position.meals()) == ["A4"]
    assert position.score_halves(SCORE_STONES, 0) == (2 * 2, 2 * 2)
    assert position.score_halves(SCORE_STONES_NOT_MEALS, 0) == (2 * 1, 2 * 2)
    owners = position.owner_map(SCORE_STONES_NOT_MEALS)
    assert (owners[12], owners[11], owners[13], owners[0]) == (0, B, W, 0)   # A4 D3 B4 A1
    assert position.owner_map(SCORE_STONES)[12] == B


def test_terrain_weights_and_fort_bonus():
    terrain = """
        ^ . . . ~
        ^ . . . ~
        . . . . .
        . . . . .
        . . . . ."""
    position = Position(5, CAPTURE_REMOVE, terrain_kinds(terrain))
    position.place_fort(W, v("A1", 5))     # White's fort inside Black's area
    position.place_fort(B, v("E1", 5))     # Black's fort inside White's area
    for row in range(1, 6):
        position.play(B, v(f"B{row}", 5))
        position.play(W, v(f"D{row}", 5))
    fort_value = 12
    black, white = position.score_halves(SCORE_AREA, fort_value)
    # black: stones B1-B5 (10 halves), A3 A2 plain (4), A5 A4 mountains (0), the enemy fort (24)
    assert black == 10 + 4 + 0 + 2 * fort_value
    # white: stones D1-D5 (10), E3 E2 plain (4), E5 E4 water (3 each), the enemy fort (24)
    assert white == 10 + 4 + 6 + 2 * fort_value
    owners = position.owner_map(SCORE_AREA)
    assert owners[2 * 5 + 2] == 0 and owners[0] == B and owners[4] == W   # C3, A1 fort, E1 fort


def test_own_fort_has_no_value():
    position = Position(5, CAPTURE_REMOVE, [PLAIN] * 25)
    position.place_fort(B, v("A1", 5))
    for row in range(1, 6):
        position.play(B, v(f"B{row}", 5))
    # stones B1-B5, territory A2-A5 and columns C-E; the own fort on A1 counts nothing
    assert position.score_halves(SCORE_AREA, 12) == (2 * (5 + 4 + 15), 0)


# --------------------------------------------------------------------------- random play
EYES = """
    . X . . .
    X . X . .
    . X . . .
    . . . . .
    . . . . ."""


def test_own_eyes_are_skipped_on_request():
    position = build(EYES)
    assert position.is_own_eye(B, v("A5", 5)) and position.is_own_eye(B, v("B4", 5))
    assert not position.is_own_eye(W, v("B4", 5)) and not position.is_own_eye(B, v("C5", 5))
    all_points = position.legal_points(B)
    skipping = position.legal_points(B, skip_own_eyes=True)
    assert sorted(set(all_points) - set(skipping)) == sorted([v("A5", 5), v("B4", 5)])
    position.play(W, v("C5", 5))
    assert position.is_own_eye(B, v("B4", 5))          # one enemy diagonal is fine inside
    position.play(W, v("A3", 5))
    assert not position.is_own_eye(B, v("B4", 5))      # two are not


@pytest.mark.parametrize("capture", [CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS])
def test_playout_is_reproducible_and_ends(capture):
    size = 5
    first, second = Position(size, capture), Position(size, capture)
    result = first.playout(B, 7, SCORE_AREA)
    assert result == second.playout(B, 7, SCORE_AREA)
    assert first.rows() == second.rows()
    assert result.end in ("two passes", "annihilation")
    assert 0 < result.moves <= 3 * size * size
    assert result == (*first.score_halves(SCORE_AREA, 0), result.moves, result.end)


def test_playouts_leave_the_position_unchanged_and_report_shares():
    position = build(EYES)
    before = snapshot(position)
    share, ownership = position.playouts(B, 20, 3, SCORE_AREA, komi_halves=15)
    assert snapshot(position) == before
    assert 0 <= share <= 1 and len(ownership) == 25
    assert all(-1 <= o <= 1 for o in ownership)
    assert position.playouts(B, 20, 3, SCORE_AREA, komi_halves=15) == (share, ownership)


def test_kernel_codes_match_the_contract():
    """The kernels keep their own copy of every frozen value (numba's cache cannot see other
    files): it must match ``board.constants`` and the order of ``errors.Illegal``."""
    from gtp_engine.board import constants
    from gtp_engine.board._backend import mirror as kernels
    for name in ("EMPTY", "PLAIN", "MOUNTAIN", "WATER", "CAPTURE_REMOVE", "CAPTURE_LOOSE",
                 "CAPTURE_FLIP_REMOVE", "CAPTURE_MEALS", "SCORE_AREA", "SCORE_STONES",
                 "SCORE_STONES_NOT_MEALS"):
        assert getattr(kernels, name) == getattr(constants, name), name
    assert (kernels.BLACK, kernels.WHITE) == (Color.BLACK, Color.WHITE)
    reasons = list(Illegal)
    for name in ("OCCUPIED", "SUICIDE", "NO_TRUE_LIBERTY", "FEEDS_GLUTTON", "MOUNTAIN", "WATER", "FORT"):
        assert reasons[getattr(kernels, "ILLEGAL_" + name) - 1] is Illegal[name]
