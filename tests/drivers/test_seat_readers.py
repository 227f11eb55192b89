"""Six pads at one table (issue 26), through the real ``mfrc522`` and ``pyserial`` code against the emulators:
four MFRC522s on two SPI buses (a fake spidev per bus and chip select), two PN532s each on its own pty."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from drivers.base import SystemClock
from drivers.emulators.mfrc522 import Card, FakeHardware, Mfrc522Chip
from drivers.emulators.pn532 import Pn532Emulator
from drivers.events import InputEvent, ReaderStatus, Tap
from drivers.seats import ReaderSet, SpiBus, open_readers
from table.app.drivers import open_pads
from table.config import Config, parse_config
from table.control.assembly import build_table
from table.ui.display import Display
from table.ui.view import build_view

CHIPS = {1: (0, 0, 25), 2: (0, 1, 24), 3: (1, 0, 23), 4: (1, 1, 22)}    # seat -> SPI bus, CE, reset pin
FAST = {"poll_interval": 0.02, "removal_time": 0.35, "backoff": (0.05, 0.2)}   # the drivers' removal time
TOKENS = {seat: f"player-{7 - seat}" for seat in range(1, 7)}          # seat 1 holds player 6, and so on
CARDS = {1: "warrior", 2: "halfling", 3: "elf", 4: "cleric", 5: "wizard", 6: "dwarf"}
ITEMS = {1: "helm-of-courage", 2: "boots-of-butt-kicking", 3: "cloak-of-obscurity", 5: "flaming-armor",
         6: "leather-armor"}


def uid(seat: int, n: int) -> str:
    return f"04{seat:02X}{n:02X}C3D4E5F6"


@dataclass
class Pads:
    """The six emulated chips by seat, and the config that names them."""

    chips: dict[int, Mfrc522Chip]
    pn532s: dict[int, Pn532Emulator]
    config: Config

    def present(self, seat: int, tag: str | None) -> None:
        if seat in self.chips:
            self.chips[seat].present(Card(tag) if tag else None)
        else:
            self.pn532s[seat].present(tag)

    def clear(self) -> None:
        for seat in range(1, 7):
            self.present(seat, None)


def config_for(pn532s: dict[int, Pn532Emulator]) -> Config:
    lines = ["[buttons]", "next = 27", "[feedback]", "led = false"]
    for seat, (bus, device, reset) in CHIPS.items():
        lines += ["[[reader]]", 'type = "mfrc522"', f"spi_bus = {bus}", f"spi_device = {device}",
                  f"reset_pin = {reset}", f"seat = {seat}"]
    for seat, emu in pn532s.items():
        lines += ["[[reader]]", 'type = "pn532"', f'port = "{emu.path}"', f"seat = {seat}"]
    import tomllib

    return parse_config(tomllib.loads("\n".join(lines) + "\n"))


@pytest.fixture
def pads(hw: FakeHardware, tmp_path: Path) -> Iterator[Pads]:
    chips = {seat: hw.attach(Mfrc522Chip(reset_pin=reset), bus=bus, device=device)
             for seat, (bus, device, reset) in CHIPS.items()}
    emus = {seat: Pn532Emulator(directory=str(tmp_path)) for seat in (5, 6)}
    for emu in emus.values():
        emu.plug()
    try:
        yield Pads(chips, emus, config_for(emus))
    finally:
        for emu in emus.values():
            emu.close()


def events_until(sink: queue.Queue[InputEvent], done, timeout: float = 10.0) -> list[InputEvent]:  # type: ignore[no-untyped-def]
    """Events from the readers until ``done(events)`` holds; fails after ``timeout`` seconds."""
    got: list[InputEvent] = []
    deadline = time.monotonic() + timeout
    while not done(got):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting; got {got}"
        try:
            got.append(sink.get(timeout=left))
        except queue.Empty:
            pass
    return got


def taps(n: int):  # type: ignore[no-untyped-def]
    return lambda got: sum(isinstance(e, Tap) for e in got) >= n


def online(names: set[str], state: bool = True):  # type: ignore[no-untyped-def]
    return lambda got: names <= {e.reader for e in got if isinstance(e, ReaderStatus) and e.online is state}


SEAT_NAMES = {f"seat-{n}" for n in range(1, 7)}


def test_the_config_opens_six_readers_with_the_mfrc522s_of_one_bus_on_one_thread(pads: Pads) -> None:
    readers = open_pads(pads.config, queue.Queue(), SystemClock(), sim=False)
    assert isinstance(readers, ReaderSet) and len(readers) == 6
    assert [(bus.bus, [r.name for r in bus.readers]) for bus in readers.buses] == [
        (0, ["seat-1", "seat-2"]), (1, ["seat-3", "seat-4"])]
    assert all(isinstance(bus, SpiBus) for bus in readers.buses)
    readers.close()


def test_a_held_card_is_one_tap_per_reader_and_each_tap_names_its_seat(pads: Pads) -> None:
    sink: queue.Queue[InputEvent] = queue.Queue()
    with open_readers(pads.config.reader_specs(sim=False), sink, clock=SystemClock(), **FAST):
        events_until(sink, online(SEAT_NAMES))
        for seat in range(1, 7):
            pads.present(seat, uid(0, 1))               # the same tag id on every pad, held there
        got = events_until(sink, taps(6))
        time.sleep(1.0)                                 # about 50 polls each with the cards lying there
        got += [sink.get_nowait() for _ in range(sink.qsize())]
        assert sorted((e.reader, e.seat) for e in got if isinstance(e, Tap)) == [(f"seat-{n}", n) for n in range(1, 7)]
        pads.clear()
        time.sleep(0.7)                                 # taken away for longer than the removal time
        for seat in range(1, 7):
            pads.present(seat, uid(0, 1))
        again = events_until(sink, taps(6))
        assert sorted(e.seat for e in again if isinstance(e, Tap)) == [1, 2, 3, 4, 5, 6]


def table_with_tags(pads: Pads, tmp_path: Path):  # type: ignore[no-untyped-def]
    table = build_table(pads.config, SystemClock(), state_dir=tmp_path / "state", seed_source=lambda: 5)
    for seat in range(1, 7):
        table.registry.bind(uid(seat, 0), TOKENS[seat])
        table.registry.bind(uid(seat, 1), CARDS[seat])
        if seat in ITEMS:
            table.registry.bind(uid(seat, 2), ITEMS[seat])
    return table


def unplug(pads: Pads, seat: int) -> None:
    """Take a pad's reader away: an MFRC522 off its SPI bus, a USB PN532 out of its socket (its pty gone)."""
    if seat in pads.chips:
        pads.chips[seat].unplug()
    else:
        pads.pn532s[seat].unplug()


