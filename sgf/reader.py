"""Reading an sgfmill tree into a ``Game``: tolerant of real-world files, strict about ours.

Foreign files (Sabaki, GoGui, KGS, OGS, FF[1]-FF[4]) are read as Go unless ``RU`` names one of
our games: lowercase letters in property names (``AddBlack``), whitespace, ``tt`` passes on
boards up to 19 and a missing ``SZ`` (19) are fine; ``GM`` other than 1, ``FF`` beyond 4, or a
board we cannot play are errors. Our own properties are strict: ``VR`` (authoritative over
``RU``) must name a game; Terrain Go's map (``MT``/``WA``, else the root's ``TR``/``SQ``
markup) must keep RULES T1 unless ``MP`` says ``custom``; forts (``FB``/``FW``) must be legal
in placement order; every move of the main line must be legal, but for positional superko: a
record played under other rules (Japanese) may repeat a position, and loads as played, with a
note (``replay``). Errors are ``SgfError``s naming
the node (the root is node 0) and the reason.

Setup stones (``AB``/``AW``) are taken from the root and from nodes before the first move, and
put on the board as they stand: a setup that surrounds a group keeps it, and the first move
applies the rules to it (``Game.add_setup``). In a
view export (root ``VV``) every later setup node is a viewer correction: it is checked against
the true board (a Go viewer's board plus the correction must equal it) and otherwise skipped.
Setup nodes after the first move of an ordinary file (problem collections, edited games, GNU
Go's regression games) edit the position as SGF says (``Game.edit``: each point becomes what
the node lists, whatever was there); the game goes on from there.
"""

from typing import List, Optional, Tuple

from gtp_engine.board import MOUNTAIN, PLAIN, WATER
from gtp_engine.coords import Color, format_vertex
from gtp_engine.errors import EngineError, Illegal, IllegalMoveError, TerrainError
from gtp_engine.game import Game
from gtp_engine.rules import Go, find_rules
from gtp_engine.rules.terrain_map import TerrainMap, TerrainParams, interleave_forts

from .errors import SgfError
from .values import parse_params, parse_point, parse_point_list, show
from .viewer import GoViewer
from .writer import EDIT_PROPERTY, VIEW_PROPERTY

SUPPORTED_FORMATS = (1, 2, 3, 4)
MAP_COUNT_KEYS = ("forts", "fort_value")
MAP_CHECK_KEYS = ("mountains", "water", "groups", "min_group")


def node_label(index: int, move_number: Optional[int] = None) -> str:
    return f"node {index}" if move_number is None else f"node {index} (move {move_number})"


def root_text(root, identifier: str) -> Optional[str]:
    """A root property as text (first value, escapes resolved), None when absent."""
    if not root.has_property(identifier):
        return None
    try:
        value = root.get(identifier)
    except ValueError:
        raise SgfError(f"node 0: unreadable {identifier}[{show(root.get_raw(identifier))}]")
    return value if isinstance(value, str) else root.get_raw(identifier).decode("ascii", "replace")


def is_view_export(root) -> bool:
    return root.has_property(VIEW_PROPERTY)


def check_format(root) -> None:
    """Refuse files that are not Go or not FF[1]-FF[4]."""
    for identifier, allowed in (("GM", (1,)), ("FF", SUPPORTED_FORMATS)):
        if root.has_property(identifier):
            raw = root.get_raw(identifier).strip()
            if not raw.isdigit() or int(raw) not in allowed:
                what = "not a go file" if identifier == "GM" else "unsupported sgf format"
                raise SgfError(f"node 0: {what}: {identifier}[{show(raw)}]")


def rules_of(root, variant: Optional[str] = None) -> type:
    """VR is authoritative; RU maps to one of our games when it names one; else Go.

    ``variant`` (a rules name) chooses the rules for a file that does not say them (GoGui and
    gogui-twogtp write no VR): it overrides RU; a VR naming other rules is an SgfError.
    """
    named = root_text(root, "VR")
    stated = None
    if named is not None:
        try:
            stated = find_rules(named)
        except EngineError as err:
            raise SgfError(f"node 0: bad VR[{show(named)}]: {err}")
    if variant is not None:
        try:
            chosen = find_rules(variant)
        except EngineError as err:
            raise SgfError(str(err))
        if stated is not None and stated is not chosen:
            raise SgfError(f"node 0: VR[{show(named)}] says the game is {stated.name}, not {chosen.name}")
        return chosen
    if stated is not None:
        return stated
    ruleset = root_text(root, "RU")
    if ruleset:
        try:
            return find_rules(ruleset)
        except EngineError:
            pass  # a Go ruleset (Japanese, AGA, ...): play Go
    return Go


def rules_guess(root) -> Optional[str]:
    """Why the rules ``rules_of`` gives without a ``variant`` are a guess (no VR, and no RU
    naming one of our games, so Go), or None when the file names them."""
    if root.has_property("VR"):
        return None
    ruleset = root_text(root, "RU")
    if not ruleset:
        return "the file names no rules (no VR or RU): read as go"
    try:
        find_rules(ruleset)
    except EngineError:
        return f"no VR, and RU[{show(ruleset)}] names none of our games: read as go"
    return None


