"""Reading SGF in any encoding: byte order marks, UTF-16/32, ``CA``, legacy charsets without
``CA``; Sabaki's own test files (tests/data/sabaki, see its README); and a ``CA`` that cannot
be honoured is an error naming ``CA``. Whatever the source, we write UTF-8."""

from pathlib import Path

import pytest

from sgf import SgfError, SgfRecord, game_from_sgf
from sgf.encoding import guess_legacy, to_utf8

SABAKI = Path(__file__).parent / "data" / "sabaki"


def load(name: str) -> SgfRecord:
    return SgfRecord.from_bytes((SABAKI / name).read_bytes())


def moves(game):
    return [(m.color, m.point) for m in game.moves]


# --------------------------------------------------------------------------- Sabaki's files
def test_nihon_kiin_shift_jis_file_without_ca():
    # A 0x5C second byte (ソ is 0x83 0x5C) ends PB's value: a byte-level parse took it for an
    # escape and ran on into BR; the root has no ';' either. Before: "no sgf data found".
    record = load("nihon-kiin.sgf")
    assert record.root_property("PW") == "党毅飛"
    assert record.root_property("PB") == "申眞ソ" and record.root_property("BR") == "九段"
    assert "TE[第1回ソパルコサノル世界最高棋士決定戦第9戦]".encode("utf-8") in record.to_bytes()
    assert len(record.game.moves) == 8 and record.game.size == 19


@pytest.mark.parametrize("name, black, white, comment", [
    ("japanese.sgf", "井山 裕太", "山下 敬吾", "囲碁 is fun"),
    ("chinese.sgf", "古力", "柯洁", "围棋 is fun"),
    ("korean.sgf", "이세돌", "박정환", "바둑 is fun"),
])
def test_files_with_a_legacy_ca_are_decoded_by_it_and_written_as_utf8(name, black, white, comment):
    record = load(name)
    assert (record.root_property("PB"), record.root_property("PW")) == (black, white)
    out = record.to_bytes()
    assert b"CA[UTF-8]" in out and f"C[{comment}]".encode("utf-8") in out
    again = SgfRecord.from_bytes(out)
    assert again.root_property("PB") == black and moves(again.game) == moves(record.game)


def test_chinese_file_without_ca_is_recognised():
    record = load("no-ca.sgf")
    assert record.root_property("C").startswith("【第三型】")
    assert len(record.game.moves) == 7


def test_utf16_file_with_a_byte_order_mark_is_the_same_game_as_its_utf8_copy():
    # Before: "no sgf data found" (its ASCII bytes are interleaved with zero bytes).
    utf16, utf8 = load("utf16le.sgf"), load("utf8bom.sgf")
    assert utf16.root_property("PW") == "Go Seigen" and utf16.root_property("PB") == "Kitani Minoru"
    assert len(utf16.game.moves) == 164
    assert moves(utf16.game) == moves(utf8.game)


def test_a_ca_python_knows_on_bytes_it_does_not_fit_still_loads():
    # CA[MS_KANJI] on bytes that are not Shift-JIS: the undecodable bytes become U+FFFD.
    record = load("japanese_bad.sgf")
    assert len(record.game.moves) == 2 and "\ufffd" in record.root_property("PB")


# --------------------------------------------------------------------------- UTF-16 and UTF-32
GAME = "(;GM[1]FF[4]SZ[9]PB[黒]PW[Dvořák]C[a \\] b];B[ee];W[cc])"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
                                      "utf-32-be", "utf-8-sig"])
def test_wide_files_with_or_without_a_byte_order_mark(encoding):
    record = SgfRecord.from_bytes(GAME.encode(encoding))
    assert record.root_property("PB") == "黒" and record.root_property("PW") == "Dvořák"
    assert record.root_property("C") == "a ] b"
    assert [m.point for m in record.game.moves] == [(4, 4), (6, 2)]


def test_the_shared_utf16_reproducer_loads():
    data = b"\xff\xfe" + "(;GM[1]SZ[9];B[ee])".encode("utf-16-le")
    assert [m.point for m in game_from_sgf(data).moves] == [(4, 4)]


# --------------------------------------------------------------------------- CA
@pytest.mark.parametrize("data, message", [
    (b"(;GM[1]FF[4]CA[rot13]RU[Japanese]SZ[9];B[aa])", r"^node 0: bad CA\[rot13\]: not a character set$"),
    (b"(;GM[1]FF[4]CA[base64]SZ[9]C[hi];B[aa])", r"^node 0: bad CA\[base64\]: not a character set$"),
    (b"(;GM[1]FF[4]CA[UTF-16]RU[AGA]SZ[9];B[aa])", r"^node 0: bad CA\[UTF-16\]: the file is not in UTF-16"),
    (b"(;GM[1]CA[utf-7]SZ[9];B[aa])", r"^node 0: bad CA\[utf-7\]: a charset in which sgf's ascii"),
    (b"(;GM[1]CA[cp037]SZ[9];B[aa])", r"^node 0: bad CA\[cp037\]: a charset in which sgf's ascii"),
])
def test_a_ca_that_cannot_be_honoured_is_an_error_naming_ca(data, message):
    # Before: an internal LookupError (rot13, base64) or "unreadable RU[AGA]" (UTF-16).
    with pytest.raises(SgfError, match=message):
        SgfRecord.from_bytes(data)


def test_ca_is_honoured_even_after_the_values_it_governs():
    data = "(;PB[Jérôme]CA[ISO-8859-1]SZ[9];B[ee])".encode("latin-1")
    assert SgfRecord.from_bytes(data).root_property("PB") == "Jérôme"


def test_an_unknown_ca_is_ignored_like_a_missing_one():
    data = "(;CA[X-NO-SUCH-CHARSET]PB[Jérôme]SZ[9];B[ee])"
    assert SgfRecord.from_bytes(data.encode("utf-8")).root_property("PB") == "Jérôme"
    assert SgfRecord.from_bytes(data.encode("latin-1")).root_property("PB") == "Jérôme"


# --------------------------------------------------------------------------- without CA
@pytest.mark.parametrize("encoding, text", [
    ("cp932", "(;GM[1]PB[本因坊秀策]PW[井上幻庵因碩]C[耳赤の一局として知られる対局です。];B[pd])"),
    ("gb18030", "(;GM[1]PB[聂卫平]PW[藤泽秀行]C[这是中日围棋擂台赛的一局，黑方中盘胜。];B[pd])"),
    ("euc_kr", "(;GM[1]PB[조훈현]PW[이창호]C[사제 대결로 유명한 대국입니다. 흑 불계승.];B[pd])"),
    ("cp1251", "(;GM[1]PB[Александр Динерштейн]PW[Илья Шикшин]C[Белые выиграли];B[pd])"),
    ("latin-1", "(;GM[1]PB[Jérôme Hubert]PW[François Müller]C[Très belle partie];B[pd])"),
    ("big5", "(;GM[1]PB[林海峰]PW[吳清源]C[這是一局精彩的對局，黑中盤勝。];B[pd])"),
])
def test_legacy_text_without_ca_is_recognised(encoding, text):
    data = text.encode(encoding)
    assert to_utf8(data) == text.encode("utf-8"), guess_legacy(data)


def test_utf8_without_ca_is_kept_as_it_is():
    data = "(;PB[井山裕太]PW[Jérôme];B[pd])".encode("utf-8")
    assert to_utf8(data) is data
