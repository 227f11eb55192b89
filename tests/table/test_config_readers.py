"""[[reader]] entries (issue 26): a reader at every seat; a single [reader] as it always was."""

from __future__ import annotations

import tomllib

import pytest

from table.config import ConfigError, parse_config


def mfrc522s(*layout: tuple[int, int, int]) -> str:
    """``[[reader]]`` entries for MFRC522s at seats 1, 2, ...: (SPI bus, chip select, reset pin) each."""
    return "".join(f'[[reader]]\ntype = "mfrc522"\nspi_bus = {bus}\nspi_device = {ce}\nreset_pin = {rst}\nseat = {seat}\n'
                   for seat, (bus, ce, rst) in enumerate(layout, 1))


FOUR_AND_TWO = """
[buttons]
next = 27
""" + mfrc522s((0, 0, 25), (0, 1, 24), (1, 0, 23), (1, 1, 22)) + """
[[reader]]
type = "pn532"
port = "/dev/serial/by-path/usb-0:1.3"
seat = 5
[[reader]]
type = "pn532"
port = "/dev/serial/by-path/usb-0:1.4"
seat = 6
[[reader]]
type = "pn532"
port = "/dev/serial0"
seat = "table"
"""

SIX_MFRC522 = """
[buttons]
roll = 5
help = 6
run = 13
next = 14
undo = 26
[feedback]
buzzer = 12
led = 15
""" + mfrc522s((0, 0, 25), (0, 1, 24), (1, 0, 23), (1, 1, 22), (1, 2, 27), (3, 0, 4))


def parse(text: str):  # type: ignore[no-untyped-def]
    return parse_config(tomllib.loads(text), "box.toml")


@pytest.mark.parametrize("text", [FOUR_AND_TWO, SIX_MFRC522], ids=["4 MFRC522 + 3 PN532", "6 MFRC522"])
def test_the_wiring_guides_layouts_are_accepted(text: str) -> None:
    config = parse(text)
    specs = config.reader_specs(sim=False)
    assert [s.seat for s in specs][:6] == [1, 2, 3, 4, 5, 6]
    assert all(s.label == (f"seat-{s.seat}" if s.seat else "table") for s in specs)


def test_four_and_two_name_their_buses_and_the_shared_pad() -> None:
    specs = parse(FOUR_AND_TWO).reader_specs(sim=False)
    assert specs[2].where == "spi1.0 (SPI1 CE0), reset BCM 23"
    assert (specs[4].kind, specs[4].where) == ("pn532", "/dev/serial/by-path/usb-0:1.3 at 115200 baud")
    assert specs[-1].seat is None and specs[-1].label == "table"


def test_run_sim_makes_every_pad_a_simulated_one_at_its_seat() -> None:
    specs = parse(FOUR_AND_TWO).reader_specs(sim=True)
    assert {s.kind for s in specs} == {"sim"} and [s.seat for s in specs] == [1, 2, 3, 4, 5, 6, None]


def test_a_single_reader_section_is_the_shared_pad_as_it_always_was() -> None:
    config = parse('[reader]\ntype = "pn532"\nport = "/dev/ttyAMA0"\n')
    [spec] = config.reader_specs(sim=False)
    assert (spec.kind, spec.seat, spec.label, spec.port) == ("pn532", None, "pad", "/dev/ttyAMA0")
    assert config.readers == [] and config.reader.port == "/dev/ttyAMA0"


@pytest.mark.parametrize("change, problem", [
    (("seat = 4", "seat = 3"), "[[reader]] 3 and [[reader]] 4 are both for seat 3: each seat has one pad"),
    (("reset_pin = 24", "reset_pin = 25"), "[[reader]] 1 and [[reader]] 2 share the reset pin BCM 25"),
    (("spi_device = 1\nreset_pin = 24", "spi_device = 0\nreset_pin = 24"), "are both on SPI0 CE0"),
    (("usb-0:1.4", "usb-0:1.3"), "[[reader]] 5 and [[reader]] 6 are both on /dev/serial/by-path/usb-0:1.3"),
    (("next = 27", "next = 20"), "SPI1 uses BCM 20, the pin of the next button"),
    (("next = 27", "next = 19"), "SPI1 uses BCM 19, the pin of the next button"),
    (("reset_pin = 22", "reset_pin = 17"), "[[reader]] 4: reset_pin = 17 is a pin of SPI1"),
    (("reset_pin = 22", "reset_pin = 13"), "[[reader]] 4: reset_pin = 13 is a pin of the run button"),
    (("seat = 6", "seat = 7"), "[[reader]] 6 seat must be a seat number 1-6, or \"table\" for a shared pad, got 7"),
    (("seat = 6", "seat = true"), "[[reader]] 6 seat must be a seat number 1-6"),
    (('seat = "table"', ""), "[[reader]] 7 has no seat"),
    (("spi_device = 1\nreset_pin = 22", "spi_device = 3\nreset_pin = 22"), "SPI1 has chip selects CE0-CE2, not CE3"),
    (("seat = 5", "seat = 5\nspi_bsu = 1"), "unknown key(s) in [[reader]] 5: spi_bsu; known keys: seat, type"),
])
def test_a_bad_reader_entry_is_named_with_what_is_wrong(change: tuple[str, str], problem: str) -> None:
    old, new = change
    assert old in FOUR_AND_TWO
    with pytest.raises(ConfigError) as caught:
        parse(FOUR_AND_TWO.replace(old, new, 1))
    assert any(problem in p for p in caught.value.problems), caught.value.problems


def test_the_led_on_spi1s_third_chip_select_is_named() -> None:
    text = SIX_MFRC522.replace("led = 15", "led = 16")
    with pytest.raises(ConfigError, match="SPI1 uses BCM 16, the pin of the led"):
        parse(text)


def test_a_reader_list_that_is_not_tables_is_refused_in_words() -> None:
    with pytest.raises(ConfigError, match=r"\[\[reader\]\] 1 must be a table of keys"):
        parse_config({"reader": [3]})


def test_two_shared_pads_have_names_of_their_own() -> None:
    text = FOUR_AND_TWO + '[[reader]]\ntype = "pn532"\nport = "/dev/ttyUSB9"\nseat = "table"\n'
    specs = parse(text).reader_specs(sim=False)
    assert [s.label for s in specs if s.seat is None] == ["table", "table-2"]
