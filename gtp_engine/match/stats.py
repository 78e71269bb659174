"""Figures of a match from its game records: wins, win rate with its interval, Elo, lengths, times.

A game record is the dict ``gtp_engine.match.runner`` stores per game (``index``, ``black``,
``white``, ``winner``, ``reason``, ``moves``, ``seconds``, ``genmoves``, ``engine_scores``...).
A draw counts half a win for each side. The 95% interval of A's score is Wilson's; the Elo
difference and its interval follow from the score and its bounds by the logistic model
(infinite at 0% and 100%, written as None in JSON and ``inf`` in text).

``Sprt`` is a sequential probability ratio test of "A is elo0 better than B" against "A is elo1
better": after every game the log-likelihood ratio of the two (``Sprt.llr``) is compared with
bounds set by the error rates alpha (accepting elo1 when elo0 is true) and beta (the other way).
With ``pairs`` the test reads the match as its colour-swapped pairs of games (``pair_llr``).
"""

import math
from collections import Counter
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

Z95 = 1.959963984540054


def wilson_interval(score: float, games: int, z: float = Z95) -> Tuple[float, float]:
    """Wilson's score interval for a proportion of ``score`` successes out of ``games``.

    ``score`` may be fractional (draws as halves). (0, 1) when there are no games.
    """
    if games <= 0:
        return 0.0, 1.0
    p = score / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts an expected ``score`` in 0..1 (±inf at the ends)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score)) + 0.0  # + 0.0: no negative zero


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (the inverse of elo_difference)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


#: the SPRT's verdicts: keep playing, elo1 holds (H1: A is better), elo0 holds (H0)
CONTINUE, ACCEPT_H1, ACCEPT_H0 = "continue", "H1", "H0"


