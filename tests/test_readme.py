"""README is a player's guide, and every command it shows works.

What is checked here:

- its two commands come first, as CI runs them (``.ci/run``); then what the engine is, the Python
  version it needs (``pyproject.toml``'s), how long the tests take, the first minute in one marked
  block; at most 300 lines, with no research figures (they live in docs/RESEARCH.md, whose head
  is a short summary);
- the default komi is stated once, in README, and is the engine's;
- every command README shows, in a ``sh`` block or inline (a code span that starts with one of
  the programs below), is run or parsed by the real parser of the program it names:

  ======================================  ==========================================================
  ``vargo ARGS``, ``python -m gtp_engine``  run: the engine is started with these arguments and
                                          answers a short GTP session (``name``, ``clear_board``,
                                          ``showboard``, ``quit``); also parsed by ``parse_options``
                                          and built by ``build_game`` (``--forts auto`` with
                                          ``--fort-playouts 0`` added: the heuristic's forts at once)
  ``--variant ...`` (Sabaki's arguments)    the same, as ``vargo`` with these arguments
  ``vargo-web ARGS``                      run with ``--port 0`` added (the default port may be in
                                          use): the server starts its engine, prints its address,
                                          and the page is fetched from it; then Ctrl-C
  ``vargo-sgf ...``                       run as written, in order, in a folder holding a Loose
                                          game (``game.sgf``) the engine wrote
  ``python -m gtp_engine.search.warmup``  run (the kernels are in the cache by then: the
                                          session's ``compiled_search_kernels`` fixture)
  ``gogui -program "P" ...``              parsed: P is run as ``vargo`` above (it is what GoGui
                                          starts, as player and ruler), GoGui's ``-size`` and
                                          ``-komi`` must be P's game's (the GUI itself is not run)
  ``vargo-match ...``                     parsed by its parser and validated by
                                          ``config_from_args`` (a match of 20 games takes
                                          minutes); marked slow: run with ``--games 1``
  ``which vargo``                         the ``vargo`` script is installed beside this Python
  ``pip install ...``, ``npm install``,   run by CI: ``.ci/run`` runs README's test command
  ``python -m pytest``, ``apt-get``       verbatim and installs GNU Go; here only the extras
                                          named exist and the web extra is inside the test extra
  ======================================  ==========================================================

  A command README says is refused (``--variant loose --size 10``) must be refused with exit 2.
  The GTP commands it suggests typing into the first command's engine are run there; the GTP
  commands it names (``GTP `printsgf ...```) must be the engine's.
- every link in README and docs/*.md leads to a file that exists, and an ``#anchor`` to one of
  its headings;
- the GTP session excerpts of docs/GUIDE.md are what the engine answers.
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from gtp_engine.cli import build_game, build_parser, parse_options
from gtp_engine.gtp import GtpEngine, GtpError
from gtp_engine.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "docs" / "GUIDE.md").read_text(encoding="utf-8")
RESEARCH = (ROOT / "docs" / "RESEARCH.md").read_text(encoding="utf-8")
PYPROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
FIRST_COMMAND = "pip install -e . && vargo --variant loose --size 9"
TEST_COMMAND = 'pip install -e ".[test]" && npm install --prefix tests/node && python -m pytest'
# the programs whose inline code spans are commands; `python -m gtp_engine` is vargo itself
PROGRAMS = ("vargo", "vargo-web", "vargo-match", "vargo-sgf", "gogui", "python", "pip", "npm",
            "which", "apt-get")
REFUSED = ["--variant loose --size 10"]       # README shows them as refused


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def without_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)


# ----------------------------------------------------------------- what README says first
def test_the_two_commands_come_first_as_ci_runs_them():
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)
    assert blocks[:2] == [FIRST_COMMAND, TEST_COMMAND]
    assert README.index(FIRST_COMMAND) < README.index(TEST_COMMAND) < README.index("\n## ")
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text()


def test_the_first_screen_says_what_it_is_what_it_needs_and_where_to_play():
    first = "\n".join(README.splitlines()[:30])
    minimum = re.search(r'^requires-python = ">=(\d+\.\d+)"$', PYPROJECT, re.MULTILINE).group(1)
    assert f"Python {minimum} or newer" in first
    for words in ("Go", "Loose", "Goncrete", "Disto", "Terrain Go", "GTP", "web browser",
                  "about 6 minutes"):
        assert words in first, words
    assert "a few minutes" not in README


def test_the_first_minute_is_one_marked_block_with_the_compile_ahead():
    blocks = re.findall(r"<!-- first-minute.*?-->\n(.*?)<!-- /first-minute -->", README, re.DOTALL)
    assert len(blocks) == 1 and README.count("first-minute:") == 1
    assert "```sh\npython -m gtp_engine.search.warmup\n```" in blocks[0]
    assert re.search(r"\*\*\d+ s\*\*", blocks[0]), "the measured figure"


def test_the_browser_board_comes_before_the_other_frontends():
    headings = re.findall(r"^## (.*)$", README, re.MULTILINE)
    assert headings.index("Play in the browser") < headings.index("GoGui") < headings.index("Sabaki")
    for site in ("https://github.com/Remi-Coulom/gogui", "https://sabaki.yichuanshen.de/"):
        assert f"]({site})" in README


def test_each_game_has_a_paragraph_and_a_picture_of_the_browser_board():
    games = section(README, "The games")
    for rules in ALL_RULES:
        assert f"(`{rules.name}`)" in games, rules.name
        assert f'<img src="docs/web-{rules.name}.png"' in games, rules.name


def test_readme_is_a_guide_and_the_research_lives_in_docs():
    assert len(README.splitlines()) <= 300
    for research in ("scripts/calibrate_komi.py --variant", "--fort-playouts 1200\" \\",
                     "Validation on standard Go", "39 wins of 40", "fair_komi_maps.py --size 9"):
        assert research not in README and research in RESEARCH, research
    assert not re.search(r"95%|Elo|\bH1\b|\w+(th|st|nd|rd) session", README), \
        "figures with intervals and their history belong in docs/"
    assert "docs/RESEARCH.md" in README
    # RESEARCH.md opens with the current summary, then the log
    assert RESEARCH.index("## How strong it is") < RESEARCH.index("## How it plays") \
        < RESEARCH.index("\n# The log\n")
    assert len(RESEARCH[:RESEARCH.index("\n# The log\n")].splitlines()) < 150


# ----------------------------------------------------------------- the default komi
def default_komi_table():
    rows = re.findall(r"^\| (\w+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$",
                      section(README, "Default komi"), re.MULTILINE)
    return {name: [float(v) for v in values] for name, *values in rows}


def test_the_default_komi_is_stated_once_and_is_the_engines():
    table = default_komi_table()
    assert set(table) == {rules.name for rules in ALL_RULES}
    for rules in ALL_RULES:
        assert table[rules.name] == [rules.default_komi_for(n) for n in (7, 9, 13, 19, 11)], rules.name
    for text in (README, GUIDE):
        assert text.count("| game | 7x7 | 9x9 | 13x13 | 19x19 |") == (text is README)
        # no other place lists the defaults a frontend user must match
        assert not re.search(r"on 9x9 Go 7\.5|Goncrete 8\.5, Terrain Go 6\.5", text)


def test_the_fort_playouts_defaults_are_the_codes():
    from gtp_engine.search.fortsearch import playouts_per_candidate
    expected = "1200 on 9x9, 591 on 13x13, 277 on 19x19"
    assert [playouts_per_candidate(n) for n in (9, 13, 19)] == [1200, 591, 277]
    assert expected in README and expected in GUIDE
    assert expected in " ".join(build_parser().format_help().split())


def test_every_option_of_the_engine_is_in_readmes_table():
    table = section(README, "Options")
    for action in build_parser()._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                assert f"`{flag}" in table, flag


# ----------------------------------------------------------------- every command README shows
def readme_commands(text: str = README) -> List[List[str]]:
    """Every command of README, as an argument vector, in the order README shows them: the
    ``sh`` blocks (continuation lines joined, comments dropped, ``&&`` split) and the inline
    code spans that start with one of PROGRAMS (or with ``--variant``: vargo's arguments);
    not the spans that show a syntax (``--variant NAME``: a word in capitals)."""
    found: List[Tuple[int, int, str]] = []
    for block in re.finditer(r"```sh\n(.*?)\n```", text, re.DOTALL):
        for line in block.group(1).replace("\\\n", " ").splitlines():
            for command in line.split(" && "):
                if command.strip() and not command.strip().startswith("#"):
                    found.append((block.start(), len(found), command))
    prose = re.sub(r"```.*?```", lambda m: " " * len(m.group(0)), text, flags=re.DOTALL)
    for span in re.finditer(r"`([^`]+)`", prose.replace("\n", " ")):     # spans may wrap
        code = re.sub(r" +", " ", span.group(1))
        if code in REFUSED or re.search(r"(^| )[A-Z]+( |$)|\.\.\.|\|", code) or code == "python -m":
            continue                                   # a syntax or an elision, not a command
        if code.startswith("--variant "):
            found.append((span.start(), len(found), "vargo " + code))
        elif code.split(" ")[0] in PROGRAMS and " " in code:
            found.append((span.start(), len(found), code))
    return [shlex.split(command, comments=True) for _, _, command in sorted(found)]


def test_the_commands_are_found():
    """The collector sees every kind of command README has, so that none goes unchecked."""
    programs = {argv[0] for argv in readme_commands()}
    assert {"pip", "npm", "python", "vargo", "vargo-web", "vargo-match", "vargo-sgf", "gogui",
            "which", "apt-get"} <= programs
    assert set(programs) <= set(PROGRAMS), programs - set(PROGRAMS)
    assert sum(argv[0] == "gogui" for argv in readme_commands()) == 4


def run_vargo(args: List[str]) -> None:
    """Parse ``vargo ARGS`` with the engine's parser, build its game, and run the engine with
    them for a short GTP session: every answer a success."""
    quick = ["--fort-playouts", "0"] if "auto" in args else []       # forts by the heuristic
    game = build_game(parse_options(args + quick))
    assert game.size >= 2
    script = "name\nclear_board\nshowboard\nquit\n"
    done = subprocess.run([sys.executable, "-m", "gtp_engine", *args, *quick], input=script,
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, (args, done.stderr)
    answers = [block for block in done.stdout.split("\n\n") if block.strip()]
    assert len(answers) == 4 and all(a.startswith("=") for a in answers), (args, done.stdout)
    assert answers[0] == "= vargo"


def vargo_commands():
    """The argument lists of README's ``vargo`` (and ``python -m gtp_engine``) commands, once each."""
    found = [argv[1:] for argv in readme_commands() if argv[0] == "vargo"] + \
        [argv[3:] for argv in readme_commands() if argv[:3] == ["python", "-m", "gtp_engine"]]
    return [list(args) for args in dict.fromkeys(map(tuple, found))]


@pytest.mark.parametrize("args", vargo_commands(), ids=" ".join)
def test_readmes_vargo_commands_run(args):
    run_vargo(args)


def test_the_first_command_answers_the_gtp_readme_suggests():
    """README suggests a few GTP commands to type into the first command's engine: they work
    there (the move from the opening book of 9x9 Loose)."""
    suggested = re.findall(r"`([a-z_]+(?: [a-z]+)?)`", re.search(r"\(try ([^)]*)\)", README).group(1))
    assert suggested[-1] == "quit" and len(suggested) >= 3
    args = FIRST_COMMAND.split(" && ")[1].split()[1:]
    done = subprocess.run([sys.executable, "-m", "gtp_engine", *args], input="\n".join(suggested) + "\n",
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    answers = [block for block in done.stdout.split("\n\n") if block.strip()]
    assert len(answers) == len(suggested) and all(a.startswith("=") for a in answers), done.stdout


@pytest.mark.parametrize("text", REFUSED)
def test_the_refused_example_is_refused(text):
    """README says a bad combination prints a message on stderr and exits with code 2."""
    assert f"`{text}`" in README
    done = subprocess.run([sys.executable, "-m", "gtp_engine", *text.split()], input="",
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert "loose needs an odd board size, not 10" in done.stderr


def gogui_commands():
    return [argv for argv in readme_commands() if argv[0] == "gogui"]


@pytest.mark.parametrize("argv", gogui_commands(), ids=lambda argv: argv[2])
def test_readmes_gogui_commands_start_the_engine_with_gogui_s_size_and_komi(argv):
    options = dict(zip(argv[1::2], argv[2::2]))
    assert set(options) <= {"-program", "-size", "-komi"}, options     # GoGui's own options
    program = shlex.split(options["-program"])
    assert program[0] == "vargo"
    game = build_game(parse_options(program[1:] + ["--fort-playouts", "0"]))
    assert float(options["-komi"]) == game.komi and int(options["-size"]) == game.size
    run_vargo(program[1:])


def web_commands():
    return [argv for argv in readme_commands() if argv[0] == "vargo-web"]


@pytest.mark.parametrize("argv", web_commands(), ids=" ".join)
def test_readmes_browser_board_commands_serve_the_page(argv):
    pytest.importorskip("aiohttp")
    from gtp_engine.web.cli import engine_command, parse_args
    options, rest = parse_args(argv[1:])
    engine = engine_command(options.engine, rest)
    if engine[:3] == [sys.executable, "-m", "gtp_engine"]:
        build_game(parse_options(engine[3:]))
    elif not os.path.exists(engine[0]):
        pytest.skip(f"{engine[0]} is not installed (CI installs GNU Go)")
    server = subprocess.Popen([sys.executable, "-m", "gtp_engine.web", *argv[1:], "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        url = None
        for line in server.stdout:                       # waits for the engine to start
            if line.strip().startswith("http://"):
                url = line.strip()
                break
        assert url, server.stderr.read()
        with urllib.request.urlopen(url) as page:
            assert page.status == 200 and "<html" in page.read().decode().lower()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate()
    assert server.returncode == 0


def sgf_commands():
    return [argv for argv in readme_commands() if argv[0] == "vargo-sgf"]


def test_readmes_sgf_commands_run_on_a_game_the_engine_wrote(tmp_path):
    engine = GtpEngine(build_game(parse_options(["--variant", "loose", "--size", "5", "--quiet"])),
                       parse_options(["--threads", "1"]).engine_settings())
    for move in ("b B3", "w B4", "w C4", "w A3", "w B2", "w C2", "w D3"):   # D3 flips B3
        engine.run_command("play", move.split())
    (tmp_path / "game.sgf").write_text(engine.run_command("printsgf", []), encoding="utf-8")
    commands = sgf_commands()
    assert [argv[1] for argv in commands] == ["check", "view", "record"]
    for argv in commands:
        done = subprocess.run([sys.executable, "-m", "sgf.tool", *argv[1:]], cwd=tmp_path,
                              capture_output=True, text=True)
        assert done.returncode == 0, (argv, done.stderr)
        if argv[1] == "check":
            assert "loose" in done.stdout.lower()
    view = (tmp_path / "game-view.sgf").read_text(encoding="utf-8")
    assert re.search(r"A[BW]\[", view), "the view form puts the flipped stone back"
    assert "AB[" not in (tmp_path / "game.sgf").read_text(encoding="utf-8").split(";B[")[1]


def test_readmes_warmup_command_runs():
    commands = [argv for argv in readme_commands() if argv[:3] == ["python", "-m", "gtp_engine.search.warmup"]]
    assert commands
    for argv in commands:
        done = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr


def match_commands():
    return [argv for argv in readme_commands() if argv[0] == "vargo-match"]


def test_readmes_match_commands_are_valid_matches():
    from gtp_engine.match.runner import build_parser as match_parser, config_from_args
    assert match_commands()
    for argv in match_commands():
        config = config_from_args(match_parser().parse_args(argv[1:]))
        assert config.games >= 1
        for command in config.commands:
            engine = shlex.split(command)
            if engine[0] == "vargo":
                build_game(parse_options(engine[1:]))
            else:
                assert engine[0].startswith("/"), f"an engine outside vargo by its full path: {command}"


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/usr/games/gnugo"), reason="GNU Go is not installed")
def test_readmes_match_command_plays_one_game(tmp_path):
    """The same match, one game instead of 20 (seconds once the kernels are compiled)."""
    from gtp_engine.match.runner import main as match_main
    for argv in match_commands():
        args = argv[1:]
        args[args.index("--games") + 1] = "1"
        args[args.index("--out") + 1] = str(tmp_path / "run")
        engines = [a.replace("vargo ", f"{sys.executable} -m gtp_engine ", 1) for a in args[:2]]
        assert match_main(engines + args[2:] + ["--quiet"]) == 0


def test_which_vargo_finds_the_installed_script():
    assert ["which", "vargo"] in readme_commands()
    assert (Path(sys.executable).parent / "vargo").exists() or shutil.which("vargo")


def test_the_install_commands_are_cis_and_name_real_extras():
    """pip, npm, pytest and apt-get commands are run by CI (``.ci/run``), not here."""
    ci = (ROOT / ".ci" / "run").read_text()
    table = PYPROJECT.split("[project.optional-dependencies]\n")[1].split("\n[")[0]
    extras = {name: re.findall(r'"([^"]+)"', values)
              for name, values in re.findall(r"^(\w+) = \[(.*)\]$", table, re.MULTILINE)}
    assert {"web", "test"} <= set(extras)
    for argv in readme_commands():
        if argv[:2] == ["pip", "install"]:
            target = argv[-1]
            assert argv[2] == "-e" and re.fullmatch(r"\.(\[\w+\])?", target), argv
            extra = target[2:-1] if "[" in target else None
            assert extra is None or extra in extras, extra
            assert set(extras.get(extra, [])) <= set(extras["test"]), "CI's install covers it"
        elif argv[0] == "npm":
            assert argv == ["npm", "install", "--prefix", "tests/node"]
            assert (ROOT / "tests" / "node" / "package.json").exists()
        elif argv[0] == "apt-get":
            assert argv[:2] == ["apt-get", "install"] and all(f" {p}" in ci for p in argv[2:])
    assert "python -m pytest" in TEST_COMMAND


def test_the_gtp_commands_readme_names_are_the_engines():
    engine = GtpEngine(build_game(parse_options([])), parse_options(["--threads", "1"]).engine_settings())
    known = set(engine.run_command("list_commands", []).split())
    named = re.findall(r"GTP `([a-z_-]+)[^`]*`", README)
    assert len(named) >= 3
    assert set(named) <= known, set(named) - known


# ----------------------------------------------------------------- the commands of docs/
MODULES = {"gtp_engine": "vargo", "gtp_engine.match": "vargo-match", "gtp_engine.web": "vargo-web"}


def parse_vargo_args(args: List[str]) -> None:
    """vargo's parser takes them (no file is read: ``--setup`` files are made by other commands)."""
    build_parser().parse_args([arg.replace("{seed}", "1") for arg in args])


def parse_doc_command(argv: List[str]) -> None:
    """A command of docs/ parsed by the real parser of the program it runs (they play matches,
    search forts and estimate komi for minutes, or need a GUI: parsed, not run)."""
    if argv[0] == "vargo":
        parse_vargo_args(argv[1:])
    elif argv[0] == "vargo-web":
        from gtp_engine.web.cli import parse_args
        options, rest = parse_args(argv[1:])
        assert options.engine or parse_vargo_args(rest) is None
    elif argv[0] == "vargo-match":
        from gtp_engine.match.runner import build_parser as match_parser
        args = match_parser().parse_args(argv[1:])
        for command in (args.engine_a, args.engine_b):
            engine = shlex.split(command)
            if engine[0] == "vargo":
                parse_vargo_args(engine[1:])
            else:
                assert engine[0].startswith("/"), f"an engine outside vargo by its full path: {command}"
    elif argv[0] == "gogui":
        options = dict(zip(argv[1::2], argv[2::2]))
        game = build_game(parse_options(shlex.split(options["-program"])[1:] + ["--fort-playouts", "0"]))
        assert float(options["-komi"]) == game.komi and int(options["-size"]) == game.size
    elif argv[:3] == ["python", "-m", "pytest"]:
        assert all((ROOT / arg).exists() for arg in argv[3:] if arg.startswith("tests/")), argv
    elif argv[:2] == ["python", "-m"] and len(argv) == 3:       # a program named by its module
        import importlib.util
        assert importlib.util.find_spec(argv[2]) is not None, argv
        if argv[2] != "gtp_engine.search.warmup":              # a module, or a package to run
            assert importlib.util.find_spec(argv[2] + ".__main__") or argv[2] == "sgf.tool", argv
    elif argv[:2] == ["python", "-m"]:
        parse_doc_command([MODULES[argv[2]], *argv[3:]])
    elif argv[0] == "python" and argv[1].startswith("scripts/") and len(argv) == 2:
        assert (ROOT / argv[1]).is_file(), argv                # a script named, not run
    elif argv[0] == "python" and argv[1].startswith("scripts/"):
        import importlib
        module = importlib.import_module(argv[1][:-len(".py")].replace("/", "."))
        if hasattr(module, "build_parser"):
            module.build_parser().parse_args(argv[2:])
        else:                                        # its parser is built inside main()
            source = (ROOT / argv[1]).read_text(encoding="utf-8")
            for option in (arg for arg in argv[2:] if arg.startswith("--")):
                assert f'add_argument("{option}"' in source, (argv, option)
    elif argv[0] == "vargo-sgf":
        from sgf.tool import parser as sgf_parser
        sgf_parser().parse_args(argv[1:])
    elif argv[0] == "pip":
        assert argv[:2] == ["pip", "install"] and re.fullmatch(r"\.(\[(web|test|cluster)\])?", argv[-1]), argv
        assert f"\n{argv[-1][2:-1]} = [" in PYPROJECT or argv[-1] == ".", argv
    elif argv[0] in ("which", "apt-get"):                      # the system's, as in README
        assert argv in (["which", "vargo"], ["apt-get", "install", "chromium", "chromium-driver"]), argv
    else:
        raise AssertionError(f"a command of docs/ that no test checks: {argv}")


@pytest.mark.parametrize("name", ["GUIDE.md", "MATCHES.md"])
def test_the_commands_of_the_docs_parse(name):
    commands = readme_commands((ROOT / "docs" / name).read_text(encoding="utf-8"))
    assert len(commands) >= 5
    for argv in commands:
        parse_doc_command(argv)


def test_a_doc_command_with_a_wrong_option_is_caught():
    with pytest.raises(SystemExit):
        parse_doc_command(["vargo-match", "vargo --playout 300", "/usr/games/gnugo", "--size", "9"])


# ----------------------------------------------------------------- links
def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set:
    seen: Dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", without_fences(path.read_text(encoding="utf-8")),
                              re.MULTILINE):
        base = slug(heading)
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return found


def links(path: Path) -> List[str]:
    """The targets of a document's links, pictures and ``<img src>`` (not those in code)."""
    text = re.sub(r"`[^`]*`", "", without_fences(path.read_text(encoding="utf-8")))
    return re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img src="([^"]+)"', text)


DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_every_link_leads_somewhere(path):
    for link in links(path):
        if re.match(r"[a-z]+:", link):
            assert link.startswith("https://"), link                 # the web: not fetched here
            continue
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        assert file.exists(), f"{path.name}: {link}"
        if anchor:
            assert anchor in anchors(file), f"{path.name}: {link}"


def test_the_links_are_found():
    readme = links(ROOT / "README.md")
    assert len(readme) >= 15 and "docs/GUIDE.md#sabaki" in readme and "docs/web-go.png" in readme


def test_the_slugs_are_githubs():
    assert slug("Start-up: compiling the kernels") == "start-up-compiling-the-kernels"
    assert slug("A GTP session per game") == "a-gtp-session-per-game"
    assert slug("Pachi's nlib defence kept (twenty-seventh session)") == \
        "pachis-nlib-defence-kept-twenty-seventh-session"


# ----------------------------------------------------------------- the GTP excerpts in GUIDE
def excerpts():
    """(command line, [(command, answer)]) of the session excerpts that start from the
    engine's start (no elided moves)."""
    found = []
    for match in re.finditer(r"\(`(vargo [^`]*)`\)(?:(?!```).)*?```\n(.*?)\n```",
                             section(GUIDE, "A GTP session per game"), re.DOTALL):
        command_line, body = match.groups()
        if re.search(r"^\.\.\. ", body, re.MULTILINE) or "(then" in body:   # moves left out
            continue
        lines = []
        for line in body.splitlines():
            found_answer = re.match(r"(\S.*?)\s{2,}([=?].*?)(?:\s{2,}\(.*\))?$", line)
            if found_answer:
                lines.append(found_answer.groups())
            else:
                assert line.startswith(" "), line                  # the rest of a long answer
        found.append((command_line, lines))
    return found


def run_excerpt(command_line: str, lines):
    options = parse_options(command_line.split()[1:] + ["--threads", "1", "--quiet"])
    engine = GtpEngine(build_game(options), options.engine_settings())
    for command, answer in lines:
        name, *args = command.split()
        try:
            got = "= " + engine.run_command(name, args).split("\n")[0]
        except GtpError as err:
            got = f"? {err}"
        assert got.rstrip() == answer.rstrip(), (command_line, command)


def test_the_session_excerpts_are_what_the_engine_answers():
    checked = 0
    for command_line, lines in excerpts():
        if "genfort" in " ".join(c for c, _ in lines):
            continue                     # the terrain excerpt searches: below, marked slow
        run_excerpt(command_line, lines)
        checked += 1
    assert checked >= 2


@pytest.mark.slow
def test_the_terrain_excerpt_is_checked():
    """Its forts are the search's (three fort searches: about 15 s once the kernels are
    compiled; ``genfort`` waits for them)."""
    terrain = [(c, lines) for c, lines in excerpts() if "terrain" in c]
    assert len(terrain) == 1
    run_excerpt(*terrain[0])
