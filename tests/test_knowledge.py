"""The learned move model: its shapes are the same in every orientation, the facts it reads are
the ones the diagrams show, the fit learns what the played moves have in common, a model file
reads back as written, and the tree's priors follow the model. Kernels are the pure-Python
mirror (the same source as the compiled ones)."""

import numpy as np
import pytest

from gtp_engine.coords import Color, parse_vertex
from gtp_engine.rules import ALL_RULES
from gtp_engine.search import _backend, knowledge, patterns, training
from gtp_engine.search.params import make_params
from gtp_engine.search.player import _ZOBRIST
from gtp_engine.search.tree import Tree, Workspace

from test_ladders import IN_ATARI, TWO_LIBERTIES
from test_search import cell as _cell, setup

K = _backend.mirror

CORNER = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . X O . . . .
    . . X . . . .
    . . . . . . ."""


def _rotate(text):
    """The diagram turned a quarter (clockwise)."""
    rows = [line.split() for line in text.strip().splitlines()]
    turned = [list(row) for row in zip(*rows[::-1])]
    return "\n".join(" ".join(row) for row in turned)


def _rotate_vertex(vertex, size):
    """Where ``vertex`` goes when the diagram turns a quarter clockwise."""
    row, col = parse_vertex(vertex, size)
    top, left = size - 1 - row, col           # from the diagram's top-left corner
    top, left = left, size - 1 - top
    return "ABCDEFGHJKLMNOPQRST"[left] + str(size - top)


def _candidates(game, color, last=0, last2=0):
    space = Workspace(game.size)
    area = game.size * game.size
    cells = np.zeros(area, np.int32)
    features = np.zeros((area, K.MAX_FEATURES), np.int32)
    counts = np.zeros(area, np.int32)
    codes = np.zeros(area, np.int64)
    n = K.candidate_features(game.position.state.copy(), _ZOBRIST, space.work, space.spare,
                             space.out, space.scratch, int(color), int(last), int(last2),
                             make_params(game), patterns.table(),
                             np.zeros(K.MAX_FEATURES, np.int32), cells, features, counts, codes)
    return {int(cells[i]): (set(features[i, :counts[i]].tolist()), int(codes[i]))
            for i in range(n)}


def test_the_eight_symmetries_are_distinct_and_canonical_codes_do_not_depend_on_them():
    assert len(set(knowledge.SYMMETRIES)) == 8
    codes = np.random.default_rng(1).integers(0, 1 << 24, 500)
    canonical = knowledge.canonical(codes)
    for perm in knowledge.SYMMETRIES:
        assert (knowledge.canonical(knowledge.transformed(codes, perm)) == canonical).all()
    assert (canonical <= codes).all()


def test_a_turned_diagram_has_the_same_canonical_shape_at_the_turned_point():
    game = setup("go", CORNER)
    turned = setup("go", _rotate(CORNER))
    for vertex in ("C4", "B4", "D3", "B2", "D2", "E5"):
        other = _rotate_vertex(vertex, 7)
        a = _candidates(game, Color.BLACK)[_cell(game, vertex)][1]
        b = _candidates(turned, Color.BLACK)[_cell(turned, other)][1]
        assert knowledge.canonical([a])[0] == knowledge.canonical([b])[0]
        assert knowledge.canonical3([a])[0] == knowledge.canonical3([b])[0]
    # the edge is part of the shape: a point on the first line is not one in the middle
    first = _candidates(game, Color.BLACK)[_cell(game, "D1")][1]
    middle = _candidates(game, Color.BLACK)[_cell(game, "E5")][1]
    assert knowledge.canonical([first])[0] != knowledge.canonical([middle])[0]


def test_the_facts_are_those_of_the_diagrams():
    game = setup("go", TWO_LIBERTIES)
    facts = _candidates(game, Color.BLACK, last=_cell(game, "D4"))
    d3 = facts[_cell(game, "D3")][0]
    assert K.F_ATARI + 0 in d3 and K.F_ATARI_LADDER in d3      # the atari that ladders D4
    assert K.F_NEAR_LAST + K.distance_bucket(2) in d3
    assert K.F_ATARI not in facts[_cell(game, "A9")][0]
    assert K.F_LINE_EMPTY + 0 in facts[_cell(game, "A9")][0]
    caught = setup("go", IN_ATARI)
    facts = _candidates(caught, Color.WHITE)
    e4 = facts[_cell(caught, "E4")][0]
    assert K.F_ESCAPE + 0 in e4 and K.F_ESCAPE_LADDER in e4   # running into the ladder
    # Black to move: E4 takes the stone
    assert K.F_CAPTURE + 0 in _candidates(caught, Color.BLACK)[_cell(caught, "E4")][0]


def test_self_atari_and_two_liberty_fights():
    game = setup("go", """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X X . . .
        . X O O X . .
        X . . . . . .
        . . . . . . .""")
    # White's C3 D3 have two liberties, C2 and D2
    white = _candidates(game, Color.WHITE)
    assert K.F_DEFEND in white[_cell(game, "D2")][0]          # three liberties after it
    assert K.F_DEFEND not in white[_cell(game, "F6")][0]
    black = _candidates(game, Color.BLACK)
    assert K.F_ATARI + 1 in black[_cell(game, "D2")][0]        # an atari on two stones
    assert not any(K.F_ATARI <= f < K.F_ATARI + 3 for f in black[_cell(game, "F6")][0])
    # White's B2 would have one liberty (B1): a self-atari of one stone
    corner = setup("go", """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . X . . . . .
        X . X . . . .
        . . . . . . .""")
    facts = _candidates(corner, Color.WHITE)[_cell(corner, "B2")][0]
    assert K.F_SELF_ATARI + 0 in facts


def _examples(positions, seed):
    """Positions of 8 placements with random lines, where the placement with a capture of one
    stone (one per position) is always the one played."""
    rng = np.random.default_rng(seed)
    examples = training.Examples()
    for _ in range(positions):
        counts = np.full(8, 2, np.int32)
        features = np.zeros((8, K.MAX_FEATURES), np.int32)
        features[:, 0] = K.F_LINE + rng.integers(0, 5, 8)
        features[:, 1] = K.F_NEAR_LAST + rng.integers(0, 9, 8)
        played = int(rng.integers(0, 8))
        features[played, 2] = K.F_CAPTURE
        counts[played] = 3
        codes = rng.integers(0, 1 << 24, 8)
        examples.add(counts, features, codes, played)
    return examples


def test_the_fit_learns_what_the_played_moves_have_in_common():
    result = training.fit(_examples(300, 1), _examples(50, 2), min_count=5, iterations=200)
    weights = result.model.fixed
    assert result.test_accuracy == 1.0
    assert weights[K.F_CAPTURE] > 2.0
    assert abs(weights[K.F_LINE:K.F_LINE + 5]).max() < 0.5 * weights[K.F_CAPTURE]
    assert result.test_loglik > -0.5


def test_a_fit_from_an_earlier_model_corrects_it_instead_of_forgetting_it():
    """``start``: the fit begins at the earlier weights and the L2 pulls towards them, so what
    few new games do not speak of (a line weight, a shape never seen here) is kept, while what
    they do speak of (the capture) is still learned."""
    fixed = np.zeros(K.F_COUNT)
    fixed[K.F_LINE + 2] = 3.0
    unseen_shape = (1 << 40) + 12345      # no 24-bit code of the examples can be this one
    earlier = knowledge.Model(fixed, {}, {unseen_shape: 1.5})
    few = _examples(20, 3)
    fresh = training.fit(few, few, min_count=2, l2=0.1, iterations=200)
    corrected = training.fit(few, few, min_count=2, l2=0.1, iterations=200, start=earlier)
    assert abs(fresh.model.fixed[K.F_LINE + 2]) < 0.5
    assert unseen_shape not in fresh.model.pat12
    assert corrected.model.fixed[K.F_LINE + 2] > 1.0   # pulled down by the data, not to 0
    assert corrected.model.pat12[unseen_shape] == pytest.approx(1.5)
    assert corrected.model.fixed[K.F_CAPTURE] > 0.5
    assert corrected.test_accuracy == 1.0


def test_a_model_file_reads_back_and_scores_a_placement_in_every_orientation(tmp_path):
    game = setup("go", CORNER)
    turned = setup("go", _rotate(CORNER))
    facts, code = _candidates(game, Color.BLACK)[_cell(game, "C4")]
    fixed = np.zeros(K.F_COUNT)
    fixed[K.F_LINE + 2] = 0.25        # C4 is on the third line, stones near
    model = knowledge.Model(fixed, {int(knowledge.canonical3([code])[0]): 0.5},
                            {int(knowledge.canonical([code])[0]): 1.0}, "test", (7, 9))
    model.save(tmp_path / "go.npz")
    loaded = knowledge.Model.load(tmp_path / "go.npz")
    assert loaded.info == "test" and (loaded.fixed == fixed).all() and loaded.sizes == (7, 9)
    arrays = loaded.arrays()
    for position, vertex in ((game, "C4"), (turned, _rotate_vertex("C4", 7))):
        facts, code = _candidates(position, Color.BLACK)[_cell(position, vertex)]
        ids = np.array(sorted(facts), np.int32)
        assert K.learned_score(ids, len(ids), code, arrays) == pytest.approx(1.75)
    # a shape the model never saw adds nothing
    facts, code = _candidates(game, Color.BLACK)[_cell(game, "F6")]
    ids = np.array(sorted(facts), np.int32)
    assert K.learned_score(ids, len(ids), code, arrays) == pytest.approx(
        sum(fixed[i] for i in ids))


def test_the_tree_gives_the_moves_the_model_likes_the_better_priors():
    game = setup("go", CORNER)
    fixed = np.zeros(K.F_COUNT)
    fixed[K.F_LINE + 0] = 3.0         # the model loves the first line
    arrays = knowledge.Model(fixed, {}, {}).arrays()

    def priors(model, **overrides):
        tree, space = Tree(500), Workspace(game.size)
        root = tree.reset(None)
        K.expand(game.position.state.copy(), _ZOBRIST, space.work, space.spare, space.out,
                 space.owner, space.scratch, tree.ti, tree.em, tree.ec, tree.ef, tree.ea,
                 tree.header, root, int(Color.BLACK), 0, 0, 0, make_params(game, **overrides),
                 patterns.table(), model)
        return {move: float(tree.ef[e, K.E_PWINS]) / float(tree.ef[e, K.E_PVISITS])
                for move, _, e in tree.children(root) if move != K.PASS}

    plain = priors(K.empty_model())
    learned = priors(arrays, prior_learned=50)
    off = priors(arrays, prior_learned=0)
    a1, d4 = _cell(game, "A1"), _cell(game, "D4")
    assert off == plain
    assert learned[a1] - learned[d4] > plain[a1] - plain[d4] + 0.2
    # the best placement's learned wins are all its virtual simulations
    assert max(learned.values()) > max(plain.values())


def test_examples_from_games_hold_every_placement_played_among_its_candidates():
    import random
    from gtp_engine.game import Game
    games = []
    for seed in (1, 2):
        game, rng = Game("loose", 7), random.Random(seed)
        for _ in range(30):
            color = game.to_move
            moves = game.legal_moves(color, skip_own_eyes=True)
            game.play(color, rng.choice(moves) if moves else None)
        games.append(game)
    played = sum(1 for g in games for m in g.moves if m.point is not None)
    examples = training.examples_from_games(games, compiled=False)
    assert examples.positions == played
    assert all(len(g.moves) == 30 for g in games)            # replayed to the end
    for p in range(examples.positions):
        assert examples.starts[p] <= examples.chosen[p] < examples.starts[p + 1]
    result = training.fit(examples, examples, min_count=2, iterations=50)
    assert result.model.pat3 and 0 < result.train_accuracy <= 1


def test_examples_come_from_a_record_that_repeats_a_position_as_its_rules_allow():
    """A Japanese record with a long cycle loads as played (sgf/reader.py); its replay for
    the examples plays the repeating move too, instead of refusing it for superko."""
    from sgf import SgfRecord
    from test_sgf_real_world import CYCLE, cycle_file
    game = SgfRecord.from_bytes(cycle_file()).game
    examples = training.examples_from_games([game], compiled=False)
    assert len(game.moves) == len(CYCLE)                      # replayed to the end
    placements = sum(1 for m in game.moves if m.point is not None)
    assert 0.9 * placements < examples.positions <= placements   # own-eye fills are no example


def test_examples_of_one_colour_are_that_colours_placements_and_a_model_measures_as_fitted(
        tmp_path):
    """``examples_from_games(colors=...)`` keeps exactly one side's placements, each as the
    example it is among both sides'; ``training.measure`` of a fitted model, saved and read
    back, gives the figures the fit reported for the same examples."""
    import random
    from gtp_engine.game import Game
    games = []
    for seed in (3, 4):
        game, rng = Game("go", 7), random.Random(seed)
        for _ in range(30):
            moves = game.legal_moves(game.to_move, skip_own_eyes=True)
            game.play(game.to_move, rng.choice(moves) if moves else None)
        games.append(game)
    both = training.examples_from_games(games, compiled=False)
    colour_of = [m.color for g in games for m in g.moves if m.point is not None]
    assert len(colour_of) == both.positions
    for only in (Color.BLACK, Color.WHITE):
        one = training.examples_from_games(games, compiled=False, colors=[only, only])
        mine = [p for p, c in enumerate(colour_of) if c == only]
        assert one.positions == len(mine) > 10
        for q, p in enumerate(mine):
            assert np.array_equal(one.codes[q], both.codes[p])
            assert one.chosen[q] - one.starts[q] == both.chosen[p] - both.starts[p]
    mixed = training.examples_from_games(games, compiled=False, colors=[Color.BLACK, None])
    assert mixed.positions == sum(1 for g, c in zip(games, [Color.BLACK, None])
                                  for m in g.moves if m.point is not None
                                  and (c is None or m.color == c))
    with pytest.raises(ValueError):
        training.examples_from_games(games, compiled=False, colors=[None])
    result = training.fit(both, both, min_count=2, iterations=50)
    result.model.save(tmp_path / "m.npz")
    accuracy, loglik = training.measure(knowledge.Model.load(tmp_path / "m.npz"), both)
    assert accuracy == pytest.approx(result.train_accuracy)
    assert loglik == pytest.approx(result.train_loglik) and loglik < 0
    with pytest.raises(ValueError):
        training.measure(result.model, training.Examples())


GAMES = sorted(rules.name for rules in ALL_RULES)


def _shipped_models():
    """(game, file) of every shipped model, as ``knowledge.model_path`` finds them: a game's
    own and its board sizes' own files."""
    found = {(variant, knowledge.model_path(variant, size))
             for variant in GAMES for size in [None, *range(2, 26)]}
    return sorted((variant, path) for variant, path in found if path.exists())


