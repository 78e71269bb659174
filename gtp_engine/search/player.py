"""``SearchPlayer``: the Monte Carlo tree search player behind ``genmove``, analysis and fair komi.

One search, reused by everything: ``search`` runs simulations on the kernels (``kernels.run``
in chunks, on one tree that all threads share, each expanding into its own arena of the pool
and spreading out by virtual losses; or, with ``shared_tree`` 0, one tree per thread merged at
the root) until the budget is spent or a stop is asked, and returns an ``Analysis``: the root's
moves with visits, win rates, priors, score leads and principal variations, the ownership of
every point, and the speed. ``decide`` turns an analysis into the move ``genmove`` plays
(pass, resign and clean-up rules included).

It reads a ``game.Game`` and never changes it: simulations copy the position's state.
"""

import logging
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from ..board import SCORE_AREA
from ..board import _backend as board_backend
from ..coords import Color, Move
from ..errors import RulesError
from . import _backend, book, knowledge, patterns
from . import value as value_net
from .params import PLAYER_TUNABLES, SHARED_TREE, asks_value_net, make_params
from .tree import Base, Tree, Workspace, bytes_per_node, edges_per_node

K = _backend.mirror
_log = logging.getLogger(__name__)
_ZOBRIST = board_backend.mirror.zobrist_keys()

DEFAULT_MAX_MEMORY_MB = 1024     #: the trees of all threads together (a 2-core 24 GB machine)
DEFAULT_PLAYOUTS = 5000          #: per move when neither playouts nor time are set
MIRROR_TIME_CAP = 5.0            #: seconds a fixed-playout search may take before the compile
MIRROR_SHARE = 0.2               #: of a timed budget, kept for the mirror if loading is late
MAX_LOAD_WAIT = 30.0             #: seconds a fixed-playout search waits for a warm load
MAX_COMPILE_WAIT = 600.0         #: and for a first compile
CHUNK_SECONDS = 0.02             #: simulations run between two looks at the clock
SETTLE_FROM = 0.2                #: share of a fixed budget run before it may stop settled
EXTEND_STEP = 0.25               #: of the budget, a close search's time goes on by at a time
DEAD = 0.5                       #: ownership beyond which a stone counts as dead
RESIGN_MOVES = 3                 #: own moves in a row below the threshold before resigning
HOPELESS = 0.02                  #: win rate below which playing on gains nothing
PASS_BETTER_BY = 2.0             #: points: a pass in a lost game is played when the search
#                                  expects it to lose by this much less than any placement
COMPACT_AT = 0.5                 #: share of the pool in use that makes a search drop the rest
TARGET_FROM = 0.85               #: win rate from which ``genmove`` plays for more than a win
TARGET_FULL = 0.95               #: ... and from which for the whole ``target_share`` of its lead


@dataclass(frozen=True)
class SearchSettings:
    """How the player searches (command line: ``--playouts --time --threads --max-memory
    --seed --resign``). ``playouts`` and ``move_time`` per move; with neither,
    ``DEFAULT_PLAYOUTS``. ``resign`` is the win rate below which the player resigns (None:
    never)."""

    playouts: Optional[int] = None
    move_time: Optional[float] = None
    threads: int = 1
    max_memory_mb: int = DEFAULT_MAX_MEMORY_MB
    seed: int = 0
    resign: Optional[float] = None
    heavy: bool = True
    #: tunables of ``params`` by name, e.g. (("rave_equiv", 1000.0),): tuning and baselines
    overrides: Tuple[Tuple[str, float], ...] = ()
    #: ``genmove`` plays the opening book's move where it has one (``book.py``), unsearched
    book: bool = True


@dataclass
class MoveInfo:
    """One root move: ``winrate`` and ``score_lead`` for the player to move; ``prior`` the
    share of the prior among the root's moves; ``pv`` the principal variation from it."""

    move: Move
    visits: int
    winrate: float
    prior: float
    score_lead: float
    pv: List[Move]

    @property
    def lcb(self) -> float:
        """A lower confidence bound of the win rate (normal approximation, 95%)."""
        if self.visits <= 0:
            return 0.0
        p = self.winrate
        return max(0.0, p - 1.96 * math.sqrt(max(p * (1 - p), 0.0025) / self.visits))


@dataclass
class Analysis:
    """What a search found, for ``color`` to move. ``moves`` by visits (most first);
    ``ownership`` per point ``row*size + col``, +1 Black always owns it, -1 White;
    ``ownership_stdev`` beside it, the standard deviation of the owner over the playouts
    (0 when every playout agrees, 1 when they split evenly between Black and White). Both
    come from the simulations that played the game out: one that the tree ended by two passes
    scored the board with its dead stones still on it."""

    color: Color
    size: int
    moves: List[MoveInfo] = field(default_factory=list)
    simulations: int = 0
    seconds: float = 0.0
    ownership: List[float] = field(default_factory=list)
    compiled: bool = False
    threads: int = 1
    nodes: int = 0                 #: positions the trees hold (one per move a simulation took)
    edges: int = 0                 #: moves the trees hold (every legal move of an expanded node)
    cpu_seconds: float = 0.0       #: processor time of the simulations (all threads)
    ownership_stdev: List[float] = field(default_factory=list)
    #: Black's margin the search played for besides the win (``target_margin``; 0: none)
    target_margin: float = 0.0
    #: a timed search's time in the end: its budget, or more when its best two stayed close
    seconds_allowed: Optional[float] = None
    #: simulations run by the interim pure-Python kernels, before the compiled ones arrived
    interim_simulations: int = 0
    #: the compile's state when such a search ended (``_backend.CompileStatus.words``)
    kernels_note: str = ""

    @property
    def visits(self) -> int:
        return sum(m.visits for m in self.moves)

    @property
    def best(self) -> Optional[MoveInfo]:
        return self.moves[0] if self.moves else None

    @property
    def winrate(self) -> float:
        """The win rate of the best move (0.5 when nothing was searched)."""
        return self.moves[0].winrate if self.moves and self.moves[0].visits else 0.5

    @property
    def score_lead(self) -> float:
        return self.moves[0].score_lead if self.moves else 0.0

    @property
    def speed(self) -> float:
        """Simulations per second of wall-clock time."""
        return self.simulations / self.seconds if self.seconds > 0 else 0.0

    @property
    def cpu_speed(self) -> float:
        """Simulations per second of processor time (per core: free of the machine's load)."""
        return self.simulations / self.cpu_seconds if self.cpu_seconds > 0 else 0.0


