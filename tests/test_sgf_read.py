"""Reading SGF: tolerant of real-world files (GoGui, KGS, OGS, old FF[3], Sabaki), strict about
our own properties, and every error an ``SgfError`` that names the node and the reason."""

from pathlib import Path

import pytest

import diagrams
from gtp_engine.board import MOUNTAIN, WATER
from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from sgf import SgfError, SgfRecord, game_from_sgf, game_to_sgf
from sgf.values import point_text

B, W = Color.BLACK, Color.WHITE


def moves(game):
    return [(m.color, None if m.point is None else diagrams.vertices([m.point])[0]) for m in game.moves]


GOGUI = b"""(;FF[4]CA[UTF-8]AP[GoGui:1.5.1]SZ[9]
KM[6.5]PB[GNU Go]PW[vargo]DT[2024-05-01]RE[W+2.5]
;B[ee];W[gc];B[cg];W[gg]
;B[gf];W[];B[])
"""

KGS = b"""(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]
RU[Japanese]SZ[19]KM[6.50]TM[300]OT[5x30 byo-yomi]
PW[white]PB[black]WR[2d]BR[3d]DT[2024-01-01]PC[The KGS Go Server]RE[W+Resign]
;B[pd]BL[299.5];W[dp]WL[298.1]
;B[pp]BL[290]C[black [3d\\]: hi
];W[tt];B[tt])"""

OLD_FF3 = b"(;GaMe[1]FileFormat[3]SiZe[9]KoMi[5.5]PlayerBlack[Old]AddBlack[cc][gg]\n;White[ee];Black[tt];White[ce])"

OGS = b"""(;FF[4]
CA[UTF-8]
GM[1]
PC[OGS: https://online-go.com/game/1]
GN[Friendly]
PB[a]
PW[b]
RE[B+R]
SZ[9]
KM[0.5]
RU[Japanese]
HA[2]AB[gc][cg]
;W[ee]
(;B[eg]
;W[ge])(;B[ce]))"""


def test_gogui_style_file():
    game = game_from_sgf(GOGUI)
    assert (game.rules.name, game.size, game.komi) == ("go", 9, 6.5)
    assert moves(game) == [(B, "E5"), (W, "G7"), (B, "C3"), (W, "G3"), (B, "G4"), (W, None), (B, None)]
    assert game.over


def test_kgs_style_file_with_tt_passes_and_japanese_rules():
    record = SgfRecord.from_bytes(KGS)
    game = record.game
    assert (game.rules.name, game.size, game.komi) == ("go", 19, 6.5)
    assert moves(game) == [(B, "Q16"), (W, "D4"), (B, "Q4"), (W, None), (B, None)]
    assert record.result == "W+Resign"
    out = record.to_bytes()
    assert b"RE[W+Resign]" in out and b"BL[299.5]" in out and b"OT[5x30 byo-yomi]" in out


def test_old_ff3_file_with_lowercase_letters_in_property_names():
    game = game_from_sgf(OLD_FF3)
    assert (game.size, game.komi) == (9, 5.5)
    assert sorted(game.setup) == [(B, diagrams.vertex("G3", 9)), (B, diagrams.vertex("C7", 9))]  # gg, cc
    assert moves(game) == [(W, "E5"), (B, None), (W, "C5")]


def test_ogs_style_handicap_file_follows_the_main_line():
    game = game_from_sgf(OGS)
    assert sorted(p for _, p in game.setup) == [(2, 2), (6, 6)]
    assert moves(game) == [(W, "E5"), (B, "E3"), (W, "G5")]


def test_missing_size_means_19_and_ff1_without_ff_is_fine():
    game = game_from_sgf(b"(;GM[1];B[pd];W[dd];B[tt];W[tt])")
    assert game.size == 19 and game.over and game.komi == 0


def test_whitespace_everywhere():
    game = game_from_sgf(b"\n\n junk before ( ; SZ [9] KM [ 7 ]\r\n ; B [ee] \t; W[ cc ] ) junk after")
    assert game.komi == 7 and moves(game) == [(B, "E5"), (W, "C7")]


