"""Engine-against-engine matches, refereed by our rules core, in parallel, resumable.

    vargo-match "ENGINE A CMD" "ENGINE B CMD" --variant go --size 9 --games 20 --out DIR

Engines are GTP programs given as command lines (shell quoting, no shell). Games are numbered
from 1 (files, progress); A takes Black in games 1, 3, 5... and White in the others. Games 1
and 2, 3 and 4... are a pair with colours swapped that share a map (games with one) and an
opening (``--opening-moves``), both from the match seed. How one game is set up, played and
ended is ``gtp_engine.match.referee``'s business.

Fixed playouts or other engine settings belong to the engine's command line (``python -m
gtp_engine --playouts 200``); ``{seed}`` and ``{game}`` in a command are replaced by a seed of
its own for every game and engine, and the game number, and such an engine is started afresh
for every game. Otherwise each engine process plays game after game, and is restarted only
after it failed; an engine that has ``set_random_seed`` (ours, GNU Go) gets that seed before
each game instead. So no two games of a match replay one game, even between equal engines.

``--sprt ELO0,ELO1`` (with ``--alpha``, ``--beta``) plays until a sequential probability ratio
test (``stats.Sprt``) decides whether A is ELO0 or ELO1 Elo better than B, at most ``--games``;
``--sprt-pairs`` weighs the colour-swapped pairs of games instead of games taken as independent.

``DIR`` receives ``game-NNNN.sgf`` per game (result and the reason it ended in ``RE`` and the
last comment), ``logs/`` (the GTP traffic of each game and each engine's stderr) and
``results.json``, rewritten atomically after every game. Running the same command again with
the same ``DIR`` resumes: finished games are kept and only missing ones are played (``--games``
may grow); any other changed setting is refused.

Progress and a live score go to stderr; the summary to stdout, also when the match is
interrupted (Ctrl-C, SIGTERM: the summary of the games it finished, with the test's LLR so far).
Exit status: 0 when the match completed, 1 when interrupted, 2 for bad settings (nothing
played) or an output folder that cannot be written (a full disk: the games stored so far are
kept, and the same command resumes once there is room).
"""

import argparse
import datetime
import hashlib
import json
import math
import os
import queue
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, IO, List, Optional, Sequence, Tuple

from sgf import game_to_sgf

from ..errors import EngineError
from ..files import write_atomically
from ..rules import Rules, find_rules
from .gtp_client import (DEFAULT_COMMAND_TIMEOUT, EngineDied, GtpCommandError, GtpEngine, GtpFailure,
                         split_command)
from .referee import (LABELS, GameOutcome, GameSettings, GameSpec, Referee, TimeControl,
                      forfeit_before_start)
from .stats import CONTINUE, Sprt, format_summary, summarize

RESULTS_FORMAT = "vargo-match 1"
RESULTS_FILE = "results.json"


class MatchError(Exception):
    """A match that cannot be run as asked (bad settings, an engine that cannot play it)."""


class EngineStartError(Exception):
    """An engine that could not be started (or greeted) for a game; ``label`` says which."""

    def __init__(self, label: str, message: str):
        self.label = label
        super().__init__(message)


