"""Terrain Go maps (RULES T1, T2, T7): parameters, the seeded generator, text form, validation.

CONTRACT (names used by game, GTP, SGF; implementation to be completed):

TERRAIN kinds are board.PLAIN / MOUNTAIN / WATER. A map's ``kinds`` is a tuple of size*size ints
indexed ``row*size + col`` with row 0 at the bottom (GTP orientation).

@dataclass(frozen=True) class TerrainParams:
    mountains: int; water: int; min_groups: int; max_groups: int; min_group: int;
    forts: int (per side); fort_value: int
    for_size(size) -> TerrainParams        the RULES T1/T2/T7 defaults, scaled by r = N*N/361
    with_options(options: dict[str, str]) -> TerrainParams   keys ``mountains water
        groups=MIN-MAX min_group forts fort_value``; TerrainError for unknown keys or bad values

@dataclass(frozen=True) class TerrainMap:
    size: int; kinds: tuple; forts_per_side: int; fort_value: int
    kind_at(point) -> int
    to_text(forts=()) -> str    rows from the top joined by '/', '.' plain '^' mountain '~' water;
                                forts given as (Color, point) pairs are written 'b'/'w'
    from_text(text, forts_per_side=None, fort_value=None) -> TerrainMap  (classmethod; TerrainError
                                for bad characters, ragged or non-square rows, sizes outside
                                5..25; 'b'/'w' read as plain); counts default to for_size(size)
    validate(params=None)      TerrainError naming the first T1 rule the map breaks
    plain(size) -> TerrainMap  (classmethod) all plain, default counts

generate_map(size, seed, params=None) -> TerrainMap
    deterministic for (size, seed, params) on every machine; TerrainError for impossible params
"""
