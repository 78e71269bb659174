"""A GoGui conversation per game with real processes: the commands GoGui sends to the player
when it attaches, to the ruler (the same command line, started a second time when the game is
not Go) after every move, then every analyze command the player lists, with its wildcards
replaced as GoGui does. Every gfx answer and every live view on the player's stderr is
checked against the syntax GoGui reads (``tests/gogui_gfx.py``).

What GoGui sends is read from its source (``GoGui.attachNewProgram``, ``GenericBoard``,
``AnalyzeCommand.replaceWildCards``, ``ParameterDialog``)."""

import subprocess
import sys
import threading

import pytest

from gogui_gfx import check_analyze_commands, check_gfx, check_param, live_gfx_blocks

GAMES = {"go": 7.5, "loose": 6, "goncrete": 7.5, "disto": 6.5, "terrain": 7.5}
SIZE = 7


class GoGuiProgram:
    """An engine process driven one command at a time, its stderr read in the background (as
    GoGui reads it for live graphics)."""

    def __init__(self, args):
        self.process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.stderr = []
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._reader.start()

    def _read_stderr(self):
        for line in iter(self.process.stderr.readline, b""):
            self.stderr.append(line.decode().rstrip("\n"))

    def ask(self, command: str):
        """(success, text) of one command."""
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline().decode()) != "\n":
            assert line, f"the engine died after {command!r}: {self.stderr[-5:]}"
            lines.append(line)
        text = "".join(lines)
        assert text[0] in "=?", text
        return text[0] == "=", text[1:].strip()

    def send(self, command: str) -> str:
        ok, text = self.ask(command)
        assert ok, f"{command}: {text}"
        return text

    def close(self) -> int:
        self.process.stdin.close()
        code = self.process.wait()
        self._reader.join()
        return code


def attach_as_player(program) -> list:
    """What GoGui sends when a program is attached; returns its analyze commands."""
    assert program.send("name") == "vargo"
    assert program.send("protocol_version") == "2"
    program.send("version")
    supported = program.send("list_commands").split()
    # GoGui enables Interrupt (a '# interrupt' comment line, never a signal) on this
    assert "gogui-interrupt" in supported and "gogui-sigint" not in supported
    assert program.send("gogui-rules_board_size") == str(SIZE)
    return check_analyze_commands(program.send("gogui-analyze_commands"))


def attach_as_ruler(ruler, game_id: str) -> None:
    ruler.send("name")
    ruler.send("protocol_version")
    supported = ruler.send("list_commands").split()
    assert {"gogui-rules_game_id", "gogui-rules_legal_moves", "gogui-rules_side_to_move"} <= set(supported)
    assert ruler.send("gogui-rules_game_id") == game_id
    assert ruler.send("gogui-rules_board_size") == str(SIZE)


def ruler_after_move(ruler, moves, player) -> set:
    """GoGui replays the game to the ruler and reads the board back; returns the legal moves."""
    ruler.send("clear_board")
    for move in moves:
        ruler.send(move)
    side = ruler.send("gogui-rules_side_to_move")
    assert side in ("black", "white")
    legal = ruler.send("gogui-rules_legal_moves").split()
    assert legal and legal[-1] == "pass" and all(v == v.upper() for v in legal[:-1])
    assert ruler.send("gogui-rules_board") == player.send("gogui-rules_board")
    captured = ruler.send("gogui-rules_captured_count").split()
    assert len(captured) == 2 and all(c.isdigit() for c in captured)
    check_gfx(ruler.send("gogui-rules_board_gfx"), SIZE)
    return set(legal)


#: a whole GoGui conversation per game: Terrain Go (a ruler, marks, the map) in the default
#: run; every game's views and rulers are checked in process (test_gogui_views.py,
#: test_gtp_gogui.py)
CONVERSATIONS = [pytest.param(v, marks=[] if v == "terrain" else [pytest.mark.slow])
                 for v in sorted(GAMES)]


@pytest.mark.parametrize("variant", CONVERSATIONS)
def test_gogui_conversation(variant):
    args = ["--variant", variant, "--size", str(SIZE), "--seed", "2", "--playouts", "300",
            "--threads", "1"] + (["--forts", "auto"] if variant == "terrain" else [])
    player = GoGuiProgram(args)
    ruler = None
    try:
        analyze_commands = attach_as_player(player)
        game_id = player.send("gogui-rules_game_id")
        if game_id != "Go":                   # GoGui starts the same command line as ruler
            ruler = GoGuiProgram(args)
            attach_as_ruler(ruler, game_id)
            check_gfx(ruler.send("gogui-rules_board_gfx"), SIZE)
        player.send(f"boardsize {SIZE}")
        player.send("clear_board")
        player.send(f"komi {GAMES[variant]}")

        moves = []
        legal = set(player.send("gogui-rules_legal_moves").split())
        for turn in range(4):
            color = "bw"[turn % 2]
            if turn % 2 == 0:                 # the computer's move
                vertex = player.send(f"genmove {color}")
            else:                             # the user clicks a legal point
                vertex = sorted(v for v in legal if v != "pass")[len(legal) // 2]
                player.send(f"play {color} {vertex}")
            assert vertex.upper() in legal or vertex == "pass"
            moves.append(f"play {color} {vertex}")
            legal = ruler_after_move(ruler, moves, player) if ruler else \
                set(player.send("gogui-rules_legal_moves").split())

        to_move = player.send("gogui-rules_side_to_move")[0]
        for kind, label, command in analyze_commands:
            line = command.replace("%m", to_move)
            assert "%" not in line, f"{label}: a wildcard GoGui would ask the user for"
            ok, answer = player.ask(line)
            assert ok, f"{variant}: the menu lists {label}, which fails: {answer}"
            if kind == "gfx":
                drawn = dict(check_gfx(answer, SIZE))
                if line.startswith(("vargo-ownership", "vargo-best_moves", "vargo-pv")):
                    assert "TEXT" in drawn, (line, answer)
            elif kind == "param":
                params = {key: value for _, key, value in check_param(answer)}
                assert params["playouts"] == "300"
                assert player.send(f"{line} playouts 400") == ""   # the dialog's OK
                assert "[string] playouts 400" in player.send(line).split("\n")
        if ruler:
            assert ruler.send("gogui-rules_final_result")[0] in "BW0"
    finally:
        assert player.close() == 0
        if ruler:
            assert ruler.close() == 0
    blocks = live_gfx_blocks(player.stderr)
    assert "CLEAR" in blocks                  # GoGui asked gogui-analyze_commands: live view on
    for block in blocks:
        check_gfx(block, SIZE)
    if ruler:
        assert "gogui-gfx" not in "\n".join(ruler.stderr)