# --------------------------------------------------------------------------- configuration
@dataclass(frozen=True)
class MatchConfig:
    """Everything that defines a match. ``commands`` are A's and B's command lines."""

    commands: Tuple[str, str]
    settings: GameSettings
    games: int
    out: Path
    jobs: int = 1
    seed: int = 1
    cluster: Optional[str] = None   #: Dask scheduler address or ``local:N`` (``match.cluster``)
    sprt: Optional[Sprt] = None     #: stop before ``games`` once this test has decided

    def identity(self) -> dict:
        """The settings a resumed match must share with the stored one (not games or jobs)."""
        s = self.settings
        tc = s.time_control
        return {
            "engines": {"A": self.commands[0], "B": self.commands[1]},
            "variant": s.variant, "size": s.size, "komi": s.komi,
            "time_control": None if tc is None else {"main": tc.main, "byoyomi": tc.byoyomi, "stones": tc.stones},
            "move_timeout": s.move_timeout, "time_margin": s.time_margin, "max_moves": s.max_moves,
            "fair_komi": s.fair_komi, "cleanup": s.cleanup and s.engine_scores,
            "opening_moves": s.opening_moves, "seed": self.seed,
            "setup": None if s.setup_sgf is None else hashlib.sha256(s.setup_sgf.encode()).hexdigest(),
            **({"map_options": list(s.map_options)} if s.map_options else {}),
            **({"handicap": s.handicap} if s.handicap else {}),
        }

    def spec(self, index: int) -> GameSpec:
        return GameSpec(index, "A" if index % 2 == 0 else "B", derive_seed(self.seed, "pair", index // 2),
                        {label: engine_seed(self, index, label) for label in LABELS})


def derive_seed(seed: int, purpose: str, number: int) -> int:
    """A seed for one game (or pair of games) from the match seed, the same on every machine."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{number}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def engine_seed(config: MatchConfig, index: int, label: str) -> int:
    """The seed of ``label``'s engine in game ``index``: another for every game and engine, so
    that the two games of a pair (or two equal engines) do not replay one game."""
    return derive_seed(config.seed, f"engine {label}", index)


def expand_command(command: str, config: MatchConfig, index: int, label: str) -> str:
    """``command`` with ``{seed}`` and ``{game}`` replaced for ``label``'s engine in game ``index``."""
    return (command.replace("{seed}", str(engine_seed(config, index, label)))
            .replace("{game}", str(index)))


def per_game_command(command: str) -> bool:
    return "{seed}" in command or "{game}" in command


# --------------------------------------------------------------------------- engines
@dataclass
class Seat:
    """A pair of engine processes that plays one game at a time, restarted when they fail."""

    config: MatchConfig
    number: int
    engines: Dict[str, Optional[GtpEngine]] = field(default_factory=lambda: {"A": None, "B": None})
    names: Dict[str, str] = field(default_factory=dict)
    killed: bool = False  # the match is stopping: start nothing more

    def start(self, label: str, index: int) -> GtpEngine:
        """Start ``label``'s engine for game ``index`` and greet it; GtpFailure when it cannot play."""
        if self.killed:
            raise EngineDied(f"{label}: the match is stopping")
        command = self.config.commands[LABELS.index(label)]
        logs = self.config.out / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        with open(logs / f"{label}-seat{self.number}.stderr", "ab") as stderr:
            engine = GtpEngine(expand_command(command, self.config, index, label), label, stderr=stderr)
        try:
            timeout = self.config.settings.command_timeout
            try:
                engine.send("protocol_version", timeout)
            except GtpCommandError:
                pass
            name = engine.send("name", timeout) if engine.known("name") else split_command(command)[0]
            version = engine.send("version", timeout) if engine.known("version") else ""
        except GtpFailure:
            engine.kill()
            raise
        self.names[label] = f"{name} {version}".strip()
        self.engines[label] = engine
        return engine

    def ready(self, index: int, transcript: Optional[IO]) -> Dict[str, GtpEngine]:
        """Both engines running for game ``index`` (restarting the dead and the per-game ones)."""
        for label in LABELS:
            engine = self.engines[label]
            command = self.config.commands[LABELS.index(label)]
            if engine is not None and (not engine.alive or per_game_command(command)):
                engine.close(timeout=2.0)
                engine = self.engines[label] = None
            if engine is None:
                try:
                    self.start(label, index)
                except GtpFailure as err:
                    raise EngineStartError(label, f"engine {label} failed to start: {err}") from err
            self.engines[label].transcript = transcript
        return self.engines

    def retire(self, labels: Sequence[str]) -> None:
        for label in labels:
            if self.engines[label] is not None:
                self.engines[label].kill()
                self.engines[label] = None

    def close(self) -> None:
        for label in LABELS:
            if self.engines[label] is not None:
                self.engines[label].close(timeout=2.0)
                self.engines[label] = None

    def kill(self) -> None:
        self.killed = True
        self.retire(LABELS)


def preflight(config: MatchConfig, seat: Seat) -> None:
    """Start both engines once and check that they can play the match; MatchError if not."""
    s = config.settings
    rules = find_rules(s.variant)
    for label in LABELS:
        try:
            engine = seat.start(label, 0)
            if engine.known("variant"):
                if engine.known("list_variants"):
                    offered = engine.send("list_variants", s.command_timeout).split()
                    if rules.name not in offered:
                        raise MatchError(f"engine {label} does not play {rules.name} (it offers {' '.join(offered)})")
                engine.send(f"variant {rules.name}", s.command_timeout)
            elif rules.name != Rules.name:  # the base rules are standard Go, all a plain GTP engine plays
                raise MatchError(f"engine {label} has no 'variant' command, so it can only play go, not {rules.name}")
            if rules.has_terrain:
                missing = [c for c in ("terrain_load", "genfort", "fort") if not engine.known(c)]
                if missing:
                    raise MatchError(f"engine {label} lacks {', '.join(missing)}, needed for {rules.name}")
            engine.send(f"boardsize {s.size}", s.command_timeout)
            engine.send(f"komi {s.komi:g}", s.command_timeout)
            if s.time_control is not None and not engine.known("time_settings"):
                print(f"warning: engine {label} has no time_settings; its clock is still enforced",
                      file=sys.stderr)
        except GtpCommandError as err:
            raise MatchError(f"engine {label} cannot play this match: {err}") from err
        except GtpFailure as err:
            raise MatchError(f"engine {label} ({config.commands[LABELS.index(label)]}) failed to start: {err}") from err


# --------------------------------------------------------------------------- results
class MatchStore:
    """``results.json`` of a match directory: loads a stopped match, adds games, rewrites it."""

    def __init__(self, config: MatchConfig):
        self.config = config
        self.path = config.out / RESULTS_FILE
        self.records: Dict[int, dict] = {}
        self.engines: Dict[str, dict] = {label: {"command": config.commands[i]} for i, label in enumerate(LABELS)}
        self.lock = threading.Lock()
        if self.path.exists():
            self._load()

    def _load(self) -> None:
        try:
            stored = json.loads(self.path.read_text())
        except (OSError, ValueError) as err:
            raise MatchError(f"cannot read {self.path}: {err}") from err
        if stored.get("format") != RESULTS_FORMAT:
            raise MatchError(f"{self.path} is not a results file of this match runner")
        mine = self.config.identity()
        theirs = stored.get("settings", {})
        changed = sorted(key for key in set(mine) | set(theirs) if mine.get(key) != theirs.get(key))
        if changed:
            details = "; ".join(f"{k}: stored {theirs.get(k)!r}, now {mine.get(k)!r}" for k in changed)
            raise MatchError(f"{self.config.out} holds a match with other settings ({details}); "
                             f"use another --out or the same settings")
        self.records = {r["index"]: r for r in stored.get("games", [])}
        self.engines.update(stored.get("engines", {}))

    def pending(self) -> List[int]:
        return [i for i in range(self.config.games) if i not in self.records]

    def decided(self) -> bool:
        """Whether the match's SPRT (if any) has reached a verdict: no more games are needed."""
        return self.config.sprt is not None and self.config.sprt.report(
            [self.records[i] for i in sorted(self.records)])["verdict"] != CONTINUE

    def add(self, record: dict, names: Dict[str, str]) -> None:
        with self.lock:
            self.records[record["index"]] = record
            for label, name in names.items():
                self.engines[label].setdefault("name", name)
            self.save()

    def document(self) -> dict:
        games = [self.records[i] for i in sorted(self.records)]
        summary = summarize(games)
        if self.config.sprt is not None:
            summary["sprt"] = self.config.sprt.report(games)
        return {
            "format": RESULTS_FORMAT,
            "settings": self.config.identity(),
            "engines": self.engines,
            "games_requested": max(self.config.games, len(games)),
            "games": games,
            "games_played": summary["games"],
            "wins": summary["wins"],
            "draws": summary["draws"],
            "summary": summary,
        }

    def save(self) -> None:
        self.config.out.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, (json.dumps(self.document(), indent=1) + "\n").encode())


