"""Broken SGF gives a clear ``SgfError`` and never another exception.

Hand-made broken inputs (truncated, bad escapes, unbalanced brackets, bad points, huge sizes,
unknown charsets, binary junk) and random mutations of good files, with fixed seeds. A mutated
file that still reads must also write and read back to the same moves.
"""

import random

import pytest

from sgf import SgfError, SgfRecord, game_to_sgf
from test_sgf_read import GOGUI, KGS, OGS, OLD_FF3
from test_sgf_roundtrip import random_game

REFUSED = [
    b"", b"garbage", b"(", b"(;", b"(;SZ[9]", b"(;SZ[9];B[ee]", b"(;SZ[9];B[ee",
    b"(;SZ[9]C[unterminated\\])", b"(;SZ[9]C[bad escape \\", b"(;SZ[9]];B[ee])", b"()",
    b"(;SZ[9](;B[ee])(;W[ee])", b"(;SZ[9]B)",
    b"(;SZ[99])", b"(;SZ[0])", b"(;SZ[-1])", b"(;SZ[abc])", b"(;SZ[100000000000000000000000000])",
    b"(;SZ[1])", b"(;SZ[26];B[zz])", b"(;SZ[9];B[zz])", b"(;SZ[9];B[ddd])", b"(;SZ[9];B[\xff\xfe])",
b"(;SZ[9];B[aa][bb])", b"(;SZ[9]AB[aa:zz])", b"(;SZ[9]AB[cc:aa])",
    b"(;SZ[9]AB[aa]AW[aa])", b"(;SZ[9]KM[inf])", b"(;SZ[9]KM[nan])", b"(;SZ[9]KM[1e400])",
    b"(;SZ[9]KM[0.3])", b"(;GM[x])", b"(;FF[])", b"(;VR[])", b"(;VR[terrain]SZ[3])",
    b"(;VR[terrain]SZ[9]MT[aa:ii])", b"(;VR[terrain]SZ[9]MP[forts=x])", b"(;VR[terrain]SZ[9]MP[=])",
    b"(;VR[terrain]SZ[9]MP[forts=99999999999999999999 custom];B[aa])", b"(;VR[terrain]SZ[9]FB[aa]MP[custom])",
    b"(;SZ[9]VV[1];B[ee];AB[zz])", b"(;SZ[9]VV[1];B[ee];AE[ee])", b"\x00\x01\x02(;\x00SZ[9]\x00)",
]
# Odd but readable: a stray ')' after the game, a value without a name (joins SZ's values),
# empty nodes, an unknown charset (read as UTF-8; a zero byte in its name too), undecodable
# bytes in a name.
READABLE = [
    b"(;SZ[9];B[ee]))", b"(;SZ[9][x];B[ee])", b"((;))", b"(;SZ[9];;)",
    b"(;FF[4]CA[NO-SUCH-CHARSET];B[aa])", b"(;CA[\xff\xfe]SZ[9])", b"(;SZ[9]PB[\xff\xfe\xfd]CA[UTF-8];B[ee])",
    b"(;FF[4]CA[UT\x00-8]SZ[9];B[aa])", b"(;SZ[9];B[A1])",   # a point as a vertex: GoGui reads it
]


def check_clear(data: bytes) -> None:
    """Reading either works (and then writes and reads back) or raises a clear SgfError."""
    try:
        record = SgfRecord.from_bytes(data)
    except SgfError as err:
        message = str(err)
        assert message and message == message.strip() and "\n" not in message
        assert not message[0].isupper(), message
        return
    out = record.to_bytes()
    again = SgfRecord.from_bytes(out)
    assert [(m.color, m.point) for m in again.game.moves] == [(m.color, m.point) for m in record.game.moves]
    assert again.game.position.rows() == record.game.position.rows()


@pytest.mark.parametrize("data", REFUSED, ids=range(len(REFUSED)))
def test_broken_input_gives_a_clear_error(data):
    with pytest.raises(SgfError):
        SgfRecord.from_bytes(data)
    check_clear(data)


@pytest.mark.parametrize("data", READABLE, ids=range(len(READABLE)))
def test_odd_input_is_read_and_written_back(data):
    check_clear(data)
    SgfRecord.from_bytes(data)


def test_binary_junk_gives_a_clear_error():
    rng = random.Random(5)
    for _ in range(200):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        check_clear(junk)
        check_clear(b"(;" + junk)


def test_text_instead_of_bytes_is_refused():
    with pytest.raises(SgfError, match="sgf data must be bytes, not str"):
        SgfRecord.from_bytes("(;SZ[9])")


def good_files():
    games = [random_game(rules, 7, seed=2, moves=30) for rules in ("go", "loose", "goncrete", "disto", "terrain")]
    ours = [game_to_sgf(g, winrates={1: 0.5}) for g in games] + [game_to_sgf(games[1], view=True)]
    return ours + [GOGUI, KGS, OGS, OLD_FF3]


MUTATION_CHARS = b"[]();\\:ABWtz \n\x00\xff"


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits: truncate, delete, insert, replace, duplicate."""
    data = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        if not data:
            break
        i = rng.randrange(len(data))
        kind = rng.randrange(5)
        if kind == 0:
            del data[i:]
        elif kind == 1:
            del data[i:i + rng.randrange(1, 8)]
        elif kind == 2:
            data[i:i] = bytes(rng.choice(MUTATION_CHARS) for _ in range(rng.randrange(1, 4)))
        elif kind == 3:
            data[i] = rng.choice(MUTATION_CHARS)
        else:
            j = rng.randrange(i, len(data))
            data[j:j] = data[i:j][:40]
    return bytes(data)


def run_mutations(count: int, seed: int) -> None:
    rng = random.Random(seed)
    files = good_files()
    for _ in range(count):
        check_clear(mutate(rng.choice(files), rng))


def test_random_mutations_of_good_files():
    run_mutations(1000, seed=1)


@pytest.mark.slow
def test_many_random_mutations_of_good_files():
    run_mutations(20000, seed=2)
