"""The kernels take array indices as given (``board.kernels.KERNEL_COMPILER``: no wraparound of
a negative index, which they never use), and ``VARGO_CHECK_INDICES=1`` checks every index
instead. The fast tests show that the check mode catches what the fast mode would read out of
bounds; the slow one runs the kernels' own tests in that mode, so that an index that ever falls
outside its array, which the fast mode would read or write as it is, fails them."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gtp_engine.board import kernels

ROOT = Path(__file__).resolve().parents[1]

TINY = textwrap.dedent("""
    import numba, numpy as np
    from gtp_engine.board import kernels
    get = numba.njit(**dict(kernels.KERNEL_OPTIONS, cache=False))(lambda a, i: a[i])
    a = np.arange(5, dtype=np.int32)
    print("read", get(a, 3))
    for i in (-1, 5):
        try:
            get(a, i)
            print("unchecked", i)
        except IndexError:
            print("IndexError", i)
""")


def run_checked(code_or_args, tmp_path, check="1"):
    env = dict(os.environ, VARGO_CHECK_INDICES=check, NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PYTHONPATH=str(ROOT))
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else code_or_args
    return subprocess.run([sys.executable, *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=3000)


def test_this_numba_compiles_the_kernels_without_wraparound():
    assert kernels.KERNEL_COMPILER is not None
    assert kernels.KERNEL_OPTIONS["pipeline_class"] is kernels.KERNEL_COMPILER
    assert kernels.KERNEL_OPTIONS["_nrt"] is False


def test_the_check_mode_raises_on_an_index_outside_the_array(tmp_path):
    done = run_checked(TINY, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["read 3", "IndexError -1", "IndexError 5"]


def test_without_the_check_an_index_in_the_array_reads_its_element(tmp_path):
    done = run_checked(TINY, tmp_path, check="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("read 3\n")


@pytest.mark.slow
def test_the_kernels_tests_pass_with_every_index_checked(tmp_path):
    """Minutes: every kernel compiles anew in the check mode's cache."""
    tests = ["tests/test_kernel_vs_reference.py", "tests/test_board_mirror.py",
             "tests/test_board_position.py", "tests/test_search.py", "tests/test_shared_tree.py",
             "tests/test_value.py", "tests/test_knowledge.py", "tests/test_fights.py",
             "tests/test_ladders.py", "tests/test_rulings.py", "tests/test_rulings_terrain.py",
             "tests/test_forts.py", "tests/test_bench_search.py"]
    done = run_checked(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "",
                        "-x", *tests], tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
