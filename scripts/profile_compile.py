"""Where a cold compile of the kernels spends its CPU: every kernel numba compiles, with the
seconds spent in it (inclusive: with the kernels it calls compiled inside; own: without
them), how many specialisations (argument-type signatures) it got, and the entry point whose
compile started it. Runs in a new empty numba cache, in this process, in the engine's order
(the search's entry points, then the board's), or only ``--part search|board``.

    python scripts/profile_compile.py            # the whole compile, a table on stdout
    python scripts/profile_compile.py --top 25
    python scripts/profile_compile.py --warmup-part "search playouts"   # one part of the warm-up
"""

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=40, help="rows of the table")
    parser.add_argument("--part", choices=("all", "search", "board"), default="all")
    parser.add_argument("--warmup-part", metavar="NAME",
                        help="only this part of the warm-up (search.warmup.PARTS), alone")
    parser.add_argument("--keep-cache", action="store_true",
                        help="use NUMBA_CACHE_DIR as given (not a new empty one)")
    args = parser.parse_args(argv)
    if not args.keep_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="vargo-profile-")
    from numba.core import event

    stack = []                    # [name, start cpu, cpu of nested compiles]
    own = defaultdict(float)
    inclusive = defaultdict(float)
    sigs = defaultdict(set)
    entry_of = {}
    entries = []                  # (entry name, inclusive cpu)

    def name_of(ev):
        fn = getattr(ev.data.get("dispatcher"), "py_func", None)
        return f"{fn.__module__.split('.')[-2]}.{fn.__name__}" if fn else "?"

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([name_of(ev), time.process_time(), 0.0])

        def on_end(self, ev):
            name, t0, nested = stack.pop()
            spent = time.process_time() - t0
            own[name] += spent - nested
            inclusive[name] += spent
            sigs[name].add(str(ev.data.get("args")))
            if stack:
                stack[-1][2] += spent
                entry_of.setdefault(name, stack[0][0])
            else:
                entries.append((name, spent))

    event.register("numba:compile", Listener())
    t_wall, t_cpu = time.perf_counter(), time.process_time()
    from gtp_engine.board import _backend as board_backend
    board_backend.import_numba()
    if args.warmup_part:
        from gtp_engine.search import kernels as search_kernels
        from gtp_engine.search import warmup
        warmup._COMPILES[args.warmup_part](search_kernels)
    elif args.part in ("all", "search"):
        from gtp_engine.search import kernels as search_kernels
        search_kernels.warm_all(everything=True)
    if args.part in ("all", "board") and not args.warmup_part:
        from gtp_engine.board import kernels as board_kernels
        board_kernels.warm_all()
    wall, cpu = time.perf_counter() - t_wall, time.process_time() - t_cpu
    print(f"whole compile ({args.warmup_part or args.part}): {cpu:.1f} s CPU, {wall:.1f} s wall, load average "
          f"{os.getloadavg()[0]:.1f}, {len(own)} kernels, {sum(map(len, sigs.values()))} "
          "specialisations")
    print("\nentry points (compiles not started by another), in order, CPU seconds:")
    for name, spent in entries:
        print(f"  {spent:7.1f}  {name}")
    print(f"\nkernels by own CPU (top {args.top}): own, inclusive, specialisations, first entry")
    for name in sorted(own, key=own.get, reverse=True)[:args.top]:
        print(f"  {own[name]:7.1f} {inclusive[name]:7.1f} {len(sigs[name]):3d}  {name} "
              f"({entry_of.get(name, 'entry point')})")
    multi = {n: s for n, s in sigs.items() if len(s) > 1}
    if multi:
        print("\nkernels with more than one specialisation:")
        for name, ss in sorted(multi.items()):
            print(f"  {name}: {len(ss)}")
            for s in sorted(ss):
                print(f"      {s[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
