"""The browser board's server without a browser: the token, the messages it refuses (and that
they change nothing), the engine's death and its restart with the game replayed, the engine
ending with the server, and another GTP engine (GNU Go) driven the same way."""

import json
import os
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request

from pathlib import Path

import pytest

from web_helpers import ENGINE, Client, start_server, websocket

from gtp_engine.web.controller import parse_analysis
from gtp_engine.web.server import BadMessage, BoardServer, parse_message

LOOSE_FLIP = ["B3", "A3", "E5", "B4", "E1", "C4", "A1", "B2", "E2", "C2", "pass", "D3"]


@pytest.fixture(scope="module")
def server():
    server = start_server("--variant", "loose", "--size", "5")
    yield server
    server.stop_in_thread()


@pytest.fixture
def client(server):
    client = Client(server)
    client.send(type="new_game", variant="loose", size=5, black="human", white="human")
    client.until("state", lambda m: m["size"] == 5 and not m["moves"])
    yield client
    client.close()


def play(client, *vertices):
    for vertex in vertices:
        count = len(client.state["moves"])
        client.send(type="play", vertex=vertex)
        client.until("state", lambda m: len(m["moves"]) == count + 1)
    return client.state


def http_status(url):
    try:
        with urllib.request.urlopen(url) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


# ----------------------------------------------------------------- the token
def test_every_address_needs_the_token(server):
    base = server.url[:-len(server.token) - 1]
    token = server.token
    assert http_status(server.url) == 200
    assert http_status(server.url + "static/app.js") == 200
    one_off = ("y" if token[0] == "x" else "x") + token[1:]
    for address in (base, base + "static/app.js", base + one_off + "/", base + one_off + "/static/app.js",
                    base + server.token[:-1] + "/ws", base + "ws"):
        assert http_status(address) == 403, address


def test_the_websocket_needs_the_token_and_our_origin(server):
    wrong = server.url.replace(server.token, "a" * len(server.token)).replace("http://", "ws://") + "ws"
    with pytest.raises(websocket.WebSocketBadStatusException) as err:
        websocket.create_connection(wrong, timeout=10, suppress_origin=True)
    assert err.value.status_code == 403
    with pytest.raises(websocket.WebSocketBadStatusException) as err:
        Client(server, origin="http://evil.example")
    assert err.value.status_code == 403
    Client(server, origin=server.url.rstrip("/").rsplit("/", 1)[0]).close()


def test_the_server_listens_on_this_machine_only_by_default(server):
    assert server.host == "127.0.0.1" and server.url.startswith("http://127.0.0.1:")


# ----------------------------------------------------------------- messages
@pytest.mark.parametrize("text, why", [
    ("nonsense", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "launch"}', "unknown message type 'launch'"),
    ('{"vertex": "D4"}', "unknown message type"),
    ('{"type": "play"}', "play needs vertex"),
    ('{"type": "play", "vertex": "Z99"}', "vertex must be a vertex"),
    ('{"type": "play", "vertex": "I3"}', "vertex must be a vertex"),
    ('{"type": "play", "vertex": "D4; quit"}', "vertex must be a vertex"),
    ('{"type": "play", "vertex": "D4\\nquit"}', "vertex must be a vertex"),
    ('{"type": "play", "vertex": 4}', "vertex must be a vertex"),
    ('{"type": "play", "vertex": "D4", "color": "w"}', "play takes no field 'color'"),
    ('{"type": "new_game", "variant": "chess", "size": 9}', "variant must be one of"),
    ('{"type": "new_game", "variant": "go", "size": 26}', "size must be an integer from 2 to 25"),
    ('{"type": "new_game", "variant": "go", "size": true}', "size must be"),
    ('{"type": "new_game", "variant": "go", "size": 9, "komi": NaN}', "komi must be"),
    ('{"type": "new_game", "variant": "go", "size": 9, "black": "robot"}', "black must be"),
    ('{"type": "new_game", "variant": "terrain", "size": 9, "fair_komi": "yes"}', "fair_komi must be true or false"),
    ('{"type": "analyze", "on": "yes"}', "on must be true or false"),
    ('{"type": "open", "sgf": 5}', "sgf must be the text"),
])
def test_bad_messages_are_refused_with_the_reason(text, why):
    with pytest.raises(BadMessage, match=why):
        parse_message(text)


