"""Input the engine must refuse, over the whole dispatch table: numbers that only Python reads
(``7_5``, other scripts' digits), arguments a command does not take, huge arguments (quoted back
briefly), and files that are not regular files (``printsgf /dev/stdout``). Every refusal is an
error that changes nothing."""

import os
import subprocess
import sys

import pytest

from gtp_engine.errors import quote, quote_path
from gtp_engine.game import Game
from gtp_engine.gtp import EngineSettings, GtpEngine, GtpError, GtpQuit

MEGABYTE = 1 << 20


def make_engine(variant="go", size=9, **settings):
    return GtpEngine(Game(variant, size), EngineSettings(**settings))


def state(engine):
    """Everything a command could change, in comparable form."""
    game = engine.game
    return (game.rules.name, game.size, game.komi, game.position.rows(), list(game.moves),
            game.to_move, list(game.forts), engine.time_control, dict(engine.time_left),
            engine.rng.getstate())


def refused(engine, name, args):
    """The refusal's message; asserts that the command failed and changed nothing."""
    before = state(engine)
    with pytest.raises(GtpError) as err:
        engine.run_command(name, args)
    assert state(engine) == before
    return str(err.value)


# ----------------------------------------------------------------- the whole table
def _engine_for(name):
    """An engine in which ``VALID[name]`` succeeds."""
    if name in ("fort", "genfort"):                     # forts pending; by the heuristic (fast)
        return make_engine("terrain", 9, fort_playouts=0)
    if name in ("terrain_generate", "terrain_load", "terrain_show", "forts"):
        engine = make_engine("terrain", 9, forts_auto=True, fort_playouts=0)
        engine.run_command("terrain_generate", ["3"])
        return engine
    engine = make_engine("go", 9)
    if name in ("undo", "last_move_info"):
        engine.run_command("play", ["b", "E5"])
    return engine


#: One valid call per command (arguments after the name). The test below checks that this
#: covers the whole dispatch table, so a new command must say here what it takes.
VALID = {
    "boardsize": ["9"], "clear_board": [], "cputime": [], "fair_komi": None,
    "final_score": [], "final_status_list": ["dead"], "fixed_handicap": ["2"],
    "get_random_seed": [], "set_random_seed": ["7"],
    "fort": ["w", "C3"], "forts": [], "genfort": ["w"], "genmove": ["b"],
    "gogui-analyze_commands": [], "gogui-interrupt": [], "gogui-rules_board": [],
    "gogui-rules_board_gfx": [],
    "gogui-rules_board_size": [], "gogui-rules_captured_count": [],
    "gogui-rules_final_result": [], "gogui-rules_game_id": [], "gogui-rules_legal_moves": [],
    "gogui-rules_side_to_move": [], "get_komi": [], "kgs-genmove_cleanup": ["b"],
    "kgs-time_settings": ["none"], "known_command": ["play"], "komi": ["6.5"],
    "last_move_info": [], "list_commands": [], "list_variants": [], "loadsgf": "FILE",
    "name": [], "place_free_handicap": ["2"], "play": ["b", "D4"], "printsgf": ["-", "view"],
    "protocol_version": [], "quit": [], "reg_genmove": ["b"], "set_free_handicap": ["C3", "G7"],
    "showboard": [], "terrain_generate": ["5", "mountains=6"],
    "terrain_load": ["/".join(["........."] * 9)], "terrain_show": [],
    "time_left": ["b", "30", "0"], "time_settings": ["300", "30", "5"], "undo": [],
    "vargo-false_liberties": [], "vargo-meals": [], "vargo-score": [], "variant": ["go"], "version": [],
    "lz-analyze": ["b", "10"], "kata-analyze": ["b", "10", "ownership", "true"],
    "lz-genmove_analyze": ["b", "10"], "kata-genmove_analyze": ["w", "interval", "10"],
    "vargo-ownership": ["b"], "vargo-best_moves": ["b", "visits"], "vargo-pv": ["w"],
    "vargo-param": ["playouts", "400"], "vargo-compile_progress": [],
}


def test_the_table_of_valid_calls_covers_every_command():
    assert sorted(VALID) == make_engine().command_names()


# ----------------------------------------------------------------- huge arguments
def test_quote_cuts_long_inputs_and_says_how_long():
    assert quote("D4") == "'D4'"
    long = quote("x" * MEGABYTE)
    assert len(long) < 60 and long.startswith("'xxx") and "...'" in long
    assert f"({MEGABYTE} characters)" in long


