"""The log after the frame (table/app/logafter.py): while the table runs, what a pass logs is held
until its frame is on the glass; an error goes at once, and everything goes when the table stops."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest

import table.app.run as app_run
from table.app.logafter import LogAfterFrame
from table.config import parse_config
from table.ui.display import Display
from tests.table.loop_helpers import made_loops


class Lines(logging.Handler):
    def __init__(self, level: int = logging.NOTSET) -> None:
        super().__init__(level)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_records_wait_for_the_flush_errors_do_not_and_each_handler_keeps_its_level() -> None:
    root = logging.getLogger("logafter-test")
    root.propagate = False
    root.setLevel(logging.DEBUG)
    every, errors = Lines(), Lines(logging.ERROR)
    root.handlers = [every, errors]
    held = LogAfterFrame().install(root)
    try:
        root.info("joined")
        root.warning("refused")
        assert every.lines == [] and root.handlers == [held]
        held.flush()
        assert every.lines == ["joined", "refused"] and errors.lines == []
        root.info("later")
        root.error("broken")                        # at once, with what came before it
        assert every.lines[-2:] == ["later", "broken"] and errors.lines == ["broken"]
        root.info("last")
    finally:
        held.remove(root)
    assert every.lines[-1] == "last" and root.handlers == [every, errors]


def test_the_running_table_logs_a_taps_lines_after_its_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    order: list[str] = []
    root = logging.getLogger()
    mark = Lines()
    mark.emit = lambda record: order.append("log:" + record.getMessage())     # type: ignore[method-assign]
    root.addHandler(mark)
    level = root.level
    root.setLevel(logging.INFO)
    real_push = Display.push
    monkeypatch.setattr(Display, "push", lambda self, dirty: (order.append("push"), real_push(self, dirty))[1])
    loops = made_loops(monkeypatch)

    def play() -> None:
        deadline = time.monotonic() + 20
        while not loops and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        order.append("tap")
        loops[0].keyboard.scan_card("player-1")
        while not any("joined" in line for line in order) and time.monotonic() < deadline:
            time.sleep(0.02)
        app_run.stop()

    threading.Thread(target=play, daemon=True).start()
    try:
        assert app_run.run(parse_config({"storage": {"state_dir": str(tmp_path)}}), sim=True) == 0
    finally:
        root.removeHandler(mark)
        root.setLevel(level)
    after = order[order.index("tap"):]
    joined = next(i for i, line in enumerate(after) if "joined" in line)
    assert "push" in after[:joined], after                  # the frame that shows the join went first
    assert not any("joined" in line for line in order[:order.index("tap")])     # nor the rehearsal's joins
    assert root.handlers.count(mark) == 0 and not any(isinstance(h, LogAfterFrame) for h in root.handlers)