@pytest.mark.parametrize("variant, path", _shipped_models(), ids=lambda x: getattr(x, "name", x))
def test_a_shipped_model_reads_and_likes_captures(variant, path):
    model = knowledge.Model.load(path)
    assert len(model.fixed) == K.F_COUNT and model.pat3 and model.pat12
    assert "held out" in model.info                 # the fit's figures are in the file
    for size in model.sizes:
        if knowledge.model_path(variant, size) == path:
            assert len(knowledge.arrays_for(variant, size)[0]) >= \
                len(model.pat3) + len(model.pat12)
    if variant != "disto":                          # Disto takes nothing: meals stay
        assert model.fixed[K.F_CAPTURE + 3] > model.fixed[K.F_SELF_ATARI + 2]


def test_every_game_ships_a_model():
    assert {variant for variant, _ in _shipped_models()} == set(GAMES)


def test_a_sizes_own_model_file_is_read_on_that_size_only(tmp_path, monkeypatch):
    """``<game>-<size>.npz`` wins on its size; other sizes read ``<game>.npz``; a game with
    only a size's file has no model elsewhere."""
    def model(weight, sizes):
        fixed = np.zeros(K.F_COUNT)
        fixed[0] = weight
        return knowledge.Model(fixed, {1: 0.5}, {2: 0.25}, "held out", sizes)

    model(1.0, (9, 19)).save(tmp_path / "go.npz")
    model(2.0, (9,)).save(tmp_path / "go-9.npz")
    model(3.0, (7,)).save(tmp_path / "loose-7.npz")
    monkeypatch.setattr(knowledge, "MODEL_DIR", tmp_path)
    knowledge.arrays_for.cache_clear()
    try:
        assert knowledge.model_path("go", 9) == tmp_path / "go-9.npz"
        assert knowledge.model_path("go", 19) == tmp_path / "go.npz"
        assert knowledge.model_path("go") == tmp_path / "go.npz"
        nine, nineteen = knowledge.arrays_for("go", 9)[2], knowledge.arrays_for("go", 19)[2]
        assert 2.0 in nine and 1.0 not in nine
        assert 1.0 in nineteen and 2.0 not in nineteen
        assert not knowledge.knows_anything(knowledge.arrays_for("go", 13))   # not its sizes
        assert 3.0 in knowledge.arrays_for("loose", 7)[2]
        assert not knowledge.knows_anything(knowledge.arrays_for("loose", 9))
    finally:
        knowledge.arrays_for.cache_clear()


