"""The life-and-death benchmark (``scripts/bench_life.py``): its positions replay as legal
games whose dead stones are stones, ``run`` counts the search's ownership against the judge's
statuses from each stone's owner's side, and ``collect`` writes positions GNU Go judged."""

import json
import os
from pathlib import Path

import pytest

from gtp_engine.coords import parse_vertex
from scripts import bench_life

LIFE19 = Path(__file__).resolve().parent.parent / "scripts" / "problems" / "life19.jsonl"
GNUGO = "/usr/games/gnugo"

# 9x9: a Black wall on column D and a White one on column F, each with its side's 27-point
# area, and a lone Black stone at H5 inside White's area, which nothing can save
WALLS = [["B", f"D{row}"] for row in range(1, 10)] + [["W", f"F{row}"] for row in range(1, 10)]
PROBLEM = {"size": 9, "komi": 0.5, "dead": ["H5"], "source": "walls",
           "moves": [m for pair in zip(WALLS[:9], WALLS[9:]) for m in pair] + [["B", "H5"]]}


def test_the_shipped_positions_replay_and_their_dead_stones_are_stones():
    problems = [json.loads(line) for line in LIFE19.read_text().splitlines() if line.strip()]
    assert len(problems) >= 20
    for problem in problems:
        game = bench_life.position_of(problem)
        assert len(game.moves) == len(problem["moves"])
        for vertex in problem["dead"]:
            assert game.position.stone_at(parse_vertex(vertex, problem["size"])) in (1, 2), \
                (problem["source"], vertex)


def test_run_counts_each_stone_from_its_owners_side():
    player = bench_life.SearchPlayer(bench_life.SearchSettings(playouts=800, threads=1, seed=1))
    counts = bench_life.judge_position(player, PROBLEM, 800)
    assert counts["alive"] == 18 and counts["dead"] == 1
    # the walls are their owners' (White's ownership is negative, Black's positive), the
    # stone at H5 is White's
    assert counts["given_away"] == 0
    assert counts["kept"] == 0
    assert 0 <= counts["error"] < 0.5 * 19


def test_run_prints_the_totals(tmp_path, capsys):
    problems = tmp_path / "p.jsonl"
    problems.write_text(json.dumps(PROBLEM) + "\n")
    bench_life.main(["run", str(problems), "--playouts", "400", "--verbose"])
    out = capsys.readouterr().out
    assert "walls: alive 18 (given away 0," in out
    assert "1 positions, 19 stones, 400 simulations: alive 18, given away 0" in out
    assert "dead 1, kept 0" in out


def test_collect_writes_positions_gnugo_judged(tmp_path):
    if not os.path.exists(GNUGO):
        pytest.skip("GNU Go is not installed")
    out = tmp_path / "life.jsonl"
    out.write_text(json.dumps(PROBLEM) + "\n")   # what the file held stays, first
    bench_life.main(["collect", "--games", "1", "--playouts", "50", "--size", "9",
                     "--marks", "5", "7", "--seed", "3", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0] == PROBLEM
    rows = rows[1:]
    assert [len(row["moves"]) for row in rows] == [5, 7]
    assert rows[1]["moves"][:5] == rows[0]["moves"]
    assert [m[0] for m in rows[1]["moves"]] == ["B", "W", "B", "W", "B", "W", "B"]
    for row in rows:
        game = bench_life.position_of(row)
        assert all(game.position.stone_at(parse_vertex(v, 9)) in (1, 2) for v in row["dead"])
