"""The GTP commands in process (``GtpEngine.run_command``): what each does to the game, what it
refuses, and that a failure changes nothing."""

import pytest

from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from gtp_engine.gtp import EngineSettings, GtpEngine, GtpError, parse_line
from gtp_engine.gtp.table import CommandTable


def make_engine(variant="go", size=9, komi=None, **settings):
    return GtpEngine(Game(variant, size, komi), EngineSettings(**settings))


def gtp(engine, line):
    """Run one command line; the answer text, or GtpError."""
    command = parse_line(line)
    return engine.run_command(command.name, command.args)


def gtp_lines(engine, text):
    for line in text.strip().splitlines():
        gtp(engine, line)


def refused(engine, line) -> str:
    with pytest.raises(GtpError) as err:
        gtp(engine, line)
    return str(err.value)


def board(engine):
    return gtp(engine, "gogui-rules_board").split("\n")


# ----------------------------------------------------------------- administration
def test_list_commands_is_the_sorted_table_and_known_command_agrees():
    engine = make_engine()
    names = gtp(engine, "list_commands").split("\n")
    assert names == sorted(engine.handlers)
    for name in names:
        assert gtp(engine, f"known_command {name}") == "true"
    assert gtp(engine, "known_command undo2") == "false"


def test_every_interface_command_is_there():
    standard = """protocol_version name version known_command list_commands quit boardsize
        clear_board komi play genmove undo showboard final_score final_status_list time_settings
        time_left loadsgf reg_genmove fixed_handicap place_free_handicap set_free_handicap
        printsgf kgs-time_settings kgs-genmove_cleanup cputime variant list_variants fair_komi
        terrain_generate terrain_load terrain_show fort genfort forts last_move_info
        gogui-rules_game_id gogui-rules_board gogui-rules_board_size gogui-rules_legal_moves
        gogui-rules_side_to_move gogui-rules_final_result gogui-rules_captured_count
        gogui-rules_board_gfx gogui-analyze_commands lz-analyze kata-analyze lz-genmove_analyze
        kata-genmove_analyze""".split()
    assert set(standard) <= set(make_engine().handlers)


def test_analyze_commands_name_known_commands():
    engine = make_engine()
    for entry in gtp(engine, "gogui-analyze_commands").split("\n"):
        kind, label, command = entry.split("/")
        assert kind in ("gfx", "string", "param") and label
        assert gtp(engine, f"known_command {command.split()[0]}") == "true"


def test_get_komi_answers_the_komi_in_force():
    engine = make_engine("loose", 9)
    from gtp_engine.rules import find_rules
    default = find_rules("loose").default_komi_for(9)       # the calibrated default (RULES C7)
    assert gtp(engine, "get_komi") == f"{default:g}" and default % 2 == 0
    gtp_lines(engine, "komi 2\nboardsize 7\nclear_board")
    assert gtp(engine, "get_komi") == "2"
    gtp(engine, "variant disto")
    assert float(gtp(engine, "get_komi")) == engine.game.komi
    assert "get_komi" in refused(engine, "get_komi 3")


def test_list_variants():
    assert gtp(make_engine(), "list_variants").split("\n") == ["go", "loose", "goncrete", "disto", "terrain"]


def test_set_random_seed_replays_what_that_seed_plays_from_the_start():
    fresh = make_engine(seed=7, playouts=30)
    reseeded = make_engine(seed=1, playouts=30)
    assert gtp(reseeded, "get_random_seed") == "1"
    assert gtp(reseeded, "set_random_seed 7") == "" and gtp(reseeded, "get_random_seed") == "7"
    assert [gtp(fresh, "genmove b"), gtp(fresh, "genmove w")] == \
        [gtp(reseeded, "genmove b"), gtp(reseeded, "genmove w")]


@pytest.mark.parametrize("line, message", [("set_random_seed", "wrong number"), ("set_random_seed -1", "from 0 to"),
                                           ("set_random_seed x", "integer"), ("set_random_seed 1 2", "wrong number")])
def test_a_bad_random_seed_is_refused_and_changes_nothing(line, message):
    engine = make_engine(seed=5)
    assert message in refused(engine, line)
    assert gtp(engine, "get_random_seed") == "5"


