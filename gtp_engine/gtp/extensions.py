"""The games' own commands (INTERFACE.md, "extensions for the games"): rules, terrain, forts,
what the last move did."""

from dataclasses import replace

from ..errors import quote
from .args import expect, parse_color, parse_float, parse_int, parse_point
from .drawing import effect_lines
from .errors import GtpError
from .table import CommandTable

TABLE = CommandTable("game extensions")

#: Seeds ``terrain_generate`` picks itself stay below this (easy to type back).
SEED_RANGE = 10 ** 6


@TABLE.command("variant")
def variant(engine, args):
    """No argument: the current rules name. ``variant NAME``: switch rules (clears the board and
    forts, sets the default komi); refused when the board size does not fit."""
    expect(args, 0, 1, usage="variant [NAME]")
    game = engine.game
    if not args:
        return game.rules.name
    game.set_rules(args[0])
    engine.place_auto_forts()
    return ""


@TABLE.query("get_komi")
def get_komi(engine, args):
    """The komi in force (KataGo's name for it): what a controller shows as the default after
    ``variant``, ``boardsize`` or ``loadsgf`` set it."""
    expect(args, 0, usage="get_komi")
    return f"{engine.game.komi:g}"


@TABLE.query("list_variants")
def list_variants(engine, args):
    expect(args, 0, usage="list_variants")
    from ..rules import ALL_RULES
    return "\n".join(rules.name for rules in ALL_RULES)


#: fair_komi's budget per probe with a fixed ``--playouts N``: this many times N
FAIR_KOMI_PLAYOUT_FACTOR = 4
#: the longest fair_komi a controller may ask for (seconds)
FAIR_KOMI_MAX_SECONDS = 3600


@TABLE.query("fair_komi")
def fair_komi(engine, args):
    """``fair_komi [SECONDS]``: the komi that makes the current position even (empty board, or
    after the forts), by the search (``search.fairkomi``); answers it, does not set it. The
    estimate, its standard error and the probes go to stderr. Budget: SECONDS (default
    ``fairkomi.DEFAULT_SECONDS``); with ``--playouts N`` also at most
    ``FAIR_KOMI_PLAYOUT_FACTOR * N`` simulations per probe (reproducible for ``--seed``)."""
    from ..search import fairkomi
    from .core import log_summary
    expect(args, 0, 1, usage="fair_komi [SECONDS]")
    seconds = None
    if args:
        seconds = parse_float(args[0], "seconds", 0)
        if not 0 < seconds <= FAIR_KOMI_MAX_SECONDS:
            raise GtpError(f"seconds must be more than 0 and at most {FAIR_KOMI_MAX_SECONDS}, "
                           f"not {quote(args[0])}")
    playouts = engine.settings.playouts
    budget = None if playouts is None else playouts * FAIR_KOMI_PLAYOUT_FACTOR * fairkomi.PROBES
    if seconds is None and budget is None:
        seconds = fairkomi.DEFAULT_SECONDS
    estimate = fairkomi.estimate_fair_komi(engine.player, engine.game, seconds=seconds,
                                           playouts=budget)
    log_summary(estimate.report())
    return f"{estimate.komi:g}"


@TABLE.query("vargo-compile_progress")
def compile_progress(engine, args):
    """Where the compiled kernels stand, for a frontend to show during the first minute on a
    new machine (the browser board polls it): ``key value`` pairs on one line, ``what`` last
    (its value runs to the end of the line): ``state`` (``ready``, ``compiling``: the search
    runs the interim pure-Python kernels meanwhile, ``loading`` from the cache, ``failed``,
    ``idle``), and while compiling ``done`` and ``total`` parts, ``share`` of the work done
    (0 to 1), ``eta`` and ``search_eta`` (seconds left for all of it and for the search's
    part, ``-`` not known) and ``what`` is compiling."""
    expect(args, 0, usage="vargo-compile_progress")
    from ..search import _backend
    state, snap = _backend.status.snapshot()
    if state in ("ready", "idle", "failed") or snap is None:
        return f"state {state}"

    def seconds(value):
        return "-" if value is None else f"{value:.0f}"

    return (f"state {state} done {snap.done} total {snap.total} share {snap.share:.2f} "
            f"eta {seconds(snap.eta)} search_eta {seconds(snap.eta_search)} what {snap.what}")


#: ``set_random_seed`` takes seeds from 0 to this (as ``--seed`` does)
MAX_SEED = 10 ** 18 - 1


@TABLE.command("set_random_seed")
def set_random_seed(engine, args):
    """``set_random_seed SEED``: from now on play as if started with ``--seed SEED`` (GNU Go's
    command; the match runner sends it before each game so that games differ)."""
    import random
    expect(args, 1, usage="set_random_seed SEED")
    seed = parse_int(args[0], "seed", 0, MAX_SEED)
    engine.settings = replace(engine.settings, seed=seed)
    engine.rng = random.Random(seed)
    return ""


@TABLE.query("get_random_seed")
def get_random_seed(engine, args):
    expect(args, 0, usage="get_random_seed")
    return str(engine.settings.seed)


