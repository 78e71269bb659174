"""One refereed game between two GTP engines, judged by our own rules core.

The referee is ``gtp_engine.game.Game``, never either engine: every move an engine generates is
played on the referee's game first and only then passed to the other engine. The game ends by
two passes or annihilation (scored by the referee), resignation, the move limit (scored by the
referee as the position stands), or a forfeit: an illegal move or fort, a crash, a malformed
response, a refused command (``F``), or a hang past the clock (a loss on time, ``T``). When an
engine's own ``final_score`` disputes the referee's winner after two passes, the game goes on
once in a clean-up phase (``kgs-genmove_cleanup``) before the referee scores it.

Set-up per game, in this order, sent to both engines: ``variant`` (only when the engine has it;
an engine without it can only play ``go``), ``boardsize``, ``clear_board``, ``komi``,
``set_random_seed`` (only when the engine has it, as GNU Go does: each game its own seed, so
that deterministic engines vary); for games with a map, ``terrain_load MAP`` to both and the
forts in turn (``genfort`` to the engine whose turn it is, ``fort`` to the other), or, with a
set-up file (``GameSettings.setup_sgf``), its map and its forts (``fort`` to both) in every
game; optionally a fair komi (``fair_komi`` from every engine that has it, averaged); the
handicap stones, if any (``fixed_handicap`` to both); the opening moves, if any (``play`` to
both); ``time_settings`` when a time control is set. Each engine's CPU time is read before
and after: its ``cputime`` where it has one, else its processes' times in ``/proc``.

Results use SGF's forms: ``B+3.5``, ``W+R`` (resignation), ``B+T`` (time), ``W+F`` (forfeit),
``0`` (draw).
"""

import math
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.errors import EngineError, IllegalMoveError
from gtp_engine.game import Game
from gtp_engine.rules import find_rules
from gtp_engine.rules.terrain_map import TerrainMap, TerrainParams, generate_map

from .gtp_client import (DEFAULT_COMMAND_TIMEOUT, EngineDied, EngineTimeout, GtpCommandError,
                         GtpEngine, GtpFailure, MalformedResponse)

LABELS = ("A", "B")

# Why a game ended: the keys of the summary's tally (the record adds the details).
TWO_PASSES = "two passes"
ANNIHILATION = "annihilation"
RESIGNATION = "resignation"
MOVE_LIMIT = "move limit"
ILLEGAL_MOVE = "illegal move"
CRASH = "crash"
TIMEOUT = "time"
MALFORMED = "malformed response"
REFUSED = "refused command"
START_FAILED = "failed to start"

_FAILURE_REASONS = {EngineDied: CRASH, EngineTimeout: TIMEOUT, MalformedResponse: MALFORMED,
                    GtpCommandError: REFUSED}


# --------------------------------------------------------------------------- time
@dataclass(frozen=True)
class TimeControl:
    """Canadian byo-yomi as GTP ``time_settings`` means it: ``main`` seconds, then ``byoyomi``
    seconds for every ``stones`` moves. ``stones == 0`` with ``byoyomi == 0`` is absolute time.
    ``TimeControl.per_move(s)`` is ``s`` seconds for each move. GTP sends whole seconds, so
    times are rounded up to whole seconds: the clock enforces what the engines were told."""

    main: float
    byoyomi: float = 0.0
    stones: int = 0

    @classmethod
    def per_move(cls, seconds: float) -> "TimeControl":
        return cls(0.0, seconds, 1)

    def __post_init__(self):
        object.__setattr__(self, "main", float(math.ceil(self.main)))
        object.__setattr__(self, "byoyomi", float(math.ceil(self.byoyomi)))
        if self.main < 0 or self.byoyomi < 0 or self.stones < 0:
            raise ValueError("time settings must not be negative")
        if self.byoyomi > 0 and self.stones == 0:
            raise ValueError("byo-yomi needs a number of stones per period (1 or more)")
        if self.stones > 0 and self.byoyomi == 0:
            raise ValueError("stones per period need a byo-yomi time (1 second or more)")
        if self.main == 0 and self.byoyomi == 0:
            raise ValueError("a time control needs main time or byo-yomi")

    @property
    def gtp(self) -> str:
        return f"time_settings {int(self.main)} {int(self.byoyomi)} {self.stones}"


