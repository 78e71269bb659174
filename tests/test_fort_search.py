"""Forts chosen by the search (``search.fortsearch``): legal, among the heuristic's candidates,
deterministic for the seed in and across processes, the heuristic as fallback, and
``--forts auto`` deferred past the identity commands."""

import os
import subprocess
import sys


from gtp_engine import cli
from gtp_engine.coords import Color, format_vertex
from gtp_engine.game import Game
from gtp_engine.gtp import EngineSettings, GtpEngine
from gtp_engine.search import fortsearch
from gtp_engine.search.forts import choose_fort as heuristic_fort

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
W, B = Color.WHITE, Color.BLACK


def terrain_game(size=9, seed=4):
    return Game("terrain", size, terrain_seed=seed)


def test_the_heuristics_own_choice_heads_the_candidates():
    game = terrain_game()
    for seed in range(4):
        ranked = fortsearch.ranked_candidates(game, W, seed)
        assert ranked[0] == heuristic_fort(game, W, seed)
        assert len(ranked) == len(set(ranked)) == fortsearch.CANDIDATES


def test_a_searched_fort_is_a_candidate_and_the_same_every_time():
    game = terrain_game()
    before = (list(game.forts), game.history_id)
    chosen = fortsearch.choose_fort(game, W, seed=1, playouts=64)
    assert chosen in fortsearch.ranked_candidates(game, W, 1)
    assert fortsearch.choose_fort(game, W, seed=1, playouts=64) == chosen
    assert (list(game.forts), game.history_id) == before


def test_the_search_weighs_the_candidates_by_what_the_forts_bring_their_owner():
    """Round one searches all ten with the seed, round two the better five with the next
    seed; the best mean wins."""
    from gtp_engine.search.player import SearchPlayer, SearchSettings
    game = terrain_game()
    ranked = fortsearch.ranked_candidates(game, W, 2)

    def value(point, round_number):
        player = SearchPlayer(SearchSettings(threads=1, seed=2 + round_number, max_memory_mb=64))
        return fortsearch.evaluate(game, W, point, 2, 64, player)

    first = {p: value(p, 0) for p in ranked}
    better = sorted(ranked, key=lambda p: (-first[p], ranked.index(p)))[:5]
    means = {p: (first[p] + value(p, 1)) / 2 for p in better}
    assert fortsearch.choose_fort(game, W, seed=2, playouts=64) == \
        min(better, key=lambda p: (-means[p], ranked.index(p)))


def test_fort_balance_counts_forts_in_enemy_territory_by_their_value():
    """T7 by ownership: a point's mean owner is p_b - p_w and its mean square p_b + p_w."""
    from gtp_engine.rules.terrain_map import TerrainMap
    from gtp_engine.search.player import Analysis
    game = Game("terrain", 9, terrain=TerrainMap.plain(9))   # two forts each, worth 3
    fort_points = [(0, 0), (8, 8), (0, 8), (8, 0)]       # W, B, W, B
    for color, point in zip([W, B, W, B], fort_points):
        game.place_fort(color, point)
    ownership, spread = [0.0] * 81, [0.0] * 81
    ownership[0] = 1.0                                   # White's A1: Black's for sure: +3
    ownership[80], spread[80] = -0.5, 0.5                # Black's J9: p_b 0, p_w 0.5: -1.5
    ownership[8], spread[8] = 0.0, 1.0                   # White's J1: p_b = p_w = 0.5: +1.5
    # Black's A9 stays neutral (a seki, dame): nothing
    analysis = Analysis(B, 9, ownership=ownership, ownership_stdev=spread)
    assert abs(fortsearch.fort_balance(game, analysis, B) - 3.0) < 1e-9
    assert abs(fortsearch.fort_balance(game, analysis, W) + 3.0) < 1e-9