def game_record(config: MatchConfig, spec: GameSpec, outcome: GameOutcome, sgf_name: Optional[str],
                started: float) -> dict:
    """The stored record of one game (see results.json in docs/MATCHES.md)."""
    return {
        "index": spec.index,
        "black": spec.black,
        "white": spec.white,
        "result": outcome.result,
        "winner": outcome.winner,
        "reason": outcome.reason,
        "detail": outcome.detail,
        "moves": outcome.moves,
        "komi": outcome.komi,
        "score": list(outcome.score) if outcome.score is not None else None,
        "map": outcome.terrain,
        "forts": list(outcome.forts),
        "forts_lost": outcome.forts_lost,
        "seconds": {label: round(sum(outcome.move_seconds[label]), 3) for label in LABELS},
        "genmoves": {label: len(outcome.move_seconds[label]) for label in LABELS},
        "cpu_seconds": outcome.cpu_seconds,
        "engine_scores": outcome.engine_scores,
        "sgf": sgf_name,
        "duration": round(time.time() - started, 3),
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def write_sgf(config: MatchConfig, spec: GameSpec, outcome: GameOutcome, names: Dict[str, str]) -> Optional[str]:
    """Write the game's SGF file; returns its name, or None when there is no game to write."""
    if outcome.game is None:
        return None
    data = game_to_sgf(outcome.game,
                       black_name=f"{names.get(spec.black, spec.black)} ({spec.black})",
                       white_name=f"{names.get(spec.white, spec.white)} ({spec.white})",
                       date=datetime.date.today().isoformat(),
                       result=outcome.result, end_reason=outcome.detail)
    name = f"game-{spec.index + 1:04d}.sgf"
    write_atomically(config.out / name, data)
    return name


# --------------------------------------------------------------------------- running
class Progress:
    """A progress line with the live score on a stream: redrawn in place on a terminal, one
    line per finished game otherwise."""

    def __init__(self, stream: Optional[IO], total: int, done: int):
        self.stream = stream
        self.total, self.done, self.done_before = total, done, done
        self.started = time.monotonic()
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())

    def update(self, record: dict, summary: dict) -> None:
        self.done += 1
        if self.stream is None:
            return
        score = (f"A {summary['wins']['A']} - B {summary['wins']['B']}"
                 + (f" - draws {summary['draws']}" if summary["draws"] else ""))
        game = (f"game {record['index'] + 1}: {record['black']} black, {record['result']} "
                f"({record['reason']}, {record['moves']} moves)")
        if self.tty:
            width = 20
            filled = width * self.done // max(1, self.total)
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r\x1b[K[{bar}] {self.done}/{self.total} {score} | {game} "
                              f"{self._eta()}")
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"[{self.done}/{self.total}] {game} | {score}\n")
        self.stream.flush()

    def _eta(self) -> str:
        elapsed = time.monotonic() - self.started
        played = self.done - self.done_before
        left = elapsed / played * (self.total - self.done) if played else 0.0
        return f"{elapsed:.0f}s, eta {left:.0f}s"


