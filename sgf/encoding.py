"""The bytes of an SGF file as UTF-8 the grammar can parse: the file's own encoding, honoured.

SGF's syntax (brackets, semicolons, property names, points) is ASCII; its text values are in
the charset the root's ``CA`` names (FF[4]), ISO-8859-1 when there is none. Decoding the whole
file before parsing gives the values exactly as decoding each value after a byte-level parse
would, for every charset whose ASCII bytes mean ASCII, and it is the only correct way for two
kinds of files that a byte-level parse misreads:

- multi-byte charsets whose second bytes include ``\\`` and ``]`` (Shift-JIS, Big5, GBK): a
  name such as ``表`` (0x95 0x5C) would escape the closing bracket;
- UTF-16 and UTF-32, whose ASCII bytes are interleaved with zero bytes.

How the encoding is chosen, in order:

1. a byte order mark (UTF-8, UTF-16 or UTF-32), else zero bytes next to the first ``(``
   (UTF-16 or UTF-32 without a mark); ``CA`` is then moot: the bytes are that encoding;
2. ``CA``, found in the raw bytes (its value is ASCII): a charset Python knows is honoured, and
   bytes it cannot decode become U+FFFD (real files carry stray bytes; the game stays
   readable). A name Python knows that cannot be honoured is an ``SgfError`` naming ``CA``:
   a codec that is no charset (``rot13``, ``base64``), a UTF-16/32 name on a file whose syntax
   is single bytes, a charset in which ASCII does not stay ASCII (``utf-7``, EBCDIC). A name
   Python does not know is ignored, as Sabaki ignores it;
3. without a usable ``CA``: UTF-8 when the bytes are valid UTF-8 (what today's writers mean
   when they leave ``CA`` out); else the legacy charset whose decoding reads most like text
   (``guess_legacy``); ISO-8859-1, the standard's default, when none does better.
"""

import codecs
import re
import warnings
from typing import Optional

from .errors import SgfError
from .values import show

