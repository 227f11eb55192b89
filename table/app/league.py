"""The league in the running table (issue 25), and the board-only screen (``run --league-board``).

``start_league`` attaches the publisher to the table (and, with the web view on, a watch of the league
for ``/league``); the loop hands it each new state after the frame, and says on screen when the broker
cannot be used. ``run_league_board`` is a box that plays no game: it shows the league's standings and
tables, redrawn when the broker sends something new.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.messages import Msg
from table.config import Config
from table.control.assembly import Table
from table.league.extra import NO_PAHO, paho_missing
from table.ui import league_board
from table.ui.screen import NoScreen, ScreenPlan
from table.web.league import league_data

if TYPE_CHECKING:           # paho-mqtt is loaded only when [league] names a broker
    from table.league.publisher import Publisher
    from table.league.watch import LeagueWatch

log = logging.getLogger(__name__)

BOARD_IDLE_S = 5.0          # the board redraws at least this often (a broker gone, a table gone quiet)


@dataclass
class LeagueRun:
    """The running table's league: its publisher, and the watch behind /league (None without the web view)."""

    publisher: Publisher
    watch: LeagueWatch | None = None
    said: Msg | None = None

    def snapshot(self) -> Any:
        return self.watch.snapshot() if self.watch is not None and self.watch.ready else None

    def notice(self) -> Msg | None:
        """The publisher's problem when it is new since the last call (to say on screen once)."""
        problem = self.publisher.problem
        if problem == self.said:
            return None
        self.said = problem
        return problem

    def close(self) -> None:
        if self.watch is not None:
            self.watch.close()
        self.publisher.close()


def start_league(config: Config, table: Table, wake: Callable[[], None]) -> LeagueRun | None:
    """The league when ``[league]`` names a broker; nothing here waits for the network. Without paho-mqtt
    installed: one line naming the install command, and the table plays on without the league."""
    if not config.league.enabled:
        return None
    try:
        from table.league.publisher import attach     # paho-mqtt is loaded only when [league] names a broker
        from table.league.watch import LeagueWatch    # paho-mqtt is loaded only when [league] names a broker
    except ImportError as exc:
        if not paho_missing(exc):
            raise
        log.warning("%s; the table plays on without the league", NO_PAHO)
        return None
    publisher = attach(config, table, notify=wake)
    assert publisher is not None            # the config names a broker
    watch = LeagueWatch(config.league).follow() if config.web.enabled else None
    print(f"munchkin-table: league {config.league.league} on {config.league.broker} as table {config.league.table}",
          file=sys.stderr)
    return LeagueRun(publisher, watch)


def run_league_board(config: Config) -> int:
    """The board-only screen until its window closes; 2 when there is no screen or no league."""
    import pygame

    if not config.league.enabled:
        print(f"munchkin-table: {config.source}: no [league] broker; --league-board shows a league's standings "
              f"(docs/league.md)", file=sys.stderr)
        return 2
    try:
        from table.league.watch import LeagueWatch    # paho-mqtt is loaded only when [league] names a broker
    except ImportError as exc:
        if not paho_missing(exc):
            raise
        print(f"munchkin-table: {NO_PAHO}", file=sys.stderr)
        return 2
    plan = ScreenPlan(config)
    try:
        plan.check()
        display = plan.open(title="munchkin-table league")
    except NoScreen as exc:
        print(f"munchkin-table: {exc}", file=sys.stderr)
        return 2
    changed = threading.Event()
    watch = LeagueWatch(config.league, on_change=changed.set).follow()
    try:
        while True:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 0
            league = watch.snapshot() if watch.ready else None
            problem = str(watch.refused) if watch.refused is not None else ""
            league_board.draw_league_board(display.painter, league_data(league), config.league.league, s=display.s,
                                           problem=problem)
            pygame.display.flip()
            changed.wait(BOARD_IDLE_S)
            changed.clear()
    except KeyboardInterrupt:
        return 0
    finally:
        watch.close()
        display.close()
