"""Terrain Go maps (RULES T1, T2, T7): defaults, generator, overrides, text form, validation.

Generated maps are checked against ``t1_problems``, a slow reference written for obviousness
(sets and a plain flood fill), not against the module's own ``validate``.
"""

import os
import pathlib
import subprocess
import sys

import pytest

from gtp_engine.board.constants import MOUNTAIN, PLAIN, WATER
from gtp_engine.coords import Color
from gtp_engine.errors import TerrainError
from gtp_engine.rules.terrain_map import StableRandom, TerrainMap, TerrainParams, generate_map
from gtp_engine.search.forts import choose_fort_on_map

ALL_SIZES = range(5, 26)


def diagram(text: str) -> str:
    """A map drawn top row first, one row per line, as the '/'-joined text form."""
    return "/".join(line.strip() for line in text.strip().splitlines())


def params(**fields) -> TerrainParams:
    base = dict(mountains=0, water=0, min_groups=1, max_groups=4, min_group=1, forts=0, fort_value=1)
    base.update(fields)
    return TerrainParams(**base)


# --------------------------------------------------------------------------- the reference
def neighbours(point, size):
    row, col = point
    for r, c in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
        if 0 <= r < size and 0 <= c < size:
            yield (r, c)


def connected(points, size) -> bool:
    points = set(points)
    if not points:
        return True
    start = next(iter(points))
    reached, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop(), size):
            if n in points and n not in reached:
                reached.add(n)
                todo.append(n)
    return reached == points


def reference_groups(terrain):
    """[(kind, set of points)] by flood fill over (row, col) points."""
    size = terrain.size
    left = {(r, c) for r in range(size) for c in range(size) if terrain.kind_at((r, c)) != PLAIN}
    groups = []
    while left:
        start = left.pop()
        kind = terrain.kind_at(start)
        group, todo = {start}, [start]
        while todo:
            for n in neighbours(todo.pop(), size):
                if n in left and terrain.kind_at(n) == kind:
                    left.discard(n)
                    group.add(n)
                    todo.append(n)
        groups.append((kind, group))
    return groups


def t1_problems(terrain, p):
    """Every way the map breaks T1 for params ``p`` (empty when it is a good map)."""
    size = terrain.size
    everything = {(r, c) for r in range(size) for c in range(size)}
    problems = []
    groups = reference_groups(terrain)
    for kind, want in ((MOUNTAIN, p.mountains), (WATER, p.water)):
        have = sum(1 for point in everything if terrain.kind_at(point) == kind)
        if have != want:
            problems.append(f"{kind}: {have} points, want {want}")
        count = sum(1 for k, _ in groups if k == kind)
        allowed = [0] if want == 0 else range(p.min_groups, p.max_groups + 1)
        if count not in allowed:
            problems.append(f"{kind}: {count} groups")
    for kind, group in groups:
        if len(group) < p.min_group:
            problems.append(f"{kind}: group of {len(group)}")
        if not connected(everything - group, size):
            problems.append(f"{kind}: group at {min(group)} encloses")
    plain = sum(1 for point in everything if terrain.kind_at(point) == PLAIN)
    if plain < 2 * p.forts:
        problems.append("no room for forts")
    return problems


# --------------------------------------------------------------------------- defaults
@pytest.mark.parametrize("size, points, min_group, forts, fort_value", [
    (5, 4, 2, 1, 1),      # r = 25/361: 60r = 4.16, 12r = 0.83 -> min_group floor of 2, value floor of 1
    (7, 8, 2, 1, 2),      # 60r = 8.14, 12r = 1.63
    (8, 11, 2, 1, 2),     # 60r = 10.64, 12r = 2.13
    (9, 13, 3, 2, 3),     # 60r = 13.46, 12r = 2.69
    (12, 24, 5, 2, 5),    # 60r = 23.93, 12r = 4.79
    (13, 28, 6, 3, 6),    # 60r = 28.09, 12r = 5.62
    (19, 60, 12, 3, 12),  # the seed's own numbers
    (25, 104, 21, 3, 21), # 60r = 103.88, 12r = 20.78
])
def test_defaults_scale_with_the_board(size, points, min_group, forts, fort_value):
    p = TerrainParams.for_size(size)
    assert (p.mountains, p.water, p.min_groups, p.max_groups) == (points, points, 2, 4)
    assert (p.min_group, p.forts, p.fort_value) == (min_group, forts, fort_value)


