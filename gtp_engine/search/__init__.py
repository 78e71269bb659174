"""The search: the player (``player``), its kernels, time management, forts and fair komi."""

#: search threads a session may ask for (``--threads``, GoGui's dialog): each has its own tree
MAX_THREADS = 256
