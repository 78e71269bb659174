"""The time manager: budgets that never exceed the clock (with a margin), spread over the game,
per stone in byo-yomi, smaller once the result is settled."""

import pytest

from gtp_engine.gtp.engine import TimeControl, TimeLeft
from gtp_engine.search.timing import (MIN_BUDGET, SAFETY_SECONDS, SETTLED_FACTOR, move_budget)


def test_no_clock_uses_the_move_time_or_leaves_it_to_the_settings():
    assert move_budget(TimeControl(), None, 81, move_time=2.5) == 2.5
    assert move_budget(TimeControl(), None, 81) is None


@pytest.mark.parametrize("seconds", [0.5, 3, 30, 600])
@pytest.mark.parametrize("empties", [0, 40, 81, 361])
def test_absolute_time_never_spends_the_clock(seconds, empties):
    control = TimeControl("absolute", 600, 0, 0, 0)
    budget = move_budget(control, TimeLeft(seconds, 0), empties)
    assert budget <= max(MIN_BUDGET, seconds - SAFETY_SECONDS)
    assert budget >= MIN_BUDGET


def test_a_whole_game_on_the_clock_spends_more_early_and_never_runs_out():
    control = TimeControl("absolute", 120, 0, 0, 0)
    left, spent = 120.0, []
    for move in range(60):            # 60 own moves on 9x9, two empty points fewer each time
        budget = move_budget(control, TimeLeft(left, 0), max(81 - 2 * move, 0))
        spent.append(budget)
        left -= budget + 0.05         # the pipe and the controller's own overhead
        assert left > 0
    assert sum(spent[:20]) > sum(spent[40:])


def test_canadian_byo_yomi_gives_each_stone_its_share():
    control = TimeControl("canadian", 0, 60, 10, 0)
    budget = move_budget(control, TimeLeft(30, 5), 200)
    assert 3 < budget < 6   # 30 s for 5 stones, less the margin


def test_japanese_byo_yomi_uses_the_period():
    control = TimeControl("byoyomi", 0, 10, 1, 3)
    budget = move_budget(control, TimeLeft(10, 3), 200)
    assert 5 < budget < 10
    assert move_budget(control, None, 200) < 10


def test_settled_games_think_less():
    control = TimeControl("absolute", 600, 0, 0, 0)
    normal = move_budget(control, TimeLeft(600, 0), 100, last_winrate=0.6)
    settled = move_budget(control, TimeLeft(600, 0), 100, last_winrate=0.99)
    assert settled == pytest.approx(normal * SETTLED_FACTOR)


def test_the_move_time_caps_a_clock_budget():
    control = TimeControl("absolute", 6000, 0, 0, 0)
    assert move_budget(control, None, 361, move_time=1.0) == 1.0
