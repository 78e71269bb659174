"""The browser board's GTP controller: one engine process, the game as the server keeps it, and
the views the page draws, every one of them read from the engine (the page computes no rules).

``GameController`` talks to the engine through the match runner's GTP client
(``gtp_engine.match.gtp_client.GtpEngine``). It keeps what a new engine process needs to rebuild
the game (``Setup`` and the moves), so that a dead engine is replaced without losing the game:
``restart`` starts the same command line again and replays everything.

Which commands it uses, each only when the engine lists it (so GNU Go plays Go here too):
``gogui-rules_board`` (else GNU Go's ``list_stones``), ``gogui-rules_board_gfx`` (mountains,
water, forts, meals), ``gogui-rules_legal_moves`` (else ``all_legal``; its refusal while forts
are pending is how the fort phase shows), ``gogui-rules_side_to_move``, ``last_move_info``,
``forts``, ``terrain_show``, ``get_komi``, ``final_score``, ``gogui-rules_final_result``,
``kata-analyze``, ``printsgf`` and ``loadsgf``.

Not thread-safe: the server calls it from one worker thread at a time (``server.BoardServer``
holds a lock around every call).
"""

import os
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, List, Optional, Tuple

from ..coords import COLUMNS, format_vertex, parse_vertex
from ..files import write_atomically
from ..match.gtp_client import (DEFAULT_COMMAND_TIMEOUT, EngineDied, EngineTimeout, GtpCommandError,
                                GtpEngine, GtpFailure, MalformedResponse)
from .tree import MoveTree, tree_of_sgf_nodes

HUMAN, ENGINE = "human", "engine"
COLORS = ("b", "w")
COLOR_WORDS = {"b": "black", "w": "white"}
VARIANTS = ("go", "loose", "goncrete", "disto", "terrain")
#: Seconds a genmove may take before the engine is taken for hung (with a clock: its time left).
GENMOVE_TIMEOUT = 600.0
#: seconds the engine's ``fair_komi`` gets for a Terrain Go map when the form asks for it
FAIR_KOMI_SECONDS = 10.0
#: A result SGF's RE takes (``B+3.5``, ``W+R``, ``0``).
RESULT = re.compile(r"^(0|[BW]\+(\d+(\.\d+)?|R|T|F))$")
#: Centiseconds between two analysis reports.
ANALYSIS_INTERVAL_CS = 30


class ControllerError(Exception):
    """What the page asked cannot be done now; the message says why (nothing changed)."""


class EngineGone(ControllerError):
    """The engine has died or stopped answering; ``restart`` brings it back with the game."""


def other(color: str) -> str:
    return "w" if color == "b" else "b"


@dataclass
class Clock:
    """Each side's main time, then ``byo_yomi`` seconds for every move (0: none); the clock of
    the side to move runs from ``since`` (monotonic seconds)."""

    main: float
    byo_yomi: float
    left: Dict[str, float] = field(default_factory=dict)
    in_byo_yomi: Dict[str, bool] = field(default_factory=dict)
    running: Optional[str] = None
    since: float = 0.0

    def __post_init__(self):
        for color in COLORS:
            self.left.setdefault(color, self.main if self.main > 0 else self.byo_yomi)
            self.in_byo_yomi.setdefault(color, self.main <= 0)

    def start(self, color: Optional[str]) -> None:
        self.running, self.since = color, time.monotonic()

    def remaining(self, color: str) -> float:
        used = time.monotonic() - self.since if self.running == color else 0.0
        return self.left[color] - used

    def expired(self, color: str) -> bool:
        """Whether ``color`` has run out of time (main time and, if any, its byo-yomi period)."""
        left = self.remaining(color)
        if left > 0:
            return False
        return self.in_byo_yomi[color] or self.byo_yomi <= 0 or left + self.byo_yomi <= 0

    def charge(self, color: str) -> None:
        """``color`` has moved: take the time it used; byo-yomi begins again for its next move."""
        left = self.remaining(color)
        if self.in_byo_yomi[color] or left <= 0:
            self.in_byo_yomi[color] = self.byo_yomi > 0
            left = self.byo_yomi if self.byo_yomi > 0 else 0.0
        self.left[color] = left
        self.running = None

    def view(self) -> dict:
        return {"running": self.running,
                "left": {c: round(max(self.remaining(c), 0.0), 2) for c in COLORS},
                "byo_yomi": {c: self.in_byo_yomi[c] for c in COLORS},
                "period": self.byo_yomi}


@dataclass
class Setup:
    """How the game began, as a new engine process needs it before the moves: the rules
    (``variant`` None for an engine without variants), size and komi; for Terrain Go the map
    and forts as ``terrain_show`` wrote them; for a game opened from a file, its bytes and its
    main line (``loadsgf`` replays as much of it as the moves on the board share)."""

    variant: Optional[str]
    size: int
    komi: float
    terrain: Optional[str] = None
    sgf: Optional[bytes] = None
    sgf_line: Tuple[Tuple[str, str], ...] = ()   #: the file's main line
    main_time: float = 0.0
    byo_yomi: float = 0.0