def test_good_messages_pass():
    assert parse_message('{"type": "play", "vertex": "pass"}')["vertex"] == "pass"
    assert parse_message('{"type": "new_game", "variant": "terrain", "size": 9, "komi": null, '
                         '"terrain_seed": 3, "forts": "search"}')["terrain_seed"] == 3


def test_bad_messages_over_the_websocket_change_nothing(client):
    before = play(client, "C3", "B2")
    for text in ("nonsense", '{"type": "play", "vertex": "D4; quit"}', '{"type": "undo", "all": true}',
                 json.dumps({"type": "open", "sgf": "x" * (2 * 1024 * 1024)})[:1024 * 1024]):
        client.send_raw(text)
    client.ws.send_binary(b"\x00\x01")
    after = client.settled()
    assert len(client.errors) == 5 and all(e.startswith("bad message") or "JSON text" in e
                                           for e in client.errors)
    assert after["board"] == before["board"] and after["moves"] == before["moves"]


def test_an_illegal_click_is_refused_with_the_engines_reason(client):
    play(client, "C3")
    client.send(type="play", vertex="C3")
    assert "occupied" in client.until("error")["message"]
    assert client.settled()["moves"] == [["b", "C3"]]


def test_a_flip_comes_back_in_the_state(client):
    state = play(client, *LOOSE_FLIP)
    assert state["last"] == {"color": "w", "vertex": "D3", "flipped": ["B3"]}
    assert state["board"][2][1] == "w"   # B3, third row from the top, now white


def test_a_bad_sgf_is_refused_and_the_game_stays(client):
    before = play(client, "C3")
    client.send(type="open", sgf="(;GM[1]SZ[5]VR[chess];B[cc])")
    assert "sgf" in client.until("error")["message"]
    after = client.settled()
    assert after["moves"] == before["moves"] and after["board"] == before["board"]


# ----------------------------------------------------------------- the engine's death
def test_a_dead_engine_is_reported_and_restarted_with_the_game(server, client):
    before = play(client, *LOOSE_FLIP)
    os.kill(server.controller.engine.pid, 9)
    client.send(type="play", vertex="E3")
    assert "stopped" in client.until("error")["message"]
    dead = client.until("state")
    assert dead["dead"] and dead["moves"] == before["moves"]
    client.send(type="play", vertex="E3")      # refused while dead, nothing changes
    assert "restart" in client.until("error")["message"]
    client.send(type="restart")
    after = client.until("state", lambda m: not m["dead"])
    assert after["board"] == before["board"] and after["moves"] == before["moves"]
    assert after["last"] == before["last"]      # the new process has the same last move
    play(client, "E3")


def test_the_engine_ends_with_the_server():
    server = start_server("--size", "5")
    engine = server.controller.engine
    assert engine.alive
    server.stop_in_thread()
    assert engine.process.poll() is not None


# ----------------------------------------------------------------- analysis lines
def test_kata_analyze_lines_are_read_from_blacks_side():
    line = ("info move C3 visits 10 winrate 0.250000 scoreLead -2.5 order 0 pv C3 B2 "
            "info move B2 visits 5 winrate 0.5 scoreLead 0 order 1 pv B2 "
            "ownership " + " ".join(["1.0"] * 4))
    info = parse_analysis(line, 2, "w")
    assert [m["move"] for m in info["moves"]] == ["C3", "B2"]
    assert info["moves"][0]["pv"] == ["C3", "B2"]
    assert info["winrate"] == 0.75 and info["moves"][0]["lead"] == 2.5
    assert info["ownership"] == [-1.0] * 4 and info["visits"] == 15


def test_analysis_streams_and_stops(client):
    play(client, "C3")
    client.send(type="analyze", on=True)
    report = client.until("analysis", lambda m: m.get("ownership"))
    assert report["moves"] and len(report["ownership"]) == 25
    client.send(type="analyze", on=False)
    client.until("analysis", lambda m: m.get("stopped"))
    state = client.settled()
    assert not state["analysis_on"] and state["winrates"].get("1") is not None
    play(client, "B2")   # the engine answers commands again


