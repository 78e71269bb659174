"""Go, the baseline: area scoring and positional superko (RULES Go1-Go3). All defaults of Rules."""

from .base import Rules


class Go(Rules):
    """Standard Go with Chinese / Tromp-Taylor area scoring."""

    aliases = ("chinese", "baduk", "weiqi", "standard")
    #: the values known from strong play, plus the customary half point (7x7: Black wins by 9
    #: with perfect play; 9x9 and 19x19: about 7); docs/RESEARCH.md "Komi" has our own measurements
    calibrated_komi = {7: 9.5, 9: 7.5, 13: 7.5, 19: 7.5}