@dataclass(frozen=True)
class NewGame:
    """The new-game form. ``komi`` None: the engine's default; ``terrain_seed`` None: a seed the
    engine picks; ``forts``: ``hand`` (each human places its own, the engine the engine's) or
    ``search`` (the engine places them all); ``fair_komi`` (Terrain Go): once the forts are
    placed, the komi becomes the engine's estimate for this map and these forts (``fair_komi``,
    RULES T9), in place of ``komi``. Times in seconds (0: no clock)."""

    variant: str = "go"
    size: int = 9
    komi: Optional[float] = None
    terrain_seed: Optional[int] = None
    forts: str = "hand"
    fair_komi: bool = False
    black: str = HUMAN
    white: str = ENGINE
    main_time: float = 0.0
    byo_yomi: float = 0.0


def parse_analysis(line: str, size: int, color: str) -> dict:
    """One ``kata-analyze`` line as the page shows it, every value from Black's side: the moves
    (``move``, ``visits``, ``winrate``, ``lead``, ``pv``) in the engine's order, the best move's
    win rate, and the ownership top row first (1: Black's point), when the line has it."""
    words = line.split()
    sign = 1.0 if color == "b" else -1.0
    moves, ownership, current, i = [], None, None, 0
    while i < len(words):
        word = words[i]
        if word == "info":
            current = {"pv": []}
            moves.append(current)
            i += 1
        elif word == "pv" and current is not None:
            i += 1
            while i < len(words) and words[i] not in ("info", "ownership", "ownershipStdev", "rootInfo"):
                current["pv"].append(words[i].upper())
                i += 1
        elif word in ("ownership", "ownershipStdev"):
            values = [float(v) for v in words[i + 1:i + 1 + size * size]]
            if word == "ownership":
                ownership = [round(sign * v, 3) for v in values]
            i += 1 + size * size
            current = None
        elif word == "rootInfo":
            current = {}
            i += 1
        else:
            if current is not None and i + 1 < len(words):
                current[word] = words[i + 1]
            i += 2
    shown = []
    for m in moves:
        if "move" not in m:
            continue
        winrate = float(m.get("winrate", 0.5))
        if winrate > 1:   # lz-style ten-thousandths
            winrate /= 10000
        shown.append({"move": m["move"].upper(), "visits": int(m.get("visits", 0)),
                      "winrate": round(winrate if color == "b" else 1 - winrate, 4),
                      "lead": round(sign * float(m.get("scoreLead", 0.0)), 2),
                      "pv": m["pv"]})
    return {"color": color, "moves": shown, "ownership": ownership,
            "winrate": shown[0]["winrate"] if shown else None,
            "visits": sum(m["visits"] for m in shown)}


_COMPILE_PROGRESS = re.compile(r"^vargo: \[\d+ s\] (.*\bparts done\b.*)$")


def compile_note(line: str) -> Optional[str]:
    """What a line of the engine's standard error says of its first compile, for the page:
    the progress (``"3 of 8 parts done (72%), about 79 s left ..."``), "" once the kernels are
    ready, None for any other line."""
    line = line.strip()
    progress = _COMPILE_PROGRESS.match(line)
    if progress:
        if "parts done (100%)" in line:
            return ""
        return "compiling its kernels, once: " + progress.group(1)
    if line.startswith("vargo: [") and "another process is compiling" in line:
        return line.split("] ", 1)[1]
    if line.startswith("vargo:") and "kernels ready" in line:
        return ""
    return None


