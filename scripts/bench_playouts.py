"""Benchmark (not a test): random playouts per second of the compiled board kernels, per game.

For each game on 9x9 and 19x19 (rates in CPU time of one thread, best of five rounds, so a
busy machine lowers them as little as possible; the wall-clock rate is shown beside):
uniformly random legal moves (never filling one's own
single-point eye where the game has eyes) from the empty board (Terrain Go: a generated map
with its forts) until the game ends, on one core; the rate is shown next to standard Go's on
the same size. Also the one-time compile cost (a subprocess with an empty numba cache) and the
warm start (a subprocess importing the board and loading the compiled kernels from the cache).

    python scripts/bench_playouts.py [--seconds S] [--sizes 9,19] [--games go,loose] [--json]
                                     [--no-compile]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gtp_engine import board  # noqa: E402
from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.rules import find_rules  # noqa: E402
from gtp_engine.rules.terrain_map import generate_map  # noqa: E402

GAMES = ("go", "loose", "goncrete", "disto", "terrain")


def start_position(rules, size: int, seed: int = 1):
    """The empty board of ``rules`` (Terrain Go: map of ``seed`` with forts on plain points
    spread over the board, White first) and the fort value."""
    if not rules.has_terrain:
        return board.Position(size, rules.capture), 0
    terrain = generate_map(size, seed)
    position = board.Position(size, rules.capture, terrain.kinds)
    plain = [(r, c) for r in range(2, size - 2) for c in range(2, size - 2)
             if terrain.kinds[r * size + c] == board.PLAIN]
    step = max(1, len(plain) // (2 * terrain.forts_per_side + 1))
    for i in range(2 * terrain.forts_per_side):
        position.place_fort(Color.WHITE if i % 2 == 0 else Color.BLACK, plain[(i + 1) * step])
    return position, terrain.fort_value


def playouts_per_second(rules, size: int, seconds: float, rounds: int = 5):
    """(rate on one core, wall-clock rate), each the best of ``rounds`` rounds (as ``timeit``
    does: other work on the machine only ever slows a round down). The first counts the CPU
    time of this thread, the second what the clock saw."""
    position, fort_value = start_position(rules, size)
    position.playouts(Color.BLACK, 10, 1, rules.scoring, fort_value,
                      skip_own_eyes=rules.playout_eyes)   # any first-call cost out of the timing
    best_cpu = best_wall = 0.0
    seed = 1
    for _ in range(rounds):
        count, batch = 0, 20
        cpu, wall = time.thread_time(), time.perf_counter()
        while True:
            position.playouts(Color.BLACK, batch, seed, rules.scoring, fort_value,
                              skip_own_eyes=rules.playout_eyes)
            count += batch
            seed += 1
            cpu_elapsed = time.thread_time() - cpu
            if cpu_elapsed >= seconds / rounds:
                break
            batch = min(batch * 2, 1000)
        best_cpu = max(best_cpu, count / cpu_elapsed)
        best_wall = max(best_wall, count / (time.perf_counter() - wall))
    return best_cpu, best_wall


def _timed_subprocess(code: str, env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=str(ROOT))
    return time.perf_counter() - start


def compile_costs() -> dict:
    """Seconds for: a cold compile of every kernel (empty cache), the warm start (import and
    load all kernels from the cache), and importing the board package alone (no numba)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    with tempfile.TemporaryDirectory() as cache:
        cold_env = dict(env, NUMBA_CACHE_DIR=cache)
        cold = _timed_subprocess("import gtp_engine.board as b; b.compile_now()", cold_env)
        warm = _timed_subprocess("import gtp_engine.board as b; b.compile_now()", cold_env)
    bare = _timed_subprocess("import gtp_engine.board", env)
    return {"cold_compile_s": round(cold, 2), "warm_start_s": round(warm, 2),
            "import_board_s": round(bare, 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="timing per game and size")
    parser.add_argument("--sizes", default="9,19")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile timings")
    args = parser.parse_args(argv)
    board.compile_now()
    games = [g for g in args.games.split(",") if g]
    for size in (int(s) for s in args.sizes.split(",")):
        go_rate, go_wall = playouts_per_second(find_rules("go"), size, args.seconds)
        for name in games:
            rules = find_rules(name)
            rate, wall = ((go_rate, go_wall) if name == "go"
                          else playouts_per_second(rules, size, args.seconds))
            row = {"game": name, "size": size, "playouts_per_s": round(rate),
                   "ratio_to_go": round(rate / go_rate, 3), "wall_playouts_per_s": round(wall)}
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(f"{name:9s} {size:2d}x{size:<2d} {rate:10.0f} playouts/s per core  "
                      f"{rate / go_rate:5.2f} x go   (wall clock {wall:.0f}/s)", flush=True)
    if not args.no_compile:
        costs = compile_costs()
        if args.json:
            print(json.dumps(costs))
        else:
            print(f"cold compile {costs['cold_compile_s']} s, warm start {costs['warm_start_s']} s, "
                  f"import gtp_engine.board {costs['import_board_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