def komi_of(root) -> float:
    """KM as a number; 0 when absent (the SGF convention), checked by the rules later."""
    if not root.has_property("KM"):
        return 0.0
    text = root.get_raw("KM").decode("ascii", "replace").strip()
    if not text:
        return 0.0
    try:
        return float(text.strip())
    except ValueError:
        raise SgfError(f"node 0: bad KM[{show(text)}]: not a number")


def read_settings(sgf_game, variant: Optional[str] = None) -> Game:
    """A new game with the root's rules (or ``variant``'s, see ``rules_of``), size, komi and
    (Terrain Go) map, forts not yet placed."""
    root = sgf_game.get_root()
    check_format(root)
    rules = rules_of(root, variant)
    size = sgf_game.get_size()
    komi = komi_of(root)
    terrain = read_map(root, size) if rules.has_terrain else None
    if terrain is None:
        refuse_map_properties(root, rules)
    try:
        return Game(rules, size, komi, terrain=terrain)
    except EngineError as err:
        raise SgfError(f"node 0: {err}")


def refuse_map_properties(root, rules) -> None:
    for identifier in ("MT", "WA", "FB", "FW", "MP"):
        if root.has_property(identifier):
            raise SgfError(f"node 0: {identifier} needs terrain rules, but the game is {rules.name}")


def read_map(root, size: int) -> TerrainMap:
    """Terrain Go's map from MT/WA (else the TR/SQ markup), counts from MP, checked against T1."""
    try:
        defaults = TerrainParams.for_size(size)
    except EngineError as err:
        raise SgfError(f"node 0: {err}")
    counts = {"forts": defaults.forts, "fort_value": defaults.fort_value}
    checks, custom = {}, False
    if root.has_property("MP"):
        for key, value in map_params(root):
            if key == "custom" and value is None:
                custom = True
            elif key in MAP_COUNT_KEYS and value is not None and value.isascii() and value.isdigit():
                counts[key] = int(value)
            elif key in MAP_CHECK_KEYS and value is not None:
                checks[key] = value
            else:
                raise SgfError(f"node 0: bad MP[{show(root_text(root, 'MP'))}]: unknown or bad {show(key)!r}")
    sources = ("MT", "WA") if root.has_property("MT") or root.has_property("WA") else ("TR", "SQ")
    kinds = [PLAIN] * (size * size)
    for identifier, kind in zip(sources, (MOUNTAIN, WATER)):
        for row, col in points_of(root, identifier, size):
            if kinds[row * size + col] != PLAIN:
                raise SgfError(f"node 0: {identifier} point {format_vertex((row, col))} is already terrain")
            kinds[row * size + col] = kind
    try:
        terrain = TerrainMap(size, tuple(kinds), counts["forts"], counts["fort_value"])
        if not custom:
            terrain.validate(defaults.with_options({**checks, **{k: str(v) for k, v in counts.items()}}))
    except EngineError as err:
        raise SgfError(f"node 0: bad terrain map: {err}")
    return terrain


def map_params(root):
    try:
        return parse_params(root_text(root, "MP"))
    except ValueError as err:
        raise SgfError(f"node 0: bad MP[{show(root_text(root, 'MP'))}]: {err}")


def points_of(node, identifier: str, size: int, index: int = 0, compressed: bool = True):
    if not node.has_property(identifier):
        return []
    try:
        return parse_point_list(node.get_raw_list(identifier), size, compressed)
    except ValueError as err:
        raise SgfError(f"node {index}: bad {identifier}: {err}")


def place_forts(game: Game, root) -> None:
    """FB/FW in placement order: White's first fort, then Black's, alternately (T2)."""
    lists = {color: points_of(root, ident, game.size, compressed=False)
             for color, ident in ((Color.BLACK, "FB"), (Color.WHITE, "FW"))}
    try:
        order = interleave_forts(lists[Color.WHITE], lists[Color.BLACK])
    except TerrainError as err:
        raise SgfError(f"node 0: bad forts: {err} (FW has {len(lists[Color.WHITE])}, FB {len(lists[Color.BLACK])})")
    for color, point in order:
        try:
            game.place_fort(color, point)
        except EngineError as err:
            ident = "FB" if color is Color.BLACK else "FW"
            raise SgfError(f"node 0: bad fort {ident}[{format_vertex(point)}]: {err}")


def add_setup(game: Game, node, index: int) -> None:
    """AB then AW, each in reading order, put as they stand (no captures, no placement rules:
    ``Game.add_setup``); a point listed twice is an error; AE is refused."""
    if node.has_property("AE") and points_of(node, "AE", game.size, index):
        raise SgfError(f"{node_label(index)}: AE (remove stones) is not supported before the first move")
    for color, identifier in ((Color.BLACK, "AB"), (Color.WHITE, "AW")):
        points = sorted(points_of(node, identifier, game.size, index), key=lambda p: (-p[0], p[1]))
        for point in points:
            try:
                game.add_setup(color, point)
            except EngineError as err:
                raise SgfError(f"{node_label(index)}: bad setup stone {identifier}[{format_vertex(point)}]: {err}")