def play_one(config: MatchConfig, seat: Seat, index: int,
             stopping: threading.Event) -> Optional[Tuple[dict, Dict[str, str]]]:
    """Play game ``index`` on ``seat``; returns its record and the engines' names, or None when
    the match was stopped meanwhile (the game, cut short, is not recorded)."""
    spec = config.spec(index)
    started = time.time()
    logs = config.out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with open(logs / f"game-{index + 1:04d}.gtp.log", "w") as transcript:
        try:
            seat.ready(index, transcript)
        except EngineStartError as err:
            outcome = forfeit_before_start(spec, err.label, str(err))
        else:
            outcome = Referee(config.settings, spec, seat.engines).play()
        seat.retire(outcome.faulty)
        for label in LABELS:
            if seat.engines[label] is not None:
                seat.engines[label].transcript = None
    if stopping.is_set():
        return None
    names = dict(seat.names)
    try:
        sgf_name = write_sgf(config, spec, outcome, names)
    except OSError:  # a full or failing disk: stop, and replay this game on resume (nothing lost)
        raise
    except Exception as err:  # a game the writer cannot record must not stop the match
        print(f"warning: game {index + 1}: no sgf written: {err}", file=sys.stderr)
        sgf_name = None
    return game_record(config, spec, outcome, sgf_name, started), names


