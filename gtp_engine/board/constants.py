"""Switches and codes shared by the board kernels and their callers (see the package docstring)."""

EMPTY = 0

# What a placement does to enemy groups (Rules.capture).
CAPTURE_REMOVE = 0
CAPTURE_LOOSE = 1
CAPTURE_FLIP_REMOVE = 2
CAPTURE_MEALS = 3

# How a final position is counted (Rules.scoring).
SCORE_AREA = 0
SCORE_STONES = 1
SCORE_STONES_NOT_MEALS = 2

# Terrain kinds (TerrainMap.kinds).
PLAIN = 0
MOUNTAIN = 1
WATER = 2