# ----------------------------------------------------------------- settings survive syncs
def test_komi_then_boardsize_then_clear_board_keeps_komi_and_rules():
    """Sabaki's sync order: komi first, then boardsize and clear_board."""
    engine = make_engine("loose", 9)
    gtp_lines(engine, "komi 2\nboardsize 7\nclear_board")
    assert gtp(engine, "variant") == "loose"
    assert engine.game.komi == 2 and engine.game.size == 7
    assert gtp(engine, "final_score") == "W+2"


def test_variant_sets_default_komi_and_is_refused_when_size_does_not_fit():
    engine = make_engine("go", 10, komi=0.5)
    gtp(engine, "play b D4")
    assert "odd" in refused(engine, "variant loose")
    assert gtp(engine, "variant") == "go" and engine.game.komi == 0.5 and len(engine.game.moves) == 1
    gtp(engine, "variant disto")
    assert engine.game.komi == 6.5 and not engine.game.moves
    assert "unknown variant" in refused(engine, "variant chess")


@pytest.mark.parametrize("variant, good, bad", [
    ("go", ["7.5", "-3", "0"], ["7.3", "nan", "inf", "-inf", "1e999", "x", "1e5"]),
    ("loose", ["6", "-2", "0"], ["5", "6.5", "nan"]),
    ("disto", ["6.5", "0"], ["6.25"]),
])
def test_komi_per_game(variant, good, bad):
    engine = make_engine(variant, 9)
    for value in good:
        gtp(engine, f"komi {value}")
        assert engine.game.komi == float(value)
    before = engine.game.komi
    for value in bad:
        refused(engine, f"komi {value}")
        assert engine.game.komi == before


# ----------------------------------------------------------------- moves
def test_play_undo_back_to_the_start():
    engine = make_engine()
    gtp_lines(engine, "play b D4\nplay w pass\nplay b E5")
    for _ in range(3):
        gtp(engine, "undo")
    assert all(set(row) <= {".", " "} for row in board(engine))
    assert "no moves" in refused(engine, "undo")


def test_play_either_colour_and_side_to_move():
    engine = make_engine()
    gtp_lines(engine, "play w D4\nplay w E5")
    assert gtp(engine, "gogui-rules_side_to_move") == "black"


def test_legal_moves_are_the_games_plus_pass_and_empty_when_over():
    engine = make_engine("go", 5)
    gtp(engine, "play b C3")
    expected = [f"{c}{r}" for r in range(5, 0, -1) for c in "ABCDE" if f"{c}{r}" != "C3"]
    assert gtp(engine, "gogui-rules_legal_moves").split() == expected + ["pass"]
    gtp_lines(engine, "play w pass\nplay b pass")
    assert gtp(engine, "gogui-rules_legal_moves") == ""


def test_legal_moves_while_forts_are_pending_is_an_error_not_a_finished_game():
    """GoGui takes an empty list for game over: a ruler started without its forts must say why."""
    engine = make_engine("terrain", 9, fort_playouts=0)
    message = refused(engine, "gogui-rules_legal_moves")
    assert "forts not yet placed (white places the next one)" in message and "--forts auto" in message
    gtp_lines(engine, "genfort w\ngenfort b\ngenfort w\ngenfort b")
    assert gtp(engine, "gogui-rules_legal_moves").split()[-1] == "pass"


def test_genmove_plays_a_legal_move_on_our_board_and_is_reproducible():
    answers = []
    for _ in range(2):
        engine = make_engine("goncrete", 9, seed=11, playouts=200)
        moves = [gtp(engine, f"genmove {'bw'[i % 2]}") for i in range(20)]
        assert len(engine.game.moves) == 20
        assert [m.point for m in engine.game.moves if m.point] != []
        answers.append(moves)
    assert answers[0] == answers[1]
    other = make_engine("goncrete", 9, seed=12, playouts=200)
    assert [gtp(other, f"genmove {'bw'[i % 2]}") for i in range(20)] != answers[0]


# Black owns everything but its two eyes; White may not play in them (suicide).
#   3 X X X
#   2 X . X
#   1 . X X
EYES = "play b A3\nplay b B3\nplay b C3\nplay b A2\nplay b C2\nplay b B1\nplay b C1"


def test_genmove_does_not_fill_its_own_eyes_and_passes():
    engine = make_engine("go", 3, playouts=100)
    gtp_lines(engine, EYES)
    before = board(engine)
    assert gtp(engine, "genmove w") == "pass"
    assert gtp(engine, "genmove b") == "pass"
    assert board(engine) == before
    assert engine.game.over


