"""The komi calibration (``scripts/calibrate_komi.py``) and the fair komi over maps
(``scripts/fair_komi_maps.py``): their arithmetic, and one tiny run each on 5x5."""

import json
import math
import os
from pathlib import Path

import pytest

from gtp_engine.rules import find_rules
from scripts import calibrate_komi, fair_komi_maps

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def engines_find_the_package(monkeypatch):
    paths = [str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))


@pytest.mark.parametrize("variant,estimate,default", [
    ("go", 7.0, 7.5), ("go", 6.8, 6.5), ("go", 9.2, 9.5), ("terrain", -3.2, -3.5),
    ("disto", 0.0, 0.5), ("loose", 3.1, 4.0), ("loose", 2.9, 2.0), ("loose", -5.2, -6.0)])
def test_the_default_proposed_cannot_draw_and_fits_the_rules(variant, estimate, default):
    rules = find_rules(variant)
    assert calibrate_komi.proposed_default(rules, estimate) == default
    rules.check_komi(default)


def test_margins_and_black_score_from_results():
    results = {"games": [
        {"score": [30.0, 26.5], "komi": 7.5, "result": "B+3.5"},
        {"score": [20.0, 36.5], "komi": 7.5, "result": "W+16.5"},
        {"score": [28.0, 28.0], "komi": 7.0, "result": "0"},
        {"score": None, "komi": 7.5, "result": "W+R"}]}
    assert calibrate_komi.margins_of(results) == [11.0, -9.0, 7.0]
    assert calibrate_komi.black_score(results) == (1.5, 4)
    assert calibrate_komi.median([11.0, -9.0, 7.0]) == 7.0
    assert calibrate_komi.median([1.0, 2.0]) == 1.5



def test_the_median_interval_is_the_sign_tests_order_statistics():
    values = list(range(100))            # median 49.5; ranks 50 -+ 9.8
    assert calibrate_komi.median_interval(values) == (40, 59)
    assert calibrate_komi.median_interval([3.0]) == (3.0, 3.0)


def write_match(folder, variant, size, games):
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps(
        {"settings": {"variant": variant, "size": size}, "games": games}))


def test_games_already_played_are_pooled_per_game_and_size(tmp_path, capsys):
    game = lambda result, komi, score: {"result": result, "komi": komi, "score": score}
    write_match(tmp_path / "a", "loose", 9, [game("B+2", 4, [40, 38]), game("W+4", 4, [36, 44]),
                                             game("B+R", 4, None)])      # resigned: unscored
    write_match(tmp_path / "b", "loose", 9, [game("B+10", 6, [45, 29]), game("W+2", 6, [39, 35])])
    write_match(tmp_path / "c", "disto", 9, [game("B+50", 2.5, [60, 7.5])])   # another game
    write_match(tmp_path / "d", "loose", 7, [game("B+50", 4, [45, 0])])        # another size
    code = calibrate_komi.main(["--variant", "loose", "--size", "9", "--json", "--from-matches",
                                *(str(tmp_path / name) for name in "abcd")])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 4
    assert report["by_komi"]["4"]["black_score"] == 1 and report["by_komi"]["4"]["games"] == 2
    assert report["by_komi"]["6"]["black_score"] == 1 and report["by_komi"]["6"]["games"] == 2
    # margins without komi: 6, -4, 22, 10 -> median 8; Loose's komi is an even integer
    assert report["median_margin"] == 8 and report["default_rescored"] == 8
    # had they been scored at 6: Black wins two and ties one (a half) of the four; at 8, two
    assert report["shares_if_scored_at"]["6"] == 0.625 and report["shares_if_scored_at"]["8"] == 0.5


def test_no_games_to_pool_is_a_usage_error(tmp_path):
    write_match(tmp_path / "a", "disto", 9, [{"result": "B+1", "komi": 2.5, "score": [3, 0]}])
    with pytest.raises(SystemExit) as stop:
        calibrate_komi.main(["--variant", "loose", "--from-matches", str(tmp_path / "a")])
    assert stop.value.code == 2

@pytest.mark.slow   # the script end to end: searches and a match
def test_a_tiny_calibration_runs_the_search_and_the_check(tmp_path, capsys):
    code = calibrate_komi.main(["--variant", "go", "--size", "5", "--estimates", "2",
                                "--fair-playouts", "1000", "--games", "2", "--playouts", "20",
                                "--out", str(tmp_path), "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert len(report["estimates"]) == 2 and report["interval"][0] <= report["mean"] <= report["interval"][1]
    assert report["default"] == calibrate_komi.proposed_default(find_rules("go"), report["mean"])
    assert report["check"]["games"] == 2 and report["check"]["komi"] == report["default"]
    results = json.loads((tmp_path / f"check-komi{report['default']:g}" / "results.json").read_text())
    assert all(g["komi"] == report["default"] for g in results["games"])


def test_the_maps_margins_are_compared_with_their_fair_komi_by_correlation():
    assert fair_komi_maps.correlation([1, 2, 3], [2, 4, 7]) == pytest.approx(0.9934, abs=1e-4)
    assert fair_komi_maps.correlation([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert math.isnan(fair_komi_maps.correlation([5, 5, 5], [1, 2, 3]))


@pytest.mark.slow
def test_a_tiny_run_over_maps_plays_each_map_at_both_komis(tmp_path, capsys):
    assert fair_komi_maps.main(["--size", "5", "--maps", "2", "--games", "2", "--playouts", "10",
                                "--fair-playouts", "500", "--out", str(tmp_path)]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [row["map"] for row in summary["maps"]] == [1, 2]
    for row in summary["maps"]:
        fair = json.loads((tmp_path / f"map-{row['map']}" / "fair" / "results.json").read_text())
        default = json.loads((tmp_path / f"map-{row['map']}" / "default" / "results.json").read_text())
        assert {g["komi"] for g in fair["games"]} == {row["fair_komi"]}
        assert {g["komi"] for g in default["games"]} == {7.5}
        assert fair["games"][0]["map"] == default["games"][0]["map"]
    assert summary["summary"]["fair"]["games"] == summary["summary"]["default"]["games"] == 4
    assert -1 <= summary["summary"]["margin_before_komi"]["correlation_with_fair_komi"] <= 1 or \
        math.isnan(summary["summary"]["margin_before_komi"]["correlation_with_fair_komi"])


def test_the_default_as_played_is_the_komi_played_nearest_an_even_share(tmp_path, capsys):
    def games(komi, black_wins, count=50):
        return [{"result": "B+1" if i < black_wins else "W+1", "komi": komi,
                 "score": [40, 40 - komi + (1 if i < black_wins else -1)]} for i in range(count)]
    write_match(tmp_path / "a", "disto", 9, games(1.5, 40) + games(2.5, 26) + games(3.5, 5, 10))
    assert calibrate_komi.main(["--variant", "disto", "--size", "9", "--json",
                                "--from-matches", str(tmp_path / "a")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["default_as_played"] == 2.5          # 52% there, 80% at 1.5; 3.5 too few games
