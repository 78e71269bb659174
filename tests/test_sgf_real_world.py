"""SGF as other programs write it: set-up stones in the middle of a game (problem collections,
edited games, GNU Go's regression games), records of games played under Japanese rules with
long cycles, and what GoGui reads (FF[3] long property names, points written as ``R16``,
nodes after a variation, the board size after the points)."""

import pytest

import diagrams
from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from gtp_engine.gtp import GtpEngine
from sgf import SgfError, SgfRecord, game_from_sgf, game_to_sgf
from sgf.values import point_text
from test_sgf_view import main_line, true_boards, viewer_boards

B, W = Color.BLACK, Color.WHITE


def v(vertex, size=9):
    return parse_vertex(vertex, size)


def rows(game):
    return game.position.rows()


# ----------------------------------------------------------------- set-up after the first move
EDITED = b"(;GM[1]FF[4]SZ[9];B[ee];W[cc];AB[gg]AE[cc]AW[ee]C[edited];W[dd];B[ff])"


def test_setup_after_moves_edits_the_position_and_the_game_goes_on():
    game = game_from_sgf(EDITED)
    assert [(m.color, m.point) for m in game.moves] == [(B, v("E5")), (W, v("C7")), (W, v("D6")), (B, v("F4"))]
    board = rows(game)
    assert board[9 - 3][6] == "X"                   # G3 added
    assert board[9 - 7][2] == "."                   # C7 removed
    assert board[9 - 5][4] == "O"                   # E5: a black stone overwritten with white
    assert [(e.after, e.black, e.white, e.empty) for e in game.edits] == \
        [(2, (v("G3"),), (v("E5"),), (v("C7"),))]


def test_setup_after_moves_is_written_back_where_it_was():
    for data in (game_to_sgf(game_from_sgf(EDITED)), SgfRecord.from_bytes(EDITED).to_bytes()):
        nodes = main_line(data)
        assert [sorted(k for k in n if k in ("B", "W", "AB", "AW", "AE")) for n in nodes[1:]] == \
            [["B"], ["W"], ["AB", "AE", "AW"], ["W"], ["B"]]
        again = game_from_sgf(data)
        assert rows(again) == rows(game_from_sgf(EDITED)) and again.edits == game_from_sgf(EDITED).edits
    assert b"C[edited]" in SgfRecord.from_bytes(EDITED).to_bytes()


def test_undo_takes_an_edit_back_with_its_move():
    game = game_from_sgf(EDITED)
    game.undo()
    game.undo()
    assert game.edits and rows(game)[9 - 3][6] == "X"    # back to the edited position
    game.undo()                                          # move 2 and its edit
    assert game.edits == [] and rows(game)[9 - 5][4] == "X" and rows(game)[9 - 3][6] == "."


def test_an_edit_is_all_or_nothing():
    game = Game("go", 9)
    game.play(B, v("E5"))
    before = (rows(game), game.history_id)
    with pytest.raises(ValueError, match="twice"):
        game.edit(black=[v("A1")], empty=[v("A1")])
    assert (rows(game), game.history_id) == before
    with pytest.raises(ValueError):
        Game("go", 9).edit(black=[v("A1")])          # before the first move: add_setup
    assert game.edit(black=[v("A1")]).after == 1 and game.history_id != before[1]


def test_gtp_loadsgf_and_printsgf_keep_the_edit(tmp_path):
    path = tmp_path / "edited.sgf"
    path.write_bytes(EDITED)
    engine = GtpEngine(Game("go", 9))
    engine.run_command("loadsgf", [str(path)])
    assert engine.game.edits
    written = engine.run_command("printsgf", [])
    assert "AB[gg]" in written and "AE[cc]" in written
    engine.run_command("loadsgf", [str(path), "3"])          # before move 3: the edit came after move 2
    assert engine.game.edits and len(engine.game.moves) == 2


