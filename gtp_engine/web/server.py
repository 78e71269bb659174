"""The browser board's web server (aiohttp): one page, one websocket, one engine.

Every address is under ``/TOKEN/``, a random token that the printed URL carries (as Jupyter's
does), so no other page in the browser can read or drive the board: ``/TOKEN/`` is the page,
``/TOKEN/static/...`` its modules, ``/TOKEN/ws`` the websocket; anything else is refused (403).
The websocket also refuses an ``Origin`` that is not the server's own.

The page sends JSON messages (``parse_message`` checks each one: a bad or hostile message gets
``{"type": "error", "message": ...}`` and changes nothing); the server answers with the game's
state as ``controller.GameController.view`` reads it from the engine (``{"type": "state"}``),
``{"type": "thinking"}`` while the engine moves (with its compile's progress as ``note``
while a first compile holds it up), ``{"type": "analysis"}`` reports, and
``{"type": "sgf"}`` for a save. Every engine command runs in a worker thread under one lock, so
the page stays responsive while the engine thinks; an analysis stream holds the lock until the
next action stops it. The engine process ends with the server.
"""

import asyncio
import errno
import json
import math
import re
import secrets
import threading
from pathlib import Path
from typing import Optional, Set

from aiohttp import WSMsgType, web

from .controller import (ENGINE, HUMAN, VARIANTS, ControllerError, EngineGone, GameController,
                         NewGame)

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 2 * 1024 * 1024     #: bytes of one websocket message (an SGF file fits)
MAX_SGF = 1024 * 1024             #: characters of an opened SGF file
VERTEX = re.compile(r"^[A-HJ-Za-hj-z](?:[1-9]|1[0-9]|2[0-5])$")
MAX_MOVES = 100000                #: a move number the page may ask for
TICK = 0.25                       #: seconds between two looks at the clock


class BadMessage(ValueError):
    """A message from the page that is not one the board understands."""


#: Each message type and its fields: name -> (check, required).
def _bool(value):
    return isinstance(value, bool)


def _number(low, high):
    def check(value):
        return isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value) and low <= value <= high
    return check


def _integer(low, high):
    def check(value):
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
    return check


def _one_of(*choices):
    return lambda value: value in choices


def _optional(check):
    return lambda value: value is None or check(value)


def _vertex(value):
    return isinstance(value, str) and (value.lower() == "pass" or bool(VERTEX.match(value)))


def _text(limit):
    return lambda value: isinstance(value, str) and len(value) <= limit


MESSAGES = {
    "new_game": {"variant": (_one_of(*VARIANTS), True), "size": (_integer(2, 25), True),
                 "komi": (_optional(_number(-1000, 1000)), False),
                 "terrain_seed": (_optional(_integer(0, 2 ** 31 - 1)), False),
                 "forts": (_one_of("hand", "search"), False), "fair_komi": (_bool, False),
                 "black": (_one_of(HUMAN, ENGINE), False), "white": (_one_of(HUMAN, ENGINE), False),
                 "main_time": (_number(0, 36000), False), "byo_yomi": (_number(0, 3600), False)},
    "play": {"vertex": (_vertex, True)},
    "pass": {}, "undo": {}, "resign": {}, "save": {}, "restart": {}, "state": {},
    "analyze": {"on": (_bool, True)},
    "pause": {"on": (_bool, True)},
    "open": {"sgf": (_text(MAX_SGF), True)},
    "goto": {"number": (_integer(0, MAX_MOVES), True)},
    "variation": {"number": (_integer(1, MAX_MOVES), True), "index": (_integer(0, MAX_MOVES), True)},
}

FIELD_HINTS = {
    "variant": "one of " + ", ".join(VARIANTS), "size": "an integer from 2 to 25",
    "komi": "a number from -1000 to 1000 or null", "terrain_seed": "an integer from 0 or null",
    "forts": "'hand' or 'search'", "fair_komi": "true or false", "black": "'human' or 'engine'", "white": "'human' or 'engine'",
    "main_time": "seconds from 0 to 36000", "byo_yomi": "seconds from 0 to 3600",
    "vertex": "a vertex such as D4, or pass", "on": "true or false",
    "sgf": f"the text of an sgf file of at most {MAX_SGF} characters",
    "number": f"a move number from 0 to {MAX_MOVES}", "index": f"a variation from 0 to {MAX_MOVES}",
}


