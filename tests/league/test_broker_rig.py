"""The tests' own broker (tests/league/broker.py): a port another process took between the broker's
choice of it and its start is left for others, whether mosquitto says so on stderr or in its log."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.league.broker import Mosquitto, missing


@pytest.mark.parametrize("saves", [True, False], ids=["log-file", "stderr"])
def test_a_port_taken_before_the_first_start_is_left_for_another(tmp_path: Path, saves: bool) -> None:
    why = missing()
    if why:
        pytest.skip(why)
    broker = Mosquitto(tmp_path / "broker", {"table-a": "pw-a"}, saves=saves)
    taken = broker.tls_port
    squatter = socket.socket()
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squatter.bind(("127.0.0.1", taken))
    squatter.listen(1)
    try:
        broker.start()
        try:
            assert taken not in (broker.port, broker.tls_port, broker.cert_port)
            with socket.create_connection(("127.0.0.1", broker.port), timeout=2):
                pass
        finally:
            broker.stop()
    finally:
        squatter.close()