def test_move_in_the_root_node():
    assert moves(game_from_sgf(b"(;SZ[9]B[ee];W[cc])")) == [(B, "E5"), (W, "C7")]


def test_a_pass_on_a_big_board_is_the_empty_value_only():
    game = game_from_sgf(b"(;SZ[21];B[];W[tt])")
    assert moves(game) == [(B, None), (W, "U2")]  # column t is the 20th, U without I


@pytest.mark.parametrize("root,expected", [
    (b"RU[Japanese]", "go"),
    (b"RU[Loose]SZ[7]KM[6]", "loose"),
    (b"RU[Goncrete]", "goncrete"),
    (b"RU[Chinese]", "go"),
    (b"VR[disto]RU[Japanese]KM[6.5]", "disto"),
    (b"VR[go]RU[Loose]", "go"),
    (b"VR[GONCRETE]", "goncrete"),
])
def test_rules_come_from_vr_else_ru(root, expected):
    assert game_from_sgf(b"(;FF[4]" + root + b";B[cc])").rules.name == expected


# --------------------------------------------------------------------------- strict errors
@pytest.mark.parametrize("data,message", [
    (b"(;VR[chess];B[cc])", r"node 0: bad VR\[chess\]: unknown variant"),
    (b"(;GM[2];B[cc])", r"node 0: not a go file: GM\[2\]"),
    (b"(;FF[5];B[cc])", r"node 0: unsupported sgf format: FF\[5\]"),
    (b"(;SZ[4]VR[loose])", r"node 0: loose needs an odd board size"),
    (b"(;SZ[7]VR[loose]KM[6.5])", r"node 0: loose komi must be an even integer"),
    (b"(;SZ[9]KM[lots])", r"node 0: bad KM\[lots\]: not a number"),
    (b"(;SZ[30])", r"node 0: bad SZ\[30\]"),
    (b"(;SZ[19:13])", r"node 0: bad SZ\[19:13\]"),
    (b"(;SZ[9]MT[aa])", r"node 0: MT needs terrain rules, but the game is go"),
    (b"(;SZ[9];B[ee];W[ee])", r"node 2 \(move 2\): illegal move W\[ee\]: occupied"),
    (b"(;SZ[9];B[zz])", r"node 1 \(move 1\): bad move B\[zz\]: point zz is off the 9x9 board"),
    (b"(;SZ[9];B[e])", r"node 1 \(move 1\): bad move B\[e\]: bad point e"),
    (b"(;SZ[9];B[ee]W[cc])", r"node 1 \(move 1\): a node with both B and W"),
    (b"(;SZ[9];B[];B[])", r"node 2 \(move 2\): illegal move B\[\]: pass by the player who moved last"),
    (b"(;SZ[9]AE[aa])", r"node 0: AE \(remove stones\) is not supported"),
    (b"(;SZ[9]AB[aa:zz])", r"node 0: bad AB: point zz is off the 9x9 board"),
])
def test_clear_errors_name_the_node(data, message):
    with pytest.raises(SgfError, match=message):
        game_from_sgf(data)


def test_illegal_move_by_the_rules_of_each_game():
    """Loose's illegal example (RULES L3): White B3 has only the false liberty C3."""
    game = Game("loose", 5)
    diagrams.setup_game(game, """
        . . . . .
        . X X . .
        X . . X .
        . X X . .
        . . . . .
    """)
    data = game_to_sgf(game)[:-2] + b";W[bc])"
    with pytest.raises(SgfError, match=r"node 1 \(move 1\): illegal move W\[bc\]: no true liberty"):
        game_from_sgf(data)


def test_move_after_goncrete_annihilation_is_refused():
    """RULES G4's example: White A captures every black stone; nothing may follow."""
    game = Game("goncrete", 3)
    marks = diagrams.setup_game(game, """
        X X X
        X X X
        X A O
    """)
    game.play(W, marks["A"])
    assert game.over
    data = game_to_sgf(game)[:-2] + b";B[];W[];B[bb])"
    with pytest.raises(SgfError, match=r"node 4 \(move 4\): illegal move B\[bb\]: game over"):
        game_from_sgf(data)