# ----------------------------------------------------------------- another engine
@pytest.mark.skipif(not shutil.which("gnugo") and not os.path.exists("/usr/games/gnugo"),
                    reason="GNU Go is not installed")
def test_gnu_go_plays_go_on_the_board():
    gnugo = shutil.which("gnugo") or "/usr/games/gnugo"
    server = start_server(command=[gnugo, "--mode", "gtp", "--level", "1"])
    try:
        client = Client(server)
        client.send(type="new_game", variant="go", size=9, black="human", white="engine", komi=5.5)
        client.until("state", lambda m: m["size"] == 9 and not m["moves"])
        client.send(type="play", vertex="E5")
        state = client.until("state", lambda m: len(m["moves"]) == 2)
        assert state["board"][4][4] == "b" and sum(row.count("w") for row in state["board"]) == 1
        assert state["komi"] == 5.5 and state["to_move"] == "b"
        client.send(type="new_game", variant="loose", size=9)
        assert "plays go only" in client.until("error")["message"].lower()
        client.close()
    finally:
        server.stop_in_thread()


# ----------------------------------------------------------------- against the engine, clocks, forts
def test_undo_takes_back_the_engines_reply_too_and_resign_ends(client):
    client.send(type="new_game", variant="loose", size=5, black="human", white="engine")
    client.until("state", lambda m: not m["moves"] and m["players"]["w"] == "engine")
    client.send(type="play", vertex="C3")
    state = client.until("state", lambda m: len(m["moves"]) == 2)
    assert state["moves"][1][0] == "w" and state["to_move"] == "b"
    client.send(type="undo")
    state = client.until("state", lambda m: not m["moves"])
    assert state["to_move"] == "b" and all(p == "." for row in state["board"] for p in row)
    client.send(type="resign")
    assert client.until("state", lambda m: m["result"])["result"]["result"] == "W+R"
    client.send(type="play", vertex="C3")
    assert "over" in client.until("error")["message"]


def test_a_side_whose_time_runs_out_loses(client):
    client.send(type="new_game", variant="go", size=5, black="human", white="human",
                main_time=0.3, byo_yomi=0)
    state = client.until("state", lambda m: m["clock"] and m["clock"]["running"] == "b")
    assert state["clock"]["left"]["b"] <= 0.3
    state = client.until("state", lambda m: m["result"])
    assert state["result"]["result"] == "W+T" and "time" in state["result"]["text"]


def test_forts_by_hand_each_side_its_own(client):
    client.send(type="new_game", variant="terrain", size=9, terrain_seed=5, forts="hand",
                black="human", white="engine")
    state = client.until("state", lambda m: m["fort_turn"] == "b")
    assert list(state["marks"]["forts"].values()) == ["w"]   # the engine placed White's first
    client.send(type="play", vertex="pass")
    assert "fort" in client.until("error")["message"]
    taken = set(state["marks"]["mountains"]) | set(state["marks"]["water"])
    candidates = [f"{c}{r}" for r in range(1, 10) for c in "ABCDEFGHJ"]
    placed = 0
    while placed < 2:
        vertex = candidates.pop()
        if vertex in taken or vertex in client.state["marks"]["forts"]:
            continue
        errors = len(client.errors)
        client.send(type="play", vertex=vertex)
        state = client.settled()
        if len(client.errors) == errors:
            assert state["marks"]["forts"][vertex] == "b"
            placed += 1
            if placed == 1:
                state = client.until("state", lambda m: m["fort_turn"] == "b")
    state = client.until("state", lambda m: m["fort_turn"] is None)
    assert sorted(state["marks"]["forts"].values()) == ["b", "b", "w", "w"]
    assert state["to_move"] == "b" and state["legal"]



