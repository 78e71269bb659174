"""The match runner: matches between fake engines (every way an engine can fail), resume,
results.json, SGF records; real matches of our engine against itself and GNU Go (slow)."""

import errno
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gtp_engine.errors import quote_path

from gtp_engine.coords import Color
from gtp_engine.gtp.handicap import fixed_handicap_points
from gtp_engine.match.referee import Clock, TimeControl
from gtp_engine.match.runner import MatchConfig, expand_command, main
from gtp_engine.match import stats
from gtp_engine.match.stats import Sprt, elo_difference, format_summary, summarize, wilson_interval
from gtp_engine.rules import find_rules

REPO = Path(__file__).resolve().parent.parent
FAKE = REPO / "tests" / "fakes" / "fake_engine.py"
GNUGO = "/usr/games/gnugo"


def fake(*options) -> str:
    return shlex.join([sys.executable, str(FAKE), *options])


def ours(*options) -> str:
    return shlex.join([sys.executable, "-m", "gtp_engine", *options])


@pytest.fixture(autouse=True)
def engines_find_the_package(monkeypatch):
    """Engine subprocesses import gtp_engine from this checkout."""
    paths = [str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))


def run_match(capsys, out, engine_a, engine_b, *options):
    """Run the command line in-process; returns (exit code, results or None, stdout, stderr)."""
    code = main([engine_a, engine_b, "--out", str(out), *options])
    captured = capsys.readouterr()
    path = Path(out) / "results.json"
    results = json.loads(path.read_text()) if path.exists() else None
    return code, results, captured.out, captured.err


def parse_sgf(out, record):
    sgf = pytest.importorskip("sgf")
    return sgf.game_from_sgf((Path(out) / record["sgf"]).read_bytes())


def transcript(out, index):
    return (Path(out) / "logs" / f"game-{index + 1:04d}.gtp.log").read_text().splitlines()


# --------------------------------------------------------------------------- statistics
@pytest.mark.parametrize("score, games, low, high", [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (7, 10, 0.3968, 0.8922),
])
def test_wilson_interval_matches_published_values(score, games, low, high):
    got = wilson_interval(score, games)
    assert got == pytest.approx((low, high), abs=1e-3)


@pytest.mark.parametrize("score, elo", [(0.5, 0.0), (0.75, 190.85), (0.25, -190.85), (0.9, 381.70)])
def test_elo_difference_of_a_score(score, elo):
    assert elo_difference(score) == pytest.approx(elo, abs=0.01)


def test_elo_difference_is_infinite_at_the_ends():
    assert elo_difference(0.0) == -math.inf and elo_difference(1.0) == math.inf


def _record(black, winner, reason="two passes", moves=10, result="B+1", index=0):
    white = "B" if black == "A" else "A"
    return {"index": index, "black": black, "white": white, "winner": winner, "reason": reason, "moves": moves,
            "result": result, "seconds": {"A": 1.0, "B": 2.0}, "genmoves": {"A": 5, "B": 5},
            "engine_scores": {"A": result, "B": "W+1"}}


def test_summary_counts_wins_by_engine_and_colour_and_draws_as_halves():
    records = [_record("A", "A", result="B+3", index=0),
               _record("B", "B", reason="resignation", moves=20, result="B+R", index=1),
               _record("A", None, moves=30, result="0", index=2)]
    s = summarize(records)
    assert (s["games"], s["wins"], s["draws"], s["black_wins"]) == (3, {"A": 1, "B": 1}, 1, 2)
    assert s["by_colour"]["A"] == {"black": {"games": 2, "wins": 1, "draws": 1},
                                   "white": {"games": 1, "wins": 0, "draws": 0}}
    assert s["by_colour"]["B"]["black"] == {"games": 1, "wins": 1, "draws": 0}
    assert s["win_rate_a"] == 0.5 and s["elo_a_minus_b"] == 0.0
    assert s["win_rate_a_95"] == [round(x, 4) for x in wilson_interval(1.5, 3)]
    assert s["average_moves"] == 20.0
    assert s["seconds_per_move"] == {"A": 0.2, "B": 0.4}
    assert s["cpu_seconds_per_move"] == {"A": None, "B": None}  # no engine said
    assert s["reasons"] == {"two passes": 2, "resignation": 1}
    # B's own final_score said White won every game; the referee: Black twice, then a draw
    assert s["engine_score_disagreements"] == {"A": 0, "B": 3}
    assert s["pairs"] == {"A": 0, "split": 1, "B": 0}  # games 1 and 2; game 3 has no partner yet
    text = format_summary(s, {"A": "one", "B": "two"})
    assert "pairs (colours swapped): A won both 0, split 1, B won both 0" in text
    assert "A's score 50.0%" in text and "Elo A-B +0" in text and "resignation 1" in text


def test_cpu_per_move_counts_only_games_whose_engine_told_it():
    told, untold = _record("A", "A", index=0), _record("B", "A", index=1)
    told["cpu_seconds"] = {"A": 2.0, "B": None}
    untold["cpu_seconds"] = {"A": None, "B": None}
    s = summarize([told, untold])
    assert s["cpu_seconds_per_move"] == {"A": 0.4, "B": None}  # 2 s over A's 5 moves of one game
    assert "cpu seconds per move (cputime, else /proc): A 0.400, B -" in format_summary(s, {"A": "a", "B": "b"})


def test_summary_of_a_clean_sweep_has_an_open_elo_interval():
    s = summarize([_record("A", "A", index=0), _record("B", "A", result="W+2", index=1)])
    assert s["pairs"] == {"A": 1, "split": 0, "B": 0}
    assert s["win_rate_a"] == 1.0 and s["elo_a_minus_b"] is None and s["elo_95"][1] is None
    # two wins prove little: the interval still reaches below zero
    assert s["elo_95"][0] == round(elo_difference(wilson_interval(2, 2)[0]), 1) == -113.4
    assert "Elo A-B +inf" in format_summary(s, {"A": "a", "B": "b"})


