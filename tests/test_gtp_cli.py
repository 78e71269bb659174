"""The command line, through real processes: options, exit codes, determinism of the set-up
(GoGui's ruler is a second process with the same command line), stdout holding only GTP."""

import subprocess
import sys

import pytest

from gtp_engine.game import Game
from gtp_engine.gtp import GtpEngine


def run_engine(args, commands: str = ""):
    return subprocess.run([sys.executable, "-m", "gtp_engine", *args], input=commands.encode(),
                          capture_output=True)


def answers(args, commands: str):
    """The answers' texts (without ``= ``), asserting every command succeeded."""
    result = run_engine(args, commands)
    assert result.returncode == 0, result.stderr.decode()
    blocks = result.stdout.decode().split("\n\n")[:-1]
    assert all(b.startswith("=") for b in blocks), blocks
    return [b[1:].strip() for b in blocks]


class GtpProcess:
    """An engine process driven one command at a time (as GoGui drives its ruler)."""

    def __init__(self, args):
        self.process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(self, command: str) -> str:
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline().decode()
            assert line, "the engine died"
            if line == "\n":
                break
            lines.append(line)
        text = "".join(lines)
        assert text.startswith("= "[: 1]), f"{command}: {text}"
        return text[1:].strip()

    def close(self) -> int:
        self.process.stdin.close()
        return self.process.wait()


@pytest.mark.parametrize("args, message", [
    (["--size", "30"], "board size from 2 to 25"),
    (["--komi", "nan"], "finite"),
    (["--komi", "inf"], "finite"),
    (["--seed", "-1"], "non-negative"),
    (["--playouts", "0"], "positive"),
    (["--forts", "D4,"], "vertices like"),
    (["--setup", "/nonexistent/file.sgf"], "cannot read"),
    (["--log-level", "loud"], "invalid choice"),
    (["--frobnicate"], "unrecognized"),
    (["--variant", "chess"], "unknown variant: 'chess'"),
    (["--variant", "loose", "--size", "10"], "loose needs an odd board size, not 10"),
    (["--variant", "loose", "--komi", "5"], "loose komi must be an even integer, not 5"),
    (["--variant", "go", "--forts", "D4"], "--forts needs terrain"),
    (["--variant", "terrain", "--size", "9", "--forts", "G7"], "plain"),
])
def test_bad_options_exit_with_code_2_and_a_message(args, message):
    result = run_engine(args, "name\n")
    assert result.returncode == 2
    assert message in result.stderr.decode()
    # nothing answered: a frontend sees an engine that failed to start, not one that dies later
    assert result.stdout == b""


def test_name_version_and_quit():
    assert answers([], "name\nversion\nquit\nname\n") == ["vargo", "0.1.0", ""]


def test_options_set_the_game():
    assert answers(["--variant", "disto", "--size", "7", "--komi", "2.5"],
                   "variant\ngogui-rules_board_size\ngogui-rules_final_result\n") == [
        "disto", "7", "W+2.5: black 0, white 2.5 (komi 2.5)"]


def test_forts_auto_is_deterministic_for_a_seed():
    """In process (the same in every process: test_fort_search.py runs two)."""
    from gtp_engine.cli import build_game, parse_options

    def forts(*extra):
        game = build_game(parse_options(["--variant", "terrain", "--size", "9", "--forts", "auto",
                                         "--playouts", "100", *extra]))   # 100 a candidate
        return game.forts, game.terrain
    first = forts("--seed", "3")
    assert first == forts("--seed", "3")
    assert len(first[0]) == 4                                        # 2 forts each on 9x9
    assert first[0] != forts("--seed", "4")[0]
    assert forts("--seed", "3", "--terrain-seed", "1") != first


def test_forts_list_is_placed_white_first():
    # terrain seed 0 on 9x9 leaves C3, H8, B2 and J1 plain
    args = ["--variant", "terrain", "--size", "9", "--forts", "C3,H8,B2,J1"]
    assert answers(args, "forts\n") == ["w C3 b H8 w B2 b J1"]


def test_setup_file_gives_map_forts_and_komi(tmp_path):
    from gtp_engine.rules.terrain_map import TerrainMap
    game = Game("terrain", 5, komi=3.5, terrain=TerrainMap.from_text("..^^./.~~../...../...../....~"))
    engine = GtpEngine(game)
    for line in ("fort w A1", "fort b E4", "play b C3"):
        engine.run_command(line.split()[0], line.split()[1:])
    path = tmp_path / "setup.sgf"
    engine.run_command("printsgf", [str(path)])
    got = answers(["--setup", str(path)], "variant\nforts\nterrain_show\ngogui-rules_final_result\n"
                  "gogui-rules_board\n")
    assert got[:3] == ["terrain", "w A1 b E4", "..^^./.~~.b/...../...../w...~ w A1 b E4"]
    assert got[3].startswith("W+3.5")                           # komi 3.5, no stone: moves not played
    assert "X" not in got[4]
    assert answers(["--setup", str(path), "--komi", "0.5"], "gogui-rules_final_result\n")[0].startswith("W+0.5")
    bad = run_engine(["--setup", str(path), "--variant", "go"], "name\n")
    assert bad.returncode == 2 and "does not match" in bad.stderr.decode()


