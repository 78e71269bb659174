"""SGF round trips for every game: write, read back, replay to the same state.

Also: the record form's properties and comments, win rates for Sabaki's graph, GTP ``loadsgf``
move numbers, and ``SgfRecord`` keeping what it does not manage (unknown properties, comments,
variations, other encodings).
"""

import random
import re

import pytest

import diagrams
import sgf
from gtp_engine.board import PLAIN
from gtp_engine.coords import Color, format_vertex
from gtp_engine.game import Game
from sgf import SgfError, SgfRecord, game_from_sgf, game_to_sgf

B, W = Color.BLACK, Color.WHITE
GAMES = [("go", 7), ("loose", 7), ("goncrete", 7), ("disto", 7), ("terrain", 7)]


def random_game(rules: str, size: int, seed: int, moves: int = 40, finish: bool = True, **settings) -> Game:
    """A game of random legal moves (forts first in Terrain Go), ended by two passes if ``finish``."""
    game = Game(rules, size, terrain_seed=seed, **settings)
    rng = random.Random(seed)
    while game.fort_turn is not None:
        free = [(r, c) for r in range(size) for c in range(size)
                if game.terrain.kind_at((r, c)) == PLAIN and game.position.fort_at((r, c)) == 0]
        game.place_fort(game.fort_turn, rng.choice(free))
    for _ in range(moves):
        if game.over:
            break
        legal = game.legal_moves()
        game.play(game.to_move, rng.choice(legal) if legal and rng.random() > 0.05 else None)
    while finish and not game.over:
        game.play(game.to_move, None)
    return game


def state(game: Game) -> dict:
    """Everything a round trip must keep."""
    terrain = game.terrain
    return {
        "rules": game.rules.name, "size": game.size, "komi": game.komi,
        "map": None if terrain is None else (terrain.kinds, terrain.forts_per_side, terrain.fort_value),
        "forts": list(game.forts), "setup": sorted(game.setup),  # SGF keeps setup as sets
        "moves": [(m.color, m.point, m.effects) for m in game.moves],
        "board": game.position.rows(), "over": game.over, "end": game.end_reason,
        "score": game.score(), "to_move": game.to_move,
    }


def root_values(data: bytes, identifier: str):
    """The values of a root property in our own output (no escapes needed in these)."""
    root = data.split(b";")[1]
    match = re.search(rb"(?<![A-Z])" + identifier.encode() + rb"((?:\[[^\]]*\]\s*)+)", root)
    return None if match is None else re.findall(rb"\[([^\]]*)\]", match.group(1))