# --------------------------------------------------------------------------- clocks
def test_sprt_bounds_and_verdicts():
    test = Sprt(0, 50, alpha=0.05, beta=0.05)
    assert test.bounds == pytest.approx((-2.944, 2.944), abs=1e-3)
    assert test.llr(0, 0, 0) == 0.0
    assert test.verdict(test.llr(0, 0, 0)) == "continue"
    assert test.llr(3, 0, 0) > 0 > test.llr(0, 0, 3)
    assert test.verdict(test.llr(3, 0, 0)) == "continue"   # three games decide nothing
    assert test.verdict(test.llr(120, 0, 80)) == "H1"      # 60% of 200: about +70 Elo
    assert test.verdict(test.llr(96, 0, 104)) == "H0"      # 48% of 200: below 0
    assert test.verdict(test.llr(13, 0, 12)) == "continue"


def test_sprt_llr_is_walds_by_hand():
    # 30 wins, 10 draws (half a win, half a loss each), 20 losses; s0 = 0.5, s1 = 1 / (1 + 10^(-20/400))
    s1 = 1 / (1 + 10 ** (-20 / 400))
    assert Sprt(0, 20).llr(30, 10, 20) == pytest.approx(35 * math.log(s1 / 0.5)
                                                        + 25 * math.log((1 - s1) / 0.5))


def test_a_short_run_of_wins_decides_nothing():
    # the normal approximation accepted H1 after 6-0 (the sample variance nearly 0); Wald's
    # test needs 12 wins in a row at 0,100
    test = Sprt(0, 100)
    assert test.verdict(test.llr(6, 0, 0)) == "continue"
    assert test.verdict(test.llr(11, 0, 0)) == "continue"
    assert test.verdict(test.llr(12, 0, 0)) == "H1"
    assert test.verdict(test.llr(0, 0, 12)) == "H0"


def test_a_decision_stands_when_a_game_under_way_finishes_after_it():
    # 12 wins in a row decide H1 at 0,100; the 13th game, under way then, is a loss that
    # brings the ratio back inside the bounds: the match stopped for H1 and says so
    test = Sprt(0, 100)
    games = [{"winner": "A"}] * 12 + [{"winner": "B"}]
    report = test.report(games)
    assert report["verdict"] == "H1" and report["decided_after"] == 12
    assert report["llr"] < report["bounds"][1]
    undecided = test.report(games[:11])
    assert undecided["verdict"] == "continue" and undecided["decided_after"] is None


def _paired(points_per_pair):
    """Game records of complete pairs, each pair given as A's points in its two games."""
    games = []
    for pair, points in enumerate(points_per_pair):
        for k, p in enumerate(points):
            games.append({"index": 2 * pair + k, "winner": "A" if p == 1 else "B" if p == 0 else None})
    return games


def test_pairs_won_twice_over_weigh_as_one_walds_win_each():
    s0, s1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    test = Sprt(0, 100, pairs=True)
    assert test.pair_llr({2.0: 6}) == pytest.approx(6 * math.log(s1 / s0), rel=1e-3)
    assert test.pair_llr({0.0: 6}) == pytest.approx(6 * math.log((1 - s1) / (1 - s0)), rel=1e-3)
    assert test.report(_paired([(1, 1)] * 6))["verdict"] == "continue"   # Wald: H1 after 12


def test_the_likeliest_distribution_has_the_mean_asked_and_the_frequencies_when_they_have_it():
    counts = {0.0: 3, 0.25: 1, 0.5: 10, 0.75: 2, 1.0: 4}
    for mean in (0.3, 0.5, 0.62):
        p = stats._likeliest_with_mean(counts, mean)
        assert sum(p.values()) == pytest.approx(1)
        assert sum(x * q for x, q in p.items()) == pytest.approx(mean)
    seen = sum(x * n for x, n in counts.items()) / sum(counts.values())
    p = stats._likeliest_with_mean(counts, seen)
    assert all(p[x] == pytest.approx(n / 20) for x, n in counts.items())


def test_split_pairs_decide_sooner_as_pairs_than_as_independent_games():
    # 56% of the games, most pairs split: the pairs' scores spread less than 2 independent
    # games' would, so the same games carry more evidence read as pairs
    pairs = [(1, 0)] * 60 + [(1, 1)] * 25 + [(0, 0)] * 13
    games = _paired(pairs)
    wald = Sprt(0, 60).report(games)
    paired = Sprt(0, 60, pairs=True).report(games)
    assert paired["pairs"] == 98 and 0 < wald["llr"] < paired["llr"]
    # pairs that split no more often than independent games would: no such gain
    independent = _paired([(1, 0)] * 24 + [(0, 1)] * 25 + [(1, 1)] * 31 + [(0, 0)] * 18)
    assert Sprt(0, 60, pairs=True).report(independent)["llr"] <= Sprt(0, 60).report(independent)["llr"] + 0.1
    # a pair weighs only once complete: its first game alone changes nothing
    assert Sprt(0, 60, pairs=True).report(games[:1])["llr"] == 0


def test_sprt_pairs_in_a_match_and_its_misuse(tmp_path, capsys):
    resigner = fake("--fault", "resign", "--at", "1", "--seed", "{seed}")
    code, results, stdout, _ = run_match(capsys, tmp_path / "m", fake("--seed", "1"), resigner,
                                         "--size", "5", "--games", "40", "--jobs", "1",
                                         "--sprt", "0,100", "--sprt-pairs")
    test = results["summary"]["sprt"]
    assert code == 0 and test["verdict"] == "H1" and test["pairs"] == results["games_played"] // 2
    assert f"LLR over {test['pairs']} pairs" in stdout
    code, results, _, err = run_match(capsys, tmp_path / "n", fake(), fake(), "--sprt-pairs")
    assert code == 2 and results is None and "--sprt-pairs needs --sprt" in err


@pytest.mark.parametrize("elo, alpha, message", [("30,0", 0.05, "elo0 < elo1"), ("0", 0.05, "two Elo"),
                                                 ("a,b", 0.05, "two Elo"), ("0,inf", 0.05, "finite"),
                                                 ("0,30", 0.7, "alpha must be")])
def test_bad_sprt_settings_are_refused(tmp_path, capsys, elo, alpha, message):
    code, results, _, err = run_match(capsys, tmp_path / "m", fake(), fake(), "--sprt", elo, "--alpha", str(alpha))
    assert code == 2 and results is None and message in err