class Clock:
    """One player's clock under a ``TimeControl``."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.main_left = control.main
        self.in_byoyomi = False
        self.period_left = control.byoyomi
        self.stones_left = control.stones
        self._byoyomi_when_main_spent()

    @property
    def allowance(self) -> float:
        """Seconds the next move may take before the flag falls."""
        if self.in_byoyomi:
            return self.period_left
        return self.main_left + (self.control.byoyomi if self.control.stones else 0.0)

    @property
    def time_left_args(self) -> Tuple[int, int]:
        """(seconds, stones) for GTP ``time_left``: stones 0 while in main time; in byo-yomi
        the seconds and stones left of the period (a full period when main time is 0 or has
        just run out)."""
        if self.in_byoyomi:
            return int(self.period_left), self.stones_left
        return int(self.main_left), 0

    def spend(self, seconds: float) -> None:
        """Charge a move that took ``seconds`` (the caller has checked it was within the allowance
        plus its margin; an overrun inside the margin leaves the clock at zero)."""
        if not self.in_byoyomi:
            if seconds <= self.main_left or not self.control.stones:
                self.main_left = max(0.0, self.main_left - seconds)
                self._byoyomi_when_main_spent()
                return
            seconds -= self.main_left
            self.main_left = 0.0
            self.in_byoyomi = True
            self.period_left, self.stones_left = self.control.byoyomi, self.control.stones
        self.period_left = max(0.0, self.period_left - seconds)
        self.stones_left -= 1
        if self.stones_left == 0:
            self.period_left, self.stones_left = self.control.byoyomi, self.control.stones

    def _byoyomi_when_main_spent(self) -> None:
        """No main time left (or none at all) and byo-yomi to come: the next move is in
        byo-yomi, with a full period, and ``time_left`` says so (GTP: stones 0 means main
        time, so ``0 0`` would tell the engine it has no time at all)."""
        if not self.in_byoyomi and self.main_left <= 0 and self.control.stones:
            self.in_byoyomi = True
            self.period_left, self.stones_left = self.control.byoyomi, self.control.stones


# --------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class GameSettings:
    """What every game of a match shares.

    ``move_timeout`` bounds ``genmove`` when there is no clock and ``command_timeout`` every
    other command (None: wait for ever); ``time_margin`` is added to the clock before a hang is
    declared; ``max_moves`` caps a game's turns (passes included); ``fair_komi`` is the seconds
    each engine may spend on ``fair_komi`` (None: keep the komi); ``engine_scores`` asks the
    engines for their ``final_score`` (recorded for comparison); ``cleanup`` allows one clean-up
    phase when they dispute the referee's result (which needs ``engine_scores``);
    ``opening_moves`` random moves open every game (``Referee._play_opening``); ``handicap``
    stones (GTP ``fixed_handicap``, 0 for none) go to Black before them, and White moves first.
    """

    variant: str
    size: int
    komi: float
    time_control: Optional[TimeControl] = None
    move_timeout: Optional[float] = 120.0
    time_margin: float = 2.0
    command_timeout: Optional[float] = DEFAULT_COMMAND_TIMEOUT
    max_moves: int = 0
    fair_komi: Optional[float] = None
    engine_scores: bool = True
    cleanup: bool = True
    opening_moves: int = 0
    handicap: int = 0
    setup_sgf: Optional[str] = None      #: every game starts from this set-up (map, forts, komi)
    #: Terrain Go's random maps with these ``key=value`` settings (as ``terrain_generate``)
    map_options: Tuple[str, ...] = ()

    def setup_game(self) -> Optional[Game]:
        """The game of ``setup_sgf`` before its first move (its map, forts and komi), or None."""
        if self.setup_sgf is None:
            return None
        from sgf import game_from_sgf
        return game_from_sgf(self.setup_sgf.encode(), 1)


@dataclass(frozen=True)
class GameSpec:
    """One game of the match: its number, who has Black, the seed its pair of games shares
    (games 2k and 2k+1, with colours swapped: the seed of the map and of the opening), and each
    engine's own seed for this game (its ``{seed}``, and ``set_random_seed`` where it has it)."""

    index: int
    black: str           # "A" or "B"
    pair_seed: int
    engine_seeds: Dict[str, int] = field(default_factory=dict)

    @property
    def white(self) -> str:
        return "B" if self.black == "A" else "A"


