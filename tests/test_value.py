"""The value net: the kernels' input planes and forward pass against the numpy reference
(``search/value.py``), its file, and the tree's use of it at a node's expansion."""

import math
import random

import numpy as np
import pytest

from gtp_engine.board import _backend as board_backend
from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from gtp_engine.search import _backend, knowledge, patterns, value
from gtp_engine.search.params import make_params
from gtp_engine.search.tree import Base, Tree, Workspace

K = _backend.mirror
_BK = board_backend.mirror
_ZOBRIST = _BK.zobrist_keys()


def _random_net(channels=3, layers=2, seed=0):
    rng = np.random.default_rng(seed)
    convs, cin = [], K.V_PLANES
    for _ in range(layers):
        convs.append((rng.normal(0, 0.4, (channels, cin, 3, 3)), rng.normal(0, 0.1, channels)))
        cin = channels
    return value.ValueNet(convs, rng.normal(0, 0.5, channels), 0.1, rng.normal(0, 0.5, channels),
                          -0.2, 0.07, info="random", sizes=(5, 9))


def _constant_net(p, channels=2):
    """A net whose estimate is ``p`` everywhere: zero weights, the bias the logit of ``p``."""
    zeros = [(np.zeros((channels, K.V_PLANES, 3, 3)), np.zeros(channels))]
    return value.ValueNet(zeros, np.zeros(channels), 0.0, np.zeros(channels),
                          math.log(p / (1 - p)), 0.0)


def _ko(size):
    """White has just taken a ko at B4: C4 is forbidden to Black."""
    game = Game("go", size, 7.5)
    for color, vertex in zip("BWBWBWBW", ("B5", "C5", "A4", "D4", "B3", "C3", "C4", "B4")):
        game.play(Color.BLACK if color == "B" else Color.WHITE, parse_vertex(vertex, size))
    point = parse_vertex("B4", size)
    return game, (point[0] + 1) * (size + 2) + point[1] + 1


def _random_positions(size, games=4, seed=1):
    """(game, last move's cell): a ko, then positions after random legal moves, a few per
    game, ataris among them."""
    yield _ko(size)
    chooser = random.Random(seed)
    for g in range(games):
        game, last = Game("go", size, 7.5), 0
        for n in range(chooser.randrange(size * 2, size * size * 2)):
            move = chooser.choice(game.legal_moves(game.to_move) + [None] * 2)
            game.play(game.to_move, move)
            last = 0 if move is None else (move[0] + 1) * (size + 2) + move[1] + 1
            if n % 7 == 3:
                yield game, last


def _kernel_planes(kernels, game, last):
    size = game.size
    area = (size + 2) * (size + 2)
    x = np.zeros(area * K.V_PLANES, np.float32)
    space = Workspace(size)
    st = game.position.state.copy()
    kernels.value_planes(st, space.scratch, int(game.to_move), last, x)
    board = x.reshape(size + 2, size + 2, K.V_PLANES)[1:-1, 1:-1]
    return np.transpose(board, (2, 0, 1))


@pytest.fixture(params=["mirror", "compiled"])
def kernels(request):
    return K if request.param == "mirror" else _backend.compile_now()


@pytest.mark.parametrize("size", [5, 9])
def test_the_kernels_planes_are_the_references_on_random_positions(kernels, size):
    seen = np.zeros(K.V_PLANES)
    for game, last in _random_positions(size):
        expected = value.planes_reference(game.position.state, int(game.to_move), last)
        assert np.array_equal(_kernel_planes(kernels, game, last), expected)
        seen += expected.sum(axis=(1, 2))
    # every plane was exercised: ataris, two and three liberties, a ko, a last move
    assert all(seen > 0), seen


@pytest.mark.parametrize("size", [5, 9])
def test_the_kernels_forward_pass_is_the_references(kernels, size):
    net = _random_net()
    flat = net.flat()
    buffer = np.zeros(K.value_buffer_length(size, net.channels), np.float32)
    estimates = []
    for game, last in _random_positions(size, games=3, seed=size):
        expected = net.evaluate(value.planes_reference(game.position.state,
                                                       int(game.to_move), last))
        st = game.position.state.copy()
        got = kernels.value_of(st, Workspace(size).scratch, int(game.to_move), last,
                               (flat, buffer))
        assert got == pytest.approx(expected, abs=1e-5)
        estimates.append(got)
    assert max(estimates) - min(estimates) > 0.01   # the positions are told apart


