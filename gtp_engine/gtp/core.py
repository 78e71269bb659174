"""The standard GTP v2 commands, and the common extensions ``printsgf``, ``kgs-time_settings``,
``kgs-genmove_cleanup`` and ``cputime``."""

import logging
import os
import time
from typing import Optional

from ..coords import Color, format_vertex, reading_order
from ..errors import EngineError, quote, quote_path
from ..files import NotRegularFile, open_regular, write_atomically
from .args import (expect, format_vertices, parse_color, parse_float, parse_int, parse_move,
                   parse_point)
from .drawing import draw_board
from .clock import TimeControl, TimeLeft
from .errors import GtpError, GtpQuit
from .table import CommandTable

TABLE = CommandTable("core")
log = logging.getLogger(__name__)


# ----------------------------------------------------------------- administration
@TABLE.query("protocol_version")
def protocol_version(engine, args):
    expect(args, 0, usage="protocol_version")
    return engine.protocol_version


@TABLE.query("name")
def name(engine, args):
    expect(args, 0, usage="name")
    return engine.name


@TABLE.query("version")
def version(engine, args):
    expect(args, 0, usage="version")
    return engine.version


@TABLE.query("known_command")
def known_command(engine, args):
    expect(args, 1, usage="known_command COMMAND")
    return "true" if args[0] in engine.handlers else "false"


@TABLE.query("list_commands")
def list_commands(engine, args):
    expect(args, 0, usage="list_commands")
    return "\n".join(engine.command_names())


@TABLE.query("quit")
def quit_(engine, args):
    expect(args, 0, usage="quit")
    raise GtpQuit()


@TABLE.query("cputime")
def cputime(engine, args):
    expect(args, 0, usage="cputime")
    return f"{time.process_time():.3f}"


# ----------------------------------------------------------------- setup
@TABLE.command("boardsize")
def boardsize(engine, args):
    """Keeps komi, rules and (for the same size) the map and forts: Sabaki sends it on every sync."""
    expect(args, 1, usage="boardsize SIZE")
    size = parse_int(args[0], "board size")
    engine.game.set_size(size)
    engine.place_auto_forts()
    return ""


@TABLE.command("clear_board")
def clear_board(engine, args):
    expect(args, 0, usage="clear_board")
    engine.game.clear()
    return ""


@TABLE.command("komi")
def komi(engine, args):
    """Refused (an error, komi unchanged) when K is no number or breaks RULES C6. The refusal is
    also logged as a warning on stderr: GoGui ignores a failed ``komi`` without a word
    (``GtpSynchronizer.sendGameInfo``) and then scores with its own komi, so its user sees the
    warning in the GTP shell or nowhere."""
    try:
        expect(args, 1, usage="komi KOMI")
        value = parse_float(args[0], "komi")
        engine.game.set_komi(int(value) if value == int(value) else value)  # "not 5", not "not 5.0"
    except (GtpError, EngineError) as err:
        log.warning("komi refused, the engine keeps komi %g: %s (a controller that scores with "
                    "its own komi now counts differently; GoGui: start it with -komi %g)",
                    engine.game.komi, err, engine.game.komi)
        raise
    return ""


def _handicap_count(engine, text):
    return parse_int(text, "number of handicap stones", 2, engine.game.size ** 2 - 1)


@TABLE.command("fixed_handicap")
def fixed_handicap(engine, args):
    from .handicap import fixed_handicap_points
    expect(args, 1, usage="fixed_handicap STONES")
    game = engine.game
    _require_handicap(game)
    points = fixed_handicap_points(game.size, _handicap_count(engine, args[0]))
    game.place_handicap(points)
    return format_vertices(points)


@TABLE.command("place_free_handicap")
def place_free_handicap(engine, args):
    """The fixed points where they exist and are legal, then random legal points."""
    from .handicap import fixed_handicap_points, max_fixed_handicap
    expect(args, 1, usage="place_free_handicap STONES")
    game = engine.game
    _require_handicap(game)
    stones = _handicap_count(engine, args[0])
    preferred = fixed_handicap_points(game.size, min(stones, max_fixed_handicap(game.size))) \
        if max_fixed_handicap(game.size) >= 2 else []
    chosen = [p for p in preferred if game.illegal_reason(Color.BLACK, p) is None][:stones]
    others = [p for p in game.legal_moves(Color.BLACK) if p not in chosen]
    engine.rng.shuffle(others)
    for point in others:
        if len(chosen) == stones:
            break
        if chosen:  # a lone point is legal on the empty board; later ones must fit with the rest
            try:
                game.copy().place_handicap(chosen + [point])
            except EngineError:
                continue
        chosen.append(point)
    if len(chosen) < stones:
        raise GtpError(f"cannot place {stones} handicap stones on this board")
    game.place_handicap(chosen)
    return format_vertices(chosen)


