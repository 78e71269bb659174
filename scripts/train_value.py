"""Train the value net of a game (``gtp_engine/search/value.py``) from self-play or records.

    # 1. self-play in this process (no engine start-up per game): a position per move, its
    #    planes, who won, the search's own win rate and the final owners of the points; 2
    #    random opening moves a game for variety, resigning below 5%; saved every 20 games
    python scripts/train_value.py play --games 1500 --playouts 1000 --seed 100000 --out runs/value/sp1.npz
    # (--variant loose|goncrete|disto for another game, at its default komi unless --komi)
    # 1b. or the positions and results of finished games' records (match folders, say)
    python scripts/train_value.py records runs/match1 runs/match2 --variant loose --out runs/value/m.npz
    # 2. fit the net (needs PyTorch: pip install '.[train]') and write the file the engine loads
    python scripts/train_value.py fit runs/value/sp1.npz runs/value/sp2.npz --out gtp_engine/search/knowledge/go-value.npz

``fit`` holds one game in ten out and prints, on it, the net's log-loss and accuracy against
the games' results beside the same figures for the search's own win rates at the time: the
net is worth a try in the tree only where it comes near the search it would stand in for.
The targets are the results blended with those win rates (``--search-share``); with
``--own-weight`` the net's ownership map also learns the final owners (files without them
teach the win alone). The shipped 9x9 Go net: ``fit`` with its defaults and ``--epochs 10`` on
four ``play`` files of 1,000 simulations (seeds 100000, 200000, 300000, 400000; 7,700 games).
The shipped 9x9 Disto net (about an hour of one core for the games, two minutes to fit):

    python scripts/train_value.py play --variant disto --games 440 --playouts 1000 --seed 600000 --out runs/value/disto.npz
    python scripts/train_value.py fit runs/value/disto.npz --epochs 10 --own-weight 1 --out gtp_engine/search/knowledge/disto-value.npz

The shipped 9x9 Loose net: ``play --variant loose --games 580 --seed 600000`` as above, and
``records`` of 266 self-play games of the engine at 4,000 simulations and komi 6 (match
folders); ``fit`` of both files with ``--epochs 10 --own-weight 1`` (846 games, 50,424
positions). Keep the komi of the records the net's game is played at: the planes hold none.
"""

import argparse
import io
import random
import sys
import time
from typing import Optional
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sgf  # noqa: E402
from gtp_engine.coords import Color  # noqa: E402
from gtp_engine.files import write_atomically  # noqa: E402
from gtp_engine.game import Game  # noqa: E402
from gtp_engine.search import _backend, value  # noqa: E402
from gtp_engine.search.player import SearchPlayer, SearchSettings  # noqa: E402


#: the games a value net can be trained for: Terrain Go's map and forts are not in the planes
VARIANTS = ("go", "loose", "goncrete", "disto")


def _cell(point, size):
    return 0 if point is None else (point[0] + 1) * (size + 2) + point[1] + 1


def play_game(seed: int, playouts: int, size: int, komi: Optional[float], opening: int = 2,
              variant: str = "go"):
    """One self-play game: ([(planes, search win rate or -1, 1 if the side to move won,
    colour to move)], the final ownership): the last search's ownership of each point
    ``row*size + col`` in Black's view, -1..+1 (at a resignation, how the playouts of the
    losing side's last search ended; at two passes, the last search that played a game out)."""
    chooser = random.Random(seed)
    game = Game(variant, size, komi)
    player = SearchPlayer(SearchSettings(playouts=playouts, seed=seed, resign=0.05))
    rows, last, passes, winner = [], 0, 0, None
    ownership = np.zeros(size * size, np.float32)
    while len(game.moves) < 3 * size * size:
        color = game.to_move
        planes = value.planes_reference(game.position.state, int(color), last)
        if len(game.moves) < opening:
            move, rate = chooser.choice(game.legal_moves(color)), -1.0
        else:
            move, analysis = player.genmove(game, color)
            rate = analysis.winrate if analysis is not None and analysis.moves else -1.0
            seen = np.asarray(analysis.ownership if analysis is not None else [], np.float32)
            # a search whose simulations all end by two passes in the tree samples no owners
            if len(seen) == size * size and np.any(seen != 0):
                ownership = seen
        rows.append((planes, rate, int(color)))
        if move == "resign":
            winner = color.opponent
            break
        game.play(color, move)
        passes = passes + 1 if move is None else 0
        last = _cell(move, size)
        if passes >= 2:
            break
    if winner is None:
        winner = game.score().winner
    return [(p, r, int(c == winner), int(c)) for p, r, c in rows], ownership


