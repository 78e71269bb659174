"""Shared by the browser board's tests: a server on our engine in a thread, and a websocket
client that reads until the message it waits for."""

import json
import sys

import pytest

pytest.importorskip("aiohttp")
websocket = pytest.importorskip("websocket")

from gtp_engine.web.server import BoardServer  # noqa: E402

ENGINE = [sys.executable, "-m", "gtp_engine", "--playouts", "20", "--seed", "1"]


def start_server(*options: str, command=None) -> BoardServer:
    server = BoardServer(command or ENGINE + list(options))
    server.start_in_thread()
    return server


class Client:
    """A websocket to the server's page channel; ``until(kind)`` reads up to that message,
    keeping the errors seen on the way in ``errors``."""

    def __init__(self, server: BoardServer, origin=None):
        url = server.url.replace("http://", "ws://") + "ws"
        options = {"origin": origin} if origin else {"suppress_origin": True}
        self.ws = websocket.create_connection(url, timeout=120, **options)
        self.errors = []
        self.state = self.until("state")

    def send(self, **message):
        self.ws.send(json.dumps(message))

    def send_raw(self, text):
        self.ws.send(text)

    def until(self, kind: str, check=lambda message: True) -> dict:
        while True:
            message = json.loads(self.ws.recv())
            if message["type"] == "error":
                self.errors.append(message["message"])
            if message["type"] == "state":
                self.state = message
            if message["type"] == kind and check(message):
                return message

    def settled(self) -> dict:
        """The state once the engine has no move to make (asks for it, so it comes after
        everything already under way)."""
        self.send(type="state")
        return self.until("state")

    def close(self):
        self.ws.close()
