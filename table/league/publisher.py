"""The box's publisher: its games' facts from the outbox, its state and whether it is online.

One thread of its own, the worker, owns the connection: it connects and reconnects, and runs paho's
external-loop calls (``loop_read``/``loop_write``/``loop_misc`` under its own ``select`` on
``client.socket()``), never paho's network thread. Everything is said through paho's public API
(``publish``, ``subscribe``, ``unsubscribe`` and its callbacks); nothing here writes to a socket.
Every call into paho is made under one lock (``_io``), so paho's packets are never interleaved.

* ``munchkin/<league>/games/<table>/<game>``: every outbox row, QoS 1, retained. On the broker's
  PUBACK the row leaves the outbox and the game is recorded as acknowledged, in the journal
  (:meth:`table.storage.outbox.Outbox.acknowledged`). Rows waiting when the box starts are sent then.
* ``.../tables/<table>/state``: the league's view of the table (:func:`league_state`: phase, turn,
  who plays at which level, the winners), retained, QoS 0, only when it changed and at most
  ``state_per_second`` times a second (latest wins); a change of the phase or of whose turn it is
  alone (most taps: a monster, a run, a roll, NEXT) at most once every ``PHASE_GAP_S``.
* ``.../tables/<table>/online``: a retained ``true`` on every connect; the last will says ``false``.

**The league heals** (:class:`Check`): on every connect the box subscribes, for a moment, to its own
games' topics, reads what the broker retains, and puts back into the outbox every acknowledged game
the broker no longer holds as it was sent (a broker that lost its store, or a new one), so the next
pass sends them again.

The state is the one message that may go on any tap, so it is sent as seldom as the league allows: a
handful of fields made from the state, compared with the last one handed over, and only a new level,
player or winner goes at once (when its turn has come, ``client.publish`` on the table thread
itself if the worker is not using the client, and paho writes it at once); otherwise it waits for
the worker, a later one replacing it. paho's publish costs a few times what the hand-made packet it
replaced did (from a cold cache, after a frame: about 270 µs in the bench's taps); a new turn went at once too until
2026-12-07, a state on one tap in seven of the bench's game, which cost a tap more than the old
path's packet on every tap (bench/league.py, figure 4: 81 against 65 µs). A board that shows whose
turn it is a second late loses nothing.

Anything that goes wrong (the broker down, a wrong password, a certificate it refuses, an ACL that
refuses a topic) is one sentence in ``problem`` (``notify`` is called when it changes); the table
plays on, and the outbox keeps what it holds until the broker takes it.
"""

from __future__ import annotations

import json
import logging
import os
import select
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from engine.messages import Msg, msg
from engine.state import GameState, Phase
from table.config import Config, LeagueConfig
from table.control.assembly import Table
from table.league.connection import LeagueError, client_id, connect, describe_refusal, make_client
from table.league.heal import Look, missing
from table.league.topics import game_message, game_topic, online_topic, state_topic
from table.storage.outbox import Outbox, Waiting

log = logging.getLogger(__name__)

IDLE_S = 5.0            # the worker looks at the outbox at least this often (rows another process queued)
MAX_BACKOFF_S = 30.0    # between connection attempts while the broker cannot be reached
PHASE_GAP_S = 1.0       # a change of the phase or the turn alone waits until this long after the last state sent

# The state message's JSON: compact, and in the players' own letters.
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


# What the league reads of a state, as a tuple (made on every tap, so as cheap as it can be): the
# phase, the turn, whose turn it is, the winners, and each player's id, name, level and seat (the
# seat of their pad on a box with a pad at every seat, else None).
LeagueKey = tuple[Phase, int, "str | None", tuple[str, ...], tuple[tuple[str, str, int, "int | None"], ...]]


def league_key(state: GameState, seats: Mapping[int, str] | None = None) -> LeagueKey:
    seat_of = {player: seat for seat, player in seats.items()} if seats else {}
    return (state.phase, state.turn, state.active_player, tuple(state.winners),
            tuple([(p.id, p.name, p.level, seat_of.get(p.id)) for p in state.players]))


def league_message(key: LeagueKey) -> dict[str, Any]:
    """The state topic's message (``league tables``, /league and the wall board read it)."""
    phase, turn, active, winners, players = key
    return {"phase": phase.value, "turn": turn, "active_player": active,
            "players": [{"id": pid, "name": name, "level": level, **({"seat": seat} if seat is not None else {})}
                        for pid, name, level, seat in players],
            "winners": list(winners)}


def league_state(state: GameState, seats: Mapping[int, str] | None = None) -> dict[str, Any]:
    """What the league reads of a table's state: the phase, the turn, whose turn it is, each player's
    name, level and seat, the winners."""
    return league_message(league_key(state, seats))


def can_wait(new: LeagueKey, old: LeagueKey | None) -> bool:
    """Whether ``new`` differs from ``old`` only in the phase, the turn and whose turn it is (not in a
    player, a level or the winners): a change that can wait ``PHASE_GAP_S``."""
    return old is not None and new[3:] == old[3:]


