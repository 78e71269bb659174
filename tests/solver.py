"""Exact solving of small endgames on the reference rules (``tests/reference.py``): the final
margin every move of the side to move reaches when both sides then play perfectly.

Built on ``RefBoard`` (never on the product's board), so an answer it gives checks the engine
instead of repeating it. A game is a position (``RefBoard``), the side to move and whether the
last move was a pass; two passes in succession end it (C3), Goncrete's annihilation ends it at
once (G4), positional superko (Go2, Terrain Go's T4) forbids a placement that repeats an
earlier position of the line (the set-up position included).

Values are Black's margin (Black's score minus White's with komi, RULES C6, C8). In Loose a
tie is lost by the final passer (L5): it is valued +0.25 or -0.25 for Black, which keeps every
win above every tie lost and below every larger win (Loose margins are whole numbers).

The search is negamax with alpha-beta and a table of bounds. The table keys a state by its
stones, the side to move and a pass; in superko games, once a line has removed stones, also
by the whole history of the line (only then can an earlier position come back), so every
value is exact. Goncrete has no superko (G3); a state that comes back on the line raises
``ValueError`` rather than loop. In area scoring, a placement in a one-point eye of one's own
group is skipped (``Solver.fills_own_eye`` says why): there the values are exact for play
without such moves. Meant for boards of a few empty points: each node tries every
empty point on the slow reference.
"""

from typing import Dict, FrozenSet, List, Optional, Tuple

from gtp_engine.coords import Color, Point, format_vertex, reading_order
from gtp_engine.errors import IllegalMoveError

from reference import AREA, GAMES, RefBoard

BLACK, WHITE = Color.BLACK, Color.WHITE
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
TIE = 0.25      #: a Loose tie's worth for the side that does not lose it (L5)


class Solver:
    """Exact values of one game's endgames. ``game`` is a name of ``reference.GAMES``;
    ``fort_value`` is what a fort in its opponent's territory is worth (T7)."""

    def __init__(self, game: str, komi: float, fort_value: int = 0, node_limit: int = 2_000_000):
        self.settings = GAMES[game]
        self.komi = komi
        self.fort_value = fort_value
        self.node_limit = node_limit
        self.nodes = 0
        self._table: Dict[tuple, Tuple[int, float]] = {}
        self._children: Dict[tuple, list] = {}

    # ------------------------------------------------------------- the rules, as the game has them
    def final_margin(self, board: RefBoard, last_passer: Optional[Color]) -> float:
        """Black's margin when the game ends here, a Loose tie valued for the side that wins it."""
        b, w = board.score_halves(self.settings.scoring, self.fort_value)
        margin = b / 2 - (w / 2 + self.komi)
        if margin == 0 and not self.settings.has_draws:
            loser = last_passer if last_passer is not None else WHITE
            return TIE if loser == WHITE else -TIE
        return margin

    def placements(self, board: RefBoard, color: Color, history: FrozenSet) -> List[tuple]:
        """(point, board after, annihilated, removed anything) for every legal placement."""
        found = []
        for p in reading_order(board.points()):
            if not board.is_empty(p) or self.fills_own_eye(board, color, p):
                continue
            try:
                after, effects = board.play(color, p)
            except IllegalMoveError:
                continue
            if self.settings.superko and after.key() in history:
                continue
            annihilated = (self.settings.annihilation_ends and bool(effects.flipped)
                           and after.stone_count(color.opponent) == 0)
            found.append((p, after, annihilated, bool(effects.captured or effects.removed)))
        return found

    def fills_own_eye(self, board: RefBoard, color: Color, p: Point) -> bool:
        """In area scoring (Go3, G5, T5): ``p`` is a one-point eye of one group of ``color``
        that has another liberty. A stone there scores what the eye scored: the move is a pass
        that does not end the game and leaves the group an eye short, and so is never worth
        more than the better of passing and the best placement, provided an eye short never
        helps its owner (the one assumption). The solver skips it: without this every suicidal
        line of Go is in the tree. Such a fill is not in ``move_values`` even where it ties the
        best move."""
        if self.settings.scoring != AREA:
            return False
        around = board.neighbours(p)
        if any(board.stones.get(n) != color for n in around if n not in board.forts):
            return False
        stones = [n for n in around if n in board.stones]
        if not stones:
            return False
        group = board.group(stones[0])
        return all(n in group for n in stones) and len(board.liberties(group)) > 1

    # ------------------------------------------------------------- the search
    def move_values(self, board: RefBoard, color: Color,
                    passed: bool = False) -> Dict[Optional[Point], float]:
        """Every legal move of ``color`` (``None`` is the pass) with the exact margin for
        ``color`` (positive wins) after it; ``passed`` says the opponent has just passed."""
        sign = 1 if color == BLACK else -1
        history = frozenset([board.key()])
        values = {}
        if passed:
            values[None] = sign * self.final_margin(board, color)
        else:
            values[None] = -self._negamax(board, color.opponent, True, history, False, -INF, INF)
        for p, after, annihilated, removed in self.placements(board, color, history):
            if annihilated:
                values[p] = sign * self.final_margin(after, None)
            else:
                values[p] = -self._negamax(after, color.opponent, False, history | {after.key()},
                                           removed, -INF, INF)
        return values

    def _negamax(self, board, color, passed, history, removed, alpha, beta) -> float:
        """The exact margin for ``color`` to move, when it lies in (alpha, beta); else a bound
        on the right side of the window."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise ValueError(f"more than {self.node_limit} nodes: too large to solve exactly")
        sign = 1 if color == BLACK else -1
        key = (board.key(), color, passed, history if (self.settings.superko and removed) else None)
        entry = self._table.get(key)
        if entry is not None:
            flag, value = entry
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
        if key in self._children and self._children[key] is None:
            raise ValueError("a position came back on the line: the solver needs a finite game")
        start = alpha
        # the pass first: after the opponent's pass it ends the game, a cheap first bound
        if passed:
            best = sign * self.final_margin(board, color)
        else:
            best = -self._negamax(board, color.opponent, True, history, removed, -beta, -alpha)
        alpha = max(alpha, best)
        if best < beta:
            self._children[key] = None    # on the line
            moves = self.placements(board, color, history)
            for p, after, annihilated, took in moves:
                if annihilated:
                    value = sign * self.final_margin(after, None)
                else:
                    value = -self._negamax(after, color.opponent, False, history | {after.key()},
                                           removed or took, -beta, -alpha)
                if value > best:
                    best = value
                    alpha = max(alpha, value)
                    if best >= beta:
                        break
            del self._children[key]
        flag = UPPER if best <= start else LOWER if best >= beta else EXACT
        self._table[key] = (flag, best)
        return best


def best_moves(values: Dict[Optional[Point], float]) -> List[Optional[Point]]:
    """The moves that win when any wins (a larger win is no righter: the player plays to
    win); else the moves that reach the best result (a loss by less)."""
    best = max(values.values())
    if best > 0:
        return [m for m, v in values.items() if v > 0]
    return [m for m, v in values.items() if v == best]


def vertex(move: Optional[Point]) -> str:
    """A move as GTP writes it, ``PASS`` for a pass."""
    return "PASS" if move is None else format_vertex(move).upper()
