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

Every search uses one thread, ``playouts_per_candidate`` simulations and a seed from ``seed``, so the
choice is the same in every process and on every machine for the same map, forts, stones and
seed (the compiled kernels and their pure-Python mirror grow the same trees), and comparing
candidates under the same random numbers keeps the noise of their difference low.

The tension: ``--forts auto`` places forts at start-up and in every GoGui ruler process, which
must all agree and answer quickly, while a search needs the compiled kernels (the mirror is
hundreds of times slower). ``choose_fort`` therefore searches when the compiled kernels are
in use or can be loaded from numba's cache (seconds), and uses the heuristic alone on a
machine that has never compiled them (``search_ready``); ``python -m gtp_engine.search.warmup``
at install makes every process search. The command line defers ``--forts auto`` until the
first command that needs the game, so ``name`` is still answered at once. The budget keeps a
fort within a few seconds on 19x19 (``playouts_per_candidate``).
"""

from typing import List, Optional, Sequence, Tuple

from ..board.constants import EMPTY
from ..coords import Color, Point
from ..errors import TerrainError
from ..rules.terrain_map import StableRandom
from . import _backend
from .forts import JITTER, auto_forts, choose_fort as heuristic_fort, fort_candidates, fort_score

CANDIDATES = 10                  #: heuristic candidates each fort choice searches
ROUNDS = 2                       #: searches of the better half again, with another seed
WORK_PER_CANDIDATE = 100000      #: simulations times board points per candidate and round
MAX_PLAYOUTS = 1200              #: per candidate and round, on small boards
MIN_PLAYOUTS = 64
SEARCH_MEMORY_MB = 64            #: the fort searches' own small trees


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


def search_ready() -> bool:
    """Whether forts can be searched now: compiled kernels in use, or loadable from the cache."""
    return _backend.compiled() or _backend.cache_is_warm()


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


def choose_fort(game, color: Color, seed: int = 0, playouts: Optional[int] = None,
                candidates: int = CANDIDATES) -> Point:
    """The point ``genfort`` proposes for ``color`` (module docstring); changes nothing.

    ``playouts`` per candidate (default ``playouts_per_candidate``); 0, or kernels that have
    never been compiled on this machine, give the heuristic's choice. TerrainError as
    ``forts.choose_fort``.
    """
    if game.terrain is None:
        raise TerrainError(f"{game.rules.name} has no forts")
    playouts = playouts_per_candidate(game.size) if playouts is None else int(playouts)
    if playouts <= 0 or candidates <= 1 or not search_ready():
        return heuristic_fort(game, color, seed)
    if not _backend.compiled():
        _backend.compile_now()
    from .player import SearchPlayer, SearchSettings
    ranked = ranked_candidates(game, color, seed, candidates)
    values = {point: [] for point in ranked}
    field = list(ranked)
    for round_number in range(ROUNDS):
        player = SearchPlayer(SearchSettings(threads=1, seed=seed + round_number,
                                             max_memory_mb=SEARCH_MEMORY_MB))
        for point in field:
            values[point].append(evaluate(game, color, point, seed, playouts, player))
        # the better half goes on, each candidate by its mean so far (ties: heuristic order)
        field = sorted(field, key=lambda p: (-_mean(values[p]), ranked.index(p)))
        field = field[:max(1, (len(field) + 1) // 2)]
    return field[0]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def place_forts(game, seed: int = 0, playouts: Optional[int] = None) -> List[Tuple[Color, Point]]:
    """Place every fort still due, each side in turn (White first), with ``choose_fort``;
    return what was placed (``--forts auto``)."""
    placed = []
    while game.fort_turn is not None:
        color = game.fort_turn
        point = choose_fort(game, color, seed, playouts)
        game.place_fort(color, point)
        placed.append((color, point))
    return placed
