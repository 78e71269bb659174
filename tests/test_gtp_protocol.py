"""GTP line syntax (spec 2.2-2.11) and the stream loop, without any game: parsing, responses,
ids, comments, control characters, order and flushing, quit and end of input."""

import io
import os
import threading
import time

import pytest

from gtp_engine.gtp import Command, GtpError, GtpFatalError, GtpQuit, format_response, parse_line, serve
from gtp_engine.gtp.protocol import StreamedAnswer


@pytest.mark.parametrize("line, expected", [
    ("name", Command(None, "name", [])),
    ("12 play b D4", Command("12", "play", ["b", "D4"])),
    ("play\tb \t D4", Command(None, "play", ["b", "D4"])),            # HT is a space
    ("play b D4\r", Command(None, "play", ["b", "D4"])),              # CR dropped
    ("pl\x01ay b\x7f D4", Command(None, "play", ["b", "D4"])),        # control chars dropped
    ("3 komi 6 # the rest is a comment", Command("3", "komi", ["6"])),
    ("  7   known_command  name  ", Command("7", "known_command", ["name"])),
    ("42", Command("42", "", [])),                                    # an id alone
    ("-1 name", Command(None, "-1", ["name"])),                       # not an id: a (bad) name
])
def test_parse_line(line, expected):
    assert parse_line(line) == expected


@pytest.mark.parametrize("line", ["", "   ", "\t", "# only a comment", "\r", "\x00\x01", "  # x"])
def test_lines_without_a_command_are_ignored(line):
    assert parse_line(line) is None


@pytest.mark.parametrize("args, expected", [
    ((None, True, ""), "=\n\n"),
    (("5", True, "vargo"), "=5 vargo\n\n"),
    (("5", False, "unknown command"), "?5 unknown command\n\n"),
    ((None, True, "a\nb"), "= a\nb\n\n"),
    ((None, True, "\n  A B\n1 . ."), "=\n  A B\n1 . .\n\n"),           # multi-line board
    ((None, True, "a\n\n\nb\n\n"), "= a\nb\n\n"),                     # no empty line inside
    ((None, True, "a \r\nb\x07"), "= a\nb\n\n"),
    ((None, True, "a\tb"), "= a b\n\n"),                            # output uses spaces only
])
def test_format_response(args, expected):
    assert format_response(*args) == expected


class ScriptedEngine:
    """An engine stand-in: answers from a table, records what it ran and each interrupt.

    ``stream N``: a streamed answer that writes N lines and closes (as genmove_analyze does);
    ``background``: a streamed answer left open until the next interrupt, which closes it
    after one line (as lz-analyze does)."""

    def __init__(self):
        self.ran = []
        self.open_stream = None
        self.aborted = False

    def abort_command(self):
        self.aborted = True

    def clear_abort(self):
        self.aborted = False

    def interrupt(self):
        self.ran.append(("interrupt", []))
        if self.open_stream is not None:
            self.open_stream.line("info from the background")
            self.open_stream.close()
            self.open_stream = None

    def execute(self, name, args):
        self.ran.append((name, args))
        if name == "think":   # a search: runs until aborted, or gives up after half a second
            deadline = time.monotonic() + 0.5
            while not self.aborted and time.monotonic() < deadline:
                time.sleep(0.005)
            return True, "aborted" if self.aborted else "thought"
        if name == "stream":
            def start(stream):
                for i in range(int(args[0])):
                    stream.line(f"line {i}")
                stream.close("play D4")
            return True, StreamedAnswer(start)
        if name == "background":
            def start_background(stream):
                self.open_stream = stream
            return True, StreamedAnswer(start_background)
        if name == "broken":
            def explode(stream):
                stream.line("half")
                raise RuntimeError("boom")
            return True, StreamedAnswer(explode)
        if name == "quit":
            raise GtpQuit()
        if name == "die":
            raise GtpFatalError("cannot go on")
        if name == "fail":
            return False, "it failed"
        return True, " ".join([name] + args)


def run(data: bytes):
    engine, out = ScriptedEngine(), io.BytesIO()
    serve(engine, io.BytesIO(data), out)
    return engine, out.getvalue().decode("utf-8", "surrogateescape")


def test_responses_in_order_with_ids_and_one_empty_line_each():
    engine, out = run(b"1 a x\n\n# c\nb\n2 fail\n3\n")
    assert out == "=1 a x\n\n= b\n\n?2 it failed\n\n?3 missing command name\n\n"


def test_quit_is_answered_and_ends_the_session():
    engine, out = run(b"a\n9 quit\nb\n")
    assert out == "= a\n\n=9\n\n"
    assert [name for name, _ in engine.ran if name != "interrupt"] == ["a", "quit"]


