"""The simulated matches of ``scripts/bench_sprt.py``: the opening bias is calibrated away so
that the mean score is the true Elo's, and a test on a clear difference decides the right way."""

import math
import random

import pytest

from gtp_engine.match.stats import Sprt, expected_score
from scripts.bench_sprt import _chance, logit_for, main, one_test


def test_without_a_spread_the_logit_is_the_elos_own():
    assert logit_for(60, 0.0) == pytest.approx(60 * math.log(10) / 400, abs=1e-6)


def test_with_a_spread_the_mean_score_is_still_the_true_elos():
    e = logit_for(60, 1.0)
    assert e > 60 * math.log(10) / 400          # the biases flatten the score; e makes up for it
    draws = random.Random(1)
    biases = [draws.gauss(0.0, 1.0) for _ in range(20000)]
    mean = sum(_chance(e + d) + _chance(e - d) for d in biases) / 40000
    assert mean == pytest.approx(expected_score(60), abs=0.005)


@pytest.mark.parametrize("pairs", [False, True])
def test_a_clear_difference_is_found_either_way(pairs):
    rng = random.Random(3)
    test = Sprt(0, 60, pairs=pairs)
    assert one_test(test, logit_for(300, 1.0), 1.0, rng, 500)[0] == "H1"
    assert one_test(test, logit_for(-300, 1.0), 1.0, rng, 500)[0] == "H0"


def test_the_script_prints_a_row_per_elo_and_ratio(capsys):
    assert main(["--tests", "2", "--elo", "0", "--max-pairs", "20"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("true")]
    assert len(rows) == 2 and "games:" in rows[0] and "pairs:" in rows[1]
