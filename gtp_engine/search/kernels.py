"""The search kernels: Monte Carlo tree search over a node pool, compiled by numba.

Reading guide: layout of the tree and the parameters -> small helpers (hash keys, liberties,
atari, 3x3 codes) -> the suggestions (tactics, shape, random), each a function whose name is
its reason, and the ladder reader they use -> the playout -> the fight reader (which move
kills or saves a group of two or three liberties next to the last move) -> priors for new
nodes (the suggestions and the fight reader's verdicts as virtual wins, and the facts and
shapes the learned model of ``knowledge.py`` weighs) -> select / expand / back up ->
``simulate`` (one whole simulation) and ``run`` (many) -> tree upkeep (descend along played
moves, compaction) -> ``warm_all``.

Like ``board.kernels``, this source runs twice: compiled (numba, cached) and as a pure-Python
mirror with ``jit`` the identity, so a ``genmove`` that arrives before the compile is done
still searches (slowly) instead of guessing. Everything here must run unchanged both ways:
integers read from int32 arrays go through ``int()`` before arithmetic, no exceptions, no
objects. The board functions come from the board kernels module of the same kind (the mirror
gets the board mirror injected as ``BOARD_KERNELS``).

The tree spends memory on visited moves only, as KataGo and Leela Zero do. It is two pools
of flat arrays. Nodes (``ti`` int32 and ``tf`` float64, one row per field, indexed by node)
are positions the search has visited: a node is made when a simulation first goes down the
move to it. Edges (``em`` int16 moves, ``ec`` int32 children, ``ef`` float32 priors and AMAF
counts, ``ea`` float64 AMAF wins, one row per edge) are the moves of an expanded node: one
contiguous block ``ti[NI_FIRST, n] .. + ti[NI_COUNT, n]`` per node, made when the node is
expanded, with what the selection needs of a move that has no node yet (its prior and its
AMAF statistics, which every simulation through the node updates, visited or not); ``ec``
names the move's node once it has one (-1 before).
Both are allocated from the free room a header names (``T_USED`` .. ``T_CAPACITY`` nodes,
``T_EDGES`` .. ``T_EDGE_CAPACITY`` edges): the whole pool's header for a tree of its own, or a
thread's arena, blocks of pools shared by several threads (``T_ARENA``), which the caller
refills between calls; the children of a node in a shared pool may lie before it.
``NF_WINS`` counts wins for the player who made the node's move; ``NF_VALUE`` the
same wins blended with the final margin (``P_SCORE_WEIGHT``), which is what the selection
compares: far ahead or far behind, where every move wins or every move loses, the margin still
tells good moves from bad. Node 0 is not special; the root of a search is whatever node the
caller names.

The game is never touched: every simulation copies the root state into a scratch state.
"""

import math

import numpy as np

try:  # the mirror loader sets PURE_PYTHON and BOARD_KERNELS before running this source
    PURE_PYTHON  # noqa: B018
except NameError:
    PURE_PYTHON = False

if PURE_PYTHON:
    B = BOARD_KERNELS  # noqa: F821

    def jit(function):
        return function

    jit_inline = jit_sums = jit
else:
    import numba

    from ..board import kernels as B

    # the board kernels' options: _nrt=False, no reference counting of the arrays passed from
    # function to function (these kernels never allocate; one that does fails to compile),
    # and their indices taken as given, without numba's wraparound of negative ones
    jit = B.kernel()
    jit_inline = numba.njit(**B.KERNEL_OPTIONS, inline="always")
    # long sums in any order (LLVM vectorizes a float sum only if it may reorder it): the
    # value net's dot products, which the tests compare with the reference within 1e-5
    jit_sums = B.kernel(fastmath={"reassoc", "contract"})

# --------------------------------------------------------------------------- board names used
play = B.play
check = B.check
copy_state = B.copy_state
play_inline = B._play   # the move path pasted into the playout (numba inline="always")
precheck = B._precheck
is_own_eye = B.is_own_eye
score_halves = B.score_halves
next_random = B._next_random
in_atari = B._in_atari
is_true = B._is_true
is_glutton = B._is_glutton
EMPTY, BLACK, WHITE, WALL, FORT = B.EMPTY, B.BLACK, B.WHITE, B.WALL, B.FORT
PLAIN, MOUNTAIN, WATER = B.PLAIN, B.MOUNTAIN, B.WATER
CAPTURE_REMOVE, CAPTURE_LOOSE = B.CAPTURE_REMOVE, B.CAPTURE_LOOSE
CAPTURE_FLIP_REMOVE, CAPTURE_MEALS = B.CAPTURE_FLIP_REMOVE, B.CAPTURE_MEALS
BOARD, TERR, GID, NXT, GSIZE, GLIBS, GLSUM = B.BOARD, B.TERR, B.GID, B.NXT, B.GSIZE, B.GLIBS, B.GLSUM
GTRUE = B.GTRUE
EMPTIES, EPOS, HDR = B.EMPTIES, B.EPOS, B.HDR
H_WIDTH, H_AREA, H_CAPTURE, H_NEMPTY, H_BLACKS = B.H_WIDTH, B.H_AREA, B.H_CAPTURE, B.H_NEMPTY, B.H_BLACKS
H_KO, H_KO_COLOR, H_HASH_LO, H_HASH_HI, H_SIZE = B.H_KO, B.H_KO_COLOR, B.H_HASH_LO, B.H_HASH_HI, B.H_SIZE
E_CAPTURED, E_FLIPPED, E_MEALS = B.E_CAPTURED, B.E_FLIPPED, B.E_MEALS
LEGAL = B.LEGAL

# --------------------------------------------------------------------------- the tree
PASS = 0             # the move code of a pass (cell 0 is a wall corner, never a point)

NI_MOVE = 0          # cell of the move that reaches the node (PASS for a pass)
NI_FIRST = 1         # index of the node's first edge, -1 while the node is not expanded
NI_COUNT = 2         # number of edges (legal moves at expansion)
NI_FLAGS = 3         # FLAG_* bits
NI_FIELDS = 4
FLAG_REPEAT = 1      # the move recreates an earlier position (Go2 superko; elsewhere avoided)
FLAG_EXPANDING = 2   # a thread sharing the tree is giving the node its edges: others stop
#                      above it rather than expand it too (the slower block would be lost)
FLAG_NET = 4         # NF_NET holds the value net's estimate of the node's position

NF_VISITS = 0        # simulations through the node
NF_WINS = 1          # their wins for the player who made the node's move (ties count half)
NF_SCORE = 2         # sum of the final margins, Black minus White with komi, in points
NF_VALUE = 3         # sum of the values for the node's player: wins blended with margins
NF_NET = 4           # the value net's estimate of Black's win at the node (with FLAG_NET)
NF_FIELDS = 5

# an edge's statistics in ``ef``, float32: priors are set once, at expansion, and AMAF counts
# are whole numbers, exact up to 2**24. The AMAF wins (``ea``) are float64: a float32 sum of
# thousands of fractional results drifts by 1e-3 (its rounding errors add up), enough to
# reorder two moves whose urgencies differ by 1e-6, which happens within 10,000 simulations
E_PVISITS = 0        # prior: virtual simulations given at expansion by the suggestions
E_PWINS = 1          # prior: their virtual wins
E_AVISITS = 2        # AMAF (RAVE) simulations: the move was played later by the same player
EF_FIELDS = 3
#                      ``ea[e]``: their wins
NO_CHILD = -1        # ``ec`` of a move no simulation has gone down yet

T_USED = 0           # tree header: nodes allocated
T_CAPACITY = 1       # nodes the pool holds (never exceeded: the tree stops growing when full)
T_SIMS = 2           # simulations run (all searches)
T_ARENA = 3          # 1: the header is a thread's arena in a shared pool: ``run`` returns when
#                      it has no room left for an expansion, so that the caller can refill it
T_EDGES = 4          # edges allocated
T_EDGE_CAPACITY = 5  # edges the pool holds
T_HEADER = 6

# --------------------------------------------------------------------------- parameters
# One float64 array, so that tuning needs no recompile. Defaults and meanings: ``params.py``.
P_KOMI_HALVES = 0
P_SCORING = 1
P_FORT_VALUE = 2
P_HAS_DRAWS = 3           # 1: equal scores draw; 0: the final passer loses a tie (L5)
P_SKIP_EYES = 4           # 1: never fill one's own single-point eye (tree and playouts); 2: only
#                           one the groups around it need (``spare_eye``: where eyes score nothing)
P_MAX_MOVES = 5           # playout length cap
P_EXPAND_VISITS = 6
P_RAVE_EQUIV = 7
P_UCB_C = 8
P_PRIOR_EVEN = 9
P_PRIOR_CAPTURE_ONE = 10
P_PRIOR_CAPTURE_MANY = 11
P_PRIOR_ESCAPE = 12
P_PRIOR_PATTERN = 13
P_PRIOR_SELF_ATARI = 14
P_PRIOR_NEAR1 = 15
P_PRIOR_NEAR2 = 16
P_PRIOR_NEAR3 = 17
P_PRIOR_EDGE_EMPTY = 18
P_PRIOR_THIRD_EMPTY = 19
P_PRIOR_MOUNTAIN = 20
P_PRIOR_WATER = 21
P_PRIOR_FORT = 22
P_PRIOR_PASS = 23
P_PRIOR_SELF_MEAL = 24
P_PRIOR_STARVE = 25
P_PROB_CAPTURE = 26
P_PROB_PATTERN = 27
P_PROB_REJECT_SELF_ATARI = 28
P_PROB_REJECT_RANDOM_SELF_ATARI = 29
P_HEAVY = 30
P_PRIOR_EYE = 31
P_PRIOR_ANNIHILATE = 32
P_TRY_BELOW = 33          # a node whose choice is below this value chooses again without AMAF
P_SCORE_WEIGHT = 34       # share of a simulation's value that goes by its margin, not its result
P_SCORE_POINTS = 35       # the margin (points) at and beyond which that share is all or nothing
P_READ_LADDERS = 36       # 1: read ladders (the rules' ``reads_ladders``)
P_PRIOR_LADDER_RUN = 37   # losses for extending a group that a ladder catches anyway
P_PRIOR_LADDER_CAPTURE = 38   # wins for the atari that starts a working ladder
P_PRIOR_LEARNED = 39      # virtual wins the learned move model gives its first choice
P_LEARNED_TEMPERATURE = 40   # another placement gets exp((score - best score) / this) of them
P_PLAYOUT_NAKADE = 41     # 1: a playout may fill an enemy eye space in self-atari (``_nakade_shape``)
P_PLAYOUT_LADDERS = 42    # 1: a playout's escape from atari is skipped where a ladder catches it
P_PLAYOUT_PATTERN2 = 43   # 1: the playout's shapes round the mover's own previous move too
P_PRIOR_READ = 44         # wins for a move that kills or saves a group in a fight the reader reads
P_READ_BUDGET = 45        # moves the fight reader may play per expanded node (0: no reading)
P_PRIOR_READ_DEAD = 46    # losses for extending an own group the reader finds dead whatever it does
P_READ_OWN = 47           # 1: read the fights next to the player's own previous move too
P_READ_ATARI = 48         # 1: read an own group in atari next to the last move too
P_READ_KILL_SHARE = 49    # share of P_PRIOR_READ that a killing move gets (a saving one gets all)
P_SHARED_TREE = 50        # 1: threads share one tree; a descent adds a virtual loss to each node
#                           on its way (one visit, no value) so that the others go elsewhere
P_PROB_NLIB = 51          # per mille: a playout defends an own group the last move left with 3
#                           or 4 liberties by an atari on an enemy two-liberty neighbour of it
P_PROB_VITAL = 52         # per mille: a playout takes the vital point of the eye space the last
#                           move touched (``suggest_vital_point``)
P_TARGET_WEIGHT = 53      # share of a simulation's value that goes by reaching the target margin
P_TARGET_MARGIN = 54      # Black's margin (points) above which a simulation reaches the target
P_VALUE_WEIGHT = 55       # virtual simulations a node gets at expansion from the value net's
#                           estimate of its position (``value_of``; 0: the net is not used)
P_VALUE_MIX = 56          # share of a simulation's value taken from the value net's estimate at
#                           the deepest node of its descent that has one (``_back_up``)
P_PROB_REJECT_MOUNTAIN = 57   # per mille: a playout's random move refuses a mountain point (worth
#                               nothing, T5; tactics near the last move may still play one)
P_EXPAND_DOUBLING = 58    # share of the pools, past ``EXPAND_FILL_FROM`` of them in use, over
#                           which the expansion threshold doubles (``expand_threshold``; 0: fixed)
P_COUNT = 59

EXPAND_FILL_FROM = 0.5    # the share of the fuller pool in use from which expansions grow rarer

# The value net (``search/value.py``): the input planes of a position, from the side to
# move's view, one float per (cell, plane) in the padded layout.
V_OWN, V_ENEMY, V_ON_BOARD = 0, 1, 2
V_OWN_LIBS = 3      # 3, 4, 5: an own stone whose group has 1, 2, 3 or more liberties
V_ENEMY_LIBS = 6    # 6, 7, 8: the same for an enemy stone
V_KO = 9            # the point a ko forbids
V_BLACK_TO_MOVE = 10
V_LAST = 11         # the last move's point
V_PLANES = 12
V_HEADER = 2        # the flat net: layers, channels, then per layer the weights of each
#                     output x 9 offsets x inputs and the biases, then the head

