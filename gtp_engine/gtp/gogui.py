"""GoGui's ruler queries (GoGui 1.5+, doc/manual ``rules.xml``): plain views of the game, with
which GoGui shows the true board of every game, and scripts read it.

- ``gogui-rules_board``: top row first, ``X`` ``O`` ``.`` per point (forts, mountains and water
  are empty points here; ``gogui-rules_board_gfx`` draws them).
- ``gogui-rules_legal_moves``: upper-case vertices in reading order, then ``pass``; empty exactly
  when the game is over (GoGui ends the game on an empty answer). While forts are pending no
  stone and no pass is legal, yet the game is not over: the answer is an error that tells the
  user how to start a ruler with its forts (``--forts`` or ``--setup``), which GoGui shows,
  rather than an empty list that GoGui would take for a finished game.
- ``gogui-rules_captured_count``: stones captured by Black, then by White (Go captures and
  Goncrete removals; Loose flips and Disto meals take nothing off the board).
- ``vargo-score``: the count ``gogui-rules_final_result`` makes, part by part (see there).
"""

from ..board import CAPTURE_LOOSE, CAPTURE_MEALS, CAPTURE_REMOVE
from ..coords import Color, format_vertex
from .args import expect
from .errors import GtpError
from .table import CommandTable

TABLE = CommandTable("gogui rules")

@TABLE.query("gogui-rules_game_id")
def game_id(engine, args):
    expect(args, 0, usage="gogui-rules_game_id")
    return engine.game.rules.gogui_id


@TABLE.query("gogui-rules_board_size")
def board_size(engine, args):
    expect(args, 0, usage="gogui-rules_board_size")
    return str(engine.game.size)


@TABLE.query("gogui-rules_board")
def board(engine, args):
    expect(args, 0, usage="gogui-rules_board")
    return "\n".join(" ".join(row) for row in engine.game.position.rows())


@TABLE.query("gogui-rules_side_to_move")
def side_to_move(engine, args):
    expect(args, 0, usage="gogui-rules_side_to_move")
    return engine.game.to_move.word


@TABLE.query("gogui-rules_legal_moves")
def legal_moves(engine, args):
    expect(args, 0, usage="gogui-rules_legal_moves")
    game = engine.game
    if game.fort_turn is not None:
        raise GtpError(f"forts not yet placed ({game.fort_turn.word} places the next one): start "
                       "the engine with --forts auto, --forts V,V,... or --setup FILE.sgf, "
                       "or place them with fort/genfort")
    if game.over:
        return ""
    return " ".join([format_vertex(p) for p in game.legal_moves()] + ["pass"])


@TABLE.query("gogui-rules_final_result")
def final_result(engine, args):
    """The result first (``B+3.5``), then the scores and why the game ended."""
    expect(args, 0, usage="gogui-rules_final_result")
    game = engine.game
    score = game.score()
    text = f"{score.result}: black {score.black:g}, white {score.white:g} (komi {game.komi:g})"
    if game.end_reason:
        text += f", game over by {game.end_reason}"
    return text


@TABLE.query("gogui-rules_captured_count")
def captured_count(engine, args):
    expect(args, 0, usage="gogui-rules_captured_count")
    taken = {Color.BLACK: 0, Color.WHITE: 0}
    for record in engine.game.moves:
        if record.effects is not None:
            taken[record.color] += len(record.effects.captured) + len(record.effects.removed)
    return f"{taken[Color.BLACK]} {taken[Color.WHITE]}"


@TABLE.query("gogui-rules_board_gfx")
def board_gfx(engine, args):
    """GoGui gfx: mountains as triangles, water as squares, forts labelled ``F`` in their
    owner's colour, meals marked, the flips of the last move marked, Loose's false liberties."""
    expect(args, 0, usage="gogui-rules_board_gfx")
    return board_marks(engine.game)


def board_marks(game, with_liberties: bool = False) -> str:
    """The gfx lines that make the game readable on GoGui's board (the live view repeats
    them, since GoGui clears the board's marks before each live view)."""
    from .. import board
    position, size = game.position, game.size
    points = [(r, c) for r in range(size - 1, -1, -1) for c in range(size)]  # reading order
    mountains = [p for p in points if position.terrain_at(p) == board.MOUNTAIN]
    water = [p for p in points if position.terrain_at(p) == board.WATER]
    lines = []
    if mountains:
        lines.append("TRIANGLE " + " ".join(format_vertex(p) for p in mountains))
    if water:
        lines.append("SQUARE " + " ".join(format_vertex(p) for p in water))
    labels = [f"{format_vertex(p)} {Color(position.fort_at(p)).letter.upper()}F"
              for p in points if position.fort_at(p)]
    if labels:
        lines.append("LABEL " + " ".join(labels))
    meals = position.meals()
    if meals:
        lines.append("MARK " + " ".join(format_vertex(p) for p in meals))
    last = game.last_move
    if last is not None and last.effects is not None and last.effects.flipped:
        lines.append("CIRCLE " + " ".join(format_vertex(p) for p in last.effects.flipped))
    if with_liberties:
        false = position.false_liberties()
        if false:
            lines.append("COLOR red " + " ".join(format_vertex(p) for p in false))
    return "\n".join(lines)


