"""``python -m gtp_engine.board.warmup``: compile every board kernel into the numba cache.

Run it once at install or in CI; afterwards the engine loads the compiled kernels in a moment.
The engine also runs it in the background at start (``board.start_warmup``).
"""

import argparse
import sys
import time


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gtp_engine.board.warmup",
                                     description="compile the board kernels into the numba cache")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    from . import kernels
    kernels.warm_all()
    if not args.quiet:
        print(f"board kernels ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
