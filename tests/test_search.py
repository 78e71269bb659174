"""The search player: tactics it must see in every game, passing and resigning, reproducibility,
the memory cap, that a search never changes the game, and that the compiled kernels and their
pure-Python mirror search alike."""

import contextlib
import random

import numpy as np
import pytest

from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from gtp_engine.rules.terrain_map import TerrainMap
from gtp_engine.search import _backend
from gtp_engine.search.params import EXPAND_DOUBLING, EXPAND_VISITS
from gtp_engine.search.player import _ZOBRIST, SearchPlayer, SearchSettings
from gtp_engine.search.tree import Workspace, bytes_per_node

import diagrams


def player(playouts=800, **settings):
    return SearchPlayer(SearchSettings(playouts=playouts, threads=1, **settings))


def setup(variant, text, komi=None, terrain=None, forts=()):
    size = len([line for line in text.strip().splitlines() if line.strip()])
    game = Game(variant, size, komi, terrain=terrain)
    for color, vertex in forts:
        game.place_fort(color, parse_vertex(vertex, size))
    diagrams.setup_game(game, text)
    return game


def cell(game, vertex):
    """The kernels' cell index of ``vertex`` on ``game``'s board."""
    row, col = parse_vertex(vertex, game.size)
    return (row + 1) * (game.size + 2) + col + 1


def best(game, color, playouts=800, seed=0):
    move, _ = player(playouts, seed=seed).genmove(game, color)
    return move


# ----------------------------------------------------------------- tactics, one per game
#: White's three stones in the middle have one liberty (A); Black's have two: E4 wins
RACE_WON_BY_CAPTURE = """
        . . . . . . .
        . . X X X . .
        . X O O O X .
        . X O X A . .
        . . X . X . .
        . . . . . . .
        . . . . . . ."""


def test_go_captures_to_win_the_race():
    game = setup("go", RACE_WON_BY_CAPTURE, komi=0.5)
    assert best(game, Color.BLACK) == parse_vertex("E4", 7)


def test_go_escapes_from_atari():
    # Black's two stones (C4 D4) have one liberty, E4; extending there makes them safe.
    game = setup("go", """
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X . . .
        . . O O . . .
        . . . . . . .
        . . . . . . .""", komi=0.5)
    assert best(game, Color.BLACK) == parse_vertex("E4", 7)


def test_loose_flips_a_group_without_a_true_liberty():
    # RULES L1/L2: White C3 or D3 leaves black B3 without a true liberty: it flips.
    game = setup("loose", """
        . . . . .
        . O O . .
        O X . . .
        . O O . .
        . . . . .""", komi=0)
    assert best(game, Color.WHITE) in (parse_vertex("C3", 5), parse_vertex("D3", 5))


def test_goncrete_annihilation_wins_at_once():
    # RULES G4: White B1 flips every black stone; the game ends, won.
    game = setup("goncrete", """
        X X X
        X X X
        X . O""", komi=0.5)
    assert best(game, Color.WHITE, playouts=100) == parse_vertex("B1", 3)


def test_disto_never_makes_its_own_person_a_meal():
    # White A3 is a meal, so Black's group around it is a glutton: White may not fill its last
    # liberty A1 (D2). Black A1 is legal (D3) but makes Black's own six stones a meal.
    game = setup("disto", """
        O O . . .
        X X O . .
        O X O . .
        X X O . .
        . O . . .""", komi=-2.5)
    for seed in range(3):
        assert best(game, Color.BLACK, playouts=400, seed=seed) != parse_vertex("A1", 5)


def test_terrain_go_takes_the_region_of_an_enemy_fort():
    # White's fort on B2 sits in Black's corner, still open at C4: the fort is worth 12 to
    # Black if the corner ends as Black's territory (T7), and that decides the game (komi
    # -12.5: Black is behind on the board alone). Black keeps the corner and wins.
    terrain = TerrainMap.from_text("/".join(["......."] * 7), forts_per_side=1, fort_value=12)
    game = setup("terrain", """
        . . . . . . .
        . . . . . . .
        O O O O . . .
        . . . X O . .
        X X . X O . .
        . . . X O . .
        . . . X O . .""", komi=-12.5, terrain=terrain, forts=[(Color.WHITE, "B2"), (Color.BLACK, "A1")])
    assert game.score().winner == Color.WHITE
    move, analysis = player(1500).genmove(game, Color.BLACK)
    assert move[1] <= 2 and move[0] <= 3          # a move in the corner, not elsewhere
    assert analysis.winrate > 0.8
    assert analysis.ownership[1 * 7 + 1] > 0.8    # the fort's point ends in Black's area


# ----------------------------------------------------------------- moves the tree must not starve
LOOSE_STARVED = "B4 D4 B3 E4 C3 C1 B1 A5 E1 C2 E3 C5 A1 A2 E2 E5 A3 B2 D3 B5 C4"


def test_the_tree_does_not_starve_the_only_winning_move():
    # Issue 17: White A4 flips Black and wins by 24; a pass loses by 24. The search gave the
    # pass all 10,000 simulations: A4's prior took it for a stone without liberties (its flip
    # was not counted), and AMAF (White's A4 played later, after Black's reply) buried it.
    game = Game("loose", 5, 0)
    for i, vertex in enumerate(LOOSE_STARVED.split()):
        game.play(Color.BLACK if i % 2 == 0 else Color.WHITE, parse_vertex(vertex, 5))
    analysis = player(10000).search(game, Color.WHITE)
    assert analysis.best.move == parse_vertex("A4", 5) and analysis.winrate > 0.9


def _select_between(losing_rate, amaf_rate):
    """Kernel ``select`` at a node with two children: a tried one winning ``losing_rate`` of
    10,000 simulations, and an untried one its prior likes (42 of 47) that AMAF has seen win
    ``amaf_rate`` of 8,876 times (the starved A4 above). Returns the chosen child, 1 or 2."""
    from gtp_engine.search.params import make_params
    ka = _backend.compile_now()
    ti = np.zeros((ka.NI_FIELDS, 2), np.int32)
    tf = np.zeros((ka.NF_FIELDS, 2), np.float64)
    ti[ka.NI_FIRST, 0], ti[ka.NI_COUNT, 0] = 0, 2
    em = np.array([ka.PASS, 8], np.int16)
    ec = np.array([1, ka.NO_CHILD], np.int32)   # the pass has a node, the untried move none
    ef = np.zeros((2, ka.EF_FIELDS), np.float32)
    ea = np.array([0.0, 8876 * amaf_rate])
    tf[ka.NF_VISITS, 0] = 10000
    tf[[ka.NF_VISITS, ka.NF_WINS, ka.NF_VALUE], 1] = (10000, 10000 * losing_rate,
                                                      10000 * losing_rate)
    ef[0, [ka.E_PVISITS, ka.E_PWINS]] = (10, 5)
    ef[1, [ka.E_AVISITS, ka.E_PVISITS, ka.E_PWINS]] = (8876, 47, 42)
    return 1 + int(ka.select(ti, tf, ec, ef, ea, 0, make_params(Game("loose", 5, 0))))


def test_a_losing_choice_yields_to_a_move_the_priors_like_that_amaf_buried():
    assert _select_between(0.021, 0.004) == 2
    # once the tried move is not losing, AMAF's verdict stands: the untried move waits
    assert _select_between(0.45, 0.004) == 1


# ----------------------------------------------------------------- score as well as winning
def test_a_simulations_value_keeps_any_win_above_any_loss_and_grows_with_the_margin():
    from gtp_engine.search.params import make_params
    ka = _backend.compile_now()
    params = make_params(Game("go", 9))
    values = [ka.score_value(win, margin, params) for win, margin in
              [(0.0, -81.0), (0.0, -30.0), (0.0, -0.5), (1.0, 0.5), (1.0, 30.0), (1.0, 81.0)]]
    assert values == sorted(values) and len(set(values)) == 6
    assert values[2] < 0.5 < values[3]
    assert ka.score_value(1.0, 81.0, params) == 1.0 and ka.score_value(0.0, -81.0, params) == 0.0
    assert ka.score_value(0.0, -3.0, make_params(Game("go", 9), score_weight=0.0)) == 0.0


