"""The value net: how likely the side to move is to win a position, learned from games.

A small convolutional net over the planes ``kernels.value_planes`` writes (own and enemy
stones, their groups' liberties 1 / 2 / 3 or more, the board, the ko point, whether Black is
to move, the last move): ``layers`` 3x3 convolutions of ``channels`` each with ReLU, zero
beyond the board; then a 1x1 convolution to one "ownership" map, whose tanh summed over the
board times a learned ``scale``, plus a linear term of the last layer's mean channels, is the
logit of the win. The tree uses it once per node, when the node gets children
(``kernels.simulate``: ``P_VALUE_WEIGHT`` virtual simulations at the net's estimate).

The weights are fitted by ``scripts/train_value.py`` (command, data and budget in its
docstring) and ship as ``knowledge/<game>-value.npz``; a game without a file, or a board size
the file does not name, has no net. ``evaluate`` is the slow reference the compiled kernel is
tested against.
"""

import io
import logging
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import List, Tuple

import numpy as np

from ..files import write_atomically
from . import _backend

log = logging.getLogger(__name__)
K = _backend.mirror
MODEL_DIR = Path(__file__).with_name("knowledge")


class ValueNet:
    """Weights: ``convs`` (one (weights [out, in, 3, 3], biases [out]) per layer, the first
    layer's inputs the ``V_PLANES`` planes), the ownership map's ``own_w`` [channels] and
    ``own_b``, the pooled term's ``fc_w`` [channels] and ``fc_b``, and ``scale``."""

    def __init__(self, convs: List[Tuple[np.ndarray, np.ndarray]], own_w, own_b, fc_w, fc_b,
                 scale, info: str = "", sizes: Tuple[int, ...] = ()):
        if not convs:
            raise ValueError("a value net has at least one layer")
        channels = convs[0][0].shape[0]
        cin = K.V_PLANES
        for weights, biases in convs:
            if weights.shape != (channels, cin, 3, 3) or biases.shape != (channels,):
                raise ValueError(f"a layer of {cin} inputs and {channels} channels has weights "
                                 f"{weights.shape} and biases {biases.shape}")
            cin = channels
        self.convs = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in convs]
        self.own_w = np.asarray(own_w, np.float32).reshape(channels)
        self.fc_w = np.asarray(fc_w, np.float32).reshape(channels)
        self.own_b, self.fc_b, self.scale = float(own_b), float(fc_b), float(scale)
        self.info = info
        self.sizes = tuple(int(n) for n in sizes)

    @property
    def channels(self) -> int:
        return self.convs[0][0].shape[0]

    def save(self, path) -> None:
        arrays = {f"w{i}": w for i, (w, _) in enumerate(self.convs)}
        arrays.update({f"b{i}": b for i, (_, b) in enumerate(self.convs)})
        buffer = io.BytesIO()
        np.savez_compressed(buffer, layers=np.array(len(self.convs)), own_w=self.own_w,
                            own_b=np.array(self.own_b), fc_w=self.fc_w, fc_b=np.array(self.fc_b),
                            scale=np.array(self.scale), info=np.array(self.info),
                            sizes=np.array(self.sizes, np.int64), **arrays)
        write_atomically(Path(path), buffer.getvalue())

    @classmethod
    def load(cls, path) -> "ValueNet":
        with np.load(path) as data:
            layers = int(data["layers"])
            convs = [(data[f"w{i}"], data[f"b{i}"]) for i in range(layers)]
            return cls(convs, data["own_w"], data["own_b"], data["fc_w"], data["fc_b"],
                       data["scale"], str(data["info"]), tuple(data["sizes"].tolist()))

    def flat(self) -> np.ndarray:
        """The kernel's form (``kernels.value_of``): layers, channels, then per layer the
        weights in (output, offset, input) order and the biases, then the head."""
        parts = [np.array([len(self.convs), self.channels], np.float32)]
        for weights, biases in self.convs:
            # per output, offset k = 3 * row step + column step (each from -1 to +1), then
            # input: the order of the kernel's 3x3 window
            parts.append(weights.transpose(0, 2, 3, 1).reshape(-1))
            parts.append(biases)
        parts += [self.own_w, np.array([self.own_b], np.float32), self.fc_w,
                  np.array([self.fc_b, self.scale], np.float32)]
        flat = np.concatenate(parts).astype(np.float32)
        # subnormal weights (the fit leaves hundreds, below 1.2e-38) count as 0: a product
        # with one takes the processor's slow path, 4 times the cost of a layer that has some
        flat[np.abs(flat) < np.finfo(np.float32).tiny] = 0.0
        return flat

    def _last_layer(self, planes: np.ndarray) -> np.ndarray:
        h = np.asarray(planes, np.float64)
        size = h.shape[1]
        for weights, biases in self.convs:
            padded = np.pad(h, ((0, 0), (1, 1), (1, 1)))
            out = np.zeros((weights.shape[0], size, size))
            for dr in range(3):
                for dc in range(3):
                    window = padded[:, dr:dr + size, dc:dc + size]
                    out += np.einsum("oi,irc->orc", weights[:, :, dr, dc], window)
            h = np.maximum(out + biases[:, None, None], 0.0)
        return h

    def ownership(self, planes: np.ndarray) -> np.ndarray:
        """The "ownership" map [size, size], -1..+1 from the side to move's view: what the
        fit teaches to be each point's final owner (``train_value.py``, ``--own-weight``)."""
        return self._map(self._last_layer(planes))

    def _map(self, h: np.ndarray) -> np.ndarray:
        return np.tanh(np.einsum("o,orc->rc", self.own_w, h) + self.own_b)

    def evaluate(self, planes: np.ndarray) -> float:
        """The reference: the win probability for planes [V_PLANES, size, size] (row 0 the
        board's first row), by plain numpy convolution."""
        h = self._last_layer(planes)
        owned = self._map(h).sum()
        z = self.scale * owned + self.fc_b + float(self.fc_w @ h.mean(axis=(1, 2)))
        return float(1.0 / (1.0 + np.exp(-z)))


