"""How long a big SGF record takes to load (``loadsgf``, ``vargo --setup``, ``vargo-sgf``):
``sgf.SgfRecord.from_bytes`` on a long game, with the board's pure-Python kernels (a fresh
engine, before its compiled kernels arrive) and with the compiled ones.

    python scripts/bench_sgf_load.py [--nodes 200000] [--size 9] [--file GAME.sgf] [--repeat 3]

Without ``--file`` the record is made here: a legal game of ``--nodes`` moves from a fixed seed
(random moves, own eyes filled too, so that captures keep the board from filling up; written to
``--keep`` when given, so that a later run, or another checkout, times the same file). GoGui
waits about 15 s for ``loadsgf``.

Prints, for each kernel: the best of ``--repeat`` loads in processor seconds, microseconds a node, and the
ratio to the reference of the same run, sgfmill parsing the same bytes (``parse``), so that runs
on a loaded machine, and runs of two checkouts, compare as ratios. A benchmark, not a test.
"""

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sgf  # noqa: E402
from gtp_engine.board import _backend  # noqa: E402
from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.errors import EngineError  # noqa: E402
from gtp_engine.files import write_atomically  # noqa: E402
from gtp_engine.game import Game  # noqa: E402


def long_game(moves: int, size: int, seed: int = 1) -> bytes:
    """A legal Go game of ``moves`` moves as SGF: random placements, own eyes filled too, a
    pass only when no point is legal; when neither side can place (superko forbids the capture
    that would open the board), a set-up node puts a few stones on an empty board (``AB AW AE``,
    as problem collections and edited games write them) and play goes on."""
    game = Game("go", size, None)
    rng = random.Random(seed)
    color = Color.BLACK
    while len(game.moves) < moves:
        points = game.position.legal_points(color)   # by the board's rules: superko may refuse
        rng.shuffle(points)
        for point in points:
            try:
                game.play(color, point)
                break
            except EngineError:
                continue
        else:
            if game.moves and game.moves[-1].is_pass:   # stuck: a few stones on an empty board
                stones = [(r, c) for r in range(size) for c in range(size) if game.position.stone_at((r, c))]
                fresh = rng.sample([(r, c) for r in range(size) for c in range(size)], 6)
                game.edit(black=fresh[:3], white=fresh[3:], empty=[p for p in stones if p not in fresh])
                continue
            game.play(color, None)
        color = color.opponent
    return sgf.game_to_sgf(game, comments=False)


def best_of(repeat: int, work) -> float:
    """The least processor time (this process's, so that other work on a shared machine counts
    less than in wall time) of ``repeat`` runs of ``work``."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        result = work()
        times.append(time.process_time() - start)
        del result
    return min(times)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=200_000, help="moves of the made game")
    parser.add_argument("--size", type=int, default=9, help="board size of the made game")
    parser.add_argument("--file", type=Path, help="time this SGF file instead")
    parser.add_argument("--keep", type=Path, help="write the made game here")
    parser.add_argument("--repeat", type=int, default=3, help="loads timed per kernel (best)")
    parser.add_argument("--kernels", default="mirror,compiled",
                        help="mirror, compiled or both (default), comma-separated")
    args = parser.parse_args(argv)
    kernels = args.kernels.split(",")
    if args.file is not None:
        data = sgf.read_file(args.file)
    else:
        if "compiled" in kernels:
            _backend.compile_now()  # the game is made faster so; it is timed below either way
        data = long_game(args.nodes, args.size)
        _backend.active = _backend.mirror
        if args.keep is not None:
            write_atomically(args.keep, data)
    from sgfmill import sgf_grammar
    parse = best_of(args.repeat, lambda: sgf_grammar.parse_sgf_game(data))
    nodes = data.count(b";")
    print(f"{nodes} nodes, {len(data)} bytes; reference: sgfmill parses them in {parse:.3f} s of processor time")
    for kernel in kernels:
        if kernel == "compiled":
            _backend.compile_now()
        else:
            _backend.active = _backend.mirror
        moves = len(sgf.SgfRecord.from_bytes(data).game.moves)
        seconds = best_of(args.repeat, lambda: sgf.SgfRecord.from_bytes(data))
        print(f"load, {kernel} kernels: {seconds:.3f} s ({1e6 * seconds / nodes:.1f} us a node, "
              f"{moves} moves) = {seconds / parse:.2f} x parse")


if __name__ == "__main__":
    main()