@dataclass(frozen=True)
class Sprt:
    """A sequential test of H0: Elo(A-B) = ``elo0`` against H1: Elo(A-B) = ``elo1`` (elo0 < elo1),
    with false-positive rate ``alpha`` and false-negative rate ``beta``.

    The log-likelihood ratio is Wald's for a win probability s1 against s0 (the expected scores
    of elo1 and elo0), a draw counting as half a win and half a loss:
    (W + D/2) log(s1/s0) + (L + D/2) log((1 - s1)/(1 - s0)). Exact at any number of games: the
    normal approximation of the generalized SPRT (cutechess-cli, Fishtest), with the variance
    taken from the games, accepted H1 after 6 wins and no loss at 0,100 (its variance was
    nearly 0), where Wald's test needs 12 in a row. Games are taken as independent (pairs with
    colours swapped are not).

    ``pairs``: the ratio is ``pair_llr``'s instead, over the complete pairs of games (indices
    2k and 2k+1: one opening, colours swapped), which the runner always plays. A pair's two
    results are not independent (a lopsided opening tends to give each engine one win), so the
    spread of pair scores is narrower than independent games would have, and taking that into
    account decides sooner at the same error rates.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    pairs: bool = False

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise ValueError(f"the SPRT needs elo0 < elo1, not {self.elo0:g} and {self.elo1:g}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, not {getattr(self, name):g}")

    @property
    def bounds(self) -> Tuple[float, float]:
        """(lower, upper): the LLR at or below which H0 is accepted, at or above which H1."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: float, draws: float, losses: float) -> float:
        """The log-likelihood ratio of H1 to H0 after A's ``wins``, ``draws`` and ``losses``."""
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        won, lost = wins + 0.5 * draws, losses + 0.5 * draws
        return won * math.log(s1 / s0) + lost * math.log((1 - s1) / (1 - s0))

    def verdict(self, llr: float) -> str:
        lower, upper = self.bounds
        return ACCEPT_H1 if llr >= upper else ACCEPT_H0 if llr <= lower else CONTINUE

    def report(self, games: Sequence[dict]) -> dict:
        """The test's state after ``games`` (records with ``winner`` "A", "B" or None, in the
        order played), JSON-ready. The verdict is the one of the first game after which the
        ratio crossed a bound (``decided_after``): games that were under way then still finish
        and count in ``llr``, but cannot take the decision back."""
        wins = {"A": 0, "B": 0, None: 0}
        halves: Dict[int, float] = {}              # a pair's first game's points, until its second
        pair_scores: Counter = Counter()           # complete pairs by A's points (0, 0.5, ... 2)
        llr = 0.0
        verdict, decided_after = CONTINUE, None
        for number, game in enumerate(games, 1):
            wins[game["winner"]] += 1
            if self.pairs:
                points = _points_a(game)
                pair = game["index"] // 2
                if pair not in halves:
                    halves[pair] = points
                    continue   # nothing new to weigh until the pair is complete
                pair_scores[halves.pop(pair) + points] += 1
                llr = self.pair_llr(pair_scores)
            else:
                llr = self.llr(wins["A"], wins[None], wins["B"])
            if verdict == CONTINUE:
                verdict = self.verdict(llr)
                if verdict != CONTINUE:
                    decided_after = number
        lower, upper = self.bounds
        report = {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                  "llr": round(llr, 3), "bounds": [round(lower, 3), round(upper, 3)],
                  "verdict": verdict, "decided_after": decided_after}
        if self.pairs:
            report["pairs"] = sum(pair_scores.values())
        return report

    def pair_llr(self, pair_scores: Dict[float, int]) -> float:
        """The generalized log-likelihood ratio of H1 to H0 over complete pairs, counted by
        A's points in the pair (0, 0.5, 1, 1.5 or 2; a draw is half a point). Each hypothesis
        is the distribution over those five outcomes that is likeliest for the pairs seen
        among those whose mean pair score is 2 s (s the expected score of elo1, or of elo0);
        the ratio is the pairs' log-likelihood under the first less under the second. Every
        outcome carries a thousandth of a pair more than was seen, so that a short run of one
        outcome alone still has a distribution of each mean near it: 6 pairs won twice over
        weigh as log(s1/s0) each, half of what Wald's ratio gives their 12 wins."""
        counts = {x / 4.0: pair_scores.get(x / 2.0, 0) + _PSEUDO_PAIRS for x in range(5)}
        near0 = _likeliest_with_mean(counts, expected_score(self.elo0))
        near1 = _likeliest_with_mean(counts, expected_score(self.elo1))
        return sum((n - _PSEUDO_PAIRS) * math.log(near1[x] / near0[x]) for x, n in counts.items())


_PSEUDO_PAIRS = 1e-3


def _points_a(game: dict) -> float:
    """A's points in one game record: 1 a win, 0.5 a draw, 0 a loss."""
    return 1.0 if game["winner"] == "A" else 0.5 if game["winner"] is None else 0.0


def _likeliest_with_mean(counts: Dict[float, float], mean: float) -> Dict[float, float]:
    """Of the distributions over the outcomes in ``counts`` (values in 0..1, some below and
    some above ``mean``) with that mean, the likeliest for those counts:
    p(x) = f(x) / (1 + t (x - mean)), f the frequencies, t the root (found by bisection) of
    the sum of f(x) (x - mean) / (1 + t (x - mean)), which falls as t rises."""
    total = sum(counts.values())
    freq = {x: n / total for x, n in counts.items()}
    low = -1.0 / (max(freq) - mean)
    high = 1.0 / (mean - min(freq))
    for _ in range(100):
        t = 0.5 * (low + high)
        if sum(f * (x - mean) / (1 + t * (x - mean)) for x, f in freq.items()) > 0:
            low = t
        else:
            high = t
    t = 0.5 * (low + high)
    return {x: f / (1 + t * (x - mean)) for x, f in freq.items()}


def _finite(x: float) -> Optional[float]:
    return round(x, 1) if math.isfinite(x) else None


