"""The fight reader of the search's priors (``kernels.read_fight``, ``kernels.read_fights``):
the move that kills an enemy group of two or three liberties, and the move that saves an own
one, get virtual wins at expansion; a group that needs no move, a two-eyed group and a read
that runs out of budget get nothing. Checked on the kernels (the pure-Python mirror, the same
source as the compiled ones) and through the player."""

import numpy as np

from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.rules.terrain_map import TerrainMap
from gtp_engine.search import _backend
from gtp_engine.search.params import make_params
from gtp_engine.search.player import _ZOBRIST, SearchPlayer, SearchSettings
from gtp_engine.search.tree import Workspace

from test_search import cell as _cell, setup

K = _backend.mirror

# White's E5 has two liberties, E4 and F5. Black's E4 kills it: the run to F5 has one liberty
# (F4). Black's F5 does not: the run to E4 gets three.
TWO_LIBERTIES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X X . . .
    . . . X O . X . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""
# A capturing race on the lower edge: White's A2-C2 (liberties A1, B1, C1) against Black's
# D2-F2 (D1, E1, F1); the groups around them are strong. Whoever moves first wins it by
# filling the other's liberties from the outside (B1, C1 for Black; D1, E1, F1 for White).
RACE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X . . . . .
    X X X O O O O . .
    X X X O O O O . .
    O O O X X X O . .
    . . . . . . O . ."""
# White's group in the corner has two eyes (B2, C1) and two liberties: nothing kills it.
TWO_EYES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X . . . .
    O O O O X . . . .
    O . O O X . . . .
    O O . O X . . . ."""

# White's J8 has two liberties, J7 and J9, and no way to a third whoever moves first: Black's
# J7 or J9 would take it, but it is dead already, and nothing there is urgent.
DEAD_ALREADY = """
    . . . . . . . X .
    . . . . . . . X O
    . . . . . . . X .
    . . . . . . . . X
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""
# White's B9-C9 has three liberties (A9, B8, C8) under Black's wall: moving first it keeps
# three, which the reader calls alive once attacked, but it can never reach four.
DEAD_AT_FOUR = """
    . O O X . . . . .
    . . . X . . . . .
    X X X X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""

