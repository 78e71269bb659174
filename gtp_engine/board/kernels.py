"""The board kernels: plain functions over one int32 state array, compiled by numba.

Reading guide: layout of the state -> small helpers (empty list, hash, liberties) ->
groups (place, merge, remove, flip) -> legality pre-checks per capture kind -> move
application per capture kind -> ``play`` / ``check`` (the two entry points for one move) and
``put`` (a setup stone as it stands) -> queries (legal points, eyes, scoring) -> the random
playout -> ``warm_all``.

This same source is also loaded a second time as a pure-Python *mirror* (``_backend``), with
``jit`` the identity: the engine uses the mirror until the compiled kernels are ready, so the
protocol never waits for a compile. Therefore everything here must run unchanged both ways:
integers read from the int32 arrays go through ``int()`` before arithmetic that could
overflow 32 bits (numpy scalars wrap; numba widens), and there are no exceptions: an illegal
move is a returned code.

The board is ``W = N + 2`` columns wide with a wall border, so neighbours need no bounds
checks; a point ``(row, col)`` is cell ``(row + 1) * W + col + 1`` (row 0 at the bottom). The
state holds one row per section (``st[GID, cell]``) and a header row of scalars, so a position
is copied with one array copy.

Groups are incremental: every stone stores its group's *root* cell (``gid``) and the next stone
of its group in a circular list (``nxt``); the root's cell holds the group data. Liberties are
*pseudo*-liberties: one count per (stone, adjacent empty point) pair, so merging and removing
are additions; a group has no liberty iff the count is 0, and exactly one iff all pairs name
the same point, which we test with the sum and sum of squares of the liberty cells
(n * sum(x^2) == sum(x)^2 holds only when all x are equal: Cauchy-Schwarz).

Play never leaves a group without a liberty (Loose: without a true liberty), so a move only
looks near itself. Setup stones put as they stand can (``put``); the header's H_UNSETTLED then
sends every move down the trial path, which looks at the whole board, until none is left.
"""

import numpy as np

try:  # the mirror loader sets PURE_PYTHON before running this source
    PURE_PYTHON  # noqa: B018
except NameError:
    PURE_PYTHON = False

if PURE_PYTHON:
    def jit(function):
        return function

    jit_inline = jit
else:
    import os

    import numba
    from numba.core import config as numba_config

    # LLVM at -O3 (numba's default, said here so that it is a choice): the first compile on
    # a machine takes about a fifth more CPU than at -O1, and the playouts run 7% faster in the
    # middle game (docs/RESEARCH.md, twentieth session). Set before the first compile; a
    # NUMBA_OPT of the user's wins.
    COMPILE_OPT = "3"
    if "NUMBA_OPT" not in os.environ:
        os.environ["NUMBA_OPT"] = COMPILE_OPT
        numba_config.reload_config()

    # No kernel indexes an array from its end, so numba's wraparound of a negative index
    # (a compare and a select at every access by a signed integer, which also keeps LLVM
    # from vectorizing a loop) is left out of their code: 10-20% more simulations per CPU
    # second in every game (docs/RESEARCH.md, forty-seventh session). With
    # VARGO_CHECK_INDICES=1 every index is checked instead, an IndexError where one falls
    # outside its array: tests/test_indices.py runs the kernels' tests so, in a cache of
    # their own (NUMBA_CACHE_DIR is set to one when not given).
    CHECK_INDICES = os.environ.get("VARGO_CHECK_INDICES", "") not in ("", "0")
    if CHECK_INDICES and "NUMBA_CACHE_DIR" not in os.environ:
        import tempfile
        os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(),
                                                     "vargo-numba-checked-indices")
        numba_config.reload_config()

    def _kernel_compiler():
        """numba's nopython pipeline with the lowering of ``_LowerIndicesAsGiven``; None where
        this numba's pipeline is not the one this was written for (then numba's own)."""
        try:
            from numba.core import cgutils, types
            from numba.core.compiler import CompilerBase, DefaultPassBuilder
            from numba.core.compiler_machinery import register_pass
            from numba.core.typed_passes import NativeLowering
            from numba.np import arrayobj
            numba_fix = arrayobj.fix_integer_index
        except (ImportError, AttributeError):
            return None

        def index_as_given(context, builder, idxty, idx, size):
            index = context.cast(builder, idx, idxty, types.intp)
            if CHECK_INDICES:
                cgutils.do_boundscheck(context, builder, index, size)
            return index

        @register_pass(mutates_CFG=False, analysis_only=False)
        class _LowerIndicesAsGiven(NativeLowering):
            """numba's lowering, with an integer index taken as given (no wraparound)."""
            _name = "vargo_lower_indices_as_given"

            def run_pass(self, state):
                # only this lowering, not the typing before it: numba's own library code
                # compiled there for our calls (np.searchsorted, ...) keeps its wraparound
                arrayobj.fix_integer_index = index_as_given
                try:
                    return super().run_pass(state)
                finally:
                    arrayobj.fix_integer_index = numba_fix

        class KernelCompiler(CompilerBase):
            def define_pipelines(self):
                manager = DefaultPassBuilder.define_nopython_pipeline(self.state)
                manager.passes = [(_LowerIndicesAsGiven if step is NativeLowering else step, text)
                                  for step, text in manager.passes]
                manager.finalize()
                return [manager]

        return KernelCompiler

    #: numba options of every compiled kernel, the search's too
    KERNEL_OPTIONS = dict(cache=True, nogil=True, _nrt=False)
    KERNEL_COMPILER = _kernel_compiler()
    if KERNEL_COMPILER is not None:
        KERNEL_OPTIONS["pipeline_class"] = KERNEL_COMPILER
    # cache=True: compile once per machine; nogil: the search may run playouts in threads;
    # _nrt=False: these kernels never allocate, and without numba's reference counting the
    # arrays passed from function to function cost no atomic increments and decrements
    # (9x9 random playouts measured 1.30x faster). A kernel that allocates fails to compile.

    def _plain(argument_type):
        """The type a kernel is compiled for when another passes it ``argument_type``: without
        its constant's value (numba would compile a copy per constant) and, for an integer,
        int64 (a copy for int32 cells read from the arrays and one for int64 arithmetic)."""
        from numba.core import types
        argument_type = types.unliteral(argument_type)
        if isinstance(argument_type, types.Integer) and argument_type.bitwidth < 64:
            return types.int64
        return argument_type

    def kernel(**options):
        """``numba.njit`` with ``KERNEL_OPTIONS`` and ``options``, compiling one specialisation
        per kernel where numba's own typing of calls between kernels made up to seven (one
        per literal and integer width met): a fifth of the first compile's CPU (the profile in
        ``scripts/profile_compile.py``). The arguments are converted at the call."""
        njit = numba.njit(**KERNEL_OPTIONS, **options)

        def decorate(function):
            dispatcher = njit(function)
            typed = dispatcher.get_call_template

            def get_call_template(args, kws):
                return typed(tuple(_plain(a) for a in args),
                             {k: _plain(v) for k, v in kws.items()})

            dispatcher.get_call_template = get_call_template
            return dispatcher
        return decorate

    jit = kernel()
    # inline="always" for the functions on the way of a Go move that LLVM leaves as calls:
    # numba pastes their body into the caller, where a call would pass every array as its 7
    # to 9 fields (9x9 random playouts 1.44x faster, and no longer to compile: ``play``
    # applies a move at one place only). Small helpers LLVM inlines by itself.
    jit_inline = numba.njit(**KERNEL_OPTIONS, inline="always")