def summarize(records: Iterable[dict]) -> dict:
    """The match's figures as a JSON-ready dict (see the module docstring)."""
    records = list(records)
    n = len(records)
    wins = Counter(r["winner"] for r in records)
    draws = wins.pop(None, 0)
    by_colour: Dict[str, Dict[str, Dict[str, int]]] = {
        label: {colour: {"games": 0, "wins": 0, "draws": 0} for colour in ("black", "white")}
        for label in ("A", "B")}
    for r in records:
        for colour in ("black", "white"):
            cell = by_colour[r[colour]][colour]
            cell["games"] += 1
            if r["winner"] is None:
                cell["draws"] += 1
            elif r["winner"] == r[colour]:
                cell["wins"] += 1
    score_a = wins.get("A", 0) + 0.5 * draws
    rate = score_a / n if n else None
    low, high = wilson_interval(score_a, n)
    seconds = {label: sum(r["seconds"][label] for r in records) for label in ("A", "B")}
    genmoves = {label: sum(r["genmoves"][label] for r in records) for label in ("A", "B")}
    cpu = {label: [(r["cpu_seconds"][label], r["genmoves"][label]) for r in records
                   if (r.get("cpu_seconds") or {}).get(label) is not None] for label in ("A", "B")}
    black_wins = sum(1 for r in records if r["winner"] is not None and r["winner"] == r["black"])
    return {
        "games": n,
        "wins": {"A": wins.get("A", 0), "B": wins.get("B", 0)},
        "draws": draws,
        "black_wins": black_wins,
        "by_colour": by_colour,
        "win_rate_a": round(rate, 4) if rate is not None else None,
        "win_rate_a_95": [round(low, 4), round(high, 4)] if n else None,
        "elo_a_minus_b": _finite(elo_difference(rate)) if n else None,
        "elo_95": [_finite(elo_difference(low)), _finite(elo_difference(high))] if n else None,
        "average_moves": round(sum(r["moves"] for r in records) / n, 1) if n else None,
        "seconds_per_move": {label: round(seconds[label] / genmoves[label], 3) if genmoves[label] else None
                             for label in ("A", "B")},
        "cpu_seconds_per_move": {label: _per_move(cpu[label]) for label in ("A", "B")},
        "pairs": _pairs(records),
        "reasons": dict(Counter(r["reason"] for r in records).most_common()),
        "engine_score_disagreements": _score_disagreements(records),
        "forts_lost": _forts_lost(records),
    }


def _forts_lost(records: List[dict]) -> Optional[Dict[str, List[int]]]:
    """Per label, [forts that ended in the opponent's territory, forts placed] over the scored
    games with forts (Terrain Go, T7): how well each engine places its forts. None without."""
    counts = {"A": [0, 0], "B": [0, 0]}
    scored = [r for r in records if r.get("forts_lost")]
    for r in scored:
        for label in ("A", "B"):
            counts[label][0] += r["forts_lost"][label]
            counts[label][1] += len(r["forts"]) // 2
    return counts if scored else None


