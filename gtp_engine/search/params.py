"""The search's tunables, each a named constant with its meaning, and the parameter array the
kernels read (``kernels.P_*``): the game's own settings (komi, scoring, tie rule) and these.

Weights of priors are virtual simulations: ``n`` wins add ``n`` to visits and wins (a good
move), ``n`` losses add ``n`` to visits only (a bad one). The values follow the tradition of
michi, Pachi and Fuego, adjusted by self-play here.
"""

import numpy as np

from . import _backend

K = _backend.mirror   # the P_* indices (identical in both implementations)

EXPAND_VISITS = 8           #: simulations through a leaf before it gets children
EXPAND_DOUBLING = 0.05      #: past half of the tree's memory in use, the threshold doubles for
#                              every this much more in use (0: fixed; kernels.expand_threshold)
RAVE_EQUIV = 3500           #: visits at which the real win rate and AMAF weigh the same
UCB_C = 0.0                 #: exploration term (0: priors and RAVE explore enough; 0.1 lost 0-7,
#                              0.03 H0 at 30-41 in 71 games: RESEARCH.md)
PRIOR_EVEN = 10             #: every move starts with this many virtual simulations at 50%
PRIOR_CAPTURE_ONE = 15      #: wins for taking one stone (removal, flip or meal)
PRIOR_CAPTURE_MANY = 30     #: wins for taking several stones
PRIOR_ANNIHILATE = 1000     #: wins for a Goncrete capture that leaves the opponent no stone;
#                              losses for a self-atari of every own stone, which invites one
PRIOR_ESCAPE = 20           #: wins for saving an own group from atari
PRIOR_LADDER_RUN = 40       #: losses (instead of PRIOR_ESCAPE) for running from a working ladder
PRIOR_LADDER_CAPTURE = 20   #: wins for the atari that starts a working ladder
PRIOR_PATTERN = 10          #: wins for a good 3x3 shape
PRIOR_SELF_ATARI = 10       #: losses for putting an own group in atari
PRIOR_SELF_MEAL = 100       #: losses for leaving an own group without a liberty (Disto)
PRIOR_STARVE = 8            #: wins for taking a liberty of an enemy glutton (Disto)
PRIOR_EYE = 100             #: losses for filling one's own eye (where allowed at all)
PRIOR_NEAR = (24, 22, 8)    #: wins near the last move: touching, a jump away, a bit farther
PRIOR_NEAR_WITH_MODEL = (12, 11, 4)   #: the same where a learned model (which weighs the
#                                        distance to the last move itself) gives priors too
PRIOR_EDGE_EMPTY = 10       #: losses for the first two lines in an empty area
PRIOR_THIRD_EMPTY = 10      #: wins for the third line in an empty area
PRIOR_MOUNTAIN = 20         #: losses for a mountain point (worth nothing, T5)
PRIOR_WATER = 4             #: wins for a water point (worth 1.5, T5)
PRIOR_FORT = 6              #: wins next to a fort (worth fort_value to whoever surrounds it)
PRIOR_PASS = 10             #: losses for passing (the tree learns when it is right)
PRIOR_READ = 0              #: wins for a move the fight reader finds killing or saving a group
READ_BUDGET = 0             #: moves the fight reader may play per new node (0: no reading)
PRIOR_READ_DEAD = 0         #: losses for extending an own group the reader finds dead anyway
READ_OWN = 0                #: 1: read next to the player's own previous move too, not only the last
READ_ATARI = 0              #: 1: read an own group in atari too (does its escape live?)
READ_KILL_SHARE = 1.0       #: share of PRIOR_READ a killing move gets (a saving move gets it all)
PRIOR_LEARNED = 30          #: virtual wins the learned move model (knowledge.py) gives its first
#                              choice; another placement exp((score - best score) / temperature)
LEARNED_TEMPERATURE = 1.0   #: of them
TRY_BELOW = 0.1             #: a choice below this value is made again without AMAF (kernels.select)
SCORE_WEIGHT = 0.05         #: share of a simulation's value that its margin gives (kernels.score_value)
SCORE_POINTS = 0.5          #: the margin that counts in full: this share of the board's points
#                              (``make_params`` turns it into points; an override gives points)
TARGET_WEIGHT = 0.2         #: share of a simulation's value that reaching the target margin gives
#                              (kernels.score_value; the player sets the target, ``target_margin``;
#                              0: play for the win alone, as before)
TARGET_SHARE = 0.5          #: the target of a player whose last search saw the game won: this
#                              share of the lead it expected (``player.target_margin``)
TARGET_BEHIND = 1.0         #: of a player whose last search saw it lost: this share of the
#                              loss it expected, as the loss to stay under (0: none)
CLOSE_RATIO = 2.5           #: a timed search with time to spare goes on while the most visited
#                              root move has fewer than this times the second's visits (Pachi's
#                              best2_ratio; ``SearchPlayer.search``'s ``extend_to``; 0: never)
TARGET_BEHIND_LEAD = 0.0    #: points: a player whose last search expected to lose by this many
#                              or more plays to lose by less at any win rate below a half, not
#                              only when it saw the game lost (White in a handicap game stays at
#                              20-36% while its groups die; 0: only then). At 10, as White with 3
#                              stones against GNU Go: 7 of 20 won, mean -32.2 against 6, -44.3;
#                              better in 11 same-seed pairs, worse in 6 (RESEARCH.md); in even
#                              games 5-7 in 12 against it off, undecided
PROB_CAPTURE = 900          #: per mille: the playout looks for captures and escapes first
PROB_PATTERN = 950          #: per mille: then for good shapes round the last move
PROB_NLIB = 0               #: per mille: before the shapes, an atari on an enemy two-liberty
#                              group touching an own group the last move left with 3 or 4
#                              liberties (``kernels.suggest_counter_atari``; Pachi's ``nlibrate``)
PROB_VITAL = 0              #: per mille: after those, the vital point of the enemy's eye space
#                              the last move touched (``kernels.suggest_vital_point``; Pachi's
#                              nakade check, 80%)
PROB_REJECT_SELF_ATARI = 900   #: per mille: a suggested lone-stone self-atari is refused
PROB_REJECT_RANDOM_SELF_ATARI = 500   #: per mille: the same for a random move
PROB_REJECT_MOUNTAIN = 0    #: per mille: a playout's random move refuses a mountain point
SPARE_EYES = 0              #: 1: where eyes score nothing (Loose, Disto) the tree and the playouts
#                              fill an own eye its groups do not need (``kernels.spare_eye``); off:
#                              in Loose at a second a move 13-27 against it off (RESEARCH.md), so
#                              only ``decide`` fills them, in place of a pass
PLAYOUT_NAKADE = 0          #: 1: a self-atari of several stones in a nakade shape inside the
#                              enemy's eye space is a playout move like a lone stone's (Go's capture)
PLAYOUT_LADDERS = 0         #: 1: a playout does not extend a group in atari that a ladder
#                              catches anyway (where the game reads ladders; a state copy a read)
PLAYOUT_PATTERN2 = 0        #: 1: the playout's 3x3 shapes round the mover's own previous move
#                              too, not only round the opponent's last (Pachi's ``pattern2``):
#                              in Go 29-20 in 49 and 50-43 in 93 (+26, 95% -44..+97),
#                              undecided and shrinking, 5% more CPU a move (RESEARCH.md)

