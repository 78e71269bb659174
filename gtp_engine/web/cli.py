"""``vargo-web [--host H] [--port P] [--engine "COMMAND"] [--open] [ENGINE OPTIONS ...]``.

Starts the browser board and prints its URL (with the token) on stdout. Without ``--engine``
the engine is vargo itself (``python -m gtp_engine``) with every option not listed here, e.g.
``vargo-web --variant loose --size 9 --playouts 2000``; with ``--engine`` any GTP command line,
e.g. ``vargo-web --engine "/usr/games/gnugo --mode gtp --level 5"`` (Go only; Debian's path).
Ctrl-C ends the server and the engine.
"""

import argparse
import asyncio
import signal
import sys
from typing import List, Optional


def engine_command(engine: Optional[str], rest: List[str]) -> List[str]:
    """The engine's argument vector: ``--engine``'s command line, or vargo with ``rest``."""
    from ..match.gtp_client import split_command
    if engine is not None:
        if rest:
            raise SystemExit(f"vargo-web: options {' '.join(rest)!r} are for vargo; with --engine "
                             "put them in the engine's command line")
        return split_command(engine)
    return [sys.executable, "-m", "gtp_engine", *rest]


DEFAULT_PORT = 8710
#: ports tried after the default one when it is taken (as Jupyter does); a port given with
#: --port is that port or an error
PORT_TRIES = 50


def port_number(text: str) -> int:
    """``--port``'s value: an integer from 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0 to 65535)")
    return port


def parse_args(argv: Optional[List[str]] = None):
    parser = argparse.ArgumentParser(
        prog="vargo-web", description="The browser board: play and analyse every game of vargo "
        "(or Go with any GTP engine) in a web page. Options not listed here go to vargo.",
        epilog="example: vargo-web --variant loose --size 9")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=port_number, default=None,
                        help=f"port (default {DEFAULT_PORT}, or the next free one after it; "
                             "0: any free one)")
    parser.add_argument("--engine", metavar="COMMAND",
                        help="any GTP engine's command line instead of vargo, e.g. "
                             "\"/usr/games/gnugo --mode gtp\"")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    return parser.parse_known_args(argv)


def main(argv: Optional[List[str]] = None) -> None:
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise SystemExit("vargo-web needs the web extra: pip install 'variant-go-engine[web]' "
                         "(or pip install -e \".[web]\" in a checkout)")
    from .server import BoardServer
    options, rest = parse_args(argv)
    command = engine_command(options.engine, rest)
    port, tries = (DEFAULT_PORT, PORT_TRIES) if options.port is None else (options.port, 1)
    server = BoardServer(command, options.host, port, engine_stderr=sys.stderr, port_tries=tries)
    asyncio.run(_serve(server, options.open))


async def _serve(server, open_browser: bool) -> None:
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, done.set)
    from .controller import ControllerError
    try:
        url = await server.start()
    except OSError as err:
        await server.stop()
        tried = f"{server.asked_port}" if server.port_tries == 1 else \
            f"{server.asked_port} to {server.asked_port + server.port_tries - 1}"
        raise SystemExit(f"vargo-web: cannot listen on {server.host} port {tried}: "
                         f"{err.strerror or err}")
    except ControllerError as err:
        await server.stop()
        raise SystemExit(f"vargo-web: {err}")
    if server.port != server.asked_port and server.asked_port:
        print(f"vargo-web: port {server.asked_port} is in use, so the board is on port {server.port}",
              file=sys.stderr, flush=True)
    print(f"vargo-web: the board of {server.controller.name or 'the engine'} is at\n    {url}\n"
          "(Ctrl-C ends it and the engine)", flush=True)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    try:
        await done.wait()
    finally:
        await server.stop()
