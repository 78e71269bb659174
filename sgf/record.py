"""``SgfRecord``: a game loaded from SGF together with its tree, written back without losing data.

Writing regenerates what we manage (settings, setup, map, forts, the main line's moves, our
comments, the view corrections) from the game, and keeps everything else from the source tree
where it still describes the game: the main line written is exactly the game's moves; along
them, the unknown and unmanaged properties of the source's nodes are kept (nodes without a move
join the node before them, their comments in file order), and every other line of the source
that branches off before the game's last move is kept as a variation (a line the game left
included). Nothing is written below the game's last node, where it would become the main line.
Text in another encoding is converted to UTF-8. The source's ``RE`` is kept when the game
still has exactly the file's moves and no result is given (a resignation, or a result scored
under other rules, stays as recorded).
"""

import contextlib
import gc
import re
from typing import List, Optional, Sequence

from sgfmill import sgf, sgf_grammar

from gtp_engine.coords import Color

from .encoding import to_utf8
from .errors import SgfError
from .reader import is_view_export, move_of, replay, root_text, rules_guess
from .values import show
from .writer import VIEW_NOTICE, WriteOptions, build_tree, set_move

MANAGED = frozenset(("B", "W", "AB", "AW", "AE", "SZ", "VE"))  # SZ outside the root is junk sgfmill refuses
MANAGED_ROOT = MANAGED | {"HA", "MT", "WA", "FB", "FW", "MP", "VV"}
VIEW_MARKUP = frozenset(("TR", "SQ", "LB"))
MAX_SIZE_SGFMILL = 26


