"""GoGui's views of the search (ownership, best moves, principal variation), its parameter
dialog and the live view on stderr, in process; every answer checked against the gfx syntax
GoGui reads (``tests/gogui_gfx.py``). Pondering (``--ponder``) is here too: like the live
view, it is work the session does around genmove. The whole GoGui conversation with real
processes is in ``test_gogui_session.py``."""

import time

import pytest

from gogui_gfx import check_analyze_commands, check_gfx, check_param, live_gfx_blocks
from gtp_engine.coords import Color, format_vertex
from gtp_engine.gtp import GtpError, gogui_views
from gtp_session import ServedEngine
from test_gtp_analysis import GAMES, make_engine, opening, state


def run(engine, line):
    name, *args = line.split()
    return engine.run_command(name, args)


@pytest.mark.parametrize("variant", GAMES)
def test_views_are_gfx_gogui_reads_and_share_one_search(variant):
    engine = make_engine(variant, "--playouts", "400")
    opening(engine)
    before = state(engine)
    size = engine.game.size
    ownership = check_gfx(run(engine, "vargo-ownership b"), size)
    influence = dict(ownership)["INFLUENCE"]
    assert len(influence) == 2 * size * size            # every point, once
    assert len({influence[i] for i in range(0, len(influence), 2)}) == size * size
    text = dict(ownership)["TEXT"]
    assert text[:2] == ["black", "wins"] and "simulations)" in text[-1]
    searched = engine.view_analysis
    for kind in ("winrate", "visits", "lead"):
        drawn = dict(check_gfx(run(engine, f"vargo-best_moves b {kind}"), size))
        labels = drawn["LABEL"]
        assert labels and len(labels) <= 20
        best = engine.view_analysis[1].moves[0]
        assert labels[0] == format_vertex(best.move)
    pv = dict(check_gfx(run(engine, "vargo-pv b"), size))
    assert pv["VAR"][:2] == ["b", format_vertex(engine.view_analysis[1].moves[0].move)]
    assert engine.view_analysis is searched             # one search for all the views
    assert state(engine) == before


def test_views_follow_the_position_and_the_colour_asked():
    engine = make_engine("go", "--playouts", "200")
    pv = check_gfx(run(engine, "vargo-pv"), 7)
    assert dict(pv)["VAR"][0] == "b"                    # the side to move by default
    assert dict(check_gfx(run(engine, "vargo-pv w"), 7))["VAR"][0] == "w"
    first = engine.view_analysis
    run(engine, "play b D4")
    run(engine, "vargo-ownership")
    assert engine.view_analysis is not first and engine.view_analysis[1].color == Color.WHITE


def test_view_refusals():
    engine = make_engine("go", "--playouts", "100")
    with pytest.raises(GtpError, match="unknown label kind: 'shiny'"):
        run(engine, "vargo-best_moves b shiny")
    with pytest.raises(GtpError, match="invalid color: 'x'"):
        run(engine, "vargo-pv x")


def test_param_dialog_reads_and_sets_the_search_settings():
    engine = make_engine("go")
    params = {key: (kind, value) for kind, key, value in check_param(run(engine, "vargo-param"))}
    # what the search uses: 5000 playouts when neither --playouts nor --time is given
    assert params == {"playouts": ("string", "5000"), "time": ("string", "0"),
                      "threads": ("string", "1"), "resign": ("string", "0"),
                      "ponder": ("bool", "0"), "live_view": ("bool", "0")}
    for line in ("vargo-param playouts 800", "vargo-param time 2.5", "vargo-param threads 2",
                 "vargo-param resign 0.05", "vargo-param ponder 1", "vargo-param live_view 1"):
        assert run(engine, line) == ""
    s = engine.settings
    assert (s.playouts, s.move_time, s.threads, s.resign, s.ponder, s.live_gfx) == \
        (800, 2.5, 2, 0.05, True, True)
    assert engine.player.settings.playouts == 800 and engine.player.settings.threads == 2
    assert "[string] playouts 800" in run(engine, "vargo-param")
    run(engine, "vargo-param playouts 0")               # 0: no fixed count (the time decides)
    assert engine.settings.playouts is None
    assert "[string] playouts 0\n[string] time 2.5" in run(engine, "vargo-param")
    run(engine, "vargo-param time 0")                   # neither: the default count again
    assert "[string] playouts 5000\n[string] time 0" in run(engine, "vargo-param")


def test_param_dialog_shows_the_command_lines_budget():
    assert "[string] playouts 800\n[string] time 0\n" in run(make_engine("go", "--playouts", "800"), "vargo-param")
    assert "[string] playouts 0\n[string] time 3\n" in run(make_engine("go", "--time", "3"), "vargo-param")


@pytest.mark.parametrize("line, message", [
    ("vargo-param playouts many", "playouts must be an integer (digits 0-9), not 'many'"),
    ("vargo-param threads 0", "threads must be from 1 to 256, not '0'"),
    ("vargo-param resign 1.5", "resign must be a win rate below 1 (0: never), not '1.5'"),
    ("vargo-param ponder maybe", "ponder must be 0 or 1, not 'maybe'"),
    ("vargo-param speed 3", "unknown parameter: 'speed'"),
    ("vargo-param playouts", "wrong number of arguments"),
])
def test_bad_parameters_are_refused_and_change_nothing(line, message):
    engine = make_engine("go")
    before = engine.settings
    with pytest.raises(GtpError) as err:
        run(engine, line)
    assert message in str(err.value) and engine.settings == before


