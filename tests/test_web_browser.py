"""The browser board in a real browser: Debian's headless chromium driven by selenium (no
browser download), clicking the page as a player does. In CI (``CI`` set) a missing chromium
is a failure; elsewhere these tests are skipped without it."""

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from web_helpers import start_server

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import (ElementClickInterceptedException,  # noqa: E402
                                        ElementNotInteractableException,
                                        StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from gtp_engine.match.gtp_client import GtpEngine  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 120   # seconds: generous, the machine may be busy; a pass is usually far quicker
LOOSE_FLIP = ["B3", "A3", "E5", "B4", "E1", "C4", "A1", "B2", "E2", "C2", "pass", "D3"]

if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)) and not os.environ.get("CI"):
    pytest.skip("chromium and chromedriver are not installed (apt-get install chromium "
                "chromium-driver)", allow_module_level=True)


def chromium_options(profile: Path, downloads: Path, width: int = 1200, height: int = 900):
    """Headless chromium as root in a container: no sandbox, nothing fetched in the background,
    a fresh profile, downloads to ``downloads``."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    return options


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    downloads = tmp_path_factory.mktemp("downloads")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER),
                              options=chromium_options(tmp_path_factory.mktemp("profile"), downloads))
    driver.downloads = downloads
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def server():
    server = start_server("--size", "5")
    yield server
    server.stop_in_thread()


@pytest.fixture
def page(browser, server):
    browser.get(server.url)
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connected") == "true"
             and d.find_element(By.ID, "board").find_elements(By.CSS_SELECTOR, "rect.point"))
    return browser


def wait_for(driver, condition, what="the page"):
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(condition)
    except TimeoutException:
        message = driver.find_element(By.ID, "message").text
        raise AssertionError(f"waiting for {what}: status {driver.find_element(By.ID, 'status').text!r}, "
                             f"message {message!r}") from None


def on_fresh(driver, selector, action):
    """``action(element)`` on the first element of ``selector``, found again when the page
    replaced it meanwhile (the analysis table is rebuilt with every report)."""
    for _ in range(50):
        try:
            return action(driver.find_element(By.CSS_SELECTOR, selector))
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{selector} kept changing")


def body(driver, name):
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


def new_game(driver, variant, size, black="human", white="human", **fields):
    box = driver.find_element(By.ID, "new-game-box")
    if not box.get_attribute("open"):
        box.find_element(By.TAG_NAME, "summary").click()
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    for field, value in (("size", size), *fields.items()):
        element = driver.find_element(By.ID, field.replace("_", "-"))
        if element.tag_name == "select":
            Select(element).select_by_value(str(value))
        else:
            element.clear()
            element.send_keys(str(value))
    Select(driver.find_element(By.ID, "black")).select_by_value(black)
    Select(driver.find_element(By.ID, "white")).select_by_value(white)
    driver.find_element(By.ID, "start").click()
    if driver.find_element(By.ID, "confirm").is_displayed():   # a game was going: abandon it
        driver.find_element(By.ID, "confirm-yes").click()
    engines = black == white == "engine"   # they may have moved before we look
    wait_for(driver, lambda d: f"{size}×{size}" in d.find_element(By.ID, "status").text
             and body(d, "players") == f"{black} {white}"
             and (engines or body(d, "moves") == "0") and d.find_elements(By.CSS_SELECTOR, f'rect.point[data-vertex="A{size}"]'),
             f"a new {variant} game")


def click(driver, vertex):
    moves = int(body(driver, "moves"))
    if vertex == "pass":
        driver.find_element(By.ID, "pass").click()
    else:
        driver.find_element(By.CSS_SELECTOR, f'rect.point[data-vertex="{vertex}"]').click()
    wait_for(driver, lambda d: int(body(d, "moves")) > moves, f"the move {vertex}")


def stones(driver):
    # read in one script, so that a redraw between two reads cannot leave a stale element
    found = driver.execute_script(
        "return Array.from(document.querySelectorAll('circle.stone'),"
        " e => [e.getAttribute('data-vertex'), e.getAttribute('class')]);")
    return {(vertex, classes.split()[1]) for vertex, classes in found}


def marked(driver, selector):
    """The points of the board's shapes of ``selector`` (the legend's pictures are not the board)."""
    return sorted(driver.execute_script(
        "return Array.from(document.getElementById('board').querySelectorAll(arguments[0]),"
        " e => e.getAttribute('data-vertex'));", selector))


# ----------------------------------------------------------------- the games
def test_a_loose_game_played_by_clicks_shows_the_flip(page):
    new_game(page, "loose", 5)
    for vertex in LOOSE_FLIP[:-1]:
        click(page, vertex)
    assert ("B3", "b") in stones(page) and not marked(page, "circle.flipped")
    click(page, "D3")
    assert ("B3", "w") in stones(page)
    assert marked(page, "circle.flipped") == ["B3"]
    assert marked(page, "circle.last-move") == ["D3"]
    assert "flipped B3" in page.find_element(By.ID, "last-move").text
    page.find_element(By.CSS_SELECTOR, 'rect.point[data-vertex="D3"]').click()   # occupied
    wait_for(page, lambda d: "occupied" in d.find_element(By.ID, "message").text, "the refusal")
    assert body(page, "moves") == str(len(LOOSE_FLIP))


def test_a_disto_meal_is_marked(page):
    new_game(page, "disto", 5)
    for vertex in ("A1", "A2", "C3"):
        click(page, vertex)
    assert not marked(page, "path.meal")
    click(page, "B1")
    assert marked(page, "path.meal") == ["A1"]
    assert ("A1", "b") in stones(page)      # a meal stays on the board
    assert "made a meal of A1" in page.find_element(By.ID, "last-move").text


def test_a_terrain_go_map_is_drawn_with_its_forts(page):
    new_game(page, "terrain", 9, terrain_seed=5, forts="search")
    wait_for(page, lambda d: len(marked(d, "path.fort")) == 4, "the four forts")
    expected = GtpEngine([sys.executable, "-m", "gtp_engine", "--variant", "terrain", "--size", "9"])
    try:
        expected.send("terrain_generate 5")
        terrain = expected.send("terrain_show").split()[0]
    finally:
        expected.kill()
    rows = terrain.split("/")
    points = {(f"{'ABCDEFGHJ'[c]}{9 - r}", ch) for r, row in enumerate(rows) for c, ch in enumerate(row)}
    assert marked(page, "polygon.mountain") == sorted(v for v, ch in points if ch == "^")
    assert marked(page, "rect.water") == sorted(v for v, ch in points if ch == "~")
    forts = marked(page, "path.fort")
    assert all((v, ".") in points for v in forts)     # on plain points
    assert len(marked(page, "path.fort.w")) == len(marked(page, "path.fort.b")) == 2
    assert "Black to move" in page.find_element(By.ID, "status").text


def test_a_goncrete_annihilation_ends_the_game(page):
    new_game(page, "goncrete", 5)
    for vertex in ("A1", "A2", "pass"):
        click(page, vertex)
    assert body(page, "over") == "false"
    click(page, "B1")
    wait_for(page, lambda d: body(d, "over") == "true", "the end of the game")
    status = page.find_element(By.ID, "status").text
    assert "Game over: W+" in status and "annihilation" in status
    assert page.find_element(By.ID, "pass").get_attribute("disabled")


def test_analysis_shading_appears_and_stops(page):
    new_game(page, "go", 5)
    click(page, "C3")
    assert not page.find_element(By.ID, "analysis").is_displayed()   # nothing to show yet
    board_box = page.find_element(By.ID, "board").rect
    page.find_element(By.ID, "analyze").click()
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "rect.ownership")
             and d.find_elements(By.CSS_SELECTOR, "g.candidate"), "ownership shading")
    rows = page.find_elements(By.CSS_SELECTOR, "#candidates tbody tr")
    assert rows and "%" in rows[0].text
    assert page.find_element(By.ID, "board").rect == board_box     # the board did not move
    hover = lambda row: webdriver.ActionChains(page).move_to_element(row).perform()  # noqa: E731
    on_fresh(page, "#candidates tbody tr", hover)
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "g.pv > g"), "the principal variation on hover")
    webdriver.ActionChains(page).move_to_element(page.find_element(By.ID, "status")).perform()
    assert not page.find_elements(By.CSS_SELECTOR, "g.pv > g")
    on_fresh(page, "#candidates tbody tr", lambda row: row.click())   # a tap: no hover
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "g.pv > g")
             and d.find_elements(By.CSS_SELECTOR, "#candidates tbody tr.pinned"),
             "the principal variation pinned by a click")
    time.sleep(1)   # it stays through the next reports, with the pointer elsewhere
    assert page.find_elements(By.CSS_SELECTOR, "g.pv > g")
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#graph circle.graph-point"), "the win rate graph")
    page.find_element(By.ID, "analyze").click()
    wait_for(page, lambda d: not d.find_elements(By.CSS_SELECTOR, "rect.ownership")
             and d.find_element(By.ID, "analyze").text == "Analyze", "the analysis to stop")
    time.sleep(1)   # no late report brings the shading back
    assert not page.find_elements(By.CSS_SELECTOR, "rect.ownership")
    click(page, "B2")   # the engine answers moves again


def test_sgf_saved_and_opened_again(page):
    new_game(page, "loose", 5, black="human", white="engine")
    click(page, "C3")
    wait_for(page, lambda d: body(d, "moves") == "2", "the engine's reply")
    click(page, "B2" if ("B2", "w") not in stones(page) and ("B2", "b") not in stones(page) else "D4")
    wait_for(page, lambda d: body(d, "moves") == "4", "the engine's second reply")
    before = stones(page)
    for old in page.downloads.glob("*.sgf"):
        old.unlink()
    page.find_element(By.ID, "save").click()
    files = wait_for(page, lambda d: [p for p in page.downloads.glob("*.sgf") if p.stat().st_size], "the download")
    text = files[0].read_text()
    assert "VR[loose]" in text and "SZ[5]" in text
    new_game(page, "go", 5)
    assert not stones(page)
    page.find_element(By.ID, "open-file").send_keys(str(files[0]))
    wait_for(page, lambda d: body(d, "moves") == "4", "the opened game")
    assert stones(page) == before
    assert "Loose 5×5" in page.find_element(By.ID, "status").text


def test_a_dead_engine_shows_and_restarts_with_the_game(page, server):
    new_game(page, "loose", 5)
    for vertex in ("C3", "B2"):
        click(page, vertex)
    before = stones(page)
    os.kill(server.controller.engine.pid, 9)
    page.find_element(By.CSS_SELECTOR, 'rect.point[data-vertex="D4"]').click()
    wait_for(page, lambda d: d.find_element(By.ID, "dead").is_displayed(), "the dead engine's notice")
    assert "stopped" in page.find_element(By.ID, "dead-text").text
    page.find_element(By.ID, "restart").click()
    wait_for(page, lambda d: not d.find_element(By.ID, "dead").is_displayed() and body(d, "dead") == "false",
             "the restarted engine")
    assert stones(page) == before and body(page, "moves") == "2"
    click(page, "D4")


# ----------------------------------------------------------------- rough edges
def test_an_error_goes_when_undo_makes_it_untrue(page):
    new_game(page, "go", 5)
    click(page, "C3")
    page.find_element(By.CSS_SELECTOR, 'rect.point[data-vertex="C3"]').click()
    wait_for(page, lambda d: "occupied" in d.find_element(By.ID, "message").text, "the refusal")
    page.find_element(By.ID, "undo").click()
    wait_for(page, lambda d: body(d, "moves") == "0", "the undo")
    assert not page.find_element(By.ID, "message").is_displayed()


def test_resign_and_abandoning_a_game_ask_first(page):
    new_game(page, "go", 5)
    click(page, "C3")
    page.find_element(By.ID, "resign").click()
    assert "Resign" in page.find_element(By.ID, "confirm-text").text
    page.find_element(By.ID, "confirm-no").click()
    time.sleep(0.5)
    assert body(page, "over") == "false" and not page.find_element(By.ID, "confirm").is_displayed()
    box = page.find_element(By.ID, "new-game-box")
    if not box.get_attribute("open"):
        box.find_element(By.TAG_NAME, "summary").click()
    page.find_element(By.ID, "start").click()
    assert "Abandon" in page.find_element(By.ID, "confirm-text").text
    page.find_element(By.ID, "confirm-no").click()
    time.sleep(0.5)
    assert body(page, "moves") == "1"
    page.find_element(By.ID, "resign").click()
    page.find_element(By.ID, "confirm-yes").click()
    wait_for(page, lambda d: body(d, "over") == "true", "the resignation")
    assert "Game over: B+R" in page.find_element(By.ID, "status").text   # White, to move, resigned


def clock_texts(driver):
    return driver.find_element(By.ID, "clock-b").text, driver.find_element(By.ID, "clock-w").text


def test_a_paused_clock_does_not_run(page, server):
    # 9x9: on 5x5 the compiled engines can end their game before Pause is clicked
    new_game(page, "go", 9, black="engine", white="engine", main_time=1)
    wait_for(page, lambda d: int(body(d, "moves")) >= 2, "the engines' first moves")
    page.find_element(By.ID, "pause").click()
    wait_for(page, lambda d: body(d, "paused") == "true" and body(d, "thinking") == "", "the pause")
    time.sleep(0.5)   # the move under way when Pause came has landed
    before, moves = clock_texts(page), body(page, "moves")
    assert server.controller.clock.running is None
    time.sleep(3)
    assert clock_texts(page) == before and body(page, "moves") == moves
    assert page.find_element(By.ID, "pause").text == "Continue"
    page.find_element(By.ID, "pause").click()
    wait_for(page, lambda d: int(body(d, "moves")) > int(moves) or body(d, "over") == "true",
             "the game going on")
    try:   # paused again, so that no move lands while the next game starts
        page.find_element(By.ID, "pause").click()
        wait_for(page, lambda d: body(d, "paused") == "true" and body(d, "thinking") == "",
                 "the second pause")
    except (ElementNotInteractableException, ElementClickInterceptedException):
        wait_for(page, lambda d: body(d, "over") == "true", "the end that hid Pause")
    new_game(page, "go", 5, main_time=0.01)    # 0.6 s for Black, who does not move
    assert page.find_element(By.ID, "pause").is_displayed()
    wait_for(page, lambda d: body(d, "over") == "true", "Black's time running out")
    assert "W+T" in page.find_element(By.ID, "status").text
    assert not page.find_element(By.ID, "pause").is_displayed()   # nothing to continue
    assert clock_texts(page)[0] == "0:00"


# ----------------------------------------------------------------- review
def boards_along(moves, variant, size):
    """The stones after each number of ``moves`` (0 to all), from an engine of our own."""
    engine = GtpEngine([sys.executable, "-m", "gtp_engine", "--playouts", "20"])
    try:
        engine.send("variant go")
        engine.send(f"boardsize {size}")
        engine.send(f"variant {variant}")
        engine.send("clear_board")
        boards = []
        for i in range(len(moves) + 1):
            rows = [line.split() for line in engine.send("gogui-rules_board").splitlines() if line.strip()]
            boards.append({(f"{'ABCDEFGHJ'[c]}{size - r}", {"X": "b", "O": "w"}[p])
                           for r, row in enumerate(rows) for c, p in enumerate(row) if p in "XO"})
            if i < len(moves):
                engine.send(f"play {moves[i][0]} {moves[i][1]}")
        return boards
    finally:
        engine.kill()


def press(driver, key):
    at = body(driver, "at")
    webdriver.ActionChains(driver).send_keys(key).perform()
    wait_for(driver, lambda d: body(d, "at") != at, f"the key {key!r}")


def test_a_game_reviewed_move_by_move_with_keys_and_buttons(page):
    from selenium.webdriver.common.keys import Keys
    new_game(page, "loose", 5)
    for vertex in LOOSE_FLIP:
        click(page, vertex)
    moves = [("bw"[i % 2], v) for i, v in enumerate(LOOSE_FLIP)]
    boards = boards_along(moves, "loose", 5)
    items = page.find_elements(By.CSS_SELECTOR, "#move-list li")
    assert [e.text for e in items[:2]] == ["1. B B3", "2. W A3"] and len(items) == 12
    page.find_element(By.ID, "status").click()   # the keys go to the page, not a form field
    press(page, Keys.HOME)
    assert body(page, "at") == "0" and not stones(page)
    for number in range(1, len(moves) + 1):
        press(page, Keys.ARROW_RIGHT)
        assert body(page, "at") == str(number)
        assert stones(page) == boards[number], number
        current = page.find_element(By.CSS_SELECTOR, "#move-list li.current")
        assert current.get_attribute("data-number") == str(number)
    assert marked(page, "circle.flipped") == ["B3"]     # the engine's marks at that move
    press(page, Keys.ARROW_LEFT)
    assert stones(page) == boards[11] and not marked(page, "circle.flipped")
    page.find_element(By.ID, "first").click()
    wait_for(page, lambda d: body(d, "at") == "0", "the start")
    page.find_element(By.ID, "forward").click()
    wait_for(page, lambda d: body(d, "at") == "1", "one move forward")
    page.find_elements(By.CSS_SELECTOR, "#move-list li")[3].click()
    wait_for(page, lambda d: body(d, "at") == "4", "the click on move 4")
    assert stones(page) == boards[4] and "Move 4 of 12" in page.find_element(By.ID, "status").text
    click(page, "D2")                          # play resumes here, as a variation
    assert body(page, "line") == "5" and body(page, "at") == "5"
    assert page.find_elements(By.CSS_SELECTOR, "#move-list li.branch")
    choices = page.find_elements(By.CSS_SELECTOR, "#variations button.variation")
    assert [c.text for c in choices] == ["B E1", "B D2"]
    choices[0].click()
    wait_for(page, lambda d: body(d, "line") == "12", "the game's own line again")
    page.find_element(By.ID, "end").click()
    wait_for(page, lambda d: body(d, "at") == "12", "the end")
    assert stones(page) == boards[12]


def test_an_sgf_with_variations_opened_and_browsed(page, tmp_path):
    path = tmp_path / "variations.sgf"
    path.write_text("(;GM[1]FF[4]VR[go]SZ[5]KM[0.5];B[cc];W[bb](;B[dd];W[bd];B[ab])(;B[db];W[dc]))")
    new_game(page, "go", 5)
    page.find_element(By.ID, "open-file").send_keys(str(path))
    wait_for(page, lambda d: body(d, "line") == "5" and body(d, "at") == "5", "the opened game")
    main = boards_along([("b", "C3"), ("w", "B4"), ("b", "D2"), ("w", "B2"), ("b", "A4")], "go", 5)
    side = boards_along([("b", "C3"), ("w", "B4"), ("b", "D4"), ("w", "D3")], "go", 5)
    assert stones(page) == main[5]
    page.find_element(By.ID, "first").click()
    wait_for(page, lambda d: body(d, "at") == "0", "the start")
    for number in range(1, 6):
        page.find_element(By.ID, "forward").click()
        wait_for(page, lambda d: body(d, "at") == str(number), f"move {number}")
        assert stones(page) == main[number]
    page.find_element(By.CSS_SELECTOR, '#variations button.variation[data-index="1"]').click()
    wait_for(page, lambda d: body(d, "line") == "4", "the variation")
    assert body(page, "at") == "2" and stones(page) == side[2]
    for number in (3, 4):
        page.find_element(By.ID, "forward").click()
        wait_for(page, lambda d: body(d, "at") == str(number), f"variation move {number}")
        assert stones(page) == side[number]


# ----------------------------------------------------------------- the score and the rules
def engine_count(variant, size, moves, setup=()):
    """``gogui-rules_final_result``'s totals after ``moves``, from an engine of our own."""
    engine = GtpEngine([sys.executable, "-m", "gtp_engine", "--playouts", "20"])
    try:
        engine.send("variant go")
        engine.send(f"boardsize {size}")
        engine.send(f"variant {variant}")
        for command in setup:
            engine.send(command)
        engine.send("clear_board")
        for color, vertex in moves:
            engine.send(f"play {color} {vertex}")
        result, _, rest = engine.send("gogui-rules_final_result").partition(":")
        black, white = (part.split()[1] for part in rest.split("(")[0].split(","))
        return result.strip(), black, white
    finally:
        engine.kill()


