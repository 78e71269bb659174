"""``docs/RULES.md``, the rule book that ships with the engine: every ruling label the code
cites is defined there, and every example marked for checking replays on the engine.

A checked example is a ``text`` code block right after a comment

    <!-- check GAME SIZE [komi=K] [fort_value=V]: STEP; STEP; ... -->

whose boards (rows numbered as on the board, columns from ``A``) are, in order: an optional
Terrain Go map (any board holding ``^ ~ b w``; its forts are placed as ``terrain_load`` places
them), the starting position (set-up stones), then one board after each step that plays moves.
A STEP plays moves (``white D3`` or ``black B2, black D2``, ``pass`` allowed) or checks:
``illegal COLOR VERTEX (reason)``, ``flipped|removed|captured|meals V ...`` (what the last
move did; nothing listed means none), ``false V ...`` (Loose false liberties), ``gluttons V
...``, ``score BLACK WHITE`` (White with komi), ``result R``, ``over``.
"""

import re
from pathlib import Path
from typing import Dict, List

import pytest

from diagrams import setup_game, vertices
from gtp_engine.coords import COLUMNS, Color, parse_vertex
from gtp_engine.errors import IllegalMoveError
from gtp_engine.game import Game
from gtp_engine.rules.terrain_map import TerrainMap

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "RULES.md"
TEXT = RULES_DOC.read_text(encoding="utf-8")

LABEL = r"(?:Go|[CLGDT])\d+"
#: The rulings of the team's rules authority: the labels code and tests may cite.
EXPECTED_LABELS = ({f"C{i}" for i in range(1, 9)} | {f"Go{i}" for i in range(1, 4)}
                   | {f"L{i}" for i in range(1, 7)} | {f"G{i}" for i in range(1, 6)}
                   | {f"D{i}" for i in range(1, 5)} | {f"T{i}" for i in range(1, 10)})


# --------------------------------------------------------------------------- labels
def defined_labels() -> List[str]:
    """Labels as the rule book defines them: in bold at the start of their rule."""
    return re.findall(rf"^\*\*({LABEL})\b", TEXT, flags=re.MULTILINE)


def expand(citation: str) -> List[str]:
    """``T1-T3`` -> T1 T2 T3; ``L4/L5`` and ``Go3, G5`` -> each label."""
    labels = []
    for part in re.split(r"\s*(?:,|/|\band\b)\s*", citation):
        low, _, high = part.partition("-")
        if not high:
            labels.append(low)
            continue
        prefix, first = re.fullmatch(r"([A-Za-z]+)(\d+)", low).groups()
        high_prefix, last = re.fullmatch(r"([A-Za-z]+)(\d+)", high).groups()
        assert prefix == high_prefix, f"range across games: {citation!r}"
        labels.extend(f"{prefix}{n}" for n in range(int(first), int(last) + 1))
    return labels


CITATION = re.compile(rf"RULES(?:\.md)?\s+({LABEL}(?:\s*(?:-|/|,|\band\b)\s*{LABEL})*)")


def cited_labels() -> Dict[str, List[str]]:
    """Every label cited as ``RULES X1`` (lists and ranges too) in the product, its scripts,
    README, the guide and the research notes (How it plays), with the files citing it."""
    files = [*sorted((ROOT / "gtp_engine").rglob("*.py")), *sorted((ROOT / "sgf").rglob("*.py")),
             *sorted((ROOT / "scripts").rglob("*.py")), ROOT / "README.md", ROOT / "docs" / "GUIDE.md",
             ROOT / "docs" / "RESEARCH.md"]
    cited: Dict[str, List[str]] = {}
    for path in files:
        for citation in CITATION.findall(path.read_text(encoding="utf-8")):
            for label in expand(citation):
                cited.setdefault(label, []).append(str(path.relative_to(ROOT)))
    return cited


def test_every_ruling_is_defined_once():
    labels = defined_labels()
    assert sorted(set(labels)) == sorted(EXPECTED_LABELS)
    assert len(labels) == len(set(labels)), "a label defined twice"


def test_every_ruling_the_code_cites_is_in_the_rule_book():
    cited = cited_labels()
    assert len(cited) >= 20 and any(path.startswith("gtp_engine/") for paths in cited.values() for path in paths)
    missing = {label: paths for label, paths in cited.items() if label not in set(defined_labels())}
    assert not missing, f"cited but not defined in docs/RULES.md: {missing}"


def test_citations_are_read_with_their_lists_and_ranges():
    assert expand("T1-T3") == ["T1", "T2", "T3"]
    assert expand("Go3, L4/L5, G5, D4, T5-T7") == ["Go3", "L4", "L5", "G5", "D4", "T5", "T6", "T7"]
    assert CITATION.findall("(RULES C3-C8 and the game-level parts") == ["C3-C8"]
    assert CITATION.findall("see RULES.md G2; RULES C6/C7") == ["G2", "C6/C7"]