def play(args) -> int:
    _backend.compile_now()
    planes, rates, won, games, owners = [], [], [], [], []
    start = time.time()
    for i in range(args.games):
        seed = args.seed + i
        rows, ownership = play_game(seed, args.playouts, args.size, args.komi,
                                   variant=args.variant)
        for p, r, y, c in rows:
            planes.append(p)
            rates.append(r)
            won.append(y)
            games.append(seed)
            # the final owners from the side to move's view, as the planes are
            owners.append(np.round(ownership * (127 if c == int(Color.BLACK) else -127)))
        if (i + 1) % 20 == 0 or i + 1 == args.games:
            _save(args.out, x=np.array(planes, np.uint8), wr=np.array(rates, np.float32),
                  y=np.array(won, np.uint8), g=np.array(games, np.int64),
                  own=np.array(owners, np.int8))
            print(f"{i + 1} games, {len(won)} positions, {time.time() - start:.0f} s", flush=True)
    return 0


def record_positions(game: Game, winner: Color):
    """``[(planes, 1 if the side to move won, colour to move)]`` of each position before a
    move of ``game``, the last first, ``winner`` having won it."""
    game, rows = game.copy(), []
    while game.moves:
        color = game.undo().color
        last = _cell(game.moves[-1].point, game.size) if game.moves else 0
        rows.append((value.planes_reference(game.position.state, int(color), last),
                     int(color == winner), int(color)))
    return rows


def record_winner(result: Optional[str], game: Game) -> Optional[Color]:
    """Who won: the record's ``RE`` (``B+3``, ``W+R``), else the rules' score of a game that
    ended on the board; None for a draw, a void or unknown result, or a game not over."""
    text = (result or "").strip().upper()
    if text[:2] in ("B+", "W+"):
        return Color.BLACK if text[0] == "B" else Color.WHITE
    if text or not game.over:
        return None
    return game.score().winner


def records(args) -> int:
    """Positions of finished games' SGF records under ``args.folders`` (match folders, say):
    their results, no search win rates and no final owners (``fit`` learns the win alone
    from these rows)."""
    planes, won, games, used = [], [], [], 0
    for _, record in sgf.read_records(sgf.find_files(args.folders)):
        game = record.game
        if game.rules.name != args.variant or game.size != args.size or game.setup or game.edits:
            continue
        winner = record_winner(record.root_property("RE"), game)
        if winner is None or not game.moves:
            continue
        rows = record_positions(game, winner)
        for p, y, _ in rows:
            planes.append(p)
            won.append(y)
            games.append(used)
        used += 1
    if not used:
        print(f"no finished {args.variant} game of size {args.size} under "
              f"{' '.join(args.folders)}", file=sys.stderr)
        return 1
    _save(args.out, x=np.array(planes, np.uint8), wr=-np.ones(len(won), np.float32),
          y=np.array(won, np.uint8), g=np.array(games, np.int64))
    print(f"{used} games, {len(won)} positions")
    return 0


def _save(path, **arrays):
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    write_atomically(path, buffer.getvalue())


