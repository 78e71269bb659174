"""Fuzzing the server with random and malformed lines.

After every line: the engine still answers; the answer is a well-formed GTP response; no
answer is an internal error; and a refused command left everything as it was (board, move
history, SGF record, komi, rules, size, map, forts, set-up stones, time settings).

Most of it runs in process through ``execute`` (fast); one test streams junk through the real
stdin/stdout of ``python -m gtp_engine``. ``-m slow`` runs much longer sequences.
"""

import os
import random
import re
import subprocess
import sys

import pytest

from gtp_engine.game import Game
from gtp_engine.gtp import EngineSettings, GtpEngine, format_response, parse_line

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = """protocol_version name version known_command list_commands boardsize clear_board
    komi play genmove undo showboard final_score final_status_list time_settings time_left
    reg_genmove fixed_handicap place_free_handicap set_free_handicap printsgf kgs-time_settings
    kgs-genmove_cleanup cputime variant list_variants fair_komi terrain_generate terrain_load
    terrain_show fort genfort forts last_move_info gogui-rules_game_id gogui-rules_board
    gogui-rules_board_size gogui-rules_legal_moves gogui-rules_side_to_move
    gogui-rules_final_result gogui-rules_captured_count gogui-rules_board_gfx
    gogui-analyze_commands vargo-false_liberties vargo-meals loadsgf""".split()
NUMBERS = ["0", "1", "-3", "26", "2", "5", "7", "9", "19", "25", "3.5", "-0.5", "nan", "inf",
           "-inf", "1e999", "99999999999999999999999", "0x10", "", "+4", "6", "7.5", "1e3"]
COLORS = ["b", "w", "black", "WHITE", "B", "x", "", "bw", "0"]
JUNK = ["\x00", "\x01\x02", "\x7f", "\xff", "é", "\t", "\r", "#", "=", "?", "\u2603", "\\", "'"]
SIZES = ["0", "1", "26", "-3", "5", "7", "9", "4", "3", "25", "19", "x"]
WORDS = ["", "strict", "auto", "pass", "PASS", "resign", "alive", "dead", "seki", "none",
         "absolute", "byoyomi", "canadian", "go", "loose", "goncrete", "disto", "terrain", "chess"]


def random_vertex(rng):
    if rng.random() < 0.7:
        return rng.choice("ABCDEFGHJKLMNOPQRSTUVWXYZ") + str(rng.randint(1, 25))
    return rng.choice(["I5", "A0", "Z26", "pass", "a1", "AA1", "1A", "A-1", "A1.5", "A", "A1A",
                       "A" + "9" * 30, "", "\u0661"])


def random_map(rng):
    size = rng.choice([4, 5, 6, 9, 26])
    rows = ["".join(rng.choice(".^~bwx") for _ in range(size + rng.choice([0, 0, 0, 1, -1])))
            for _ in range(size)]
    return "/".join(rows)


def random_terrain_options(rng):
    keys = ["mountains", "water", "groups", "min_group", "forts", "fort_value", "lakes", "x"]
    values = ["0", "1", "4", "60", "999", "-1", "2-4", "5-2", "x", "", "3-3"]
    return [f"{rng.choice(keys)}={rng.choice(values)}" for _ in range(rng.randint(0, 3))]


def random_line(rng, size: int) -> str:
    """A command line, mostly about the current board, often malformed."""
    roll = rng.random()
    if roll < 0.05:
        return "".join(rng.choice(JUNK + ["a", " ", "1"]) for _ in range(rng.randint(1, 12)))
    if roll < 0.10:
        return rng.choice(["frobnicate", "PLAY", "play_", "gogui-rules", "quit2", "-", "9"]) + \
            " " + random_vertex(rng)
    name = rng.choice(COMMANDS)
    if roll < 0.45:  # plausible play, which keeps games going
        name = rng.choice(["play", "play", "play", "genmove", "undo"])
    args = {
        "play": lambda: [rng.choice(COLORS[:5]), random_vertex(rng)],
        "genmove": lambda: [rng.choice(COLORS)],
        "reg_genmove": lambda: [rng.choice(COLORS)],
        "kgs-genmove_cleanup": lambda: [rng.choice(COLORS)],
        "boardsize": lambda: [rng.choice(SIZES)],
        "komi": lambda: [rng.choice(NUMBERS)],
        "variant": lambda: [rng.choice(WORDS[12:])] if rng.random() < 0.8 else [],
        "terrain_generate": lambda: ([rng.choice(NUMBERS)] if rng.random() < 0.7 else [])
        + random_terrain_options(rng),
        "terrain_load": lambda: [random_map(rng)] + ([rng.choice(WORDS)] if rng.random() < 0.5 else []),
        "fort": lambda: [rng.choice(COLORS), random_vertex(rng)],
        "genfort": lambda: [rng.choice(COLORS)],
        "fixed_handicap": lambda: [rng.choice(NUMBERS)],
        "place_free_handicap": lambda: [rng.choice(NUMBERS)],
        "set_free_handicap": lambda: [random_vertex(rng) for _ in range(rng.randint(0, 5))],
        "time_settings": lambda: [rng.choice(NUMBERS) for _ in range(rng.randint(2, 4))],
        "time_left": lambda: [rng.choice(COLORS), rng.choice(NUMBERS), rng.choice(NUMBERS)],
        "kgs-time_settings": lambda: [rng.choice(WORDS)] + [rng.choice(NUMBERS) for _ in range(rng.randint(0, 3))],
        "final_status_list": lambda: [rng.choice(WORDS)],
        "known_command": lambda: [rng.choice(COMMANDS + ["fly"])],
        "loadsgf": lambda: [rng.choice(["/nonexistent.sgf", "/", ""])],
        "printsgf": lambda: [rng.choice(["/nonexistent/dir/x.sgf", "/"])] if rng.random() < 0.1 else [],
    }.get(name, lambda: [rng.choice(WORDS + NUMBERS)] if rng.random() < 0.1 else [])()
    prefix = f"{rng.randint(0, 10**6)} " if rng.random() < 0.3 else ""
    return prefix + " ".join([name] + args)