def test_a_target_margin_values_reaching_it_and_never_lifts_a_loss_above_a_win():
    """With a target of B+10 (weight 0.2): a win by more than 10 is worth 0.2 more than a win
    by less, a tie at the target half that; a loss stays below any win. White's target (W+10)
    is Black's margin -10: White's value rises past it. Without a target nothing changes."""
    from gtp_engine.search.params import make_params
    ka = _backend.compile_now()
    game = Game("go", 9)
    plain = make_params(game)
    black = make_params(game, target_margin=10.0)
    assert black[ka.P_TARGET_WEIGHT] == 0.2 and plain[ka.P_TARGET_WEIGHT] == 0.0
    small, big = ka.score_value(1.0, 9.5, black), ka.score_value(1.0, 10.5, black)
    assert big - small == pytest.approx(0.2 + 0.05 * 1.0 / 81, abs=1e-9)
    assert ka.score_value(1.0, 10.0, black) == pytest.approx((small + big) / 2, abs=1e-3)
    assert ka.score_value(0.0, -0.5, black) < 0.5 < small
    white = make_params(game, target_margin=-10.0)
    assert (1 - ka.score_value(1.0, -10.5, white)) - (1 - ka.score_value(1.0, -9.5, white)) \
        == pytest.approx(0.2 + 0.05 / 81, abs=1e-9)
    for win, margin in ((1.0, 3.5), (0.0, -20.5), (1.0, 60.0)):
        assert ka.score_value(win, margin, plain) == \
            ka.score_value(win, margin, make_params(game, target_margin=0.0))
    assert make_params(game, target_margin=10.0, target_weight=0.0)[ka.P_TARGET_WEIGHT] == 0.0


def test_the_target_margin_follows_the_same_colours_last_search():
    """The target comes from the colour's own previous genmove: none below TARGET_FROM, half
    the expected lead from TARGET_FULL on, White's as a negative margin of Black's; none after
    the opponent's pass or when that search was not the one two moves ago; far behind, to
    lose by less than the loss expected (``target_behind`` 1), or not at all with it 0; with
    ``target_behind_lead`` L, also at any win rate below a half once the loss expected is L."""
    from gtp_engine.search import player as player_module
    search = player()
    game = Game("go", 9, 7.5)
    for vertex in ("E5", "C3"):
        game.play(game.to_move, parse_vertex(vertex, 9))
    history = game.history_id
    search._outlook = {(history, Color.BLACK): (0, 0.97, 21.0),
                       (history, Color.WHITE): (1, 0.9, 8.0)}
    assert search.target_margin(game, Color.BLACK) == 10.0
    game.play(Color.BLACK, parse_vertex("G7", 9))
    assert search.target_margin(game, Color.WHITE) == -2.0   # halfway up the ramp: a quarter
    search._outlook[(history, Color.WHITE)] = (1, 0.8, 30.0)
    assert search.target_margin(game, Color.WHITE) == 0.0
    game.play(Color.WHITE, None)
    search._outlook[(history, Color.BLACK)] = (2, 0.99, 30.0)
    assert search.target_margin(game, Color.BLACK) == 0.0    # after a pass: the exact result
    assert search.target_margin(Game("go", 9), Color.BLACK) == 0.0
    handicap = Game("go", 9, 0.5)
    handicap.place_handicap([parse_vertex(v, 9) for v in ("C3", "G7", "G3")])
    handicap.play(Color.WHITE, parse_vertex("E5", 9))
    handicap.play(Color.BLACK, parse_vertex("C7", 9))
    search._outlook = {(handicap.history_id, Color.WHITE): (0, 0.02, -31.4)}
    assert search.target_margin(handicap, Color.WHITE) == 31.0   # Black's margin: lose by < 31
    search._outlook[(handicap.history_id, Color.WHITE)] = (0, 0.2, -31.4)
    assert search.target_margin(handicap, Color.WHITE) == 0.0
    by_lead = SearchPlayer(SearchSettings(playouts=100, overrides=(("target_behind_lead", 20.0),)))
    for winrate, lead, wanted in ((0.2, -31.4, 31.0), (0.45, -20.0, 20.0), (0.2, -19.0, 0.0),
                                  (0.55, -31.4, 0.0)):
        by_lead._outlook = {(handicap.history_id, Color.WHITE): (0, winrate, lead)}
        assert by_lead.target_margin(handicap, Color.WHITE) == wanted, (winrate, lead)
    game.play(Color.BLACK, parse_vertex("C7", 9))
    search._outlook = {(game.history_id, Color.BLACK): (len(game.moves) - 2, 0.1, -12.0)}
    assert search.target_margin(game, Color.BLACK) == -12.0
    quiet = SearchPlayer(SearchSettings(playouts=100, overrides=(("target_behind", 0.0),)))
    quiet._outlook = dict(search._outlook)
    assert quiet.target_margin(game, Color.BLACK) == 0.0
    assert player_module.TARGET_FROM < player_module.TARGET_FULL


def test_a_won_position_plays_for_the_larger_win_and_says_so():
    """Black ahead (its previous search, two moves ago, saw 99% and a lead of 9): the search
    plays for B+4 (half the lead, whole points), the analysis carries it, the summary names
    it, and this genmove becomes the outlook the next one reads."""
    game = setup("go", """
        . X . O .
        X X . O O
        . X . O .
        X X . O O
        . X . O .
    """, komi=0.5)
    search = player(playouts=400, seed=3)
    search._outlook = {(game.history_id, Color.BLACK): (len(game.moves) - 2, 0.99, 9.0)}
    move, analysis = search.genmove(game, Color.BLACK)
    assert analysis.target_margin == 4.0
    assert "win by more than 4" in SearchPlayer.summary(analysis)
    assert search._outlook[(game.history_id, Color.BLACK)][0] == len(game.moves)


def test_when_every_move_loses_the_tree_prefers_the_smaller_loss():
    """Two children that lost every one of their 1,000 simulations, one by 5 points, one by 60:
    the selection goes to the smaller loss (it went by the result alone, a tie)."""
    from gtp_engine.search.params import make_params
    ka = _backend.compile_now()
    params = make_params(Game("go", 9))
    ti = np.zeros((ka.NI_FIELDS, 3), np.int32)
    tf = np.zeros((ka.NF_FIELDS, 3), np.float64)
    ti[ka.NI_FIRST, 0], ti[ka.NI_COUNT, 0] = 0, 2
    ti[ka.NI_MOVE, 1:] = (12, 13)
    em = np.array([12, 13], np.int16)
    ec = np.array([1, 2], np.int32)
    ef = np.zeros((2, ka.EF_FIELDS), np.float32)
    tf[ka.NF_VISITS, 0] = 2000
    for child, margin in ((1, 60.0), (2, 5.0)):   # Black's margins: the children are White's moves
        tf[ka.NF_VISITS, child] = 1000
        ef[child - 1, [ka.E_PVISITS, ka.E_PWINS]] = (10, 5)
        tf[ka.NF_SCORE, child] = 1000 * margin
        tf[ka.NF_VALUE, child] = 1000 * (1.0 - ka.score_value(1.0, margin, params))
    assert int(ec[ka.select(ti, tf, ec, ef, np.zeros(2), 0, params)]) == 2


# ----------------------------------------------------------------- passing and resigning
def test_passes_when_the_opponent_passed_and_the_board_as_it_stands_wins():
    game = setup("go", """
        . X O .
        . X O .
        . X O .
        . X O .""", komi=0.5)
    game.play(Color.BLACK, None)
    move, _ = player(300).genmove(game, Color.WHITE)
    assert move is None   # White wins by komi: two passes end it


DISTO_END = """
    O O . X O X O
    X X O . O X O
    X O O O X O X
    X X X O X . O
    O O O X O X X
    O X X X X O O
    . X . X O O X"""   # a self-play ending: White wins 17.5 to 12 if both pass now


def test_the_tree_sees_a_pass_that_ends_the_game_and_wins():
    # Every white placement left feeds Black or makes a white meal, so White's only good move
    # after Black's pass is to pass too. A pass has no AMAF statistics and the selection no
    # exploration term, so the tree only finds it through the pass's prior: the exact result.
    game = setup("disto", DISTO_END, komi=2.5)
    assert game.score().winner == Color.WHITE
    game.play(Color.BLACK, None)
    analysis = player(1000).search(game, Color.WHITE)
    assert analysis.best.move is None and analysis.winrate > 0.95
    # and so Black, one move earlier, sees that passing loses (it had read a win here, never
    # having tried White's pass)
    game.undo()
    analysis = player(1000).search(game, Color.BLACK)
    assert analysis.winrate < 0.1


def test_a_hopeless_game_is_passed_out_only_in_answer_to_a_pass():
    """Every move loses and the search likes the pass best: while the opponent plays on, the
    most visited placement is played (a pass would hand the winner free moves in our area:
    the engine passed six times while GNU Go took every stone); after its pass, we pass."""
    from gtp_engine.search.player import Analysis, MoveInfo
    game = setup("go", """
        X X X . .
        X X X . .
        X X X X X
        . X X O O
        X X X O .""", komi=0.5)
    game.play(Color.BLACK, parse_vertex("D5", 5))
    e5 = parse_vertex("E5", 5)
    analysis = Analysis(Color.WHITE, 5, moves=[
        MoveInfo(None, 900, 0.0, 0.1, -20.5, []),
        MoveInfo(e5, 100, 0.0, 0.1, -21.5, [e5])], simulations=1000,
        ownership=[1.0] * 25)
    p = player(100)
    assert p.decide(game, Color.WHITE, analysis) == e5
    game.play(Color.WHITE, e5)
    game.play(Color.BLACK, None)
    analysis.moves[1] = MoveInfo(parse_vertex("E4", 5), 100, 0.0, 0.1, -21.5, [])
    assert p.decide(game, Color.WHITE, analysis) is None


