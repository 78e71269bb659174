"""Benchmark of the search: simulations per second per game, board size, playout kind and
thread count, and the light random-playout rate against a minimal numba kernel measured in the
same run.

    python scripts/bench_search.py [--seconds S] [--sizes 9,19] [--json]

Each figure is the best of ``--rounds`` searches (simulations per second of wall-clock time,
and per processor second of one thread, which the load of a shared machine does not change) of ``--seconds`` each from the empty board
(after the forts in Terrain Go). The minimal kernel is the least a random Go playout can do
(one flat board, groups by flood fill only when a neighbour may be captured, no ko, no
superko, no bookkeeping for anything else); the board's own random playout is reported as a
share of it. Figures, not tests: the machine is shared and noisy, so compare within one run.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gtp_engine.board import SCORE_AREA, Position  # noqa: E402
from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.search import _backend  # noqa: E402
from gtp_engine.search.forts import auto_forts  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402

VARIANTS = ("go", "loose", "goncrete", "disto", "terrain")


def search_rate(variant, size, threads, heavy, seconds, rounds):
    """(best simulations per wall-clock second, best per processor second of one thread)."""
    wall = cpu = 0.0
    for r in range(rounds):
        game = Game(variant, size)
        if game.terrain is not None:
            auto_forts(game, 1)
        player = SearchPlayer(SearchSettings(threads=threads, heavy=heavy, seed=r))
        analysis = player.search(game, Color.BLACK, seconds=seconds, early_stop=False)
        wall = max(wall, analysis.speed)
        cpu = max(cpu, analysis.cpu_speed * threads)
    return wall, cpu / threads


# ----------------------------------------------------------------- the minimal kernel
def _minimal_kernel():
    import numba

    @numba.njit(cache=True)
    def group_has_liberty(board, start, w, mark, stack, stamp):
        color = board[start]
        top = 1
        stack[0] = start
        mark[start] = stamp
        while top > 0:
            top -= 1
            s = stack[top]
            for q in (s - 1, s + 1, s - w, s + w):
                v = board[q]
                if v == 0:
                    return True
                if v == color and mark[q] != stamp:
                    mark[q] = stamp
                    stack[top] = q
                    top += 1
        return False

    @numba.njit(cache=True)
    def remove_group(board, start, w, stack, empties, where, n):
        color = board[start]
        board[start] = 0
        empties[n] = start
        where[start] = n
        n += 1
        top = 1
        stack[0] = start
        while top > 0:
            top -= 1
            s = stack[top]
            for q in (s - 1, s + 1, s - w, s + w):
                if board[q] == color:
                    board[q] = 0
                    empties[n] = q
                    where[q] = n
                    n += 1
                    stack[top] = q
                    top += 1
        return n

    @numba.njit(cache=True)
    def playouts(size, count, seed):
        w = size + 2
        area = w * w
        board0 = np.full(area, 3, np.int8)
        for r in range(size):
            for c in range(size):
                board0[(r + 1) * w + c + 1] = 0
        mark = np.zeros(area, np.int32)
        stack = np.zeros(area, np.int32)
        empties = np.zeros(area, np.int32)
        where = np.zeros(area, np.int32)
        stamp = 0
        x = seed
        for _ in range(count):
            board = board0.copy()
            n = 0   # the empty points, kept as a list with swap-removal
            for cell in range(area):
                if board[cell] == 0:
                    empties[n] = cell
                    where[cell] = n
                    n += 1
            color = 1
            passes = 0
            moves = 0
            while passes < 2 and moves < 3 * size * size:
                k = n
                played = False
                while k > 0:
                    x ^= (x << 13) & 0xFFFFFFFF
                    x ^= x >> 17
                    x ^= (x << 5) & 0xFFFFFFFF
                    i = x % k
                    cell = empties[i]
                    k -= 1   # move it out of the window of candidates
                    other = empties[k]
                    empties[i] = other
                    where[other] = i
                    empties[k] = cell
                    where[cell] = k
                    eye = True
                    for q in (cell - 1, cell + 1, cell - w, cell + w):
                        if board[q] != color and board[q] != 3:
                            eye = False
                    if eye:
                        continue
                    board[cell] = color
                    captured = False
                    for q in (cell - 1, cell + 1, cell - w, cell + w):
                        if board[q] == 3 - color:
                            stamp += 1
                            if not group_has_liberty(board, q, w, mark, stack, stamp):
                                captured = True
                    stamp += 1
                    if not captured and not group_has_liberty(board, cell, w, mark, stack, stamp):
                        board[cell] = 0   # suicide
                        continue
                    n -= 1   # take the cell off the list of empty points
                    j = where[cell]
                    last = empties[n]
                    empties[j] = last
                    where[last] = j
                    for q in (cell - 1, cell + 1, cell - w, cell + w):
                        if board[q] == 3 - color:
                            stamp += 1
                            if not group_has_liberty(board, q, w, mark, stack, stamp):
                                n = remove_group(board, q, w, stack, empties, where, n)
                    played = True
                    break
                passes = 0 if played else passes + 1
                moves += 1
                color = 3 - color
        return count

    return playouts


def light_playout_rates(size, seconds):
    """(board kernel playouts/s, minimal kernel playouts/s), one thread, best of three."""
    minimal = _minimal_kernel()
    minimal(size, 2, 7)
    position = Position(size, 0)
    position.playouts(Color.BLACK, 2, 1, SCORE_AREA)

    def rate(run):
        best = 0.0
        for r in range(3):
            count = 0
            start = time.process_time()
            while time.process_time() - start < seconds:
                run(r * 1000 + count)
                count += 200
            best = max(best, count / (time.process_time() - start))
        return best

    ours = rate(lambda seed: position.playouts(Color.BLACK, 200, seed, SCORE_AREA))
    theirs = rate(lambda seed: minimal(size, 200, seed + 1))
    return ours, theirs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sizes", default="9,19")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    _backend.compile_now()
    print(f"kernels ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    rows = []
    for size in [int(s) for s in args.sizes.split(",")]:
        ours, minimal = light_playout_rates(size, args.seconds / 2)
        row = {"kind": "light playouts", "size": size, "board_kernel": round(ours),
               "minimal_kernel": round(minimal), "ratio": round(ours / minimal, 2)}
        rows.append(row)
        print(json.dumps(row) if args.json else
              f"{size}x{size} random playouts/s: board kernel {ours:,.0f}, minimal kernel "
              f"{minimal:,.0f}, ratio {ours / minimal:.2f}", flush=True)
        for variant in args.variants.split(","):
            if variant == "loose" and size % 2 == 0:
                continue
            for threads in [int(t) for t in args.threads.split(",")]:
                for heavy in (True, False):
                    wall, cpu = search_rate(variant, size, threads, heavy, args.seconds,
                                            args.rounds)
                    row = {"kind": "search", "variant": variant, "size": size,
                           "threads": threads, "playouts": "heavy" if heavy else "light",
                           "simulations_per_second": round(wall),
                           "per_cpu_second_of_a_thread": round(cpu)}
                    rows.append(row)
                    print(json.dumps(row) if args.json else
                          f"{size}x{size} {variant:9s} {threads} thread(s) "
                          f"{'heavy' if heavy else 'light'}: {wall:,.0f} simulations/s "
                          f"({cpu:,.0f} per CPU second of a thread)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
