"""A scriptable fake GTP engine for the match runner's tests (a test double, not a player).

It keeps a ``gtp_engine.game.Game`` and plays random legal moves (never filling its own
single-point eyes, passing when nothing is left), so a game between two fakes ends by two
passes. ``--fault KIND --at N`` makes its N-th ``genmove`` (counted from 1 over the process's
life) misbehave:

  illegal    answer an occupied point (a point off the board if none is occupied)
  crash      exit at once without answering
  hang       never answer (sleeps until killed)
  malformed  write a line that is not a GTP response
  garbage    answer ``= ZZ99`` (a response, but no vertex)
  resign     answer ``resign``
  slow       sleep ``--delay`` seconds, then move normally
  refuse     answer ``? ...`` to the opponent's next ``play`` instead

``--pace SECONDS`` makes every ``genmove`` take that long; ``--burn CPU_SECONDS`` makes it
compute for that much CPU time; ``--no-cputime`` hides ``cputime`` (like GNU Go and Pachi).
``--no-variant`` hides the variant and terrain commands (like GNU Go); ``--fort-fault`` makes
``genfort`` answer a point already holding a fort; ``--claim RESULT`` makes ``final_score``
answer RESULT whatever the board; ``--fair-komi TEXT`` offers ``fair_komi`` answering TEXT;
``--seed`` fixes the random moves; ``--per-game`` restarts that generator from the seed at
every ``clear_board`` (an engine whose games all replay one game unless it is given another
seed), and ``--random-seed`` offers ``set_random_seed`` (as GNU Go does).
"""

import argparse
import random
import sys
import time

from gtp_engine.coords import Color, format_vertex, parse_vertex
from gtp_engine.errors import EngineError
from gtp_engine.game import Game
from gtp_engine.gtp.handicap import fixed_handicap_points
from gtp_engine.rules.terrain_map import TerrainMap


