"""Writing a game as an sgfmill tree: the record form, and the view form for Go viewers.

The record form is what engines and ``game_from_sgf`` read: the root carries the settings
(``SZ KM RU VR``, players, date, result, setup, Terrain Go's map ``MT``/``WA``, forts
``FB``/``FW`` in placement order, map parameters ``MP``, and the map again as markup ``TR``,
``SQ``, ``LB`` for viewers), then one node per move with a comment saying what it did and,
where known, Black's win rate (``SBKV``, in percent, the property Sabaki plots).

Stones set up in mid-game (``Game.edit``) are a setup node after their move, in both forms.

The view form adds, after each move (and after the root) where a viewer that applies Go
captures would show another board than the true one, a setup node (``AB``/``AW``/``AE``)
that corrects it (before the move's edits, if any, which carry ``VE[1]`` there); the root carries ``VV[1]`` and says so in its comment, and every node repeats
the map markup so that it stays visible while stepping through the game. Engines must not be
fed view exports: GTP engines would see setup stones in the middle of a game.
"""

import math
import numbers
from dataclasses import dataclass
from typing import List, Mapping, Optional, Sequence, Tuple

from sgfmill import sgf

from gtp_engine import NAME, __version__
from gtp_engine.board import MOUNTAIN, WATER
from gtp_engine.coords import Color, Point, format_vertex

from .errors import SgfError
from .values import format_params, point_text
from .viewer import GoViewer

VIEW_PROPERTY = "VV"
EDIT_PROPERTY = "VE"      #: in a view export, marks a mid-game edit (not a viewer correction)
VIEW_NOTICE = ("View export: after moves whose true board differs from what Go's capture rule "
               "shows, a setup node (AB/AW/AE) corrects the board. Do not feed this file to "
               "engines; 'vargo-sgf record' converts it back to a game record.")
FORT_LABELS = {Color.BLACK: "FB", Color.WHITE: "FW"}


@dataclass(frozen=True)
class WriteOptions:
    """The keyword options of ``game_to_sgf``.

    ``result``: RE text (``B+3.5``, ``W+R``, ``B+T``, ``B+F``, ``0``); default the score's
    result when the game is over, else none. ``end_reason``: why the game ended, as a comment
    on the last node (default: the game's own end reason when it is over). ``view``: write the
    view form. ``comments``: per-move comments. ``winrates``: ``{move_number: probability that
    Black wins}``, 0 for the root position.
    """

    black_name: Optional[str] = None
    white_name: Optional[str] = None
    date: Optional[str] = None
    result: Optional[str] = None
    end_reason: Optional[str] = None
    view: bool = False
    comments: bool = True
    winrates: Optional[Mapping[int, float]] = None


def positions_of(game) -> list:
    """The position before the first move and after each move, by undoing a copy."""
    replay = game.copy()
    positions = [replay.position]
    while replay.moves:
        replay.undo()
        positions.append(replay.position)
    return positions[::-1]


def check_winrates(winrates: Optional[Mapping[int, float]], moves: int) -> None:
    """SgfError unless every key is a move number of the game (0..moves) and every value a probability."""
    for number, value in (winrates or {}).items():
        if not isinstance(number, numbers.Integral) or isinstance(number, bool) or not 0 <= number <= moves:
            raise SgfError(f"win rate for move {number!r}: the game has moves 0 to {moves}")
        if not isinstance(value, numbers.Real) or not math.isfinite(value) or not 0 <= value <= 1:
            raise SgfError(f"win rate for move {number}: {value!r} is not a probability from 0 to 1")


def result_of(game, options: WriteOptions) -> Tuple[Optional[str], bool]:
    """(RE text or None, whether it was computed from the score rather than given)."""
    if options.result is not None:
        return options.result, False
    if game.over:
        return game.score().result, True
    return None, False