WIDE_MARKS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
              (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
SYNTAX_SAMPLE = "()[];\\:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \t\r\n.+-_"
CA_PATTERN = re.compile(rb"(?<![A-Za-z])CA\s*\[([^\]]{0,64})\]")

#: Legacy charsets tried, in this order (the first wins a tie), when a file without ``CA`` is
#: not UTF-8. GB18030 comes before EUC-JP, EUC-KR and Big5: Chinese files without ``CA`` are
#: common, and the others decode Chinese bytes into valid but wrong characters just as well.
LEGACY_CHARSETS = ("cp932", "gb18030", "euc_kr", "euc_jp", "big5", "cp1251", "latin-1")
SCORE_SAMPLE = 1 << 16


def to_utf8(data: bytes) -> bytes:
    """SGF data in UTF-8, decoded as described in the module docstring (``data`` itself when it
    is already UTF-8). SgfError naming ``CA`` when the ``CA`` given cannot be honoured."""
    if data.startswith(codecs.BOM_UTF8):
        return recode(data[len(codecs.BOM_UTF8):], "utf-8")
    wide = wide_encoding(data)
    if wide is not None:
        mark = next((m for m, name in WIDE_MARKS if name == wide and data.startswith(m)), b"")
        return recode(data[len(mark):], wide)
    declared = declared_charset(data)
    if declared is not None:
        return recode(data, declared)
    if is_utf8(data):
        return data
    return recode(data, guess_legacy(data))


def recode(data: bytes, encoding: str) -> bytes:
    if encoding == "utf-8" and is_utf8(data):
        return data
    return data.decode(encoding, "replace").encode("utf-8")


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def wide_encoding(data: bytes) -> Optional[str]:
    """UTF-16/32 (LE or BE) from a byte order mark, else from the zero bytes in the code unit
    of the first ``(`` (its place in the unit tells the byte order)."""
    for mark, name in WIDE_MARKS:
        if data.startswith(mark):
            return name
    start = data.find(b"(")
    if start < 0:
        return None
    if start % 4 == 0 and data[start + 1:start + 4] == b"\0\0\0":
        return "utf-32-le"
    if start % 4 == 3 and data[start - 3:start] == b"\0\0\0":
        return "utf-32-be"
    if start % 2 == 0 and data[start + 1:start + 2] == b"\0":
        return "utf-16-le"
    if start % 2 == 1 and data[start - 1:start] == b"\0":
        return "utf-16-be"
    return None


def declared_charset(data: bytes) -> Optional[str]:
    """The Python codec for the file's ``CA``, or None without one or for a name Python does
    not know. SgfError for a name it knows but which cannot apply to this file."""
    found = CA_PATTERN.search(data)
    if found is None:
        return None
    raw = found.group(1).strip()
    try:
        name = raw.decode("ascii")
        info = codecs.lookup(name)
    except (UnicodeDecodeError, LookupError, ValueError):  # ValueError: a zero byte in the name
        return None  # not a charset we know: guess, as Sabaki does
    ascii_sample = SYNTAX_SAMPLE.encode("ascii")
    try:
        wide = b"\0" in "(".encode(info.name)
    except LookupError:
        raise SgfError(f"node 0: bad CA[{show(raw)}]: not a character set")
    except Exception:  # whatever a codec that is no charset raises on plain ASCII
        wide = False
    if wide:  # a UTF-16/32 file would have been found by its zero bytes (to_utf8)
        raise SgfError(f"node 0: bad CA[{show(raw)}]: the file is not in {name} "
                       "(no byte order mark, no zero bytes between its characters)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unicode_escape warns about the sample's backslash
            encoded = SYNTAX_SAMPLE.encode(info.name)
            decoded = ascii_sample.decode(info.name)
    except LookupError:
        raise SgfError(f"node 0: bad CA[{show(raw)}]: not a character set")
    except Exception:  # whatever a codec that is no charset raises on plain ASCII
        encoded = decoded = None
    if encoded != ascii_sample or decoded != SYNTAX_SAMPLE:
        raise SgfError(f"node 0: bad CA[{show(raw)}]: a charset in which sgf's ascii syntax "
                       "does not stay ascii")
    return info.name


def guess_legacy(data: bytes) -> str:
    """The charset of ``LEGACY_CHARSETS`` whose decoding of (the start of) ``data`` scores best
    as text (``text_score``); ISO-8859-1 when none scores above zero."""
    sample = data[:SCORE_SAMPLE]
    best, best_score = "latin-1", 0.0
    for name in LEGACY_CHARSETS:
        score = text_score(sample, name)
        if score > best_score:
            best, best_score = name, score
    return best


def text_score(data: bytes, encoding: str) -> float:
    """How much ``data`` decoded in ``encoding`` reads like text: per non-ASCII character, +1
    for a letter of a script (kana, CJK ideographs, hangul, Cyrillic, accented Latin), less for
    punctuation, -1 for controls, symbols and private use, -2 for an undecodable byte; a
    character made with an ASCII byte (0x40-0x7E, a legal second byte in Shift-JIS, GBK and
    Big5) counts half, so that Western text is not read as ideographs, and a Cyrillic letter
    next to an ASCII letter nothing (French read as cp1251). Divided by the number of
    non-ASCII characters, plus a bonus when a tenth of them are kana (only Japanese has them)
    or hangul without ideographs (Korean); -1 when there are none."""
    text = data.decode(encoding, "replace")
    total, count, kana, hangul, han = 0.0, 0, 0, 0, 0
    for index, char in enumerate(text):
        if char < "\x80":
            continue
        count += 1
        kind = char_kind(char)
        value = {"kana": 1.0, "han": 1.0, "hangul": 1.0, "cyrillic": 1.0, "latin": 1.0,
                 "punct": 0.3, "halfwidth": -0.5, "bad": -2.0}.get(kind, -1.0)
        encoded = char.encode(encoding, "replace")
        if value > 0 and len(encoded) > 1 and min(encoded) < 0x80:
            value /= 2
        if kind == "cyrillic" and any(text[i:i + 1].isascii() and text[i:i + 1].isalpha()
                                      for i in (index - 1, index + 1) if i >= 0):
            value = 0.0  # a Cyrillic letter inside a Latin word: accented Latin read as cp1251
        total += value
        kana += kind == "kana"
        hangul += kind == "hangul"
        han += kind == "han"
    if count == 0:
        return -1.0
    score = total / count
    if kana * 10 >= count:      # a stray kana is noise; a tenth of the text is Japanese
        score += 0.5
    if hangul * 10 >= count and not han:
        score += 0.4
    return score


def char_kind(char: str) -> str:
    code = ord(char)
    if code == 0xFFFD:
        return "bad"
    if 0x3040 <= code <= 0x30FF:
        return "kana"
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF:
        return "han"
    if 0xAC00 <= code <= 0xD7A3:
        return "hangul"
    if 0x0400 <= code <= 0x04FF:
        return "cyrillic"
    if 0x00C0 <= code <= 0x024F and code not in (0xD7, 0xF7):
        return "latin"
    if 0x3000 <= code <= 0x303F or 0xFF01 <= code <= 0xFF5E or 0x2010 <= code <= 0x2027:
        return "punct"
    if 0xFF61 <= code <= 0xFF9F:
        return "halfwidth"
    return "other"
