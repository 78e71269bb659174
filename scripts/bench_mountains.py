"""Stones on mountains (worth nothing, RULES T5) in Terrain Go games, and whether the search
itself, given more time, would have put them there: figures for people, not a test.

    python scripts/bench_mountains.py runs/terrain-match --playouts 40000 --sample 30 [--engine B]

For each match directory (the match runner's ``results.json`` and ``game-*.sgf``), every
placement on a mountain point is counted per engine (A, B), with those that captured something
(a mountain stone can take a group's last liberty). Then ``--sample`` of the placements that
captured nothing, spread evenly over the games, are searched again from the position before
them with ``--playouts`` simulations (this checkout's engine, one thread, ``--seed``; with
``--engine``, only that engine's stones, so that the budget can be ten times its own): the
figures say how often that search plays the same point, another mountain point, or a point
that is not a mountain. A mountain stone the longer search would not play is one the player
should not have played; the issue's target is none.
"""

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.board import MOUNTAIN  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402
from sgf import game_from_sgf, read_file  # noqa: E402


def mountain_placements(folder: Path):
    """``(game, move_number, engine, captured)`` for every placement on a mountain in the
    directory's games; ``game`` is the whole game (replay to ``move_number`` for the position
    before it)."""
    results = json.loads((folder / "results.json").read_text())
    found = []
    for record in results["games"]:
        game = game_from_sgf(read_file(folder / record["sgf"]))
        engines = {1: record["black"], 2: record["white"]}
        for number, move in enumerate(game.moves):
            if move.is_pass or game.position.terrain_at(move.point) != MOUNTAIN:
                continue
            effects = move.effects
            captured = bool(effects.captured or effects.flipped or effects.removed)
            found.append((game, number, engines[int(move.color)], captured))
    return found, len(results["games"])


def research(placements, sample: int, playouts: int, seed: int):
    """Search again the positions before ``sample`` placements, spread evenly: counts of the
    same point, another mountain point, a point that is not a mountain (or a pass)."""
    if not placements or sample <= 0:
        return {"same": 0, "other mountain": 0, "not a mountain": 0}
    step = max(1, len(placements) // sample)
    chosen = placements[::step][:sample]
    player = SearchPlayer(SearchSettings(playouts=playouts, seed=seed, book=False))
    counts = {"same": 0, "other mountain": 0, "not a mountain": 0}
    for game, number, _, _ in chosen:
        before = game.copy()
        before.undo_to(number)
        played = game.moves[number]
        analysis = player.search(before, played.color, playouts=playouts)
        best = analysis.moves[0].move if analysis.moves else None   # the most visited
        if best == played.point:
            counts["same"] += 1
        elif best is not None and before.position.terrain_at(best) == MOUNTAIN:
            counts["other mountain"] += 1
        else:
            counts["not a mountain"] += 1
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="match directories of Terrain Go")
    parser.add_argument("--playouts", type=int, default=40000,
                        help="simulations of the second look (default 40000)")
    parser.add_argument("--sample", type=int, default=20,
                        help="placements that captured nothing to search again (default 20; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=("A", "B"),
                        help="search again only this engine's stones (give --playouts ten times its own)")
    args = parser.parse_args(argv)
    for folder in args.folders:
        placements, games = mountain_placements(folder)
        for engine in ("A", "B"):
            mine = [p for p in placements if p[2] == engine]
            print(f"{folder}: engine {engine}: {len(mine)} mountain stones in {games} games "
                  f"({sum(p[3] for p in mine)} of them captured)")
        idle = [p for p in placements if not p[3] and args.engine in (None, p[2])]
        counts = research(idle, args.sample, args.playouts, args.seed)
        looked = sum(counts.values())
        if looked:
            print(f"{folder}: {looked} that captured nothing, searched again at {args.playouts} "
                  f"simulations: " + ", ".join(f"{name} {n}" for name, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
