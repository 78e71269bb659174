"""View exports: a viewer that applies Go captures, replaying the file, sees the true board.

The viewer here is written independently of ``sgf.viewer``: a tiny SGF tokenizer for the main
line and a Go-capture applier (enemy groups without liberties go, then the mover's own group
if it has none; setup properties are applied literally after the node's move, as Sabaki does).
"""

import re

import pytest

import diagrams
from gtp_engine.coords import Color
from gtp_engine.game import Game
from sgf import SgfError, game_from_sgf, game_to_sgf
from test_sgf_roundtrip import random_game

B, W = Color.BLACK, Color.WHITE
TOKEN = re.compile(rb"\s*(?:(?P<delim>[;()])|(?P<ident>[A-Z]+)(?P<values>(?:\s*\[(?:\\.|[^\\\]])*\])+))", re.S)
VALUE = re.compile(rb"\[((?:\\.|[^\\\]])*)\]", re.S)


def main_line(data: bytes):
    """The nodes of the first line of play, as {identifier: [raw values]} (no variations expected)."""
    nodes, pos = [], 0
    while pos < len(data.rstrip()):
        m = TOKEN.match(data, pos)
        assert m, f"cannot tokenize at {data[pos:pos + 20]!r}"
        pos = m.end()
        if m.group("delim") == b";":
            nodes.append({})
        elif m.group("ident"):
            nodes[-1][m.group("ident").decode()] = VALUE.findall(m.group("values"))
        elif m.group("delim") == b"(" and nodes:
            raise AssertionError("a view export of a game has no variations")
    return nodes


def point(raw: bytes, size: int):
    return (size - 1 - (raw[1] - ord("a")), raw[0] - ord("a"))


class GoBoard:
    def __init__(self, size):
        self.size, self.stones = size, {}

    def neighbours(self, p):
        r, c = p
        return [(rr, cc) for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                if 0 <= rr < self.size and 0 <= cc < self.size]

    def dead_group(self, p):
        group, todo = {p}, [p]
        while todo:
            for n in self.neighbours(todo.pop()):
                if n not in self.stones:
                    return set()
                if self.stones[n] == self.stones[p] and n not in group:
                    group.add(n)
                    todo.append(n)
        return group

    def play(self, color, p):
        self.stones[p] = color
        for n in self.neighbours(p):
            if self.stones.get(n) not in (None, color):
                for q in self.dead_group(n):
                    del self.stones[q]
        for q in self.dead_group(p):
            del self.stones[q]

    def rows(self):
        letter = {B: "X", W: "O"}
        return ["".join(letter.get(self.stones.get((r, c)), ".") for c in range(self.size))
                for r in range(self.size - 1, -1, -1)]


def viewer_boards(data: bytes, size: int):
    """The viewer's board after each move, taken just before the next move (after corrections)."""
    board, boards = GoBoard(size), []
    for node in main_line(data):
        for ident, color in (("B", B), ("W", W)):
            if ident in node:
                boards.append(board.rows())
                if node[ident][0]:
                    board.play(color, point(node[ident][0], size))
        for p in node.get("AE", []):
            board.stones.pop(point(p, size), None)
        for ident, color in (("AB", B), ("AW", W)):
            for p in node.get(ident, []):
                board.stones[point(p, size)] = color
    boards.append(board.rows())
    return boards[1:]


def true_boards(game: Game):
    replay, boards = game.copy(), []
    while replay.moves:
        boards.append(replay.position.rows())
        replay.undo()
    return boards[::-1]


@pytest.mark.parametrize("rules,size", [("loose", 7), ("goncrete", 7), ("disto", 7), ("terrain", 7), ("go", 7)])
@pytest.mark.parametrize("seed", [1, 2])
def test_viewer_sees_the_true_board_after_every_move(rules, size, seed):
    game = random_game(rules, size, seed, moves=50)
    data = game_to_sgf(game, view=True)
    seen = viewer_boards(data, size)
    assert len(seen) == len(game.moves)
    assert seen == true_boards(game)


@pytest.mark.parametrize("rules", ["loose", "goncrete", "disto"])
def test_record_form_misleads_a_go_viewer_where_the_view_form_corrects_it(rules):
    """Guards the test itself: without corrections the Go viewer goes wrong in these games."""
    mismatches = 0
    for seed in range(1, 6):
        game = random_game(rules, 7, seed, moves=50)
        mismatches += viewer_boards(game_to_sgf(game), 7) != true_boards(game)
    assert mismatches > 0


def test_loose_capture_gets_a_correction_node():
    """RULES L2's example: White D3 flips black B3; a Go viewer removes nothing, so AW[bc] corrects it."""
    game = Game("loose", 5)
    diagrams.setup_game(game, """
        . . . . .
        . O O . .
        O X . . .
        . O O . .
        . . . . .
    """)
    game.play(W, diagrams.vertex("D3", 5))
    nodes = main_line(game_to_sgf(game, view=True))
    assert nodes[-2].get("W") == [b"dc"]
    assert nodes[-1].get("AW") == [b"bc"]
    assert "B" not in nodes[-1] and "W" not in nodes[-1]
    assert nodes[0]["VV"] == [b"1"] and b"Do not feed this file to engines" in nodes[0]["C"][0]


def test_view_export_repeats_the_map_markup_on_every_node():
    game = random_game("terrain", 7, seed=3, moves=8)
    nodes = main_line(game_to_sgf(game, view=True))
    assert all(node.get("TR") == nodes[0]["TR"] for node in nodes)
    assert all(node.get("LB") == nodes[0]["LB"] for node in nodes)


def test_edited_view_correction_is_refused():
    game = Game("loose", 5)
    diagrams.setup_game(game, """
        . . . . .
        . O O . .
        O X . . .
        . O O . .
        . . . . .
    """)
    game.play(W, diagrams.vertex("D3", 5))
    data = game_to_sgf(game, view=True).replace(b"AW[bc]", b"AW[ee]")
    with pytest.raises(SgfError, match=r"node \d+: view correction does not give the true board at B3"):
        game_from_sgf(data)


def test_terrain_capture_against_a_fort_gets_a_correction():
    """A fort is never a liberty (RULES T3), but a Go viewer sees an empty point there: White B4
    captures black B5 beside White's fort at A5, which the viewer would leave on the board."""
    from gtp_engine.rules.terrain_map import TerrainMap
    game = Game("terrain", 5, terrain=TerrainMap.plain(5))
    game.place_fort(W, diagrams.vertex("A5", 5))
    game.place_fort(B, diagrams.vertex("E1", 5))
    for color, vertex in ((B, "B5"), (W, "C5"), (B, "C3"), (W, "B4")):
        game.play(color, diagrams.vertex(vertex, 5))
    assert diagrams.vertices(game.moves[-1].effects.captured) == ["B5"]
    nodes = main_line(game_to_sgf(game, view=True))
    assert nodes[-2].get("W") == [b"bb"] and nodes[-1].get("AE") == [b"ba"]
    assert viewer_boards(game_to_sgf(game, view=True), 5) == true_boards(game)
