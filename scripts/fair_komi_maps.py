"""Does the fair komi make random Terrain Go maps fair? Self-play at the fair komi against the
default komi, map by map, on the match runner.

    python scripts/fair_komi_maps.py --size 9 --maps 16 --games 4 --playouts 200 \\
        --out runs/maps-9 [--jobs 2 | --cluster tcp://HOST:8786]

For each map (map seeds ``--first-map`` on): ``terrain_setup`` writes the set-up (forts by the
search, fair komi by the search with ``--fair-playouts`` simulations), then two self-play
matches start from it: ``--games`` games at its fair komi and as many at the default komi
(RULES C7, the calibrated table of the size; ``--default-komi`` to compare with another), the same engines and engine seeds in both (A gets a fresh seed every game, B
keeps one). Printed: per map the fair komi and Black's score at each komi; over all maps
Black's score at each komi with its Wilson interval, and the spread over maps: the mean
distance of a map's Black score from 50% and the standard deviation over maps of the mean
result (Black's margin with komi). Everything stays under ``--out`` (resumable).
"""

import argparse
import json
import math
import shlex
import statistics
import sys
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.files import write_atomically  # noqa: E402
from gtp_engine.rules import find_rules  # noqa: E402
from scripts.calibrate_komi import black_score  # noqa: E402
from gtp_engine.match.stats import wilson_interval  # noqa: E402


def match(args, setup: Path, out: Path, komi: Optional[float]) -> dict:
    from gtp_engine.match.runner import main as match_main
    engine = [sys.executable, "-m", "gtp_engine", "--playouts", str(args.playouts), "--threads", "1",
              "--quiet"]
    options = ["--setup", str(setup), "--games", str(args.games), "--seed", str(args.seed),
               "--out", str(out), "--no-engine-scores", "--quiet"]
    options += ["--komi", f"{komi:g}"] if komi is not None else []
    options += ["--cluster", args.cluster] if args.cluster else ["--jobs", str(args.jobs)]
    code = match_main([shlex.join(engine + ["--seed", "{seed}"]), shlex.join(engine + ["--seed", "7"]),
                       *options])
    if code != 0:
        raise SystemExit(code)
    return json.loads((out / "results.json").read_text())


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation of two series (nan when either does not vary)."""
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    if sx == 0 or sy == 0:
        return math.nan
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy)


def mean_result(results: dict) -> float:
    """Black's mean margin with komi over the scored games."""
    values = [g["score"][0] - g["score"][1] for g in results["games"] if g.get("score")]
    return statistics.mean(values) if values else math.nan


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="fair_komi_maps", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--maps", type=int, default=16)
    parser.add_argument("--first-map", type=int, default=1)
    parser.add_argument("--games", type=int, default=4, help="games per map and komi (default 4)")
    parser.add_argument("--playouts", type=int, default=200, help="per move in the games")
    parser.add_argument("--fair-playouts", type=int, default=20000,
                        help="simulations in all for each map's fair komi (default 20000)")
    parser.add_argument("--map-option", action="append", default=[], metavar="KEY=VALUE",
                        help="a map setting, as terrain_generate takes it (e.g. fort_value=12); repeatable")
    parser.add_argument("--default-komi", type=float, help="compare with this komi instead of the default")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cluster")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    from scripts.terrain_setup import make_setup, setup_sgf
    default = float(find_rules("terrain").default_komi_for(args.size) if args.default_komi is None
                    else args.default_komi)
    rows = []
    for map_seed in range(args.first_map, args.first_map + args.maps):
        folder = args.out / f"map-{map_seed}"
        folder.mkdir(parents=True, exist_ok=True)
        setup = folder / "setup.sgf"
        if not setup.exists():
            game, comment = make_setup(args.size, map_seed, args.map_option, seed=map_seed, seconds=None,
                                       playouts=args.fair_playouts)
            write_atomically(setup, setup_sgf(game, comment))
        from sgf import game_from_sgf
        fair = game_from_sgf(setup.read_bytes()).komi
        at_fair = match(args, setup, folder / "fair", None)
        at_default = match(args, setup, folder / "default", default)
        row = {"map": map_seed, "fair_komi": fair,
               "fair": black_score(at_fair), "default": black_score(at_default),
               "fair_result": mean_result(at_fair), "default_result": mean_result(at_default)}
        rows.append(row)
        print(f"map {map_seed}: fair komi {fair:+5.1f}; black {row['fair'][0]:g}/{row['fair'][1]} at it "
              f"(mean result {row['fair_result']:+.1f}), {row['default'][0]:g}/{row['default'][1]} "
              f"at {default:g} (mean result {row['default_result']:+.1f})", flush=True)
    summary = {}
    for key in ("fair", "default"):
        score = sum(r[key][0] for r in rows)
        games = sum(r[key][1] for r in rows)
        rates = [r[key][0] / r[key][1] for r in rows if r[key][1]]
        results = [r[f"{key}_result"] for r in rows if not math.isnan(r[f"{key}_result"])]
        summary[key] = {"black_score": score, "games": games, "interval": wilson_interval(score, games),
                        "mean_distance_from_half": statistics.mean(abs(x - 0.5) for x in rates),
                        "result_sd_over_maps": statistics.pstdev(results) if results else math.nan}
        lo, hi = summary[key]["interval"]
        label = "fair komi" if key == "fair" else f"komi {default:g}"
        print(f"{label:>9}: black {score:g}/{games} = {100 * score / games:.0f}% (95% {100 * lo:.0f}%..{100 * hi:.0f}%); "
              f"maps' black score {100 * summary[key]['mean_distance_from_half']:.0f} points from 50% on average; "
              f"sd of the mean result over maps {summary[key]['result_sd_over_maps']:.1f}")
    fair_komis = [r["fair_komi"] for r in rows]
    print(f"fair komi over {len(rows)} maps: mean {statistics.mean(fair_komis):+.1f}, "
          f"sd {statistics.pstdev(fair_komis):.1f}, from {min(fair_komis):+g} to {max(fair_komis):+g}")
    # Margins say more than wins: a map's games at both komis give Black's mean margin before
    # komi, which the map's fair komi should follow if it tells maps apart.
    margins = [statistics.mean([r["fair_result"] + r["fair_komi"], r["default_result"] + default])
               for r in rows]
    summary["margin_before_komi"] = {"mean": statistics.mean(margins),
                                     "correlation_with_fair_komi": correlation(fair_komis, margins)}
    print(f"Black's mean margin before komi over the maps' games: {statistics.mean(margins):+.1f}; "
          f"its correlation with the maps' fair komi {summary['margin_before_komi']['correlation_with_fair_komi']:+.2f}")
    write_atomically(args.out / "summary.json", json.dumps({"maps": rows, "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
