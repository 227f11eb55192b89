"""What the broker still holds of this box's games, looked at on every connect (issue 44).

A broker can lose its store (no persistence, a dead disk, a new machine in its place) while the boxes
keep their record of what it acknowledged. On every connect the publisher starts a :class:`Look`: it
subscribes, on its own connection and for a moment, to the box's own games' topics (QoS 0, so the
broker sends every retained message at once, and ``noLocal``, so the box's own publishes are not sent
back to it), then to a topic nobody writes. Mosquitto answers a client's packets in order, so that
second SUBACK comes after every retained message of the first; the look then unsubscribes and says
which acknowledged games the broker does not hold as they were sent (:func:`missing`).
"""

from __future__ import annotations

import logging
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from table.league.topics import check_topic, own_games, parse_topic

log = logging.getLogger(__name__)


class Look:
    """One connection's look at the retained messages of the box's own games (the publisher's worker
    calls it under its lock, from paho's callbacks)."""

    def __init__(self, league: str, table: str) -> None:
        self.league, self.table = league, table
        self.games = own_games(league, table)
        self.marker = check_topic(league, table)
        self.held: dict[int, bytes] = {}
        self._games_mid: int | None = None
        self._marker_mid: int | None = None
        self._refused = False

    @property
    def looking(self) -> bool:
        return self._marker_mid is not None

    def begin(self, client: mqtt.Client) -> None:
        """Subscribe (on a connect): the retained games, then the marker."""
        self.held, self._refused = {}, False
        options = SubscribeOptions(qos=0, noLocal=True)
        _rc, self._games_mid = client.subscribe(self.games, options=options)
        _rc, self._marker_mid = client.subscribe(self.marker, options=options)

    def take(self, topic: str, payload: bytes) -> None:
        """A message: one of the box's games as the broker holds it (only while looking)."""
        if not self.looking:
            return
        parsed = parse_topic(self.league, topic)
        if parsed is not None and parsed.kind == "game" and parsed.table == self.table and parsed.game is not None:
            if payload:
                self.held[parsed.game] = payload
            else:
                self.held.pop(parsed.game, None)

    def subscribed(self, client: mqtt.Client, mid: int, reasons: Any) -> bool:
        """A SUBACK: whether it ends the look (then it has unsubscribed, and ``held`` is complete
        unless the broker refused to let the box read its own games, which ``complete`` says)."""
        if mid == self._games_mid and any(getattr(r, "is_failure", False) for r in reasons):
            self._refused = True
            log.error("league: the broker refused this box a look at its own games (%s); a broker that lost them "
                      "is not noticed: let every user read munchkin/%s/# (docs/league.md's ACL)", reasons, self.league)
        if mid != self._marker_mid:
            return False
        self._marker_mid = self._games_mid = None
        client.unsubscribe([self.games, self.marker])
        return True

    @property
    def complete(self) -> bool:
        return not self._refused


def missing(held: dict[int, bytes], sent: dict[int, bytes]) -> list[int]:
    """The acknowledged games (``sent``: game -> the payload the broker took) that the broker does not
    hold as they were sent: gone, or older."""
    return sorted(game for game, payload in sent.items() if held.get(game) != payload)