@TABLE.command("set_free_handicap")
def set_free_handicap(engine, args):
    expect(args, 2, -1, usage="set_free_handicap VERTEX VERTEX ...")
    game = engine.game
    _require_handicap(game)
    points = [parse_point(a, game.size) for a in args]
    game.place_handicap(points)
    return ""


def _require_handicap(game):
    """Check the board first, so that the error names the real cause before counting stones."""
    if not game.rules.allows_handicap:
        raise GtpError(f"{game.rules.name} has no handicap")
    if game.moves or game.setup:
        raise GtpError("board not empty")


# ----------------------------------------------------------------- play
@TABLE.command("play")
def play(engine, args):
    expect(args, 2, usage="play COLOR VERTEX")
    game = engine.game
    game.play(parse_color(args[0]), parse_move(args[1], game.size))
    return ""


@TABLE.command("undo")
def undo(engine, args):
    expect(args, 0, usage="undo")
    engine.game.undo()
    return ""


def _generate(engine, args, commit: bool, cleanup: bool = False) -> str:
    expect(args, 1, usage="COLOR")
    color = parse_color(args[0])
    check_can_generate(engine, color)
    return generate(engine, color, commit, cleanup)


def check_can_generate(engine, color) -> None:
    """Refuse before any search when ``color`` cannot move: forts pending, or it moved last
    (so may not pass) and has no legal placement."""
    game = engine.game
    if game.fort_turn is not None:
        raise GtpError(f"forts are not all placed: {game.fort_turn.word} places the next one "
                       "(use fort or genfort)")
    if game.end_reason != "annihilation" and game.illegal_reason(color, None) is not None \
            and not game.legal_moves(color):
        raise GtpError(f"{color.word} made the last move, so it may not pass, and it has no "
                       "legal placement")


def generate(engine, color, commit: bool, cleanup: bool = False, progress=None,
             progress_interval: float = 1.0) -> str:
    """The search player's move for ``color`` (a vertex, ``pass`` or ``resign``), played on
    our board when ``commit`` (genmove always plays what it answers), only named otherwise
    (reg_genmove). ``progress(analysis)`` is called while it searches (genmove_analyze); GoGui's
    live view is drawn on stderr when it is on. With ``--ponder`` a committed move is followed
    by pondering."""
    from .gogui_views import LIVE_INTERVAL, clear_live_view, live_view
    engine.interrupt()   # the player searches one thing at a time
    game = engine.game
    reports = [progress] if progress is not None else []
    if engine.live_gfx:
        reports.append(live_view(game))
        if progress is None:
            progress_interval = LIVE_INTERVAL

    def report(analysis):
        for callback in reports:
            callback(analysis)
    started = time.perf_counter()
    budget = engine.move_budget(color)
    move, analysis = engine.player.genmove(game, color, budget, cleanup,
                                           progress=report if reports else None,
                                           progress_interval=progress_interval,
                                           early_stop=not engine.in_byo_yomi(color),
                                           extend_to=engine.move_limit(color, budget))
    if commit:
        # a searched budget comes back as the time allowed: itself, or more for a close choice
        allowed = budget if analysis is None or budget is None else analysis.seconds_allowed
        engine.note_move_time(color, allowed, time.perf_counter() - started)
    if engine.live_gfx:
        clear_live_view()
    if analysis is not None and engine.settings.summary:
        log_summary(engine.player.summary(analysis))
    if move == "resign":
        return "resign"
    if commit:
        game.play(color, move)
        engine.last_analysis = analysis
        engine.start_pondering()
    return format_vertex(move)


def log_summary(text: str) -> None:
    """The search summary goes to stderr whatever the log level (never to stdout)."""
    import sys
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


@TABLE.command("genmove")
def genmove(engine, args):
    return _generate(engine, args, commit=True)


