"""The pools of a search tree and the scratch arrays its simulations use.

``Tree`` owns the pools, one of nodes (the positions the search has visited) and one of edges
(every legal move of an expanded node, with its prior and AMAF statistics; ``kernels``
documents the fields), and remembers which game position
its nodes start from, so that the next search can reuse the subtree of the position reached
since (after our move and the opponent's, or after ``undo``: every position on the way from
the tree's base is still in it). The pools' capacities come from the memory cap and are never
exceeded: past half of either in use, a leaf needs ever more simulations before it gets
children (``kernels.expand_threshold``), and when either is full, simulations go on without
growing the tree.

A tree is one thread's, or shared by several: each thread then makes nodes and edges in an
arena of its own, blocks of the pools' free room that ``refill`` hands out between the
thread's calls to the kernels (under a lock: the kernels themselves have no atomic operations,
so two threads never write the same new node or edge; two that take the same move first at
the same instant each make its node, and one of the two is left out of the tree with the
statistics of its one simulation).
"""

import math
import threading
from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from ..board import _backend as board_backend
from . import _backend

K = _backend.mirror
_BK = board_backend.mirror   # the board's layout (identical in both implementations)
BYTES_PER_EDGE = 2 + 4 + 4 * K.EF_FIELDS + 8   #: move, child, prior and AMAF count, AMAF wins
BYTES_PER_NODE = 4 * K.NI_FIELDS + 8 * K.NF_FIELDS + 8   #: fields and compaction's two maps
EDGES_PER_NODE = 16   #: a tree's edges per node when not given (``Tree``)
#: a search tree's edges per node and point of the board: from the empty board one thread's
#: tree held 0.31 (9x9) and 0.28 (19x19) times the board's points plus one (a pass) as many
#: edges as nodes, and one node per 4.5 simulations (issue 73); past half the pools, where
#: expansions grow rarer (``kernels.expand_threshold``) while the moves of expanded nodes
#: still get their nodes, the nodes ran out first with edges at 0.57, so nodes get twice
#: that share: on 19x19 they are 4% of the memory, and the edges 2% fewer
EDGES_PER_POINT = 0.15


def edges_per_node(size: int) -> int:
    """The edges a search tree of a ``size`` board holds per node (``EDGES_PER_POINT``)."""
    return max(8, math.ceil(EDGES_PER_POINT * (size * size + 1)))