# --------------------------------------------------------------------------- codes and layout
# The switches and kinds repeat ``constants`` (and the codes ``errors.Illegal``'s order) on
# purpose: numba's cache does not notice a change in another file, so every value the
# compiled code freezes lives in this file; tests check that both agree.
EMPTY, BLACK, WHITE, WALL, FORT = 0, 1, 2, 3, 4   # cell values of the BOARD section
PLAIN, MOUNTAIN, WATER = 0, 1, 2
CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS = 0, 1, 2, 3
SCORE_AREA, SCORE_STONES, SCORE_STONES_NOT_MEALS = 0, 1, 2

# Move results: 0 legal, else 1 + the index of the reason in errors.Illegal.
LEGAL = 0
ILLEGAL_OCCUPIED = 1
ILLEGAL_SUICIDE = 2
ILLEGAL_NO_TRUE_LIBERTY = 4
ILLEGAL_FEEDS_GLUTTON = 5
ILLEGAL_MOUNTAIN = 6
ILLEGAL_WATER = 7
ILLEGAL_FORT = 8
NEEDS_TRIAL = 99   # the pre-check cannot decide cheaply: apply on a copy and look

# The state is a 2-D int32 array: one row per section, indexed by cell (indexing a row is
# free, where slicing views would cost reference counting on every call).
BOARD = 0        # EMPTY / BLACK / WHITE / WALL / FORT
TERR = 1         # PLAIN / MOUNTAIN / WATER
FORT_OWNER = 2   # colour owning the fort on the cell, else 0
GID = 3          # per stone: the root cell of its group
NXT = 4          # per stone: the next stone of its group (circular list)
GSIZE = 5        # per root: stones in the group
GLIBS = 6        # per root: (stone, empty neighbour) pairs: pseudo-liberties
GLSUM = 7        # per root: sum of the liberty cells of those pairs
GLSQ = 8         # per root: sum of their squares (atari test)
GFLAT = 9        # per root: pairs whose liberty is not a mountain (T4)
GDRY = 10        # per root: stones not on water (T4)
GTRUE = 11       # per root, Loose only: pairs whose liberty is true (L1)
EMPTIES = 12     # the empty cells, densely, in any order
EPOS = 13        # per empty cell: its index in EMPTIES
HDR = 14         # the header row: the scalars below
SECTIONS = 15
H_SIZE, H_WIDTH, H_AREA, H_CAPTURE, H_NEMPTY, H_BLACKS, H_WHITES = 0, 1, 2, 3, 4, 5, 6
H_KO, H_KO_COLOR, H_HASH_LO, H_HASH_HI, H_TERRAIN = 7, 8, 9, 10, 11
# H_UNSETTLED: 1 while a group stands that play never leaves behind, without a liberty (Loose:
# without a true liberty); only ``put`` (setup stones as they stand) makes one. Moves then
# apply the rules to such groups anywhere on the board, not only near the move.
H_UNSETTLED = 12
HEADER = 13      # header cells used (the row is at least this long)

# Work array (scratch, never part of a position): small lists, a mark per cell, stacks.
W_SMALL = 0          # 63 cells for short lists of roots
W_QUIET = 63         # set by the Loose pre-check: 1 when a legal move flips nothing
W_MARK = 64          # then MARK, LIST1, LIST2, LIST3, LIST4: one cell-sized block each,
                     # then Goncrete's tables of flipped groups: 8 blocks and one cell

# Effects buffer: 4 counts, then captured / flipped / removed / meals lists of cells.
E_CAPTURED, E_FLIPPED, E_REMOVED, E_MEALS = 0, 1, 2, 3
E_HEADER = 4

MAX_WIDTH = 27                     # 25 + 2 walls
MAX_AREA = MAX_WIDTH * MAX_WIDTH


def state_shape(size):
    """Shape of the state array of an N x N board."""
    area = (size + 2) * (size + 2)
    return (SECTIONS, max(area, HEADER))


def work_length(size):
    area = (size + 2) * (size + 2)
    return W_MARK + 13 * area + 1


# Goncrete's removal choice (G2) tries every pick up to this many; beyond (only setup positions
# with many groups without liberties get there) it chooses group by group.
G2_ENUMERATION_LIMIT = 1 << 16


def effects_length(size):
    area = (size + 2) * (size + 2)
    return E_HEADER + 4 * area


# --------------------------------------------------------------------------- helpers
@jit
def init_state(st, size, kinds):
    """Set up an empty board in ``st`` (zeros of shape ``state_shape(size)``); ``kinds``
    (int32, size*size, ``row*size + col``) gives the terrain."""
    w = size + 2
    a = w * w
    st[HDR, H_SIZE] = size
    st[HDR, H_WIDTH] = w
    st[HDR, H_AREA] = a
    n = 0
    has_terrain = 0
    for cell in range(a):
        row = cell // w - 1
        col = cell % w - 1
        if row < 0 or row >= size or col < 0 or col >= size:
            st[BOARD, cell] = WALL
        else:
            k = kinds[row * size + col]
            st[TERR, cell] = k
            if k != PLAIN:
                has_terrain = 1
            st[EMPTIES, n] = cell
            st[EPOS, cell] = n
            n += 1
    st[HDR, H_NEMPTY] = n
    st[HDR, H_TERRAIN] = has_terrain


@jit
def set_capture(st, capture):
    st[HDR, H_CAPTURE] = capture


if PURE_PYTHON:
    def copy_state(dst, src):
        """``dst[:] = src`` (numpy copies at once in the mirror)."""
        dst[:] = src
else:
    @jit
    def copy_state(dst, src):
        """``dst[:] = src`` cell by cell: the compiled slice copy may need a temporary (in case
        the two overlap), which kernels without reference counting cannot allocate."""
        for i in range(src.shape[0]):
            for j in range(src.shape[1]):
                dst[i, j] = src[i, j]


@jit
def _empty_remove(st, cell):
    # swap-remove keeps the empty list dense for O(1) random picks
    i = st[EPOS, cell]
    n = st[HDR, H_NEMPTY] - 1
    last = st[EMPTIES, n]
    st[EMPTIES, i] = last
    st[EPOS, last] = i
    st[HDR, H_NEMPTY] = n


@jit
def _empty_add(st, cell):
    n = st[HDR, H_NEMPTY]
    st[EMPTIES, n] = cell
    st[EPOS, cell] = n
    st[HDR, H_NEMPTY] = n + 1


@jit
def _toggle_stone(st, zob, cell, color):
    """XOR a stone of ``color`` on ``cell`` into (or out of) the position's hash."""
    k = (color * MAX_AREA + cell) * 2
    st[HDR, H_HASH_LO] ^= zob[k]
    st[HDR, H_HASH_HI] ^= zob[k + 1]


@jit
def _count(st, color, delta):
    """Keep the stone counts of the header (G4 needs them at once)."""
    st[HDR, H_BLACKS + color - 1] += delta


@jit
def _lib_pair(st, root, lib, sign):
    """Add (sign 1) or drop (sign -1) one (stone, liberty) pair of group ``root``."""
    st[GLIBS, root] += sign
    st[GLSUM, root] += sign * lib
    st[GLSQ, root] += sign * lib * lib
    if st[TERR, lib] != MOUNTAIN:
        st[GFLAT, root] += sign


@jit
def _in_atari(st, root):
    """Exactly one liberty: every pseudo-liberty pair names the same point."""
    n = int(st[GLIBS, root])
    if n == 0:
        return False
    s = int(st[GLSUM, root])
    return n * int(st[GLSQ, root]) == s * s


@jit
def _is_true(st, cell, w):
    """L1: an empty point is a false liberty when it touches both colours and no empty point."""
    seen = 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v == EMPTY:
            return True
        if v == BLACK or v == WHITE:
            seen |= v
    return seen != 3


