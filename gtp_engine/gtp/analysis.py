"""Analysis streams as KataGo and Leela Zero write them, for Sabaki, Lizzie and their kin:
``lz-analyze``, ``kata-analyze``, ``lz-genmove_analyze``, ``kata-genmove_analyze``.

``lz-analyze [COLOR] [INTERVAL] [KEY VALUE ...]`` answers ``=`` at once and searches the
position for COLOR (default: the side to move) in the background, writing one ``info`` line
every INTERVAL centiseconds (``interval N`` says the same; no interval: no lines, the search
only ponders), until the next input line arrives: the search stops, the empty line ends the
response, and that line is answered as usual. The game is never changed.
``*-genmove_analyze`` are ``genmove`` (same budget, same move, played on our board) writing the
same lines while it thinks, then ``play VERTEX`` (or ``play pass``, ``play resign``); a new
input line does not cut it short (as in KataGo).

Keys: ``interval N``, ``minmoves N`` (also list moves the search has not visited yet, up to
N), ``maxmoves N``; for ``kata-*`` also ``ownership true``, ``ownershipStdev true`` and
``rootInfo true``. ``avoid``/``allow`` and the other KataGo keys are refused (the search has
no way to honour them).

One line holds the moves the search has looked at enough, most visited first, each a segment
``info move V visits N ... order K pv V V ...`` whose keys and values come in pairs and whose
``pv`` (starting with the move itself) ends it, as Sabaki's parser requires.

What the line says is the search's own estimate (``listed_moves``). Sabaki takes the position's
win rate and score lead as the largest among the listed moves, Lizzie as the first one's; a
move tried a handful of times has Monte Carlo noise for values (a 4-visit move at +22.5 beside
the best move's -3.1 over 675 visits), so a move is listed only with ``MIN_LISTED_VISITS``
visits and ``LISTED_SHARE`` of the best move's, and no other move's win rate or score lead is
stated above the best move's: the search prefers the best move, so its estimate of the
position is that move's, and a runner-up's higher average is noise the search has not
confirmed. ``minmoves N`` still lists up to N moves (the least visited included).

The values:

- ``lz-*``: ``winrate``, ``prior`` and ``lcb`` as integers in ten-thousandths;
- ``kata-*``: ``winrate``, ``prior``, ``lcb`` as decimals in [0, 1] (always written with a
  decimal point, so that readers that infer the dialect from it never misread a sure win
  ``1`` as 0.01%), ``scoreLead`` (and ``scoreMean``, the same value, which older tools read):
  the expected final margin of the player analysed, in the game's own points (area with
  Terrain Go's weights and forts, Loose's stones, Disto's stones outside meals, komi included);
  then, after the last segment, ``rootInfo visits N winrate W scoreLead S scoreMean S``,
  ``ownership`` and ``ownershipStdev`` with one value per point, top row first, left to right
  (A19 ... T1, KataGo's order), from the point of view of the player analysed (1: that player
  gets the point).

Win rates and scores are the player analysed's own, as in KataGo's default and Leela Zero.
"""

import math
from dataclasses import dataclass, replace
from typing import List, Optional

from ..coords import Color, format_vertex
from ..errors import EngineError, quote
from .args import parse_float, parse_int
from .core import check_can_generate, generate
from .errors import GtpError
from .protocol import StreamedAnswer
from .table import CommandTable

TABLE = CommandTable("analysis")

MIN_LISTED_VISITS = 8        #: visits a move needs to be listed (besides the best), as a leaf needs to expand
LISTED_SHARE = 0.02          #: and this share of the best move's visits
MIN_INTERVAL = 0.05          #: seconds: a faster report would cost more than it shows
MAX_INTERVAL_CS = 360000     #: centiseconds (an hour): more is a typo
_BOOLEANS = {"true": True, "false": False, "1": True, "0": False}
_KATA_KEYS = ("ownership", "ownershipStdev", "rootInfo")
_UNSUPPORTED = ("avoid", "allow", "movesOwnership", "movesOwnershipStdev", "pvVisits",
                "pvEdgeVisits", "noResultValue")


