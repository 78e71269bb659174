"""Learned move knowledge: how good a placement looks before any search, one model per game.

A model is a conditional logit (Coulom's "Computing Elo ratings of move patterns", 2007): a
placement's score is the sum of the weights of the facts that hold for it (``kernels.F_*``:
captures, escapes, ataris and ladders, self-ataris, defence of two-liberty groups, distances
to the last two moves, line, terrain, forts, Disto's gluttons) and of its two shapes, the 3x3
neighbourhood and the 12 points within a go player's distance of 4 (``kernels.pat12_code``),
each shape taken with its 8 rotations and reflections as one. The probability that a
placement is the one chosen is its ``exp(score)`` over the sum of all placements'. The tree
turns the scores into priors (``kernels.expand``: the best placement gets ``prior_learned``
virtual wins, another ``exp(difference / learned_temperature)`` of them; a bonus only, the
hand-set priors keep their penalties).

The weights are fitted by ``search/training.py`` (command and budget in
``scripts/train_priors.py``) and ship as ``knowledge/<game>.npz``, or as
``knowledge/<game>-<size>.npz`` for one board size, which that size reads instead (a model
refitted on one size's games need not be right on the others); a game without a file has an
empty model (the hand-set priors alone).
"""

import io
import logging
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional, Tuple

import numpy as np

from ..files import write_atomically
from . import _backend

log = logging.getLogger(__name__)
K = _backend.mirror   # the F_* ids and key tags (identical in both implementations)
MODEL_DIR = Path(__file__).with_name("knowledge")

# the points of a 12-point shape code, in its bit order (2 bits each), as (row, column)
# offsets from the placement, north = +1 row: N, NE, E, SE, S, SW, W, NW, then the four two away
POINTS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1),
          (2, 0), (0, 2), (-2, 0), (0, -2))


def _symmetry_permutations() -> Tuple[Tuple[int, ...], ...]:
    """For each of the 8 symmetries of the square, where each point of ``POINTS`` goes."""
    index = {p: i for i, p in enumerate(POINTS)}
    result = []
    for turns in range(4):
        for mirror in (False, True):
            perm = []
            for r, c in POINTS:
                for _ in range(turns):
                    r, c = c, -r
                if mirror:
                    c = -c
                perm.append(index[(r, c)])
            result.append(tuple(perm))
    return tuple(result)


SYMMETRIES = _symmetry_permutations()


def transformed(codes: np.ndarray, perm: Tuple[int, ...]) -> np.ndarray:
    """The shape codes ``codes`` with each point's 2 bits moved to ``perm``'s place."""
    codes = np.asarray(codes, np.int64)
    out = np.zeros_like(codes)
    for i, j in enumerate(perm):
        out |= ((codes >> (2 * i)) & 3) << (2 * j)
    return out


def canonical(codes: np.ndarray) -> np.ndarray:
    """The smallest of the 8 symmetric variants of each 12-point shape code."""
    codes = np.asarray(codes, np.int64)
    return np.min([transformed(codes, perm) for perm in SYMMETRIES], axis=0)


def canonical3(codes: np.ndarray) -> np.ndarray:
    """The same for the 3x3 part alone (the four far points read as empty)."""
    return canonical(np.asarray(codes, np.int64) & 0xFFFF)


class Model:
    """The weights of one game's model: ``fixed`` (one per ``F_*`` id) and the weights of
    canonical 3x3 and 12-point shapes (a shape not listed weighs 0)."""

    def __init__(self, fixed: np.ndarray, pat3: Dict[int, float], pat12: Dict[int, float],
                 info: str = "", sizes: Tuple[int, ...] = ()):
        if len(fixed) != K.F_COUNT:
            raise ValueError(f"a model has {K.F_COUNT} fixed weights, not {len(fixed)}")
        self.fixed = np.asarray(fixed, np.float64)
        self.pat3 = dict(pat3)
        self.pat12 = dict(pat12)
        self.info = info
        self.sizes = tuple(int(n) for n in sizes)   #: board sizes it is for (empty: every size)

    def save(self, path) -> None:
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer, fixed=self.fixed,
            pat3_codes=np.array(sorted(self.pat3), np.int64),
            pat3_weights=np.array([self.pat3[c] for c in sorted(self.pat3)], np.float32),
            pat12_codes=np.array(sorted(self.pat12), np.int64),
            pat12_weights=np.array([self.pat12[c] for c in sorted(self.pat12)], np.float32),
            info=np.array(self.info), sizes=np.array(self.sizes, np.int64))
        write_atomically(Path(path), buffer.getvalue())

    @classmethod
    def load(cls, path) -> "Model":
        with np.load(path) as data:
            return cls(data["fixed"],
                       dict(zip(data["pat3_codes"].tolist(), data["pat3_weights"].tolist())),
                       dict(zip(data["pat12_codes"].tolist(), data["pat12_weights"].tolist())),
                       str(data["info"]), tuple(data["sizes"].tolist()))

    def arrays(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kernels' form (``kernels.learned_score``): sorted tagged keys of every
        symmetric variant of every shape, the weight index of each, and the weights."""
        weights = [self.fixed]
        keys, ids = [], []
        base = K.F_COUNT
        for tag, table in ((K.KEY_PAT3, self.pat3), (K.KEY_PAT12, self.pat12)):
            codes = np.array(sorted(table), np.int64)
            weights.append(np.array([table[c] for c in codes.tolist()], np.float64))
            index = np.arange(base, base + len(codes), dtype=np.int32)
            base += len(codes)
            mask = 0xFFFF if tag == K.KEY_PAT3 else 0xFFFFFF
            for perm in SYMMETRIES:
                keys.append((transformed(codes, perm) & mask) | tag)
                ids.append(index)
        keys, first = np.unique(np.concatenate(keys), return_index=True)   # symmetric shapes repeat
        ids = np.concatenate(ids)
        return keys.astype(np.int64), ids[first].astype(np.int32), np.concatenate(weights)


def model_path(variant: str, size: Optional[int] = None) -> Path:
    """The file of ``variant``'s model on a board of ``size``: the size's own file where there
    is one, else the game's."""
    if size is not None:
        own = MODEL_DIR / f"{variant}-{size}.npz"
        if own.exists():
            return own
    return MODEL_DIR / f"{variant}.npz"


def knows_anything(arrays: Tuple[np.ndarray, np.ndarray, np.ndarray]) -> bool:
    """Whether the kernels' arrays of a model (``arrays_for``) hold a model, not the empty one."""
    return len(arrays[2]) > 0


@lru_cache(maxsize=None)
def arrays_for(variant: str, size: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' arrays of the model of ``variant`` on a board of ``size``; the empty
    model when there is no file or the model is not for that size."""
    file = model_path(variant, size)
    if not file.exists():
        return K.empty_model()
    try:
        model = Model.load(file)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        # a damaged file must not stop the engine: it plays on the hand-set priors
        log.warning("the learned model %s cannot be read (%s); playing without it", file, error)
        return K.empty_model()
    if model.sizes and size not in model.sizes:
        return K.empty_model()
    return model.arrays()
