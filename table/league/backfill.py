"""``league backfill`` sends: the backlog (``backlog``) into the journal's outbox, then published on a
connection of its own (QoS 1, retained), each game recorded as acknowledged on its PUBACK.

A running table may send the same rows too (its publisher reads the outbox every few seconds): the
game id on the topic makes a game sent twice harmless. Whatever the broker does not acknowledge in
time stays in the outbox, and the table sends it once it reaches the broker.
"""

from __future__ import annotations

import queue
import secrets
import time
from pathlib import Path
from typing import Any

from table.config import LeagueConfig
from table.league.backlog import Unsent
from table.league.connection import LeagueError, client_id, connect, describe_refusal, make_client
from table.league.topics import game_message, game_topic
from table.storage.outbox import Outbox, Waiting


def send_backlog(config: LeagueConfig, journal: Path, games: list[Unsent], *, timeout: float = 10.0) -> int:
    """Queue ``games`` in the outbox and send them; how many the broker acknowledged. Raises LeagueError
    (saying that they wait in the outbox) when the broker cannot be used."""
    outbox = Outbox(journal)
    outbox.queue([(g.game, g.body) for g in games])
    wanted = {g.game for g in games}
    rows = [row for row in outbox.waiting() if row.game in wanted]
    try:
        return _publish(config, outbox, rows, timeout)
    except LeagueError as exc:
        raise LeagueError(f"{exc}; {len(games)} game(s) wait in the outbox, and the table sends them once it "
                          f"reaches the broker") from None


def _publish(config: LeagueConfig, outbox: Outbox, rows: list[Waiting], timeout: float) -> int:
    connack: queue.SimpleQueue[Any] = queue.SimpleQueue()
    acks: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
    client = make_client(config, ident=client_id(config, "backfill-" + secrets.token_hex(4)))
    client.on_connect = lambda _c, _u, _f, reason, _p: connack.put(reason)
    client.on_publish = lambda _c, _u, mid, reason, _p: acks.put((mid, int(getattr(reason, "value", 0))))
    deadline = time.monotonic() + timeout
    connect(client, config, persistent=False, timeout=timeout)
    client.loop_start()
    try:
        try:
            reason = connack.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            raise LeagueError(f"league broker {config.broker} did not answer within {timeout:g} s") from None
        if reason.is_failure:
            raise LeagueError(str(describe_refusal(reason, config)))
        inflight: dict[int, Waiting] = {}       # (a PUBACK before its row is here waits in ``acks``)
        for row in rows:
            info = client.publish(game_topic(config.league, config.table, row.game),
                                  game_message(config.league, config.table, row.body), qos=1, retain=True)
            inflight[info.mid] = row
        return _acknowledged(config, outbox, inflight, acks, deadline)
    finally:
        client.disconnect()
        client.loop_stop()


def _acknowledged(config: LeagueConfig, outbox: Outbox, inflight: dict[int, Waiting],
                  acks: queue.SimpleQueue[tuple[int, int]], deadline: float) -> int:
    taken, refused = 0, 0
    while inflight:
        try:
            mid, code = acks.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        row = inflight.pop(mid, None)
        if row is None:
            continue
        if code >= 128:
            refused += 1
        elif outbox.acknowledged(row):
            taken += 1
    if refused:
        raise LeagueError(f"league broker {config.broker} refused {refused} game(s) (check that its ACL lets table "
                          f"{config.table} write munchkin/{config.league}/games/{config.table}/#)")
    if inflight:
        raise LeagueError(f"league broker {config.broker} acknowledged {taken} of {taken + len(inflight)} game(s) in "
                          f"time")
    return taken