@dataclass(frozen=True)
class AnalyzeRequest:
    """An analysis command's arguments. ``interval`` in seconds, None for no reports."""

    color: Color
    interval: Optional[float] = None
    min_moves: int = 0
    max_moves: int = 10 ** 9
    ownership: bool = False
    ownership_stdev: bool = False
    root_info: bool = False


def parse_request(args: List[str], to_move: Color, kata: bool) -> AnalyzeRequest:
    """``[COLOR] [INTERVAL] [KEY VALUE ...]`` as KataGo reads it; GtpError when it cannot."""
    values = {"color": to_move}
    rest = list(args)
    if rest:
        try:
            values["color"] = Color.parse(rest[0])
            rest.pop(0)
        except EngineError:
            pass
    if rest and _is_number(rest[0]):
        values["interval"] = _interval(rest.pop(0))
    while rest:
        key = rest.pop(0)
        if key in _UNSUPPORTED:
            raise GtpError(f"analysis option {quote(key)} is not supported")
        if key in _KATA_KEYS and not kata:
            raise GtpError(f"analysis option {quote(key)} is only for kata-analyze")
        if key not in ("interval", "minmoves", "maxmoves") + _KATA_KEYS:
            raise GtpError(f"unknown analysis option: {quote(key)} (interval, minmoves, maxmoves"
                           + (", ownership, ownershipStdev, rootInfo)" if kata else ")"))
        if not rest:
            raise GtpError(f"analysis option {quote(key)} needs a value")
        value = rest.pop(0)
        if key == "interval":
            values["interval"] = _interval(value)
        elif key == "minmoves":
            values["min_moves"] = parse_int(value, "minmoves", 0, 10 ** 9)
        elif key == "maxmoves":
            values["max_moves"] = parse_int(value, "maxmoves", 0, 10 ** 9)
        else:
            if value.lower() not in _BOOLEANS:
                raise GtpError(f"{key} must be true or false, not {quote(value)}")
            field = {"ownership": "ownership", "ownershipStdev": "ownership_stdev",
                     "rootInfo": "root_info"}[key]
            values[field] = _BOOLEANS[value.lower()]
    return AnalyzeRequest(**values)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _interval(text: str) -> Optional[float]:
    centiseconds = parse_float(text, "interval", 0)
    if centiseconds > MAX_INTERVAL_CS:
        raise GtpError(f"interval must be at most {MAX_INTERVAL_CS} centiseconds, "
                       f"not {quote(text)}")
    return max(centiseconds / 100, MIN_INTERVAL)