class GameController:
    """The game on one engine process: set-up, moves, views, analysis, files, restart.

    ``command`` is the engine's argument vector; ``stderr`` where its standard error goes.
    Every method raises ``ControllerError`` (with the engine's reason when it refused) or
    ``EngineGone``, and then the game is as it was.
    """

    def __init__(self, command: List[str], stderr=None, label: str = "engine"):
        self.command = list(command)
        self.stderr = stderr
        self.label = label
        #: the engine's latest word on its first compile (``compile_note``), or ""
        self.compile_note = ""
        self.engine: Optional[GtpEngine] = None
        self.dead: Optional[str] = None
        self.tree = MoveTree()
        self.players = {"b": HUMAN, "w": ENGINE}
        self.resigned: Optional[str] = None
        self.timed_out: Optional[str] = None
        self.clock: Optional[Clock] = None
        self.forts_by_search = False
        #: a Terrain Go game whose komi the engine sets once the forts are placed
        self.fair_komi_pending = False
        self._komi_next = False   #: the engine's next task is that komi (``engine_color``)
        self.name = ""
        self._start_engine()
        self.setup = self._setup_from_engine()

    @property
    def moves(self) -> List[Tuple[str, str]]:
        """The moves on the board (the line on show up to the position shown)."""
        return self.tree.moves

    @property
    def reviewing(self) -> bool:
        """Whether the board shows a position before the end of the line (nobody's clock runs,
        the engine does not move; a move played here starts a variation)."""
        return self.tree.at < len(self.tree.line)

    # ----------------------------------------------------------------- the process
    def _start_engine(self) -> None:
        try:
            relay = self._stderr_relay()
            try:
                self.engine = GtpEngine(self.command, self.label, stderr=relay)
            finally:
                relay.close()   # the engine holds its own copy; the relay ends with the engine
            self.name = self.engine.send("name")
            self.known = {name: self.engine.known(name) for name in (
                "variant", "gogui-rules_board", "gogui-rules_board_gfx", "gogui-rules_legal_moves",
                "gogui-rules_side_to_move", "gogui-rules_final_result", "last_move_info", "forts",
                "terrain_show", "terrain_generate", "terrain_load", "fort", "genfort", "get_komi",
                "final_score", "kata-analyze", "printsgf", "loadsgf", "undo", "list_stones",
                "vargo-score", "vargo-false_liberties", "vargo-meals",
                "all_legal", "time_settings", "time_left", "gogui-interrupt")}
        except GtpFailure as err:
            self._died(err)
        self.dead = None

    def _stderr_relay(self):
        """The write end of a pipe for the engine's standard error: a thread passes every line
        on to ``stderr`` (when given) and keeps the engine's compile progress in
        ``compile_note``, for the page to show while the engine thinks (a first search waits
        for the compile, minutes on a slow machine)."""
        read_end, write_end = os.pipe()

        def relay():
            with open(read_end, "rb") as lines:
                for raw in lines:
                    line = raw.decode("utf-8", "replace")
                    if self.stderr is not None:
                        try:
                            self.stderr.write(line)
                            self.stderr.flush()
                        except (OSError, ValueError):
                            pass
                    note = compile_note(line)
                    if note is not None:
                        self.compile_note = note
        threading.Thread(target=relay, name=f"{self.label}-stderr", daemon=True).start()
        return open(write_end, "wb", buffering=0)

    def _died(self, err: Exception):
        self.dead = str(err)
        if self.engine is not None:
            self.engine.kill()
        raise EngineGone(f"the engine has stopped: {err}") from err

    def close(self) -> None:
        """End the engine process (asked to quit, killed if it does not)."""
        if self.engine is not None:
            self.engine.close(timeout=2.0)

    def kill(self) -> None:
        """End the engine at once, from any thread: a command waiting for it fails, so the
        worker holding the controller gets free."""
        if self.engine is not None:
            self.engine.kill()

    def interrupt(self) -> None:
        """From any thread: end the engine's running search now (it answers its best move so
        far), when it supports GoGui's interrupt; otherwise its move comes in its own time."""
        if self.engine is not None and self.known.get("gogui-interrupt"):
            self.engine.interrupt()

    def send(self, command: str, timeout: Optional[float] = DEFAULT_COMMAND_TIMEOUT) -> str:
        """One command; ``ControllerError`` with the engine's reason when it refuses."""
        if self.dead is not None:
            raise EngineGone(f"the engine has stopped ({self.dead}): restart it to go on")
        try:
            return self.engine.send(command, timeout=timeout)
        except GtpCommandError as err:
            raise ControllerError(err.message) from err
        except (EngineDied, EngineTimeout, MalformedResponse) as err:
            self._died(err)

    def restart(self) -> None:
        """A new engine process with the same command line, and the game replayed into it."""
        self.kill()
        self._start_engine()
        self._replay()

    def _replay(self) -> None:
        setup = self.setup
        if setup.sgf is not None:
            kept = shared_start(setup.sgf_line, self.moves)
            self._load_file(setup.sgf, kept + 1)
            rest = self.moves[kept:]
        else:
            self._set_rules(setup.variant, setup.size)
            self.send(f"komi {setup.komi:g}")
            if setup.terrain:
                self.send(f"terrain_load {setup.terrain}")
            rest = self.moves
        self._send_time_settings()
        for color, vertex in rest:
            self.send(f"play {color} {vertex}")

    # ----------------------------------------------------------------- set-up
    def _setup_from_engine(self) -> Setup:
        variant = self.send("variant").strip().lower() if self.known["variant"] else None
        size = int(self.send("gogui-rules_board_size")) if self._knows("gogui-rules_board_size") else 19
        return Setup(variant, size, self._engine_komi(7.5))

    def _knows(self, name: str) -> bool:
        if name not in self.known:
            self.known[name] = self.engine.known(name)
        return self.known[name]

    def _engine_komi(self, fallback: float) -> float:
        if self.known["get_komi"]:
            return float(self.send("get_komi"))
        return fallback

    def _set_rules(self, variant: Optional[str], size: int) -> None:
        """Rules and size in an order every size allows: Go first (any size), then the size,
        then the rules, which set their default komi for that size."""
        if self.known["variant"]:
            self.send("variant go")
            self.send(f"boardsize {size}")
            self.send(f"variant {variant}")
        else:
            if variant not in (None, "go"):
                raise ControllerError(f"this engine ({self.name}) plays Go only, not {variant}")
            self.send(f"boardsize {size}")
        self.send("clear_board")

    def new_game(self, form: NewGame) -> None:
        """Start the game of the form. Refused (the old game stays) when the engine refuses a
        part of it."""
        self.stop_clock()
        saved = (self.setup, self.tree, dict(self.players), self.resigned, self.timed_out,
                 self.clock, self.forts_by_search, self.fair_komi_pending)
        try:
            self._set_rules(form.variant, form.size)
            if form.komi is not None:
                self.send(f"komi {form.komi:g}")
            komi = self._engine_komi(form.komi if form.komi is not None else 7.5)
            self.setup = Setup(form.variant if self.known["variant"] else None, form.size, komi,
                               main_time=form.main_time, byo_yomi=form.byo_yomi)
            self.tree, self.resigned, self.timed_out = MoveTree(), None, None
            self.players = {"b": form.black, "w": form.white}
            self.forts_by_search = form.forts == "search"
            self.fair_komi_pending = (form.fair_komi and form.variant == "terrain"
                                      and self._knows("fair_komi"))
            self.clock = Clock(form.main_time, form.byo_yomi) if form.main_time or form.byo_yomi else None
            if form.variant == "terrain":
                seed = "" if form.terrain_seed is None else str(form.terrain_seed)
                self.send(f"terrain_generate {seed}".strip())
                self._remember_terrain()
            self._send_time_settings()
        except ControllerError:
            (self.setup, self.tree, self.players, self.resigned, self.timed_out, self.clock,
             self.forts_by_search, self.fair_komi_pending) = saved
            if self.dead is None:
                try:
                    self._replay()
                except ControllerError:
                    pass
            raise

    def _remember_terrain(self) -> None:
        self.setup = replace(self.setup, terrain=self.send("terrain_show"))

    def _send_time_settings(self) -> None:
        setup = self.setup
        if not self.known["time_settings"] or not (setup.main_time or setup.byo_yomi):
            return
        self.send(f"time_settings {setup.main_time:g} {setup.byo_yomi:g} {1 if setup.byo_yomi else 0}")

    # ----------------------------------------------------------------- state
    @property
    def size(self) -> int:
        return self.setup.size

    def fort_turn(self) -> Optional[str]:
        """The colour that places the next fort, or None when no fort is pending (White first,
        then in turn: RULES T2)."""
        if self.setup.variant != "terrain" or self.moves or not self.known["gogui-rules_legal_moves"]:
            return None
        try:
            self.send("gogui-rules_legal_moves")
            return None
        except EngineGone:
            raise
        except ControllerError:
            return "w" if len(self._forts()) % 2 == 0 else "b"

    def _forts(self) -> List[Tuple[str, str]]:
        words = self.send("forts").split() if self.known["forts"] else []
        return list(zip(words[::2], [w.upper() for w in words[1::2]]))

    def to_move(self) -> str:
        fort = self.fort_turn()
        if fort is not None:
            return fort
        if self.known["gogui-rules_side_to_move"]:
            return "b" if self.send("gogui-rules_side_to_move").strip().lower().startswith("b") else "w"
        return other(self.moves[-1][0]) if self.moves else "b"

    def legal_moves(self) -> Optional[List[str]]:
        """The legal moves (vertices and ``pass``), None when the engine cannot list them."""
        if self.known["gogui-rules_legal_moves"]:
            return [w.upper() if w.lower() != "pass" else "pass"
                    for w in self.send("gogui-rules_legal_moves").split()]
        if self.known["all_legal"]:
            return [w.upper() for w in self.send(f"all_legal {self.to_move()}").split()] + ["pass"]
        return None

    def over(self) -> bool:
        if self.resigned or self.timed_out:
            return True
        if self.fort_turn() is not None:
            return False
        legal = self.legal_moves() if self.known["gogui-rules_legal_moves"] else None
        if legal is not None:
            return not legal
        return len(self.moves) >= 2 and self.moves[-1][1] == self.moves[-2][1] == "pass"

    def result(self) -> Optional[dict]:
        """The end of the game: the result (``B+3.5``, ``W+R``, ``B+T``, ``0``) and the words
        the engine gives for it."""
        if self.resigned:
            winner = other(self.resigned)
            return {"result": f"{winner.upper()}+R", "text": f"{COLOR_WORDS[self.resigned]} resigned"}
        if self.timed_out:
            winner = other(self.timed_out)
            return {"result": f"{winner.upper()}+T", "text": f"{COLOR_WORDS[self.timed_out]} ran out of time"}
        if not self.over():
            return None
        score = self.send("final_score") if self.known["final_score"] else "?"
        text = self.send("gogui-rules_final_result") if self.known["gogui-rules_final_result"] else score
        return {"result": score.strip(), "text": text.strip()}

    def board(self) -> List[List[str]]:
        """Rows from the top, ``b``/``w``/``.`` per point."""
        size = self.size
        if self.known["gogui-rules_board"]:
            rows = [line.split() for line in self.send("gogui-rules_board").splitlines() if line.strip()]
            table = {"X": "b", "O": "w"}
            return [[table.get(p.upper(), ".") for p in row] for row in rows]
        if self.known["list_stones"]:
            rows = [["."] * size for _ in range(size)]
            for color in COLORS:
                for vertex in self.send(f"list_stones {COLOR_WORDS[color]}").split():
                    row, col = vertex_index(vertex, size)
                    rows[row][col] = color
            return rows
        raise ControllerError(f"this engine ({self.name}) shows no board "
                              "(neither gogui-rules_board nor list_stones)")

    def marks(self) -> dict:
        """Mountains, water, forts and meals, from ``gogui-rules_board_gfx``."""
        marks = {"mountains": [], "water": [], "forts": {}, "meals": []}
        if not self.known["gogui-rules_board_gfx"]:
            return marks
        for line in self.send("gogui-rules_board_gfx").splitlines():
            words = line.split()
            if not words:
                continue
            kind, rest = words[0].upper(), [w.upper() for w in words[1:]]
            if kind == "TRIANGLE":
                marks["mountains"] += rest
            elif kind == "SQUARE":
                marks["water"] += rest
            elif kind == "MARK":
                marks["meals"] += rest
            elif kind == "LABEL":
                for vertex, label in zip(rest[::2], rest[1::2]):
                    if label.endswith("F"):
                        marks["forts"][vertex] = label[0].lower()
        return marks

    def score(self) -> Optional[dict]:
        """The position counted as final, as the game counts it: ``{"b": {part: value,
        ..., "total": n}, "w": {...}, "result": "B+3"}`` from ``vargo-score`` (and in Terrain
        Go ``"values"``: what each kind of point is worth); with only
        ``gogui-rules_final_result``, the totals; None from an engine with neither."""
        if self.known["vargo-score"]:
            parts = {}
            for line in self.send("vargo-score").splitlines():
                words = line.split()
                if words and words[0] in ("black", "white"):
                    parts[words[0][0]] = {k: float(v) for k, v in zip(words[1::2], words[2::2])}
                elif words[:1] == ["result"] and len(words) == 2:
                    parts["result"] = words[1]
                elif words[:1] == ["values"]:
                    parts["values"] = {k: float(v) for k, v in zip(words[1::2], words[2::2])}
            return parts
        if self._knows("gogui-rules_final_result"):
            text = self.send("gogui-rules_final_result")
            match = re.match(r"\s*(\S+): black (\S+), white (\S+)", text)
            if match:
                return {"b": {"total": float(match[2])}, "w": {"total": float(match[3])},
                        "result": match[1]}
        return None

    def rule_marks(self) -> dict:
        """The marks that show a game's own rules, from the engine's ruler views: Loose's false
        liberties (``vargo-false_liberties``), Disto's gluttons (``vargo-meals``)."""
        marks = {}
        if self.setup.variant == "loose" and self.known["vargo-false_liberties"]:
            marks["false_liberties"] = self._gfx_points(self.send("vargo-false_liberties"), "COLOR")
        if self.setup.variant == "disto" and self.known["vargo-meals"]:
            marks["gluttons"] = self._gfx_points(self.send("vargo-meals"), "CIRCLE")
        return marks

    @staticmethod
    def _gfx_points(text: str, kind: str) -> List[str]:
        """The points of one kind of GoGui gfx line (``COLOR red D4 E5``: the colour skipped)."""
        points = []
        for line in text.splitlines():
            words = line.split()
            if words and words[0].upper() == kind:
                points += [w.upper() for w in words[1:] if w[:1].isalpha() and w[1:].isdigit()]
        return points

    def last_move(self) -> Optional[dict]:
        """The last move and what it did: ``flipped``, ``removed``, ``captured``, ``meals``."""
        if not self.moves:
            return None
        color, vertex = self.moves[-1]
        info = {"color": color, "vertex": vertex}
        if self.known["last_move_info"]:
            for line in self.send("last_move_info").splitlines():
                words = line.split()
                if words:
                    info[words[0]] = [w.upper() for w in words[1:]]
        return info

    def view(self) -> dict:
        """Everything the page draws, as the engine sees it (after a death: that, and the game
        the server keeps)."""
        if self.dead is None:
            try:
                return self._live_view()
            except EngineGone:
                pass
        return {"dead": self.dead, "size": self.size, "moves": self.moves,
                "line": self.tree.line_moves, "at": self.tree.at,
                "players": self.players, "engine": self.name}

    def _live_view(self) -> dict:
        fort = self.fort_turn()
        result = self.result() if fort is None else None
        legal = None if fort is not None or result else self.legal_moves()
        return {
            "engine": self.name, "variant": self.setup.variant or "go", "size": self.size,
            "komi": self.setup.komi, "board": self.board(), "marks": self.marks(),
            "last": self.last_move(), "moves": self.moves, "players": self.players,
            "to_move": fort or self.to_move(), "fort_turn": fort, "legal": legal,
            "result": result, "clock": self.clock.view() if self.clock else None,
            "winrates": {str(k): v for k, v in sorted(self.tree.winrates().items())},
            "line": self.tree.line_moves, "at": self.tree.at, "variations": self.tree.variations(),
            "can_analyze": self.known["kata-analyze"], "dead": None,
            "score": self.score(), "rule_marks": self.rule_marks(),
        }

    # ----------------------------------------------------------------- moves
    def _check_playing(self) -> None:
        if (self.resigned or self.timed_out) and not self.reviewing:
            raise ControllerError("the game is over")

    def play(self, vertex: str) -> None:
        """The human to move plays ``vertex`` (or ``pass``), or places its fort; refused with the
        engine's reason."""
        self._check_playing()
        fort = self.fort_turn()
        if fort is not None:
            if self.forts_by_search:
                raise ControllerError("the engine places the forts in this game")
            if self.players[fort] == ENGINE:
                raise ControllerError(f"the engine places {COLOR_WORDS[fort]}'s forts")
            if vertex == "pass":
                raise ControllerError(f"{COLOR_WORDS[fort]} places a fort first (no pass before the forts)")
            self.send(f"fort {fort} {vertex}")
            self._remember_terrain()
            return
        color = self.to_move()
        if self.players[color] == ENGINE:
            raise ControllerError(f"it is the engine's turn ({COLOR_WORDS[color]})")
        if self.reviewing:   # play resumes here: the line's end (and its result) is left behind
            self.send(f"play {color} {vertex}")
            self.resigned = self.timed_out = None
            self.tree.add(color, vertex.upper() if vertex.lower() != "pass" else "pass")
            return
        self._time_check(color)
        self.send(f"play {color} {vertex}")
        self._moved(color, vertex)

    def _moved(self, color: str, vertex: str) -> None:
        self.tree.add(color, vertex.upper() if vertex.lower() != "pass" else "pass")
        if self.clock:
            self.clock.charge(color)

    def _time_check(self, color: str) -> None:
        if self.clock and self.clock.expired(color):
            self.timed_out = color
            self.clock.left[color] = 0.0
            self.clock.running = None
            raise ControllerError(f"{COLOR_WORDS[color]} has run out of time")

    def engine_turn(self) -> bool:
        """Whether the engine is to move (or to place a fort) now (never while reviewing)."""
        if self.dead is not None or self.resigned or self.timed_out or self.reviewing:
            return False
        fort = self.fort_turn()
        if fort is not None:
            return self.forts_by_search or self.players[fort] == ENGINE
        if self.fair_komi_pending:
            return True   # the map's komi, before the first stone
        return self.players[self.to_move()] == ENGINE and not self.over()

    def engine_color(self) -> Optional[str]:
        """The colour the engine moves (or places a fort) for now, or None."""
        if not self.engine_turn():
            return None
        fort = self.fort_turn()
        self._komi_next = fort is None and self.fair_komi_pending
        return fort or self.to_move()

    def engine_move(self) -> Optional[str]:
        """The engine moves (or places a fort) for the side to move; answers the vertex (None
        when it is no longer the engine's turn)."""
        if not self.engine_turn():
            return None
        fort = self.fort_turn()
        if fort is not None:
            vertex = self.send(f"genfort {fort}", timeout=GENMOVE_TIMEOUT)
            self._remember_terrain()
            return vertex.strip().upper()
        if self.fair_komi_pending:
            self._settle_fair_komi()
            return None
        color = self.to_move()
        timeout = GENMOVE_TIMEOUT
        if self.clock:
            self._time_check(color)
            left = max(self.clock.remaining(color), 0.0)
            stones = 1 if self.clock.in_byo_yomi[color] else 0
            if self.known["time_left"]:
                self.send(f"time_left {color} {left:.1f} {stones}")
            timeout = left + self.clock.byo_yomi + 30
        move = self.send(f"genmove {color}", timeout=timeout).strip()
        if move.lower() == "resign":
            self.resigned = color
            if self.clock:
                self.clock.running = None
            return "resign"
        self._moved(color, move)
        return move.upper() if move.lower() != "pass" else "pass"

    def _settle_fair_komi(self) -> None:
        """The engine's fair komi for the map and forts becomes the game's (asked once: a
        refusal or a failure leaves the komi as it was, and says why)."""
        self.fair_komi_pending = False
        answer = self.send(f"fair_komi {FAIR_KOMI_SECONDS:g}", timeout=FAIR_KOMI_SECONDS + 120)
        try:
            komi = float(answer.split()[0])
        except (ValueError, IndexError):
            raise ControllerError(f"the engine's fair komi is not a number: {answer[:40]!r}") from None
        self.send(f"komi {komi:g}")
        self.setup = replace(self.setup, komi=self._engine_komi(komi))

    @property
    def estimating_komi(self) -> bool:
        """The engine's work now is the map's fair komi, before anyone's move (as
        ``engine_color`` found it: no engine command here)."""
        return bool(self._komi_next)

    @property
    def thinking_note(self) -> str:
        """What the engine is busy with besides its move, for the page: its first compile, or
        the map's fair komi."""
        if self.estimating_komi:
            return "estimating this map's fair komi" + (f"; {self.compile_note}" if self.compile_note else "")
        return self.compile_note

    def start_clock(self) -> None:
        """Run the clock of the side to move (when there is a clock and the game goes on)."""
        if self.clock and self.dead is None and not self.resigned and not self.timed_out:
            try:
                playing = (self.fort_turn() is None and not self.fair_komi_pending
                           and not self.over() and not self.reviewing)
                self.clock.start(self.to_move() if playing else None)
            except EngineGone:
                self.clock.running = None

    def stop_clock(self) -> None:
        if self.clock and self.clock.running:
            self.clock.left[self.clock.running] = self.clock.remaining(self.clock.running)
            self.clock.running = None

    def check_time(self) -> bool:
        """Whether the side to move has just run out of time (the game then ends)."""
        if self.clock and self.clock.running and not self.timed_out \
                and self.clock.expired(self.clock.running):
            self.timed_out = self.clock.running
            self.clock.left[self.timed_out] = 0.0   # the flag fell: its clock shows 0:00
            self.clock.running = None
            return True
        return False

    def resign(self) -> None:
        self._check_playing()
        if self.over():
            raise ControllerError("the game is over")
        self.resigned = self.to_move()
        self.stop_clock()

    def undo(self) -> None:
        """Take back the last move, and the engine's replies before it, so that a human is to
        move again (one move when both sides are humans or both engines)."""
        if self.resigned or self.timed_out:   # take back the resignation (or the flag) first
            self.resigned = self.timed_out = None
            return
        if not self.moves:
            raise ControllerError("no move to undo")
        self.stop_clock()
        humans = [c for c in COLORS if self.players[c] == HUMAN]
        while True:
            self._undo_one()
            if not self.moves or not humans or self.players[self.to_move()] == HUMAN:
                break

    def _undo_one(self) -> None:
        if self.known["undo"]:
            self.send("undo")
            self.tree.drop_last()
        else:
            self.tree.drop_last()
            self._replay()

    # ----------------------------------------------------------------- review
    def goto(self, number: int) -> None:
        """Show the position after ``number`` moves of the line (0: the start; clamped to the
        line), the engine taken there by ``undo`` or ``play`` (by replaying the game when it
        cannot undo). A move the engine refuses on the way (a variation of a file) stops there
        with its reason."""
        number = max(0, min(number, len(self.tree.line)))
        self.stop_clock()
        if number < self.tree.at:
            if self.known["undo"]:
                while self.tree.at > number:
                    self.send("undo")
                    self.tree.at -= 1
            else:
                self.tree.at = number
                self._replay()
        while self.tree.at < number:
            color, vertex = self.tree.line[self.tree.at].move
            self.send(f"play {color} {vertex}")
            self.tree.at += 1

    def choose(self, number: int, index: int) -> None:
        """Show variation ``index`` of move ``number`` (the board goes to just before it)."""
        try:
            self.tree.check_choice(number, index)
        except IndexError as err:
            raise ControllerError(str(err)) from None
        self.goto(min(self.tree.at, number - 1))
        self.tree.choose(number, index)

    # ----------------------------------------------------------------- analysis
    def analyze(self, report: Callable[[dict], None], stop, interval_cs: int = ANALYSIS_INTERVAL_CS) -> None:
        """Stream ``kata-analyze`` for the side to move into ``report`` until ``stop`` (a
        ``threading.Event``) is set or the engine ends the stream; the latest win rate is kept
        for the graph."""
        if not self.known["kata-analyze"]:
            raise ControllerError(f"this engine ({self.name}) has no kata-analyze")
        if self.fort_turn() is not None:
            raise ControllerError("no analysis before the forts are placed")
        if self.over():
            raise ControllerError("the game is over")
        color, size, node = self.to_move(), self.size, self.tree.node(self.tree.at)
        try:
            self.engine.open_stream(f"kata-analyze {color} {interval_cs} ownership true")
            while not stop.is_set():
                line = self.engine.stream_line(0.1)
                if line is None:
                    continue
                if line == "":
                    break
                if line.startswith("info"):
                    info = parse_analysis(line, size, color)
                    if info["winrate"] is not None:
                        node.winrate = info["winrate"]
                    report(info)
            self.engine.close_stream()
        except GtpCommandError as err:
            raise ControllerError(err.message) from err
        except (EngineDied, EngineTimeout, MalformedResponse) as err:
            self._died(err)

    # ----------------------------------------------------------------- files
    def save(self) -> str:
        """The game as SGF: the line on show as the main line, as the engine writes it
        (``printsgf``: our variant properties), with the players (``PB``, ``PW``: the engine's
        name or ``human``), today's date (``DT``), the result when the game is over (``RE``)
        and Black's win rate at each position an analysis ran (``SBKV`` and a comment); every
        other line of the tree (the variations played or opened) as SGF variations where they
        branch off. The board stays where it is."""
        import sgf
        if not self.known["printsgf"]:
            raise ControllerError(f"this engine ({self.name}) cannot write sgf (no printsgf)")
        shown = self.tree.at
        self.goto(len(self.tree.line))
        try:
            text = self.send("printsgf")
            result = self.result()
        finally:
            self.goto(shown)
        names = {c: (self.name or "engine") if self.players[c] == ENGINE else "human" for c in COLORS}
        winrates = {n: w for n, w in self.tree.winrates().items() if n <= len(self.tree.line)}
        try:
            record = sgf.SgfRecord.from_bytes(text.encode("utf-8"))
            finished = result["result"] if result and RESULT.match(result["result"]) else None
            data = record.to_bytes(black_name=names["b"], white_name=names["w"],
                                   date=time.strftime("%Y-%m-%d"), result=finished,
                                   winrates=winrates or None)
            branches = self._branches(record.game.size)
            if branches:
                data = sgf.record.add_variations(data, branches)
        except Exception as err:   # a file from another engine our reader does not take as is
            print(f"vargo-web: the sgf is saved as the engine wrote it ({err})", file=sys.stderr)
            return text
        return data.decode("utf-8")

    def _branches(self, size: int) -> list:
        """``(number, tree)`` for every line off the one on show: the moves tried instead of
        the line's move ``number``, each ``(colour, point, trees)`` (``sgf.record.add_variations``)."""
        branches = []
        for number, node in enumerate(self.tree.line, 1):
            for sibling in self.tree.parent(number).children:
                if sibling is not node:
                    branches.append((number, _subtree(sibling, size)))
        return branches

    def open(self, data: bytes) -> None:
        """The game of an SGF file (``loadsgf`` of a temporary copy); the moves are read back
        from the file with our SGF reader. Refused, the game unchanged, when the engine or the
        reader refuses the file."""
        import sgf
        if not self.known["loadsgf"]:
            raise ControllerError(f"this engine ({self.name}) cannot read sgf (no loadsgf)")
        try:
            record = sgf.SgfRecord.from_bytes(data)
        except Exception as err:  # the reader's errors name the problem and the node
            raise ControllerError(f"cannot read this sgf: {err}") from err
        moves = [(m.color.letter, "pass" if m.point is None else _format(m.point))
                 for m in record.game.moves]
        self.stop_clock()
        try:
            self._load_file(data, None)
        except ControllerError:
            if self.dead is None:
                self._replay()
            raise
        variant = self.send("variant").strip().lower() if self.known["variant"] else None
        size = int(self.send("gogui-rules_board_size")) if self._knows("gogui-rules_board_size") \
            else record.game.size
        self.setup = Setup(variant, size, self._engine_komi(record.game.komi), sgf=bytes(data),
                           sgf_line=tuple(moves))
        self.tree = _tree_of_file(data, record.game.size, moves)
        self.resigned, self.timed_out = None, None
        self.clock, self.forts_by_search, self.fair_komi_pending = None, False, False
        if self.players["b"] == ENGINE and self.players["w"] == ENGINE:
            self.players = {"b": HUMAN, "w": HUMAN}   # an opened game waits for a person

    def _load_file(self, data: bytes, move_number: Optional[int]) -> None:
        with tempfile.TemporaryDirectory(prefix="vargo-web-") as folder:
            path = os.path.join(folder, "upload.sgf")
            write_atomically(path, data)
            self.send(f"loadsgf {path}" + (f" {move_number}" if move_number else ""))


