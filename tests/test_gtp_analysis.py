"""Analysis streams (``lz-analyze``, ``kata-analyze``, ``*-genmove_analyze``) in every game: the
exact line formats of KataGo and Leela Zero, the background search that the next input line
ends (the engine answers it, its state unchanged), and the refusals. The same streams are read
through Sabaki's own controller in ``tests/node`` (``test_gtp_sabaki.py``)."""

import math
import re

import pytest

from gtp_engine.cli import build_game, parse_options
from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.game import Game
from gtp_engine.gtp import GtpEngine, GtpError
from gtp_engine.gtp.analysis import AnalyzeRequest, info_line, parse_request
from gtp_engine.search.player import Analysis, MoveInfo
from gtp_session import ServedEngine

GAMES = ("go", "loose", "goncrete", "disto", "terrain")
_VERTEX = re.compile(r"[A-HJ-Z][0-9]{1,2}|pass")


def make_engine(variant: str, *extra: str) -> GtpEngine:
    """As the command line builds it (Terrain Go with its forts placed by the engine)."""
    args = ["--variant", variant, "--size", "7", "--threads", "1", "--seed", "3", *extra]
    if variant == "terrain":
        args += ["--forts", "auto"]
    options = parse_options(args)
    return GtpEngine(build_game(options), options.engine_settings())


def central_legal(game, color):
    middle = (game.size - 1) / 2
    return min(game.legal_moves(color), key=lambda p: (abs(p[0] - middle) + abs(p[1] - middle), p))


def opening(engine):
    """Two moves near the centre: Black then White; Black is to move again."""
    game = engine.game
    for color in (Color.BLACK, Color.WHITE):
        game.play(color, central_legal(game, color))


def state(engine):
    game = engine.game
    return (game.history_id, list(game.moves), game.position.zobrist, game.to_move, game.komi,
            engine.settings)


# ----------------------------------------------------------------- reading the lines
def parse_info(line: str, size: int, kata: bool):
    """A report read strictly as KataGo documents it: ``info`` segments of key/value pairs
    ending with ``pv`` and its moves, then (kata) ``rootInfo`` pairs, ``ownership`` and
    ``ownershipStdev`` values. Returns (segments, extras)."""
    tokens = line.split(" ")
    assert tokens[0] == "info" and "" not in tokens, line
    segments, extras, i = [], {}, 0
    while i < len(tokens) and tokens[i] == "info":
        i += 1
        fields = {}
        while tokens[i] != "pv":
            fields[tokens[i]] = tokens[i + 1]
            i += 2
        i += 1
        pv = []
        while i < len(tokens) and _VERTEX.fullmatch(tokens[i]):
            pv.append(tokens[i])
            i += 1
        assert pv and pv[0] == fields["move"], line
        fields["pv"] = pv
        segments.append(fields)
    while i < len(tokens):
        key = tokens[i]
        assert kata and key in ("rootInfo", "ownership", "ownershipStdev"), line
        i += 1
        if key == "rootInfo":
            root = {}
            while i < len(tokens) and tokens[i] not in ("ownership", "ownershipStdev"):
                root[tokens[i]] = tokens[i + 1]
                i += 2
            extras[key] = root
        else:
            values = tokens[i:i + size * size]
            assert len(values) == size * size, line
            extras[key] = [float(v) for v in values]
            assert all("." in v for v in values)
            i += size * size
    for fields in segments:
        for key in ("visits", "winrate", "prior", "lcb", "order"):
            assert key in fields, (key, line)
        if kata:
            for key in ("winrate", "prior", "lcb", "scoreLead", "scoreMean"):
                assert "." in fields[key], (key, fields[key])
                assert math.isfinite(float(fields[key]))
            assert 0 <= float(fields["winrate"]) <= 1 and 0 <= float(fields["prior"]) <= 1
        else:
            for key in ("winrate", "prior", "lcb"):
                assert re.fullmatch(r"[0-9]+", fields[key]) and int(fields[key]) <= 10000
    assert [int(f["order"]) for f in segments] == list(range(len(segments)))
    return segments, extras


def read_stream_lines(served, count: int):
    """The ``=`` line, then ``count`` info lines of an open analysis stream."""
    assert served.read_line() == "="
    return [served.read_line() for _ in range(count)]


