"""The fair komi of a position (GTP ``fair_komi``, RULES T9): the komi at which both sides win
equally often with good play, estimated by the search player (no second search).

How (``estimate_fair_komi``): a few *probes*, each a search of the position at some komi ``k``
with a share of the budget, on a private copy of the game. A probe gives Black's win rate
``w(k)`` at the root (the best move's) and Black's expected margin *without* komi (the best
move's score lead, turned to Black's side, plus ``k``).

1. The first probe searches at the game's komi; its margin is the first estimate.
2. The estimate so far is the zero (``w = 1/2``) of the least-squares line ``w(k) = a + b k``
   through the probes, or, while that line is unusable (one komi so far, or a slope that is
   not falling), their mean margin. Further probes search about it, ``SPREAD`` points below
   and above, then half as far: the win rate moves by one or two percent per point of komi,
   about as much as its noise, so the line needs komis some points apart.
3. The answer is the zero of the final line (``w = 1/2``), when its slope falls as it must (a higher komi never helps Black) and the zero lies among the komis
   probed (plus a margin); else the mean margin. Its standard error comes from the line's
   residuals (delta method), or from the spread of the margins; it goes to stderr with the
   probes, never into the answer.

The win rate is the better estimator: the search plays to win at the komi it is given, so the
margin it expects is biased towards that komi, while ``w(k) = 1/2`` is exactly the definition.
Margins start the probes near the answer (measured here: within about one point of the
published values on 7x7 and 9x9 Go, docs/RESEARCH.md "Komi").

The answer is rounded to a komi the rules accept (``Rules.nearest_komi``: multiples of 0.5, even
integers in Loose). Probing komis the rules would refuse (a half point in Loose) is fine: the
probes search a private copy and never set the game's komi.
"""

import math
import time
from dataclasses import dataclass, field
from typing import List, Optional

from ..coords import Color
from ..errors import RulesError
from . import _backend

DEFAULT_SECONDS = 20.0      #: budget of ``fair_komi`` without an argument
PROBES = 5                  #: searches per estimate
SPREAD = 3.0                #: points between the estimate and the komis probed about it
LINE_REACH = 1.5            #: how far (points) the line's zero may lie outside the komis probed
MIN_STDERR = 0.25           #: never claim better than this (the komi steps are 0.5)


@dataclass
class Probe:
    """One search at ``komi``: Black's win rate and Black's margin without komi."""

    komi: float
    winrate: float
    margin: float
    simulations: int
    seconds: float


@dataclass
class FairKomi:
    """An estimate: ``komi`` rounded to what the rules accept, ``value`` unrounded, its
    ``stderr``, how it was found (``method``: ``winrate`` or ``margin``) and the probes."""

    komi: float
    value: float
    stderr: float
    method: str
    probes: List[Probe] = field(default_factory=list)

    @property
    def simulations(self) -> int:
        return sum(p.simulations for p in self.probes)

    @property
    def seconds(self) -> float:
        return sum(p.seconds for p in self.probes)

    def report(self) -> str:
        """Lines for stderr: the answer with its uncertainty, then each probe."""
        lines = [f"fair komi {self.komi:g} (estimate {self.value:+.2f} +- {self.stderr:.2f}, "
                 f"by {self.method}; {self.simulations} simulations in {self.seconds:.1f} s)"]
        for p in self.probes:
            lines.append(f"  probe komi {p.komi:+6.1f}: black wins {100 * p.winrate:5.1f}%, "
                         f"black margin without komi {p.margin:+6.2f} ({p.simulations} simulations)")
        return "\n".join(lines)


def _black_view(analysis, color: Color, komi: float):
    """(Black's win rate, Black's margin without komi) from an analysis for ``color``."""
    winrate = analysis.winrate
    lead = analysis.score_lead
    if color == Color.WHITE:
        winrate, lead = 1.0 - winrate, -lead
    return winrate, lead + komi


def _line(probes: List[Probe]):
    """Least squares ``w = a + b k`` through the probes, each weighted by its simulations:
    (a, b, residual variance per unit weight, weighted mean komi, weighted spread of komi,
    total weight), or None with fewer than two komis."""
    komis = {p.komi for p in probes}
    weights = [float(max(p.simulations, 1)) for p in probes]
    total = sum(weights)
    if len(probes) < 2 or len(komis) < 2:
        return None
    mk = sum(w * p.komi for w, p in zip(weights, probes)) / total
    mw = sum(w * p.winrate for w, p in zip(weights, probes)) / total
    sxx = sum(w * (p.komi - mk) ** 2 for w, p in zip(weights, probes))
    sxy = sum(w * (p.komi - mk) * (p.winrate - mw) for w, p in zip(weights, probes))
    b = sxy / sxx
    a = mw - b * mk
    residual = sum(w * (p.winrate - a - b * p.komi) ** 2 for w, p in zip(weights, probes))
    n = len(probes)
    variance = residual / (n - 2) if n > 2 else 0.0
    return a, b, variance, mk, sxx, total