@TABLE.query("vargo-score")
def score_parts(engine, args):
    """The position counted as final (as ``gogui-rules_final_result``: no stone taken for
    dead), part by part, one line per colour, then the result::

        black stones 12 territory 3 water 1.5 forts 0 meals 0 total 16.5
        white stones 10 territory 2 water 0 forts 12 meals 0 komi 7.5 total 31.5
        result W+15
        values plain 1 mountain 0 water 1.5 fort 12

    The last line, in Terrain Go only, says what each kind of point is worth (T5, T7).
    ``stones``: the colour's counted stones on plain points (in Loose and Disto, where no
    territory counts, on any point: L4, D4); ``territory``: empty plain points of regions that
    touch only that colour (Go3, T6); ``water``: the colour's water points, stones or territory,
    1.5 each (T5; mountains count 0); ``forts``: the opponent's forts in the colour's territory
    (T7); ``meals``: the colour's stones in meals, which Disto does not count (D4, shown, not
    added). The totals are the engine's score."""
    from .. import board
    expect(args, 0, usage="vargo-score")
    game = engine.game
    position, size, scoring = game.position, game.size, game.rules.scoring
    owners = position.owner_map(scoring)
    parts = {color: dict.fromkeys(("stones", "territory", "water", "forts", "meals"), 0)
             for color in (Color.BLACK, Color.WHITE)}
    meals = set(position.meals()) if scoring == board.SCORE_STONES_NOT_MEALS else set()
    for point in meals:
        parts[Color(position.stone_at(point))]["meals"] += 1
    for row in range(size):
        for col in range(size):
            point, owner = (row, col), owners[row * size + col]
            if not owner:
                continue
            counted = parts[Color(owner)]
            terrain, stone = position.terrain_at(point), position.stone_at(point)
            if scoring != board.SCORE_AREA:
                counted["stones"] += 1
            elif position.fort_at(point):
                counted["forts"] += game.fort_value if position.fort_at(point) != owner else 0
            elif terrain == board.WATER:
                counted["water"] += 1.5
            elif terrain == board.PLAIN:
                counted["stones" if stone else "territory"] += 1
    score = game.score()
    lines = []
    for color, total in ((Color.BLACK, score.black), (Color.WHITE, score.white)):
        words = [f"{name} {value:g}" for name, value in parts[color].items()]
        if color == Color.WHITE:
            words.append(f"komi {game.komi:g}")
        lines.append(f"{color.word} {' '.join(words)} total {total:g}")
    lines.append(f"result {score.result}")
    if game.rules.has_terrain:
        lines.append(f"values plain 1 mountain 0 water 1.5 fort {game.fort_value:g}")
    return "\n".join(lines)


# ----------------------------------------------------------------- analyze commands
def _every_game(rules) -> bool:
    return True


def _has_marks(rules) -> bool:
    """Terrain, flipped stones, meals: what ``gogui-rules_board_gfx`` draws beyond Go's stones."""
    return rules.has_terrain or rules.capture != CAPTURE_REMOVE


#: GoGui's analyze commands, each with the test of the rules (``rules.base.Rules``) under which
#: it has something to show; ``gogui-analyze_commands`` lists those of the current game
ANALYZE_COMMANDS = (
    ("gfx/Ownership (search)/vargo-ownership %m", _every_game),
    ("gfx/Best moves: win rates/vargo-best_moves %m winrate", _every_game),
    ("gfx/Best moves: visits/vargo-best_moves %m visits", _every_game),
    ("gfx/Best moves: score lead/vargo-best_moves %m lead", _every_game),
    ("gfx/Principal variation/vargo-pv %m", _every_game),
    ("param/Search parameters/vargo-param", _every_game),
    ("gfx/Terrain and marks/gogui-rules_board_gfx", _has_marks),
    ("gfx/False liberties (Loose)/vargo-false_liberties", lambda rules: rules.capture == CAPTURE_LOOSE),
    ("gfx/Meals and gluttons (Disto)/vargo-meals", lambda rules: rules.capture == CAPTURE_MEALS),
    ("string/Last move info/last_move_info", _every_game),
    ("string/Terrain map/terrain_show", lambda rules: rules.has_terrain),
    ("string/Forts/forts", lambda rules: rules.has_terrain),
    ("string/Final score/final_score", _every_game),
)


@TABLE.query("gogui-analyze_commands")
def analyze_commands(engine, args):
    """The analyze commands the current game can show (GoGui asks once, when it attaches; it
    starts the engine with the game's command line). Only GoGui asks this: it turns the live
    view on (unless a setting says otherwise)."""
    expect(args, 0, usage="gogui-analyze_commands")
    engine.gogui_attached = True
    rules = engine.game.rules
    return "\n".join(entry for entry, shows in ANALYZE_COMMANDS if shows(rules))


@TABLE.query("vargo-false_liberties")
def false_liberties(engine, args):
    """Loose's false liberties (RULES L1) coloured red, and the board's other marks."""
    expect(args, 0, usage="vargo-false_liberties")
    return board_marks(engine.game, with_liberties=True)


@TABLE.query("vargo-meals")
def meals_and_gluttons(engine, args):
    """Disto: meals marked, gluttons circled (RULES D1)."""
    expect(args, 0, usage="vargo-meals")
    position = engine.game.position
    lines = []
    meals, gluttons = position.meals(), position.gluttons()
    if meals:
        lines.append("MARK " + " ".join(format_vertex(p) for p in meals))
    if gluttons:
        lines.append("CIRCLE " + " ".join(format_vertex(p) for p in gluttons))
    return "\n".join(lines)


@TABLE.query("gogui-interrupt")
def interrupt(engine, args):
    """Listed so that GoGui enables *Interrupt*: it then writes the comment line
    ``# interrupt`` while a command runs, and the input reader (``protocol.serve``) ends that
    command's search, which answers with its best move so far. The command itself does
    nothing."""
    expect(args, 0, usage="gogui-interrupt")
    return ""