def test_analyze_commands_list_the_search_views_and_the_rulers():
    engine = make_engine("disto")
    entries = check_analyze_commands(run(engine, "gogui-analyze_commands"))
    commands = {command.split()[0] for _, _, command in entries}
    assert {"vargo-ownership", "vargo-best_moves", "vargo-pv", "vargo-param",
            "gogui-rules_board_gfx", "vargo-meals", "last_move_info", "final_score"} <= commands
    assert ("param", "Search parameters", "vargo-param") in entries


GAME_ONLY_VIEWS = {"go": set(), "loose": {"gogui-rules_board_gfx", "vargo-false_liberties"},
                   "goncrete": {"gogui-rules_board_gfx"}, "disto": {"gogui-rules_board_gfx", "vargo-meals"},
                   "terrain": {"gogui-rules_board_gfx", "terrain_show", "forts"}}


@pytest.mark.parametrize("variant", sorted(GAME_ONLY_VIEWS))
def test_analyze_commands_are_those_the_game_can_show(variant):
    """A variant's own views appear in that game only, and every listed one answers (no
    "Terrain map" failing in a Go game)."""
    extra = ["--fort-playouts", "0"] if variant == "terrain" else []
    engine = make_engine(variant, "--size", "9", "--playouts", "50", *extra)
    run(engine, "genmove b")
    entries = check_analyze_commands(run(engine, "gogui-analyze_commands"))
    commands = {command.split()[0] for _, _, command in entries}
    every_game_only = set().union(*GAME_ONLY_VIEWS.values())
    assert commands & every_game_only == GAME_ONLY_VIEWS[variant]
    for _, _, command in entries:
        if not command.startswith(("vargo-ownership", "vargo-best_moves", "vargo-pv")):
            run(engine, command.replace("%m", "w"))     # answers without an error


def test_live_view_while_genmove_thinks_only_for_gogui(capsys, monkeypatch):
    monkeypatch.setattr(gogui_views, "LIVE_INTERVAL", 0.0)   # a view at every look, however fast
    # no opening book: its moves come without a search, so without a live view
    engine = make_engine("loose", "--playouts", "3000", "--size", "9", "--quiet", "--no-book")
    run(engine, "genmove b")
    assert "gogui-gfx" not in capsys.readouterr().err   # not for Sabaki and other controllers
    run(engine, "gogui-analyze_commands")               # GoGui asks this when it attaches
    run(engine, "genmove w")
    blocks = live_gfx_blocks(capsys.readouterr().err.split("\n"))
    assert blocks[-1] == "CLEAR" and len(blocks) >= 2
    for block in blocks[:-1]:
        drawn = dict(check_gfx(block, 9))
        assert {"INFLUENCE", "TEXT"} <= set(drawn) and drawn["TEXT"][0] == "thinking:"
    run(engine, "vargo-param live_view 0")
    run(engine, "genmove b")
    assert "gogui-gfx" not in capsys.readouterr().err


# ----------------------------------------------------------------- pondering
def nodes(engine):
    return sum(tree.used for tree in engine.player._trees)


def test_pondering_runs_between_commands_and_any_command_stops_it():
    engine = make_engine("go", "--size", "9", "--playouts", "200", "--ponder", "--quiet")
    served = ServedEngine(engine)
    try:
        served.send("genmove b")
        assert engine.background is not None and engine.background.name == "ponder"
        before = state(engine)
        assert served.send("time_left b 100 0") == ""    # the position stays: pondering goes on
        assert engine.background is not None and state(engine) == before
        served.send("play w pass")
        assert engine.background is None                 # a new position: it waits for genmove
    finally:
        served.close()


def test_pondering_search_is_reused_when_the_expected_reply_comes():
    """After genmove the engine ponders; the reply the search likes best is played; the next
    genmove finds in its tree the visits of that reply's subtree: a few from the last genmove
    (and the view that named the reply) without pondering, many more with it. No opening
    book: its moves are not searched."""
    reused = {}
    for ponder in (False, True):
        engine = make_engine("go", "--size", "9", "--playouts", "300", "--quiet", "--no-book",
                             *(["--ponder"] if ponder else []))
        served = ServedEngine(engine)
        try:
            served.send("genmove b")
            if ponder:
                start = nodes(engine)
                while nodes(engine) < start + 30000:     # let it ponder a while
                    time.sleep(0.05)
            served.send("vargo-best_moves w visits")     # stops pondering, names the reply
            reply = engine.view_analysis[1].best.move
            served.send(f"play w {format_vertex(reply)}")
            served.send("genmove b")
            analysis = engine.last_analysis
            reused[ponder] = analysis.visits - analysis.simulations
        finally:
            served.close()
    assert reused[True] > reused[False] + 300, reused
