"""GoGui's conversations with the engine, as GoGui 1.6 (Remi-Coulom/gogui, ``src/net/sf/gogui/``)
sends them to a player and to a ruler started with the same command line.

Read in GoGui's source, and seen on a GoGui built from that source with every line logged:

- A file on GoGui's command line (``gogui -program P -move 40 game.sgf``) is loaded into GoGui's
  own tree before any program runs (``GoGui.initialize`` -> ``newGameFile`` -> ``loadFile``).
  Then ``attachProgram`` finds the player's game is not Go (``isGtpCompatibleWithGame``) and calls
  ``initGameRuler``: with no ruler attached yet it starts the ruler and calls ``newGame``, which
  replaces the loaded tree with an empty game. Neither process is ever sent the file or any of
  its moves: no ``loadsgf``, no ``play``. GoGui shows an empty board, whatever the engine does.
- *File -> Open* with the ruler attached (``actionOpenFile`` -> ``loadFile``) and then moving in
  the tree (``Game.gotoNode`` -> ``updateBoard``) replay the game to the ruler from the start
  (``GenericBoard.copyBoardState`` -> ``playFromBeginning``: ``clear_board``, then ``play B G7``
  ... in ``Move.toString`` form, upper-case colour letter, ``PASS``), then read the board back
  (``copyRulerBoardState``) and the side to move (``Board.setToMove``). The player is synced by
  ``GtpSynchronizer``: ``boardsize``, ``clear_board``, ``komi`` (the file's), the moves.
- GoGui's komi goes to the player only (``GtpSynchronizer.sendGameInfo``, which also ignores a
  refused ``komi`` without a word); the ruler keeps the komi of its command line. The end-of-game
  dialog shows the ruler's ``gogui-rules_final_result`` (``GoGui.showGameFinished``), the
  analyze command *Final score* the player's ``final_score``.
"""

import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import sgf
from gtp_engine.cli import build_game, parse_options
from gtp_engine.coords import Color, format_vertex
from gtp_engine.game import Game
from gtp_engine.rules import find_rules

README = Path(__file__).resolve().parent.parent / "README.md"
LOOSE_9 = ["--variant", "loose", "--size", "9"]


class GtpProcess:
    """An engine process driven one command at a time, as GoGui's ``GtpClient`` does."""

    def __init__(self, args):
        self.process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)

    def send(self, command: str):
        """``(success, text)`` of one command."""
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline().decode()
            assert line, f"the engine died on {command!r}"
            if line == "\n":
                break
            lines.append(line)
        text = "".join(lines)
        assert text[:1] in "=?", text
        return text[0] == "=", text[1:].strip()

    def ok(self, command: str) -> str:
        success, text = self.send(command)
        assert success, f"{command}: {text}"
        return text

    def close(self):
        """Exit code and stderr, after end of input (GoGui closes the pipe)."""
        self.process.stdin.close()
        stderr = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return self.process.wait(), stderr


def ruler_reads_board(ruler: GtpProcess):
    """``GenericBoard.copyRulerBoardState`` then ``Board.setToMove``: what GoGui reads back after
    every replay."""
    rows = ruler.ok("gogui-rules_board")
    assert ruler.ok("gogui-rules_board_size") == "9"
    captured = ruler.ok("gogui-rules_captured_count")
    return rows, captured, ruler.ok("gogui-rules_side_to_move")


def gogui_move(color: Color, move) -> str:
    """``GtpClientBase.getCommandPlay``: ``play`` and ``Move.toString`` (``B G7``, ``W PASS``)."""
    return f"play {color.letter.upper()} {format_vertex(move).upper()}"


def random_loose_game(moves: int, seed: int):
    """A legal Loose game of ``moves`` moves with a few passes, and its SGF."""
    game, rng = Game("loose", 9), random.Random(seed)
    for number in range(moves):
        color = game.to_move
        legal = game.legal_moves(color)
        game.play(color, None if number in (17, 30) or not legal else rng.choice(legal))
    return game, sgf.game_to_sgf(game)