def _log_loss(p, y):
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(args) -> int:
    try:
        import torch
        from torch import nn
    except ImportError:
        print("fit needs PyTorch: pip install '.[train]'", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = [np.load(f) for f in args.files]
    x = np.concatenate([d["x"] for d in data]).astype(np.float32)
    y = np.concatenate([d["y"] for d in data]).astype(np.float32)
    wr = np.concatenate([d["wr"] if "wr" in d else -np.ones(len(d["y"]), np.float32) for d in data])
    g = np.concatenate([d["g"].astype(np.int64) + (k << 40) for k, d in enumerate(data)])
    side = x.shape[-1]
    if args.own_weight > 0:
        # the final owners, -1..+1 from the side to move's view; files played before they
        # were kept have none, and their rows teach the value alone
        own = np.concatenate([d["own"].astype(np.float32) / 127 if "own" in d
                              else np.full((len(d["y"]), side * side), np.nan, np.float32)
                              for d in data]).reshape(-1, 1, side, side)
    ids = np.unique(g)
    np.random.default_rng(args.seed).shuffle(ids)
    held = np.isin(g, ids[:max(1, len(ids) // 10)])
    target = np.where(wr >= 0, (1 - args.search_share) * y + args.search_share * wr, y)
    print(f"{len(ids)} games, {len(y)} positions ({held.sum()} held out)")

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList(nn.Conv2d(value.K.V_PLANES if i == 0 else args.channels,
                                                 args.channels, 3, padding=1)
                                       for i in range(args.layers))
            self.own = nn.Conv2d(args.channels, 1, 1)
            self.fc = nn.Linear(args.channels, 1)
            self.scale = nn.Parameter(torch.tensor(0.1))

        def forward(self, t):
            """The logit of the win, and the logits of each point's final owner (halved)."""
            for conv in self.convs:
                t = torch.relu(conv(t))
            map_ = self.own(t)
            owned = torch.tanh(map_).sum((2, 3)).squeeze(1)
            return self.scale * owned + self.fc(t.mean((2, 3))).squeeze(1), map_

    net = Net()
    optimizer = torch.optim.Adam(net.parameters(), args.rate, weight_decay=args.l2)
    xs, ts = torch.tensor(x), torch.tensor(target.astype(np.float32))
    if args.own_weight > 0:
        # the owner's target as a probability: tanh(m) = 2 sigmoid(2m) - 1
        owns = torch.tensor(np.nan_to_num((own + 1) / 2))
        known = torch.tensor(~np.isnan(own[:, 0, 0, 0]))
    train_rows, test_rows = np.nonzero(~held)[0], np.nonzero(held)[0]
    loss = nn.BCEWithLogitsLoss()
    steps = args.epochs * (len(train_rows) // args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, args.rate, total_steps=steps)
    chooser = np.random.default_rng(args.seed)

    def predict(rows):
        with torch.no_grad():
            return torch.sigmoid(net(xs[rows])[0]).numpy()

    for epoch in range(args.epochs):
        chooser.shuffle(train_rows)
        for i in range(len(train_rows) // args.batch):
            rows = train_rows[i * args.batch:(i + 1) * args.batch]
            turns, flip = int(chooser.integers(4)), chooser.random() < 0.5

            def turned(t):   # the 8 symmetries of the board
                t = torch.rot90(t[rows], turns, (2, 3))
                return torch.flip(t, (3,)) if flip else t

            optimizer.zero_grad()
            logit, map_ = net(turned(xs))
            total = loss(logit, ts[rows])
            if args.own_weight > 0 and known[rows].any():
                mask = known[rows]
                total = total + args.own_weight * loss(2 * map_[mask], turned(owns)[mask])
            total.backward()
            optimizer.step()
            schedule.step()
        p = predict(test_rows)
        print(f"epoch {epoch + 1}: held out log-loss {_log_loss(p, y[test_rows]):.4f}, "
              f"accuracy {np.mean((p > 0.5) == y[test_rows]):.3f}", flush=True)
    p = predict(test_rows)
    searched = wr[test_rows] >= 0
    report = (f"held out, {searched.sum()} searched positions: net log-loss "
              f"{_log_loss(p[searched], y[test_rows][searched]):.4f}, accuracy "
              f"{np.mean((p[searched] > 0.5) == y[test_rows][searched]):.3f}; the search's own "
              f"{_log_loss(wr[test_rows][searched], y[test_rows][searched]):.4f}, "
              f"{np.mean((wr[test_rows][searched] > 0.5) == y[test_rows][searched]):.3f}")
    print(report)
    convs = [(c.weight.detach().numpy(), c.bias.detach().numpy()) for c in net.convs]
    model = value.ValueNet(convs, net.own.weight.detach().numpy().reshape(-1),
                           float(net.own.bias.item()), net.fc.weight.detach().numpy().reshape(-1),
                           float(net.fc.bias.item()), float(net.scale.item()),
                           info=f"{len(ids)} games, {len(y)} positions; {report}",
                           sizes=tuple(args.sizes))
    model.save(args.out)
    print(f"wrote {args.out}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="self-play positions with results and win rates")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--playouts", type=int, default=1000)
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--variant", choices=VARIANTS, default="go")
    p.add_argument("--komi", type=float, default=None, help="default: the game's own")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)
    r = sub.add_parser("records", help="positions and results of finished games' SGF files")
    r.add_argument("folders", nargs="+")
    r.add_argument("--variant", choices=VARIANTS, default="go")
    r.add_argument("--size", type=int, default=9)
    r.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the net to positions of 'play' or 'records'")
    f.add_argument("files", nargs="+")
    f.add_argument("--out", required=True)
    f.add_argument("--channels", type=int, default=16)
    f.add_argument("--layers", type=int, default=4)
    f.add_argument("--epochs", type=int, default=10)
    f.add_argument("--batch", type=int, default=256)
    f.add_argument("--rate", type=float, default=3e-3)
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--search-share", type=float, default=0.5,
                   help="share of the target that is the search's win rate (default 0.5)")
    f.add_argument("--sizes", type=int, nargs="+", default=[9])
    f.add_argument("--own-weight", type=float, default=0.0,
                   help="weight of the final owners' loss (mean over the points) beside the win's")
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return {"play": play, "records": records, "fit": fit}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