@pytest.mark.parametrize("rules", ["loose", "goncrete", "disto", "go"])
def test_view_export_with_an_edit_shows_the_true_board_and_reads_back(rules):
    game = Game(rules, 7)
    diagrams.setup_game(game, """
        . . . . . . .
        . O O . . . .
        O X . . . . .
        . O O . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    game.play(W, v("D5", 7))
    game.edit(black=[v("F2", 7)], empty=[v("B6", 7)])
    game.play(B, v("E3", 7))
    data = game_to_sgf(game, view=True)
    assert viewer_boards(data, 7) == true_boards(game)
    again = game_from_sgf(data)
    assert rows(again) == rows(game) and again.edits == game.edits


# ----------------------------------------------------------------- long cycles (Japanese rules)
#: a 4x4 game whose last move repeats the position after move 35 (not a ko recapture), found by
#: random play; positional superko forbids it, Japanese rules do not
CYCLE = ("bC4 wD4 bC3 wB2 bA4 wD1 bB4 wB3 bC2 wA3 bD2 wB1 bA1 wA2 bD3 wA1 bD4 wC1 bD4 wC4 bC3 wC2 "
         "bB4 wA4 bD3 wC4 bpass wD2 bD3 wB4 bD4 wC3 bD4 wD3 bD4 wC1 bB3 wB4 bC3 wA4 bC2 wB2 bB1 wA1 "
         "bD2 wD1 bB1 wC1").split()


def cycle_file(root=b"RU[Japanese]") -> bytes:
    nodes = "".join(f";{m[0].upper()}[{'' if m[1:] == 'pass' else point_text(v(m[1:], 4), 4)}]" for m in CYCLE)
    return b"(;GM[1]FF[4]SZ[4]KM[0.5]" + root + nodes.encode() + b")"


def test_a_japanese_record_with_a_long_cycle_loads_as_played_and_says_so():
    record = SgfRecord.from_bytes(cycle_file())
    assert len(record.game.moves) == len(CYCLE)
    assert len(record.notes) == 1
    assert record.notes[0].startswith("node 48 (move 48): W[cd] repeats an earlier position, which "
                                      "positional superko forbids; played as recorded (the game "
                                      "was played under RU[Japanese]")
    assert len(SgfRecord.from_bytes(record.to_bytes()).game.moves) == len(CYCLE)
    game = record.game
    game.undo()
    assert game.illegal_reason(W, v("C1", 4)) is not None     # new moves follow superko


def test_other_illegal_moves_in_a_record_are_still_refused():
    with pytest.raises(SgfError, match=r"node 2 \(move 2\): illegal move W\[ee\]: occupied"):
        game_from_sgf(b"(;SZ[9]RU[Japanese];B[ee];W[ee])")


def test_the_tool_reports_the_note(tmp_path, capsys):
    from sgf.tool import main
    path = tmp_path / "cycle.sgf"
    path.write_bytes(cycle_file())
    assert main(["check", str(path)]) == 0
    assert "played as recorded" in capsys.readouterr().err


# ----------------------------------------------------------------- what GoGui reads
def test_ff3_long_property_names():
    data = b"""(;FF[3]GaMe[1]SiZe[9]Komi[5.5]PlayerBlack[Ann]RULES[Japanese]
        AddBlack[cc][dd]AddWhite[ee];Black[gg]Comment[Size[9\\] stays text];White[fg])"""
    record = SgfRecord.from_bytes(data)
    game = record.game
    assert (game.size, game.komi) == (9, 5.5)
    assert sorted(game.setup) == sorted([(B, v("C7")), (B, v("D6")), (W, v("E5"))])
    assert [(m.color, m.point) for m in game.moves] == [(B, v("G3")), (W, v("F3"))]
    assert record.root_property("PB") == "Ann"
    assert b"C[Size[9\\] stays text]" in record.to_bytes()


def test_points_written_as_vertices():
    game = game_from_sgf(b"(;GM[1]SZ[19]AB[Q4];B[R16];W[D4];B[C16];W[Pass];B[tt])")
    assert sorted(game.setup) == [(B, v("Q4", 19))]
    assert [(m.color, m.point) for m in game.moves] == \
        [(B, v("R16", 19)), (W, v("D4", 19)), (B, v("C16", 19)), (W, None), (B, None)]
    with pytest.raises(SgfError, match=r"bad move B\[Z99\]: bad point Z99"):
        game_from_sgf(b"(;SZ[19];B[Z99])")


def test_board_size_after_the_points():
    assert game_from_sgf(b"(;AB[pp]AW[cp]SZ[19])").setup == [(B, v("Q4", 19)), (W, v("C4", 19))]
    with pytest.raises(SgfError, match="node 0: bad AB: point pp is off the 9x9 board"):
        game_from_sgf(b"(;AB[pp]AW[cp]SZ[9])")


def test_nodes_after_a_variation_are_one_more_variation():
    data = b"(\n;\nGaMe[1]\nSiZe[9]\n;\nBlack[ee]\n(\n;\nWhite[gg]\n)\n;\nWhite[cg]\n;Black[dd])"
    record = SgfRecord.from_bytes(data)
    assert [(m.color, m.point) for m in record.game.moves] == [(B, v("E5")), (W, v("G3"))]
    out = record.to_bytes()
    assert b"(;W[gg])(;\nW[cg];B[dd])" in out                # the late nodes kept as a variation