def test_a_net_is_saved_and_loaded_unchanged(tmp_path):
    net = _random_net()
    net.save(tmp_path / "go-value.npz")
    back = value.ValueNet.load(tmp_path / "go-value.npz")
    assert np.array_equal(back.flat(), net.flat())
    assert (back.info, back.sizes) == ("random", (5, 9))


def test_subnormal_weights_are_zero_in_the_kernels_form():
    """They would cost the forward pass the processor's slow path, for nothing."""
    net = _random_net()
    weights, _ = net.convs[0]
    weights[0, 0, 1, 1] = 0.0
    weights[0, 1, 1, 1] = 0.0
    clean = net.flat()
    weights[0, 0, 1, 1] = 3e-40          # below float32's smallest normal number, 1.2e-38
    weights[0, 1, 1, 1] = -1e-39
    assert np.array_equal(net.flat(), clean)
    weights[0, 0, 1, 1] = 2e-38          # a normal number stays
    assert np.count_nonzero(net.flat()) == np.count_nonzero(clean) + 1


def test_a_layer_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match="inputs"):
        value.ValueNet([(np.zeros((2, 3, 3, 3)), np.zeros(2))], np.zeros(2), 0, np.zeros(2),
                       0, 0)


def test_no_file_a_damaged_file_or_a_size_not_named_means_no_net(tmp_path, monkeypatch):
    monkeypatch.setattr(value, "MODEL_DIR", tmp_path)
    value.flat_for.cache_clear()
    try:
        assert len(value.flat_for("go", 9)) == 0
        _random_net().save(tmp_path / "go-value.npz")
        value.flat_for.cache_clear()
        assert len(value.flat_for("go", 9)) > 0
        assert len(value.flat_for("go", 7)) == 0          # the file names 5 and 9 only
        flat, buffer = value.value_arrays("go", 9)
        assert len(buffer) == K.value_buffer_length(9, 3)
        (tmp_path / "go-value.npz").write_bytes(b"PK\x03\x04 not a zip")
        value.flat_for.cache_clear()
        assert len(value.flat_for("go", 9)) == 0
        assert len(value.value_arrays("go", 9)[1]) == 0
    finally:
        value.flat_for.cache_clear()


def _grow(kernels, arrays, weight, sims, **overrides):
    game = Game("go", 5, 7.5)
    tree = Tree(20_000)
    root = tree.reset(Base(game.history_id, (), int(game.to_move)))
    space = Workspace(game.size)
    space.rng[0] = 777
    overrides.setdefault("value_mix", 0.0)
    params = make_params(game, expand_visits=1, value_weight=weight, **overrides)
    arena = tree.arena(0)
    tree.refill(arena, 26)
    kernels.run(game.position.state, space.state, _ZOBRIST, space.work, space.spare, space.out,
                space.owner, space.scratch, *tree.arrays(), arena, root, int(game.to_move),
                0, 0, 0, space.rng, params, patterns.table(),
                knowledge.arrays_for("go", 5), arrays,
                np.zeros(64, np.int64), space.path, space.path_keys, space.seq, space.own, sims)
    return tree, root


def _expanded(tree, node):
    """The nodes below and including ``node`` that have children (edges)."""
    if not tree.children(node):
        return set()
    return {node}.union(*(_expanded(tree, c) for _, c, _ in tree.children(node) if c >= 0))


