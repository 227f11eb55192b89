"""The box's publisher: its games' facts from the outbox, its state and whether it is online.

It runs on threads of its own: a worker that reads the outbox and hands messages to paho, and
paho's network loop (``loop_start``). The table thread only hands over what changed (``state``,
``games_waiting``): a reference and an ``Event.set()``, never a wait on the network or the broker.

* ``munchkin/<league>/games/<table>/<game>``: every outbox row, QoS 1, retained; the row is deleted
  only when the broker's PUBACK says it took it. Rows waiting when the box starts are sent then.
* ``.../tables/<table>/state``: the state JSON, retained, at most ``state_per_second`` times a
  second; only the latest state waiting is sent (latest wins).
* ``.../tables/<table>/online``: a retained ``true`` on every connect; the last will says ``false``.

Anything that goes wrong (the broker down, a wrong password, a certificate it refuses, an ACL that
refuses a topic) is one sentence in ``problem`` (``notify`` is called when it changes); the table
plays on, and the outbox keeps what it holds until the broker takes it.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from engine.cards import Catalog
from engine.messages import Msg, msg
from engine.serialize import state_to_json
from engine.state import GameState
from table.config import Config, LeagueConfig
from table.control.assembly import Table
from table.league.connection import LeagueError, client_id, connect, describe_refusal, make_client
from table.league.topics import game_topic, online_topic, state_topic
from table.storage.outbox import Outbox, Waiting

log = logging.getLogger(__name__)

IDLE_S = 5.0            # the worker looks at the outbox at least this often
MAX_BACKOFF_S = 30.0    # between connection attempts while the broker cannot be reached


class Publisher:
    """One box's connection to its league's broker (see the module's docstring)."""

    def __init__(self, config: LeagueConfig, journal_path: Path, catalog: Catalog, *,
                 notify: Callable[[], None] | None = None) -> None:
        self.config = config
        self.catalog = catalog
        self.outbox = Outbox(journal_path)
        self.notify = notify
        self.problem: Msg | None = None
        self.connected = False
        self.acknowledged = 0               # outbox rows the broker took (and that left the outbox)
        self.states_sent = 0
        self._min_gap = 1.0 / config.state_per_second
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._state: GameState | None = None     # waiting to be sent
        self._last: GameState | None = None      # the last handed over
        self._state_due = 0.0
        self._inflight: dict[int, int] = {}     # paho's message id -> outbox row id
        self._handed: set[int] = set()          # outbox rows handed to paho (it resends them itself)
        self._refused: set[int] = set()         # rows the broker refused: tried again after the next connect
        self._acks: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
        self._games_due = True                  # the outbox is read only when it may hold something new
        self._client: mqtt.Client | None = None
        self._thread = threading.Thread(target=self._run, name="league-publisher", daemon=True)

    # ------------------------------------------------------------ the table thread's side

    def start(self) -> Publisher:
        self._thread.start()
        return self

    def games_waiting(self) -> None:
        """New rows are in the outbox (the session's hook, after the commit that wrote them)."""
        self._games_due = True
        self._wake.set()

    def state(self, state: GameState) -> None:
        """The table's state changed: this one is sent next (a later one replaces it while it waits).
        The same state again (the screen changed, the game did not) is nothing to send."""
        if state is self._last:
            return
        self._last = state
        with self._lock:
            self._state = state
        self._wake.set()

    def close(self, timeout: float = 2.0) -> None:
        """Say offline, disconnect and stop the threads (at most about ``timeout`` seconds)."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.outbox.close()

    # ------------------------------------------------------------ the worker

    def _run(self) -> None:
        backoff = 1.0
        while not self._stop.is_set():
            if self._client is None:
                try:
                    self._client = self._connect()
                    backoff = 1.0
                except LeagueError as exc:
                    self._say(exc.args[0])
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, MAX_BACKOFF_S)
                    continue
            self._cleared()
            timeout = IDLE_S
            if self.connected and self._games_due:
                self._games_due = False         # (before the read: rows committed meanwhile set it again)
                self._send_games()
            if self.connected:
                timeout = min(timeout, self._send_state())
            self._wake.wait(timeout)
            self._wake.clear()
        self._goodbye()

    def _connect(self) -> mqtt.Client:
        cfg = self.config
        client = make_client(cfg, ident=client_id(cfg))
        client.will_set(online_topic(cfg.league, cfg.table), "false", qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        connect(client, cfg, persistent=True)
        client.loop_start()
        return client

    def _send_games(self) -> None:
        client = self._client
        assert client is not None
        for row in self.outbox.waiting():
            if row.id in self._handed or row.id in self._refused:
                continue
            info = client.publish(game_topic(self.config.league, self.config.table, row.game), self._payload(row),
                                  qos=1, retain=True)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                self._games_due = True  # not connected after all: the next connect sends it
                return
            self._inflight[info.mid] = row.id
            self._handed.add(row.id)
        self._cleared()                 # a PUBACK that came before its row was mapped (on_publish did not wake us)

    def _payload(self, row: Waiting) -> str:
        head = json.dumps({"league": self.config.league, "table": self.config.table}, ensure_ascii=False)
        return head[:-1] + "," + row.body[1:]          # the row's object, with the league and the table first

    def _send_state(self) -> float:
        """The latest state when its turn has come; how long until the next may go."""
        now = time.monotonic()
        with self._lock:
            state = self._state
            if state is None:
                return IDLE_S
            if now < self._state_due:
                return self._state_due - now
            self._state = None
        assert self._client is not None
        body = json.dumps(state_to_json(state, self.catalog), separators=(",", ":"), ensure_ascii=False)
        info = self._client.publish(state_topic(self.config.league, self.config.table), body, qos=1, retain=True)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            with self._lock:
                self._state = self._state or state      # sent after the next connect
            return IDLE_S
        self.states_sent += 1
        self._state_due = now + self._min_gap
        return IDLE_S

    def _cleared(self) -> None:
        """The broker's PUBACKs: a game it took leaves the outbox; one it refused waits for the next connect."""
        while True:
            try:
                mid, reason = self._acks.get_nowait()
            except queue.Empty:
                return
            row = self._inflight.pop(mid, None)
            if row is None:
                continue                # a state message
            self._handed.discard(row)
            if reason < 128:
                if self.outbox.done(row):
                    self.acknowledged += 1
                continue
            self._refused.add(row)
            self._say(msg("league broker {broker} refused table {table}'s game facts (reason {code}): check that "
                          "its ACL lets this table write munchkin/{league}/games/{table}/#",
                          broker=self.config.broker, table=self.config.table, code=reason, league=self.config.league))

    def _goodbye(self) -> None:
        client = self._client
        if client is None:
            return
        try:
            if self.connected:
                info = client.publish(online_topic(self.config.league, self.config.table), "false", qos=1, retain=True)
                info.wait_for_publish(1.0)
            client.disconnect()
        except (RuntimeError, ValueError, OSError) as exc:
            log.info("league: leaving the broker: %s", exc)
        client.loop_stop()

    def _say(self, problem: Msg | None) -> None:
        if problem == self.problem:
            return
        self.problem = problem
        if problem is not None:
            log.error("%s", problem)
        else:
            log.info("league: connected to %s", self.config.broker)
        if self.notify is not None:
            self.notify()

    # ------------------------------------------------------------ paho's callbacks (its network thread)

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self.connected = False
            self._say(describe_refusal(reason, self.config))
            return
        self.connected = True
        self._refused.clear()
        self._games_due = True
        with self._lock:                # the table as it is now, also after the broker came back
            self._state = self._state or self._last
        client.publish(online_topic(self.config.league, self.config.table), "true", qos=1, retain=True)
        self._say(None)
        self._wake.set()

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        self.connected = False
        self._say(msg("league broker {broker} cannot be reached; the table plays on and sends its games when it is "
                      "back", broker=self.config.broker))

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        was, self.connected = self.connected, False
        if self._stop.is_set():
            return
        if was:
            self._say(msg("league broker {broker} went away; the table plays on and sends its games when it is "
                          "back", broker=self.config.broker))
        elif self.problem is None:      # closed before its CONNACK: TLS 1.3 says a refused certificate only now
            self._say(msg("league broker {broker} refused this box's certificate (it closed the connection before "
                          "accepting it); check [league] cert and key", broker=self.config.broker)
                      if self.config.cert else
                      msg("league broker {broker} closed the connection before accepting this box ({why})",
                          broker=self.config.broker, why=str(reason)))

    def _on_publish(self, _client: mqtt.Client, _userdata: Any, mid: int, reason: Any, _props: Any) -> None:
        # No lock here: paho calls this holding its own, which the worker's publish() takes.
        self._acks.put((mid, int(getattr(reason, "value", 0))))
        if mid in self._inflight:       # a game's: the worker clears it now (a state's waits for the next wake)
            self._wake.set()

    def __repr__(self) -> str:
        state = "connected" if self.connected else "not connected"
        return f"<Publisher {self.config.league}/{self.config.table} {state}, {self.acknowledged} acknowledged>"


def attach(config: Config, table: Table, *, notify: Callable[[], None] | None = None) -> Publisher | None:
    """The table's publisher when ``[league]`` names a broker (None when it does not): the session writes
    its games' facts to the outbox from now on, and the publisher sends them."""
    if not config.league.enabled:
        return None
    publisher = Publisher(config.league, table.journal.path, table.catalog, notify=notify)
    session = table.controller.session
    session.league_outbox = True
    session.on_outbox = publisher.games_waiting
    publisher.start()
    publisher.state(session.state)
    return publisher
