"""Forts chosen by the search (``search.fortsearch``): legal, among the heuristic's candidates,
deterministic for the seed in and across processes and thread counts, the heuristic as
fallback, a machine-wide cache, and ``--forts auto`` chosen in the background while the engine
answers what does not need the forts (GoGui's start-up)."""

import contextlib
import fcntl
import os
import subprocess
import sys
import threading

import pytest

from gtp_engine import cli
from gtp_engine.coords import Color, format_vertex
from gtp_engine.game import Game
from gtp_engine.gtp import EngineSettings, GtpEngine, GtpError
from gtp_engine.search import fortcache, fortsearch
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


def test_no_playouts_or_no_compiled_kernels_mean_the_heuristic(monkeypatch, tmp_path):
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    game = terrain_game(13, 5)
    assert fortsearch.choose_fort(game, W, 3, playouts=0) == heuristic_fort(game, W, 3)

    def broken():
        raise fortsearch.SearchUnavailable("numba is broken here")
    monkeypatch.setattr(fortsearch, "ensure_compiled", broken)
    assert fortsearch.choose_fort(game, W, 3) == heuristic_fort(game, W, 3)
    assert not list(tmp_path.glob("forts/*.json"))        # a fallback is never cached


def test_the_choice_does_not_depend_on_the_threads(monkeypatch, tmp_path):
    game = terrain_game(9, 6)
    chosen = set()
    for threads in (1, 2, 3):
        monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path / str(threads)))   # no sharing
        chosen.add(fortsearch.choose_fort(game, W, 5, playouts=48, threads=threads))
    assert len(chosen) == 1


def test_a_choice_is_computed_once_then_read_from_the_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    game = terrain_game()
    chosen = fortsearch.choose_fort(game, W, 4, playouts=40)
    entries = list(tmp_path.glob("forts/*.json"))
    assert len(entries) == 1
    key = fortsearch.choice_key(game, W, 4, 40, fortsearch.CANDIDATES)
    assert entries[0].stem == fortcache.entry_name(key)
    searches = []
    monkeypatch.setattr(fortsearch, "_search_fort", lambda *a: searches.append(a) or (0, 0))
    assert fortsearch.choose_fort(game, W, 4, playouts=40) == chosen and not searches
    # another seed, budget, komi or fort so far is another entry
    fortsearch.choose_fort(game, W, 5, playouts=40)
    fortsearch.choose_fort(game, W, 4, playouts=41)
    game.set_komi(0.5)
    fortsearch.choose_fort(game, W, 4, playouts=40)
    assert len(searches) == 3


def test_a_damaged_or_foreign_cache_entry_is_computed_again(monkeypatch, tmp_path):
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    game = terrain_game()
    chosen = fortsearch.choose_fort(game, W, 4, playouts=40)
    entry = next(tmp_path.glob("forts/*.json"))
    ranked = fortsearch.ranked_candidates(game, W, 4)
    for text in ("{not json", '{"format": 1}', entry.read_text().replace(
            f"[{chosen[0]}, {chosen[1]}]", "[99, 99]")):
        entry.write_text(text)
        assert fortsearch.choose_fort(game, W, 4, playouts=40) == chosen
        assert chosen in ranked


def test_a_process_that_holds_a_choice_too_long_is_not_waited_for(monkeypatch, tmp_path):
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(fortcache, "LOCK_PATIENCE", 0.2)
    game = terrain_game()
    key = fortsearch.choice_key(game, W, 4, 40, fortsearch.CANDIDATES)
    with open(fortcache.lock_path(key), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)                  # a holder that hangs
        chosen = fortsearch.choose_fort(game, W, 4, playouts=40)
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path / "other"))
    assert chosen == fortsearch.choose_fort(game, W, 4, playouts=40)


