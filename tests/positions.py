"""The positions of ``scripts/problems/variants.jsonl`` (issue 72: each game's own strategy),
read into the two things that use them: the reference board the exact solver
(``tests/solver.py``) searches, and the product's ``Game`` the player searches.

One JSON object a line; besides the keys ``scripts/bench_problems.py`` reads (``size komi
moves color good bad source``):

- ``game``: the rules name; ``rows``: the set-up stones, top row first (``X O .``), put on the
  board as they stand (SGF ``AB``/``AW``); ``moves``: then played, the last by the opponent
  of ``color`` (``pass`` allowed: ``["pass"]`` is a position after the opponent's pass);
- ``map`` (Terrain Go): ``terrain_load``'s syntax; ``forts`` (``["w E5", "b E3"]``, in
  placement order) and ``fort_value``;
- ``right``: every move that wins (or, when none does, that loses least), as the solver found
  it; ``values``: the solver's exact margin for the mover after each legal move (``PASS``
  for the pass; a Loose tie is +-0.25, ``solver.TIE``); ``good`` is the move the theme is about
  and ``bad`` the tempting one;
- ``theme``: what the position shows; ``playouts`` and ``seed``: the player's budget in the
  test; ``blind_spot``: set when today's player fails it (the test is a strict xfail).
"""

import json
from pathlib import Path
from typing import List, Optional

from gtp_engine.coords import Color, parse_vertex

import diagrams
from reference import GAMES, RefBoard

PROBLEMS = Path(__file__).resolve().parents[1] / "scripts" / "problems" / "variants.jsonl"


def load(path: Path = PROBLEMS) -> List[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def mover(problem: dict) -> Color:
    return Color.BLACK if problem["color"] == "b" else Color.WHITE


def move_colors(problem: dict) -> List[Color]:
    """The colour of each of ``moves``: alternating, the last by the opponent of the mover."""
    n = len(problem["moves"])
    first = mover(problem) if n % 2 == 0 else mover(problem).opponent
    return [first if i % 2 == 0 else first.opponent for i in range(n)]


def _forts(problem: dict):
    return {parse_vertex(v, problem["size"]): Color.BLACK if c.lower() == "b" else Color.WHITE
            for c, v in (f.split() for f in problem.get("forts", []))}


def reference_board(problem: dict) -> RefBoard:
    """The position on the reference rules: set-up stones as they stand, then ``moves``."""
    terrain = None
    if "map" in problem:
        terrain = diagrams.parse_map(problem["map"].replace("/", "\n")).terrain()
    d = diagrams.parse("\n".join(problem["rows"]))
    board = RefBoard(d.size, GAMES[problem["game"]].capture, d.stones, terrain, _forts(problem))
    for color, move in zip(move_colors(problem), problem["moves"]):
        point = parse_vertex(move, d.size)
        if point is not None:
            board, _ = board.play(color, point)
    return board


def opponent_passed(problem: dict) -> bool:
    return bool(problem["moves"]) and problem["moves"][-1].lower() == "pass"


def game(problem: dict):
    """The position as the product's ``Game``, as the benchmark hands it to an engine."""
    from scripts.bench_problems import problem_game
    return problem_game(problem)


def right_moves(problem: dict) -> List[Optional[tuple]]:
    return [parse_vertex(v, problem["size"]) for v in problem["right"]]