# --------------------------------------------------------------------------- Terrain Go
def terrain_file(game, **changes) -> bytes:
    """Our record of ``game`` with root properties replaced (``None`` drops one)."""
    data = game_to_sgf(game)
    head, sep, rest = data.partition(b";")
    root, sep2, moves_part = rest.partition(b";")
    import re
    for identifier, values in changes.items():
        root = re.sub(rb"(?<![A-Z])" + identifier.encode() + rb"(\[[^\]]*\]\s*)+", b"", root)
        if values is not None:
            root = root.replace(b"FF[4]", b"FF[4]" + identifier.encode() + b"".join(b"[" + v + b"]" for v in values))
    return head + sep + root + (sep2 + moves_part if sep2 else b"")


def terrain_game(seed=3, size=9):
    game = Game("terrain", size, terrain_seed=seed)
    plain = [(r, c) for r in range(size) for c in range(size) if game.terrain.kind_at((r, c)) == 0]
    while game.fort_turn is not None:
        game.place_fort(game.fort_turn, plain.pop())
    return game


def test_terrain_map_breaking_t1_is_refused():
    game = terrain_game()
    mountains = [point_text(p, 9).encode() for p in game.terrain.points_of(MOUNTAIN)]
    with pytest.raises(SgfError, match=r"node 0: bad terrain map: map has \d+ mountain points, expected \d+ \(T1\)"):
        game_from_sgf(terrain_file(game, MT=mountains[1:]))


def test_terrain_map_from_markup_when_mt_wa_are_missing():
    game = terrain_game()
    again = game_from_sgf(terrain_file(game, MT=None, WA=None))
    assert again.terrain.kinds == game.terrain.kinds and again.forts == game.forts


def test_mountain_and_water_on_one_point_is_refused():
    game = terrain_game()
    water = [point_text(p, 9).encode() for p in game.terrain.points_of(WATER)]
    mountains = [point_text(p, 9).encode() for p in game.terrain.points_of(MOUNTAIN)]
    with pytest.raises(SgfError, match=r"node 0: WA point \w+ is already terrain"):
        game_from_sgf(terrain_file(game, WA=water + mountains[:1]))


def test_fort_on_a_mountain_is_refused():
    game = terrain_game()
    mountain = point_text(game.terrain.points_of(MOUNTAIN)[0], 9).encode()
    forts = [point_text(p, 9).encode() for c, p in game.forts if c is W]
    with pytest.raises(SgfError, match=r"node 0: bad fort FW\[\w+\]"):
        game_from_sgf(terrain_file(game, FW=[mountain] + forts[1:]))


def test_forts_out_of_order_are_refused():
    game = terrain_game()
    black = [point_text(p, 9).encode() for c, p in game.forts if c is B]
    with pytest.raises(SgfError, match=r"node 0: bad forts: white places first and then alternately"):
        game_from_sgf(terrain_file(game, FW=None, FB=black))


def test_compressed_fort_list_is_refused_but_compressed_map_lists_are_read():
    game = terrain_game()
    with pytest.raises(SgfError, match=r"node 0: bad FW: compressed point list"):
        game_from_sgf(terrain_file(game, FW=[b"aa:bb"]))
    top_row = [point_text((8, c), 9).encode() for c in range(9)]
    plain = Game("terrain", 9, terrain_seed=3)
    assert game_from_sgf(terrain_file(plain, MT=[b"aa:ia"], WA=None, TR=None, SQ=None,
                                      MP=[b"forts=0 fort_value=4 custom"])).terrain.points_of(MOUNTAIN) == \
        sorted(game_from_sgf(terrain_file(plain, MT=top_row, WA=None, TR=None, SQ=None,
                                          MP=[b"forts=0 fort_value=4 custom"])).terrain.points_of(MOUNTAIN))


