"""doctor's check of the league's broker: reachable, TLS, credentials, and the ACL (a test publish to
the box's own topic, which the broker must take)."""

from __future__ import annotations

import secrets
import threading
from typing import Any

from drivers.doctor import Check
from engine.messages import Msg
from table.config import Config
from table.league.extra import INSTALL, paho_missing
from table.league.topics import doctor_topic

NAME = "league broker"


def league_check(config: Config, *, timeout: float = 5.0) -> Check:
    league = config.league
    if not league.enabled:
        return Check(NAME, True, "off")
    try:
        from table.league.connection import (  # paho-mqtt is loaded only here, and may not be installed
            LeagueError, client_id, connect, describe_refusal, make_client, parse_broker)
    except ImportError as exc:
        if not paho_missing(exc):
            raise
        return Check(NAME, False, "[league] is set but paho-mqtt is not installed", INSTALL)
    connack = threading.Event()
    puback = threading.Event()
    answer: dict[str, Any] = {}

    def on_connect(_c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        answer["connack"] = reason
        connack.set()

    def on_publish(_c: Any, _u: Any, _mid: int, reason: Any, _p: Any) -> None:
        answer["puback"] = reason
        puback.set()

    try:
        client = make_client(league, ident=client_id(league, "doctor-" + secrets.token_hex(4)))
        client.on_connect, client.on_publish = on_connect, on_publish
        connect(client, league, persistent=False, timeout=timeout)
    except LeagueError as exc:
        return Check(NAME, False, str(exc), _fix(exc.args[0]))
    client.loop_start()
    try:
        if not connack.wait(timeout):
            why = ("it closed the connection before accepting this box: does it trust [league] cert?" if league.cert
                   else "it did not answer the connection")
            return Check(NAME, False, f"{league.broker}: {why}", "check the broker's log")
        if answer["connack"].is_failure:
            refusal = describe_refusal(answer["connack"], league)
            return Check(NAME, False, str(refusal), _fix(refusal))
        client.publish(doctor_topic(league.league, league.table), "doctor", qos=1)
        if not puback.wait(timeout):
            return Check(NAME, False, f"{league.broker} did not acknowledge a test publish", "check the broker's log")
        code = int(answer["puback"].value)
        if code >= 128:
            return Check(NAME, False, f"{league.broker} refused a test publish to {doctor_topic(league.league, league.table)} "
                         f"(reason {code}: {answer['puback']})",
                         f"let user {league.username or '(the certificate CN)'} write munchkin/{league.league}/tables/"
                         f"{league.table}/# and munchkin/{league.league}/games/{league.table}/# (docs/league.md's ACL)")
    finally:
        try:
            client.disconnect()
        except (OSError, ValueError, RuntimeError):
            pass
        client.loop_stop()
    tls = "TLS verified, " if parse_broker(league.broker).tls else "no TLS (mqtt://), "
    who = f"user {league.username}" if league.username else "the client certificate"
    return Check(NAME, True, f"{league.broker}: reachable, {tls}{who} accepted, a test publish to table "
                 f"{league.table}'s own topic taken (league {league.league})")


def _fix(problem: Msg | str) -> str:
    text = str(problem)
    if "password" in text:
        return "check [league] username and password against the broker's password file"
    if "certificate" in text or "TLS" in text:
        return "check [league] ca (the CA of the broker's certificate), cert and key"
    return "check [league] broker, that the broker runs, and that the box's network reaches it"
