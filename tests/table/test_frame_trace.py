"""The run loop's opt-in frame trace (table/app/frametrace.py): off unless MUNCHKIN_FRAME_TRACE
names a file; when on, the first frame and each tap with the push of the frame that showed it, on
the table's monotonic clock, as the Pi-class bench (bench/boot/pitime.py) reads them back."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from bench.boot.pitime import parse_trace
from drivers.emulators.pn532 import Pn532Emulator
from table.app.frametrace import ENVIRONMENT, FrameTrace
from table.app.run import run, stop
from table.config import load_config


def test_off_unless_the_environment_names_a_file(tmp_path: Path) -> None:
    assert FrameTrace.from_environment({}) is None
    assert FrameTrace.from_environment({ENVIRONMENT: ""}) is None
    trace = FrameTrace.from_environment({ENVIRONMENT: str(tmp_path / "t")})
    assert trace is not None
    trace.first(1.5)
    trace.close()
    assert (tmp_path / "t").read_text() == "first 1.500000\n"


def test_a_file_it_cannot_open_leaves_the_table_untraced(tmp_path: Path) -> None:
    assert FrameTrace.from_environment({ENVIRONMENT: str(tmp_path / "no" / "such" / "dir" / "t")}) is None


def test_each_tap_is_written_with_the_push_of_the_frame_that_showed_it() -> None:
    out = io.StringIO()
    trace = FrameTrace(out)
    trace.first(10.0)
    trace.passed(10.5)                    # a frame with no tap in it (the die, a window): no line
    trace.tapped(11.0)
    trace.tapped(11.002)
    trace.passed(11.010)
    trace.tapped(12.0)
    trace.passed(None)                    # a pass that drew nothing
    assert out.getvalue().splitlines() == ["first 10.000000", "frame 11.010000 11.000000 11.002000",
                                           "unshown 12.000000"]
    back = parse_trace(out.getvalue())
    assert back.first == 10.0 and back.unshown == 1
    assert back.latencies == pytest.approx([0.010, 0.008])


def test_a_closed_stream_does_not_stop_the_table() -> None:
    out = io.StringIO()
    trace = FrameTrace(out)
    out.close()
    trace.tapped(1.0)
    trace.passed(1.1)                     # ValueError swallowed


@pytest.fixture
def mock_pins():
    """The buttons on gpiozero's MockFactory (the tests' pin factory), fresh for this table."""
    Device.pin_factory = MockFactory()
    yield
    Device.pin_factory.reset()


def test_the_running_table_traces_its_first_frame_and_each_pn532_tap(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch, mock_pins: None) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "tags.csv").write_text("uid,card\n04A1B2C3,player-1\n04A1B2C4,player-2\n")
    path = tmp_path / "frames.trace"
    monkeypatch.setenv(ENVIRONMENT, str(path))
    failures: list[str] = []
    with Pn532Emulator() as emu:
        config = tmp_path / "config.toml"
        config.write_text(f'[storage]\nstate_dir = "{state}"\n[reader]\ntype = "pn532"\nport = "{emu.path}"\n')

        def drive() -> None:
            try:
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and (not path.exists() or "first" not in path.read_text()):
                    time.sleep(0.05)                 # the taps after the first frame, as at a table
                for uid in ("04A1B2C3", "04A1B2C4"):
                    deadline = time.monotonic() + 10
                    seen = len(parse_trace(path.read_text()).latencies) if path.exists() else 0
                    emu.present(uid)
                    while time.monotonic() < deadline and (
                            not path.exists() or len(parse_trace(path.read_text()).latencies) == seen):
                        time.sleep(0.05)
                    emu.present(None)
                    time.sleep(0.6)
            except Exception as exc:  # pragma: no cover - reported by the test
                failures.append(repr(exc))
            finally:
                stop()

        worker = threading.Thread(target=drive, daemon=True)
        worker.start()
        assert run(load_config(config), sim=False) == 0
        worker.join(timeout=30)
    assert failures == []
    lines = path.read_text().splitlines()
    assert lines[0].startswith("first ")
    frames = [line.split() for line in lines if line.startswith("frame ")]
    assert len(frames) == 2 and all(len(f) == 3 for f in frames)
    first = float(lines[0].split()[1])
    for _, pushed, at in frames:
        assert first < float(at) <= float(pushed) < time.monotonic()


def test_a_pass_says_what_it_waited_for_and_the_bench_takes_it_out() -> None:
    """After a frame line, the pass from its wake-up to the push and the main thread's CPU in it:
    the bench's own figure is each tap's latency less the difference (the fsync, other threads)."""
    out = io.StringIO()
    trace = FrameTrace(out)
    trace.woke(11.001, 5.0)
    trace.tapped(11.0)
    trace.passed(11.010, cpu=5.004)        # 9 ms from the wake-up, 4 of them on the CPU
    trace.woke(12.0, 6.0)
    trace.passed(12.010, cpu=6.01)         # no tap: no line
    assert out.getvalue().splitlines() == ["frame 11.010000 11.000000", "pass 0.009000 0.004000"]
    back = parse_trace(out.getvalue())
    assert back.latencies == pytest.approx([0.010]) and back.own == pytest.approx([0.005]) and back.bad_lines == 0


def test_a_pass_writes_its_steps_and_the_bench_splits_the_slowest_taps() -> None:
    """The steps line after a pass line: each step's wall and CPU since the one before; the bench
    reads them back per tap and says where the slowest taps' time went."""
    from bench.boot.pitime import step_split

    out = io.StringIO()
    trace = FrameTrace(out)
    trace.woke(20.0, 3.0)
    trace.tapped(19.999)
    trace.step("handled")
    trace.steps[-1] = ("handled", 20.004, 3.003)          # (the clocks at each step, set by the test)
    trace.steps.append(("viewed", 20.005, 3.004))
    trace.passed(20.010, cpu=3.008)
    lines = out.getvalue().splitlines()
    assert lines[0] == "frame 20.010000 19.999000" and lines[1] == "pass 0.010000 0.008000"
    assert lines[2] == "steps handled 0.004000 0.003000 viewed 0.001000 0.001000 pushed 0.005000 0.004000"
    back = parse_trace(out.getvalue())
    assert back.bad_lines == 0 and len(back.steps) == 1
    latency, named = back.steps[0]
    assert latency == pytest.approx(0.011) and named["handled"] == pytest.approx((0.004, 0.003))
    split = step_split(back.steps)
    assert split[0].startswith("every tap (1, mean 11.00 ms)") and "to the wake-up 1.00" in split[0]
    assert "handled 4.00/3.00" in split[0] and "pushed 5.00/4.00" in split[0]
