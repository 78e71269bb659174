"""README is a user's guide: its two commands first, a first screen that says what the engine is
and how to attach it, the default komi stated once (and true), facts that match the code, GTP
excerpts that the engine really answers; the research notes live in docs/RESEARCH.md."""

import re
from pathlib import Path

import pytest

from gtp_engine.cli import build_game, build_parser, parse_options
from gtp_engine.gtp import GtpEngine, GtpError
from gtp_engine.rules import ALL_RULES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
RESEARCH = (ROOT / "docs" / "RESEARCH.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end >= 0 else None]


def test_the_two_commands_come_first_as_ci_runs_them():
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)
    assert blocks[:2] == ["pip install -e . && vargo --variant loose --size 9",
                          'pip install -e ".[test]" && npm install --prefix tests/node && python -m pytest']
    assert blocks[1] in (ROOT / ".ci" / "run").read_text()


def test_the_first_screen_says_what_it_is_how_to_install_and_attach_it():
    first = "\n".join(README.splitlines()[:50])
    for words in ("What this is", "What to expect", "pip install", "GoGui", "Sabaki", "gogui -program"):
        assert words in first, words


def default_komi_table():
    rows = re.findall(r"^\| (\w+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$",
                      section("Default komi"), re.MULTILINE)
    return {name: [float(v) for v in values] for name, *values in rows}


def test_the_default_komi_is_stated_once_and_is_the_engines():
    table = default_komi_table()
    assert set(table) == {rules.name for rules in ALL_RULES}
    for rules in ALL_RULES:
        assert table[rules.name] == [rules.default_komi_for(n) for n in (7, 9, 13, 19, 11)], rules.name
    assert README.count("| game | 7x7 | 9x9 | 13x13 | 19x19 |") == 1
    # no other place lists the defaults a frontend user must match
    assert not re.search(r"on 9x9 Go 7\.5|Goncrete 8\.5, Terrain Go 6\.5", README)


def test_the_fort_playouts_defaults_are_the_codes():
    from gtp_engine.search.fortsearch import playouts_per_candidate
    expected = "1200 on 9x9, 591 on 13x13, 277 on 19x19"
    assert [playouts_per_candidate(n) for n in (9, 13, 19)] == [1200, 591, 277]
    assert expected in README
    assert expected in " ".join(build_parser().format_help().split())


def test_research_notes_live_in_docs():
    for research in ("scripts/calibrate_komi.py --variant", "--fort-playouts 1200\" \\",
                     "Validation on standard Go", "39 wins of 40", "fair_komi_maps.py --size 9"):
        assert research not in README and research in RESEARCH, research
    assert "docs/RESEARCH.md" in README
    assert len(README.splitlines()) < 700


def excerpts():
    """(command line, [(command, answer)]) of the session excerpts that start from the
    engine's start (no elided moves)."""
    found = []
    for match in re.finditer(r"\(`(vargo [^`]*)`\)(?:(?!```).)*?```\n(.*?)\n```",
                             section("A GTP session per game"), re.DOTALL):
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