@pytest.mark.parametrize("size", ALL_SIZES)
def test_defaults_follow_the_formula_on_every_size(size):
    r = size * size / 361
    p = TerrainParams.for_size(size)
    assert p.mountains == p.water == round(60 * r)
    assert p.min_group == max(2, round(12 * r))
    assert p.fort_value == max(1, round(12 * r))
    assert p.forts == (3 if size >= 13 else 2 if size >= 9 else 1)


@pytest.mark.parametrize("size", [0, 4, 26, 19.0])
def test_sizes_outside_5_to_25_are_refused(size):
    with pytest.raises(TerrainError, match="board size from 5 to 25"):
        TerrainParams.for_size(size)
    with pytest.raises(TerrainError, match="board size from 5 to 25"):
        generate_map(size, 0, TerrainParams.for_size(19))


# --------------------------------------------------------------------------- generated maps
@pytest.mark.parametrize("size", ALL_SIZES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_maps_satisfy_t1(size, seed):
    terrain = generate_map(size, seed)
    p = TerrainParams.for_size(size)
    assert t1_problems(terrain, p) == []
    terrain.validate()
    assert (terrain.forts_per_side, terrain.fort_value) == (p.forts, p.fort_value)


@pytest.mark.slow
@pytest.mark.parametrize("size", ALL_SIZES)
def test_generated_maps_satisfy_t1_on_many_seeds(size):
    p = TerrainParams.for_size(size)
    for seed in range(200):
        terrain = generate_map(size, seed)
        assert t1_problems(terrain, p) == [], (size, seed, terrain.to_text())


@pytest.mark.slow
@pytest.mark.parametrize("options", [
    {"groups": "1-1"}, {"groups": "4-4"}, {"mountains": "0"}, {"min_group": "2", "groups": "4-8"},
    {"mountains": "12", "water": "16", "min_group": "3"},
])
def test_overridden_maps_satisfy_t1_on_many_seeds(options):
    for size in (7, 13, 19):
        p = TerrainParams.for_size(size).with_options(options)
        for seed in range(40):
            assert t1_problems(generate_map(size, seed, p), p) == [], (size, seed)


@pytest.mark.slow
def test_crowded_maps_satisfy_t1_on_many_seeds():
    p = TerrainParams.for_size(19).with_options({"mountains": "100", "water": "100", "min_group": "5"})
    for seed in range(100):
        assert t1_problems(generate_map(19, seed, p), p) == [], seed


def test_the_same_seed_and_size_give_the_same_map():
    assert generate_map(19, 42) == generate_map(19, 42)
    assert generate_map(19, 42).to_text() == generate_map(19, 42).to_text()


def test_different_seeds_and_sizes_give_different_maps():
    assert len({generate_map(13, seed).kinds for seed in range(10)}) == 10
    assert generate_map(9, -3) != generate_map(9, 3)
    assert generate_map(9, 2 ** 70) != generate_map(9, 2 ** 70 + 1)


# Pinned output of this generator: a change here means maps differ between versions or machines.
PINNED = {
    (9, 12345): "........./.......^^/......^^./....~~~../.....^^.^/.....~^.^/~~~..~~.^/...~..~../^^^~~....",
    (19, 2026): ("..^^^............^^/.^^^^^.........^^^^/..^^^^^........^^^^/....^...........^^./"
                 "...............^^../.................../.................../..............~~~~~/"
                 "..............~~~~~/..............~~~~~/..^^^^..........~../..^^^^............./"
                 "..^^^^........~~.../..^~~^~.......~~~~./^^~~~~~~......~~~~./^^^^^^~~~..~~...~~./"
                 "^^^^^^......~~~~~~./^^^^........~~~~~~./.............~~~~~~"),
}


@pytest.mark.parametrize("size, seed", sorted(PINNED))
def test_known_maps_do_not_drift(size, seed):
    assert generate_map(size, seed).to_text() == PINNED[(size, seed)]


@pytest.mark.parametrize("hash_seed", ["1", "4242"])
def test_maps_do_not_depend_on_the_process(hash_seed):
    """Another interpreter with another string-hash seed builds the same maps and forts."""
    code = ("from gtp_engine.rules.terrain_map import generate_map\n"
            "from gtp_engine.search.forts import choose_fort_on_map\n"
            "from gtp_engine.coords import Color\n"
            "m = generate_map(13, 77)\n"
            "print(m.to_text([(Color.WHITE, choose_fort_on_map(m, [], Color.WHITE, 5))]))\n")
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    root = pathlib.Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True,
                         text=True, check=True).stdout.strip()
    here = generate_map(13, 77)
    assert out == here.to_text([(Color.WHITE, choose_fort_on_map(here, [], Color.WHITE, 5))])


