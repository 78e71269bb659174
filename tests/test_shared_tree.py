"""One tree shared by the search threads: arenas, virtual losses, compaction of a pool whose
children may lie before their parents."""

import numpy as np
import pytest

from gtp_engine.board import _backend as board_backend
from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from gtp_engine.search import _backend, knowledge, patterns
from gtp_engine.search.params import make_params
from gtp_engine.search.player import SearchPlayer, SearchSettings
from gtp_engine.search.tree import Base, Tree, Workspace

K = _backend.mirror
_ZOBRIST = board_backend.mirror.zobrist_keys()


def _grow(game, arenas=2, chunks=12, per_chunk=40, capacity=200_000, shared=1):
    """A tree grown by ``arenas`` arenas taking turns chunk by chunk in this one thread, as
    threads sharing a tree do (deterministically); returns the tree and the simulations run."""
    ka = _backend.compile_now()
    tree = Tree(capacity)
    root = tree.reset(Base(game.history_id, (), int(game.to_move)))
    space = Workspace(game.size)
    space.rng[0] = 12345
    params = make_params(game, learned=True, shared_tree=shared)
    model = knowledge.arrays_for(game.rules.name, game.size)
    hist = np.zeros(64, np.int64)
    done = 0
    for k in range(chunks):
        arena = tree.arena(k % arenas)
        tree.refill(arena, game.size * game.size + 1)
        done += int(ka.run(game.position.state, space.state, _ZOBRIST, space.work, space.spare,
                           space.out, space.owner, space.scratch, *tree.arrays(), arena,
                           root, int(game.to_move), 0, 0, 0, space.rng, params,
                           patterns.table(), model, K.empty_value(), hist, space.path,
                           space.path_keys,
                           space.seq, space.own, per_chunk))
    return tree, done


def _children(tree, node):
    """The nodes of ``node``'s moves that simulations have taken."""
    return [child for _, child, _ in tree.children(node) if child >= 0]


def _subtree(tree, node):
    """The subtree of ``node`` as nested tuples of moves and statistics (no indices): the
    node's, then each edge's move, statistics and subtree (None for a move not taken)."""
    return (int(tree.ti[K.NI_MOVE, node]), int(tree.ti[K.NI_FLAGS, node]),
            tuple(float(x) for x in tree.tf[:, node]),
            tuple((move, tuple(float(x) for x in tree.ef[edge]), float(tree.ea[edge]),
                   None if child < 0 else _subtree(tree, child))
                  for move, child, edge in tree.children(node)))


def _nodes(snapshot):
    return 1 + sum(_nodes(edge[-1]) for edge in snapshot[3] if edge[-1] is not None)


def _edges(snapshot):
    return len(snapshot[3]) + sum(_edges(edge[-1]) for edge in snapshot[3]
                                  if edge[-1] is not None)


def test_arenas_taking_turns_put_children_before_their_parents_and_compaction_keeps_them():
    game = Game("go", 7)
    tree, _ = _grow(game)
    reachable = [0]
    for node in reachable:
        reachable.extend(_children(tree, node))
    assert any(c < n for n in reachable for c in _children(tree, n)), \
        "the arenas did not interleave nodes: the test proves nothing"
    assert any(tree.ti[K.NI_FIRST, c] >= 0 and tree.ti[K.NI_FIRST, c] < tree.ti[K.NI_FIRST, n]
               for n in reachable for c in _children(tree, n)), \
        "the arenas did not interleave edges: the test proves nothing"
    root_children = _children(tree, 0)
    kept = max(root_children, key=lambda c: tree.tf[K.NF_VISITS, c])
    before = _subtree(tree, kept)
    assert _nodes(before) > 10 and _edges(before) > 100
    tree.compact(kept, Base(game.history_id, (), int(Color.WHITE)))
    assert _subtree(tree, 0) == before
    assert tree.used == _nodes(before) and tree.edges_used == _edges(before)
    for node in range(tree.used):
        first = int(tree.ti[K.NI_FIRST, node])
        assert first + int(tree.ti[K.NI_COUNT, node]) <= tree.edges_used


def test_compaction_of_a_tree_of_one_arena_keeps_the_subtree_too():
    game = Game("loose", 7)
    tree, _ = _grow(game, arenas=1, shared=0)
    kept = _children(tree, 0)[5]
    before = _subtree(tree, kept)
    tree.compact(kept, Base(game.history_id, (), int(Color.WHITE)))
    assert _subtree(tree, 0) == before and tree.used == _nodes(before)
    assert tree.edges_used == _edges(before)


def test_every_virtual_loss_is_taken_back():
    """With virtual losses a descent counts its visits on the way down; once the simulations
    are backed up, each node's visits are again the simulations through it: the root's are
    the simulations run, and no node has fewer than its children together."""
    game = Game("go", 7)
    tree, done = _grow(game, chunks=20)
    assert done > 500   # a chunk ends early when its arena is full
    assert tree.tf[K.NF_VISITS, 0] == done
    assert sum(tree.tf[K.NF_VISITS, c] for c in _children(tree, 0)) == done
    stack = [0]
    while stack:
        node = stack.pop()
        children = _children(tree, node)
        assert tree.tf[K.NF_VISITS, node] >= sum(tree.tf[K.NF_VISITS, c] for c in children)
        assert tree.tf[K.NF_VISITS, node] >= 0
        stack.extend(children)


def test_threads_sharing_a_tree_run_their_budget_on_one_tree():
    _backend.compile_now()
    game = Game("go", 9)
    p = SearchPlayer(SearchSettings(threads=2, seed=3, book=False,
                                    overrides=(("shared_tree", 1),)))
    analysis = p.search(game, Color.BLACK, playouts=3000, early_stop=False)
    assert len(p._trees) == 1 and analysis.threads == 2
    assert analysis.simulations == 3000
    # two threads add to the same counters without atomics: an update may be lost, rarely
    assert abs(analysis.visits - 3000) <= 30
    tree = p._trees[0]
    assert tree.tf[K.NF_VISITS, :tree.header[K.T_USED]].min() >= 0


def test_a_shared_tree_stays_within_its_memory_cap_and_searches_on_when_full():
    p = SearchPlayer(SearchSettings(playouts=3000, threads=2, max_memory_mb=1,
                                    overrides=(("shared_tree", 1),)))
    capacity = p.pool_capacity(1, 9)
    game = Game("go", 9)
    for _ in range(3):
        analysis = p.search(game, game.to_move, early_stop=False)
        assert analysis.nodes <= capacity
        assert p.memory_bytes() <= 1024 * 1024 + 1024
        assert analysis.simulations == 3000
        game.play(game.to_move, analysis.best.move)


@pytest.mark.parametrize("variant", ["go", "disto"])
def test_one_thread_searches_the_same_with_the_shared_tree_on_or_off(variant):
    game = Game(variant, 7)
    found = []
    for shared in (0, 1):
        p = SearchPlayer(SearchSettings(playouts=600, threads=1, seed=2,
                                        overrides=(("shared_tree", shared),)))
        analysis = p.search(game, Color.BLACK)
        found.append([(m.move, m.visits, m.winrate) for m in analysis.moves])
    assert found[0] == found[1]


def test_threads_sharing_a_tree_find_the_capture_that_wins_the_race():
    from test_search import RACE_WON_BY_CAPTURE, setup
    game = setup("go", RACE_WON_BY_CAPTURE, komi=0.5)
    p = SearchPlayer(SearchSettings(playouts=2000, threads=2, seed=1,
                                    overrides=(("shared_tree", 1),)))
    move, _ = p.genmove(game, Color.BLACK)
    assert move == parse_vertex("E4", 7)