@pytest.mark.parametrize("name", sorted(VALID))
def test_a_megabyte_argument_is_quoted_back_briefly(name):
    huge = "x" * MEGABYTE
    for variant in ("go", "terrain"):
        engine = make_engine(variant)
        for position in range(3):
            for filler in ("b", "1", "none", "-"):
                args = [filler] * position + [huge]
                try:
                    answer = engine.run_command(name, args)
                except GtpError as err:
                    assert len(str(err)) < 300, (name, args[:-1], str(err)[:300])
                except GtpQuit as stop:
                    assert stop.text == ""
                else:
                    assert len(answer) < 1000 and huge not in answer, name


def test_a_megabyte_command_name_or_argument_over_the_wire_answers_briefly():
    huge = "y" * MEGABYTE
    commands = f"{huge}\nkomi {huge}\nterrain_generate mountains=9{'9' * MEGABYTE}\nname\n"
    result = subprocess.run([sys.executable, "-m", "gtp_engine", "--variant", "terrain", "--size", "9"],
                            input=commands.encode(), capture_output=True)
    blocks = result.stdout.decode().split("\n\n")[:-1]
    assert [b[0] for b in blocks] == ["?", "?", "?", "="]
    assert all(len(b) < 300 for b in blocks), [b[:100] for b in blocks]
    assert "internal error" not in result.stdout.decode()
    assert f"unknown command: {quote(huge)}" in blocks[0]


@pytest.mark.parametrize("option", ["--variant", "--size", "--komi", "--seed", "--log-level",
                                    "--forts", "--setup", "--resign", "--search-param",
                                    "--frobnicate"])
def test_a_long_command_line_argument_is_quoted_back_briefly(option):
    huge = "x" * 100_000                        # an argv word may not exceed 128 KB on Linux
    result = subprocess.run([sys.executable, "-m", "gtp_engine", option, huge],
                            input=b"name\n", capture_output=True)
    assert result.returncode == 2 and result.stdout == b""
    stderr = result.stderr.decode()
    assert "x" * 100 not in stderr and " characters)" in stderr and len(stderr) < 2000


# ----------------------------------------------------------------- numbers
@pytest.mark.parametrize("text", [
    "7_5",                 # Python: 75.0
    "\u0667.\u0665",       # Arabic-Indic 7.5: Python reads it
    "\uff17",              # fullwidth 7
    "7.5\u00a0",           # trailing no-break space: Python strips it
    "inf", "nan", "-inf", "infinity",
    "0x10", "1e", "e5", ".", "+", "7.5.5", "١e2",
])
def test_komi_refuses_what_only_python_reads_as_a_number(text):
    engine = make_engine()
    message = refused(engine, "komi", [text])
    assert message == f"komi must be a decimal number such as 6.5 (digits 0-9), not {quote(text)}"


@pytest.mark.parametrize("text, value", [
    ("6.5", 6.5), ("-2", -2), ("+0.5", 0.5), (".5", 0.5), ("7.", 7), ("75e-1", 7.5), ("0", 0),
])
def test_komi_takes_plain_decimals(text, value):
    engine = make_engine()
    engine.run_command("komi", [text])
    assert engine.game.komi == value


def test_komi_too_large_for_a_float_is_refused_not_infinite():
    engine = make_engine()
    assert "too large" in refused(engine, "komi", ["1e999"])
    assert "too large" in refused(engine, "komi", ["1" * 400])
    # a finite float whose integer value has 309 digits: named briefly, not digit by digit
    assert refused(engine, "komi", ["1e308"]) == \
        "komi must be a finite number of reasonable size, not 1e+308"


@pytest.mark.parametrize("line", [
    "boardsize \u0669",                      # Arabic-Indic 9
    "boardsize 1_9",
    "boardsize \uff19",
    "fixed_handicap \u0663",
    "time_settings 300 30 \u0665",
    "time_settings 3_00 30 5",
    "time_left b 1_20 0",
    "kgs-time_settings absolute \u0661\u0660",
    "terrain_generate \u0667",
    "terrain_generate 7 mountains=1_0",
    "terrain_generate 7 mountains=\u0663",
    "loadsgf game.sgf 1_0",
    "play b D\u0664",
])
def test_integers_and_vertices_take_ascii_digits_only(line):
    name, *args = line.split(" ")
    engine = make_engine("terrain" if name.startswith("terrain") else "go")
    message = refused(engine, name, args)
    bad = next(a for a in args if not a.isascii() or "_" in a)
    assert quote(bad) in message or quote(bad.partition("=")[2]) in message


