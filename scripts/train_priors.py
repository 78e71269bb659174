"""Train the learned move model of a game (``gtp_engine/search/knowledge.py``) from games.

    # 1. games of deep searches of our own (here 80 games of 9x9 Loose at 2000 simulations a
    #    move, one thread per engine, resigning below 5%; forts by the quick heuristic)
    python scripts/train_priors.py play --variant loose --games 80 --playouts 2000 --out runs/priors/loose
    # 2. fit the weights to every placement played in them and write the file the engine loads
    python scripts/train_priors.py fit --variant loose runs/priors/loose --out gtp_engine/search/knowledge/loose.npz

How the shipped files were made (on this project's 2-core machine, shared): the games were
the equivalent of ``play`` in rounds of 8 games a game kind (``vargo-match`` between two
equal engines at 2000 simulations, one thread each, ``--resign 0.05 --fort-playouts 0``,
match seed 100 x round), two rounds at once, about 8 s a 9x9 game, 70 minutes for all; the
files learned from what was there when each was fitted: Go 64 games (3,226 positions), Loose
80 (3,300), Goncrete 56 (2,493), Disto 53 (3,192), Terrain Go 160 (7,690; a map a game,
rounds 1-4 and 11-14 played when the first models were fitted, 21-32 by the later edc82d2);
``fit`` with its defaults (min count 10, L2 1e-3, 300 Adam steps, one game in ten held out), a
few seconds each. The Go file of 9x9 (``go-9.npz``, read there instead of ``go.npz``, which
13x13 and 19x19 keep) was fitted later on 284 self-play games of 10,000 simulations (the
``vargo-match`` runs ``mix50-4802`` and ``mix50-4803`` of docs/RESEARCH.md, 14,204 positions):
``fit --variant go <their folders> --min-count 5 --l2 1e-4 --iterations 1000 --sizes 9 --out
gtp_engine/search/knowledge/go-9.npz``, two minutes. With this much data the default ``--l2``
held every weight back (training and held-out likelihood alike); a tenth of it lets the shapes
speak. ``fit`` prints how often the model's first choice is the move played, on the
games it learned from and on the held-out ones, and writes the same figures into the file
(``Model.info``). Any folder of SGF files of a game (for Go, GNU Go's games too) can be given
to ``fit``; ``--sizes`` names the boards the engine uses the model on (``go.npz``: 9, 13 and
19, measured on 9 and 19, where 9x9 now reads ``go-9.npz`` and 19x19 ``go-19.npz``). Loose's
file was refitted on 250 self-play games of 10,000 simulations a move (11,290 positions; ``play
--variant loose --games 400 --playouts 10000 --seed 5401 --out runs/sp-loose-10k``, stopped at
250 games, about 70 minutes of one core; then ``fit --variant loose runs/sp-loose-10k
--min-count 5 --l2 1e-4 --iterations 1000``, half a minute): +100 Elo over the file it replaced
(docs/RESEARCH.md, fifty-fourth session); Goncrete's the same way on 100 games (4,806
positions; ``--seed 5403``, about 40 minutes): +120. ``go-19.npz`` learned from 400 records of
strong programs' 19x19 games (the ``AI`` folder of the public collection
github.com/yenw/computer-go-dataset, 7,259 files: the server accounts of FineArt, DeepZenGo,
Golaxy and others, AI tournaments, AlphaGo's published games) drawn by ``--sample``: ``fit
--variant go <that folder>/AI --sample 400 --seed 54 --min-count 5 --l2 1e-4 --iterations 1000
--sizes 19 --out gtp_engine/search/knowledge/go-19.npz``, 58,103 positions, 14 minutes and
about 5 GB. ``--player TEXT`` learns only the moves of the side whose ``PB``/``PW`` holds that
text, in whichever colour (both sides where both do, a game against itself; ``vargo-match``
names its engines there: ``--player Pachi`` for Pachi's moves in our matches against it).
``--start-from MODEL`` begins at an earlier model's weights and lets ``--l2`` pull towards them
instead of towards 0, keeping its shapes: a hundred games then correct a file rather than
replace it (on 27 Terrain Go games of 10,000 simulations that neither had seen, the shipped
file corrected by 79 others predicted 29.6% of the moves, log-likelihood -2.527, where a fit
from nothing on the same 79 did 28.2%, -2.574, and the shipped file 28.3%, -2.572). Neither
of the two files so corrected played better: Terrain Go's on 133 games of 10,000 simulations
(``play --variant terrain --games 300 --playouts 10000 --seed 5404``, stopped at 133) and
Disto's on 242 (``--seed 5402``), each ``--min-count 5 --l2 1e-3 --iterations 1000
--start-from`` the shipped file, went -9 and -7 Elo against it (docs/RESEARCH.md, fifty-fifth
session), so Terrain Go and Disto keep the files they ship.

    # 3. how well model files predict the moves of other games (here Pachi's in a match)
    python scripts/train_priors.py score gtp_engine/search/knowledge/go-9.npz new.npz \
        --games runs/vs-pachi --variant go --player Pachi
"""

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sgf  # noqa: E402
from gtp_engine.cli import positive_int  # noqa: E402
from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.search import knowledge, training  # noqa: E402


