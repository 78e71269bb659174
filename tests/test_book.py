"""The opening book: positions stored once for their 8 symmetric forms, answered in the frame of
the game at hand, only where the game came from the empty board by placements; the shipped file
is well formed; ``genmove`` plays its moves without a search unless ``--no-book``."""

import json

import pytest

from gtp_engine.cli import parse_options
from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.game import Game
from gtp_engine.search import book
from gtp_engine.search.player import SearchPlayer, SearchSettings

from test_gtp_engine import gtp, make_engine


def _v(vertex, size=9):
    return parse_vertex(vertex, size)


def test_each_symmetry_is_a_permutation_of_the_board_and_inverse_undoes_it():
    for size in (5, 9, 19):
        points = [(r, c) for r in range(size) for c in range(size)]
        images = set()
        for s in range(8):
            mapped = {book.transform(s, p, size) for p in points}
            assert mapped == set(points)
            images.add(tuple(book.transform(s, p, size) for p in points))
            for p in points:
                assert book.inverse(s, book.transform(s, p, size), size) == p
        assert len(images) == 8   # eight different symmetries, not one counted twice


def test_a_position_and_its_rotations_and_reflections_share_one_key():
    black, white = [_v("C3"), _v("E5")], [_v("D7")]
    key, _ = book.canonical_key(black, white, 9)
    for s in range(8):
        turned = book.canonical_key([book.transform(s, p, 9) for p in black],
                                    [book.transform(s, p, 9) for p in white], 9)
        assert turned[0] == key
    # colours matter: the same points with the colours swapped are another position
    assert book.canonical_key(white, black, 9)[0] != key


def _book(entries, name="go 9 7.5"):
    return book.Book({name: entries})


def _stored(black, white, move, size=9):
    """A table entry for the position, its move given in the position's own frame."""
    key, s = book.canonical_key([_v(b, size) for b in black], [_v(w, size) for w in white], size)
    return {key: {"move": format_vertex(book.transform(s, _v(move, size), size))}}


def test_the_answer_is_the_stored_move_seen_in_the_games_frame():
    # stored: after Black C3, White answers E4; the game has Black on G7 (C3 turned half round)
    entries = _stored(["C3"], [], "E4")
    game = Game("go", 9, komi=7.5)
    game.play(Color.BLACK, _v("G7"))
    answer = _book(entries).move(game, Color.WHITE)
    assert answer is not None
    # the game's position with the answer is the stored position with its move, up to symmetry
    assert book.canonical_key([_v("G7")], [answer], 9)[0] == \
        book.canonical_key([_v("C3")], [_v("E4")], 9)[0]


@pytest.mark.parametrize("change, why", [
    (lambda g: g.play(Color.BLACK, None), "a pass was made"),
    (lambda g: g.place_handicap([_v("C3"), _v("G7")]), "handicap stones"),
    (lambda g: g.add_setup(Color.BLACK, _v("E5")), "set-up stones"),
])
def test_no_answer_where_the_game_did_not_come_from_the_empty_board_by_placements(change, why):
    entries = {"/": {"move": "E5"}, **_stored(["E5"], [], "C4")}
    game = Game("go", 9, komi=7.5)
    change(game)
    color = game.to_move
    assert _book(entries).move(game, color) is None, why


def test_no_answer_for_another_komi_size_game_or_player():
    entries = {"/": {"move": "E5"}}
    assert _book(entries).move(Game("go", 9, komi=7.5), Color.BLACK) == _v("E5")
    assert _book(entries).move(Game("go", 9, komi=6.5), Color.BLACK) is None
    assert _book(entries).move(Game("go", 9, komi=7.5), Color.WHITE) is None   # not to move
    assert book.Book({"go 9 4": entries}).move(Game("loose", 9, komi=4), Color.BLACK) is None
    assert book.Book({"go 13 7.5": entries}).move(Game("go", 13, komi=7.5), Color.BLACK) == \
        _v("E5", 13)
    terrain = Game("terrain", 9)
    assert book.Book({book.table_name("terrain", 9, terrain.komi): entries}).move(
        terrain, Color.BLACK) is None


def test_an_illegal_or_broken_entry_gives_no_answer():
    game = Game("go", 9, komi=7.5)
    game.play(Color.BLACK, _v("E5"))
    game.play(Color.WHITE, _v("C4"))
    key, _ = book.canonical_key([_v("E5")], [_v("C4")], 9)
    for move in ("E5", "Z99", "pass"):   # occupied, off the board, not a placement
        assert _book({key: {"move": move}}).move(game, Color.BLACK) is None
    assert _book({key: {}}).move(game, Color.BLACK) is None


def test_a_missing_or_broken_file_is_an_empty_book(tmp_path, caplog):
    assert book.Book.load(tmp_path / "absent.json").tables == {}
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert book.Book.load(broken).tables == {}
    assert "unreadable" in caplog.text
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"entries": []}))
    assert book.Book.load(wrong).tables == {}
    # a broken table is dropped, the others kept; nothing of it can crash a genmove
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps({"entries": {"go 9 7.5": "E5", "go 9 6.5": {"/": 3},
                                             "loose 9 4": {"/": {"move": "E5"}}}}))
    loaded = book.Book.load(mixed)
    assert set(loaded.tables) == {"loose 9 4"}
    assert loaded.move(Game("go", 9, komi=7.5), Color.BLACK) is None
    assert loaded.move(Game("loose", 9, komi=4), Color.BLACK) == _v("E5")


def _stones(key, size):
    black, white = key.split("/")
    return ([_v(v, size) for v in black.split()], [_v(v, size) for v in white.split()])