def test_start_up_with_a_file_on_goguis_command_line_sends_nothing_of_the_file():
    """``gogui -program "vargo --variant loose --size 9" -size 9 -move 40 game.sgf``: the lines
    each process got, in order, from the logged run (GoGui.initialize, attachProgram,
    initGameRuler twice: the second, from attachNewRuler, finds the same game and replays the
    current node, which newGame made the empty root). The engine answers all of it; the board is
    empty because GoGui dropped the file, not because of an answer."""
    player, ruler = GtpProcess(LOOSE_9), GtpProcess(LOOSE_9)
    # player: GoGui.attachProgram (queries, isGtpCompatibleWithGame), then newGame -> initGtp ->
    # GtpSynchronizer.init with GoGui's preference komi (6.5 unless -komi was given)
    for command in ("name", "protocol_version", "version", "list_commands"):
        player.ok(command)
    assert player.ok("gogui-rules_game_id") == "Loose"             # not Go: start a ruler
    player.ok("boardsize 9")
    player.ok("clear_board")
    assert player.send("komi 6.5") == (False, "loose komi must be an even integer, not 6.5")
    # ruler: initGameRuler (querySupportedCommands, getGameId, getBoardParameters), then
    # Board.attachGameRuler and Board.clear -> GenericBoard.playFromBeginning with no move
    assert "gogui-rules_legal_moves" in ruler.ok("list_commands").split("\n")
    assert ruler.ok("gogui-rules_game_id") == "Loose"
    assert ruler.ok("gogui-rules_board_size") == "9"
    for _ in range(2):
        ruler.ok("clear_board")
        rows, captured, _ = ruler_reads_board(ruler)
    assert rows == "\n".join([" ".join(["."] * 9)] * 9) and captured == "0 0"
    # player: the checks of attachProgram and initGameRuler, then the rest of attachProgram
    assert player.ok("gogui-rules_game_id") == player.ok("gogui-rules_game_id") == "Loose"
    assert player.ok("gogui-rules_board_size") == "9"
    player.ok("name")
    player.ok("protocol_version")
    assert "gogui-rules_board_gfx" in player.ok("gogui-analyze_commands")
    player.ok("boardsize 9")
    player.ok("clear_board")
    # ruler: second initGameRuler (attachNewRuler), copyBoardState of the current node (the
    # empty root), then GoGui's views: gfx, legal moves, side to move
    for command in ("name", "protocol_version", "list_commands"):
        ruler.ok(command)
    assert ruler.ok("gogui-rules_game_id") == "Loose"
    for _ in range(2):
        ruler.ok("clear_board")
        assert ruler_reads_board(ruler)[2] == "black"
    assert ruler.ok("gogui-rules_board_gfx") == ""
    assert len(ruler.ok("gogui-rules_legal_moves").split()) == 82  # not over: 81 points and pass
    assert player.close()[0] == 0
    code, _ = ruler.close()
    assert code == 0


def test_file_open_then_go_to_move_replays_the_file_through_the_ruler(tmp_path):
    """What works instead: start GoGui with the program, then *File -> Open* and *Go -> Go to
    Move* 40 (GoGui.loadFile, Game.gotoNode -> GenericBoard.copyBoardState). The ruler's board
    after GoGui's replay is the file's position after 40 moves, and the player synced by
    GtpSynchronizer agrees."""
    full, data = random_loose_game(60, seed=5)
    path = tmp_path / "game.sgf"
    path.write_bytes(data)
    target = sgf.game_from_sgf(data, 41)                          # after 40 moves
    player, ruler = GtpProcess(LOOSE_9), GtpProcess(LOOSE_9)
    # loadFile: initGame -> Board.init -> clear (ruler); GtpSynchronizer.init (player, the
    # file's komi); m_game.init(tree) -> updateBoard at the root (ruler)
    ruler.ok("clear_board")
    ruler_reads_board(ruler)
    player.ok("boardsize 9")
    player.ok("clear_board")
    player.ok(f"komi {target.komi:g}")                         # the file's KM
    ruler.ok("clear_board")
    assert ruler_reads_board(ruler)[2] == "black"
    # Go to Move 40: clear_board, every move from the start in Move.toString form, read back
    ruler.ok("clear_board")
    for record in full.moves[:40]:
        command = gogui_move(record.color, record.point)
        ruler.ok(command)
        player.ok(command)                                  # GtpSynchronizer.play, same form
    rows, captured, to_move = ruler_reads_board(ruler)
    assert rows == "\n".join(" ".join(row) for row in target.position.rows())
    assert to_move == target.to_move.word
    assert captured == "0 0"                                # Loose flips, never removes
    assert player.ok("gogui-rules_board") == rows
    assert player.ok("final_score") == ruler.ok("gogui-rules_final_result").split(":")[0]
    assert any(" PASS" in gogui_move(r.color, r.point) for r in full.moves[:40])
    assert player.close()[0] == 0 and ruler.close()[0] == 0