def parse(data: bytes) -> sgf.Sgf_game:
    """The first game of SGF data as an sgfmill tree, its text in UTF-8 (``encoding.to_utf8``:
    byte order marks, UTF-16, ``CA``, legacy charsets), a root without its ``;`` tolerated;
    SgfError for anything unreadable."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SgfError(f"sgf data must be bytes, not {type(data).__name__}")
    text = late_nodes_as_variations(shorten_long_names(with_root_semicolon(to_utf8(bytes(data)))))
    try:
        coarse = sgf_grammar.parse_sgf_game(text)
    except ValueError as err:
        raise SgfError(f"cannot parse sgf: {show(str(err).lower(), 80)}")
    drop_nameless_properties(coarse)
    size_values = coarse.sequence[0].get("SZ")
    if size_values:
        raw = size_values[0].strip()
        columns, _, rows = raw.partition(b":")  # FF[4] also writes SZ[columns:rows]
        if rows.strip() == columns.strip():
            raw = columns.strip()
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_SIZE_SGFMILL:
            raise SgfError(f"node 0: bad SZ[{show(raw)}]: not a square board size we can play")
        size_values[0] = raw
    try:
        return sgf.Sgf_game.from_coarse_game_tree(coarse, override_encoding="UTF-8")
    except ValueError as err:
        raise SgfError(f"node 0: {show(str(err).lower(), 80)}")


ROOT_WITHOUT_SEMICOLON = re.compile(rb"\(\s*(?=[A-Z][A-Za-z]*\s*\[)")


def with_root_semicolon(text: bytes) -> bytes:
    """Nihon Ki-in writes the root's properties straight after ``(``, without the ``;`` that
    starts a node; Sabaki reads such files, so we add the ``;``."""
    start = text.find(b"(")
    found = ROOT_WITHOUT_SEMICOLON.match(text, start) if start >= 0 else None
    return text if found is None else text[:start] + b"(;" + text[found.end():]


#: FF[3]'s long property names (any case), as GoGui reads them. sgfmill keeps only the capitals
#: of a name, which works for ``AddBlack`` but turns ``Size`` into ``S`` and ``Komi`` into ``K``.
LONG_NAMES = {
    b"ADDBLACK": b"AB", b"ADDEMPTY": b"AE", b"ADDWHITE": b"AW", b"BLACK": b"B",
    b"BLACKRANK": b"BR", b"COMMENT": b"C", b"COPYRIGHT": b"CP", b"DATE": b"DT", b"EVENT": b"EV",
    b"GAME": b"GM", b"HANDICAP": b"HA", b"KOMI": b"KM", b"PLACE": b"PC", b"PLAYERBLACK": b"PB",
    b"PLAYERWHITE": b"PW", b"PLAYER": b"PL", b"RESULT": b"RE", b"ROUND": b"RO", b"RULES": b"RU",
    b"SIZE": b"SZ", b"WHITE": b"W", b"WHITERANK": b"WR",
}
_ANY_LONG_NAME = re.compile(rb"(?i)(?<![A-Za-z])(?:%s)\s*\[" % b"|".join(LONG_NAMES))
#: a value (escapes included), a word (a property name), a delimiter, anything else, one character
_SGF_TOKEN = re.compile(rb"\[(?:[^\\\]]|\\.)*\]|[A-Za-z]+|[();]|[^\[A-Za-z();]+|.", re.DOTALL)


def shorten_long_names(text: bytes) -> bytes:
    """FF[3] long property names replaced by their FF[4] names (``Size[9]`` -> ``SZ[9]``);
    property values are left as they are."""
    if not _ANY_LONG_NAME.search(text):
        return text
    return b"".join(LONG_NAMES.get(token.upper(), token) if token[:1].isalpha() else token
                    for token in _SGF_TOKEN.findall(text))


_LATE_NODE = re.compile(rb"\)\s*;")


def late_nodes_as_variations(text: bytes) -> bytes:
    """Nodes written after a variation closes (``(;B[aa](;W[bb]);W[cc])``, which FF[4] does not
    allow and GoGui reads, as in its own test files) become one more variation:
    ``(;B[aa](;W[bb])(;W[cc]))``."""
    if not _LATE_NODE.search(text):
        return text
    out, depth, implicit, last = [], 0, [], b""   # depth counts the file's own parentheses
    for token in _SGF_TOKEN.findall(text):
        if token == b";" and last == b")" and depth >= 1:
            out.append(b"(")
            implicit.append(depth)
        elif token == b")":
            while implicit and implicit[-1] == depth:   # close ours inside this level first
                out.append(b")")
                implicit.pop()
            depth -= 1
        elif token == b"(":
            depth += 1
        out.append(token)
        if not token.isspace():
            last = token
    return b"".join(out)


def drop_nameless_properties(coarse) -> None:
    """Drop properties whose names had no capital letter (sgfmill strips lower case, leaving
    an empty name that no writer accepts); such words are junk, not FF[4] properties."""
    trees = [coarse]
    while trees:
        tree = trees.pop()
        for properties in tree.sequence:
            properties.pop("", None)
        trees.extend(tree.children)


class SgfRecord:
    """A game and, when it was loaded, the SGF tree it came from.

    ``game`` is the replayed main line (change it freely: ``to_bytes`` writes its current
    state). ``is_view`` says the source was a view export. ``rules_guess`` says why the rules
    were guessed (the file names none of our games and no variant was given), else None.
    ``notes`` says what loading did beyond the file's rules (see ``reader.replay``).
    """

    rules_guess: Optional[str] = None
    #: what loading did that the file's own rules would not (a move positional superko forbids,
    #: played as recorded), one line each
    notes: Sequence[str] = ()

    def __init__(self, game, source: Optional[sgf.Sgf_game] = None, move_nodes: Optional[List[int]] = None):
        self.game = game
        self._source = source
        self._move_nodes = move_nodes or []

    @classmethod
    def from_bytes(cls, data: bytes, move_number: Optional[int] = None,
                   variant: Optional[str] = None) -> "SgfRecord":
        """Load SGF data, replaying the main line up to but not including ``move_number``,
        under the file's rules, or ``variant``'s for a file that does not name them (a VR
        naming other rules is an error).

        Raises SgfError naming the node and the reason for anything unreadable or illegal.
        """
        notes: List[str] = []
        with _no_cyclic_gc():
            source = parse(data)
            game, move_nodes = replay(source, move_number, variant, notes)
        record = cls(game, source, move_nodes)
        record.rules_guess = None if variant is not None else rules_guess(source.get_root())
        record.notes = notes
        return record

    @property
    def is_view(self) -> bool:
        return self._source is not None and is_view_export(self._source.get_root())

    def root_property(self, identifier: str) -> Optional[str]:
        """A root property of the source as text (``PB``, ``RE``, ``DT``...), None when absent."""
        if self._source is None:
            return None
        return root_text(self._source.get_root(), identifier)

    @property
    def result(self) -> Optional[str]:
        """The source's ``RE``, None when absent or not loaded from a file."""
        return self.root_property("RE")

    def to_bytes(self, **options) -> bytes:
        """The game as SGF (options as for ``game_to_sgf``), keeping the source's other data."""
        options = WriteOptions(**options)
        tree, computed = build_tree(self.game, options)
        if self._source is not None:
            _Merger(self._source, self._move_nodes, self.game, tree, computed, options).run()
        return tree.serialise()