def snapshot(engine):
    """What a refused command must leave alone, taken cheaply (games share positions)."""
    return (engine.game.copy(), engine.time_control, dict(engine.time_left), engine.settings)


def describe(snap):
    """The snapshot in comparable values: settings, map, forts, set-up, moves, board, SGF."""
    import sgf
    game, time_control, time_left, settings = snap
    return (game.rules.name, game.size, game.komi, game.terrain, tuple(game.forts),
            tuple(game.setup), tuple((m.color, m.point) for m in game.moves),
            tuple(game.position.rows()), sgf.game_to_sgf(game), time_control,
            tuple(sorted(time_left.items())), settings)


RESPONSE = re.compile(r"[=?][0-9]*( [^\n]*)?(\n[^\n]+)*\n\n", re.S)


def fuzz(seed: int, lines: int, variant: str, size: int):
    rng = random.Random(seed)
    engine = GtpEngine(Game(variant, size), EngineSettings(seed=seed, forts_auto=True, playouts=20))
    engine.place_auto_forts()
    refusals = successes = 0
    for _ in range(lines):
        line = random_line(rng, engine.game.size)
        command = parse_line(line)
        if command is None or not command.name:
            continue
        before = snapshot(engine)
        success, text = engine.execute(command.name, command.args)
        assert not text.startswith("internal error"), (line, text)
        assert RESPONSE.fullmatch(format_response(command.id, success, text)), (line, text)
        if success:
            successes += 1
        else:
            refusals += 1
            assert text and not text[0].isupper(), (line, text)      # lowercase messages
            assert describe(snapshot(engine)) == describe(before), line
        if rng.random() < 0.01:
            engine.run_command("clear_board", [])
    return successes, refusals


@pytest.mark.parametrize("seed, variant, size", [
    (1, "go", 9), (2, "loose", 7), (3, "goncrete", 7), (4, "disto", 9), (5, "terrain", 9),
])
def test_fuzz_in_process(seed, variant, size):
    successes, refusals = fuzz(seed, 600, variant, size)
    assert successes > 50 and refusals > 50   # both kinds of answer were exercised


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 20))
def test_fuzz_in_process_long(seed):
    fuzz(seed, 20000, ["go", "loose", "goncrete", "disto", "terrain"][seed % 5], 9)


def test_fuzz_stream_through_a_real_process(tmp_path):
    """Junk bytes, CR, NUL and long lines through stdin: stdout holds exactly one well-formed
    response per command line, in order, ids echoed."""
    rng = random.Random(99)
    lines, expected_ids = [], []
    for index in range(600):
        if rng.random() < 0.1:
            raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))).replace(b"\n", b"")
        elif rng.random() < 0.02:
            raw = b"play b " + b"A" * 100000
        else:
            raw = f"{index} {random_line(rng, 9)}".encode("utf-8", "surrogateescape")
            if rng.random() < 0.1:
                raw += b"\r"
        command = parse_line(raw.decode("utf-8", "surrogateescape"))
        if command is None or command.name == "quit":
            continue
        lines.append(raw)
        expected_ids.append(command.id)
    result = subprocess.run([sys.executable, "-m", "gtp_engine", "--variant", "loose", "--size", "9", "--playouts", "20"],
                            input=b"\n".join(lines) + b"\n", capture_output=True, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": REPO})
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-2000:]
    out = result.stdout.decode("utf-8", "surrogateescape")
    responses = re.findall(r"[=?][0-9]*(?: [^\n]*)?(?:\n[^\n]+)*\n\n", out, re.S)
    assert "".join(responses) == out                          # nothing but responses
    assert len(responses) == len(lines)
    ids = [re.match(r"[=?]([0-9]*)", r).group(1) or None for r in responses]
    assert ids == expected_ids
    assert "internal error" not in out