def bytes_per_node(size: int) -> int:
    """A node's bytes with its share of the edges, for a search tree of a ``size`` board."""
    return BYTES_PER_NODE + edges_per_node(size) * BYTES_PER_EDGE
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
    """Pools of ``capacity`` nodes and ``edges`` edges (``EDGES_PER_NODE`` per node unless
    given), and what the tree was grown from."""

    def __init__(self, capacity: int, edges: Optional[int] = None):
        if capacity < 2:
            raise ValueError(f"a tree needs room for at least 2 nodes, not {capacity}")
        self.capacity = int(capacity)
        self.edge_capacity = int(EDGES_PER_NODE * self.capacity if edges is None else edges)
        self.ti = np.zeros((K.NI_FIELDS, self.capacity), np.int32)
        self.tf = np.zeros((K.NF_FIELDS, self.capacity), np.float64)
        self.em = np.zeros(self.edge_capacity, np.int16)
        self.ec = np.zeros(self.edge_capacity, np.int32)
        self.ef = np.zeros((self.edge_capacity, K.EF_FIELDS), np.float32)
        self.ea = np.zeros(self.edge_capacity, np.float64)
        self.header = np.zeros(K.T_HEADER, np.int64)
        self.header[K.T_CAPACITY] = self.capacity
        self.header[K.T_EDGE_CAPACITY] = self.edge_capacity
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

    @property
    def edges_used(self) -> int:
        """Edges allocated (the arenas' unused room not counted)."""
        free = sum(int(a[K.T_EDGE_CAPACITY]) - int(a[K.T_EDGES]) for a in self._arenas)
        return int(self.header[K.T_EDGES]) - free

    def fill(self) -> float:
        """The share of the fuller pool in use."""
        return max(self.used / self.capacity, self.edges_used / self.edge_capacity)

    def arrays(self) -> Tuple[np.ndarray, ...]:
        """The pools as the kernels take them: ``ti, tf, em, ec, ef, ea``."""
        return self.ti, self.tf, self.em, self.ec, self.ef, self.ea

    def children(self, node: int) -> List[Tuple[int, int, int]]:
        """``(move, child, edge)`` for each edge of ``node`` (none before it is expanded);
        ``child`` is -1 for a move no simulation has taken yet."""
        first = int(self.ti[K.NI_FIRST, node])
        if first < 0:
            return []
        return [(int(self.em[e]), int(self.ec[e]), e)
                for e in range(first, first + int(self.ti[K.NI_COUNT, node]))]

    def visits(self, child: int) -> float:
        """The simulations through ``child`` (0 for -1, a move not taken yet)."""
        return 0.0 if child < 0 else float(self.tf[K.NF_VISITS, child])

    def repeats(self, child: int) -> bool:
        """``child``'s move recreates an earlier position (never taken: -1 is not known to)."""
        return child >= 0 and bool(self.ti[K.NI_FLAGS, child] & K.FLAG_REPEAT)

    def reset(self, base: Base) -> int:
        self.base = base
        self._close_arenas()
        return int(_backend.active.new_root(self.ti, self.tf, self.header, int(K.PASS)))

    def compact(self, root: int, base: Base) -> int:
        """Keep the subtree of ``root`` only, as node 0 of a tree grown from ``base``."""
        self.base = base
        self._close_arenas()
        _backend.active.compact(*self.arrays(), self.header, int(root), self.remap, self.order,
                                self._carry_i, self._carry_f)
        return 0

    def arena(self, thread: int) -> np.ndarray:
        """The header of ``thread``'s arena (empty until ``refill``)."""
        while len(self._arenas) <= thread:
            self._arenas.append(np.zeros(K.T_HEADER, np.int64))
        return self._arenas[thread]

    def refill(self, arena: np.ndarray, widest: int) -> None:
        """Give ``arena`` new blocks of the pools' free room when it has no room left for an
        expansion of ``widest`` edges or for a node; when a pool has none either, the arena
        keeps what is left and stops asking (``T_ARENA`` 0), so that simulations go on
        without growing the tree, as in a full pool of one's own."""
        edges_left = int(arena[K.T_EDGE_CAPACITY]) - int(arena[K.T_EDGES])
        if arena[K.T_ARENA] == 0 and arena[K.T_EDGE_CAPACITY] > 0 or \
                edges_left >= widest and arena[K.T_USED] < arena[K.T_CAPACITY]:
            return
        with self._lock:
            ok = True
            if edges_left < widest:
                block = max(ARENA_EXPANSIONS * widest, self.edge_capacity // ARENA_SHARE)
                start, end = self._take(K.T_EDGES, self.edge_capacity, block)
                arena[K.T_EDGES], arena[K.T_EDGE_CAPACITY] = start, end
                ok = end - start >= widest
            if arena[K.T_USED] >= arena[K.T_CAPACITY]:
                block = max(ARENA_EXPANSIONS, self.capacity // ARENA_SHARE)
                start, end = self._take(K.T_USED, self.capacity, block)
                arena[K.T_USED], arena[K.T_CAPACITY] = start, end
                ok = ok and end > start
            arena[K.T_ARENA] = 1 if ok else 0

    def _take(self, field: int, capacity: int, block: int) -> Tuple[int, int]:
        """The next ``block`` of a pool's free room (less at its end), as (start, end)."""
        start = int(self.header[field])
        end = min(start + block, capacity)
        self.header[field] = end
        return start, end

    def _close_arenas(self) -> None:
        for arena in self._arenas:
            arena[:] = 0

    def nbytes(self) -> int:
        return self.ti.nbytes + self.tf.nbytes + self.remap.nbytes + self.order.nbytes + \
            self.em.nbytes + self.ec.nbytes + self.ef.nbytes + self.ea.nbytes + self.header.nbytes


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
