"""Go, the baseline: area scoring and positional superko (RULES Go1-Go3). All defaults of Rules."""

from .base import Rules


class Go(Rules):
    """Standard Go with Chinese / Tromp-Taylor area scoring."""

    aliases = ("chinese", "baduk", "weiqi", "standard")
