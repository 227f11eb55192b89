"""The main loop sleeps until something can change: input it is told of, a driver event, a timer
the game needs or a running animation; never on a 30-per-second timer where no input comes that way."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from table.app import run as table_app
from table.config import parse_config
from tests.table.loop_helpers import made_loops
from table.app.wake import PUMP_S, EvdevWatch, input_wake, sleep_until_woken


class FakeEvent:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def wait(self, timeout: float) -> bool:
        self.waits.append(timeout)
        return False

    def clear(self) -> None:
        pass


def test_without_a_pump_timer_the_sleep_lasts_until_the_timeout() -> None:
    idle, desktop = FakeEvent(), FakeEvent()
    sleep_until_woken(idle, 5.0, None)
    sleep_until_woken(desktop, 5.0, PUMP_S)
    assert idle.waits == [5.0] and desktop.waits == [PUMP_S]


def test_each_video_driver_gets_its_way_of_learning_of_input(tmp_path: Path, caplog) -> None:
    def never() -> None:
        raise AssertionError

    assert input_wake("dummy", never).pump_every is None            # nothing comes through SDL
    assert input_wake("offscreen", never).pump_every is None
    assert input_wake("x11", never).pump_every == PUMP_S            # the desktop's connection is SDL's
    assert input_wake("wayland", never).pump_every == PUMP_S
    none_readable = input_wake("KMSDRM", never, tmp_path)           # a console with no input device to watch
    assert none_readable.pump_every == PUMP_S and none_readable.watch is None
    assert "no input device readable" in caplog.text


def fake_device(path: Path) -> int:
    """A FIFO standing in for /dev/input/eventN, held open for writing like a connected keyboard."""
    os.mkfifo(path)
    return os.open(path, os.O_RDWR | os.O_NONBLOCK)


def test_input_on_a_device_wakes_the_loop_and_is_drained(tmp_path: Path) -> None:
    writer = fake_device(tmp_path / "event0")
    woken = threading.Event()
    wake = input_wake("kmsdrm", woken.set, tmp_path)
    try:
        assert wake.pump_every is None and wake.watch is not None
        assert wake.watch.devices == [tmp_path / "event0"]
        assert not woken.wait(0.2)                      # nothing typed: no wake
        os.write(writer, b"\x01" * 24)                  # one input_event's worth
        assert woken.wait(2.0)
        woken.clear()
        assert not woken.wait(0.3)                      # read and dropped: it does not wake again
        os.write(writer, b"\x02" * 24)
        assert woken.wait(2.0)
    finally:
        wake.close()
        os.close(writer)


def test_a_device_plugged_in_later_is_watched_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import table.app.wake

    monkeypatch.setattr(table.app.wake, "RESCAN_S", 0.05)
    first = fake_device(tmp_path / "event0")
    woken = threading.Event()
    watch = EvdevWatch(woken.set, tmp_path)
    try:
        assert watch.start()
        second = fake_device(tmp_path / "event1")
        deadline = time.monotonic() + 3
        while len(watch.devices) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert watch.devices == [tmp_path / "event0", tmp_path / "event1"]
        os.write(second, b"\x03" * 24)
        assert woken.wait(2.0)
        os.close(second)
    finally:
        watch.close()
        os.close(first)


def test_after_a_roll_the_table_goes_back_to_sleeping_until_something_is_due(tmp_path: Path, monkeypatch) -> None:
    """Under the dummy driver: no 30-a-second pump, a few frames while the die tumbles, then idle again."""
    config = parse_config({"storage": {"state_dir": str(tmp_path / "state")}, "display": {"sound": False}})
    monkeypatch.setattr(sys, "stdin", io.StringIO("tap player-1\ntap player-2\ntap player-3\npress roll\n"))
    real = table_app.sleep_until_woken
    sleeps: list[tuple[float, float | None]] = []

    def sleep(woken: threading.Event, timeout: float, pump_every: float | None = PUMP_S) -> bool:
        sleeps.append((timeout, pump_every))
        was = real(woken, min(timeout, 0.02), pump_every)     # shortened, so the test does not wait 5 s a time
        animated = [i for i, (t, _p) in enumerate(sleeps) if t == table_app.ANIMATION_MS / 1000]
        idle_after = [t for t, _p in sleeps[animated[-1] + 1:]] if animated else []
        if len(sleeps) > 600 or (len(idle_after) >= 5 and all(t == table_app.IDLE_S for t in idle_after)):
            table_app.stop()
        return was

    monkeypatch.setattr(table_app, "sleep_until_woken", sleep)
    assert table_app.run(config, sim=True) == 0
    assert all(pump is None for _t, pump in sleeps)
    animated = [t for t, _p in sleeps if t == table_app.ANIMATION_MS / 1000]
    assert animated, "the die never tumbled"
    assert len(sleeps) <= 600, "the die never stopped tumbling"
    assert [t for t, _p in sleeps[-5:]] == [table_app.IDLE_S] * 5


def test_under_x11_the_servers_socket_wakes_the_loop_once_until_it_has_pumped() -> None:
    """A socketpair stands in for SDL's connection to the X server: data on it wakes the loop, and
    the watch reads none of it and waits for the loop's pump before it looks again."""
    import socket

    from table.app.wake import X11_PUMP_S, ConnectionWatch

    ours, server = socket.socketpair()
    woke = threading.Event()
    count = [0]

    def wake() -> None:
        count[0] += 1
        woke.set()

    how = input_wake("x11", wake, connection=ours.fileno())
    try:
        assert isinstance(how.watch, ConnectionWatch) and how.pump_every == X11_PUMP_S
        assert "X server" in repr(how)
        time.sleep(0.1)
        assert count[0] == 0                          # nothing from the server: asleep
        server.send(b"event")
        assert woke.wait(2)
        time.sleep(0.2)
        assert count[0] == 1                          # still readable, but the loop has not pumped yet
        assert ours.recv(16) == b"event"              # left for SDL to read
        woke.clear()
        how.pumped()
        time.sleep(0.1)
        assert count[0] == 1                          # read by then: nothing to wake for
        server.send(b"more")
        assert woke.wait(2) and count[0] == 2
    finally:
        how.close()
        how.close()
        ours.close()
        server.close()
    assert input_wake("x11", wake).pump_every == PUMP_S   # no connection known: pumped as before


