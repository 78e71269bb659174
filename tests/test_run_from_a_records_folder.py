"""The engine and the match runner started from a Go player's folder that holds a directory of
game records named ``sgf/``: ``python -m`` puts that folder first on the import path, where it
must not hide our own ``sgf`` package (``module 'sgf' has no attribute ...``).

Two ways the folder's ``sgf/`` got imported before the fix:

- ``editable``: our packages are found by an editable install's finder, which Python asks only
  after the path, so the folder's ``sgf/`` (no ``__init__.py``) became a namespace package. A
  ``sitecustomize`` stands in for ``pip install -e`` here: it adds, after the path finder, a
  finder for this checkout's ``gtp_engine`` and ``sgf`` (as setuptools' editable finder does).
- ``package``: the folder's ``sgf/`` has an ``__init__.py`` (someone's own tools) and is a
  regular package found before ours on the path.
"""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAKE = ROOT / "tests" / "fakes" / "fake_engine.py"
RECORD = b"(;FF[4]GM[1]SZ[9]KM[5.5]PB[Ann]PW[Bo];B[ee];W[cc];B[gc]C[a record of the folder])"

EDITABLE_FINDER = '''
import sys
from importlib.machinery import PathFinder


class CheckoutFinder:
    """Finds gtp_engine and sgf in the checkout under test, after the path (like pip install -e)."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name in ("gtp_engine", "sgf"):
            return PathFinder.find_spec(name, [{root!r}])
        return None


sys.meta_path.insert(sys.meta_path.index(PathFinder) + 1, CheckoutFinder)
'''


@pytest.fixture(params=["editable", "package"])
def records_folder(request, tmp_path):
    """(folder, environment): a folder with ``sgf/game.sgf``, and how Python finds our code."""
    folder = tmp_path / "go-games"
    (folder / "sgf").mkdir(parents=True)
    (folder / "sgf" / "game.sgf").write_bytes(RECORD)
    env = dict(os.environ)
    if request.param == "editable":
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(EDITABLE_FINDER.format(root=str(ROOT)))
        env["PYTHONPATH"] = str(site)
    else:
        (folder / "sgf" / "__init__.py").write_text("")
        env["PYTHONPATH"] = str(ROOT)
    where = subprocess.run([sys.executable, "-c", "import gtp_engine; print(gtp_engine.__file__)"],
                           cwd=folder, env=env, capture_output=True, text=True)
    assert Path(where.stdout.strip()).parent.parent == ROOT, where.stderr  # this checkout's code
    return folder, env


def gtp_answers(folder, env, args, commands):
    done = subprocess.run([sys.executable, "-m", "gtp_engine", *args], input="\n".join(commands) + "\n",
                          cwd=folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n\n")[:-1]


def test_loadsgf_and_printsgf_work_from_a_folder_with_an_sgf_directory(records_folder):
    folder, env = records_folder
    loaded, printed, written = gtp_answers(folder, env, ["--size", "9"],
                                           ["loadsgf sgf/game.sgf", "printsgf", "printsgf copy.sgf"])
    assert loaded == "=" and written == "="
    assert printed.startswith("= (;") and "PB[Ann]" in printed and ";W[cc]" in printed
    assert "a record of the folder" in printed
    assert b";B[gc]" in (folder / "copy.sgf").read_bytes()


def test_setup_from_a_file_in_the_sgf_directory(records_folder):
    folder, env = records_folder
    printed, = gtp_answers(folder, env, ["--setup", "sgf/game.sgf"], ["printsgf"])
    assert "SZ[9]" in printed and "KM[5.5]" in printed


def test_a_match_writes_its_records_from_a_folder_with_an_sgf_directory(records_folder):
    folder, env = records_folder
    engine = shlex.join([sys.executable, str(FAKE)])
    done = subprocess.run([sys.executable, "-m", "gtp_engine.match", engine, engine, "--size", "5",
                           "--games", "1", "--out", "match"], cwd=folder, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    results = json.loads((folder / "match" / "results.json").read_text())
    assert results["games_played"] == 1 and results["games"][0]["sgf"] == "game-0001.sgf"
    assert (folder / "match" / "game-0001.sgf").read_bytes().startswith(b"(;")


def test_the_working_directory_leaves_the_path_unless_our_package_is_there(tmp_path, monkeypatch):
    from gtp_engine import import_path
    elsewhere = [str(tmp_path / "lib")]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *elsewhere])
    import_path.forget_working_directory()  # python -m from a player's folder
    assert sys.path == elsewhere
    monkeypatch.setattr(sys, "path", ["/usr/local/bin", *elsewhere])
    import_path.forget_working_directory()  # a console script: its own directory comes first
    assert sys.path == ["/usr/local/bin", *elsewhere]
    monkeypatch.chdir(import_path.PACKAGE_PARENT)
    monkeypatch.setattr(sys, "path", [str(import_path.PACKAGE_PARENT), *elsewhere])
    import_path.forget_working_directory()  # python -m in a checkout: its sgf/ is ours
    assert sys.path == [str(import_path.PACKAGE_PARENT), *elsewhere]