def test_stable_random_is_splitmix64():
    rng = StableRandom()
    rng._state = 0  # the published SplitMix64 stream for seed 0
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_stable_random_below_covers_its_range_only():
    rng = StableRandom(7)
    draws = [rng.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert all(0 <= rng.fraction() < 1 for _ in range(100))
    with pytest.raises(ValueError):
        rng.below(0)


def test_stable_random_keys_are_all_mixed_in():
    firsts = {StableRandom(*keys).next64() for keys in [(1,), (-1,), (1, 0), (0, 1), (2 ** 64 + 1,), ()]}
    assert len(firsts) == 6


# --------------------------------------------------------------------------- overrides
def test_options_override_every_parameter():
    p = TerrainParams.for_size(19).with_options(
        {"mountains": "30", "water": "10", "groups": "1-2", "min_group": "5", "forts": "2", "fort_value": "7"})
    assert p == TerrainParams(30, 10, 1, 2, 5, 2, 7)
    terrain = generate_map(19, 5, p)
    assert t1_problems(terrain, p) == []
    assert (terrain.forts_per_side, terrain.fort_value) == (2, 7)
    terrain.validate(p)


def test_a_single_group_count_means_exactly_that_many():
    p = TerrainParams.for_size(19).with_options({"groups": "3"})
    assert (p.min_groups, p.max_groups) == (3, 3)
    groups = generate_map(19, 1, p).groups()
    assert sum(g.kind == MOUNTAIN for g in groups) == sum(g.kind == WATER for g in groups) == 3


def test_a_kind_with_no_points_has_no_groups():
    p = TerrainParams.for_size(13).with_options({"mountains": "0"})
    terrain = generate_map(13, 4, p)
    assert terrain.count(MOUNTAIN) == 0 and terrain.count(WATER) == 28
    assert t1_problems(terrain, p) == []


def test_no_terrain_at_all_is_a_plain_map():
    p = TerrainParams.for_size(9).with_options({"mountains": "0", "water": "0", "forts": "0"})
    assert generate_map(9, 1, p) == TerrainMap(9, (PLAIN,) * 81, 0, 3)


@pytest.mark.parametrize("seed", ["7", 1.5, None, True])
def test_seeds_must_be_whole_numbers(seed):
    with pytest.raises(TerrainError, match="terrain seed must be a whole number"):
        generate_map(9, seed)


def test_parse_options_reads_key_value_words():
    p = TerrainParams.parse_options(9, ["water=20", "groups=2-3"])
    assert p == TerrainParams.for_size(9).with_options({"water": "20", "groups": "2-3"})
    assert TerrainParams.parse_options(9, p.to_options().split()) == p


@pytest.mark.parametrize("options, message", [
    ({"hills": "3"}, "unknown terrain option: 'hills'"),
    ({"mountains": "many"}, "terrain option mountains needs a whole number >= 0, not 'many'"),
    ({"water": "-5"}, "terrain option water needs a whole number >= 0, not '-5'"),
    ({"forts": "1.5"}, "terrain option forts needs a whole number >= 0"),
    ({"fort_value": ""}, "terrain option fort_value needs a whole number"),
    ({"groups": "2-x"}, "terrain option groups needs MIN-MAX"),
    ({"groups": "-3"}, "terrain option groups needs MIN-MAX"),
    ({"groups": "4-2"}, "groups range 4-2 is empty"),
    ({"min_group": "0"}, "min_group must be at least 1"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(TerrainError, match=message.replace(".", r"\.").replace("(", r"\(")):
        TerrainParams.for_size(19).with_options(options)


def test_option_words_without_a_value_are_refused():
    with pytest.raises(TerrainError, match="must be key=value, not 'water'"):
        TerrainParams.parse_options(9, ["water"])


def test_params_refuse_negative_fields_directly():
    with pytest.raises(TerrainError, match="terrain forts must be a whole number >= 0, not -1"):
        params(forts=-1)


@pytest.mark.parametrize("size, options, message", [
    (9, {"mountains": "50", "water": "40"}, "50 mountain and 40 water points do not fit on a 9x9 board"),
    (9, {"mountains": "2", "min_group": "3"}, "min_group 3 is more than the 2 mountain points"),
    (19, {"water": "30", "groups": "3-4", "min_group": "11"},
     "3 water groups of at least 11 points need 33 points, but there are only 30"),
    (19, {"groups": "0-0"}, "60 mountain points need at least one group, but groups is 0-0"),
    (5, {"mountains": "10", "water": "10", "forts": "3"}, "6 forts need 6 plain points, but only 5 remain"),
    (5, {"mountains": "12", "water": "12", "forts": "0", "groups": "4-4", "min_group": "3"},
     "could not lay out mountains=12 water=12 groups=4-4"),  # the arithmetic allows it, the board not
    (19, {"mountains": "180", "water": "180", "forts": "0"}, "could not lay out mountains=180 water=180"),
])
def test_impossible_settings_are_refused(size, options, message):
    p = TerrainParams.for_size(size).with_options(options)
    with pytest.raises(TerrainError, match=message):
        generate_map(size, 0, p)


# --------------------------------------------------------------------------- text form
def test_text_is_read_top_row_first():
    terrain = TerrainMap.from_text(diagram("""
        ^....
        .....
        .....
        .....
        ~...."""))
    assert terrain.kind_at((4, 0)) == MOUNTAIN  # A5: the top-left point
    assert terrain.kind_at((0, 0)) == WATER     # A1: the bottom-left point
    assert terrain.count(PLAIN) == 23


@pytest.mark.parametrize("size, seed", [(5, 0), (9, 3), (19, 8), (25, 1)])
def test_text_round_trips(size, seed):
    terrain = generate_map(size, seed)
    assert TerrainMap.from_text(terrain.to_text()) == terrain


def test_forts_are_written_as_letters_and_read_back_as_plain():
    terrain = TerrainMap.from_text(diagram("""
        ^^...
        .....
        ..~~.
        .....
        ^^.~~"""))
    text = terrain.to_text([(Color.WHITE, (3, 3)), (Color.BLACK, (1, 1))])
    assert text == diagram("""
        ^^...
        ...w.
        ..~~.
        .b...
        ^^.~~""")
    assert TerrainMap.from_text(text) == terrain


def test_whitespace_is_ignored_and_counts_can_be_given():
    terrain = TerrainMap.from_text(" ...../ ...../..^../...../..... ", forts_per_side=0, fort_value=9)
    assert terrain.kind_at((2, 2)) == MOUNTAIN
    assert (terrain.forts_per_side, terrain.fort_value) == (0, 9)
    assert TerrainMap.from_text("...../...../...../...../.....").forts_per_side == 1  # for_size(5)


@pytest.mark.parametrize("text, message", [
    ("", "empty terrain map"),
    ("...../..x../...../...../.....", "invalid terrain character 'x' in row 2"),
    ("...../...../..../...../.....", "rows differ in length: row 1 has 5 points, row 3 has 4"),
    ("....../....../....../....../......", "must be square, not 5 rows of 6 points"),
    ("..../..../..../....", "board size from 5 to 25, not 4"),
    ("/".join(["." * 26] * 26), "board size from 5 to 25, not 26"),
])
def test_bad_text_is_refused(text, message):
    with pytest.raises(TerrainError, match=message):
        TerrainMap.from_text(text)


def test_repr_round_trips():
    terrain = generate_map(7, 3)
    assert eval(repr(terrain), {"TerrainMap": TerrainMap}) == terrain


def test_maps_refuse_wrong_shapes_and_kinds():
    with pytest.raises(TerrainError, match="needs 25 points, not 24"):
        TerrainMap(5, (PLAIN,) * 24, 1, 1)
    with pytest.raises(TerrainError, match="unknown terrain kind"):
        TerrainMap(5, (7,) + (PLAIN,) * 24, 1, 1)


def test_plain_map_has_the_default_counts():
    terrain = TerrainMap.plain(9)
    assert terrain.count(PLAIN) == 81
    assert (terrain.forts_per_side, terrain.fort_value) == (2, 3)


# --------------------------------------------------------------------------- validation
GOOD_5 = """
    ^^...
    .....
    ..~~.
    .....
    ^^.~~"""


def test_a_good_hand_made_map_passes():
    terrain = TerrainMap.from_text(diagram(GOOD_5))
    terrain.validate()
    assert t1_problems(terrain, TerrainParams.for_size(5)) == []


@pytest.mark.parametrize("drawing, message", [
    ("""^^...
        .....
        ..~~.
        ....^
        ^^.~~""", "map has 5 mountain points, expected 4"),
    ("""^^...
        .....
        ..~~.
        .....
        ^^...""", "map has 2 water points, expected 4"),
    ("""^^^^.
        .....
        ..~~.
        .....
        ...~~""", "map has 1 mountain group, expected 2 to 4"),
    ("""^.^..
        .....
        ..~~.
        .....
        ^^.~~""", "mountain group at A5 has 1 point, fewer than the minimum 2"),
    ("""^^...
        .....
        ..~~.
        .~...
        ~..^^""", "water group at B2 has 1 point, fewer than the minimum 2"),
])
def test_validation_names_the_broken_rule(drawing, message):
    with pytest.raises(TerrainError, match=message):
        TerrainMap.from_text(diagram(drawing)).validate()


def test_counts_are_checked_before_groups_and_sizes():
    # wrong count, one group and a group too small at once: the count is reported
    with pytest.raises(TerrainError, match="map has 1 mountain point, expected 4"):
        TerrainMap.from_text(diagram("""
            ^....
            .....
            ..~~.
            .....
            ...~~""")).validate()


def test_a_group_enclosing_a_point_is_refused():
    ring = TerrainMap.from_text(diagram("""
        .......
        .......
        ..^^^..
        ..^.^..
        ..^^^..
        .......
        ......."""))
    with pytest.raises(TerrainError, match="mountain group at C5 encloses points"):
        ring.validate(params(mountains=8))
    assert t1_problems(ring, params(mountains=8)) == ["1: group at (2, 2) encloses"]


def test_a_group_and_the_edge_may_not_cut_off_a_corner():
    corner = TerrainMap.from_text(diagram("""
        .~....
        ~~....
        ......
        ......
        ......
        ......"""))
    with pytest.raises(TerrainError, match="water group at B6 encloses points"):
        corner.validate(params(water=3))


def test_a_group_from_edge_to_edge_may_not_split_the_board():
    wall = TerrainMap.from_text(diagram("""
        ..^..
        ..^..
        ..^..
        ..^..
        ..^.."""))
    with pytest.raises(TerrainError, match="mountain group at C5 encloses points"):
        wall.validate(params(mountains=5))


def test_groups_of_different_kinds_may_enclose_together():
    # the top-left corner is cut off by a mountain and a water group together: T1 speaks of
    # any one group, and each group alone leaves the rest of the board connected
    joint = TerrainMap.from_text(diagram("""
        .^...
        ~....
        .....
        .....
        ....."""))
    joint.validate(params(mountains=1, water=1))


def test_same_kind_groups_touching_only_diagonally_are_separate():
    diagonal = TerrainMap.from_text(diagram("""
        ^^...
        ^^...
        ..^^.
        ..^^.
        ....."""))
    groups = diagonal.groups()
    assert [(g.kind, len(g)) for g in groups] == [(MOUNTAIN, 4), (MOUNTAIN, 4)]
    diagonal.validate(params(mountains=8, min_groups=2, min_group=4))


def test_room_for_forts_is_checked_last():
    crowded = TerrainMap.from_text(diagram("""
        ^^^^.
        ^^^^.
        ~~~~.
        ~~~~.
        ~~~~~"""), forts_per_side=3)
    with pytest.raises(TerrainError, match="map has 4 plain points, too few for 6 forts"):
        crowded.validate(params(mountains=8, water=13, forts=3))


def test_validation_uses_the_maps_fort_count_by_default():
    terrain = TerrainMap.from_text(diagram(GOOD_5), forts_per_side=9)
    with pytest.raises(TerrainError, match="too few for 18 forts"):
        terrain.validate()
    TerrainMap.from_text(diagram(GOOD_5), forts_per_side=0).validate()