def run_match(config: MatchConfig, progress: Optional[IO] = sys.stderr) -> dict:
    """Play the match's missing games and return the results document (also in results.json).

    Raises MatchError for settings that cannot be played; KeyboardInterrupt leaves the finished
    games stored, kills the engines and propagates.
    """
    store = MatchStore(config)
    pending = store.pending()
    config.out.mkdir(parents=True, exist_ok=True)
    if not pending or store.decided():
        store.save()
        return store.document()
    if config.cluster is not None:
        return _run_on_cluster(config, store, pending, progress)
    jobs = max(1, min(config.jobs, len(pending)))
    seats = [Seat(config, number) for number in range(jobs)]
    try:
        preflight(config, seats[0])
    except MatchError:
        seats[0].kill()
        raise
    free: "queue.Queue[Seat]" = queue.Queue()
    for seat in seats:
        free.put(seat)
    stopping = threading.Event()

    def task(index: int):
        seat = free.get()
        try:
            return play_one(config, seat, index, stopping)
        finally:
            free.put(seat)

    bar = Progress(progress, config.games, config.games - len(pending))
    executor = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="game")
    try:
        futures = [executor.submit(task, index) for index in pending]
        for future in as_completed(futures):
            if future.cancelled():
                continue
            finished = future.result()
            if finished is None:
                continue
            record, names = finished
            store.add(record, names)
            bar.update(record, store.document()["summary"])
            if store.decided():  # games under way finish and count; the others are not played
                for other in futures:
                    other.cancel()
    except BaseException:
        stopping.set()
        executor.shutdown(wait=False, cancel_futures=True)
        for seat in seats:
            seat.kill()
        raise
    executor.shutdown(wait=True)
    for seat in seats:
        seat.close()
    return store.document()


def _run_on_cluster(config: MatchConfig, store: "MatchStore", pending: List[int],
                    progress: Optional[IO]) -> dict:
    """``run_match`` on a Dask cluster (``match.cluster``): the preflight here, each game a task
    on a worker, the files and results.json written here as games come back."""
    from . import cluster
    seat = Seat(config, 0)
    try:
        preflight(config, seat)
    finally:
        seat.kill()
    bar = Progress(progress, config.games, config.games - len(pending))

    def finished(record: dict, names: Dict[str, str]) -> bool:
        store.add(record, names)
        bar.update(record, store.document()["summary"])
        return store.decided()

    try:
        cluster.play_on_cluster(config, pending, finished, Seat, play_one)
    except cluster.ClusterUnavailable as err:
        raise MatchError(str(err)) from err
    return store.document()