@jit
def _add_unique(work, n, value):
    """Append ``value`` to work[0:n] unless present; returns the new length."""
    for i in range(n):
        if work[W_SMALL + i] == value:
            return n
    work[W_SMALL + n] = value
    return n + 1


@jit
def _unsettled(st, root):
    """A group play never leaves behind: no liberty, in Loose no true liberty (L3)."""
    if st[HDR, H_CAPTURE] == CAPTURE_LOOSE:
        return st[GTRUE, root] <= 0
    return st[GLIBS, root] == 0


@jit
def _update_unsettled(st):
    """Recompute H_UNSETTLED over the whole board (after a move on an unsettled position)."""
    a = int(st[HDR, H_AREA])
    flag = 0
    if st[HDR, H_CAPTURE] != CAPTURE_MEALS:   # Disto's meals are ordinary: nothing to settle
        for c in range(a):
            v = st[BOARD, c]
            if (v == BLACK or v == WHITE) and st[GID, c] == c and _unsettled(st, c):
                flag = 1
                break
    st[HDR, H_UNSETTLED] = flag


# --------------------------------------------------------------------------- groups
@jit
def _merge(st, a, b):
    """Merge the groups rooted at ``a`` and ``b``; returns the surviving root (the larger
    group's, so relabelling is cheap)."""
    if st[GSIZE, a] < st[GSIZE, b]:
        a, b = b, a
    s = b
    while True:
        st[GID, s] = a
        s = st[NXT, s]
        if s == b:
            break
    na = st[NXT, a]          # splicing two circular lists is a swap of two successors
    st[NXT, a] = st[NXT, b]
    st[NXT, b] = na
    st[GSIZE, a] += st[GSIZE, b]
    st[GLIBS, a] += st[GLIBS, b]
    st[GLSUM, a] += st[GLSUM, b]
    st[GLSQ, a] += st[GLSQ, b]
    st[GFLAT, a] += st[GFLAT, b]
    st[GDRY, a] += st[GDRY, b]
    st[GTRUE, a] += st[GTRUE, b]
    return a


@jit
def _place(st, zob, cell, color):
    """Put a stone on the empty ``cell`` and merge it with its friends; no captures. In Loose
    (header capture) the true-liberty pair counts are kept up to date as well."""
    w = int(st[HDR, H_WIDTH])
    loose = st[HDR, H_CAPTURE] == CAPTURE_LOOSE
    was_true = loose and _is_true(st, cell, w)
    st[BOARD, cell] = color
    _empty_remove(st, cell)
    _toggle_stone(st, zob, cell, color)
    _count(st, color, 1)
    st[GID, cell] = cell
    st[NXT, cell] = cell
    st[GSIZE, cell] = 1
    st[GLIBS, cell] = 0
    st[GLSUM, cell] = 0
    st[GLSQ, cell] = 0
    st[GFLAT, cell] = 0
    st[GTRUE, cell] = 0
    st[GDRY, cell] = 1 if st[TERR, cell] != WATER else 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v == EMPTY:
            _lib_pair(st, cell, q, 1)
        elif v == BLACK or v == WHITE:
            r = st[GID, q]
            _lib_pair(st, r, cell, -1)
            if was_true:
                st[GTRUE, r] -= 1
    root = cell
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color and st[GID, q] != root:
            root = _merge(st, root, st[GID, q])
    if loose:
        # The empty neighbours lost an empty neighbour: each was true (it touched the empty
        # cell) and is now false if it has no other empty neighbour and touches the enemy.
        for e in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, e] == EMPTY:
                if _is_true(st, e, w):
                    st[GTRUE, root] += 1
                else:
                    for q in (e - 1, e + 1, e - w, e + w):
                        if q != cell and (st[BOARD, q] == BLACK or st[BOARD, q] == WHITE):
                            st[GTRUE, st[GID, q]] -= 1
    return root


@jit
def _remove_group(st, zob, root, out, kind):
    """Take a whole group off the board (Go capture); its neighbours gain the liberties.
    The cells are appended to effects list ``kind``; returns the number of stones."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    color = int(st[BOARD, root])
    n = 0
    s = root
    while True:
        st[BOARD, s] = EMPTY
        _empty_add(st, s)
        _toggle_stone(st, zob, s, color)
        out[E_HEADER + kind * a + out[kind]] = s
        out[kind] += 1
        n += 1
        s = st[NXT, s]
        if s == root:
            break
    _count(st, color, -n)
    s = root
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            v = st[BOARD, q]
            if v == BLACK or v == WHITE:
                _lib_pair(st, st[GID, q], s, 1)
        s = st[NXT, s]
        if s == root:
            break
    return n


@jit
def _recolor(st, zob, root, color, out):
    """Flip every stone of the group at ``root`` to ``color`` (no merging yet); the cells are
    appended to the flipped list."""
    a = int(st[HDR, H_AREA])
    old = int(st[BOARD, root])
    s = root
    while True:
        st[BOARD, s] = color
        _toggle_stone(st, zob, s, old)
        _toggle_stone(st, zob, s, color)
        out[E_HEADER + E_FLIPPED * a + out[E_FLIPPED]] = s
        out[E_FLIPPED] += 1
        s = st[NXT, s]
        if s == root:
            break
    _count(st, old, -int(st[GSIZE, root]))
    _count(st, color, int(st[GSIZE, root]))


@jit
def _merge_flipped(st, out, color):
    """After recolouring, join every flipped stone's group with its new friends."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    for i in range(out[E_FLIPPED]):
        s = out[E_HEADER + E_FLIPPED * a + i]
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] == color and st[GID, q] != st[GID, s]:
                _merge(st, st[GID, s], st[GID, q])


@jit
def _is_glutton(st, root):
    """D1: the person at ``root`` touches a meal (a person without liberties)."""
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - int(st[BOARD, root])
    s = root
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] == enemy and st[GLIBS, st[GID, q]] == 0:
                return True
        s = st[NXT, s]
        if s == root:
            break
    return False


# --------------------------------------------------------------------------- pre-checks
@jit_inline
def _precheck_remove(st, work, cell, color):
    """Go1 and T4 without touching the board: LEGAL or the reason."""
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    has_lib = False
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v == EMPTY:
            has_lib = True
            break
        if v == color:
            if not _in_atari(st, st[GID, q]):
                has_lib = True
                break
        elif v == enemy and _in_atari(st, st[GID, q]):
            has_lib = True   # the capture frees at least this neighbour
            break
    if not has_lib:
        return ILLEGAL_SUICIDE
    kind = st[TERR, cell]
    if kind == PLAIN:
        return LEGAL
    n_own = 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color:
            n_own = _add_unique(work, n_own, st[GID, q])
    if kind == MOUNTAIN:
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == EMPTY and st[TERR, q] != MOUNTAIN:
                return LEGAL
        for i in range(n_own):
            if st[GFLAT, work[W_SMALL + i]] > 0:   # the cell itself is a mountain: not counted
                return LEGAL
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == enemy and _in_atari(st, st[GID, q]):
                if _capture_frees_flat(st, work, n_own, int(st[GID, q]), cell, color):
                    return LEGAL
        return ILLEGAL_MOUNTAIN
    for i in range(n_own):
        if st[GDRY, work[W_SMALL + i]] > 0:
            return LEGAL
    return ILLEGAL_WATER


