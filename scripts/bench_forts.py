"""How long ``--forts auto`` takes, and what GoGui waits for (issue 16).

For each board size, with an empty fort cache (``search.fortcache``) each time:

1. in process: ``place_forts`` with 1 thread and with the machine's cores (wall and CPU time;
   the forts must be the same);
2. GoGui's start: a player process, then the ruler (the same command line) as GoGui starts
   them; the seconds until each answered GoGui's start-up commands (``name`` ...
   ``gogui-rules_side_to_move``), and until each could answer ``gogui-rules_board_gfx`` (the
   forts placed); then a restarted process (forts from the cache).

Prints one block per size and the load average, which on a shared machine explains much.

    python scripts/bench_forts.py [--sizes 9 13] [--seed 0]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gtp_engine.import_path import forget_working_directory  # noqa: E402

START = ["name", "protocol_version", "list_commands", "gogui-interrupt", "gogui-rules_game_id",
         "gogui-rules_board_size", "clear_board", "gogui-rules_board",
         "gogui-rules_captured_count", "gogui-rules_side_to_move"]


class Engine:
    def __init__(self, args, env):
        self.process = subprocess.Popen([sys.executable, "-m", "gtp_engine", *args], env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.started = time.perf_counter()

    def send(self, command):
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.process.stdout.readline().decode()) != "\n":
            if not line:
                raise RuntimeError(f"the engine died after {command}")
            lines.append(line)
        return "".join(lines)[1:].strip()

    def since_start(self):
        return time.perf_counter() - self.started

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def in_process(size, seed, cache):
    from gtp_engine.game import Game
    from gtp_engine.search import _backend, fortsearch
    _backend.compile_now()
    rows = []
    for threads in (1, os.cpu_count() or 1):
        os.environ["VARGO_CACHE_DIR"] = tempfile.mkdtemp(dir=cache)
        game = Game("terrain", size)
        wall, cpu = time.perf_counter(), time.process_time()
        placed = fortsearch.place_forts(game, seed, threads=threads)
        rows.append((threads, time.perf_counter() - wall, time.process_time() - cpu, placed))
    for threads, wall, cpu, placed in rows:
        print(f"  in process, {threads} thread(s): {wall:5.1f} s wall, {cpu:5.1f} s CPU, "
              f"{len(placed)} forts")
    if len({str(r[3]) for r in rows}) != 1:
        print("  THE FORTS DIFFER BETWEEN THREAD COUNTS")


def gogui_start(size, seed, cache):
    env = dict(os.environ, VARGO_CACHE_DIR=tempfile.mkdtemp(dir=cache))
    args = ["--variant", "terrain", "--size", str(size), "--forts", "auto", "--seed", str(seed)]
    player = Engine(args, env)
    for command in START[:5]:
        player.send(command)
    print(f"  player: GoGui's first commands answered {player.since_start():.2f} s after start")
    ruler = Engine(args, env)   # GoGui starts the ruler after the player's game id
    for command in START:
        ruler.send(command)
    print(f"  ruler:  its start-up commands answered {ruler.since_start():.2f} s after start")
    done = {}

    def settle(name, engine):
        engine.send("gogui-rules_board_gfx")
        done[name] = engine.since_start()
    threads = [threading.Thread(target=settle, args=item) for item in
               (("player", player), ("ruler", ruler))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    forts = {engine.send("forts") for engine in (player, ruler)}
    print(f"  forts placed: player {done['player']:.1f} s, ruler {done['ruler']:.1f} s after "
          f"each started; {'the same' if len(forts) == 1 else 'DIFFERENT'}: {forts.pop()}")
    for engine in (player, ruler):
        engine.close()
    again = Engine(args, env)
    again.send("gogui-rules_board_gfx")
    print(f"  restart: forts placed {again.since_start():.2f} s after start (from the cache)")
    again.close()


def main(argv=None):
    forget_working_directory()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 13])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache:
        for size in args.sizes:
            print(f"{size}x{size}, seed {args.seed}, load average {os.getloadavg()[0]:.1f}:")
            in_process(size, args.seed, cache)
            gogui_start(size, args.seed, cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