VALUE_WEIGHT = 0            #: virtual simulations from the value net at a node's expansion
#                              (``value.py``; 0: unused until a match shows it gains)
VALUE_MIX = 0.0             #: share of a simulation's value the value net's estimate at the deepest
#                              node of its descent that has one gives (0: the playout's alone)
SHARED_TREE = 1             #: 1: the threads of a search share one tree (virtual losses keep
#                              them apart); 0: one tree per thread, merged at the root (two
#                              threads: +84 Elo at 18,000 simulations, +241 at 1 s, RESEARCH.md)


#: What each game sets otherwise than the defaults above, one row per game (the tunables by
#: their names in lower case, as ``make_params`` takes them). A row holds only what a match in
#: that game decided (docs/RESEARCH.md); a gain in one game says nothing of another.
GAME_SETTINGS = {
    # at a second's simulations, H1 each: rave_equiv better than 3500; prob_nlib +65 (170
    # games, ~12% more CPU a move), prob_vital +105 (83 games, ~9%), playout_nakade +96,
    # playout_ladders +128 (4%); the value net's mix 0.5 +45 in 200 games, then +8 in 84 on
    # new seeds and worse against Pachi: off
    "go": {"rave_equiv": 1000, "prob_nlib": 250, "prob_vital": 800, "playout_nakade": 1,
           "playout_ladders": 1},
    # rave_equiv 1000: no gain; value_mix 0.5 with knowledge/loose-value.npz (its own net,
    # 846 games): 47-22 at 4,000 simulations, +132 (95% +45..+219), H1 of 0-60 after 34 pairs
    "loose": {"value_mix": 0.5},
    "goncrete": {"rave_equiv": 1000},
    # value_mix 0.5 with knowledge/disto-value.npz (its own net, 440 self-play games): +116
    # (95% +18..+213) at 4,000 simulations, H1 of 0-60 after 26 pairs, ~7% more CPU a move
    "disto": {"rave_equiv": 1000, "value_mix": 0.5},
    # playout_nakade with prob_nlib (Go's race and nakade steps; its captures leave eye
    # spaces as Go's do): 82-53 at 8,000 simulations, +74 (95% +15..+132), H1 of 0-60 after
    # 138; at 1 s 115-92, 3 draws over two sessions (+38), undecided; playout_ladders -70: off
    "terrain": {"playout_nakade": 1, "prob_nlib": 250},
}