def test_a_terrain_map_gets_its_fair_komi_once_the_forts_are_placed(client):
    # a komi no 9x9 map is worth, which the engine's estimate must replace
    client.send(type="new_game", variant="terrain", size=9, terrain_seed=5, forts="search",
                komi=100, fair_komi=True, black="human", white="human")
    state = client.until("state", lambda m: m["variant"] == "terrain")
    assert state["komi"] == 100
    thinking = client.until("thinking", lambda m: "fair komi" in (m.get("note") or ""))
    assert thinking["color"] == "b"                       # after the forts, before the first stone
    assert thinking["komi"] is True                       # the page says so without reading words
    state = client.until("state", lambda m: m["fort_turn"] is None and m["komi"] != 100)
    assert len(state["marks"]["forts"]) == 4 and not state["moves"]
    komi = state["komi"]
    assert -30 < komi < 30 and komi * 2 == int(komi * 2)
    client.send(type="save")
    assert f"KM[{komi:g}]" in client.until("sgf")["text"]    # the engine's komi too
    assert play(client, "E5")["komi"] == komi                  # the game goes on at that komi


def test_without_fair_komi_the_forms_komi_stays(client):
    client.send(type="new_game", variant="terrain", size=9, terrain_seed=5, forts="search",
                komi=100, black="human", white="human")
    state = client.until("state", lambda m: m["fort_turn"] is None and m["to_move"] == "b")
    assert client.settled()["komi"] == 100

def test_a_refused_new_game_keeps_the_old_one(client):
    before = play(client, "C3", "B2")
    client.send(type="new_game", variant="loose", size=7, komi=3)
    assert "even integer" in client.until("error")["message"]
    after = client.settled()
    assert after["moves"] == before["moves"] and after["board"] == before["board"]
    assert after["size"] == 5 and after["variant"] == "loose"
    play(client, "D4")


def restarted(server, client):
    """Kill the engine, restart it from the page; the state after the replay."""
    os.kill(server.controller.engine.pid, 9)
    client.send(type="state")
    client.until("state", lambda m: m["dead"])
    client.send(type="restart")
    return client.until("state", lambda m: not m["dead"])


def test_a_terrain_game_and_an_opened_game_survive_a_restart(server, client):
    client.send(type="new_game", variant="terrain", size=9, terrain_seed=7, forts="search",
                black="human", white="human")
    client.until("state", lambda m: m["variant"] == "terrain" and m["fort_turn"] is None and m["legal"])
    before = play(client, client.state["legal"][0], client.state["legal"][1])
    after = restarted(server, client)
    for key in ("board", "marks", "moves", "komi", "last"):
        assert after[key] == before[key], key

    client.send(type="save")
    sgf = client.until("sgf")["text"]
    client.send(type="new_game", variant="go", size=5, black="human", white="human")
    client.until("state", lambda m: m["size"] == 5)
    client.send(type="open", sgf=sgf)
    opened = client.until("state", lambda m: m["variant"] == "terrain")
    assert opened["board"] == before["board"] and opened["marks"] == before["marks"]
    opened = play(client, opened["legal"][0])
    client.send(type="undo")
    client.send(type="undo")          # back into the file's moves
    opened = client.until("state", lambda m: len(m["moves"]) == 1)
    after = restarted(server, client)
    for key in ("board", "marks", "moves", "komi", "last"):
        assert after[key] == opened[key], key


# ----------------------------------------------------------------- stopping the engine
def test_pause_while_the_engine_thinks_makes_it_answer_its_move_now():
    # ten minutes a move: only GoGui's interrupt, which the server sends on Pause, ends it (no
    # opening book, whose first move comes at once)
    server = start_server(command=[sys.executable, "-m", "gtp_engine", "--time", "600",
                                   "--threads", "1", "--quiet", "--no-book"])
    try:
        client = Client(server)
        client.send(type="new_game", variant="go", size=9, black="engine", white="human")
        client.until("thinking", lambda m: m["color"] is not None)
        time.sleep(1.0)   # the search is under way
        client.send(type="pause", on=True)
        state = client.until("state", lambda m: len(m["moves"]) == 1)
        assert state["paused"] and not client.errors
        client.close()
    finally:
        server.stop_in_thread()



