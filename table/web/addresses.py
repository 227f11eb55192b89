"""The addresses a phone on the table's network can reach the box at, read from its interfaces.

Asking the routing table alone (a UDP socket "connected" towards 10.254.254.254) finds nothing
when there is no default route: the box as its own hotspot, or a router with no uplink, the very
"no internet" case the table is made for. So every private IPv4 and IPv6 address of every
interface that is up counts (IPv4 by ``SIOCGIFADDR``, IPv6 from /proc/net/if_inet6: the
standard library has no getifaddrs), the default route's first when there is one. Loopback and
link-local addresses are no use to a phone; loopback is the last resort, so the box's own screen
still shows something.
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from collections.abc import Callable, Iterable
from pathlib import Path

SIOCGIFFLAGS = 0x8913
SIOCGIFADDR = 0x8915
IFF_UP = 0x1
IF_INET6 = Path("/proc/net/if_inet6")
ANY = ("0.0.0.0", "::", "")

Interfaces = Callable[[], Iterable[tuple[str, str]]]      # (interface, address) of the interfaces that are up


def _is_up(sock: socket.socket, name: str) -> bool:
    try:
        flags = fcntl.ioctl(sock.fileno(), SIOCGIFFLAGS, struct.pack("256s", name.encode()[:15]))
    except OSError:
        return False
    return bool(struct.unpack("H", flags[16:18])[0] & IFF_UP)


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, address) for every address of every interface that is up, on Linux."""
    found: list[tuple[str, str]] = []
    try:
        names = [name for _index, name in socket.if_nameindex()]
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        up = {name for name in names if _is_up(sock, name)}
        for name in sorted(up):
            try:
                raw = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:             # no IPv4 address on it
                continue
            found.append((name, socket.inet_ntoa(raw[20:24])))
    try:
        lines = IF_INET6.read_text(encoding="ascii").splitlines()
    except OSError:
        lines = []
    for line in lines:
        parts = line.split()
        if len(parts) == 6 and parts[5] in up and len(parts[0]) == 32:
            found.append((parts[5], str(ipaddress.IPv6Address(bytes.fromhex(parts[0])))))
    return found


def routed_address(family: socket.AddressFamily) -> str:
    """The address of the interface the default route leaves by ('' without one). A UDP socket's
    connect only consults the routing table: no packet is sent."""
    probe = ("10.254.254.254", 9) if family == socket.AF_INET else ("fd00::1", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect(probe)
            return str(sock.getsockname()[0])
    except OSError:
        return ""


def usable(address: str) -> bool:
    """A private address a phone on the same network can use: not loopback, not link-local."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return ip.is_private and not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified


def lan_addresses(bind: str, *, interfaces: Interfaces = interface_addresses,
                  routed: Callable[[socket.AddressFamily], str] = routed_address) -> list[str]:
    """Every address the web view answers phones on, the default route's first.

    A specific bind address is itself alone. "0.0.0.0" listens on IPv4 only, "::" on both."""
    if bind not in ANY:
        return [bind]
    families = [socket.AF_INET] if bind == "0.0.0.0" else [socket.AF_INET, socket.AF_INET6]
    out: list[str] = []
    for family in families:
        first = routed(family)
        if first and not ipaddress.ip_address(first).is_loopback and not ipaddress.ip_address(first).is_link_local:
            out.append(first)
    for _name, address in interfaces():
        version = 6 if ":" in address else 4
        if (socket.AF_INET6 if version == 6 else socket.AF_INET) in families and usable(address) and address not in out:
            out.append(address)
    return out


def lan_address(bind: str, *, interfaces: Interfaces = interface_addresses,
                routed: Callable[[socket.AddressFamily], str] = routed_address) -> str:
    """The one address to show beside the QR code: the first of ``lan_addresses``, else loopback."""
    found = lan_addresses(bind, interfaces=interfaces, routed=routed)
    if found:
        return found[0]
    return "127.0.0.1"
