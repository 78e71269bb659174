"""The two-checkout benchmark (``scripts/bench_checkouts.py``) runs the same searches in both
processes: a checkout measured against itself reports the same searches, in Go and on a
Terrain Go map with its forts."""

from pathlib import Path

from scripts import bench_checkouts

ROOT = str(Path(__file__).resolve().parents[1])


def test_a_checkout_against_itself_searches_the_same():
    line = bench_checkouts.compare(ROOT, ROOT, "go", 9, 200, 2)
    assert line.startswith("go        9x9    200 simulations x 2: OLD ")
    assert line.endswith("searches same")


def test_a_terrain_position_with_its_forts_is_searched_alike_in_both():
    line = bench_checkouts.compare(ROOT, ROOT, "terrain", 9, 100, 1)
    assert line.endswith("searches same")
