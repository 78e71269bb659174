"""What each game is: a registry of ``Rules`` classes, and Terrain Go's maps.

``find_rules(name)`` looks a game up by its rules name, an alias or its SGF ``RU`` text.
"""

from ..errors import RulesError, quote
from .base import Rules
from .disto import Disto
from .go import Go
from .goncrete import Goncrete
from .loose import Loose
from .terrain import TerrainGo

ALL_RULES = (Go, Loose, Goncrete, Disto, TerrainGo)
RULES_BY_NAME = {r.name: r for r in ALL_RULES}


def find_rules(name: str) -> type:
    """The Rules class for a rules name, alias, SGF RU text or GoGui id (any case).

    Raises RulesError naming the known games when nothing matches.
    """
    key = name.strip().lower()
    for rules in ALL_RULES:
        if key in (rules.name, rules.sgf_ru.lower(), rules.gogui_id.lower()) or key in rules.aliases:
            return rules
    known = ", ".join(RULES_BY_NAME)
    raise RulesError(f"unknown variant: {quote(name)} (known: {known})")


__all__ = ["Rules", "Go", "Loose", "Goncrete", "Disto", "TerrainGo", "ALL_RULES", "RULES_BY_NAME", "find_rules"]
