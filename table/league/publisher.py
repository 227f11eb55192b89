"""The box's publisher: its games' facts from the outbox, its state and whether it is online.

One thread of its own, the worker, owns the connection: it connects and reconnects, reads the
broker's packets (paho's ``loop_read``/``loop_write``/``loop_misc`` under its own ``select``, not
paho's network thread) and sends the outbox. The table thread hands over what changed (``state``,
``games_waiting``) and never waits on the network or the broker.

A state is the one message sent on every tap, so it costs as little as it can: the frame's own state
JSON (``orjson``), one MQTT PUBLISH packet (QoS 0, retained) written by the table thread itself,
after its frame, to the non-blocking socket, and no thread switch (on the bench machine paho's own
``publish`` alone cost about 5 % of a tap, and handing each state to a thread about 20 %). The
packet goes only between whole packets of paho's (nothing of paho's queued, everything under the one
lock all of paho's I/O takes); what the socket does not take at once is finished by the worker before
paho writes again. QoS 0, because the state is "latest wins": the next tap replaces a lost one, and
every connect sends the latest again.

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
import select
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes

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
        self._stop = threading.Event()
        self._bell, self._ringer = socket.socketpair()     # the worker's select wakes on a byte here
        self._bell.setblocking(False)
        self._ringer.setblocking(False)
        self._io = threading.Lock()             # paho's socket and queues: one thread at a time
        self._lock = threading.Lock()
        self._state: tuple[GameState, dict[str, Any] | None] | None = None     # waiting to be sent
        self._last: GameState | None = None      # the last handed over
        self._state_due = 0.0
        self._live = False                      # the client has a connection (or is opening one)
        self._dial_at = 0.0                     # when the worker may connect again
        self._backoff = 1.0
        self._unsent: deque[bytes] = deque()     # state packets the socket has not taken yet (the worker finishes them)
        self._state_topic = state_topic(config.league, config.table).encode()
        self._once = False                      # connected at least once (later failures are "cannot be reached")
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
        self._ring()

    def state(self, state: GameState, data: dict[str, Any] | None = None) -> None:
        """The table's state changed (``data``: its ``state_to_json``, when the caller has it already).

        When its turn has come (the rate limit) and the worker is not using the connection, it is
        written here and now, to the non-blocking socket; otherwise it waits for the worker, and a later
        one replaces it while it waits (latest wins). The same state again (the screen changed, the game
        did not) is nothing to send."""
        if state is self._last:
            return
        self._last = state
        if self.connected and time.monotonic() >= self._state_due and self._io.acquire(blocking=False):
            try:
                with self._lock:
                    self._state = None          # this one is newer than any waiting
                sent = self._publish_state(state, data)
                behind = bool(self._unsent)
            finally:
                self._io.release()
            if sent:
                if behind:                      # the socket took part of it: the worker writes the rest
                    self._ring()
                return
        with self._lock:
            self._state = (state, data)
        self._ring()

    def close(self, timeout: float = 2.0) -> None:
        """Say offline, disconnect and stop the thread (at most about ``timeout`` seconds)."""
        self._stop.set()
        self._ring()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if not self._thread.is_alive():
            self._bell.close()
            self._ringer.close()
        self.outbox.close()

    def _ring(self) -> None:
        try:
            self._ringer.send(b"!")
        except OSError:
            pass                                # a byte is waiting already (or the box is closing)

    # ------------------------------------------------------------ the worker

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._live:
                wait = self._dial_at - time.monotonic()
                if wait > 0:
                    self._pump(wait)            # only the bell: close() or the table
                    continue
                try:
                    self._dial()
                except LeagueError as exc:
                    self._say(msg("league broker {broker} cannot be reached; the table plays on and sends its games "
                                  "when it is back", broker=self.config.broker) if self._once else exc.args[0])
                    self._lost()
                    continue
            with self._io:
                self._cleared()
                timeout = IDLE_S
                if self.connected and self._games_due:
                    self._games_due = False         # (before the read: rows committed meanwhile set it again)
                    self._send_games()
                if self.connected:
                    timeout = min(timeout, self._send_state())
            self._pump(timeout)
        self._goodbye()

    def _dial(self) -> None:
        """Connect (blocking: this is the worker); the first time, the client is made and its will set."""
        cfg = self.config
        if self._client is None:
            client = make_client(cfg, ident=client_id(cfg))
            client.will_set(online_topic(cfg.league, cfg.table), "false", qos=1, retain=True)
            client.on_connect = self._on_connect
            client.on_disconnect = self._on_disconnect
            client.on_publish = self._on_publish
            self._client = client
        with self._io:                          # (the table thread does not publish before CONNACK)
            self._unsent.clear()                # the rest of a packet means nothing on a new connection
            connect(self._client, cfg, persistent=True)
            self._live = True

    def _lost(self) -> None:
        """The connection is gone or could not be made: the next attempt waits, longer each time."""
        self._live = False
        self._dial_at = time.monotonic() + self._backoff
        self._backoff = min(self._backoff * 2, MAX_BACKOFF_S)

    def _pump(self, timeout: float) -> None:
        """Wait (at most ``timeout``) for the broker, the bell or a socket that takes more bytes; then
        finish a state packet the socket took only part of, and let paho read, write and keep the
        connection alive."""
        client = self._client
        sock = client.socket() if client is not None and self._live else None
        watch: list[Any] = [self._bell] if sock is None else [self._bell, sock]
        wants = [sock] if sock is not None and client is not None and (self._unsent or client.want_write()) else []
        try:
            readable, _w, _x = select.select(watch, wants, [], max(0.0, timeout))
        except (OSError, ValueError):           # the socket closed under us (a write on the table thread failed)
            readable = []
        if self._bell in readable:
            try:
                self._bell.recv(4096)
            except OSError:
                pass
        if sock is None or client is None:
            return
        with self._io:
            if client.socket() is not sock:
                rc = mqtt.MQTT_ERR_CONN_LOST
            elif not self._finish_unsent(sock):
                return                          # paho must not write (or answer) before that packet is whole
            else:
                rc = client.loop_read() if sock in readable else mqtt.MQTT_ERR_SUCCESS
                if rc == mqtt.MQTT_ERR_SUCCESS and client.want_write():
                    rc = client.loop_write()
                if rc == mqtt.MQTT_ERR_SUCCESS:
                    rc = client.loop_misc()
            if rc != mqtt.MQTT_ERR_SUCCESS or client.socket() is None:
                self._lost()

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
        """The state waiting, when its turn has come; how long until the next may go."""
        now = time.monotonic()
        with self._lock:
            waiting = self._state
            if waiting is None:
                return IDLE_S
            if now < self._state_due:
                return self._state_due - now
            self._state = None
        self._publish_state(*waiting)
        return IDLE_S

    def _publish_state(self, state: GameState, data: dict[str, Any] | None) -> bool:
        """Write one state's PUBLISH to the socket (the caller holds ``_io``); whether it went (the socket
        may have taken only part of it: the rest is in ``_unsent``). One that could not go now (paho is in
        the middle of a packet of its own, or the connection is gone) waits, unless a newer one comes."""
        client = self._client
        sock = client.socket() if client is not None and self.connected else None
        if sock is None or client is None or (client.want_write() and not self._unsent):
            with self._lock:
                self._state = self._state or (state, data)
            return False
        body = orjson.dumps(data if data is not None else state_to_json(state, self.catalog))
        self._unsent.append(publish_packet(self._state_topic, body))
        self._finish_unsent(sock)
        self.states_sent += 1
        self._state_due = time.monotonic() + self._min_gap
        return True

    def _finish_unsent(self, sock: Any) -> bool:
        """Write what the socket takes of the state packets waiting; whether none is left."""
        while self._unsent:
            packet = self._unsent[0]
            try:
                n = sock.send(packet)
            except (BlockingIOError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
                return False            # (TLS: the same bytes again next time, as OpenSSL asks)
            except OSError:
                self._unsent.clear()    # the connection broke: paho's next read says so, and a connect resends
                self._ring()
                return True
            if n < len(packet):
                self._unsent[0] = packet[n:]    # (and try the rest: the socket says when it is full)
            else:
                self._unsent.popleft()
        return True

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

    def _goodbye(self, timeout: float = 1.0) -> None:
        """Say offline (waiting at most ``timeout`` for the broker to take it) and disconnect."""
        client = self._client
        if client is None or not self._live:
            return
        try:
            if self.connected:
                with self._io:
                    info = client.publish(online_topic(self.config.league, self.config.table), "false", qos=1,
                                          retain=True)
                deadline = time.monotonic() + timeout
                while self._live and not info.is_published() and time.monotonic() < deadline:
                    self._pump(deadline - time.monotonic())
            with self._io:
                client.disconnect()
        except (RuntimeError, ValueError, OSError) as exc:
            log.info("league: leaving the broker: %s", exc)

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

    # ------------------------------------------------------------ paho's callbacks (under ``_io``: the worker's
    # reads, or a write that failed on the table thread)

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self.connected = False
            self._say(describe_refusal(reason, self.config))
            return
        self.connected = True
        self._once = True
        self._backoff = 1.0
        self._refused.clear()
        self._games_due = True
        with self._lock:                # the table as it is now, also after the broker came back
            if self._state is None and self._last is not None:
                self._state = (self._last, None)
        client.publish(online_topic(self.config.league, self.config.table), "true", qos=1, retain=True)
        self._say(None)

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        was, self.connected = self.connected, False
        self._ring()                    # (a write on the table thread found it gone: the worker reconnects)
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
        # In a read by the worker or the table thread: the worker clears it (``_cleared``), woken for a game's.
        self._acks.put((mid, int(getattr(reason, "value", 0))))
        if mid in self._inflight:
            self._ring()

    def __repr__(self) -> str:
        state = "connected" if self.connected else "not connected"
        return f"<Publisher {self.config.league}/{self.config.table} {state}, {self.acknowledged} acknowledged>"


def publish_packet(topic: bytes, body: bytes) -> bytes:
    """An MQTT 5 PUBLISH, QoS 0, retained, with no properties (MQTT 5.0 section 3.3)."""
    variable = len(topic).to_bytes(2, "big") + topic + b"\x00"
    remaining = len(variable) + len(body)
    length = bytearray()
    while True:                                 # the remaining length: 7 bits a byte, lowest first
        remaining, byte = divmod(remaining, 128)
        length.append(byte | (0x80 if remaining else 0))
        if not remaining:
            break
    return bytes([(PacketTypes.PUBLISH << 4) | 0x01]) + bytes(length) + variable + body


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