def test_sprt_stops_the_match_once_decided_and_resuming_plays_no_more(tmp_path, capsys):
    out = tmp_path / "m"
    resigner = fake("--fault", "resign", "--at", "1", "--seed", "{seed}")  # a new process each game
    args = (capsys, out, fake("--seed", "1"), resigner, "--size", "5", "--games", "40", "--jobs", "1",
            "--sprt", "0,100")
    code, results, stdout, _ = run_match(*args)
    assert code == 0
    played = results["games_played"]
    assert 3 <= played < 40 and results["wins"]["A"] == played
    test = results["summary"]["sprt"]
    assert test["verdict"] == "H1" and test["llr"] >= test["bounds"][1]
    assert "SPRT elo0=0 elo1=100" in stdout and "H1 accepted" in stdout
    code, again, _, _ = run_match(*args)
    assert code == 0 and again["games_played"] == played


def test_time_per_move_is_byoyomi_of_one_stone():
    clock = Clock(TimeControl.per_move(3))
    assert clock.allowance == 3 and clock.control.gtp == "time_settings 0 3 1"
    # no main time: the first move is already in byo-yomi, with a full period (never "0 0")
    assert clock.time_left_args == (3, 1)
    clock.spend(2.5)
    assert clock.allowance == 3 and clock.time_left_args == (3, 1)


def test_canadian_byoyomi_after_main_time():
    clock = Clock(TimeControl(10, 5, 2))
    assert clock.allowance == 15 and clock.time_left_args == (10, 0)
    clock.spend(8)
    assert clock.allowance == 7 and clock.time_left_args == (2, 0)
    clock.spend(3)  # 2 s of main time, then 1 s of the first period
    assert clock.allowance == 4 and clock.time_left_args == (4, 1)
    clock.spend(2)  # the period's second stone: a new period begins
    assert clock.allowance == 5 and clock.time_left_args == (5, 2)


def test_main_time_used_to_the_second_leaves_a_full_period():
    clock = Clock(TimeControl(10, 5, 2))
    clock.spend(10)
    assert clock.allowance == 5 and clock.time_left_args == (5, 2)
    clock.spend(1)
    assert clock.allowance == 4 and clock.time_left_args == (4, 1)


def test_canadian_without_main_time_starts_in_byoyomi():
    clock = Clock(TimeControl(0, 30, 5))
    assert clock.allowance == 30 and clock.time_left_args == (30, 5)
    clock.spend(7.5)
    assert clock.allowance == 22.5 and clock.time_left_args == (22, 4)


def test_times_are_whole_seconds_as_gtp_sends_them():
    control = TimeControl(2.5, 0.2, 1)
    assert (control.main, control.byoyomi) == (3, 1) and control.gtp == "time_settings 3 1 1"
    assert Clock(control).allowance == 4


def test_absolute_time_runs_down():
    clock = Clock(TimeControl(10))
    assert clock.allowance == 10 and clock.time_left_args == (10, 0)
    clock.spend(4)
    assert clock.allowance == 6 and clock.time_left_args == (6, 0)
    clock.spend(6)   # the flag is down: no byo-yomi follows
    assert clock.allowance == 0 and clock.time_left_args == (0, 0)


@pytest.mark.parametrize("args", [(0, 0, 0), (10, 5, 0), (-1, 0, 0), (10, 0, 5)])
def test_impossible_time_controls_are_refused(args):
    with pytest.raises(ValueError):
        TimeControl(*args)


# --------------------------------------------------------------------------- clean matches
def test_match_between_fakes_writes_results_and_sgf(tmp_path, capsys):
    out = tmp_path / "m"
    code, results, stdout, stderr = run_match(capsys, out, fake("--seed", "1"), fake("--seed", "2"),
                                              "--size", "5", "--games", "4", "--jobs", "2")
    assert code == 0
    assert results["games_played"] == 4 and results["games_requested"] == 4
    assert results["wins"]["A"] + results["wins"]["B"] + results["draws"] == 4
    assert results["settings"]["variant"] == "go" and results["settings"]["komi"] == 7.5
    games = results["games"]
    assert [g["index"] for g in games] == [0, 1, 2, 3]
    assert [g["black"] for g in games] == ["A", "B", "A", "B"]
    assert [g["white"] for g in games] == ["B", "A", "B", "A"]
    for g in games:
        assert g["reason"] == "two passes"
        played = parse_sgf(out, g)
        assert len(played.moves) == g["moves"]
        assert played.score().result == g["result"]
        winner_colour = {"B": "black", "W": "white"}.get(g["result"][0])
        assert g["winner"] == (g[winner_colour] if winner_colour else None)
        assert g["engine_scores"] == {"A": g["result"], "B": g["result"]}  # the fakes count as we do
        assert g["genmoves"]["A"] + g["genmoves"]["B"] == g["moves"]
        assert all(g["cpu_seconds"][label] >= 0 for label in "AB")  # the fakes answer cputime
    assert f"{results['wins']['A'] + results['wins']['B'] + results['draws']} games" in stdout
    assert "A's score" in stdout and "ended by: two passes 4" in stdout
    assert stderr.count("[") >= 4  # one progress line per game


def test_an_engine_without_cputime_is_timed_by_its_processes(tmp_path, capsys):
    # B runs under a shell that stays its parent (two commands), as wrapper scripts do; its
    # genmoves compute for 0.05 s of CPU each, so /proc must count about that much a move
    # (the shell alone would count nearly nothing). /proc's times are clock ticks the kernel
    # samples, not the exact clock the fake burns by: a CI run measured 1.15 s for 23 moves,
    # so the bound leaves them a tenth.
    wrapped = shlex.join(["sh", "-c", fake("--no-cputime", "--burn", "0.05", "--seed", "2") + "; true"])
    code, results, stdout, _ = run_match(capsys, tmp_path / "m", fake("--seed", "1"), wrapped,
                                         "--size", "5", "--games", "2", "--jobs", "1")
    assert code == 0
    for g in results["games"]:
        assert g["cpu_seconds"]["B"] >= 0.9 * 0.05 * g["genmoves"]["B"]
        assert g["cpu_seconds"]["A"] < 0.05 * g["genmoves"]["A"]  # A's own cputime, no burning
    assert results["summary"]["cpu_seconds_per_move"]["B"] >= 0.9 * 0.05
    assert "cpu seconds per move" in stdout


def test_same_seeds_and_one_job_replay_the_same_games(tmp_path, capsys):
    def outcomes(out):
        _, results, _, _ = run_match(capsys, out, fake("--seed", "3"), fake("--seed", "4"),
                                     "--size", "5", "--games", "3", "--jobs", "1")
        return [(g["result"], g["moves"]) for g in results["games"]]

    assert outcomes(tmp_path / "one") == outcomes(tmp_path / "two")