@jit
def _capture_frees_flat(st, work, n_own, root, cell, color):
    """Whether capturing the group at ``root`` frees a non-mountain point next to the new
    group (the placed ``cell`` and the friendly groups listed in work[0:n_own])."""
    w = int(st[HDR, H_WIDTH])
    s = root
    while True:
        if st[TERR, s] != MOUNTAIN:
            for q in (s - 1, s + 1, s - w, s + w):
                if q == cell:
                    return True
                if st[BOARD, q] == color:
                    for i in range(n_own):
                        if st[GID, q] == work[W_SMALL + i]:
                            return True
        s = st[NXT, s]
        if s == root:
            break
    return False


@jit
def _precheck_flip_remove(st, cell, color):
    """G3: with a flip the new group keeps any liberty it had; without, as Go."""
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    has_lib = False
    flips = False
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v == EMPTY:
            has_lib = True
        elif v == color:
            if not _in_atari(st, st[GID, q]):
                has_lib = True
        elif v == enemy and _in_atari(st, st[GID, q]):
            flips = True
    if has_lib:
        return LEGAL
    if flips:
        return NEEDS_TRIAL   # legal only if a removal is possible
    return ILLEGAL_SUICIDE


@jit
def _precheck_meals(st, cell, color):
    """D2: refuse filling the last liberty of an enemy glutton (judged before the placement)."""
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == enemy:
            r = st[GID, q]
            if _in_atari(st, r) and _is_glutton(st, r):
                return ILLEGAL_FEEDS_GLUTTON
    return LEGAL


@jit
def _loss(work, n, root, amount):
    """Add ``amount`` lost true pairs to ``root`` in the (root, loss) table at work[0:2n]."""
    for i in range(n):
        if work[W_SMALL + 2 * i] == root:
            work[W_SMALL + 2 * i + 1] += amount
            return n
    work[W_SMALL + 2 * n] = root
    work[W_SMALL + 2 * n + 1] = amount
    return n + 1


@jit
def _precheck_loose(st, work, cell, color):
    """L2/L3 without touching the board: LEGAL, NO_TRUE_LIBERTY, or NEEDS_TRIAL when only
    the flips could tell.

    Only the placed cell and its empty neighbours change status (each of those neighbours
    was true, as it touched the empty cell), so only groups around them lose true pairs; the
    (root, lost pairs) table of those groups sits in work[0:2n].
    """
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    n = 0
    gained = 0
    if _is_true(st, cell, w):
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == BLACK or st[BOARD, q] == WHITE:
                n = _loss(work, n, st[GID, q], 1)
    for e in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, e] != EMPTY:
            continue
        other_empty = False
        touches_enemy = False
        for q in (e - 1, e + 1, e - w, e + w):
            if q != cell:
                if st[BOARD, q] == EMPTY:
                    other_empty = True
                elif st[BOARD, q] == enemy:
                    touches_enemy = True
        if other_empty or not touches_enemy:
            gained += 1   # stays true: a true pair for the new stone
        else:
            for q in (e - 1, e + 1, e - w, e + w):
                if st[BOARD, q] == BLACK or st[BOARD, q] == WHITE:
                    n = _loss(work, n, st[GID, q], 1)
    flips = False
    for i in range(n):
        r = work[W_SMALL + 2 * i]
        if st[BOARD, r] == enemy and st[GTRUE, r] - work[W_SMALL + 2 * i + 1] <= 0:
            flips = True
    friends_ok = True
    new_group = gained
    for i in range(n):
        r = work[W_SMALL + 2 * i]
        if st[BOARD, r] != color:
            continue
        left = st[GTRUE, r] - work[W_SMALL + 2 * i + 1]
        touches = False
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == color and st[GID, q] == r:
                touches = True
        if touches:
            new_group += left
        elif left <= 0:
            friends_ok = False
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color:   # friends that lost nothing are not in the table
            r = st[GID, q]
            found = False
            for i in range(n):
                if work[W_SMALL + 2 * i] == r:
                    found = True
            if not found:
                new_group += st[GTRUE, r]
                n = _loss(work, n, r, 0)   # count each friend once
    if new_group <= 0:
        friends_ok = False
    work[W_QUIET] = 0 if flips else 1
    if not flips:
        return LEGAL if friends_ok else ILLEGAL_NO_TRUE_LIBERTY
    if not friends_ok:
        return NEEDS_TRIAL   # a flip may still give the friend a true liberty
    # Every friend keeps a true liberty, and flips only turn false liberties true: the move
    # is legal if each flipped group joins a friend (touches one or the placed stone).
    for i in range(n):
        r = work[W_SMALL + 2 * i]
        if st[BOARD, r] == enemy and st[GTRUE, r] - work[W_SMALL + 2 * i + 1] <= 0:
            if not _touches_friend(st, r, cell, color, w):
                return NEEDS_TRIAL
    return LEGAL


@jit
def _touches_friend(st, root, cell, color, w):
    """Whether the group at ``root`` touches ``cell`` or a stone of ``color``."""
    s = root
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if q == cell or st[BOARD, q] == color:
                return True
        s = st[NXT, s]
        if s == root:
            break
    return False


@jit_inline
def _precheck(st, work, cell, color):
    v = st[BOARD, cell]
    if v == FORT:
        return ILLEGAL_FORT
    if v != EMPTY:
        return ILLEGAL_OCCUPIED
    if st[HDR, H_UNSETTLED] != 0:
        return NEEDS_TRIAL   # groups without a liberty stand somewhere (setup): apply and look
    capture = st[HDR, H_CAPTURE]
    if capture == CAPTURE_REMOVE:
        return _precheck_remove(st, work, cell, color)
    if st[HDR, H_TERRAIN] != 0 and st[TERR, cell] != PLAIN:
        return NEEDS_TRIAL   # terrain with another capture kind: no shortcut, try it
    if capture == CAPTURE_LOOSE:
        return _precheck_loose(st, work, cell, color)
    if capture == CAPTURE_FLIP_REMOVE:
        return _precheck_flip_remove(st, cell, color)
    return _precheck_meals(st, cell, color)


# --------------------------------------------------------------------------- application
@jit
def _terrain_check(st, root, cell):
    """T4 on the group at ``root`` after captures."""
    if st[TERR, cell] == MOUNTAIN and st[GFLAT, root] == 0:
        return ILLEGAL_MOUNTAIN
    if st[TERR, cell] == WATER and st[GDRY, root] == 0:
        return ILLEGAL_WATER
    return LEGAL


@jit_inline
def _apply_remove(st, zob, cell, color, out):
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    _place(st, zob, cell, color)
    captured = 0
    last = 0
    if st[HDR, H_UNSETTLED] != 0:
        for q in range(int(st[HDR, H_AREA])):   # Go1: every enemy group without a liberty
            if st[BOARD, q] == enemy and st[GID, q] == q and st[GLIBS, q] == 0:
                captured += _remove_group(st, zob, int(q), out, E_CAPTURED)
                last = q
    else:
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == enemy and st[GLIBS, st[GID, q]] == 0:
                captured += _remove_group(st, zob, int(st[GID, q]), out, E_CAPTURED)
                last = q
    root = int(st[GID, cell])
    if st[GLIBS, root] == 0:
        return ILLEGAL_SUICIDE
    st[HDR, H_KO] = 0
    if captured == 1 and st[GSIZE, root] == 1 and _in_atari(st, root):
        st[HDR, H_KO] = last        # a lone stone in atari that took one stone: simple ko
        st[HDR, H_KO_COLOR] = enemy
    return _terrain_check(st, root, cell)