def planes_reference(state: np.ndarray, color: int, last: int) -> np.ndarray:
    """The input planes [V_PLANES, size, size] of a board state, by flood fill in Python:
    the slow twin of ``kernels.value_planes``."""
    from ..board import _backend as board_backend
    bk = board_backend.mirror
    size = int(state[bk.HDR, bk.H_SIZE])
    w = size + 2
    board = state[bk.BOARD]
    planes = np.zeros((K.V_PLANES, size, size), np.float32)
    planes[K.V_ON_BOARD] = 1
    planes[K.V_BLACK_TO_MOVE] = 1 if color == bk.BLACK else 0
    for r in range(size):
        for c in range(size):
            cell = (r + 1) * w + c + 1
            if board[cell] not in (bk.BLACK, bk.WHITE):
                continue
            group, liberties, todo = {cell}, set(), [cell]
            while todo:
                s = todo.pop()
                for q in (s - 1, s + 1, s - w, s + w):
                    if board[q] == bk.EMPTY:
                        liberties.add(q)
                    elif board[q] == board[cell] and q not in group:
                        group.add(q)
                        todo.append(q)
            own = board[cell] == color
            planes[K.V_OWN if own else K.V_ENEMY, r, c] = 1
            if liberties:
                base = K.V_OWN_LIBS if own else K.V_ENEMY_LIBS
                planes[base + min(len(liberties), 3) - 1, r, c] = 1
    for cell, plane in ((int(state[bk.HDR, bk.H_KO]), K.V_KO), (int(last), K.V_LAST)):
        if cell > 0:
            planes[plane, cell // w - 1, cell % w - 1] = 1
    return planes


def net_path(variant: str) -> Path:
    return MODEL_DIR / f"{variant}-value.npz"


@lru_cache(maxsize=None)
def flat_for(variant: str, size: int) -> np.ndarray:
    """The kernel's flat net of ``variant`` on a board of ``size``; empty when there is none."""
    file = net_path(variant)
    if not file.exists():
        return K.empty_value()[0]
    try:
        net = ValueNet.load(file)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        log.warning("the value net %s cannot be read (%s); playing without it", file, error)
        return K.empty_value()[0]
    if net.sizes and size not in net.sizes:
        return K.empty_value()[0]
    return net.flat()


def value_arrays(variant: str, size: int) -> Tuple[np.ndarray, np.ndarray]:
    """The kernels' ``value`` argument for one thread: the flat net and a scratch of its own."""
    flat = flat_for(variant, size)
    if len(flat) == 0:
        return K.empty_value()
    return flat, np.zeros(K.value_buffer_length(size, int(flat[1])), np.float32)
