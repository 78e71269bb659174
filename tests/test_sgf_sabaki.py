"""Interoperation with Sabaki's SGF library (@sabaki/sgf, run with Node).

Files written by @sabaki/sgf (including an old-style file with lowercase letters in property
names, CR/LF and odd whitespace) are read by us with the same moves; our files (record and view
form, every game) are parsed by @sabaki/sgf with the same moves and root properties; data we do
not manage (Sabaki's SBKV win rates, comments, variations) survives our round trip. Skipped only
when node or tests/node/node_modules is missing (``npm install --prefix tests/node``).
"""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gtp_engine.coords import Color
from sgf import SgfRecord, game_to_sgf
from sgf.values import parse_point, point_text
from test_sgf_roundtrip import random_game

NODE_DIR = Path(__file__).parent / "node"
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (NODE_DIR / "node_modules" / "@sabaki" / "sgf").is_dir(),
    reason="node or tests/node/node_modules/@sabaki/sgf missing (npm install --prefix tests/node)")


def node_json(script: str, *args) -> dict:
    done = subprocess.run(["node", str(NODE_DIR / script), *map(str, args)], cwd=NODE_DIR,
                          capture_output=True, check=True)
    return json.loads(done.stdout)


def sgf_move(color: Color, point, size: int):
    return [color.letter.upper(), "" if point is None else point_text(point, size)]


def their_moves_as_points(moves, size):
    """Sabaki's [prop, value] moves as (Color, point or None) with SGF's pass forms."""
    return [(Color.parse(prop), None if value in ("", "tt") and (value == "" or size <= 19)
             else parse_point(value.encode(), size)) for prop, value in moves]


@pytest.fixture(scope="module")
def sabaki_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sabaki")
    return folder, node_json("sabaki_sgf_make.js", folder)


@pytest.mark.parametrize("name,rules,size", [
    ("sabaki_go.sgf", "go", 9), ("sabaki_loose.sgf", "loose", 7),
    ("sabaki_odd.sgf", "go", 9), ("sabaki_odd_restringified.sgf", "go", 9)])
def test_files_written_by_sabaki_are_read_with_the_same_moves(sabaki_files, name, rules, size):
    folder, report = sabaki_files
    record = SgfRecord.from_bytes((folder / name).read_bytes())
    game = record.game
    assert (game.rules.name, game.size) == (rules, size)
    assert game.komi == float(report[name]["root"]["KM"][0])
    assert [(m.color, m.point) for m in game.moves] == their_moves_as_points(report[name]["moves"], size)
    setup = sorted(parse_point(v.encode(), size) for v in report[name]["root"].get("AB", []))
    assert sorted(p for _, p in game.setup) == setup


def test_sabaki_data_survives_our_round_trip(sabaki_files, tmp_path):
    folder, _ = sabaki_files
    source = folder / "sabaki_go.sgf"
    ours = tmp_path / "ours.sgf"
    ours.write_bytes(SgfRecord.from_bytes(source.read_bytes()).to_bytes())
    dumped = node_json("sabaki_sgf_dump.js", source, ours)
    before, after = dumped[str(source)], dumped[str(ours)]
    for identifier in ("DT", "PB", "PW", "KM", "SZ"):
        assert after["root"][identifier] == before["root"][identifier], identifier
    for identifier in ("B", "W", "SBKV", "C"):
        assert [n.get(identifier) for n in after["mainLine"]] == [n.get(identifier) for n in before["mainLine"]]
    assert after["variations"] == before["variations"] == 1


GAMES = ["go", "loose", "goncrete", "disto", "terrain"]


@pytest.fixture(scope="module")
def our_files(tmp_path_factory):
    """Every game in record and view form, written by us and parsed by Sabaki in one Node run."""
    folder = tmp_path_factory.mktemp("ours")
    games, paths = {}, []
    for rules in GAMES:
        games[rules] = random_game(rules, 7, seed=3, moves=40)
        for view in (False, True):
            path = folder / f"{rules}-{view}.sgf"
            path.write_bytes(game_to_sgf(games[rules], black_name="Ann [b]", white_name="Bob \\w",
                                         view=view, winrates={1: 0.25}))
            paths.append(path)
    dumped = node_json("sabaki_sgf_dump.js", *paths)
    return {(rules, view): (games[rules], dumped[str(folder / f"{rules}-{view}.sgf")])
            for rules in GAMES for view in (False, True)}


@pytest.mark.parametrize("rules", GAMES)
@pytest.mark.parametrize("view", [False, True])
def test_our_files_are_parsed_by_sabaki_with_the_same_moves_and_root(our_files, rules, view):
    game, data = our_files[rules, view]
    root = data["root"]
    expected_root = {"GM": ["1"], "FF": ["4"], "CA": ["UTF-8"], "SZ": ["7"], "KM": [f"{game.komi:g}"],
                     "VR": [game.rules.name], "RU": [game.rules.sgf_ru], "PB": ["Ann [b]"],
                     "PW": ["Bob \\w"], "RE": [game.score().result]}
    assert {k: root.get(k) for k in expected_root} == expected_root
    if game.terrain is not None:
        for identifier, color in (("FB", Color.BLACK), ("FW", Color.WHITE)):
            assert root[identifier] == [point_text(p, 7) for c, p in game.forts if c is color]
    moves = [[prop, n[prop][0]] for n in data["mainLine"] for prop in ("B", "W") if prop in n]
    assert moves == [sgf_move(m.color, m.point, 7) for m in game.moves]
    assert data["mainLine"][1]["SBKV"] == ["25"]
    assert data["variations"] == 0
    assert ("VV" in root) == view