# The learned move model's features (``search/knowledge.py`` fits their weights): ids of facts
# about a placement, each a small bucket, plus two shape keys (``pattern_keys``).
F_CAPTURE = 0        # +0..3: takes 1, 2, 3-5, 6+ stones (removal, Loose flip or meal)
F_ESCAPE = 4         # +0..2: saves an own group of 1, 2-3, 4+ stones from atari
F_ESCAPE_LADDER = 7  # ... but a ladder catches it anyway
F_ATARI = 8          # +0..2: puts an enemy group of 1, 2-3, 4+ stones in atari
F_ATARI_LADDER = 11  # ... and starts a ladder that works
F_SELF_ATARI = 12    # +0..2: leaves its own group of 1, 2-3, 4+ stones in atari
F_SELF_MEAL = 15     # leaves its own group without a liberty
F_DEFEND = 16        # gives an own group of two liberties three or more
F_STARVE = 17        # takes a liberty of an enemy glutton (Disto)
F_OWN_EYE = 18       # fills one's own single-point eye
F_NEAR_LAST = 19     # +0..8: distance to the last move (``distance_bucket``)
F_NEAR_OWN = 28      # +0..8: distance to the player's own previous move
F_LINE_EMPTY = 37    # +0..4: line 1, 2, 3, 4, 5+ with no stone within distance 3
F_LINE = 42          # +0..4: the same elsewhere
F_MOUNTAIN = 47
F_WATER = 48
F_FORT = 49          # next to a fort
F_COUNT = 50
MAX_FEATURES = 16    # at most this many facts hold for one placement
KEY_PAT3 = 1 << 32   # tag of a 3x3 shape key (the 16-bit ``pat3_code``)
KEY_PAT12 = 2 << 32  # tag of a 12-point shape key (the 3x3 and the four points two away)

# --------------------------------------------------------------------------- scratch
# One int32 array per thread: a stamp counter, per-cell stamps (visited marks without
# clearing), a candidate list, a list of liberties, AMAF stamps and colours, the fight
# reader's lines (``READ_BLOCK``), and the facts of the placement whose prior is being
# computed (``MAX_FEATURES`` cells at the end).
S_STAMP = 0
S_SIM = 1
S_MARK = 8
READ_LEVELS = 12     # moves in a line, the ones given before the read included
READ_WIDTH = 10      # moves listed at one level (the fight's few points, and a pass)
READ_STRIDE = READ_WIDTH + 4
READ_BLOCK = READ_LEVELS * READ_STRIDE


def scratch_length(size):
    area = (size + 2) * (size + 2)
    return S_MARK + 5 * area + READ_BLOCK + MAX_FEATURES


@jit
def _blocks(st):
    a = int(st[HDR, H_AREA])
    return S_MARK, S_MARK + a, S_MARK + 2 * a, S_MARK + 3 * a, S_MARK + 4 * a


@jit
def _new_stamp(sx):
    sx[S_STAMP] += 1
    if sx[S_STAMP] > 2000000000:   # wrap: clear the marks once in a long while
        a = (len(sx) - S_MARK - READ_BLOCK - MAX_FEATURES) // 5
        for i in range(a):
            sx[S_MARK + i] = 0
        sx[S_STAMP] = 1
    return int(sx[S_STAMP])


# --------------------------------------------------------------------------- small helpers
@jit
def position_key(st):
    """The position's hash as a positive 63-bit integer (never 0), the same in both modes."""
    lo = int(st[HDR, H_HASH_LO]) & 0xFFFFFFFF
    hi = int(st[HDR, H_HASH_HI]) & 0x3FFFFFFF
    return (hi << 32) | lo | (1 << 62)


@jit
def hash_insert(table, key):
    """Add ``key`` to an open-addressing set (``len(table)`` a power of two, 0 = free slot)."""
    mask = len(table) - 1
    i = key & mask
    while table[i] != 0:
        if table[i] == key:
            return
        i = (i + 1) & mask
    table[i] = key


@jit
def hash_contains(table, key):
    mask = len(table) - 1
    i = key & mask
    while table[i] != 0:
        if table[i] == key:
            return True
        i = (i + 1) & mask
    return False


@jit
def _chance(rng, per_mille):
    return next_random(rng) % 1000 < per_mille


@jit
def _group_libs(st, sx, root, limit, loose):
    """Distinct liberties of the group at ``root`` (true ones only when ``loose``), up to
    ``limit``, listed at sx[lib block]; returns how many were found."""
    w = int(st[HDR, H_WIDTH])
    mark, _, libs, _, _ = _blocks(st)
    stamp = _new_stamp(sx)
    n = 0
    s = int(root)
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] == EMPTY and sx[mark + q] != stamp:
                sx[mark + q] = stamp
                if loose and not is_true(st, q, w):
                    continue
                sx[libs + n] = q
                n += 1
                if n >= limit:
                    return n
        s = int(st[NXT, s])
        if s == root:
            break
    return n


@jit
def atari_liberty(st, sx, root):
    """The single liberty of the group at ``root`` (its single *true* liberty in Loose), or 0
    when it has none or more than one."""
    if st[HDR, H_CAPTURE] == CAPTURE_LOOSE:
        if st[GTRUE, root] > 4:   # (stone, true liberty) pairs: one point makes at most 4
            return 0
        if _group_libs(st, sx, root, 2, True) == 1:
            return int(sx[_blocks(st)[2]])
        return 0
    if not in_atari(st, root):
        return 0
    return int(st[GLSUM, root]) // int(st[GLIBS, root])


@jit
def libs_after(st, sx, cell, color, limit):
    """Liberties (true ones in Loose) the group of a stone of ``color`` placed on ``cell``
    would have, counted up to ``limit``; an enemy neighbour in atari counts as ``limit`` (its
    capture, flip or meal frees or protects the stone), except in Loose."""
    w = int(st[HDR, H_WIDTH])
    capture = int(st[HDR, H_CAPTURE])
    loose = capture == CAPTURE_LOOSE
    enemy = 3 - color
    if not loose:
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == enemy and in_atari(st, st[GID, q]):
                return limit
    if not loose:   # the common case first: enough empty neighbours, no group to walk
        empty = 0
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == EMPTY:
                empty += 1
        if empty >= limit:
            return limit
    mark, _, _, _, _ = _blocks(st)
    stamp = _new_stamp(sx)
    sx[mark + cell] = stamp
    n = 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        v = st[BOARD, q]
        if v == EMPTY:
            if sx[mark + q] != stamp:
                sx[mark + q] = stamp
                if _true_after(st, q, cell, enemy, w, loose):
                    n += 1
                    if n >= limit:
                        return n
        elif v == color:
            if sx[mark + q] == stamp:
                continue
            root = int(st[GID, q])
            s = root
            while True:
                sx[mark + s] = stamp
                for e in (s - 1, s + 1, s - w, s + w):
                    if st[BOARD, e] == EMPTY and sx[mark + e] != stamp:
                        sx[mark + e] = stamp
                        if _true_after(st, e, cell, enemy, w, loose):
                            n += 1
                            if n >= limit:
                                return n
                s = int(st[NXT, s])
                if s == root:
                    break
    return n


@jit
def _true_after(st, e, cell, enemy, w, loose):
    """Whether the empty ``e`` is a (true, in Loose) liberty once ``cell`` holds a stone."""
    if not loose:
        return True
    touches_enemy = False
    for q in (e - 1, e + 1, e - w, e + w):
        if q == cell:
            continue
        v = st[BOARD, q]
        if v == EMPTY:
            return True
        if v == enemy:
            touches_enemy = True
    return not touches_enemy


@jit
def _joins_friends(st, cell, color, w):
    """Whether a stone on ``cell`` would join a friendly group (so a self-atari costs more
    than the one stone)."""
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color:
            return True
    return False


@jit
def safe_glutton(st, root):
    """Disto: the group at ``root`` touches a meal, so the enemy may never take its last
    liberty (D2): an atari on it threatens nothing and it needs no escape."""
    return st[HDR, H_CAPTURE] == CAPTURE_MEALS and is_glutton(st, root)


@jit
def glutton_after(st, cell, color, w):
    """Disto: a stone of ``color`` on ``cell`` would join an own glutton, so one liberty is all
    its group needs. (A meal has no empty neighbour: a new stone touches one only through the
    group it joins.)"""
    if st[HDR, H_CAPTURE] != CAPTURE_MEALS:
        return False
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color and is_glutton(st, int(st[GID, q])):
            return True
    return False


@jit
def _code2(v, color):
    if v == EMPTY:
        return 0
    if v == color:
        return 1
    if v == 3 - color:
        return 2
    return 3


@jit
def pat3_code(st, cell, color, w):
    """The 3x3 neighbourhood of ``cell`` seen by ``color``: 2 bits per neighbour, clockwise
    from north (0 empty, 1 own, 2 enemy, 3 edge or fort)."""
    return (_code2(st[BOARD, cell + w], color)
            | _code2(st[BOARD, cell + w + 1], color) << 2
            | _code2(st[BOARD, cell + 1], color) << 4
            | _code2(st[BOARD, cell - w + 1], color) << 6
            | _code2(st[BOARD, cell - w], color) << 8
            | _code2(st[BOARD, cell - w - 1], color) << 10
            | _code2(st[BOARD, cell - 1], color) << 12
            | _code2(st[BOARD, cell + w - 1], color) << 14)


@jit
def _raw2(v):
    return v if v < WALL else WALL   # a fort reads as the edge


@jit
def pat3_raw(st, cell, w):
    """``pat3_code`` in absolute colours (1 Black, 2 White, 3 edge or fort), the playout's
    cheaper key: ``pat3[(color - 1) << 16 | pat3_raw(...)]`` is White's view from the table's
    second half (``patterns.table``), the same answer as ``pat3[pat3_code(...)]``."""
    return (_raw2(st[BOARD, cell + w])
            | _raw2(st[BOARD, cell + w + 1]) << 2
            | _raw2(st[BOARD, cell + 1]) << 4
            | _raw2(st[BOARD, cell - w + 1]) << 6
            | _raw2(st[BOARD, cell - w]) << 8
            | _raw2(st[BOARD, cell - w - 1]) << 10
            | _raw2(st[BOARD, cell - 1]) << 12
            | _raw2(st[BOARD, cell + w - 1]) << 14)


@jit
def pat12_code(st, cell, color, w):
    """``pat3_code`` and, in bits 16..23, the four points two away (north, east, south, west;
    3 where that is off the board)."""
    size = int(st[HDR, H_SIZE])
    row = cell // w - 1
    col = cell % w - 1
    code = pat3_code(st, cell, color, w)
    n2 = _code2(st[BOARD, cell + 2 * w], color) if row + 2 < size else 3
    e2 = _code2(st[BOARD, cell + 2], color) if col + 2 < size else 3
    s2 = _code2(st[BOARD, cell - 2 * w], color) if row >= 2 else 3
    w2 = _code2(st[BOARD, cell - 2], color) if col >= 2 else 3
    return code | n2 << 16 | e2 << 18 | s2 << 20 | w2 << 22


@jit
def size_bucket(stones):
    """0 for one stone, 1 for two or three, 2 for more."""
    return 0 if stones <= 1 else (1 if stones <= 3 else 2)


@jit
def distance_bucket(d):
    """0..8 for the go player's distances 2..8, 9-10, 11 and more (``_distance``)."""
    if d <= 8:
        return d - 2
    return 7 if d <= 10 else 8


@jit
def _line(st, cell):
    """Distance to the nearest edge, counted from 1 (the first line)."""
    size = int(st[HDR, H_SIZE])
    w = size + 2
    row = cell // w - 1
    col = cell % w - 1
    return min(min(row, col), min(size - 1 - row, size - 1 - col)) + 1


@jit
def _empty_around(st, cell, reach):
    """No stone within Manhattan distance ``reach`` of ``cell``."""
    size = int(st[HDR, H_SIZE])
    w = size + 2
    row = cell // w - 1
    col = cell % w - 1
    for r in range(max(0, row - reach), min(size, row + reach + 1)):
        d = reach - abs(r - row)
        for c in range(max(0, col - d), min(size, col + d + 1)):
            v = st[BOARD, (r + 1) * w + c + 1]
            if v == BLACK or v == WHITE:
                return False
    return True


@jit
def _distance(a, b, w):
    """A go player's distance between two cells: |dr| + |dc| + max(|dr|, |dc|), so the four
    neighbours are 2, the diagonals 3, a one-point jump 4."""
    dr = abs(a // w - b // w)
    dc = abs(a % w - b % w)
    return dr + dc + max(dr, dc)


# --------------------------------------------------------------------------- suggestions
# Each suggestion appends candidate cells to the candidate block of the scratch array and
# returns the new count. The playout tries them in order of the reasons; the priors give
# each reason virtual wins.
@jit
def _add_candidate(st, sx, n, cell):
    """Append ``cell`` to the candidate list unless it is there (the lists are short)."""
    _, cand, _, _, _ = _blocks(st)
    for i in range(n):
        if sx[cand + i] == cell:
            return n
    sx[cand + n] = cell
    return n + 1


@jit
def _capture_points(st, sx, root, n):
    """Where the group at ``root`` is taken (removed, flipped, made a meal): its last
    liberty; in Loose also the one empty neighbour of its last true liberty, which would make
    that liberty false (L1)."""
    lib = atari_liberty(st, sx, root)
    if lib == 0:
        return n
    n = _add_candidate(st, sx, n, lib)
    if st[HDR, H_CAPTURE] == CAPTURE_LOOSE:
        w = int(st[HDR, H_WIDTH])
        only = 0
        count = 0
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if st[BOARD, q] == EMPTY:
                only = q
                count += 1
        if count == 1:
            n = _add_candidate(st, sx, n, only)
    return n


@jit
def suggest_tactics(st, zob, work, spare, out, sx, color, last, ladders):
    """Captures and escapes near the last move: the last move's group and the groups next to
    it. An enemy group in atari is taken; an own group in atari extends (when that gives it two
    liberties and, with ``ladders``, no ladder catches it anyway) or takes an enemy neighbour
    in atari. Returns the candidate count. ``spare``, ``work`` and ``out`` are clobbered when
    a ladder is read."""
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    loose = st[HDR, H_CAPTURE] == CAPTURE_LOOSE
    n = 0
    for q in (last, last - 1, last + 1, last - w, last + w):
        v = st[BOARD, q]
        if v != enemy and v != color:
            continue
        root = int(st[GID, q])
        if not loose and not in_atari(st, root):
            continue   # the common case, decided here: a call costs more than the test
        if v == enemy:
            n = _capture_points(st, sx, root, n)
        else:
            n = _escape_points(st, zob, work, spare, out, sx, root, color, n, ladders)
    return n


@jit
def _escape_points(st, zob, work, spare, out, sx, root, color, n, ladders):
    lib = atari_liberty(st, sx, root)
    if lib == 0:
        return n
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    # take an enemy neighbour in atari
    s = root
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] == enemy:
                other = atari_liberty(st, sx, int(st[GID, q]))
                if other != 0:
                    n = _add_candidate(st, sx, n, other)
        s = int(st[NXT, s])
        if s == root:
            break
    if libs_after(st, sx, lib, color, 2) >= 2:
        if not (ladders and ladder_catches_escape(st, zob, work, spare, out, sx, root, color)):
            n = _add_candidate(st, sx, n, lib)
    return n


