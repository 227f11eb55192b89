"""Simulated tables for the league's tests: a box built from a config (as ``run`` builds it), with its
publisher, played by table-script lines through the simulated drivers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import Config, parse_config
from table.control.assembly import Table, build_table
from table.league.publisher import Publisher, attach
from table.league.watch import League, read_league
from table.sim.harness import perform
from table.sim.script import parse_script
from tests.drivers.helpers import until as wait_until

PLAYERS = {"player-1": {"name": "Ann"}, "player-2": {"name": "Bob"}, "player-3": {"name": "Cy"},
           "player-4": {"name": "Dee"}}
START = "tap player-1\ntap player-2\ntap player-3\npress next\n"
# Winning level 2, no interference window: the first kill wins. Ann kills at once; Bob after Ann's
# empty turn; in CY_WINS Ann is caught by the Net Troll and Bob dies to the Horror first.
KILL = "tap boots-of-butt-kicking\ntap lame-goblin\npress next\n"
ANN_WINS = START + KILL
BOB_WINS = START + "press next\npress next\npress next\n" + KILL
CY_WINS = START + ("tap net-troll\npress run\ndie 1\npress roll\npress next\npress next\n"
                   "tap unspeakably-awful-indescribable-horror\npress run\ndie 1\npress roll\npress next\n") + KILL
MID_GAME = START + "tap net-troll\npress run\ndie 1\npress roll\npress next\n"     # Bob's turn next


def league_config(state: Path, broker: str, table: str, *, password: str | None = None,
                  **extra: Any) -> Config:
    league = {"broker": broker, "league": "friday", "table": table, "username": table,
              "password": password if password is not None else f"pw-{table.removeprefix('table-')}",
              "state_per_second": 20, **extra}
    return parse_config({"storage": {"state_dir": str(state)}, "league": league, "players": PLAYERS,
                         "rules": {"winning_level": 2, "interference_seconds": 0}})


class Box:
    """One simulated table with its publisher (``close`` and build again: the box restarted)."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.clock = ManualClock()
        self.table: Table = build_table(config, self.clock, seed_source=lambda: 7, wall=lambda: 1000 + self.clock.now)
        publisher = attach(config, self.table)
        assert publisher is not None
        self.publisher: Publisher = publisher
        self.reader = SimReader(self.table.events, clock=self.clock)
        self.buttons = SimButtons(self.table.events, clock=self.clock)

    def play(self, script: str) -> list[Any]:
        outcomes: list[Any] = []
        for action in parse_script(script, self.table.catalog, source="test"):
            outcomes += perform(action, self.table, self.reader, self.buttons, self.clock)
            if self.table.controller.revision:
                self.publisher.state(self.table.controller.state)
        return outcomes

    def new_game(self) -> None:
        """A new game: NEXT from the game-over screen; mid-game, what the resume offer's NEXT NEXT does."""
        ctl = self.table.controller
        before = ctl.game_id
        if self.phase == "game-over":
            self.play("press next\n")
        else:
            ctl.start_new_game()
            self.publisher.state(ctl.state)
        assert ctl.game_id != before, ctl.message

    @property
    def phase(self) -> str:
        return str(self.table.controller.state.phase.value)

    def waiting(self) -> int:
        return self.publisher.outbox.count()

    def stats(self) -> dict[str, Any]:
        from table.session.facts import stats

        return stats(self.table.controller.records.store.tallies())

    def close(self) -> None:
        self.publisher.close()
        self.table.journal.close()


def until(test: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """``tests.drivers.helpers.until`` with the league's longer wait (a broker round trip or two)."""
    return wait_until(test, timeout, what)


def read(config: Config) -> League:
    return read_league(config.league, timeout=10)


def received(broker: Any, topic_part: str) -> int:
    """How many PUBLISH packets the broker's log says it received on topics containing ``topic_part``."""
    return sum(1 for line in broker.log().splitlines() if "Received PUBLISH" in line and f"'{topic_part}'" in line)


def summed(per_box: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each box's own ``stats`` players, added up by name by hand (maxima for the best level)."""
    out: dict[str, dict[str, Any]] = {}
    for data in per_box:
        for p in data["players"]:
            row = out.setdefault(p["name"], {"games": 0, "wins": 0, "kills": 0, "deaths": 0, "runs": 0, "escaped": 0,
                                             "highest_level": 0, "helped": 0})
            for key in ("games", "wins", "kills", "deaths", "helped"):
                row[key] += p[key]
            row["runs"] += p["runs"]["attempted"]
            row["escaped"] += p["runs"]["escaped"]
            row["highest_level"] = max(row["highest_level"], p["highest_level"])
    return out


def by_name(standings: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: {"games": p["games"], "wins": p["wins"], "kills": p["kills"], "deaths": p["deaths"],
                        "runs": p["runs"]["attempted"], "escaped": p["runs"]["escaped"],
                        "highest_level": p["highest_level"], "helped": p["helped"]} for p in standings["players"]}


class Subscriber:
    """A reader of some league topics on a connection of its own (paho's thread): every message, in the
    order the broker sent it, retained or not."""

    def __init__(self, broker: Any, topic: str, *, user: str = "board", password: str = "pw-board") -> None:
        import threading

        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages: list[Any] = []
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-sub-{id(self)}", protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        self.client.on_message = lambda _c, _u, m: self.messages.append(m)
        self.client.on_subscribe = lambda *_a: self.subscribed.set()
        self.client.on_connect = lambda c, *_a: c.subscribe(topic, 1)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def payloads(self) -> list[Any]:
        return [json.loads(m.payload) for m in list(self.messages)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def play_offline(state: Path, script: str, games: int = 1) -> list[int]:
    """``games`` games of ``script`` played by a box with no [league] (its journal in ``state``): their ids."""
    from table.config import parse_config

    config = parse_config({"storage": {"state_dir": str(state)}, "players": PLAYERS,
                           "rules": {"winning_level": 2, "interference_seconds": 0}})
    clock = ManualClock()
    table = build_table(config, clock, seed_source=lambda: 7, wall=lambda: 1000 + clock.now)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    ids = []
    try:
        for n in range(games):
            if n:
                perform(parse_script("press next\n", table.catalog)[0], table, reader, buttons, clock)
            for action in parse_script(script, table.catalog, source="test"):
                perform(action, table, reader, buttons, clock)
            assert table.controller.state.phase.value == "game-over"
            ids.append(table.controller.game_id)
    finally:
        records = table.controller.session.records
        if records is not None:
            records.close()                     # (their own connection too: no -wal file left behind)
        table.journal.close()
    return ids
