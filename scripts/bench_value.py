"""Benchmark of the value net's cost: one forward pass of the shipped 9x9 Go net, and the CPU
of a search with ``value_weight`` against the same search without it, in the same run.

    python scripts/bench_value.py [--weight 20] [--playouts 20000]

The forward pass is the compiled ``value_of`` on a position of a short self-play game
(microseconds, best of three rounds). The searches are ``genmove`` at fixed ``--playouts`` on
three positions of self-play games (12, 18 and 24 moves in), with and without the net,
alternated twice and timed by ``process_time``; the ratio is what the net costs a move at
equal simulations. Figures, not tests: compare within one run.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gtp_engine.game import Game  # noqa: E402
from gtp_engine.search import _backend, value  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402
from gtp_engine.search.tree import Workspace  # noqa: E402


def positions():
    games = []
    for k in range(3):
        game = Game("go", 9, 7.5)
        player = SearchPlayer(SearchSettings(playouts=300, seed=k))
        for _ in range(12 + 6 * k):
            move, _ = player.genmove(game, game.to_move)
            game.play(game.to_move, move)
        games.append(game)
    return games


def forward_pass_us(kernels, game, rounds=3, calls=2000):
    net = value.ValueNet.load(value.net_path("go"))
    arrays = (net.flat(), np.zeros(kernels.value_buffer_length(9, net.channels), np.float32))
    state, scratch = game.position.state.copy(), Workspace(9).scratch
    kernels.value_of(state, scratch, int(game.to_move), 0, arrays)
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            kernels.value_of(state, scratch, int(game.to_move), 0, arrays)
        best = min(best, (time.process_time() - start) / calls * 1e6)
    return net, best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weight", type=float, default=20.0)
    parser.add_argument("--playouts", type=int, default=20000)
    args = parser.parse_args(argv)
    kernels = _backend.compile_now()
    games = positions()
    net, us = forward_pass_us(kernels, games[1])
    print(f"forward pass ({net.channels} channels x {len(net.convs)} layers, 9x9): {us:.0f} us")
    seconds = {0.0: 0.0, args.weight: 0.0}
    for round_ in range(2):
        for weight in seconds:
            for game in games:
                player = SearchPlayer(SearchSettings(playouts=args.playouts, seed=round_,
                                                     book=False,
                                                     overrides=(("value_weight", weight),)))
                start = time.process_time()
                player.genmove(game, game.to_move, early_stop=False)
                seconds[weight] += time.process_time() - start
    print(f"genmove at {args.playouts} simulations, 6 searches: value_weight {args.weight:g} "
          f"{seconds[args.weight]:.2f} s, 0 {seconds[0.0]:.2f} s, "
          f"ratio {seconds[args.weight] / seconds[0.0]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