@jit
def suggest_counter_atari(st, sx, color, last):
    """Where ``color`` puts in atari an enemy group of two liberties that touches an own
    group the last move (next to it or diagonal) left with three or four liberties: in a
    capturing race that has just begun, the enemy's short group is the one to attack first
    (Pachi's ``nlib`` defence). Not in Loose (true liberties). Returns the candidate count."""
    if st[HDR, H_CAPTURE] == CAPTURE_LOOSE:
        return 0
    w = int(st[HDR, H_WIDTH])
    enemy = 3 - color
    mark, _, libs, _, _ = _blocks(st)
    seen = _new_stamp(sx)   # on group roots, stones: the liberty walks mark empty points only
    n = 0
    for q in (last - 1, last + 1, last - w, last + w,
              last - w - 1, last - w + 1, last + w - 1, last + w + 1):
        if st[BOARD, q] != color:
            continue
        root = int(st[GID, q])
        if sx[mark + root] == seen:
            continue
        sx[mark + root] = seen
        if st[GLIBS, root] < 3:   # pseudo-liberties bound the real ones from above
            continue
        count = _group_libs(st, sx, root, 5, False)
        if count < 3 or count > 4:
            continue
        s = root
        while True:
            for e in (s - 1, s + 1, s - w, s + w):
                if st[BOARD, e] != enemy:
                    continue
                other = int(st[GID, e])
                if sx[mark + other] == seen or st[GLIBS, other] < 2:
                    continue
                sx[mark + other] = seen
                if _group_libs(st, sx, other, 3, False) == 2:
                    n = _add_candidate(st, sx, n, int(sx[libs]))
                    n = _add_candidate(st, sx, n, int(sx[libs + 1]))
            s = int(st[NXT, s])
            if s == root:
                break
    return n


VITAL_AREA = 6   # the largest eye space with a vital point (the rabbity six)


@jit
def suggest_vital_point(st, sx, color, last):
    """The vital point of the enemy's eye space beside the last move, where ``color`` kills
    (Pachi's nakade check): the empty points next to ``last`` (which must touch one another,
    diagonals included) and the empty points joined to them make an area of three to six
    points bordered by enemy stones and the edge only; its vital point is the middle of a
    three, the centre of the pyramid four, of the bulky or crossed five and of the rabbity six
    (other shapes have none). Returns the candidate count (0 or 1)."""
    w = int(st[HDR, H_WIDTH])
    mark, cand, libs, _, _ = _blocks(st)
    first = 0
    for q in (last - 1, last + 1, last - w, last + w):
        if st[BOARD, q] == EMPTY:
            if first == 0:
                first = q
            elif _distance(q, first, w) > 3:
                return 0   # not touching (diagonally at most): no single eye space
    if first == 0:
        return 0
    stamp = _new_stamp(sx)
    sx[mark + first] = stamp
    sx[libs] = first
    n = 1
    i = 0
    while i < n:
        p = int(sx[libs + i])
        for q in (p - 1, p + 1, p - w, p + w):
            v = st[BOARD, q]
            if v == color:
                return 0   # not the enemy's alone
            if v == EMPTY and sx[mark + q] != stamp:
                if n == VITAL_AREA:
                    return 0   # too large to be one eye's
                sx[mark + q] = stamp
                sx[libs + n] = q
                n += 1
        i += 1
    if n < 3:
        return 0
    # each point's neighbours inside the area, and how many points have 1..4 of them
    by1 = 0
    by2 = 0
    by3 = 0
    by4 = 0
    at2 = 0
    at3 = 0
    at4 = 0
    for k in range(n):
        p = int(sx[libs + k])
        inside = 0
        for q in (p - 1, p + 1, p - w, p + w):
            if sx[mark + q] == stamp:   # only the area's points carry this stamp
                inside += 1
        if inside == 1:
            by1 += 1
        elif inside == 2:
            by2 += 1
            at2 = p
        elif inside == 3:
            by3 += 1
            at3 = p
        elif inside == 4:
            by4 += 1
            at4 = p
    vital = 0
    if n == 3:
        vital = at2
    elif n == 4 and by3 == 1:
        vital = at3
    elif n == 5 and by3 == 1 and by1 == 1:
        vital = at3
    elif n == 5 and by4 == 1:
        vital = at4
    elif n == 6 and by4 == 1 and by2 == 3:
        vital = at4
    if vital == 0:
        return 0
    sx[cand] = vital
    return 1


# --------------------------------------------------------------------------- ladders
# A simple ladder reader: the defender always extends on its last liberty, the attacker always
# ataris again, so one line of play and no branching (a loop, no recursion, no allocation). It
# plays on ``spare`` as a scratch copy of the position, through the board's own ``play`` (the
# copy is its own spare: after an illegal move the copy is garbage and the read stops). Any
# doubt (a counter-capture, a move the board refuses, too long a walk) reads as "escapes", so
# a ladder is only ever called working when this line of play really captures.
@jit
def ladder_catches_escape(st, zob, work, spare, out, sx, root, color):
    """Whether ``color``'s group at ``root``, in atari with ``color`` to move, dies in a
    ladder when it extends on its liberty."""
    lib = atari_liberty(st, sx, root)
    if lib == 0 or libs_after(st, sx, lib, color, 3) != 2:
        return False   # the common case, read without a copy: no ladder to run from
    copy_state(spare, st)
    return _ladder_walk(spare, zob, work, out, sx, int(root), color)


@jit
def ladder_catches_atari(st, zob, work, spare, out, sx, cell, root, color):
    """Whether ``color``'s atari on ``cell`` against the enemy group at ``root`` (two
    liberties) starts a ladder that captures it."""
    copy_state(spare, st)
    if play(spare, zob, work, spare, cell, color, out) != LEGAL:
        return False
    stone = int(root)
    if spare[BOARD, stone] != 3 - color or atari_liberty(spare, sx, int(spare[GID, stone])) == 0:
        return False
    return _ladder_walk(spare, zob, work, out, sx, stone, 3 - color)


@jit
def _ladder_walk(lad, zob, work, out, sx, stone, color):
    """On the scratch position ``lad``: ``color``'s group holding ``stone`` is in atari and
    ``color`` is to move. True when extending, atari, extending ... ends captured; False when
    the group gets three liberties, captures an attacker or the board refuses a move."""
    w = int(lad[HDR, H_WIDTH])
    enemy = 3 - color
    _, _, libs, _, _ = _blocks(lad)
    for _ in range(2 * int(lad[HDR, H_SIZE])):
        root = int(lad[GID, stone])
        s = root
        while True:   # an attacking stone in atari next to the group: it captures, escaped
            for q in (s - 1, s + 1, s - w, s + w):
                if lad[BOARD, q] == enemy and in_atari(lad, lad[GID, q]):
                    return False
            s = int(lad[NXT, s])
            if s == root:
                break
        lib = atari_liberty(lad, sx, root)
        if lib == 0 or play(lad, zob, work, lad, lib, color, out) != LEGAL:
            return False
        n = _group_libs(lad, sx, int(lad[GID, stone]), 3, False)
        if n >= 3:
            return False
        if n <= 1:
            return True
        # atari from the side where the defender would gain more liberties
        a = int(sx[libs])
        b = int(sx[libs + 1])
        if _empty_neighbours(lad, b, w) > _empty_neighbours(lad, a, w):
            a, b = b, a
        if precheck(lad, work, a, enemy) != LEGAL:
            a = b
            if precheck(lad, work, a, enemy) != LEGAL:
                return False
        if play(lad, zob, work, lad, a, enemy, out) != LEGAL:
            return False
    return False


@jit
def _empty_neighbours(st, cell, w):
    n = 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == EMPTY:
            n += 1
    return n


@jit
def suggest_shape(st, sx, color, last, last2, pat3):
    """Empty points around the last move whose 3x3 shape is a good one (``patterns.py``); with
    ``last2`` (the mover's own previous placement, 0 for none) the points round it too."""
    n = _shapes_around(st, sx, color, last, pat3, 0, False)
    if last2 > 0:   # a point next to both is listed once
        n = _shapes_around(st, sx, color, last2, pat3, n, True)
    return n


@jit
def _shapes_around(st, sx, color, centre, pat3, n, dedupe):
    """Add the empty points round ``centre`` whose 3x3 shape is a good one to the ``n``
    candidates listed (``dedupe``: unless listed already); returns the new count."""
    w = int(st[HDR, H_WIDTH])
    _, cand, _, _, _ = _blocks(st)
    view = (color - 1) << 16
    for q in (centre - w - 1, centre - w, centre - w + 1, centre - 1, centre + 1,
              centre + w - 1, centre + w, centre + w + 1):
        if st[BOARD, q] == EMPTY and pat3[view | pat3_raw(st, q, w)] != 0:
            if dedupe:
                n = _add_candidate(st, sx, n, q)
            else:   # the eight points round one centre are distinct
                sx[cand + n] = q
                n += 1
    return n


# --------------------------------------------------------------------------- playing a suggestion
@jit
def _nakade_shape(st, sx, cell, color, w):
    """Whether the group a stone of ``color`` on ``cell`` makes with the friendly stones it
    touches, when the enemy captures it, leaves an eye space of one eye: 2 or 3 points, the
    square or pyramid four, the bulky or crossed five (the nakade shapes). Asked of a
    self-atari in Go's capture (the group's one liberty is where the enemy takes it, and every
    other point round it is enemy stone or edge)."""
    mark, _, _, _, _ = _blocks(st)
    stamp = _new_stamp(sx)
    sx[mark + cell] = stamp
    size = 1
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color and sx[mark + q] != stamp:
            root = int(st[GID, q])
            s = root
            while True:
                sx[mark + s] = stamp
                size += 1
                if size > 5:
                    return False
                s = int(st[NXT, s])
                if s == root:
                    break
    if size <= 3:
        return True
    most = 0          # the most neighbours one point has inside the shape
    block = False     # a 2x2 square inside it
    for i in range(5):   # not a tuple: ``cell`` (int32) and ``cell - 1`` (int64) do not make one
        q = cell if i == 0 else (cell - 1 if i == 1 else (cell + 1 if i == 2 else (
            cell - w if i == 3 else cell + w)))
        if sx[mark + q] != stamp:
            continue
        root = q if q == cell else int(st[GID, q])
        s = root
        while True:
            n = 0
            for e in (s - 1, s + 1, s - w, s + w):
                if sx[mark + e] == stamp:
                    n += 1
            most = max(most, n)
            if (sx[mark + s + 1] == stamp and sx[mark + s + w] == stamp
                    and sx[mark + s + w + 1] == stamp):
                block = True
            if q == cell:
                break
            s = int(st[NXT, s])
            if s == root:
                break
    if size == 4:
        return block or most == 3
    return block or most == 4


@jit
def fills_eye_spaces(st, params):
    """Whether the playouts may fill the enemy's eye space in self-atari (``_nakade_shape``):
    asked for (``P_PLAYOUT_NAKADE``), and the game removes what it captures (Loose and
    Goncrete flip the stones, Disto makes them a meal: no eye space is left empty)."""
    return params[P_PLAYOUT_NAKADE] != 0 and st[HDR, H_CAPTURE] == CAPTURE_REMOVE


@jit
def reads_ladders_in_playouts(params):
    """Whether the playouts skip escapes that a ladder catches: asked for
    (``P_PLAYOUT_LADDERS``) in a game whose rules read ladders (``P_READ_LADDERS``)."""
    return params[P_PLAYOUT_LADDERS] != 0 and params[P_READ_LADDERS] != 0


@jit_inline
def _plainly_acceptable(st, cell, color):
    """Whether ``_acceptable`` would say 1 at a glance, the common case, pasted where
    playouts call it (a call costs more than the test): not the ko's point, and outside Loose
    two empty neighbours, so no eye and two liberties. False: ask ``_acceptable``."""
    if st[HDR, H_CAPTURE] == CAPTURE_LOOSE or (cell == st[HDR, H_KO]
                                              and color == st[HDR, H_KO_COLOR]):
        return False
    w = int(st[HDR, H_WIDTH])
    empty = 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == EMPTY:
            empty += 1
    return empty >= 2


