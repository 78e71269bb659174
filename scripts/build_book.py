"""Build the opening book (``gtp_engine/search/book.py``): deep searches of the first positions.

    python scripts/build_book.py [--games go,loose,goncrete,disto] [--size 9] [--komi K]
        [--simulations 70000] [--seeds 3] [--jobs 2] [--seed 1]
        [--out gtp_engine/search/knowledge/book.json]

For each game (at ``--komi``, else the game's default komi) it searches every position of the
first three plies that the book needs ``--seeds`` times, with one thread, a seed each and
``--simulations`` simulations each: the empty board (Black's first move); the board after each
of Black's first moves, up to symmetry (White's answer: 15 positions on 9x9); and the board
after the book's first move and each of White's answers, up to symmetry (Black's second move:
14 positions on 9x9 after the centre, more after a point with fewer symmetries). The move of a
position is the placement with the most visits over its searches. Tables of games not built
this time are kept from the file as it was.

The shipped book: ``python scripts/build_book.py --games go,loose --jobs 1`` (Go 501 s, Loose
546 s of one core's CPU; Goncrete and Disto were built too but are not shipped: see
docs/RESEARCH.md, "Opening book", for what each chose and how the books played).

``--from-games FOLDER...`` builds a table from records of strong games instead of searches:
each position of the first ``--plies`` placements that at least ``--min-games`` records reach
from the empty board (no handicap or set-up stones, no pass; the 8 symmetric forms counted as
one), with the move most of them played next (moves leading to the same position up to
symmetry counted as one). The records may have any komi; the table is the one of ``--komi``
(else the game's default). A table of 19x19 Go was built so, ``python scripts/build_book.py
--games go --size 19 --from-games <computer-go-dataset>/AI --plies 8 --min-games 30`` (the
collection named in ``scripts/train_priors.py``; 181 positions, a minute), and not shipped: it
lost 8-11 to the engine without it (docs/RESEARCH.md, fifty-fourth session).
"""

import argparse
import json
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gtp_engine.cli import positive_int  # noqa: E402
from gtp_engine.coords import Color, format_vertex, parse_vertex  # noqa: E402
from gtp_engine.files import write_atomically  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.search import book  # noqa: E402
import sgf  # noqa: E402


def search_position(task):
    """(table, key, entry) for one position: ``task`` = (rules, size, komi, black, white,
    simulations, seeds), the stones as lists of points. One search per seed; the move is the
    placement with the most visits over all of them (in the opening many points look alike to
    one search, and which of them wins its visits changes with the seed)."""
    rules, size, komi, black, white, simulations, seeds = task
    from gtp_engine.search.player import SearchPlayer, SearchSettings
    game = Game(rules, size, komi=komi)
    for b, w in zip(black, white + [None]):
        game.play(Color.BLACK, b)
        if w is not None:
            game.play(Color.WHITE, w)
    color = Color.BLACK if len(black) == len(white) else Color.WHITE
    started = time.process_time()
    visits, wins, total, done = {}, {}, 0, 0
    for seed in seeds:
        player = SearchPlayer(SearchSettings(threads=1, seed=seed, book=False))
        analysis = player.search(game, color, playouts=simulations, early_stop=False)
        for info in analysis.moves:
            if info.move is not None:
                visits[info.move] = visits.get(info.move, 0) + info.visits
                wins[info.move] = wins.get(info.move, 0.0) + info.visits * info.winrate
        total += analysis.visits
        done += analysis.simulations
    best = max(visits, key=lambda move: (visits[move], move))
    key, symmetry = book.canonical_key(black, white, size)
    entry = {"move": format_vertex(book.transform(symmetry, best, size)),
             "winrate": round(wins[best] / max(1, visits[best]), 4),
             "share": round(visits[best] / max(1, total), 4),
             "simulations": done}
    print(f"{rules} {size} {komi:g} {key or '(empty)'}: {format_vertex(best)} "
          f"({entry['winrate']:.3f}, {entry['share']:.0%} of the visits, "
          f"{time.process_time() - started:.0f} s)", file=sys.stderr, flush=True)
    return book.table_name(rules, size, komi), key, entry


def distinct_moves(black, white, size, occupied):
    """Each empty point once per position it makes, up to symmetry (the first such point)."""
    seen, result = set(), []
    for row in range(size):
        for col in range(size):
            point = (row, col)
            if point in occupied:
                continue
            if len(black) == len(white):
                key, _ = book.canonical_key(black + [point], white, size)
            else:
                key, _ = book.canonical_key(black, white + [point], size)
            if key not in seen:
                seen.add(key)
                result.append(point)
    return result


