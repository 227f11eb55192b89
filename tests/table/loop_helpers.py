"""Running the real table loop in a test: the loops it makes, and a run stopped once it loops."""

from __future__ import annotations

import threading
import time

import pytest

import table.app.run as app_run
from table.config import Config


def made_loops(monkeypatch: pytest.MonkeyPatch) -> list[app_run.TableLoop]:
    """Each TableLoop the test's run makes, as it is made (no piped script read from stdin)."""
    loops: list[app_run.TableLoop] = []
    real_init = app_run.TableLoop.__init__

    def init(self: app_run.TableLoop, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)            # type: ignore[arg-type]
        loops.append(self)

    monkeypatch.setattr(app_run.TableLoop, "__init__", init)
    monkeypatch.setattr(app_run, "stdin_lines", lambda: None)
    return loops


def run_until_it_loops(config: Config, monkeypatch: pytest.MonkeyPatch,
                       looping: threading.Event | None = None) -> threading.Event:
    """The table run on ``config`` (sim) until its loop has handled a pass, then stopped; ``looping``
    (made here when not given) is set at that first pass, so a patch can tell start-up from the loop."""
    looping = looping or threading.Event()
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
    assert app_run.run(config, sim=True) == 0
    return looping