def test_a_damaged_model_file_leaves_the_hand_set_priors(tmp_path, monkeypatch, caplog):
    (tmp_path / "go.npz").write_bytes(b"PK\x03\x04 not a zip archive")
    monkeypatch.setattr(knowledge, "MODEL_DIR", tmp_path)
    knowledge.arrays_for.cache_clear()
    try:
        keys, ids, weights = knowledge.arrays_for("go", 9)
    finally:
        knowledge.arrays_for.cache_clear()
    assert len(keys) == len(ids) == len(weights) == 0
    assert "cannot be read" in caplog.text


def test_train_priors_holds_out_only_games_of_the_named_folder(tmp_path, capsys):
    """``fit --held-out-from``: the held-out tenth is drawn from that folder's games alone
    (our own searches), the other folders only teach; the file is written and reads back."""
    import random
    import sys
    from pathlib import Path
    import sgf
    from gtp_engine.game import Game
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import train_priors
    for folder, count in (("ours", 3), ("theirs", 7)):
        (tmp_path / folder).mkdir()
        for seed in range(count):
            game, rng = Game("go", 7), random.Random(f"{folder}{seed}")
            for _ in range(16):
                moves = game.legal_moves(game.to_move, skip_own_eyes=True)
                game.play(game.to_move, rng.choice(moves) if moves else None)
            (tmp_path / folder / f"{seed}.sgf").write_bytes(sgf.game_to_sgf(game))
    out = tmp_path / "go.npz"
    code = train_priors.main(["fit", str(tmp_path / "ours"), str(tmp_path / "theirs"),
                              "--variant", "go", "--min-count", "2", "--iterations", "20",
                              "--held-out-from", str(tmp_path / "ours"), "--out", str(out)])
    assert code == 0
    log = capsys.readouterr().err
    # 10 games of 16 placements at most: one game of "ours" held out, nine learned from
    held = int(log.split(" positions to learn from, ")[1].split(" held out")[0])
    learned = int(log.split(" games: ")[1].split(" positions")[0])
    assert 0 < held <= 16 and learned > 8 * 14
    model = knowledge.Model.load(out)
    assert model.sizes == (7,) and "held out" in model.info
    # a folder that holds no game of the set cannot be held out from
    code = train_priors.main(["fit", str(tmp_path / "theirs"), "--variant", "go",
                              "--held-out-from", str(tmp_path / "ours")])
    assert code == 2