def test_genmove_by_the_last_mover_plays_what_it_answers():
    """Black moved last, so it may not pass (C3): genmove b answers a placement and plays it,
    here its own eye, the only one left."""
    engine = make_engine("go", 3, playouts=100)
    gtp_lines(engine, EYES)
    answer = gtp(engine, "genmove b")
    assert answer in ("A1", "B2")
    assert len(engine.game.moves) == 8
    assert engine.game.moves[-1].color == Color.BLACK
    assert engine.game.moves[-1].point == parse_vertex(answer, 3)


def test_resign_only_when_allowed_and_hopeless():
    engine = make_engine("go", 3, resign=0.1, playouts=300)
    gtp_lines(engine, EYES)
    assert gtp(engine, "genmove w") == "resign"
    assert len(engine.game.moves) == 7
    assert gtp(make_engine("go", 3, playouts=300), "genmove w") != "resign"
    assert gtp(make_engine("go", 3, resign=0.1, playouts=300), "genmove b") != "resign"


def test_reg_genmove_changes_nothing():
    engine = make_engine(seed=3, playouts=100)
    move = gtp(engine, "reg_genmove b")
    assert move != "pass" and not engine.game.moves


def test_genmove_before_the_forts_is_refused():
    engine = make_engine("terrain", 9)
    assert "forts" in refused(engine, "genmove b")


# ----------------------------------------------------------------- handicap
@pytest.mark.parametrize("variant", ["loose", "goncrete", "disto"])
def test_handicap_only_where_the_rules_allow_it(variant):
    engine = make_engine(variant, 9)
    for line in ("fixed_handicap 2", "place_free_handicap 2", "set_free_handicap C3 G7"):
        assert "no handicap" in refused(engine, line)
    assert not engine.game.setup


def test_fixed_and_free_handicap_in_go():
    engine = make_engine("go", 19)
    assert gtp(engine, "fixed_handicap 9").split() == "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10".split()
    assert gtp(engine, "gogui-rules_side_to_move") == "white"
    gtp(engine, "clear_board")
    stones = gtp(engine, "place_free_handicap 12").split()
    assert len(set(stones)) == 12
    assert sum(row.count("X") for row in board(engine)) == 12
    gtp(engine, "clear_board")
    gtp(engine, "set_free_handicap A1 T19 K10")
    assert "board not empty" in refused(engine, "set_free_handicap B1 B2")
    gtp(engine, "clear_board")
    assert "distinct" in refused(engine, "set_free_handicap A1 A1")
    assert not engine.game.setup


def test_handicap_in_terrain_go_after_the_forts():
    engine = make_engine("terrain", 9, forts_auto=True, fort_playouts=0)
    assert "forts" in refused(engine, "fixed_handicap 2")
    engine.place_auto_forts()
    stones = gtp(engine, "place_free_handicap 3").split()
    assert len(stones) == 3 and gtp(engine, "gogui-rules_side_to_move") == "white"


# ----------------------------------------------------------------- results
def test_final_status_list_disto_meals_are_dead():
    # RULES D-example: white C2 makes black C3 a meal.
    engine = make_engine("disto", 5)
    gtp_lines(engine, "play b C3\nplay w C4\nplay w B3\nplay w D3\nplay w C2")
    assert gtp(engine, "final_status_list dead") == "C3"
    assert gtp(engine, "final_status_list alive") == "C4 B3 D3 C2"
    assert gtp(engine, "final_status_list seki") == ""
    assert "invalid status" in refused(engine, "final_status_list zombie")


def test_captured_count_counts_go_captures_per_capturer():
    engine = make_engine("go", 5)
    gtp_lines(engine, "play b A2\nplay w A1\nplay b B1")
    assert gtp(engine, "gogui-rules_captured_count") == "1 0"


# ----------------------------------------------------------------- terrain and forts
def test_forts_genfort_and_terrain_show():
    engine = make_engine("terrain", 9, seed=4, fort_playouts=100)   # 9x9: two forts each (T2)
    assert "white's turn" in refused(engine, "genfort b")
    placed = [gtp(engine, f"genfort {color}") for color in "wbwb"]
    assert "already placed" in refused(engine, "genfort w")
    assert gtp(engine, "forts").split() == ["w", placed[0], "b", placed[1], "w", placed[2], "b", placed[3]]
    shown = gtp(engine, "terrain_show").split(" ", 1)
    assert shown[0].count("w") == shown[0].count("b") == 2 and shown[1] == gtp(engine, "forts")
    again = make_engine("terrain", 9, seed=4, fort_playouts=100)
    assert [gtp(again, f"genfort {color}") for color in "wbwb"] == placed


