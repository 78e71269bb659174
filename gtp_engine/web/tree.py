"""The browser board's game as a tree of moves, for review: the line on show, how far along it
the board is, and the other lines (variations) that branch off it.

A ``Node`` is one move (``color`` ``b``/``w``, ``vertex`` such as ``D4`` or ``pass``) with the
moves that were tried after it (``children``, the first one the main line). ``MoveTree.line``
is the line on show, from the first move to the end of that line (after a node it goes on
with the first child); ``at`` is how many of its moves are on the board (the engine's
position). The tree knows no rules: the engine decides what is legal, and the controller
changes the tree only after the engine has taken the move.
"""

from dataclasses import dataclass, field
from typing import List, Optional, Tuple


@dataclass(eq=False)
class Node:
    color: Optional[str]             #: None for the root (the position before the first move)
    vertex: Optional[str]
    children: List["Node"] = field(default_factory=list)
    #: Black's win rate in the position after this move, when an analysis ran there
    winrate: Optional[float] = None

    @property
    def move(self) -> Tuple[str, str]:
        return self.color, self.vertex


class MoveTree:
    """A tree of moves with a line on show and a position along it. See the module docstring."""

    def __init__(self, moves=()):
        self.root = Node(None, None)
        self.line: List[Node] = []
        self.at = 0
        for color, vertex in moves:
            self.add(color, vertex)

    # ----------------------------------------------------------------- reading
    @property
    def moves(self) -> List[Tuple[str, str]]:
        """The moves on the board: the line up to ``at``."""
        return [node.move for node in self.line[:self.at]]

    @property
    def line_moves(self) -> List[Tuple[str, str]]:
        return [node.move for node in self.line]

    def parent(self, number: int) -> Node:
        """The node before move ``number`` (1-based) of the line: the root for the first."""
        return self.line[number - 2] if number >= 2 else self.root

    def node(self, number: int) -> Node:
        """The node after ``number`` moves of the line (the root for 0)."""
        return self.line[number - 1] if number >= 1 else self.root

    def variations(self) -> List[dict]:
        """Where the line could go otherwise: for each move of the line with siblings, its
        number and every choice there in order (``vertex``, ``color``, ``current``)."""
        shown = []
        for number, node in enumerate(self.line, 1):
            siblings = self.parent(number).children
            if len(siblings) > 1:
                shown.append({"number": number, "choices": [
                    {"color": s.color, "vertex": s.vertex, "current": s is node} for s in siblings]})
        return shown

    # ----------------------------------------------------------------- changing
    def _extend_from(self, node: Node) -> None:
        """The line goes on from ``node`` along first children."""
        while node.children:
            node = node.children[0]
            self.line.append(node)

    def add(self, color: str, vertex: str) -> None:
        """A move played at ``at``: along the line when it is the line's next move, into the
        variation that has it when one does, else a new variation (the line then ends there)."""
        parent = self.node(self.at)
        child = next((c for c in parent.children if c.move == (color, vertex)), None)
        if child is None:
            child = Node(color, vertex)
            parent.children.append(child)
        if self.at < len(self.line) and self.line[self.at] is child:
            self.at += 1
            return
        del self.line[self.at:]
        self.line.append(child)
        self.at += 1
        self._extend_from(child)

    def drop_last(self) -> None:
        """Take back the move before ``at`` and forget it, with every move after it (Undo)."""
        if self.at == 0:
            raise IndexError("no move to take back")
        node = self.line[self.at - 1]
        self.parent(self.at).children.remove(node)
        del self.line[self.at - 1:]
        self.at -= 1

    def choose(self, number: int, index: int) -> None:
        """Show variation ``index`` (0: the first) of move ``number``'s choices; the board stays
        before that move (``at`` at most ``number - 1``). IndexError for a choice not there."""
        self.check_choice(number, index)
        siblings = self.parent(number).children
        del self.line[number - 1:]
        self.line.append(siblings[index])
        self._extend_from(siblings[index])
        self.at = min(self.at, number - 1)

    def check_choice(self, number: int, index: int) -> None:
        """IndexError, saying why, unless move ``number`` of the line has choice ``index``."""
        if not 1 <= number <= len(self.line):
            raise IndexError(f"move {number} is not in this line")
        if not 0 <= index < len(self.parent(number).children):
            raise IndexError(f"move {number} has no variation {index + 1}")

    def winrates(self) -> dict:
        """{moves played: Black's win rate} along the line, where an analysis ran."""
        nodes = [self.root] + self.line
        return {number: node.winrate for number, node in enumerate(nodes) if node.winrate is not None}


def tree_of_sgf_nodes(root, read_move) -> MoveTree:
    """The tree of moves below an SGF root, with its first line on show and the board at its
    end. ``root`` iterates its children (as sgfmill's nodes do); ``read_move(node)`` gives
    (colour letter, vertex) of a node's move, or None for a node without one (its children
    then hang on the move before)."""
    tree = MoveTree()

    def walk(sgf_node, into: Node) -> None:
        stack = [(sgf_node, into)]
        while stack:   # no recursion: a long game is a deep tree
            current, parent = stack.pop()
            for child in reversed(list(current)):
                move = read_move(child)
                if move is None:
                    stack.append((child, parent))
                    continue
                node = Node(*move)
                parent.children.insert(0, node)
                stack.append((child, node))
    walk(root, tree.root)
    tree._extend_from(tree.root)
    tree.at = len(tree.line)
    return tree