@contextlib.contextmanager
def _no_cyclic_gc():
    """Python's cyclic garbage collector paused: loading makes several objects a node (the
    tree, the moves, the positions) and no cycles to collect, and the collections that so many
    new objects set off, each walking the objects alive, took a tenth to a quarter of a long
    record's load (``scripts/bench_sgf_load.py``'s records of 20,000 to 200,000 moves)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def comment_text(node) -> Optional[str]:
    """A node's comment as text: "" when absent, None when it cannot be read."""
    if not node.has_property("C"):
        return ""
    try:
        return node.get("C")
    except ValueError:
        return None


def move_or_none(node, size: int):
    """(colour, point or None) of a node's move; None without a move or for an unreadable one
    (variations are copied, never replayed, so a bad move there is no error)."""
    try:
        return move_of(node, 0, 0, size)
    except SgfError:
        return None


def has_move(node) -> bool:
    return node.has_property("B") or node.has_property("W")


class _Merger:
    """Carries the source's unmanaged properties and variations over to a freshly written tree.

    The written main line is the game, exactly. The merge walks the source tree along the
    game's moves: from a node (the root, then each move of the game found among the children),
    through the move-less nodes that continue it (comments, setup before the first move or the
    game's own mid-game edits, a view export's corrections), whose data joins the new node; the child holding the game's next
    move is followed, the other children are copied as variations of the new node. Once the game
    leaves the tree, or ends, the walk stops: at the game's last node nothing is kept below it,
    since any child there would become the main line of a game the engine does not hold.
    """

    def __init__(self, source, move_nodes, game, tree, computed_result: bool, options: WriteOptions):
        self.source, self.tree, self.game = source, tree, game
        self.old_view = is_view_export(source.get_root())
        old_moves = [move_or_none(node, game.size) for node in source.get_main_sequence() if has_move(node)]
        played = [(record.color, record.point) for record in game.moves]
        matched = 0
        while matched < min(len(old_moves), len(played)) and old_moves[matched] == played[matched]:
            matched += 1
        self.full = matched == len(played) == len(old_moves)
        self.keep_old_result = self.full and options.result is None and (computed_result or not game.over)

    def run(self) -> None:
        moves = self.game.moves
        new_moves = [node for node in self.tree.get_main_sequence()[1:] if has_move(node)]
        old, target, number = self.source.get_root(), self.tree.get_root(), 0
        while True:
            chain = self.continuation(old, number)
            for node in chain:
                if not (self.old_view and node.has_setup_stones()):
                    self.copy_properties(node, target, root=node is self.source.get_root())
            self.merge_comments(chain, target)
            if number == len(moves):
                return
            branches = [child for i, node in enumerate(chain) for child in node
                        if i + 1 == len(chain) or child is not chain[i + 1]]
            wanted = (moves[number].color, moves[number].point)
            follow = next((b for b in branches if has_move(b) and move_or_none(b, self.game.size) == wanted),
                          None)
            for branch in branches:
                if branch is not follow:
                    self.copy_subtree(branch, target)
            if follow is None:
                return
            old, target, number = follow, new_moves[number], number + 1

    def continuation(self, node, number: int) -> list:
        """``node`` and the move-less nodes that continue it as first children: comments and
        other data, setup before the first move, and a view export's corrections."""
        chain = [node]
        while len(chain[-1]) and not has_move(chain[-1][0]):
            child = chain[-1][0]
            if child.has_setup_stones() and number > 0 and not self.old_view \
                    and not self.game.edits_after(number):
                break  # stones the game did not set up here: another position, kept as a variation
            chain.append(child)
        return chain

    def copy_properties(self, old, new, root: bool) -> None:
        managed = MANAGED_ROOT if root else MANAGED | (VIEW_MARKUP if self.old_view else frozenset())
        for identifier in old.properties():
            if identifier in managed or identifier == "C":
                continue
            if identifier == "RE" and root:
                if self.keep_old_result or (not new.has_property("RE") and self.full):
                    new.set_raw_list("RE", self.values(old, "RE"))
            elif not new.has_property(identifier):
                new.set_raw_list(identifier, self.values(old, identifier))

    def merge_comments(self, chain, new) -> None:
        """The comments of the chain's nodes in file order (without our view notice), then ours,
        each once; an unreadable old comment is copied raw unless we wrote one."""
        texts = []
        for old in chain:
            text = comment_text(old)
            if text is None:
                if not new.has_property("C"):
                    new.set_raw_list("C", self.values(old, "C"))
                return
            text = text.replace(VIEW_NOTICE, "").strip()
            if text:
                texts.append(text)
        old_text, new_text = "\n\n".join(texts), comment_text(new)
        if not old_text or new_text is None:
            return
        if new_text in old_text:
            new.set("C", old_text)
        elif old_text not in new_text:
            new.set("C", old_text + "\n\n" + new_text)

    def values(self, node, identifier: str) -> List[bytes]:
        return list(node.get_raw_list(identifier))  # the source is UTF-8 (``parse``)

    def copy_subtree(self, old, parent) -> None:
        """Copy ``old`` with everything below it as the last child of ``parent``."""
        stack = [(old, parent)]
        while stack:
            node, parent = stack.pop()
            copy = parent.new_child()
            for identifier in node.properties():
                if identifier != "SZ":
                    copy.set_raw_list(identifier, self.values(node, identifier))
            stack.extend((child, copy) for child in reversed(list(node)))