@pytest.mark.parametrize("variant, size, vertices, parts", [
    ("go", 5, ["A2", "D4", "B1"], ["Black 3 (stones 2, territory 1)"]),    # A1 is Black's
    ("loose", 5, LOOSE_FLIP, ["Black 4 (stones 4)", "White 13 (stones 7, komi 6)"]),   # B3 flipped
    ("goncrete", 5, ["A2", "D4", "B1"], ["Black 3 (stones 2, territory 1)"]),
    ("disto", 5, ["A1", "A2", "C3", "B1"], ["1 in meals, not counted"]),
])
def test_the_score_is_shown_live_in_each_game(page, variant, size, vertices, parts):
    new_game(page, variant, size)
    for vertex in vertices:
        click(page, vertex)
    moves = [("bw"[i % 2], v) for i, v in enumerate(vertices)]
    result, black, white = engine_count(variant, size, moves)
    shown = page.find_element(By.ID, "score").text
    assert f"Black {black}" in shown and f"White {white}" in shown and f"Counted now: {result}" in shown
    assert all(part in shown for part in parts), shown


def test_terrain_go_shows_its_score_and_a_legend_of_what_points_are_worth(page):
    new_game(page, "terrain", 9, terrain_seed=5, forts="search")
    wait_for(page, lambda d: len(marked(d, "path.fort")) == 4, "the four forts")
    wait_for(page, lambda d: "Black to move" in d.find_element(By.ID, "status").text, "the first move")
    legal = [v for v in ("C3", "G7", "C7", "G3", "E5", "D5", "F5")
             if not page.find_elements(By.CSS_SELECTOR, f'[data-vertex="{v}"]:not(rect.point)')]
    for vertex in legal[:2]:
        click(page, vertex)
    shown = page.find_element(By.ID, "score").text
    assert "Black" in shown and "White" in shown and "komi" in shown and "Counted now: " in shown
    box = page.find_element(By.ID, "rules-box")
    box.find_element(By.TAG_NAME, "summary").click()
    assert "Terrain Go" in box.text and "mountain" in page.find_element(By.ID, "how-to-play").text
    legend = {row.get_attribute("data-kind"): row.text
              for row in page.find_elements(By.CSS_SELECTOR, ".legend-row")}
    assert legend["water"].endswith("1.5 points") and legend["mountain"].endswith("0 points")
    assert legend["plain"].endswith("1 point") and legend["fort"].endswith("3 points")   # 12·81/361
    box.find_element(By.TAG_NAME, "summary").click()