def build_tree(game, options: WriteOptions) -> Tuple[sgf.Sgf_game, bool]:
    """The sgfmill tree of ``game`` in record or view form, and whether RE was computed."""
    check_winrates(options.winrates, len(game.moves))
    tree = sgf.Sgf_game(game.size, encoding="UTF-8")
    root = tree.get_root()
    result, computed = result_of(game, options)
    write_root(root, game, options, result)
    positions = positions_of(game)
    markup = map_markup(game) if options.view else None
    viewer = GoViewer(game.size) if options.view else None
    node = root
    if viewer is not None:
        viewer.apply(setup_lists(game) + ([],))
        node = add_correction(node, viewer, positions[0], markup)
    for number, record in enumerate(game.moves, 1):
        node = node.new_child()
        write_move(node, game, number, record, options)
        if markup:
            write_markup(node, markup)
        edits = game.edits_after(number)
        if viewer is not None and record.point is not None:
            viewer.play(record.color, record.point)
            before_edits = after_move(positions[number - 1], record) if edits else positions[number]
            node = add_correction(node, viewer, before_edits, markup)
        for edit in edits:   # the viewer is right here, so the edit reads alike on both boards
            node = write_edit(node.new_child(), edit, markup)
            if viewer is not None:
                node.set_raw(EDIT_PROPERTY, b"1")
                viewer.apply((list(edit.black), list(edit.white), list(edit.empty)))
    end = end_comment(game, options, result)
    if end:
        node.add_comment_text(end)
    return tree, computed


def setup_lists(game) -> Tuple[List[Point], List[Point]]:
    """Black's and White's setup stones, each in the order placed."""
    black = [p for color, p in game.setup if color is Color.BLACK]
    white = [p for color, p in game.setup if color is Color.WHITE]
    return black, white


def write_root(root, game, options: WriteOptions, result: Optional[str]) -> None:
    rules = game.rules
    root.set("AP", (NAME, __version__))
    root.set_raw("KM", f"{game.komi:g}".encode())
    root.set("RU", rules.sgf_ru)
    root.set_raw("VR", rules.name.encode())
    for identifier, text in (("PB", options.black_name), ("PW", options.white_name),
                             ("DT", options.date), ("RE", result)):
        if text is not None:
            root.set(identifier, str(text))
    black, white = setup_lists(game)
    if black:
        root.set("AB", black)
    if white:
        root.set("AW", white)
    if len(black) >= 2 and not white and rules.allows_handicap:  # GTP handicap is 2 stones or more
        root.set("HA", len(black))
    if game.terrain is not None:
        write_terrain(root, game)
    if winrate_of(options.winrates, 0) is not None:
        root.set_raw("SBKV", winrate_text(winrate_of(options.winrates, 0)).encode())
    if options.view:
        root.set_raw(VIEW_PROPERTY, b"1")
        root.set("C", VIEW_NOTICE)


def write_terrain(root, game) -> None:
    """``MT``/``WA`` (the map), ``FB``/``FW`` (forts in placement order), ``MP``, and the markup."""
    terrain, size = game.terrain, game.size
    for identifier, kind in (("MT", MOUNTAIN), ("WA", WATER)):
        points = terrain_points(terrain, kind)
        if points:
            root.set_raw_list(identifier, [point_text(p, size).encode() for p in points])
    for color in (Color.BLACK, Color.WHITE):
        forts = [point_text(p, size).encode() for owner, p in game.forts if owner is color]
        if forts:
            root.set_raw_list(FORT_LABELS[color], forts)
    root.set_raw("MP", format_params(map_params(terrain)).encode())
    write_markup(root, map_markup(game))


def map_params(terrain) -> dict:
    """What ``MP`` records: the fort count and value, and ``custom`` for a map that breaks the T1
    defaults (GTP ``terrain_load`` accepts such maps; the reader then skips the T1 check)."""
    params = {"forts": str(terrain.forts_per_side), "fort_value": str(terrain.fort_value)}
    try:
        terrain.validate()
    except ValueError:
        params["custom"] = None
    return params