# --------------------------------------------------------------------------- examples
EXAMPLE = re.compile(r"<!-- check (\w+) (\d+)((?: \w+=\S+)*): (.*?) -->\n```text\n(.*?)```", re.DOTALL)
MAP_CHARS = set("^~bw")


def examples():
    found = []
    for match in EXAMPLE.finditer(TEXT):
        line = TEXT.count("\n", 0, match.start()) + 1
        found.append(pytest.param(match, id=f"line{line}-{match.group(1)}"))
    return found


def boards(block: str, size: int) -> List[List[str]]:
    """The boards of a diagram block, side by side, each as full rows (top first)."""
    drawn: List[Dict[int, List[str]]] = []
    for line in block.splitlines():
        tokens = line.split()
        if not tokens or not tokens[0].isdigit():
            continue  # column letters, titles
        index = -1
        for token in tokens:
            if token.isdigit():
                index += 1
                while len(drawn) <= index:
                    drawn.append({})
                drawn[index][int(token)] = []
                row = int(token)
            elif len(token) == 1:
                drawn[index][row].append(token)
    full = []
    for board in drawn:
        assert all(1 <= r <= size and len(cells) <= size for r, cells in board.items()), board
        full.append(["".join(board.get(r, [])).ljust(size, ".") for r in range(size, 0, -1)])
    return full


def new_game(game: str, size: int, options: Dict[str, str], board_list: List[List[str]]) -> Game:
    komi = float(options["komi"]) if "komi" in options else None
    if game != "terrain":
        return Game(game, size, komi)
    maps = [b for b in board_list if MAP_CHARS & set("".join(b))]
    text = "/".join(maps[0]) if maps else "/".join(["." * size] * size)
    forts = TerrainMap.forts_in_text(text)
    fort_value = int(options["fort_value"]) if "fort_value" in options else None
    terrain = TerrainMap.from_text(text, forts_per_side=len(forts) // 2, fort_value=fort_value)
    result = Game("terrain", size, komi, terrain=terrain)
    for color, point in forts:
        result.place_fort(color, point)
    return result


def points(words: List[str], size: int):
    return [parse_vertex(word, size) for word in words]


@pytest.mark.parametrize("match", examples())
def test_the_examples_of_the_rule_book_replay(match):
    game_name, size = match.group(1), int(match.group(2))
    options = dict(item.split("=") for item in match.group(3).split())
    all_boards = boards(match.group(5), size)
    game = new_game(game_name, size, options, all_boards)
    positions = [b for b in all_boards if not MAP_CHARS & set("".join(b))]
    assert positions, "an example needs a starting position"
    setup_game(game, "\n".join(positions.pop(0)))
    last = None
    for step in (s.strip() for s in match.group(4).split(";")):
        words = step.split()
        if words[0] == "illegal":
            found = re.fullmatch(r"illegal (black|white) (\S+) \((.+)\)", step)
            assert found, step
            color, vertex, reason = Color[found.group(1).upper()], found.group(2), found.group(3)
            before = (game.position.rows(), len(game.moves))
            with pytest.raises(IllegalMoveError) as refusal:
                game.play(color, parse_vertex(vertex, size))
            assert refusal.value.reason.value == reason, step
            assert (game.position.rows(), len(game.moves)) == before
        elif words[0] in ("flipped", "removed", "captured", "meals"):
            assert vertices(getattr(last.effects, words[0])) == vertices(points(words[1:], size)), step
        elif words[0] == "false":
            assert vertices(game.position.false_liberties()) == vertices(points(words[1:], size)), step
        elif words[0] == "gluttons":
            assert vertices(game.position.gluttons()) == vertices(points(words[1:], size)), step
        elif words[0] == "score":
            score = game.score()
            assert (score.black, score.white) == (float(words[1]), float(words[2])), step
        elif words[0] == "result":
            assert game.score().result == words[1], step
        elif words[0] == "over":
            assert game.over, step
        else:
            for move in step.split(","):
                color, vertex = move.split()
                last = game.play(Color[color.upper()], parse_vertex(vertex, size))
            if positions:
                expected = positions.pop(0)
                assert game.position.rows() == expected, f"after {step}"
    assert not positions, "boards left that no step reached"


def test_the_rule_book_has_checked_examples_for_every_game():
    games = [m.group(1) for m in EXAMPLE.finditer(TEXT)]
    assert {"go", "loose", "goncrete", "disto", "terrain"} <= set(games)
    assert len(games) >= 20
    assert TEXT.count("<!-- check") == len(games), "a check comment not followed by a text block"


def test_help_and_readme_point_to_the_rule_book():
    from gtp_engine.cli import build_parser
    help_text = " ".join(build_parser().format_help().split())
    assert "docs/RULES.md" in help_text and "RULES.md C7" in help_text
    assert "(docs/RULES.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
