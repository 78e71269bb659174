"""The command line: ``python -m gtp_engine`` and ``vargo`` take the same options.

Options are checked before the first command is read: the numbers and vertices by the parser,
then the game they describe is built (rules, size, komi, map, forts; a fifth of a second, as
the board runs as plain Python until its compiled kernels are ready). A bad option, or options
that do not fit together, end the process with a message on stderr and exit code 2 before any
answer, so a frontend sees an engine that failed to start, not one that dies later.

Everything about the game follows from the command line alone, deterministically: GoGui starts
a second process as the ruler with the same command line and never sends it ``boardsize``,
``komi`` or set-up commands.
"""

import argparse
import logging
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import Optional, Sequence

from . import NAME, __version__
from .errors import QUOTE_LIMIT, EngineError, quote

USAGE_ERROR = 2
#: the rule book installed with the engine (package data, a copy of docs/RULES.md)
RULES_BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RULES.md")
_VERTEX = re.compile(r"[A-HJ-Za-hj-z][0-9]{1,2}")


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (the scripts' counts use it too)."""
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {quote(text)}")
    return int(text)


def _threads(text: str) -> int:
    from .search import MAX_THREADS
    count = positive_int(text)
    if count > MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_THREADS}, not {quote(text)}")
    return count


def _count(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise argparse.ArgumentTypeError(f"must be a whole number, 0 or more, not {text!r}")
    return int(text)


def _seed(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,18}", text):
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, not {quote(text)}")
    return int(text)


def _size(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,2}", text) or not 2 <= int(text) <= 25:
        raise argparse.ArgumentTypeError(f"must be a board size from 2 to 25, not {quote(text)}")
    return int(text)


def _finite(text: str) -> float:
    """A decimal number as GTP reads one (``gtp.args``): not ``7_5``, other scripts' digits,
    ``inf`` or ``nan``, which Python's float would take."""
    from .gtp.args import DECIMAL, MAX_DECIMAL_CHARS
    value = float(text) if DECIMAL.fullmatch(text) and len(text) <= MAX_DECIMAL_CHARS else math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite decimal number such as 6.5, not {quote(text)}")
    return value


def _search_param(text: str):
    from .search.params import TUNABLES, check_tunable
    name, sep, value = text.partition("=")
    if not sep or name not in TUNABLES:
        raise argparse.ArgumentTypeError(
            f"must be NAME=VALUE with NAME one of {', '.join(TUNABLES)}, not {quote(text)}")
    try:
        return name, check_tunable(name, _finite(value))
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _share(text: str) -> float:
    value = _finite(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be a win rate between 0 and 1, not {quote(text)}")
    return value


def _positive_float(text: str) -> float:
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {quote(text)}")
    return value


def _forts(text: str):
    """``auto`` or a comma-separated list of vertices."""
    if text.lower() == "auto":
        return "auto"
    vertices = [v.strip() for v in text.split(",")]
    bad = [v for v in vertices if not _VERTEX.fullmatch(v)]
    if bad:
        raise argparse.ArgumentTypeError(f"must be 'auto' or vertices like D4,Q16, not {quote(bad[0])}")
    return vertices


class _Parser(argparse.ArgumentParser):
    """argparse quotes some bad input whole (an invalid choice, unrecognized arguments): cut
    every long word of its messages, as ``errors.quote`` does ours."""

    def error(self, message):
        super().error(re.sub(r"\S{%d,}" % (QUOTE_LIMIT + 1),
                             lambda m: f"{m.group(0)[:QUOTE_LIMIT - 8]}... ({len(m.group(0))} characters)",
                             message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=NAME, description="A GTP engine for Go, Loose, Goncrete, Disto and Terrain Go. "
        "Speaks GTP on stdin/stdout; logs go to stderr.",
        epilog="The rules of each game as this engine plays them, with every ruling cited here "
        f"(C6, C7, ...): {RULES_BOOK} (docs/RULES.md in the source).")
    parser.add_argument("--variant", metavar="NAME",
                        help="rules: go, loose, goncrete, disto or terrain (default go, or the "
                        "rules of --setup)")
    parser.add_argument("--size", type=_size, metavar="N", help="board size (default 19)")
    parser.add_argument("--komi", type=_finite, metavar="K",
                        help="komi (default: the game's, RULES.md C7; must fit C6)")
    parser.add_argument("--playouts", type=positive_int, metavar="N",
                        help="simulations per move, fixed (default: 5000 when --time is not "
                        "given either); a move ends sooner once the rest could not change "
                        "the most visited move")
    parser.add_argument("--time", type=_positive_float, metavar="SECONDS",
                        help="seconds per move when the controller sets no time control")
    parser.add_argument("--max-memory", type=positive_int, default=1024, metavar="MB",
                        help="memory for the search trees, never exceeded (default 1024)")
    parser.add_argument("--seed", type=_seed, default=0, metavar="S",
                        help="seed of every random choice of the engine: moves, forts (default 0)")
    parser.add_argument("--threads", type=_threads, default=os.cpu_count() or 1,
                        metavar="N", help="search threads (default: the machine's cores, "
                        f"{os.cpu_count() or 1} here)")
    parser.add_argument("--resign", type=_share, nargs="?", const=0.1, metavar="WINRATE",
                        help="let genmove resign when its win rate stays below WINRATE "
                        "(default 0.1) for 3 moves in a row; off without this option")
    parser.add_argument("--search-param", type=_search_param, action="append", default=[],
                        metavar="NAME=VALUE",
                        help="set a tunable of the search (gtp_engine/search/params.py, lower "
                        "case, e.g. rave_equiv=1000, heavy=0, expand_visits=1e9 for flat Monte "
                        "Carlo); for tuning and baselines")
    parser.add_argument("--ponder", action="store_true",
                        help="keep searching on the opponent's time after genmove, and reuse "
                        "that search when the opponent's move arrives (off by default; any "
                        "command stops it at once)")
    parser.add_argument("--no-book", dest="book", action="store_false",
                        help="search every move, the first ones too (default: the opening "
                        "book's moves, deep searches made in advance, where it has one)")
    parser.add_argument("--quiet", action="store_true",
                        help="no search summary on stderr after each genmove")
    parser.add_argument("--log-level", default="warning",
                        choices=["debug", "info", "warning", "error"], type=str.lower,
                        help="how much goes to stderr (default warning)")
    parser.add_argument("--terrain-seed", type=_seed, default=0, metavar="S",
                        help="Terrain Go: seed of the generated map (default 0)")
    parser.add_argument("--forts", type=_forts, metavar="auto|V,V,...",
                        help="Terrain Go: place the forts at start-up, 'auto' (the engine "
                        "chooses, from --seed) or vertices placed in turn, White first")
    parser.add_argument("--fort-playouts", type=_count, metavar="N",
                        help="Terrain Go: simulations per candidate point when the engine "
                        "chooses a fort (genfort, --forts auto); 0 for the quick heuristic alone "
                        "(default: by board size, 1200 on 9x9, 591 on 13x13, 277 on 19x19, at most "
                        "--playouts)")
    parser.add_argument("--setup", metavar="FILE.sgf",
                        help="start from the rules, map, forts, set-up stones and komi of an SGF "
                        "file (its moves are not played)")
    parser.add_argument("--version", action="version", version=f"{NAME} {__version__}")
    return parser


@dataclass(frozen=True)
class Options:
    """The parsed command line (``parse_options``)."""

    variant: Optional[str]
    size: Optional[int]
    komi: Optional[float]
    playouts: Optional[int]
    time: Optional[float]
    seed: int
    threads: int
    resign: Optional[float]
    log_level: str
    terrain_seed: int
    forts: object
    setup: Optional[str]
    setup_data: Optional[bytes]
    max_memory: int = 1024
    quiet: bool = False
    search_params: tuple = ()
    ponder: bool = False
    fort_playouts: Optional[int] = None
    book: bool = True

    def engine_settings(self):
        from .gtp.engine import EngineSettings
        return EngineSettings(seed=self.seed, playouts=self.playouts, move_time=self.time,
                              threads=self.threads, resign=self.resign,
                              forts_auto=self.forts == "auto", max_memory_mb=self.max_memory,
                              summary=not self.quiet, search_params=self.search_params,
                              ponder=self.ponder, fort_playouts=self.fort_playouts,
                              book=self.book)


def parse_options(argv: Optional[Sequence[str]] = None) -> Options:
    """Parse and check the cheap things; exits with code 2 (argparse's way) on bad options."""
    parser = build_parser()
    ns = parser.parse_args(argv)
    setup_data = None
    if ns.setup is not None:
        import sgf
        try:
            setup_data = sgf.read_file(ns.setup)  # bounded: --setup /dev/zero is a quick error
        except sgf.SgfError as err:
            parser.error(f"argument --setup: {err}")
    return Options(ns.variant, ns.size, ns.komi, ns.playouts, ns.time, ns.seed, ns.threads,
                   ns.resign, ns.log_level, ns.terrain_seed, ns.forts, ns.setup, setup_data,
                   ns.max_memory, ns.quiet, tuple(ns.search_param), ns.ponder,
                   ns.fort_playouts, ns.book)


def build_game(options: Options, auto_forts: bool = True):
    """The starting game the options describe. EngineError when they do not fit together.

    ``--forts auto`` places the forts by the search (``search.fortsearch``) unless
    ``auto_forts`` is False: ``main`` has the engine choose them in the background
    (``GtpEngine.start_auto_forts``), so that start-up stays fast."""
    from .coords import Color, parse_vertex
    from .errors import RulesError
    from .game import Game
    from .rules import find_rules
    komi = options.komi
    if komi is not None and komi == int(komi):
        komi = int(komi)  # so that a refusal quotes "5", not "5.0"
    if options.setup_data is not None:
        import sgf
        game = sgf.game_from_sgf(options.setup_data, 1)  # before move 1: the set-up only
        if options.variant is not None and find_rules(options.variant) is not game.rules:
            raise RulesError(f"--variant {options.variant} does not match the rules of "
                             f"{options.setup} ({game.rules.name})")
        if options.size is not None and options.size != game.size:
            raise RulesError(f"--size {options.size} does not match {options.setup} "
                             f"({game.size}x{game.size})")
        if komi is not None:
            game.set_komi(komi)
    else:
        game = Game(options.variant or "go", options.size, komi, terrain_seed=options.terrain_seed)
    if options.forts == "auto":
        if auto_forts:
            from .search.fortsearch import place_forts
            settings = options.engine_settings()
            place_forts(game, options.seed, settings.fort_budget(game.size), settings.threads)
    elif options.forts:
        if game.terrain is None:
            raise RulesError(f"--forts needs terrain, and {game.rules.name} has none")
        for index, text in enumerate(options.forts):
            game.place_fort(Color.WHITE if index % 2 == 0 else Color.BLACK,
                            parse_vertex(text, game.size))
    return game


def _fort_progress(game):
    """Reports each fort of ``--forts auto`` on stderr as it is chosen."""
    from .coords import format_vertex
    due = 2 * game.forts_per_side - len(game.forts)
    done = []

    def report(color, point, seconds):
        done.append(point)
        sys.stderr.write(f"{NAME}: --forts auto: {color.word} {format_vertex(point)} "
                         f"({len(done)} of {due}, {seconds:.1f} s)\n")
        sys.stderr.flush()
    return report


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run a GTP session on stdin/stdout; returns the exit code."""
    options = parse_options(argv)
    logging.basicConfig(stream=sys.stderr, level=options.log_level.upper(),
                        format=f"{NAME} %(levelname)s %(name)s: %(message)s")
    try:
        game = build_game(options, auto_forts=False)
    except EngineError as err:  # options that do not fit together
        sys.stderr.write(f"{NAME}: error: {err}\n")
        return USAGE_ERROR
    from .gtp import GtpEngine, serve
    from .search import _backend as search_backend
    search_backend.start_warmup()   # the board's kernels first, then the search's
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever prints by mistake must not corrupt the protocol
    engine = GtpEngine(game, options.engine_settings())
    engine.await_kernels = search_backend.wait_for_warm_start   # a full first move
    engine.start_auto_forts(_fort_progress(game))
    try:
        serve(engine, sys.stdin.buffer, out)
    except BrokenPipeError:  # the controller went away: nothing left to answer
        pass
    except KeyboardInterrupt:
        return 130
    return 0
