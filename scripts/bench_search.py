"""Benchmark of the search: simulations per second per game, board size, playout kind and
thread count, and the light random-playout rate against a minimal numba kernel measured in the
same run.

    python scripts/bench_search.py [--seconds S] [--sizes 9,19] [--json]

Each figure is the best of ``--rounds`` searches (simulations per second of wall-clock time,
and per processor second of one thread, which the load of a shared machine does not change) of
``--seconds`` each from the empty board (after the forts in Terrain Go). The minimal kernel
(``minimal_playout``) is about the least a legal random Go playout can do: strings as circular
lists with incrementally kept pseudo-liberties, the empty points in a list drawn by rejection,
simple ko, no hash, no bookkeeping for anything else; with the same random numbers it plays the
very games the board's own random playout plays, which is reported as a share of it (both per
processor second, best of three, compiled alike: at the engine's LLVM level, and with its
indices taken as given, ``board.kernels.KERNEL_COMPILER``). Figures, not
tests: the machine is shared and noisy, so compare within one run.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gtp_engine.board import SCORE_AREA, Position  # noqa: E402
from gtp_engine.board import kernels as board_kernels  # noqa: E402
from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.search import _backend  # noqa: E402
from gtp_engine.search.forts import auto_forts  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402

VARIANTS = ("go", "loose", "goncrete", "disto", "terrain")


def search_rate(variant, size, threads, heavy, seconds, rounds, shared=0):
    """(best simulations per wall-clock second, best per processor second of one thread);
    ``shared``: the threads share one tree (``shared_tree``) instead of one tree each."""
    wall = cpu = 0.0
    for r in range(rounds):
        game = Game(variant, size)
        if game.terrain is not None:
            auto_forts(game, 1)
        player = SearchPlayer(SearchSettings(threads=threads, heavy=heavy, seed=r,
                                             overrides=(("shared_tree", shared),)))
        analysis = player.search(game, Color.BLACK, seconds=seconds, early_stop=False)
        wall = max(wall, analysis.speed)
        cpu = max(cpu, analysis.cpu_speed * threads)
    return wall, cpu / threads


# ----------------------------------------------------------------- the minimal kernel
#: compiled as the engine's kernels are (numba's reference counting aside: it allocates)
MINIMAL_OPTIONS = dict(cache=True)
if board_kernels.KERNEL_COMPILER is not None:
    MINIMAL_OPTIONS["pipeline_class"] = board_kernels.KERNEL_COMPILER


@numba.njit(**MINIMAL_OPTIONS)
def minimal_playout(size, board, nxt, gid, libs, gsize, empties, where, rng):
    """One uniformly random playout of Go with the least bookkeeping that still plays legal
    Go: the ceiling the board's own light playout is measured against.

    From the empty ``size`` x ``size`` board (flat, ``size + 2`` wide with a wall border),
    Black first: each turn draws a uniformly random point from the list of empty points
    (``empties[0:n]``, ``where`` its index per cell) by rejection: a drawn point that is
    not playable (the simple ko point, the player's own single-point eye by the board's rule,
    suicide) is moved out of the window of candidates and another is drawn; a player with no
    playable point passes. Two passes in a row or 3*N*N placements end it.

    Strings are circular linked lists (``nxt``) labelled by a root cell (``gid``); the
    root holds the string's size (``gsize``) and pseudo-liberties (``libs``: adjacent empty
    points counted once per adjacent stone), kept incrementally: a placement takes one from
    each touching string, a capture (walking the list) gives one back to each string next to
    each removed stone, a merge relabels the smaller string and adds the counts. Suicide and
    capture are read from the counts alone (a string loses exactly one count per stone next to
    the played point). The arrays (``area`` cells each; ``rng`` a one-cell int64 xorshift32
    state, nonzero) hold the final position on return.

    Returns (Black's area minus White's, placements, empty points): the area counts stones and
    empty points whose neighbouring stones are all of one colour.
    """
    w = size + 2
    area = w * w
    n = 0
    for cell in range(area):
        row = cell // w
        col = cell - row * w
        if 1 <= row <= size and 1 <= col <= size:
            board[cell] = 0
            empties[n] = cell
            where[cell] = n
            n += 1
        else:
            board[cell] = 3
    x = rng[0]
    color = 1
    passes = 0
    moves = 0
    ko = 0
    while passes < 2 and moves < 3 * size * size:
        enemy = 3 - color
        k = n
        played = 0
        while k > 0:
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            i = x % k
            cell = empties[i]
            playable = cell != ko
            if playable:
                eye = True   # the board's rule: friends or walls around, few enemy diagonals
                for q in (cell - 1, cell + 1, cell - w, cell + w):
                    v = board[q]
                    if v != color and v != 3:
                        eye = False
                if eye:
                    bad = 0
                    edge = 0
                    for q in (cell - w - 1, cell - w + 1, cell + w - 1, cell + w + 1):
                        v = board[q]
                        if v == enemy:
                            bad += 1
                        elif v == 3:
                            edge = 1
                    playable = bad + edge >= 2
            if playable:
                free = False
                for q in (cell - 1, cell + 1, cell - w, cell + w):
                    if board[q] == 0:
                        free = True
                if not free:   # suicide unless a friend keeps a count or an enemy loses its last
                    for q in (cell - 1, cell + 1, cell - w, cell + w):
                        if board[q] == 1 or board[q] == 2:
                            libs[gid[q]] -= 1
                    for q in (cell - 1, cell + 1, cell - w, cell + w):
                        v = board[q]
                        if (v == color and libs[gid[q]] > 0) or (v == enemy and libs[gid[q]] == 0):
                            free = True
                    for q in (cell - 1, cell + 1, cell - w, cell + w):
                        if board[q] == 1 or board[q] == 2:
                            libs[gid[q]] += 1
                playable = free
            if playable:
                played = cell
                break
            k -= 1   # move the refused point out of the window (the list order is free)
            other = empties[k]
            empties[i] = other
            where[other] = i
            empties[k] = cell
            where[cell] = k
        rng[0] = x
        ko = 0
        if played == 0:
            passes += 1
            color = enemy
            continue
        passes = 0
        moves += 1
        cell = played
        n -= 1   # swap-remove the point from the empty list
        j = where[cell]
        last = empties[n]
        empties[j] = last
        where[last] = j
        board[cell] = color
        gid[cell] = cell
        nxt[cell] = cell
        gsize[cell] = 1
        libs[cell] = 0
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            v = board[q]
            if v == 0:
                libs[cell] += 1
            elif v == 1 or v == 2:
                libs[gid[q]] -= 1
        captured = 0
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if board[q] == enemy and libs[gid[q]] == 0:
                root = gid[q]
                s = root
                while True:   # walk the circular list: empty each stone, free its neighbours
                    board[s] = 0
                    empties[n] = s
                    where[s] = n
                    n += 1
                    captured += 1
                    for t in (s - 1, s + 1, s - w, s + w):
                        if board[t] == color:
                            libs[gid[t]] += 1
                    s = nxt[s]
                    if s == root:
                        break
                if captured == 1:
                    ko = root
        root = cell
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if board[q] == color and gid[q] != root:
                a = root
                b = gid[q]
                if gsize[a] < gsize[b]:
                    a, b = b, a
                s = b
                while True:   # relabel the smaller string
                    gid[s] = a
                    s = nxt[s]
                    if s == b:
                        break
                na = nxt[a]   # splice the two circles
                nxt[a] = nxt[b]
                nxt[b] = na
                gsize[a] += gsize[b]
                libs[a] += libs[b]
                root = a
        if not (captured == 1 and gsize[root] == 1 and libs[root] == 1):
            ko = 0   # only a lone stone in atari that took one stone makes a simple ko
        color = enemy
    balance = 0
    for cell in range(area):
        v = board[cell]
        if v == 0:
            seen = 0
            for q in (cell - 1, cell + 1, cell - w, cell + w):
                if board[q] == 1 or board[q] == 2:
                    seen |= board[q]
            v = seen
        if v == 1:
            balance += 1
        elif v == 2:
            balance -= 1
    return balance, moves, n


@numba.njit(**MINIMAL_OPTIONS)
def minimal_playouts(size, count, seed):
    """``count`` playouts of ``minimal_playout`` (seed nonzero); returns Black's wins at komi
    0.5 (the result keeps the compiler from skipping the scoring)."""
    area = (size + 2) * (size + 2)
    board = np.zeros(area, np.int8)
    nxt = np.zeros(area, np.int32)
    gid = np.zeros(area, np.int32)
    libs = np.zeros(area, np.int32)
    gsize = np.zeros(area, np.int32)
    empties = np.zeros(area, np.int32)
    where = np.zeros(area, np.int32)
    rng = np.array([seed], np.int64)
    wins = 0
    for _ in range(count):
        balance, moves, n = minimal_playout(size, board, nxt, gid, libs, gsize, empties, where,
                                            rng)
        if balance > 0:
            wins += 1
    return wins


def light_playout_rates(size, seconds):
    """(board kernel playouts/s, minimal kernel playouts/s), one thread, best of three."""
    minimal = minimal_playouts
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
                for heavy, shared in [(True, 0), (False, 0)] + \
                        ([(True, 1), (False, 1)] if threads > 1 else []):
                    wall, cpu = search_rate(variant, size, threads, heavy, args.seconds,
                                            args.rounds, shared)
                    trees = "one tree" if shared or threads == 1 else "a tree each"
                    row = {"kind": "search", "variant": variant, "size": size,
                           "threads": threads, "trees": trees,
                           "playouts": "heavy" if heavy else "light",
                           "simulations_per_second": round(wall),
                           "per_cpu_second_of_a_thread": round(cpu)}
                    rows.append(row)
                    print(json.dumps(row) if args.json else
                          f"{size}x{size} {variant:9s} {threads} thread(s), {trees:11s} "
                          f"{'heavy' if heavy else 'light'}: {wall:,.0f} simulations/s "
                          f"({cpu:,.0f} per CPU second of a thread)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
