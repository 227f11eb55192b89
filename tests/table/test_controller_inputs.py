"""How the controller reads driver events: held buttons, reader status, unknown tags."""

from __future__ import annotations

from pathlib import Path

from drivers.base import ManualClock
from drivers.events import Press, ReaderStatus, Release, Tap
from drivers.sim import NullFeedback
from table.config import Config, StorageConfig
from table.control.assembly import build_table


def table_at(tmp_path: Path):
    clock = ManualClock()
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), clock, seed_source=lambda: 1)
    table.controller.feedback = NullFeedback()
    return table, clock


def test_holding_a_button_acts_once(tmp_path: Path) -> None:
    table, clock = table_at(tmp_path)
    ctl = table.controller
    for n in (1, 2, 3):
        ctl.handle(Tap("", 0.0, card=f"player-{n}"))
    ctl.handle(Tap("", 0.0, card="boots-of-butt-kicking"))  # refused: the game has not started
    ctl.handle(Press("next", 0.0))
    assert ctl.state.phase.value == "kick-open-the-door"
    assert ctl.handle(Press("next", 1.0, held=True)) is None
    ctl.handle(Release("next", 1.2))
    assert ctl.state.phase.value == "kick-open-the-door"


def test_reader_offline_and_back_is_shown_and_signalled(tmp_path: Path) -> None:
    table, _ = table_at(tmp_path)
    ctl = table.controller
    feedback = ctl.feedback
    out = ctl.handle(ReaderStatus("pad", False, "reader offline: /dev/serial0 unplugged", 1.0))
    assert out is not None and ctl.message.text == "reader offline: /dev/serial0 unplugged"
    assert ctl.message.kind == "refusal" and ctl.reader_online is False
    ctl.handle(ReaderStatus("pad", True, "PN532 v1.6 ready", 2.0))
    assert ctl.message.text == "reader back online" and ctl.reader_online is True
    assert feedback.log[-2:] == ["offline", "online"]


def test_an_unknown_tag_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    table, _ = table_at(tmp_path)
    ctl = table.controller
    before = ctl.history_len
    ctl.handle(Tap("04DEADBEEF0001", 0.0))
    assert "unknown tag 04DEADBEEF0001" in ctl.message.text
    assert ctl.history_len == before and ctl.feedback.log[-1] == "refused"


def test_an_internal_error_is_logged_and_refused_and_the_table_goes_on(tmp_path: Path, monkeypatch, caplog) -> None:
    import table.session.game as session_module

    table, _ = table_at(tmp_path)
    ctl = table.controller
    ctl.handle(Tap("", 0.0, card="player-1"))

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(session_module, "apply", broken)
    out = ctl.handle(Tap("", 0.0, card="player-2"))
    assert out is not None and not out.accepted and "internal error" in ctl.message.text
    assert "Traceback" in caplog.text or any(r.exc_info for r in caplog.records)
    monkeypatch.undo()
    ctl.handle(Tap("", 0.0, card="player-2"))
    assert [p.id for p in ctl.state.players] == ["player-1", "player-2"]


def test_run_without_a_screen_says_what_to_do_and_exits_2(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, SDL_VIDEODRIVER="no-such-driver", XDG_STATE_HOME=str(tmp_path), PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-m", "table", "run", "--sim"], capture_output=True, text=True, env=env,
                         cwd=root, timeout=60, stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    assert "no screen to draw on" in out.stderr and "Traceback" not in out.stderr
    assert [line for line in out.stderr.splitlines() if "no screen" in line or "ERROR" in line] == out.stderr.splitlines()[-1:]