#: the names ``make_params`` (and ``--search-param``) accept as overrides
TUNABLES = ("expand_visits", "expand_doubling", "rave_equiv", "ucb_c", "prior_even", "prior_capture_one",
            "prior_capture_many", "prior_annihilate", "prior_escape", "prior_pattern",
            "prior_ladder_run", "prior_ladder_capture", "prior_self_atari", "prior_self_meal",
            "prior_starve", "prior_eye", "prior_near1", "prior_near2", "prior_near3",
            "prior_edge_empty", "prior_third_empty", "prior_mountain", "prior_water", "prior_fort",
            "prior_pass", "prob_capture", "prob_pattern", "prob_nlib", "prob_vital",
            "prob_reject_self_atari", "prob_reject_random_self_atari", "prob_reject_mountain",
            "spare_eyes", "try_below",
            "score_weight", "score_points", "target_weight", "heavy", "read_ladders",
            "max_moves", "prior_learned", "learned_temperature", "playout_nakade",
            "playout_ladders", "playout_pattern2", "prior_read", "read_budget",
            "prior_read_dead", "read_own", "read_atari", "read_kill_share", "shared_tree",
            "target_share", "target_behind", "target_behind_lead", "close_ratio", "value_weight",
            "value_mix")
#: the tunables ``make_params`` turns into other entries of the array (``spare_eyes`` into
#: ``skip_eyes``); defaults
DERIVED_TUNABLES = {"spare_eyes": SPARE_EYES}
#: the tunables the player reads (``SearchPlayer``), not the kernels: not in the array; defaults
PLAYER_TUNABLES = {"target_share": TARGET_SHARE, "target_behind": TARGET_BEHIND,
                   "target_behind_lead": TARGET_BEHIND_LEAD, "close_ratio": CLOSE_RATIO}