def test_the_shipped_book_is_well_formed_and_covers_the_first_moves():
    tables = book.Book.load().tables
    assert {"go 9 7.5", "loose 9 4", "loose 9 6"} <= set(tables)
    for game in ("go", "loose"):   # the game's default komi has its table
        default = Game(game, 9)
        assert book.Book.load().move(default, Color.BLACK) is not None, game
    for name, table in tables.items():
        rules, size, komi = name.split()
        size = int(size)
        assert name == book.table_name(rules, size, float(komi))
        assert "/" in table
        first_moves = {book.canonical_key([(r, c)], [], size)[0]
                       for r in range(size) for c in range(size)}
        assert first_moves <= set(table), f"{name}: an answer to every first move"
        for key, entry in table.items():
            black, white = _stones(key, size)
            assert book.canonical_key(black, white, size)[0] == key   # stored once, canonical
            game = Game(rules, size, komi=float(komi))
            for b, w in zip(black, white + [None]):
                game.play(Color.BLACK, b)
                if w is not None:
                    game.play(Color.WHITE, w)
            move = parse_vertex(entry["move"], size)
            assert move is not None and game.illegal_reason(game.to_move, move) is None
            assert 0 <= entry["winrate"] <= 1 and 0 < entry["share"] <= 1
        # Black's second move after the book's first and every answer of White
        opening = parse_vertex(table["/"]["move"], size)
        for r in range(size):
            for c in range(size):
                if (r, c) != opening:
                    assert book.canonical_key([opening], [(r, c)], size)[0] in table


def test_genmove_plays_the_book_move_unsearched_and_no_book_searches():
    game = Game("go", 9, komi=7.5)
    expected = book.default_book().move(game, Color.BLACK)
    assert expected is not None
    move, analysis = SearchPlayer(SearchSettings(playouts=50)).genmove(game, Color.BLACK)
    assert (move, analysis) == (expected, None)
    move, analysis = SearchPlayer(SearchSettings(playouts=50, book=False)).genmove(
        game, Color.BLACK)
    assert analysis is not None and analysis.visits > 0
    # the GTP engine: the book's move by default; --no-book reaches the settings
    engine = make_engine(komi=7.5, playouts=50)
    assert gtp(engine, "genmove b") == format_vertex(expected)
    assert parse_options(["--no-book"]).engine_settings().search_settings().book is False
    assert parse_options([]).engine_settings().search_settings().book is True


def test_a_table_from_records_counts_symmetric_moves_as_one_and_answers_in_any_frame(tmp_path):
    """``build_book.py --from-games``: each position of the first plies that enough records
    reach, with the move most of them played next, moves to the same position up to symmetry
    counted together; records with set-up stones, of another game or size, broken ones and
    positions past a pass are left out."""
    import sys
    from pathlib import Path
    import sgf
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import build_book

    def record(name, vertices, rules="go", size=9, setup=()):
        game = Game(rules, size, komi=7.5 if rules == "go" else 6)
        for vertex in setup:
            game.add_setup(Color.BLACK, _v(vertex, size))
        for vertex in vertices:
            game.play(game.to_move, None if vertex == "pass" else _v(vertex, size))
        (tmp_path / name).write_bytes(sgf.game_to_sgf(game))

    for i, line in enumerate([("E5", "C3", "D7"), ("E5", "G7", "F3"), ("E5", "C7", "C5"),
                              ("E5", "G3", "pass", "D4"), ("D4", "F6")]):
        record(f"g{i}.SGF", line)
    record("handicap.sgf", ("E5", "C3"), setup=("C7", "G3"))
    record("loose.sgf", ("D4", "C3"), rules="loose")
    record("seven.sgf", ("D4", "C3"), size=7)
    (tmp_path / "broken.sgf").write_text("(;GM[1]SZ[9];B[zz")
    tables = build_book.from_games([str(tmp_path)], "go", 9, 7.5, plies=4, min_games=2)
    table = tables["go 9 7.5"]
    assert table["/"] == {"move": "E5", "share": 0.8, "games": 5}
    # White's answer: C3, G7, C7, G3 are one move after the centre
    assert book.canonical_key([_v("E5")], [], 9)[0] in table
    answer = table[book.canonical_key([_v("E5")], [], 9)[0]]
    assert answer["share"] == 1.0 and answer["games"] == 4
    assert parse_vertex(answer["move"], 9) in {_v(v) for v in ("C3", "G7", "C7", "G3")}
    # Black's second move: four records reach E5/C3 up to symmetry; D7 after C3 and F3 after
    # G7 are one move (the half turn), C5 after C7 another; the pass ends its record's count
    key = book.canonical_key([_v("E5")], [_v("C3")], 9)[0]
    assert table[key]["games"] == 3 and table[key]["share"] == pytest.approx(2 / 3, abs=1e-4)
    game = Game("go", 9, komi=7.5)
    game.play(Color.BLACK, _v("E5"))
    game.play(Color.WHITE, _v("C3"))
    # (the position is its own mirror in the diagonal through C3: G4 is D7's twin)
    assert book.Book(tables).move(game, Color.BLACK) in {_v("D7"), _v("G4")}
    assert len(table) == 3   # the D4 line and every position past it: one record each
    # looked up in a frame of its own: the rotated position gets the rotated move
    game = Game("go", 9, komi=7.5)
    game.play(Color.BLACK, _v("E5"))
    game.play(Color.WHITE, _v("G7"))
    move = book.Book(tables).move(game, Color.BLACK)
    assert move is not None
    assert move in {_v("F3"), _v("C6")}
