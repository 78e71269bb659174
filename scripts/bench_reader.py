"""Benchmark of the fight reader (``kernels.read_fights``, the search's tactical priors)
against GNU Go's tactical reading, on the positions of 9x9 Go games (SGF files, such as a
match's ``game-*.sgf``).

    python scripts/bench_reader.py GAME.sgf ... [--budget 200] [--gnugo /usr/games/gnugo]
        [--search-param read_own=1 ...]

After every placement from ``--from-move`` on, the reader runs for the player to move, as at
a node's expansion (``prior_read`` 1, ``read_budget`` ``--budget``, the overrides given), once
with killing moves counted and once without, which tells its killing moves from its saving
ones. Each is checked with GNU Go on the groups of two or three liberties the reader looks at
(the last move and its neighbours, and the player's own previous move's with ``read_own``):
a killing move is confirmed when ``does_attack`` holds for one of the enemy groups, a saving
move when ``does_defend`` holds for one of the player's. GNU Go's own moves (``does_attack`` /
``does_defend`` on every empty point within two of the group) on the groups it finds in a
fight (an enemy group it can both attack and defend; an own group it can attack) tell what
the reader missed.

Prints, for killing and saving moves: how many the reader gave, the share GNU Go confirms,
the share of GNU Go's moves the reader gave, and the reader's processor time a position.
GNU Go's reading is a yardstick, not the truth (its ``does_attack`` also says no for a group
that is dead already, where no move is urgent): compare versions of the reader on the same
games, run by run. Not a test; GNU Go must be installed (Debian's ``gnugo``).
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sgf  # noqa: E402
from gtp_engine.coords import Color, format_vertex  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.match.gtp_client import GtpEngine  # noqa: E402
from gtp_engine.search import _backend  # noqa: E402
from gtp_engine.search.params import make_params  # noqa: E402
from gtp_engine.search.player import _ZOBRIST  # noqa: E402
from gtp_engine.search.tree import Workspace  # noqa: E402


def _vertex(game, cell):
    return format_vertex(game.position._point(cell))


def reader_moves(K, game, color, last, last2, params, clock=None):
    """({killing move: wins}, {saving move: wins}) that ``read_fights`` gives ``color``
    (``params`` is left as it was); the processor seconds of the two reads are added to
    ``clock[0]`` when given."""
    size = game.size
    params = params.copy()
    found = []
    for share in (1.0, 0.0):
        params[K.P_READ_KILL_SHARE] = share
        st = game.position.state.copy()
        space = Workspace(size)
        sx = space.scratch
        n = K._placements(st, _ZOBRIST, space.work, space.spare, space.out, sx, int(color),
                          params)
        _, cand, _, _, _ = K._blocks(st)
        moves = sx[cand:cand + n].copy()
        em = np.zeros(max(n, 1), np.int16)
        ef = np.zeros((max(n, 1), K.EF_FIELDS), np.float32)
        em[:n] = moves
        start = time.process_time()
        K.read_fights(st, _ZOBRIST, space.work, space.spare, space.out, sx, em, ef, 0, n,
                      int(color), last, last2, params)
        if clock is not None:
            clock[0] += time.process_time() - start
        found.append({int(moves[i]): float(ef[i, K.E_PWINS]) for i in range(n)})
    with_kills, saves = found
    kills = {m: w - saves[m] for m, w in with_kills.items() if w > saves[m]}
    return kills, {m: w for m, w in saves.items() if w > 0}


def targets(K, game, last, last2, read_own):
    """Cells of one stone of each group of two or three liberties the reader looks at."""
    st = game.position.state
    space = Workspace(game.size)
    w = game.size + 2
    centres = [last] + ([last2] if read_own and last2 > 0 else [])
    roots, stones = set(), []
    for centre in centres:
        for k in range(5):
            q = K._around(centre, k, w)
            if st[K.BOARD, q] not in (Color.BLACK, Color.WHITE):
                continue
            root = int(st[K.GID, q])
            if root in roots:
                continue
            roots.add(root)
            if 2 <= K._group_libs(st, space.scratch, root, 4, False) <= 3:
                stones.append(q)
    return stones


def near_group(K, game, stone, reach=2):
    """Empty cells within ``reach`` (Manhattan) of the group holding ``stone``."""
    st = game.position.state
    w = game.size + 2
    root = int(st[K.GID, stone])
    group = [q for q in range(w * w) if st[K.BOARD, q] in (Color.BLACK, Color.WHITE)
             and int(st[K.GID, q]) == root]
    return [q for q in range(w * w) if st[K.BOARD, q] == K.EMPTY
            and any(abs(q // w - g // w) + abs(q % w - g % w) <= reach for g in group)]


def yes(answer):
    return answer.split()[0] != "0"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", help="SGF files of 9x9 (or other) Go games")
    parser.add_argument("--budget", type=int, default=200, help="read_budget (moves a node)")
    parser.add_argument("--from-move", type=int, default=6, help="first position checked")
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    parser.add_argument("--search-param", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    overrides = {}
    for item in args.search_param:
        name, _, value = item.partition("=")
        overrides[name] = float(value)
    K = _backend.compile_now()
    gnu = GtpEngine([args.gnugo, "--mode", "gtp", "--chinese-rules"], label="gnugo")
    given = {"kill": 0, "save": 0}
    confirmed = {"kill": 0, "save": 0}
    gnu_moves = {"kill": 0, "save": 0}
    gnu_found = {"kill": 0, "save": 0}
    positions, clock = 0, [0.0]
    for path in args.games:
        record = sgf.game_from_sgf(sgf.read_file(path))
        size = record.size
        game = Game("go", size, record.komi)
        params = make_params(game, prior_read=1, read_budget=args.budget, **overrides)
        read_own = params[K.P_READ_OWN] != 0
        gnu.send(f"boardsize {size}")
        gnu.send("clear_board")
        for index, move in enumerate(record.moves):
            game.play(move.color, move.point)
            vertex = format_vertex(move.point) if move.point else "pass"
            gnu.send(f"play {'b' if move.color == Color.BLACK else 'w'} {vertex}")
            if move.point is None or index + 1 < args.from_move:
                continue
            color = move.color.opponent
            last = game.position._cell(move.point)
            before = record.moves[index - 1] if index > 0 else None
            last2 = game.position._cell(before.point) if before and before.point else 0
            kills, saves = reader_moves(K, game, color, last, last2, params, clock)
            positions += 1
            groups = targets(K, game, last, last2, read_own)
            enemy = [s for s in groups if game.position.state[K.BOARD, s] != color]
            own = [s for s in groups if s not in enemy]
            for kind, moves, stones, check in (("kill", kills, enemy, "does_attack"),
                                                ("save", saves, own, "does_defend")):
                given[kind] += len(moves)
                for m in moves:
                    if any(yes(gnu.send(f"{check} {_vertex(game, m)} {_vertex(game, s)}"))
                           for s in stones):
                        confirmed[kind] += 1
                for s in stones:
                    name = _vertex(game, s)
                    in_fight = (yes(gnu.send(f"attack {name}"))
                                and (kind == "save" or yes(gnu.send(f"defend {name}"))))
                    if not in_fight:
                        continue
                    for cell in near_group(K, game, s):
                        if yes(gnu.send(f"{check} {_vertex(game, cell)} {name}")):
                            gnu_moves[kind] += 1
                            gnu_found[kind] += cell in moves
    gnu.close()
    print(f"positions {positions}, games {len(args.games)}, budget {args.budget}, "
          f"overrides {overrides or 'none'}")
    for kind, label in (("kill", "killing"), ("save", "saving")):
        share = confirmed[kind] / given[kind] if given[kind] else 0.0
        recall = gnu_found[kind] / gnu_moves[kind] if gnu_moves[kind] else 0.0
        print(f"{label:7s} moves given {given[kind]:5d}   confirmed by GNU Go {share:6.1%}   "
              f"GNU Go's found {gnu_found[kind]:4d} of {gnu_moves[kind]:4d} ({recall:.1%})")
    print(f"reader time a position {1000 * clock[0] / max(positions, 1) / 2:.3f} ms "
          f"(processor, compiled, read_fights alone)")


if __name__ == "__main__":
    main()
