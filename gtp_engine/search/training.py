"""Fitting a learned move model (``knowledge.Model``) to the moves of games.

Every position of a game where a placement was played is one example: the inputs of every
placement the tree would give a child there (``kernels.candidate_features``, the same code the
engine runs) and which of them was played. The fit maximizes the likelihood of the played
moves under the model's softmax, with an L2 penalty on every weight, by Adam on the whole
batch. Shapes seen fewer than ``min_count`` times among all placements get no weight.
"""

import math
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..coords import Color
from . import _backend, knowledge
from .params import make_params
from .player import _ZOBRIST as zobrist
from .patterns import table as pat3_table
from .tree import Workspace

K = _backend.mirror


@dataclass
class Examples:
    """Placements of many positions: position ``p`` owns rows ``starts[p]:starts[p + 1]`` and
    played row ``chosen[p]``; each row has the fact ids ``fact_ids[fact_rows == row]`` and the
    shape code ``codes[row]``."""

    starts: List[int] = field(default_factory=lambda: [0])
    chosen: List[int] = field(default_factory=list)
    fact_rows: List[np.ndarray] = field(default_factory=list)
    fact_ids: List[np.ndarray] = field(default_factory=list)
    codes: List[np.ndarray] = field(default_factory=list)

    @property
    def positions(self) -> int:
        return len(self.chosen)

    def add(self, counts: np.ndarray, features: np.ndarray, codes: np.ndarray, chosen: int):
        base = self.starts[-1]
        n = len(counts)
        mask = np.arange(features.shape[1])[None, :] < counts[:, None]
        rows = np.nonzero(mask)[0]
        self.fact_rows.append((rows + base).astype(np.int32))
        self.fact_ids.append(features[mask].astype(np.int32))
        self.codes.append(codes.astype(np.int64))
        self.chosen.append(base + chosen)
        self.starts.append(base + n)


def examples_from_games(games: Iterable, compiled: bool = True,
                        colors: Optional[Sequence[Optional[Color]]] = None) -> Examples:
    """The examples of the placements played in ``games`` (``game.Game`` objects holding
    whole games; each is replayed from its start, then left at its end). ``colors``, one per
    game: only that colour's placements are examples (None: both; the default, both in every
    game), say those of one engine of a match. ``compiled``: wait for the compiled kernels
    (else whichever are in use, the mirror at first)."""
    if compiled:
        _backend.compile_now()
    ka = _backend.active
    pat3 = pat3_table()
    examples = Examples()
    games = list(games)
    colors = [None] * len(games) if colors is None else list(colors)
    if len(colors) != len(games):
        raise ValueError(f"{len(colors)} colours for {len(games)} games")
    for game, only in zip(games, colors):
        moves = list(game.moves)
        game.undo_to(0)
        space = Workspace(game.size)
        params = make_params(game)
        w = game.size + 2
        area = game.size * game.size
        cells = np.zeros(area, np.int32)
        features = np.zeros((area, K.MAX_FEATURES), np.int32)
        counts = np.zeros(area, np.int32)
        codes = np.zeros(area, np.int64)
        feats = np.zeros(K.MAX_FEATURES, np.int32)
        last = last2 = 0
        for record in moves:
            played = 0
            if record.point is not None:
                played = (record.point[0] + 1) * w + record.point[1] + 1
            if played and (only is None or int(record.color) == int(only)):
                st = game.position.state.copy()
                n = int(ka.candidate_features(st, zobrist, space.work, space.spare, space.out,
                                              space.scratch, int(record.color), int(last),
                                              int(last2), params, pat3, feats, cells, features,
                                              counts, codes))
                where = np.nonzero(cells[:n] == played)[0]
                if len(where):   # else an own eye filled (never a child in the tree)
                    examples.add(counts[:n].copy(), features[:n].copy(), codes[:n].copy(),
                                 int(where[0]))
            # replayed as recorded: a record loaded from SGF may repeat a position where its
            # rules have no positional superko (Japanese rules, sgf/reader.py)
            game.play(Color(record.color), record.point, superko=False)
            last2, last = last, played
    return examples


@dataclass
class Fit:
    """A fitted model and how well it predicts the played moves (top-1 share and mean log
    likelihood) on the examples it learned from and on held-out ones."""

    model: knowledge.Model
    train_accuracy: float
    train_loglik: float
    test_accuracy: float
    test_loglik: float

    def report(self) -> str:
        return (f"played move first: {self.train_accuracy:.1%} (learned), "
                f"{self.test_accuracy:.1%} (held out); mean log-likelihood "
                f"{self.train_loglik:.3f} / {self.test_loglik:.3f}")