def test_does_not_pass_while_the_opponent_could_use_the_move():
    # Move 29 of a game against GNU Go: Black leads as the board stands (the open top counts
    # as Black's, it touches only black stones) and its best move gains nothing on that count,
    # but a pass hands White the move, and White invades the top. Black passed here, and lost.
    game = setup("go", """
        . . . . . . . . .
        . X . . . . . X .
        . . . . . . . . .
        X X X X X . . X .
        O X O O O X X . .
        O O O . . O O X .
        . . . O . O . O X
        . . . . . . . O X
        . . . . . . . O .""", komi=7.5)
    assert game.score().winner == Color.BLACK
    for seed in range(2):
        assert best(game, Color.BLACK, playouts=4000, seed=seed) is not None


def test_never_passes_into_a_lost_loose_tie():
    # Equal stones with komi 0: the player of the final pass loses (L5), so after Black's pass
    # White must not pass while a placement is left.
    game = setup("loose", """
        . . .
        X . O
        . . .""", komi=0)
    game.play(Color.BLACK, None)
    move, _ = player(300).genmove(game, Color.WHITE)
    assert move is not None


#: Black's group has three single-point eyes (A5 B3 A1), White's two (E5 E1): where stones
#: score and eyes do not (Loose, Disto), each side's eye beyond two is a point left on the board
SPARE_EYES = """
    . X X O .
    X X X O O
    X . X O O
    X X X O O
    . X X O ."""


def test_a_spare_eye_is_one_beyond_the_two_its_groups_need():
    K = _backend.mirror
    game = setup("loose", SPARE_EYES)
    st = game.position.state
    for vertex in ("A5", "B3", "A1"):
        assert K.spare_eye(st, cell(game, vertex), int(Color.BLACK))
        assert K.skipped_eye(st, cell(game, vertex), int(Color.BLACK), 1)
        assert not K.skipped_eye(st, cell(game, vertex), int(Color.BLACK), 2)
    for vertex in ("E5", "E1"):
        assert not K.spare_eye(st, cell(game, vertex), int(Color.WHITE))
        assert K.skipped_eye(st, cell(game, vertex), int(Color.WHITE), 2)
        assert not K.skipped_eye(st, cell(game, vertex), int(Color.WHITE), 0)
    game.play(Color.BLACK, parse_vertex("B3", 5))   # two eyes left: both needed now
    st = game.position.state
    assert not any(K.spare_eye(st, cell(game, v), int(Color.BLACK)) for v in ("A5", "A1"))


#: Disto: white A1 is a meal, so Black's big group is a glutton; it has two eyes (A5 C5) and
#: the liberty E3, which White may never take (D2). With A1 black it is no glutton.
DISTO_GLUTTON_EYES = """
    . X . X O
    X X X X O
    X X X X .
    X X X X O
    {a1} X X X O"""


def test_a_disto_glutton_needs_no_eye_so_each_of_its_eyes_is_spare():
    """A glutton lives on one liberty of any kind: each eye is spare while the group keeps
    another liberty, and ``decide`` fills them in place of a pass, down to the last liberty.
    The same group as no glutton keeps its two eyes."""
    from gtp_engine.search.player import Analysis, MoveInfo
    K = _backend.mirror
    eyes = [parse_vertex(v, 5) for v in ("A5", "C5")]
    plain = setup("disto", DISTO_GLUTTON_EYES.format(a1="X"))
    assert not any(K.spare_eye(plain.position.state, cell(plain, v), int(Color.BLACK))
                   for v in ("A5", "C5"))
    game = setup("disto", DISTO_GLUTTON_EYES.format(a1="O"), komi=-20)
    assert all(K.spare_eye(game.position.state, cell(game, v), int(Color.BLACK))
               for v in ("A5", "C5"))
    analysis = Analysis(Color.BLACK, 5, moves=[MoveInfo(None, 900, 1.0, 0.1, 25.0, [])],
                        simulations=1000, ownership=[1.0] * 25)
    filled = []
    for _ in range(3):
        game.play(Color.WHITE, None)
        move = player(100).decide(game, Color.BLACK, analysis)
        if move is None:
            break
        filled.append(move)
        game.play(Color.BLACK, move)
    assert sorted(filled) == sorted(eyes)   # both eyes filled, then a pass: E3 is left
    st = game.position.state
    assert st[K.GLIBS, int(st[K.GID, cell(game, "B5")])] == 1   # E3: alive, as a glutton


def test_only_solid_eyes_count_as_the_two_a_group_keeps():
    """White's C2 holds a diagonal of Black's B3: still an eye, but one White could make
    false; so B3 may be filled (A5 and A1 stay, both solid), while A5 or A1 may not (B3 would
    be one of the two left)."""
    K = _backend.mirror
    game = setup("loose", SPARE_EYES.replace("X X X O O\n    . X X O .", "X X O O O\n    . X X O ."))
    st = game.position.state
    black = int(Color.BLACK)
    assert K.is_own_eye(st, cell(game, "B3"), black) and not K.solid_eye(st, cell(game, "B3"), black)
    assert K.solid_eye(st, cell(game, "A5"), black) and K.solid_eye(st, cell(game, "A1"), black)
    assert K.spare_eye(st, cell(game, "B3"), black)
    assert not K.spare_eye(st, cell(game, "A5"), black)
    assert not K.spare_eye(st, cell(game, "A1"), black)


def test_every_game_has_a_row_of_settings_and_each_names_a_tunable_in_its_range():
    from gtp_engine.rules import ALL_RULES
    from gtp_engine.search import params
    K = _backend.mirror
    assert set(params.GAME_SETTINGS) == {rules.name for rules in ALL_RULES}
    for variant, row in params.GAME_SETTINGS.items():
        made = params.make_params(Game(variant, 9))
        for name, value in row.items():
            assert params.check_tunable(name, value) == value
            assert made[getattr(K, "P_" + name.upper())] == value
        # an override still wins over the row
        assert params.make_params(Game(variant, 9), prob_nlib=7)[K.P_PROB_NLIB] == 7


def test_only_the_games_where_eyes_score_nothing_search_spare_eye_fills_and_only_when_asked():
    from gtp_engine.search.params import make_params
    K = _backend.mirror
    for variant in ("go", "loose", "goncrete", "disto", "terrain"):
        assert make_params(Game(variant, 9))[K.P_SKIP_EYES] == 1   # the default: never
        assert make_params(Game(variant, 9), spare_eyes=1)[K.P_SKIP_EYES] == \
            (2 if variant in ("loose", "disto") else 1)


@pytest.mark.parametrize("variant", ["loose", "disto"])
def test_fills_its_spare_eye_before_passing_where_stones_score(variant):
    # Black 12 stones, White 8 with komi 4 (Loose komi is even): Black wins by filling one of
    # its three eyes, and after White's pass a pass would leave that point on the board
    # (the search's own fills, ``spare_eyes``; by default only ``decide``'s, below)
    game = setup(variant, SPARE_EYES, komi=4)
    spare = {parse_vertex(v, 5) for v in ("A5", "B3", "A1")}

    def best_filling(color):
        return player(2000, overrides=(("spare_eyes", 1),)).genmove(game, color)[0]
    assert best_filling(Color.BLACK) in spare
    game.play(Color.WHITE, None)
    assert best_filling(Color.BLACK) in spare
    # White's eyes are both needed: filling one would give the group away
    game.play(Color.BLACK, parse_vertex("B3", 5))
    assert best_filling(Color.WHITE) not in {parse_vertex(v, 5) for v in ("E5", "E1")}


@pytest.mark.parametrize("variant, fills", [("loose", True), ("disto", True), ("go", False)])
def test_a_pass_gives_way_to_a_spare_eye_fill_where_eyes_score_nothing(variant, fills):
    """Won by far whatever happens, after the opponent's pass: the search's pass is right, but
    where stones score and eyes do not, the spare eyes are filled first, one a turn, and only
    the two each group needs are left to pass with."""
    from gtp_engine.search.player import Analysis, MoveInfo
    game = setup(variant, SPARE_EYES, komi=-20)
    game.play(Color.WHITE, None)
    analysis = Analysis(Color.BLACK, 5, moves=[MoveInfo(None, 900, 1.0, 0.1, 25.0, [])],
                        simulations=1000, ownership=[1.0] * 25)
    move = player(100).decide(game, Color.BLACK, analysis)
    spare = {parse_vertex(v, 5) for v in ("A5", "B3", "A1")}
    assert (move in spare) if fills else move is None
    if fills:
        game.play(Color.BLACK, move)
        game.play(Color.WHITE, None)
        assert player(100).decide(game, Color.BLACK, analysis) is None   # two eyes: both needed


