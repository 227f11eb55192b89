"""The default button pins are written once (drivers/events.py) and every reader of them agrees."""

from __future__ import annotations

from drivers.events import BUTTONS, DEFAULT_BUTTON_PINS


def test_the_default_pins_are_the_built_boxs_in_button_order() -> None:
    assert tuple(DEFAULT_BUTTON_PINS) == BUTTONS
    assert DEFAULT_BUTTON_PINS == {"roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}


def test_the_config_defaults_and_the_gpio_panel_use_the_one_definition() -> None:
    from gpiozero.pins.mock import MockFactory

    from drivers.base import ManualClock
    from drivers.gpio import GpioButtons
    from table.config import ButtonsConfig

    assert ButtonsConfig().pins() == DEFAULT_BUTTON_PINS
    panel = GpioButtons(lambda event: None, clock=ManualClock(), pin_factory=MockFactory())
    try:
        assert panel.pins == DEFAULT_BUTTON_PINS
    finally:
        panel.close()
