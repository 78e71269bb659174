"""Check SGF files of the five games and convert them between the record and the view form.

    vargo-sgf check FILE            replay, print the game, score and result
    vargo-sgf view FILE -o OUT      record form -> view form (for Go viewers)
    vargo-sgf record FILE -o OUT    view form -> record form (for engines)

``--variant NAME`` gives the rules of a file that does not name them (no ``VR``, as GoGui
writes); without it such a file is read as Go, with a warning on stderr.

``-o -`` writes to stdout. Conversions keep every property we do not manage. Exit status: 0 on
success, 1 for a file that cannot be read or replayed (the error names the node), 2 for bad
arguments.
"""

import argparse
import sys
from typing import List, Optional

from gtp_engine.board import EMPTY
from gtp_engine.coords import COLUMNS
from gtp_engine.files import write_atomically
from gtp_engine.rules import RULES_BY_NAME

from . import read_file
from .errors import SgfError
from .record import SgfRecord

PROG = "vargo-sgf"

STONE_CHARS = {1: "X", 2: "O"}


def board_lines(game) -> List[str]:
    """The board top row first with coordinates; on empty points the map (``^`` mountain,
    ``~`` water, ``b``/``w`` forts) when the game has one."""
    size = game.size
    terrain = game.terrain.to_text(game.forts).split("/") if game.terrain is not None else None
    lines = ["   " + " ".join(COLUMNS[:size])]
    for top_index in range(size):
        row = size - 1 - top_index
        cells = []
        for col in range(size):
            stone = game.position.stone_at((row, col))
            if stone != EMPTY:
                cells.append(STONE_CHARS[stone])
            else:
                cells.append(terrain[top_index][col] if terrain is not None else ".")
        lines.append(f"{row + 1:2d} " + " ".join(cells))
    return lines


def summary(record: SgfRecord) -> List[str]:
    game = record.game
    lines = [f"rules {game.rules.name}, {game.size}x{game.size}, komi {game.komi:g}, "
             f"{len(game.moves)} moves" + (", view export" if record.is_view else "")]
    if game.forts:
        lines.append("forts: " + " ".join(f"{color.letter} {COLUMNS[p[1]]}{p[0] + 1}" for color, p in game.forts))
    lines.extend(board_lines(game))
    score = game.score()
    lines.append(f"score: black {score.black:g}, white {score.white:g} -> {score.result}"
                 + ("" if game.over else " (if the game ended now)"))
    lines.append(f"end: {game.end_reason or 'not over'}; recorded result: {record.result or 'none'}")
    return lines


def read(path: str, variant: Optional[str] = None) -> SgfRecord:
    """The file's game, under ``variant`` when given; a warning on stderr when the rules are a
    guess (GoGui and gogui-twogtp write no VR: a Loose game would be replayed as Go)."""
    record = SgfRecord.from_bytes(read_file(path), variant=variant)
    if record.rules_guess:
        print(f"{PROG}: warning: {path}: {record.rules_guess} (choose with --variant)", file=sys.stderr)
    for note in record.notes:
        print(f"{PROG}: note: {path}: {note}", file=sys.stderr)
    return record


def write(data: bytes, out: str) -> None:
    if out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        write_atomically(out, data)
    except OSError as err:
        raise SgfError(f"cannot write {out}: {err.strerror.lower() if err.strerror else err}")


def run(args: argparse.Namespace) -> int:
    record = read(args.file, args.variant)
    if args.command == "check":
        print("\n".join(summary(record)))
    else:
        write(record.to_bytes(view=args.command == "view"), args.out)
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    commands = top.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="replay a file, print the game, the score and the result")
    check.add_argument("file")
    for name, text in (("view", "write the view form (setup nodes correct Go viewers' boards)"),
                       ("record", "write the record form (for engines and loadsgf)")):
        command = commands.add_parser(name, help=text)
        command.add_argument("file")
        command.add_argument("-o", "--out", required=True, help="output file, - for stdout")
    for command in commands.choices.values():
        command.add_argument("--variant", choices=list(RULES_BY_NAME), type=str.lower,
                             help="the rules of a file that does not name them (no VR)")
    return top


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        return run(args)
    except SgfError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (| head): nothing left to say
        sys.stdout = None  # so that the interpreter's final flush does not complain again
        return 0


if __name__ == "__main__":
    sys.exit(main())
