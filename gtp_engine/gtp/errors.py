"""The three exceptions of the handler contract.

A handler returns its answer text, or raises one of these; the server turns them into protocol:

- ``GtpError``: the command failed; answer ``? message`` and read the next command.
- ``GtpFatalError``: answer ``? message`` and end the session (the engine can no longer work).
- ``GtpQuit``: answer ``=`` (with the text given) and end the session (the ``quit`` command).

``EngineError`` from the layers below is a ``GtpError`` for the server, its message passed
through. Any other exception is a bug: ``? internal error: ...``, traceback on stderr.
"""


class GtpError(Exception):
    """A command that failed; the message is lowercase and says what was wrong."""


class GtpFatalError(GtpError):
    """A failure after which the session cannot go on."""


class GtpQuit(Exception):
    """End the session after answering successfully with ``text``."""

    def __init__(self, text: str = ""):
        self.text = text
        super().__init__(text)