def edit_setup(game: Game, node, index: int) -> None:
    """AB/AW/AE after the first move: the points become Black, White, empty (``Game.edit``)."""
    black, white, empty = (points_of(node, ident, game.size, index) for ident in ("AB", "AW", "AE"))
    try:
        game.edit(black, white, empty)
    except EngineError as err:
        raise SgfError(f"{node_label(index)}: bad setup: {err}")


def move_of(node, index: int, number: int, size: int):
    """(colour, point or None) of a node, or None without B/W. ``tt`` passes up to 19x19."""
    black, white = node.has_property("B"), node.has_property("W")
    if not (black or white):
        return None
    if black and white:
        raise SgfError(f"{node_label(index, number)}: a node with both B and W")
    identifier, color = ("B", Color.BLACK) if black else ("W", Color.WHITE)
    values = node.get_raw_list(identifier)
    raw = values[0].strip()
    if len(values) > 1:
        raise SgfError(f"{node_label(index, number)}: {identifier} with {len(values)} values")
    if raw == b"" or (raw == b"tt" and size <= 19) or raw.lower() == b"pass":
        return color, None
    try:
        return color, parse_point(raw, size)
    except ValueError as err:
        raise SgfError(f"{node_label(index, number)}: bad move {identifier}[{show(raw)}]: {err}")


def superko_note(root) -> str:
    ruleset = root_text(root, "RU")
    played = f"the game was played under RU[{show(ruleset)}]" if ruleset else "the file names no rules"
    return f"{played}; a record is replayed as it was played, new moves follow superko"


def replay(sgf_game, move_number: Optional[int] = None, variant: Optional[str] = None,
           notes: Optional[List[str]] = None) -> Tuple[Game, List[int]]:
    """The game of the main line, up to but not including ``move_number`` (GTP ``loadsgf``),
    under the file's rules or ``variant``'s (``rules_of``).

    A move that only positional superko forbids is played as it was recorded (Japanese rules
    have no superko, and long cycles happen in their games), with a line saying so added to
    ``notes``; every other rule is checked.

    Also returns, for each move played, the index of its node in the main line.
    """
    if move_number is not None and move_number < 1:
        raise SgfError(f"move number must be at least 1, not {move_number}")
    game = read_settings(sgf_game, variant)
    root = sgf_game.get_root()
    if game.terrain is not None:
        place_forts(game, root)
    view = is_view_export(root)
    viewer = GoViewer(game.size) if view else None
    move_nodes: List[int] = []
    for index, node in enumerate(main_sequence(sgf_game)):
        number = len(game.moves) + 1
        setup = node.has_setup_stones()
        if index == 0 or (not view and setup and not game.moves):
            add_setup(game, node, index)
            if viewer is not None:
                viewer.apply(game_setup_lists(game))
        elif setup:
            if viewer is None:
                edit_setup(game, node, index)
            else:
                check_correction(game, viewer, node, index)
        move = move_of(node, index, number, game.size)
        if move is None:
            continue
        if move_number is not None and number >= move_number:
            break
        color, point = move
        try:
            game.play(color, point)
        except IllegalMoveError as err:
            ident = color.letter.upper()
            raw = node.get_raw(ident).strip()
            if err.reason is not Illegal.SUPERKO:
                raise SgfError(f"{node_label(index, number)}: illegal move {ident}[{show(raw)}]: {err.reason.value}")
            game.play(color, point, superko=False)
            if notes is not None:
                notes.append(f"{node_label(index, number)}: {ident}[{show(raw)}] repeats an earlier "
                             f"position, which positional superko forbids; played as recorded "
                             f"({superko_note(root)})")
        move_nodes.append(index)
        if viewer is not None and point is not None:
            viewer.play(color, point)
    return game, move_nodes


def main_sequence(sgf_game):
    try:
        return sgf_game.get_main_sequence()
    except ValueError as err:
        raise SgfError(f"cannot read the game tree: {err}")


def game_setup_lists(game: Game):
    black = [p for color, p in game.setup if color is Color.BLACK]
    white = [p for color, p in game.setup if color is Color.WHITE]
    return black, white, []


def check_correction(game: Game, viewer: GoViewer, node, index: int) -> None:
    """A view export's setup node must turn a Go viewer's board into the true board; one marked
    ``VE`` is a mid-game edit of the game (written after the move's correction, so it reads
    alike on both boards)."""
    lists = tuple(points_of(node, ident, game.size, index) for ident in ("AB", "AW", "AE"))
    viewer.apply(lists)
    if node.has_property(EDIT_PROPERTY):
        edit_setup(game, node, index)
    black, white, empty = viewer.correction_to(game.position)
    wrong = black + white + empty
    if wrong:
        where = " ".join(format_vertex(p) for p in sorted(wrong, key=lambda p: (-p[0], p[1])))
        raise SgfError(f"{node_label(index)}: view correction does not give the true board at {where} "
                       "(an edited view export? convert it with 'vargo-sgf record')")