def end_stream(served, size: int, kata: bool) -> None:
    """After the next command went out: the stream's last reports, then its end."""
    while (line := served.read_line()) != "":
        parse_info(line, size, kata)


# ----------------------------------------------------------------- arguments
@pytest.mark.parametrize("args, kata, expected", [
    ([], False, AnalyzeRequest(Color.BLACK)),
    (["W"], False, AnalyzeRequest(Color.WHITE)),
    (["b", "50"], False, AnalyzeRequest(Color.BLACK, 0.5)),
    (["25"], True, AnalyzeRequest(Color.BLACK, 0.25)),
    (["white", "interval", "100"], True, AnalyzeRequest(Color.WHITE, 1.0)),
    (["B", "1"], True, AnalyzeRequest(Color.BLACK, 0.05)),          # floor: 5 centiseconds
    (["B", "10", "minmoves", "3", "maxmoves", "5"], False, AnalyzeRequest(Color.BLACK, 0.1, 3, 5)),
    (["B", "10", "ownership", "true", "ownershipStdev", "TRUE", "rootInfo", "1"], True,
     AnalyzeRequest(Color.BLACK, 0.1, ownership=True, ownership_stdev=True, root_info=True)),
    (["B", "10", "ownership", "false"], True, AnalyzeRequest(Color.BLACK, 0.1)),
])
def test_arguments_as_katago_reads_them(args, kata, expected):
    assert parse_request(args, Color.BLACK, kata) == expected


@pytest.mark.parametrize("args, kata, message", [
    (["B", "10", "ownership", "true"], False, "'ownership' is only for kata-analyze"),
    (["B", "10", "avoid", "b", "D4", "1"], True, "'avoid' is not supported"),
    (["B", "10", "ownership"], True, "'ownership' needs a value"),
    (["B", "10", "ownership", "maybe"], True, "ownership must be true or false, not 'maybe'"),
    (["B", "-5"], False, "interval must be at least 0, not '-5'"),
    (["B", "nan"], False, "interval must be a decimal number such as 6.5 (digits 0-9), not 'nan'"),
    (["B", "10", "colour", "b"], False, "unknown analysis option: 'colour'"),
    (["B", "10", "maxmoves", "x"], False, "maxmoves must be an integer (digits 0-9), not 'x'"),
])
def test_bad_arguments_are_refused_with_the_reason(args, kata, message):
    with pytest.raises(GtpError) as err:
        parse_request(args, Color.BLACK, kata)
    assert message in str(err.value)


# ----------------------------------------------------------------- the line formats
def small_analysis(color=Color.BLACK):
    """A 2x2 analysis: B2 well searched (a sure win), a pass, and A1 not yet visited."""
    moves = [MoveInfo((1, 1), 40, 1.0, 0.5, 2.5, [(1, 1), (0, 0), None]),
             MoveInfo(None, 8, 0.25, 0.1, -0.001, [None]),
             MoveInfo((0, 0), 0, 0.5, 0.4, 0.0, [(0, 0)])]
    # ownership per point row*size+col (A1, B1, A2, B2), Black positive
    return Analysis(color, 2, moves, 48, 0.1, [0.5, -0.25, 1.0, 0.0],
                    ownership_stdev=[0.5, 0.25, 0.0, 1.0])


def test_lz_format_is_leela_zeros_ten_thousandths():
    analysis = small_analysis()
    assert info_line(analysis, AnalyzeRequest(Color.BLACK, 0.1), kata=False) == (
        f"info move B2 visits 40 winrate 10000 prior 5000 lcb "
        f"{round(10000 * analysis.moves[0].lcb)} order 0 pv B2 A1 pass "
        f"info move pass visits 8 winrate 2500 prior 1000 lcb "
        f"{round(10000 * analysis.moves[1].lcb)} order 1 pv pass")


def test_kata_format_has_decimal_points_and_scores():
    analysis = small_analysis()
    line = info_line(analysis, AnalyzeRequest(Color.BLACK, 0.1), kata=True)
    # a sure win is 1.000000, never "1" (Sabaki would read that as a Leela Zero 0.01%), and a
    # margin of -0.001 is 0.00, never -0.00
    assert line.startswith("info move B2 visits 40 edgeVisits 40 winrate 1.000000 scoreMean 2.50 "
                           "scoreLead 2.50 prior 0.500000 lcb ")
    assert "info move pass visits 8 edgeVisits 8 winrate 0.250000 scoreMean 0.00 scoreLead 0.00 " \
           "prior 0.100000" in line
    assert line.endswith("order 1 pv pass")


