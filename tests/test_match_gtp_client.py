"""The match runner's GTP client: responses as the GTP spec allows them, and every failure."""

import io
import sys
from pathlib import Path

import pytest

from gtp_engine.match.gtp_client import (EngineDied, EngineTimeout, GtpCommandError, GtpEngine,
                                         MalformedResponse, split_command)

SCRIPTED = Path(__file__).resolve().parent / "fakes" / "scripted_engine.py"


def scripted(*responses, transcript=None) -> GtpEngine:
    return GtpEngine([sys.executable, str(SCRIPTED), *responses], "E", transcript=transcript)


@pytest.fixture
def engines():
    started = []

    def start(*responses, transcript=None):
        engine = scripted(*responses, transcript=transcript)
        started.append(engine)
        return engine

    yield start
    for engine in started:
        engine.kill()


@pytest.mark.parametrize("raw, text", [
    (r"= hello\n\n", "hello"),
    (r"=12 hello\n\n", "hello"),              # an id
    (r"= hello\r\n\r\n", "hello"),            # CR LF
    (r"\n\n= hello\n\n", "hello"),            # stray empty lines before a response
    (r"= first\nsecond\n\n", "first\nsecond"),  # several lines
    (r"=\n\n", ""),
])
def test_responses_are_read_as_the_spec_allows(engines, raw, text):
    assert engines(raw).send("name") == text


def test_an_error_answer_raises_and_the_engine_stays_usable(engines):
    engine = engines(r"? unknown command\n\n", r"= 2\n\n")
    with pytest.raises(GtpCommandError) as err:
        engine.send("frobnicate now")
    assert err.value.message == "unknown command" and "'frobnicate' refused: unknown command" == str(err.value)
    assert engine.send("protocol_version") == "2" and engine.alive


def test_output_that_is_not_gtp_is_malformed_and_the_engine_is_killed(engines):
    engine = engines(r"hello there\n\n")
    with pytest.raises(MalformedResponse, match="answered 'genmove' with 'hello there', not a gtp response"):
        engine.send("genmove b")
    assert not engine.alive


def test_an_engine_that_exits_has_died(engines):
    engine = engines("EXIT")
    with pytest.raises(EngineDied, match="exited .* before answering 'genmove'"):
        engine.send("genmove b")
    with pytest.raises(EngineDied):  # and stays dead
        engine.send("name")


def test_an_engine_that_does_not_answer_in_time_is_killed(engines):
    engine = engines("HANG")
    with pytest.raises(EngineTimeout, match="did not answer 'genmove' in time"):
        engine.send("genmove b", timeout=0.2)
    assert not engine.alive


def test_a_program_that_cannot_start():
    with pytest.raises(EngineDied, match="cannot start '/no/such/engine'"):
        GtpEngine("/no/such/engine --gtp", "E")


def test_known_commands_come_from_list_commands(engines):
    log = io.StringIO()
    engine = engines(r"= name\ngenmove\n\n", transcript=log)
    assert engine.known("genmove") and not engine.known("variant")
    assert "known_command" not in log.getvalue()  # the list is trusted


def test_known_command_is_asked_when_list_commands_is_missing(engines):
    engine = engines(r"? unknown command\n\n", r"= true\n\n", r"= false\n\n")
    assert engine.known("variant") and not engine.known("fort")
    assert engine.known("variant")  # remembered: the script has no more answers of its own


def test_transcript_records_both_directions_with_the_label(engines):
    log = io.StringIO()
    engine = engines(r"= GNU Go\n\n", transcript=log)
    engine.send("name")
    assert log.getvalue().splitlines() == ["E >> name", "E << = GNU Go"]


def test_close_asks_the_engine_to_quit(engines):
    engine = engines()
    engine.close()
    assert not engine.alive


@pytest.mark.parametrize("command, argv", [
    ("gnugo --mode gtp --level 1", ["gnugo", "--mode", "gtp", "--level", "1"]),
    ("'/opt/my engine/bin' -x 'a b'", ["/opt/my engine/bin", "-x", "a b"]),
])
def test_commands_split_with_shell_quoting(command, argv):
    assert split_command(command) == argv


def test_an_empty_command_is_refused():
    with pytest.raises(ValueError, match="empty engine command"):
        split_command("  ")


# ----------------------------------------------------------------- analysis streams
def test_a_stream_hands_out_its_lines_until_its_empty_line(engines):
    engine = engines(r"=\ninfo move A1 visits 1 pv A1\ninfo move B2 visits 2 pv B2\n\n", r"= vargo\n\n")
    engine.open_stream("kata-analyze b 10")
    assert engine.streaming
    assert engine.stream_line(5) == "info move A1 visits 1 pv A1"
    assert engine.stream_line(5) == "info move B2 visits 2 pv B2"
    assert engine.stream_line(5) == "" and not engine.streaming
    assert engine.send("name") == "vargo"


def test_a_refused_stream_raises_and_opens_nothing(engines):
    engine = engines(r"? analysis option 'avoid' is not supported\n\n", r"= 2\n\n")
    with pytest.raises(GtpCommandError, match="not supported"):
        engine.open_stream("kata-analyze b 10 avoid x")
    assert not engine.streaming
    assert engine.send("protocol_version") == "2"


def test_a_stream_that_goes_quiet_gives_none_then_dies(engines):
    engine = engines(r"=\ninfo move A1 visits 1 pv A1\n")
    engine.open_stream("kata-analyze b 10")
    assert engine.stream_line(5).startswith("info")
    assert engine.stream_line(0.05) is None
    engine.process.kill()
    with pytest.raises(EngineDied, match="while streaming 'kata-analyze'"):
        while engine.stream_line(5) is not None:
            pass


def test_our_engine_streams_analysis_and_the_next_command_stops_it():
    engine = GtpEngine([sys.executable, "-m", "gtp_engine", "--size", "5", "--playouts", "50"], "vargo")
    try:
        engine.open_stream("kata-analyze b 5 ownership true")
        line = None
        while not line:
            line = engine.stream_line(120)
        assert line.startswith("info move ") and " ownership " in line
        assert engine.send("play b C3") == ""   # ends the stream first, then is answered
        assert not engine.streaming
        assert engine.send("gogui-rules_side_to_move") == "white"
    finally:
        engine.kill()


def test_killing_an_engine_that_is_still_writing_leaves_the_reader_thread_quiet(monkeypatch):
    """``kill`` closes the pipes while the reader thread may be between two lines of a busy
    engine: the reader must end as at the end of the output, not die of the closed pipe."""
    failures = []
    monkeypatch.setattr("threading.excepthook", lambda args: failures.append(args.exc_value))
    chatty = "import sys\nwhile True:\n    sys.stdout.write('x' * 100 + '\\n')\n"
    for _ in range(5):
        engine = GtpEngine([sys.executable, "-c", chatty], "E")
        while engine._lines.qsize() < 1000:
            pass
        engine.kill()
        engine._reader.join(10)
        assert not engine._reader.is_alive()
        drained = [engine._lines.get() for _ in range(engine._lines.qsize())]
        assert drained[-1] is None          # the end of the output, as readers expect it
    assert failures == []
