"""Screenshots of the browser board for README: one game of each kind in the page, saved as
``docs/web-<game>.png``, a game under review with a variation (``docs/web-review.png``) and the
page on a phone (``docs/web-phone.png``).

Usage: ``python scripts/web_screenshots.py [--out docs] [--playouts 300]``. Needs the ``web``
and ``test`` extras and Debian's ``chromium`` and ``chromium-driver``. Each game starts its own
``vargo-web`` server (in this process) and is played through the page as a person would: by
clicks, or by the engine on both sides, paused after a few moves.
"""

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from gtp_engine.web.server import BoardServer  # noqa: E402

WAIT = 300


def start_browser(profile: str, width: int, height: int):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--hide-scrollbars", f"--user-data-dir={profile}",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver), options=options)


class Page:
    def __init__(self, driver, url):
        self.d = driver
        driver.get(url)
        self.wait(lambda d: self.body("connected") == "true" and d.find_elements(By.CSS_SELECTOR, "rect.point"))

    def wait(self, condition):
        return WebDriverWait(self.d, WAIT, poll_frequency=0.1).until(condition)

    def body(self, name):
        return self.d.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")

    def new_game(self, variant, size, black="human", white="human", **fields):
        box = self.d.find_element(By.ID, "new-game-box")
        if not box.get_attribute("open"):
            box.find_element(By.TAG_NAME, "summary").click()
        Select(self.d.find_element(By.ID, "variant")).select_by_value(variant)
        for field, value in (("size", size), *fields.items()):
            element = self.d.find_element(By.ID, field.replace("_", "-"))
            if element.tag_name == "select":
                Select(element).select_by_value(str(value))
            else:
                element.clear()
                element.send_keys(str(value))
        Select(self.d.find_element(By.ID, "black")).select_by_value(black)
        Select(self.d.find_element(By.ID, "white")).select_by_value(white)
        self.d.find_element(By.ID, "start").click()
        engines = black == white == "engine"   # they may have moved before we look
        self.wait(lambda d: f"{size}×{size}" in d.find_element(By.ID, "status").text
                  and self.body("players") == f"{black} {white}"
                  and (engines or self.body("moves") == "0"))
        box.find_element(By.TAG_NAME, "summary").click()   # fold the form for the picture

    def click(self, *vertices):
        for vertex in vertices:
            moves = int(self.body("moves"))
            if vertex == "pass":
                self.d.find_element(By.ID, "pass").click()
            else:
                self.d.find_element(By.CSS_SELECTOR, f'rect.point[data-vertex="{vertex}"]').click()
            self.wait(lambda d: int(self.body("moves")) > moves)

    def engines_play(self, moves):
        """Both sides are engines: let them play ``moves`` moves, then pause."""
        self.wait(lambda d: int(self.body("moves")) >= moves)
        self.d.find_element(By.ID, "pause").click()
        self.wait(lambda d: self.d.find_element(By.ID, "pause").text == "Continue"
                  and not self.body("thinking"))

    def analyze(self):
        self.d.find_element(By.ID, "analyze").click()
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")) >= 3
                  and d.find_elements(By.CSS_SELECTOR, "rect.ownership"))
        time.sleep(3)   # a few more reports: steadier numbers

    def open_rules(self):
        """Unfold "How to play" (the game's rules, Terrain Go's legend, the rule marks)."""
        box = self.d.find_element(By.ID, "rules-box")
        if not box.get_attribute("open"):
            box.find_element(By.TAG_NAME, "summary").click()

    def goto(self, button, at):
        self.d.find_element(By.ID, button).click()
        self.wait(lambda d: self.body("at") == str(at))

    def shoot(self, path: Path):
        self.d.save_screenshot(str(path))
        print(f"wrote {path}")


LOOSE_FLIP = ["B3", "A3", "E5", "B4", "E1", "C4", "A1", "B2", "E2", "C2", "pass", "D3"]


def go(page):
    page.new_game("go", 9, black="engine", white="engine")
    page.engines_play(14)
    page.analyze()


def loose(page):
    page.new_game("loose", 9)
    page.click("G7", "G3", "C7", "E7", *LOOSE_FLIP)
    page.open_rules()   # false liberties marked


def goncrete(page):
    page.new_game("goncrete", 7)
    page.click("A1", "A2", "pass", "B1")
    page.wait(lambda d: page.body("over") == "true")


def disto(page):
    page.new_game("disto", 9)
    page.click("E5", "D4", "F4", "A2", "A1", "E3", "C3", "B1")
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "path.meal"))
    page.open_rules()   # gluttons marked


def terrain(page):
    page.new_game("terrain", 9, black="engine", white="engine", terrain_seed=5, forts="search")
    page.engines_play(10)
    page.open_rules()   # the legend: what each point is worth
    page.d.execute_script("document.getElementById('legend').scrollIntoView({block: 'end'})")


def review(page):
    """A game stepped back to move 6, where a variation was tried."""
    page.new_game("go", 9)
    page.click("E5", "C4", "E3", "G5", "F6", "D6", "C3", "D3", "D4")
    for _ in range(3):
        page.goto("back", int(page.body("at")) - 1)
    page.click("E4")
    page.d.find_element(By.CSS_SELECTOR, '#variations button.variation[data-index="0"]').click()
    page.wait(lambda d: page.body("line") == "9")


def phone(page):
    """A phone's page: the board the whole width, a stone shown by a first tap."""
    page.new_game("go", 9)
    for vertex in ("E5", "C4", "E3", "G5"):   # a tap shows the stone, the second plays it
        moves = int(page.body("moves"))
        for _ in range(2):
            page.d.find_element(By.CSS_SELECTOR, f'rect.point[data-vertex="{vertex}"]').click()
        page.wait(lambda d: int(page.body("moves")) > moves)
    page.d.find_element(By.CSS_SELECTOR, 'rect.point[data-vertex="F4"]').click()
    page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "circle.preview"))
    page.d.execute_script("window.scrollTo(0, 0)")   # clicks scrolled the point into view


GAMES = {"go": go, "loose": loose, "goncrete": goncrete, "disto": disto, "terrain": terrain,
         "review": review, "phone": phone}
#: the window of a picture that is not the desktop's
WINDOWS = {"phone": (390, 844)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=760)
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        driver = start_browser(profile, options.width, options.height)
        try:
            for name in options.games:
                server = BoardServer([sys.executable, "-m", "gtp_engine", "--playouts",
                                      str(options.playouts), "--seed", "1"])
                server.start_in_thread()
                try:
                    driver.set_window_size(*WINDOWS.get(name, (options.width, options.height)))
                    page = Page(driver, server.url)
                    GAMES[name](page)
                    page.shoot(options.out / f"web-{name}.png")
                finally:
                    server.stop_in_thread()
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