_PRIOR = (0, 1e6, False)        # virtual simulations: none to a million
_PER_MILLE = (0, 1000, True)
#: each tunable's allowed values: (lowest, highest, whole numbers only); ``check_tunable``
RANGES = {
    "expand_visits": (1, 1e9, True),         # 1e9: the root's children only (flat Monte Carlo)
    "expand_doubling": (0, 1, False),        # a share of the pools; 0: a fixed threshold
    "rave_equiv": (1, 1e9, False),           # the AMAF blend divides by it
    "ucb_c": (0, 100, False),
    **{name: _PRIOR for name in TUNABLES if name.startswith("prior_")},
    **{name: _PER_MILLE for name in TUNABLES if name.startswith("prob_")},
    "heavy": (0, 1, True),                   # 0: uniform random playouts, 1: the heavy policy
    "read_ladders": (0, 1, True),            # 0: no ladder reading (the rules may say 0 already)
    "playout_nakade": (0, 1, True),
    "playout_ladders": (0, 1, True),
    "playout_pattern2": (0, 1, True),
    "spare_eyes": (0, 1, True),
    "read_budget": (0, 1_000_000, True),     # moves a new node's fight reading may play
    "read_own": (0, 1, True),
    "read_atari": (0, 1, True),
    "read_kill_share": (0, 1, False),
    "shared_tree": (0, 1, True),
    "max_moves": (1, 100_000, True),         # a playout's move cap; 0 would end every playout at once
    "learned_temperature": (0.01, 100, False),   # it divides
    "try_below": (0, 1, False),              # a value: 0 never chooses again without AMAF
    "score_weight": (0, 1, False),           # 0: wins alone, 1: the margin alone
    "target_weight": (0, 0.45, False),       # with score_weight below 0.05, a win stays a win
    "target_share": (0, 1, False),
    "target_behind": (0, 1, False),
    "target_behind_lead": (0, 1000, False),
    "close_ratio": (0, 1e6, False),
    "score_points": (1, 1e6, False),         # points (the margin is divided by it)
    "value_weight": (0, 1e6, False),         # virtual simulations: none to a million
    "value_mix": (0, 1, False),              # a share of each simulation's value
}


def check_tunable(name: str, value: float) -> float:
    """``value`` if tunable ``name`` may take it, else ValueError saying the range."""
    if name not in RANGES:
        raise ValueError(f"unknown search parameter: {name!r} (one of {', '.join(TUNABLES)})")
    low, high, whole = RANGES[name]
    if not low <= value <= high or (whole and value != int(value)):
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"search parameter {name} must be {kind} from {low:g} to {high:g}, "
                         f"not {value:g}")
    return value


def asks_value_net(params: np.ndarray) -> bool:
    """Whether a search with this parameter array asks the value net (where the game has one
    for the board's size): as virtual simulations or blended into the results."""
    return params[K.P_VALUE_WEIGHT] > 0 or params[K.P_VALUE_MIX] > 0


