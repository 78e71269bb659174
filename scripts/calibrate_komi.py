"""Calibrate a game's default komi (RULES C7; docs/RESEARCH.md "Komi"): the search's fair komi, checked by
self-play on the match runner.

    python scripts/calibrate_komi.py --variant go --size 9 --estimates 3 --fair-playouts 100000 \
        --games 16 --playouts 500 --out runs/calibrate-go-9 [--jobs 2 | --cluster tcp://HOST:8786]

1. The estimate: ``--estimates`` runs of the search's fair komi (``search.fairkomi``, the
   engine's ``fair_komi``) on the empty board, each with ``--fair-playouts`` simulations, one
   thread and its own seed; Terrain Go runs one per random map (map seeds 1, 2, ..., forts by
   the search), so its default is the mean over maps. Reported: the mean and a 95% interval
   (mean +- 1.96 standard errors of the runs).
2. The default proposed: the mean rounded to the nearest half point that cannot draw (x.5) for
   games with draws, to the nearest even integer in Loose (no draws; RULES C6).
3. The check: ``--games`` self-play games at that default (``--playouts`` per move, one
   thread; A gets a fresh seed every game, B keeps one, so no two games repeat), refereed by
   the match runner: Black's score (wins, draws as halves) with its 95% Wilson interval, and
   the median of Black's margins without komi. Weak self-play decides small boards by life
   and death more than by komi (at 200 playouts on 7x7 Go most games ended with one side's
   stones all dead, margins of +-49), so the check wants enough playouts to mean anything.
   ``--games 0`` skips it.

The games are a match directory under ``--out`` (resumable; on a cluster with ``--cluster``).

Games already played say as much, and cost nothing more: ``--from-matches DIR...`` pools the
scored games of the variant and size in match directories (any engines: the match runner
swaps colours every game, so an engine's strength falls on both colours alike)

    python scripts/calibrate_komi.py --variant loose --size 9 --from-matches runs/loose-*

and reports, instead of searching and playing, Black's score at each komi the games were
played at (Wilson 95%), the median of Black's margins without komi (the komi at which Black
would win half of these games, with a 95% interval from the order statistics, the sign
test's), Black's share had the games been scored at each komi the rules allow around it, and
the one of those nearest an even share (``default_rescored``). Those figures assume play would not
change with the komi, and it does (the search aims at a margin): Disto's games at 2.5 put 1.5
at 50.7%, and 200 games played at 1.5 gave Black 57%. So a new default is checked by games
played at it, and of the komis played 50 times or more the one nearest an even share is
reported too (``default_as_played``).
"""

import argparse
import json
import math
import shlex
import statistics
import sys
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.rules import find_rules  # noqa: E402
from gtp_engine.match.stats import wilson_interval  # noqa: E402


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


def median_interval(values: Sequence[float], z: float = 1.96) -> Tuple[float, float]:
    """A 95% interval of the median of ``values`` from the order statistics: the values at
    ranks n/2 -+ z*sqrt(n)/2 (the normal form of the sign test's binomial)."""
    ordered = sorted(values)
    n = len(ordered)
    half = z * math.sqrt(n) / 2
    low = max(0, int(math.floor(n / 2 - half)))
    high = min(n - 1, int(math.ceil(n / 2 + half)) - 1)
    return ordered[low], ordered[high]


def pooled_games(folders: Sequence[Path], variant: str, size: int) -> List[dict]:
    """The scored games of ``variant`` on ``size`` in the match directories ``folders``."""
    games = []
    for folder in folders:
        path = Path(folder) / "results.json"
        if not path.is_file():
            print(f"skipped {folder}: no results.json", file=sys.stderr)
            continue
        results = json.loads(path.read_text())
        settings = results.get("settings", {})
        if settings.get("variant", variant) != variant or int(settings.get("size", size)) != size:
            continue
        games += [g for g in results["games"]
                  if g.get("score") is not None and g.get("komi") is not None]
    return games


def pooled_report(rules, size: int, games: List[dict]) -> dict:
    """Black's score per komi played and the median margin without komi of ``games``."""
    by_komi = {}
    for game in games:
        entry = by_komi.setdefault(float(game["komi"]), [0.0, 0])
        entry[0] += 1.0 if game["result"].startswith("B+") else 0.5 if game["result"] == "0" else 0.0
        entry[1] += 1
    margins = margins_of({"games": games})
    report = {"variant": rules.name, "size": size, "games": len(games),
              "by_komi": {f"{komi:g}": {"black_score": score, "games": n,
                                         "black_interval": wilson_interval(score, n)}
                          for komi, (score, n) in sorted(by_komi.items())}}
    if margins:
        middle = median(margins)
        report.update(median_margin=middle, median_interval=median_interval(margins))
        # the komis the rules allow on either side of the median (x.5 where a game can be
        # drawn, even integers in Loose): Black's share of these games had they been scored at
        # each (a tie counted half); the default is the one nearest an even share (margins
        # are often whole points, so the median alone cannot choose between its neighbours)
        step = 1.0 if rules.has_draws else 2.0
        below = (math.floor(middle - 0.5) + 0.5) if rules.has_draws else 2 * math.floor(middle / 2)
        candidates = [below - step, below, below + step, below + 2 * step]
        shares = {komi: sum(1.0 if m > komi else 0.5 if m == komi else 0.0 for m in margins) / len(margins)
                  for komi in candidates}
        report["shares_if_scored_at"] = {f"{komi:g}": share for komi, share in shares.items()}
        report["default_rescored"] = min(candidates, key=lambda komi: (abs(shares[komi] - 0.5),
                                                                        abs(komi - middle)))
    # the engines play differently at another komi (their search aims at a margin), so a
    # default is best judged on games really played at it: of the komis played (50 games or
    # more), the one where Black's score was nearest an even share
    played = {komi: row for komi, row in report["by_komi"].items() if row["games"] >= 50}
    if played:
        report["default_as_played"] = float(min(played, key=lambda komi: abs(
            played[komi]["black_score"] / played[komi]["games"] - 0.5)))
    return report