def test_ownership_in_katagos_order_for_the_player_analysed():
    """Top row first (A2 B2, then A1 B1), 1 meaning the player analysed gets the point."""
    request = AnalyzeRequest(Color.BLACK, 0.1, ownership=True, ownership_stdev=True, root_info=True)
    for color, sign in ((Color.BLACK, 1), (Color.WHITE, -1)):
        line = info_line(small_analysis(color), request, kata=True)
        _, extras = parse_info(line, 2, kata=True)
        assert extras["ownership"] == [sign * v for v in (1.0, 0.0, 0.5, -0.25)]
        assert extras["ownershipStdev"] == [0.0, 1.0, 0.5, 0.25]
        assert extras["rootInfo"]["visits"] == "48"
        assert float(extras["rootInfo"]["winrate"]) == pytest.approx((40 * 1.0 + 8 * 0.25) / 48, abs=1e-6)


def test_minmoves_maxmoves_and_nothing_visited():
    analysis = small_analysis()
    three = info_line(analysis, AnalyzeRequest(Color.BLACK, 0.1, min_moves=3), kata=False)
    assert three.count("info move") == 3 and "info move A1 visits 0" in three
    one = info_line(analysis, AnalyzeRequest(Color.BLACK, 0.1, max_moves=1), kata=False)
    assert one.count("info move") == 1
    unvisited = Analysis(Color.BLACK, 2, [MoveInfo((0, 0), 0, 0.5, 1.0, 0.0, [(0, 0)])])
    assert info_line(unvisited, AnalyzeRequest(Color.BLACK, 0.1), kata=True) == ""


def noisy_analysis():
    """The issue's position, in short: the best move well searched, a runner-up that the search
    looked at 100 times with a better average, and moves tried 1 to 4 times whose values are
    noise (one at +22.5 points)."""
    best = MoveInfo((3, 3), 675, 0.439, 0.3, -3.06, [(3, 3)])
    runner_up = MoveInfo((4, 4), 100, 0.47, 0.2, -1.5, [(4, 4)])
    noise = [MoveInfo((0, i), 4 - i, 0.50 + 0.1 * i, 0.1, 22.5 - i, [(0, i)]) for i in range(4)]
    return Analysis(Color.BLACK, 9, [best, runner_up] + noise, 783, 1.0)


@pytest.mark.parametrize("kata", [True, False])
def test_the_position_value_read_as_sabaki_and_lizzie_do_is_the_best_moves(kata):
    """Sabaki reads the largest win rate and score lead among the listed moves, Lizzie the
    first move's: both must be the best move's (675 visits: 0.439 and -3.06)."""
    line = info_line(noisy_analysis(), AnalyzeRequest(Color.BLACK, 0.1), kata=kata)
    moves, _ = parse_info(line, 9, kata=kata)
    assert [m["move"] for m in moves] == ["D4", "E5"]                 # no 1-4 visit noise
    rates = [float(m["winrate"]) / (1 if kata else 10000) for m in moves]
    assert max(rates) == pytest.approx(0.439) and rates[0] == pytest.approx(0.439)
    if kata:
        assert max(float(m["scoreLead"]) for m in moves) == pytest.approx(-3.06)
        assert float(moves[1]["scoreLead"]) == pytest.approx(-3.06)   # capped, not -1.5 raised


def test_minmoves_still_lists_the_little_visited_moves_capped():
    request = AnalyzeRequest(Color.BLACK, 0.1, min_moves=5)
    moves, _ = parse_info(info_line(noisy_analysis(), request, kata=True), 9, kata=True)
    assert [m["visits"] for m in moves] == ["675", "100", "4", "3", "2"]
    assert max(float(m["winrate"]) for m in moves) == pytest.approx(0.439)
    assert max(float(m["scoreLead"]) for m in moves) == pytest.approx(-3.06)