def play(args) -> int:
    engine = (f"{sys.executable} -P -m gtp_engine --playouts {args.playouts} --threads 1 "
              f"--quiet --resign 0.05 --fort-playouts 0 --seed {{seed}}")
    command = [sys.executable, "-P", "-m", "gtp_engine.match", engine, engine,
               "--variant", args.variant, "--size", str(args.size), "--games", str(args.games),
               "--jobs", str(args.jobs), "--seed", str(args.seed), "--out", args.out]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.call(command, env=env)


def sgf_paths(folders, sample=None, seed=1):
    """The SGF files under ``folders`` (``sgf.find_files``); with ``sample``, that many of them
    drawn at random by ``seed``."""
    paths = sgf.find_files(folders)
    if sample is not None and sample < len(paths):
        paths = sorted(random.Random(seed).sample(paths, sample))
    return paths


def load_games(folders, variant, player=None, sample=None, seed=1):
    """``(path, game, colour)`` for every game of ``variant`` in the SGF files under
    ``folders`` (with ``sample``, in that many files drawn at random by ``seed``): colour None
    (both sides' moves count), or with ``player`` the colour whose ``PB``/``PW`` holds that
    text (say ``Pachi``: its moves only; a game where neither side does is left out, one where
    both do counts both sides' moves)."""
    games = []
    for path, record in sgf.read_records(sgf_paths(folders, sample, seed)):
        game = record.game
        if game.rules.name != variant or not game.moves:
            continue
        colour = None
        if player is not None:
            names = [(Color.BLACK, record.root_property("PB") or ""),
                     (Color.WHITE, record.root_property("PW") or "")]
            found = [c for c, name in names if player.lower() in name.lower()]
            if not found:
                continue
            colour = found[0] if len(found) == 1 else None   # both: a game against itself
        games.append((path, game, colour))
    return games


def _under(path, folders) -> bool:
    path = Path(path).resolve()
    return any(Path(folder).resolve() in path.parents for folder in folders)


def _examples(items):
    return training.examples_from_games([game for _, game, _ in items],
                                        colors=[colour for _, _, colour in items])