@pytest.mark.parametrize("rules,size", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_replays_to_the_same_state(rules, size, seed):
    game = random_game(rules, size, seed)
    assert game.moves, "the random game must have moves to be a useful round trip"
    again = game_from_sgf(game_to_sgf(game))
    assert state(again) == state(game)


@pytest.mark.parametrize("rules,size", GAMES)
def test_view_export_reads_back_as_the_same_game(rules, size):
    game = random_game(rules, size, seed=4)
    assert state(game_from_sgf(game_to_sgf(game, view=True))) == state(game)


@pytest.mark.parametrize("rules,size", GAMES)
def test_unfinished_game_round_trips_without_a_result(rules, size):
    game = random_game(rules, size, seed=5, moves=12, finish=False)
    data = game_to_sgf(game)
    assert root_values(data, "RE") is None
    assert state(game_from_sgf(data)) == state(game)


def test_root_properties_of_a_record():
    game = random_game("disto", 7, seed=6, komi=4.5)
    data = game_to_sgf(game, black_name="Ann", white_name="Bob", date="2026-11-23")
    for identifier, value in [("GM", b"1"), ("FF", b"4"), ("CA", b"UTF-8"), ("SZ", b"7"), ("KM", b"4.5"),
                              ("RU", b"Disto"), ("VR", b"disto"), ("PB", b"Ann"), ("PW", b"Bob"),
                              ("DT", b"2026-11-23"), ("RE", game.score().result.encode())]:
        assert root_values(data, identifier) == [value], identifier


def test_terrain_map_forts_and_markup_are_written():
    game = random_game("terrain", 9, seed=7, moves=6)
    data = game_to_sgf(game)
    size = game.size

    def texts(kind):
        return sorted(sgf.values.point_text(p, size).encode() for p in game.terrain.points_of(kind))
    from gtp_engine.board import MOUNTAIN, WATER
    assert sorted(root_values(data, "MT")) == texts(MOUNTAIN)
    assert sorted(root_values(data, "WA")) == texts(WATER)
    assert sorted(root_values(data, "TR")) == texts(MOUNTAIN)
    assert sorted(root_values(data, "SQ")) == texts(WATER)
    for identifier, color in (("FB", B), ("FW", W)):
        placed = [sgf.values.point_text(p, size).encode() for c, p in game.forts if c is color]
        assert root_values(data, identifier) == placed  # placement order, not sorted
        labels = sorted(v for v in root_values(data, "LB") if v.endswith(b":" + identifier.encode()))
        assert labels == sorted(p + b":" + identifier.encode() for p in placed)
    assert root_values(data, "MP") == [f"forts={game.forts_per_side} fort_value={game.fort_value}".encode()]


def test_custom_map_outside_the_t1_defaults_round_trips():
    from gtp_engine.rules.terrain_map import TerrainMap
    terrain = TerrainMap.from_text("...../.^^../...../..~../.....", forts_per_side=1, fort_value=3)
    game = Game("terrain", 5, terrain=terrain)
    game.place_fort(W, (0, 0))
    game.place_fort(B, (4, 4))
    game.play(B, (2, 2))
    data = game_to_sgf(game)
    assert root_values(data, "MP") == [b"forts=1 fort_value=3 custom"]
    assert state(game_from_sgf(data)) == state(game)


def test_handicap_setup_is_written_as_ab_with_ha():
    game = Game("go", 9, 0.5)
    game.place_handicap([(2, 2), (6, 6)])
    game.play(W, (4, 4))
    data = game_to_sgf(game)
    assert root_values(data, "HA") == [b"2"]
    assert sorted(root_values(data, "AB")) == [b"cg", b"gc"]  # C3 and G7, letters count rows from the top
    again = game_from_sgf(data)
    assert state(again) == state(game)


def test_passes_are_written_as_empty_values():
    game = Game("go", 19)
    game.play(B, None)
    game.play(W, (3, 3))
    game.play(B, None)
    data = game_to_sgf(game)
    assert b";B[]" in data and b";W[dp]" in data and b"[tt]" not in data


def test_goncrete_comment_names_flips_and_removals():
    """RULES G2's second example: White A flips both black groups and removes one stone."""
    game = Game("goncrete", 9)
    marks = diagrams.setup_game(game, """
        . O O . O O . X
        O X X A X X O .
        O O O . O O . .
    """)
    record = game.play(W, marks["A"])
    assert record.effects.flipped and record.effects.removed
    data = game_to_sgf(game)
    move = data.split(b";")[-1]
    assert f"flipped: {' '.join(diagrams.vertices(record.effects.flipped))}".encode() in move
    assert f"removed: {' '.join(diagrams.vertices(record.effects.removed))}".encode() in move
    assert state(game_from_sgf(data)) == state(game)


def test_disto_comment_names_meals():
    """RULES D1's example: White C2 turns black C3 into a meal."""
    game = Game("disto", 5)
    diagrams.setup_game(game, """
        . . . . .
        . . O . .
        . O X O .
        . . . . .
        . . . . .
    """)
    game.play(W, diagrams.vertex("C2", 5))
    data = game_to_sgf(game)
    assert b"meals: C3" in data.split(b";")[-1]
    assert b"meals" not in game_to_sgf(game, comments=False)


def test_winrates_are_written_for_sabaki_and_as_comments():
    game = random_game("go", 7, seed=8, moves=4, finish=False)
    data = game_to_sgf(game, winrates={0: 0.5, 1: 0.4567, 3: 1})
    nodes = data.split(b";")[1:]
    assert b"SBKV[50]" in nodes[0]
    assert b"SBKV[45.67]" in nodes[1] and b"Black's win rate: 45.7%" in nodes[1]
    assert b"SBKV" not in nodes[2]
    assert b"SBKV[100]" in nodes[3]


@pytest.mark.parametrize("winrates", [{1: 1.5}, {1: -0.1}, {99: 0.5}, {-1: 0.5}, {1: float("nan")}])
def test_bad_winrates_are_refused(winrates):
    game = random_game("go", 7, seed=8, moves=4, finish=False)
    with pytest.raises(SgfError, match="win rate"):
        game_to_sgf(game, winrates=winrates)


def test_given_result_and_end_reason_are_written():
    game = random_game("go", 7, seed=9, moves=10, finish=False)
    data = game_to_sgf(game, result="W+R", end_reason="black resigned")
    assert root_values(data, "RE") == [b"W+R"]
    assert b"Game over: black resigned. Result: W+R." in data.split(b";")[-1]


# --------------------------------------------------------------------------- loadsgf move numbers
def test_move_number_plays_up_to_but_not_including_that_move():
    game = random_game("loose", 7, seed=10, moves=20, finish=False)
    data = game_to_sgf(game)
    for number in (1, 2, 7, len(game.moves), len(game.moves) + 1, len(game.moves) + 50):
        loaded = game_from_sgf(data, number)
        expected = game.copy()
        expected.undo_to(min(number - 1, len(game.moves)))
        assert state(loaded) == state(expected), number


@pytest.mark.parametrize("number", [0, -3])
def test_move_number_below_one_is_refused(number):
    data = game_to_sgf(random_game("go", 7, seed=11, moves=4, finish=False))
    with pytest.raises(SgfError, match="move number must be at least 1"):
        game_from_sgf(data, number)


# --------------------------------------------------------------------------- SgfRecord
FOREIGN = (b"(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]GN[club game]XZ[private\\]value]C[root talk]"
           b";B[ee]C[a good move]SBKV[51.2](;W[cc]MA[dd];B[gg]TR[aa])(;W[gc]C[the variation];B[cg]))")


def test_record_keeps_unknown_properties_comments_and_variations():
    record = SgfRecord.from_bytes(FOREIGN)
    out = record.to_bytes()
    for piece in (b"GN[club game]", b"XZ[private\\]value]", b"C[root talk]", b"SBKV[51.2]",
                  b"C[a good move]", b"MA[dd]", b"TR[aa]", b"C[the variation]", b"W[gc]", b"B[cg]"):
        assert piece in out, piece
    again = SgfRecord.from_bytes(out)
    assert state(again.game) == state(record.game)
    assert again.to_bytes() == out


def test_record_written_after_more_moves_keeps_the_old_nodes_data():
    record = SgfRecord.from_bytes(FOREIGN)
    record.game.play(W, (4, 4 - 2))
    out = record.to_bytes()
    assert b"C[a good move]" in out and b"GN[club game]" in out
    assert [m.point for m in game_from_sgf(out).moves] == [m.point for m in record.game.moves]


def test_record_of_a_truncated_load_drops_the_later_moves_and_result():
    data = FOREIGN.replace(b"KM[6.5]", b"KM[6.5]RE[B+R]")
    record = SgfRecord.from_bytes(data, move_number=2)
    assert record.result == "B+R"
    out = record.to_bytes()
    assert b"RE[" not in out and b"W[cc]" not in out
    assert b"C[a good move]" in out


# The shared reproducer: B[aa], then W[bb] B[cc] (main line) or W[dd] B[ee] W[ff] B[gg].
BRANCHED = b"(;GM[1]FF[4]SZ[9];B[aa](;W[bb];B[cc])(;W[dd];B[ee];W[ff];B[gg]))"


def points(game):
    return [(m.color, m.point) for m in game.moves]


def test_record_of_a_partial_load_writes_exactly_the_game_held():
    # Before: the side variation W[dd]... became the main line after B[aa].
    record = SgfRecord.from_bytes(BRANCHED, move_number=2)
    out = record.to_bytes()
    assert points(game_from_sgf(out)) == points(record.game) == [(B, (8, 0))]
    assert b"W[" not in out  # below the game's last node every child would be its main line


@pytest.mark.parametrize("number", range(1, 8))
def test_record_main_line_is_the_game_for_every_partial_load(number):
    record = SgfRecord.from_bytes(BRANCHED, move_number=number)
    assert points(game_from_sgf(record.to_bytes())) == points(record.game)


def test_record_continued_along_a_variation_follows_it_and_keeps_the_rest():
    record = SgfRecord.from_bytes(BRANCHED, move_number=2)
    record.game.play(W, (5, 3))                                    # W[dd]: the file's variation
    out = record.to_bytes().replace(b"\n", b"")                   # (sgfmill wraps long lines)
    assert points(game_from_sgf(out)) == points(record.game)
    assert out.count(b"W[dd]") == 1 and b"(;W[bb];B[cc])" in out   # the main line, now a variation
    assert b"B[ee]" not in out                                     # below the game's last node


def test_record_that_leaves_the_file_keeps_its_lines_as_variations():
    record = SgfRecord.from_bytes(BRANCHED)
    record.game.undo()
    record.game.undo()
    record.game.play(W, (3, 5))                                    # W[ff]: not in the file here
    out = record.to_bytes().replace(b"\n", b"")
    assert points(game_from_sgf(out)) == points(record.game)
    assert b";B[aa](;W[ff])(;W[bb];B[cc])(;W[dd];B[ee];W[ff];B[gg]))" in out


def test_record_keeps_the_comments_of_move_less_nodes_in_file_order():
    # Before: C[world\n\nhello]: each merged comment went in front of the ones before it.
    record = SgfRecord.from_bytes(b"(;GM[1]SZ[9];B[aa];C[hello];C[world];W[bb])")
    assert game_from_sgf(record.to_bytes()) is not None
    assert b"C[hello\n\nworld]" in record.to_bytes()


def test_record_keeps_a_resignation_result_when_the_moves_are_unchanged():
    data = FOREIGN.replace(b"KM[6.5]", b"KM[6.5]RE[B+R]")
    assert b"RE[B+R]" in SgfRecord.from_bytes(data).to_bytes()


def test_record_converts_other_encodings_to_utf8():
    data = "(;FF[4]CA[ISO-8859-1]SZ[9]PB[Jérôme];B[ee])".encode("latin-1")
    record = SgfRecord.from_bytes(data)
    assert record.root_property("PB") == "Jérôme"
    out = record.to_bytes()
    assert b"CA[UTF-8]" in out and "PB[Jérôme]".encode("utf-8") in out


def test_view_then_record_conversion_gives_back_the_record():
    game = random_game("loose", 7, seed=12)
    record = game_to_sgf(game)
    view = SgfRecord.from_bytes(record).to_bytes(view=True)
    assert view != record and b"VV[1]" in view
    back = SgfRecord.from_bytes(view)
    assert back.is_view
    assert back.to_bytes() == record


def test_unknown_write_option_is_a_type_error():
    with pytest.raises(TypeError):
        game_to_sgf(Game("go", 9), colour="blue")


def test_move_comments_use_gtp_vertices():
    game = random_game("loose", 7, seed=13)
    data = game_to_sgf(game)
    flips = [m for m in game.moves if m.effects and m.effects.flipped]
    assert flips, "seed must give a flip"
    text = " ".join(format_vertex(p) for p in flips[0].effects.flipped)
    assert f"flipped: {text}".encode() in data


def test_file_without_ca_is_read_as_utf8_when_it_decodes_so_else_latin1():
    utf8 = SgfRecord.from_bytes("(;SZ[9]PB[Jérôme];B[ee])".encode("utf-8"))
    latin1 = SgfRecord.from_bytes("(;SZ[9]PB[Jérôme];B[ee])".encode("latin-1"))
    assert utf8.root_property("PB") == latin1.root_property("PB") == "Jérôme"
    assert "PB[Jérôme]".encode("utf-8") in utf8.to_bytes() and "PB[Jérôme]".encode("utf-8") in latin1.to_bytes()


def test_view_export_written_again_as_a_view_is_unchanged():
    game = random_game("goncrete", 7, seed=14)
    view = game_to_sgf(game, view=True)
    assert SgfRecord.from_bytes(view).to_bytes(view=True) == view


def test_winrates_accept_numpy_numbers():
    import numpy as np
    game = random_game("go", 7, seed=8, moves=4, finish=False)
    data = game_to_sgf(game, winrates={np.int64(2): np.float64(0.125)})
    assert b"SBKV[12.5]" in data.split(b";")[3]  # "(", root, move 1, move 2


@pytest.mark.parametrize("view", [False, True])
def test_writing_changes_nothing_in_the_game(view):
    game = random_game("loose", 7, seed=15, moves=30, finish=False)
    before = state(game)
    game_to_sgf(game, view=view)
    assert state(game) == before and len(game.moves) == len(before["moves"])


def test_variations_are_added_where_they_branch_and_moves_already_there_are_followed():
    from sgf.record import add_variations, parse
    text = b"(;GM[1]FF[4]VR[go]SZ[5]KM[0.5]AB[aa];B[cc];W[bb](;B[dd])(;B[db]))"
    d2, b4, pass_ = (1, 3), (3, 1), None
    out = add_variations(text, [
        (1, ("b", d2, [("w", pass_, [])])),          # instead of the first move (after set-up)
        (3, ("b", (1, 3), [("w", b4, [])])),         # D2 is the file's variation: followed
        (3, ("b", (1, 3), [("w", b4, [])])),         # given twice: written once
    ])
    root = parse(out).get_root()
    assert [c.get_move() for c in root] == [("b", (2, 2)), ("b", d2)]
    assert [c.get_move() for c in root[1]] == [("w", None)]
    after_w = root[0][0]
    assert [c.get_move() for c in after_w] == [("b", (1, 3)), ("b", (3, 3))]
    assert [c.get_move() for c in after_w[0]] == [("w", b4)]
    assert out.count(b"W[bb]") == 2 and b"W[]" in out   # B4 once more (the new line), a pass as []
    with pytest.raises(SgfError, match="no move 4 on the main line"):
        add_variations(text, [(4, ("b", d2, []))])