def test_boardsize_to_a_new_size_in_terrain_regenerates_the_map_and_auto_places_forts():
    engine = make_engine("terrain", 9, forts_auto=True, fort_playouts=0)   # heuristic forts: fast
    engine.place_auto_forts()
    old_forts = gtp(engine, "forts")
    gtp(engine, "boardsize 9")
    assert gtp(engine, "forts") == old_forts            # same size: map and forts kept
    gtp(engine, "boardsize 11")
    assert engine.game.size == 11 and engine.game.fort_turn is None
    assert len(gtp(engine, "forts").split()) == 4 * engine.game.forts_per_side


def test_terrain_commands_need_terrain():
    engine = make_engine("go", 9)
    for line in ("terrain_show", "terrain_generate 3", "terrain_load ...../...../...../...../....."):
        assert "no terrain" in refused(engine, line)


def test_terrain_load_sets_the_size_and_strict_checks_t1():
    engine = make_engine("terrain", 9)
    gtp(engine, "terrain_load .^.../.~.../...../...../.....")
    assert engine.game.size == 5
    assert "T1" in refused(engine, "terrain_load .^.../.~.../...../...../..... strict")
    assert "strict" in refused(engine, "terrain_load .^.../.~.../...../...../..... loose")
    assert gtp(engine, "terrain_show") == ".^.../.~.../...../...../....."


def test_terrain_generate_answers_its_seed_and_is_reproducible():
    engine = make_engine("terrain", 9)
    assert gtp(engine, "terrain_generate 42") == "42"
    first = gtp(engine, "terrain_show")
    seed = gtp(engine, "terrain_generate")                # the engine picks a seed and says which
    chosen = gtp(engine, "terrain_show")
    gtp(engine, f"terrain_generate {seed}")
    assert gtp(engine, "terrain_show") == chosen
    gtp(engine, "terrain_generate 42")
    assert gtp(engine, "terrain_show") == first
    gtp(engine, "terrain_generate 42 mountains=4 water=4 groups=2-2 min_group=2")
    assert gtp(engine, "terrain_show").count("^") == 4


# ----------------------------------------------------------------- showboard and last move
def test_showboard_marks_flips_and_the_last_move():
    engine = make_engine("loose", 5)
    gtp_lines(engine, "play b B3\nplay w B4\nplay w C4\nplay w A3\nplay w B2\nplay w C2\nplay w D3")
    text = gtp(engine, "showboard")
    assert "  3 O o .(O). 3" in text.split("\n")
    assert "x o flipped by the last move" in text
    assert gtp(engine, "last_move_info") == "flipped B3"


# ----------------------------------------------------------------- time
def test_time_settings_are_stored_and_bad_ones_refused():
    engine = make_engine()
    gtp(engine, "time_settings 600 30 5")
    assert (engine.time_control.system, engine.time_control.main_time) == ("canadian", 600)
    gtp(engine, "time_left white 120.5 3")
    assert engine.time_left[Color.WHITE].seconds == 120.5
    gtp(engine, "kgs-time_settings byoyomi 300 30 5")
    assert (engine.time_control.system, engine.time_control.periods) == ("byoyomi", 5)
    before = engine.time_control
    for line in ("time_settings 1 2", "time_settings a 0 0", "kgs-time_settings absolute",
                 "kgs-time_settings fischer 1 2", "time_left red 1 0"):
        refused(engine, line)
    assert engine.time_control == before


@pytest.mark.parametrize("line, message", [
    ("time_left b -5 0", "time left must be at least 0, not '-5'"),
    ("time_left w 10 -1", "stones must be at least 0, not '-1'"),
    ("kgs-time_settings canadian 10 5 0",
     "canadian needs both a period time and byo-yomi stones above 0, or neither (got 5 seconds and 0)"),
    ("kgs-time_settings canadian 10 0 5",
     "canadian needs both a period time and byo-yomi stones above 0, or neither (got 0 seconds and 5)"),
    ("kgs-time_settings byoyomi 10 30 0",
     "byoyomi needs both a period time and periods above 0, or neither (got 30 seconds and 0)"),
    ("time_settings 10 0 5", "byo-yomi of 5 stones needs a byo-yomi time above 0"),
])
def test_impossible_clocks_are_refused_and_change_nothing(line, message):
    engine = make_engine()
    gtp(engine, "time_settings 600 30 5")
    gtp(engine, "time_left b 100 0")
    before = engine.time_control, dict(engine.time_left)
    assert refused(engine, line) == message
    assert (engine.time_control, engine.time_left) == before