@pytest.mark.parametrize("name", ["mirror", "compiled"])
def test_a_node_getting_children_gets_the_nets_estimate_as_virtual_simulations(name):
    kernels = K if name == "mirror" else _backend.compile_now()
    p, weight = 0.8, 12.0
    net = _constant_net(p)
    arrays = (net.flat(), np.zeros(K.value_buffer_length(5, net.channels), np.float32))
    # one simulation that expands every node it meets (expand_visits 1): the same tree
    plain, root = _grow(kernels, arrays, 0.0, 1)
    valued, _ = _grow(kernels, arrays, weight, 1)
    assert np.array_equal(valued.ti, plain.ti) and np.array_equal(valued.ec, plain.ec)
    expanded = _expanded(plain, root) - {root}
    assert len(expanded) > 3
    # each node that got children, the root aside, and no other, has ``weight`` more prior
    # visits on the edge that reaches it, won by the player who moved into it with 1 - p
    edges = plain.edges_used
    gained = (valued.ef[:edges, K.E_PVISITS] - plain.ef[:edges, K.E_PVISITS]).astype(float)
    won = (valued.ef[:edges, K.E_PWINS] - plain.ef[:edges, K.E_PWINS]).astype(float)
    reaching = [e for e in range(edges) if plain.ec[e] in expanded]
    assert len(reaching) == len(expanded)
    assert set(np.nonzero(gained)[0].tolist()) == set(reaching)
    assert set(np.nonzero(won)[0].tolist()) == set(reaching)
    assert np.allclose(gained[reaching], weight, atol=1e-4)
    assert np.allclose(won[reaching], weight * (1 - p), atol=1e-4)
    # without a net the weight changes nothing
    alone, _ = _grow(kernels, K.empty_value(), weight, 1)
    assert np.array_equal(alone.tf, plain.tf) and np.array_equal(alone.ti, plain.ti)
    assert np.array_equal(alone.ef, plain.ef) and np.array_equal(alone.ec, plain.ec)
    assert np.array_equal(alone.ea, plain.ea)


def _depths(tree, node, depth=0):
    """{node: depth} of ``node``'s subtree."""
    found = {node: depth}
    for _, child, _ in tree.children(node):
        if child >= 0:
            found.update(_depths(tree, child, depth + 1))
    return found


@pytest.mark.parametrize("name", ["mirror", "compiled"])
@pytest.mark.parametrize("mix", [0.0, 0.3, 1.0])
def test_a_simulations_value_is_blended_with_the_nets_estimate_below_the_root(name, mix):
    """With wins alone as the value (no margin, no target), a node two or more moves below
    the root has every simulation through it valued (1 - mix) x its result + mix x the net's
    estimate of the deepest node on its way that has one: here a net that says 0.5 to either
    side, and the node's parent has its estimate before the node's first visit."""
    kernels = K if name == "mirror" else _backend.compile_now()
    net = _constant_net(0.5)
    arrays = (net.flat(), np.zeros(K.value_buffer_length(5, net.channels), np.float32))
    tree, root = _grow(kernels, arrays, 0.0, 120, value_mix=mix, score_weight=0.0,
                       target_weight=0.0)
    deep = [n for n, d in _depths(tree, root).items() if d >= 2 and tree.tf[K.NF_VISITS, n] > 0]
    assert len(deep) > 10
    visits, wins, values = (tree.tf[f, deep] for f in (K.NF_VISITS, K.NF_WINS, K.NF_VALUE))
    assert np.allclose(values, (1 - mix) * wins + mix * 0.5 * visits, atol=1e-3)
    if mix == 1.0:   # the results themselves were not all draws
        assert not np.allclose(wins, 0.5 * visits, atol=1e-3)
    # the estimate is kept once per node that got children below the root, and only there
    valued = np.nonzero(tree.ti[K.NI_FLAGS] & K.FLAG_NET)[0].tolist()
    assert set(valued) == (_expanded(tree, root) - {root} if mix > 0 else set())


def test_the_player_searches_with_the_games_net_when_its_weight_is_set(tmp_path, monkeypatch):
    from gtp_engine.search.player import SearchPlayer, SearchSettings
    monkeypatch.setattr(value, "MODEL_DIR", tmp_path)
    value.flat_for.cache_clear()
    _random_net().save(tmp_path / "go-value.npz")

    def search(weight, mix):
        game = Game("go", 9, 7.5)
        settings = SearchSettings(playouts=300, seed=5, book=False,
                                  overrides=(("value_weight", weight), ("value_mix", mix)))
        _, analysis = SearchPlayer(settings).genmove(game, game.to_move)
        return [(m.move, m.visits) for m in analysis.moves]

    try:
        without = search(0, 0)
        assert search(0, 0) == without              # reproducible at a fixed seed
        assert search(40, 0) != without             # the net's estimates moved the search
        assert search(0, 0.5) == search(0, 0.5) != without   # and blended into the results
    finally:
        value.flat_for.cache_clear()