def test_map_parameters_are_strict():
    game = terrain_game()
    with pytest.raises(SgfError, match=r"node 0: bad MP\[colour=red\]"):
        game_from_sgf(terrain_file(game, MP=[b"colour=red"]))


def test_moves_before_the_forts_are_refused():
    game = Game("terrain", 9, terrain_seed=3)
    data = game_to_sgf(game)[:-2] + b";B[ee])"
    with pytest.raises(SgfError, match=r"node 1 \(move 1\): illegal move B\[ee\]: forts not yet placed"):
        game_from_sgf(data)


def test_terrain_game_from_ru_only_needs_a_map():
    with pytest.raises(SgfError, match=r"node 0: bad terrain map"):
        game_from_sgf(b"(;SZ[9]RU[Terrain Go];B[ee])")


def test_a_root_without_its_semicolon_as_nihon_kiin_writes_it():
    game = game_from_sgf(b"(\r\nSZ[9]PB[x]\r\n;B[ee](;W[cc])(;W[dd]))")
    assert moves(game) == [(B, "E5"), (W, "C7")]
    assert moves(game_from_sgf(b"notes (see below)\n(;SZ[9];B[ee])")) == [(B, "E5")]


@pytest.mark.parametrize("data", [b"(;GM[1]SZ[9];B[ee];W[ec];B[ce])", b"(;GM[1]SZ[9];B[ee];W[ee])"],
                         ids=["loaded", "refused"])
@pytest.mark.parametrize("enabled", [True, False])
def test_loading_pauses_the_cyclic_gc_and_leaves_it_as_it_was(data, enabled):
    """A long record loads with the cyclic garbage collector paused (its collections cost a
    third of the load); afterwards, a refusal included, it is on or off as it was before."""
    import gc
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        try:
            SgfRecord.from_bytes(data)
        except SgfError:
            pass
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("raw,size,point", [(b"aa", 9, (8, 0)), (b"ia", 9, (8, 8)), (b"ai", 9, (0, 0)),
                                            (b"pd", 19, (15, 15)), (b" pd ", 19, (15, 15)),
                                            (b"ys", 25, (6, 24)), (b"D4", 19, (3, 3))])
def test_points_read_in_either_form(raw, size, point):
    from sgf.values import parse_point
    assert parse_point(raw, size) == point


@pytest.mark.parametrize("raw,size,message", [(b"ja", 9, "off the 9x9 board"), (b"Pd", 19, "bad point"),
                                              (b"p", 19, "bad point"), (b"a{", 19, "bad point")])
def test_points_off_the_board_or_unreadable_are_refused(raw, size, message):
    from sgf.values import parse_point
    with pytest.raises(ValueError, match=message):
        parse_point(raw, size)


def test_read_records_leaves_out_the_files_that_are_no_game_and_names_them(tmp_path, caplog):
    import sgf
    good = Game("go", 9, 7.5)
    good.play(Color.BLACK, parse_vertex("E5", 9))
    (tmp_path / "a.sgf").write_bytes(sgf.game_to_sgf(good))
    (tmp_path / "b.sgf").write_bytes(b"(;GM[1]SZ[9];B[ee];W[zz")           # broken
    (tmp_path / "c.sgf").write_bytes(b"(;GM[1]FF[4]SZ[9]RU[Loose]KM[5])")  # an odd Loose komi
    (tmp_path / "d.sgf").write_bytes(sgf.game_to_sgf(Game("disto", 7, 2.5)))
    with caplog.at_level("WARNING", logger="sgf"):
        found = list(sgf.read_records(sgf.find_files([tmp_path])))
    assert [(Path(path).name, record.game.rules.name) for path, record in found] == \
        [("a.sgf", "go"), ("d.sgf", "disto")]
    assert [move.point for move in found[0][1].game.moves] == [parse_vertex("E5", 9)]
    warned = " ".join(record.getMessage() for record in caplog.records)
    assert "b.sgf" in warned and "c.sgf" in warned and "a.sgf" not in warned
