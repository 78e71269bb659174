"""Screenshots of GoGui playing each variant with vargo as player and ruler (``docs/``).

For each of Loose, Goncrete, Disto and Terrain Go: a short self-play game of the engine
(fixed seed and playouts, so every run makes the same game), saved as SGF. GoGui runs under a
virtual X server (Xvfb) with vargo as the program, so it starts the same command line a second
time as the ruler; the script opens the game in it (File > Open, through xdotool), goes to its
end and lets the engine play White (F5). While the engine thinks, GoGui draws its live view
(the game's marks, ownership, the principal variation, the win rate in the status bar); the
screen is saved as ``docs/gogui-VARIANT.png``. The position is the same on every run; the
live view depends on the machine's speed.

    python scripts/gogui_screenshots.py --gogui PATH [--out docs] [--variants loose disto]

PATH is a ``gogui.jar``, a GoGui installation or source tree holding ``lib/gogui.jar``, or a
GoGui source tree to build first (``ant gogui.jar``; needs a JDK and ant). Needs ``Xvfb``,
``xwd``, ``xdotool`` and ImageMagick's ``convert``. Nothing of GoGui is copied anywhere; GoGui's
preferences go to a temporary directory, so the user's own GoGui settings are not touched.
"""

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The game shown for each variant: the engine's command line (the ruler gets the same), the
#: number of self-play moves (odd: White is to play in GoGui), and what makes it worth a look.
SHOWCASES = {
    "loose": (["--variant", "loose", "--size", "9", "--seed", "4"], 21),
    "goncrete": (["--variant", "goncrete", "--size", "9", "--seed", "4"], 15),
    "disto": (["--variant", "disto", "--size", "9", "--seed", "4"], 31),
    "terrain": (["--variant", "terrain", "--size", "9", "--seed", "4", "--terrain-seed", "11",
                 "--forts", "auto"], 21),
}
SELF_PLAY_PLAYOUTS = 400
THINK_SECONDS = 12        #: White's move in GoGui: long enough to show the live view
SETTLE_SECONDS = 4        #: after the first live view, before the screenshot
SCREEN = "1280x1000x24"


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


# ----------------------------------------------------------------- the games
def self_play(args: List[str], moves: int, path: Path) -> None:
    """The engine plays ``moves`` moves against itself from the position the command line
    builds; the game is written to ``path`` as SGF."""
    import sgf
    from gtp_engine.cli import build_game, parse_options
    from gtp_engine.files import write_atomically
    from gtp_engine.gtp import GtpEngine
    options = parse_options(args + ["--playouts", str(SELF_PLAY_PLAYOUTS), "--threads", "1",
                                    "--quiet"])
    engine = GtpEngine(build_game(options), options.engine_settings())
    for turn in range(moves):
        color = "bw"[turn % 2]
        move = engine.run_command("genmove", [color])
        if move == "resign":
            raise SystemExit(f"{args}: the self-play game ended by resignation at move {turn + 1}")
    write_atomically(path, sgf.game_to_sgf(engine.game))
    log(f"{path.name}: {moves} moves, komi {engine.game.komi:g}")


# ----------------------------------------------------------------- GoGui
ICON_SIZES = (16, 24, 32, 48, 64)
SMALL_ICONS = ("gogui-black", "gogui-white", "gogui-setup")   # also 8x8


def render_icons(tree: Path) -> None:
    """GoGui's build takes PNG icons that its own svg.sh renders with inkscape from the SVGs in
    the tree; render the missing ones (rsvg-convert, else inkscape)."""
    images = tree / "src" / "net" / "sf" / "gogui" / "images"
    tool = shutil.which("rsvg-convert") or shutil.which("inkscape")
    for svg in sorted(images.glob("*.svg")):
        sizes = ICON_SIZES + ((8,) if svg.stem in SMALL_ICONS else ())
        for size in sizes:
            png = images / f"{svg.stem}-{size}x{size}.png"
            if png.exists():
                continue
            if tool is None:
                raise SystemExit("GoGui's icons need rsvg-convert (apt-get install librsvg2-bin) "
                                 "or inkscape")
            if tool.endswith("rsvg-convert"):
                subprocess.run([tool, "-w", str(size), "-h", str(size), "-o", str(png), str(svg)],
                               check=True)
            else:
                subprocess.run([tool, str(svg), f"--export-filename={png}",
                                f"--export-width={size}"], check=True)


def find_gogui(path: str) -> Path:
    """The gogui.jar for ``path``: a jar, an installation with lib/gogui.jar, or a source tree
    (built with ant, its icons rendered first, when its jar is missing or older than them)."""
    given = Path(path).expanduser().resolve()
    if given.is_file() and given.suffix == ".jar":
        return given
    jar = given / "lib" / "gogui.jar"
    if (given / "build.xml").is_file():
        render_icons(given)
        log(f"building GoGui in {given} (ant gogui.jar)")
        # doc-uptodate skips the manual, which needs docbook-xsl
        subprocess.run(["ant", "-Ddoc-uptodate=true", "gogui.jar"], cwd=given, check=True,
                       stdout=sys.stderr)
    if jar.is_file():
        return jar
    raise SystemExit(f"no gogui.jar in or at {path!r}")


def free_display() -> int:
    for number in range(90, 140):
        if not os.path.exists(f"/tmp/.X{number}-lock") and \
                not os.path.exists(f"/tmp/.X11-unix/X{number}"):
            return number
    raise SystemExit("no free X display number between :90 and :139")