class FakeEngine:
    def __init__(self, args):
        self.args = args
        self.seed = args.seed
        self.rng = random.Random(args.seed)
        self.variant, self.size, self.komi = "go", 9, 7.5
        self.game = Game(self.variant, self.size)
        self.genmoves = 0
        self.refuse_next_play = False
        self.commands = {
            "protocol_version": lambda a: "2", "name": lambda a: "fake", "version": lambda a: args.fault or "1",
            "list_commands": lambda a: "\n".join(self.commands), "known_command": self.known_command,
            "quit": lambda a: "", "boardsize": self.boardsize, "clear_board": self.clear_board,
            "komi": self.set_komi, "play": self.play, "genmove": self.genmove,
            "final_score": lambda a: args.claim or self.game.score().result,
            "kgs-genmove_cleanup": self.genmove, "time_settings": lambda a: "",
            "time_left": lambda a: "", "cputime": lambda a: f"{time.process_time():.3f}",
            "fixed_handicap": self.fixed_handicap,
        }
        if args.no_cputime:
            del self.commands["cputime"]
        if args.random_seed:
            self.commands["set_random_seed"] = self.set_random_seed
        if args.fair_komi is not None:
            self.commands["fair_komi"] = lambda a: args.fair_komi
        if not args.no_variant:
            self.commands.update({"variant": self.set_variant, "list_variants": lambda a: "go\nloose\ngoncrete\ndisto\nterrain",
                                  "terrain_load": self.terrain_load, "genfort": self.genfort, "fort": self.fort})

    def known_command(self, a):
        return "true" if a and a[0] in self.commands else "false"

    def new_game(self, terrain=None):
        self.game = Game(self.variant, self.size, self.komi, terrain=terrain)

    def set_variant(self, a):
        self.variant = a[0]
        self.komi = None
        self.new_game()
        self.komi = self.game.komi
        return ""

    def boardsize(self, a):
        self.size = int(a[0])
        self.new_game()
        return ""

    def clear_board(self, a):
        self.game.clear()
        if self.args.per_game:
            self.rng = random.Random(self.seed)
        return ""

    def fixed_handicap(self, a):
        points = fixed_handicap_points(self.size, int(a[0]))
        self.game.place_handicap(points)
        return " ".join(format_vertex(p) for p in points)

    def set_random_seed(self, a):
        self.seed = int(a[0])
        self.rng = random.Random(self.seed)
        return ""

    def set_komi(self, a):
        self.komi = float(a[0])
        self.game.set_komi(self.komi)
        return ""

    def terrain_load(self, a):
        counts = dict(word.split("=") for word in a[1:] if "=" in word)
        self.new_game(TerrainMap.from_text(a[0], int(counts.get("forts", 0)) or None,
                                           int(counts.get("fort_value", 0)) or None))
        return ""

    def genfort(self, a):
        color = Color.parse(a[0])
        if self.args.fort_fault and self.game.forts:
            return format_vertex(self.game.forts[0][1])
        empty = [(r, c) for r in range(self.size) for c in range(self.size)
                 if self.game.position.terrain_at((r, c)) == 0 and not self.game.position.fort_at((r, c))]
        point = self.rng.choice(empty)
        self.game.place_fort(color, point)
        return format_vertex(point)

    def fort(self, a):
        self.game.place_fort(Color.parse(a[0]), parse_vertex(a[1], self.size))
        return ""

    def play(self, a):
        if self.refuse_next_play:
            self.refuse_next_play = False
            raise EngineError("fake refuses this move")
        self.game.play(Color.parse(a[0]), parse_vertex(a[1], self.size))
        return ""

    def genmove(self, a):
        color = Color.parse(a[0])
        self.genmoves += 1
        fault = self.args.fault if self.genmoves == self.args.at else None
        if fault == "crash":
            sys.exit(3)
        if fault == "hang":
            while True:
                time.sleep(60)
        if fault == "malformed":
            return MALFORMED
        if fault == "garbage":
            return "ZZ99"
        if fault == "resign":
            return "resign"
        if fault == "slow":
            time.sleep(self.args.delay)
        time.sleep(self.args.pace)
        burn_until = time.process_time() + self.args.burn
        while time.process_time() < burn_until:
            pass
        if fault == "refuse":
            self.refuse_next_play = True
        if fault == "illegal":
            occupied = [(r, c) for r in range(self.size) for c in range(self.size)
                        if self.game.position.stone_at((r, c))]
            return format_vertex(occupied[0]) if occupied else f"A{self.size + 1}"
        moves = self.game.legal_moves(color, skip_own_eyes=True)
        move = self.rng.choice(moves) if moves else None
        self.game.play(color, move)
        return format_vertex(move)


MALFORMED = object()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", choices=["illegal", "crash", "hang", "malformed", "garbage", "resign",
                                            "slow", "refuse"])
    parser.add_argument("--at", type=int, default=1)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds every genmove takes")
    parser.add_argument("--burn", type=float, default=0.0, help="CPU seconds every genmove uses")
    parser.add_argument("--no-cputime", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-game", action="store_true", help="every game from --seed afresh")
    parser.add_argument("--random-seed", action="store_true", help="offer set_random_seed")
    parser.add_argument("--no-variant", action="store_true")
    parser.add_argument("--fort-fault", action="store_true")
    parser.add_argument("--claim", help="answer final_score with this result whatever the board")
    parser.add_argument("--fair-komi", help="offer fair_komi, answering this text")
    engine = FakeEngine(parser.parse_args())
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        name, args = words[0], words[1:]
        handler = engine.commands.get(name)
        try:
            if handler is None:
                raise EngineError("unknown command")
            answer = handler(args)
        except EngineError as err:
            sys.stdout.write(f"? {err}\n\n")
        else:
            if answer is MALFORMED:
                sys.stdout.write("this is not gtp\n\n")
            else:
                sys.stdout.write(f"= {answer}\n\n")
        sys.stdout.flush()
        if name == "quit":
            break


if __name__ == "__main__":
    main()
