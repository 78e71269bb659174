"""``python -m gtp_engine.search.warmup``: compile the board and search kernels into numba's
cache, so that engines start with the fast search at once. Run it at install or in CI; the
engine also runs it in the background at start (``search.start_warmup``), with
``--search-first --progress``: the search kernels and the board kernels they call first (the
engine loads them as soon as they are in the cache), then the board's other entry points,
reported on stderr as they come."""

import argparse
import contextlib
import sys
import threading
import time

from ..board import warmup as board_warmup


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gtp_engine.search.warmup",
                                     description="compile the board and search kernels")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    parser.add_argument("--progress", action="store_true",
                        help="report each compiled kernel on stderr")
    parser.add_argument("--search-first", action="store_true",
                        help="compile the search kernels (and the board kernels they call) "
                        "first, then the board's other entry points")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="give up while waiting for another compile when stdin closes")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    compiling = threading.Event()
    if args.exit_with_parent:
        board_warmup.leave_when_parent_leaves(compiling)
    compiling.set()
    from . import _backend
    with board_warmup.report_compiles("board and search") if args.progress else contextlib.nullcontext():
        if args.search_first:
            _backend.load_search()
            if not args.quiet:
                print(f"vargo: search kernels ready in {time.perf_counter() - start:.1f} s",
                      file=sys.stderr)
            from ..board import _backend as board_backend
            board_backend.compile_now()
        else:
            _backend.compile_now()
    if not args.quiet:
        print(f"vargo: board and search kernels ready in {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
    return board_warmup.leave(args.exit_with_parent)


if __name__ == "__main__":
    sys.exit(main())