def test_loose_false_liberties_and_disto_gluttons_are_marked_on_demand(page):
    new_game(page, "loose", 5)
    for vertex in LOOSE_FLIP[:-1]:
        click(page, vertex)
    box = page.find_element(By.ID, "rules-box")
    box.find_element(By.TAG_NAME, "summary").click()
    toggle = page.find_element(By.ID, "show-rules")
    assert "false liberties" in page.find_element(By.ID, "rule-marks-toggle").text
    # A2 touches black A1, white A3 and B2, and no empty point
    assert marked(page, "circle.false-liberty") == ["A2"]
    toggle.click()
    assert not marked(page, "circle.false-liberty")
    toggle.click()
    new_game(page, "disto", 5)
    for vertex in ("A1", "A2", "C3", "B1"):
        click(page, vertex)
    assert "gluttons" in page.find_element(By.ID, "rule-marks-toggle").text
    assert marked(page, "circle.glutton") == ["A2", "B1"]      # beside the meal A1
    box.find_element(By.TAG_NAME, "summary").click()


# ----------------------------------------------------------------- a phone
def test_a_phone_sized_page_previews_a_tap_and_plays_the_second(page):
    page.set_window_size(390, 844)
    try:
        new_game(page, "go", 9)
        board_box, panel = page.find_element(By.ID, "board").rect, page.find_element(By.ID, "panel").rect
        width = page.execute_script("return document.documentElement.clientWidth")
        assert board_box["width"] >= 0.9 * width and board_box["x"] + board_box["width"] <= width
        assert panel["y"] >= board_box["y"] + board_box["height"]        # the panel below the board
        page.find_element(By.CSS_SELECTOR, 'rect.point[data-vertex="C3"]').click()
        assert marked(page, "circle.preview") == ["C3"] and body(page, "moves") == "0"
        assert "tap it again" in page.find_element(By.ID, "hint").text
        page.find_element(By.CSS_SELECTOR, 'rect.point[data-vertex="D4"]').click()   # changed my mind
        assert marked(page, "circle.preview") == ["D4"] and body(page, "moves") == "0"
        click(page, "D4")                                                  # the second tap plays
        assert ("D4", "b") in stones(page) and not marked(page, "circle.preview")
        assert not page.find_element(By.ID, "hint").is_displayed()
        size = page.find_element(By.ID, "undo").rect
        assert size["height"] >= 40 and size["width"] >= 40                # a finger's size
    finally:
        page.set_window_size(1200, 900)
