"""Fort choice for ``genfort`` and ``--forts auto`` (RULES T2): legal, sound, deterministic."""

import pytest

from gtp_engine.board.constants import PLAIN, WATER
from gtp_engine.coords import Color
from gtp_engine.errors import TerrainError
from gtp_engine.rules.terrain_map import TerrainMap, generate_map
from gtp_engine.search.forts import (JITTER, auto_forts, choose_fort, choose_fort_on_map, fort_candidates,
                                     fort_score)

W, B = Color.WHITE, Color.BLACK


def diagram(text: str) -> TerrainMap:
    """A map drawn top row first, one row per line."""
    return TerrainMap.from_text("/".join(line.strip() for line in text.strip().splitlines()))


def edge_distance(point, size):
    row, col = point
    return min(row, col, size - 1 - row, size - 1 - col)


def distance(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def place_all(terrain, seed=0):
    """Every fort of ``terrain`` chosen in turn, White first, on the map alone."""
    forts = []
    for number in range(2 * terrain.forts_per_side):
        color = W if number % 2 == 0 else B
        forts.append((color, choose_fort_on_map(terrain, forts, color, seed)))
    return forts


# --------------------------------------------------------------------------- on a map
def test_candidates_are_plain_points_without_forts_or_stones_in_reading_order():
    terrain = diagram("""
        ^^...
        .....
        ..~~.
        .....
        ^^.~~""")
    candidates = fort_candidates(terrain, [(W, (4, 2))], occupied=[(3, 0)])
    assert candidates[:4] == [(4, 3), (4, 4), (3, 1), (3, 2)]  # C5 is a fort, A4 holds a stone
    assert len(candidates) == 25 - 8 - 2
    assert all(terrain.kind_at(p) == PLAIN for p in candidates)


@pytest.mark.parametrize("size", [5, 7, 9, 13, 19, 25])
def test_every_chosen_fort_is_on_a_free_plain_point(size):
    for seed in range(5):
        terrain = generate_map(size, seed)
        forts = place_all(terrain, seed)
        points = [p for _, p in forts]
        assert len(set(points)) == len(points) == 2 * terrain.forts_per_side
        assert all(terrain.kind_at(p) == PLAIN for p in points)


def test_the_same_state_and_seed_give_the_same_fort():
    terrain = generate_map(19, 11)
    assert place_all(terrain, seed=3) == place_all(terrain, seed=3)
    forts = [(W, (3, 3))]
    assert choose_fort_on_map(terrain, forts, B, 9) == choose_fort_on_map(terrain, list(forts), B, 9)


def test_the_seed_varies_the_choice_among_equally_good_points():
    terrain = TerrainMap.plain(19)
    assert len({choose_fort_on_map(terrain, [], W, seed) for seed in range(10)}) > 1


def test_the_choice_is_within_the_jitter_of_the_best_score():
    terrain = generate_map(13, 2)
    forts = [(W, (3, 9)), (B, (9, 3))]
    best = max(fort_score(terrain, forts, W, p) for p in fort_candidates(terrain, forts))
    for seed in range(10):
        chosen = choose_fort_on_map(terrain, forts, W, seed)
        assert fort_score(terrain, forts, W, chosen) > best - JITTER


def test_a_first_fort_stays_off_the_first_three_lines():
    for seed in range(10):
        assert edge_distance(choose_fort_on_map(TerrainMap.plain(19), [], W, seed), 19) >= 3


def test_a_fort_keeps_away_from_the_opponents_fort():
    terrain = TerrainMap.plain(9)
    for seed in range(10):
        chosen = choose_fort_on_map(terrain, [(W, (2, 2))], B, seed)  # white fort on C3
        assert distance(chosen, (2, 2)) >= 3 and edge_distance(chosen, 9) >= 2


def test_forts_of_one_side_spread_out():
    terrain = TerrainMap.plain(19)
    for seed in range(10):
        chosen = choose_fort_on_map(terrain, [(W, (3, 3)), (B, (15, 15))], W, seed)
        assert distance(chosen, (3, 3)) >= 8 and distance(chosen, (15, 15)) >= 8


def test_a_fort_goes_near_water():
    terrain = diagram("""
        .........
        .........
        .........
        .........
        ....~~...
        ....~~...
        .........
        .........
        .........""")
    lake = terrain.points_of(WATER)
    for seed in range(10):
        chosen = choose_fort_on_map(terrain, [], W, seed)
        assert min(distance(chosen, p) for p in lake) <= 2


def test_mountain_neighbours_lower_the_score():
    open_map = TerrainMap.plain(9)
    beside = diagram("""
        .........
        .........
        .........
        .........
        ....^....
        .........
        .........
        .........
        .........""")
    assert fort_score(beside, [], W, (3, 4)) < fort_score(open_map, [], W, (3, 4))


def test_no_free_plain_point_is_refused():
    terrain = diagram("""
        ^^^^^
        ^^^^^
        ^^^^^
        ^^^^^
        ^^^..""")
    with pytest.raises(TerrainError, match="no empty plain point is left for a black fort"):
        choose_fort_on_map(terrain, [(W, (0, 3)), (B, (0, 4))], B)


# --------------------------------------------------------------------------- in a game
def test_auto_forts_places_every_fort_white_first():
    from gtp_engine.game import Game
    game = Game("terrain", 9, terrain_seed=5)
    placed = auto_forts(game, seed=1)
    assert [color for color, _ in placed] == [W, B, W, B]
    assert game.forts == placed and game.fort_turn is None
    assert all(game.terrain.kind_at(p) == PLAIN for _, p in placed)
    assert placed == place_all(game.terrain, seed=1)  # what the map-level choice gives
    assert auto_forts(game, seed=1) == []              # nothing left to place


def test_auto_forts_gives_every_process_the_same_setup():
    from gtp_engine.game import Game
    setups = [auto_forts(Game("terrain", 13, terrain_seed=8), seed=2) for _ in range(2)]
    assert setups[0] == setups[1]
    others = {tuple(auto_forts(Game("terrain", 13, terrain_seed=8), seed=s)) for s in range(5)}
    assert len(others) > 1


def test_auto_forts_completes_a_partial_setup():
    from gtp_engine.game import Game
    game = Game("terrain", 9, terrain_seed=5)
    first = choose_fort(game, W, seed=4)
    game.place_fort(W, first)
    placed = auto_forts(game)
    assert [color for color, _ in placed] == [B, W, B]
    assert game.forts[0] == (W, first) and len(game.forts) == 4


def test_choose_fort_changes_nothing_and_refuses_games_without_terrain():
    from gtp_engine.game import Game
    game = Game("terrain", 9, terrain_seed=5)
    choose_fort(game, W)
    assert game.forts == []
    with pytest.raises(TerrainError, match="go has no forts"):
        choose_fort(Game("go", 9), W)