def make_params(game, heavy: bool = True, learned: bool = False, target_margin: float = 0.0,
                **overrides) -> np.ndarray:
    """The parameter array for searching ``game`` (a ``game.Game``); ``learned``: a learned
    move model exists for it (``knowledge.py``); where it gives priors (``prior_learned``
    above 0) the bonus near the last move is ``PRIOR_NEAR_WITH_MODEL``, not ``PRIOR_NEAR``.
    ``target_margin``: Black's margin in points that the player to move plays for besides the
    win (``player.target_margin``); 0 with no target, which also turns ``target_weight`` off.
    ``overrides`` set any tunable by its name in lower case, e.g. ``rave_equiv=1000`` (tuning
    and tests)."""
    size = game.size
    learned = learned and overrides.get("prior_learned", PRIOR_LEARNED) > 0
    near = PRIOR_NEAR_WITH_MODEL if learned else PRIOR_NEAR
    values = {
        "komi_halves": int(round(game.komi * 2)),
        "scoring": game.rules.scoring,
        "fort_value": game.fort_value,
        "has_draws": int(game.rules.has_draws),
        "skip_eyes": int(game.rules.playout_eyes),
        "max_moves": 3 * size * size,
        "expand_visits": EXPAND_VISITS,
        "expand_doubling": EXPAND_DOUBLING,
        "rave_equiv": RAVE_EQUIV,
        "ucb_c": UCB_C,
        "prior_even": PRIOR_EVEN,
        "prior_capture_one": PRIOR_CAPTURE_ONE,
        "prior_capture_many": PRIOR_CAPTURE_MANY,
        "prior_annihilate": PRIOR_ANNIHILATE,
        "prior_escape": PRIOR_ESCAPE,
        "prior_ladder_run": PRIOR_LADDER_RUN,
        "prior_ladder_capture": PRIOR_LADDER_CAPTURE,
        "read_ladders": int(game.rules.reads_ladders),
        "prior_pattern": PRIOR_PATTERN,
        "prior_self_atari": PRIOR_SELF_ATARI,
        "prior_self_meal": PRIOR_SELF_MEAL,
        "prior_starve": PRIOR_STARVE,
        "prior_eye": PRIOR_EYE,
        "prior_near1": near[0],
        "prior_near2": near[1],
        "prior_near3": near[2],
        "prior_edge_empty": PRIOR_EDGE_EMPTY,
        "prior_third_empty": PRIOR_THIRD_EMPTY,
        "prior_mountain": PRIOR_MOUNTAIN,
        "prior_water": PRIOR_WATER,
        "prior_fort": PRIOR_FORT,
        "prior_pass": PRIOR_PASS,
        "prob_capture": PROB_CAPTURE,
        "prob_pattern": PROB_PATTERN,
        "prob_nlib": PROB_NLIB,
        "prob_vital": PROB_VITAL,
        "prob_reject_self_atari": PROB_REJECT_SELF_ATARI,
        "prob_reject_random_self_atari": PROB_REJECT_RANDOM_SELF_ATARI,
        "prob_reject_mountain": PROB_REJECT_MOUNTAIN,
        "prior_learned": PRIOR_LEARNED,
        "prior_read": PRIOR_READ,
        "read_budget": READ_BUDGET,
        "prior_read_dead": PRIOR_READ_DEAD,
        "read_own": READ_OWN,
        "read_atari": READ_ATARI,
        "read_kill_share": READ_KILL_SHARE,
        "learned_temperature": LEARNED_TEMPERATURE,
        "playout_nakade": PLAYOUT_NAKADE,
        "playout_ladders": PLAYOUT_LADDERS,
        "playout_pattern2": PLAYOUT_PATTERN2,
        "try_below": TRY_BELOW,
        "score_weight": SCORE_WEIGHT,
        "score_points": SCORE_POINTS * size * size,
        "target_weight": TARGET_WEIGHT,
        "heavy": int(heavy),
        "shared_tree": SHARED_TREE,
        "value_weight": VALUE_WEIGHT,
        "value_mix": VALUE_MIX,
    }
    values.update(GAME_SETTINGS.get(game.rules.name, {}))
    for name, value in overrides.items():
        value = check_tunable(name, value)
        if name not in PLAYER_TUNABLES:
            values[name] = value
    if values.pop("spare_eyes", DERIVED_TUNABLES["spare_eyes"]) and values["skip_eyes"] and not game.rules.eyes_score:
        values["skip_eyes"] = 2   # the search fills own eyes its groups do not need
    values["target_margin"] = float(target_margin)
    if target_margin == 0:
        values["target_weight"] = 0.0   # no target: the value of a simulation is as it always was
    params = np.zeros(K.P_COUNT, np.float64)
    for name, value in values.items():
        params[getattr(K, "P_" + name.upper())] = float(value)
    return params