def test_a_fort_in_enemy_territory_is_counted_lost_by_the_search():
    # White's fort on B2 sits in Black's corner, open only at C4, which Black closes: the
    # search sees the fort end in Black's territory, worth 12 to Black (T7).
    import diagrams
    from gtp_engine.rules.terrain_map import TerrainMap
    from gtp_engine.search.player import SearchPlayer, SearchSettings
    terrain = TerrainMap.from_text("/".join(["......."] * 7), forts_per_side=1, fort_value=12)
    game = Game("terrain", 7, -12.5, terrain=terrain)
    game.place_fort(W, (1, 1))
    game.place_fort(B, (0, 0))
    diagrams.setup_game(game, """
        . . . . . . .
        . . . . . . .
        O O O O . . .
        . . . X O . .
        X X . X O . .
        . . . X O . .
        . . . X O . .""")
    analysis = SearchPlayer(SearchSettings(playouts=1500, threads=1)).search(game, B)
    assert fortsearch.fort_balance(game, analysis, B) > 0.8 * 12
    assert fortsearch.fort_balance(game, analysis, W) < -0.8 * 12


def test_no_playouts_or_no_compiled_kernels_mean_the_heuristic(monkeypatch):
    game = terrain_game(13, 5)
    assert fortsearch.choose_fort(game, W, 3, playouts=0) == heuristic_fort(game, W, 3)
    monkeypatch.setattr(fortsearch, "search_ready", lambda: False)
    assert fortsearch.choose_fort(game, W, 3) == heuristic_fort(game, W, 3)


def test_place_forts_places_every_fort_white_first():
    game = terrain_game()
    placed = fortsearch.place_forts(game, seed=1, playouts=32)
    assert [c for c, _ in placed] == [W, B, W, B] and game.forts == placed
    assert game.fort_turn is None and fortsearch.place_forts(game, 1, 32) == []


def test_the_fort_budget_follows_size_and_playouts():
    assert fortsearch.playouts_per_candidate(19) == 277
    assert fortsearch.playouts_per_candidate(13) == 591
    assert fortsearch.playouts_per_candidate(9) == fortsearch.MAX_PLAYOUTS == 1200
    assert EngineSettings().fort_budget(9) == 1200
    assert EngineSettings(playouts=50).fort_budget(9) == 50
    assert EngineSettings(playouts=50, fort_playouts=0).fort_budget(9) == 0


def test_gtp_genfort_answers_the_searched_fort():
    game = terrain_game()
    engine = GtpEngine(game.copy(), EngineSettings(seed=6, playouts=40, threads=1))
    expected = fortsearch.choose_fort(game, W, 6, 40)
    assert engine.run_command("genfort", ["w"]) == format_vertex(expected)


def test_forts_auto_waits_for_a_command_that_needs_the_game():
    options = cli.parse_options(["--variant", "terrain", "--size", "9", "--forts", "auto",
                                 "--playouts", "40", "--seed", "2"])
    game = cli.build_game(options, auto_forts=False)
    engine = GtpEngine(game, options.engine_settings())
    engine.forts_deferred = True
    for name in ("name", "version", "protocol_version", "list_commands"):
        engine.run_command(name, [])
    assert engine.game.forts == []
    shown = engine.run_command("forts", [])
    assert engine.game.fort_turn is None
    assert shown == " ".join(f"{c.letter} {format_vertex(p)}"
                             for c, p in cli.build_game(options).forts)


def test_every_process_with_the_same_command_line_gets_the_same_forts():
    args = [sys.executable, "-m", "gtp_engine", "--variant", "terrain", "--size", "9",
            "--forts", "auto", "--seed", "3", "--terrain-seed", "7", "--playouts", "60"]
    answers = {subprocess.run(args, input=b"forts\nquit\n", capture_output=True, cwd=REPO,
                              check=True).stdout for _ in range(2)}
    assert len(answers) == 1
    options = cli.parse_options(args[3:])
    expected = " ".join(f"{c.letter} {format_vertex(p)}" for c, p in cli.build_game(options).forts)
    assert answers.pop().decode().startswith(f"= {expected}\n")


def test_bad_fort_playouts_exit_with_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "gtp_engine", "--fort-playouts", "-1"],
                            input=b"", capture_output=True, cwd=REPO)
    assert result.returncode == 2 and b"--fort-playouts" in result.stderr
