"""``SgfError``: a file we cannot read, or a game we cannot write, with the node and the reason."""

from gtp_engine.errors import EngineError


class SgfError(EngineError):
    """A broken or unsupported SGF file, or bad write options.

    The message is lowercase, names the node (``node 12 (move 11): illegal move B[dd]:
    occupied``; the root is node 0) and says why.
    """
