"""A benchmark of positions from lost games where one move lost much, judged by Pachi: how
often a search avoids that move and finds the one the judge preferred (figures for people,
not a test).

    python scripts/bench_problems.py collect runs/pachi-eq --pachi ~/pachi --out problems.jsonl
    python scripts/bench_problems.py run scripts/problems/go9.jsonl --seeds 4 \\
        --engine "vargo --threads 1 --quiet --playouts 26000 --seed {seed}" \\
        --engine "env PYTHONPATH=<branch> python -P -m gtp_engine ... --seed {seed}"

``collect`` reads a match directory (the match runner's ``results.json`` and ``game-*.sgf``, Go
only) and, in each game engine ``--engine`` (A or B) lost (every game with ``--all``), asks
Pachi (built with ``make DCNN=0``; one thread) for its move and win rate at every position, at
``--playouts``, until the engine's win rate has stayed below 10% for three of its moves
(``--from-game N`` skips the games before the Nth, to go on with a stopped collection). A
move of the engine's is a problem when the judge's win rate for it fell by ``--drop`` or more
(before the move, against after it from the opponent's side) while the judge preferred another
move. Each such pair is then searched again by a second Pachi at ``--confirm`` playouts from
the two positions after the moves (the opponent to move); it is kept when the judge's move
stays better by ``--margin`` or more. One JSON object a line: ``size``, ``komi``, ``moves``
(vertices from the empty board, colours alternating from Black's, ``pass`` allowed), ``color``
(to move), ``bad`` (the engine's move), ``good`` (the judge's), ``bad_value`` and
``good_value`` (the mover's win rates after each, at ``--confirm``), ``source`` (file and
move number). Pachi's win rate is its search's estimate, not the truth; the set says where a
much stronger search disagreed strongly, no more.

A problem may also be a position of any game (``scripts/problems/variants.jsonl``, issue 72:
each game's own strategy, solved exactly by ``tests/solver.py``): ``game`` (the rules name),
``rows`` (set-up stones, top row first, ``X O .``: SGF ``AB``/``AW``, put as they stand), for
Terrain Go ``map`` (``terrain_load``'s syntax), ``forts`` (``["w E5", "b E3"]``, in placement
order) and ``fort_value``; its ``moves`` are played after the set-up, the last by the opponent
of ``color``; ``right`` lists every move that wins (the judge's move is one of them). ``run``
hands such a position to the engine as an SGF file (``loadsgf``).

``run`` searches each problem with each ``--engine`` (a GTP command line; ``{seed}`` is
replaced by 1, 2, ... ``--seeds``, one process a seed) by ``kata-genmove_analyze`` (our
engine's; ``--plain`` uses ``genmove``, for other engines), and prints per engine: the share of
searches that chose the judge's move (or another of ``right``), the share that chose the
losing one, each with its 95% interval, the mean share of the root's visits those moves had
(from the search's last ``info`` line), and the mean seconds a search. With ``--verbose``, a line per problem and
engine. Compare engines in the same run: the figures are relative to the set, and one
engine's gain here says where to look, not that it plays better (matches decide that).
"""

import argparse
import json
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

import sgf  # noqa: E402
from gtp_engine.coords import format_vertex  # noqa: E402
from gtp_engine.files import write_atomically  # noqa: E402
from gtp_engine.match.gtp_client import GtpEngine  # noqa: E402
from gtp_engine.match.stats import wilson_interval  # noqa: E402

_WINNER = re.compile(r"WINNER is (\S+) with score ([\d.]+)%")
_LOST_BELOW = 0.10        #: the engine's win rate under which its game is given up as lost
_LOST_MOVES = 3           #: ... for this many of its moves in a row
_KEYS = ("size", "komi", "moves", "color", "good", "bad", "source")   #: what ``run`` reads