def test_every_game_and_engine_has_a_seed_of_its_own(tmp_path):
    config = MatchConfig(("a {seed}", "b {seed}"), None, 4, tmp_path)
    seeds = {expand_command("{seed}", config, index, label) for index in range(4) for label in "AB"}
    assert len(seeds) == 8
    assert expand_command("x {seed} {game}", config, 3, "B") == expand_command("x {seed} {game}", config, 3, "B")
    assert expand_command("{game}", config, 3, "A") == "3"


def _moves_of_games(out, results):
    return [tuple(m.point for m in parse_sgf(out, g).moves) for g in results["games"]]


@pytest.mark.parametrize("how", ["set_random_seed", "{seed}"])
def test_equal_deterministic_engines_play_different_games(tmp_path, capsys, how):
    """Engines that replay one game for one seed: each game gets other seeds, so no two games
    of the match are one game (a colour-swapped pair of equal engines, or games of one colour)."""
    options = ["--per-game", "--random-seed"] if how == "set_random_seed" else ["--per-game", "--seed", "{seed}"]
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake(*options), fake(*options), "--size", "5",
                                    "--games", "4", "--jobs", "1")
    assert code == 0
    assert len(set(_moves_of_games(out, results))) == 4
    if how == "set_random_seed":
        sent = [line for line in transcript(out, 0) if "set_random_seed" in line]
        assert len(sent) == 2 and sent[0].split()[-1] != sent[1].split()[-1]


def test_without_a_seed_for_each_game_equal_deterministic_engines_replay(tmp_path, capsys):
    """What the seeds above prevent: the fake without them repeats its games."""
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake("--per-game"), fake("--per-game"), "--size", "5",
                                    "--games", "4", "--jobs", "1")
    assert code == 0 and len(set(_moves_of_games(out, results))) == 1


def test_transcript_shows_the_set_up_and_every_move_passed_on(tmp_path, capsys):
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake(), fake("--seed", "5"), "--variant", "disto",
                                    "--size", "5", "--komi", "2.5", "--games", "1")
    assert code == 0
    lines = transcript(out, 0)
    for label in "AB":
        sent = [line[5:] for line in lines if line.startswith(f"{label} >> ")]
        assert sent[:4] == ["variant disto", "boardsize 5", "clear_board", "komi 2.5"]
    genmoves = [(lines[i], lines[i + 1]) for i, line in enumerate(lines) if " >> genmove " in line]
    for i, (ask, answer) in enumerate(genmoves[:-1]):
        mover, colour = ask[0], ask.split()[-1]
        other = "B" if mover == "A" else "A"
        vertex = answer.split()[-1]
        assert f"{other} >> play {colour} {vertex}" in lines  # the other engine was told
    assert results["games"][0]["komi"] == 2.5


def test_an_opening_is_shared_by_the_two_games_of_a_pair(tmp_path, capsys):
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake("--seed", "1"), fake("--seed", "2"), "--size", "5",
                                    "--games", "4", "--jobs", "2", "--opening-moves", "4")
    assert code == 0

    def opening(index):
        lines = transcript(out, index)
        plays = [line[5:] for line in lines if line.startswith("A >> play")][:4]
        assert plays == [line[5:] for line in lines if line.startswith("B >> play")][:4]  # both told
        first_genmove = next(i for i, line in enumerate(lines) if ">> genmove" in line)
        assert all(lines.index(f"A >> {p}") < first_genmove for p in plays)
        return plays

    assert opening(0) == opening(1) != opening(2) == opening(3)
    assert [p.split()[1] for p in opening(0)] == ["black", "white", "black", "white"]
    for g in results["games"]:
        assert g["genmoves"]["A"] + g["genmoves"]["B"] == g["moves"] - 4
        assert [m.point for m in parse_sgf(out, g).moves[:4]] == [_point(p.split()[2], 5) for p in opening(g["index"])]


def test_handicap_stones_go_to_both_engines_and_white_moves_first(tmp_path, capsys):
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake("--seed", "1"), fake("--seed", "2"), "--size", "9",
                                    "--komi", "0.5", "--games", "2", "--handicap", "3")
    assert code == 0 and results["settings"]["handicap"] == 3
    for g in results["games"]:
        lines = transcript(out, g["index"])
        assert "A >> fixed_handicap 3" in lines and "B >> fixed_handicap 3" in lines
        assert next(line for line in lines if ">> genmove" in line).endswith("genmove white")
        assert g["genmoves"]["A"] + g["genmoves"]["B"] == g["moves"]
        record = parse_sgf(out, g)
        assert sorted(p for c, p in record.setup if c == Color.BLACK) == sorted(fixed_handicap_points(9, 3))


@pytest.mark.parametrize("options, message", [(["--handicap", "1"], "from 2 to 9"),
                                              (["--handicap", "5", "--size", "7"], "from 2 to 4"),
                                              (["--handicap", "2", "--variant", "loose"], "no fixed handicap")])
def test_impossible_handicaps_are_refused(tmp_path, capsys, options, message):
    code, results, _, err = run_match(capsys, tmp_path / "m", fake(), fake(), *options)
    assert code == 2 and results is None and message in err


def test_move_limit_scores_the_position_as_it_stands(tmp_path, capsys):
    code, results, _, _ = run_match(capsys, tmp_path / "m", fake(), fake("--seed", "9"), "--size", "7",
                                    "--games", "1", "--max-moves", "6")
    game = results["games"][0]
    assert code == 0 and game["reason"] == "move limit" and game["moves"] == 6
    assert game["result"][0] in "BW0" and game["score"] is not None


def test_a_disputed_result_gets_one_clean_up_phase(tmp_path, capsys):
    out = tmp_path / "m"
    # A claims a draw, which komi 7.5 rules out: the referee's result is always disputed
    code, results, _, _ = run_match(capsys, out, fake("--claim", "0"), fake("--seed", "4"), "--size", "5",
                                    "--games", "1")
    game = results["games"][0]
    lines = transcript(out, 0)
    cleanup = [i for i, line in enumerate(lines) if ">> kgs-genmove_cleanup" in line]
    first_scores = lines.index("A >> final_score")
    assert cleanup and cleanup[0] > first_scores  # the clean-up came after the dispute
    assert lines.count("A >> final_score") == 2  # asked again after the clean-up, once
    assert game["reason"] == "two passes" and game["detail"] == "two passes after a clean-up phase"
    assert game["engine_scores"]["A"] == "0" and parse_sgf(out, game).score().result == game["result"]


