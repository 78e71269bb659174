"""The time manager: budgets that never exceed the clock (with a margin), spend most of a
sudden-death clock over a game that goes the distance (more early than late), most of each
byo-yomi period and Canadian block, less once the result is settled; and the engine's own
clock for controllers that never send ``time_left``; and the limit a close choice may think on
to, only where the clock has time to spare."""

import pytest

from gtp_engine.gtp.engine import TimeControl, TimeLeft
from gtp_engine.search.player import chunk_within
from gtp_engine.search.timing import (EXTEND_FACTOR, EXTEND_SHARE, MARGIN_SECONDS, MIN_BUDGET,
                                      SETTLED_FACTOR, after_move, in_byo_yomi, move_budget,
                                      move_limit)


def play_game(control, size, own_moves, overhead=0.02, unsure=False):
    """A game on the clock, each move taking its budget plus ``overhead`` (``unsure``: its
    limit, ``move_limit``, as a search whose best two moves stay close does), the clock kept by
    ``after_move``: the budgets, the seconds used and the clock at the end."""
    left, used, budgets, area = None, 0.0, [], size * size
    for move in range(own_moves):
        clock = None if left is None else TimeLeft(*left)
        budget = move_budget(control, clock, max(area - 2 * move - 1, 0), area=area,
                             overhead=overhead)
        if unsure:
            budget = move_limit(control, clock, budget, overhead=overhead)
        budgets.append(budget)
        used += budget + overhead
        left = after_move(control, clock, budget + overhead)
        assert left[0] > 0, f"lost on time at move {move}"
    return budgets, used, left


def test_no_clock_uses_the_move_time_or_leaves_it_to_the_settings():
    assert move_budget(TimeControl(), None, 81, move_time=2.5) == 2.5
    assert move_budget(TimeControl(), None, 81) is None


@pytest.mark.parametrize("seconds", [0.5, 3, 30, 600])
@pytest.mark.parametrize("empties", [0, 40, 81, 361])
def test_absolute_time_never_spends_the_clock(seconds, empties):
    control = TimeControl("absolute", 600, 0, 0, 0)
    budget = move_budget(control, TimeLeft(seconds, 0), empties, area=361)
    assert MIN_BUDGET <= budget <= max(MIN_BUDGET, seconds - MARGIN_SECONDS)


@pytest.mark.parametrize("size, main, moves", [(9, 60, 25), (9, 60, 35), (9, 60, 60),
                                               (19, 600, 130), (19, 600, 200), (19, 60, 130)])
def test_sudden_death_spends_most_of_the_clock_more_early_and_never_runs_out(size, main, moves):
    budgets, used, _ = play_game(TimeControl("absolute", main, 0, 0, 0), size, moves)
    assert used >= 0.6 * main
    third = len(budgets) // 3
    assert sum(budgets[:third]) > sum(budgets[-third:])


def test_a_small_clock_on_a_big_board_still_searches_every_move():
    budgets, _, _ = play_game(TimeControl("absolute", 60, 0, 0, 0), 19, 100)
    assert min(budgets[:60]) > 0.2     # hundreds of simulations, not 32


def test_byo_yomi_uses_most_of_each_period():
    japanese = TimeControl("byoyomi", 0, 1, 1, 3)
    assert 0.8 <= move_budget(japanese, TimeLeft(1, 3), 200) < 1
    assert 0.8 <= move_budget(japanese, None, 200) < 1
    canadian = TimeControl("canadian", 0, 10, 5, 0)
    assert 1.7 <= move_budget(canadian, TimeLeft(10, 5), 200) < 2
    assert 5 <= move_budget(canadian, TimeLeft(12, 2), 200) < 6


def test_the_margin_grows_with_the_lateness_measured():
    control = TimeControl("byoyomi", 0, 1, 1, 3)
    quiet = move_budget(control, TimeLeft(1, 3), 200)
    loaded = move_budget(control, TimeLeft(1, 3), 200, overhead=0.3)
    assert loaded == pytest.approx(quiet - 0.3)


def test_main_time_with_byo_yomi_to_come_adds_a_period():
    control = TimeControl("byoyomi", 30, 5, 1, 3)
    absolute = TimeControl("absolute", 30, 0, 0, 0)
    assert move_budget(control, TimeLeft(30, 0), 81, area=81) > \
        move_budget(absolute, TimeLeft(30, 0), 81, area=81) + 4