@jit
def solid_eye(st, cell, color):
    """An own single-point eye that no enemy move can make false: every diagonal on the
    board is an own stone or another own single-point eye (``is_own_eye`` alone lets the
    enemy hold one diagonal, or take it later)."""
    if not is_own_eye(st, cell, color):
        return False
    w = int(st[HDR, H_WIDTH])
    for d in (cell - w - 1, cell - w + 1, cell + w - 1, cell + w + 1):
        v = st[BOARD, d]
        if v == color or v == WALL or v == FORT:
            continue
        if v == EMPTY and is_own_eye(st, d, color):
            continue
        return False
    return True


@jit
def spare_eye(st, cell, color):
    """Whether ``color``'s own single-point eye ``cell`` is one its groups do not need: the
    groups around it, joined by a stone there, still touch two other eyes that are solid
    (``solid_eye``). Two eyes live in every game here (an enemy stone in one of them has no
    liberty, no true liberty, or would feed a glutton in the other), so where eyes score
    nothing and stones do (Loose, Disto), filling a spare eye is a point won. In Disto a
    glutton needs no eye at all, one liberty of any kind (the enemy may never take it, D2):
    an eye next to one is spare while the groups, joined, keep another liberty."""
    w = int(st[HDR, H_WIDTH])
    if glutton_after(st, cell, color, w):
        # ``cell`` is a liberty of every group around it: one not in atari has another
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == color and not in_atari(st, st[GID, q]):
                return True
        return False
    other = 0
    seen0 = -1
    seen1 = -1
    seen2 = -1
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] != color:
            continue
        root = int(st[GID, q])
        if root == seen0 or root == seen1 or root == seen2:
            continue
        if seen0 < 0:
            seen0 = root
        elif seen1 < 0:
            seen1 = root
        else:
            seen2 = root
        s = root
        while True:
            for e in (s - 1, s + 1, s - w, s + w):
                if e != cell and e != other and st[BOARD, e] == EMPTY \
                        and solid_eye(st, e, color):
                    if other > 0:
                        return True
                    other = e
            s = int(st[NXT, s])
            if s == root:
                break
    return False


@jit
def skipped_eye(st, cell, color, skip_eyes):
    """Whether the search leaves out ``color``'s placement on ``cell`` as the fill of its own
    eye (``P_SKIP_EYES``): with ``skip_eyes`` 1 every own single-point eye, with 2 only one
    its groups need (not a ``spare_eye``), with 0 none."""
    if skip_eyes == 0 or not is_own_eye(st, cell, color):
        return False
    return skip_eyes == 1 or not spare_eye(st, cell, color)


@jit
def _acceptable(st, sx, cell, color, skip_eyes, reject_self_atari, nakade):
    """The filters every playout move passes: not a simple ko retake, not one's own eye, no
    needless self-meal (a move leaving its own group without a liberty: only Disto allows it),
    and a self-atari rejected with the given per-mille chance (always when the stone joins a
    group: giving away many stones is never a playout move, unless ``nakade`` and the stones
    make a nakade shape inside the enemy's eye space, which the caller rolls the dice on as
    for a lone stone). Returns 1 (play it), 0 (refused) or -1 (a self-atari the caller rolls
    the dice on)."""
    if cell == st[HDR, H_KO] and color == st[HDR, H_KO_COLOR]:
        return 0
    if skipped_eye(st, cell, color, skip_eyes):
        return 0
    libs = libs_after(st, sx, cell, color, 2)
    if libs == 0:
        return 0
    if libs == 1:
        w = int(st[HDR, H_WIDTH])
        if _joins_friends(st, cell, color, w):
            if nakade and _nakade_shape(st, sx, cell, color, w):
                return -1
            return 0 if reject_self_atari > 0 else 1
        return -1   # a lone stone in atari: the caller rolls the dice
    return 1


@jit_inline
def _try_placement(st, zob, work, spare, out, sx, cell, color, rng, skip_eyes, reject_joined,
                   reject, nakade):
    """One suggested placement through the playout's filters (``_acceptable``, with
    ``reject_joined`` for a self-atari of several stones and the per-mille ``reject`` for a
    lone stone's): the cell played, or 0 when it is refused or illegal."""
    plain = _plainly_acceptable(st, cell, color)
    ok = 1 if plain else _acceptable(st, sx, cell, color, skip_eyes, reject_joined, nakade)
    if ok == -1:
        ok = 0 if _chance(rng, reject) else 1
    if ok == 1 and play_inline(st, zob, work, spare, cell, color, out) == LEGAL:
        return cell
    return 0


@jit
def _try_candidates(st, zob, work, spare, out, sx, n, color, rng, skip_eyes, reject, nakade):
    """Try the listed candidates from a random start; play the first acceptable legal one."""
    if n == 0:
        return 0
    _, cand, _, _, _ = _blocks(st)
    start = next_random(rng) % n
    for k in range(n):
        cell = int(sx[cand + (start + k) % n])
        played = _try_placement(st, zob, work, spare, out, sx, cell, color, rng, skip_eyes,
                                reject, reject, nakade)
        if played > 0:
            return played
    return 0


@jit
def _random_move(st, zob, work, spare, out, sx, color, rng, skip_eyes, reject, nakade, mountain):
    """A random acceptable legal placement, or 0 (pass) when none is left; a mountain point
    is refused with the per-mille chance ``mountain``."""
    k = int(st[HDR, H_NEMPTY])
    while k > 0:
        i = next_random(rng) % k
        cell = int(st[EMPTIES, i])
        played = 0
        if mountain == 0 or st[TERR, cell] != MOUNTAIN or not _chance(rng, mountain):
            played = _try_placement(st, zob, work, spare, out, sx, cell, color, rng, skip_eyes,
                                    1, reject, nakade)
        if played > 0:
            return played
        k -= 1   # move the refused cell out of the window (the list order is free)
        other = st[EMPTIES, k]
        st[EMPTIES, i] = other
        st[EPOS, other] = i
        st[EMPTIES, k] = cell
        st[EPOS, cell] = k
    return 0


@jit
def _light_move(st, zob, work, spare, out, color, rng, skip_eyes):
    """Uniformly random legal placement (no ko retake, no own eye), as the board's playout."""
    k = int(st[HDR, H_NEMPTY])
    while k > 0:
        i = next_random(rng) % k
        cell = int(st[EMPTIES, i])
        ok = not (cell == st[HDR, H_KO] and color == st[HDR, H_KO_COLOR])
        if ok:
            ok = not skipped_eye(st, cell, color, skip_eyes)
        if ok and play_inline(st, zob, work, spare, cell, color, out) == LEGAL:
            return cell
        k -= 1
        other = st[EMPTIES, k]
        st[EMPTIES, i] = other
        st[EPOS, other] = i
        st[EMPTIES, k] = cell
        st[EPOS, cell] = k
    return 0


@jit_inline   # one caller: pasted there, one compiled library less (warm-up)
def playout_move(st, zob, work, spare, out, sx, color, last, last2, rng, params, pat3):
    """Choose and play one playout move for ``color``; returns its cell, or 0 for a pass.

    The suggestions in order, each tried with its probability: tactics near the last move
    (capture, escape), with ``P_PROB_NLIB`` a counter-atari in a race the last move began
    (``suggest_counter_atari``), with ``P_PROB_VITAL`` the vital point of the eye space it
    touched (``suggest_vital_point``), good 3x3 shapes around it (and, with
    ``P_PLAYOUT_PATTERN2``, around ``last2``, the mover's own previous placement), then a
    random move."""
    skip_eyes = int(params[P_SKIP_EYES])
    if params[P_HEAVY] == 0:
        return _light_move(st, zob, work, spare, out, color, rng, skip_eyes)
    reject = int(params[P_PROB_REJECT_SELF_ATARI])
    nakade = fills_eye_spaces(st, params)
    if last > 0:
        if _chance(rng, int(params[P_PROB_CAPTURE])):
            n = suggest_tactics(st, zob, work, spare, out, sx, color, last,
                                reads_ladders_in_playouts(params))
            cell = _try_candidates(st, zob, work, spare, out, sx, n, color, rng, skip_eyes, reject,
                                   nakade)
            if cell > 0:
                return cell
        if params[P_PROB_NLIB] > 0 and _chance(rng, int(params[P_PROB_NLIB])):
            n = suggest_counter_atari(st, sx, color, last)
            cell = _try_candidates(st, zob, work, spare, out, sx, n, color, rng, skip_eyes, reject,
                                   nakade)
            if cell > 0:
                return cell
        if params[P_PROB_VITAL] > 0 and _chance(rng, int(params[P_PROB_VITAL])):
            n = suggest_vital_point(st, sx, color, last)
            cell = _try_candidates(st, zob, work, spare, out, sx, n, color, rng, skip_eyes, reject,
                                   nakade)
            if cell > 0:
                return cell
        if _chance(rng, int(params[P_PROB_PATTERN])):
            n = suggest_shape(st, sx, color, last,
                              last2 if params[P_PLAYOUT_PATTERN2] != 0 else 0, pat3)
            cell = _try_candidates(st, zob, work, spare, out, sx, n, color, rng, skip_eyes, reject,
                                   nakade)
            if cell > 0:
                return cell
    return _random_move(st, zob, work, spare, out, sx, color, rng, skip_eyes,
                        int(params[P_PROB_REJECT_RANDOM_SELF_ATARI]), nakade,
                        int(params[P_PROB_REJECT_MOUNTAIN]))


# --------------------------------------------------------------------------- the playout
@jit
def playout(st, zob, work, spare, out, sx, color, passes, last, last2, rng, params, pat3, seq,
            n_seq):
    """Play on ``st`` (in place) from ``color`` to move, with ``passes`` passes just made,
    ``last`` the last placement and ``last2`` the one before (0 none or a pass), until two
    passes, a Goncrete annihilation or the move cap. Placements are appended to ``seq`` as
    (cell, colour) pairs from ``n_seq``.

    Returns (new n_seq, the colour that made the final move or pass)."""
    max_moves = int(params[P_MAX_MOVES])
    final = 3 - color
    moves = 0
    while moves < max_moves:
        cell = playout_move(st, zob, work, spare, out, sx, color, last, last2, rng, params,
                            pat3)
        final = color
        if cell == 0:
            passes += 1
            if passes >= 2:
                break
        else:
            passes = 0
            if n_seq < len(seq) // 2:
                seq[2 * n_seq] = cell
                seq[2 * n_seq + 1] = color
                n_seq += 1
            if _annihilates(st, out, color):
                break
        last2 = last
        last = cell
        color = 3 - color
        moves += 1
    return n_seq, final


@jit
def _annihilates(st, out, color):
    """G4: a flip that leaves the opponent no stone ends the game."""
    return (st[HDR, H_CAPTURE] == CAPTURE_FLIP_REMOVE and out[E_FLIPPED] > 0
            and st[HDR, H_BLACKS + 2 - color] == 0)


@jit
def black_result(st, work, owner, params, final):
    """Black's result of the final position: (1, 0.5 or 0; Black's margin in points with komi).
    A tie is half a win where the game has draws, else a loss for ``final``, the player who
    made the final pass (L5)."""
    black, white = score_halves(st, work, int(params[P_SCORING]), int(params[P_FORT_VALUE]), owner)
    margin2 = int(black) - int(white) - int(params[P_KOMI_HALVES])
    if margin2 > 0:
        win = 1.0
    elif margin2 < 0:
        win = 0.0
    elif params[P_HAS_DRAWS] != 0:
        win = 0.5
    else:
        win = 0.0 if final == BLACK else 1.0
    return win, margin2 / 2.0


@jit
def score_value(win, margin, params):
    """Black's value of a simulation: its result (1, 0.5, 0); with weight
    ``P_SCORE_WEIGHT``, its margin in points scaled to 0..1 (``P_SCORE_POINTS`` or more ahead
    is 1, as much behind 0); and with weight ``P_TARGET_WEIGHT``, whether Black's margin is
    above ``P_TARGET_MARGIN`` (1, equal 0.5, below 0): the margin the player to move plays for
    (``player.target_margin``), above 0 for a Black that wants more than a win, below 0 for a
    White that does. Weights that add up to less than one half keep any win above any loss."""
    weight = params[P_SCORE_WEIGHT]
    target = params[P_TARGET_WEIGHT]
    if target > 0:
        t = params[P_TARGET_MARGIN]
        reached = 1.0 if margin > t else (0.5 if margin == t else 0.0)
        value = (1.0 - weight - target) * win + target * reached
    else:
        value = (1.0 - weight) * win
    if weight <= 0:
        return value
    m = margin / params[P_SCORE_POINTS]
    if m > 1.0:
        m = 1.0
    elif m < -1.0:
        m = -1.0
    return value + weight * (0.5 + 0.5 * m)


# --------------------------------------------------------------------------- fights
# A small reader of the fight over one group of two or three liberties, for the priors: which
# move kills an enemy group, which saves an own one. Depth first, both sides' moves limited to
# the fight: the attacker takes the group's liberties (or first saves its own stones next to
# it from atari); the defender extends, takes an attacking group in atari, fills the liberties
# of an attacking group with no more liberties than its own (a capturing race), or plays
# elsewhere (a pass, so that a group that needs no move is not read dead). The group is lost
# when its stone is gone, or at one liberty with the attacker to move; it lives at four
# liberties, or at three once the attacker has moved (only the first attack starts from three
# liberties: deeper, the tree would be too wide). A line longer than READ_LEVELS is unknown,
# and so is a position where no move wins and one is unknown; a read that spends its budget of
# moves knows nothing. Lines are replayed from the node's position onto ``spare`` (a dozen
# moves), so the reader needs no copy per level, only the scratch's read block (``READ_*``
# above): per level its moves, their count, the next to try, the move of the line, and whether
# a reply was unknown.


