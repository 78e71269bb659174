"""The ladder reader of the search's priors: running from a working ladder gets a bad prior;
the atari that starts a working ladder gets a good one; a ladder breaker turns both off.
Checked on the kernels (the pure-Python mirror, the same source as the compiled ones) and
through the player."""

import numpy as np

from gtp_engine.coords import Color, parse_vertex
from gtp_engine.game import Game
from gtp_engine.rules.terrain_map import TerrainMap
from gtp_engine.search import _backend, patterns
from gtp_engine.search.params import make_params
from gtp_engine.search.player import _ZOBRIST, SearchPlayer, SearchSettings
from gtp_engine.search.tree import Workspace

from test_search import cell as _cell, setup

K = _backend.mirror

# White's D4 has two liberties, D3 and E4. Black's D3 (or E4) is an atari that ladders White
# up to the top edge: nothing on the diagonal helps White.
TWO_LIBERTIES = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . ."""
# after Black's D3: White's D4 is in atari; extending to E4 runs into the ladder
IN_ATARI = TWO_LIBERTIES.replace(". . . . X . . . .\n    . . . . . . . . .\n    . . . . . . . . .",
                                 ". . . X X . . . .\n    . . . . . . . . .\n    . . . . . . . . .")
# the same with a White stone on the ladder's path (G6): the ladder breaks
BREAKER_ROW = ". . . . . . . . .\n    . . . X . . . . ."
BREAKER = ". . . . . . O . .\n    . . . X . . . . ."
BROKEN = IN_ATARI.replace(BREAKER_ROW, BREAKER, 1)
TWO_LIBERTIES_BROKEN = TWO_LIBERTIES.replace(BREAKER_ROW, BREAKER, 1)


def _kit(game):
    space = Workspace(game.size)
    return game.position.state.copy(), space


def _prior(game, vertex, color, last, **overrides):
    st, s = _kit(game)
    pv, pw, _, _ = K.prior(st, _ZOBRIST, s.work, s.spare, s.out, s.scratch,
                           _cell(game, vertex), int(color), _cell(game, last), 0,
                           make_params(game, **overrides), patterns.table(),
                           np.zeros(K.MAX_FEATURES, np.int32))
    return pw / pv


def test_the_diagrams_are_what_they_say():
    game = setup("go", IN_ATARI)
    assert game.position.state[K.BOARD, _cell(game, "D3")] == K.BLACK
    assert game.position.state[K.BOARD, _cell(game, "G6")] == K.EMPTY
    assert setup("go", BROKEN).position.state[K.BOARD, _cell(game, "G6")] == K.WHITE
    assert setup("go", TWO_LIBERTIES).position.state[K.BOARD, _cell(game, "D3")] == K.EMPTY


def test_running_from_a_working_ladder_gets_a_worse_prior_than_before_and_than_a_broken_one():
    caught = setup("go", IN_ATARI)
    broken = setup("go", BROKEN)
    run = _prior(caught, "E4", Color.WHITE, "D3")
    assert run < _prior(caught, "E4", Color.WHITE, "D3", read_ladders=0)
    assert run < _prior(broken, "E4", Color.WHITE, "D3")
    assert run < 0.5
    # with a ladder breaker the escape keeps the prior it had without reading
    assert (_prior(broken, "E4", Color.WHITE, "D3")
            == _prior(broken, "E4", Color.WHITE, "D3", read_ladders=0))


def test_the_atari_that_starts_a_working_ladder_gets_a_better_prior():
    game = setup("go", TWO_LIBERTIES)
    broken = setup("go", TWO_LIBERTIES_BROKEN)
    atari = _prior(game, "D3", Color.BLACK, "D4")
    assert atari > _prior(game, "D3", Color.BLACK, "D4", read_ladders=0)
    assert atari > _prior(broken, "D3", Color.BLACK, "D4")
    assert (_prior(broken, "D3", Color.BLACK, "D4")
            == _prior(broken, "D3", Color.BLACK, "D4", read_ladders=0))


def test_the_reader_is_off_where_the_rules_say_it_cannot_read():
    for variant in ("loose", "goncrete", "disto"):
        assert make_params(Game(variant, 9))[K.P_READ_LADDERS] == 0
    for variant in ("go", "terrain"):
        assert make_params(Game(variant, 9))[K.P_READ_LADDERS] == 1


def _searched(diagram, color, vertex, read_ladders, seed=0):
    """(visits, prior share) of ``vertex`` at the root after an 800-simulation search."""
    game = setup("go", diagram)
    settings = SearchSettings(playouts=800, threads=1, seed=seed,
                              overrides=(("read_ladders", read_ladders),))
    analysis = SearchPlayer(settings).search(game, color, playouts=800)
    info = next(m for m in analysis.moves if m.move == parse_vertex(vertex, 9))
    return info.visits, info.prior


def test_the_player_hardly_runs_from_a_working_ladder_but_does_from_a_broken_one():
    """Visits summed over four seeded searches (one search's few stray visits vary with the
    playouts' other steps)."""
    def visits(diagram, read_ladders):
        return sum(_searched(diagram, Color.WHITE, "E4", read_ladders, seed)[0]
                   for seed in range(4))
    run = visits(IN_ATARI, 1)
    assert run < visits(IN_ATARI, 0)
    assert run < visits(BROKEN, 1)
    assert run <= 4 * 800 // 40     # at most one simulation in forty


def test_the_player_likes_the_atari_that_starts_a_working_ladder():
    assert (_searched(TWO_LIBERTIES, Color.BLACK, "D3", 1)[1]
            > _searched(TWO_LIBERTIES, Color.BLACK, "D3", 0)[1])


def test_terrain_go_reads_the_same_ladder_on_plain_ground():
    def terrain_game(diagram):
        terrain = TerrainMap.from_text("/".join(["........."] * 9), forts_per_side=1)
        return setup("terrain", diagram, terrain=terrain,
                     forts=[(Color.WHITE, "A1"), (Color.BLACK, "A9")])
    caught, broken = terrain_game(IN_ATARI), terrain_game(BROKEN)
    assert (_prior(caught, "E4", Color.WHITE, "D3")
            < _prior(caught, "E4", Color.WHITE, "D3", read_ladders=0))
    assert (_prior(broken, "E4", Color.WHITE, "D3")
            == _prior(broken, "E4", Color.WHITE, "D3", read_ladders=0))


def _playout_escapes(game, color, last, **overrides):
    """The cells the playout's tactics suggest for ``color`` after ``last``."""
    st, s = _kit(game)
    params = make_params(game, **overrides)
    n = K.suggest_tactics(st, _ZOBRIST, s.work, s.spare, s.out, s.scratch, int(color),
                          _cell(game, last), K.reads_ladders_in_playouts(params))
    _, cand, _, _, _ = K._blocks(st)
    return {int(s.scratch[cand + i]) for i in range(n)}


def test_with_playout_ladders_a_playout_does_not_run_from_a_working_ladder():
    caught, broken = setup("go", IN_ATARI), setup("go", BROKEN)
    run = _cell(caught, "E4")
    assert run in _playout_escapes(caught, Color.WHITE, "D3", playout_ladders=0)
    assert run not in _playout_escapes(caught, Color.WHITE, "D3")      # on in Go
    assert run in _playout_escapes(broken, Color.WHITE, "D3", playout_ladders=1)
    # no reading where the rules cannot read ladders, whatever the switch says
    assert run in _playout_escapes(caught, Color.WHITE, "D3", playout_ladders=1,
                                   read_ladders=0)
    for variant in ("go", "loose", "goncrete", "disto", "terrain"):   # on where a match said so
        assert make_params(Game(variant, 9))[K.P_PLAYOUT_LADDERS] == (variant == "go")