def test_train_priors_reads_sgf_files_in_any_case_and_learns_from_a_sample(tmp_path, capsys):
    """Collections of records name their files ``.SGF`` as often as ``.sgf``: ``fit`` reads
    both, in subfolders too, and nothing else; ``--sample N`` learns from N files drawn by
    ``--seed``, the same N for the same seed."""
    import random
    import sys
    from pathlib import Path
    import sgf
    from gtp_engine.game import Game
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import train_priors
    (tmp_path / "deeper").mkdir()
    names = ["a.SGF", "b.sgf", "c.Sgf", "deeper/d.SGF", "deeper/e.sgf"]
    for seed, name in enumerate(names):
        game, rng = Game("go", 7), random.Random(seed)
        for _ in range(16):
            moves = game.legal_moves(game.to_move, skip_own_eyes=True)
            game.play(game.to_move, rng.choice(moves) if moves else None)
        (tmp_path / name).write_bytes(sgf.game_to_sgf(game))
    (tmp_path / "notes.txt").write_text("(;GM[1]SZ[7];B[aa])")
    (tmp_path / "folder.sgf").mkdir()               # a folder so named is not a record
    found = train_priors.sgf_paths([str(tmp_path)])
    assert [Path(path).relative_to(tmp_path).as_posix() for path in found] == sorted(names)
    drawn = train_priors.sgf_paths([str(tmp_path)], sample=3, seed=7)
    assert len(drawn) == 3 and set(drawn) <= set(found)
    assert drawn == train_priors.sgf_paths([str(tmp_path)], sample=3, seed=7)
    assert {tuple(train_priors.sgf_paths([str(tmp_path)], sample=3, seed=seed))
            for seed in range(20)} != {tuple(drawn)}
    assert train_priors.sgf_paths([str(tmp_path)], sample=9) == found
    assert train_priors.main(["fit", str(tmp_path), "--variant", "go", "--sample", "3",
                              "--seed", "7", "--min-count", "2", "--iterations", "5"]) == 0
    assert capsys.readouterr().err.startswith("3 games: ")
    assert train_priors.main(["fit", str(tmp_path), "--variant", "go", "--min-count", "2",
                              "--iterations", "5"]) == 0
    assert capsys.readouterr().err.startswith("5 games: ")
    # --start-from: the shipped model corrected by these games keeps its shapes
    shipped = knowledge.MODEL_DIR / "go.npz"
    out = tmp_path / "corrected.npz"
    assert train_priors.main(["fit", str(tmp_path), "--variant", "go", "--min-count", "2",
                              "--iterations", "5", "--start-from", str(shipped),
                              "--out", str(out)]) == 0
    corrected, earlier = knowledge.Model.load(out), knowledge.Model.load(shipped)
    assert "from go.npz" in corrected.info
    assert set(earlier.pat12) <= set(corrected.pat12)
    notes = tmp_path / "notes.txt"
    assert train_priors.main(["fit", str(tmp_path), "--variant", "go", "--start-from",
                              str(notes), "--out", str(tmp_path / "none.npz")]) == 2
    assert "--start-from" in capsys.readouterr().err and not (tmp_path / "none.npz").exists()