def test_in_a_lost_game_passes_where_the_search_finds_the_pass_loses_least():
    """Disto, behind: the search's most visited move is the pass, losing by 3.5, its best
    placement (feeding an own group) by 19.2: pass, not a placement that throws stones away;
    but first the pass gives way to the fill of C1, an eye of a glutton that keeps the liberty
    A1 (a stone more, 13 to 17.5). By a point or two less the pass is no clear gain, and the
    placement is played."""
    from gtp_engine.search.player import Analysis, MoveInfo
    game = setup("disto", DISTO_END, komi=2.5)
    b1, c1 = parse_vertex("B1", 7), parse_vertex("C1", 7)
    analysis = Analysis(Color.BLACK, 7, moves=[
        MoveInfo(None, 38824, 0.0, 0.1, -3.5, []),
        MoveInfo(b1, 260, 0.0, 0.1, -19.2, [b1])], simulations=40000,
        ownership=[0.0] * 49)
    assert player(100).decide(game, Color.BLACK, analysis) == c1
    filled = game.copy()
    filled.play(Color.BLACK, c1)
    assert (filled.score().black, filled.score().white) == (13, 17.5)
    filled.play(Color.WHITE, None)
    assert player(100).decide(filled, Color.BLACK, analysis) is None   # nothing left to fill
    analysis.moves[1] = MoveInfo(b1, 260, 0.0, 0.1, -4.5, [b1])
    assert player(100).decide(game, Color.BLACK, analysis) == b1


#: Black's D3 would put every black stone in atari (E3 left): in Goncrete White's capture would
#: flip them all and end the game (G4)
GONCRETE_SELF_ANNIHILATION = """
    . . . . .
    . O O O .
    O X X . .
    . O O O .
    . . . . ."""


def test_a_goncrete_self_atari_of_every_own_stone_gets_the_annihilations_weight_as_losses():
    from test_ladders import _kit
    from gtp_engine.search import patterns
    from gtp_engine.search.params import PRIOR_ANNIHILATE, make_params
    K = _backend.mirror

    def visits(variant):
        game = setup(variant, GONCRETE_SELF_ANNIHILATION)
        st, s = _kit(game)
        pv, pw, _, _ = K.prior(st, _ZOBRIST, s.work, s.spare, s.out, s.scratch,
                               cell(game, "D3"), int(Color.BLACK), 0, 0, make_params(game),
                               patterns.table(), np.zeros(K.MAX_FEATURES, np.int32))
        return pv, pw
    (go_visits, go_wins), (goncrete_visits, goncrete_wins) = visits("go"), visits("goncrete")
    assert goncrete_wins == go_wins
    assert goncrete_visits == go_visits + PRIOR_ANNIHILATE


#: Disto: white A1 is a meal, so Black's group beside it is a glutton; White's C1 put it in atari
#: at C2, where White may never play (D2). With A1 black instead, the same group is no glutton.
#: With D2 empty, C2 gives the group two liberties; with D2 white, one (C3).
DISTO_GLUTTON_IN_ATARI = """
    . . . . .
    . . . . .
    O O . . .
    X X . {d2} .
    {a1} X O . ."""


def test_a_disto_glutton_in_atari_is_not_a_group_the_priors_save():
    """A glutton's last liberty is safe from the enemy (D2): a new node's priors neither
    reward running it out of atari nor count filling its liberties down to one as a
    self-atari. The same group when it is no glutton gets both, as in Go. The playouts still
    run a glutton out of atari (taking the point before the enemy closes it: without that,
    11-28 against main at 2,000 simulations, docs/RESEARCH.md)."""
    from test_ladders import _kit
    from gtp_engine.search import patterns
    from gtp_engine.search.params import PRIOR_ESCAPE, PRIOR_SELF_ATARI, make_params
    K = _backend.mirror
    black = int(Color.BLACK)

    def prior_of_c2(glutton, d2):
        game = setup("disto", DISTO_GLUTTON_IN_ATARI.format(a1="O" if glutton else "X", d2=d2))
        st, s = _kit(game)
        group = int(st[K.GID, cell(game, "B2")])
        assert bool(K.safe_glutton(st, group)) == glutton
        assert K.atari_liberty(st, s.scratch, group) == cell(game, "C2")
        c2 = cell(game, "C2")
        assert K.libs_after(st, s.scratch, c2, black, 2) == (2 if d2 == "." else 1)
        if d2 == ".":
            assert K.suggest_tactics(st, None, None, None, None, s.scratch, black,
                                     cell(game, "C1"), False) == 1
        pv, pw, _, _ = K.prior(st, _ZOBRIST, s.work, s.spare, s.out, s.scratch, c2, black, 0,
                               0, make_params(game), patterns.table(),
                               np.zeros(K.MAX_FEATURES, np.int32))
        return pv, pw

    # C2 runs the group out of atari (two liberties with D2 empty)
    (glutton_v, glutton_w), (plain_v, plain_w) = prior_of_c2(True, "."), prior_of_c2(False, ".")
    assert (plain_v, plain_w) == (glutton_v + PRIOR_ESCAPE, glutton_w + PRIOR_ESCAPE)
    # with D2 white, C2 joins the group and leaves it one liberty (C3)
    (glutton_v, glutton_w), (plain_v, plain_w) = prior_of_c2(True, "O"), prior_of_c2(False, "O")
    assert (plain_v, plain_w) == (glutton_v + PRIOR_SELF_ATARI, glutton_w)


def test_a_playouts_random_move_refuses_mountains_with_its_chance():
    """On a board of mountains but for one plain row, random playout moves with the refusal at
    1000 never land on a mountain; at 0 they do."""
    from test_ladders import _kit
    from gtp_engine.search.params import make_params
    K = _backend.mirror
    rows = ["^^^^^^^"] * 6 + ["......."]
    terrain = TerrainMap.from_text("/".join(rows), forts_per_side=0)
    on_mountains = {}
    for chance in (0, 1000):
        landed = 0
        for seed in range(30):
            game = Game("terrain", 7, terrain=terrain)
            st, s = _kit(game)
            rng = np.array([seed * 7919 + 1], np.int64)
            cell_played = K._random_move(st, _ZOBRIST, s.work, s.spare, s.out, s.scratch,
                                         int(Color.BLACK), rng, 1, 500, False, chance)
            assert cell_played > 0
            landed += int(st[K.TERR, cell_played] == K.MOUNTAIN)
        on_mountains[chance] = landed
    assert on_mountains[1000] == 0 and on_mountains[0] > 0
    assert make_params(Game("terrain", 9), prob_reject_mountain=1000)[K.P_PROB_REJECT_MOUNTAIN] == 1000


def test_does_not_pass_with_dead_stones_in_its_area_and_cleans_up():
    # A lone white stone inside Black's area: Black must not pass before capturing it, even
    # though White passed and Black wins as the board stands.
    game = setup("go", """
        . . X . .
        . . X . .
        . O X . .
        . . X . .
        . . X . .""", komi=0.5)
    game.play(Color.WHITE, None)
    game = game  # noqa
    move, analysis = player(2000).genmove(game, Color.BLACK, cleanup=True)
    assert move in (parse_vertex(v, 5) for v in ("A3", "B4", "B2", "C3"))


def test_resigns_only_with_a_threshold():
    text = """
        X X X
        X . X
        . X X"""
    assert player(300).genmove(setup("go", text), Color.WHITE)[0] != "resign"
    assert player(300, resign=0.1).genmove(setup("go", text), Color.WHITE)[0] == "resign"


# ----------------------------------------------------------------- the contract
def test_same_seed_same_moves_other_seed_other_moves():
    def game_moves(seed):
        game = Game("go", 7, 7.5)
        p = player(300, seed=seed)
        for _ in range(12):
            move, _ = p.genmove(game, game.to_move)
            game.play(game.to_move, move)
        return [m.point for m in game.moves]
    assert game_moves(5) == game_moves(5)
    assert game_moves(5) != game_moves(6)


def test_a_fixed_budget_is_run_in_full_by_every_thread_however_they_are_scheduled(monkeypatch):
    """With two threads, the one that finishes its share first does not end the other's: the
    search runs every simulation it promised, the same for the seed under any load when each
    thread has a tree of its own (a shared tree depends on the threads' timing)."""
    import threading
    import time
    compiled = _backend.compile_now()

    class SlowHelper:   # the second thread gets its chunks late, as on a busy machine
        def __getattr__(self, name):
            return getattr(compiled, name)

        def run(self, *args):
            if threading.current_thread() is not threading.main_thread():
                time.sleep(0.005)
            return compiled.run(*args)

    game = Game("go", 7)
    results = []
    for kernels in (compiled, SlowHelper()):
        monkeypatch.setattr(_backend, "active", kernels)
        searcher = SearchPlayer(SearchSettings(playouts=2000, threads=2, seed=4,
                                               overrides=(("shared_tree", 0),)))
        analysis = searcher.search(game, Color.BLACK, playouts=2000)
        results.append((analysis.simulations, [(m.move, m.visits) for m in analysis.moves]))
    assert results[0][0] == results[1][0] == 2000
    assert results[0] == results[1]