def add_variations(data: bytes, branches) -> bytes:
    """``data`` (SGF) with more lines branching off its main line, as SGF bytes.

    ``branches`` are ``(number, tree)`` pairs: ``tree`` is a move that goes instead of the main
    line's move ``number`` (1 is the first move), as ``(colour, point, trees)``: colour
    ``"b"`` or ``"w"``, point ``(row, col)`` from the bottom left or None for a pass, and the
    trees of the moves tried after it. A move already there (the main line's own, or a
    variation the file has) is followed, not written twice. SgfError for a number the main line
    does not reach."""
    game = parse(data)
    size = game.get_size()
    chain = [game.get_root()]
    while len(chain[-1]):
        chain.append(chain[-1][0])
    parents = []   # the node before each move of the main line
    for before, node in zip(chain, chain[1:]):
        if has_move(node):
            parents.append(before)
    for number, tree in branches:
        if not 1 <= number <= len(parents):
            raise SgfError(f"no move {number} on the main line (it has {len(parents)})")
        stack = [(tree, parents[number - 1])]
        while stack:   # no recursion: a variation can be long
            (colour, point, trees), parent = stack.pop()
            move = (Color.parse(colour), point)
            child = next((c for c in parent if move_or_none(c, size) == move), None)
            if child is None:
                child = parent.new_child()
                set_move(child, *move, size)
            stack.extend((sub, child) for sub in reversed(list(trees)))
    return game.serialise()
