"""Benchmark of two checkouts' search speed, alternated search by search: the ratio of the CPU
seconds a fixed search takes in each, and whether the two searches are the same.

    python scripts/bench_checkouts.py OLD NEW [--variants go,loose] [--sizes 9,19]
        [--playouts 5000] [--rounds 12]

OLD and NEW are folders holding a ``gtp_engine`` (a worktree of another commit, say). One
process per checkout, each with its compiled kernels loaded, searches the same position (eight
moves into the game, forts placed by the quick heuristic in Terrain Go) with the same seed in
turn, the one that goes first alternating from round to round, at ``--playouts`` simulations
on one thread without the early stop (a quarter of them on 19x19). On a shared machine whose
speed drifts by half within minutes, searches a second apart see the same machine where two
benchmark runs minutes apart do not. Prints, per game, the CPU seconds of each, OLD / NEW
over all rounds and its median over the rounds, and whether every round's searches agreed
(simulations and the three most visited moves' visits): a change meant only to be faster
must say "same". Figures, not tests.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

MOVES = 8


def child(variant: str, size: int, playouts: int) -> None:
    """Serve searches: one line in (the seed), one line out (CPU seconds and a summary)."""
    from gtp_engine.game import Game
    from gtp_engine.search import _backend
    from gtp_engine.search.forts import auto_forts
    from gtp_engine.search.player import SearchPlayer, SearchSettings

    _backend.compile_now()
    game = Game(variant, size)
    if game.terrain is not None:
        auto_forts(game, 1)
    far = size - 3
    for move in [(2, 2), (far, far), (2, far), (far, 2), (size // 2, size // 2), (3, 2),
                 (2, 3), (far - 1, 2)][:MOVES]:
        if move in game.legal_moves():   # a Terrain Go map may hold a mountain there
            game.play(game.to_move, move)
    print("ready", flush=True)
    for line in sys.stdin:
        player = SearchPlayer(SearchSettings(playouts=playouts, seed=int(line), threads=1,
                                             book=False))
        start = time.process_time()
        found = player.search(game, game.to_move, playouts=playouts, early_stop=False)
        seconds = time.process_time() - start
        top = ",".join(f"{m.move}:{m.visits}" for m in found.moves[:3]).replace(" ", "")
        print(f"{seconds} {found.simulations}/{top}", flush=True)


def compare(old: str, new: str, variant: str, size: int, playouts: int, rounds: int) -> str:
    procs = []
    for folder in (old, new):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(folder))
        procs.append(subprocess.Popen(
            [sys.executable, "-P", os.path.abspath(__file__), "--child", variant, str(size),
             str(playouts)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    try:
        for proc in procs:
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(f"a search process did not start ({variant} {size}x{size})")
        seconds = ([], [])
        found = ([], [])
        for r in range(rounds):
            for k in ((0, 1) if r % 2 == 0 else (1, 0)):
                procs[k].stdin.write(f"{r + 1}\n")
                procs[k].stdin.flush()
                cpu, summary = procs[k].stdout.readline().split()
                seconds[k].append(float(cpu))
                found[k].append(summary)
    finally:
        for proc in procs:
            proc.stdin.close()
            proc.wait()
    ratios = [a / b for a, b in zip(*seconds)]
    return (f"{variant:9} {size}x{size} {playouts:6} simulations x {rounds}: "
            f"OLD {sum(seconds[0]):.2f} s, NEW {sum(seconds[1]):.2f} s of CPU; OLD / NEW "
            f"{sum(seconds[0]) / sum(seconds[1]):.3f} (median {statistics.median(ratios):.3f}, "
            f"{min(ratios):.3f} to {max(ratios):.3f}); searches "
            f"{'same' if found[0] == found[1] else 'DIFFERENT'}")


def main(argv=None) -> int:
    if argv is None and sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="folder of the reference checkout")
    parser.add_argument("new", help="folder of the checkout measured against it")
    parser.add_argument("--variants", default="go,loose,goncrete,disto,terrain")
    parser.add_argument("--sizes", default="9,19")
    parser.add_argument("--playouts", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args(argv)
    for size in (int(s) for s in args.sizes.split(",")):
        for variant in args.variants.split(","):
            playouts = args.playouts if size < 13 else max(1, args.playouts * 2 // 5)
            print(compare(args.old, args.new, variant, size, playouts, args.rounds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
