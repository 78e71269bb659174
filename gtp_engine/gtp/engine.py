"""``GtpEngine``: the session behind the protocol, and ``run_command``.

The session is the game (``gtp_engine.game.Game``, the single source of truth), the engine's
settings from the command line, the time control the controller announced, and a random
generator seeded for reproducible play. ``run_command(name, args)`` is the whole protocol seen
from inside (tests and in-process channels call it directly); ``execute`` wraps it for the
stream server with the error contract:

- ``GtpError`` (and every ``EngineError`` from below, its message passed through) answers
  ``? message``;
- any other exception answers ``? internal error: ...`` and prints the traceback on stderr;
- after any failure the session is exactly as before the command: state-changing handlers run
  on a snapshot that is restored when they raise.

Between commands the session may keep working in the background (``background``): an analysis
stream, or pondering with ``--ponder``. ``interrupt()`` stops that work and waits for it; the
server calls it on every input line, and ``run_command`` before every command, so a command
never races a search and always finds the game as the last command left it.
"""

import logging
import math
import random
import sys
import threading
import traceback
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .. import NAME, __version__
from ..errors import EngineError, quote
from .clock import TimeControl, TimeLeft  # noqa: F401 - the session's clock types, used here and by callers
from .errors import GtpError, GtpFatalError, GtpQuit
from .table import CommandTable, Handler

log = logging.getLogger(__name__)
PROTOCOL_VERSION = "2"
OVERSHOOTS_KEPT = 5     #: recent genmoves whose lateness sets the time manager's margin
#: commands that neither need the forts of ``--forts auto`` nor change what they are chosen
#: for: answered at once while the search chooses them (``GtpEngine.pending_forts``). They
#: are what GoGui sends player and ruler at start (``GoGui.attachProgram``, ``initGameRuler``,
#: ``GenericBoard.playFromBeginning``) and a frontend's set-up before its first move. The
#: board and side to move do not depend on forts; komi does not change the forts chosen
#: (they are the command line's game's, as in every process).
FORT_FREE_COMMANDS = frozenset((
    "name", "version", "protocol_version", "list_commands", "known_command", "quit",
    "gogui-interrupt", "gogui-analyze_commands", "gogui-rules_game_id",
    "gogui-rules_board_size", "gogui-rules_board", "gogui-rules_side_to_move",
    "gogui-rules_captured_count", "boardsize", "clear_board", "komi", "time_settings",
    "kgs-time_settings", "time_left", "list_variants", "cputime", "vargo-compile_progress"))
#: the set-up a frontend sends before its first move: the first of them waits while the engine
#: loads its compiled kernels at start (``GtpEngine.await_kernels``), so that the ``genmove``
#: after them finds the kernels loaded and gets its whole time; every other command is
#: answered at once (identity, GoGui's queries), and a ``genmove`` with no set-up before it
#: waits for the kernels within its own time, as it always did
KERNEL_WAIT_COMMANDS = frozenset((
    "boardsize", "clear_board", "komi", "play", "undo", "loadsgf", "variant", "time_settings",
    "kgs-time_settings", "time_left", "fixed_handicap", "place_free_handicap",
    "set_free_handicap"))


@dataclass(frozen=True)
class EngineSettings:
    """How the engine plays, from the command line (see ``cli``).

    ``forts_auto``: whenever a command leaves a new Terrain Go map without forts (``boardsize``
    to a new size, ``variant``, ``terrain_generate``, ``terrain_load``), the engine places them
    itself, as at start-up (``--forts auto``).
    """

    seed: int = 0
    playouts: Optional[int] = None
    move_time: Optional[float] = None
    threads: int = 1
    resign: Optional[float] = None      #: win rate below which genmove resigns; None never
    forts_auto: bool = False
    max_memory_mb: int = 1024
    summary: bool = True                #: a search summary on stderr after each genmove
    search_params: tuple = ()           #: (name, value) tunables of search.params
    ponder: bool = False                #: search on the opponent's time after genmove
    #: GoGui's live view on stderr while genmove and the search views think; None: on once the
    #: controller has asked ``gogui-analyze_commands`` (only GoGui does)
    live_gfx: Optional[bool] = None
    fort_playouts: Optional[int] = None  #: per candidate fort; 0 heuristic; None by board size
    book: bool = True                   #: genmove plays the opening book's moves (search.book)

    def fort_budget(self, size: int) -> int:
        """Simulations per candidate of a searched fort: ``fort_playouts`` when given, else the
        size's default (``fortsearch.playouts_per_candidate``), at most ``playouts``."""
        from ..search.fortsearch import playouts_per_candidate
        if self.fort_playouts is not None:
            return self.fort_playouts
        budget = playouts_per_candidate(size)
        return budget if self.playouts is None else min(budget, self.playouts)

    def search_settings(self):
        from ..search.player import SearchSettings
        return SearchSettings(playouts=self.playouts, move_time=self.move_time,
                              threads=self.threads, max_memory_mb=self.max_memory_mb,
                              seed=self.seed, resign=self.resign,
                              overrides=tuple(self.search_params), book=self.book)