@jit
def _read_block(sx):
    return len(sx) - MAX_FEATURES - READ_BLOCK


@jit
def _fight_status(st, sx, stone, defender, mover, level, lives_at_three):
    """1 when ``mover`` has won the fight over the group holding ``stone`` (``defender``'s),
    0 when it has lost, -1 while the fight goes on. ``level``: moves played in the line. The
    group lives at four liberties, and with ``lives_at_three`` at three once the attacker has
    moved."""
    if st[BOARD, stone] != defender:
        return 1 if mover != defender else 0
    libs = _group_libs(st, sx, int(st[GID, stone]), 4, False)
    if libs >= 4 or (lives_at_three and libs == 3 and mover != defender and level >= 2):
        return 1 if mover == defender else 0
    if libs <= 1 and mover != defender:
        return 1
    return -1


@jit
def _add_read_move(sx, at, n, cell):
    for i in range(n):
        if sx[at + i] == cell:
            return n
    if n < READ_WIDTH - 1:   # the last place is the defender's pass
        sx[at + n] = cell
        n += 1
    return n


@jit
def fight_moves(st, sx, at, stone, defender, mover, pass_ok):
    """``mover``'s moves in the fight over ``defender``'s group holding ``stone``, listed at
    sx[at:] (at most READ_WIDTH); returns how many. The group's liberties; the liberty of an
    attacking group in atari next to it (the attacker extends, the defender captures); for the
    defender, the liberties of an attacking neighbour with no more liberties than the group,
    and a pass when ``pass_ok``."""
    w = int(st[HDR, H_WIDTH])
    attacker = 3 - defender
    root = int(st[GID, stone])
    _, _, libs, _, _ = _blocks(st)
    k = _group_libs(st, sx, root, 4, False)
    n = 0
    for i in range(k):
        n = _add_read_move(sx, at, n, int(sx[libs + i]))
    # the liberty where the group would get the most liberties first, for both sides (the
    # defender's best extension is the attacker's best blocking point): the first move
    # tried is most often the one that decides, which cuts the rest of the line's reading
    for i in range(1, n):
        move = sx[at + i]
        gain = libs_after(st, sx, int(move), defender, 5)
        j = i
        while j > 0 and libs_after(st, sx, int(sx[at + j - 1]), defender, 5) < gain:
            sx[at + j] = sx[at + j - 1]
            j -= 1
        sx[at + j] = move
    s = root
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if st[BOARD, q] != attacker:
                continue
            r = int(st[GID, q])
            lib = atari_liberty(st, sx, r)
            if lib != 0:
                n = _add_read_move(sx, at, n, lib)
            elif mover == defender:
                m = _group_libs(st, sx, r, k + 1, False)
                if m <= k:
                    for i in range(m):
                        n = _add_read_move(sx, at, n, int(sx[libs + i]))
        s = int(st[NXT, s])
        if s == root:
            break
    if mover == defender and pass_ok:
        sx[at + n] = PASS
        n += 1
    return n


@jit
def _replay(st, zob, work, spare, out, sx, upto, first_color):
    """``spare`` = ``st`` after the line's first ``upto`` moves; False if the board refuses one."""
    rb = _read_block(sx)
    copy_state(spare, st)
    for level in range(upto):
        move = int(sx[rb + level * READ_STRIDE + READ_WIDTH + 2])
        if move == PASS:
            spare[HDR, H_KO] = 0
        elif play(spare, zob, work, spare, move, first_color if level % 2 == 0 else
                  3 - first_color, out) != LEGAL:
            return False
    return True


@jit
def read_fight(st, zob, work, spare, out, sx, stone, defender, first, first_color, budget,
               lives_at_three):
    """Read the fight over ``defender``'s group holding ``stone`` on ``st`` after the line's
    ``first`` moves already in the read block (played alternately from ``first_color``):
    returns (1 when the player to move then wins it, 0 when it loses, -1 unknown: the line
    was refused or ``budget`` moves were not enough; moves spent). The group lives at four
    liberties, and with ``lives_at_three`` at three once the attacker has moved (quicker, and
    kinder to the defender). ``spare``, ``work`` and ``out`` are clobbered."""
    rb = _read_block(sx)
    if not _replay(st, zob, work, spare, out, sx, first, first_color):
        return -1, 0
    spent = 0
    level = first
    held = first      # the level whose position ``spare`` holds; -1: replay first
    value = 0
    phase = 0         # 0: a level entered, 1: its next move, 2: ``value`` back from a level
    while True:
        base = rb + level * READ_STRIDE
        mover = first_color if level % 2 == 0 else 3 - first_color
        if phase == 0:
            value = _fight_status(spare, sx, stone, defender, mover, level, lives_at_three)
            if value >= 0 or level >= READ_LEVELS - 1:
                phase = 2   # decided, or too long a line: unknown
                continue
            pass_ok = level == 0 or sx[base - READ_STRIDE + READ_WIDTH + 2] != PASS
            sx[base + READ_WIDTH] = fight_moves(spare, sx, base, stone, defender, mover, pass_ok)
            sx[base + READ_WIDTH + 1] = 0
            sx[base + READ_WIDTH + 3] = 0
            phase = 1
        elif phase == 1:
            i = int(sx[base + READ_WIDTH + 1])
            if i >= int(sx[base + READ_WIDTH]):
                value = -1 if sx[base + READ_WIDTH + 3] != 0 else 0   # nothing won
                phase = 2
                continue
            sx[base + READ_WIDTH + 1] = i + 1
            spent += 1
            if spent > budget:
                return -1, spent
            if held != level and not _replay(st, zob, work, spare, out, sx, level,
                                             first_color):
                return -1, spent
            held = -1
            move = int(sx[base + i])
            if move == PASS:
                spare[HDR, H_KO] = 0
            elif play(spare, zob, work, spare, move, mover, out) != LEGAL:
                continue
            sx[base + READ_WIDTH + 2] = move
            level += 1
            held = level
            phase = 0
        else:
            if level == first:
                return value, spent
            level -= 1
            held = -1
            if value == 0:
                value = 1   # the reply lost: this move wins, and so does its mover here
            else:
                if value < 0:
                    sx[rb + level * READ_STRIDE + READ_WIDTH + 3] = 1
                phase = 1


@jit
def _add_prior(em, ef, first, n, cell, visits, wins):
    for e in range(first, first + n):
        if em[e] == cell:
            ef[e, E_PVISITS] += visits
            ef[e, E_PWINS] += wins
            return


@jit
def _around(centre, k, w):
    """The ``k``-th of a point and its four neighbours (0: the point)."""
    if k == 0:
        return centre
    if k == 1:
        return centre - 1
    if k == 2:
        return centre + 1
    if k == 3:
        return centre - w
    return centre + w


@jit
def read_fights(st, zob, work, spare, out, sx, em, ef, first, n, color, last, last2, params):
    """Priors from reading the fights next to the last move (``last``, 0 none) for the
    edges ``first .. first + n`` of a node, ``color`` to move: for every group of two or
    three liberties among the last move's and its neighbours (and the player's own previous
    move's, ``last2``, with ``P_READ_OWN``; an own group in atari too, with ``P_READ_ATARI``,
    so that an escape into a net or a squeeze reads dead like a ladder), an enemy one that
    would live if its owner moved first (reaching four liberties) gets ``P_PRIOR_READ`` wins
    (more for a larger group) times ``P_READ_KILL_SHARE`` on each move that kills it (a group
    dead already gets none: taking it is not urgent), an own one that dies unless ``color``
    moves gets the full ``P_PRIOR_READ`` on each move that saves it, and when no move saves
    it (every read sure), ``P_PRIOR_READ_DEAD`` losses on each of its liberties.
    ``P_READ_BUDGET`` moves of reading at most for the whole node. ``spare``, ``work`` and
    ``out`` are clobbered."""
    budget = int(params[P_READ_BUDGET])
    if budget <= 0 or last <= 0 or params[P_READ_LADDERS] == 0:
        return
    w = int(st[HDR, H_WIDTH])
    rb = _read_block(sx)
    path0 = rb + READ_WIDTH + 2
    points = 10 if params[P_READ_OWN] != 0 and last2 > 0 else 5
    for j in range(points):
        q = _around(last if j < 5 else last2, j % 5, w)
        v = st[BOARD, q]
        if v != BLACK and v != WHITE:
            continue
        root = int(st[GID, q])
        done = False
        for i in range(j):
            p = _around(last if i < 5 else last2, i % 5, w)
            if (st[BOARD, p] == BLACK or st[BOARD, p] == WHITE) and int(st[GID, p]) == root:
                done = True
                break
        if done:
            continue
        libs = _group_libs(st, sx, root, 4, False)
        if libs > 3 or libs < (1 if v == color and params[P_READ_ATARI] != 0 else 2):
            continue
        own = v == color
        bonus = params[P_PRIOR_READ] * (1.0 + 0.25 * min(int(st[GSIZE, root]) - 1, 6))
        if not own:
            bonus *= params[P_READ_KILL_SHARE]
        # is it dead already? an enemy group counts as alive at four liberties only: at three,
        # where the reader sees no eye and no net, 45% of its killing moves were ones GNU Go's
        # reading finds no kill in (mostly groups dead already), against 32% with this check at
        # four (positions of 19 games); the killing moves themselves are read as before. The
        # check may spend a quarter of what is left: an open fight reads long at four, and
        # an unsure answer must leave the reading of the kills its budget
        sx[path0] = PASS   # ``color`` plays elsewhere: is the group lost?
        value, spent = read_fight(st, zob, work, spare, out, sx, q, v, 1, color,
                                  budget if own else budget // 4, own)
        budget -= spent
        if budget <= 0 or (value != 1 if own else value == 0):
            continue   # an own group that needs no move (or an unsure read), an enemy one dead
            #            already: no move of ours there is urgent
        count = fight_moves(st, sx, rb, q, v, color, False)
        sure_loss = True
        for i in range(count):
            move = int(sx[rb + i])
            sx[path0] = move
            value, spent = read_fight(st, zob, work, spare, out, sx, q, v, 1, color, budget, True)
            budget -= spent
            if value == 0:   # the reply to it loses: it kills, or it saves
                _add_prior(em, ef, first, n, move, bonus, bonus)
            if value != 1:
                sure_loss = False
            if budget <= 0:
                return
        if own and sure_loss and params[P_PRIOR_READ_DEAD] > 0:
            # dead whatever it does: extending it only adds stones to the loss (the list,
            # which the reads below the first move leave alone, starts with its liberties)
            for i in range(min(libs, count)):
                _add_prior(em, ef, first, n, int(sx[rb + i]), params[P_PRIOR_READ_DEAD], 0.0)


# --------------------------------------------------------------------------- priors
@jit
def prior(st, zob, work, spare, out, sx, cell, color, last, last2, params, pat3, feats):
    """Virtual (visits, wins) of a new child: an even start, then each suggestion that holds
    for ``cell`` adds its weight as wins (good) or as visits without wins (bad). The facts
    found on the way go to ``feats`` as ``F_*`` ids for the learned model; returns (visits,
    wins, number of facts, ``pat12_code``). ``last2`` is the player's own previous move (0
    none). ``spare``, ``work`` and ``out`` are clobbered (the ladder reader plays on them)."""
    w = int(st[HDR, H_WIDTH])
    capture = int(st[HDR, H_CAPTURE])
    enemy = 3 - color
    even = params[P_PRIOR_EVEN]
    pv = even
    pw = even / 2
    nf = 0
    # tactics: captures (removal, flip, meal), escapes, self-ataris
    taken = 0
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == enemy:
            root = int(st[GID, q])
            if atari_liberty(st, sx, root) == cell:
                taken += int(st[GSIZE, root])
    if capture == CAPTURE_LOOSE:
        taken += _loose_flip_threat(st, sx, cell, enemy, w)
    if taken > 0:
        bonus = params[P_PRIOR_CAPTURE_ONE] if taken == 1 else params[P_PRIOR_CAPTURE_MANY]
        if capture == CAPTURE_FLIP_REMOVE and taken == int(st[HDR, H_BLACKS + enemy - 1]):
            bonus = params[P_PRIOR_ANNIHILATE]   # G4: the game ends, won
        pv += bonus
        pw += bonus
        feats[nf] = F_CAPTURE + (taken - 1 if taken <= 2 else (2 if taken <= 5 else 3))
        nf += 1
    ladders = params[P_READ_LADDERS] != 0
    libs = libs_after(st, sx, cell, color, 3)
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if (st[BOARD, q] == color and atari_liberty(st, sx, int(st[GID, q])) == cell
                and libs >= 2 and not safe_glutton(st, int(st[GID, q]))):
            root = int(st[GID, q])
            feats[nf] = F_ESCAPE + size_bucket(int(st[GSIZE, root]))
            nf += 1
            if ladders and ladder_catches_escape(st, zob, work, spare, out, sx, root, color):
                pv += params[P_PRIOR_LADDER_RUN]
                feats[nf] = F_ESCAPE_LADDER
                nf += 1
            else:
                pv += params[P_PRIOR_ESCAPE]
                pw += params[P_PRIOR_ESCAPE]
            break
    if taken == 0 and libs >= 2:
        atari = False
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == enemy:
                root = int(st[GID, q])
                if _group_libs(st, sx, root, 3, False) == 2 and not safe_glutton(st, root):
                    if not atari:
                        atari = True
                        feats[nf] = F_ATARI + size_bucket(int(st[GSIZE, root]))
                        nf += 1
                    if ladders and ladder_catches_atari(st, zob, work, spare, out, sx, cell,
                                                        root, color):
                        pv += params[P_PRIOR_LADDER_CAPTURE]
                        pw += params[P_PRIOR_LADDER_CAPTURE]
                        feats[nf] = F_ATARI_LADDER
                        nf += 1
                        break
    if libs == 0 and taken == 0:   # in Loose a flip may be all the liberties a stone gets
        pv += params[P_PRIOR_SELF_MEAL]
        feats[nf] = F_SELF_MEAL
        nf += 1
    elif libs == 1 and taken == 0 and not glutton_after(st, cell, color, w):
        joined = _joined_stones(st, cell, color, w)
        pv += params[P_PRIOR_SELF_ATARI]
        if capture == CAPTURE_FLIP_REMOVE and joined == int(st[HDR, H_BLACKS + color - 1]) + 1:
            pv += params[P_PRIOR_ANNIHILATE]   # G4: the enemy's capture ends the game, lost
        feats[nf] = F_SELF_ATARI + size_bucket(joined)
        nf += 1
    elif libs >= 3 and _touches_two_liberty_group(st, sx, cell, color, w):
        feats[nf] = F_DEFEND
        nf += 1
    if capture == CAPTURE_MEALS:
        for q in (cell - 1, cell + 1, cell - w, cell + w):
            if st[BOARD, q] == enemy:
                root = int(st[GID, q])
                if int(st[GLIBS, root]) >= 2 and is_glutton(st, root):
                    pv += params[P_PRIOR_STARVE]
                    pw += params[P_PRIOR_STARVE]
                    feats[nf] = F_STARVE
                    nf += 1
                    break
    # where eyes score nothing, the only own eyes a node lists are spare ones: a point won
    if params[P_SKIP_EYES] != 2 and is_own_eye(st, cell, color):
        pv += params[P_PRIOR_EYE]
        feats[nf] = F_OWN_EYE
        nf += 1
    # shape
    code = pat12_code(st, cell, color, w)
    if pat3[code & 0xFFFF] != 0:
        pv += params[P_PRIOR_PATTERN]
        pw += params[P_PRIOR_PATTERN]
    # near the last move
    if last > 0:
        d = _distance(cell, last, w)
        if d <= 3:
            bonus = params[P_PRIOR_NEAR1]
        elif d <= 4:
            bonus = params[P_PRIOR_NEAR2]
        elif d <= 6:
            bonus = params[P_PRIOR_NEAR3]
        else:
            bonus = 0.0
        pv += bonus
        pw += bonus
        feats[nf] = F_NEAR_LAST + distance_bucket(d)
        nf += 1
    if last2 > 0:
        feats[nf] = F_NEAR_OWN + distance_bucket(_distance(cell, last2, w))
        nf += 1
    # the lines in an empty area: the first two are slow, the third is good
    line = _line(st, cell)
    if _empty_around(st, cell, 3):
        if line <= 2:
            pv += params[P_PRIOR_EDGE_EMPTY]
        elif line == 3:
            pv += params[P_PRIOR_THIRD_EMPTY]
            pw += params[P_PRIOR_THIRD_EMPTY]
        feats[nf] = F_LINE_EMPTY + min(line, 5) - 1
    else:
        feats[nf] = F_LINE + min(line, 5) - 1
    nf += 1
    # terrain: mountains are worth nothing, water 1.5; forts are worth a fight
    kind = st[TERR, cell]
    if kind == MOUNTAIN:
        pv += params[P_PRIOR_MOUNTAIN]
        feats[nf] = F_MOUNTAIN
        nf += 1
    elif kind == WATER:
        pv += params[P_PRIOR_WATER]
        pw += params[P_PRIOR_WATER]
        feats[nf] = F_WATER
        nf += 1
    if params[P_FORT_VALUE] > 0 and _near_fort(st, cell, w):
        pv += params[P_PRIOR_FORT]
        pw += params[P_PRIOR_FORT]
        feats[nf] = F_FORT
        nf += 1
    return pv, pw, nf, code


@jit
def _joined_stones(st, cell, color, w):
    """Stones of the group a stone of ``color`` on ``cell`` would make (itself included)."""
    total = 1
    for i in range(4):
        q = cell - 1 if i == 0 else (cell + 1 if i == 1 else (cell - w if i == 2 else cell + w))
        if st[BOARD, q] != color:
            continue
        root = int(st[GID, q])
        seen = False
        for j in range(i):
            p = cell - 1 if j == 0 else (cell + 1 if j == 1 else cell - w)
            if st[BOARD, p] == color and int(st[GID, p]) == root:
                seen = True
        if not seen:
            total += int(st[GSIZE, root])
    return total


@jit
def _touches_two_liberty_group(st, sx, cell, color, w):
    """Whether an own group next to ``cell`` has exactly two liberties (true ones in Loose)."""
    loose = st[HDR, H_CAPTURE] == CAPTURE_LOOSE
    for q in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, q] == color and _group_libs(st, sx, int(st[GID, q]), 3, loose) == 2:
            return True
    return False


