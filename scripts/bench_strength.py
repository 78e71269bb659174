"""Playing-strength benchmarks built on the match runner (figures for people, not a test).

    python scripts/bench_strength.py gnugo --ours "--playouts 300" --level 1 --size 9 --games 20
    python scripts/bench_strength.py self --a "--playouts 400" --b "--playouts 100" --size 7 --games 10
    python scripts/bench_strength.py pachi --pachi ~/pachi/pachi --pachi-playouts 20000 \
        --ours "--threads 1" --time-per-move 1 --size 9 --games 40 --jobs 1

``gnugo``: our engine (with the given options) against GNU Go at a level, in ``go``.
``pachi``: our engine against Pachi (built from pasky/pachi with ``make DCNN=0``; one thread)
at a fixed number of playouts a move, in ``go``. Under a clock (``time_settings 0 1 1``) Pachi
stops early when its best move looks settled: it spent 0.11 s a move of the 1 s it had on
9x9, far from equal time. Fixed playouts make it spend what they cost: here 20,000 took
0.60 s a move over 40 games, against 0.89 s for ours at 1 s a move (compare ``seconds per move`` in the
summary and choose the playouts that make them even).
``self``: our engine with options A against options B, in each variant asked for (default all
five). Each match is an ordinary match directory under ``--out`` (default a new temporary
directory), so a stopped benchmark resumes when run again with the same ``--out``. Prints one
line of figures per match (A's score with its 95% interval, Elo A-B with its interval, games,
average length, seconds per move), or with ``--json`` one JSON object per line.
"""

import argparse
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.errors import EngineError  # noqa: E402
from gtp_engine.match.referee import GameSettings, TimeControl  # noqa: E402
from gtp_engine.match.runner import MatchConfig, MatchError, run_match  # noqa: E402
from gtp_engine.rules import ALL_RULES, find_rules  # noqa: E402

GNUGO = "/usr/games/gnugo"


def our_engine(options: str) -> str:
    """The command line of our engine with extra ``options`` (a string, shell quoting)."""
    return shlex.join([sys.executable, "-m", "gtp_engine", *shlex.split(options)])


def gnugo_engine(level: int, binary: str = GNUGO) -> str:
    return shlex.join([binary, "--mode", "gtp", "--level", str(level), "--chinese-rules"])


def pachi_engine(binary: str, playouts: int) -> str:
    """Pachi on one thread at ``playouts`` a move, seeded per game (``{seed}``: games differ)."""
    return shlex.join([binary, "-D", "-t", f"={playouts}", "threads=1"]) + " -s {seed}"


def playable_size(rules, size: int) -> int:
    """``size``, or the next size up when the rules refuse it (Loose plays odd sizes only)."""
    try:
        rules.check_size(size)
        return size
    except EngineError:
        return size + 1


def figures(name: str, results: dict) -> dict:
    """The benchmark's figures of one finished match."""
    s = results["summary"]
    return {"match": name, "games": s["games"], "wins_a": s["wins"]["A"], "wins_b": s["wins"]["B"],
            "draws": s["draws"], "score_a": s["win_rate_a"], "score_a_95": s["win_rate_a_95"],
            "elo": s["elo_a_minus_b"], "elo_95": s["elo_95"], "average_moves": s["average_moves"],
            "seconds_per_move": s["seconds_per_move"], "reasons": s["reasons"],
            "engines": {label: results["engines"][label].get("name") for label in ("A", "B")}}


def _elo(value: Optional[float], infinite_sign: str) -> str:
    return f"{infinite_sign}inf" if value is None else f"{value:+.0f}"