def _line_zero(probes: List[Probe]):
    """(zero, stderr) of the fitted line at w = 1/2, or None when the line is unusable."""
    fit = _line(probes)
    if fit is None:
        return None
    a, b, variance, mk, sxx, total = fit
    if b >= -1e-4:       # the win rate must fall as komi grows; flat or rising is noise
        return None
    zero = (0.5 - a) / b
    low = min(p.komi for p in probes) - LINE_REACH
    high = max(p.komi for p in probes) + LINE_REACH
    if not low <= zero <= high:
        return None
    # delta method: the spread of the line at its zero, divided by the slope
    spread = math.sqrt(variance * (1.0 / total + (zero - mk) ** 2 / sxx)) if variance > 0 else 0.0
    return zero, spread / abs(b)


def _margin_estimate(probes: List[Probe]):
    """(mean margin weighted by simulations, its standard error or inf with one probe)."""
    weights = [float(max(p.simulations, 1)) for p in probes]
    total = sum(weights)
    mean = sum(w * p.margin for w, p in zip(weights, probes)) / total
    if len(probes) > 1:
        variance = sum(w * (p.margin - mean) ** 2 for w, p in zip(weights, probes)) / total
        return mean, math.sqrt(variance / (len(probes) - 1))
    return mean, float("inf")


def _next_komi(probes: List[Probe], spread: float) -> float:
    """Where the next probe searches: about the current estimate (the line's zero, else the
    mean margin), alternately below and above it by ``spread``, then by half of it, so that the
    line is fitted over a span wider than the win rate's noise (half points)."""
    found = _line_zero(probes)
    centre = found[0] if found is not None else _margin_estimate(probes)[0]
    offsets = (-spread, spread, -spread / 2, spread / 2, 0.0)
    offset = offsets[(len(probes) - 1) % len(offsets)]
    komi = round((centre + offset) * 2) / 2
    tried = {p.komi for p in probes}
    step = 0.5 if offset >= 0 else -0.5
    while komi in tried:    # a second look at the same komi teaches the line little
        komi += step
    return komi


def estimate_fair_komi(player, game, seconds: Optional[float] = None,
                       playouts: Optional[int] = None, probes: int = PROBES) -> FairKomi:
    """Estimate the fair komi of ``game``'s position for the side to move (module docstring).

    The budget is ``seconds`` or ``playouts`` in all (``DEFAULT_SECONDS`` with neither),
    shared equally by the probes; with ``playouts`` and a fixed seed the estimate is
    reproducible. ``game`` is not changed. The player's trees are dropped before and after
    (they were grown at other komis). RulesError while Terrain Go's forts are pending or the
    game is over.
    """
    if game.fort_turn is not None:
        raise RulesError(f"fair komi is for the position after the forts: "
                         f"{game.fort_turn.word} places the next fort")
    if game.over:
        raise RulesError("fair komi needs a game that is not over")
    if seconds is None and playouts is None:
        seconds = DEFAULT_SECONDS
    probes = max(2, int(probes))
    if not _backend.compiled() and _backend.cache_is_warm():
        _backend.compile_now()   # seconds to load: not out of the first probe's share
    probe_game = game.copy()
    color = probe_game.to_move
    done: List[Probe] = []
    komi = float(game.komi)
    try:
        for index in range(probes):
            probe_game.komi = komi   # a probe may search a komi the rules would refuse
            player.clear()
            started = time.perf_counter()
            analysis = player.search(
                probe_game, color,
                seconds=None if seconds is None else seconds / probes,
                playouts=None if playouts is None else max(1, playouts // probes),
                early_stop=False)
            winrate, margin = _black_view(analysis, color, komi)
            done.append(Probe(komi, winrate, margin, analysis.simulations,
                              time.perf_counter() - started))
            if index + 1 < probes:
                komi = _next_komi(done, SPREAD)
    finally:
        player.clear()
    found = _line_zero(done)
    if found is not None:
        value, stderr, method = found[0], found[1], "winrate"
    else:
        (value, stderr), method = _margin_estimate(done), "margin"
    stderr = max(stderr, MIN_STDERR) if math.isfinite(stderr) else stderr
    return FairKomi(game.rules.nearest_komi(value), value, stderr, method, done)