class _Design:
    """Examples as flat arrays: active weight ``ids`` of ``rows``, positions' row ranges."""

    def __init__(self, examples: Examples, vocab3: dict, vocab12: dict):
        codes = np.concatenate(examples.codes)
        fact_rows = np.concatenate(examples.fact_rows)
        fact_ids = np.concatenate(examples.fact_ids)
        c3 = knowledge.canonical3(codes)
        c12 = knowledge.canonical(codes)
        base3 = K.F_COUNT
        base12 = base3 + len(vocab3)
        ids3 = np.array([vocab3.get(c, -1) for c in c3.tolist()], np.int64)
        ids12 = np.array([vocab12.get(c, -1) for c in c12.tolist()], np.int64)
        all_rows = np.arange(len(codes))
        has3, has12 = ids3 >= 0, ids12 >= 0
        self.rows = np.concatenate([fact_rows, all_rows[has3], all_rows[has12]])
        self.ids = np.concatenate([fact_ids, base3 + ids3[has3], base12 + ids12[has12]])
        self.starts = np.array(examples.starts[:-1], np.int64)
        self.ends = np.array(examples.starts[1:], np.int64)
        self.chosen = np.array(examples.chosen, np.int64)
        self.n_rows = len(codes)
        self.position_of = np.repeat(np.arange(len(self.starts)), self.ends - self.starts)

    def probabilities(self, weights: np.ndarray) -> np.ndarray:
        scores = np.bincount(self.rows, weights=weights[self.ids], minlength=self.n_rows)
        top = np.maximum.reduceat(scores, self.starts)
        e = np.exp(scores - top[self.position_of])
        return e / np.add.reduceat(e, self.starts)[self.position_of]

    def measure(self, weights: np.ndarray) -> Tuple[float, float]:
        p = self.probabilities(weights)
        best = np.maximum.reduceat(p, self.starts)
        accuracy = float(np.mean(p[self.chosen] >= best))
        return accuracy, float(np.mean(np.log(p[self.chosen] + 1e-300)))


def fit(examples: Examples, held_out: Examples, min_count: int = 20, l2: float = 1e-3,
        iterations: int = 300, rate: float = 0.05, info: str = "",
        start: Optional[knowledge.Model] = None) -> Fit:
    """Fit the weights to ``examples`` (``l2`` per example and weight) and measure them on
    ``held_out`` as well. With ``start`` (a model fitted before), the fit begins at its weights
    and ``l2`` pulls towards them instead of towards 0, its shapes kept beside the ones seen
    ``min_count`` times here: few games then correct a model rather than replace it."""
    codes = np.concatenate(examples.codes)
    vocab3 = _vocabulary(knowledge.canonical3(codes), min_count, start.pat3 if start else ())
    vocab12 = _vocabulary(knowledge.canonical(codes), min_count, start.pat12 if start else ())
    train = _Design(examples, vocab3, vocab12)
    test = _Design(held_out, vocab3, vocab12) if held_out.positions else None
    size = K.F_COUNT + len(vocab3) + len(vocab12)
    anchor = np.zeros(size)
    if start is not None:
        anchor[:K.F_COUNT] = start.fixed
        for shapes, base, vocab in ((start.pat3, K.F_COUNT, vocab3),
                                    (start.pat12, K.F_COUNT + len(vocab3), vocab12)):
            for code, weight in shapes.items():
                anchor[base + vocab[code]] = weight
    weights = anchor.copy()
    m = np.zeros(size)
    v = np.zeros(size)
    target = np.zeros(train.n_rows)
    target[train.chosen] = 1.0
    n = train.chosen.size
    for t in range(1, iterations + 1):
        p = train.probabilities(weights)
        gradient = np.bincount(train.ids, weights=(p - target)[train.rows], minlength=size) / n
        gradient += l2 * (weights - anchor)
        m = 0.9 * m + 0.1 * gradient
        v = 0.999 * v + 0.001 * gradient * gradient
        weights -= rate * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    base12 = K.F_COUNT + len(vocab3)
    model = knowledge.Model(
        weights[:K.F_COUNT],
        {c: float(weights[K.F_COUNT + i]) for c, i in vocab3.items()},
        {c: float(weights[base12 + i]) for c, i in vocab12.items()}, info)
    train_acc, train_ll = train.measure(weights)
    test_acc, test_ll = test.measure(weights) if test else (math.nan, math.nan)
    return Fit(model, train_acc, train_ll, test_acc, test_ll)


def measure(model: knowledge.Model, examples: Examples) -> Tuple[float, float]:
    """How well a fitted ``model`` predicts the played moves of ``examples``: the share of
    positions where the played move scores best, and the mean log-likelihood of the played
    moves (shapes the model has no weight for count as 0, as in the engine)."""
    if not examples.positions:
        raise ValueError("no positions to measure on")
    vocab3 = {c: i for i, c in enumerate(model.pat3)}
    vocab12 = {c: i for i, c in enumerate(model.pat12)}
    weights = np.concatenate([model.fixed, np.fromiter(model.pat3.values(), float, len(vocab3)),
                              np.fromiter(model.pat12.values(), float, len(vocab12))])
    return _Design(examples, vocab3, vocab12).measure(weights)


def _vocabulary(canonical_codes: np.ndarray, min_count: int, known=()) -> dict:
    """Index of every shape seen at least ``min_count`` times, and of the ``known`` ones."""
    values, counts = np.unique(canonical_codes, return_counts=True)
    kept = sorted(set(int(c) for c in values[counts >= min_count].tolist()) | set(known))
    return {c: i for i, c in enumerate(kept)}
