"""``python -m gtp_engine.web``: the same as ``vargo-web``."""

from .cli import main

if __name__ == "__main__":
    main()
