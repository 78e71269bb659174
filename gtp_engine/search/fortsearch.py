"""Forts chosen by the search (GTP ``genfort``, ``--forts auto``): where would a strong player
put a fort, given the map and the forts so far?

The heuristic of ``forts`` proposes; the search decides:

1. The ``CANDIDATES`` points the heuristic ranks highest (its score and seeded jitter, ties in
   reading order) are the candidates.
2. For each candidate: a copy of the game gets the fort there, then every fort still due is
   placed by the heuristic (each side answers as today's ``--forts`` would), and the search
   player searches the position after the forts (Black to move) with a fixed budget.
3. Each candidate is worth what the forts are expected to bring its owner (``fort_balance``:
   by the search's ownership of the fort points, the opponent's forts that end in the owner's
   territory less the owner's that end in the opponent's, times the fort's value, T7). That
   is what a fort changes, and it is far less noisy than the whole board's expected margin,
   which was the first measure: one search's margin varied between seeds (2 to 5 points on
   13x13) as much as between candidates, so the choice was close to random among them. The
   better half of the candidates is searched again with the next seed (``ROUNDS``) and the
   best mean wins; ties go to the heuristic's order.

Every search uses one thread, ``playouts_per_candidate`` simulations and a seed from ``seed``,
so the choice is the same in every process and on every machine for the same map, forts, stones and
seed, and comparing candidates under the same random numbers keeps the noise of their
difference low. The searches of one round are independent of each other, so they run side by
side, one thread and player each (``threads``; the compiled kernels release the GIL), in any
order, with the same result.

The tension: ``--forts auto`` places forts at start-up and in every GoGui ruler process, which
must all agree and answer quickly. So:

- the choice is always the search's, with the compiled kernels (with a fixed budget the
  pure-Python mirror would be cut short by time): a choice waits for the engine's warm-up to
  bring them (seconds on a warm cache), or loads them itself; only a machine that cannot
  compile at all falls back to the heuristic, with a warning;
- each choice is kept in a machine-wide cache (``fortcache``): the processes that want it at
  the same time compute it once, and a restart finds it at once;
- the command line starts the search in the background at start-up (``PendingForts``), and
  the engine answers the commands that do not need the forts meanwhile (``gtp.engine``).

On this 2-core machine, the four forts of 9x9 take about 6 s of CPU and the six of 13x13 about
9 s (``scripts/bench_forts.py``).
"""

import logging
import os
import threading
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..board.constants import EMPTY
from ..coords import Color, Point
from ..errors import TerrainError
from ..rules.terrain_map import StableRandom
from . import _backend, fortcache
from .forts import JITTER, auto_forts, choose_fort as heuristic_fort, fort_candidates, fort_score

CANDIDATES = 10                  #: heuristic candidates each fort choice searches
ROUNDS = 2                       #: searches of the better half again, with another seed
WORK_PER_CANDIDATE = 100000      #: simulations times board points per candidate and round
MAX_PLAYOUTS = 1200              #: per candidate and round, on small boards
MIN_PLAYOUTS = 64
SEARCH_MEMORY_MB = 64            #: the fort searches' own small trees (per thread)

_log = logging.getLogger(__name__)