# ----------------------------------------------------------------- streams in every game
@pytest.mark.parametrize("variant", GAMES)
def test_analysis_streams_until_the_next_command_and_changes_nothing(variant):
    engine = make_engine(variant)
    opening(engine)
    before = state(engine)
    size = engine.game.size
    served = ServedEngine(engine)
    try:
        board = served.send("gogui-rules_board")
        served.write("7 kata-analyze b 5 ownership true ownershipStdev true rootInfo true")
        assert served.read_line() == "=7"
        for _ in range(3):
            segments, extras = parse_info(served.read_line(), size, kata=True)
            for fields in segments:
                move = parse_vertex(fields["move"], size)
                assert engine.game.illegal_reason(Color.BLACK, move) is None
                assert int(fields["visits"]) > 0
            assert all(-1 <= v <= 1 for v in extras["ownership"])
            assert all(0 <= v <= 1 for v in extras["ownershipStdev"])
        served.write("gogui-rules_board")
        end_stream(served, size, kata=True)
        assert "\n".join(served.read_response())[1:].strip() == board
        assert engine.background is None and state(engine) == before

        served.write("lz-analyze W 5")
        for line in read_stream_lines(served, 2):
            segments, _ = parse_info(line, size, kata=False)
            assert all(engine.game.illegal_reason(Color.WHITE, parse_vertex(f["move"], size)) is None
                       for f in segments)
        served.write("gogui-rules_side_to_move")
        end_stream(served, size, kata=False)
        assert served.read_response() == ["= black"]
        assert state(engine) == before
    finally:
        served.close()


def test_an_empty_line_ends_a_stream_and_no_interval_means_no_lines():
    engine = make_engine("go")
    served = ServedEngine(engine)
    try:
        served.write("kata-analyze b 5")
        read_stream_lines(served, 1)
        served.write("")                      # KataGo's way to stop without a command
        while served.read_line() != "":
            pass
        served.write("lz-analyze b")          # searches, reports nothing
        assert served.read_line() == "="
        served.write("name")
        assert served.read_line() == ""       # the analysis response ends
        assert served.read_response() == ["= vargo"]
    finally:
        served.close()


@pytest.mark.parametrize("variant", GAMES)
def test_genmove_analyze_plays_its_move_on_our_board(variant):
    engine = make_engine(variant, "--playouts", "300")
    opening(engine)
    moves = len(engine.game.moves)
    served = ServedEngine(engine)
    try:
        served.write("kata-genmove_analyze b 5")
        lines = served.read_response()
        assert lines[0] == "=" and lines[-1].startswith("play ")
        for line in lines[1:-1]:
            parse_info(line, engine.game.size, kata=True)
        vertex = lines[-1].split()[1]
        assert len(engine.game.moves) == moves + 1
        last = engine.game.moves[-1]
        assert last.color == Color.BLACK and format_vertex(last.point) == vertex
        served.write("lz-genmove_analyze w 5")
        lines = served.read_response()
        assert lines[-1] == f"play {format_vertex(engine.game.moves[-1].point)}"
        assert engine.game.moves[-1].color == Color.WHITE
    finally:
        served.close()


def test_genmove_analyze_reports_while_it_thinks():
    engine = make_engine("go", "--playouts", "3000", "--size", "9", "--no-book")
    served = ServedEngine(engine)
    try:
        served.write("lz-genmove_analyze b 5")
        lines = served.read_response()
        assert len(lines) >= 3, lines                 # =, at least one report, play
        for line in lines[1:-1]:
            parse_info(line, 9, kata=False)
    finally:
        served.close()


def test_refused_analysis_changes_nothing():
    engine = make_engine("terrain")
    served = ServedEngine(engine)
    try:
        before = state(engine)
        served.write("kata-analyze b 10 ownership maybe")
        assert served.read_response() == ["? ownership must be true or false, not 'maybe'"]
        served.write("lz-genmove_analyze b 10 ownershipStdev true")
        assert served.read_response() == ["? analysis option 'ownershipStdev' is only for kata-analyze"]
        assert state(engine) == before and engine.background is None
    finally:
        served.close()
    pending = GtpEngine(Game("terrain", 9))            # its forts are not placed yet
    with pytest.raises(GtpError, match="forts are not all placed"):
        pending.run_command("lz-analyze", ["b", "10"])