def parse_message(text) -> dict:
    """The message as a dict, checked against ``MESSAGES``; ``BadMessage`` says what is wrong."""
    if not isinstance(text, str):
        raise BadMessage("messages are JSON text")
    try:
        message = json.loads(text)
    except ValueError as err:
        raise BadMessage(f"not JSON: {err}") from None
    except RecursionError:   # the decoder recurses once per level of nesting
        raise BadMessage("JSON nested too deeply") from None
    if not isinstance(message, dict):
        raise BadMessage("a message is a JSON object with a 'type'")
    kind = message.get("type")
    if kind not in MESSAGES:
        raise BadMessage(f"unknown message type {kind!r}" if isinstance(kind, str) and len(kind) < 40
                         else "unknown message type")
    fields = MESSAGES[kind]
    for name in message:
        if name != "type" and name not in fields:
            raise BadMessage(f"{kind} takes no field {name[:40]!r}" + (
                f" (only {', '.join(fields)})" if fields else ""))
    for name, (check, required) in fields.items():
        if name not in message:
            if required:
                raise BadMessage(f"{kind} needs {name}: {FIELD_HINTS[name]}")
            continue
        if not check(message[name]):
            raise BadMessage(f"{kind}: {name} must be {FIELD_HINTS[name]}")
    return message


def new_game_form(message: dict) -> NewGame:
    fields = {k: v for k, v in message.items() if k != "type"}
    return NewGame(**fields)