@dataclass
class GameOutcome:
    """How a game went. ``winner`` is a label or None (draw); ``reason`` a key of the tally;
    ``detail`` says it in words (it goes into the SGF); ``score`` is the referee's (black,
    white) count, komi included, when the game was scored; ``cpu_seconds`` each engine's CPU
    time in the game (by its own ``cputime``, else by ``/proc``; None when neither can say);
    ``faulty`` lists the labels whose engine must be restarted before the next game (those no
    longer running)."""

    game: Optional[Game]
    result: str
    winner: Optional[str]
    reason: str
    detail: str
    move_seconds: Dict[str, List[float]] = field(default_factory=lambda: {"A": [], "B": []})
    engine_scores: Dict[str, Optional[str]] = field(default_factory=dict)
    faulty: Tuple[str, ...] = ()
    komi: Optional[float] = None
    score: Optional[Tuple[float, float]] = None
    cpu_seconds: Dict[str, Optional[float]] = field(default_factory=dict)
    terrain: Optional[str] = None
    forts: Tuple[str, ...] = ()
    #: per label, its forts that ended in the opponent's territory (T7; scored Terrain games)
    forts_lost: Dict[str, int] = field(default_factory=dict)

    @property
    def moves(self) -> int:
        return len(self.game.moves) if self.game is not None else 0


class Forfeit(Exception):
    """Raised inside a game: ``label``'s engine loses it, for ``reason`` (a tally key)."""

    def __init__(self, label: str, reason: str, detail: str):
        self.label, self.reason, self.detail = label, reason, detail
        super().__init__(detail)