def set_up(engine: GtpEngine, size: int, komi: float, moves: List[str]) -> None:
    """The position after ``moves`` (colours alternating from Black's) on a fresh board."""
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi}")
    for i, move in enumerate(moves):
        engine.send(f"play {'bw'[i % 2]} {move}")


def problem_game(problem: dict):
    """A position problem (one with ``rows``) as a ``Game``: map and forts, set-up stones, then
    ``moves``, the last by the opponent of ``color``. ValueError (RulesError, TerrainError)
    when the problem breaks the rules."""
    from gtp_engine.coords import Color, parse_vertex
    from gtp_engine.game import Game
    from gtp_engine.rules.terrain_map import TerrainMap
    size = problem["size"]
    forts = [(Color.BLACK if c.lower() == "b" else Color.WHITE, parse_vertex(v, size))
             for c, v in (f.split() for f in problem.get("forts", []))]
    terrain = None
    if "map" in problem:
        terrain = TerrainMap.from_text(problem["map"], forts_per_side=len(forts) // 2,
                                       fort_value=problem.get("fort_value"))
    game = Game(problem.get("game", "go"), size, problem["komi"], terrain=terrain)
    for color, point in forts:
        game.place_fort(color, point)
    rows = [row.replace(" ", "") for row in problem["rows"]]
    if len(rows) != size or any(len(row) != size for row in rows):
        raise ValueError(f"rows are not {size}x{size}")
    for i, row in enumerate(rows):
        for col, ch in enumerate(row):
            if ch in "XO":
                game.add_setup(Color.BLACK if ch == "X" else Color.WHITE, (size - 1 - i, col))
            elif ch != ".":
                raise ValueError(f"unexpected {ch!r} in rows")
    mover = Color.BLACK if problem["color"] == "b" else Color.WHITE
    color = mover if len(problem["moves"]) % 2 == 0 else mover.opponent
    for move in problem["moves"]:
        game.play(color, parse_vertex(move, size))
        color = color.opponent
    return game


def set_up_problem(engine: GtpEngine, problem: dict, folder: Path) -> None:
    """The problem's position on the engine: plain ``play`` from the empty board for a Go
    problem, an SGF file and ``loadsgf`` for a position problem."""
    if "rows" not in problem:
        set_up(engine, problem["size"], problem["komi"], problem["moves"])
        return
    path = folder / "problem.sgf"
    write_atomically(path, sgf.game_to_sgf(problem_game(problem)))
    engine.send(f"loadsgf {path}")


class Pachi(GtpEngine):
    """A Pachi process at a fixed number of playouts a move whose ``judge`` gives its move and
    its win rate for the player to move (read from the ``*** WINNER`` line on its stderr)."""

    def __init__(self, directory: str, playouts: int):
        super().__init__(["./pachi", "-t", f"={playouts}", "threads=1,resign_threshold=0"],
                         label="pachi", stderr=subprocess.PIPE, cwd=directory)
        self._errors: "queue.Queue[bytes]" = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stderr:
            self._errors.put(line)

    def judge(self, color: str):
        """(Pachi's move, its win rate for ``color``), the position left as it was."""
        while not self._errors.empty():
            self._errors.get()
        move = self.send(f"genmove {color}", timeout=None)
        while True:
            found = _WINNER.search(self._errors.get(timeout=600).decode("utf-8", "replace"))
            if found:
                break
        self.send("undo")
        return move.strip().upper(), float(found.group(2)) / 100


