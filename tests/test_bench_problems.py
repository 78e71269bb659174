"""The problems benchmark (``scripts/bench_problems.py run``) sets each problem's position up
on a real engine, reads the engine's choice and the root's visits from its
``kata-genmove_analyze`` answer (the last ``info`` line), and counts the judge's and the losing
move by those choices.

The problem here has one right answer: White to move takes three Black stones in atari
(B4-C4-D4, whose last liberty is C3); any search of a few hundred simulations takes them."""

import json
import sys
from pathlib import Path

import pytest

from scripts import bench_problems

PROBLEM = {"size": 5, "komi": 0.5,
           "moves": ["B4", "A4", "C4", "E4", "D4", "B5", "B1", "C5", "C1", "D5", "pass", "B3",
                     "pass", "D3", "pass"],
           "color": "w", "good": "C3", "bad": "PASS", "bad_value": 0.0, "good_value": 1.0,
           "source": "test"}


def engine_command(playouts):
    return f"{sys.executable} -m gtp_engine --threads 1 --quiet --playouts {playouts} --seed {{seed}}"


def test_run_counts_the_engines_choices(tmp_path, capsys):
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps(PROBLEM) + "\n")
    assert bench_problems.main(["run", str(problems), "--seeds", "2", "--verbose",
                                "--engine", engine_command(400)]) == 0
    out = capsys.readouterr().out
    assert "1 problems x 2 seeds" in out
    assert "judge's move 2/2 100.0%" in out
    assert "losing move 0/2 0.0%" in out
    line = [row for row in out.splitlines() if row.startswith("test:")][0]
    assert line.startswith("test: good C3 bad PASS | C3")
    # a search this short may end before its first info line; any share read is C3's
    shares = [float(cell.split("(")[1].rstrip(")")) for cell in line.split("| ")[1].split()
              if "(" in cell]
    assert all(0.5 < share <= 1.0 for share in shares)


def test_last_info_reads_every_segment():
    text = ("info move D3 visits 30 winrate 0.9 prior 0.5 lcb 0.8 order 0 pv D3 E4 "
            "info move pass visits 2 winrate 0.1 prior 0.1 lcb 0.0 order 1 pv pass\n"
            "info move D3 visits 90 winrate 0.9 prior 0.5 lcb 0.8 order 0 pv D3 "
            "info move E4 visits 10 winrate 0.2 prior 0.1 lcb 0.0 order 1 pv E4 D3\nplay D3")
    assert bench_problems._last_info(text) == {"D3": 90, "E4": 10}


def test_run_sets_a_position_problem_up_from_its_rows_map_and_forts(tmp_path, capsys):
    """A problem of another game (``scripts/problems/variants.jsonl``) reaches the engine as an
    SGF file: Terrain Go's map, forts and fort value, the set-up stones and komi all arrive,
    or D4 (which keeps Black's fort E4 out of White's territory) would not be the only
    winning move the engine finds."""
    fort = next(p for p in map(json.loads, Path(bench_problems.__file__).with_name("problems")
                               .joinpath("variants.jsonl").read_text().splitlines())
                if p["source"].startswith("terrain: keep your own fort"))
    assert fort["right"] == ["D4"] and fort["forts"] == ["w G1", "b E4"]
    problems = tmp_path / "problems.jsonl"
    problems.write_text(json.dumps(fort) + "\n")
    assert bench_problems.main(["run", str(problems), "--seeds", "1", "--verbose",
                                "--engine", engine_command(2000)]) == 0
    out = capsys.readouterr().out
    assert "judge's move 1/1 100.0%" in out


def test_a_position_problem_is_the_same_game_in_process():
    problem = {"game": "loose", "size": 3, "komi": 2, "rows": ["X.X", "XXX", "OO."],
               "moves": ["pass"], "color": "b"}
    game = bench_problems.problem_game(problem)
    assert game.rules.name == "loose" and game.komi == 2
    assert game.position.rows() == ["X.X", "XXX", "OO."]
    assert [(m.color.name, m.point) for m in game.moves] == [("WHITE", None)]
    with pytest.raises(ValueError):
        bench_problems.problem_game(dict(problem, rows=["X.X", "XXX"]))
