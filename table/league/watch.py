"""Reading the league: every table's retained state and online flag, and every game's facts.

A ``LeagueWatch`` subscribes to the league's topics and keeps what the broker retains (and what
arrives after). ``complete()`` waits until the broker has sent everything it held: after the
subscriptions, a second SUBSCRIBE to a topic nobody writes; Mosquitto answers a client's packets in
order, so its SUBACK comes after every retained message of the first. Both at QoS 0: every message
is the latest of its topic (a lost one is read again on the next connect), and at QoS 1 the broker
would hold back all but its in-flight window (20) until they are acknowledged, after that SUBACK.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from engine.messages import Msg
from table.config import LeagueConfig
from table.league.model import League, TableSeen
from table.league.connection import (KEEPALIVE_S, LeagueError, client_id, connect, connect_properties, describe_refusal,
                                     make_client, parse_broker)
from table.league.topics import league_root, parse_topic, subscriptions

log = logging.getLogger(__name__)


class LeagueWatch:
    """A subscription to the whole league, kept up to date by paho's thread until ``close``."""

    def __init__(self, config: LeagueConfig, *, on_change: Callable[[], None] | None = None) -> None:
        self.config = config
        self.on_change = on_change
        self._league = League(config.league)
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._refused: Msg | None = None
        self._marker = f"{league_root(config.league)}/readers/{secrets.token_hex(6)}"
        self._marker_mid: int | None = None
        self.client = make_client(config, ident=client_id(config, "reader-" + secrets.token_hex(4)))
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def start(self) -> LeagueWatch:
        """Connect (raises LeagueError with the reason) and subscribe; paho's thread keeps it going."""
        connect(self.client, self.config, persistent=False)
        self.client.loop_start()
        return self

    def follow(self) -> LeagueWatch:
        """Connect in the background (paho's thread retries until the broker answers): for a page or a
        board that stays up; ``ready`` says when it has read what the broker retains."""
        broker = parse_broker(self.config.broker)
        self.client.connect_async(broker.host, broker.port, KEEPALIVE_S, clean_start=True,
                                  properties=connect_properties(False))
        self.client.loop_start()
        return self

    @property
    def refused(self) -> Msg | None:
        """Why the broker refused this reader, if it did."""
        return self._refused

    def complete(self, timeout: float = 10.0) -> League:
        """The league once the broker has sent all it retains; LeagueError when it refused or took too long."""
        if not self._done.wait(timeout):
            raise LeagueError(f"league broker {self.config.broker} sent nothing within {timeout:g} s: is it the "
                              f"league's broker, and may this box read munchkin/{self.config.league}/#?")
        if self._refused is not None:
            raise LeagueError(str(self._refused))
        return self.snapshot()

    def snapshot(self) -> League:
        with self._lock:
            return self._league.copy()

    @property
    def ready(self) -> bool:
        return self._done.is_set() and self._refused is None

    def close(self) -> None:
        try:
            self.client.disconnect()
        except (OSError, ValueError, RuntimeError):
            pass
        self.client.loop_stop()

    # ------------------------------------------------------------ paho's callbacks

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: Any, _props: Any) -> None:
        if reason.is_failure:
            self._refused = describe_refusal(reason, self.config)
            self._done.set()
            if self.on_change is not None:
                self.on_change()
            return
        self._refused = None
        # QoS 0: the broker sends every retained message at once (at QoS 1 it sends only as many as its
        # in-flight window, 20 by default, before the marker's SUBACK, and a league holds more games)
        client.subscribe([(topic, 0) for topic in subscriptions(self.config.league)])
        _rc, self._marker_mid = client.subscribe(self._marker, 0)

    def _on_subscribe(self, _client: mqtt.Client, _userdata: Any, mid: int, reasons: Any, _props: Any) -> None:
        if any(getattr(r, "is_failure", False) for r in reasons):
            log.error("league: the broker refused a subscription to munchkin/%s/ (%s)", self.config.league, reasons)
        if mid == self._marker_mid:
            self._done.set()
            if self.on_change is not None:
                self.on_change()

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        topic = parse_topic(self.config.league, message.topic)
        if topic is None:
            return
        with self._lock:
            self._take(topic.kind, topic.table, topic.game, bytes(message.payload))
        if self.on_change is not None:
            self.on_change()

    def _take(self, kind: str, table: str, game: int | None, payload: bytes) -> None:
        league = self._league
        seen = league.tables.setdefault(table, TableSeen())
        if not payload:                      # a retained message cleared
            if kind == "game":
                league.games.pop((table, game or 0), None)
            elif kind == "state":
                seen.state = None
            return
        try:
            data = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            league.bad += 1
            return
        if kind == "online" and isinstance(data, bool):
            seen.online = data
        elif kind == "state" and isinstance(data, dict):
            seen.state = data
        elif kind == "game" and game is not None and _is_game(data):
            league.games[(table, game)] = data
        else:
            league.bad += 1


def _is_game(data: Any) -> bool:
    try:
        return (isinstance(data, dict) and isinstance(data["history"]["status"], str)
                and all(isinstance(p["name"], str) for p in data["tally"]["per_player"])
                and isinstance(data["tally"]["monsters"], dict))
    except (KeyError, TypeError):
        return False


def read_league(config: LeagueConfig, timeout: float = 10.0) -> League:
    """The league as the broker has it now (``league standings`` and ``league tables``)."""
    watch = LeagueWatch(config).start()
    started = time.monotonic()
    try:
        return watch.complete(max(0.1, timeout - (time.monotonic() - started)))
    finally:
        watch.close()