def _vertex(game, cell):
    w = game.size + 2
    return format_vertex((cell // w - 1, cell % w - 1))


def _read_priors(game, color, last, budget=500, kernels=K, last2=None, losses=False,
                 **overrides):
    """The virtual wins ``read_fights`` gives each placement of ``color`` after ``last``
    (``last2``: the player's own previous move); with ``losses``, (visits, wins) pairs."""
    st = game.position.state.copy()
    space = Workspace(game.size)
    sx = space.scratch
    params = make_params(game, prior_read=10, read_budget=budget, **overrides)
    n = kernels._placements(st, _ZOBRIST, space.work, space.spare, space.out, sx, int(color),
                            params)
    _, cand, _, _, _ = kernels._blocks(st)
    moves = [int(sx[cand + i]) for i in range(n)]
    em = np.array(moves, np.int16)
    ef = np.zeros((n, kernels.EF_FIELDS), np.float32)
    kernels.read_fights(st, _ZOBRIST, space.work, space.spare, space.out, sx, em, ef, 0, n,
                        int(color), _cell(game, last), _cell(game, last2) if last2 else 0,
                        params)
    visits, wins = ef[:, kernels.E_PVISITS], ef[:, kernels.E_PWINS]
    if losses:
        return {_vertex(game, moves[i]): (float(visits[i]), float(wins[i]))
                for i in range(n) if visits[i] > 0}
    assert (visits == wins).all()   # wins, never losses
    return {_vertex(game, moves[i]): float(wins[i]) for i in range(n) if wins[i] > 0}


def _read(game, color, line, stone, defender, budget=500, lives_at_three=None):
    """``read_fight`` after the moves of ``line`` (``color`` first): (value, moves spent);
    the group lives at three liberties (once attacked) if it is ``color``'s, as in
    ``read_fights``, unless ``lives_at_three`` says."""
    st = game.position.state.copy()
    space = Workspace(game.size)
    sx = space.scratch
    rb = K._read_block(sx)
    for level, vertex in enumerate(line):
        sx[rb + level * K.READ_STRIDE + K.READ_WIDTH + 2] = (
            K.PASS if vertex == "pass" else _cell(game, vertex))
    value, spent = K.read_fight(st, _ZOBRIST, space.work, space.spare, space.out, sx,
                                _cell(game, stone), int(defender), len(line), int(color), budget,
                                defender == color if lives_at_three is None else lives_at_three)
    assert (st == game.position.state).all()   # the node's position is never touched
    return value, spent


def test_the_diagrams_are_what_they_say():
    for text, group, liberties in ((TWO_LIBERTIES, "E5", 2), (RACE, "A2", 3), (RACE, "D2", 3),
                                   (TWO_EYES, "A2", 2)):
        game = setup("go", text)
        st = game.position.state
        space = Workspace(game.size)
        root = int(st[K.GID, _cell(game, group)])
        assert K._group_libs(st, space.scratch, root, 5, False) == liberties


def test_the_atari_whose_run_has_one_liberty_kills_and_the_other_does_not():
    game = setup("go", TWO_LIBERTIES)
    assert _read(game, Color.BLACK, ["E4"], "E5", Color.WHITE)[0] == 0   # White to move, lost
    assert _read(game, Color.BLACK, ["F5"], "E5", Color.WHITE)[0] != 0
    assert _read_priors(game, Color.BLACK, "D5") == {"E4": 10.0}


def test_the_group_in_danger_is_saved_by_the_extension_that_reads_safe():
    game = setup("go", TWO_LIBERTIES)
    # Black to move would kill it; White's E4 gives it four liberties
    assert _read(game, Color.WHITE, ["pass"], "E5", Color.WHITE)[0] == 1   # Black to move wins
    assert _read(game, Color.WHITE, ["E4"], "E5", Color.WHITE)[0] == 0     # Black to move loses
    assert _read_priors(game, Color.WHITE, "D5") == {"E4": 10.0}


def test_the_kill_share_scales_killing_moves_and_leaves_saving_moves_whole():
    game = setup("go", TWO_LIBERTIES)
    assert _read_priors(game, Color.BLACK, "D5", read_kill_share=0.25) == {"E4": 2.5}
    assert _read_priors(game, Color.WHITE, "D5", read_kill_share=0.25) == {"E4": 10.0}
    assert _read_priors(game, Color.BLACK, "D5", read_kill_share=0) == {}


def test_an_enemy_group_dead_already_gets_no_killing_move():
    game = setup("go", DEAD_ALREADY)
    # the reads: White moving first does not live; Black's J7 leaves White to move and lost
    assert _read(game, Color.BLACK, ["pass"], "J8", Color.WHITE)[0] == 0
    assert _read(game, Color.BLACK, ["J7"], "J8", Color.WHITE)[0] == 0
    assert _read_priors(game, Color.BLACK, "H8") == {}


def test_an_enemy_group_that_cannot_reach_four_liberties_is_dead_already():
    game = setup("go", DEAD_AT_FOUR)
    assert _read(game, Color.BLACK, ["pass"], "B9", Color.WHITE, lives_at_three=True)[0] == 1
    assert _read(game, Color.BLACK, ["pass"], "B9", Color.WHITE, lives_at_three=False)[0] == 0
    assert _read(game, Color.BLACK, ["B8"], "B9", Color.WHITE)[0] == 0   # B8 would take it
    assert _read_priors(game, Color.BLACK, "D9") == {}   # but nothing there is urgent


def test_the_first_to_fill_the_outside_liberties_wins_the_race():
    game = setup("go", RACE)
    kills = _read_priors(game, Color.WHITE, "D2")
    # the race is White's to win: every outside liberty of Black's three stones kills, with
    # more wins than for a single stone since the group is larger (and as many again, since
    # the same move saves White's own three stones from the same race)
    for vertex in ("D1", "E1", "F1"):
        assert kills[vertex] == 2 * 10.0 * 1.5
        assert _read(game, Color.WHITE, [vertex], "D2", Color.BLACK)[0] == 0
    # Black's own liberties only lose the race; White's own is no kill
    assert _read(game, Color.BLACK, ["D1"], "D2", Color.BLACK)[0] == 1   # White to move wins
    # Black to move: its group dies if it plays elsewhere, and White's liberties save it
    assert _read(game, Color.BLACK, ["pass"], "D2", Color.BLACK)[0] == 1
    saves = _read_priors(game, Color.BLACK, "G2")
    assert {"B1", "C1"} <= set(saves)
    assert not {"D1", "E1", "F1"} & set(saves)


def test_a_two_eyed_group_is_never_read_dead_and_a_safe_one_gets_no_move():
    game = setup("go", TWO_EYES)
    assert _read(game, Color.WHITE, ["pass"], "A2", Color.WHITE)[0] == 0   # Black cannot kill
    assert _read_priors(game, Color.BLACK, "E3") == {}
    assert _read_priors(game, Color.WHITE, "E3") == {}


def test_a_read_beyond_its_budget_knows_nothing():
    game = setup("go", RACE)
    value, spent = _read(game, Color.WHITE, ["D1"], "D2", Color.BLACK, budget=3)
    assert value == -1 and spent == 4
    assert _read_priors(game, Color.WHITE, "D2", budget=3) == {}
    assert _read_priors(game, Color.WHITE, "D2", budget=0) == {}


def test_only_games_whose_captures_remove_stones_are_read():
    # the reader knows removal only, like the ladder reader (``reads_ladders``)
    for variant in ("loose", "goncrete", "disto"):
        game = setup(variant, TWO_LIBERTIES)
        assert _read_priors(game, Color.BLACK, "D5") == {}
    terrain = TerrainMap.from_text("/".join(["........."] * 9), forts_per_side=1)
    game = setup("terrain", TWO_LIBERTIES, terrain=terrain,
                 forts=[(Color.WHITE, "A1"), (Color.BLACK, "A9")])
    assert _read_priors(game, Color.BLACK, "D5") == {"E4": 10.0}


def test_the_compiled_reader_agrees_with_the_mirror():
    compiled = _backend.compile_now()
    for text, color, last in ((TWO_LIBERTIES, Color.BLACK, "D5"), (TWO_LIBERTIES, Color.WHITE, "D5"),
                              (RACE, Color.WHITE, "D2"), (RACE, Color.BLACK, "G2"),
                              (TWO_EYES, Color.BLACK, "E3")):
        game = setup("go", text)
        assert (_read_priors(game, color, last, kernels=compiled)
                == _read_priors(game, color, last))


# White's E5 can run to neither liberty: each run has one liberty
DEAD = TWO_LIBERTIES.replace(""". . . . X X . . .
    . . . X O . X . .
    . . . . . . . . .
    . . . . . . . . .""", """. . . . X X . . .
    . . . X O . X . .
    . . . X . X . . .
    . . . . X . . . .""")


def test_an_own_group_dead_whatever_it_does_gets_losses_on_its_liberties_if_asked():
    game = setup("go", DEAD)
    assert _read(game, Color.WHITE, ["E4"], "E5", Color.WHITE)[0] == 1   # Black kills
    assert _read(game, Color.WHITE, ["F5"], "E5", Color.WHITE)[0] == 1
    assert _read_priors(game, Color.WHITE, "D5") == {}
    priors = _read_priors(game, Color.WHITE, "D5", losses=True, prior_read_dead=25)
    assert priors == {"E4": (25.0, 0.0), "F5": (25.0, 0.0)}
    # a group that can be saved gets no losses
    assert _read_priors(setup("go", TWO_LIBERTIES), Color.WHITE, "D5", losses=True,
                        prior_read_dead=25) == {"E4": (10.0, 10.0)}


def test_with_read_own_the_fight_next_to_the_players_own_previous_move_is_read_too():
    game = setup("go", TWO_LIBERTIES)
    # the last move far away: nothing to read there
    assert _read_priors(game, Color.BLACK, "J1", last2="D5") == {}
    assert _read_priors(game, Color.BLACK, "J1", last2="D5", read_own=1) == {"E4": 10.0}
    assert _read_priors(game, Color.BLACK, "D5", last2="D5", read_own=1) == {"E4": 10.0}


# White's E5 is in atari; its escape to E4 has two liberties and Black's D4 then kills it
# (the run to F4 has one), a net no ladder reader sees
NET = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X O X . . .
    . . . . . . X . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . ."""


def test_with_read_atari_an_escape_into_a_net_reads_dead():
    game = setup("go", NET)
    assert _read(game, Color.WHITE, ["E4", "D4"], "E5", Color.WHITE)[0] == 0   # White lost
    assert _read(game, Color.WHITE, ["E4"], "E5", Color.WHITE)[0] == 1   # Black kills
    assert _read_priors(game, Color.WHITE, "D5", losses=True, prior_read_dead=25) == {}
    assert _read_priors(game, Color.WHITE, "D5", losses=True, prior_read_dead=25,
                        read_atari=1) == {"E4": (25.0, 0.0)}
    # Black's own view: the group in atari is not Black's, nothing changes
    assert _read_priors(game, Color.BLACK, "E5", read_atari=1) == {}


def _root_prior(game, color, vertex, **overrides):
    """The prior share of ``vertex`` at the root after a short search (priors are set at
    expansion: the root's come from its first simulation)."""
    settings = SearchSettings(playouts=50, threads=1, seed=0, book=False,
                              overrides=tuple(overrides.items()))
    analysis = SearchPlayer(settings).search(game, color, playouts=50)
    return next(m for m in analysis.moves if m.move == parse_vertex(vertex, 9)).prior


def test_the_player_gives_the_killing_move_its_prior_after_the_last_move():
    game = setup("go", TWO_LIBERTIES.replace("X O . X", "X . . X"))
    game.play(Color.WHITE, parse_vertex("E5", 9))   # the fight is next to the last move
    shares = {budget: {vertex: _root_prior(game, Color.BLACK, vertex, prior_read=30,
                                           read_budget=budget) for vertex in ("E4", "F5")}
              for budget in (0, 500)}
    assert shares[500]["E4"] > shares[0]["E4"]
    assert shares[500]["F5"] <= shares[0]["F5"]   # no wins of its own: a smaller share
    assert shares[500]["E4"] > 2 * shares[500]["F5"]


def test_the_reader_benchmark_tells_killing_moves_from_saving_ones():
    from scripts.bench_reader import reader_moves, targets

    game = setup("go", TWO_LIBERTIES)
    params = make_params(game, prior_read=1, read_budget=500)
    d5, e5 = _cell(game, "D5"), _cell(game, "E5")
    e4 = _cell(game, "E4")
    assert reader_moves(K, game, Color.BLACK, d5, 0, params.copy()) == ({e4: 1.0}, {})
    assert reader_moves(K, game, Color.WHITE, d5, 0, params.copy()) == ({}, {e4: 1.0})
    assert targets(K, game, d5, 0, False) == [d5, e5]   # both have three liberties or fewer