def test_a_fixed_budget_stops_once_the_rest_could_not_change_the_most_visited_move():
    """Black's two stones in atari (C4 D4) escape at E4: the tree settles on it long before
    6000 simulations, and stops once the rest of the budget could not make another move the
    most visited, after at least a fifth of it; the move is the one the full budget plays."""
    game = setup("go", """
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X . . .
        . . O O . . .
        . . . . . . .
        . . . . . . .""", komi=0.5)
    stopped = player(6000, seed=2).search(game, Color.BLACK)
    full = player(6000, seed=2).search(game, Color.BLACK, early_stop=False)
    assert full.simulations == 6000
    assert 1200 <= stopped.simulations < 6000
    first, second = stopped.moves[0], stopped.moves[1]
    assert first.visits - second.visits > 6000 - stopped.simulations
    assert stopped.best.move == full.best.move == parse_vertex("E4", 7)


def test_where_a_fixed_budget_stops_does_not_depend_on_its_chunks(monkeypatch):
    """The looks at the root come where the search's own statistics put them: with the
    clock's chunks a few simulations long instead of thousands, one thread stops at the same
    count with the same visits."""
    from gtp_engine.search import player as player_module
    game = Game("go", 9)
    for vertex in ("E5", "D3", "C4"):
        game.play(game.to_move, parse_vertex(vertex, 9))
    runs = []
    for chunk_seconds in (player_module.CHUNK_SECONDS, 1e-6):
        monkeypatch.setattr(player_module, "CHUNK_SECONDS", chunk_seconds)
        analysis = player(5000, seed=7).search(game, game.to_move)
        runs.append((analysis.simulations, [(m.move, m.visits) for m in analysis.moves]))
    assert runs[0] == runs[1]
    assert runs[0][0] < 5000


def test_a_fixed_budget_never_stops_early_for_a_leading_pass():
    """The rest of the budget is spent when the pass leads by more than it: the placements
    that a refused pass falls back on keep their simulations."""
    game = Game("go", 7)
    p = player(500, seed=1)
    p.search(game, Color.BLACK, early_stop=False)
    tree, root = p._trees[0], 0
    K = _backend.mirror
    children = []
    for move, child, edge in tree.children(root):   # every move a node, as if all were tried
        if child < 0:
            child = int(K.new_node(tree.ti, tree.tf, tree.header, move))
            tree.ec[edge] = child
        children.append((move, child))
    visits = tree.tf[K.NF_VISITS]
    for _, child in children:
        visits[child] = 1.0
    pass_child = next(c for m, c in children if m == K.PASS)
    point_child = next(c for m, c in children if m != K.PASS)
    visits[point_child] = 900.0
    assert p._settle_gap([root], 800) == 0
    assert p._settle_gap([root], 2000) == 1 + (2000 - 899) // 2
    visits[point_child] = 1.0
    visits[pass_child] = 900.0
    assert p._settle_gap([root], 800) == 800


@pytest.mark.parametrize("doubling, fills_to", [(0, 0.98), (EXPAND_DOUBLING, 0.6)])
def test_the_tree_never_grows_past_its_memory_cap(doubling, fills_to):
    """With a fixed expansion threshold the pool fills; with the default one the expansions
    grow rarer past half of it, but the tree still grows past half."""
    p = SearchPlayer(SearchSettings(playouts=6000, threads=1, max_memory_mb=1,
                                    overrides=(("expand_doubling", doubling),)))
    capacity = p.pool_capacity(1, 9)
    assert capacity * bytes_per_node(9) <= 1024 * 1024
    game = Game("go", 9)
    fill = 0.0
    for _ in range(3):
        analysis = p.search(game, game.to_move, early_stop=False)
        assert analysis.nodes <= capacity
        assert p.memory_bytes() <= 1024 * 1024 + 1024
        assert analysis.simulations == 6000   # simulations go on when the pool is full
        fill = max(fill, p._trees[0].fill())
        game.play(game.to_move, analysis.best.move)
    assert fill > fills_to, "the pool never filled: the test proves nothing"


def _fill_after(doubling: float, searches: int) -> list:
    """The pool's fill after each of ``searches`` searches of 3,000 simulations of the
    empty 9x9 board on a 1 MB tree, the tree kept from one to the next (as in analysis)."""
    p = SearchPlayer(SearchSettings(playouts=3000, threads=1, max_memory_mb=1, seed=5,
                                    overrides=(("expand_doubling", doubling),)))
    game = Game("go", 9)
    fills = []
    for _ in range(searches):
        p.search(game, game.to_move, early_stop=False)
        fills.append(p._trees[0].fill())
    return fills


def test_past_half_the_memory_expansions_grow_rarer_and_the_tree_keeps_growing():
    fixed = _fill_after(0, 6)
    slowed = _fill_after(EXPAND_DOUBLING, 6)
    assert fixed[-1] > 0.98          # a fixed threshold fills the pool and stops
    full_at = next(i for i, f in enumerate(fixed) if f > 0.98)
    # the same search up to half the pool (the same seed and threshold until then)
    assert slowed[0] == fixed[0] or fixed[0] > 0.5
    assert slowed[full_at] < 0.9     # where the fixed one is full, room is left
    assert all(b > a for a, b in zip(slowed, slowed[1:]))   # and it still grows, slower
    assert slowed[-1] < 1.0


def test_a_search_leaves_the_game_unchanged():
    game = Game("goncrete", 7)
    for point in [(3, 3), (3, 4), (2, 3)]:
        game.play(game.to_move, point)
    before = (game.position.rows(), list(game.moves), game.to_move, game.history_id,
              game.position.state.copy())
    p = player(500)
    p.search(game, Color.WHITE)
    p.search(game, Color.BLACK)
    after = (game.position.rows(), list(game.moves), game.to_move, game.history_id)
    assert after == before[:4]
    assert np.array_equal(game.position.state, before[4])


def test_tree_reuse_after_moves_and_undo():
    game = Game("go", 7)
    p = player(400)
    first = p.search(game, Color.BLACK)
    move = first.best.move
    visits = first.best.visits
    game.play(Color.BLACK, move)
    reused = p.search(game, Color.WHITE, playouts=1)
    # the subtree of our move was kept (its first visits came before it had children)
    assert reused.visits >= visits - EXPAND_VISITS
    game.undo()
    again = p.search(game, Color.BLACK, playouts=1)
    assert again.visits >= first.visits   # and its parent after undo


@pytest.mark.parametrize("variant,size", [("go", 7), ("loose", 7), ("goncrete", 7),
                                          ("disto", 7), ("terrain", 9)])
def test_every_move_proposed_is_legal_in_random_games(variant, size):
    rng = random.Random(size * 7 + len(variant))
    for game_number in range(2):
        game = Game(variant, size)
        if game.terrain is not None:
            from gtp_engine.search.forts import auto_forts
            auto_forts(game, game_number)
        p = player(60, seed=game_number)
        for _ in range(size * size):
            if game.over:
                break
            color = game.to_move
            if rng.random() < 0.5:
                move, _ = p.genmove(game, color)
                assert move != "resign"
                assert game.illegal_reason(color, move) is None, (variant, move)
                game.play(color, move)
            else:
                legal = game.legal_moves(color)
                game.play(color, rng.choice(legal) if legal else None)


@contextlib.contextmanager
def kernels_in_use(kernels):
    """Search with ``kernels`` (the mirror or the compiled ones): with the mirror, the
    player must not load the compiled kernels from the warm cache before its search, as it
    does when nobody is warming up (``SearchPlayer._await_compiled``)."""
    saved = _backend.active, _backend.cache_is_warm
    _backend.active = kernels
    _backend.cache_is_warm = lambda: kernels is not _backend.mirror
    try:
        yield
    finally:
        _backend.active, _backend.cache_is_warm = saved


@pytest.mark.parametrize("variant", ["go", "loose", "goncrete", "disto", "terrain"])
def test_the_mirror_searches_exactly_as_the_compiled_kernels(variant):
    """The pure-Python mirror (used until the compile is done) and the compiled kernels grow
    the same tree from the same seed (with a target margin: White playing to win by 3)."""
    compiled = _backend.compile_now()
    game = Game(variant, 5)
    if game.terrain is not None:
        from gtp_engine.search.forts import auto_forts
        auto_forts(game, 1)
    game.play(Color.BLACK, game.legal_moves(Color.BLACK)[12])
    trees = []
    for kernels in (_backend.mirror, compiled):
        with kernels_in_use(kernels):
            p = player(40, seed=3)
            analysis = p.search(game, Color.WHITE, playouts=40, target_margin=-3.0,
                                seconds=600, early_stop=False)
            assert analysis.interim_simulations == (40 if kernels is _backend.mirror else 0)
            tree = p._trees[0]
            edges = tree.edges_used
            trees.append((tree.used, edges, tree.ti[:, :tree.used].copy(),
                          tree.em[:edges].copy(), tree.ec[:edges].copy(),
                          tree.tf[:, :tree.used].copy(), tree.ef[:edges].copy(),
                          tree.ea[:edges].copy()))
    assert trees[0][:2] == trees[1][:2]
    for exact in (2, 3, 4):
        assert np.array_equal(trees[0][exact], trees[1][exact])
    for close in (5, 6, 7):
        assert np.allclose(trees[0][close], trees[1][close])