def test_no_cleanup_scores_at_the_first_two_passes(tmp_path, capsys):
    out = tmp_path / "m"
    run_match(capsys, out, fake("--claim", "0"), fake("--seed", "4"), "--size", "5", "--games", "1",
              "--no-cleanup")
    assert not any("kgs-genmove_cleanup" in line for line in transcript(out, 0))


# --------------------------------------------------------------------------- engines that fail
@pytest.mark.parametrize("fault, reason, letter, restarted", [
    ("illegal", "illegal move", "F", False),
    ("crash", "crash", "F", True),
    ("hang", "time", "T", True),
    ("malformed", "malformed response", "F", True),
    ("garbage", "malformed response", "F", False),
    ("refuse", "refused command", "F", False),
    ("resign", "resignation", "R", False),
])
def test_a_misbehaving_engine_loses_that_game_and_the_match_goes_on(tmp_path, capsys, fault, reason, letter,
                                                                      restarted):
    out = tmp_path / "m"
    code, results, stdout, _ = run_match(capsys, out, fake("--fault", fault, "--at", "2"), fake("--seed", "7"),
                                         "--size", "5", "--games", "2", "--jobs", "1",
                                         "--move-timeout", "1" if fault == "hang" else "0")
    assert code == 0 and results["games_played"] == 2
    first, second = results["games"]
    assert first["black"] == "A" and first["winner"] == "B"
    assert first["result"] == f"W+{letter}" and first["reason"] == reason
    assert "black (A)" in first["detail"]
    assert parse_sgf(out, first).moves  # the moves before the fault are recorded
    if restarted:  # a fresh process, whose second genmove fails again
        assert second["winner"] == "B" and second["result"] == f"B+{letter}" and second["reason"] == reason
    else:  # the same process, past its fault, plays on normally
        assert second["reason"] == "two passes"
    assert results["summary"]["reasons"][reason] == (2 if restarted else 1)
    assert f"{reason} " in stdout


def test_slow_engine_loses_on_time(tmp_path, capsys):
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake("--fault", "slow", "--delay", "3", "--at", "2"),
                                    fake("--seed", "7"), "--size", "5", "--games", "1",
                                    "--time-per-move", "0.1", "--time-margin", "0.5")
    game = results["games"][0]
    assert code == 0 and game["result"] == "W+T" and game["reason"] == "time"
    lines = transcript(out, 0)
    assert "A >> time_settings 0 1 1" in lines and "B >> time_settings 0 1 1" in lines
    # the first move is in byo-yomi with its full period: 1 s for 1 stone, not "0 0"
    assert [line for line in lines if line.startswith("A >> time_left ")][0] == \
        "A >> time_left black 1 1"


def test_an_engine_that_cannot_start_stops_the_match_before_any_game(tmp_path, capsys):
    code, results, _, stderr = run_match(capsys, tmp_path / "m", fake(), "/nonexistent/engine --gtp")
    assert code == 2 and results is None
    assert "engine B" in stderr and "failed to start" in stderr


def test_engine_without_variant_command_can_only_play_go(tmp_path, capsys):
    code, results, _, stderr = run_match(capsys, tmp_path / "m", fake(), fake("--no-variant"),
                                         "--variant", "loose", "--size", "5")
    assert code == 2 and results is None
    assert "engine B has no 'variant' command, so it can only play go, not loose" in stderr
    code, results, _, _ = run_match(capsys, tmp_path / "go", fake(), fake("--no-variant"), "--size", "5",
                                    "--games", "1")
    assert code == 0 and results["games"][0]["reason"] == "two passes"
    assert not any(line.startswith("B >> variant") for line in transcript(tmp_path / "go", 0))


@pytest.mark.parametrize("options, message", [
    (["--variant", "loose", "--size", "6"], "loose needs an odd board size"),
    (["--variant", "loose", "--komi", "3"], "loose komi must be an even integer"),
    (["--variant", "chess"], "unknown variant"),
    (["--time-per-move", "1", "--main-time", "5"], "not both"),
    (["--games", "0"], "--games must be at least 1"),
])
def test_bad_settings_are_refused_before_anything_runs(tmp_path, capsys, options, message):
    code, results, _, stderr = run_match(capsys, tmp_path / "m", fake(), fake(), *options)
    assert code == 2 and results is None and message in stderr


# --------------------------------------------------------------------------- terrain go
def test_terrain_engines_share_the_map_and_place_forts_in_turn(tmp_path, capsys):
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, fake("--seed", "1"), fake("--seed", "2"), "--variant", "terrain",
                                    "--size", "7", "--games", "4", "--jobs", "2")
    assert code == 0
    games = results["games"]
    assert games[0]["map"] == games[1]["map"] and games[2]["map"] == games[3]["map"]
    assert games[0]["map"] != games[2]["map"]
    for g in games:
        assert [f[0] for f in g["forts"]] == ["w", "b"]  # one each on 7x7, White first
        lines = transcript(out, g["index"])
        assert f"A >> terrain_load {g['map']}" in lines and f"B >> terrain_load {g['map']}" in lines
        for colour_letter, vertex in (f.split() for f in g["forts"]):
            colour = {"w": "white", "b": "black"}[colour_letter]
            placer = g[colour]
            other = "B" if placer == "A" else "A"
            assert f"{placer} >> genfort {colour}" in lines and f"{other} >> fort {colour} {vertex}" in lines
        replayed = parse_sgf(out, g)
        assert [(c.letter, p) for c, p in replayed.forts] == [
            (f.split()[0], _point(f.split()[1], 7)) for f in g["forts"]]
        assert replayed.score().result == g["result"]
        # forts_lost: the forts (T7) that ended in the opponent's territory, by their owner
        owners = replayed.position.owner_map(replayed.rules.scoring)
        lost = {"A": 0, "B": 0}
        for colour, (row, col) in replayed.forts:
            if owners[row * 7 + col] == colour.opponent:
                lost[g[colour.word]] += 1
        assert g["forts_lost"] == lost
    summary = results["summary"]["forts_lost"]
    assert [summary[label][1] for label in "AB"] == [4, 4]
    assert sum(summary[label][0] for label in "AB") == sum(sum(g["forts_lost"].values()) for g in games)


