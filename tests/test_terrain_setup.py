"""``scripts/terrain_setup.py``: a Terrain Go set-up (map, forts by the search, fair komi) as
SGF that ``vargo --setup``, ``vargo-match --setup`` and Sabaki read."""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sgf
from gtp_engine.coords import format_vertex
from gtp_engine.game import Game
from gtp_engine.rules.terrain_map import generate_map
from gtp_engine.search import fortsearch
from scripts import terrain_setup
from gtp_engine.match.runner import main as match_main

REPO = Path(__file__).resolve().parent.parent
FAKE = REPO / "tests" / "fakes" / "fake_engine.py"
NODE_DIR = REPO / "tests" / "node"


@pytest.fixture(autouse=True)
def engines_find_the_package(monkeypatch):
    paths = [str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))


@pytest.fixture(scope="module")
def setup_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("setup") / "setup9.sgf"
    code = terrain_setup.main(["--size", "9", "--map-seed", "5", "--seed", "1",
                               "--fort-playouts", "40", "--playouts", "2000", "-o", str(path)])
    assert code == 0
    return path


def test_the_set_up_has_the_map_searched_forts_and_a_fair_komi(setup_file):
    game = sgf.game_from_sgf(setup_file.read_bytes())
    assert game.rules.name == "terrain" and game.size == 9 and not game.moves
    assert game.terrain.kinds == generate_map(9, 5).kinds
    fresh = Game("terrain", 9, terrain=generate_map(9, 5))
    assert game.forts == fortsearch.place_forts(fresh, 1, 40)   # the searched forts, in order
    assert game.komi * 2 == int(game.komi * 2)
    text = setup_file.read_bytes()
    assert b"GC[Terrain Go set-up: map seed 5, forts by the search" in text
    assert f"Fair komi {game.komi:g} by the search".encode() in text


def test_the_same_options_write_the_same_file(setup_file, tmp_path):
    again = tmp_path / "again.sgf"
    assert terrain_setup.main(["--size", "9", "--map-seed", "5", "--seed", "1", "--fort-playouts",
                               "40", "--playouts", "2000", "-o", str(again)]) == 0
    assert again.read_bytes() == setup_file.read_bytes()


def test_the_engine_starts_from_the_set_up(setup_file):
    game = sgf.game_from_sgf(setup_file.read_bytes())
    done = subprocess.run([sys.executable, "-m", "gtp_engine", "--setup", str(setup_file)],
                          input=b"forts\nterrain_show\nprintsgf\nquit\n", capture_output=True,
                          cwd=REPO, check=True)
    answers = done.stdout.decode().split("\n\n")
    forts = " ".join(f"{c.letter} {format_vertex(p)}" for c, p in game.forts)
    assert answers[0] == "= " + forts
    assert answers[1] == "= " + game.terrain.to_text(game.forts) + " " + forts
    assert f"KM[{game.komi:g}]" in answers[2]


def test_forts_by_hand_and_a_given_komi(tmp_path, capsys):
    path = tmp_path / "s.sgf"
    assert terrain_setup.main(["--size", "7", "--map-seed", "2", "--forts", "D3,B6",
                               "--komi", "-1.5", "-o", str(path)]) == 0
    game = sgf.game_from_sgf(path.read_bytes())
    assert [format_vertex(p) for _, p in game.forts] == ["D3", "B6"] and game.komi == -1.5


@pytest.mark.parametrize("args,message", [
    (["--size", "7", "--forts", "C3"], "--forts needs 2 vertices, not 1"),
    (["--size", "4"], "terrain maps need a board size from 5 to 25, not 4"),
    (["--size", "7", "--map-seed", "2", "--komi", "0.3", "--forts", "D3,B6"], "multiple of 0.5"),
])
def test_impossible_settings_exit_with_status_2(args, message, capsys):
    assert terrain_setup.main(args) == 2
    assert message in capsys.readouterr().err


def test_a_match_starts_every_game_from_the_set_up(setup_file, tmp_path, capsys):
    game = sgf.game_from_sgf(setup_file.read_bytes())
    out = tmp_path / "m"
    fake = [shlex.join([sys.executable, str(FAKE), "--seed", str(i)]) for i in (1, 2)]
    assert match_main([*fake, "--setup", str(setup_file), "--games", "3", "--jobs", "1",
                       "--out", str(out)]) == 0
    capsys.readouterr()
    results = json.loads((out / "results.json").read_text())
    forts = [f"{c.letter} {format_vertex(p)}" for c, p in game.forts]
    assert results["settings"]["variant"] == "terrain" and results["settings"]["size"] == 9
    for record in results["games"]:
        assert record["map"] == game.terrain.to_text() and record["forts"] == forts
        assert record["komi"] == game.komi
        log = (out / "logs" / f"game-{record['index'] + 1:04d}.gtp.log").read_text()
        assert "genfort" not in log and f"A >> fort {game.forts[0][0].word}" in log


def test_a_match_refuses_a_set_up_of_other_rules(setup_file, tmp_path, capsys):
    fake = shlex.join([sys.executable, str(FAKE)])
    assert match_main([fake, fake, "--setup", str(setup_file), "--variant", "go",
                       "--out", str(tmp_path / "m")]) == 2
    assert "is terrain on 9x9, not go on 9x9" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("node") is None or not (NODE_DIR / "node_modules" / "@sabaki" / "sgf").is_dir(),
                    reason="node or tests/node/node_modules/@sabaki/sgf missing (npm install --prefix tests/node)")
def test_sabaki_reads_the_set_up_with_its_map_markup(setup_file):
    done = subprocess.run(["node", str(NODE_DIR / "sabaki_sgf_dump.js"), str(setup_file)],
                          cwd=NODE_DIR, capture_output=True, check=True)
    root = json.loads(done.stdout)[str(setup_file)]["root"]
    game = sgf.game_from_sgf(setup_file.read_bytes())
    assert root["VR"] == ["terrain"] and root["KM"] == [f"{game.komi:g}"]
    assert len(root["TR"]) + len(root["SQ"]) == sum(1 for k in game.terrain.kinds if k)
    assert sorted(label.split(":")[1] for label in root["LB"]) == ["FB", "FB", "FW", "FW"]


def test_a_match_carries_a_set_ups_own_fort_count_and_value(tmp_path, capsys):
    """A set-up with more forts, worth more, than the size's defaults (T2, T7): both engines
    are told (``terrain_load MAP forts=N fort_value=N``) and every game scores with them."""
    path = tmp_path / "s.sgf"
    assert terrain_setup.main(["--size", "7", "--map-seed", "2", "--map-option", "forts=2",
                               "--map-option", "fort_value=5", "--fort-playouts", "0",
                               "--komi", "0.5", "-o", str(path)]) == 0
    game = sgf.game_from_sgf(path.read_bytes())
    assert (game.terrain.forts_per_side, game.terrain.fort_value, len(game.forts)) == (2, 5, 4)
    out = tmp_path / "m"
    fake = [shlex.join([sys.executable, str(FAKE), "--seed", str(i)]) for i in (1, 2)]
    assert match_main([*fake, "--setup", str(path), "--games", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    record = json.loads((out / "results.json").read_text())["games"][0]
    assert len(record["forts"]) == 4
    log = (out / "logs" / "game-0001.gtp.log").read_text()
    assert f"A >> terrain_load {game.terrain.to_text()} forts=2 fort_value=5" in log
