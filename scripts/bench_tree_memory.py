"""Benchmark of the tree's memory in a long search: how many simulations a memory cap lasts
with a fixed expansion threshold and with one that doubles past half the pools
(``expand_doubling``), and what the capped searches find against one with room to spare.

    python scripts/bench_tree_memory.py [--size 19] [--max-memory 16] [--step 20000]
        [--steps 13] [--doublings 0,0.05] [--moves D4,Q16] [--reference-memory 1024]

One position (the empty board, or the ``--moves`` played from it, alternating from Black) is
searched ``--steps`` times for ``--step`` simulations, the tree kept from one search to the
next as analysis and pondering keep it; after each search the fuller pool's share in use is
printed. The reference is the same searches with ``--reference-memory`` MB (where the pools
stay below half full, a fixed threshold and a doubling one search alike). At the end, for
each cap: the simulations after which the pools were first 98% full (the tree stops growing
there), and the root's visits against the reference's (the best move, the reference best's
share of the root visits, and the total variation distance between the two distributions of
root visits, beside the distance between the reference and the same search with the next seed,
the noise floor). One thread, the same seed for every run. Figures, not tests.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gtp_engine.coords import Color, format_vertex, parse_vertex  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402

FULL = 0.98   #: the share of the fuller pool at which a tree counts as full


def run(size, moves, memory, doubling, step, steps, seed):
    """(fills after each search, the last analysis, nodes, edges) of one capped long search."""
    game = Game("go", size)
    color = Color.BLACK
    for text in moves:
        game.play(color, parse_vertex(text, size))
        color = Color(3 - int(color))
    player = SearchPlayer(SearchSettings(threads=1, max_memory_mb=memory, seed=seed,
                                         overrides=(("expand_doubling", doubling),)))
    fills = []
    analysis = None
    for _ in range(steps):
        analysis = player.search(game, color, playouts=step, early_stop=False)
        fills.append(player._trees[0].fill())
    return fills, analysis


def shares(analysis):
    total = sum(m.visits for m in analysis.moves) or 1
    return {m.move: m.visits / total for m in analysis.moves}


def distance(a, b):
    """The total variation distance between two distributions of root visits."""
    return 0.5 * sum(abs(a.get(m, 0.0) - b.get(m, 0.0)) for m in set(a) | set(b))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--max-memory", type=int, default=16, help="MB, the capped runs")
    ap.add_argument("--reference-memory", type=int, default=1024, help="MB, the reference")
    ap.add_argument("--step", type=int, default=20000)
    ap.add_argument("--steps", type=int, default=13)
    ap.add_argument("--doublings", default="0,0.05")
    ap.add_argument("--moves", default="", help="comma-separated moves from the empty board")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    moves = [m for m in args.moves.split(",") if m]
    doublings = [float(d) for d in args.doublings.split(",")]

    print(f"{args.size}x{args.size}, moves {moves or 'none'}, {args.steps} searches of "
          f"{args.step} simulations, one thread, seed {args.seed}", flush=True)
    _, reference = run(args.size, moves, args.reference_memory, doublings[0], args.step,
                       args.steps, args.seed)
    ref = shares(reference)
    ref_best = reference.best.move
    _, again = run(args.size, moves, args.reference_memory, doublings[0], args.step,
                   args.steps, args.seed + 1)
    floor = distance(shares(again), ref)
    print(f"reference ({args.reference_memory} MB): best {format_vertex(ref_best)} "
          f"{reference.best.visits} visits, {reference.nodes} nodes, {reference.edges} edges; "
          f"with seed {args.seed + 1}: best {format_vertex(again.best.move)}, the reference "
          f"best's share {shares(again).get(ref_best, 0.0):.3f}, visits' distance {floor:.3f} "
          f"(the noise floor)", flush=True)
    for doubling in doublings:
        fills, analysis = run(args.size, moves, args.max_memory, doubling, args.step,
                              args.steps, args.seed)
        full = next(((i + 1) * args.step for i, f in enumerate(fills) if f >= FULL), None)
        got = shares(analysis)
        print(f"{args.max_memory} MB, expand_doubling {doubling:g}: fill after each search "
              + " ".join(f"{f:.2f}" for f in fills), flush=True)
        filled = (f"full ({FULL:.0%}) after {full} simulations" if full else
                  f"not full ({FULL:.0%}) within {args.step * args.steps} simulations")
        print(f"  {filled}; best "
              f"{format_vertex(analysis.best.move)} {analysis.best.visits} visits; "
              f"reference best's share {got.get(ref_best, 0.0):.3f} (reference "
              f"{ref[ref_best]:.3f}); visits' distance to the reference {distance(got, ref):.3f}; "
              f"{analysis.cpu_speed:.0f} simulations per CPU second in the last search",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
