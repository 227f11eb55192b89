"""The paho-mqtt client as ``[league]`` asks for it (MQTT 5, a persistent session, TLS and
credentials), and one clear sentence for each way connecting to the broker can fail."""

from __future__ import annotations

import re
import socket
import ssl
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from engine.errors import MunchkinError
from engine.messages import Msg, msg
from table.config import LEAGUE_BROKER, LeagueConfig

KEEPALIVE_S = 30
SESSION_EXPIRY_S = 7 * 24 * 3600     # the broker keeps a box's session (and its QoS 1 state) a week
CONNECT_TIMEOUT_S = 5.0


class LeagueError(MunchkinError, ConnectionError):
    """The league's broker could not be used; the message says why and what to do."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(url: str) -> Broker:
    """``mqtt://host[:port]`` (1883) or ``mqtts://host[:port]`` (8883); the config has checked the form."""
    found = re.fullmatch(LEAGUE_BROKER, url)
    if found is None:
        raise LeagueError(f"[league] broker {url!r} is not an mqtt:// or mqtts:// address")
    scheme, host, port = found.groups()
    tls = scheme == "mqtts"
    return Broker(host.strip("[]"), int(port) if port else (8883 if tls else 1883), tls)


def client_id(config: LeagueConfig, role: str = "") -> str:
    """The box's own id (its persistent session); readers and doctor add a role and a nonce."""
    return f"munchkin-{config.league}-{config.table}" + (f"-{role}" if role else "")


def make_client(config: LeagueConfig, *, ident: str) -> mqtt.Client:
    """A paho client for ``config``: credentials and TLS set (raises LeagueError for files it cannot use)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=ident, protocol=mqtt.MQTTv5)
    if config.username:
        client.username_pw_set(config.username, config.password or None)
    broker = parse_broker(config.broker)
    if broker.tls:
        try:
            client.tls_set(ca_certs=config.ca or None, certfile=config.cert or None, keyfile=config.key or None)
        except (OSError, ssl.SSLError, ValueError) as exc:
            raise LeagueError(str(describe_error(exc, config))) from None
    client.reconnect_delay_set(1, 30)
    return client


def connect_properties(persistent: bool) -> Properties:
    props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]  # paho's Properties is unannotated
    props.SessionExpiryInterval = SESSION_EXPIRY_S if persistent else 0
    return props


def describe_error(exc: BaseException, config: LeagueConfig) -> Msg:
    """One sentence for a failure to reach or talk to the broker, naming it and what to check."""
    broker = config.broker
    if isinstance(exc, ssl.SSLCertVerificationError):
        return msg("league broker {broker}: its certificate is not trusted ({why}); check [league] ca",
                   broker=broker, why=exc.verify_message or str(exc))
    if isinstance(exc, ssl.SSLError):
        text = str(exc)
        if "certificate" in text or "alert" in text:
            return msg("league broker {broker} refused this box's certificate ({why}); check [league] cert and key",
                       broker=broker, why=exc.reason or text)
        return msg("league broker {broker}: TLS failed ({why})", broker=broker, why=exc.reason or text)
    if isinstance(exc, FileNotFoundError | PermissionError):
        return msg("league: cannot read {file} ({why}); check [league] ca, cert and key",
                   file=str(exc.filename), why=exc.strerror or str(exc))
    if isinstance(exc, ConnectionRefusedError):
        return msg("league broker {broker} refused the connection: is the broker running on that port?", broker=broker)
    if isinstance(exc, socket.gaierror):
        return msg("league broker {broker}: no such host", broker=broker)
    if isinstance(exc, TimeoutError | socket.timeout):
        return msg("league broker {broker} does not answer", broker=broker)
    if isinstance(exc, ssl.SSLError | OSError):
        return msg("league broker {broker} cannot be reached ({why})", broker=broker, why=str(exc))
    return msg("league broker {broker}: {why}", broker=broker, why=str(exc))


BAD_CREDENTIALS = {134, 135, 140}      # bad user name or password, not authorized, bad authentication method


def describe_refusal(reason: ReasonCode | Any, config: LeagueConfig) -> Msg:
    """One sentence for a CONNACK that refused the box."""
    value = getattr(reason, "value", reason)
    if value in BAD_CREDENTIALS:
        return msg("league broker {broker} refused user {user}: wrong username or password; check [league] username "
                   "and password", broker=config.broker, user=config.username or "(none)")
    return msg("league broker {broker} refused the connection ({why})", broker=config.broker, why=str(reason))


def connect(client: mqtt.Client, config: LeagueConfig, *, persistent: bool,
            timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Connect (blocking, at most ``timeout`` for the TCP and TLS part); raises LeagueError with the sentence."""
    broker = parse_broker(config.broker)
    if client.connect_timeout != timeout:       # (paho refuses to change it on a client whose last connection it has not closed)
        client.connect_timeout = timeout
    try:
        client.connect(broker.host, broker.port, KEEPALIVE_S, clean_start=not persistent,
                       properties=connect_properties(persistent))
    except (OSError, ssl.SSLError, ValueError) as exc:
        raise LeagueError(str(describe_error(exc, config))) from None
