"""The factory turns the config's names into drivers, and refuses unknown ones by listing the known."""

from __future__ import annotations

import queue

import pytest

from drivers.base import ManualClock
from drivers.factory import DriverError, open_buttons, open_feedback, open_reader
from drivers.gpio import GpioButtons, GpioFeedback
from drivers.sim import NullFeedback, SimButtons, SimReader


def test_sim_kinds_open_the_simulated_twins():
    sink = queue.Queue()
    assert isinstance(open_reader("sim", sink, clock=ManualClock()), SimReader)
    assert isinstance(open_buttons("sim", sink, clock=ManualClock()), SimButtons)
    assert isinstance(open_feedback("sim"), NullFeedback)


def test_gpio_buttons_use_the_default_pins_and_the_given_factory(factory):
    with open_buttons("gpio", queue.Queue(), clock=ManualClock(), pin_factory=factory) as panel:
        assert isinstance(panel, GpioButtons)
        assert panel.pins == {"roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}


def test_gpio_feedback_without_pins_is_silent_and_with_pins_is_real(factory):
    assert isinstance(open_feedback("gpio", buzzer_pin=None, led_pin=None), NullFeedback)
    with open_feedback("gpio", buzzer_pin=12, led_pin=16, pin_factory=factory) as fb:
        assert isinstance(fb, GpioFeedback)


@pytest.mark.parametrize(
    "call, listed",
    [
        (lambda: open_reader("rc522", queue.Queue(), clock=ManualClock()), "mfrc522, pn532, sim"),
        (lambda: open_buttons("keys", queue.Queue(), clock=ManualClock()), "gpio, sim"),
        (lambda: open_feedback("horn"), "gpio, none, sim"),
    ],
)
def test_unknown_kinds_name_the_accepted_ones(call, listed):
    with pytest.raises(DriverError, match=listed):
        call()


def test_gpio_drivers_satisfy_the_protocols(factory):
    from drivers.base import ButtonPanel, Feedback

    with open_buttons("gpio", queue.Queue(), clock=ManualClock(), pin_factory=factory) as panel:
        assert isinstance(panel, ButtonPanel)
    with open_feedback("gpio", buzzer_pin=12, led_pin=None, pin_factory=factory) as fb:
        assert isinstance(fb, Feedback)
