"""The enroll loop sleeps like the table's: on the driver queue's wake, never pygame.event.wait."""

from __future__ import annotations

import threading
from pathlib import Path

import pygame
import pytest

from table.app import run as table_app
from table.app import enroll as table_enroll
from table.app.run import PUMP_S, sleep_until_woken
from table.config import load_config
from table.app.enroll import EnrollApp


class FakeEvent:
    """A threading.Event that records how long it was asked to wait, and never sleeps."""

    def __init__(self, is_set: bool = False) -> None:
        self.flag = is_set
        self.waits: list[float] = []

    def wait(self, timeout: float) -> bool:
        self.waits.append(timeout)
        return self.flag

    def clear(self) -> None:
        self.flag = False


def test_sleep_waits_at_most_one_pump_and_rearms() -> None:
    long, short, due = FakeEvent(), FakeEvent(), FakeEvent(is_set=True)
    sleep_until_woken(long, 5.0)            # nothing due for 5 s: still pump pygame PUMP_S later
    sleep_until_woken(short, 0.01)          # a deadline sooner than the pump
    sleep_until_woken(due, 0.0)             # already due: no wait at all
    assert long.waits == [PUMP_S] and short.waits == [0.01] and due.waits == []
    assert not due.flag                     # woken is re-armed for the next driver event


def test_a_driver_event_ends_the_sleep_at_once() -> None:
    woken = threading.Event()
    woken.set()
    sleep_until_woken(woken, 5.0)           # returns without waiting, since the event is set
    assert not woken.is_set()


@pytest.fixture
def config(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n[reader]\ntype = "sim"\n')
    return load_config(path)


def test_enroll_loop_sleeps_on_the_driver_wake_not_on_pygame(config, monkeypatch, capsys) -> None:
    def no_wait(*_a, **_k):
        raise AssertionError("pygame.event.wait polls every millisecond on the dummy and KMSDRM drivers")

    monkeypatch.setattr(pygame.event, "wait", no_wait)
    app = EnrollApp(config, sim=True)
    sleeps: list[tuple[bool, float]] = []

    def sleep(woken: threading.Event, timeout: float) -> None:
        if not sleeps:
            app.reader.scan("04000001")     # a tap from the reader's thread wakes the loop
        elif len(sleeps) == 1:
            app.buttons.press("run")
        sleeps.append((woken.is_set(), timeout))
        table_app.sleep_until_woken(woken, timeout)
        assert not woken.is_set()

    monkeypatch.setattr(table_enroll, "sleep_until_woken", sleep)
    assert app.run() == 0
    assert sleeps == [(True, PUMP_S), (True, PUMP_S)]
    assert "enrolled 1 of 174" in capsys.readouterr().out