def terrain_points(terrain, kind: int) -> List[Point]:
    """The points of one terrain kind in reading order (top row first)."""
    size = terrain.size
    return [(row, col) for row in range(size - 1, -1, -1) for col in range(size)
            if terrain.kinds[row * size + col] == kind]


def map_markup(game) -> Optional[tuple]:
    """(triangles, squares, labels) showing mountains, water and forts, or None without a map."""
    if game.terrain is None:
        return None
    labels = [(p, FORT_LABELS[color]) for color, p in game.forts]
    return terrain_points(game.terrain, MOUNTAIN), terrain_points(game.terrain, WATER), labels


def write_markup(node, markup: tuple) -> None:
    triangles, squares, labels = markup
    if triangles:
        node.set("TR", triangles)
    if squares:
        node.set("SQ", squares)
    if labels:
        node.set("LB", labels)


def set_move(node, color: Color, point, size: int) -> None:
    """``node``'s ``B``/``W`` move: ``point`` in our letters, a pass as ``[]`` (FF[4])."""
    node.set_raw(Color(color).letter.upper(), b"" if point is None else point_text(point, size).encode())


def write_move(node, game, number: int, record, options: WriteOptions) -> None:
    set_move(node, record.color, record.point, game.size)
    winrate = winrate_of(options.winrates, number)
    if winrate is not None:
        node.set_raw("SBKV", winrate_text(winrate).encode())
    if options.comments:
        lines = effect_lines(record.effects)
        if winrate is not None:
            lines.append(f"Black's win rate: {100 * winrate:.1f}%")
        if lines:
            node.set("C", "\n".join(lines))


def effect_lines(effects) -> List[str]:
    """One line per kind of effect a placement had, vertices in reading order."""
    if effects is None:
        return []
    kinds = (("captured", effects.captured), ("flipped", effects.flipped),
             ("removed", effects.removed), ("meals", effects.meals))
    return [f"{word}: {' '.join(format_vertex(p) for p in points)}" for word, points in kinds if points]


def winrate_of(winrates: Optional[Mapping[int, float]], number: int) -> Optional[float]:
    return None if not winrates else winrates.get(number)


def winrate_text(probability: float) -> str:
    """Sabaki's ``SBKV``: Black's win rate in percent with at most two decimals."""
    return f"{round(100 * probability, 2):g}"


def after_move(position, record):
    """The position after ``record`` is played on ``position`` (a copy), before any edit."""
    position = position.copy()
    if record.point is not None:
        position.play(record.color, record.point)
    return position


def write_edit(node, edit, markup: Optional[tuple]):
    """A setup node in mid-game (``Game.edit``): ``AB``/``AW``/``AE`` as the edit lists them."""
    for identifier, points in (("AB", edit.black), ("AW", edit.white), ("AE", edit.empty)):
        if points:
            node.set(identifier, list(points))
    if markup:
        write_markup(node, markup)
    return node


def add_correction(node, viewer: GoViewer, position, markup: Optional[tuple]):
    """Append a setup node correcting the viewer's board to ``position`` when they differ;
    return the node the game continues from."""
    black, white, empty = viewer.correction_to(position)
    if not (black or white or empty):
        return node
    child = node.new_child()
    for identifier, points in (("AB", black), ("AW", white), ("AE", empty)):
        if points:
            child.set(identifier, points)
    if markup:
        write_markup(child, markup)
    viewer.apply((black, white, empty))
    return child


def end_comment(game, options: WriteOptions, result: Optional[str]) -> Optional[str]:
    reason = options.end_reason if options.end_reason is not None else game.end_reason
    if reason is None and result is None:
        return None
    parts = [f"Game over: {reason}." if reason else "Game over."]
    if result is not None:
        parts.append(f"Result: {result}.")
    if game.over:
        score = game.score()
        parts.append(f"Score: black {score.black:g}, white {score.white:g} (komi {game.komi:g}).")
    return " ".join(parts)