class VirtualScreen:
    """Xvfb on a free display, ended on exit."""

    def __enter__(self):
        self.display = f":{free_display()}"
        self.process = subprocess.Popen(["Xvfb", self.display, "-br", "-screen", "0", SCREEN, "-nolisten",
                                         "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(f"/tmp/.X11-unix/X{self.display[1:]}"):
                break
            time.sleep(0.1)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait()

    def capture(self, path: Path) -> None:
        """The whole screen, cropped to what is drawn on it."""
        dump = subprocess.run(["xwd", "-root", "-silent", "-display", self.display],
                              check=True, capture_output=True).stdout
        subprocess.run(["convert", "xwd:-", "-trim", "+repage", str(path)], input=dump, check=True)


class GoGui:
    """GoGui on the virtual screen with ``engine`` attached (and, since the game is not Go, the
    same command line as ruler). ``-verbose`` makes GoGui echo the GTP stream and the
    programs' stderr on its own stderr, which tells when it is ready and when the engine draws
    a live view."""

    def __init__(self, jar: Path, screen: VirtualScreen, engine: str, komi: float,
                 prefs: Path):
        self.env = dict(os.environ, DISPLAY=screen.display)
        command = ["java", f"-Djava.util.prefs.userRoot={prefs}", "-jar", str(jar), "-verbose",
                   "-size", "9", "-komi", f"{komi:g}", "-computer-white", "-program", engine]
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, cwd=ROOT)
        self.lines: List[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        for raw in iter(self.process.stderr.readline, b""):
            with self.changed:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.changed.notify_all()

    def wait_for(self, test, after: int = 0, seconds: float = 180) -> int:
        """The index of the first line from ``after`` on that passes ``test``."""
        deadline = time.monotonic() + seconds
        with self.changed:
            while True:
                for index in range(after, len(self.lines)):
                    if test(self.lines[index]):
                        return index
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise SystemExit("GoGui did not get there; its last words:\n" +
                                     "\n".join(self.lines[-20:]))
                self.changed.wait(left)

    def xdotool(self, *args: str) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, check=True,
                              capture_output=True, text=True).stdout.strip()

    def main_window(self) -> str:
        return self.xdotool("search", "--name", "gtp_engine").split()[0]

    def keys(self, *keys: str) -> None:
        """Keys to GoGui's main window. Without a window manager the keyboard goes where the
        pointer is, and Swing wants one of its components focused: a click on the status bar
        (harmless) does that."""
        window = self.main_window()
        geometry = dict(line.split("=") for line in
                        self.xdotool("getwindowgeometry", "--shell", window).split())
        self.xdotool("mousemove", "--window", window, "60", str(int(geometry["HEIGHT"]) - 8),
                     "click", "1")
        time.sleep(0.5)
        self.xdotool("key", *keys)

    def open_file(self, path: Path) -> None:
        """File > Open after the program is attached: GoGui then replays the game to the
        program and the ruler (given on the command line, the file would be dropped for a new
        game once GoGui sees that the program's game is not Go)."""
        self.keys("ctrl+o")
        time.sleep(2)
        self.xdotool("type", "--delay", "20", str(path))
        self.xdotool("key", "Return")
        time.sleep(3)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def screenshot(jar: Path, screen: VirtualScreen, engine: str, komi: float, game: Path,
               picture: Path, prefs: Path) -> None:
    """GoGui with the engine attached opens ``game``, goes to its end and lets the engine play
    White; the screen is saved once the live view has been on for a while."""
    gogui = GoGui(jar, screen, engine, komi, prefs)
    try:
        attached = gogui.wait_for(lambda line: line.startswith(">> gogui-analyze_commands"))
        time.sleep(3)
        gogui.xdotool("windowsize", gogui.main_window(), "900", "700")
        time.sleep(1)
        gogui.open_file(game)
        gogui.keys("ctrl+End")                  # the last move
        time.sleep(2)
        start = len(gogui.lines)
        gogui.keys("F5")                        # the computer plays the side to move
        thinking = gogui.wait_for(lambda line: line.startswith(">> genmove"), start)
        gogui.wait_for(lambda line: "gogui-gfx:" in line and "CLEAR" not in line, thinking)
        time.sleep(SETTLE_SECONDS)
        screen.capture(picture)
        log(f"wrote {picture}")
    finally:
        gogui.close()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gogui", required=True,
                        help="gogui.jar, or a GoGui tree (built with ant when needed)")
    parser.add_argument("--out", default=str(ROOT / "docs"), help="where the PNGs go (docs/)")
    parser.add_argument("--variants", nargs="+", choices=sorted(SHOWCASES),
                        default=["loose", "goncrete", "disto", "terrain"])
    args = parser.parse_args(argv)
    for tool in ("java", "Xvfb", "xwd", "convert", "xdotool"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is needed (apt-get install default-jre xvfb x11-apps "
                             "imagemagick xdotool)")
    jar = find_gogui(args.gogui)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from gtp_engine.cli import build_game, parse_options
    with tempfile.TemporaryDirectory(prefix="vargo-shots-") as tmp, VirtualScreen() as screen:
        for variant in args.variants:
            engine_args, moves = SHOWCASES[variant]
            game_file = Path(tmp) / f"{variant}.sgf"
            self_play(engine_args, moves, game_file)
            komi = build_game(parse_options(engine_args)).komi
            engine = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "gtp_engine", *engine_args,
                                                      "--time", str(THINK_SECONDS), "--threads", "1"])
            prefs = Path(tmp) / f"prefs-{variant}"
            screenshot(jar, screen, engine, komi, game_file, out / f"gogui-{variant}.png", prefs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