@TABLE.command("kgs-genmove_cleanup")
def genmove_cleanup(engine, args):
    """As genmove, but every dead opponent stone is captured before the engine passes."""
    return _generate(engine, args, commit=True, cleanup=True)


@TABLE.command("reg_genmove")
def reg_genmove(engine, args):
    return _generate(engine, args, commit=False)


# ----------------------------------------------------------------- views and results
@TABLE.query("showboard")
def showboard(engine, args):
    expect(args, 0, usage="showboard")
    return draw_board(engine.game)


@TABLE.query("final_score")
def final_score(engine, args):
    """The score with the dead stones (``final_status_list dead``) taken off."""
    from ..search.status import final_score as score_without
    expect(args, 0, usage="final_score")
    dead, _ = engine.final_status()
    return score_without(engine.game, dead).result


@TABLE.query("final_status_list")
def final_status_list(engine, args):
    """``dead``: stones the search sees captured at the end (area-scored games), Disto's meals,
    none in Loose; ``seki``: living stones beside a point nobody gets; ``alive``: the rest."""
    expect(args, 1, usage="final_status_list alive|dead|seki")
    status = args[0].lower()
    game = engine.game
    if status not in ("alive", "dead", "seki"):
        raise GtpError(f"invalid status: {quote(args[0])} (alive, dead or seki)")
    dead, seki = engine.final_status()
    if status == "dead":
        return format_vertices(dead)
    if status == "seki":
        return format_vertices(seki)
    size, position = game.size, game.position
    stones = [(r, c) for r in range(size) for c in range(size) if position.stone_at((r, c))]
    dead = set(dead)
    return format_vertices(reading_order(p for p in stones if p not in dead))


