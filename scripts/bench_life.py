"""Life and death on a big board: the search's ownership of every stone against GNU Go's
status of it, on positions from 19x19 games (figures for people, not a test; issue 73).

    python scripts/bench_life.py collect --games 12 --playouts 1500 --seed 11 --out life.jsonl
    python scripts/bench_life.py run scripts/problems/life19.jsonl --playouts 5000 \\
        [--search-param NAME=VALUE ...] [--verbose]

``collect`` plays our engine against itself in this process (``--playouts`` a move, one
thread, four random opening moves a game on the third to sixteenth lines for variety) and,
after moves 150, 200 and 250 (``--marks``), asks GNU Go 3.8 (``--gnugo``, level 10, Chinese
rules, told every move by GTP) for ``final_status_list dead``: the stones its life-and-death
reading finds dead as the board stands. One JSON object a line: ``size``, ``komi``,
``moves`` (``[colour, vertex]`` pairs from the empty board, passes as ``pass``), ``dead``
(vertices) and ``source``.

``run`` searches each position with the player to move (``--playouts``, one thread, seed 1,
no early stop) and compares the search's ownership (the share of its playouts that end with
the point owned by each side) with GNU Go's statuses, stone by stone, from the owner's side:
an alive stone is *given away* when the search leans to the opponent (ownership below 0),
*weak* below 0.4; a dead stone is *kept* when the search leans to its owner. It prints those
counts and the mean error (half the distance of the ownership from the judge's +1 or -1).
The shipped set (``scripts/problems/life19.jsonl``, 39 positions of 13 games, at moves 150,
200 and 250): 18 from GNU Go level 3 against itself (six random opening moves) and 21 from
our self-play at 1,500 simulations (``collect``'s form; the fifty-eighth session, RESEARCH.md).
GNU Go reads life and death locally and is wrong at times; compare settings in the same run
(``--search-param`` is the engine's own): the set says where the playouts misjudge groups,
not which setting plays better (matches decide that).
"""

import argparse
import json
import random
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.cli import _search_param  # noqa: E402
from gtp_engine.coords import Color, format_vertex, parse_vertex  # noqa: E402
from gtp_engine.files import write_atomically  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.match.gtp_client import GtpEngine  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402

GNUGO = "/usr/games/gnugo --mode gtp --level 10 --chinese-rules"
WEAK = 0.4   #: an alive stone whose owner's share of the ownership is below this is weak
COUNTS = ("alive", "dead", "given_away", "weak", "kept", "error")   #: what ``run`` counts


def _opening_move(chooser: random.Random, game: Game):
    size = game.size
    while True:
        point = (chooser.randrange(2, size - 2), chooser.randrange(2, size - 2))
        if game.illegal_reason(game.to_move, point) is None:
            return point


def collect(args) -> None:
    """Self-play games, each position at a mark judged by GNU Go, added to ``--out``."""
    marks = sorted(args.marks)
    out = Path(args.out)
    lines = out.read_text().splitlines() if out.exists() else []
    # the file is rewritten whole after each position: a stopped run keeps what it judged
    for number in range(args.games):
        seed = args.seed * 1000 + number
        chooser = random.Random(seed)
        game = Game("go", args.size, args.komi)
        player = SearchPlayer(SearchSettings(playouts=args.playouts, seed=seed, book=False))
        judge = GtpEngine(args.gnugo)
        try:
            judge.send(f"boardsize {args.size}")
            judge.send("clear_board")
            judge.send(f"komi {args.komi}")
            moves = []
            passes = 0
            while len(moves) < marks[-1] and passes < 2:
                color = game.to_move
                if len(moves) < 4:
                    point = _opening_move(chooser, game)
                else:
                    point, _ = player.genmove(game, color)
                    if point == "resign":
                        break
                game.play(color, point)
                vertex = format_vertex(point)
                passes = passes + 1 if point is None else 0
                moves.append([color.letter.upper(), vertex])
                judge.send(f"play {color.letter} {vertex}")
                if len(moves) in marks:
                    dead = judge.send("final_status_list dead", timeout=None).split()
                    lines.append(json.dumps({"size": args.size, "komi": args.komi,
                                             "moves": moves, "dead": dead,
                                             "source": f"seed {seed} move {len(moves)}"},
                                            separators=(",", ":")))
                    write_atomically(out, "\n".join(lines) + "\n")
        finally:
            judge.close()
        print(f"game {number + 1} of {args.games}: {len(moves)} moves", file=sys.stderr)


def position_of(problem: dict) -> Game:
    game = Game("go", problem["size"], problem["komi"])
    for letter, vertex in problem["moves"]:
        game.play(Color.parse(letter), parse_vertex(vertex, problem["size"]))
    return game


def judge_position(player: SearchPlayer, problem: dict, playouts: int) -> dict:
    """The counts of one position (``run``'s docstring says what each means)."""
    game = position_of(problem)
    size = game.size
    dead = {parse_vertex(v, size) for v in problem["dead"]}
    player.clear()
    analysis = player.search(game, game.to_move, playouts=playouts, early_stop=False)
    counts = dict.fromkeys(COUNTS, 0)
    for row in range(size):
        for col in range(size):
            stone = game.position.stone_at((row, col))
            if stone not in (int(Color.BLACK), int(Color.WHITE)):
                continue
            own = analysis.ownership[row * size + col]
            own = own if stone == int(Color.BLACK) else -own
            if (row, col) in dead:
                counts["dead"] += 1
                counts["kept"] += own > 0
                counts["error"] += (own + 1) / 2
            else:
                counts["alive"] += 1
                counts["given_away"] += own < 0
                counts["weak"] += own < WEAK
                counts["error"] += (1 - own) / 2
    return counts


def run(args) -> None:
    player = SearchPlayer(SearchSettings(playouts=args.playouts, threads=1, seed=1, book=False,
                                         overrides=tuple(args.search_param)))
    total = dict.fromkeys(COUNTS, 0)
    problems = [json.loads(line) for line in open(args.problems) if line.strip()]
    for problem in problems:
        counts = judge_position(player, problem, args.playouts)
        for key in total:
            total[key] += counts[key]
        if args.verbose:
            print(f"{problem['source']}: alive {counts['alive']} (given away "
                  f"{counts['given_away']}, weak {counts['weak']}), dead {counts['dead']} "
                  f"(kept {counts['kept']})", flush=True)
    stones = total["alive"] + total["dead"]
    print(f"{len(problems)} positions, {stones} stones, {args.playouts} simulations"
          f"{''.join(f' {name}={value:g}' for name, value in args.search_param)}: "
          f"alive {total['alive']}, given away {total['given_away']}, weak {total['weak']}; "
          f"dead {total['dead']}, kept {total['kept']}; "
          f"mean error {total['error'] / max(1, stones):.4f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=12)
    c.add_argument("--playouts", type=int, default=1500)
    c.add_argument("--size", type=int, default=19)
    c.add_argument("--komi", type=float, default=7.5)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--marks", type=int, nargs="+", default=[150, 200, 250])
    c.add_argument("--gnugo", default=GNUGO)
    c.add_argument("--out", required=True)
    r = sub.add_parser("run")
    r.add_argument("problems")
    r.add_argument("--playouts", type=int, default=5000)
    r.add_argument("--search-param", type=_search_param, action="append", default=[],
                   metavar="NAME=VALUE", help="a tunable of the search, as the engine takes it")
    r.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    (collect if args.command == "collect" else run)(args)


if __name__ == "__main__":
    main()
