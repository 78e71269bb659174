"""The node pool of a search tree and the scratch arrays its simulations use.

``Tree`` owns the pool (``kernels`` documents the fields) and remembers which game position
its nodes start from, so that the next search can reuse the subtree of the position reached
since (after our move and the opponent's, or after ``undo``: every position on the way from
the tree's base is still in it). The pool's capacity comes from the memory cap and is never
exceeded: when it is full, simulations go on without growing the tree.

A tree is one thread's, or shared by several: each thread then expands nodes into an arena of
its own, a block of the pool's free room that ``refill`` hands out between the thread's calls
to the kernels (under a lock: the kernels themselves have no atomic operations, and two
threads never write the same new node).
"""

import threading
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from ..board import _backend as board_backend
from . import _backend

K = _backend.mirror
_BK = board_backend.mirror   # the board's layout (identical in both implementations)
BYTES_PER_NODE = 4 * K.NI_FIELDS + 8 * K.NF_FIELDS + 8   #: fields and compaction's two maps
ARENA_EXPANSIONS = 32      #: an arena holds at least this many of the widest expansions
ARENA_SHARE = 256          #: and at least this share (1/n) of the pool
MAX_DEPTH = 1024                                          #: moves a descent may go down


@dataclass
class Base:
    """The game position at the tree's node 0: its history, moves, side to move and komi."""

    history_id: int
    moves: Tuple             #: ((colour, cell), ...) from the start of that history
    color: int               #: the side to move at node 0
    komi_halves: int = 0     #: the komi the tree's values were counted with (twice, whole)


class Tree:
    """A node pool (``capacity`` nodes) and what it was grown from."""

    def __init__(self, capacity: int):
        if capacity < 2:
            raise ValueError(f"a tree needs room for at least 2 nodes, not {capacity}")
        self.capacity = int(capacity)
        self.ti = np.zeros((K.NI_FIELDS, self.capacity), np.int32)
        self.tf = np.zeros((K.NF_FIELDS, self.capacity), np.float64)
        self.header = np.zeros(K.T_HEADER, np.int64)
        self.header[K.T_CAPACITY] = self.capacity
        self.remap = np.zeros(self.capacity, np.int32)
        self.order = np.zeros(self.capacity, np.int32)
        self._carry_i = np.zeros(K.NI_FIELDS, np.int32)
        self._carry_f = np.zeros(K.NF_FIELDS, np.float64)
        self.base: Optional[Base] = None
        self._arenas: List[np.ndarray] = []
        self._lock = threading.Lock()

    @property
    def used(self) -> int:
        """Nodes allocated (the arenas' unused room not counted)."""
        free = sum(int(a[K.T_CAPACITY]) - int(a[K.T_USED]) for a in self._arenas)
        return int(self.header[K.T_USED]) - free

    def reset(self, base: Base) -> int:
        self.base = base
        self._close_arenas()
        return int(_backend.active.new_root(self.ti, self.tf, self.header, int(K.PASS)))

    def compact(self, root: int, base: Base) -> int:
        """Keep the subtree of ``root`` only, as node 0 of a tree grown from ``base``."""
        self.base = base
        self._close_arenas()
        _backend.active.compact(self.ti, self.tf, self.header, int(root), self.remap, self.order,
                                self._carry_i, self._carry_f)
        return 0

    def arena(self, thread: int) -> np.ndarray:
        """The header of ``thread``'s arena (empty until ``refill``)."""
        while len(self._arenas) <= thread:
            self._arenas.append(np.zeros(K.T_HEADER, np.int64))
        return self._arenas[thread]

    def refill(self, arena: np.ndarray, widest: int) -> None:
        """Give ``arena`` a new block of the pool's free room when it has no room left for an
        expansion of ``widest`` children; when the pool has none either, the arena keeps what
        is left and stops asking (``T_ARENA`` 0), so that simulations go on without
        growing the tree, as in a full pool of one's own."""
        if arena[K.T_ARENA] == 0 and arena[K.T_CAPACITY] > 0 or \
                int(arena[K.T_CAPACITY]) - int(arena[K.T_USED]) >= widest:
            return
        with self._lock:
            start = int(self.header[K.T_USED])
            block = max(ARENA_EXPANSIONS * widest, self.capacity // ARENA_SHARE)
            end = min(start + block, self.capacity)
            self.header[K.T_USED] = end
            arena[K.T_USED] = start
            arena[K.T_CAPACITY] = end
            arena[K.T_ARENA] = 1 if end - start >= widest else 0

    def _close_arenas(self) -> None:
        for arena in self._arenas:
            arena[:] = 0

    def nbytes(self) -> int:
        return self.ti.nbytes + self.tf.nbytes + self.remap.nbytes + self.order.nbytes + \
            self.header.nbytes


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
