"""Fair komi (GTP ``fair_komi``, RULES T9) by the search player.

Validated against the published values of small boards under area scoring:

- 7x7 Go: Black wins by 9 with perfect play (Davies, American Go Journal, from the analyses of
  professionals and amateurs in the 1970s-80s; Li Zhe 6p and colleagues, about 2015; KataGo's
  7x7 opening books, katagobooks.org, which confirm 9 under Chinese rules and find 8 under
  Japanese ones), so the fair komi is 9.
- 9x9 Go: about 7 under Chinese (area) rules by strong engines (KataGo's 9x9 books; its
  author's summary: 7 under Chinese rules, 6 under Japanese).

``tests`` asks for within one point, as the issue does, at a fixed playout budget (reproducible
for the seed, one thread) that takes seconds here.
"""

import math

import pytest

from gtp_engine.coords import Color, parse_vertex
from gtp_engine.errors import RulesError
from gtp_engine.game import Game
from gtp_engine.gtp import EngineSettings, GtpEngine
from gtp_engine.gtp.errors import GtpError
from gtp_engine.rules import find_rules
from gtp_engine.search.fairkomi import Probe, _line_zero, estimate_fair_komi
from gtp_engine.search.player import SearchPlayer, SearchSettings

PUBLISHED = {7: 9.0, 9: 7.0}


def player(seed=0):
    return SearchPlayer(SearchSettings(threads=1, seed=seed))


# ----------------------------------------------------------------- the estimator's parts
def test_nearest_komi_follows_each_games_komi_steps():
    assert find_rules("go").nearest_komi(8.8) == 9.0
    assert find_rules("go").nearest_komi(8.7) == 8.5
    assert find_rules("terrain").nearest_komi(-3.3) == -3.5
    assert find_rules("loose").nearest_komi(3.2) == 4.0     # even integers only (C6, L6)
    assert find_rules("loose").nearest_komi(-2.9) == -2.0


def test_the_line_through_the_probes_crosses_one_half_at_the_fair_komi():
    # w(k) = 0.5 - 0.02 (k - 6.5) exactly: the zero is 6.5 and the residual spread nothing
    probes = [Probe(k, 0.5 - 0.02 * (k - 6.5), 0.0, 1000, 1.0) for k in (3.5, 9.5, 5.0, 8.0)]
    zero, stderr = _line_zero(probes)
    assert zero == pytest.approx(6.5)
    assert stderr == pytest.approx(0.0, abs=1e-9)


def test_a_win_rate_that_rises_with_komi_is_noise_not_an_answer():
    probes = [Probe(k, 0.4 + 0.01 * k, 5.0, 1000, 1.0) for k in (2.0, 6.0)]
    assert _line_zero(probes) is None


def test_noisy_probes_give_a_larger_uncertainty():
    clean = [Probe(k, 0.5 - 0.02 * (k - 6.5), 0.0, 1000, 1.0) for k in (3.5, 9.5, 5.0, 8.0)]
    noisy = [Probe(p.komi, p.winrate + d, 0.0, 1000, 1.0) for p, d in zip(clean, (0.02, -0.02, -0.02, 0.02))]
    assert _line_zero(noisy)[1] > _line_zero(clean)[1]


# ----------------------------------------------------------------- the estimate
def test_the_estimate_changes_nothing_and_is_reproducible_for_a_playout_budget():
    game = Game("go", 5, 0.5)
    game.play(Color.BLACK, parse_vertex("C3", 5))
    before = (game.komi, len(game.moves), game.history_id, game.position.rows())
    p = player(3)
    first = estimate_fair_komi(p, game, playouts=2000)
    assert (game.komi, len(game.moves), game.history_id, game.position.rows()) == before
    second = estimate_fair_komi(player(3), game, playouts=2000)
    assert first.komi == second.komi and first.value == second.value
    assert len(first.probes) == 5 and first.simulations == 2000
    assert first.stderr > 0 and math.isfinite(first.value)
    assert all(tree.base is None for tree in p._trees)   # grown at other komis: dropped


def test_loose_gets_an_even_komi():
    estimate = estimate_fair_komi(player(), Game("loose", 5), playouts=2000)
    assert estimate.komi == int(estimate.komi) and int(estimate.komi) % 2 == 0


def test_terrain_go_needs_the_forts_first():
    game = Game("terrain", 9, terrain_seed=4)
    with pytest.raises(RulesError, match="after the forts: white places the next fort"):
        estimate_fair_komi(player(), game, playouts=100)


