"""Benchmark, not test: how long ``generate_map`` takes per map (RULES T1, default settings).

For each board size it generates maps for seeds 0..N-1 and prints the mean, median and slowest
time per map, plus the time to choose all forts of one map (``search.forts``), e.g.

    python -m scripts.bench_terrain                 # a table
    python -m scripts.bench_terrain --json          # one JSON object per size and line
    python -m scripts.bench_terrain --sizes 19 --seeds 1000
"""

import argparse
import json
import statistics
import sys
import time
from typing import Dict, List, Sequence

from gtp_engine.coords import Color
from gtp_engine.rules.terrain_map import generate_map
from gtp_engine.search.forts import choose_fort_on_map

DEFAULT_SIZES = (9, 13, 19, 25)


def _forts_time(terrain) -> float:
    """Seconds to choose every fort of ``terrain`` in turn, White first."""
    forts = []
    start = time.perf_counter()
    for number in range(2 * terrain.forts_per_side):
        color = Color.WHITE if number % 2 == 0 else Color.BLACK
        forts.append((color, choose_fort_on_map(terrain, forts, color)))
    return time.perf_counter() - start


def measure(size: int, seeds: int) -> Dict[str, float]:
    """Timings for one board size over seeds 0..seeds-1, in milliseconds."""
    generation: List[float] = []
    forts: List[float] = []
    for seed in range(seeds):
        start = time.perf_counter()
        terrain = generate_map(size, seed)
        generation.append(time.perf_counter() - start)
        forts.append(_forts_time(terrain))
    return {
        "size": size,
        "maps": seeds,
        "mean_ms": round(1000 * statistics.fmean(generation), 3),
        "median_ms": round(1000 * statistics.median(generation), 3),
        "max_ms": round(1000 * max(generation), 3),
        "forts_mean_ms": round(1000 * statistics.fmean(forts), 3),
    }


def main(argv: Sequence[str] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES), help="board sizes")
    parser.add_argument("--seeds", type=int, default=200, help="maps per size (seeds 0..N-1)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    if not args.json:
        print(f"{'size':>4} {'maps':>6} {'mean ms':>9} {'median ms':>10} {'max ms':>8} {'forts ms':>9}")
    for size in args.sizes:
        row = measure(size, args.seeds)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{row['size']:>4} {row['maps']:>6} {row['mean_ms']:>9.2f} {row['median_ms']:>10.2f} "
                  f"{row['max_ms']:>8.2f} {row['forts_mean_ms']:>9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