# ----------------------------------------------------------------- the error contract
def test_an_internal_error_is_reported_and_rolls_everything_back(capsys):
    table = CommandTable("broken")

    @table.command("break")
    def break_(engine, args):
        engine.game.play(Color.BLACK, (0, 0))
        engine.game.set_komi(0.5)
        engine.rng.random()
        raise RuntimeError("Boom")

    from gtp_engine.gtp import core
    engine = GtpEngine(Game("go", 9), EngineSettings(), tables=[core.TABLE, table])
    gtp(engine, "play w E5")
    state = engine.rng.getstate()
    success, text = engine.execute("break", [])
    assert not success and text == "internal error: runtimeerror: boom"
    assert "Traceback" in capsys.readouterr().err
    assert [m.point for m in engine.game.moves] == [(4, 4)] and engine.game.komi == 7.5
    assert engine.rng.getstate() == state
    assert engine.execute("name", []) == (True, "vargo")


def test_engine_errors_pass_through_lowercase():
    engine = make_engine()
    gtp(engine, "play b D4")
    assert refused(engine, "play w D4") == "illegal move: D4 (occupied)"


# ----------------------------------------------------------------- files
def test_printsgf_and_loadsgf_round_trip(tmp_path):
    engine = make_engine("disto", 7, komi=2.5)
    gtp_lines(engine, "play b C3\nplay w D4\nplay b E5\nplay w pass")
    path = tmp_path / "game.sgf"
    assert gtp(engine, f"printsgf {path}") == ""
    assert gtp(engine, "printsgf").startswith("(;")
    other = make_engine("go", 19)
    gtp(other, f"loadsgf {path}")
    assert gtp(other, "variant") == "disto" and other.game.komi == 2.5
    assert board(other) == board(engine) and len(other.game.moves) == 4
    gtp(other, f"loadsgf {path} 3")           # the position before move 3
    assert len(other.game.moves) == 2
    assert "cannot read" in refused(other, f"loadsgf {tmp_path / 'missing.sgf'}")
    assert len(other.game.moves) == 2


def test_false_liberties_gfx_in_loose():
    # B1 touches black A1 and C1 and white B2, and no empty point: a false liberty (RULES L1).
    #   2 . O . . .
    #   1 X . X . .
    engine = make_engine("loose", 5)
    gtp_lines(engine, "play b A1\nplay b C1\nplay w B2")
    assert gtp(engine, "vargo-false_liberties").split("\n")[-1] == "COLOR red B1"
    assert gtp(engine, "gogui-rules_board_gfx") == ""       # no terrain, no meals, no flips


def test_terrain_load_reads_back_what_terrain_show_writes():
    engine = make_engine("terrain", 9, seed=2)
    for color, vertex in (("w", "B2"), ("b", "F5"), ("w", "D4"), ("b", "F3")):  # not in reading order
        gtp(engine, f"fort {color} {vertex}")
    shown, forts = gtp(engine, "terrain_show"), gtp(engine, "forts")
    other = make_engine("terrain", 7)
    gtp(other, f"terrain_load {shown}")
    assert gtp(other, "terrain_show") == shown and other.game.size == 9
    assert gtp(other, "forts") == forts                   # placement order too (it was lost)
    from gtp_engine.rules.terrain_map import TerrainMap
    in_reading_order = TerrainMap.forts_in_text(shown.split()[0])
    assert [p for _, p in in_reading_order] != [p for _, p in other.game.forts]  # the case that mattered
    gtp(other, f"terrain_load {shown} strict")            # strict after the pasted answer
    assert gtp(other, "forts") == forts
    assert "are not the forts in the map" in refused(other, "terrain_load .w.../...../...../...../..... b B5")
    assert "colour-vertex pairs" in refused(other, "terrain_load .w.../...../...../...../..... w")
    before = gtp(other, "terrain_show")
    assert "alternately" in refused(other, "terrain_load bb.../...../...../...../.....")
    assert "already placed" in refused(other, "terrain_load wbwbw/...../...../...../.....")
    assert gtp(other, "terrain_show") == before