def chunk_within(chunk: int, done: int, elapsed: float, left: float) -> int:
    """The simulations a thread runs next when ``left`` seconds remain of a timed search and
    it ran ``done`` in its first ``elapsed``: ``chunk``, or fewer when that many would overrun
    the deadline at the rate so far (at least one; the time manager takes every overrun off
    the next budgets as margin). ``left`` may be infinite (pondering)."""
    if done <= 0 or elapsed <= 0:
        return chunk
    fit = done * left / elapsed
    return chunk if fit >= chunk else max(1, int(fit))


class SearchPlayer:
    """The search player: one per GTP session (it keeps its trees between moves)."""

    def __init__(self, settings: SearchSettings = SearchSettings(),
                 aborted: Optional[threading.Event] = None):
        self.settings = settings
        #: the session's "stop now" (GoGui's interrupt, quit): ends any search in progress,
        #: which then returns what it found; the session clears it before each command
        self.aborted = threading.Event() if aborted is None else aborted
        self._trees: List[Tree] = []
        self._spaces: List[Workspace] = []
        self._low: dict = {}          # colour -> own moves in a row below the resign threshold
        self._outlook: dict = {}      # (game, colour) -> (moves, win rate, lead): last genmove
        self._lock = threading.Lock()

    # ----------------------------------------------------------------- memory
    def _threads(self) -> int:
        # the mirror holds the GIL: more threads would only share one core
        return max(1, int(self.settings.threads)) if _backend.compiled() else 1

    def _shared(self, threads: int) -> bool:
        """Several threads search one tree (``shared_tree``, an override or the default)."""
        overrides = dict(self.settings.overrides)
        return threads > 1 and bool(overrides.get("shared_tree", SHARED_TREE))

    def pool_capacity(self, trees: int, size: int) -> int:
        """Nodes per tree that keep all ``trees`` of a ``size`` board within the memory cap
        (each with ``edges_per_node(size)`` edges per node)."""
        budget = int(self.settings.max_memory_mb) * 1024 * 1024
        return max(2, budget // (trees * bytes_per_node(size)))

    def memory_bytes(self) -> int:
        """Bytes held by the trees now."""
        return sum(tree.nbytes() for tree in self._trees)

    def _ensure(self, threads: int, size: int) -> None:
        trees = 1 if self._shared(threads) else threads
        capacity = self.pool_capacity(trees, size)
        edges = capacity * edges_per_node(size)
        if len(self._trees) != trees or (self._trees and (self._trees[0].capacity != capacity or
                                                          self._trees[0].edge_capacity != edges)):
            self._trees = []   # free the old pools before making new ones
            self._trees = [Tree(capacity, edges) for _ in range(trees)]
        if len(self._spaces) != threads or (self._spaces and self._spaces[0].size != size):
            self._spaces = [Workspace(size) for _ in range(threads)]

    def prepare(self, game) -> None:
        """Make now what the first search of ``game`` would make at its start, out of its
        time: the trees' pools, the workspaces, the learned model and the shape table."""
        self._ensure(self._threads(), game.size)
        knowledge.arrays_for(game.rules.name, game.size)
        if asks_value_net(make_params(game, **dict(self.settings.overrides))):
            value_net.flat_for(game.rules.name, game.size)
        patterns.table()

    def clear(self) -> None:
        """Forget the trees (a new game)."""
        for tree in self._trees:
            tree.base = None

    # ----------------------------------------------------------------- the root
    @staticmethod
    def _cells(game) -> Tuple:
        w = game.size + 2
        return tuple((int(m.color), 0 if m.point is None else (m.point[0] + 1) * w + m.point[1] + 1)
                     for m in game.moves)

    def _root(self, tree: Tree, game, color: Color, moves: Tuple) -> int:
        """The node of the current position in ``tree`` (reusing what it has), or a new tree."""
        ka = _backend.active
        base = tree.base
        komi_halves = int(round(game.komi * 2))
        # a tree grown at another komi counted other wins (komi, fair_komi's probes): start anew
        if base is not None and base.history_id == game.history_id and \
                base.komi_halves == komi_halves and moves[:len(base.moves)] == base.moves:
            node = 0
            to_move = base.color
            for mover, cell in moves[len(base.moves):]:
                if mover != to_move:
                    node = -1
                    break
                node = int(ka.find_child(tree.ti, tree.em, tree.ec, node, cell))
                if node < 0:
                    break
                to_move = 3 - to_move
            if node >= 0 and to_move == int(color):
                if tree.fill() > COMPACT_AT or node != 0 and tree.fill() > 0.9:
                    return tree.compact(node, Base(game.history_id, moves, int(color), komi_halves))
                return node
        return tree.reset(Base(game.history_id, moves, int(color), komi_halves))

    # ----------------------------------------------------------------- search
    def search(self, game, color: Color, seconds: Optional[float] = None,
               playouts: Optional[int] = None, stop: Optional[threading.Event] = None,
               progress: Optional[Callable[["Analysis"], None]] = None,
               progress_interval: float = 1.0, early_stop: bool = True,
               target_margin: float = 0.0, extend_to: Optional[float] = None) -> Analysis:
        """Search the position of ``game`` for ``color`` to move.

        The budget is ``seconds`` and/or ``playouts`` (simulations in all); with neither, the
        settings' (``move_time``, ``playouts``, else ``DEFAULT_PLAYOUTS``); until the kernels
        are compiled a playout budget is capped at ``MIRROR_TIME_CAP`` seconds. ``stop`` ends
        it early; ``progress`` is called with a fresh analysis every ``progress_interval``
        seconds (analysis streams, live views). ``early_stop`` ends a search once the best
        move cannot change: a timed one when the simulations the rest of its time allows
        could not make another move the most visited; a fixed budget, once ``SETTLE_FROM`` of
        it has run, when the rest of it could not (as Pachi does), unless the leader is the
        pass or the threads have a tree each. A fixed budget looks at its root only at
        simulation counts its own statistics set (the next at which the lead could first
        exceed the rest), so that with one thread it stops where it would for any chunking
        or clock: the same seed, the same search. ``target_margin``: Black's margin that the simulations reaching
        it are valued for besides their result (``target_weight``; 0: the win alone); win
        rates and score leads stay those of the game's own komi. ``extend_to``: seconds a timed
        search may go on past ``seconds`` while its two best moves are close (the most visited
        has fewer than ``close_ratio`` times the second's visits, ``params``), ``EXTEND_STEP`` of
        ``seconds`` at a time; the analysis's ``seconds_allowed`` is the time it ended up
        having. Thread-safe against concurrent readers of the result only.
        """
        with self._lock:
            return self._search(game, Color(color), seconds, playouts, stop, progress,
                                progress_interval, early_stop, target_margin, extend_to)

    def _search(self, game, color, seconds, playouts, stop, progress, progress_interval,
                early_stop, target_margin=0.0, extend_to=None):
        start = time.perf_counter()
        if seconds is None and playouts is None:
            seconds = self.settings.move_time
            playouts = self.settings.playouts
            if seconds is None and playouts is None:
                playouts = DEFAULT_PLAYOUTS
        self._await_compiled(start, seconds, playouts, stop)
        ka = _backend.active
        if ka is K and playouts is not None and seconds is None:
            seconds = MIRROR_TIME_CAP   # the pure-Python mirror: answer within reason
        threads = self._threads()
        self._ensure(threads, game.size)
        overrides = dict(self.settings.overrides)
        overrides.setdefault("heavy", int(self.settings.heavy))
        model = knowledge.arrays_for(game.rules.name, game.size)
        shared = self._shared(threads)
        overrides["shared_tree"] = int(shared)
        params = make_params(game, learned=knowledge.knows_anything(model),
                             target_margin=target_margin, **overrides)
        # the net is read (and each thread given its scratch) only when the search uses it
        values = [value_net.value_arrays(game.rules.name, game.size)
                  if asks_value_net(params) else K.empty_value() for _ in range(threads)]
        pat3 = patterns.table()
        position = game.position
        root_state = position.state
        hist = self._history_table(game)
        moves = self._cells(game)
        # The root's own pass never ends the game in the tree, even after the opponent's pass:
        # a pass that wins as the board stands would take every simulation, and the tree would
        # never play the game out to see which stones are dead (ownership, clean-up). Whether
        # to end the game is ``decide``'s to judge; deeper in the tree a pass after a pass ends
        # it, with its exact result.
        root_passes = 0
        root_last = moves[-1][1] if moves else 0
        root_last2 = moves[-2][1] if len(moves) >= 2 else 0
        roots = [self._root(tree, game, color, moves) for tree in self._trees]
        for index, space in enumerate(self._spaces):
            space.own[:] = 0
            space.rng[0] = _rng_state(self.settings.seed, len(game.moves), index)
        counts = [0] * threads
        cpu = [0.0] * threads
        interim = [0] * threads   # simulations run by the pure-Python kernels (still compiling)
        per_thread = None if playouts is None else [playouts // threads + (i < playouts % threads)
                                                      for i in range(threads)]
        # a list: a close search moves its deadline on (``extend``), and every thread sees it
        deadline = [None if seconds is None else start + seconds]
        limit = start + extend_to if seconds is not None and extend_to is not None \
            and extend_to > seconds else None
        done = threading.Event()
        # trees of their own would settle by each other's timing: every thread runs its share
        settles = early_stop and per_thread is not None and seconds is None and \
            (threads == 1 or shared)
        settled = threading.Event()
        first_look = int(SETTLE_FROM * playouts) if settles else 0

        widest = game.size * game.size + 1   # children of one expansion at most

        def extend(now) -> bool:
            """At the deadline: move it on by a step when the limit allows and it is close."""
            if limit is None or now >= limit or not self._close(roots):
                return False
            deadline[0] = min(limit, max(deadline[0], now + EXTEND_STEP * seconds))
            return True

        def worker(i):
            space = self._spaces[i]
            tree = self._trees[0 if shared else i]
            root = int(roots[0 if shared else i])
            header = tree.arena(i) if shared else tree.header
            chunk = 16 if _backend.compiled() else 1   # the mirror runs a dozen a second
            next_look = first_look   # a fixed budget's next look at its root (settles)
            # on a shared tree the others start once thread 0 has given the root its children
            while shared and i > 0 and tree.ti[K.NI_FIRST, root] < 0 and counts[0] == 0 \
                    and not done.is_set():
                time.sleep(0.0002)
            # a fixed budget: every thread runs its whole share (with a tree each, the search
            # is then the same for the seed however the threads are scheduled); a clock: the
            # first to see the deadline ends them all
            while per_thread is not None or not done.is_set():
                # a stopped search still runs its first chunk: the root is expanded, so an
                # interrupted genmove answers the move its priors like best, never a pass
                if (stop is not None and stop.is_set() or self.aborted.is_set()) and counts[i]:
                    break
                want = chunk if per_thread is None else min(chunk, per_thread[i] - counts[i])
                if settles:
                    # the looks come at counts the search sets, never at the clock's chunks
                    played = sum(counts)
                    if played >= next_look:
                        gap = self._settle_gap(roots, sum(per_thread) - played)
                        if gap <= 0:
                            settled.set()
                        next_look = played + -(-gap // threads)
                    if settled.is_set():
                        break
                    want = min(want, max(1, next_look - played))
                t0 = time.perf_counter()
                if deadline[0] is not None and want > 0:
                    fits = chunk_within(want, counts[i], t0 - start, deadline[0] - t0)
                    # no chunk fits before the deadline: its check comes now, not after a
                    # chunk that will never run (a close search stopped short of its limit)
                    if fits <= 0 and extend(t0):
                        fits = chunk_within(want, counts[i], t0 - start, deadline[0] - t0)
                    want = fits
                if want <= 0:
                    break
                if shared:
                    tree.refill(header, widest)
                c0 = time.thread_time()
                ka = _backend.active   # the compiled kernels take over as soon as they arrive
                ran = int(ka.run(root_state, space.state, _ZOBRIST, space.work,
                                        space.spare, space.out, space.owner, space.scratch,
                                        *tree.arrays(), header, root,
                                        int(color), int(root_passes), int(root_last),
                                        int(root_last2), space.rng, params, pat3, model,
                                        values[i], hist,
                                        space.path, space.path_keys,
                                        space.seq, space.own, int(want)))
                counts[i] += ran
                if ka is _backend.mirror:
                    interim[i] += ran
                cpu[i] += time.thread_time() - c0
                now = time.perf_counter()
                if deadline[0] is not None and now >= deadline[0] and not extend(now):
                    break
                elapsed = now - t0
                if elapsed < CHUNK_SECONDS / 2:
                    chunk = min(chunk * 2, 1 << 16)
                elif elapsed > CHUNK_SECONDS * 2 and chunk > 1:
                    chunk //= 2
            done.set()

        workers = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(1, threads)]
        for thread in workers:
            thread.start()
        if progress is None and not (early_stop and seconds is not None and playouts is None):
            worker(0)
        else:
            self._watch(worker, done, game, color, roots, counts, start, deadline, limit,
                        progress, progress_interval, early_stop and playouts is None)
        for thread in workers:
            thread.join()
        analysis = self._analysis(game, color, roots, sum(counts), time.perf_counter() - start)
        analysis.cpu_seconds = sum(cpu)
        analysis.interim_simulations = sum(interim)
        if analysis.interim_simulations:
            analysis.kernels_note = _backend.status.words()
        analysis.seconds_allowed = None if seconds is None else deadline[0] - start
        analysis.target_margin = float(target_margin) if params[K.P_TARGET_WEIGHT] > 0 else 0.0
        return analysis

    def _await_compiled(self, start, seconds, playouts, stop) -> None:
        """Before a search while the compiled kernels are not in use yet. They are on their
        way (the engine's background warm-up): loading from the cache takes a second or two,
        so a search waits for them as long as its budget allows, keeping ``MIRROR_SHARE`` of
        a timed budget to search with the mirror if they are late; a first compile takes a
        minute, so a timed search does not wait but starts with the mirror and switches at
        its next chunk, and a fixed-playout search waits (it has no clock and promised the
        full search). Nobody warming up (scripts): load them here when the cache is warm."""
        if _backend.compiled():
            return
        if not _backend.warming_up():
            if _backend.cache_is_warm():
                _backend.load_search()
            return
        loading = _backend.cache_is_warm()
        if seconds is not None:
            if not loading:
                return
            wait = seconds * (1.0 - MIRROR_SHARE) - (time.perf_counter() - start)
        elif loading:
            wait = MAX_LOAD_WAIT
        else:
            wait = MAX_COMPILE_WAIT
            _log.warning("waiting for the first compile of the search kernels (progress above)")
        deadline = time.perf_counter() + wait
        while not _backend.compiled() and (stop is None or not stop.is_set()) and \
                not self.aborted.is_set():
            left = deadline - time.perf_counter()
            if left <= 0 or not _backend.warming_up():
                break
            _backend.wait_compiled(min(left, 0.05))

    def _watch(self, worker, done, game, color, roots, counts, start, deadline, limit,
               progress, interval, early_stop):
        """Run thread 0's simulations in a helper thread while this one reports progress and
        stops the search early when the best move can no longer change (in the time to its
        deadline, ``deadline[0]``, or to its ``limit`` while the best two are close)."""
        main = threading.Thread(target=worker, args=(0,), daemon=True)
        main.start()
        next_report = start + interval
        while main.is_alive():
            main.join(0.05)
            now = time.perf_counter()
            if progress is not None and now >= next_report:
                progress(self._analysis(game, color, roots, sum(counts), now - start))
                next_report = now + interval
            if early_stop and deadline[0] is not None and now - start > 0.2:
                rate = sum(counts) / (now - start)
                end = limit if limit is not None and self._close(roots) else deadline[0]
                if self._settled(roots, rate * (end - now)):
                    done.set()

    def _root_visits(self, roots) -> dict:
        """The root moves' visits, summed over the trees; empty while a root has no children."""
        visits = {}
        for tree, root in zip(self._trees, roots):
            children = tree.children(root)
            if not children:
                return {}
            for move, child, _ in children:
                visits[move] = visits.get(move, 0.0) + tree.visits(child)
        return visits

    def _lead(self, roots) -> Tuple[Optional[int], float]:
        """The most visited root move (its kernel code; None before the root has children)
        and its visits less the second's (infinite when it is the only move)."""
        ranked = sorted(self._root_visits(roots).items(), key=lambda item: -item[1])
        if not ranked:
            return None, 0.0
        return ranked[0][0], ranked[0][1] - ranked[1][1] if len(ranked) > 1 else math.inf

    def _settled(self, roots, remaining: float) -> bool:
        """The most visited root move leads the second by more than the simulations left."""
        leader, lead = self._lead(roots)
        return leader is not None and lead > remaining

    def _close(self, roots) -> bool:
        """The most visited root move has fewer than ``close_ratio`` times the second's visits."""
        ratio = self._player_tunables()["close_ratio"]
        ranked = sorted(self._root_visits(roots).values(), reverse=True)
        return len(ranked) > 1 and ranked[0] < ratio * ranked[1]

    def _player_tunables(self) -> dict:
        """The tunables the player reads (``PLAYER_TUNABLES``), with the settings' overrides."""
        return {**PLAYER_TUNABLES, **dict(self.settings.overrides)}

    def _settle_gap(self, roots, remaining: int) -> int:
        """For a fixed budget with ``remaining`` simulations left: 0 when the most visited
        root move (not the pass) leads the second by more than that, else the fewest
        simulations after which it could (a simulation moves the lead less the rest by at
        most 2, and never down: 1 + (rest - lead) // 2)."""
        leader, lead = self._lead(roots)
        if remaining <= 0 or leader is None:
            return max(remaining, 1)
        if lead > remaining:
            return 0 if leader != K.PASS else remaining
        return 1 + int(remaining - lead) // 2

    @staticmethod
    def _history_table(game) -> np.ndarray:
        """Every position of the game so far (superko; the other games avoid repeats too)."""
        keys = [_position_key(p.state) for p in game._positions]
        size = 64
        while size < 4 * len(keys):
            size *= 2
        table = np.zeros(size, np.int64)
        ka = _backend.active
        for key in keys:
            ka.hash_insert(table, int(key))
        return table

    # ----------------------------------------------------------------- reading the trees
    def _analysis(self, game, color, roots, simulations, seconds) -> Analysis:
        size = game.size
        w = size + 2
        stats = {}
        for tree, root in zip(self._trees, roots):
            for move, child, edge in tree.children(root):
                if tree.repeats(child):
                    continue
                s = stats.setdefault(move, [0.0, 0.0, 0.0, 0.0, 0.0, None])
                visits = tree.visits(child)
                if child >= 0:
                    s[0] += visits
                    s[1] += float(tree.tf[K.NF_WINS, child])
                    s[2] += float(tree.tf[K.NF_SCORE, child])
                s[3] += float(tree.ef[edge, K.E_PWINS])
                s[4] += float(tree.ef[edge, K.E_PVISITS])
                if s[5] is None or visits > s[5][1]:
                    s[5] = (tree, visits, child)
        sign = 1.0 if color == Color.BLACK else -1.0
        prior_total = sum(s[3] for s in stats.values()) or 1.0
        moves = []
        for cell, (visits, wins, score, pwins, pvisits, where) in stats.items():
            move = _point(cell, w)
            if visits > 0:
                winrate = wins / visits
                lead = sign * score / visits
            else:
                winrate = pwins / pvisits if pvisits > 0 else 0.5
                lead = 0.0
            pv = [move] + _principal_variation(where[0], where[2], w)
            moves.append(MoveInfo(move, int(visits), winrate, pwins / prior_total, lead, pv))
        moves.sort(key=lambda m: (-m.visits, -m.prior))
        own = np.zeros(2 * w * w + 1, np.float64)
        for space in self._spaces:
            own += space.own
        n = max(own[2 * w * w], 1)   # simulations that played the game out
        cells = [(r + 1) * w + c + 1 for r in range(size) for c in range(size)]
        black, white = own[cells], own[[w * w + cell for cell in cells]]
        # a report during the search reads counts the kernels are still adding to, a chunk
        # ahead of ``simulations``: keep it within the bounds a finished search has
        ownership = np.clip((black - white) / n, -1.0, 1.0)
        # each playout gives +1, 0 or -1: the variance is E[o^2] - E[o]^2
        stdev = np.sqrt(np.clip((black + white) / n - ownership * ownership, 0.0, 1.0))
        return Analysis(color, size, moves, simulations, seconds, ownership.tolist(),
                        _backend.compiled(), self._threads(),
                        sum(tree.used for tree in self._trees), ownership_stdev=stdev.tolist(),
                        edges=sum(tree.edges_used for tree in self._trees))

    # ----------------------------------------------------------------- the move to play
    def decide(self, game, color: Color, analysis: Analysis, cleanup: bool = False,
               seconds_left: Optional[float] = None):
        """The move ``genmove`` plays for ``color`` from ``analysis``: a point, None (pass) or
        ``"resign"``.

        - Resign (only with a threshold set) after ``RESIGN_MOVES`` own searches in a row whose
          best win rate stayed below it, or at once below ``HOPELESS``.
        - Pass only when passing is legal and does not lose the game as the board stands (the
          tie rule of the game applied to the final passer), and in area-scored games only
          when no opponent stone that the search sees dead is left on the board; besides, the
          opponent has just passed, or playing on gains nothing (the best move's expected
          margin is no better than the margin now), the board is settled and the opponent's
          reply to our pass gains nothing (``_pass_gives_nothing``, a search within
          ``seconds_left``, what the move's time budget still allows, when there is one). A hopeless game (every move below
          ``HOPELESS``) is passed out once the opponent passes, never by passing first.
        - Where eyes score nothing and stones do (Loose, Disto), a pass is first replaced by
          the fill of an own eye its groups do not need, while one is left (``_spare_eye_fill``):
          a point more, whatever the result.
        - When a pass is not right, the most visited placement; when dead opponent stones keep
          us from passing (or always in ``cleanup``, GTP ``kgs-genmove_cleanup``), a move that
          takes a liberty of a dead group, the most visited such one.
        """
        color = Color(color)
        placements = [m for m in analysis.moves if m.move is not None]
        if self.settings.resign is not None and analysis.moves:
            key = (game.history_id, color)
            if analysis.winrate < self.settings.resign and analysis.visits >= 50:
                self._low = {key: self._low.get(key, 0) + 1}
            else:
                self._low = {}
            if self._low.get(key, 0) >= RESIGN_MOVES or \
                    (analysis.winrate < HOPELESS and analysis.visits >= 200):
                return "resign"
        pass_legal = game.illegal_reason(color, None) is None
        dead = self.dead_stones(game, analysis, color.opponent) \
            if game.rules.scoring == SCORE_AREA else []
        if cleanup and dead:
            move = self._cleanup_move(game, color, placements, dead)
            if move is not None:
                return move
        if not placements:
            return self._spare_eye_fill(game, color, placements)
        if pass_legal and self._pass_is_right(game, color, analysis, placements, dead, seconds_left):
            return self._spare_eye_fill(game, color, placements)
        if dead and (analysis.best.move is None or
                     self._pass_is_right(game, color, analysis, placements, [], seconds_left)):
            move = self._cleanup_move(game, color, placements, dead)
            if move is not None:
                return move
        return placements[0].move

    def _pass_is_right(self, game, color, analysis, placements, dead, seconds_left) -> bool:
        if dead:
            return False
        opponent_passed = game.last_move is not None and game.last_move.is_pass \
            and game.last_move.color != color
        final_passer = color if opponent_passed else color.opponent
        score = game.score()
        winner = game.rules.winner(score.black, score.white, final_passer)
        if winner != color:
            # a hopeless game is passed out only in answer to a pass: passing first hands a
            # winner who plays on free moves in our area (seen: passed six times while GNU Go
            # took every stone, lost by 73.5 instead of about 65)...
            if opponent_passed and analysis.visits > 0 and \
                    all(m.winrate < HOPELESS for m in placements):
                return True
            # ...unless the search itself finds the pass the move that loses least (seen in
            # Disto: an own 12-stone group fed to a meal rather than pass, a loss by 3 made 14)
            return self._pass_loses_least(analysis, placements)
        if opponent_passed:
            return True
        best = placements[0]
        if best.visits == 0:
            return analysis.best.move is None
        sign = 1 if color == Color.BLACK else -1
        gain = best.score_lead - sign * (score.black - score.white)
        if gain > 0.5:
            return False
        if analysis.best.move is None:
            return True
        standing = sign * (score.black - score.white)
        return self._settled_board(game, analysis) and \
            self._pass_gives_nothing(game, color, best, analysis, max(standing, best.score_lead),
                                     seconds_left)

    @staticmethod
    def _spare_eye_fill(game, color: Color, placements: List[MoveInfo]) -> Optional[Move]:
        """Where eyes score nothing and stones do, the move to play instead of a pass: the
        fill of an own eye that its groups do not need (``kernels.spare_eye``), the most
        visited such placement, else the first in reading order; None (pass) when there is
        none or eyes score."""
        if game.rules.eyes_score:
            return None
        st = game.position.state
        size = game.size

        def spare(point) -> bool:
            cell = (point[0] + 1) * (size + 2) + point[1] + 1
            return st[K.BOARD, cell] == K.EMPTY and bool(K.is_own_eye(st, cell, int(color))) \
                and bool(K.spare_eye(st, cell, int(color))) \
                and game.illegal_reason(color, point) is None
        for info in placements:
            if spare(info.move):
                return info.move
        return next((point for point in ((row, col) for row in range(size - 1, -1, -1)
                                         for col in range(size)) if spare(point)), None)

    @staticmethod
    def _pass_loses_least(analysis: Analysis, placements: List[MoveInfo]) -> bool:
        """Whether the search's own choice, in a game lost as the board stands, is the pass:
        the most visited root move, no lower a win rate than the best placement's, and a
        margin better by ``PASS_BETTER_BY`` points or more (the pass is searched as a move
        the opponent answers, so its margin already counts what the opponent does next)."""
        best = analysis.best
        if best is None or best.move is not None or not placements or best.visits < 100:
            return False
        rival = placements[0]
        return best.winrate >= rival.winrate and best.score_lead >= rival.score_lead + PASS_BETTER_BY

    def _pass_gives_nothing(self, game, color: Color, best: MoveInfo, analysis: Analysis,
                            margin: float, seconds_left: Optional[float]) -> bool:
        """Whether passing now keeps ``margin`` (ours: the board as it stands or our best move's,
        the better) and our win rate: the opponent, given the move, gains at most half a point
        or 5% of win rate (searched with half this move's simulations). The best move's margin
        alone cannot tell: it is measured with us to move, and a pass hands the opponent that
        move (seen passing at move 29 on 9x9 against GNU Go, a large area still open to an
        invasion: the game was lost)."""
        if self.aborted.is_set():   # no time to check: keep playing
            return False
        trial = game.copy()
        trial.play(color, None)
        seconds = None if seconds_left is None else max(0.05, seconds_left)
        reply = self.search(trial, color.opponent, seconds=seconds,
                            playouts=max(200, analysis.simulations // 2), early_stop=False)
        if not reply.moves:
            return True
        return -reply.score_lead >= margin - 0.5 and 1.0 - reply.winrate >= best.winrate - 0.05

    @staticmethod
    def _settled_board(game, analysis) -> bool:
        """Every empty point is settled: territory the search agrees on, or dame between
        stones of both colours that nobody gets (an empty point of the opening, far from
        everything, is not dame: it is simply not decided yet)."""
        owners = game.position.owner_map(game.rules.scoring)
        size = game.size
        position = game.position
        for index, own in enumerate(analysis.ownership):
            point = (index // size, index % size)
            if position.stone_at(point) or position.fort_at(point):
                continue
            owner = owners[index]
            if owner == Color.BLACK and own < 0.6 or owner == Color.WHITE and own > -0.6:
                return False
            if owner == 0:
                row, col = point
                around = {position.stone_at(q) for q in ((row + 1, col), (row - 1, col),
                                                         (row, col + 1), (row, col - 1))
                          if 0 <= q[0] < size and 0 <= q[1] < size}
                if abs(own) > 0.4 or not {Color.BLACK, Color.WHITE} <= around:
                    return False
        return True

    @staticmethod
    def dead_stones(game, analysis, color: Optional[Color] = None) -> List[Tuple[int, int]]:
        """Stones (of ``color``, or both) that the other side owns in most playouts."""
        size = game.size
        position = game.position
        found = []
        for index, own in enumerate(analysis.ownership):
            point = (index // size, index % size)
            stone = position.stone_at(point)
            if not stone or (color is not None and stone != color):
                continue
            if (stone == Color.BLACK and own <= -DEAD) or (stone == Color.WHITE and own >= DEAD):
                found.append(point)
        return found

    @staticmethod
    def _cleanup_move(game, color, placements, dead) -> Move:
        """The most visited placement on a liberty of a dead group; else None."""
        size = game.size
        position = game.position
        targets = set()
        for row, col in dead:
            for q in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
                if 0 <= q[0] < size and 0 <= q[1] < size and not position.stone_at(q) \
                        and not position.fort_at(q):
                    targets.add(q)
        for info in placements:
            if info.move in targets and not position.is_own_eye(color, info.move):
                return info.move
        for point in sorted(targets):
            if game.illegal_reason(color, point) is None and not position.is_own_eye(color, point):
                return point
        return None

    def target_margin(self, game, color: Color) -> float:
        """Black's margin that ``genmove`` plays for besides the win (``kernels.score_value``),
        from ``color``'s previous ``genmove`` in this game, the one two moves ago. When that
        search's best move won ``TARGET_FROM`` or more of its simulations, ``color`` plays for a
        share of the lead it expected, rising to ``target_share`` of it at ``TARGET_FULL``
        (whole points), so that a won game is won by as much as it safely can be, never by
        risking the win (the target weighs ``target_weight`` of a simulation's value, the win
        the rest). When it won ``1 - TARGET_FROM`` or less, it plays the same way for losing by
        less than ``target_behind`` of the loss it expected (1: the loss expected, where the
        target tells moves apart best), so that once a fight is lost it still saves what it
        can instead of giving every stone up; also below a half when it expected to lose by
        ``target_behind_lead`` points or more (0: never). No target (0) after the opponent's
        pass (the end of the game is scored exactly), nor without that search."""
        color = Color(color)
        outlook = self._outlook.get((game.history_id, color))
        if outlook is None or outlook[0] != len(game.moves) - 2:
            return 0.0
        if game.last_move is not None and game.last_move.is_pass:
            return 0.0
        _, winrate, lead = outlook
        shares = self._player_tunables()
        far_behind = winrate < 0.5 and 0 < shares["target_behind_lead"] <= -lead
        wanted = 0.0
        if winrate >= TARGET_FROM and lead > 0:
            wanted = math.floor(_ramp(winrate) * shares["target_share"] * lead)
        elif lead < 0 and (winrate <= 1.0 - TARGET_FROM or far_behind):
            wanted = -math.floor(shares["target_behind"] * -lead)
        return wanted if color == Color.BLACK else 0.0 - wanted

    def genmove(self, game, color: Color, seconds: Optional[float] = None,
                cleanup: bool = False, progress: Optional[Callable[["Analysis"], None]] = None,
                progress_interval: float = 1.0, early_stop: bool = True,
                extend_to: Optional[float] = None):
        """Search and decide: ``(move, analysis)``, the move a point, None (pass, legal for
        ``color``) or ``"resign"``; analysis None when nothing was searched. A game ended by
        annihilation is passed out without a search. When ``color`` has
        neither a legal placement nor a legal pass: RulesError (it passed last, nothing is left).
        ``progress``, ``progress_interval``, ``early_stop`` and ``extend_to`` as in ``search``
        (live views while it thinks; no early stop where unused time is lost, in byo-yomi; more
        time for a close choice where the clock has it to spare, ``timing.move_limit``). A position of the
        opening book (``book.py``; settings ``book``) gets the book's move, analysis None."""
        color = Color(color)
        if game.end_reason == "annihilation":
            return None, None
        if self.settings.book and not cleanup:
            move = book.default_book().move(game, color)
            if move is not None:
                return move, None
        analysis = self.search(game, color, seconds=seconds,
                               playouts=self.settings.playouts if seconds is not None else None,
                               progress=progress, progress_interval=progress_interval,
                               early_stop=early_stop, extend_to=extend_to,
                               target_margin=0.0 if cleanup else self.target_margin(game, color))
        if analysis.moves:
            self._outlook = {key: value for key, value in self._outlook.items()
                             if key[0] == game.history_id}
            self._outlook[(game.history_id, color)] = (len(game.moves), analysis.winrate,
                                                       analysis.score_lead)
        move = self.decide(game, color, analysis, cleanup,
                           None if seconds is None else analysis.seconds_allowed - analysis.seconds)
        if move not in (None, "resign") and game.illegal_reason(color, move) is not None:
            # a move the tree never entered can still break superko: take the next legal one
            legal = [m.move for m in analysis.moves
                     if m.move is not None and game.illegal_reason(color, m.move) is None]
            move = legal[0] if legal else None
        if move is None and game.illegal_reason(color, None) is not None:
            # the last mover may not pass (C3): any legal placement, even in its own eye
            legal = game.legal_moves(color)
            if not legal:
                raise RulesError(f"{color.word} made the last move, so it may not pass, and "
                                 "it has no legal placement")
            move = legal[0]
        return move, analysis

    # ----------------------------------------------------------------- reports
    @staticmethod
    def summary(analysis: Analysis, top: int = 5) -> str:
        """One paragraph for stderr after a move: speed, then the best moves."""
        from ..coords import format_vertex
        target = analysis.target_margin
        lines = [f"{analysis.simulations} simulations in {analysis.seconds:.2f} s "
                 f"({_speed_text(analysis)}, {analysis.nodes} nodes, {analysis.edges} edges)"
                 + _target_text(target, analysis.color)]
        for info in analysis.moves[:top]:
            pv = " ".join(format_vertex(m) for m in info.pv[:10])
            lines.append(f"  {format_vertex(info.move):>5} visits {info.visits:7d} "
                         f"winrate {100 * info.winrate:5.1f}% lead {info.score_lead:+6.1f} "
                         f"prior {100 * info.prior:4.1f}%  pv {pv}")
        return "\n".join(lines)


def _speed_text(analysis: Analysis) -> str:
    """The summary's words for the search's speed and kernels. A search made (wholly or in
    part) by the interim pure-Python kernels while the compiled ones are being built says so,
    and gives no speed: its few simulations a second are not the engine's."""
    interim = analysis.interim_simulations
    note = f": {analysis.kernels_note}" if analysis.kernels_note else ""
    if not interim and analysis.compiled:
        return f"{analysis.speed:.0f}/s, {analysis.threads} thread(s), compiled"
    if interim >= analysis.simulations or not analysis.compiled:
        return ("interim pure-Python kernels while the compiled ones are prepared"
                f"{note}; not the engine's speed")
    return (f"{interim} of them by the interim pure-Python kernels, the rest compiled, "
            f"{analysis.threads} thread(s); not the engine's speed")


def _target_text(target: float, color: Color) -> str:
    """The summary's words for a target margin (Black's), from the mover's side."""
    if not target:
        return ""
    mine = target if Color(color) == Color.BLACK else -target
    side = "B" if Color(color) == Color.BLACK else "W"
    if mine > 0:
        return f", playing to win by more than {mine:g} ({side}+{mine:g})"
    return f", playing to lose by less than {-mine:g}"


def _ramp(winrate: float) -> float:
    """0 at ``TARGET_FROM``, rising to 1 at ``TARGET_FULL`` and beyond."""
    return min(1.0, max(0.0, (winrate - TARGET_FROM) / (TARGET_FULL - TARGET_FROM)))


def _point(cell: int, w: int) -> Move:
    return None if cell == 0 else (cell // w - 1, cell % w - 1)


def _principal_variation(tree: Tree, node: int, w: int, limit: int = 30) -> List[Move]:
    """The moves after ``node``, following the most visited child while it has visits."""
    pv = []
    while len(pv) < limit and node >= 0:
        first = int(tree.ti[K.NI_FIRST, node])
        if first < 0:
            break
        children = tree.ec[first:first + int(tree.ti[K.NI_COUNT, node])]
        taken = np.maximum(children, 0)
        visits = np.where(children >= 0, tree.tf[K.NF_VISITS, taken], 0.0)
        visits = np.where((children >= 0) & (tree.ti[K.NI_FLAGS, taken] & K.FLAG_REPEAT != 0),
                          -1.0, visits)
        best = int(np.argmax(visits))
        if visits[best] <= 0:
            break
        node = int(children[best])
        pv.append(_point(int(tree.ti[K.NI_MOVE, node]), w))
    return pv


def _position_key(state) -> int:
    return int(K.position_key(state))


def _rng_state(seed: int, move_number: int, thread: int) -> int:
    """A nonzero 32-bit state for the kernels' xorshift, from seed, move number and thread."""
    x = (int(seed) * 0x9E3779B1 + move_number * 0x85EBCA77 + thread * 0xC2B2AE3D + 12345)
    return x % 0xFFFFFFFF + 1