def test_an_integer_of_many_digits_is_refused_with_a_short_message():
    engine = make_engine()
    message = refused(engine, "boardsize", ["9" * 5000])   # int() itself refuses > 4300 digits
    assert message.startswith("board size is too large") and len(message) < 120


def test_command_line_komi_is_read_the_same_way():
    for text in ("7_5", "\u0667.\u0665", "nan"):
        result = subprocess.run([sys.executable, "-m", "gtp_engine", "--komi", text],
                                input=b"name\n", capture_output=True)
        assert result.returncode == 2 and result.stdout == b""
        assert f"must be a finite decimal number such as 6.5, not {quote(text)}" in result.stderr.decode()


# ----------------------------------------------------------------- arguments
@pytest.mark.parametrize("name", sorted(VALID))
def test_every_command_refuses_an_argument_it_does_not_take(name, tmp_path):
    args = VALID[name]
    if args == "FILE":
        path = tmp_path / "game.sgf"
        path.write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc])")
        args = [str(path), "2"]
    if args is None:  # fair_komi: not available until the search player exists
        assert "wrong number of arguments" in refused(make_engine(), name, ["10", "extra"])
        return
    engine = _engine_for(name)
    message = refused(engine, name, args + ["extra"])
    assert "extra" in message                                  # the refusal quotes the input
    if name == "quit":
        with pytest.raises(GtpQuit):
            engine.run_command(name, args)
    else:
        engine.run_command(name, args)                         # the same call without it works


def test_a_command_without_arguments_says_so():
    assert refused(make_engine(), "clear_board", ["x"]) == \
        "wrong number of arguments: expected clear_board (no arguments), got extra 'x'"
    engine = make_engine()
    engine.run_command("play", ["b", "D4"])
    refused(engine, "clear_board", ["x"])
    assert engine.game.moves                                   # the board was not cleared


# ----------------------------------------------------------------- files
def test_printsgf_writes_regular_files_only(tmp_path):
    engine = make_engine()
    engine.run_command("play", ["b", "D4"])
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for target in ["/dev/stdout", "/dev/stderr", "/proc/self/fd/1", "/dev/null", str(fifo),
                   str(tmp_path)]:
        message = refused(engine, "printsgf", [target])
        assert message.startswith(f"cannot write {quote_path(target)}: ")
        assert "not a regular file" in message or "engine's own standard" in message
    good = tmp_path / "game.sgf"
    good.write_text("old content that is longer than the new game " * 100)
    engine.run_command("printsgf", [str(good)])
    assert good.read_text().startswith("(;") and "old content" not in good.read_text()


def test_loadsgf_reads_regular_files_only(tmp_path):
    engine = make_engine()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)                       # opening it to read would wait for a writer forever
    for target in ["/dev/stdin", "/proc/self/fd/0", str(fifo), str(tmp_path)]:
        assert refused(engine, "loadsgf", [target]).startswith(f"cannot read {quote_path(target)}: ")


def run_engine(commands: str, **kwargs):
    return subprocess.run([sys.executable, "-m", "gtp_engine", "--size", "9"],
                          input=commands.encode(), **kwargs)


def test_printsgf_never_puts_sgf_on_stdout_outside_a_response():
    result = run_engine("play b D4\nprintsgf /dev/stdout\nprintsgf /proc/self/fd/1\n"
                        "printsgf /dev/stderr\nloadsgf /dev/stdin\nname\n", capture_output=True)
    out = result.stdout.decode()
    blocks = out.split("\n\n")[:-1]
    assert [b[0] for b in blocks] == ["=", "?", "?", "?", "?", "="]   # name still read: stdin intact
    assert "(;" not in out and "(;" not in result.stderr.decode()


def test_printsgf_refuses_the_file_that_is_our_redirected_stdout(tmp_path):
    out_path = tmp_path / "out.txt"
    with open(out_path, "wb") as out:
        run_engine(f"printsgf {out_path}\nname\n", stdout=out, stderr=subprocess.PIPE)
    text = out_path.read_text()
    assert "(;" not in text
    assert "it is the engine's own standard input, output or error" in text
    assert text.endswith("= vargo\n\n")
