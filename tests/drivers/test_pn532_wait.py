"""The PN532 reader waits on the serial line for a card instead of asking ten times a second.

With MxRtyPassiveActivation = 0xFF the chip answers InListPassiveTarget only when a card enters the
field; the emulator (drivers/emulators/pn532.py) does the same. These run the reader's own thread
against it through the real serial.Serial on a pty.
"""

from __future__ import annotations

import time

import pytest
import serial

from drivers.emulators.pn532 import Pn532Emulator
from drivers.events import ReaderStatus, Tap
from drivers.hsu import ACK, Frame, FrameKind, FrameParser, encode
from drivers.pn532 import IN_LIST_PASSIVE_TARGET, Pn532Reader
from tests.drivers.helpers import UID4, UID7, drain, switches, until


def asks(emu: Pn532Emulator) -> int:
    return emu.commands.count(IN_LIST_PASSIVE_TARGET)


def test_with_no_card_the_reader_asks_once_and_sleeps_on_the_line(emu, sink):
    """Bounded retries asked about ten times a second and woke the thread for each; now one ask waits."""
    with Pn532Reader(sink, port=emu.path) as r:
        assert sink.get(timeout=5).online
        until(lambda: asks(emu), what="the first InListPassiveTarget")
        asks0, woke0 = asks(emu), switches(r._thread)
        time.sleep(1.0)
        asked, woke = asks(emu) - asks0, switches(r._thread) - woke0
    assert asked <= 1, f"{asked} InListPassiveTarget in a second with no card"
    assert woke <= 5, f"the reader's thread woke {woke} times in a second with no card"


class CountingPort:
    """A real serial.Serial, its timeout changes counted (each makes pyserial reconfigure the port)."""

    def __init__(self, port: serial.Serial) -> None:
        object.__setattr__(self, "port", port)
        object.__setattr__(self, "timeouts_set", 0)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.port, name)

    def __setattr__(self, name: str, value: object) -> None:
        if name == "timeout":
            object.__setattr__(self, "timeouts_set", self.timeouts_set + 1)
        setattr(self.port, name, value)


def test_the_wait_for_a_card_sleeps_in_select_without_reconfiguring_the_port(emu, sink):
    """Each idle check's wait used to set the port's timeout twice: pyserial reconfigures the port
    (its flags, tcgetattr, a lock) on every change. Now the thread sleeps in one select."""
    ports: list[CountingPort] = []

    def factory(*args: object, **kwargs: object) -> CountingPort:
        ports.append(CountingPort(serial.Serial(*args, **kwargs)))
        return ports[-1]

    with Pn532Reader(sink, port=emu.path, idle_check=0.6, idle_check_max=0.6, answer_timeout=0.2, serial_factory=factory):
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        asks0 = asks(emu)
        time.sleep(1.5)
        assert asks(emu) - asks0 >= 2                       # asked again at each idle check
        emu.present(UID4)
        assert sink.get(timeout=2).uid == UID4              # and a card still comes through the select
    assert len(ports) == 1 and ports[0].timeouts_set == 0


def test_each_quiet_check_doubles_the_wait_up_to_the_most_and_a_card_brings_it_back(emu, sink):
    """A table left alone: the chip checked after 0.2, 0.4, 0.8, 0.8 ... s, not every 0.2 s; a card
    (the table in play) brings the first wait back."""
    with Pn532Reader(sink, port=emu.path, idle_check=0.2, idle_check_max=0.8) as r:
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        asks0 = asks(emu)
        time.sleep(2.5)
        quiet = asks(emu) - asks0
        assert 3 <= quiet <= 5, f"{quiet} checks in 2.5 s (every 0.2 s would be 12)"
        assert r.idle_wait == 0.8
        emu.present(UID4)
        assert sink.get(timeout=2).uid == UID4
        until(lambda: r.idle_wait == 0.2, what="the first wait back after a card")
        emu.present(None)
    with pytest.raises(ValueError):
        Pn532Reader(sink, port=emu.path, idle_check=5.0, idle_check_max=1.0)


