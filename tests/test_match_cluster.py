"""The match runner on a Dask cluster (``--cluster``): a local cluster of worker processes on
this machine plays the same games as one machine, and the files come back to ``--out``."""

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from gtp_engine.match.runner import main

pytest.importorskip("distributed", reason="Dask distributed missing: pip install '.[cluster]'")

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def engines_find_the_package(monkeypatch):
    """Workers and their engines import this checkout."""
    paths = [str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    monkeypatch.chdir(REPO)


def ours(*options) -> str:
    return shlex.join([sys.executable, "-m", "gtp_engine", "--threads", "1", "--quiet", *options])


def comparable(results):
    return [(g["index"], g["black"], g["result"], g["moves"], g["score"], g["forts"], g["map"])
            for g in results["games"]]


def test_a_local_cluster_plays_the_same_games_as_one_machine(tmp_path, capsys):
    engines = [ours("--playouts", "16"), ours("--playouts", "8", "--seed", "{seed}")]
    common = ["--variant", "terrain", "--size", "5", "--games", "2", "--seed", "3",
              "--no-engine-scores"]
    assert main([*engines, *common, "--jobs", "1", "--out", str(tmp_path / "here")]) == 0
    assert main([*engines, *common, "--cluster", "local:2", "--out", str(tmp_path / "there")]) == 0
    capsys.readouterr()
    here = json.loads((tmp_path / "here" / "results.json").read_text())
    there = json.loads((tmp_path / "there" / "results.json").read_text())
    assert comparable(there) == comparable(here) and len(there["games"]) == 2
    workers = {g["worker"].split()[0] for g in there["games"]}
    assert all(host_pid.split(":")[1].isdigit() for host_pid in workers)
    for g in there["games"]:
        assert (tmp_path / "there" / g["sgf"]).read_bytes().startswith(b"(;")
        log = (tmp_path / "there" / "logs" / f"game-{g['index'] + 1:04d}.gtp.log").read_text()
        assert "terrain_load" in log and "genmove" in log


@pytest.mark.slow   # a second local cluster; resuming itself is the local runner's, tested there
def test_a_cluster_match_resumes_like_a_local_one(tmp_path, capsys):
    engines = [ours("--playouts", "8"), ours("--playouts", "4")]
    out = tmp_path / "m"
    common = ["--size", "5", "--no-engine-scores", "--cluster", "local:1", "--out", str(out)]
    assert main([*engines, "--games", "1", *common]) == 0
    first = json.loads((out / "results.json").read_text())["games"][0]
    assert main([*engines, "--games", "2", *common]) == 0
    capsys.readouterr()
    games = json.loads((out / "results.json").read_text())["games"]
    assert games[0] == first and len(games) == 2


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, capsys):
    engines = [ours("--playouts", "4"), ours("--playouts", "4")]
    code = main([*engines, "--size", "5", "--cluster", "local:zero", "--out", str(tmp_path / "m")])
    assert code == 2
    assert "--cluster local:N needs a number of workers, not 'local:zero'" in capsys.readouterr().err