def test_train_priors_learns_and_scores_one_players_moves(tmp_path, capsys):
    """``fit --player`` learns only the moves of the side whose PB/PW names that player (in
    either colour; both sides where both name it), ``score`` measures model files on them; a
    player in no game is an error."""
    import random
    import sys
    from pathlib import Path
    import sgf
    from gtp_engine.game import Game
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import train_priors
    folder = tmp_path / "match"
    folder.mkdir()
    pachi_moves = placements = 0
    for seed in range(10):
        game, rng = Game("go", 7), random.Random(seed)
        for _ in range(16):
            moves = game.legal_moves(game.to_move, skip_own_eyes=True)
            game.play(game.to_move, rng.choice(moves) if moves else None)
        pachi = Color.WHITE if seed % 2 else Color.BLACK
        names = {pachi: "Pachi 12.90 (B)", pachi.opponent: "vargo 0.1.0 (A)"}
        pachi_moves += sum(1 for m in game.moves if m.point is not None and m.color == pachi)
        placements += sum(1 for m in game.moves if m.point is not None)
        (folder / f"{seed}.sgf").write_bytes(sgf.game_to_sgf(
            game, black_name=names[Color.BLACK], white_name=names[Color.WHITE]))
    selfplay, rng = Game("go", 7), random.Random(99)   # both sides one engine: both count
    for _ in range(16):
        moves = selfplay.legal_moves(selfplay.to_move, skip_own_eyes=True)
        selfplay.play(selfplay.to_move, rng.choice(moves) if moves else None)
    (folder / "selfplay.sgf").write_bytes(sgf.game_to_sgf(
        selfplay, black_name="vargo 0.1.0 (A)", white_name="vargo 0.1.0 (B)"))
    vargo_moves = placements - pachi_moves + sum(1 for m in selfplay.moves if m.point is not None)
    out = tmp_path / "pachi.npz"
    assert train_priors.main(["fit", str(folder), "--variant", "go", "--player", "pachi",
                              "--min-count", "2", "--iterations", "20", "--out", str(out)]) == 0
    log = capsys.readouterr().err
    learned = int(log.split(" games: ")[1].split(" positions")[0])
    held = int(log.split(" positions to learn from, ")[1].split(" held out")[0])
    assert learned + held == pachi_moves
    assert "(pachi's moves)" in knowledge.Model.load(out).info
    assert train_priors.main(["score", str(out), str(tmp_path / "missing.npz"), "--games",
                              str(folder), "--variant", "go", "--player", "Pachi"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"10 games, {pachi_moves} positions"
    assert lines[1].startswith(f"{out}: played move first ") and "log-likelihood -" in lines[1]
    assert lines[2].startswith(f"{tmp_path / 'missing.npz'}: cannot be read")
    assert train_priors.main(["score", str(out), "--games", str(folder), "--variant", "go",
                              "--player", "vargo"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"11 games, {vargo_moves} positions"
    assert train_priors.main(["score", str(out), "--games", str(folder), "--variant", "go",
                              "--player", "gnugo"]) == 2


def test_the_bonus_near_the_last_move_is_smaller_where_a_model_weighs_that_distance_too():
    from gtp_engine.game import Game
    from gtp_engine.search import params as search_params
    game = Game("go", 9)
    near = (K.P_PRIOR_NEAR1, K.P_PRIOR_NEAR2, K.P_PRIOR_NEAR3)
    assert tuple(make_params(game)[list(near)]) == search_params.PRIOR_NEAR
    assert tuple(make_params(game, learned=True)[list(near)]) == \
        search_params.PRIOR_NEAR_WITH_MODEL
    assert all(a < b for a, b in zip(search_params.PRIOR_NEAR_WITH_MODEL,
                                     search_params.PRIOR_NEAR))
    assert make_params(game, learned=True, prior_near1=30)[K.P_PRIOR_NEAR1] == 30
    # a model switched off (an ablation) gives no priors: the full bonus is back
    assert tuple(make_params(game, learned=True, prior_learned=0)[list(near)]) == \
        search_params.PRIOR_NEAR


@pytest.mark.parametrize("variant, size", [("go", 9), ("go", 7), ("terrain", 9), ("terrain", 7)])
def test_the_search_uses_the_smaller_bonus_exactly_where_a_model_gives_priors(
        variant, size, monkeypatch):
    from gtp_engine.game import Game
    from gtp_engine.search import player as search_player
    seen = []

    def spy(game, **kwargs):
        seen.append(kwargs.get("learned", False))
        return make_params(game, **kwargs)

    monkeypatch.setattr(search_player, "make_params", spy)
    game = Game(variant, size)
    search_player.SearchPlayer(search_player.SearchSettings(playouts=20, threads=1)).search(
        game, Color.BLACK, playouts=20)
    has_model = knowledge.knows_anything(knowledge.arrays_for(variant, size))
    assert has_model == ((variant, size) in {("go", 9), ("terrain", 9)})   # shipped sizes
    assert seen == [has_model]
