"""The league in the running table: started from the config, a refusal said once, /league's watch."""

from __future__ import annotations

import threading
from pathlib import Path

from table.app.league import start_league
from table.config import parse_config
from tests.league.rig import Box, league_config, until


def test_the_running_table_says_a_refusal_once_and_plays_on(tmp_path: Path, broker) -> None:
    config = league_config(tmp_path / "a", broker.url(), "table-a", password="wrong")
    box = Box.__new__(Box)
    from drivers.base import ManualClock
    from table.control.assembly import build_table

    box.clock = ManualClock()
    box.table = build_table(config, box.clock, seed_source=lambda: 7)
    woken = threading.Event()
    league = start_league(config, box.table, woken.set)
    assert league is not None and league.watch is None          # no web view: no watch
    try:
        until(lambda: league.publisher.problem is not None, what="the refusal")
        assert woken.is_set()                                   # the loop is woken to say it
        notice = league.notice()
        assert notice is not None and "wrong username or password" in str(notice)
        assert league.notice() is None                           # once
    finally:
        league.close()
        box.table.journal.close()


def test_with_the_web_view_on_the_table_watches_the_league(tmp_path: Path, broker) -> None:
    data = {"storage": {"state_dir": str(tmp_path / "a")}, "web": {"enabled": True},
            "league": {"broker": broker.url(), "league": "friday", "table": "table-a", "username": "table-a",
                       "password": "pw-a"}}
    config = parse_config(data)
    from drivers.base import ManualClock
    from table.control.assembly import build_table

    table = build_table(config, ManualClock(), seed_source=lambda: 7)
    league = start_league(config, table, lambda: None)
    assert league is not None and league.watch is not None
    try:
        until(lambda: league.snapshot() is not None and "table-a" in league.snapshot().tables, what="the watch")
    finally:
        league.close()
        table.journal.close()
    assert start_league(parse_config({"storage": {"state_dir": str(tmp_path / "b")}}), table, lambda: None) is None


def test_the_league_board_runs_until_its_window_closes(tmp_path: Path, broker, monkeypatch) -> None:
    import pygame

    import table.app.league as app_league
    from table.ui.display import use_headless_drivers

    use_headless_drivers()
    monkeypatch.setattr(app_league, "BOARD_IDLE_S", 0.05)
    drawn: list[object] = []
    import table.ui.league_board as board

    original = board.draw_league_board

    def spy(painter, data, name, **kw):  # type: ignore[no-untyped-def]
        drawn.append(data)
        original(painter, data, name, **kw)
        if data["standings"] is not None:
            pygame.event.post(pygame.event.Event(pygame.QUIT))

    monkeypatch.setattr(board, "draw_league_board", spy)
    config = league_config(tmp_path / "wall", broker.url(), "board", password="pw-board")
    assert app_league.run_league_board(config) == 0
    assert drawn and drawn[-1]["standings"]["games"] == 0           # the league read (empty), then closed
    off = parse_config({"storage": {"state_dir": str(tmp_path / "off")}})
    assert app_league.run_league_board(off) == 2


def test_run_publishes_the_table_online_and_its_state_and_says_offline_when_it_closes(tmp_path: Path, broker,
                                                                                       monkeypatch) -> None:
    import table.app.run as app_run
    from tests.league.rig import read

    monkeypatch.setattr(app_run, "stdin_lines", lambda: None)        # nothing piped: the loop alone
    config = league_config(tmp_path / "a", broker.url(), "table-a")
    failures: list[str] = []

    def watch() -> None:
        try:
            until(lambda: (read(config).tables.get("table-a") or None) is not None
                  and read(config).tables["table-a"].online is True
                  and read(config).tables["table-a"].state is not None, timeout=20, what="online and its state")
        except AssertionError as exc:
            failures.append(str(exc))
        finally:
            app_run.stop()

    worker = threading.Thread(target=watch, daemon=True)
    worker.start()
    assert app_run.run(config, sim=True) == 0
    worker.join(5)
    assert failures == []
    seen = read(config).tables["table-a"]
    assert seen.online is False and seen.state is not None and seen.state["phase"] == "setup"