@jit
def _apply_loose(st, zob, work, cell, color, out, checked):
    """L2: flip every enemy group left without a true liberty, all at once; L3: every group
    near the change must keep a true liberty (groups elsewhere lost nothing: a flip only
    turns false liberties true, since a flipped group had no true liberty). ``checked``:
    the pre-check found the move legal, and quiet if work[W_QUIET] says so."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    enemy = 3 - color
    _place(st, zob, cell, color)
    if checked and work[W_QUIET] == 1:
        return LEGAL
    unsettled = st[HDR, H_UNSETTLED] != 0
    if unsettled:
        for r in range(a):   # L2: every enemy group without a true liberty, anywhere
            if st[BOARD, r] == enemy and st[GID, r] == r and st[GTRUE, r] == 0:
                _recolor(st, zob, int(r), color, out)
    else:
        n = _near_groups(st, work, cell, w)
        for i in range(n):
            r = int(work[W_SMALL + i])
            if st[BOARD, r] == enemy and st[GTRUE, r] == 0:
                _recolor(st, zob, r, color, out)
    nflip = int(out[E_FLIPPED])
    if nflip > 0:
        mark = work[W_MARK:W_MARK + a]
        touched = work[W_MARK + a:W_MARK + 2 * a]
        nt = 0
        for i in range(nflip):
            s = out[E_HEADER + E_FLIPPED * a + i]
            for e in (s - 1, s + 1, s - w, s + w):
                if st[BOARD, e] == EMPTY and mark[e] == 0:
                    mark[e] = 1
                    touched[nt] = e
                    nt += 1
        for i in range(nt):   # each was false (next to a group without a true liberty)
            e = touched[i]
            mark[e] = 0
            if _is_true(st, e, w):
                for q in (e - 1, e + 1, e - w, e + w):
                    if st[BOARD, q] == BLACK or st[BOARD, q] == WHITE:
                        st[GTRUE, st[GID, q]] += 1
        _merge_flipped(st, out, color)
    if unsettled:   # L3 on every group
        for c in range(a):
            v = st[BOARD, c]
            if (v == BLACK or v == WHITE) and st[GTRUE, st[GID, c]] <= 0:
                return ILLEGAL_NO_TRUE_LIBERTY
        return LEGAL
    n = _near_groups(st, work, cell, w)
    for i in range(n):
        if st[GTRUE, work[W_SMALL + i]] <= 0:
            return ILLEGAL_NO_TRUE_LIBERTY
    for i in range(nflip):
        if st[GTRUE, st[GID, out[E_HEADER + E_FLIPPED * a + i]]] <= 0:
            return ILLEGAL_NO_TRUE_LIBERTY
    return LEGAL


@jit
def _near_groups(st, work, cell, w):
    """Roots of the groups with a stone at, next to, or two steps (through an empty point)
    from ``cell``, into work[0:n]; returns n."""
    n = 0
    if st[BOARD, cell] == BLACK or st[BOARD, cell] == WHITE:
        n = _add_unique(work, n, st[GID, cell])
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v == BLACK or v == WHITE:
            n = _add_unique(work, n, st[GID, q])
        elif v == EMPTY:
            for r in (q - 1, q + 1, q - w, q + w):
                if st[BOARD, r] == BLACK or st[BOARD, r] == WHITE:
                    n = _add_unique(work, n, st[GID, r])
    return n


@jit
def _reading_index(cell, w, size):
    """Position of a cell in reading order (top row first, left to right)."""
    row = cell // w - 1
    col = cell % w - 1
    return (size - 1 - row) * size + col


@jit
def _connected_without(st, work, root, cell, size_left):
    """Whether the group at ``root`` minus the cells marked 2 in MARK is still connected
    (a search from ``cell``, which is never removed, reaches ``size_left`` stones)."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    mark = work[W_MARK:W_MARK + a]
    stack = work[W_MARK + 2 * a:W_MARK + 3 * a]
    seen = work[W_MARK + 3 * a:W_MARK + 4 * a]
    top = 1
    stack[0] = cell
    mark[cell] = 1
    count = 0
    while top > 0:
        top -= 1
        s = stack[top]
        seen[count] = s
        count += 1
        for q in (s - 1, s + 1, s - w, s + w):
            if mark[q] == 0 and (st[BOARD, q] == BLACK or st[BOARD, q] == WHITE) \
                    and st[GID, q] == root:
                mark[q] = 1
                stack[top] = q
                top += 1
    for i in range(count):   # leave MARK as found (only the 2s of the removal set remain)
        mark[seen[i]] = 0
    return count == size_left


@jit
def _in_group(st, q, root, color):
    return st[BOARD, q] == color and st[GID, q] == root


@jit
def _cut_free(st, s, root, color, w):
    """A quick sufficient test that removing ``s`` keeps its group whole: its neighbours in
    the group all lie in one run of group cells on the ring of its 8 surrounding cells (then
    every path through ``s`` can go round it instead)."""
    ring = (s + w, s + w + 1, s + 1, s - w + 1, s - w, s - w - 1, s - 1, s + w - 1)
    start = -1
    for k in range(8):
        if not _in_group(st, ring[k], root, color):
            start = k
            break
    if start < 0:
        return True
    runs = 0             # runs of group cells round the ring holding an orthogonal neighbour
    in_run = False
    has_orth = False
    for step in range(1, 9):
        k = (start + step) % 8
        if _in_group(st, ring[k], root, color):
            if not in_run:
                in_run = True
                has_orth = False
            if k % 2 == 0:   # even places of the ring are the orthogonal neighbours
                has_orth = True
        elif in_run:
            in_run = False
            if has_orth:
                runs += 1
    return runs <= 1


@jit
def _add_flipped(st, work, root, ng, roots, firsts):
    """Add the group at ``root`` to the flipped-group table (work[roots:], work[firsts:]: its
    first stone's reading index), kept in reading order of first stones (G2 c), once; returns
    the new count."""
    w = int(st[HDR, H_WIDTH])
    size = int(st[HDR, H_SIZE])
    for i in range(ng):
        if work[roots + i] == root:
            return ng
    first = int(st[HDR, H_AREA])
    s = root
    while True:
        first = min(first, _reading_index(s, w, size))
        s = st[NXT, s]
        if s == root:
            break
    j = ng
    while j > 0 and work[firsts + j - 1] > first:
        work[firsts + j] = work[firsts + j - 1]
        work[roots + j] = work[roots + j - 1]
        j -= 1
    work[firsts + j] = first
    work[roots + j] = root
    return ng + 1