def test_map_options_set_every_random_map(tmp_path, capsys):
    """``--map-option``: random maps with other settings (here two forts each, worth 5, on
    7x7), sent to the engines with ``terrain_load``, and part of what a resume must share."""
    out = tmp_path / "m"
    options = ("--variant", "terrain", "--size", "7", "--games", "2", "--no-engine-scores",
               "--map-option", "forts=2", "--map-option", "fort_value=5")
    code, results, _, _ = run_match(capsys, out, fake("--seed", "1"), fake("--seed", "2"), *options)
    assert code == 0
    assert results["settings"]["map_options"] == ["forts=2", "fort_value=5"]
    for g in results["games"]:
        assert [f[0] for f in g["forts"]] == ["w", "b", "w", "b"]
        assert f"A >> terrain_load {g['map']} forts=2 fort_value=5" in transcript(out, g["index"])
        replayed = parse_sgf(out, g)
        assert replayed.score().result == g["result"] and replayed.fort_value == 5
    code, _, _, stderr = run_match(capsys, out, fake("--seed", "1"), fake("--seed", "2"),
                                   *options[:-2], "--games", "3")
    assert code == 2 and "map_options" in stderr


@pytest.mark.parametrize("options, message", [
    (["--variant", "go", "--map-option", "forts=1"], "--map-option sets Terrain Go's random maps"),
    (["--variant", "terrain", "--map-option", "water=500"], "--map-option: "),
    (["--variant", "terrain", "--map-option", "lakes=2"], "--map-option: "),
])
def test_bad_map_options_are_refused(tmp_path, capsys, options, message):
    code, results, _, stderr = run_match(capsys, tmp_path / "m", fake(), fake(), *options)
    assert code == 2 and results is None and message in stderr


def _point(vertex, size):
    from gtp_engine.coords import parse_vertex
    return parse_vertex(vertex, size)


def test_an_illegal_fort_forfeits(tmp_path, capsys):
    code, results, _, _ = run_match(capsys, tmp_path / "m", fake("--fort-fault"), fake("--seed", "2"),
                                    "--variant", "terrain", "--size", "7", "--games", "2", "--jobs", "1")
    first, second = results["games"]
    # A is Black in game 1 and places its fort second: on White's fort
    assert first["result"] == "W+F" and first["reason"] == "illegal move" and "fort" in first["detail"]
    assert second["reason"] == "two passes"  # as White, A places the first fort, where nothing is


@pytest.mark.parametrize("answers, komi", [
    ((None, None), 7.5),       # nobody offers fair_komi: the komi stays
    (("3", "5"), 4.0),         # the average of both estimates
    (("-2.5", None), -2.5),    # the only estimate
    (("oops", "6"), 6.0),      # an unreadable estimate is no estimate
])
def test_fair_komi_is_the_average_of_the_estimates_given(tmp_path, capsys, answers, komi):
    engines = [fake("--seed", str(i), *(["--fair-komi", answer] if answer is not None else []))
               for i, answer in enumerate(answers)]
    out = tmp_path / "m"
    code, results, _, _ = run_match(capsys, out, *engines, "--variant", "terrain", "--size", "7",
                                    "--games", "1", "--fair-komi", "1")
    assert code == 0 and results["games"][0]["komi"] == komi
    assert results["games"][0]["reason"] == "two passes"
    if komi != 7.5:
        lines = transcript(out, 0)
        assert f"A >> komi {komi:g}" in lines and f"B >> komi {komi:g}" in lines
        assert parse_sgf(out, results["games"][0]).komi == komi


@pytest.mark.parametrize("rules, estimate, komi", [
    ("go", 3.74, 3.5), ("go", -0.2, 0.0), ("terrain", 12.3, 12.5),
    ("loose", 2.9, 2), ("loose", 3.2, 4), ("loose", -5.1, -6),  # Loose takes even integers only
])
def test_nearest_komi_the_rules_accept(rules, estimate, komi):
    assert find_rules(rules).nearest_komi(estimate) == komi


# --------------------------------------------------------------------------- resume
def test_more_games_later_resume_without_replaying(tmp_path, capsys):
    out = tmp_path / "m"
    a, b = fake("--seed", "1"), fake("--seed", "2")
    code, first, _, _ = run_match(capsys, out, a, b, "--size", "5", "--games", "2", "--jobs", "2")
    assert code == 0
    logged = {p.name: p.stat().st_mtime_ns for p in (out / "logs").glob("game-*.gtp.log")}
    code, second, _, stderr = run_match(capsys, out, a, b, "--size", "5", "--games", "4", "--jobs", "2")
    assert code == 0 and second["games_played"] == 4
    assert second["games"][:2] == first["games"]  # untouched, timestamps included
    assert {p.name: p.stat().st_mtime_ns for p in (out / "logs").glob("game-*.gtp.log")
            if p.name in logged} == logged
    assert "game 3:" in stderr and "game 4:" in stderr and "game 1:" not in stderr and "game 2:" not in stderr


def test_a_game_missing_from_the_results_is_played_again(tmp_path, capsys):
    out = tmp_path / "m"
    a, b = fake("--seed", "1"), fake("--seed", "2")
    run_match(capsys, out, a, b, "--size", "5", "--games", "3")
    stored = json.loads((out / "results.json").read_text())
    kept = [g for g in stored["games"] if g["index"] != 1]
    stored["games"] = kept
    (out / "results.json").write_text(json.dumps(stored))
    code, results, _, stderr = run_match(capsys, out, a, b, "--size", "5", "--games", "3")
    assert code == 0 and [g["index"] for g in results["games"]] == [0, 1, 2]
    assert [g for g in results["games"] if g["index"] != 1] == kept
    assert "game 2:" in stderr and "game 1:" not in stderr and "game 3:" not in stderr


@pytest.mark.parametrize("program", [["-m", "gtp_engine.match"], [str(REPO / "scripts" / "match.py")]],
                         ids=["module", "wrapper"])