def replug(pads: Pads, seat: int) -> None:
    if seat in pads.chips:
        pads.chips[seat].plug()
    else:
        pads.pn532s[seat].plug()


def round_of(pads: Pads, table, n: int, seats: list[int]) -> list[InputEvent]:  # type: ignore[no-untyped-def]
    """Every seat in ``seats`` taps its n-th tag at once; the controller handles what the readers report."""
    for seat in seats:
        pads.present(seat, uid(seat, n))
    got = events_until(table.events, taps(len(seats)))
    for event in got:
        table.controller.handle(event)
    pads.clear()
    time.sleep(0.7)                 # away for longer than the removal time
    return got


@pytest.mark.parametrize("gone", [4, 6], ids=["an MFRC522 on a shared bus", "a USB PN532"])
def test_six_players_tapping_interleaved_cards_are_each_credited_and_an_unplugged_pad_leaves_the_rest(
        pads: Pads, tmp_path: Path, gone: int) -> None:
    table = table_with_tags(pads, tmp_path)
    ctl = table.controller
    try:
        with open_readers(pads.config.reader_specs(sim=False), table.events, clock=SystemClock(), **FAST):
            for event in events_until(table.events, online(SEAT_NAMES)):
                ctl.handle(event)
            round_of(pads, table, 0, [1, 2, 3, 4, 5, 6])            # six tokens at once: each joins at its seat
            assert ctl.seats == TOKENS and len(ctl.state.players) == 6
            ctl.handle_press("next")
            round_of(pads, table, 1, [3, 6, 1, 5, 2, 4])            # a race or class card on every pad at once
            for seat, card in CARDS.items():
                player = ctl.state.player(TOKENS[seat])
                assert card in [*player.races, *player.classes], (seat, player)

            unplug(pads, gone)
            for event in events_until(table.events, online({f"seat-{gone}"}, False)):
                ctl.handle(event)
            assert ctl.reader_online is False and ctl.pads[f"seat-{gone}"].online is False
            view = build_view(ctl)
            assert view.pads[TOKENS[gone]][1] is False                # its player's panel shows it offline
            display = Display((800, 480))
            try:
                display.render(view)
                assert any(d.text.startswith(f"seat {gone}: PAD OFFLINE") for d in display.drawn)
            finally:
                display.close()
            rest = [seat for seat in (5, 1, 6, 3, 2, 4) if seat != gone]
            round_of(pads, table, 2, [seat for seat in rest if seat in ITEMS])   # the others go on
            for seat in rest:
                if seat in ITEMS:
                    player = ctl.state.player(TOKENS[seat])
                    assert ITEMS[seat] in [*player.equipped, *player.carried], seat   # before the seat's player

            replug(pads, gone)
            for event in events_until(table.events, online({f"seat-{gone}"})):
                ctl.handle(event)
            assert ctl.reader_online is True and ctl.pads[f"seat-{gone}"].online is True
            table.registry.bind(uid(gone, 3), "potion-of-general-studliness")
            round_of(pads, table, 3, [gone])
            assert ctl.state.player(TOKENS[gone]).level == 2
    finally:
        table.journal.close()


def test_the_mfrc522s_on_one_bus_never_have_two_transactions_at_once(pads: Pads, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    busy = {0: 0, 1: 0}
    most = {0: 0, 1: 0}
    for seat, chip in pads.chips.items():
        bus = CHIPS[seat][0]
        real = chip.xfer2

        def xfer2(data: list[int], real=real, bus=bus) -> list[int]:  # type: ignore[no-untyped-def]
            busy[bus] += 1
            most[bus] = max(most[bus], busy[bus])
            time.sleep(0.0002)              # a transfer takes time on the wire: room for another to overlap
            try:
                return real(data)
            finally:
                busy[bus] -= 1

        monkeypatch.setattr(chip, "xfer2", xfer2)
    sink: queue.Queue[InputEvent] = queue.Queue()
    with open_readers(pads.config.reader_specs(sim=False), sink, clock=SystemClock(), **FAST):
        events_until(sink, online(SEAT_NAMES))
        pads.present(1, uid(0, 1))
        pads.present(2, uid(0, 2))
        events_until(sink, taps(2))
        time.sleep(0.5)
    assert most == {0: 1, 1: 1}
    assert all(chip.transfers > 50 for chip in pads.chips.values())     # every chip was polled all along