@pytest.mark.parametrize("name, size, komi, blended", [("go", 9, 7.5, True), ("go", 7, 7.5, False),
                                                      ("disto", 9, 2.5, True),
                                                      ("disto", 7, 2.5, False),
                                                      ("loose", 9, 6, True),
                                                      ("goncrete", 9, 8.5, False)])
def test_the_shipped_net_is_blended_in_only_where_it_exists(name, size, komi, blended):
    """9x9 Go, Loose and Disto have a net, and ``value_mix`` blends it in; a size its file
    does not name, or a game without a file, searches with any ``value_mix`` as with none."""
    from gtp_engine.search.player import SearchPlayer, SearchSettings

    def search(mix):
        game = Game(name, size, komi)
        settings = SearchSettings(playouts=400, seed=3, book=False,
                                  overrides=(("value_mix", mix),))
        _, analysis = SearchPlayer(settings).genmove(game, game.to_move)
        return [(m.move, m.visits) for m in analysis.moves]

    assert (search(0.5) != search(0.0)) == blended


def test_the_shipped_go_net_is_for_9x9_and_sees_who_leads():
    value.flat_for.cache_clear()
    net = value.ValueNet.load(value.net_path("go"))
    assert net.sizes == (9,) and len(value.flat_for("go", 19)) == 0
    game = Game("go", 9, 7.5)
    for row in range(1, 10):   # a wall of Black stones down the D line, White passing
        game.play(Color.BLACK, parse_vertex(f"D{row}", 9))
        game.play(Color.WHITE, None)
    state = game.position.state
    assert net.evaluate(value.planes_reference(state, int(Color.BLACK), 0)) > 0.8
    assert net.evaluate(value.planes_reference(state, int(Color.WHITE), 0)) < 0.2


@pytest.mark.parametrize("name, komi", [("disto", 2.5), ("loose", 6)])
def test_the_shipped_nets_of_stone_scoring_games_are_for_9x9_see_who_leads_and_are_on(name, komi):
    value.flat_for.cache_clear()
    net = value.ValueNet.load(value.net_path(name))
    assert net.sizes == (9,) and len(value.flat_for(name, 13)) == 0
    assert make_params(Game(name, 9, komi))[K.P_VALUE_MIX] > 0
    assert make_params(Game("goncrete", 9, 8.5))[K.P_VALUE_MIX] == 0
    empty = Game(name, 9, komi)
    # the empty board at the default komi: near even (Black wins 40..55% of self-play games)
    assert 0.35 < net.evaluate(value.planes_reference(empty.position.state, int(Color.BLACK), 0)) < 0.6
    game = Game(name, 9, komi)
    for row in range(1, 10):   # Black's nine stones down the D line (stones score), White passing
        game.play(Color.BLACK, parse_vertex(f"D{row}", 9))
        game.play(Color.WHITE, None)
    state = game.position.state
    assert net.evaluate(value.planes_reference(state, int(Color.BLACK), 0)) > 0.8
    assert net.evaluate(value.planes_reference(state, int(Color.WHITE), 0)) < 0.2


@pytest.mark.parametrize("variant, komi", [("go", 0.5), ("loose", 2), ("disto", 0.5)])
def test_a_self_play_record_has_each_moves_side_result_and_the_final_owners(variant, komi):
    from scripts import train_value
    rows, ownership = train_value.play_game(seed=3, playouts=60, size=5, komi=komi,
                                            variant=variant)
    game_length = len(rows)
    assert game_length > 2
    colors = [color for _, _, _, color in rows]
    assert colors[:2] == [int(Color.BLACK), int(Color.WHITE)]
    won = {color: y for _, _, y, color in rows}
    assert sorted(won.values()) == [0, 1]   # one side won, the other lost, every row agrees
    assert all(y == won[color] for _, _, y, color in rows)
    assert all(planes.shape == (K.V_PLANES, 5, 5) for planes, _, _, _ in rows)
    assert ownership.shape == (25,) and np.all(np.abs(ownership) <= 1)
    # the winner's side owns more of the board at the end, as its last searches saw it
    winner_sign = 1 if won[int(Color.BLACK)] else -1
    assert winner_sign * ownership.sum() > 0


