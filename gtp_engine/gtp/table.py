"""Handler tables: each topic module registers its commands on a ``CommandTable``.

A handler is ``handler(engine, args) -> str``: it reads and changes ``engine`` (the session:
game, settings, clocks) and returns the answer text, or raises (see ``errors``). Handlers
translate between GTP and the game; they hold no rules.
"""

from dataclasses import dataclass
from typing import Callable, Dict


@dataclass(frozen=True)
class Handler:
    """``changes_state`` False marks a pure query, which needs no snapshot to roll back."""

    name: str
    function: Callable
    changes_state: bool = True


class CommandTable:
    """Commands of one topic, by name."""

    def __init__(self, topic: str):
        self.topic = topic
        self.handlers: Dict[str, Handler] = {}

    def command(self, name: str, changes_state: bool = True):
        """Decorator registering the function as the handler of ``name``."""
        def register(function):
            if name in self.handlers:
                raise ValueError(f"command {name!r} registered twice in {self.topic}")
            self.handlers[name] = Handler(name, function, changes_state)
            return function
        return register

    def query(self, name: str):
        """Decorator for a handler that changes nothing."""
        return self.command(name, changes_state=False)
