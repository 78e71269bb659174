"""The pure-Python mirror and the compiled kernels are one source run two ways: they must agree
bit for bit on random games (every state array, every result), and the engine must be able to
start without numba (RULES-independent: this is about start-up, INTERFACE.md)."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gtp_engine.board import (CAPTURE_FLIP_REMOVE, CAPTURE_LOOSE, CAPTURE_MEALS, CAPTURE_REMOVE,
                              SCORE_AREA, SCORE_STONES, SCORE_STONES_NOT_MEALS, Position, _backend)
from gtp_engine.board.position import _ZOBRIST
from gtp_engine.rules.terrain_map import generate_map

ROOT = Path(__file__).resolve().parents[1]
CAPTURES = [CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS]


@pytest.fixture(scope="module")
def compiled():
    return _backend.compile_now()


def scratch(size):
    from gtp_engine.board import kernels
    area = (size + 2) * (size + 2)
    return (np.zeros(kernels.work_length(size), np.int32), np.zeros(kernels.state_shape(size), np.int32),
            np.zeros(kernels.effects_length(size), np.int32), np.zeros(area, np.int32),
            np.zeros(size * size, np.int32))


def start(size, capture, terrain_seed=None):
    kinds = generate_map(size, terrain_seed).kinds if terrain_seed is not None else None
    return Position(size, capture, kinds)


def lockstep_game(compiled, size, capture, seed, terrain_seed=None, setup_density=0.0):
    """Play one random game with both implementations side by side, comparing everything;
    ``setup_density``: first put random stones, each kernel its own (SGF setup)."""
    rng = random.Random(seed)
    mirror = _backend.mirror
    position = start(size, capture, terrain_seed)
    fast, slow = position._st.copy(), position._st.copy()
    fs, ss = scratch(size), scratch(size)
    for cell in range(fast.shape[1]):
        if fast[mirror.BOARD, cell] == mirror.EMPTY and rng.random() < setup_density:
            color = rng.choice((1, 2))
            compiled.put(fast, _ZOBRIST, fs[0], cell, color)
            mirror.put(slow, _ZOBRIST, ss[0], cell, color)
    assert np.array_equal(fast, slow)
    color = 1
    for _ in range(2 * size * size):
        for skip in (False, True):
            nf = compiled.legal_cells(fast, _ZOBRIST, fs[0], fs[1], fs[2], color, skip, fs[4])
            ns = mirror.legal_cells(slow, _ZOBRIST, ss[0], ss[1], ss[2], color, skip, ss[4])
            assert nf == ns and np.array_equal(fs[4][:nf], ss[4][:ns])
        cells = [int(c) for c in fs[4][:nf]]
        if not cells:
            color = 3 - color
            continue
        cell = rng.choice(cells)
        code_f = compiled.play(fast, _ZOBRIST, fs[0], fs[1], cell, color, fs[2])
        code_s = mirror.play(slow, _ZOBRIST, ss[0], ss[1], cell, color, ss[2])
        assert code_f == code_s == 0
        assert np.array_equal(fast, slow)
        assert np.array_equal(fs[2][:4], ss[2][:4])   # effect counts
        for scoring in (SCORE_AREA, SCORE_STONES, SCORE_STONES_NOT_MEALS):
            assert compiled.score_halves(fast, fs[0], scoring, 5, fs[3]) == \
                mirror.score_halves(slow, ss[0], scoring, 5, ss[3])
            assert np.array_equal(fs[3], ss[3])
        color = 3 - color
    return fast


@pytest.mark.parametrize("capture", CAPTURES)
@pytest.mark.parametrize("size", [5, 7])
def test_mirror_and_compiled_agree_on_random_games(compiled, capture, size):
    for seed in range(2):
        lockstep_game(compiled, size, capture, seed)


@pytest.mark.parametrize("capture", CAPTURES)
def test_mirror_and_compiled_agree_after_setup_stones_put_as_they_stand(compiled, capture):
    for seed in range(3):
        final = lockstep_game(compiled, 7, capture, seed, setup_density=0.85)
        assert final[_backend.mirror.HDR, _backend.mirror.H_UNSETTLED] == 0 or capture == CAPTURE_LOOSE


def test_mirror_and_compiled_agree_on_terrain(compiled):
    lockstep_game(compiled, 7, CAPTURE_REMOVE, seed=3, terrain_seed=11)


@pytest.mark.parametrize("capture", CAPTURES)
def test_mirror_and_compiled_playouts_agree(compiled, capture):
    size = 7
    position = start(size, capture)
    results = []
    for module in (compiled, _backend.mirror):
        st = position._st.copy()
        work, spare, out, owner, _ = scratch(size)
        rng = np.array([987654321], np.int64)
        result = module.playout(st, _ZOBRIST, work, spare, out, owner, 1, True, 3 * size * size,
                                rng, SCORE_AREA, 0)
        results.append((tuple(int(x) for x in result), st, int(rng[0])))
    (result_f, st_f, rng_f), (result_s, st_s, rng_s) = results
    assert result_f == result_s and rng_f == rng_s
    assert np.array_equal(st_f, st_s)


@pytest.mark.slow
@pytest.mark.parametrize("capture", CAPTURES)
@pytest.mark.parametrize("size", [9, 13])
def test_mirror_and_compiled_agree_on_larger_boards(compiled, capture, size):
    for seed in range(3):
        lockstep_game(compiled, size, capture, 100 + seed)


def test_positions_never_compile_a_new_specialisation(compiled):
    """Every call Position makes matches a signature warm_all compiled: nothing compiles on the
    protocol path once the warm-up is done."""
    before = {name: len(getattr(compiled, name).signatures) for name in compiled.ENTRY_POINTS}
    for capture in CAPTURES:
        position = start(9, capture)
        position.put(2, (0, 0))
        position.play(1, (4, 4))
        position.illegal_reason(2, (4, 4))
        position.legal_points(2, skip_own_eyes=True)
        position.is_own_eye(2, (0, 0))
        position.owner_map(SCORE_AREA)
        position.score_halves(SCORE_STONES_NOT_MEALS, 3)
        position.copy().playout(2, 5, SCORE_AREA)
        position.playouts(2, 3, 5, SCORE_STONES, komi_halves=13)
    terrain = start(9, CAPTURE_REMOVE, terrain_seed=2)
    terrain.place_fort(2, next((r, c) for r in range(9) for c in range(9)
                               if terrain.terrain_at((r, c)) == 0))
    after = {name: len(getattr(compiled, name).signatures) for name in compiled.ENTRY_POINTS}
    assert after == before


def test_importing_the_board_does_not_import_numba():
    code = "import sys, gtp_engine.board as b; b.Position(9, 0).play(1, (4, 4)); print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_background_warmup_switches_to_the_compiled_kernels(compiled):
    """start_warmup returns at once; when its thread ends, positions use compiled code (the
    cache is warm here: the fixture compiled)."""
    code = ("import gtp_engine.board as b\n"
            "assert not b.compiled()\n"
            "thread = b.start_warmup()\n"
            "assert b.start_warmup() is thread\n"
            "b.Position(9, 0).play(1, (4, 4))\n"
            "thread.join()\n"
            "print(b.compiled())\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "True"


def test_loading_the_kernels_does_not_import_scipy_but_leaves_it_importable(compiled):
    """numba's BLAS check would import scipy.linalg (a third of a cached load): the kernels load
    without it, SciPy imports normally afterwards, and one imported before is left alone."""
    pytest.importorskip("scipy")
    code = ("import sys, gtp_engine.search._backend as s\n"
            "s.compile_now()\n"
            "print('scipy.linalg' in sys.modules)\n"
            "import scipy.linalg.cython_blas\n"
            "print(sys.modules['scipy.linalg'] is not None)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
    code = ("import sys, scipy.linalg, gtp_engine.search._backend as s\n"
            "before = sys.modules['scipy.linalg']\n"
            "s.compile_now()\n"
            "print(sys.modules['scipy.linalg'] is before)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "True"
