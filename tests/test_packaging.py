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


def test_the_browser_boards_page_ships_in_the_package():
    patterns = PROJECT["tool"]["setuptools"]["package-data"]["gtp_engine.web"]
    static = ROOT / "gtp_engine" / "web" / "static"
    files = {p.relative_to(static.parent).as_posix() for p in static.iterdir() if p.is_file()}
    assert {"static/index.html", "static/app.js", "static/board.js", "static/style.css"} <= files
    shipped = {f for f in files if any(Path(f).match(pattern) for pattern in patterns)}
    assert shipped == files
