"""The tree-memory benchmark (``scripts/bench_tree_memory.py``) measures what it says: on a
pool that a fixed threshold fills, the run with ``expand_doubling`` reports it never full
within the budget, the fixed one full, and the distances it prints are those of the visits."""

from scripts.bench_tree_memory import distance, main, run


def test_the_visits_distance_is_the_total_variation_distance():
    assert distance({"a": 1.0}, {"a": 1.0}) == 0.0
    assert distance({"a": 1.0}, {"b": 1.0}) == 1.0
    assert abs(distance({"a": 0.5, "b": 0.5}, {"a": 0.75, "b": 0.25}) - 0.25) < 1e-12


def test_a_fixed_threshold_fills_the_small_pool_and_a_doubling_one_does_not():
    fixed, _ = run(9, [], 1, 0.0, 3000, 4, 5)
    doubling, analysis = run(9, ["E5"], 1, 0.05, 3000, 4, 5)
    assert fixed[-1] >= 0.98
    assert max(doubling) < 0.98
    assert analysis.simulations == 3000


def test_the_report_names_each_cap_and_when_it_filled(capsys):
    assert main(["--size", "9", "--max-memory", "1", "--reference-memory", "64",
                 "--step", "3000", "--steps", "4", "--moves", "E5,C3"]) == 0
    out = capsys.readouterr().out
    assert "expand_doubling 0: fill after each search" in out
    fixed, doubling = out.split("expand_doubling 0.05")
    assert "full (98%) after" in fixed and "not full" not in fixed
    assert "not full (98%) within 12000 simulations" in doubling