@jit
def learned_score(feats, nf, code, model):
    """The learned model's score of a placement: the sum of the weights of its facts and of
    its two shape keys (a key the model never saw adds nothing)."""
    keys, key_ids, weights = model
    total = 0.0
    for i in range(nf):
        total += weights[feats[i]]
    n = len(keys)
    if n > 0:
        for key in (KEY_PAT3 | (code & 0xFFFF), KEY_PAT12 | code):
            j = np.searchsorted(keys, key)
            if j < n and keys[j] == key:
                total += weights[key_ids[j]]
    return total


@jit
def _loose_flip_threat(st, sx, cell, enemy, w):
    """Loose: stones of enemy groups whose last true liberty a stone on ``cell`` makes false
    (``cell`` is that liberty's only empty neighbour)."""
    total = 0
    for e in (cell - 1, cell + 1, cell - w, cell + w):
        if st[BOARD, e] != EMPTY:
            continue
        others = 0
        for q in (e - 1, e + 1, e - w, e + w):
            if q != cell and st[BOARD, q] == EMPTY:
                others += 1
        if others > 0:
            continue
        for q in (e - 1, e + 1, e - w, e + w):
            if st[BOARD, q] == enemy:
                root = int(st[GID, q])
                if atari_liberty(st, sx, root) == e:
                    total += int(st[GSIZE, root])
    return total


@jit
def _near_fort(st, cell, w):
    for q in (cell - 1, cell + 1, cell - w, cell + w, cell - 2, cell + 2, cell - 2 * w,
              cell + 2 * w, cell - w - 1, cell - w + 1, cell + w - 1, cell + w + 1):
        if 0 <= q < int(st[HDR, H_AREA]) and st[BOARD, q] == FORT:
            return True
    return False


# --------------------------------------------------------------------------- the tree's steps
@jit
def value_planes(st, sx, color, last, x):
    """Write the value net's input planes of position ``st``, ``color`` to move and ``last``
    the last move's cell (0: none), into ``x`` (cell * V_PLANES + plane; the wall cells 0)."""
    size = int(st[HDR, H_SIZE])
    w = size + 2
    a = int(st[HDR, H_AREA])
    for i in range(a * V_PLANES):
        x[i] = 0.0
    black = 1.0 if color == BLACK else 0.0
    for row in range(1, size + 1):
        for col in range(1, size + 1):
            cell = row * w + col
            x[cell * V_PLANES + V_ON_BOARD] = 1.0
            x[cell * V_PLANES + V_BLACK_TO_MOVE] = black
            v = int(st[BOARD, cell])
            if (v == BLACK or v == WHITE) and int(st[GID, cell]) == cell:
                n = _group_libs(st, sx, cell, 3, False)
                if v == color:
                    side, lib = V_OWN, V_OWN_LIBS
                else:
                    side, lib = V_ENEMY, V_ENEMY_LIBS
                s = cell
                while True:
                    x[s * V_PLANES + side] = 1.0
                    if n > 0:
                        x[s * V_PLANES + lib + n - 1] = 1.0
                    s = int(st[NXT, s])
                    if s == cell:
                        break
    ko = int(st[HDR, H_KO])
    if ko > 0:
        x[ko * V_PLANES + V_KO] = 1.0
    if last > 0:
        x[int(last) * V_PLANES + V_LAST] = 1.0


@jit_sums
def value_of(st, sx, color, last, value):
    """The value net's estimate that ``color``, to move in ``st``, wins: a stack of 3x3
    convolutions with ReLU (zero beyond the board), then the sum over the board of tanh of a
    1x1 "ownership" map times a learned scale, plus a linear term of the mean of the last
    layer's channels, through the logistic function. ``value``: (flat net, float32 buffer of
    ``value_buffer_length``), ``search/value.py`` packs both."""
    net, buf = value
    size = int(st[HDR, H_SIZE])
    w = size + 2
    a = int(st[HDR, H_AREA])
    layers = int(net[0])
    channels = int(net[1])
    h = (a * V_PLANES, a * V_PLANES + a * channels)   # the layers' outputs, in turn
    window = buf[a * (V_PLANES + 2 * channels):]
    value_planes(st, sx, color, last, buf[:a * V_PLANES])
    src = 0
    cin = V_PLANES
    at = V_HEADER
    for layer in range(layers):
        dst = h[layer % 2]
        for i in range(a * channels):
            buf[dst + i] = 0.0
        n = 9 * cin
        bias = at + channels * n
        for row in range(1, size + 1):
            for col in range(1, size + 1):
                cell = row * w + col
                # the 3x3 window's inputs side by side (its three rows are each contiguous),
                # so that each output is one long dot product with its weights: 1.75 times
                # faster than summing the outputs input by input (the shipped 16x4 net)
                for band in range(3):
                    first = src + (cell + (band - 1) * w - 1) * cin
                    for t in range(3 * cin):
                        window[band * 3 * cin + t] = buf[first + t]
                out = dst + cell * channels
                for o in range(channels):
                    total = net[bias + o]
                    weights = at + o * n
                    for t in range(n):
                        total += window[t] * net[weights + t]
                    buf[out + o] = total if total > 0.0 else 0.0
        at = bias + channels
        src = dst
        cin = channels
    own_w = at
    own_b = at + channels
    fc_w = own_b + 1
    fc_b = fc_w + channels
    scale = fc_b + 1
    owned = 0.0
    pooled = 0.0
    for row in range(1, size + 1):
        for col in range(1, size + 1):
            out = src + (row * w + col) * channels
            t = net[own_b]
            for o in range(channels):
                t += buf[out + o] * net[own_w + o]
                pooled += buf[out + o] * net[fc_w + o]
            owned += math.tanh(t)
    z = net[scale] * owned + net[fc_b] + pooled / (size * size)
    return 1.0 / (1.0 + math.exp(-z))


def value_buffer_length(size, channels):
    """The float32 scratch ``value_of`` needs on a board of ``size`` with nets of ``channels``:
    the input planes, two layers' outputs, and one 3x3 window of the widest layer's inputs."""
    area = (size + 2) * (size + 2)
    return area * (V_PLANES + 2 * channels) + 9 * max(V_PLANES, channels)


def empty_value():
    """No value net (``simulate`` never calls ``value_of``)."""
    return np.zeros(0, np.float32), np.zeros(0, np.float32)


@jit_inline   # one caller: pasted there, one compiled library less (warm-up)
def expand(st, zob, work, spare, out, owner, sx, ti, em, ec, ef, ea, thdr, node, color, last,
           last2, passes, params, pat3, model):
    """Give ``node`` (position ``st``, ``color`` to move, ``passes`` passes just made) one edge
    per legal placement (not one's own single-point eye where the game says so) and a pass,
    with their priors: the hand-set ones (``prior``), plus, when ``model`` has weights and
    ``P_PRIOR_LEARNED`` is above 0, that many virtual wins for the learned model's first
    choice and exp((score - best) / ``P_LEARNED_TEMPERATURE``) of them for every other
    placement. No child node yet: ``simulate`` makes one when it first goes down an edge.
    Returns False, changing nothing, when the pool has no room for the edges.

    The pass's prior: after the opponent's pass it ends the game, so its prior is the exact
    result for ``color`` (the tree must see a pass that wins, or it would never try it: a pass
    has no AMAF statistics and the selection has no exploration term); otherwise a loss while
    more placements are left than a line of the board, even once the game is nearly over (a
    pass may then be the best move, as in Disto, where a placement can only feed the enemy)."""
    size = int(st[HDR, H_SIZE])
    _, cand, _, _, _ = _blocks(st)
    n = _placements(st, zob, work, spare, out, sx, color, params)
    used = int(thdr[T_EDGES])
    if used + n + 1 > int(thdr[T_EDGE_CAPACITY]):
        return False
    first = used
    for e in range(first, first + n + 1):
        ec[e] = NO_CHILD
        ea[e] = 0.0
        for f in range(EF_FIELDS):
            ef[e, f] = 0.0
    for k in range(n):
        em[first + k] = sx[cand + k]
    learned = params[P_PRIOR_LEARNED]
    if len(model[2]) == 0:
        learned = 0.0
    feats = sx[len(sx) - MAX_FEATURES:]   # the scratch's last block: no allocation
    best = -1e300
    for k in range(n):   # priors after the list is stored: they reuse the scratch blocks
        e = first + k
        pv, pw, nf, code = prior(st, zob, work, spare, out, sx, int(em[e]), color,
                                 last, last2, params, pat3, feats)
        if learned > 0:
            score = learned_score(feats, nf, code, model)
            ea[e] = score   # held here until the best score is known
            best = max(best, score)
        ef[e, E_PVISITS] = pv
        ef[e, E_PWINS] = pw
    if learned > 0:
        temperature = params[P_LEARNED_TEMPERATURE]
        for e in range(first, first + n):
            bonus = learned * math.exp((ea[e] - best) / temperature)
            ea[e] = 0.0
            ef[e, E_PVISITS] += bonus
            ef[e, E_PWINS] += bonus
    read_fights(st, zob, work, spare, out, sx, em, ef, first, n, color, last, last2, params)
    em[first + n] = PASS
    weight = params[P_PRIOR_PASS]
    if passes >= 1:
        win, _ = black_result(st, work, owner, params, color)
        rate = win if color == BLACK else 1.0 - win
    elif n <= size:
        rate = 0.5
    else:
        rate = 0.0
    ef[first + n, E_PVISITS] = weight
    ef[first + n, E_PWINS] = weight * rate
    thdr[T_EDGES] = used + n + 1
    ti[NI_FIRST, node] = first
    ti[NI_COUNT, node] = n + 1
    return True