def _small_pool_tree(kernels, variant, doubling):
    """The tree of 300 simulations of a 5x5 position on a pool of 40 nodes (320 edges),
    grown by ``kernels``, with ``expand_doubling`` at ``doubling``."""
    game = Game(variant, 5)
    if game.terrain is not None:
        from gtp_engine.search.forts import auto_forts
        auto_forts(game, 1)
    game.play(Color.BLACK, game.legal_moves(Color.BLACK)[7])
    with kernels_in_use(kernels):
        p = player(300, seed=4, overrides=(("expand_doubling", doubling),))
        p.pool_capacity = lambda trees, size: 40
        analysis = p.search(game, Color.WHITE, playouts=300, seconds=600, early_stop=False)
    assert analysis.interim_simulations == (300 if kernels is _backend.mirror else 0)
    tree = p._trees[0]
    edges = tree.edges_used
    return analysis, tree, (tree.used, edges, tree.ti[:, :tree.used].copy(),
                            tree.em[:edges].copy(), tree.ec[:edges].copy(),
                            tree.tf[:, :tree.used].copy(), tree.ef[:edges].copy(),
                            tree.ea[:edges].copy())


@pytest.mark.parametrize("variant", ["go", "loose", "goncrete", "disto", "terrain"])
def test_past_half_the_pools_moves_taken_without_a_node_search_alike_everywhere(variant):
    """Past half of a small pool, nodes below the raised threshold take moves without making
    their nodes (the result goes to the edge's prior): every simulation still counts at the
    root, the tree differs from a fixed threshold's, and the mirror grows the same tree as
    the compiled kernels."""
    compiled = _backend.compile_now()
    analysis, tree, grown = _small_pool_tree(compiled, variant, EXPAND_DOUBLING)
    assert analysis.simulations == 300
    assert tree.visits(0) >= 300
    assert 0.5 < tree.fill() <= 1.0
    _, _, fixed = _small_pool_tree(compiled, variant, 0)
    assert fixed[:2] != grown[:2] or not np.array_equal(fixed[6], grown[6])
    _, _, mirrored = _small_pool_tree(_backend.mirror, variant, EXPAND_DOUBLING)
    assert mirrored[:2] == grown[:2]
    for exact in (2, 3, 4):
        assert np.array_equal(mirrored[exact], grown[exact])
    for close in (5, 6, 7):
        assert np.allclose(mirrored[close], grown[close])


def test_the_amaf_blend_follows_the_game_and_an_override_still_wins():
    from gtp_engine.search import params
    K = _backend.mirror
    for variant in ("go", "loose", "goncrete", "disto", "terrain"):
        game = Game(variant, 9)
        expected = params.GAME_SETTINGS[variant].get("rave_equiv", params.RAVE_EQUIV)
        assert params.make_params(game)[K.P_RAVE_EQUIV] == expected
        assert params.make_params(game, rave_equiv=77)[K.P_RAVE_EQUIV] == 77
    assert params.make_params(Game("go", 19))[K.P_RAVE_EQUIV] != \
        params.make_params(Game("loose", 19))[K.P_RAVE_EQUIV]


def test_the_playouts_shape_lookup_in_absolute_colours_agrees_with_the_players_view():
    """``pat3_raw`` with the table's second half (White to move) answers as ``pat3_code``, on
    every empty point of random positions with walls and forts."""
    from gtp_engine.search import patterns
    from gtp_engine.search.forts import auto_forts
    table = patterns.table()
    K = _backend.mirror
    rng = random.Random(17)
    checked = 0
    for variant, size in (("go", 9), ("terrain", 9), ("loose", 7)):
        game = Game(variant, size)
        if game.terrain is not None:
            auto_forts(game, 2)
        w = size + 2
        for _ in range(40):
            legal = game.legal_moves(game.to_move)
            game.play(game.to_move, rng.choice(legal) if legal else None)
            st = game.position.state
            for cell in range(w, w * (w - 1)):
                if st[K.BOARD, cell] != K.EMPTY or not 0 < cell % w <= size:
                    continue
                for color in (1, 2):
                    mine = table[K.pat3_code(st, cell, color, w)]
                    assert table[(color - 1) << 16 | K.pat3_raw(st, cell, w)] == mine
                    checked += int(mine)
    assert checked > 100   # good shapes were met, not only empty ones


# (diagram, the move, whether the self-atari group it makes is a nakade shape)
NAKADE_CASES = (
    ("""
     . O . . . . .
     X O . . . . .
     X O . . . . .
     X O . . . . .
     X O . . . . .
     X O . . . . .
     . O . . . . .
     """, "A7", False),     # six stones: not one eye
    ("""
     . O . . . . .
     X O . . . . .
     X O . . . . .
     X O . . . . .
     . O . . . . .
     O . . . . . .
     . . . . . . .
     """, "A7", False),     # straight four: two eyes once taken
    ("""
     X . . O . . .
     O O O . . . .
     . . . . . . .
     . . . . . . .
     . . . . . . .
     . . . . . . .
     . . . . . . .
     """, "B7", True),      # two stones
    ("""
     X X O . . . .
     X . O . . . .
     . O . . . . .
     O . . . . . .
     . . . . . . .
     . . . . . . .
     . . . . . . .
     """, "B6", True),      # square four
    ("""
     X . X O . . .
     O X O . . . .
     O . O . . . .
     . O . . . . .
     . . . . . . .
     . . . . . . .
     . . . . . . .
     """, "B7", True),      # pyramid four
    ("""
     X X O . . . .
     X . O . . . .
     X O . . . . .
     . O . . . . .
     O . . . . . .
     . . . . . . .
     . . . . . . .
     """, "B6", True),      # bulky five
    ("""
     . O . . . . .
     X O . . . . .
     X X O . . . .
     . O . . . . .
     O . . . . . .
     . . . . . . .
     . . . . . . .
     """, "A7", False),     # bent four: two eyes once taken
)


@pytest.mark.parametrize("text, vertex, nakade", NAKADE_CASES)
def test_a_playout_fills_an_eye_space_in_self_atari_only_in_a_nakade_shape(text, vertex, nakade):
    """With ``playout_nakade``, a self-atari of several stones is a playout move (one the dice
    decide, as a lone stone's) only when the stones, once taken, leave an eye space of one eye;
    without it, or in a game that does not remove what it captures, never."""
    from gtp_engine.search import params
    K = _backend.mirror
    game = setup("go", text)
    w = game.size + 2
    point = parse_vertex(vertex, game.size)
    cell = (point[0] + 1) * w + point[1] + 1
    st = game.position.state.copy()
    sx = np.zeros(K.scratch_length(game.size), np.int32)
    assert K.libs_after(st, sx, cell, int(Color.BLACK), 2) == 1   # a self-atari
    assert bool(K._nakade_shape(st, sx, cell, int(Color.BLACK), w)) == nakade
    assert K._acceptable(st, sx, cell, int(Color.BLACK), True, 1, True) == (-1 if nakade else 0)
    assert K._acceptable(st, sx, cell, int(Color.BLACK), True, 1, False) == 0
    for variant in ("go", "loose", "goncrete", "disto", "terrain"):   # on where a match said so
        assert params.make_params(Game(variant, 9))[K.P_PLAYOUT_NAKADE] == \
            (variant in ("go", "terrain"))
    assert params.make_params(game, playout_nakade=1)[K.P_PLAYOUT_NAKADE] == 1


def test_only_a_game_that_removes_captures_fills_eye_spaces_in_its_playouts():
    """Loose and Goncrete flip what they capture and Disto makes it a meal: the stones of a
    nakade would not leave an empty eye space there, so their playouts keep refusing it."""
    from gtp_engine.search.params import make_params
    K = _backend.mirror
    for variant in ("go", "loose", "goncrete", "disto", "terrain"):
        game = Game(variant, 9)
        st = game.position.state
        assert not K.fills_eye_spaces(st, make_params(game, playout_nakade=0))
        assert K.fills_eye_spaces(st, make_params(game, playout_nakade=1)) == \
            (variant in ("go", "terrain"))