def playouts_per_candidate(size: int) -> int:
    """Simulations per candidate and round: about the same work on every board (277 on 19x19,
    591 on 13x13, 1200 on 9x9), at most ``MAX_PLAYOUTS``."""
    return max(MIN_PLAYOUTS, min(MAX_PLAYOUTS, WORK_PER_CANDIDATE // (size * size)))


def ranked_candidates(game, color: Color, seed: int, count: int = CANDIDATES) -> List[Point]:
    """The ``count`` points the heuristic likes best for ``color``'s next fort, best first
    (its score plus the same seeded jitter ``forts.choose_fort_on_map`` adds; ties in
    reading order). The first is the heuristic's own choice."""
    position = game.position
    size = game.size
    occupied = [(r, c) for r in range(size) for c in range(size)
                if position.stone_at((r, c)) != EMPTY]
    points = fort_candidates(game.terrain, game.forts, occupied)
    if not points:
        raise TerrainError(f"no empty plain point is left for a {Color(color).word} fort")
    rng = StableRandom(seed, len(game.forts), int(color))
    scored = [(fort_score(game.terrain, game.forts, color, p) + rng.below(JITTER), -i, p)
              for i, p in enumerate(points)]
    scored.sort(reverse=True)
    return [p for _, _, p in scored[:count]]


class SearchUnavailable(Exception):
    """The compiled kernels cannot be had: the fort search would not be the same everywhere."""


def ensure_compiled() -> None:
    """Have the compiled search kernels in use: wait for the engine's warm-up when one is on
    its way (a first compile on this machine takes minutes), else compile or load them here.
    SearchUnavailable when that fails."""
    if not _backend.compiled() and _backend.warming_up():
        _log.info("forts: waiting for the compiled search kernels")
        while not _backend.compiled() and _backend.warming_up():
            _backend.wait_compiled(1.0)
    if not _backend.compiled():
        try:
            _backend.compile_now()
        except Exception as err:   # numba missing or broken: the mirror alone is too slow
            raise SearchUnavailable(f"no compiled search kernels ({err})") from err


def threads_default() -> int:
    return os.cpu_count() or 1


def fort_balance(game, analysis, color: Color) -> float:
    """The points ``color`` expects from the forts (T7) by the search's ownership: the
    opponent's forts that end in ``color``'s territory, less ``color``'s own that end in the
    opponent's, each weighed by the fort's value. The chance that a point ends as Black's,
    ``p_b``, and as White's, ``p_w``, follow from its mean owner ``p_b - p_w`` and its spread
    (the mean square of the owner is ``p_b + p_w``; neutral points count for nobody)."""
    size = game.size
    black = 0.0
    for owner, (row, col) in game.forts:
        index = row * size + col
        mean = analysis.ownership[index]
        spread = analysis.ownership_stdev[index] if analysis.ownership_stdev else 0.0
        square = min(1.0, spread * spread + mean * mean)
        p_black, p_white = (square + mean) / 2, (square - mean) / 2
        black += p_black if owner == Color.WHITE else -p_white
    black *= game.fort_value
    return black if color == Color.BLACK else -black


def evaluate(game, color: Color, point: Point, seed: int, playouts: int, player=None) -> float:
    """What ``color`` expects from the forts (``fort_balance``) after a fort on ``point`` and
    the heuristic's forts after it, by a search of the position after the forts."""
    from .player import SearchPlayer, SearchSettings
    if player is None:
        player = SearchPlayer(SearchSettings(threads=1, seed=seed, max_memory_mb=SEARCH_MEMORY_MB))
    trial = game.copy()
    trial.place_fort(color, point)
    auto_forts(trial, seed)
    player.clear()
    analysis = player.search(trial, trial.to_move, playouts=playouts, early_stop=False)
    return fort_balance(trial, analysis, color)


def choice_key(game, color: Color, seed: int, playouts: int, candidates: int) -> dict:
    """Everything that decides ``choose_fort``'s answer (with the sources, ``fortcache``)."""
    terrain = game.terrain
    return {"choice": "fort", "rules": game.rules.name, "size": game.size,
            "map": terrain.to_text(), "forts_per_side": terrain.forts_per_side,
            "fort_value": terrain.fort_value,
            "forts": [[int(c), r, col] for c, (r, col) in game.forts],
            "board": ["".join(row) for row in game.position.rows()], "moves": len(game.moves),
            "komi": game.komi, "color": int(color), "seed": int(seed),
            "playouts": int(playouts), "candidates": int(candidates), "rounds": ROUNDS}


def choose_fort(game, color: Color, seed: int = 0, playouts: Optional[int] = None,
                candidates: int = CANDIDATES, threads: Optional[int] = None) -> Point:
    """The point ``genfort`` proposes for ``color`` (module docstring); changes nothing.

    ``playouts`` per candidate (default ``playouts_per_candidate``); 0 gives the heuristic's
    choice. ``threads`` searches side by side (default: the machine's cores); the answer does
    not depend on it. From the machine's cache when a process chose it before. TerrainError as
    ``forts.choose_fort``.
    """
    if game.terrain is None:
        raise TerrainError(f"{game.rules.name} has no forts")
    playouts = playouts_per_candidate(game.size) if playouts is None else int(playouts)
    if playouts <= 0 or candidates <= 1:
        return heuristic_fort(game, color, seed)
    ranked = ranked_candidates(game, color, seed, candidates)   # TerrainError when none
    threads = threads_default() if threads is None else max(1, int(threads))
    try:
        row, col = fortcache.cached(
            choice_key(game, color, seed, playouts, candidates),
            lambda: list(_search_fort(game, color, seed, playouts, ranked, threads)),
            valid=lambda value: isinstance(value, list) and tuple(value) in ranked)
    except SearchUnavailable as err:
        _log.warning("forts by the heuristic alone, not the search: %s", err)
        return heuristic_fort(game, color, seed)
    return row, col


def _search_fort(game, color: Color, seed: int, playouts: int, ranked: List[Point],
                 threads: int) -> Point:
    ensure_compiled()
    start = time.perf_counter()
    values: Dict[Point, List[float]] = {point: [] for point in ranked}
    field = list(ranked)
    for round_number in range(ROUNDS):
        found = _evaluate_all(game, color, field, seed, round_number, playouts, threads)
        for point in field:
            values[point].append(found[point])
        # the better half goes on, each candidate by its mean so far (ties: heuristic order)
        field = sorted(field, key=lambda p: (-_mean(values[p]), ranked.index(p)))
        field = field[:max(1, (len(field) + 1) // 2)]
    _log.info("fort for %s chosen by search: %s (%d threads, %.1f s)", Color(color).word,
              field[0], threads, time.perf_counter() - start)
    return field[0]


def _evaluate_all(game, color: Color, points: List[Point], seed: int, round_number: int,
                  playouts: int, threads: int) -> Dict[Point, float]:
    """``evaluate`` of every point, ``threads`` at a time, each thread with its own player
    (seed ``seed + round_number``); each value is the same whichever thread computes it."""
    from .player import SearchPlayer, SearchSettings
    todo = list(points)
    found: Dict[Point, float] = {}
    failures: List[BaseException] = []
    lock = threading.Lock()

    def work():
        player = SearchPlayer(SearchSettings(threads=1, seed=seed + round_number,
                                             max_memory_mb=SEARCH_MEMORY_MB))
        while True:
            with lock:
                if not todo or failures:
                    return
                point = todo.pop(0)
            try:
                value = evaluate(game, color, point, seed, playouts, player)
            except BaseException as err:   # re-raised in the caller
                with lock:
                    failures.append(err)
                return
            with lock:
                found[point] = value

    helpers = [threading.Thread(target=work, name=f"forts-{i}", daemon=True)
               for i in range(1, min(threads, len(points)))]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if failures:
        raise failures[0]
    return found


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def place_forts(game, seed: int = 0, playouts: Optional[int] = None,
                threads: Optional[int] = None,
                progress: Optional[Callable[[Color, Point, float], None]] = None
                ) -> List[Tuple[Color, Point]]:
    """Place every fort still due, each side in turn (White first), with ``choose_fort``;
    return what was placed (``--forts auto``). ``progress(color, point, seconds)`` after each."""
    placed = []
    while game.fort_turn is not None:
        color = game.fort_turn
        start = time.perf_counter()
        point = choose_fort(game, color, seed, playouts, threads=threads)
        game.place_fort(color, point)
        placed.append((color, point))
        if progress is not None:
            progress(color, point, time.perf_counter() - start)
    return placed


def fort_setting(game) -> tuple:
    """What the forts still due are chosen for: rules, map, forts so far, stones. The forts a
    ``PendingForts`` chose fit a game exactly when this is the same."""
    return (game.rules.name, game.size, game.terrain, tuple(game.forts), tuple(game.setup),
            len(game.moves))


class PendingForts:
    """``place_forts`` of a copy of ``game`` in a thread of its own, started at once: the
    forts of ``--forts auto`` are on their way while the engine answers what does not need
    them. ``result`` waits for them; ``fits(game)`` says whether they are for that game."""

    def __init__(self, game, seed: int, playouts: Optional[int], threads: Optional[int] = None,
                 progress=None):
        self.setting = fort_setting(game)
        self._game = game.copy()
        self._args = (seed, playouts, threads, progress)
        self._placed: Optional[List[Tuple[Color, Point]]] = None
        self._error: Optional[BaseException] = None
        self._done = threading.Event()
        threading.Thread(target=self._run, name="forts", daemon=True).start()

    def _run(self):
        try:
            self._placed = place_forts(self._game, *self._args)
        except BaseException as err:   # raised again by result()
            self._error = err
        finally:
            self._done.set()

    def fits(self, game) -> bool:
        return fort_setting(game) == self.setting

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Wait at most ``timeout`` seconds (None: until done); whether the forts are chosen."""
        return self._done.wait(timeout)

    def result(self) -> List[Tuple[Color, Point]]:
        """The forts, in placement order (waits for them); the search's exception otherwise."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return list(self._placed)