class BoardServer:
    """The server for one engine command line. ``start`` (in an event loop) starts the engine
    and listens; ``url`` is what to open; ``stop`` ends both. ``start_in_thread`` and
    ``stop_in_thread`` do the same from ordinary code (tests, the screenshot script)."""

    def __init__(self, command, host: str = "127.0.0.1", port: int = 0,
                 token: Optional[str] = None, engine_stderr=None, port_tries: int = 1):
        self.command = list(command)
        self.host, self.port = host, port
        self.asked_port, self.port_tries = port, port_tries
        self.token = token or secrets.token_urlsafe(24)
        self.engine_stderr = engine_stderr
        self.controller: Optional[GameController] = None
        self.sockets: Set[web.WebSocketResponse] = set()
        self.analysis_on = False
        self.paused = False
        self.thinking = False
        self._lock: Optional[asyncio.Lock] = None
        self._analysis_stop = threading.Event()
        self._analysis_task: Optional[asyncio.Task] = None
        self._driver: Optional[asyncio.Task] = None
        #: an action came while the driver ran: it looks again for the engine's turn before
        #: it ends (a Continue during its last broadcast would otherwise be lost)
        self._drive_again = False
        self._ticker: Optional[asyncio.Task] = None
        self._runner: Optional[web.AppRunner] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self.url = ""

    # ----------------------------------------------------------------- life
    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_MESSAGE)
        prefix = f"/{self.token}"
        app.router.add_get(prefix, self._to_page)
        app.router.add_get(prefix + "/", self._page)
        app.router.add_get(prefix + "/ws", self._websocket)
        app.router.add_static(prefix + "/static/", STATIC, follow_symlinks=False)
        return app

    async def start(self) -> str:
        self._loop = asyncio.get_running_loop()
        self._lock = asyncio.Lock()
        self.controller = await asyncio.to_thread(GameController, self.command, self.engine_stderr)
        self._runner = web.AppRunner(self.make_app(), access_log=None)
        await self._runner.setup()
        await self._listen()
        self.port = self._runner.addresses[0][1]
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{shown}:{self.port}/{self.token}/"
        self._ticker = asyncio.create_task(self._tick())
        return self.url

    async def _listen(self) -> None:
        """Listen on ``port``, or on the next of ``port_tries`` ports when it is taken (the
        last refusal is raised when all are)."""
        for port in range(self.asked_port, self.asked_port + self.port_tries):
            site = web.TCPSite(self._runner, self.host, port)
            try:
                await site.start()
                return
            except OSError as err:
                if err.errno != errno.EADDRINUSE or port == self.asked_port + self.port_tries - 1 \
                        or port >= 65535:
                    raise

    async def stop(self) -> None:
        for task in (self._ticker, self._driver):
            if task is not None:
                task.cancel()
        self._analysis_stop.set()
        if self.controller is not None:
            self.controller.kill()
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self.controller is not None:
            await asyncio.to_thread(self.controller.close)

    def start_in_thread(self) -> str:
        """Run the server in a thread of its own (its own event loop); answers the URL."""
        started = threading.Event()
        failure = []

        def run():
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(self.start())
            except BaseException as err:   # reported to the caller below
                failure.append(err)
                started.set()
                return
            started.set()
            loop.run_forever()
            loop.run_until_complete(self.stop())
            loop.close()
        self._thread = threading.Thread(target=run, name="vargo-web", daemon=True)
        self._thread.start()
        started.wait()
        if failure:
            raise failure[0]
        return self.url

    def stop_in_thread(self) -> None:
        if self._thread is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(30)

    # ----------------------------------------------------------------- http
    @web.middleware
    async def _guard(self, request, handler):
        first = request.path.lstrip("/").split("/", 1)[0]
        if not secrets.compare_digest(first.encode(), self.token.encode()):
            return web.Response(status=403, text="vargo-web: this address needs the token of the "
                                                 "URL vargo-web printed when it started\n")
        response = await handler(request)
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        return response

    async def _to_page(self, request):
        raise web.HTTPFound(f"/{self.token}/")

    async def _page(self, request):
        response = web.FileResponse(STATIC / "index.html")
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'")
        return response

    async def _websocket(self, request):
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
            return web.Response(status=403, text="vargo-web: websocket from another site refused\n")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            await self._send(ws, await self._state())
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        await self._send(ws, {"type": "error", "message": "messages are JSON text"})
                    continue
                try:
                    message = parse_message(msg.data)
                except BadMessage as err:
                    await self._send(ws, {"type": "error", "message": f"bad message: {err}"})
                    continue
                await self._handle(ws, message)
        finally:
            self.sockets.discard(ws)
        return ws

    async def _send(self, ws, payload: dict) -> None:
        if not ws.closed:
            try:
                await ws.send_json(payload)
            except (ConnectionError, RuntimeError):
                pass

    async def broadcast(self, payload: dict) -> None:
        for ws in list(self.sockets):
            await self._send(ws, payload)

    # ----------------------------------------------------------------- engine work
    async def _run(self, function, *args):
        """``function(*args)`` in a worker thread, alone with the engine: a running analysis
        stops first (it holds the engine until then; the next change starts it again)."""
        await self._stop_analysis()
        async with self._lock:
            return await asyncio.to_thread(function, *args)

    async def _state(self) -> dict:
        view = await self._run(self.controller.view)
        return {"type": "state", "analysis_on": self.analysis_on, "paused": self.paused, **view}

    async def _handle(self, ws, message: dict) -> None:
        """One checked message: its action (``ACTIONS``), then the new state to every page;
        a refusal goes to this page alone and changes nothing."""
        action = ACTIONS.get(message["type"])
        try:
            if action is not None:
                await action(self, ws, message)
        except ControllerError as err:
            await self._send(ws, {"type": "error", "message": str(err)})
            if isinstance(err, EngineGone):
                await self.broadcast(await self._state())
            return
        await self._changed()   # never raises: a death shows in the state

    # the actions, one per message type (``state`` has none: it only asks for the state)
    async def _save(self, ws, message):
        await self._send(ws, {"type": "sgf", "text": await self._run(self.controller.save)})

    async def _analyze_switch(self, ws, message):
        self.analysis_on = message["on"]
        if not self.analysis_on:
            await self._stop_analysis()
            await self.broadcast({"type": "analysis", "stopped": True})

    async def _pause(self, ws, message):
        self.paused = message["on"]
        if self.paused:
            self.controller.stop_clock()   # no clock runs while paused: nobody loses time
            if self.thinking:
                self.controller.interrupt()   # the engine answers its move now (if it can)

    async def _restart(self, ws, message):
        await self._stop_analysis()
        if self._lock.locked():
            self.controller.kill()   # frees the worker waiting on a hung engine
        await self._run(self.controller.restart)

    async def _new_game(self, ws, message):
        self.paused = False
        await self._run(self.controller.new_game, new_game_form(message))

    async def _play(self, ws, message):
        if self.paused:
            raise ControllerError("the game is paused: Continue first")
        await self._run(self.controller.play, message.get("vertex", "pass"))

    async def _undo(self, ws, message):
        c = self.controller
        await self._run(c.undo)
        self.paused = self.paused or all(p == ENGINE for p in c.players.values())

    async def _resign(self, ws, message):
        await self._run(self.controller.resign)

    async def _goto(self, ws, message):
        await self._run(self.controller.goto, message["number"])

    async def _variation(self, ws, message):
        await self._run(self.controller.choose, message["number"], message["index"])

    async def _open(self, ws, message):
        await self._run(self.controller.open, message["sgf"].encode("utf-8"))

    async def _changed(self) -> None:
        """After an action: the new state to every page, then the engine's moves if it is to
        move, then the analysis if it is on."""
        await self._after_move()
        if self._driver is None or self._driver.done():
            self._driver = asyncio.create_task(self._drive())
        else:
            self._drive_again = True

    async def _after_move(self) -> None:
        await self._run(self.controller.stop_clock if self.paused else self.controller.start_clock)
        await self.broadcast(await self._state())

    async def _drive(self) -> None:
        """The engine's moves while it is to move (both sides' when both are engines)."""
        c = self.controller
        try:
            while True:
                self._drive_again = False
                while not self.paused:
                    color = await self._run(c.engine_color)
                    if color is None or self.paused:   # Pause may come while that was asked
                        break
                    await self.broadcast({"type": "thinking", "color": color,
                                          "note": c.thinking_note, "komi": c.estimating_komi})
                    self.thinking = True
                    watcher = asyncio.create_task(self._relay_note(color))
                    try:
                        await self._run(c.engine_move)
                    finally:
                        self.thinking = False
                        watcher.cancel()
                    await self._after_move()
                await self.broadcast({"type": "thinking", "color": None})
                # an action (a Continue) handled while this task ran started no other driver:
                # this one looks again for it (no await between this check and the task's end)
                if self.paused or not self._drive_again:
                    break
        except ControllerError as err:
            await self.broadcast({"type": "error", "message": str(err)})
            await self.broadcast(await self._state())
            return
        await self._start_analysis()

    async def _relay_note(self, color: str) -> None:
        """While the engine works, its note (``thinking_note``: the map's fair komi, its first
        compile's progress) whenever it changes, at most a second late: a first move may wait
        minutes for the compile on a slow machine."""
        shown = self.controller.thinking_note
        while True:
            await asyncio.sleep(1.0)
            note = self.controller.thinking_note   # the compile's, after the task's own words
            if note != shown:
                shown = note
                await self.broadcast({"type": "thinking", "color": color, "note": note,
                                      "komi": self.controller.estimating_komi})

    async def _start_analysis(self) -> None:
        if not self.analysis_on or (self._analysis_task and not self._analysis_task.done()):
            return
        self._analysis_stop = threading.Event()
        self._analysis_task = asyncio.create_task(self._analyze(self._analysis_stop))

    async def _analyze(self, stop: threading.Event) -> None:
        loop = asyncio.get_running_loop()

        def report(info):
            if not stop.is_set():
                asyncio.run_coroutine_threadsafe(self.broadcast({"type": "analysis", **info}), loop)
        try:
            async with self._lock:
                if stop.is_set():
                    return
                await asyncio.to_thread(self.controller.analyze, report, stop)
        except ControllerError as err:
            await self.broadcast({"type": "error", "message": f"analysis: {err}"})
            if isinstance(err, EngineGone):
                await self.broadcast(await self._state())

    async def _stop_analysis(self) -> None:
        self._analysis_stop.set()
        task = self._analysis_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            await task

    async def _tick(self) -> None:
        """Ends the game when the clock of the side to move runs out."""
        while True:
            await asyncio.sleep(TICK)
            c = self.controller
            if c.clock is None or self.thinking or self.paused:
                continue
            if c.check_time():
                await self._stop_analysis()
                await self.broadcast(await self._state())


#: What each message type does (``BoardServer._handle``); ``MESSAGES`` checks them first.
ACTIONS = {
    "save": BoardServer._save, "analyze": BoardServer._analyze_switch, "pause": BoardServer._pause,
    "restart": BoardServer._restart, "new_game": BoardServer._new_game, "play": BoardServer._play,
    "pass": BoardServer._play, "undo": BoardServer._undo, "resign": BoardServer._resign,
    "goto": BoardServer._goto, "variation": BoardServer._variation, "open": BoardServer._open,
}