@jit
def new_node(ti, tf, thdr, move):
    """A node reached by ``move``, with no statistics and no edges, from the free room of
    ``thdr``; -1 when there is none."""
    node = int(thdr[T_USED])
    if node >= int(thdr[T_CAPACITY]):
        return -1
    thdr[T_USED] = node + 1
    ti[NI_MOVE, node] = move
    ti[NI_FIRST, node] = -1
    ti[NI_COUNT, node] = 0
    ti[NI_FLAGS, node] = 0
    for f in range(NF_FIELDS):
        tf[f, node] = 0.0
    return node


@jit
def expand_threshold(ti, em, thdr, params):
    """Simulations through a leaf before it gets children: ``P_EXPAND_VISITS`` while the
    fuller pool (nodes or edges) is at most ``EXPAND_FILL_FROM`` in use; beyond, doubled for
    every ``P_EXPAND_DOUBLING`` more of it in use, so that a long search keeps growing its
    tree, ever more selectively, where a fixed threshold would fill the pools and stop. Read
    from the pools' sizes, not the header's capacities: a thread's arena of a shared pool
    keeps absolute positions in its header, the next free node and edge, as a lone tree's
    header does."""
    visits = params[P_EXPAND_VISITS]
    doubling = params[P_EXPAND_DOUBLING]
    if doubling <= 0:
        return visits
    fill = max(thdr[T_USED] / ti.shape[1], thdr[T_EDGES] / em.shape[0])
    if fill <= EXPAND_FILL_FROM:
        return visits
    return visits * 2.0 ** ((fill - EXPAND_FILL_FROM) / doubling)


@jit
def _placements(st, zob, work, spare, out, sx, color, params):
    """List the placements a node gets as children in the candidate block of ``sx``: the
    legal ones, not one's own single-point eye where the game says so; returns how many."""
    size = int(st[HDR, H_SIZE])
    w = size + 2
    skip_eyes = int(params[P_SKIP_EYES])
    _, cand, _, _, _ = _blocks(st)
    n = 0
    for row in range(size - 1, -1, -1):
        for col in range(size):
            cell = (row + 1) * w + col + 1
            if st[BOARD, cell] != EMPTY:
                continue
            if skipped_eye(st, cell, color, skip_eyes):
                continue
            if check(st, zob, work, spare, cell, color, out) == LEGAL:
                sx[cand + n] = cell
                n += 1
    return n


def empty_model():
    """The arrays of a learned model that knows nothing (``learned_score`` adds 0)."""
    return np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float64)


@jit
def candidate_features(st, zob, work, spare, out, sx, color, last, last2, params, pat3, feats,
                       cells, features, counts, codes):
    """The learned model's inputs for every placement a node would get as a child (training,
    ``search/knowledge.py``): its cell, its facts (``counts[i]`` ids in ``features[i]``) and
    its ``pat12_code``; returns how many placements (at most ``len(cells)``)."""
    _, cand, _, _, _ = _blocks(st)
    n = min(_placements(st, zob, work, spare, out, sx, color, params), len(cells))
    for i in range(n):
        cells[i] = sx[cand + i]   # the priors reuse the scratch blocks
    for i in range(n):
        _, _, nf, code = prior(st, zob, work, spare, out, sx, int(cells[i]), color, last, last2,
                               params, pat3, feats)
        counts[i] = nf
        for j in range(nf):
            features[i, j] = feats[j]
        codes[i] = code
    return n


@jit
def urgency(tf, ef, ea, child, e, log_parent, params):
    """How much the move of edge ``e`` (its node ``child``, -1 while it has none) deserves the
    next simulation: its value rate (priors included) blended with its AMAF win rate (RAVE:
    the weight of AMAF fades as real visits grow), plus an optional UCB exploration term."""
    visits = 0.0
    value = 0.0
    if child >= 0:
        visits = tf[NF_VISITS, child]
        value = tf[NF_VALUE, child]
    v = visits + float(ef[e, E_PVISITS])
    wins = value + float(ef[e, E_PWINS])
    rate = wins / v if v > 0 else 1.0
    av = float(ef[e, E_AVISITS])
    if av > 0:
        equiv = params[P_RAVE_EQUIV]
        beta = av / (av + v + v * av / equiv)
        rate = (1.0 - beta) * rate + beta * ea[e] / av
    c = params[P_UCB_C]
    if c > 0:
        rate += c * math.sqrt(log_parent / (visits + 1.0))
    return rate


@jit
def select(ti, tf, ec, ef, ea, node, params):
    """The edge of ``node`` with the highest urgency (the first on ties), skipping repeats;
    -1 if none.

    When that move is clearly losing (urgency below ``P_TRY_BELOW``), the choice goes by the
    moves' own value rates (real simulations and priors) without AMAF: AMAF can sink a move
    below a losing sibling for good (its later plays came in other positions, where it failed),
    so that, with no exploration term, the move that saves the game was never tried, or tried
    once and buried again by thousands of AMAF samples.
    """
    first = int(ti[NI_FIRST, node])
    count = int(ti[NI_COUNT, node])
    log_parent = math.log(tf[NF_VISITS, node] + 1.0)
    best = -1
    best_u = -1e300
    for e in range(first, first + count):
        child = int(ec[e])
        if child >= 0 and ti[NI_FLAGS, child] & FLAG_REPEAT:
            continue
        u = urgency(tf, ef, ea, child, e, log_parent, params)
        if u > best_u:
            best_u = u
            best = e
    if best_u < params[P_TRY_BELOW]:
        best_u = -1e300
        for e in range(first, first + count):
            child = int(ec[e])
            visits = 0.0
            value = 0.0
            if child >= 0:
                if ti[NI_FLAGS, child] & FLAG_REPEAT:
                    continue
                visits = tf[NF_VISITS, child]
                value = tf[NF_VALUE, child]
            v = visits + float(ef[e, E_PVISITS])
            rate = (value + float(ef[e, E_PWINS])) / v if v > 0 else 1.0
            if rate > best_u:
                best_u = rate
                best = e
    return best


@jit
def _bury(ti, tf, ec, ef, thdr, e, move):
    """Take edge ``e`` out of its node's choices for good: its child is flagged as a repeat
    (the child made now if the move has none; a full pool: a million losses on its prior)."""
    child = int(ec[e])
    if child < 0:
        child = new_node(ti, tf, thdr, move)
        if child < 0:
            ef[e, E_PVISITS] += 1e6
            return
        ec[e] = child
    ti[NI_FLAGS, child] |= FLAG_REPEAT


@jit_inline   # one caller: pasted there, one compiled library less (warm-up)
def simulate(root_st, st, zob, work, spare, out, owner, sx, ti, tf, em, ec, ef, ea, thdr, root,
             color, root_passes, root_last, root_last2, rng, params, pat3, model, value, hist,
             path, path_keys, seq, own):
    """One simulation from ``root`` (position ``root_st``, ``color`` to move): descend by
    urgency (making the node of a move the first time it is taken; when the pool has no room
    for it, or past half the pools its node has fewer visits than ``expand_threshold``, the
    move is taken without a node, as a leaf whose result goes to the edge's prior), expand a
    leaf that has been visited often enough, play out, score, back up the result (with AMAF)
    and add the final owners to ``own`` (Black's counts, White's, then the number of samples;
    a simulation ended by two passes in the tree adds none). Returns 1, or 0 when the descent
    met a repeated position (the move is flagged, ``_bury``, and the simulation counts for
    nothing). With ``P_SHARED_TREE`` each node below the root gets its visit on the way
    down (a virtual loss until the result arrives), so that threads sharing the tree spread
    out instead of all descending the same line."""
    copy_state(st, root_st)
    virtual = params[P_SHARED_TREE] > 0
    node = root
    edge = -1   # the edge that reached ``node`` (none for the root)
    depth = 0
    path[0] = root
    passes = root_passes
    last = root_last
    last2 = root_last2
    n_seq = 0
    ended = False
    final = 3 - color
    to_move = color
    nodeless = -1   # the edge taken without a node of its own, if any (``expand_threshold``)
    tree_moves = 0
    expand_visits = expand_threshold(ti, em, thdr, params)
    value_weight = params[P_VALUE_WEIGHT]
    value_mix = params[P_VALUE_MIX]
    max_depth = min(len(path), len(path_keys)) - 1
    while depth < max_depth and n_seq < len(seq) // 2:
        if ti[NI_FIRST, node] < 0:
            if depth > 0 and tf[NF_VISITS, node] < expand_visits:
                break
            if virtual:
                if ti[NI_FLAGS, node] & FLAG_EXPANDING:
                    break
                ti[NI_FLAGS, node] |= FLAG_EXPANDING
            if not expand(st, zob, work, spare, out, owner, sx, ti, em, ec, ef, ea, thdr, node,
                          to_move, last, last2, passes, params, pat3, model):
                ti[NI_FLAGS, node] &= ~FLAG_EXPANDING
                break
            if depth > 0 and (value_weight > 0 or value_mix > 0) and len(value[0]) > 0:
                # once per node, as it gets children: the net's view of the position weighs
                # as much as that many simulations, for the player who moved into it, and is
                # kept for the blend of every later simulation through the node
                p = value_of(st, sx, to_move, last, value)
                ef[edge, E_PVISITS] += value_weight
                ef[edge, E_PWINS] += value_weight * (1.0 - p)
                if value_mix > 0:
                    tf[NF_NET, node] = p if to_move == BLACK else 1.0 - p
                    ti[NI_FLAGS, node] |= FLAG_NET
        e = select(ti, tf, ec, ef, ea, node, params)
        if e < 0:
            break
        move = int(em[e])
        child = int(ec[e])
        if child < 0:
            # past half the pools a node below the threshold makes no new child either; with
            # a full pool none can: the move is taken without a node, the simulation plays
            # out from its position, and its result goes to the edge's prior
            if depth == 0 or tf[NF_VISITS, node] >= expand_visits:
                child = new_node(ti, tf, thdr, move)
                ec[e] = child
            if child < 0:
                nodeless = e
        last2 = last
        if move == PASS:
            passes += 1
            last = 0
        else:
            if play(st, zob, work, spare, move, to_move, out) != LEGAL:
                _bury(ti, tf, ec, ef, thdr, e, move)   # cannot happen: legal at expansion
                _undo_virtual(tf, path, depth, virtual)
                return 0
            key = position_key(st)
            repeated = hash_contains(hist, key)
            for d in range(depth):
                if path_keys[d] == key:
                    repeated = True
            if repeated:
                _bury(ti, tf, ec, ef, thdr, e, move)
                _undo_virtual(tf, path, depth, virtual)
                return 0
            path_keys[depth] = key
            passes = 0
            last = move
            seq[2 * n_seq] = move
            seq[2 * n_seq + 1] = to_move
            n_seq += 1
        final = to_move
        if nodeless >= 0:
            # a leaf one move below the path: its move counts as the playout's first (AMAF)
            tree_moves = n_seq - (0 if move == PASS else 1)
            to_move = 3 - to_move
            ended = passes >= 2 or (move != PASS and _annihilates(st, out, 3 - to_move))
            break
        depth += 1
        path[depth] = child
        if virtual:
            tf[NF_VISITS, child] += 1.0
        node = child
        edge = e
        to_move = 3 - to_move
        if passes >= 2 or (move != PASS and _annihilates(st, out, 3 - to_move)):
            ended = True
            break
    if nodeless < 0:
        tree_moves = n_seq
    if not ended:
        n_seq, final = playout(st, zob, work, spare, out, sx, to_move, passes, last, last2,
                               rng, params, pat3, seq, n_seq)
    win, margin = black_result(st, work, owner, params, final)
    _back_up(ti, tf, em, ef, ea, thdr, sx, path, depth, color, seq, tree_moves, n_seq, win,
             margin, params, virtual, nodeless)
    if passes >= 2:
        # the tree's two passes scored the board as it stands, dead stones on it: no sample
        # of who owns what once the game is played out
        return 1
    a = int(st[HDR, H_AREA])
    own[2 * a] += 1
    for cell in range(a):
        o = owner[cell]
        if o == BLACK:
            own[cell] += 1
        elif o == WHITE:
            own[a + cell] += 1
    return 1


@jit
def _undo_virtual(tf, path, depth, virtual):
    """Take back the visits a descent gave the nodes below the root (``virtual``)."""
    if virtual:
        for d in range(1, depth + 1):
            tf[NF_VISITS, path[d]] -= 1.0