# ----------------------------------------------------------------- time
@TABLE.command("time_settings")
def time_settings(engine, args):
    expect(args, 3, usage="time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
    main = parse_float(args[0], "main time", 0)
    byo = parse_float(args[1], "byo-yomi time", 0)
    stones = parse_int(args[2], "byo-yomi stones", 0)
    if stones > 0 and byo == 0:
        raise GtpError(f"byo-yomi of {stones} stones needs a byo-yomi time above 0")
    if stones > 0:
        system = "canadian"
    elif byo > 0 or main == 0:  # GTP: byo-yomi time without stones means no time limit
        system = "none"
    else:
        system = "absolute"
    engine.time_control = TimeControl(system, main, byo, stones, 0)
    engine.time_left = {}
    return ""


@TABLE.command("kgs-time_settings")
def kgs_time_settings(engine, args):
    """``none`` | ``absolute MAIN`` | ``byoyomi MAIN PERIOD_TIME PERIODS`` |
    ``canadian MAIN BYO_YOMI_TIME STONES``."""
    expect(args, 1, 4, usage="kgs-time_settings none|absolute|byoyomi|canadian ...")
    system = args[0].lower()
    usages = {"none": "", "absolute": " MAIN_TIME", "byoyomi": " MAIN_TIME PERIOD_TIME PERIODS",
              "canadian": " MAIN_TIME BYO_YOMI_TIME STONES"}
    if system not in usages:
        raise GtpError(f"unknown time system: {quote(args[0])} (none, absolute, byoyomi, canadian)")
    expect(args, 1 + usages[system].count(" "), usage=f"kgs-time_settings {system}{usages[system]}")
    main = parse_float(args[1], "main time", 0) if len(args) > 1 else 0.0
    byo = parse_float(args[2], "byo-yomi time", 0) if len(args) > 2 else 0.0
    count = parse_int(args[3], "periods" if system == "byoyomi" else "byo-yomi stones", 0) \
        if len(args) > 3 else 0
    if system in ("byoyomi", "canadian") and (byo > 0) != (count > 0):
        what = "periods" if system == "byoyomi" else "byo-yomi stones"
        raise GtpError(f"{system} needs both a period time and {what} above 0, or neither "
                       f"(got {byo:g} seconds and {count})")
    if system == "byoyomi":
        engine.time_control = TimeControl(system, main, byo, 1, count)
    else:
        engine.time_control = TimeControl(system, main, byo, count, 0)
    engine.time_left = {}
    return ""


@TABLE.command("time_left")
def time_left(engine, args):
    expect(args, 3, usage="time_left COLOR TIME STONES")
    color = parse_color(args[0])
    seconds = parse_float(args[1], "time left", 0)
    stones = parse_int(args[2], "stones", 0)
    engine.time_left = {**engine.time_left, color: TimeLeft(seconds, stones)}
    return ""


# ----------------------------------------------------------------- files
@TABLE.command("loadsgf")
def loadsgf(engine, args):
    """``loadsgf FILE [MOVE_NUMBER]``: the game of the file, before move MOVE_NUMBER (counted
    from 1, as GTP says) or after the whole main line."""
    import sgf
    expect(args, 1, 2, usage="loadsgf FILE [MOVE_NUMBER]")
    move_number = parse_int(args[1], "move number", 1) if len(args) == 2 else None
    data = _read_file(args[0])
    record = sgf.SgfRecord.from_bytes(data, move_number)
    for note in record.notes:
        log.warning("loadsgf %s: %s", args[0], note)
    engine.game = record.game
    engine.loaded_sgf = (record, record.game.history_id)
    return ""


@TABLE.query("printsgf")
def printsgf(engine, args):
    """``printsgf [FILE|-] [view]``: the game as SGF in the answer, or written to FILE (as GNU Go
    does; ``-`` is the answer). ``view`` writes the view form, whose set-up nodes make Go
    viewers such as Sabaki show the true board of Loose, Goncrete and Disto (never feed it to an
    engine)."""
    import sgf
    expect(args, 0, 2, usage="printsgf [FILE|-] [view]")
    if len(args) == 2 and args[1].lower() != "view":
        raise GtpError(f"the second argument can only be 'view', not {quote(args[1])}")
    view = len(args) == 2
    record, history_id = engine.loaded_sgf or (None, None)
    if record is not None and engine.game.history_id == history_id:
        record.game = engine.game  # the loaded game, moves since included: keep the file's data
        data = record.to_bytes(view=view)
    else:
        data = sgf.game_to_sgf(engine.game, view=view)
    if args and args[0] != "-":
        _write_file(args[0], data)
        return ""
    return data.decode("utf-8", "replace")


# Files are regular files only (``files.open_regular``). Our own stdout or stderr
# (``/dev/stdout``, ``/proc/self/fd/1``, a file the output is redirected to) would put SGF outside
# a GTP answer, ``/dev/stdin`` would eat the commands, and a fifo or device can block the engine
# for good.
_OUR_STREAMS = (0, 1, 2)


def _own_stream_problem(fd: int) -> Optional[str]:
    """Why the open regular file ``fd`` may not be used, or None when it is not one of ours."""
    status = os.fstat(fd)
    for stream in _OUR_STREAMS:
        try:
            if os.path.samestat(status, os.fstat(stream)):
                return "it is the engine's own standard input, output or error"
        except OSError:  # that stream is closed
            continue
    return None


def _open_regular(path: str, flags: int, verb: str, hint: str = "") -> int:
    """``files.open_regular`` that also refuses the engine's own streams (see above), as a
    GtpError; ``hint`` is added to a refusal of what is not a regular file."""
    try:
        fd = open_regular(path, flags)
    except NotRegularFile as err:
        raise GtpError(f"cannot {verb} {quote_path(path)}: {err.strerror}{hint}") from err
    except OSError as err:
        raise GtpError(f"cannot {verb} {quote_path(path)}: {(err.strerror or 'error').lower()}") from err
    problem = _own_stream_problem(fd)
    if problem is not None:
        os.close(fd)
        raise GtpError(f"cannot {verb} {quote_path(path)}: {problem}{hint}")
    return fd


def _write_file(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (``files.write_atomically``): a kill or a full disk
    during the write leaves the old file whole. An existing target is checked as above first."""
    if os.path.lexists(path):
        os.close(_open_regular(path, os.O_RDONLY, "write",
                               " (printsgf without a file puts the sgf in the answer)"))
    try:
        write_atomically(path, data)
    except OSError as err:
        raise GtpError(f"cannot write {quote_path(path)}: {(err.strerror or 'error').lower()}") from err


def _read_file(path: str) -> bytes:
    """The bytes of a regular file (checked as above), read bounded by ``sgf.read_file``: a
    huge file is a quick error."""
    import sgf
    os.close(_open_regular(path, os.O_RDONLY, "read"))
    return sgf.read_file(path)
