"""A fake engine that answers each command with the next canned response, byte for byte.

Usage: ``scripted_engine.py RESPONSE...``; each RESPONSE is written as given (Python escapes
such as ``\\n`` and ``\\r`` are decoded) when a command line arrives. ``EXIT`` ends the process
without answering and ``HANG`` never answers. When the script runs out, every command gets
``= \\n\\n``; ``quit`` is answered, then the process ends. For the GTP client's protocol tests.
"""

import sys
import time


def main():
    script = [arg.encode().decode("unicode_escape") for arg in sys.argv[1:]]
    for line in sys.stdin:
        if not line.strip():
            continue
        response = script.pop(0) if script else "= \n\n"
        if response == "EXIT":
            sys.exit(0)
        if response == "HANG":
            while True:
                time.sleep(60)
        sys.stdout.write(response)
        sys.stdout.flush()
        if line.split()[0] == "quit":
            break


if __name__ == "__main__":
    main()