@jit
def _take_off(st, zob, s, color, out):
    """Remove the flipped stone ``s`` (G1): its enemy neighbours gain it as a liberty (its own
    group is recounted by the caller)."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    st[BOARD, s] = EMPTY
    _empty_add(st, s)
    _toggle_stone(st, zob, s, color)
    _count(st, color, -1)
    out[E_HEADER + E_REMOVED * a + out[E_REMOVED]] = s
    out[E_REMOVED] += 1
    for q in (s - 1, s + 1, s - w, s + w):
        if st[BOARD, q] == 3 - color:
            _lib_pair(st, st[GID, q], s, 1)


@jit
def _apply_flip_remove(st, zob, work, cell, color, out):
    """G1-G3: flip the enemy groups left without liberties into the new group, then remove
    the G2 choice of one stone per flipped group, keeping the new group in one piece.

    Only on an unsettled position (setup) can a flipped group lie away from the move and stay
    apart from the new group: it loses its first stone in reading order, which is the G2
    choice for it (any of its stones keeps the new group whole and has no neighbour in it).
    """
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    size = int(st[HDR, H_SIZE])
    enemy = 3 - color
    _place(st, zob, cell, color)
    # tables in the work array (work_length): the flipped groups (root, first stone in reading
    # order, size, offset of its run in the flipped list) ordered by that first stone (G2 c);
    # the candidates of group i are cand[starts[i]:starts[i+1]]; the current and best picks;
    # the stones removed from groups apart from the new group
    g = W_MARK + 5 * a
    roots, firsts, sizes, offsets, starts = g, g + a, g + 2 * a, g + 3 * a, g + 4 * a
    pick, best, apart = g + 5 * a + 1, g + 6 * a + 1, g + 7 * a + 1
    cand = W_MARK + a
    nbrs = W_MARK + 4 * a
    ng = 0
    if st[HDR, H_UNSETTLED] != 0:
        for q in range(a):   # G1 on every enemy group without a liberty
            if st[BOARD, q] == enemy and st[GID, q] == q and st[GLIBS, q] == 0:
                ng = _add_flipped(st, work, int(q), ng, roots, firsts)
    else:
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == enemy and st[GLIBS, st[GID, q]] == 0:
                ng = _add_flipped(st, work, int(st[GID, q]), ng, roots, firsts)
    if ng == 0:
        root = int(st[GID, cell])
        if st[GLIBS, root] == 0:
            return ILLEGAL_SUICIDE
        return _terrain_check(st, root, cell)
    base = 0
    for i in range(ng):
        work[sizes + i] = st[GSIZE, work[roots + i]]
        work[offsets + i] = base
        base += int(work[sizes + i])
        _recolor(st, zob, work[roots + i], color, out)   # each group's stones in one run
    _merge_flipped(st, out, color)
    root = int(st[GID, cell])
    group_size = int(st[GSIZE, root])
    joined = 0   # groups in the new group move to the front of the tables, in order
    napart = 0
    for i in range(ng):
        if st[GID, work[roots + i]] == root:
            work[roots + joined] = work[roots + i]
            work[sizes + joined] = work[sizes + i]
            work[offsets + joined] = work[offsets + i]
            joined += 1
        else:
            index = int(work[firsts + i])
            work[apart + napart] = (size - index // size) * w + index % size + 1
            napart += 1
    ng = joined
    # candidates: stones whose removal alone keeps the group whole (necessary for any set:
    # a piece cut off by one removal cannot consist only of stones removed from other groups,
    # since two adjacent flipped stones always come from the same group)
    nc = 0
    for i in range(ng):
        work[starts + i] = nc
        lo = nc
        first = int(work[offsets + i])
        for j in range(first, first + int(work[sizes + i])):
            s = out[E_HEADER + E_FLIPPED * a + j]
            if not _cut_free(st, s, root, color, w):
                work[W_MARK + s] = 2
                whole = _connected_without(st, work, root, cell, group_size - 1)
                work[W_MARK + s] = 0
                if not whole:
                    continue
            key = _reading_index(s, w, size)
            k = nc
            while k > lo and _reading_index(work[cand + k - 1], w, size) > key:
                work[cand + k] = work[cand + k - 1]
                k -= 1
            work[cand + k] = s
            nc += 1
    work[starts + ng] = nc
    for k in range(nc):
        s = work[cand + k]
        c = 0
        for q in (s - 1, s + 1, s - w, s + w):
            if _in_group(st, q, root, color):
                c += 1
        work[nbrs + k] = c
    combos = 1
    for i in range(ng):
        combos *= int(work[starts + i + 1]) - int(work[starts + i]) + 1
        if combos > G2_ENUMERATION_LIMIT:
            break
    if combos <= G2_ENUMERATION_LIMIT:
        _g2_every_pick(st, work, root, cell, color, ng, group_size, starts, pick, best, cand, nbrs)
    else:
        _g2_group_by_group(st, work, root, cell, ng, group_size, starts, best, cand, nbrs)
    for i in range(ng):
        k = work[starts + i] + work[best + i]
        if k < work[starts + i + 1]:
            _take_off(st, zob, work[cand + k], color, out)
    if out[E_REMOVED] > 0:
        _rebuild_group(st, work, cell)
    if napart > 0:
        for i in range(napart):
            _take_off(st, zob, work[apart + i], color, out)
        for i in range(napart):   # what is left of each apart group may be in pieces
            s = work[apart + i]
            for q in (s - 1, s + 1, s - w, s + w):
                if st[BOARD, q] == color and work[W_MARK + q] == 0:
                    _regroup(st, work, q)
        for c in range(a):
            work[W_MARK + c] = 0
    root = int(st[GID, cell])
    if st[GLIBS, root] == 0:
        return ILLEGAL_SUICIDE
    return _terrain_check(st, root, cell)


@jit
def _g2_every_pick(st, work, root, cell, color, ng, group_size, starts, pick, best, cand, nbrs):
    """G2 by trying every pick (one candidate or none per group) in reading order of the
    choices: the first pick with the most removals, then the most neighbours, that keeps the
    group whole, into work[best:] (offsets into each group's candidates; theirs count: none)."""
    for i in range(ng):
        work[pick + i] = 0
        work[best + i] = -1
    best_count = -1
    best_nbrs = -1
    while True:
        count = 0
        total = 0
        for i in range(ng):
            k = work[starts + i] + work[pick + i]
            if k < work[starts + i + 1]:
                count += 1
                total += work[nbrs + k]
        if count > best_count or (count == best_count and total > best_nbrs):
            whole = True
            if count > 1:   # a single candidate keeps the group whole by definition
                for i in range(ng):
                    k = work[starts + i] + work[pick + i]
                    if k < work[starts + i + 1]:
                        work[W_MARK + work[cand + k]] = 2
                whole = _connected_without(st, work, root, cell, group_size - count)
                for i in range(ng):
                    k = work[starts + i] + work[pick + i]
                    if k < work[starts + i + 1]:
                        work[W_MARK + work[cand + k]] = 0
            if whole:
                best_count = count
                best_nbrs = total
                for i in range(ng):
                    work[best + i] = work[pick + i]
        # next pick: an odometer whose last group turns fastest (choice "none" last)
        i = ng - 1
        while i >= 0:
            work[pick + i] += 1
            if work[pick + i] <= work[starts + i + 1] - work[starts + i]:
                break
            work[pick + i] = 0
            i -= 1
        if i < 0:
            break


@jit
def _g2_group_by_group(st, work, root, cell, ng, group_size, starts, best, cand, nbrs):
    """G2 when there are too many picks to try: each group in turn takes the candidate with
    the most neighbours (the first in reading order among equals) that keeps the group whole
    with the removals chosen before it, else none."""
    removed = 0
    for i in range(ng):
        lo = int(work[starts + i])
        hi = int(work[starts + i + 1])
        work[best + i] = hi - lo
        most = -1
        for k in range(lo, hi):
            if work[nbrs + k] > most:
                s = work[cand + k]
                work[W_MARK + s] = 2
                if _connected_without(st, work, root, cell, group_size - removed - 1):
                    work[best + i] = k - lo
                    most = work[nbrs + k]
                work[W_MARK + s] = 0
        k = lo + int(work[best + i])
        if k < hi:
            work[W_MARK + work[cand + k]] = 2
            removed += 1
    for i in range(ng):
        k = work[starts + i] + work[best + i]
        if k < work[starts + i + 1]:
            work[W_MARK + work[cand + k]] = 0


@jit
def _relink(st, stones, n, root):
    """Make the ``n`` cells listed in ``stones`` one group with ``root`` (one of them) as its
    root: its circular list, its size and dry size, and its liberty counts from scratch."""
    w = int(st[HDR, H_WIDTH])
    st[GLIBS, root] = 0
    st[GLSUM, root] = 0
    st[GLSQ, root] = 0
    st[GFLAT, root] = 0
    st[GTRUE, root] = 0
    st[GDRY, root] = 0
    st[GSIZE, root] = n
    for i in range(n):
        s = stones[i]
        st[NXT, s] = stones[(i + 1) % n]
        st[GID, s] = root
        if st[TERR, s] != WATER:
            st[GDRY, root] += 1
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] == EMPTY:
                _lib_pair(st, root, q, 1)