# --------------------------------------------------------------------------- the game
class Referee:
    """Plays one game: ``engines`` maps "A"/"B" to running engines (see ``Seat`` in match.py)."""

    def __init__(self, settings: GameSettings, spec: GameSpec, engines: Dict[str, GtpEngine]):
        self.settings = settings
        self.spec = spec
        self.engines = engines
        self.label_of = {Color.BLACK: spec.black, Color.WHITE: spec.white}
        self.game: Optional[Game] = None
        self.move_seconds: Dict[str, List[float]] = {"A": [], "B": []}
        self.clocks: Dict[str, Clock] = {}
        self.cpu_at_start: Optional[Dict[str, Optional[float]]] = None
        if settings.time_control is not None:
            self.clocks = {label: Clock(settings.time_control) for label in LABELS}

    # ------------------------------------------------------------- talking
    def ask(self, label: str, command: str) -> str:
        """Send ``command`` to ``label``'s engine; any failure forfeits the game for it."""
        try:
            return self.engines[label].send(command, timeout=self.settings.command_timeout)
        except GtpFailure as err:
            raise self._forfeit(label, err) from err

    def knows(self, label: str, command: str) -> bool:
        """Whether ``label``'s engine has ``command``; asking may fail, which forfeits too."""
        try:
            return self.engines[label].known(command)
        except GtpFailure as err:
            raise self._forfeit(label, err) from err

    def _forfeit(self, label: str, err: GtpFailure) -> "Forfeit":
        return Forfeit(label, _FAILURE_REASONS.get(type(err), CRASH), f"{self._who(label)}: {err}")

    def _who(self, label: str) -> str:
        color = Color.BLACK if self.label_of[Color.BLACK] == label else Color.WHITE
        return f"{color.word} ({label})"

    def both(self, command: str) -> None:
        for label in LABELS:
            self.ask(label, command)

    # ------------------------------------------------------------- set-up
    def set_up(self) -> None:
        """Bring both engines and the referee to the starting position (module docstring)."""
        s = self.settings
        rules = find_rules(s.variant)
        template = s.setup_game()
        if template is not None:    # the same map and forts in every game (terrain_setup.py)
            terrain = template.terrain
        else:
            terrain = generate_map(s.size, self.spec.pair_seed,
                                   TerrainParams.parse_options(s.size, s.map_options)) \
                if rules.has_terrain else None
        map_text = terrain.to_text() if terrain is not None else None
        self.game = Game(rules, s.size, s.komi, terrain=terrain)
        for label in LABELS:
            if self.knows(label, "variant"):
                self.ask(label, f"variant {rules.name}")
            self.ask(label, f"boardsize {s.size}")
            self.ask(label, "clear_board")
            self.ask(label, f"komi {_komi_text(s.komi)}")
            if label in self.spec.engine_seeds and self.knows(label, "set_random_seed"):
                self.ask(label, f"set_random_seed {self.spec.engine_seeds[label]}")
        if map_text is not None:
            self.both(f"terrain_load {map_text}{_fort_options(terrain)}")
            if template is not None:
                self._copy_forts(template.forts)
            self._place_forts()
        if s.fair_komi is not None:
            self._set_fair_komi()
        if s.handicap:
            from gtp_engine.gtp.handicap import fixed_handicap_points
            self.game.place_handicap(fixed_handicap_points(s.size, s.handicap))
            self.both(f"fixed_handicap {s.handicap}")
        self._play_opening()
        self.cpu_at_start = self._cputimes()
        if s.time_control is not None:
            for label in LABELS:
                if self.knows(label, "time_settings"):
                    self.ask(label, s.time_control.gtp)

    def _place_forts(self) -> None:
        while self.game.fort_turn is not None:
            color = self.game.fort_turn
            label = self.label_of[color]
            answer = self.ask(label, f"genfort {color.word}")
            point = self._read_vertex(label, answer, "genfort")
            if point is None:
                raise Forfeit(label, MALFORMED, f"{self._who(label)} answered genfort with pass")
            try:
                self.game.place_fort(color, point)
            except EngineError as err:
                raise Forfeit(label, ILLEGAL_MOVE, f"{self._who(label)} placed an illegal fort: {err}") from err
            other = self.label_of[color.opponent]
            self.ask(other, f"fort {color.word} {format_vertex(point)}")

    def _copy_forts(self, forts) -> None:
        """The set-up's forts, in placement order, on the referee and to both engines."""
        for color, point in forts:
            self.game.place_fort(color, point)
            self.both(f"fort {color.word} {format_vertex(point)}")

    def _set_fair_komi(self) -> None:
        """Average the estimates of the engines that give one; a refused or unreadable estimate
        is no estimate (it is optional), but a crash or a hang still forfeits."""
        estimates = []
        for label in LABELS:
            if not self.knows(label, "fair_komi"):
                continue
            try:
                answer = self.engines[label].send(
                    f"fair_komi {_komi_text(self.settings.fair_komi)}",
                    timeout=_plus(self.settings.command_timeout, self.settings.fair_komi))
                estimate = float(answer.split()[0])
                if math.isfinite(estimate):
                    estimates.append(estimate)
            except (GtpCommandError, ValueError, IndexError):
                continue
            except GtpFailure as err:
                raise self._forfeit(label, err) from err
        if not estimates:
            print(f"warning: game {self.spec.index + 1}: no engine gave a fair komi estimate; "
                  f"playing at komi {_komi_text(self.game.komi)}", file=sys.stderr, flush=True)
            return
        komi = self.game.rules.nearest_komi(sum(estimates) / len(estimates))
        self.game.set_komi(komi)
        self.both(f"komi {_komi_text(komi)}")

    def _play_opening(self) -> None:
        """``opening_moves`` random legal placements, the same for both games of a pair, played
        on the referee and sent to both engines (variety between games of deterministic engines)."""
        rng = random.Random(f"opening:{self.spec.pair_seed}")
        for _ in range(self.settings.opening_moves):
            color = self.game.to_move
            moves = self.game.legal_moves(color, skip_own_eyes=True)
            if not moves:
                break
            move = rng.choice(moves)
            self.game.play(color, move)
            self.both(f"play {color.word} {format_vertex(move)}")

    # ------------------------------------------------------------- moves
    def _read_vertex(self, label: str, answer: str, command: str):
        try:
            return parse_vertex(answer, self.settings.size)
        except EngineError:
            raise Forfeit(label, MALFORMED, f"{self._who(label)} answered {command} with {answer!r}") from None

    def _genmove(self, color: Color, cleanup: bool = False) -> Optional[str]:
        """Ask the engine to move and play it on the referee; returns None, or 'resign'.
        In a clean-up phase engines that have it get ``kgs-genmove_cleanup`` instead."""
        label = self.label_of[color]
        engine = self.engines[label]
        command = "kgs-genmove_cleanup" if cleanup and self.knows(label, "kgs-genmove_cleanup") else "genmove"
        clock = self.clocks.get(label)
        if clock is not None:
            if self.knows(label, "time_left"):
                seconds, stones = clock.time_left_args
                self.ask(label, f"time_left {color.word} {seconds} {stones}")
            timeout = clock.allowance + self.settings.time_margin
        else:
            timeout = self.settings.move_timeout
        started = time.monotonic()
        try:
            answer = engine.send(f"{command} {color.word}", timeout=timeout)
        except EngineTimeout as err:
            raise Forfeit(label, TIMEOUT, f"{self._who(label)} ran out of time "
                          f"({timeout:g} s for a move): {err}") from err
        except GtpFailure as err:
            raise self._forfeit(label, err) from err
        elapsed = time.monotonic() - started
        self.move_seconds[label].append(elapsed)
        if clock is not None:
            clock.spend(elapsed)
        if answer.strip().lower() == "resign":
            return "resign"
        move = self._read_vertex(label, answer, command)
        try:
            self.game.play(color, move)
        except IllegalMoveError as err:
            raise Forfeit(label, ILLEGAL_MOVE, f"{self._who(label)} played an illegal move: "
                          f"{format_vertex(move)} ({err.reason.value})") from err
        other = self.label_of[color.opponent]
        self.ask(other, f"play {color.word} {format_vertex(move)}")
        return None

    def play(self) -> GameOutcome:
        """Set up and play the game to its end; never raises for an engine's misbehaviour.

        When the game ends by two passes and an engine's own ``final_score`` names another
        winner than the referee (typically: dead stones left on the board, which area scoring
        counts as alive), the game goes on once in a clean-up phase (``kgs-genmove_cleanup``,
        as on KGS) until two more passes, and the referee scores the position then.
        """
        try:
            self.set_up()
            cleanup = False
            while True:
                ended = self._play_until_over(cleanup)
                if ended is not None:
                    return ended
                reason = self.game.end_reason
                scores = self._engine_scores()
                if cleanup or not self._disputed(scores) or reason != TWO_PASSES:
                    detail = reason + (" after a clean-up phase" if cleanup else "")
                    return self._scored(reason, detail, scores)
                cleanup = True
        except Forfeit as forfeit:
            return self._forfeited(forfeit)

    def _play_until_over(self, cleanup: bool) -> Optional[GameOutcome]:
        """Play turns until the game is over (None), or return a resignation or the move limit.
        A clean-up phase resumes a game that two passes ended (RULES C5)."""
        limit = self.settings.max_moves
        resuming = cleanup
        while resuming or not self.game.over:
            resuming = False
            if limit and len(self.game.moves) >= limit:
                return self._scored(MOVE_LIMIT, f"move limit of {limit} reached; scored as it stands",
                                    self._engine_scores())
            color = self.game.to_move
            if self._genmove(color, cleanup) == "resign":
                winner = color.opponent
                return self._outcome(f"{winner.letter.upper()}+R", self.label_of[winner], RESIGNATION,
                                     f"{self._who(self.label_of[color])} resigned")
        return None

    def _disputed(self, scores: Dict[str, Optional[str]]) -> bool:
        if not self.settings.cleanup:
            return False
        referee = self.game.score().result[:1]
        return any(text is not None and text[:1].upper() != referee for text in scores.values())

    # ------------------------------------------------------------- endings
    def _scored(self, reason: str, detail: str, engine_scores: Dict[str, Optional[str]]) -> GameOutcome:
        score = self.game.score()
        winner = self.label_of[score.winner] if score.winner is not None else None
        outcome = self._outcome(score.result, winner, reason, detail)
        outcome.score = (score.black, score.white)
        outcome.engine_scores = engine_scores
        if self.game.forts:
            owners = self.game.position.owner_map(self.game.rules.scoring)
            outcome.forts_lost = {label: 0 for label in LABELS}
            for color, (row, col) in self.game.forts:
                if owners[row * self.game.size + col] == color.opponent:
                    outcome.forts_lost[self.label_of[color]] += 1
        return outcome

    def _engine_scores(self) -> Dict[str, Optional[str]]:
        """Each engine's own ``final_score``, for comparison only (None when it has none)."""
        if not self.settings.engine_scores:
            return {}
        scores = {}
        for label in LABELS:
            engine = self.engines[label]
            try:
                scores[label] = engine.send("final_score", self.settings.command_timeout) \
                    if engine.known("final_score") else None
            except GtpFailure:  # the game is over: a failing engine only loses its say
                scores[label] = None
        return scores

    def _forfeited(self, forfeit: Forfeit) -> GameOutcome:
        loser = Color.BLACK if self.label_of[Color.BLACK] == forfeit.label else Color.WHITE
        winner = loser.opponent
        letter = "T" if forfeit.reason == TIMEOUT else "F"
        return self._outcome(f"{winner.letter.upper()}+{letter}", self.label_of[winner],
                             forfeit.reason, forfeit.detail)

    def _cputimes(self) -> Dict[str, Optional[float]]:
        """Each running engine's CPU seconds so far: its own ``cputime`` where it has one, else
        what ``/proc`` says its processes used (None when neither can say)."""
        times = {}
        for label in LABELS:
            engine = self.engines[label]
            times[label] = None
            try:
                if engine.alive and engine.known("cputime"):
                    times[label] = float(engine.send("cputime", self.settings.command_timeout))
                elif engine.alive:
                    times[label] = engine.session_cpu_seconds()
            except (GtpFailure, ValueError):
                pass
        return times

    def _cpu_used(self) -> Dict[str, Optional[float]]:
        """CPU seconds each engine used in this game (see ``_cputimes``)."""
        start = self.cpu_at_start
        if start is None:
            return {label: None for label in LABELS}
        end = self._cputimes()
        return {label: round(end[label] - start[label], 3)
                if end[label] is not None and start[label] is not None else None for label in LABELS}

    def _outcome(self, result: str, winner: Optional[str], reason: str, detail: str) -> GameOutcome:
        game = self.game
        faulty = tuple(label for label in LABELS if not self.engines[label].alive)
        outcome = GameOutcome(game, result, winner, reason, detail, self.move_seconds, faulty=faulty)
        outcome.cpu_seconds = self._cpu_used()
        if game is not None:
            outcome.komi = game.komi
            if game.terrain is not None:
                outcome.terrain = game.terrain.to_text()
                outcome.forts = tuple(f"{c.letter} {format_vertex(p)}" for c, p in game.forts)
        return outcome


def _fort_options(terrain: TerrainMap) -> str:
    """``terrain_load``'s words for a fort count or value other than the size's defaults."""
    defaults = TerrainParams.for_size(terrain.size)
    words = [f" forts={terrain.forts_per_side}"] if terrain.forts_per_side != defaults.forts else []
    words += [f" fort_value={terrain.fort_value}"] if terrain.fort_value != defaults.fort_value else []
    return "".join(words)


def _plus(timeout: Optional[float], seconds: float) -> Optional[float]:
    """A deadline ``seconds`` longer (None, no deadline, stays None)."""
    return None if timeout is None else timeout + seconds


def _komi_text(komi: float) -> str:
    return f"{komi:g}"


def forfeit_before_start(spec: GameSpec, label: str, detail: str) -> GameOutcome:
    """The outcome of a game that ``label`` loses because its engine could not be started."""
    winner = "B" if label == "A" else "A"
    winner_color = "B" if spec.black == winner else "W"
    return GameOutcome(None, f"{winner_color}+F", winner, START_FAILED, detail, faulty=(label,))
