"""``showboard``: the board as text for people, with what makes each game readable.

One character per point, top row first, with GTP coordinates around. Loose, after White D3
flipped the black stone at B3 (RULES L2, first example)::

        A B C D E
      5 . . . . . 5
      4 . O O . . 4
      3 O o .(O). 3
      2 . O O . . 2
      1 . . . . . 1
        A B C D E
    legend: X O stones; x o flipped by the last move
    loose, komi 6, black to move, 8 moves
    last move: white D3: flipped B3

Marks: ``X``/``O`` stones; ``x``/``o`` stones flipped by the last move (now of that colour);
``#``/``@`` black/white stones in a meal (Disto); ``*`` points emptied by the last move
(captured or removed); ``^`` mountain and ``~`` water (Terrain Go, shown where no stone
stands); ``b``/``w`` forts; ``.`` empty plain. The last placed stone sits between ``(`` and
``)``. Below the board: the legend of the marks in use, komi, the side to move, the move count
and what the last move did.
"""

from typing import Dict, List

from ..coords import COLUMNS, Color, Point, format_vertex

STONE = {Color.BLACK: "X", Color.WHITE: "O"}
FLIPPED = {Color.BLACK: "x", Color.WHITE: "o"}
MEAL = {Color.BLACK: "#", Color.WHITE: "@"}
FORT = {Color.BLACK: "b", Color.WHITE: "w"}
EMPTIED = "*"

LEGEND = {
    "X": "X O stones", "x": "x o flipped by the last move", "#": "# @ black / white stones in a meal",
    "*": "* emptied by the last move", "^": "^ mountain", "~": "~ water", "b": "b w forts",
}


def _point_marks(game) -> Dict[Point, str]:
    """The character of every point."""
    from ..board import MOUNTAIN, WATER
    position, size = game.position, game.size
    terrain = {MOUNTAIN: "^", WATER: "~"}
    meals = set(position.meals())
    last = game.last_move
    effects = last.effects if last is not None else None
    flipped = set(effects.flipped) if effects else set()
    emptied = set(effects.captured + effects.removed) if effects else set()
    marks = {}
    for row in range(size):
        for col in range(size):
            point = (row, col)
            stone, fort = position.stone_at(point), position.fort_at(point)
            if stone:
                color = Color(stone)
                table = MEAL if point in meals else FLIPPED if point in flipped else STONE
                marks[point] = table[color]
            elif fort:
                marks[point] = FORT[Color(fort)]
            elif point in emptied:
                marks[point] = EMPTIED
            else:
                marks[point] = terrain.get(position.terrain_at(point), ".")
    return marks


def _legend(used: set) -> str:
    keys = {"X"} | {k for k, v in (("x", "xo"), ("#", "#@"), ("*", "*"), ("^", "^"), ("~", "~"),
                                      ("b", "bw")) if used & set(v)}
    return "; ".join(LEGEND[k] for k in LEGEND if k in keys)


def last_move_text(game) -> str:
    """``white D3: flipped B3 A3`` and the like; empty before the first move."""
    last = game.last_move
    if last is None:
        return ""
    text = f"{last.color.word} {format_vertex(last.point)}"
    parts = effect_lines(last.effects)
    return text + (": " + "; ".join(parts) if parts else "")


def effect_lines(effects) -> List[str]:
    """One ``kind V V ...`` line per effect that happened (``last_move_info``)."""
    if effects is None:
        return []
    kinds = (("captured", effects.captured), ("flipped", effects.flipped),
             ("removed", effects.removed), ("meals", effects.meals))
    return [f"{kind} " + " ".join(format_vertex(p) for p in points) for kind, points in kinds if points]


def draw_board(game) -> str:
    """The whole ``showboard`` text (starts with a newline so the board lines up)."""
    size = game.size
    marks = _point_marks(game)
    last = game.last_move
    last_point = last.point if last is not None else None
    letters = "    " + " ".join(COLUMNS[:size])
    lines = ["", letters]
    for row in range(size - 1, -1, -1):
        cells = [" "] * (2 * size + 1)
        for col in range(size):
            cells[2 * col + 1] = marks[(row, col)]
        if last_point is not None and last_point[0] == row:
            cells[2 * last_point[1]] = "("
            cells[2 * last_point[1] + 2] = ")"
        lines.append(f"{row + 1:>3}" + "".join(cells) + f"{row + 1}")
    lines.append(letters)
    lines.append("legend: " + _legend(set(marks.values())))
    status = f"{game.rules.name}, komi {game.komi:g}, {game.to_move.word} to move, {len(game.moves)} moves"
    if game.fort_turn is not None:
        status += f", {game.fort_turn.word} to place a fort"
    if game.over:
        status += f", game over ({game.end_reason})"
    lines.append(status)
    if last is not None:
        lines.append("last move: " + last_move_text(game))
    return "\n".join(lines)