def collect(args) -> int:
    run = Path(args.run)
    results = json.loads((run / "results.json").read_text())
    if results["settings"].get("variant", "go") != "go":
        raise SystemExit("collect: Pachi judges Go games only")
    judge = Pachi(args.pachi, args.playouts)
    confirm = Pachi(args.pachi, args.confirm)
    out = Path(args.out)
    text = out.read_text() if out.exists() else ""
    kept = 0
    try:
        for number, entry in enumerate(results["games"], 1):
            if (number < args.from_game or not entry.get("sgf")
                    or (not args.all and entry.get("winner") == args.engine)):
                continue
            ours = "b" if entry["black"] == args.engine else "w"
            game = sgf.game_from_sgf((run / entry["sgf"]).read_bytes())
            size, komi = game.size, game.komi
            moves = [format_vertex(record.point) for record in game.moves]
            set_up(judge, size, komi, [])
            values: List[Optional[tuple]] = []
            low = 0
            for i, move in enumerate(moves):
                color = "bw"[i % 2]
                values.append(judge.judge(color))
                judge.send(f"play {color} {move}")
                if color == ours:
                    low = low + 1 if values[-1][1] < _LOST_BELOW else 0
                    if low >= _LOST_MOVES:
                        break
            for i in range(len(values) - 1):
                if "bw"[i % 2] != ours:
                    continue
                choice, before = values[i]
                after = 1.0 - values[i + 1][1]
                if choice == moves[i].upper() or choice in ("PASS", "RESIGN") or before - after < args.drop:
                    continue
                checked = {}
                for name, move in (("bad", moves[i]), ("good", choice)):
                    set_up(confirm, size, komi, moves[:i] + [move])
                    checked[name] = 1.0 - confirm.judge("bw"[(i + 1) % 2])[1]
                keep = checked["good"] - checked["bad"] >= args.margin
                print(f"{entry['sgf']} move {i + 1} {ours}: played {moves[i]} ({before:.2f} -> "
                      f"{after:.2f}), judge {choice}; at {args.confirm}: {checked['bad']:.2f} "
                      f"against {checked['good']:.2f}{' kept' if keep else ''}", flush=True)
                if keep:
                    kept += 1
                    text += json.dumps({
                        "size": size, "komi": komi, "moves": moves[:i], "color": ours,
                        "bad": moves[i].upper(), "good": choice,
                        "bad_value": round(checked["bad"], 3), "good_value": round(checked["good"], 3),
                        "source": f"{run.name}/{entry['sgf']} move {i + 1}"}) + "\n"
                    write_atomically(out, text)   # each at once: a stopped collection keeps them
    finally:
        judge.close()
        confirm.close()
    print(f"{kept} problems written to {args.out}")
    return 0


def _last_info(text: str) -> Dict[str, int]:
    """Visits by move in the last ``info`` line of a genmove_analyze answer."""
    lines = [line for line in text.splitlines() if line.startswith("info")]
    visits: Dict[str, int] = {}
    if not lines:
        return visits
    for segment in lines[-1].split("info move ")[1:]:
        words = segment.split()
        if len(words) >= 3 and words[1] == "visits":
            visits[words[0].upper()] = int(words[2])
    return visits


def right_moves(problem: dict) -> List[str]:
    """The moves that count as found: ``right`` where given, else the judge's move."""
    return [m.upper() for m in problem.get("right", [problem["good"]])]


def search_problems(command: str, problems: List[dict], seed: int, plain: bool):
    """One engine process (``{seed}`` replaced) on every problem: a list of (move, share of
    the root's visits the good move had or None, seconds)."""
    engine = GtpEngine(command.replace("{seed}", str(seed)), label="engine")
    answers = []
    try:
        for problem in problems:
            with tempfile.TemporaryDirectory() as folder:
                set_up_problem(engine, problem, Path(folder))
            start = time.monotonic()
            if plain:
                move, share = engine.send(f"genmove {problem['color']}", timeout=None), None
            else:
                text = engine.send(f"kata-genmove_analyze {problem['color']} interval 5 minmoves 400",
                                   timeout=None)
                move = text.strip().splitlines()[-1].split()[-1]
                visits = _last_info(text)
                total = sum(visits.values())
                share = sum(visits.get(m, 0) for m in right_moves(problem)) / total if total else None
            answers.append((move.strip().upper(), share, time.monotonic() - start))
    finally:
        engine.close()
    return answers


