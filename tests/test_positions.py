"""Each game's own strategy as tests of the player (issue 72, "positions from the rules").

The positions live in ``scripts/problems/variants.jsonl`` (its keys: ``tests/positions.py``),
so that ``scripts/bench_problems.py run`` scores an engine on them too. Each one was solved
exactly by ``tests/solver.py`` on the reference rules; the file keeps the solver's value of
every legal move, and the slow test here solves each position again and must find the same.

The player (``SearchPlayer`` at the position's fixed ``playouts`` and ``seed``) must choose
one of the ``right`` moves. Where today's player does not, the test is a strict xfail naming
the blind spot: a fix turns it into a pass, and strict xfail then says so.
"""

import pytest

from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.search.player import SearchPlayer, SearchSettings

import positions
import solver
from reference import RefBoard

PROBLEMS = positions.load()


def _id(problem):
    return problem["source"]


def _player_cases():
    for problem in PROBLEMS:
        marks = []
        if problem.get("blind_spot"):
            marks.append(pytest.mark.xfail(strict=True, reason=problem["blind_spot"]))
        yield pytest.param(problem, id=_id(problem), marks=marks)


@pytest.mark.parametrize("problem", list(_player_cases()))
def test_the_player_finds_the_right_move(problem):
    game = positions.game(problem)
    search = SearchPlayer(SearchSettings(playouts=problem["playouts"], threads=1,
                                         seed=problem["seed"]))
    move, analysis = search.genmove(game, positions.mover(problem))
    chosen = format_vertex(move).upper()
    assert chosen in problem["right"], (
        f"{problem['theme']}\nplayed {chosen} (win rate {analysis.winrate:.2f}); right: "
        f"{problem['right']}; solved values: {problem['values']}")


@pytest.mark.parametrize("problem", [p for p in PROBLEMS if "misread" in p.get("blind_spot", "")],
                         ids=_id)
def test_five_times_the_budget_reads_the_positions_misread_at_the_smaller_one(problem):
    """The misreads are the budget's, not a rule the search gets wrong: 10,000 simulations
    find the winning move (kept so that a change of the search does not lose it)."""
    search = SearchPlayer(SearchSettings(playouts=5 * problem["playouts"], threads=1,
                                         seed=problem["seed"]))
    move, _ = search.genmove(positions.game(problem), positions.mover(problem))
    assert format_vertex(move).upper() in problem["right"]


@pytest.mark.slow
@pytest.mark.parametrize("problem", PROBLEMS, ids=_id)
def test_the_solver_finds_the_stored_values(problem):
    board = positions.reference_board(problem)
    solved = solver.Solver(problem["game"], problem["komi"], problem.get("fort_value", 0))
    values = solved.move_values(board, positions.mover(problem), positions.opponent_passed(problem))
    assert {solver.vertex(m): v for m, v in values.items()} == problem["values"]
    assert [solver.vertex(m) for m in solver.best_moves(values)] == problem["right"]


@pytest.mark.parametrize("problem", PROBLEMS, ids=_id)
def test_each_position_is_one_position_on_both_rules_and_the_file_is_consistent(problem):
    """The product's game and the reference board hold the same stones; ``good`` is right,
    ``bad`` is not, and the right moves are exactly those the stored values say."""
    assert positions.game(problem).position.rows() == positions.reference_board(problem).rows()
    assert problem["good"] in problem["right"] and problem["bad"] not in problem["right"]
    values = problem["values"]
    best = max(values.values())
    wanted = [m for m, v in values.items() if (v > 0 if best > 0 else v == best)]
    assert sorted(wanted) == sorted(problem["right"])
    assert problem["game"] in problem["source"]


# ----------------------------------------------------------------- the solver itself
def test_the_solver_scores_a_loose_tie_against_the_final_passer():
    """RULES L5: Black 4 stones, White 2 and komi 2 is a tie, lost by whoever passed last."""
    board = RefBoard.from_rows(["XX.", "XX.", "OO."], "loose")
    tie = solver.Solver("loose", komi=2)
    assert tie.final_margin(board, Color.BLACK) == -solver.TIE
    assert tie.final_margin(board, Color.WHITE) == solver.TIE
    assert solver.Solver("loose", komi=0).final_margin(board, Color.BLACK) == 2


def test_the_solver_ends_goncrete_at_annihilation():
    """RULES G4's example: White B1 flips every black stone and ends the game at once."""
    board = RefBoard.from_rows(["XXX", "XXX", "X.O"], "flip_remove")
    values = solver.Solver("goncrete", komi=0.5).move_values(board, Color.WHITE)
    assert values[parse_vertex("B1", 3)] == 9.5    # the whole board (8 stones, the emptied
    # centre) and komi for White, nothing for Black
    assert solver.best_moves(values) == [parse_vertex("B1", 3)]


def test_the_solver_reads_a_disto_meal_that_may_not_be_fed():
    """RULES D2's example after Black B2 and D2: White C2 is a glutton with one liberty, C1;
    Black may not fill it, so Black's moves there are not in the solver's list."""
    board = RefBoard.from_rows([".....", "..O..", ".OXO.", ".XOX.", "....."], "meals")
    legal = [p for p, *_ in solver.Solver("disto", 0.5).placements(board, Color.BLACK, frozenset())]
    assert parse_vertex("C1", 5) not in legal and parse_vertex("A1", 5) in legal
