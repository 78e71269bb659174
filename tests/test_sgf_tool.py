"""``vargo-sgf`` (``sgf.tool``): check, view and record, with clear errors and exit codes."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gtp_engine.errors import quote_path

from sgf import tool as sgftool
from sgf import SgfRecord, game_from_sgf, game_to_sgf
from test_sgf_roundtrip import random_game, state

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def loose_file(tmp_path):
    game = random_game("loose", 7, seed=3)
    path = tmp_path / "loose.sgf"
    path.write_bytes(game_to_sgf(game))
    return game, path


def test_check_prints_the_game_board_and_score(loose_file, capsys):
    game, path = loose_file
    assert sgftool.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"rules loose, 7x7, komi {game.komi:g}, {len(game.moves)} moves" in out
    for number, row in zip(range(7, 0, -1), game.position.rows()):
        assert f"{number:2d} {' '.join(row)}" in out
    score = game.score()
    assert f"score: black {score.black:g}, white {score.white:g} -> {score.result}" in out


def test_check_shows_the_terrain_map_on_empty_points(tmp_path, capsys):
    game = random_game("terrain", 7, seed=3, moves=0, finish=False)
    path = tmp_path / "terrain.sgf"
    path.write_bytes(game_to_sgf(game))
    assert sgftool.main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    for number, row in zip(range(7, 0, -1), game.terrain.to_text(game.forts).split("/")):
        assert f"{number:2d} {' '.join(row)}" in out


def test_view_and_record_convert_both_ways(loose_file, tmp_path):
    game, path = loose_file
    view, back = tmp_path / "view.sgf", tmp_path / "back.sgf"
    assert sgftool.main(["view", str(path), "-o", str(view)]) == 0
    assert SgfRecord.from_bytes(view.read_bytes()).is_view
    assert sgftool.main(["record", str(view), "-o", str(back)]) == 0
    assert back.read_bytes() == path.read_bytes()
    assert state(game_from_sgf(back.read_bytes())) == state(game)


@pytest.mark.parametrize("content,message", [
    (b"(;SZ[9];B[ee];W[ee])", "vargo-sgf: error: node 2 (move 2): illegal move W[ee]: occupied"),
    (b"not sgf at all", "vargo-sgf: error: cannot parse sgf: no sgf data found"),
])
def test_broken_file_exits_1_with_the_error(tmp_path, capsys, content, message):
    path = tmp_path / "broken.sgf"
    path.write_bytes(content)
    assert sgftool.main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == message


def test_missing_file_and_unwritable_output_are_clear_errors(loose_file, tmp_path, capsys):
    _, path = loose_file
    assert sgftool.main(["check", str(tmp_path / "nope.sgf")]) == 1
    assert "vargo-sgf: error: cannot read" in capsys.readouterr().err
    assert sgftool.main(["view", str(path), "-o", str(tmp_path / "no" / "dir.sgf")]) == 1
    assert "vargo-sgf: error: cannot write" in capsys.readouterr().err


def test_bad_arguments_exit_2():
    with pytest.raises(SystemExit) as exit_info:
        sgftool.main(["view", "file.sgf"])  # -o is required
    assert exit_info.value.code == 2


COMMAND_LINES = {"module": [sys.executable, "-m", "sgf.tool"],
                 "wrapper": [sys.executable, str(ROOT / "scripts" / "sgftool.py")]}


@pytest.mark.parametrize("how", sorted(COMMAND_LINES))
def test_runs_as_a_program_without_traceback(tmp_path, how):
    path = tmp_path / "broken.sgf"
    path.write_bytes(b"(;SZ[9];B[zz])")
    done = subprocess.run([*COMMAND_LINES[how], "check", str(path)], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1
    assert done.stderr.strip() == "vargo-sgf: error: node 1 (move 1): bad move B[zz]: point zz is off the 9x9 board"
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize("kind", ["fifo", "device", "too big"])
def test_check_of_what_is_no_sgf_file_is_refused_without_waiting(tmp_path, kind):
    """A fifo with no writer (which used to block for good) or a device is refused before it is
    read, as loadsgf refuses it; a regular file over the limit without being read whole."""
    path = {"fifo": tmp_path / "fifo", "device": "/dev/zero", "too big": tmp_path / "huge.sgf"}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    if kind == "too big":
        with open(path, "wb") as f:
            f.truncate(16 * 2 ** 20 + 1)                # sparse: no disk space taken
    done = subprocess.run([*COMMAND_LINES["module"], "check", str(path)], capture_output=True,
                          text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    reason = "more than 16 MiB, too big for an sgf file" if kind == "too big" else "not a regular file"
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"vargo-sgf: error: cannot read {quote_path(path)}: {reason}\n"


# ----------------------------------------------------------------- rules a file does not name
def gogui_style(game) -> bytes:
    """Our record as GoGui writes a game it refereed: the same moves, no VR or RU."""
    import re
    return re.sub(rb"(VR|RU)\[[^\]]*\]", b"", game_to_sgf(game))


def test_check_warns_when_the_rules_are_a_guess_and_variant_chooses_them(tmp_path, capsys):
    # Before: a Loose game without VR was replayed as Go without a word.
    game = random_game("loose", 7, seed=3)
    assert any(m.effects and m.effects.flipped for m in game.moves)
    path = tmp_path / "gogui.sgf"
    path.write_bytes(gogui_style(game))
    sgftool.main(["check", str(path)])
    captured = capsys.readouterr()
    assert captured.err == (f"vargo-sgf: warning: {path}: the file names no rules (no VR or RU): "
                            "read as go (choose with --variant)\n")
    assert sgftool.main(["check", "--variant", "loose", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and f"rules loose, 7x7, komi {game.komi:g}, {len(game.moves)} moves" in captured.out
    assert f"-> {game.score().result}" in captured.out


def test_record_with_variant_writes_the_rules_into_the_file(tmp_path, capsys):
    game = random_game("disto", 7, seed=4)
    path, out = tmp_path / "gogui.sgf", tmp_path / "fixed.sgf"
    path.write_bytes(gogui_style(game))
    assert sgftool.main(["record", str(path), "--variant", "disto", "-o", str(out)]) == 0
    assert capsys.readouterr().err == ""
    assert state(game_from_sgf(out.read_bytes())) == state(game)


def test_variant_that_contradicts_vr_or_is_unknown_is_refused(loose_file, capsys):
    _, path = loose_file
    assert sgftool.main(["check", "--variant", "go", str(path)]) == 1
    assert capsys.readouterr().err.strip() == "vargo-sgf: error: node 0: VR[loose] says the game is loose, not go"
    with pytest.raises(SystemExit) as exit_info:
        sgftool.main(["check", "--variant", "chess", str(path)])
    assert exit_info.value.code == 2


def test_only_a_file_naming_none_of_our_games_gets_the_warning(loose_file, tmp_path, capsys):
    _, path = loose_file
    sgftool.main(["check", str(path)])
    assert capsys.readouterr().err == ""
    japanese = tmp_path / "kgs.sgf"
    japanese.write_bytes(b"(;GM[1]SZ[9]RU[Japanese];B[ee])")
    sgftool.main(["check", str(japanese)])
    assert "RU[Japanese] names none of our games: read as go" in capsys.readouterr().err


def test_check_of_a_file_with_an_impossible_ca_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "rot13.sgf"
    path.write_bytes(b"(;GM[1]FF[4]CA[rot13]RU[Japanese]SZ[9];B[aa])")
    assert sgftool.main(["check", str(path)]) == 1
    assert capsys.readouterr().err.strip() == "vargo-sgf: error: node 0: bad CA[rot13]: not a character set"