def test_without_a_usable_cache_directory_every_process_computes(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(fortcache.CACHE_ENV, str(blocker))   # forts/ cannot be made under a file
    game = terrain_game()
    assert fortcache.cache_dir() is None
    assert fortsearch.choose_fort(game, W, 4, playouts=40) in fortsearch.ranked_candidates(game, W, 4)


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


#: what GoGui sends player and ruler before it needs the forts (GoGui.attachProgram,
#: initGameRuler, GenericBoard.playFromBeginning, GtpSynchronizer), and their answers
GOGUI_START = [("name", "vargo"), ("protocol_version", "2"), ("gogui-interrupt", ""),
               ("gogui-rules_game_id", "Terrain"), ("gogui-rules_board_size", "9"),
               ("clear_board", ""), ("gogui-rules_captured_count", "0 0"),
               ("gogui-rules_side_to_move", "black"), ("boardsize 9", ""), ("komi 6.5", "")]
FORTS_AUTO = ["--variant", "terrain", "--size", "9", "--forts", "auto", "--playouts", "40",
              "--seed", "2"]


@contextlib.contextmanager
def first_fort_held(args):
    """Hold the machine-wide lock of the first fort the command line ``args`` chooses: every
    engine that chooses it waits, so its search cannot finish before the lock is let go."""
    options = cli.parse_options(args)
    game = cli.build_game(options, auto_forts=False)
    key = fortsearch.choice_key(game, W, options.seed,
                                options.engine_settings().fort_budget(game.size),
                                fortsearch.CANDIDATES)
    with open(fortcache.lock_path(key), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def expected_forts(args) -> str:
    return " ".join(f"{c.letter} {format_vertex(p)}"
                    for c, p in cli.build_game(cli.parse_options(args)).forts)


def test_forts_auto_are_chosen_in_the_background_while_gogui_starts(monkeypatch, tmp_path):
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    options = cli.parse_options(FORTS_AUTO)
    engine = GtpEngine(cli.build_game(options, auto_forts=False), options.engine_settings())
    with first_fort_held(FORTS_AUTO):
        engine.start_auto_forts()
        for command, answer in GOGUI_START + [("list_commands", None)]:
            name, *args = command.split()
            got = engine.run_command(name, args)
            assert answer is None or got == answer, command
        # answered while the search waits for the lock we hold: it has not chosen a fort
        assert engine.game.forts == [] and not engine.pending_forts.done()
    assert engine.run_command("forts", []) == expected_forts(FORTS_AUTO)
    assert engine.pending_forts is None and engine.game.fort_turn is None
    assert engine.game.komi == 6.5                        # the commands before still count


def test_forts_auto_are_for_the_game_they_were_chosen_for():
    options = cli.parse_options(FORTS_AUTO)
    engine = GtpEngine(cli.build_game(options, auto_forts=False), options.engine_settings())
    engine.start_auto_forts()
    engine.run_command("boardsize", ["7"])     # a new map: its own forts, at once
    assert engine.game.size == 7 and engine.game.fort_turn is None
    placed = list(engine.game.forts)
    engine.run_command("showboard", [])        # the 9x9 forts arrive and are dropped
    assert engine.game.forts == placed and engine.pending_forts is None


def test_an_interrupt_ends_the_wait_for_the_forts_not_their_search(monkeypatch, tmp_path):
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    options = cli.parse_options(FORTS_AUTO)
    engine = GtpEngine(cli.build_game(options, auto_forts=False), options.engine_settings())
    with first_fort_held(FORTS_AUTO):
        engine.start_auto_forts()
        engine.abort_command()                 # GoGui's '# interrupt', or quit, came
        with pytest.raises(GtpError, match="choosing its forts"):
            engine.run_command("showboard", [])
        engine.clear_abort()
    assert engine.run_command("forts", []) == expected_forts(FORTS_AUTO)


def test_gogui_player_and_ruler_choose_the_forts_once_and_agree(monkeypatch, tmp_path):
    """GoGui starts the player, then the same command line again as the ruler; both answer
    its start-up commands while the forts are being chosen, the forts are searched once on
    the machine, and a restart reads them from the cache."""
    monkeypatch.setenv(fortcache.CACHE_ENV, str(tmp_path))
    args = FORTS_AUTO + ["--log-level", "info"]
    with first_fort_held(FORTS_AUTO):
        player, ruler = GtpProcess(args), GtpProcess(args)
        for process in (player, ruler):
            for command, answer in GOGUI_START:
                assert process.send(command) == answer, command
    forts = {process.send("forts") for process in (player, ruler)}
    assert forts == {expected_forts(FORTS_AUTO)}
    logs = [process.close() for process in (player, ruler)]
    searched = sum(log.count("chosen by search") for log in logs)
    assert searched == 4, logs                                  # 4 forts, each searched once
    again = GtpProcess(args)
    assert again.send("forts") == forts.pop()
    assert "chosen by search" not in again.close()


class GtpProcess:
    """An engine process driven one command at a time; stderr collected for ``close``."""

    def __init__(self, args):
        self.process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args], cwd=REPO,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self._stderr = []
        self._reader = threading.Thread(target=lambda: self._stderr.extend(self.process.stderr),
                                        daemon=True)
        self._reader.start()

    def send(self, command: str) -> str:
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline().decode()) != "\n":
            assert line, f"the engine died after {command!r}"
            lines.append(line)
        text = "".join(lines)
        assert text.startswith("="), (command, text)
        return text[1:].strip()

    def close(self) -> str:
        self.process.stdin.close()
        assert self.process.wait() == 0
        self._reader.join()
        return b"".join(self._stderr).decode()


def test_every_process_with_the_same_command_line_gets_the_same_forts(tmp_path):
    """Each process with a cache of its own, so each searches (one with one thread)."""
    args = [sys.executable, "-m", "gtp_engine", "--variant", "terrain", "--size", "9",
            "--forts", "auto", "--seed", "3", "--terrain-seed", "7", "--playouts", "60"]
    answers = {subprocess.run(args + extra, input=b"forts\nquit\n", capture_output=True,
                              cwd=REPO, check=True,
                              env={**os.environ, fortcache.CACHE_ENV: str(tmp_path / str(i))}
                              ).stdout for i, extra in enumerate([[], ["--threads", "1"]])}
    assert len(answers) == 1
    assert len(list(tmp_path.glob("*/forts/*.json"))) == 2 * 4          # both searched
    options = cli.parse_options(args[3:])
    expected = " ".join(f"{c.letter} {format_vertex(p)}" for c, p in cli.build_game(options).forts)
    assert answers.pop().decode().startswith(f"= {expected}\n")


def test_bad_fort_playouts_exit_with_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "gtp_engine", "--fort-playouts", "-1"],
                            input=b"", capture_output=True, cwd=REPO)
    assert result.returncode == 2 and b"--fort-playouts" in result.stderr
