"""The browser board's tree of moves (``gtp_engine.web.tree``): the line on show, the position
along it, variations, Undo, and a tree read from SGF nodes."""

import pytest

from gtp_engine.web.tree import MoveTree, tree_of_sgf_nodes

GAME = [("b", "C3"), ("w", "D4"), ("b", "E5"), ("w", "F6")]


def test_moves_played_in_order_make_the_line_and_the_board_is_at_its_end():
    tree = MoveTree(GAME)
    assert tree.moves == tree.line_moves == GAME and tree.at == 4
    assert tree.variations() == []


def test_stepping_back_then_playing_the_next_move_of_the_line_follows_it():
    tree = MoveTree(GAME)
    tree.at = 1
    tree.add("w", "D4")
    assert tree.at == 2 and tree.line_moves == GAME and tree.variations() == []


def test_another_move_starts_a_variation_and_the_line_ends_with_it():
    tree = MoveTree(GAME)
    tree.at = 1
    tree.add("w", "G7")
    assert tree.line_moves == [("b", "C3"), ("w", "G7")] and tree.at == 2
    assert tree.variations() == [{"number": 2, "choices": [
        {"color": "w", "vertex": "D4", "current": False}, {"color": "w", "vertex": "G7", "current": True}]}]
    tree.choose(2, 0)
    assert tree.line_moves == GAME and tree.at == 1       # the board stays before the choice
    tree.at = 1
    tree.add("w", "G7")                                   # into the variation that has it
    assert len(tree.root.children[0].children) == 2 and tree.at == 2


def test_choices_that_are_not_there_are_refused_and_change_nothing():
    tree = MoveTree(GAME)
    for number, index in ((2, 1), (5, 0), (0, 0)):
        with pytest.raises(IndexError):
            tree.choose(number, index)
    assert tree.line_moves == GAME and tree.at == 4


def test_undo_forgets_the_move_and_everything_after_it():
    tree = MoveTree(GAME)
    tree.at = 2
    tree.drop_last()
    assert tree.line_moves == [("b", "C3")] and tree.at == 1
    tree.drop_last()
    with pytest.raises(IndexError):
        tree.drop_last()
    assert tree.root.children == []


def test_win_rates_belong_to_positions_of_the_line():
    tree = MoveTree(GAME)
    tree.node(0).winrate, tree.node(2).winrate = 0.5, 0.25
    assert tree.winrates() == {0: 0.5, 2: 0.25}
    tree.at = 1
    tree.add("w", "G7")
    assert tree.winrates() == {0: 0.5}                     # move 2's rate is on the other line


class FakeNode(list):
    """An SGF node as sgfmill's: it iterates its children; ``move`` is (colour, vertex) or None."""

    def __init__(self, move=None, *children):
        super().__init__(children)
        self.move = move


def test_a_tree_from_sgf_nodes_keeps_every_variation_in_file_order():
    root = FakeNode(None, FakeNode(("b", "C3"), FakeNode(None, FakeNode(("w", "D4"), FakeNode(("b", "E5")))),
                                   FakeNode(("w", "G7"))))
    tree = tree_of_sgf_nodes(root, lambda node: node.move)
    assert tree.line_moves == [("b", "C3"), ("w", "D4"), ("b", "E5")] and tree.at == 3
    assert [c["vertex"] for c in tree.variations()[0]["choices"]] == ["D4", "G7"]


def test_a_long_game_from_sgf_nodes_needs_no_deep_recursion():
    node = FakeNode(("b", "A1"))
    for i in range(5000):
        node = FakeNode(("bw"[i % 2], "A1"), node)
    tree = tree_of_sgf_nodes(FakeNode(None, node), lambda n: n.move)
    assert len(tree.line) == 5001