def test_the_fit_learns_the_final_owners_beside_the_win(tmp_path):
    pytest.importorskip("torch")
    from scripts import train_value
    rng = np.random.default_rng(0)
    n, size = 400, 5
    x = np.zeros((n, K.V_PLANES, size, size), np.uint8)
    x[:, K.V_ON_BOARD] = 1
    x[:, K.V_OWN] = rng.random((n, size, size)) < 0.3
    x[:, K.V_ENEMY] = (rng.random((n, size, size)) < 0.3) & (x[:, K.V_OWN] == 0)
    # a point's owner is whoever has a stone there, and the side with more stones wins
    own = (x[:, K.V_OWN].astype(np.int16) - x[:, K.V_ENEMY]) * 127
    margin = own.reshape(n, -1).sum(1)
    y = (margin > 0).astype(np.uint8)
    data = tmp_path / "d.npz"
    np.savez(data, x=x, y=y, wr=-np.ones(n, np.float32), g=np.arange(n) // 4,
             own=own.reshape(n, -1).astype(np.int8))
    out = tmp_path / "net.npz"
    assert train_value.main(["fit", str(data), "--out", str(out), "--channels", "4",
                             "--layers", "1", "--epochs", "6", "--batch", "32",
                             "--sizes", "5", "--rate", "0.02", "--own-weight", "1"]) == 0
    net = value.ValueNet.load(out)
    assert net.sizes == (5,)
    agree = [np.mean((net.ownership(x[i]) > 0)[own[i] != 0] == (own[i] > 0)[own[i] != 0])
             for i in range(n)]
    assert np.mean(agree) > 0.95   # 1.00 here; 0.70 with --own-weight 0


def test_records_turns_finished_sgf_games_into_positions_with_their_winners(tmp_path):
    import sgf
    from scripts import train_value
    # Loose 5x5 (stones score, L4): Black's C3 and White's pass twice; a tie at komi 0 would go
    # against the final passer, but Black has the only stone and wins B+1
    game = Game("loose", 5, 0)
    game.play(Color.BLACK, parse_vertex("C3", 5))
    game.play(Color.WHITE, None)
    game.play(Color.BLACK, None)
    game.play(Color.WHITE, None)
    assert game.score().winner == Color.BLACK
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "ended.sgf").write_bytes(sgf.game_to_sgf(game))
    resigned = Game("loose", 5, 0)
    resigned.play(Color.BLACK, parse_vertex("B2", 5))
    (tmp_path / "a" / "resigned.sgf").write_bytes(sgf.game_to_sgf(resigned, result="W+R"))
    unfinished = Game("loose", 5, 0)
    unfinished.play(Color.BLACK, parse_vertex("B2", 5))
    (tmp_path / "a" / "unfinished.sgf").write_bytes(sgf.game_to_sgf(unfinished))
    (tmp_path / "a" / "go.sgf").write_bytes(sgf.game_to_sgf(Game("go", 5, 0.5), result="B+R"))
    (tmp_path / "a" / "broken.sgf").write_bytes(b"(;GM[1]SZ[5];B[zz")
    out = tmp_path / "d.npz"
    assert train_value.main(["records", str(tmp_path / "a"), "--variant", "loose", "--size", "5",
                             "--out", str(out)]) == 0
    data = np.load(out)
    assert sorted(np.unique(data["g"]).tolist()) == [0, 1]   # the ended and the resigned game
    assert len(data["y"]) == 4 + 1 and np.all(data["wr"] < 0)
    ended, resigned_rows = data["g"] == 0, data["g"] == 1
    # the ended game: the position before each move, the last first; Black won
    black_to_move = data["x"][ended][:, K.V_BLACK_TO_MOVE, 0, 0]
    assert black_to_move.tolist() == [0, 1, 0, 1]
    assert data["y"][ended].tolist() == [0, 1, 0, 1]
    first = data["x"][ended][-1]   # the empty board, Black to move
    assert first[K.V_OWN].sum() == 0 and first[K.V_ENEMY].sum() == 0
    assert data["x"][ended][0][K.V_ENEMY].sum() == 1   # White to move sees Black's stone
    # the resigned game: Black to move at the start, and White won
    assert data["x"][resigned_rows][:, K.V_BLACK_TO_MOVE, 0, 0].tolist() == [1]
    assert data["y"][resigned_rows].tolist() == [0]
    assert train_value.main(["records", str(tmp_path / "a"), "--variant", "disto", "--size", "5",
                             "--out", str(tmp_path / "none.npz")]) == 1
    assert not (tmp_path / "none.npz").exists()