class GtpEngine:
    """A GTP session over one game. See the module docstring."""

    def __init__(self, game, settings: EngineSettings = EngineSettings(),
                 tables: Optional[List[CommandTable]] = None):
        self.game = game
        #: (SgfRecord, the game's history_id then) from the last loadsgf: printsgf keeps the
        #: file's other properties while the game continues that history
        self.loaded_sgf = None
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.time_control = TimeControl()
        self.time_left: Dict = {}
        #: how much later than its budget each recent timed genmove answered (seconds)
        self.overshoots: List[float] = []
        self._player = None
        #: ((history id, moves), (dead, seki)) of the last final_status (final_score, lists)
        self._final = None
        #: the search behind the last genmove (the time manager reads its win rate)
        self.last_analysis = None
        #: (position key, analysis) of the last search view (GoGui's views share one search)
        self.view_analysis = None
        #: the controller asked ``gogui-analyze_commands``: it is GoGui
        self.gogui_attached = False
        #: work going on between commands (analysis stream, pondering), or None
        self.background = None
        #: set to end the command that is running (GoGui's interrupt, quit, end of input):
        #: its search stops at once and it answers with what it has (``abort_command``)
        self.aborted = threading.Event()
        #: the position pondered after our last genmove: pondering resumes there after any
        #: command that leaves the game unchanged
        self._ponder_position = None
        #: the forts of ``--forts auto`` being chosen in the background
        #: (``fortsearch.PendingForts``, from ``start_auto_forts``): placed before the first
        #: command that is not in ``FORT_FREE_COMMANDS``
        self.pending_forts = None
        #: waits for the compiled kernels at start and says whether they are in use (the
        #: caller sets it, e.g. ``search._backend.wait_for_warm_start``); called once, before
        #: the first command in ``KERNEL_WAIT_COMMANDS``
        self.await_kernels = None
        if tables is None:
            from . import analysis, core, extensions, gogui, gogui_views
            tables = [core.TABLE, extensions.TABLE, gogui.TABLE, analysis.TABLE,
                      gogui_views.TABLE]
        self.handlers: Dict[str, Handler] = {}
        for table in tables:
            for name, handler in table.handlers.items():
                if name in self.handlers:
                    raise ValueError(f"command {name!r} is in two tables")
                self.handlers[name] = handler

    # ----------------------------------------------------------------- identity
    name = NAME
    version = __version__
    protocol_version = PROTOCOL_VERSION

    # ----------------------------------------------------------------- commands
    def command_names(self) -> List[str]:
        return sorted(self.handlers)

    def run_command(self, name: str, args: List[str]) -> str:
        """Run one command and return its answer text; raise GtpError (or GtpQuit) otherwise.

        EngineErrors become GtpErrors; a failed state-changing command is rolled back.
        Unexpected exceptions propagate (``execute`` reports them), after the rollback.
        Background work (analysis, pondering) is stopped first. The answer may be a
        ``protocol.StreamedAnswer`` (analysis streams) instead of text.
        """
        self.interrupt()
        handler = self.handlers.get(name)
        if handler is None:
            raise GtpError(f"unknown command: {quote(name)}")
        if self.await_kernels is not None and name in KERNEL_WAIT_COMMANDS:
            wait, self.await_kernels = self.await_kernels, None
            if wait():
                self.prepare_search()
        if self.pending_forts is not None and name not in FORT_FREE_COMMANDS:
            self.settle_forts()
        snapshot = self._snapshot() if handler.changes_state else None
        try:
            return handler.function(self, list(args))
        except GtpQuit:
            raise
        except EngineError as err:
            self._restore(snapshot)
            raise GtpError(str(err)) from err
        except BaseException:
            self._restore(snapshot)
            raise

    def execute(self, name: str, args: List[str]) -> Tuple[bool, str]:
        """``run_command`` for the stream server: ``(success, text)``; GtpQuit and GtpFatalError
        propagate with their message."""
        try:
            answer = self.run_command(name, args)
            if isinstance(answer, str):   # a streamed answer starts its own work
                self._resume_pondering()
            return True, answer
        except (GtpQuit, GtpFatalError):
            raise
        except GtpError as err:
            return False, str(err)
        except Exception as err:  # a bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            return False, f"internal error: {type(err).__name__}: {err}".lower()

    # ----------------------------------------------------------------- background work
    def interrupt(self) -> None:
        """Stop the background work, if any, and wait until it has stopped (an analysis
        stream writes the end of its response before this returns)."""
        job, self.background = self.background, None
        if job is not None:
            job.stop()

    def abort_command(self) -> None:
        """End the search of the command that is running, if any (thread-safe): it answers
        with the best it found so far. Called by the input reader (``protocol.serve``)."""
        self.aborted.set()

    def clear_abort(self) -> None:
        """A new command starts: an earlier abort no longer applies."""
        self.aborted.clear()

    def run_in_background(self, name: str, work, finish=None) -> None:
        """Run ``work(stop)`` until the next command, then ``finish()`` (see ``background``)."""
        from .background import BackgroundJob
        self.interrupt()
        self.background = BackgroundJob(name, work, finish).start()

    def position_key(self, color=None):
        """What identifies the position searched: history, moves, board, komi and the side to
        move (``color``, else the game's)."""
        game = self.game
        return (game.history_id, len(game.moves), game.position.zobrist, game.komi,
                game.to_move if color is None else color)

    def start_pondering(self) -> None:
        """With ``--ponder``, search the current position for the side to move until the next
        command (called after genmove); the tree stays with the player, so the next genmove
        goes on from the subtree of the move the opponent plays."""
        if not self.settings.ponder or self.game.over or self.game.fort_turn is not None:
            return
        self._ponder_position = self.position_key()
        game, player = self.game.copy(), self.player
        color = game.to_move

        def ponder(stop):
            player.search(game, color, seconds=math.inf, stop=stop, early_stop=False)
        self.run_in_background("ponder", ponder)

    def _resume_pondering(self) -> None:
        """After a command that left the pondered position as it was (``time_left``, a query),
        ponder on; any other position waits for the next genmove."""
        if self.background is None and self._ponder_position is not None and \
                self._ponder_position == self.position_key():
            self.start_pondering()

    @property
    def live_gfx(self) -> bool:
        """Whether searches draw GoGui's live view on stderr (``EngineSettings.live_gfx``)."""
        setting = self.settings.live_gfx
        return self.gogui_attached if setting is None else setting

    # ----------------------------------------------------------------- rollback
    def _snapshot(self):
        """Everything a command may change (waits for a game still being built)."""
        return (self.game.copy(), self.settings, self.time_control, dict(self.time_left),
                self.rng.getstate(), self.pending_forts)

    def _restore(self, snapshot) -> None:
        if snapshot is None:
            return
        (self.game, self.settings, self.time_control, self.time_left, rng_state,
         self.pending_forts) = snapshot
        self.rng.setstate(rng_state)

    # ----------------------------------------------------------------- helpers for handlers
    @property
    def player(self):
        """The search player (created on first use; it keeps its trees between moves)."""
        if self._player is None or self._player.settings != self.settings.search_settings():
            from ..search.player import SearchPlayer
            self._player = SearchPlayer(self.settings.search_settings(), self.aborted)
        return self._player

    def prepare_search(self) -> None:
        """Build the search player for the current game ahead of the first ``genmove``."""
        self.player.prepare(self.game)

    def move_budget(self, color) -> Optional[float]:
        """Seconds for a genmove of ``color``: the time manager's share of the clock, else
        ``--time``, else None (``--playouts`` or the player's default decide)."""
        from ..search.timing import move_budget
        position = self.game.position
        empties = sum(1 for row in position.rows() for c in row if c == ".")
        last = self.last_analysis.winrate if self.last_analysis is not None else None
        return move_budget(self.time_control, self.time_left.get(color), empties,
                           self.settings.move_time, last, self.game.size ** 2,
                           max(self.overshoots, default=0.0))

    def move_limit(self, color, budget: Optional[float]) -> Optional[float]:
        """The most a genmove of ``color`` given ``budget`` may think while its choice stays
        close (``timing.move_limit``)."""
        from ..search.timing import move_limit
        return move_limit(self.time_control, self.time_left.get(color), budget,
                          self.settings.move_time, max(self.overshoots, default=0.0))

    def in_byo_yomi(self, color) -> bool:
        """Whether ``color``'s next move is in a byo-yomi period (``timing.in_byo_yomi``)."""
        from ..search.timing import in_byo_yomi
        return in_byo_yomi(self.time_control, self.time_left.get(color))

    def note_move_time(self, color, budget: Optional[float], elapsed: float) -> None:
        """A genmove of ``color`` took ``elapsed`` seconds for ``budget``: keep the clock as the
        controller does (its next ``time_left`` replaces ours) and how much later than its
        budget the answer came (the time manager's margin grows with it under load)."""
        from ..search.timing import after_move
        if budget is not None:
            self.overshoots = (self.overshoots + [max(0.0, elapsed - budget)])[-OVERSHOOTS_KEPT:]
        clock = after_move(self.time_control, self.time_left.get(color), elapsed)
        if clock is not None:
            self.time_left = {**self.time_left, color: TimeLeft(*clock)}

    def final_status(self):
        """(dead, seki) stones of the current position, from a search of it (cached)."""
        from ..board import SCORE_AREA
        from ..search.status import final_analysis, stone_status
        key = (self.game.history_id, len(self.game.moves), self.game.position.zobrist)
        if self._final is None or self._final[0] != key:
            game = self.game   # a game over by annihilation stands as it is (C5)
            searched = game.rules.scoring == SCORE_AREA and game.end_reason != "annihilation"
            analysis = final_analysis(self.player, game) if searched else None
            self._final = (key, stone_status(self.game, analysis))
        return self._final[1]

    def place_auto_forts(self) -> None:
        """With ``--forts auto``, let the engine place every missing fort (deterministic for the
        seed); nothing to do in games without forts, or when the forts being chosen in the
        background are for this game (``start_auto_forts``: they are placed when needed)."""
        game = self.game
        if not self.settings.forts_auto or game.fort_turn is None:
            return
        if self.pending_forts is not None and self.pending_forts.fits(game):
            return
        self.pending_forts = None
        from ..search.fortsearch import place_forts
        place_forts(game, self.settings.seed, self.settings.fort_budget(game.size),
                    self.settings.threads)

    def start_auto_forts(self, progress=None) -> None:
        """With ``--forts auto``, start choosing the missing forts in the background
        (``fortsearch.PendingForts``); commands in ``FORT_FREE_COMMANDS`` are answered
        meanwhile, the others place them first (``settle_forts``). ``progress(color, point,
        seconds)`` after each fort."""
        from ..search.fortsearch import PendingForts
        game = self.game
        if self.settings.forts_auto and game.fort_turn is not None:
            self.pending_forts = PendingForts(game, self.settings.seed,
                                              self.settings.fort_budget(game.size),
                                              self.settings.threads, progress)

    def settle_forts(self) -> None:
        """Wait for the forts being chosen in the background and place them, if they are still
        for this game. GtpError if GoGui's interrupt or ``quit`` comes first (they stay on
        their way); a failed choice (a map without room) is logged and leaves the forts to
        the user, as ``fort``/``genfort`` can still place them."""
        pending = self.pending_forts
        while not pending.wait(0.05):
            if self.aborted.is_set():
                raise GtpError("interrupted while the engine was choosing its forts "
                               "(--forts auto)")
        self.pending_forts = None
        if not pending.fits(self.game):
            return
        try:
            for color, point in pending.result():
                self.game.place_fort(color, point)
        except EngineError as err:
            log.warning("--forts auto: %s", err)
