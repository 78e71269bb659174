"""What ``pip install`` puts in site-packages: our two packages and every subpackage of theirs,
never ``scripts`` or ``tests``; and the console scripts point at functions that exist."""

import importlib
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")
setuptools = pytest.importorskip("setuptools")

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def installed_packages():
    find = PROJECT["tool"]["setuptools"]["packages"]["find"]
    return set(setuptools.find_packages(where=str(ROOT), include=find["include"],
                                        exclude=find.get("exclude", ())))


def test_only_the_product_packages_are_installed():
    packages = installed_packages()
    assert {name.split(".")[0] for name in packages} == {"gtp_engine", "sgf"}
    assert "scripts" not in packages and "tests" not in packages


def test_every_package_directory_of_the_product_is_installed():
    on_disk = {".".join(init.parent.relative_to(ROOT).parts)
               for top in ("gtp_engine", "sgf") for init in (ROOT / top).rglob("__init__.py")}
    assert "gtp_engine.match" in on_disk
    assert on_disk == installed_packages()


@pytest.mark.parametrize("name", ["vargo", "vargo-match", "vargo-sgf", "vargo-web"])
def test_console_scripts_name_functions_of_installed_packages(name):
    module_name, function = PROJECT["project"]["scripts"][name].split(":")
    assert module_name.split(".")[0] in {"gtp_engine", "sgf"}
    assert callable(getattr(importlib.import_module(module_name), function))


# ----------------------------------------------------------------- the rule book
def copy_of_the_source(target: Path) -> Path:
    """What a source distribution holds (the link gtp_engine/RULES.md stays a link), in ``target``."""
    import shutil
    for name in ("gtp_engine", "sgf", "docs"):
        shutil.copytree(ROOT / name, target / name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, target / name)
    return target


def test_the_rule_book_is_package_data(tmp_path):
    """setuptools' build_py (what a wheel's files are made of) copies RULES.md into gtp_engine."""
    import subprocess
    import sys
    source = copy_of_the_source(tmp_path / "src")
    built = tmp_path / "lib"
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                    "--build-lib", str(built)], cwd=source, check=True, capture_output=True)
    copy = built / "gtp_engine" / "RULES.md"
    assert copy.is_file() and not copy.is_symlink()
    assert copy.read_bytes() == (ROOT / "docs" / "RULES.md").read_bytes()
    # so are the learned move models, one file per game that has one
    models = sorted(p.name for p in (ROOT / "gtp_engine" / "search" / "knowledge").glob("*.npz"))
    assert models and sorted(p.name for p in (built / "gtp_engine" / "search" / "knowledge")
                             .glob("*.npz")) == models


@pytest.mark.slow
def test_the_built_wheel_holds_the_rule_book(tmp_path):
    """A real wheel, built by pip (it fetches setuptools to build: needs the network)."""
    import subprocess
    import sys
    import zipfile
    source = copy_of_the_source(tmp_path / "src")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                    str(source)], check=True, capture_output=True)
    wheel, = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("gtp_engine/RULES.md") == (ROOT / "docs" / "RULES.md").read_bytes()


def test_help_points_to_the_installed_rule_book():
    import subprocess
    import sys
    from gtp_engine.cli import RULES_BOOK
    shown = subprocess.run([sys.executable, "-m", "gtp_engine", "--help"], capture_output=True,
                           text=True, check=True).stdout
    assert RULES_BOOK.endswith(str(Path("gtp_engine") / "RULES.md"))
    assert RULES_BOOK in "".join(shown.split())          # argparse wraps the path's line
    assert Path(RULES_BOOK).read_bytes() == (ROOT / "docs" / "RULES.md").read_bytes()


def test_the_browser_boards_page_ships_in_the_package():
    patterns = PROJECT["tool"]["setuptools"]["package-data"]["gtp_engine.web"]
    static = ROOT / "gtp_engine" / "web" / "static"
    files = {p.relative_to(static.parent).as_posix() for p in static.iterdir() if p.is_file()}
    assert {"static/index.html", "static/app.js", "static/board.js", "static/style.css"} <= files
    shipped = {f for f in files if any(Path(f).match(pattern) for pattern in patterns)}
    assert shipped == files
