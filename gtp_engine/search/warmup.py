"""``python -m gtp_engine.search.warmup``: compile the board and search kernels into numba's
cache, so that engines start with the fast search at once. Run it at install or in CI; the
engine also runs it in the background at start (``search.start_warmup``), with
``--search-only --progress``: the search kernels and the board kernels they call, reported on
stderr as they come, while a board warm-up beside it compiles the board's other entry points
on the other core."""

import argparse
import contextlib
import os
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
    parser.add_argument("--search-only", action="store_true",
                        help="compile the search kernels (and the board kernels they call) only")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="give up while waiting for another compile when stdin closes")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    compiling = threading.Event()
    if args.exit_with_parent:
        board_warmup.leave_when_parent_leaves(compiling)
    compiling.set()
    from . import _backend
    with board_warmup.report_compiles("search") if args.progress else contextlib.nullcontext():
        if args.search_only:
            _backend.load_search()
        else:
            _backend.compile_now()
    if not args.quiet:
        what = "search" if args.search_only else "board and search"
        print(f"vargo: {what} kernels ready in {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
    if args.exit_with_parent:
        # the thread watching stdin would block the interpreter's shutdown on stdin's lock
        # (a fatal error, so the parent would think the compile failed): leave at once
        sys.stderr.flush()
        os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