class ScriptedEngineGame:
    """A controller stand-in whose engine moves for both sides until ``moves`` are played;
    ``on_turn_asked(n)`` runs (in the worker thread) when the n-th turn is asked."""

    compile_note = thinking_note = None
    estimating_komi = False

    def __init__(self, moves=6, on_turn_asked=None):
        self.moves, self.played = moves, []
        self.asked = 0
        self.on_turn_asked = on_turn_asked or (lambda n: None)

    def engine_color(self):
        self.asked += 1
        self.on_turn_asked(self.asked)
        return None if len(self.played) >= self.moves else "bw"[len(self.played) % 2]

    def engine_move(self):
        self.played.append("pass")

    def start_clock(self):
        pass

    def stop_clock(self):
        pass

    def interrupt(self):
        pass

    def view(self):
        return {"moves": list(self.played)}


class ClosedSocket:
    closed = True


def drive(server, scenario):
    """``scenario(server)`` in a fresh event loop, with the server's lock made there."""
    import asyncio

    async def run():
        server._lock = asyncio.Lock()
        await scenario(server)
    asyncio.run(run())


def test_a_pause_that_comes_while_the_turn_is_asked_stops_the_next_move():
    server = BoardServer(["unused"])

    def pause_at_second_ask(n):
        if n == 2:
            server.paused = True     # as _pause does, while the worker asks whose turn it is

    server.controller = game = ScriptedEngineGame(on_turn_asked=pause_at_second_ask)

    async def scenario(server):
        await server._changed()
        await server._driver
    drive(server, scenario)
    assert game.played == ["pass"]    # the move asked for before the pause, and none after


def test_a_continue_that_comes_while_the_engines_stop_for_a_pause_is_not_lost():
    server = BoardServer(["unused"])
    server.controller = game = ScriptedEngineGame(
        moves=4, on_turn_asked=lambda n: setattr(server, "paused", server.paused or n == 2))
    sent = []

    async def scenario(server):
        async def broadcast(payload):
            sent.append(payload)
            if payload == {"type": "thinking", "color": None} and len(game.played) == 1:
                # Continue, handled while the stopping driver still runs (its last broadcast)
                await server._handle(ClosedSocket(), {"type": "pause", "on": False})
        server.broadcast = broadcast
        await server._changed()
        while server._driver is not None and not server._driver.done():
            await server._driver
    drive(server, scenario)
    assert not server.paused
    assert len(game.played) == 4     # the engines went on to the end after Continue