@jit
def _regroup(st, work, start):
    """Recount the group through ``start`` from scratch by a flood fill (a removal may have
    cut its old group in pieces); ``start`` becomes its root. Its cells stay marked 1 in MARK
    (the caller clears them)."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    mark = work[W_MARK:W_MARK + a]
    stones = work[W_MARK + 2 * a:W_MARK + 3 * a]
    color = st[BOARD, start]
    stones[0] = start
    mark[start] = 1
    n = 1
    i = 0
    while i < n:   # the stone list doubles as the search queue
        s = stones[i]
        i += 1
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] == color and mark[q] == 0:
                mark[q] = 1
                stones[n] = q
                n += 1
    _relink(st, stones, n, start)


@jit
def _rebuild_group(st, work, cell):
    """Recount the group through ``cell`` from scratch after stones left it (its list still
    holds the removed cells, now empty, which are dropped here); ``cell`` becomes its root."""
    a = int(st[HDR, H_AREA])
    stones = work[W_MARK + a:W_MARK + 2 * a]
    color = st[BOARD, cell]
    old = int(st[GID, cell])
    n = 0
    s = old
    while True:
        if st[BOARD, s] == color:
            stones[n] = s
            n += 1
        s = st[NXT, s]
        if s == old:
            break
    _relink(st, stones, n, cell)


@jit
def _apply_meals(st, zob, cell, color, out):
    """D2/D3: the placement stays; report the persons that became meals (they had the
    placed cell as a liberty, so none was a meal before)."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    root = _place(st, zob, cell, color)
    c0 = np.int64(cell)   # the tuple below must hold one integer type
    for q in (c0, c0 - 1, c0 + 1, c0 - w, c0 + w):
        v = st[BOARD, q]
        if (v == BLACK or v == WHITE) and st[GLIBS, st[GID, q]] == 0:
            r = int(st[GID, q])
            seen = False
            for i in range(int(out[E_MEALS])):
                if out[E_HEADER + E_MEALS * a + i] == r:
                    seen = True
            if seen:
                continue
            s = r
            while True:
                out[E_HEADER + E_MEALS * a + out[E_MEALS]] = s
                out[E_MEALS] += 1
                s = st[NXT, s]
                if s == r:
                    break
    return _terrain_check(st, int(st[GID, cell]), cell)


@jit_inline
def _apply(st, zob, work, cell, color, out, checked):
    """Apply a placement that passed the pre-check (``checked``) or is on trial: returns
    LEGAL or the reason; after a non-LEGAL result the state is garbage and must be restored."""
    for i in range(E_HEADER):
        out[i] = 0
    capture = st[HDR, H_CAPTURE]
    if capture == CAPTURE_REMOVE:
        return _apply_remove(st, zob, cell, color, out)
    if capture == CAPTURE_LOOSE:
        return _apply_loose(st, zob, work, cell, color, out, checked)
    if capture == CAPTURE_FLIP_REMOVE:
        return _apply_flip_remove(st, zob, work, cell, color, out)
    return _apply_meals(st, zob, cell, color, out)


# --------------------------------------------------------------------------- entry points
@jit
def play(st, zob, work, spare, cell, color, out):
    """Place ``color`` at ``cell``: returns LEGAL (state and ``out`` updated) or the reason
    (state unchanged). ``spare`` is a scratch state of the same length."""
    return _play(st, zob, work, spare, cell, color, out)


@jit_inline
def _play(st, zob, work, spare, cell, color, out):
    """``play``, pasted into the random playout."""
    code = _precheck(st, work, cell, color)
    if code != LEGAL and code != NEEDS_TRIAL:
        return code
    trial = code == NEEDS_TRIAL
    board = st
    if trial:   # apply on a copy and keep it only if legal
        copy_state(spare, st)
        board = spare
    code = _apply(board, zob, work, cell, color, out, not trial)
    if trial and code == LEGAL:
        copy_state(st, spare)
        if st[HDR, H_UNSETTLED] != 0:
            _update_unsettled(st)
    return code


@jit
def check(st, zob, work, spare, cell, color, out):
    """Whether ``play`` would succeed (LEGAL or the reason); ``st`` is never changed."""
    code = _precheck(st, work, cell, color)
    if code != NEEDS_TRIAL:
        return code
    copy_state(spare, st)
    return _apply(spare, zob, work, cell, color, out, False)


@jit
def put_fort(st, cell, color):
    """A fort on the empty ``cell`` (T3: never a liberty, never a stone)."""
    w = int(st[HDR, H_WIDTH])
    st[BOARD, cell] = FORT
    st[FORT_OWNER, cell] = color
    _empty_remove(st, cell)
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == BLACK or st[BOARD, q] == WHITE:
            _lib_pair(st, st[GID, q], cell, -1)


@jit
def put(st, zob, work, cell, color):
    """Put a stone of ``color`` on the empty ``cell`` as it stands (SGF setup): no captures, no
    legality; groups, pseudo-liberties, true liberties (Loose) and the T4 counts stay exact. A
    group near the cell left without a liberty (Loose: a true liberty) makes the position
    unsettled (H_UNSETTLED), so the next moves apply the rules to such groups anywhere."""
    _place(st, zob, cell, color)
    st[HDR, H_KO] = 0
    if st[HDR, H_CAPTURE] == CAPTURE_MEALS:
        return
    n = _near_groups(st, work, cell, int(st[HDR, H_WIDTH]))
    for i in range(n):
        if _unsettled(st, work[W_SMALL + i]):
            st[HDR, H_UNSETTLED] = 1


@jit_inline
def is_own_eye(st, cell, color):
    """A single-point eye of ``color``: every neighbour is a friend (or the edge or a fort,
    which no stone can use), and the enemy holds at most one diagonal, none at the edge."""
    w = int(st[HDR, H_WIDTH])
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v != color and v != WALL and v != FORT:
            return False
    enemy = 3 - color
    bad = 0
    edge = 0
    for q in (cell - w - 1, cell - w + 1, cell + w - 1, cell + w + 1):
        v = st[BOARD, q]
        if v == enemy:
            bad += 1
        elif v == WALL or v == FORT:
            edge = 1
    return bad + edge < 2


@jit
def legal_cells(st, zob, work, spare, out, color, skip_own_eyes, cells):
    """The legal cells for ``color`` in reading order into ``cells``; returns how many."""
    size = int(st[HDR, H_SIZE])
    w = size + 2
    n = 0
    for row in range(size - 1, -1, -1):
        for col in range(size):
            cell = (row + 1) * w + col + 1
            if skip_own_eyes and st[BOARD, cell] == EMPTY and is_own_eye(st, cell, color):
                continue
            if check(st, zob, work, spare, cell, color, out) == LEGAL:
                cells[n] = cell
                n += 1
    return n


