"""The browser board (``vargo-web``): a local web server that drives a GTP engine as Sabaki or
GoGui would, and one page that draws the engine's board of every game (Loose's flips, Disto's
meals, Terrain Go's map and forts, Goncrete's end), with analysis, clocks and SGF files.

- ``controller``: the GTP controller (the match runner's client, the game kept for replays);
- ``server``: the aiohttp server, its token and its websocket messages;
- ``cli``: ``vargo-web`` and ``python -m gtp_engine.web``;
- ``static/``: the page (plain ES modules, no build step).

Needs the ``web`` extra (aiohttp). Nothing else in the package imports this one.
"""
