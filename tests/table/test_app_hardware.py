"""The whole table (`run`) on the real reader drivers, each talking to its emulator.

`run` owns pygame's main loop, so it runs here on the test's main thread with
SDL's dummy driver, while a helper thread puts cards on the emulated pad,
waits for the journal to show the result, and closes the window.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from drivers.emulators.mfrc522 import Card, Mfrc522Chip, install_fakes
from drivers.emulators.pn532 import Pn532Emulator
from table.app.run import run, stop
from table.config import load_config
from table.storage.journal import Journal

TAGS = "uid,card\n04A1B2C3,player-1\n04A1B2C4,player-2\n04A1B2C5,player-3\n04112233445566,net-troll\n"


def configure(tmp_path: Path, reader: str) -> Path:
    state = tmp_path / "state"
    state.mkdir()
    (state / "tags.csv").write_text(TAGS)
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nstate_dir = "{state}"\n[reader]\n{reader}\n[feedback]\nbuzzer = false\nled = false\n')
    return config


def journal_types(state: Path) -> list[str]:
    journal = Journal(state / "journal.sqlite3")
    try:
        record = journal.latest_game()
        return [type(c).__name__ for c in journal.commands(record.id)] if record else []
    finally:
        journal.close()


def wait_journal(state: Path, expected: list[str], failures: list[str], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if journal_types(state) == expected:
            return True
        time.sleep(0.1)
    failures.append(f"journal never became {expected}: {journal_types(state)}")
    return False


def press_next() -> None:
    """The NEXT button (BCM 19) pressed on gpiozero's mock pins, held past the debounce time."""
    pin = Device.pin_factory.pin(19)
    pin.drive_low()
    time.sleep(0.2)
    pin.drive_high()


def drive(tmp_path: Path, present, take_away, failures: list[str]) -> None:
    """Three player tokens rest on the pad a while each; the NEXT button starts; a 7-byte tag plays."""
    state = tmp_path / "state"
    try:
        for uid in ("04A1B2C3", "04A1B2C4", "04A1B2C5"):
            present(uid)
            time.sleep(1.0)          # ten polls: still one tap
            take_away()
            time.sleep(0.6)
        if not wait_journal(state, ["Join"] * 3, failures):
            return
        press_next()
        if not wait_journal(state, ["Join"] * 3 + ["StartGame"], failures):
            return
        present("04112233445566")
        time.sleep(0.6)
        take_away()
        wait_journal(state, ["Join"] * 3 + ["StartGame", "PlayCard"], failures)
    except Exception as exc:  # pragma: no cover - reported by the test
        failures.append(repr(exc))
    finally:
        stop()                          # a QUIT event, and a wake so the sleeping loop reads it


@pytest.fixture(autouse=True)
def mock_pins(monkeypatch: pytest.MonkeyPatch):
    """GPIO buttons on gpiozero's MockFactory, as the table would open them on a Pi."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    Device.pin_factory = MockFactory()
    yield
    Device.pin_factory.reset()


def run_table(tmp_path: Path, config: Path, present, take_away) -> list[str]:
    failures: list[str] = []
    worker = threading.Thread(target=drive, args=(tmp_path, present, take_away, failures), daemon=True)
    worker.start()
    assert run(load_config(config), sim=False) == 0
    worker.join(timeout=30)
    return failures


def test_run_with_an_mfrc522_turns_taps_into_game_actions(tmp_path: Path) -> None:
    hw = install_fakes()
    hw.clear()
    chip = hw.attach(Mfrc522Chip(reset_pin=25), bus=0, device=1)
    config = configure(tmp_path, 'type = "mfrc522"\nspi_bus = 0\nspi_device = 1\nreset_pin = 25')
    failures = run_table(tmp_path, config, lambda uid: chip.present(Card(uid)), lambda: chip.present(None))
    hw.clear()
    assert failures == []
    # One join per token however long it rested on the pad, then the 7-byte monster tag starts a combat.
    assert journal_types(tmp_path / "state") == ["Join"] * 3 + ["StartGame", "PlayCard"]


def test_run_with_a_pn532_turns_taps_into_game_actions(tmp_path: Path) -> None:
    with Pn532Emulator() as emu:
        config = configure(tmp_path, f'type = "pn532"\nport = "{emu.path}"')
        failures = run_table(tmp_path, config, emu.present, lambda: emu.present(None))
    assert failures == []
    assert journal_types(tmp_path / "state") == ["Join"] * 3 + ["StartGame", "PlayCard"]