def test_fatal_error_is_answered_and_ends_the_session():
    engine, out = run(b"die\nb\n")
    assert out == "? cannot go on\n\n"


def test_end_of_input_without_final_newline():
    engine, out = run(b"a\nb")
    assert out == "= a\n\n= b\n\n"


def test_binary_junk_goes_through_unharmed():
    engine, out = run(b"\xff\xfe junk \xc3\n")
    name, args = engine.ran[1]   # after the interrupt
    assert name.encode("utf-8", "surrogateescape") == b"\xff\xfe"
    assert out.encode("utf-8", "surrogateescape") == b"= \xff\xfe junk \xc3\n\n"


def test_gtp_error_is_the_handler_contract():
    assert issubclass(GtpFatalError, GtpError)


def test_a_streamed_answer_is_written_as_it_comes_then_closed():
    engine, out = run(b"7 stream 2\nname\n")
    assert out == "=7\nline 0\nline 1\nplay D4\n\n= name\n\n"


def test_every_input_line_interrupts_background_work_before_it_is_read():
    """Even an empty line or a comment stops an analysis stream (as KataGo does); the stream
    ends before the next answer, and end of input stops it too."""
    engine, out = run(b"3 background\n\n4 background\n# c\nname\n5 background\n")
    assert out == ("=3\ninfo from the background\n\n=4\ninfo from the background\n\n= name\n\n"
                   "=5\ninfo from the background\n\n")
    assert [name for name, _ in engine.ran] == [
        "interrupt", "background", "interrupt", "interrupt", "background", "interrupt",
        "interrupt", "name", "interrupt", "background", "interrupt"]


def test_a_streamed_answer_that_fails_half_way_still_ends_its_response(capsys):
    engine, out = run(b"broken\nname\n")
    assert out == "=\nhalf\n\n= name\n\n"
    assert "boom" in capsys.readouterr().err


def test_a_busy_background_job_does_not_hold_up_the_next_command():
    """Work that does not look at its stop event (a search loading the compiled kernels) is
    left to end by itself: stop() returns, the stream is finished, later lines are dropped."""
    import threading
    from gtp_engine.gtp.background import BackgroundJob
    from gtp_engine.gtp.protocol import ResponseStream
    out = io.BytesIO()
    stream = ResponseStream(out, threading.Lock(), "4")
    release = threading.Event()

    def work(stop):
        release.wait()                     # busy elsewhere, deaf to stop
        stream.line("info late")
    job = BackgroundJob("busy", work, finish=stream.close).start()
    job.stop(wait=0.01)
    assert out.getvalue() == b"=4\n\n" and job.running
    release.set()
    job._thread.join()
    assert out.getvalue() == b"=4\n\n"


def run_typed(script):
    """Serve ``script``, pairs (seconds to wait, bytes to write), written to a pipe as a
    person or GoGui would type them; the output when the input ends."""
    engine, out = ScriptedEngine(), io.BytesIO()
    read_end, write_end = os.pipe()

    def type_it():
        with os.fdopen(write_end, "wb", buffering=0) as pipe:
            for pause, data in script:
                time.sleep(pause)
                pipe.write(data)
    typist = threading.Thread(target=type_it)
    typist.start()
    with os.fdopen(read_end, "rb") as infile:
        serve(engine, infile, out)
    typist.join()
    return out.getvalue().decode()


def test_gogui_interrupt_aborts_the_running_command_only():
    out = run_typed([(0, b"1 think\n"), (0.1, b"# interrupt\n2 name\n3 think\n")])
    assert out == "=1 aborted\n\n=2 name\n\n=3 thought\n\n"


def test_an_interrupt_between_commands_aborts_nothing():
    out = run_typed([(0, b"1 name\n"), (0.1, b"# interrupt\n"), (0.1, b"2 think\n")])
    assert out == "=1 name\n\n=2 thought\n\n"


def test_commands_sent_ahead_do_not_cut_a_search_short():
    # Sabaki pipelines its commands; only an interrupt or a quit may abort a running search
    out = run_typed([(0, b"1 think\n"), (0.1, b"2 name\n3 komi 6\n")])
    assert out == "=1 thought\n\n=2 name\n\n=3 komi 6\n\n"


def test_quit_while_a_command_runs_aborts_it_but_not_a_quit_sent_with_it():
    out = run_typed([(0, b"1 think\n"), (0.1, b"2 quit\n")])
    assert out == "=1 aborted\n\n=2\n\n"
    # a script that writes its commands at once wants the whole search
    _, out = run(b"1 think\n2 quit\n")
    assert out == "=1 thought\n\n=2\n\n"
