"""The addresses phones reach the box at, from its interfaces: with and without a default route."""

from __future__ import annotations

import socket

from table.web import WebView, lan_address, lan_addresses
from table.web.addresses import interface_addresses

HOTSPOT = [("lo", "127.0.0.1"), ("wlan0", "192.168.4.1"), ("lo", "::1"), ("wlan0", "fe80::1"),
           ("wlan0", "fd12:3456::1"), ("usb0", "169.254.7.7")]


def no_route(_family: socket.AddressFamily) -> str:
    return ""


def test_without_a_default_route_the_hotspots_address_is_found() -> None:
    assert lan_address("0.0.0.0", interfaces=lambda: HOTSPOT, routed=no_route) == "192.168.4.1"
    assert lan_addresses("::", interfaces=lambda: HOTSPOT, routed=no_route) == ["192.168.4.1", "fd12:3456::1"]
    assert lan_addresses("0.0.0.0", interfaces=lambda: HOTSPOT, routed=no_route) == ["192.168.4.1"]


def test_the_default_routes_address_comes_first() -> None:
    both = [*HOTSPOT, ("eth0", "10.0.0.5")]
    routed = {socket.AF_INET: "10.0.0.5", socket.AF_INET6: ""}
    assert lan_addresses("0.0.0.0", interfaces=lambda: both, routed=routed.__getitem__) == ["10.0.0.5", "192.168.4.1"]


def test_with_no_network_at_all_loopback_is_the_last_resort() -> None:
    only_lo = [("lo", "127.0.0.1"), ("lo", "::1")]
    assert lan_address("0.0.0.0", interfaces=lambda: only_lo, routed=no_route) == "127.0.0.1"
    assert lan_address("192.168.1.9") == "192.168.1.9"      # a chosen bind address is itself


def test_this_machines_own_interfaces_are_read() -> None:
    found = interface_addresses()
    assert ("lo", "127.0.0.1") in found                  # whatever else this machine has, it has loopback


def test_no_default_route_gives_a_private_address_in_the_qr(monkeypatch) -> None:
    """What the box's screen encodes in the QR code (WebView.url) with no default route."""
    import table.web.addresses as addresses

    monkeypatch.setattr(addresses, "routed_address", no_route)
    monkeypatch.setattr(addresses, "interface_addresses", lambda: HOTSPOT)

    class Server:
        port = 8080

    import table.web as web

    view = WebView(None, Server(), "k" * 16, "127.0.0.1", bind="0.0.0.0")
    monkeypatch.setattr(web, "lan_address", lambda bind: addresses.lan_address(bind, interfaces=lambda: HOTSPOT,
                                                                                routed=no_route))
    assert view.refresh_address(now=1e9)
    assert view.url == "http://192.168.4.1:8080/?key=" + "k" * 16


def test_a_configured_url_is_what_phones_are_given() -> None:
    class Server:
        port = 8080

    view = WebView(None, Server(), "k" * 16, "192.168.4.1", bind="0.0.0.0", url="http://munchkin.lan:8080")
    assert view.url_text == "http://munchkin.lan:8080/" and view.url == "http://munchkin.lan:8080/?key=" + "k" * 16