# --------------------------------------------------------------------------- scoring
@jit
def owner_cells(st, work, scoring, owner):
    """Who each cell counts for (0 nobody): stones (not meals under SCORE_STONES_NOT_MEALS),
    and under SCORE_AREA the regions of empty points and forts touching one colour (T6)."""
    w = int(st[HDR, H_WIDTH])
    a = int(st[HDR, H_AREA])
    for cell in range(a):
        v = st[BOARD, cell]
        owner[cell] = 0
        if v == BLACK or v == WHITE:
            if scoring != SCORE_STONES_NOT_MEALS or st[GLIBS, st[GID, cell]] > 0:
                owner[cell] = v
    if scoring != SCORE_AREA:
        return
    mark = work[W_MARK:W_MARK + a]
    region = work[W_MARK + a:W_MARK + 2 * a]
    for start in range(a):
        v = st[BOARD, start]
        if (v != EMPTY and v != FORT) or mark[start] != 0:
            continue
        mark[start] = 1
        region[0] = start
        size = 1
        i = 0
        touches = 0
        while i < size:   # the region list doubles as the search queue
            s = region[i]
            i += 1
            for q in (s - 1, s + 1, s - w, s + w):
                u = st[BOARD, q]
                if u == EMPTY or u == FORT:
                    if mark[q] == 0:
                        mark[q] = 1
                        region[size] = q
                        size += 1
                elif u == BLACK or u == WHITE:
                    touches |= u
        who = touches if touches == BLACK or touches == WHITE else 0
        for j in range(size):
            owner[region[j]] = who
    for cell in range(a):
        mark[cell] = 0


@jit
def score_halves(st, work, scoring, fort_value, owner):
    """(black, white) in half points without komi (Go3, L4, D4, T5-T7); fills ``owner``."""
    a = int(st[HDR, H_AREA])
    owner_cells(st, work, scoring, owner)
    black = 0
    white = 0
    for cell in range(a):
        o = owner[cell]
        if o == 0:
            continue
        if scoring != SCORE_AREA:
            value = 2
        elif st[BOARD, cell] == FORT:
            value = 2 * fort_value if st[FORT_OWNER, cell] == 3 - o else 0
        elif st[TERR, cell] == PLAIN:
            value = 2
        elif st[TERR, cell] == WATER:
            value = 3
        else:
            value = 0
        if o == BLACK:
            black += value
        else:
            white += value
    return black, white


# --------------------------------------------------------------------------- playouts
@jit
def _next_random(rng):
    """xorshift32 in int64 arithmetic, so the mirror draws the same numbers."""
    x = int(rng[0])
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    rng[0] = x
    return x


@jit
def playout(st, zob, work, spare, out, owner, color, skip_own_eyes, max_moves, rng,
            scoring, fort_value):
    """Random play on ``st`` (changed in place) from ``color`` to move: uniformly random legal
    placements, never in one's own single-point eye when ``skip_own_eyes``, never retaking a
    simple ko; a player without such a move passes; two passes in a row, a flip that leaves
    the opponent no stone (G4) or ``max_moves`` placements end it.

    Returns (black halves, white halves, placements, reason) with reason 0 two passes, 1
    annihilation, 2 the move cap. ``rng`` is a one-cell int64 array (nonzero seed).
    """
    passes = 0
    moves = 0
    reason = 2
    while moves < max_moves:
        k = int(st[HDR, H_NEMPTY])
        played = False
        while k > 0:
            i = _next_random(rng) % k
            cell = np.int64(st[EMPTIES, i])   # one integer type for every call of play
            ok = not (cell == st[HDR, H_KO] and color == st[HDR, H_KO_COLOR])
            if ok and skip_own_eyes:
                ok = not is_own_eye(st, cell, color)
            if ok and _play(st, zob, work, spare, cell, color, out) == LEGAL:
                played = True
                break
            # move the refused cell out of the window (the list order is free)
            k -= 1
            other = st[EMPTIES, k]
            st[EMPTIES, i] = other
            st[EPOS, other] = i
            st[EMPTIES, k] = cell
            st[EPOS, cell] = k
        if played:
            moves += 1
            passes = 0
            annihilated = out[E_FLIPPED] > 0 and st[HDR, H_BLACKS + 2 - color] == 0
            if annihilated and st[HDR, H_CAPTURE] == CAPTURE_FLIP_REMOVE:
                reason = 1
                break
        else:
            passes += 1
            if passes == 2:
                reason = 0
                break
        color = 3 - color
    black, white = score_halves(st, work, scoring, fort_value, owner)
    return black, white, moves, reason


@jit
def playout_batch(st, zob, work, spare, game, out, owner, color, skip_own_eyes, max_moves,
                  rng, scoring, fort_value, komi_halves, count, ownership):
    """``count`` playouts from ``st`` (unchanged; ``game`` is the scratch state): returns
    Black's wins, a tie counting as half a win (in half-wins, so 2 per win); ``komi_halves``
    goes to White. ``ownership`` (2 * area) accumulates per cell how often Black / White
    owned it at the end."""
    a = int(st[HDR, H_AREA])
    wins = 0
    for _ in range(count):
        copy_state(game, st)
        black, white, moves, reason = playout(game, zob, work, spare, out, owner, color,
                                              skip_own_eyes, max_moves, rng, scoring, fort_value)
        white += komi_halves
        if black > white:
            wins += 2
        elif black == white:
            wins += 1
        for cell in range(a):
            o = owner[cell]
            if o == BLACK:
                ownership[cell] += 1
            elif o == WHITE:
                ownership[a + cell] += 1
    return wins


# --------------------------------------------------------------------------- warm-up
ENTRY_POINTS = ("init_state", "set_capture", "put_fort", "put", "play", "check", "is_own_eye",
                "legal_cells", "owner_cells", "score_halves", "playout", "playout_batch")


def warm_all():
    """Call every entry point once per capture kind with the argument types ``Position`` and
    the search use (Python ints and bools, int32 arrays, an int64 random state), so that numba
    compiles (or loads from its cache) every specialisation before the engine needs it."""
    size = 5
    w = size + 2
    zob = zobrist_keys()
    for capture in (CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS):
        kinds = np.zeros(size * size, np.int32)
        kinds[0] = MOUNTAIN
        kinds[1] = WATER
        st = np.zeros(state_shape(size), np.int32)
        init_state(st, int(size), kinds)
        set_capture(st, int(capture))
        put_fort(st, int(3 * w + 3), int(WHITE))
        spare = np.zeros_like(st)
        work = np.zeros(work_length(size), np.int32)
        out = np.zeros(effects_length(size), np.int32)
        owner = np.zeros(w * w, np.int32)
        cells = np.zeros(size * size, np.int32)
        play(st, zob, work, spare, int(w + 1), int(BLACK), out)
        check(st, zob, work, spare, int(w + 2), int(WHITE), out)
        put(st, zob, work, int(4 * w + 4), int(WHITE))
        is_own_eye(st, int(w + 3), int(BLACK))
        legal_cells(st, zob, work, spare, out, int(BLACK), True, cells)
        for scoring in (SCORE_AREA, SCORE_STONES, SCORE_STONES_NOT_MEALS):
            owner_cells(st, work, int(scoring), owner)
            score_halves(st, work, int(scoring), int(1), owner)
            game = st.copy()
            rng = np.array([12345 + scoring], np.int64)
            playout(game, zob, work, spare, out, owner, int(BLACK), True, int(3 * size * size),
                    rng, int(scoring), int(1))
            ownership = np.zeros(2 * w * w, np.int32)
            playout_batch(st, zob, work, spare, game, out, owner, int(BLACK), True,
                          int(3 * size * size), rng, int(scoring), int(1), int(13), int(2),
                          ownership)


def zobrist_keys():
    """Fixed 32-bit halves of 64-bit keys per (colour, cell), the same on every machine."""
    rng = np.random.Generator(np.random.PCG64(20261123))
    return rng.integers(-2 ** 31, 2 ** 31, size=3 * MAX_AREA * 2, dtype=np.int64).astype(np.int32)