def run(args) -> int:
    problems = []
    for number, line in enumerate(Path(args.problems).read_text().splitlines(), 1):
        if line.strip():
            try:
                problem = json.loads(line)
            except ValueError as err:
                raise SystemExit(f"{args.problems}, line {number}: not JSON ({err})")
            missing = [key for key in _KEYS if not isinstance(problem, dict) or key not in problem]
            if missing:
                raise SystemExit(f"{args.problems}, line {number}: no {', '.join(missing)}")
            problems.append(problem)
    if args.limit:
        problems = problems[:args.limit]
    if not problems or args.seeds < 1:
        raise SystemExit(f"nothing to search: {len(problems)} problems, {args.seeds} seeds")
    rows = {}
    for command in args.engine:
        rows[command] = [search_problems(command, problems, seed, args.plain)
                         for seed in range(1, args.seeds + 1)]
    print(f"{len(problems)} problems x {args.seeds} seeds")
    for number, command in enumerate(args.engine, 1):
        answers = [a for per_seed in rows[command] for a in per_seed]
        n = len(answers)
        good = sum(1 for per_seed in rows[command] for j, a in enumerate(per_seed)
                   if a[0] in right_moves(problems[j]))
        bad = sum(1 for per_seed in rows[command] for j, a in enumerate(per_seed)
                  if a[0] == problems[j]["bad"])
        shares = [a[1] for a in answers if a[1] is not None]
        p, (lo, hi) = good / n, wilson_interval(good, n)
        q, (qlo, qhi) = bad / n, wilson_interval(bad, n)
        share = f"{sum(shares) / len(shares):.3f}" if shares else "-"
        print(f"engine {number}: judge's move {good}/{n} {p:.1%} ({lo:.1%}..{hi:.1%}), "
              f"losing move {bad}/{n} {q:.1%} ({qlo:.1%}..{qhi:.1%}), judge's move's visit "
              f"share {share}, {sum(a[2] for a in answers) / n:.2f} s a search: {command}")
    if args.verbose:
        for j, problem in enumerate(problems):
            cells = []
            for command in args.engine:
                picks = [per_seed[j] for per_seed in rows[command]]
                cells.append(" ".join(a[0] + ("" if a[1] is None else f"({a[1]:.2f})") for a in picks))
            print(f"{problem['source']}: good {problem['good']} bad {problem['bad']} | "
                  + " | ".join(cells))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("collect", help="judge a match's lost games with Pachi; append problems")
    c.add_argument("run", help="a match directory (results.json, game-*.sgf)")
    c.add_argument("--pachi", required=True, help="the directory of the pachi binary")
    c.add_argument("--engine", default="A", choices=("A", "B"), help="whose moves (default A)")
    c.add_argument("--all", action="store_true", help="every game, not only the engine's losses")
    c.add_argument("--playouts", type=int, default=40000, help="the judge's playouts (40000)")
    c.add_argument("--confirm", type=int, default=150000, help="the confirming playouts (150000)")
    c.add_argument("--drop", type=float, default=0.12, help="the win rate a move must lose (0.12)")
    c.add_argument("--margin", type=float, default=0.10,
                   help="the judge's move's lead, confirmed (0.10)")
    c.add_argument("--from-game", type=int, default=1,
                   help="skip the games before this one (1: all), to go on with a stopped collection")
    c.add_argument("--out", required=True, help="the problems file (added to)")
    r = sub.add_parser("run", help="search the problems with engines")
    r.add_argument("problems")
    r.add_argument("--engine", action="append", required=True, help="GTP command; {seed}")
    r.add_argument("--seeds", type=int, default=3)
    r.add_argument("--limit", type=int, default=0, help="only the first N problems")
    r.add_argument("--plain", action="store_true", help="genmove (engines without kata-*)")
    r.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    return collect(args) if args.what == "collect" else run(args)


if __name__ == "__main__":
    sys.exit(main())