def _format(point) -> str:
    return format_vertex(point)


def _subtree(node, size: int) -> tuple:
    """A tree node and the moves below it as ``(colour, point, trees)``, for the sgf writer."""
    def entry(move):
        return move.color, None if move.vertex == "pass" else parse_vertex(move.vertex, size), []
    top = entry(node)
    stack = [(node, top)]
    while stack:   # no recursion: a variation can be long
        current, built = stack.pop()
        for child in current.children:
            made = entry(child)
            built[2].append(made)
            stack.append((child, made))
    return top


def _tree_of_file(data: bytes, size: int, moves) -> MoveTree:
    """The file's moves with their variations, its main line on show at its end; just the main
    line when the variations cannot be read as the reader read the main line."""
    import sgf.record

    def read_move(node):
        move = sgf.record.move_or_none(node, size)
        if move is None:
            return None
        color, point = move
        return color.letter, "pass" if point is None else _format(point)
    try:
        tree = tree_of_sgf_nodes(sgf.record.parse(data).get_root(), read_move)
    except Exception:   # the main line was read: a variation the reader cannot follow is dropped
        return MoveTree(moves)
    return tree if tree.line_moves == list(moves) else MoveTree(moves)


def shared_start(one, two) -> int:
    """How many moves two lists of moves share from their start."""
    count = 0
    for a, b in zip(one, two):
        if tuple(a) != tuple(b):
            break
        count += 1
    return count


def vertex_index(vertex: str, size: int) -> Tuple[int, int]:
    """(row from the top, column) of a vertex such as ``D4``."""
    col = COLUMNS.index(vertex[0].upper())
    return size - int(vertex[1:]), col