def figures_line(f: dict) -> str:
    low, high = f["score_a_95"]
    elo_low, elo_high = f["elo_95"]
    return (f"{f['match']:<24} A {100 * f['score_a']:5.1f}% (95% {100 * low:.0f}-{100 * high:.0f}%)  "
            f"Elo {_elo(f['elo'], '+' if f['score_a'] >= 0.5 else '-')} "
            f"({_elo(elo_low, '-')}..{_elo(elo_high, '+')})  "
            f"{f['wins_a']}-{f['wins_b']}-{f['draws']} of {f['games']}, {f['average_moves']} moves, "
            f"s/move A {f['seconds_per_move']['A']} B {f['seconds_per_move']['B']}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="bench", required=True)
    gnugo = sub.add_parser("gnugo", help="ours against GNU Go in go")
    gnugo.add_argument("--ours", default="--playouts 200", help="options of our engine (default --playouts 200)")
    gnugo.add_argument("--level", type=int, default=1, help="GNU Go level (default 1)")
    gnugo.add_argument("--gnugo", default=GNUGO, help=f"GNU Go binary (default {GNUGO})")
    gnugo.add_argument("--size", type=int, default=9)
    pachi = sub.add_parser("pachi", help="ours against Pachi at fixed playouts in go")
    pachi.add_argument("--ours", default="--playouts 200", help="options of our engine (default --playouts 200)")
    pachi.add_argument("--pachi", required=True, help="the pachi binary (make DCNN=0)")
    pachi.add_argument("--pachi-playouts", type=int, default=20000,
                       help="Pachi's playouts a move (default 20000)")
    pachi.add_argument("--size", type=int, default=9)
    own = sub.add_parser("self", help="ours with options A against ours with options B, per variant")
    own.add_argument("--a", default="--playouts 400", help="options of engine A (default --playouts 400)")
    own.add_argument("--b", default="--playouts 100", help="options of engine B (default --playouts 100)")
    own.add_argument("--variants", default=",".join(r.name for r in ALL_RULES),
                     help="comma-separated rules names (default all five)")
    own.add_argument("--size", type=int, default=7)
    for p in (gnugo, pachi, own):
        p.add_argument("--games", type=int, default=10)
        p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
        p.add_argument("--time-per-move", type=float, help="a clock of SECONDS per move (default: none)")
        p.add_argument("--seed", type=int, default=1, help="match seed (our engine gets a new seed every game)")
        p.add_argument("--opening-moves", type=int, default=0, metavar="N",
                       help="open each pair of games with N random moves (variety against deterministic engines)")
        p.add_argument("--out", type=Path, help="directory for the match directories (default: a new temporary one)")
        p.add_argument("--json", action="store_true", help="one JSON object per match on stdout")
        p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def matches(args) -> List[tuple]:
    """(name, engine A, engine B, rules, size) of each match the arguments ask for."""
    if args.bench == "gnugo":
        if not os.path.exists(args.gnugo):
            raise MatchError(f"gnu go not found at {args.gnugo}")
        go = find_rules("go")
        size = playable_size(go, args.size)
        return [(f"go{size} gnugo-l{args.level}", our_engine(args.ours + " --seed {seed}"),
                 gnugo_engine(args.level, args.gnugo),
                 go, size)]
    if args.bench == "pachi":
        if not os.path.exists(args.pachi):
            raise MatchError(f"pachi not found at {args.pachi}")
        if args.pachi_playouts < 1:
            raise MatchError(f"pachi's playouts must be at least 1, not {args.pachi_playouts}")
        size = playable_size(find_rules("go"), args.size)
        return [(f"go{size} pachi-{args.pachi_playouts}", our_engine(args.ours + " --seed {seed}"),
                 pachi_engine(args.pachi, args.pachi_playouts), find_rules("go"), size)]
    chosen = []
    for name in (v for v in args.variants.split(",") if v.strip()):
        rules = find_rules(name)
        size = playable_size(rules, args.size)
        chosen.append((f"{rules.name}{size} self", our_engine(args.a + " --seed {seed}"),
                       our_engine(args.b + " --seed {seed}"), rules, size))
    return chosen


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="vargo-bench-"))
    try:
        for name, engine_a, engine_b, rules, size in matches(args):
            control = TimeControl.per_move(args.time_per_move) if args.time_per_move else None
            settings = GameSettings(variant=rules.name, size=size, komi=float(rules.default_komi_for(size)),
                                    time_control=control, max_moves=4 * size * size,
                                    opening_moves=args.opening_moves)
            config = MatchConfig((engine_a, engine_b), settings, args.games, out / name.replace(" ", "-"),
                                 args.jobs, args.seed)
            results = run_match(config, progress=None if args.quiet else sys.stderr)
            f = figures(name, results)
            print(json.dumps(f) if args.json else figures_line(f), flush=True)
    except (MatchError, EngineError) as err:
        print(f"bench_strength: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nbench_strength: interrupted; run again with --out {out} to resume", file=sys.stderr)
        return 1
    print(f"match directories: {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