def test_ruler_and_player_processes_agree_the_way_gogui_uses_them():
    """GoGui starts the ruler with the player's command line, never sends it boardsize, komi or
    set-up, and after each move sends clear_board and the whole game again."""
    args = ["--variant", "terrain", "--size", "9", "--forts", "auto", "--seed", "2",
            "--playouts", "100", "--threads", "1"]
    player, ruler = GtpProcess(args), GtpProcess(args)
    try:
        assert ruler.send("gogui-rules_game_id") == "Terrain"
        moves = []
        for turn in range(16):
            color = "bw"[turn % 2]
            move = player.send(f"genmove {color}")
            assert move in ruler.send("gogui-rules_legal_moves").split()
            moves.append(f"play {color} {move}")
            ruler.send("clear_board")
            for played in moves:
                ruler.send(played)
            assert ruler.send("gogui-rules_board") == player.send("gogui-rules_board")
            assert ruler.send("gogui-rules_side_to_move") == player.send("gogui-rules_side_to_move")
        assert ruler.send("forts") == player.send("forts")
    finally:
        assert player.close() == 0 and ruler.close() == 0


def test_stdout_holds_only_gtp_even_with_debug_logs():
    result = run_engine(["--variant", "goncrete", "--size", "7", "--log-level", "debug"],
                        "play b A1\nplay w A1\ngenmove b\ngenmove w\nshowboard\nprintsgf\nquit\n")
    assert result.returncode == 0
    blocks = result.stdout.decode().split("\n\n")
    assert blocks[-1] == "" and len(blocks) == 8
    assert [b[0] for b in blocks[:-1]] == ["=", "?", "=", "=", "=", "=", "="]


def test_search_params_from_the_command_line_reach_the_search():
    from gtp_engine.cli import parse_options
    options = parse_options(["--search-param", "heavy=0", "--search-param", "rave_equiv=100"])
    settings = options.engine_settings().search_settings()
    assert dict(settings.overrides) == {"heavy": 0.0, "rave_equiv": 100.0}
    result = run_engine(["--search-param", "nonsense=1"], "name\n")
    assert result.returncode == 2 and b"nonsense=1" in result.stderr


@pytest.mark.parametrize("setting, message", [
    ("rave_equiv=-1", "search parameter rave_equiv must be a number from 1 to 1e+09, not -1"),
    ("prob_capture=-5", "search parameter prob_capture must be a whole number from 0 to 1000, not -5"),
    ("heavy=7", "search parameter heavy must be a whole number from 0 to 1, not 7"),
    ("max_moves=-1", "search parameter max_moves must be a whole number from 1 to 100000, not -1"),
    ("max_moves=2.5", "search parameter max_moves must be a whole number from 1 to 100000, not 2.5"),
    ("prior_even=-3", "search parameter prior_even must be a number from 0 to 1e+06, not -3"),
])
def test_search_params_out_of_their_range_are_refused(setting, message, capsys):
    from gtp_engine.cli import build_parser
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["--search-param", setting])
    assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_threads_beyond_what_a_session_may_use_are_refused(capsys):
    from gtp_engine.cli import build_parser
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--threads", "100000"])
    assert "--threads: must be from 1 to 256, not '100000'" in capsys.readouterr().err
    assert build_parser().parse_args(["--threads", "256"]).threads == 256


def test_every_search_param_has_a_stated_range_that_holds_its_default():
    from gtp_engine.search import params
    assert set(params.RANGES) == set(params.TUNABLES)
    defaults = params.make_params(Game("go", 19, None))
    K = params.K
    for name in params.TUNABLES:
        if name in params.PLAYER_TUNABLES:
            params.check_tunable(name, params.PLAYER_TUNABLES[name])
        elif name in params.DERIVED_TUNABLES:
            params.check_tunable(name, params.DERIVED_TUNABLES[name])
        else:
            params.check_tunable(name, defaults[getattr(K, "P_" + name.upper())])


def test_first_genmove_of_a_new_process_searches_with_the_compiled_kernels():
    """On a warm cache (the session fixture filled it) the engine loads its kernels before it
    answers its first command, so a short genmove sent at once after the set-up searches with
    them, not with the pure-Python mirror that a genmove during the load falls back to."""
    result = run_engine(["--time", "0.05", "--threads", "1", "--no-book"],
                        "boardsize 9\nclear_board\ngenmove b\n")
    assert result.returncode == 0, result.stderr.decode()
    summaries = [line for line in result.stderr.decode().splitlines() if " simulations in " in line]
    assert len(summaries) == 1, result.stderr.decode()
    # (a search by the interim pure-Python kernels says "interim ... compiled ones")
    assert ", compiled, " in summaries[0] and "interim" not in summaries[0], summaries[0]


def test_identity_and_gogui_queries_do_not_wait_for_the_kernels_but_the_set_up_does():
    """At start the engine answers identity and GoGui's queries at once; the first set-up
    command waits for the kernels (once), so that a genmove after it gets its whole time."""
    engine = GtpEngine(Game("go", 9))
    waits = []
    engine.await_kernels = lambda: waits.append(1) or False
    for command in ("name", "protocol_version", "list_commands", "gogui-rules_board_size"):
        assert engine.execute(command, [])[0]
    assert waits == []
    assert engine.execute("boardsize", ["9"])[0]
    assert engine.execute("clear_board", [])[0]
    assert engine.execute("play", ["b", "E5"])[0]
    assert waits == [1]