# ----------------------------------------------------------------- komi (issue 10, item 1)
def test_goncrete_player_and_ruler_agree_only_when_gogui_has_the_engines_komi():
    """GoGui's komi (6.5 unless ``-komi``) reaches the player only; the ruler keeps Goncrete's
    7.5. The end dialog (ruler) and Analyze -> Final score (player) then differ by a point;
    with ``-komi 7.5`` GoGui sends 7.5 and they agree."""
    args = ["--variant", "goncrete", "--size", "5", "--playouts", "300", "--threads", "1"]
    player, ruler = GtpProcess(args), GtpProcess(args)   # final_score's search: a small budget
    player.ok("komi 6.5")                                        # GoGui's default
    ruler.ok("clear_board")
    for command in ("play B C3", "play W PASS", "play B PASS"):
        player.ok(command)
        ruler.ok(command)
    ruler_result = ruler.ok("gogui-rules_final_result").split(":")[0]
    assert ruler_result == "B+17.5"                             # 25 points for Black, komi 7.5
    assert player.ok("final_score") == "B+18.5"
    player.ok("komi 7.5")                                        # gogui ... -komi 7.5
    assert player.ok("final_score") == ruler_result
    player.close()
    ruler.close()


def test_a_refused_komi_is_also_a_warning_on_stderr():
    """GoGui drops a refused ``komi`` silently, so the engine says it where GoGui's GTP shell
    shows it."""
    engine = GtpProcess(LOOSE_9)
    assert engine.send("komi 6.5") == (False, "loose komi must be an even integer, not 6.5")
    assert engine.send("komi 7_5")[0] is False
    engine.ok("komi 2")
    code, stderr = engine.close()
    warnings = [line for line in stderr.splitlines() if "komi refused" in line]
    assert len(warnings) == 2, stderr
    assert "loose komi must be an even integer, not 6.5" in warnings[0]
    default = f"{find_rules('loose').default_komi_for(9):g}"             # Loose 9x9's default
    assert f"keeps komi {default}" in warnings[0] and f"-komi {default}" in warnings[0]
    assert "'7_5'" in warnings[1]


def readme_gogui_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## GoGui\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_readme_gogui_examples_give_gogui_the_engines_komi():
    """Every ``gogui`` command line in README's GoGui section passes ``-komi`` equal to the komi
    the engine's own command line gives the game (the ruler's), and a ``-size`` equal to its size."""
    commands = [line.strip() for line in readme_gogui_section().splitlines()
                if line.strip().startswith("gogui ")]
    assert len(commands) >= 3
    for command in commands:
        words = shlex.split(command.rstrip("\\"))
        options = dict(zip(words[1::2], words[2::2]))
        program = shlex.split(options["-program"])
        assert program[0] == "vargo", command
        game = build_game(parse_options(program[1:] + ["--fort-playouts", "0"]))   # forts: fast
        assert "-komi" in options, command
        assert float(options["-komi"]) == game.komi, command
        assert int(options["-size"]) == game.size, command


def test_readme_names_goguis_rules_menu():
    section = readme_gogui_section()
    assert "*Game → Rules*" in section and "*Ruler* menu" not in section
    assert re.search(r"File → Open", section)