def test_printsgf_view_form_shows_the_true_board_to_go_viewers():
    # RULES L2 example: the flipped B3 needs a set-up node in the view form (AW[bc]).
    engine = make_engine("loose", 5)
    gtp_lines(engine, "play b B3\nplay w B4\nplay w C4\nplay w A3\nplay w B2\nplay w C2\nplay w D3")
    record, view = gtp(engine, "printsgf"), gtp(engine, "printsgf - view")
    assert "AW[bc]" in view and "AW[bc]" not in record
    assert "only be 'view'" in refused(engine, "printsgf - raw")


def test_printsgf_keeps_a_loaded_files_other_properties_until_a_new_game(tmp_path):
    """A loaded record is written back with what we do not manage (players, event, comments,
    unknown properties) while the game continues it; clear_board starts a game of our own."""
    path = tmp_path / "in.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[9]KM[7.5]PB[Ann]PW[Bob]EV[Club night]XX[custom]"
                     b";B[ee]C[a good start];W[dd])")
    engine = make_engine("go", 9)
    gtp(engine, f"loadsgf {path}")
    gtp(engine, "play b C3")
    written = gtp(engine, "printsgf")
    for kept in ("PB[Ann]", "PW[Bob]", "EV[Club night]", "XX[custom]", "C[a good start]", "B[cg]"):
        assert kept in written, kept
    refused(engine, "play b C3")                        # a failed command keeps the record
    assert "XX[custom]" in gtp(engine, "printsgf")
    gtp(engine, "clear_board")
    assert "XX[custom]" not in gtp(engine, "printsgf") and "PB[Ann]" not in gtp(engine, "printsgf")


@pytest.mark.parametrize("command,message", [
    ("terrain_load ^^^^^/^^^^^/^^^^^/^^^^^/^^^^^",
     "map has 0 plain points, too few for 2 forts (T2): the game could never start"),
    ("terrain_load ........./........./........./........./........./........./........./"
     "........./......... forts=1000",
     "map has 81 plain points, too few for 2000 forts (T2): the game could never start"),
    ("terrain_load ^^^^^/^^^^^/^^^^^/^^^^./^^^^. forts=1", None),    # just room enough
])
def test_terrain_load_refuses_a_map_whose_forts_can_never_be_placed(command, message):
    """Without ``strict`` a map need not follow T1, but its forts must fit (T2): a map that
    leaves them no room would refuse every move for ever. It is refused and nothing changes, as
    ``terrain_generate`` refuses settings that leave no room for the forts."""
    engine = make_engine("terrain", 7, fort_playouts=0)
    gtp(engine, "terrain_load ......./......./......./......./......./......./.......")
    gtp(engine, "fort w D4")
    before = (gtp(engine, "terrain_show"), gtp(engine, "forts"), engine.game.size)
    if message is None:  # accepted, and the forts can all be placed
        gtp(engine, command)
        gtp(engine, "fort w E2")
        gtp(engine, "fort b E1")
        gtp(engine, "play b pass")
        return
    assert refused(engine, command) == message
    assert (gtp(engine, "terrain_show"), gtp(engine, "forts"), engine.game.size) == before
    assert "forts need" in refused(engine, "terrain_generate forts=1000")


def test_terrain_load_takes_the_fort_count_and_value():
    """A set-up with other forts than the size's (T2, T7) reaches an engine whole: the match
    runner sends ``terrain_load MAP forts=N fort_value=N``."""
    engine = make_engine("terrain", 9, fort_playouts=0)
    gtp(engine, "terrain_load ........./........./........./........./........./"
                "........./........./........./......... forts=3 fort_value=12")
    assert (engine.game.forts_per_side, engine.game.fort_value) == (3, 12)
    for color in "wbwbwb":
        gtp(engine, f"genfort {color}")
    assert engine.game.fort_turn is None and len(engine.game.forts) == 6
    before = gtp(engine, "terrain_show")
    assert "forts=N and fort_value=N" in refused(engine, "terrain_load ...../...../...../...../..... water=3")
    assert "fort_value needs a whole number" in refused(engine, "terrain_load ...../...../...../...../..... fort_value=x")
    assert gtp(engine, "terrain_show") == before