# ----------------------------------------------------------------- the info line
def _decimal(value: float, digits: int) -> str:
    """Always with a decimal point, never ``-0.0``."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _ten_thousandths(value: float) -> str:
    return str(int(round(10000 * value)))


def info_line(analysis, request: AnalyzeRequest, kata: bool) -> str:
    """One report of ``analysis`` (a ``search.player.Analysis`` for ``request.color``): the
    segments of the moves to show, then what ``kata-analyze`` was asked for. Empty while no
    move has been visited (and none is asked for by ``minmoves``)."""
    shown = listed_moves(analysis, request)
    if not shown:
        return ""
    parts = [_segment(info, order, kata) for order, info in enumerate(shown)]
    if kata:
        if request.root_info:
            parts.append(_root_info(analysis))
        sign = 1.0 if analysis.color == Color.BLACK else -1.0
        if request.ownership or request.ownership_stdev:
            parts.append("ownership " + " ".join(
                _decimal(sign * value, 4) for value in _top_row_first(analysis.ownership, analysis.size)))
        if request.ownership_stdev:
            parts.append("ownershipStdev " + " ".join(
                _decimal(value, 4) for value in _top_row_first(analysis.ownership_stdev, analysis.size)))
    return " ".join(parts)


def listed_moves(analysis, request: AnalyzeRequest) -> list:
    """The moves an info line lists, best first: the best (most visited) move, the others with
    enough visits (``MIN_LISTED_VISITS`` and ``LISTED_SHARE`` of the best's), then up to
    ``minmoves`` of the rest, at most ``maxmoves``; every move after the best has its win rate
    and score lead capped at the best's (see the module docstring)."""
    moves = analysis.moves
    visited = [m for m in moves if m.visits > 0]
    if not visited and request.min_moves == 0:
        return []
    floor = max(MIN_LISTED_VISITS, LISTED_SHARE * visited[0].visits) if visited else 0
    shown = visited[:1] + [m for m in visited[1:] if m.visits >= floor]
    if len(shown) < request.min_moves:
        rest = [m for m in moves if m not in shown]       # most visited first, unvisited last
        shown += rest[:request.min_moves - len(shown)]
    shown = shown[:request.max_moves]
    if not shown:
        return []
    best = shown[0]
    return [best] + [replace(m, winrate=min(m.winrate, best.winrate),
                             score_lead=min(m.score_lead, best.score_lead)) for m in shown[1:]]


def _segment(info, order: int, kata: bool) -> str:
    pv = " ".join(format_vertex(m) for m in (info.pv or [info.move]))
    if kata:
        lead = _decimal(info.score_lead, 2)
        return (f"info move {format_vertex(info.move)} visits {info.visits} "
                f"edgeVisits {info.visits} winrate {_decimal(info.winrate, 6)} "
                f"scoreMean {lead} scoreLead {lead} prior {_decimal(info.prior, 6)} "
                f"lcb {_decimal(info.lcb, 6)} order {order} pv {pv}")
    return (f"info move {format_vertex(info.move)} visits {info.visits} "
            f"winrate {_ten_thousandths(info.winrate)} prior {_ten_thousandths(info.prior)} "
            f"lcb {_ten_thousandths(info.lcb)} order {order} pv {pv}")


def _root_info(analysis) -> str:
    visited = [m for m in analysis.moves if m.visits > 0]
    total = sum(m.visits for m in visited) or 1
    winrate = sum(m.visits * m.winrate for m in visited) / total if visited else 0.5
    lead = _decimal(sum(m.visits * m.score_lead for m in visited) / total, 2)
    return (f"rootInfo visits {analysis.simulations} winrate {_decimal(winrate, 6)} "
            f"scoreMean {lead} scoreLead {lead}")


def _top_row_first(values, size: int):
    """Values indexed ``row*size + col`` (row 0 at the bottom) in KataGo's order."""
    return [values[row * size + col] for row in range(size - 1, -1, -1) for col in range(size)]


# ----------------------------------------------------------------- the commands
def _analyze(engine, args, kata: bool):
    game = engine.game
    if game.fort_turn is not None:
        raise GtpError(f"forts are not all placed: {game.fort_turn.word} places the next one "
                       "(use fort or genfort)")
    request = parse_request(args, game.to_move, kata)
    game, player = game.copy(), engine.player

    def start(stream):
        def report(analysis):
            line = info_line(analysis, request, kata)
            if line:
                stream.line(line)

        def work(stop):
            player.search(game, request.color, seconds=math.inf, stop=stop,
                          progress=report if request.interval else None,
                          progress_interval=request.interval or 1.0, early_stop=False)
        engine.run_in_background("analysis", work, finish=stream.close)
    return StreamedAnswer(start)


def _genmove_analyze(engine, args, kata: bool):
    request = parse_request(args, engine.game.to_move, kata)
    check_can_generate(engine, request.color)

    def start(stream):
        def report(analysis):
            line = info_line(analysis, request, kata)
            if line:
                stream.line(line)
        move = generate(engine, request.color, commit=True,
                        progress=report if request.interval else None,
                        progress_interval=request.interval or 1.0)
        stream.close(f"play {move}")
    return StreamedAnswer(start)


@TABLE.query("lz-analyze")
def lz_analyze(engine, args):
    return _analyze(engine, args, kata=False)


@TABLE.query("kata-analyze")
def kata_analyze(engine, args):
    return _analyze(engine, args, kata=True)


@TABLE.command("lz-genmove_analyze")
def lz_genmove_analyze(engine, args):
    return _genmove_analyze(engine, args, kata=False)


@TABLE.command("kata-genmove_analyze")
def kata_genmove_analyze(engine, args):
    return _genmove_analyze(engine, args, kata=True)
