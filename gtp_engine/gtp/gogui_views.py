"""GoGui's views of the search (analyze commands of type ``gfx``), its parameter dialog
(type ``param``), and the live view it reads from stderr while a command thinks.

GoGui's gfx syntax (its manual, "Analyze Commands" and "Live Graphics"; ``AnalyzeShow`` in its
source): one draw command per line, ``INFLUENCE`` point/number pairs in [-1, 1] (black
positive), ``LABEL`` point/text pairs, ``VAR`` colour/move pairs (``b D4 w pass``), ``TEXT``
the rest of the line for the status bar. A live view is written to stderr as ``gogui-gfx:``
alone on a line, the draw commands, then an empty line; GoGui clears the board's marks before
each one. ``gogui-gfx: CLEAR`` when the search is over keeps a late view from landing on the
next command's board.

- ``vargo-ownership``: who gets each point (``INFLUENCE``) and the expected result (``TEXT``).
- ``vargo-best_moves [COLOR] [winrate|visits|lead]``: the moves the search likes, labelled
  with the win rate (percent), the visits or the expected margin (``LABEL``), and all three
  for the best ones in ``TEXT``.
- ``vargo-pv [COLOR]``: the principal variation as numbered ghost stones (``VAR``).
- ``vargo-param [KEY VALUE]``: without arguments, the settings as GoGui's dialog reads them
  (``[string] playouts 5000``: the values in use, defaults included); with a key and a value,
  set it.

The views search the current position for COLOR (default: the side to move) with the engine's
budget (``--playouts``/``--time``, else the player's default) and share one search per position
and settings: asking the three views costs one search.
"""

import sys
from dataclasses import replace
from typing import Callable, List

from ..coords import Color, format_vertex
from ..errors import quote
from .args import expect, parse_color, parse_float, parse_int
from .errors import GtpError
from .table import CommandTable

TABLE = CommandTable("gogui views")

LIVE_INTERVAL = 0.5           #: seconds between two live views
MAX_LABELS = 10               #: moves labelled by vargo-best_moves
MIN_SHARE = 0.01              #: share of the visits a move needs to be labelled
LABEL_KINDS = ("winrate", "visits", "lead")


# ----------------------------------------------------------------- the gfx text
def _black_share(analysis, value: float) -> float:
    """A win rate of the player analysed, as Black's."""
    return value if analysis.color == Color.BLACK else 1.0 - value


def _black_lead(analysis, lead: float) -> float:
    return lead if analysis.color == Color.BLACK else -lead


def result_text(analysis) -> str:
    """``black wins 62%, leads by 3.5 (4000 simulations)``: the best move's view, as Black's."""
    if analysis.best is None or analysis.best.visits == 0:
        return f"no move searched yet ({analysis.simulations} simulations)"
    winrate = _black_share(analysis, analysis.winrate)
    lead = _black_lead(analysis, analysis.score_lead)
    leader = "black" if lead >= 0 else "white"
    return (f"black wins {100 * winrate:.0f}%, {leader} leads by {abs(lead):.1f} "
            f"({analysis.simulations} simulations)")


def influence_line(analysis) -> str:
    """``INFLUENCE`` with every point, top row first (black positive)."""
    size = analysis.size
    pairs = []
    for row in range(size - 1, -1, -1):
        for col in range(size):
            value = analysis.ownership[row * size + col]
            text = f"{value:.2f}"
            pairs.append(f"{format_vertex((row, col))} {text[1:] if text == '-0.00' else text}")
    return "INFLUENCE " + " ".join(pairs)


def _labelled(analysis) -> List:
    total = max(analysis.visits, 1)
    moves = [m for m in analysis.moves if m.move is not None and m.visits > 0
             and m.visits >= MIN_SHARE * total]
    return moves[:MAX_LABELS]


def _visits_text(visits: int) -> str:
    if visits < 1000:
        return str(visits)
    if visits < 10000:
        return f"{visits / 1000:.1f}k"
    return f"{visits // 1000}k"


def label_line(analysis, kind: str = "winrate") -> str:
    """``LABEL`` of the moves worth showing, each with its win rate (percent), visits or
    expected margin, for the player analysed; empty when nothing was searched."""
    pairs = []
    for info in _labelled(analysis):
        if kind == "visits":
            text = _visits_text(info.visits)
        elif kind == "lead":
            text = f"{info.score_lead:+.1f}"
        else:
            text = f"{100 * info.winrate:.0f}%"
        pairs.append(f"{format_vertex(info.move)} {text}")
    return "LABEL " + " ".join(pairs) if pairs else ""


def best_moves_text(analysis, top: int = 3) -> str:
    """``TEXT`` of the best moves: ``D4 62% 1200 visits +3.5, ...`` for the player analysed."""
    parts = [f"{format_vertex(m.move)} {100 * m.winrate:.0f}% {m.visits} visits "
             f"{m.score_lead:+.1f}" for m in analysis.moves[:top] if m.visits > 0]
    who = analysis.color.word
    return f"TEXT {who}: " + (", ".join(parts) if parts else "nothing searched yet")


def variation_line(analysis) -> str:
    """``VAR`` of the best move's principal variation (empty when nothing was searched)."""
    best = analysis.best
    if best is None or best.visits == 0:
        return ""
    color = analysis.color
    moves = []
    for move in best.pv:
        moves.append(f"{color.letter} {format_vertex(move)}")
        color = color.opponent
    return "VAR " + " ".join(moves)


def _gfx(*lines: str) -> str:
    return "\n".join(line for line in lines if line)


