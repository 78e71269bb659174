"""Calibrate a game's default komi by self-play, on the match runner (RULES C7; README "Komi").

    python scripts/calibrate_komi.py --variant go --size 9 --games 24 --playouts 200 \\
        --out runs/calibrate-go-9 [--jobs 2 | --cluster tcp://HOST:8786]

Round 1 plays ``--games`` self-play games at the game's default komi; every game scored by
the referee gives Black's margin without komi. The komi at which Black wins half the games is
the median of those margins. Round 2 plays as many games again at that median (rounded as
below) and the estimate becomes the median of all margins. The answer:

- the fair komi estimate (median) with a 95% interval for it (order statistics of the margins:
  the median lies between the j-th and k-th smallest with 95% confidence, binomial(n, 1/2));
- the default komi proposed: the estimate rounded to the nearest half point that cannot draw
  (x.5) for games with draws, to the nearest even integer in Loose (RULES C6);
- Black's score (wins, draws as halves) in the last round with its 95% Wilson interval.

Both players are the same engine (``--playouts`` per move, one thread): A gets a fresh seed
every game (``{seed}``, restarted), B keeps one, so no two games repeat. Games that end by
resignation or forfeit have no margin and are left out (the engines do not resign here).
Terrain Go plays a new map per pair of games with forts by the engines (``genfort``), so its
calibration is over maps. Each round is a match directory under ``--out`` (resumable).
"""

import argparse
import json
import math
import shlex
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.rules import find_rules  # noqa: E402
from scripts.match_stats import wilson_interval  # noqa: E402


def margins_of(results: dict) -> List[float]:
    """Black's margins without komi of the scored games of a match's results."""
    margins = []
    for game in results["games"]:
        if game.get("score") is None or game.get("komi") is None:
            continue
        black, white = game["score"]
        margins.append(black - (white - game["komi"]))
    return margins


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def median_interval(values: Sequence[float], confidence: float = 0.95) -> Tuple[float, float]:
    """A distribution-free interval for the median: the j-th and (n+1-j)-th smallest values,
    j the largest with P(Binomial(n, 1/2) < j) <= (1 - confidence) / 2."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return -math.inf, math.inf
    tail = (1 - confidence) / 2
    cumulative, j = 0.0, 0
    for k in range(n + 1):
        cumulative += math.comb(n, k) / 2 ** n
        if cumulative > tail:
            j = k
            break
    if j == 0:
        return -math.inf, math.inf
    return ordered[j - 1], ordered[n - j]


def proposed_default(rules, estimate: float) -> float:
    """A default komi near ``estimate`` that the rules accept and that cannot end in a draw:
    the nearest x.5 where draws exist, the nearest even integer in Loose (no draws, C6)."""
    if not rules.has_draws:
        return float(2 * round(estimate / 2))
    return math.floor(estimate) + 0.5


def black_score(results: dict) -> Tuple[float, int]:
    """(Black's wins plus half the draws, games) of a match."""
    score, games = 0.0, 0
    for game in results["games"]:
        if game["result"].startswith("B+"):
            score += 1
        elif game["result"] == "0":
            score += 0.5
        games += 1
    return score, games


def run_round(args, komi: float, out: Path) -> dict:
    from scripts.match import main as match_main
    engine = [sys.executable, "-m", "gtp_engine", "--playouts", str(args.playouts), "--threads", "1",
              "--quiet"]
    options = ["--variant", args.variant, "--size", str(args.size), "--komi", f"{komi:g}",
               "--games", str(args.games), "--seed", str(args.seed), "--out", str(out),
               "--no-engine-scores", "--quiet"]
    options += ["--cluster", args.cluster] if args.cluster else ["--jobs", str(args.jobs)]
    code = match_main([shlex.join(engine + ["--seed", "{seed}"]), shlex.join(engine + ["--seed", "7"]),
                       *options])
    if code != 0:
        raise SystemExit(code)
    return json.loads((out / "results.json").read_text())


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="calibrate_komi", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="go")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=24, help="games per round (default 24)")
    parser.add_argument("--rounds", type=int, default=2, choices=(1, 2))
    parser.add_argument("--playouts", type=int, default=200, help="per move (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (maps, engine seeds)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cluster", help="Dask scheduler address or local:N (vargo-match --cluster)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = parser.parse_args(argv)
    rules = find_rules(args.variant)
    komi = float(rules.default_komi)
    margins: List[float] = []
    rounds = []
    for number in range(args.rounds):
        results = run_round(args, komi, args.out / f"round{number + 1}-komi{komi:g}")
        found = margins_of(results)
        margins += found
        score, games = black_score(results)
        rounds.append({"komi": komi, "games": games, "black_score": score,
                       "black_interval": wilson_interval(score, games), "median": median(found)})
        komi = proposed_default(rules, median(margins))
    estimate = median(margins)
    low, high = median_interval(margins)
    report = {"variant": rules.name, "size": args.size, "playouts": args.playouts,
              "games": len(margins), "estimate": estimate, "interval": [low, high],
              "default": proposed_default(rules, estimate), "rounds": rounds}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{rules.name} {args.size}x{args.size}: fair komi {estimate:+.1f} "
              f"(95% {low:+.1f}..{high:+.1f}, median of {len(margins)} margins), "
              f"default {report['default']:g}")
        for r in rounds:
            lo, hi = r["black_interval"]
            print(f"  komi {r['komi']:g}: black {r['black_score']:g}/{r['games']} "
                  f"({100 * lo:.0f}%..{100 * hi:.0f}%), median margin {r['median']:+.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
