"""The node pool of one search thread and the scratch arrays its simulations use.

``Tree`` owns the pool (``kernels`` documents the fields) and remembers which game position
its nodes start from, so that the next search can reuse the subtree of the position reached
since (after our move and the opponent's, or after ``undo``: every position on the way from
the tree's base is still in it). The pool's capacity comes from the memory cap and is never
exceeded: when it is full, simulations go on without growing the tree.
"""

from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from ..board import _backend as board_backend
from . import _backend

K = _backend.mirror
_BK = board_backend.mirror   # the board's layout (identical in both implementations)
BYTES_PER_NODE = 4 * K.NI_FIELDS + 8 * K.NF_FIELDS + 4   #: fields and the compaction map
MAX_DEPTH = 1024                                          #: moves a descent may go down


@dataclass
class Base:
    """The game position at the tree's node 0: its history, moves, side to move and komi."""

    history_id: int
    moves: Tuple             #: ((colour, cell), ...) from the start of that history
    color: int               #: the side to move at node 0
    komi_halves: int = 0     #: the komi the tree's values were counted with (twice, whole)


class Tree:
    """One thread's node pool (``capacity`` nodes) and what it was grown from."""

    def __init__(self, capacity: int):
        if capacity < 2:
            raise ValueError(f"a tree needs room for at least 2 nodes, not {capacity}")
        self.capacity = int(capacity)
        self.ti = np.zeros((K.NI_FIELDS, self.capacity), np.int32)
        self.tf = np.zeros((K.NF_FIELDS, self.capacity), np.float64)
        self.header = np.zeros(K.T_HEADER, np.int64)
        self.header[K.T_CAPACITY] = self.capacity
        self.remap = np.zeros(self.capacity, np.int32)
        self.base: Optional[Base] = None

    @property
    def used(self) -> int:
        return int(self.header[K.T_USED])

    def reset(self, base: Base) -> int:
        self.base = base
        return int(_backend.active.new_root(self.ti, self.tf, self.header, int(K.PASS)))

    def nbytes(self) -> int:
        return self.ti.nbytes + self.tf.nbytes + self.remap.nbytes + self.header.nbytes


class Workspace:
    """Scratch arrays of one thread for one board size."""

    def __init__(self, size: int):
        area = (size + 2) * (size + 2)
        self.size = size
        self.state = np.zeros(_BK.state_shape(size), np.int32)
        self.spare = np.zeros(_BK.state_shape(size), np.int32)
        self.work = np.zeros(_BK.work_length(size), np.int32)
        self.out = np.zeros(_BK.effects_length(size), np.int32)
        self.owner = np.zeros(area, np.int32)
        self.scratch = np.zeros(K.scratch_length(size), np.int32)
        self.path = np.zeros(MAX_DEPTH, np.int32)
        self.path_keys = np.zeros(MAX_DEPTH, np.int64)
        self.seq = np.zeros(2 * (3 * size * size + MAX_DEPTH + 8), np.int32)
        self.own = np.zeros(2 * area + 1, np.int32)   # owners: Black's, White's, samples
        self.rng = np.array([1], np.int64)