def run_past_a_roll(tmp_path: Path, monkeypatch) -> list[float]:  # type: ignore[no-untyped-def]
    """The table run on three joins and a roll until it has slept IDLE_S five times after the die
    tumbled (each sleep shortened); the timeouts it slept on."""
    config = parse_config({"storage": {"state_dir": str(tmp_path / "state")}, "display": {"sound": False}})
    monkeypatch.setattr(sys, "stdin", io.StringIO("tap player-1\ntap player-2\ntap player-3\npress roll\n"))
    real = table_app.sleep_until_woken
    sleeps: list[float] = []

    def sleep(woken: threading.Event, timeout: float, pump_every: float | None = PUMP_S) -> bool:
        sleeps.append(timeout)
        was = real(woken, min(timeout, 0.02), pump_every)
        if len(sleeps) > 600 or sleeps[-5:] == [table_app.IDLE_S] * 5 and table_app.ANIMATION_MS / 1000 in sleeps:
            table_app.stop()
        return was

    monkeypatch.setattr(table_app, "sleep_until_woken", sleep)
    assert table_app.run(config, sim=True) == 0
    return sleeps


def test_the_loop_tidies_the_display_before_it_sleeps_never_while_the_die_tumbles(tmp_path: Path, monkeypatch) -> None:
    """The panels a frame drew go to the store between frames (Display.tidy), off the frame a tap waits for."""
    from table.ui.display import Display

    tidied: list[bool] = []
    real_tidy = Display.tidy

    def tidy(self: Display) -> None:
        tidied.append(self.wants_frame())
        real_tidy(self)

    monkeypatch.setattr(Display, "tidy", tidy)
    sleeps = run_past_a_roll(tmp_path, monkeypatch)
    assert table_app.ANIMATION_MS / 1000 in sleeps, "the die never tumbled"
    assert tidied and not any(tidied), "tidied while the die tumbled, or never"     # (idle wakes make no pass)


def test_the_loop_runs_the_collector_while_idle_never_while_the_die_tumbles(tmp_path: Path, monkeypatch) -> None:
    """The collector's passes go between frames (heap.collect_while_idle), off the frame a tap waits for."""
    from table.ui.display import Display

    displays: list[Display] = []
    real_init = Display.__init__

    def init(self: Display, *args, **kw) -> None:  # type: ignore[no-untyped-def]
        real_init(self, *args, **kw)
        displays.append(self)

    collected: list[bool] = []
    real_collect = table_app.collect_while_idle

    def collect() -> int | None:
        collected.append(displays[-1].wants_frame())
        return real_collect()

    monkeypatch.setattr(Display, "__init__", init)
    monkeypatch.setattr(table_app, "collect_while_idle", collect)
    sleeps = run_past_a_roll(tmp_path, monkeypatch)
    assert table_app.ANIMATION_MS / 1000 in sleeps, "the die never tumbled"
    assert collected and not any(collected), "collected while the die tumbled, or never"


def test_an_idle_table_wakes_for_the_watchdog_alone_without_a_pass(tmp_path: Path, monkeypatch) -> None:
    """Nothing scheduled and nothing moving: the wakes systemd's watchdog needs ping it and sleep
    again, with no pass of the loop (a tenth of the cost); a tap still gets its pass at once."""
    config = parse_config({"storage": {"state_dir": str(tmp_path / "state")}, "display": {"sound": False}})
    monkeypatch.setattr(table_app, "IDLE_S", 0.02)
    monkeypatch.setattr(table_app, "watchdog_interval", lambda: 0.04)
    pings: list[float] = []
    monkeypatch.setattr(table_app, "notify", lambda what: pings.append(time.monotonic()) if what == "WATCHDOG=1" else None)
    passes: list[float] = []
    real_handle = table_app.TableLoop.handle_events

    def handle(self: table_app.TableLoop) -> None:
        passes.append(time.monotonic())
        real_handle(self)

    monkeypatch.setattr(table_app.TableLoop, "handle_events", handle)
    loops = made_loops(monkeypatch)
    seen: dict[str, object] = {}

    def later() -> None:
        while not passes:
            time.sleep(0.01)
        time.sleep(0.8)
        seen["quiet"], seen["passes"], seen["pings"] = loops[0].quiet_wakes, len(passes), len(pings)
        loops[0].keyboard.scan_card("player-1")
        time.sleep(0.3)
        seen["joined"] = loops[0].ctl.history_len
        table_app.stop()

    threading.Thread(target=later, daemon=True).start()
    assert table_app.run(config, sim=True) == 0
    assert int(seen["quiet"]) >= 20, seen                  # ~40 wakes in 0.8 s, nearly all quiet
    assert int(seen["passes"]) <= 5, seen                  # the start's few passes, then none
    assert int(seen["pings"]) >= 10, seen                  # the watchdog pinged all the while
    assert seen["joined"] == 1                             # and a tap was handled at once