def _pairs(records: List[dict]) -> Dict[str, int]:
    """Complete pairs of games (2k, 2k+1: same map and opening, colours swapped) that A won
    both of, split, or B won both of. Splits mean the colour decided more than the engines."""
    by_pair: Dict[int, List[dict]] = {}
    for r in records:
        by_pair.setdefault(r["index"] // 2, []).append(r)
    counts = {"A": 0, "split": 0, "B": 0}
    for pair in by_pair.values():
        if len(pair) == 2:
            points = sum(_points_a(r) for r in pair)
            counts["A" if points == 2 else "B" if points == 0 else "split"] += 1
    return counts


def _per_move(pairs: List[Tuple[float, int]]) -> Optional[float]:
    moves = sum(m for _, m in pairs)
    return round(sum(s for s, _ in pairs) / moves, 3) if moves else None


def _score_disagreements(records: List[dict]) -> Dict[str, int]:
    """How often each engine's own ``final_score`` named another winner than the referee."""
    counts = {"A": 0, "B": 0}
    for r in records:
        for label, text in (r.get("engine_scores") or {}).items():
            if text is not None and text[:1].upper() != r["result"][:1].upper():
                counts[label] += 1
    return counts


def _elo_text(value: Optional[float], infinite_sign: str) -> str:
    return f"{value:+.0f}" if value is not None else f"{infinite_sign}inf"


def format_summary(summary: dict, names: Dict[str, str]) -> str:
    """The summary as a few lines of text for people; ``names`` labels A and B."""
    n = summary["games"]
    if not n:
        return "no games played"
    a, b = names["A"], names["B"]
    lines = [f"{n} games: A {a}: {summary['wins']['A']} wins, B {b}: {summary['wins']['B']} wins, "
             f"{summary['draws']} draws (black won {summary['black_wins']})"]
    for label, name in (("A", a), ("B", b)):
        parts = []
        for colour in ("black", "white"):
            cell = summary["by_colour"][label][colour]
            parts.append(f"as {colour} {cell['wins']}/{cell['games']}" +
                         (f" (+{cell['draws']} draws)" if cell["draws"] else ""))
        lines.append(f"  {label} ({name}) " + ", ".join(parts))
    low, high = summary["win_rate_a_95"]
    elo_low, elo_high = summary["elo_95"]
    lines.append(f"A's score {100 * summary['win_rate_a']:.1f}% (95% {100 * low:.1f}%..{100 * high:.1f}%), "
                 f"Elo A-B {_elo_text(summary['elo_a_minus_b'], '+' if summary['win_rate_a'] >= 1 else '-')} "
                 f"(95% {_elo_text(elo_low, '-')}..{_elo_text(elo_high, '+')})")
    per_move = summary["seconds_per_move"]
    lines.append(f"average length {summary['average_moves']} moves; seconds per move: "
                 + ", ".join(f"{label} {per_move[label]:.3f}" if per_move[label] is not None else f"{label} -"
                             for label in ("A", "B")))
    cpu = summary["cpu_seconds_per_move"]
    if any(v is not None for v in cpu.values()):
        lines.append("cpu seconds per move (cputime, else /proc): "
                     + ", ".join(f"{label} {cpu[label]:.3f}" if cpu[label] is not None else f"{label} -"
                                 for label in ("A", "B")))
    pairs = summary["pairs"]
    if any(pairs.values()):
        lines.append(f"pairs (colours swapped): A won both {pairs['A']}, split {pairs['split']}, "
                     f"B won both {pairs['B']}")
    lines.append("ended by: " + ", ".join(f"{reason} {count}" for reason, count in summary["reasons"].items()))
    lost = summary.get("forts_lost")
    if lost:
        lines.append("forts that ended in the opponent's territory: "
                     + ", ".join(f"{label} {lost[label][0]}/{lost[label][1]}" for label in ("A", "B")))
    test = summary.get("sprt")
    if test:
        verdict = {ACCEPT_H1: f"H1 accepted (A-B is {test['elo1']:g} rather than {test['elo0']:g})",
                   ACCEPT_H0: f"H0 accepted (A-B is {test['elo0']:g} rather than {test['elo1']:g})",
                   CONTINUE: "undecided"}[test["verdict"]]
        if test.get("decided_after"):
            verdict += f" after {test['decided_after']} games"
        over = f" over {test['pairs']} pairs" if "pairs" in test else ""
        lines.append(f"SPRT elo0={test['elo0']:g} elo1={test['elo1']:g} alpha={test['alpha']:g} "
                     f"beta={test['beta']:g}: LLR{over} {test['llr']:+.2f} "
                     f"(bounds {test['bounds'][0]:+.2f}..{test['bounds'][1]:+.2f}), {verdict}")
    disagreements = summary["engine_score_disagreements"]
    if any(disagreements.values()):
        lines.append("engines' own final_score disagreed with the referee: "
                     + ", ".join(f"{label} {count}" for label, count in disagreements.items()))
    return "\n".join(lines)
