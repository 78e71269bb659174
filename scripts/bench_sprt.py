"""How the match runner's sequential tests behave on simulated matches: the share of tests that
accept H1 and H0, and the games they need, for Wald's ratio over games (``vargo-match --sprt``)
and the ratio over colour-swapped pairs (``--sprt-pairs``). Figures for people, not a test.

    python scripts/bench_sprt.py [--spread 1.0] [--tests 400] [--sprt 0,60] [--elo 0 60]

A simulated match is played as pairs: each pair draws an opening bias d from a normal law of
standard deviation ``--spread`` (logit units; d > 0 favours Black), and A wins as Black with
chance logistic(e + d), as White logistic(e - d). e is set so that A's mean score over the
biases is the one of the true Elo difference, so that each ``--elo`` is the truth the test
should find. Spread 0 makes every game independent; about 1 gives the three pairs in five
that split which our 9x9 matches with ``--opening-moves 2`` show (RESEARCH.md, thirty-fifth
session). A test runs until it decides or ``--max-pairs`` pairs.
"""

import argparse
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gtp_engine.match.stats import CONTINUE, Sprt, expected_score  # noqa: E402


def _chance(logit: float) -> float:
    return 1.0 / (1.0 + math.exp(-logit))


def logit_for(elo: float, spread: float, samples: int = 20000) -> float:
    """The e whose mean score over ``samples`` fixed opening biases is expected_score(elo)."""
    draws = random.Random(7)
    biases = [draws.gauss(0.0, spread) for _ in range(samples)]
    target, low, high = expected_score(elo), -5.0, 5.0
    for _ in range(50):
        e = 0.5 * (low + high)
        mean = sum(_chance(e + d) + _chance(e - d) for d in biases) / (2 * samples)
        low, high = (e, high) if mean < target else (low, e)
    return 0.5 * (low + high)


def one_test(test: Sprt, e: float, spread: float, rng: random.Random, max_pairs: int):
    """(verdict, games played) of one simulated match."""
    wins = Counter()
    pair_scores = Counter()
    for pair in range(1, max_pairs + 1):
        d = rng.gauss(0.0, spread)
        as_black, as_white = rng.random() < _chance(e + d), rng.random() < _chance(e - d)
        wins["A"] += as_black + as_white
        wins["B"] += 2 - as_black - as_white
        pair_scores[float(as_black + as_white)] += 1
        llr = test.pair_llr(pair_scores) if test.pairs else test.llr(wins["A"], 0, wins["B"])
        verdict = test.verdict(llr)
        if verdict != CONTINUE:
            return verdict, 2 * pair
    return CONTINUE, 2 * max_pairs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spread", type=float, default=1.0, help="opening bias, logit units")
    parser.add_argument("--tests", type=int, default=400, help="simulated matches per row")
    parser.add_argument("--sprt", default="0,60", help="ELO0,ELO1 as vargo-match takes them")
    parser.add_argument("--elo", type=float, nargs="+", default=[0.0, 60.0], help="true Elo differences")
    parser.add_argument("--max-pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=12345)
    args = parser.parse_args(argv)
    elo0, elo1 = (float(x) for x in args.sprt.split(","))
    print(f"spread {args.spread:g}, --sprt {elo0:g},{elo1:g}, {args.tests} tests a row")
    for elo in args.elo:
        e = logit_for(elo, args.spread)
        for pairs in (False, True):
            rng = random.Random(args.seed + int(elo))
            results = [one_test(Sprt(elo0, elo1, pairs=pairs), e, args.spread, rng, args.max_pairs)
                       for _ in range(args.tests)]
            verdicts = Counter(v for v, _ in results)
            games = sum(g for _, g in results) / args.tests
            print(f"true {elo:+5g}  {'pairs' if pairs else 'games'}: H1 {verdicts['H1'] / args.tests:.3f}  "
                  f"H0 {verdicts['H0'] / args.tests:.3f}  undecided {verdicts[CONTINUE] / args.tests:.3f}  "
                  f"mean games {games:.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