def test_settled_games_think_less():
    control = TimeControl("absolute", 600, 0, 0, 0)
    normal = move_budget(control, TimeLeft(600, 0), 100, last_winrate=0.6)
    settled = move_budget(control, TimeLeft(600, 0), 100, last_winrate=0.99)
    assert settled == pytest.approx(normal * SETTLED_FACTOR)


def test_the_move_time_caps_a_clock_budget():
    control = TimeControl("absolute", 6000, 0, 0, 0)
    assert move_budget(control, None, 361, move_time=1.0) == 1.0


def test_the_own_clock_follows_each_system():
    absolute = TimeControl("absolute", 60, 0, 0, 0)
    assert after_move(absolute, None, 2.5) == (57.5, 0)
    assert after_move(TimeControl(), None, 2.5) is None
    canadian = TimeControl("canadian", 10, 30, 5, 0)
    assert after_move(canadian, TimeLeft(10, 0), 4) == (6, 0)
    assert after_move(canadian, TimeLeft(2, 0), 5) == (27, 4)     # main time ran out: a stone
    assert after_move(canadian, TimeLeft(27, 5), 7) == (20, 4)
    assert after_move(canadian, TimeLeft(5, 1), 4) == (30, 5)     # a new period
    japanese = TimeControl("byoyomi", 0, 10, 1, 3)
    assert after_move(japanese, None, 4) == (10, 3)               # within the period
    assert after_move(japanese, TimeLeft(10, 3), 12) == (10, 2)   # one period lost


def test_byo_yomi_time_is_used_whole_even_when_settled():
    control = TimeControl("byoyomi", 0, 1, 1, 3)
    assert in_byo_yomi(control, None) and in_byo_yomi(control, TimeLeft(1, 3))
    assert move_budget(control, TimeLeft(1, 3), 200, last_winrate=0.99) == \
        move_budget(control, TimeLeft(1, 3), 200, last_winrate=0.5)
    main = TimeControl("canadian", 60, 10, 5, 0)
    assert not in_byo_yomi(main, TimeLeft(50, 0)) and in_byo_yomi(main, TimeLeft(8, 3))
    assert not in_byo_yomi(TimeControl("absolute", 60, 0, 0, 0), TimeLeft(50, 0))


def test_the_last_chunk_of_a_timed_search_fits_the_time_left():
    # 1000 simulations in 0.5 s: 0.1 s left holds 200, so a chunk of 512 shrinks to them
    assert chunk_within(512, 1000, 0.5, 0.1) == 200
    assert chunk_within(128, 1000, 0.5, 0.1) == 128      # a chunk that fits stays whole
    assert chunk_within(512, 1000, 0.5, -0.01) == 1      # past the deadline: one more look
    assert chunk_within(512, 1000, 0.5, float("inf")) == 512   # pondering has no deadline
    assert chunk_within(16, 0, 0.0, 0.9) == 16           # no rate yet: the first chunk whole


@pytest.mark.parametrize("size, main, moves", [(9, 60, 35), (9, 60, 60), (19, 600, 200),
                                               (19, 60, 130)])
def test_a_game_of_close_choices_that_each_take_the_limit_never_runs_out(size, main, moves):
    budgets, used, _ = play_game(TimeControl("absolute", main, 0, 0, 0), size, moves,
                                 unsure=True)
    assert used >= 0.6 * main


def test_only_a_clock_with_time_to_spare_lets_a_close_choice_think_on():
    absolute = TimeControl("absolute", 600, 0, 0, 0)
    budget = move_budget(absolute, TimeLeft(300, 0), 300, area=361)
    assert move_limit(absolute, TimeLeft(300, 0), budget) == pytest.approx(budget * EXTEND_FACTOR)
    # late in the clock the limit is a share of what is left, never below the budget
    assert move_limit(absolute, TimeLeft(300, 0), 20.0) == pytest.approx(
        EXTEND_SHARE * 300, abs=0.2)
    assert move_limit(absolute, TimeLeft(300, 0), 40.0) == 40.0
    assert move_limit(absolute, TimeLeft(0.5, 0), 0.05) == 0.05
    assert move_limit(absolute, TimeLeft(300, 0), budget, move_time=budget) == budget
    japanese = TimeControl("byoyomi", 600, 5, 1, 3)
    assert move_limit(japanese, TimeLeft(5, 3), 4.0) == 4.0          # in a period: all of it
    assert move_limit(japanese, TimeLeft(500, 0), 4.0) == pytest.approx(8.0)   # main time
    assert move_limit(TimeControl(), None, 1.0) == 1.0               # --time: the user's
    assert move_limit(TimeControl(), None, None) is None