def test_a_card_coming_while_the_reader_waits_is_one_tap_held_and_another_when_presented_again(emu, sink):
    with Pn532Reader(sink, port=emu.path) as r:
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        emu.present(UID7)
        assert sink.get(timeout=2).uid == UID7
        held = asks(emu)
        time.sleep(0.6)                                     # lying on the pad: asked again and again, one tap
        assert asks(emu) - held >= 3 and drain(sink) == []
        emu.present(None)
        until(lambda: emu.pending, what="the reader waiting again once the card left")
        time.sleep(r.presence.removal_time)
        emu.present(UID7)
        assert sink.get(timeout=2).uid == UID7
        emu.present(None)
        emu.present(UID4)                                   # another card at once: its own tap
        assert sink.get(timeout=2).uid == UID4
    assert drain(sink) == []


def test_close_cancels_the_wait_and_aborts_the_command_in_the_chip(emu, sink):
    r = Pn532Reader(sink, port=emu.path)
    r.start()
    assert sink.get(timeout=5).online
    until(lambda: emu.pending)
    start = time.monotonic()
    r.close()
    assert time.monotonic() - start < 1.0
    until(lambda: emu.pending is None, what="the waiting InListPassiveTarget aborted by the host's ACK")
    assert emu.aborts == 1 and "closed" in repr(r)


def test_a_port_that_vanishes_while_the_reader_waits_is_reported_offline_at_once(emu, sink):
    with Pn532Reader(sink, port=emu.path, backoff=(0.05, 0.1)):
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        emu.unplug()
        status = sink.get(timeout=1)
        assert isinstance(status, ReaderStatus) and not status.online and status.message.startswith("reader offline: ")
        emu.plug()
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        emu.present(UID4)
        assert sink.get(timeout=2).uid == UID4


def test_a_power_cycled_chip_is_woken_and_configured_again_without_going_offline(emu, sink):
    with Pn532Reader(sink, port=emu.path, idle_check=0.3) as r:
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        emu.power_cycle()                                    # the waiting command is forgotten, the chip asleep
        until(lambda: emu.sam_configured and emu.pending, what="the chip configured and asked again")
        emu.present(UID4)
        assert sink.get(timeout=2) == Tap(UID4, r.presence.last_seen, "pad")
    assert emu.commands.count(0x14) == 2 and drain(sink) == []


def test_a_chip_that_stops_answering_on_a_live_line_goes_offline_and_comes_back(emu, sink):
    with Pn532Reader(sink, port=emu.path, idle_check=0.2, ack_timeout=0.05, backoff=(0.05, 0.1)):
        assert sink.get(timeout=5).online
        until(lambda: emu.pending)
        emu.inject("silence", times=10_000)
        status = sink.get(timeout=5)
        assert not status.online and "no PN532 answers" in status.message
        emu.faults.clear()
        assert sink.get(timeout=5).online
        emu.present(UID4)
        assert sink.get(timeout=2).uid == UID4


def test_the_emulated_chip_answers_a_waiting_command_only_when_a_card_comes_and_an_ack_aborts_it(emu):
    """The emulator itself, over the pty: what the driver above relies on."""
    with serial.Serial(emu.path, 115200, timeout=0.2) as port:
        parser = FrameParser()

        def frames() -> list[Frame]:
            return parser.feed(port.read(256))

        port.write(b"\x55\x55" + b"\x00" * 15 + encode(b"\x14\x01\x14\x01"))
        assert [f.kind for f in frames()] == [FrameKind.ACK, FrameKind.DATA]
        port.write(encode(b"\x4a\x01\x00"))
        assert [f.kind for f in frames()] == [FrameKind.ACK]            # no card: nothing but the ACK
        assert frames() == [] and emu.pending
        emu.present(UID4)
        [answer] = frames()                                             # the card came: the answer, now
        assert answer.data == bytes.fromhex("4B 01 01 0004 08 04") + bytes.fromhex(UID4)
        emu.present(None)
        port.write(encode(b"\x4a\x01\x00"))
        assert [f.kind for f in frames()] == [FrameKind.ACK]
        port.write(ACK)                                                 # the host's ACK aborts it
        until(lambda: emu.pending is None)
        emu.present(UID4)
        assert frames() == [] and emu.aborts == 1