def test_the_command_lines_play_a_match(tmp_path, program):
    """``python -m gtp_engine.match`` (``vargo-match``) and the thin ``scripts/match.py`` wrapper."""
    out = tmp_path / "m"
    done = subprocess.run([sys.executable, *program, fake(), fake("--seed", "3"), "--size", "5",
                           "--games", "2", "--out", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "results.json").read_text())["games_played"] == 2
    assert "Elo A-B" in done.stdout
    refused = subprocess.run([sys.executable, *program, fake(), fake(), "--variant", "loose", "--size", "10",
                              "--out", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.startswith("vargo-match: ")


def test_resuming_with_other_settings_is_refused(tmp_path, capsys):
    out = tmp_path / "m"
    run_match(capsys, out, fake(), fake(), "--size", "5", "--games", "1")
    before = (out / "results.json").read_bytes()
    code, _, _, stderr = run_match(capsys, out, fake(), fake(), "--size", "7", "--games", "2")
    assert code == 2 and "other settings" in stderr and "size: stored 5, now 7" in stderr
    assert (out / "results.json").read_bytes() == before


def test_an_interrupted_match_resumes_where_it_stopped(tmp_path):
    out = tmp_path / "m"
    command = [sys.executable, "-m", "gtp_engine.match",
               fake("--pace", "0.05"), fake("--seed", "3"),
               "--size", "5", "--games", "6", "--jobs", "1", "--sprt", "0,60", "--out", str(out)]
    # a test run started in the background (``cmd &``) ignores SIGINT, and so would the runner
    runner = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    results = out / "results.json"
    while not (results.exists() and json.loads(results.read_text())["games_played"] >= 1):
        assert runner.poll() is None, runner.communicate()
        time.sleep(0.05)
    runner.send_signal(signal.SIGINT)
    summary, err = runner.communicate()
    assert runner.returncode == 1 and b"interrupted" in err
    stopped = json.loads(results.read_text())
    assert 1 <= stopped["games_played"] < 6
    # the finished games' summary, as a completed match prints it, the test's state included
    assert summary.decode().startswith(f"{stopped['games_played']} games: ")
    assert b"Elo A-B" in summary and b"undecided" in summary and b"results: " in summary
    assert all(g["reason"] == "two passes" for g in stopped["games"])  # no game lost to the stop
    finished = subprocess.run(command, capture_output=True)
    assert finished.returncode == 0
    done = json.loads(results.read_text())
    assert done["games_played"] == 6
    assert done["games"][:stopped["games_played"]] == stopped["games"]


# --------------------------------------------------------------------------- real engines
VARIANT_SIZES = [("go", 5), ("loose", 5), ("goncrete", 5), ("disto", 5), ("terrain", 7)]
SCORED = ("two passes", "annihilation", "resignation", "move limit")  # every ending that is no forfeit
NO_LIMITS = ("--move-timeout", "0", "--command-timeout", "0")  # sound engines: wait as long as they need


def check_real_match(out, results, games):
    """A match between sound engines: complete, no forfeits, every record replays to its result."""
    assert results["games_played"] == games
    for g in results["games"]:
        assert g["reason"] in SCORED, g["detail"]
        replayed = parse_sgf(out, g)
        assert len(replayed.moves) == g["moves"]
        if g["reason"] != "resignation":
            assert replayed.score().result == g["result"]


#: real self-play matches: Terrain Go (the runner's map and forts) in the default run (Go is
#: played against GNU Go below), the other games (whose rules the referee shares with every
#: other test) marked slow
SELF_PLAY = [pytest.param(v, s, marks=[] if v == "terrain" else [pytest.mark.slow])
             for v, s in VARIANT_SIZES]


@pytest.mark.parametrize("variant, size", SELF_PLAY)
def test_our_engine_against_itself(tmp_path, capsys, variant, size):
    out = tmp_path / variant
    code, results, stdout, _ = run_match(
        capsys, out, ours("--playouts", "8", "--seed", "{seed}"), ours("--playouts", "4"),
        "--variant", variant, "--size", str(size), "--games", "2", "--jobs", "2", *NO_LIMITS)
    assert code == 0
    check_real_match(out, results, 2)
    assert "Elo A-B" in stdout


def test_our_engine_against_gnugo(tmp_path, capsys):
    if not os.path.exists(GNUGO):
        pytest.skip("GNU Go is not installed")
    out = tmp_path / "gnugo"
    code, results, stdout, _ = run_match(
        capsys, out, ours("--playouts", "8"), f"{GNUGO} --mode gtp --level 1 --chinese-rules",
        "--size", "9", "--games", "2", "--jobs", "2", *NO_LIMITS)
    assert code == 0
    check_real_match(out, results, 2)
    assert results["engines"]["B"]["name"].startswith("GNU Go")


@pytest.mark.slow
@pytest.mark.parametrize("variant", [v for v, _ in VARIANT_SIZES])
def test_longer_matches_on_9x9_with_a_clock(tmp_path, capsys, variant):
    out = tmp_path / variant
    code, results, _, _ = run_match(
        capsys, out, ours("--playouts", "100", "--seed", "{seed}"), ours("--playouts", "30", "--seed", "{seed}"),
        "--variant", variant, "--size", "9", "--games", "4", "--main-time", "60", "--byoyomi", "5")
    assert code == 0
    check_real_match(out, results, 4)
    lines = transcript(out, 0)
    assert "A >> time_settings 60 5 1" in lines and any(line.startswith("A >> time_left ") for line in lines)


@pytest.mark.slow
def test_a_longer_match_against_gnugo(tmp_path, capsys):
    if not os.path.exists(GNUGO):
        pytest.skip("GNU Go is not installed")
    out = tmp_path / "gnugo"
    code, results, _, _ = run_match(
        capsys, out, ours("--playouts", "200"), f"{GNUGO} --mode gtp --level 2 --chinese-rules",
        "--size", "9", "--games", "6", "--time-per-move", "5")
    assert code == 0
    check_real_match(out, results, 6)


@pytest.mark.slow   # a benchmark script's output (two matches); the runner is tested above
def test_bench_strength_prints_one_json_line_per_variant(tmp_path, capsys):
    from scripts.bench_strength import main as bench
    code = bench(["self", "--variants", "go,loose", "--size", "4", "--games", "2", "--a", "--playouts 4",
                  "--b", "--playouts 2", "--json", "--quiet", "--out", str(tmp_path)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0 and len(lines) == 2
    go, loose = (json.loads(line) for line in lines)
    assert go["match"] == "go4 self" and loose["match"] == "loose5 self"  # Loose needs an odd size
    for figures in (go, loose):
        assert figures["games"] == 2 and figures["wins_a"] + figures["wins_b"] + figures["draws"] == 2
        assert figures["engines"]["A"].startswith("vargo") and figures["engines"]["B"].startswith("vargo")
        assert 0 <= figures["score_a_95"][0] <= figures["score_a"] <= figures["score_a_95"][1] <= 1
    assert (tmp_path / "go4-self" / "results.json").exists() and (tmp_path / "loose5-self" / "results.json").exists()


def test_bench_strength_pachi_plays_it_at_fixed_playouts_seeded_per_game(tmp_path):
    """Pachi under a clock stops early (0.11 s of 1 s a move): the benchmark fixes its
    playouts instead, one thread, a seed per game; a missing binary is a clear error."""
    from scripts.bench_strength import build_parser, main as bench, matches
    binary = tmp_path / "pachi"
    binary.write_text("#!/bin/sh\n")
    args = build_parser().parse_args(["pachi", "--pachi", str(binary), "--pachi-playouts", "7000",
                                      "--ours", "--threads 1", "--size", "9"])
    [(name, ours_command, pachi_command, rules, size)] = matches(args)
    assert name == "go9 pachi-7000" and rules.name == "go" and size == 9
    assert pachi_command.split()[:5] == [str(binary), "-D", "-t", "=7000", "threads=1"]
    assert pachi_command.endswith("-s {seed}")
    assert shlex.split(ours_command)[-4:] == ["--threads", "1", "--seed", "{seed}"]
    assert bench(["pachi", "--pachi", str(tmp_path / "none"), "--out", str(tmp_path)]) == 2
    assert bench(["pachi", "--pachi", str(binary), "--pachi-playouts", "0",
                  "--out", str(tmp_path)]) == 2


# --------------------------------------------------------------------------- edges of the command line
def run_command_line(tmp_path, *args, prelude=""):
    """``vargo-match ARGS`` in a process of its own (``prelude``: Python run before it)."""
    code = f"{prelude}\nimport sys\nfrom gtp_engine.match.runner import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, cwd=tmp_path)


@pytest.mark.parametrize("kind", ["device", "fifo", "folder", "too big"])
def test_a_setup_that_is_no_sgf_file_is_refused_before_it_is_read(tmp_path, kind):
    """--setup reads as vargo --setup and loadsgf do (sgf.read_file): a device or a fifo with no
    writer is refused before it is opened for reading (it would never end or never begin), and a
    regular file over the 16 MiB limit is refused without being read whole."""
    setup = {"device": "/dev/zero", "fifo": tmp_path / "fifo", "folder": tmp_path,
             "too big": tmp_path / "huge.sgf"}[kind]
    if kind == "fifo":
        os.mkfifo(setup)
    if kind == "too big":
        with open(setup, "wb") as f:
            f.write(b"(;GM[1]FF[4]SZ[9]")
            f.truncate(16 * 2 ** 20 + 1)                # sparse: no disk space taken
    out = tmp_path / "m"
    done = run_command_line(tmp_path, fake(), fake(), "--setup", setup, "--out", out)
    reason = "more than 16 MiB, too big for an sgf file" if kind == "too big" else "not a regular file"
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"vargo-match: --setup {setup}: cannot read {quote_path(setup)}: {reason}\n"
    assert not out.exists()


def test_cluster_without_dask_is_a_pip_hint_before_any_engine_starts(tmp_path):
    started = tmp_path / "started"
    engine = shlex.join([sys.executable, "-c", f"open({str(started)!r}, 'w')"])
    done = run_command_line(tmp_path, engine, engine, "--cluster", "tcp://127.0.0.1:8786",
                            "--out", tmp_path / "m",
                            prelude="import sys; sys.modules['distributed'] = None  # not installed")
    assert done.returncode == 2
    assert done.stderr == ("vargo-match: --cluster needs Dask distributed, the cluster extra: pip install "
                           "'variant-go-engine[cluster]' (or pip install -e \".[cluster]\" in a checkout)\n")
    assert not started.exists() and not (tmp_path / "m").exists()


def test_an_output_folder_that_cannot_be_made_is_a_clear_error(tmp_path):
    out = tmp_path / "a-file" / "m"
    (tmp_path / "a-file").write_text("not a folder")
    done = run_command_line(tmp_path, fake(), fake(), "--size", "5", "--out", out)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"vargo-match: cannot write to {out}: not a directory; ")


@pytest.mark.parametrize("failing", ["game-0002.sgf", "results.json", "game-0002.gtp.log"])
def test_a_full_disk_stops_the_match_and_loses_nothing(tmp_path, capsys, monkeypatch, failing):
    """The disk fills up while game 2 is written (its record, the results, or its transcript):
    the match stops with a clear error and exit code 2, game 1 stays stored, and the same
    command resumes once there is room, playing game 2 again."""
    import builtins
    from gtp_engine.match import runner
    out = tmp_path / "m"
    a, b = fake("--seed", "1"), fake("--seed", "2")
    real_write, real_open = runner.write_atomically, builtins.open
    state = {"games": 0}

    def full(path):
        raise OSError(errno.ENOSPC, "No space left on device")

    def write_atomically(path, data):
        if Path(path).name == failing and (failing != "results.json" or state["games"] == 1):
            full(path)
        if Path(path).name == "results.json":
            state["games"] += 1
        real_write(path, data)

    class FullFile:
        def __init__(self, file):
            self.file = file

        def __getattr__(self, name):
            return getattr(self.file, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def flush(self):
            full(self.file.name)

    def open_(path, *args, **kwargs):
        opened = real_open(path, *args, **kwargs)
        return FullFile(opened) if Path(str(path)).name == failing else opened

    monkeypatch.setattr(runner, "write_atomically", write_atomically)
    monkeypatch.setattr(builtins, "open", open_)
    code, stopped, stdout, stderr = run_match(capsys, out, a, b, "--size", "5", "--games", "3", "--jobs", "1")
    assert code == 2 and stdout == ""
    assert stderr.endswith(f"vargo-match: cannot write to {out}: no space left on device; the games "
                           f"finished before are kept, run the same command again to resume\n")
    assert [g["index"] for g in stopped["games"]] == [0]
    monkeypatch.undo()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    code, resumed, _, stderr = run_match(capsys, out, a, b, "--size", "5", "--games", "3", "--jobs", "1")
    assert code == 0 and [g["index"] for g in resumed["games"]] == [0, 1, 2]
    assert resumed["games"][0] == stopped["games"][0]
    assert "game 1:" not in stderr and all((out / f"game-000{n}.sgf").exists() for n in (1, 2, 3))
