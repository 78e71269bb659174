"""A Terrain Go set-up as the seed asks for it: a random map, forts by the search, a fair komi.

    python scripts/terrain_setup.py --size 13 --map-seed 5 -o setup.sgf
    python scripts/terrain_setup.py --size 19 --map-seed 7 --seed 2 --fair-komi 30 -o s.sgf

1. The map from ``--map-seed`` (RULES T1; ``--map-option key=value`` as GTP
   ``terrain_generate``), the same on every machine.
2. The forts, White first, each chosen by the search (``search.fortsearch``: the heuristic's
   best candidates, each searched; deterministic for ``--seed``), or by hand (``--forts
   V,V,...``, White first).
3. The fair komi of the position after the forts (``search.fairkomi``, the engine's
   ``fair_komi``), rounded to half points; ``--fair-komi SECONDS`` is its budget, or
   ``--playouts N`` in all for a reproducible estimate; ``--komi K`` skips it.

The SGF (stdout, or ``-o FILE``) carries the rules (``VR[terrain]``), size, komi, the map
(``MT``/``WA``), the forts (``FB``/``FW``, placement order) and the map again as markup for
any viewer (Sabaki, GoGui); the estimate and its uncertainty are the game comment (GC). Use it with
``vargo --setup FILE`` (GoGui: the same command line for player and ruler) and
``vargo-match ... --setup FILE`` (both engines start from this set-up in every game).
Progress and the estimate go to stderr.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.coords import Color, format_vertex, parse_vertex  # noqa: E402
from gtp_engine.errors import EngineError  # noqa: E402
from gtp_engine.files import write_atomically  # noqa: E402


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="terrain_setup", description="Write a Terrain Go set-up (map, forts by the search, "
        "fair komi) as SGF for vargo --setup, vargo-match --setup, Sabaki and GoGui.")
    parser.add_argument("--size", type=int, default=19, help="board size, 5 to 25 (default 19)")
    parser.add_argument("--map-seed", type=int, default=0, help="seed of the map (default 0)")
    parser.add_argument("--map-option", action="append", default=[], metavar="KEY=VALUE",
                        help="map setting as terrain_generate takes it (mountains, water, "
                             "groups=MIN-MAX, min_group, forts, fort_value); repeatable")
    parser.add_argument("--seed", type=int, default=0, help="seed of the fort choice and search (default 0)")
    parser.add_argument("--forts", metavar="V,V,...", help="forts by hand, White first, instead of the search")
    parser.add_argument("--fort-playouts", type=int, metavar="N",
                        help="simulations per candidate fort (default: by size; 0: heuristic only)")
    parser.add_argument("--komi", type=float, help="this komi instead of the fair komi")
    parser.add_argument("--fair-komi", type=float, default=20.0, metavar="SECONDS",
                        help="seconds for the fair komi estimate (default 20)")
    parser.add_argument("--playouts", type=int, metavar="N",
                        help="simulations in all for the fair komi instead of seconds (reproducible)")
    parser.add_argument("--threads", type=int, default=1, help="search threads for the fair komi (default 1)")
    parser.add_argument("-o", "--output", type=Path, help="write the SGF here (default stdout)")
    return parser


def make_setup(size: int, map_seed: int = 0, map_options: Sequence[str] = (), seed: int = 0,
               forts: Optional[Sequence[str]] = None, fort_playouts: Optional[int] = None,
               komi: Optional[float] = None, seconds: Optional[float] = 20.0,
               playouts: Optional[int] = None, threads: int = 1, log=sys.stderr):
    """(game, comment): the set-up as a ``Game`` before the first stone, and what the root
    comment says. EngineError for settings the rules refuse."""
    from gtp_engine.game import Game
    from gtp_engine.rules.terrain_map import TerrainParams, generate_map
    from gtp_engine.search import fortsearch
    from gtp_engine.search.fairkomi import estimate_fair_komi
    from gtp_engine.search.player import SearchPlayer, SearchSettings
    params = TerrainParams.parse_options(size, list(map_options))
    game = Game("terrain", size, terrain=generate_map(size, map_seed, params))
    started = time.perf_counter()
    if forts is not None:
        if len(forts) != 2 * game.forts_per_side:
            raise EngineError(f"--forts needs {2 * game.forts_per_side} vertices, "
                              f"not {len(forts)}")
        for index, text in enumerate(forts):
            game.place_fort(Color.WHITE if index % 2 == 0 else Color.BLACK, parse_vertex(text, size))
        how = "by hand"
    else:
        searched = fort_playouts != 0
        fortsearch.place_forts(game, seed, fort_playouts, max(1, threads))
        how = (f"by the search (seed {seed}, {fortsearch.playouts_per_candidate(size) if fort_playouts is None else fort_playouts} "
               f"simulations per candidate)" if searched else f"by the heuristic (seed {seed})")
    forts_text = " ".join(f"{c.letter} {format_vertex(p)}" for c, p in game.forts)
    print(f"forts {forts_text} ({how}, {time.perf_counter() - started:.1f} s)", file=log)
    comment = [f"Terrain Go set-up: map seed {map_seed}, forts {how}."]
    if komi is not None:
        game.set_komi(komi)
        comment.append(f"Komi {komi:g} given.")
    else:
        player = SearchPlayer(SearchSettings(threads=max(1, threads), seed=seed))
        estimate = estimate_fair_komi(player, game, seconds=None if playouts else seconds,
                                      playouts=playouts)
        print(estimate.report(), file=log)
        game.set_komi(estimate.komi)
        comment.append(f"Fair komi {estimate.komi:g} by the search: estimate {estimate.value:+.2f} "
                       f"+- {estimate.stderr:.2f} ({estimate.method}, {estimate.simulations} "
                       f"simulations).")
    return game, " ".join(comment)


def setup_sgf(game, comment: str) -> bytes:
    """The set-up as SGF (our writer), with ``comment`` as the root's game comment ``GC``."""
    from sgf import game_to_sgf
    data = game_to_sgf(game)
    if not data.startswith(b"(;"):
        raise ValueError("the SGF writer no longer starts with the root node")
    escaped = comment.replace("\\", "\\\\").replace("]", "\\]").encode("utf-8")
    return b"(;GC[" + escaped + b"]" + data[2:]


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    forts = [v.strip() for v in args.forts.split(",")] if args.forts else None
    try:
        game, comment = make_setup(args.size, args.map_seed, args.map_option, args.seed, forts,
                                   args.fort_playouts, args.komi, args.fair_komi, args.playouts,
                                   args.threads)
    except EngineError as err:
        print(f"terrain_setup: error: {err}", file=sys.stderr)
        return 2
    data = setup_sgf(game, comment)
    if args.output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        write_atomically(args.output, data)
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