# ----------------------------------------------------------------- the command line's port
@pytest.mark.parametrize("port", ["99999", "-5", "http"])
def test_a_port_that_is_no_port_is_a_clear_error_with_exit_code_2(port):
    import subprocess
    done = subprocess.run([sys.executable, "-m", "gtp_engine.web", "--port", port],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "is not a port number (0 to 65535)" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_the_default_port_taken_moves_to_the_next_free_one():
    import socket
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    taken = busy.getsockname()[1]
    server = BoardServer(ENGINE + ["--size", "5"], port=taken, port_tries=20)
    try:
        server.start_in_thread()
        assert taken < server.port < taken + 20 and f":{server.port}/" in server.url
        assert http_status(server.url) == 200
    finally:
        server.stop_in_thread()
        busy.close()


def test_a_given_port_that_is_taken_is_refused():
    import socket
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    server = BoardServer(ENGINE + ["--size", "5"], port=busy.getsockname()[1])
    try:
        with pytest.raises(OSError):
            server.start_in_thread()
    finally:
        server.stop_in_thread()
        busy.close()


def test_deeply_nested_json_is_refused_and_the_session_goes_on(client):
    before = play(client, "C3")
    text = "[" * 1100 + "]" * 1100
    assert 2000 <= len(text) <= 2300
    client.send_raw(text)
    assert client.until("error")["message"] == "bad message: JSON nested too deeply"
    after = client.settled()
    assert after["moves"] == before["moves"]
    play(client, "B2")


# ----------------------------------------------------------------- review
def board_after(moves, size=5, variant="loose"):
    """The board the engine shows after ``moves``, from an engine of its own."""
    from gtp_engine.match.gtp_client import GtpEngine
    engine = GtpEngine(ENGINE)
    try:
        engine.send("variant go")
        engine.send(f"boardsize {size}")
        engine.send(f"variant {variant}")
        engine.send("clear_board")
        for color, vertex in moves:
            engine.send(f"play {color} {vertex}")
        table = {"X": "b", "O": "w"}
        return [[table.get(p, ".") for p in line.split()]
                for line in engine.send("gogui-rules_board").splitlines() if line.strip()]
    finally:
        engine.kill()


def goto(client, number):
    client.send(type="goto", number=number)
    return client.until("state", lambda m: m["at"] == number)


def test_a_game_is_stepped_through_and_a_new_branch_played(client):
    end = play(client, *LOOSE_FLIP)
    line = [tuple(m) for m in end["moves"]]
    for number in (0, 3, 11, 12, 5):
        state = goto(client, number)
        assert state["line"] == end["moves"] and state["moves"] == end["moves"][:number]
        assert state["board"] == board_after(line[:number]), number
    assert goto(client, 11)["last"]["vertex"] == "pass"
    state = goto(client, 12)
    assert state["last"] == end["last"]                    # the flip, as the engine tells it
    state = goto(client, 4)
    assert state["to_move"] == "b" and state["legal"]
    state = play(client, "D2")                             # a new branch at move 5
    assert state["at"] == 5 and len(state["line"]) == 5
    assert state["variations"] == [{"number": 5, "choices": [
        {"color": "b", "vertex": "E1", "current": False}, {"color": "b", "vertex": "D2", "current": True}]}]
    client.send(type="variation", number=5, index=0)       # back to the game's own line
    state = client.until("state", lambda m: len(m["line"]) == 12)
    assert state["at"] == 4 and state["line"] == end["moves"]
    assert goto(client, 12)["board"] == end["board"]
    client.send(type="variation", number=5, index=7)
    assert "no variation 8" in client.until("error")["message"]
    client.send(type="variation", number=13, index=0)
    assert "not in this line" in client.until("error")["message"]
    assert client.settled()["at"] == 12                    # refused: the board stayed


SGF_WITH_VARIATIONS = "(;GM[1]FF[4]VR[go]SZ[5]KM[0.5];B[cc];W[bb](;B[dd];W[bd];B[ab])(;B[db];W[dc]))"


def test_an_opened_sgf_is_browsed_with_its_variations(client):
    client.send(type="open", sgf=SGF_WITH_VARIATIONS)
    state = client.until("state", lambda m: m["variant"] == "go" and len(m["line"]) == 5)
    assert state["at"] == 5 and state["variations"][0]["number"] == 3
    assert [c["vertex"] for c in state["variations"][0]["choices"]] == ["D2", "D4"]
    state = goto(client, 1)
    assert state["board"] == board_after([("b", "C3")], variant="go")
    client.send(type="variation", number=3, index=1)
    state = client.until("state", lambda m: len(m["line"]) == 4)
    assert state["at"] == 1
    state = goto(client, 4)
    line = [("b", "C3"), ("w", "B4"), ("b", "D4"), ("w", "D3")]
    assert [tuple(m) for m in state["moves"]] == line
    assert state["board"] == board_after(line, variant="go")
    client.send(type="save")
    assert "D4" not in client.until("sgf")["text"].split("SZ")[0]


# ----------------------------------------------------------------- the score's parts (vargo-score)
def score_parts(answer):
    lines = {line.split()[0]: line.split()[1:] for line in answer.splitlines()}
    return {key: dict(zip(words[::2], map(float, words[1::2]))) if key != "result" else words[0]
            for key, words in lines.items()}


@pytest.mark.parametrize("variant, size, setup, moves", [
    ("go", 5, [], ["b A2", "w D4", "b B1", "w pass", "b C3"]),
    ("loose", 5, [], [f"{'bw'[i % 2]} {v}" for i, v in enumerate(LOOSE_FLIP)]),
    ("disto", 5, [], ["b A1", "w A2", "b C3", "w B1"]),
    ("goncrete", 5, [], ["b A1", "w A2", "b pass", "w B1"]),
    ("terrain", 9, ["terrain_generate 5", "genfort w", "genfort b", "genfort w", "genfort b"], []),
])
def test_vargo_score_parts_add_up_to_the_engines_count(variant, size, setup, moves):
    from gtp_engine.match.gtp_client import GtpEngine
    engine = GtpEngine(ENGINE)
    try:
        for command in ["variant go", f"boardsize {size}", f"variant {variant}", *setup]:
            engine.send(command)
        for move in moves:
            engine.send(f"play {move}")
        if variant == "terrain":   # Black's stones alone: every region touches Black only
            for _ in range(2):
                engine.send(f"play b {engine.send('gogui-rules_legal_moves').split()[0]}")
                engine.send("play w pass")
        parts = score_parts(engine.send("vargo-score"))
        result, _, rest = engine.send("gogui-rules_final_result").partition(":")
        black, white = (float(p.split()[1]) for p in rest.split("(")[0].split(","))
    finally:
        engine.kill()
    assert parts["result"] == result
    for color, total in (("black", black), ("white", white)):
        counted = parts[color]
        assert counted["total"] == total
        assert sum(v for k, v in counted.items() if k not in ("total", "meals")) == total, counted
    if variant == "disto":
        assert parts["black"]["meals"] == 1 and parts["black"]["stones"] == 1   # A1 eaten, C3 counts
    if variant == "go":
        assert parts["black"]["territory"] == 1                                 # A1
    if variant == "terrain":
        assert parts["values"] == {"plain": 1, "mountain": 0, "water": 1.5, "fort": 3}
        assert parts["black"]["water"] > 0 and parts["black"]["forts"] == 2 * 3   # White's two forts
        assert parts["white"]["forts"] == 0 and parts["white"]["stones"] == 0


# ----------------------------------------------------------------- saving
def test_a_saved_game_has_players_date_result_and_the_win_rates_analysed(client):
    import re as regex
    client.send(type="new_game", variant="loose", size=5, black="human", white="engine")
    client.until("state", lambda m: not m["moves"] and m["players"]["w"] == "engine")
    client.send(type="play", vertex="C3")
    client.until("state", lambda m: len(m["moves"]) == 2)
    client.send(type="analyze", on=True)
    client.until("analysis", lambda m: m.get("winrate") is not None)
    client.send(type="analyze", on=False)
    client.until("analysis", lambda m: m.get("stopped"))
    client.send(type="goto", number=1)                      # saved whole, from any position
    client.until("state", lambda m: m["at"] == 1)
    client.send(type="save")
    text = client.until("sgf")["text"]
    assert "PB[human]" in text and regex.search(r"PW\[vargo[^\]]*\]", text)
    assert regex.search(r"DT\[\d{4}-\d\d-\d\d\]", text) and "RE[" not in text
    assert len(regex.findall(r"(?<![A-Z])[BW]\[[a-e]{2}\]", text)) == 2    # both moves of the line
    assert regex.search(r"SBKV\[\d+(\.\d+)?\]", text) and "Black's win rate" in text
    assert client.settled()["at"] == 1
    client.send(type="goto", number=2)
    client.until("state", lambda m: m["at"] == 2)
    client.send(type="resign")
    client.until("state", lambda m: m["result"])
    client.send(type="save")
    assert "RE[W+R]" in client.until("sgf")["text"]



def test_a_saved_game_keeps_every_variation_and_opens_with_them_again(client):
    from sgf.record import parse
    play(client, "B3", "A3", "E5", "B4")
    goto(client, 2)
    play(client, "D4", "pass")                     # a variation instead of move 3, two moves long
    goto(client, 1)
    play(client, "C3")                             # another, instead of move 2
    state = client.settled()
    assert state["line"] == [["b", "B3"], ["w", "C3"]]
    client.send(type="save")
    text = client.until("sgf")["text"]
    root = parse(text.encode()).get_root()
    first = root[0]                                # B3, then the line on show: W C3
    assert first.get_move() == ("b", (2, 1)) and [c.get_move() for c in first] == [
        ("w", (2, 2)), ("w", (2, 0))]              # C3 (shown), then A3 (the game's first line)
    a3 = first[1]
    assert [c.get_move() for c in a3] == [("b", (4, 4)), ("b", (3, 3))]   # E5, then D4
    assert a3[0][0].get_move() == ("w", (3, 1)) and a3[1][0].get_move() == ("w", None)
    assert text.count("B[db]") == 1               # D4 written once
    client.send(type="new_game", variant="loose", size=5, black="human", white="human")
    client.until("state", lambda m: not m["moves"])
    client.send(type="open", sgf=text)
    state = client.until("state", lambda m: m["line"] == [["b", "B3"], ["w", "C3"]])
    assert state["variations"] == [{"number": 2, "choices": [
        {"color": "w", "vertex": "C3", "current": True}, {"color": "w", "vertex": "A3", "current": False}]}]
    client.send(type="variation", number=2, index=1)
    state = client.until("state", lambda m: len(m["line"]) == 4)
    assert state["line"] == [["b", "B3"], ["w", "A3"], ["b", "E5"], ["w", "B4"]]
    assert state["variations"][-1]["number"] == 3 and [
        c["vertex"] for c in state["variations"][-1]["choices"]] == ["E5", "D4"]

def test_every_message_but_state_has_an_action():
    from gtp_engine.web.server import ACTIONS, MESSAGES
    assert set(ACTIONS) == set(MESSAGES) - {"state"}


def test_a_second_vargo_web_on_the_default_port_takes_the_next_free_one_and_says_so():
    import signal
    import socket
    import subprocess
    from gtp_engine.web.cli import DEFAULT_PORT
    busy = socket.socket()
    try:
        busy.bind(("127.0.0.1", DEFAULT_PORT))
        busy.listen()
    except OSError:
        pass   # taken already (another board on this machine): as good for this test
    web = subprocess.Popen([sys.executable, "-m", "gtp_engine.web", "--size", "5", "--playouts", "20"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = web.stdout.readline()
        url = web.stdout.readline().strip()
        assert first.startswith("vargo-web: the board of") and url.startswith("http://127.0.0.1:")
        port = int(url.split(":")[2].split("/")[0])
        assert DEFAULT_PORT < port < DEFAULT_PORT + 50 and http_status(url) == 200
        web.send_signal(signal.SIGINT)
        _, errors = web.communicate(timeout=60)
        assert f"port {DEFAULT_PORT} is in use, so the board is on port {port}" in errors
        assert "Traceback" not in errors
    finally:
        if web.poll() is None:
            web.kill()
        busy.close()


def test_the_engines_compile_progress_is_read_from_its_stderr_lines():
    """The lines the warm-up's reporter writes become the page's note while the engine thinks;
    the last (100%), or the engine's word that the kernels are ready, clears it; other lines
    are not notes."""
    import io

    from gtp_engine.search._backend import Snapshot
    from gtp_engine.search.warmup import Reporter
    from gtp_engine.web.controller import compile_note
    stream = io.StringIO()
    reporter = Reporter(stream, None, time.perf_counter())
    reporter(Snapshot("search priors (prior)", 2, 8, 0.4, 30.0, 12.0), "done\tsearch moves\t5")
    reporter(Snapshot("nothing", 8, 8, 1.0, 0.0, 0.0), "done\tsearch extras\t2")
    reporter.waiting(12.0)
    going, done, waiting = stream.getvalue().splitlines()
    assert compile_note(going) == ("compiling its kernels, once: search moves done (5 s of CPU); "
                                   "2 of 8 parts done (40%), about 30 s left (the search's "
                                   "kernels in 12 s); compiling search priors (prior)")
    assert compile_note(done) == ""
    assert compile_note(waiting).startswith("another process is compiling the kernels")
    assert compile_note("vargo: board and search kernels ready in 64.5 s") == ""
    assert compile_note("   pass visits 367 winrate 0.0%") is None


def test_the_controller_keeps_the_engines_compile_note_and_passes_its_stderr_on(tmp_path):
    from gtp_engine.web.controller import GameController
    line = "vargo: [3 s] 2 of 8 parts done (40%), about 30 s left; compiling search priors (prior)"
    command = ["sh", "-c", f"echo '{line}' >&2; exec \"$0\" \"$@\"", *ENGINE]
    with open(tmp_path / "stderr.txt", "w") as stderr:
        controller = GameController(command, stderr=stderr)
        try:
            for _ in range(100):
                if controller.compile_note:
                    break
                time.sleep(0.05)
            assert controller.compile_note == ("compiling its kernels, once: 2 of 8 parts done "
                                               "(40%), about 30 s left; compiling search priors "
                                               "(prior)")
        finally:
            controller.close()
    assert line in (tmp_path / "stderr.txt").read_text()