def test_a_game_that_is_over_has_no_fair_komi():
    game = Game("go", 5)
    game.play(Color.BLACK, None)
    game.play(Color.WHITE, None)
    with pytest.raises(RulesError, match="not over"):
        estimate_fair_komi(player(), game, playouts=100)


def test_the_report_says_the_uncertainty_and_every_probe():
    estimate = estimate_fair_komi(player(), Game("go", 5), playouts=1000)
    text = estimate.report()
    assert f"fair komi {estimate.komi:g} (estimate" in text and "+-" in text
    assert text.count("probe komi") == len(estimate.probes)


def test_a_tree_grown_at_one_komi_is_not_reused_at_another():
    game = Game("go", 7, 7.5)
    p = player()
    p.search(game, Color.BLACK, playouts=400)
    grown = p._trees[0].used
    game.set_komi(0.5)
    p.search(game, Color.BLACK, playouts=400)
    assert p._trees[0].base.komi_halves == 1
    fresh = player()
    fresh.search(game, Color.BLACK, playouts=400)
    assert p._trees[0].used == fresh._trees[0].used < 2 * grown


# ----------------------------------------------------------------- published values
@pytest.mark.parametrize("size,playouts", [(7, 60000),
                                           pytest.param(9, 100000, marks=pytest.mark.slow)])
def test_published_fair_komi_of_small_boards_within_one_point(size, playouts):
    """7x7 (9) and 9x9 (7) Go; measured here at about 10 000 simulations a second a thread,
    so these budgets are 6 and 12 seconds of one core (docs/RESEARCH.md, Komi); 9x9 is slow."""
    estimate = estimate_fair_komi(player(), Game("go", size), playouts=playouts)
    assert abs(estimate.komi - PUBLISHED[size]) <= 1.0, estimate.report()


# ----------------------------------------------------------------- GTP
def engine_for(variant="go", size=5, **settings):
    settings.setdefault("playouts", 100)
    return GtpEngine(Game(variant, size), EngineSettings(threads=1, **settings))


def test_gtp_fair_komi_answers_a_komi_and_leaves_the_komi_alone(capsys):
    engine = engine_for()
    answer = engine.run_command("fair_komi", [])
    assert float(answer) * 2 == int(float(answer) * 2)
    assert engine.game.komi == 7.5
    assert "fair komi" in capsys.readouterr().err


@pytest.mark.parametrize("args,message", [
    (["0"], "seconds must be more than 0 and at most 3600, not '0'"),
    (["-2"], "seconds must be at least 0, not '-2'"),
    (["1e9"], "not '1e9'"),
    (["nan"], r"seconds must be a decimal number such as 6.5 \(digits 0-9\), not 'nan'"),
    (["1", "2"], "wrong number of arguments"),
])
def test_gtp_fair_komi_refuses_bad_budgets(args, message):
    with pytest.raises(GtpError, match=message):
        engine_for().run_command("fair_komi", args)


def test_gtp_fair_komi_before_the_forts_says_so():
    engine = engine_for("terrain", 9)
    with pytest.raises(GtpError, match="white places the next fort"):
        engine.run_command("fair_komi", ["1"])


def test_gtp_fair_komi_after_forts_in_terrain_go():
    engine = engine_for("terrain", 7, forts_auto=True, fort_playouts=0)
    engine.place_auto_forts()
    assert find_rules("terrain").nearest_komi(float(engine.run_command("fair_komi", []))) \
        == float(engine.run_command("fair_komi", []))


# ----------------------------------------------------------------- the default komi table
def test_the_default_komi_follows_the_calibrated_table_then_rules_c7(monkeypatch):
    from gtp_engine.rules.go import Go
    monkeypatch.setattr(Go, "calibrated_komi", {7: 9.5})
    assert Game("go", 7).komi == 9.5 and Go.default_komi_for(7) == 9.5
    assert Game("go", 11).komi == Go.default_komi == 7.5          # not calibrated: C7
    game = Game("disto", 7)
    game.set_rules("go")                                          # variant: the size's default
    assert game.komi == 9.5


@pytest.mark.parametrize("variant", ["go", "loose", "goncrete", "disto", "terrain"])
def test_every_calibrated_default_keeps_the_rules_c6_constraints(variant):
    rules = find_rules(variant)
    for size, komi in rules.calibrated_komi.items():
        rules.check_size(size)
        rules.check_komi(komi)
        assert rules.has_draws is False or komi != int(komi)      # a default that cannot draw