# ----------------------------------------------------------------- terrain
@TABLE.command("terrain_generate")
def terrain_generate(engine, args):
    """``terrain_generate [SEED] [key=value ...]``: a new map for the current size; answers the
    seed (chosen by the engine's generator when not given)."""
    from ..rules.terrain_map import TerrainParams, generate_map
    game = engine.game
    _require_terrain(game)
    if args and "=" not in args[0]:
        seed, args = parse_int(args[0], "seed", 0), args[1:]
    else:
        seed = engine.rng.randrange(SEED_RANGE)
    params = TerrainParams.parse_options(game.size, args)
    game.set_terrain(generate_map(game.size, seed, params))
    engine.place_auto_forts()
    return str(seed)


@TABLE.command("terrain_load")
def terrain_load(engine, args):
    """``terrain_load MAP [strict] [forts=N] [fort_value=N] [COLOR VERTEX ...]``: an explicit
    map (the board takes its size); checked against RULES T1 only with ``strict``. ``forts``
    (per side) and ``fort_value`` default to the size's (T2, T7), as in ``terrain_generate``.
    Forts written ``w``/``b`` in the map (as ``terrain_show`` writes them) are placed too: in
    the order the colour-vertex pairs after the map give (as ``terrain_show`` and ``forts``
    write it), else White's and Black's alternately, each side's in reading order."""
    from ..rules.terrain_map import TerrainMap, TerrainParams
    expect(args, 1, -1, usage="terrain_load MAP [strict] [forts=N] [fort_value=N] [COLOR VERTEX ...]")
    options = [w for w in args[1:] if "=" in w]
    for word in options:
        if word.partition("=")[0] not in ("forts", "fort_value"):
            raise GtpError(f"terrain_load takes forts=N and fort_value=N (the map gives the rest), "
                           f"not {quote(word)}")
    words = [w for w in args[1:] if "=" not in w]
    strict = [i for i in (0, len(words) - 1) if words and words[i].lower() == "strict"][:1]
    if strict:  # before the pairs, or after them (a terrain_show answer pasted, then strict)
        del words[strict[0]]
    if len(words) % 2:
        raise GtpError(f"after the map come 'strict' and the forts as colour-vertex pairs, not {quote(words[-1])}")
    game = engine.game
    _require_terrain(game)
    terrain = TerrainMap.from_text(args[0])
    if options:
        params = TerrainParams.parse_options(terrain.size, options)
        terrain = replace(terrain, forts_per_side=params.forts, fort_value=params.fort_value)
    if strict:
        terrain.validate()
    in_map = TerrainMap.forts_in_text(args[0])
    order = [(parse_color(color), parse_point(vertex, terrain.size))
             for color, vertex in zip(words[::2], words[1::2])]
    if order and sorted(order) != sorted(in_map):
        raise GtpError(f"the forts listed ({_fort_words(order)}) are not the forts in the map "
                       f"({_fort_words(in_map) or 'none'})")
    game.set_terrain(terrain)
    for color, point in order or in_map:
        game.place_fort(color, point)
    engine.place_auto_forts()
    return ""


@TABLE.query("terrain_show")
def terrain_show(engine, args):
    """The map (rows from the top, ``/`` between them, forts as ``w``/``b``) and, when there are
    forts, their placement order as ``forts`` writes it, so ``terrain_load`` restores both."""
    expect(args, 0, usage="terrain_show")
    game = engine.game
    _require_terrain(game)
    shown = game.terrain.to_text(game.forts)
    return f"{shown} {_fort_words(game.forts)}" if game.forts else shown


def _require_terrain(game):
    if game.terrain is None:
        raise GtpError(f"{game.rules.name} has no terrain (use 'variant terrain' first)")


# ----------------------------------------------------------------- forts
@TABLE.command("fort")
def fort(engine, args):
    expect(args, 2, usage="fort COLOR VERTEX")
    game = engine.game
    game.place_fort(parse_color(args[0]), parse_point(args[1], game.size))
    return ""


@TABLE.command("genfort")
def genfort(engine, args):
    """``genfort COLOR``: the engine chooses a fort by the search (``search.fortsearch``),
    places it and answers its vertex."""
    from ..coords import format_vertex
    from ..search.fortsearch import choose_fort
    expect(args, 1, usage="genfort COLOR")
    color = parse_color(args[0])
    game = engine.game
    if game.fort_turn is None:
        raise GtpError("no fort to place" if game.forts_per_side == 0 or game.terrain is None
                       else f"all {2 * game.forts_per_side} forts are already placed")
    point = choose_fort(game, color, engine.settings.seed, engine.settings.fort_budget(game.size))
    game.place_fort(color, point)
    return format_vertex(point)


@TABLE.query("forts")
def forts(engine, args):
    expect(args, 0, usage="forts")
    return _fort_words(engine.game.forts)


def _fort_words(forts) -> str:
    """Forts as colour-vertex pairs in placement order: ``w D4 b Q16 ...``."""
    from ..coords import format_vertex
    return " ".join(f"{color.letter} {format_vertex(point)}" for color, point in forts)


# ----------------------------------------------------------------- moves
@TABLE.query("last_move_info")
def last_move_info(engine, args):
    """One line per effect of the last move (``captured``, ``flipped``, ``removed``, ``meals``,
    each followed by its vertices); empty when the last move did nothing or there is none."""
    expect(args, 0, usage="last_move_info")
    last = engine.game.last_move
    return "\n".join(effect_lines(last.effects if last is not None else None))