class Publisher:
    """One box's connection to its league's broker (see the module's docstring)."""

    def __init__(self, config: LeagueConfig, journal_path: Path, *, notify: Callable[[], None] | None = None) -> None:
        self.config = config
        self.outbox = Outbox(journal_path)
        self.notify = notify
        self.problem: Msg | None = None
        self.connected = False
        self.acknowledged = 0               # outbox rows the broker took (and that left the outbox)
        self.states_sent = 0
        self.resent = 0                     # acknowledged games put back in the outbox: the broker had lost them
        self.looks = 0                      # looks at what the broker holds of this table's games, done
        self._min_gap = 1.0 / config.state_per_second
        self._stop = threading.Event()
        self._bell, self._ringer = os.pipe()    # the worker's select wakes on a byte here
        os.set_blocking(self._bell, False)
        os.set_blocking(self._ringer, False)
        self._io = threading.Lock()             # every call into paho: one thread at a time
        self._lock = threading.Lock()
        self._state: tuple[LeagueKey, float] | None = None     # the league's state waiting, and when it may go
        self._handed: LeagueKey | None = None   # the last handed over (sent, or waiting)
        self._last: GameState | None = None
        self._seats: dict[int, str] | None = None          # the seats last handed over with a state
        self._state_due = 0.0                   # the rate limit: no state before this
        self._sent_at = -PHASE_GAP_S            # when the last state was sent
        self._live = False                      # the client has a connection (or is opening one)
        self._dial_at = 0.0                     # when the worker may connect again
        self._backoff = 1.0
        self._state_topic = state_topic(config.league, config.table)
        self._once = False                      # connected at least once (later failures are "cannot be reached")
        self._inflight: dict[int, Waiting] = {}     # paho's message id -> the outbox row it carries
        self._handed_rows: set[int] = set()     # outbox rows handed to paho (it resends them itself)
        self._refused: set[int] = set()         # rows the broker refused: tried again after the next connect
        self._games_due = True                  # the outbox is read when it may hold something new
        self._looked = 0.0                      # when the worker last read the outbox
        self._look = Look(config.league, config.table)
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

    def state(self, state: GameState, seats: Mapping[int, str] | None = None) -> None:
        """The table's state changed (``seats``: seat -> its pad's player, on a box with a pad at every seat).

        Nothing is sent when what the league reads of it did not change. Otherwise, when its turn has
        come (the rate limit; for a change of the phase or the turn alone, ``PHASE_GAP_S`` after the last
        state sent)
        and the worker is not using the client, it is published here and now; else it waits for the
        worker, and a later one replaces it while it waits (latest wins, and goes when the earlier would
        have)."""
        seats = dict(seats) if seats else None
        if state is self._last and seats == self._seats:
            return
        self._last, self._seats = state, seats
        message = league_key(state, seats)
        if message == self._handed:
            return
        due = max(self._state_due, self._sent_at + PHASE_GAP_S) if can_wait(message, self._handed) else self._state_due
        self._handed = message
        waiting = self._state
        if waiting is not None:
            due = min(due, waiting[1])          # (it carries what the one waiting had)
        if self.connected and time.monotonic() >= due and self._io.acquire(blocking=False):
            try:
                with self._lock:
                    self._state = None          # this one is newer than any waiting
                if self._publish_state(message):
                    return
            finally:
                self._io.release()
        with self._lock:
            sooner = self._state is None or due < self._state[1]
            self._state = (message, due)
        if sooner:                              # (else the worker already wakes for the one it replaces)
            self._ring()

    def close(self, timeout: float = 2.0) -> None:
        """Say offline, disconnect and stop the thread (at most about ``timeout`` seconds)."""
        self._stop.set()
        self._ring()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if not self._thread.is_alive():
            bell, ringer, self._bell, self._ringer = self._bell, self._ringer, -1, -1
            os.close(bell)                      # (a ring after this goes nowhere, never to a reused descriptor)
            os.close(ringer)

    def _ring(self) -> None:
        if self._ringer < 0:
            return
        try:
            os.write(self._ringer, b"!")
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
                timeout = IDLE_S
                if self.connected and (self._games_due or time.monotonic() - self._looked >= IDLE_S):
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
            client.on_subscribe = self._on_subscribe
            client.on_message = self._on_message
            self._client = client
        with self._io:                          # (the table thread does not publish before CONNACK)
            connect(self._client, cfg, persistent=True)
            self._live = True

    def _lost(self) -> None:
        """The connection is gone or could not be made: the next attempt waits, longer each time."""
        self._live = False
        self._dial_at = time.monotonic() + self._backoff
        self._backoff = min(self._backoff * 2, MAX_BACKOFF_S)

    def _pump(self, timeout: float) -> None:
        """Wait (at most ``timeout``) for the broker, the bell or a socket that takes more bytes; then let
        paho read, write and keep the connection alive."""
        client = self._client
        with self._io:
            sock = client.socket() if client is not None and self._live else None
            wants = [sock] if sock is not None and client is not None and client.want_write() else []
        watch: list[Any] = [self._bell] if sock is None else [self._bell, sock]
        try:
            readable, _w, _x = select.select(watch, wants, [], max(0.0, timeout))
        except (OSError, ValueError):           # the socket closed under us (a publish on the table thread failed)
            readable = []
        if self._bell in readable:
            try:
                os.read(self._bell, 4096)
            except OSError:
                pass
        if sock is None or client is None:
            return
        with self._io:
            if client.socket() is not sock:
                rc = mqtt.MQTT_ERR_CONN_LOST
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
        self._looked = time.monotonic()
        for row in self.outbox.waiting():
            if row.id in self._handed_rows or row.id in self._refused:
                continue
            info = client.publish(game_topic(self.config.league, self.config.table, row.game), self._payload(row.body),
                                  qos=1, retain=True)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                self._games_due = True  # not connected after all: the next connect sends it
                return
            self._inflight[info.mid] = row
            self._handed_rows.add(row.id)

    def _payload(self, body: str) -> bytes:
        return game_message(self.config.league, self.config.table, body)

    def _send_state(self) -> float:
        """The state waiting, when its turn has come; how long until the next may go."""
        now = time.monotonic()
        with self._lock:
            waiting = self._state
            if waiting is None:
                return IDLE_S
            message, due = waiting
            due = max(due, self._state_due)
            if now < due:
                return due - now
            self._state = None
        if not self._publish_state(message):
            with self._lock:
                self._state = self._state or waiting
        return IDLE_S

    def _publish_state(self, message: LeagueKey) -> bool:
        """Publish the league's state (the caller holds ``_io``); whether paho took it."""
        client = self._client
        if client is None or not self.connected:
            return False
        info = client.publish(self._state_topic, _ENCODE(league_message(message)), qos=0, retain=True)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False
        self.states_sent += 1
        self._sent_at = time.monotonic()
        self._state_due = self._sent_at + self._min_gap
        if client.want_write():                 # the socket did not take it all now: the worker writes the rest
            self._ring()
        return True

    def _heal(self) -> None:
        """The look is complete: the acknowledged games the broker does not hold go back in the outbox."""
        sent = {game: self._payload(body) for game, body in self.outbox.sent().items()}
        lost = missing(self._look.held, sent)
        if not lost:
            return
        queued = self.outbox.resend(lost)
        self.resent += queued
        log.warning("league: broker %s does not hold %d of this table's games; sending them again",
                    self.config.broker, len(lost))
        self._games_due = True

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
    # reads, or a publish on the table thread)

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
        self._look.begin(client)            # what the broker holds of this table's games (before any is sent)
        with self._lock:                    # the table as it is now, also after the broker came back
            if self._state is None and self._handed is not None:
                self._state = (self._handed, 0.0)
        client.publish(online_topic(self.config.league, self.config.table), "true", qos=1, retain=True)
        self._say(None)

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        was, self.connected = self.connected, False
        self._ring()                    # (a publish on the table thread found it gone: the worker reconnects)
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
        """A game's PUBACK: taken, it leaves the outbox; refused, it waits for the next connect. (A state's
        publish is called here too, once written: nothing to do.)"""
        row = self._inflight.pop(mid, None)
        if row is None:
            return
        self._handed_rows.discard(row.id)
        code = int(getattr(reason, "value", 0))
        if code < 128:
            if self.outbox.acknowledged(row):
                self.acknowledged += 1
            return
        self._refused.add(row.id)
        self._say(msg("league broker {broker} refused table {table}'s game facts (reason {code}): check that "
                      "its ACL lets this table write munchkin/{league}/games/{table}/#",
                      broker=self.config.broker, table=self.config.table, code=code, league=self.config.league))

    def _on_subscribe(self, client: mqtt.Client, _userdata: Any, mid: int, reasons: Any, _props: Any) -> None:
        if self._look.subscribed(client, mid, reasons):
            if self._look.complete:
                self._heal()
            self.looks += 1

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._look.take(message.topic, bytes(message.payload))

    def __repr__(self) -> str:
        state = "connected" if self.connected else "not connected"
        return f"<Publisher {self.config.league}/{self.config.table} {state}, {self.acknowledged} acknowledged>"


def attach(config: Config, table: Table, *, notify: Callable[[], None] | None = None) -> Publisher | None:
    """The table's publisher when ``[league]`` names a broker (None when it does not): the session writes
    its games' facts to the outbox from now on, and the publisher sends them."""
    if not config.league.enabled:
        return None
    publisher = Publisher(config.league, table.journal.path, notify=notify)
    session = table.controller.session
    session.league_outbox = True
    session.on_outbox = publisher.games_waiting
    publisher.start()
    publisher.state(session.state)
    return publisher
