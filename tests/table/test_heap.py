"""The heap settled once the table has started (table/app/heap.py): a full collection never scans
what start-up built."""

from __future__ import annotations

import gc
import threading
import time
from pathlib import Path

import pytest

import table.app.run as app_run
from table.app.heap import settle
from table.config import parse_config


def tracked(thing: object) -> bool:
    return any(o is thing for o in gc.get_objects())


def test_settle_takes_what_is_alive_out_of_the_collectors_passes() -> None:
    built = {"catalog": [1, 2, 3]}
    assert tracked(built)
    try:
        assert settle() > 0
        assert not tracked(built)                   # frozen: no pass looks at it
        later = {"game": [4]}
        assert tracked(later)                       # what comes after is collected as ever
    finally:
        gc.unfreeze()
    assert tracked(built)


def test_the_running_table_settles_its_heap_once_before_it_takes_a_tap(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    looping = threading.Event()
    monkeypatch.setattr(app_run, "settle", lambda: calls.append(looping.is_set()) or 0)
    monkeypatch.setattr(app_run, "stdin_lines", lambda: None)
    real_handle = app_run.TableLoop.handle_events

    def handle(self: app_run.TableLoop) -> None:
        looping.set()
        real_handle(self)

    monkeypatch.setattr(app_run.TableLoop, "handle_events", handle)

    def quit_when_looping() -> None:
        looping.wait(20)
        time.sleep(0.1)
        app_run.stop()

    threading.Thread(target=quit_when_looping, daemon=True).start()
    assert app_run.run(parse_config({"storage": {"state_dir": str(tmp_path)}}), sim=True) == 0
    assert calls == [False]                         # once, before the loop handled anything