def fit(args) -> int:
    start_model = None
    if args.start_from:   # read first: a bad file is refused before minutes of loading games
        try:
            start_model = knowledge.Model.load(args.start_from)
        except Exception as error:
            print(f"--start-from {args.start_from}: cannot be read: {error}", file=sys.stderr)
            return 2
    games = load_games(args.folders, args.variant, args.player, args.sample, args.seed)
    if len(games) < 2:
        print(f"need at least 2 games of {args.variant}, found {len(games)}", file=sys.stderr)
        return 2
    random.Random(args.seed).shuffle(games)
    # the held-out tenth comes from the games under --held-out-from only (say, our own deep
    # searches: the moves the model is for), so that other sources are judged by those, on
    # the same held-out games whatever else is given
    pool = games
    if args.held_out_from:
        pool = sorted((item for item in games if _under(item[0], args.held_out_from)),
                      key=lambda item: item[0])
        random.Random(args.seed).shuffle(pool)
    held_paths = {item[0] for item in pool[:max(1, len(pool) // 10)]}
    held_out = [item for item in games if item[0] in held_paths]
    learn = [item for item in games if item[0] not in held_paths]
    if not held_out or not learn:
        print("nothing to hold out, or nothing left to learn from", file=sys.stderr)
        return 2
    start = time.perf_counter()
    train = _examples(learn)
    test = _examples(held_out)
    print(f"{len(games)} games: {train.positions} positions to learn from, {test.positions} "
          f"held out ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    whose = f" ({args.player}'s moves)" if args.player else ""
    info = (f"{args.variant}: {len(games)} games{whose}, {train.positions} positions; min count "
            f"{args.min_count}, l2 {args.l2}, {args.iterations} steps"
            + (f", from {Path(args.start_from).name}" if start_model else ""))
    result = training.fit(train, test, args.min_count, args.l2, args.iterations, info=info,
                          start=start_model)
    result.model.sizes = tuple(args.sizes) if args.sizes else tuple(sorted({g.size for _, g, _ in games}))
    result.model.info = info + "; " + result.report()
    print(f"{result.model.info}; {len(result.model.pat3)} 3x3 shapes, "
          f"{len(result.model.pat12)} 12-point shapes", file=sys.stderr)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        result.model.save(args.out)
    return 0


def score(args) -> int:
    """Print how well each model file predicts the moves of the games (of ``--player``)."""
    games = load_games(args.games, args.variant, args.player)
    examples = _examples(games)
    if not examples.positions:
        print(f"no placements of {args.variant} to score in {' '.join(args.games)}",
              file=sys.stderr)
        return 2
    print(f"{len(games)} games, {examples.positions} positions")
    for path in args.models:
        try:
            model = knowledge.Model.load(path)
        except Exception as error:   # one unreadable file does not stop the others
            print(f"{path}: cannot be read: {error}")
            continue
        accuracy, loglik = training.measure(model, examples)
        print(f"{path}: played move first {accuracy:.1%}, mean log-likelihood {loglik:.3f}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play", help="self-play games of deep searches")
    p.add_argument("--variant", required=True)
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--games", type=int, default=80)
    p.add_argument("--playouts", type=int, default=2000)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    f = commands.add_parser("fit", help="fit the model to the games in folders of SGF files")
    f.add_argument("folders", nargs="+")
    f.add_argument("--variant", required=True)
    f.add_argument("--min-count", type=int, default=10)
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--iterations", type=int, default=300)
    f.add_argument("--seed", type=int, default=1,
                   help="draws the held-out tenth and the --sample")
    f.add_argument("--sample", type=positive_int, metavar="N",
                   help="learn from N SGF files of the folders drawn at random (those of other "
                        "games or unreadable are then skipped); default: every file")
    f.add_argument("--held-out-from", nargs="+", metavar="FOLDER",
                   help="hold out one game in ten of the games under these folders only "
                        "(default: of all games); they must be among the folders")
    f.add_argument("--sizes", type=int, nargs="*",
                   help="board sizes the engine uses the model on (default: the games' sizes)")
    f.add_argument("--player", help="learn only the moves of the side whose PB or PW holds this "
                                    "text (games where neither does are left out, both sides' "
                                    "where both do)")
    f.add_argument("--start-from", metavar="MODEL.npz",
                   help="begin at this model's weights, --l2 pulling towards them instead of "
                        "towards 0 (its shapes kept): few games correct it rather than replace it")
    f.add_argument("--out")
    m = commands.add_parser("score", help="how well model files predict the moves of games")
    m.add_argument("models", nargs="+", help="model files (.npz)")
    m.add_argument("--games", nargs="+", required=True, metavar="FOLDER")
    m.add_argument("--variant", required=True)
    m.add_argument("--player", help="score only the moves of the side whose PB or PW holds this")
    args = parser.parse_args(argv)
    return {"play": play, "fit": fit, "score": score}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