def print_pooled(report: dict) -> None:
    print(f"{report['variant']} {report['size']}x{report['size']}: {report['games']} scored games")
    for komi, row in report["by_komi"].items():
        lo, hi = row["black_interval"]
        print(f"  at komi {komi}: Black {row['black_score']:g}/{row['games']} "
              f"({100 * row['black_score'] / row['games']:.1f}%, 95% {100 * lo:.1f}..{100 * hi:.1f}%)")
    if "median_margin" in report:
        lo, hi = report["median_interval"]
        print(f"  Black's median margin without komi {report['median_margin']:g} (95% {lo:g}..{hi:g})")
        print("  Black's share had these games been scored at komi " + ", ".join(
            f"{komi}: {100 * share:.1f}%" for komi, share in report["shares_if_scored_at"].items())
            + f"; nearest an even share {report['default_rescored']:g} (as if play did not change"
            " with the komi: check a new default by playing at it)")
    if "default_as_played" in report:
        print(f"  of the komis played 50 times or more, nearest an even share: "
              f"{report['default_as_played']:g}")


def run_check(args, komi: float, out: Path) -> dict:
    from gtp_engine.match.runner import main as match_main
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


def search_estimates(rules, size: int, runs: int, playouts: int) -> List[dict]:
    """``runs`` fair komi estimates by the search (seeds 1, 2, ...; one map each in Terrain Go)."""
    from gtp_engine.game import Game
    from gtp_engine.search import _backend, fortsearch
    from gtp_engine.search.fairkomi import estimate_fair_komi
    from gtp_engine.search.player import SearchPlayer, SearchSettings
    _backend.compile_now()
    found = []
    for seed in range(1, runs + 1):
        game = Game(rules, size, terrain_seed=seed)
        if game.terrain is not None:
            fortsearch.place_forts(game, seed)
        estimate = estimate_fair_komi(SearchPlayer(SearchSettings(threads=1, seed=seed)), game,
                                      playouts=playouts)
        found.append({"seed": seed, "value": estimate.value, "stderr": estimate.stderr,
                      "komi": estimate.komi, "seconds": round(estimate.seconds, 1)})
        print(f"  estimate {seed}: {estimate.value:+.2f} +- {estimate.stderr:.2f} "
              f"({estimate.seconds:.1f} s)", file=sys.stderr, flush=True)
    return found


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="calibrate_komi", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="go")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--estimates", type=int, default=3, help="search estimates (default 3)")
    parser.add_argument("--fair-playouts", type=int, default=100000,
                        help="simulations per search estimate (default 100000)")
    parser.add_argument("--games", type=int, default=16, help="self-play games of the check (default 16)")
    parser.add_argument("--playouts", type=int, default=500, help="per move in the check (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (maps, engine seeds)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cluster", help="Dask scheduler address or local:N (vargo-match --cluster)")
    parser.add_argument("--out", type=Path, help="directory of the check's games (needed unless --from-matches)")
    parser.add_argument("--from-matches", type=Path, nargs="+", metavar="DIR",
                        help="pool the games of these match directories instead of searching and playing")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = parser.parse_args(argv)
    rules = find_rules(args.variant)
    rules.check_size(args.size)
    if args.from_matches:
        games = pooled_games(args.from_matches, rules.name, args.size)
        if not games:
            parser.error(f"no scored {rules.name} games of size {args.size} in those directories")
        report = pooled_report(rules, args.size, games)
        print(json.dumps(report)) if args.json else print_pooled(report)
        return 0
    if args.out is None:
        parser.error("--out is needed (or --from-matches)")
    estimates = search_estimates(rules, args.size, max(1, args.estimates), args.fair_playouts)
    values = [e["value"] for e in estimates]
    mean = sum(values) / len(values)
    spread = statistics.stdev(values) if len(values) > 1 else estimates[0]["stderr"]
    half = 1.96 * spread / math.sqrt(len(values))
    default = proposed_default(rules, mean)
    report = {"variant": rules.name, "size": args.size, "estimates": estimates, "mean": mean,
              "interval": [mean - half, mean + half], "default": default,
              "fair_playouts": args.fair_playouts}
    if args.games > 0:
        results = run_check(args, default, args.out / f"check-komi{default:g}")
        score, games = black_score(results)
        margins = margins_of(results)
        report["check"] = {"komi": default, "games": games, "playouts": args.playouts,
                           "black_score": score, "black_interval": wilson_interval(score, games),
                           "median_margin": median(margins) if margins else None}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{rules.name} {args.size}x{args.size}: fair komi {mean:+.2f} (95% {mean - half:+.2f}.."
              f"{mean + half:+.2f}, {len(values)} search estimates of {args.fair_playouts} simulations), "
              f"default {default:g}")
        if "check" in report:
            c = report["check"]
            lo, hi = c["black_interval"]
            print(f"  self-play at {default:g} ({c['playouts']} playouts a move): black "
                  f"{c['black_score']:g}/{c['games']} ({100 * lo:.0f}%..{100 * hi:.0f}%), "
                  f"median margin {c['median_margin']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
