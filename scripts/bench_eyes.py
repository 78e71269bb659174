"""Own eyes left at the end of games where stones score and eyes do not (Loose, Disto): figures
for people, not a test.

    python scripts/bench_eyes.py runs/loose-eyes runs/disto-eyes

For each match directory (the match runner's ``results.json`` and ``game-*.sgf``), every game
that ended by two passes is replayed to its final position, and each side's spare eyes are
filled one by one (an own single-point eye whose groups keep two other eyes, or in Disto
a glutton's eye while it keeps another liberty: ``search.kernels.spare_eye``) until none is
left: the count is the points that side left on the board, since every filled eye is one
stone more (L4, D4). Games that ended otherwise
(resignation, annihilation, the move cap) are not counted. Prints, per directory and per
engine (A, B), the games counted, the points left in all and the games where some were left,
and the games whose result filling the eyes would have turned.
"""

import argparse
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "scripts"

from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.search import _backend  # noqa: E402
from sgf import game_from_sgf, read_file  # noqa: E402

K = _backend.mirror


def spare_eyes(game, color: Color):
    """The points of ``color``'s spare eyes on ``game``'s board, one at a time: each found is
    filled on a copy before the next is looked for (a group of four eyes has two spare)."""
    trial = game.copy()
    found = []
    size = trial.size
    while True:
        st = trial.position.state
        for row in range(size):
            for col in range(size):
                cell = (row + 1) * (size + 2) + col + 1
                if st[K.BOARD, cell] == K.EMPTY and K.is_own_eye(st, cell, int(color)) \
                        and K.spare_eye(st, cell, int(color)):
                    if trial.illegal_reason(color, (row, col)) is None:
                        trial.play(color, (row, col))
                        found.append((row, col))
                        break
            else:
                continue
            break
        else:
            return found


def directory_figures(folder: Path):
    results = json.loads((folder / "results.json").read_text())
    figures = {"A": [0, 0, 0], "B": [0, 0, 0]}   # games, points left, games with points left
    turned = 0
    for record in results["games"]:
        if record.get("reason") != "two passes":
            continue
        game = game_from_sgf(read_file(folder / record["sgf"]))
        margin = game.score().black - game.score().white
        for color, engine in ((Color.BLACK, record["black"]), (Color.WHITE, record["white"])):
            left = len(spare_eyes(game, color))
            row = figures[engine]
            row[0] += 1
            row[1] += left
            row[2] += int(left > 0)
            if left and (margin > 0) != (margin + (left if color == Color.BLACK else -left) > 0):
                turned += 1
    return figures, turned


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, help="match directories")
    args = parser.parse_args(argv)
    for folder in args.folders:
        figures, turned = directory_figures(folder)
        for engine, (games, points, games_with) in figures.items():
            print(f"{folder}: engine {engine}: {games} games ended by two passes, "
                  f"{points} own-eye points left, in {games_with} games")
        print(f"{folder}: results that filling them would have turned: {turned}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
