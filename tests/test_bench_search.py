"""The benchmark's minimal random-playout kernel (``scripts/bench_search.py``) plays legal Go:
at the end of playouts from several seeds its strings, pseudo-liberty counts and empty list
agree with a recount from the board, no string is without a liberty, and a game that ended
by passes left neither player a playable point (bar a ko point)."""

import numpy as np
import pytest

from gtp_engine.board import CAPTURE_REMOVE, SCORE_AREA, Position
from gtp_engine.board import kernels
from gtp_engine.board.position import _rng_seed
from scripts.bench_search import minimal_playout

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3


def neighbours(cell, w):
    return (cell - 1, cell + 1, cell - w, cell + w)


def string_of(board, start, w):
    """The stones connected to ``start`` (flood fill, the obvious way)."""
    color = board[start]
    seen = {start}
    todo = [start]
    while todo:
        s = todo.pop()
        for q in neighbours(s, w):
            if board[q] == color and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def is_own_eye(board, cell, color, w):
    if any(board[q] not in (color, WALL) for q in neighbours(cell, w)):
        return False
    diagonals = [board[q] for q in (cell - w - 1, cell - w + 1, cell + w - 1, cell + w + 1)]
    return diagonals.count(3 - color) + (WALL in diagonals) < 2


def is_suicide(board, cell, color, w):
    after = board.copy()
    after[cell] = color
    for q in neighbours(cell, w):
        if after[q] == 3 - color and not any(
                after[t] == EMPTY for s in string_of(after, q, w) for t in neighbours(s, w)):
            return False   # captures
    return not any(after[t] == EMPTY for s in string_of(after, cell, w) for t in neighbours(s, w))


def run(size, seed):
    area = (size + 2) ** 2
    arrays = [np.zeros(area, np.int8)] + [np.zeros(area, np.int32) for _ in range(6)]
    board, nxt, gid, libs, gsize, empties, where = arrays
    balance, moves, n = minimal_playout(size, *arrays, np.array([seed], np.int64))
    return board, nxt, gid, libs, gsize, empties[:n], where, int(balance), int(moves)


@pytest.mark.parametrize("size,seed", [(9, s) for s in range(1, 9)] + [(5, 3), (13, 5), (19, 2)])
def test_minimal_playout_ends_in_a_legal_position(size, seed):
    board, nxt, gid, libs, gsize, empties, where, balance, moves = run(size, seed)
    w = size + 2
    interior = {(r + 1) * w + c + 1 for r in range(size) for c in range(size)}
    assert all(board[c] == WALL for c in range(w * w) if c not in interior)
    empty_points = {c for c in interior if board[c] == EMPTY}
    assert sorted(empties.tolist()) == sorted(empty_points)
    assert all(where[c] == i for i, c in enumerate(empties.tolist()))
    assert 0 < moves <= 3 * size * size
    checked = set()
    for c in sorted(interior - empty_points):
        if c in checked:
            continue
        stones = string_of(board, c, w)
        checked |= stones
        root = int(gid[c])
        assert {int(gid[s]) for s in stones} == {root} and root in stones
        walk = [root]
        while int(nxt[walk[-1]]) != root:
            walk.append(int(nxt[walk[-1]]))
            assert len(walk) <= len(stones)
        assert set(walk) == stones and gsize[root] == len(stones)
        pairs = sum(board[q] == EMPTY for s in stones for q in neighbours(s, w))
        assert libs[root] == pairs > 0
    area = sum(1 if board[c] == BLACK else -1 for c in interior if board[c] != EMPTY)
    for c in empty_points:
        around = {int(board[q]) for q in neighbours(c, w)} & {BLACK, WHITE}
        area += 1 if around == {BLACK} else -1 if around == {WHITE} else 0
    assert balance == area
    if moves < 3 * size * size:   # two passes: nothing left to play but perhaps one ko point
        playable = [(c, color) for color in (BLACK, WHITE) for c in empty_points
                    if not is_own_eye(board, c, color, w) and not is_suicide(board, c, color, w)]
        assert len(playable) <= 1, playable


@pytest.mark.parametrize("size", [9, 19])
def test_minimal_playout_plays_the_boards_own_game(size):
    """Same random numbers, same empty list, same rules: the minimal kernel plays the very
    game the board's own light playout plays, so the benchmark times equal work."""
    for seed in range(1, 21 if size == 9 else 4):
        board, _, _, _, _, empties, _, _, moves = run(size, _rng_seed(seed))
        position = Position(size, CAPTURE_REMOVE)
        result = position.playout(BLACK, seed, SCORE_AREA)
        assert result.moves == moves
        assert position._section(kernels.BOARD).tolist() == board.tolist()
        n = int(position._section(kernels.HDR)[kernels.H_NEMPTY])
        assert position._section(kernels.EMPTIES)[:n].tolist() == empties.tolist()
