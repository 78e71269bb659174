"""Terrain Go (RULES T1-T9): Go on a map of plains, mountains and water, after forts."""

from .base import Rules


class TerrainGo(Rules):
    """Go rules plus the map: the board kernels read terrain legality and weights off the map."""

    name = "terrain"
    sgf_ru = "Terrain Go"
    gogui_id = "Terrain"
    aliases = ("terrain go", "terrain-go", "terraingo")
    has_terrain = True
    min_size = 5
    #: before a map's own fair komi (T9): the mean fair komi over random maps with forts by the
    #: search, docs/RESEARCH.md "Komi"
    calibrated_komi = {7: 7.5, 9: 6.5, 13: 6.5, 19: 7.5}