@jit
def _back_up(ti, tf, em, ef, ea, thdr, sx, path, depth, color, seq, tree_moves, n_seq, win,
             margin, params, virtual, nodeless=-1):
    """Add the result to every node of the path, and the AMAF result to the edges of each
    node whose move its player made later in the simulation (the first time the point was
    played from that node on). Black's value is ``score_value`` of the result and margin,
    blended by ``P_VALUE_MIX`` with the value net's estimate of Black's win (``NF_NET``) at the
    deepest node of the path below the root that has one (none: the result alone).
    ``virtual``: the nodes below the root have their visit already (``simulate``).
    ``nodeless``: an edge of the path's last node that the simulation took without a node
    (``simulate``): the result counts as one more simulation of its prior."""
    a = (len(sx) - S_MARK - READ_BLOCK - MAX_FEATURES) // 5
    amaf_sid = S_MARK + 3 * a
    amaf_color = S_MARK + 4 * a
    sx[S_SIM] += 1
    if sx[S_SIM] > 2000000000:
        for i in range(2 * a):
            sx[amaf_sid + i] = 0
        sx[S_SIM] = 1
    sid = int(sx[S_SIM])
    for k in range(n_seq - 1, tree_moves - 1, -1):   # backwards: the first play of a point wins
        cell = int(seq[2 * k])
        sx[amaf_sid + cell] = sid
        sx[amaf_color + cell] = seq[2 * k + 1]
    black_value = score_value(win, margin, params)
    mix = params[P_VALUE_MIX]
    if mix > 0:
        for d in range(depth, 0, -1):
            if ti[NI_FLAGS, path[d]] & FLAG_NET:
                black_value = (1.0 - mix) * black_value + mix * tf[NF_NET, path[d]]
                break
    for d in range(depth, -1, -1):
        node = int(path[d])
        mover_into = color if d % 2 == 1 else 3 - color   # who made the move into path[d]
        if d == 0 or not virtual:
            tf[NF_VISITS, node] += 1.0
        tf[NF_WINS, node] += win if mover_into == BLACK else 1.0 - win
        tf[NF_VALUE, node] += black_value if mover_into == BLACK else 1.0 - black_value
        tf[NF_SCORE, node] += margin
        if d < depth:
            move = int(ti[NI_MOVE, path[d + 1]])
            if move != PASS:
                sx[amaf_sid + move] = sid
                sx[amaf_color + move] = 3 - mover_into
        first = int(ti[NI_FIRST, node])
        if first >= 0:
            player = 3 - mover_into
            child_value = black_value if player == BLACK else 1.0 - black_value
            for e in range(first, first + int(ti[NI_COUNT, node])):
                m = int(em[e])
                if m != PASS and sx[amaf_sid + m] == sid and sx[amaf_color + m] == player:
                    ef[e, E_AVISITS] += 1.0
                    ea[e] += child_value
            if d == depth and nodeless >= 0:
                ef[nodeless, E_PVISITS] += 1.0
                ef[nodeless, E_PWINS] += child_value
    thdr[T_SIMS] += 1


@jit
def run(root_st, st, zob, work, spare, out, owner, sx, ti, tf, em, ec, ef, ea, thdr, root, color,
        root_passes, root_last, root_last2, rng, params, pat3, model, value, hist, path,
        path_keys, seq, own, count):
    """``count`` simulations (attempts that met a repeat do not count but are bounded);
    returns the number that completed. In a thread's arena (``T_ARENA``) it returns early
    once the arena has no room for another expansion or another node: the caller refills it."""
    done = 0
    attempts = 0
    widest = int(root_st[HDR, H_SIZE]) ** 2 + 1   # children of one expansion at most
    while done < count and attempts < 4 * count + 100:
        if thdr[T_ARENA] != 0 and (int(thdr[T_EDGES]) + widest > int(thdr[T_EDGE_CAPACITY]) or
                                   int(thdr[T_USED]) >= int(thdr[T_CAPACITY])):
            break
        done += simulate(root_st, st, zob, work, spare, out, owner, sx, ti, tf, em, ec, ef, ea,
                         thdr, root, color, root_passes, root_last, root_last2, rng, params,
                         pat3, model, value, hist, path, path_keys, seq, own)
        attempts += 1
    return done


# --------------------------------------------------------------------------- tree upkeep
@jit
def new_root(ti, tf, thdr, move):
    """Start an empty tree: one node reached by ``move``, no edges; returns its index (0)."""
    thdr[T_USED] = 0
    thdr[T_EDGES] = 0
    return new_node(ti, tf, thdr, move)


@jit
def find_child(ti, em, ec, node, move):
    """The node ``move`` reaches from ``node``, or -1 (also when not expanded, or when no
    simulation has gone down that move yet)."""
    first = int(ti[NI_FIRST, node])
    if first < 0:
        return -1
    for e in range(first, first + int(ti[NI_COUNT, node])):
        if em[e] == move:
            return int(ec[e])
    return -1


@jit
def compact(ti, tf, em, ec, ef, ea, thdr, root, remap, order, carry_i, carry_f):
    """Keep only the subtree of ``root``: its nodes moved to the front of the pool in
    breadth-first order (``root`` becomes node 0), its edge blocks to the front of theirs.
    ``remap`` and ``order`` are scratch int32 arrays of the pool's capacity, ``carry_i`` and
    ``carry_f`` hold one node's fields (int32 ``NI_FIELDS``, float64 ``NF_FIELDS``). Children
    may lie anywhere in the pool (a shared pool's arenas), so the nodes move in place along
    chains: the node carried to its new slot picks up the one it displaces; the edge blocks,
    taken in the order they lie in, each slide down to the end of the one before. Returns the
    new node count."""
    used = int(thdr[T_USED])
    for i in range(used):
        remap[i] = -1
    remap[root] = 0
    order[0] = root
    rank = 1
    q = 0
    while q < rank:
        node = int(order[q])
        q += 1
        first = int(ti[NI_FIRST, node])
        if first >= 0:
            for e in range(first, first + int(ti[NI_COUNT, node])):
                c = int(ec[e])
                if c >= 0:
                    remap[c] = rank
                    order[rank] = c
                    rank += 1
    for k in range(rank):   # the children's indices to their new places, before anything moves
        node = int(order[k])
        first = int(ti[NI_FIRST, node])
        if first >= 0:
            for e in range(first, first + int(ti[NI_COUNT, node])):
                c = int(ec[e])
                if c >= 0:
                    ec[e] = remap[c]
    for start in range(used):
        dest = int(remap[start])
        if dest < 0:
            continue
        remap[start] = -1   # moved (or in place)
        if dest == start:
            continue
        for f in range(NI_FIELDS):
            carry_i[f] = ti[f, start]
        for f in range(NF_FIELDS):
            carry_f[f] = tf[f, start]
        while True:
            onward = int(remap[dest])   # the node in the slot, if it still has to move
            for f in range(NI_FIELDS):
                v = ti[f, dest]
                ti[f, dest] = carry_i[f]
                carry_i[f] = v
            for f in range(NF_FIELDS):
                x = tf[f, dest]
                tf[f, dest] = carry_f[f]
                carry_f[f] = x
            if onward < 0:
                break
            remap[dest] = -1
            dest = onward
    thdr[T_USED] = rank
    # the kept nodes that have edges, by where their block lies (a heap sort in ``order``)
    m = 0
    for node in range(rank):
        if ti[NI_FIRST, node] >= 0:
            order[m] = node
            m += 1
    _sort_by_first(ti, order, m)
    top = 0
    for k in range(m):
        node = int(order[k])
        first = int(ti[NI_FIRST, node])
        count = int(ti[NI_COUNT, node])
        if first != top:   # down only (top <= first), so a forward copy is safe
            for i in range(count):
                em[top + i] = em[first + i]
                ec[top + i] = ec[first + i]
                ea[top + i] = ea[first + i]
                for f in range(EF_FIELDS):
                    ef[top + i, f] = ef[first + i, f]
            ti[NI_FIRST, node] = top
        top += count
    thdr[T_EDGES] = top
    return rank


@jit
def _sort_by_first(ti, order, m):
    """Sort ``order[:m]`` (nodes) by ``ti[NI_FIRST]`` in place (heap sort: no allocation)."""
    for start in range(m // 2 - 1, -1, -1):
        _sift(ti, order, start, m)
    for end in range(m - 1, 0, -1):
        top = order[0]
        order[0] = order[end]
        order[end] = top
        _sift(ti, order, 0, end)


@jit
def _sift(ti, order, i, m):
    while True:
        big = i
        for c in (2 * i + 1, 2 * i + 2):
            if c < m and ti[NI_FIRST, order[c]] > ti[NI_FIRST, order[big]]:
                big = c
        if big == i:
            return
        x = order[i]
        order[i] = order[big]
        order[big] = x
        i = big


# --------------------------------------------------------------------------- warm-up
SEARCH_ENTRY_POINTS = ("position_key", "hash_insert", "hash_contains", "run", "new_root",
                       "find_child", "compact")
ENTRY_POINTS = SEARCH_ENTRY_POINTS + ("playout", "black_result", "candidate_features")


def warm_all(everything=True):
    """Call every entry point once per capture kind with the argument types the player uses
    (Python ints, int32/float64/int64 arrays), so that numba compiles (or loads from its cache)
    every specialisation before the engine needs it. ``everything=False`` calls only what the
    search player calls (``SEARCH_ENTRY_POINTS``): loading the others from the cache would
    delay a new engine's first search by a tenth of a second, and they load on first use."""
    size = 5
    w = size + 2
    area = w * w
    zob = B.zobrist_keys()
    for capture in (CAPTURE_REMOVE, CAPTURE_LOOSE, CAPTURE_FLIP_REMOVE, CAPTURE_MEALS):
        kinds = np.zeros(size * size, np.int32)
        kinds[0] = MOUNTAIN
        kinds[1] = WATER
        root_st = np.zeros(B.state_shape(size), np.int32)
        B.init_state(root_st, int(size), kinds)
        B.set_capture(root_st, int(capture))
        B.put_fort(root_st, int(3 * w + 3), int(WHITE))
        st = root_st.copy()
        spare = np.zeros_like(root_st)
        work = np.zeros(B.work_length(size), np.int32)
        out = np.zeros(B.effects_length(size), np.int32)
        owner = np.zeros(area, np.int32)
        sx = np.zeros(scratch_length(size), np.int32)
        cap = 2000
        ti = np.zeros((NI_FIELDS, cap), np.int32)
        tf = np.zeros((NF_FIELDS, cap), np.float64)
        em = np.zeros(4 * cap, np.int16)
        ec = np.zeros(4 * cap, np.int32)
        ef = np.zeros((4 * cap, EF_FIELDS), np.float32)
        ea = np.zeros(4 * cap, np.float64)
        thdr = np.zeros(T_HEADER, np.int64)
        thdr[T_CAPACITY] = cap
        thdr[T_EDGE_CAPACITY] = 4 * cap
        params = np.zeros(P_COUNT, np.float64)
        params[P_MAX_MOVES] = 3 * size * size
        params[P_EXPAND_VISITS] = 2
        params[P_RAVE_EQUIV] = 3500
        params[P_PRIOR_EVEN] = 10
        params[P_HEAVY] = 1
        params[P_SKIP_EYES] = 1
        params[P_FORT_VALUE] = 1
        params[P_READ_LADDERS] = 1
        params[P_READ_BUDGET] = 50
        params[P_PRIOR_READ] = 1
        params[P_PRIOR_READ_DEAD] = 1
        params[P_READ_OWN] = 1
        params[P_READ_ATARI] = 1
        params[P_READ_KILL_SHARE] = 1
        pat3 = np.zeros(2 << 16, np.uint8)
        hist = np.zeros(64, np.int64)
        hash_insert(hist, position_key(root_st))
        hash_contains(hist, int(5))
        path = np.zeros(64, np.int32)
        path_keys = np.zeros(64, np.int64)
        seq = np.zeros(2 * (4 * size * size + 64), np.int32)
        own = np.zeros(2 * area + 1, np.int32)
        rng = np.array([12345], np.int64)
        root = new_root(ti, tf, thdr, int(PASS))
        params[P_PRIOR_LEARNED] = 1
        params[P_LEARNED_TEMPERATURE] = 1
        model = empty_model()
        value = (np.zeros(V_HEADER + 9 * V_PLANES + 1 + 5, np.float32),
                 np.zeros(value_buffer_length(size, 1), np.float32))
        value[0][0] = 1
        value[0][1] = 1
        params[P_VALUE_WEIGHT] = 1
        for m in (model, (np.array([KEY_PAT3], np.int64), np.zeros(1, np.int32),
                          np.zeros(F_COUNT, np.float64))):
            for v in (empty_value(), value):
                run(root_st, st, zob, work, spare, out, owner, sx, ti, tf, em, ec, ef, ea, thdr,
                    int(root), int(BLACK), int(0), int(0), int(0), rng, params, pat3, m, v,
                    hist, path, path_keys, seq, own, int(30))
        child = find_child(ti, em, ec, int(root), int(PASS))
        remap = np.zeros(cap, np.int32)
        compact(ti, tf, em, ec, ef, ea, thdr, int(max(child, 0)), remap,
                np.zeros(len(remap), np.int32), np.zeros(NI_FIELDS, np.int32),
                np.zeros(NF_FIELDS, np.float64))
        if not everything:
            continue
        feats = np.zeros(MAX_FEATURES, np.int32)
        candidate_features(st, zob, work, spare, out, sx, int(BLACK), int(0), int(0), params,
                           pat3, feats, np.zeros(1, np.int32), np.zeros((1, MAX_FEATURES), np.int32),
                           np.zeros(1, np.int32), np.zeros(1, np.int64))
        st[:] = root_st
        playout(st, zob, work, spare, out, sx, int(BLACK), int(0), int(0), int(0), rng, params,
                pat3, seq, int(0))
        black_result(st, work, owner, params, int(BLACK))