# ----------------------------------------------------------------- the live view
def live_view(game) -> Callable:
    """A search progress callback drawing the search's current view on stderr: the game's
    own marks (terrain, forts, meals: GoGui clears them before a live view), ownership, the
    principal variation, and the state of the search in the status bar."""
    from .gogui import board_marks
    marks = board_marks(game)

    def draw(analysis):
        text = _gfx(marks, influence_line(analysis), variation_line(analysis),
                    f"TEXT thinking: {result_text(analysis)}")
        sys.stderr.write(f"gogui-gfx:\n{text}\n\n")
        sys.stderr.flush()
    return draw


def clear_live_view() -> None:
    sys.stderr.write("gogui-gfx: CLEAR\n")
    sys.stderr.flush()


# ----------------------------------------------------------------- the views
def view_analysis(engine, color: Color):
    """The search of the current position for ``color`` the views show (one per position and
    settings; the live view is drawn while it runs when it is on)."""
    game = engine.game
    if game.fort_turn is not None:
        raise GtpError(f"forts are not all placed: {game.fort_turn.word} places the next one "
                       "(use fort or genfort)")
    key = (engine.position_key(color), engine.settings)
    if engine.view_analysis is not None and engine.view_analysis[0] == key:
        return engine.view_analysis[1]
    live = engine.live_gfx
    analysis = engine.player.search(game, color, progress=live_view(game) if live else None,
                                    progress_interval=LIVE_INTERVAL)
    if live:
        clear_live_view()
    engine.view_analysis = (key, analysis)
    return analysis


def _color_arg(engine, args, index: int = 0) -> Color:
    return parse_color(args[index]) if len(args) > index else engine.game.to_move


@TABLE.query("vargo-ownership")
def ownership(engine, args):
    expect(args, 0, 1, usage="vargo-ownership [COLOR]")
    analysis = view_analysis(engine, _color_arg(engine, args))
    return _gfx(influence_line(analysis), f"TEXT {result_text(analysis)}")


@TABLE.query("vargo-best_moves")
def best_moves(engine, args):
    expect(args, 0, 2, usage="vargo-best_moves [COLOR] [winrate|visits|lead]")
    rest, kind = list(args), "winrate"
    if rest and rest[-1].lower() in LABEL_KINDS:
        kind = rest.pop().lower()
    if len(rest) > 1:
        raise GtpError(f"unknown label kind: {quote(rest[-1])} (winrate, visits or lead)")
    analysis = view_analysis(engine, _color_arg(engine, rest))
    return _gfx(label_line(analysis, kind), best_moves_text(analysis))


@TABLE.query("vargo-pv")
def principal_variation(engine, args):
    expect(args, 0, 1, usage="vargo-pv [COLOR]")
    analysis = view_analysis(engine, _color_arg(engine, args))
    best = analysis.best
    text = "TEXT " + (" ".join(format_vertex(m) for m in best.pv) + ": " if best else "") + \
        result_text(analysis)
    return _gfx(variation_line(analysis), text)


# ----------------------------------------------------------------- parameters
PARAMS = ("playouts", "time", "threads", "resign", "ponder", "live_view")


def _param_lines(engine) -> str:
    """The values the search really uses: with neither playouts nor a time per move set, the
    player's ``DEFAULT_PLAYOUTS`` (0 playouts: none fixed, the time decides; 0 time: none)."""
    from ..search.player import DEFAULT_PLAYOUTS
    s = engine.settings
    playouts = s.playouts or (DEFAULT_PLAYOUTS if s.move_time is None else 0)
    return "\n".join([
        f"[string] playouts {playouts}",
        f"[string] time {s.move_time or 0:g}",
        f"[string] threads {s.threads}",
        f"[string] resign {s.resign or 0:g}",
        f"[bool] ponder {int(s.ponder)}",
        f"[bool] live_view {int(engine.live_gfx)}",
    ])


def _bool(text: str, key: str) -> bool:
    if text.lower() in ("1", "true", "on"):
        return True
    if text.lower() in ("0", "false", "off"):
        return False
    raise GtpError(f"{key} must be 0 or 1, not {quote(text)}")


@TABLE.command("vargo-param")
def param(engine, args):
    """No argument: the settings, one ``[type] key value`` a line (GoGui's param dialog).
    ``vargo-param KEY VALUE`` sets one: ``playouts`` per move (0: none, the time decides),
    ``time`` seconds per move (0: none), ``threads``, ``resign`` win rate (0: never),
    ``ponder`` and ``live_view`` (0 or 1)."""
    if not args:
        return _param_lines(engine)
    expect(args, 2, usage="vargo-param [KEY VALUE]")
    key, value = args[0].lower(), args[1]
    s = engine.settings
    if key == "playouts":
        count = parse_int(value, "playouts", 0, 10 ** 9)
        engine.settings = replace(s, playouts=count or None)
    elif key == "time":
        seconds = parse_float(value, "time", 0)
        engine.settings = replace(s, move_time=seconds or None)
    elif key == "threads":
        from ..search import MAX_THREADS
        engine.settings = replace(s, threads=parse_int(value, "threads", 1, MAX_THREADS))
    elif key == "resign":
        rate = parse_float(value, "resign", 0)
        if rate >= 1:
            raise GtpError(f"resign must be a win rate below 1 (0: never), not {quote(value)}")
        engine.settings = replace(s, resign=rate or None)
    elif key == "ponder":
        engine.settings = replace(s, ponder=_bool(value, key))
    elif key == "live_view":
        engine.settings = replace(s, live_gfx=_bool(value, key))
    else:
        raise GtpError(f"unknown parameter: {quote(args[0])} ({', '.join(PARAMS)})")
    return ""