#: White's last move D2 left Black's C1-C3 with three liberties (C4 D3 D1); White's A3 B3
#: B2 B1 beside them have two (A2 A1): Black's counter-atari is at one of those.
COUNTER_ATARI = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    X X . . . . .
    O O X . . . .
    . O X O . . .
    . O X . . . ."""


def _groups_and_liberties(st, K, w):
    """{cell: (colour, frozenset of the group's cells, frozenset of its liberties)} by flood
    fill over the board alone: the plain reference for the kernels' incremental groups."""
    found = {}
    for start in range(len(st[K.BOARD])):
        colour = int(st[K.BOARD, start])
        if colour not in (K.BLACK, K.WHITE) or start in found:
            continue
        stones, libs, todo = {start}, set(), [start]
        while todo:
            c = todo.pop()
            for q in (c - 1, c + 1, c - w, c + w):
                if st[K.BOARD, q] == colour and q not in stones:
                    stones.add(q)
                    todo.append(q)
                elif st[K.BOARD, q] == K.EMPTY:
                    libs.add(q)
        entry = (colour, frozenset(stones), frozenset(libs))
        for c in stones:
            found[c] = entry
    return found


def _counter_ataris(st, K, w, color, last):
    groups = _groups_and_liberties(st, K, w)
    result = set()
    for q in (last - 1, last + 1, last - w, last + w,
              last - w - 1, last - w + 1, last + w - 1, last + w + 1):
        if q in groups and groups[q][0] == color and 3 <= len(groups[q][2]) <= 4:
            for s in groups[q][1]:
                for e in (s - 1, s + 1, s - w, s + w):
                    if e in groups and groups[e][0] == 3 - color and len(groups[e][2]) == 2:
                        result |= groups[e][2]
    return result


def test_a_race_the_last_move_began_is_answered_by_an_atari_on_the_short_enemy_group():
    """``suggest_counter_atari``: when the last move leaves an own group (next to it or
    diagonal) with three or four liberties, the liberties of each enemy two-liberty group
    touching that group are the candidates (either puts it in atari). Checked on the diagram,
    then against a flood-fill count on every point of random positions, as the last move;
    never in Loose (true liberties)."""
    K = _backend.mirror
    game = setup("go", COUNTER_ATARI)
    st, space = game.position.state.copy(), Workspace(game.size)
    _, cand, _, _, _ = K._blocks(st)

    def suggested(st, color, last):
        n = K.suggest_counter_atari(st, space.scratch, color, last)
        listed = [int(space.scratch[cand + i]) for i in range(n)]
        assert len(listed) == len(set(listed))
        return set(listed)

    black = int(Color.BLACK)
    assert suggested(st, black, cell(game, "D2")) == {cell(game, "A2"), cell(game, "A1")}
    assert suggested(st, black, cell(game, "G7")) == set()     # far from the race
    assert suggested(st, int(Color.WHITE), cell(game, "D2")) == set()   # White's C-group: none
    w, rng, checked = game.size + 2, random.Random(26), 0
    for variant in ("go", "goncrete", "loose"):
        game = Game(variant, 7)
        for _ in range(45):
            legal = game.legal_moves(game.to_move)
            if game.over or not legal:
                break
            game.play(game.to_move, rng.choice(legal))
            st = game.position.state.copy()
            for last in range(w, w * (w - 1)):
                if not 0 < last % w <= game.size:
                    continue
                for color in (black, int(Color.WHITE)):
                    expected = set() if variant == "loose" else _counter_ataris(st, K, w, color,
                                                                                 last)
                    assert suggested(st, color, last) == expected
                    checked += len(expected)
    assert checked > 50     # the random positions did hold such races
    from gtp_engine.search.params import make_params
    for variant in ("go", "terrain"):                            # measured better there
        assert make_params(Game(variant, 9))[K.P_PROB_NLIB] == 250
    for variant in ("loose", "goncrete", "disto"):               # off until a match says
        assert make_params(Game(variant, 9))[K.P_PROB_NLIB] == 0
    assert make_params(Game("go", 9), prob_nlib=0)[K.P_PROB_NLIB] == 0


def test_a_playout_move_plays_the_counter_atari_with_its_probability():
    """``playout_move`` with the capture and shape steps off: at ``prob_nlib`` 1000 Black
    answers D2 in the race diagram by an atari on the two-liberty White group every time; at 0
    the move is the random one and lands there only by chance. Both ataris are lone-stone
    self-ataris here, which the playout's filter refuses as from any step, so it is off."""
    from gtp_engine.search import patterns
    from gtp_engine.search.params import make_params
    K = _backend.mirror
    game = setup("go", COUNTER_ATARI)
    ataris = {cell(game, "A2"), cell(game, "A1")}
    pat3 = patterns.table()

    def played(prob_nlib, seed):
        space = Workspace(game.size)
        st = game.position.state.copy()
        space.rng[0] = seed
        params = make_params(game, prob_capture=0, prob_pattern=0, prob_nlib=prob_nlib,
                             prob_reject_self_atari=0, prob_reject_random_self_atari=0)
        return K.playout_move(st, _ZOBRIST, space.work, space.spare, space.out, space.scratch,
                              int(Color.BLACK), cell(game, "D2"), 0, space.rng, params, pat3)

    assert all(played(1000, seed) in ataris for seed in range(1, 41))
    assert sum(played(0, seed) in ataris for seed in range(1, 41)) < 20


def _vital_point(st, K, w, color, last):
    """The plain reading of ``kernels.suggest_vital_point``: the eye space by flood fill, the
    vital point by its shape's name."""
    board = st[K.BOARD]

    def around(c):
        return (c - 1, c + 1, c - w, c + w)

    empties = [q for q in around(last) if board[q] == K.EMPTY]
    if not empties or any(abs(q - empties[0]) not in (1, w - 1, w, w + 1) for q in empties[1:]):
        return None
    area, todo = {empties[0]}, [empties[0]]
    while todo:
        p = todo.pop()
        for q in around(p):
            if board[q] == color:
                return None
            if board[q] == K.EMPTY and q not in area:
                area.add(q)
                todo.append(q)
    if not 3 <= len(area) <= 6:
        return None
    inside = {p: sum(q in area for q in around(p)) for p in area}
    counts = sorted(inside.values())
    centre = [p for p in area if inside[p] == max(counts)]
    named = {(3, (1, 1, 2)): 2, (4, (1, 1, 1, 3)): 3, (5, (1, 2, 2, 2, 3)): 3,
             (5, (1, 1, 1, 1, 4)): 4, (6, (1, 2, 2, 2, 2, 3)): None,
             (6, (1, 1, 2, 2, 2, 4)): 4}   # three, pyramid, bulky, cross, -, rabbity six
    most = named.get((len(area), tuple(counts)))
    if most is None or len(centre) != 1:
        return None
    return centre[0]


#: White's wall round an eye space of three points (B2 C2 D2); White's last move B1.
VITAL_THREE = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    O O O O O . .
    O . . . O . .
    O O O O O . ."""


def test_the_vital_point_of_the_eye_space_the_last_move_touched_is_suggested():
    """``suggest_vital_point`` (Pachi's nakade check): next to White's last move, the middle of
    a three-point eye space; the centre of the pyramid four; nothing in a square four, a space
    Black already holds a stone beside, or far from the last move. Then against a flood-fill
    reading of the shapes (three, pyramid four, bulky and crossed five, rabbity six) for every
    point as the last move of random positions."""
    K = _backend.mirror
    black = int(Color.BLACK)

    def suggested(game, last, color=black):
        space = Workspace(game.size)
        n = K.suggest_vital_point(game.position.state, space.scratch, color,
                                  cell(game, last) if isinstance(last, str) else last)
        _, cand, _, _, _ = K._blocks(game.position.state)
        return [int(space.scratch[cand + i]) for i in range(n)]

    game = setup("go", VITAL_THREE)
    assert suggested(game, "B1") == [cell(game, "C2")]
    assert suggested(game, "C1") == [cell(game, "C2")]
    assert suggested(game, "E2") == []      # next to the eye space and to the outside
    assert suggested(game, "F6") == []
    assert suggested(game, "B1", int(Color.WHITE)) == []     # its own eye space
    pyramid = setup("go", VITAL_THREE.replace(". . . . . . .\n    O O O O O",
                                              ". . O . . . .\n    O O . O O"))
    assert suggested(pyramid, "B1") == [cell(pyramid, "C2")]
    held = setup("go", VITAL_THREE.replace("O . . . O", "O . . X O"))
    assert suggested(held, "B1") == []
    square = setup("go", VITAL_THREE.replace(". . . . . . .\n    O O O O O",
                                             ". O O . . . .\n    O . . O O")
                                    .replace("O . . . O", "O . . O O"))
    assert suggested(square, "A2") == []
    w, rng, found = 9, random.Random(52), 0
    for variant in ("go", "goncrete", "terrain"):
        for _ in range(8):
            game = Game(variant, 7)
            for move in range(80):
                legal = game.legal_moves(game.to_move)
                if game.over or not legal:
                    break
                game.play(game.to_move, rng.choice(legal))
                if move < 30:
                    continue
                st = game.position.state.copy()
                for last in range(w, w * (w - 1)):
                    if st[K.BOARD, last] not in (K.BLACK, K.WHITE):
                        continue
                    for color in (black, int(Color.WHITE)):
                        expected = _vital_point(st, K, w, color, last)
                        assert suggested(game, last, color) == ([] if expected is None
                                                                else [expected])
                        found += expected is not None
    assert found > 20     # the random positions did hold such eye spaces
    from gtp_engine.search.params import make_params
    assert make_params(Game("go", 9))[K.P_PROB_VITAL] == 800     # measured better in Go
    for variant in ("loose", "goncrete", "disto", "terrain"):    # off until a match says
        assert make_params(Game(variant, 9))[K.P_PROB_VITAL] == 0
    assert make_params(Game("go", 9), prob_vital=0)[K.P_PROB_VITAL] == 0


def test_the_playout_shapes_round_the_previous_move_too_only_with_pattern2():
    """``suggest_shape`` lists the empty points next to the last move whose 3x3 shape the
    table likes, and, given the mover's previous move, those next to it as well (each once);
    checked against a plain reading of the table on positions of random games."""
    from gtp_engine.search import patterns
    from gtp_engine.search.params import make_params
    K = _backend.mirror
    pat3 = patterns.table()
    rng = np.random.default_rng(17)
    seen_more = 0
    for trial in range(30):
        game = Game("go", 9)
        w = game.size + 2
        moves = []
        for _ in range(int(rng.integers(6, 40))):
            empty = [(r, c) for r in range(9) for c in range(9)
                     if game.position.state[K.BOARD, (r + 1) * w + c + 1] == K.EMPTY]
            point = empty[int(rng.integers(len(empty)))]
            if game.illegal_reason(game.to_move, point) is None:
                moves.append((point[0] + 1) * w + point[1] + 1)
                game.play(game.to_move, point)
        if len(moves) < 2:
            continue
        st = game.position.state.copy()
        color = int(game.to_move)
        last, last2 = moves[-1], moves[-2]

        def liked(centre):
            return {q for q in (centre - w - 1, centre - w, centre - w + 1, centre - 1,
                                centre + 1, centre + w - 1, centre + w, centre + w + 1)
                    if st[K.BOARD, q] == K.EMPTY
                    and pat3[((color - 1) << 16) | K.pat3_raw(st, q, w)] != 0}

        def listed(second):
            sx = np.zeros(K.scratch_length(9), np.int32)
            n = K.suggest_shape(st, sx, color, last, second, pat3)
            _, cand, _, _, _ = K._blocks(st)
            cells = [int(sx[cand + i]) for i in range(n)]
            assert len(cells) == len(set(cells))
            return set(cells)

        assert listed(0) == liked(last)
        assert listed(last2) == liked(last) | liked(last2)
        seen_more += len(liked(last2) - liked(last)) > 0
    assert seen_more > 0   # some positions did have a liked point round the previous move only
    assert make_params(Game("go", 9))[K.P_PLAYOUT_PATTERN2] == 0
    assert make_params(Game("go", 9), playout_pattern2=1)[K.P_PLAYOUT_PATTERN2] == 1


@pytest.mark.parametrize("variant", ["go", "loose", "goncrete", "disto", "terrain"])
def test_the_playouts_shortcuts_answer_as_the_full_checks(variant):
    """The playout decides its common cases inline: a placement with two empty neighbours
    passes its filters (no ko retake, no own eye, two liberties), and only groups in atari
    are handed to the capture and escape readers. Checked against the full checks on every
    point of random positions, each colour, each placement's neighbourhood as the last move."""
    from gtp_engine.search.forts import auto_forts
    K = _backend.mirror
    rng = random.Random(len(variant))
    game = Game(variant, 7)
    if game.terrain is not None:
        auto_forts(game, 3)
    w = game.size + 2
    passed = listed = 0
    for _ in range(60):
        legal = game.legal_moves(game.to_move)
        if game.over or not legal:
            break
        game.play(game.to_move, rng.choice(legal))
        st = game.position.state.copy()
        sx = np.zeros(K.scratch_length(game.size), np.int32)
        loose = st[K.HDR, K.H_CAPTURE] == K.CAPTURE_LOOSE
        for cell in range(w, w * (w - 1)):
            if not 0 < cell % w <= game.size:
                continue
            for color in (1, 2):
                if st[K.BOARD, cell] == K.EMPTY and K._plainly_acceptable(st, cell, color):
                    passed += 1
                    assert not (cell == st[K.HDR, K.H_KO] and color == st[K.HDR, K.H_KO_COLOR])
                    assert not K.is_own_eye(st, cell, color)
                    assert K.libs_after(st, sx, cell, color, 2) == 2
                    assert K._acceptable(st, sx, cell, color, True, 1000, True) == 1
                # the readers on every group round ``cell``, as before the shortcut
                n = 0
                for q in (cell, cell - 1, cell + 1, cell - w, cell + w):
                    v = st[K.BOARD, q]
                    if v == 3 - color:
                        n = K._capture_points(st, sx, int(st[K.GID, q]), n)
                    elif v == color:
                        n = K._escape_points(st, None, None, None, None, sx, int(st[K.GID, q]),
                                             color, n, False)
                _, cand, _, _, _ = K._blocks(st)
                expected = [int(sx[cand + i]) for i in range(n)]
                n = K.suggest_tactics(st, None, None, None, None, sx, color, cell, False)
                assert [int(sx[cand + i]) for i in range(n)] == expected
                listed += n
        if loose:
            assert passed == 0   # Loose's true liberties are never taken at a glance
    assert listed > 0 and (passed > 0 or variant == "loose")


# ----------------------------------------------------------------- the end of the game
def _engine(game, **settings):
    from gtp_engine.gtp import EngineSettings, GtpEngine
    return GtpEngine(game, EngineSettings(**settings))


def test_final_status_and_score_take_dead_stones_off_in_go():
    # White B4 cannot live inside Black's area: it is dead, and Black's area counts once it
    # is gone (as the board stands the area touches it and is nobody's: W+3.5).
    game = setup("go", """
        . X X O .
        X O X O .
        . . X O .
        . . X O .
        . . X O .""", komi=0.5)
    game.play(Color.WHITE, None)
    engine = _engine(game, playouts=2000, seed=1)
    assert game.score().result == "W+3.5"
    assert engine.run_command("final_status_list", ["dead"]) == "B4"
    assert "B4" not in engine.run_command("final_status_list", ["alive"]).split()
    assert engine.run_command("final_status_list", ["seki"]) == ""
    assert engine.run_command("final_score", []) == "B+4.5"


def test_disto_meals_are_the_dead_stones_and_loose_has_none():
    disto = setup("disto", """
        . . . . .
        . . O . .
        . O X O .
        . . O . .
        . . . . .""", komi=0.5)
    assert _engine(disto, playouts=100).run_command("final_status_list", ["dead"]) == "C3"
    loose = setup("loose", """
        . . . . .
        . . O . .
        . O X . .
        . . O . .
        . . . . .""", komi=0)
    assert _engine(loose, playouts=100).run_command("final_status_list", ["dead"]) == ""


def test_never_passes_in_the_opening_while_ahead_on_the_board_as_it_stands():
    # White leads by komi as the board stands, and the empty board is nobody's yet: that is
    # no reason to pass (a real game lost this way by 73.5 points against GNU Go).
    game = Game("go", 9, 7.5)
    for color, vertex in ((Color.BLACK, "F6"), (Color.WHITE, "F5"), (Color.BLACK, "G6")):
        game.play(color, parse_vertex(vertex, 9))
    for seed in range(3):
        move, _ = player(1000, seed=seed).genmove(game, Color.WHITE)
        assert move is not None


@pytest.mark.parametrize("close_ratio, allowed", [(0.0, 0.3), (1e6, 0.6)])
def test_a_timed_search_thinks_on_to_its_limit_only_while_its_best_two_are_close(
        close_ratio, allowed):
    """White's answers to Black's tengen come in eight alike: with ``extend_to`` the search
    goes on past its budget in steps while the most visited move has fewer than
    ``close_ratio`` times the second's visits, up to the limit and no further; never when
    no two moves are close (a ratio of 0)."""
    game = Game("go", 9)
    game.play(Color.BLACK, parse_vertex("E5", 9))
    p = player(None, seed=3, overrides=(("close_ratio", close_ratio),))
    p.search(game, Color.WHITE, playouts=200)   # the kernels loaded before the clock starts
    analysis = p.search(game, Color.WHITE, seconds=0.3, early_stop=False, extend_to=0.6)
    assert analysis.seconds_allowed == pytest.approx(allowed)
    assert analysis.seconds >= analysis.seconds_allowed


def test_the_tengen_answers_are_close_at_their_budget():
    """Eight alike answers share the visits: the real ratio finds them close."""
    game = Game("go", 9)
    game.play(Color.BLACK, parse_vertex("E5", 9))
    p = player(None, seed=3)
    p.search(game, Color.WHITE, playouts=3000, early_stop=False)
    assert p._close([0])