# --------------------------------------------------------------------------- command line
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vargo-match", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play a match between two GTP engines, refereed by vargo's rules core.",
        epilog="examples:\n"
               "  vargo-match 'python -m gtp_engine --playouts 200' '/usr/games/gnugo --mode gtp --level 1 "
               "--chinese-rules' --size 9 --games 20 --out runs/vs-gnugo\n"
               "  vargo-match 'python -m gtp_engine --playouts 400 --seed {seed}' "
               "'python -m gtp_engine --playouts 100 --seed {seed}' --variant terrain --size 9 --out runs/t\n"
               "Engine settings such as fixed playouts go into the engine's command line. {seed} and\n"
               "{game} in a command are replaced per game (the engine is then restarted every game).\n"
               "  vargo-match 'python -m gtp_engine --playouts 500 --seed {seed}' "
               "'env PYTHONPATH=../main python -P -m gtp_engine --playouts 500 --seed {seed}' \\\n"
               "    --games 400 --sprt 0,30 --out runs/sprt   (stops once the test decides; -P keeps\n"
               "    python from putting the current directory, maybe another checkout, first on the path)")
    parser.add_argument("engine_a", help="command line of engine A (Black in games 1, 3, 5...)")
    parser.add_argument("engine_b", help="command line of engine B")
    parser.add_argument("--variant", help="go, loose, goncrete, disto or terrain (default go, or the set-up's)")
    parser.add_argument("--size", type=int, help="board size (default 9, or the set-up's)")
    parser.add_argument("--komi", type=float, help="komi (default: the set-up's, else the game's default komi)")
    parser.add_argument("--setup", type=Path, metavar="FILE.sgf",
                        help="start every game from this SGF set-up: rules, size, map, forts and komi "
                             "(scripts/terrain_setup.py writes one); its moves are not played")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="games played at once (default: number of cores)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="play the games on a Dask cluster: a scheduler address (tcp://HOST:8786) or "
                             "local:N for N worker processes here (pip install '.[cluster]'); default: "
                             "this machine, --jobs games at once")
    parser.add_argument("--out", type=Path, required=True, help="directory for SGF files, logs and results.json")
    parser.add_argument("--seed", type=int, default=1, help="match seed: maps and {seed} (default 1)")
    clock = parser.add_argument_group("time", "without a time control, a genmove may take up to --move-timeout")
    clock.add_argument("--time-per-move", type=float, metavar="SECONDS",
                       help="SECONDS per move (sent as time_settings 0 SECONDS 1; times are whole "
                            "seconds, rounded up)")
    clock.add_argument("--main-time", type=float, metavar="SECONDS", help="main time per player")
    clock.add_argument("--byoyomi", type=float, default=0.0, metavar="SECONDS",
                       help="Canadian byo-yomi period after main time (default none)")
    clock.add_argument("--byoyomi-stones", type=int, default=1, metavar="N",
                       help="moves per byo-yomi period (default 1)")
    clock.add_argument("--time-margin", type=float, default=2.0, metavar="SECONDS",
                       help="grace over the clock before a move counts as a hang (default 2)")
    clock.add_argument("--move-timeout", type=float, default=120.0, metavar="SECONDS",
                       help="longest genmove without a time control; 0 waits for ever (default 120)")
    clock.add_argument("--command-timeout", type=float, default=DEFAULT_COMMAND_TIMEOUT, metavar="SECONDS",
                       help=f"longest answer to any other command; 0 waits for ever "
                            f"(default {DEFAULT_COMMAND_TIMEOUT:g})")
    parser.add_argument("--max-moves", type=int, metavar="N",
                        help="stop a game after N turns and score it as it stands (default 4*size*size)")
    parser.add_argument("--fair-komi", type=float, metavar="SECONDS",
                        help="before each game ask engines with fair_komi (SECONDS each) and use the average")
    parser.add_argument("--opening-moves", type=int, default=0, metavar="N",
                        help="open every game with N random legal moves, the same in games 1 and 2, 3 and 4... "
                             "(variety for deterministic engines; default 0)")
    parser.add_argument("--handicap", type=int, default=0, metavar="N",
                        help="N handicap stones for Black on the standard points (GTP fixed_handicap, "
                             "sent to both engines); White moves first (default none)")
    parser.add_argument("--no-engine-scores", action="store_true",
                        help="do not ask the engines for their final_score (and so never clean up)")
    parser.add_argument("--no-cleanup", action="store_true",
                        help="score two passes at once, even when an engine's final_score disputes the "
                             "result (default: one clean-up phase with kgs-genmove_cleanup, as on KGS)")
    parser.add_argument("--map-option", action="append", default=[], metavar="KEY=VALUE",
                        help="Terrain Go: a setting of every random map, as terrain_generate takes it "
                             "(mountains, water, groups=MIN-MAX, min_group, forts, fort_value); repeatable")
    test = parser.add_argument_group("sequential test", "stop as soon as a sequential probability ratio "
                                     "test decides between two Elo differences of A over B (--games "
                                     "is then the most games played)")
    test.add_argument("--sprt", metavar="ELO0,ELO1",
                      help="H0: A-B is ELO0 Elo, H1: A-B is ELO1 Elo (ELO0 < ELO1), e.g. 0,30")
    test.add_argument("--alpha", type=float, default=0.05, help="chance of accepting H1 when H0 holds (default 0.05)")
    test.add_argument("--beta", type=float, default=0.05, help="chance of accepting H0 when H1 holds (default 0.05)")
    test.add_argument("--sprt-pairs", action="store_true",
                      help="weigh the colour-swapped pairs of games, not games as if independent "
                           "(decides sooner when the pairs often split; stats.Sprt.pair_llr)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def config_from_args(args: argparse.Namespace) -> MatchConfig:
    """Validate the command line into a MatchConfig; MatchError with a clear message if wrong."""
    setup_sgf, template = read_setup(args.setup) if args.setup is not None else (None, None)
    variant = args.variant if args.variant is not None else \
        template.rules.name if template is not None else "go"
    size = args.size if args.size is not None else template.size if template is not None else 9
    try:
        rules = find_rules(variant)
        rules.check_size(size)
        komi = args.komi if args.komi is not None else \
            template.komi if template is not None else rules.default_komi_for(size)
        rules.check_komi(komi)
    except EngineError as err:
        raise MatchError(str(err)) from err
    if args.map_option:
        if not rules.has_terrain or template is not None:
            raise MatchError("--map-option sets Terrain Go's random maps (not a --setup file's map)")
        from ..rules.terrain_map import TerrainParams
        try:
            TerrainParams.parse_options(size, args.map_option).check(size)
        except EngineError as err:
            raise MatchError(f"--map-option: {err}") from err
    if template is not None and (template.rules is not rules or template.size != size):
        raise MatchError(f"--setup {args.setup} is {template.rules.name} on {template.size}x{template.size}, "
                         f"not {rules.name} on {size}x{size}")
    for name in ("games", "jobs"):
        if getattr(args, name) < 1:
            raise MatchError(f"--{name} must be at least 1")
    if args.opening_moves < 0:
        raise MatchError("--opening-moves must not be negative")
    if args.handicap:
        from ..gtp.handicap import max_fixed_handicap
        top = max_fixed_handicap(size)
        if not rules.allows_handicap or top == 0:
            raise MatchError(f"--handicap: {rules.name} on {size}x{size} has no fixed handicap")
        if not 2 <= args.handicap <= top:
            raise MatchError(f"--handicap must be from 2 to {top} on {size}x{size}, not {args.handicap}")
    if args.time_per_move is not None and args.main_time is not None:
        raise MatchError("give --time-per-move or --main-time, not both")
    try:
        if args.time_per_move is not None:
            control = TimeControl.per_move(args.time_per_move)
        elif args.main_time is not None or args.byoyomi:
            control = TimeControl(args.main_time or 0.0, args.byoyomi,
                                  args.byoyomi_stones if args.byoyomi else 0)
        else:
            control = None
    except ValueError as err:
        raise MatchError(str(err)) from err
    for command in (args.engine_a, args.engine_b):
        try:
            split_command(command)
        except ValueError as err:
            raise MatchError(f"bad engine command {command!r}: {err}") from err
    if args.cluster is not None:
        from . import cluster
        try:
            cluster.require_distributed()
        except cluster.ClusterUnavailable as err:
            raise MatchError(str(err)) from err
    max_moves = 4 * size * size if args.max_moves is None else args.max_moves
    settings = GameSettings(
        variant=rules.name, size=size, komi=float(komi), time_control=control,
        move_timeout=args.move_timeout or None, time_margin=args.time_margin,
        command_timeout=args.command_timeout or None, max_moves=max_moves, fair_komi=args.fair_komi,
        engine_scores=not args.no_engine_scores, cleanup=not args.no_cleanup,
        opening_moves=args.opening_moves, handicap=args.handicap, setup_sgf=setup_sgf, map_options=tuple(args.map_option))
    return MatchConfig((args.engine_a, args.engine_b), settings, args.games, args.out, args.jobs, args.seed,
                       args.cluster, parse_sprt(args.sprt, args.alpha, args.beta, args.sprt_pairs))


def parse_sprt(text: Optional[str], alpha: float, beta: float, pairs: bool = False) -> Optional[Sprt]:
    """``--sprt ELO0,ELO1`` with its error rates (and ``--sprt-pairs``) as a Sprt (None
    without); MatchError if bad."""
    if text is None:
        if pairs:
            raise MatchError("--sprt-pairs needs --sprt ELO0,ELO1")
        return None
    try:
        elo0, elo1 = (float(part) for part in text.split(","))
    except ValueError:
        raise MatchError(f"--sprt {text!r}: give two Elo differences, as in 0,30") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise MatchError(f"--sprt {text!r}: the Elo differences must be finite")
    try:
        return Sprt(elo0, elo1, alpha, beta, pairs)
    except ValueError as err:
        raise MatchError(f"--sprt: {err}") from None


def read_setup(path: Path):
    """(SGF text, its game before the first move) of a ``--setup`` file; MatchError when it
    cannot be read, is not one of our games, or holds set-up stones (only the map, the forts and
    komi are carried to the engines)."""
    from sgf import SgfError, game_from_sgf, read_file
    try:
        data = read_file(path)  # bounded, regular files only: /dev/zero or a fifo is a quick error
        game = game_from_sgf(data, 1)
        text = data.decode("utf-8")
    except (UnicodeDecodeError, SgfError) as err:
        raise MatchError(f"--setup {path}: {err}") from err
    if game.setup:
        raise MatchError(f"--setup {path}: set-up stones (AB/AW) are not supported, only map, forts and komi")
    return text, game


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    in_main_thread = threading.current_thread() is threading.main_thread()
    if in_main_thread:  # a kill stops as cleanly as Ctrl-C: engines ended, finished games kept
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _run(args)
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    config = None
    try:
        config = config_from_args(args)
        results = run_match(config, progress=None if args.quiet else sys.stderr)
    except MatchError as err:
        print(f"vargo-match: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # a full disk, a folder that cannot be written: the stored games stand
        where = config.out if config is not None else err.filename
        print(f"vargo-match: cannot write to {where}: {(err.strerror or str(err)).lower()}; the games "
              f"finished before are kept, run the same command again to resume", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nvargo-match: interrupted; finished games are kept, run again to resume", file=sys.stderr)
        if config is not None:
            _print_stored(config.out / RESULTS_FILE)
        return 1
    _print_summary(results)
    print(f"results: {config.out / RESULTS_FILE}")
    return 0


def _print_summary(results: dict) -> None:
    names = {label: results["engines"][label].get("name") or results["engines"][label]["command"]
             for label in LABELS}
    print(format_summary(results["summary"], names))


def _print_stored(path: Path) -> None:
    """The summary of the games a stopped match finished (a stopped test is read like a
    finished one), when it finished any."""
    try:
        results = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if results.get("format") == RESULTS_FORMAT and results.get("games_played"):
        _print_summary(results)
        print(f"results: {path}")


if __name__ == "__main__":
    sys.exit(main())