def build(games, size, komi, simulations, seeds, jobs, seed):
    """{table name: {key: entry}} for ``games``, ``seeds`` searches a position."""
    tables = {}
    numbers = iter(range(seed * 100000, seed * 100000 + 100000, seeds))

    def next_seeds():
        first = next(numbers)
        return tuple(range(first, first + seeds))
    with Pool(jobs) as pool:
        for rules in games:
            game_komi = Game(rules, size).komi if komi is None else komi
            first = [(rules, size, game_komi, [], [], simulations, next_seeds())]
            for point in distinct_moves([], [], size, set()):
                first.append((rules, size, game_komi, [point], [], simulations, next_seeds()))
            table = tables.setdefault(book.table_name(rules, size, game_komi), {})
            results = pool.map(search_position, first, chunksize=1)
            for _, key, entry in results:
                table[key] = entry
            opening = parse_vertex(results[0][2]["move"], size)   # the empty board's own frame
            second = [(rules, size, game_komi, [opening], [point], simulations, next_seeds())
                      for point in distinct_moves([opening], [], size, {opening})]
            for _, key, entry in pool.map(search_position, second, chunksize=1):
                table[key] = entry
    return tables


def from_games(folders, rules, size, komi, plies, min_games):
    """{table name: {key: entry}}: the positions of the first ``plies`` placements that at
    least ``min_games`` records of ``rules`` on ``size`` under ``folders`` reach from the empty
    board, each with the move most of them played next; an entry says how many records reached
    the position (``games``) and what share of them played its move (``share``)."""
    reached = {}    # position key -> Counter of the next position's key
    example = {}    # (position key, next position key) -> the move in the position's frame
    records = 0
    for _, record in sgf.read_records(sgf.find_files(folders)):
        game = record.game
        if game.rules.name != rules or game.size != size or game.setup or game.forts:
            continue
        records += 1
        black, white = [], []
        for number, record in enumerate(game.moves[:plies]):
            colour = Color.BLACK if number % 2 == 0 else Color.WHITE
            if record.is_pass or record.color != colour:
                break
            key, symmetry = book.canonical_key(black, white, size)
            (black if colour == Color.BLACK else white).append(record.point)
            after, _ = book.canonical_key(black, white, size)
            reached.setdefault(key, Counter())[after] += 1
            example.setdefault((key, after), book.transform(symmetry, record.point, size))
    table = {}
    for key, nexts in reached.items():
        games = sum(nexts.values())
        if games < min_games:
            continue
        after, count = min(nexts.items(), key=lambda item: (-item[1], item[0]))
        table[key] = {"move": format_vertex(example[key, after]),
                      "share": round(count / games, 4), "games": games}
    print(f"{rules} {size}: {records} records, {len(table)} positions reached by at least "
          f"{min_games}", file=sys.stderr)
    return {book.table_name(rules, size, komi): table}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="go,loose,goncrete,disto")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=None)
    parser.add_argument("--simulations", type=int, default=70000, help="per search")
    parser.add_argument("--seeds", type=int, default=3, help="searches per position")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=book.BOOK_FILE)
    parser.add_argument("--from-games", nargs="+", metavar="FOLDER",
                        help="build from the SGF records under these folders, not by search")
    parser.add_argument("--plies", type=positive_int, default=8,
                        help="with --from-games: placements from the empty board to follow")
    parser.add_argument("--min-games", type=positive_int, default=30,
                        help="with --from-games: records that must reach a position")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if "terrain" in games:
        parser.error("Terrain Go has a new map every game: no book")
    started = time.time()
    if args.from_games:
        tables = {}
        for rules in games:
            komi = Game(rules, args.size).komi if args.komi is None else args.komi
            tables.update(from_games(args.from_games, rules, args.size, komi, args.plies,
                                     args.min_games))
    else:
        tables = build(games, args.size, args.komi, args.simulations, args.seeds, args.jobs,
                       args.seed)
    old = book.Book.load(args.out).tables if args.out.exists() else {}
    old.update(tables)
    data = {"about": "opening book: the moves of deep searches, or of strong games' records "
                     "(scripts/build_book.py)",
            "entries": {name: dict(sorted(old[name].items())) for name in sorted(old)}}
    write_atomically(args.out, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
    print(f"{sum(len(t) for t in tables.values())} positions in {time.time() - started:.0f} s "
          f"-> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
