"""Buttons and feedback through gpiozero's real code on MockFactory pins."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.base import ManualClock
from drivers.events import Press, Release
from drivers.gpio import ButtonConfigError, GpioButtons, GpioFeedback
from tests.drivers.helpers import drain


@pytest.fixture
def clock():
    return ManualClock(100.0)


@pytest.fixture
def sink():
    return queue.Queue()


@pytest.fixture
def panel(factory, clock, sink):
    with GpioButtons(sink, clock=clock, pin_factory=factory) as p:
        yield p


def press(factory, clock, pin, down_for):
    factory.pin(pin).drive_low()
    clock.advance(down_for)
    factory.pin(pin).drive_high()


def test_press_and_release_give_one_press_and_one_release(factory, clock, sink, panel):
    factory.pin(5).drive_low()
    clock.advance(0.1)
    factory.pin(5).drive_high()
    assert drain(sink) == [Press("roll", 100.0, False), Release("roll", 100.1)]


def test_each_button_reports_its_own_name_from_its_bcm_pin(factory, clock, sink, panel):
    for name, pin in {"roll": 5, "help": 6, "run": 13, "next": 19, "undo": 26}.items():
        press(factory, clock, pin, 0.1)
        clock.advance(1)
    assert [e.button for e in drain(sink) if isinstance(e, Press)] == ["roll", "help", "run", "next", "undo"]


def test_pins_come_from_the_config(factory, clock, sink):
    with GpioButtons(sink, clock=clock, pins={"next": 17}, pin_factory=factory):
        press(factory, clock, 17, 0.1)
        press(factory, clock, 19, 0.1)
    assert [type(e).__name__ for e in drain(sink)] == ["Press", "Release"]


def test_buttons_use_pull_ups_so_an_idle_pin_is_released(factory, panel):
    assert factory.pin(5).pull == "up"
    assert not panel._buttons["roll"].is_pressed


def test_contact_bounce_on_press_and_release_gives_one_of_each(factory, clock, sink, panel):
    pin = factory.pin(13)
    for level in ("low", "high", "low", "high", "low"):  # press bounces for 4 ms
        getattr(pin, f"drive_{level}")()
        clock.advance(0.001)
    clock.advance(0.2)
    panel.tick()
    for level in ("high", "low", "high", "low", "high"):  # release bounces too
        getattr(pin, f"drive_{level}")()
        clock.advance(0.001)
    clock.advance(0.2)
    panel.tick()
    assert [type(e).__name__ for e in drain(sink)] == ["Press", "Release"]


def test_a_tap_shorter_than_the_debounce_window_is_released_when_the_window_ends(factory, clock, sink, panel):
    press(factory, clock, 19, 0.01)
    assert drain(sink) == [Press("next", 100.0, False)]
    clock.advance(0.05)
    panel.tick()
    assert drain(sink) == [Release("next", 100.06)]


def test_holding_a_button_gives_one_held_press_after_a_second(factory, clock, sink, panel):
    factory.pin(26).drive_low()
    for _ in range(30):  # 3 s down, ticking as the timer thread would
        clock.advance(0.1)
        panel.tick()
    factory.pin(26).drive_high()
    events = drain(sink)
    assert [e for e in events if isinstance(e, Press)] == [
        Press("undo", 100.0, False),
        Press("undo", pytest.approx(101.0, abs=0.11), True),
    ]
    assert isinstance(events[-1], Release)


def test_a_short_press_is_never_held(factory, clock, sink, panel):
    press(factory, clock, 26, 0.9)
    clock.advance(1)
    panel.tick()
    assert not any(isinstance(e, Press) and e.held for e in drain(sink))


def test_mashing_a_button_gives_no_double_action(factory, clock, sink, panel):
    for _ in range(5):  # five clean presses 100 ms apart
        press(factory, clock, 19, 0.05)
        clock.advance(0.05)
    events = drain(sink)
    assert [type(e).__name__ for e in events] == ["Press", "Release", "Press", "Release"]
    assert [e.at for e in events if isinstance(e, Press)] == pytest.approx([100.0, 100.3])


def test_mashing_one_button_does_not_block_another(factory, clock, sink, panel):
    press(factory, clock, 5, 0.06)
    press(factory, clock, 6, 0.06)
    assert [e.button for e in drain(sink) if isinstance(e, Press)] == ["roll", "help"]


def test_the_timer_thread_reports_a_hold_on_the_real_clock(factory, sink):
    with GpioButtons(sink, pin_factory=factory, hold_time=0.05) as p:
        factory.pin(26).drive_low()
        deadline = time.monotonic() + 2
        while sink.qsize() < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert repr(p).endswith("down=undo>")
    events = drain(sink)
    assert events[0].held is False and events[1] == Press("undo", events[1].at, True)


def test_close_is_idempotent_and_frees_the_pins(factory, clock, sink):
    p = GpioButtons(sink, clock=clock, pin_factory=factory)
    p.start()
    assert "open" in repr(p)
    p.close()
    p.close()
    assert "closed" in repr(p)
    with GpioButtons(sink, clock=clock, pin_factory=factory):  # pins can be claimed again
        pass


@pytest.mark.parametrize(
    "pins, message",
    [
        ({"jump": 5}, "unknown button(s) jump"),
        ({"roll": 5, "help": 5}, "both use BCM 5"),
        ({"roll": 40}, "expected a BCM pin number 0-27"),
    ],
)
def test_bad_pin_configs_are_refused_with_a_message(pins, message, sink):
    with pytest.raises(ButtonConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GpioButtons(sink, pins=pins)


# feedback --------------------------------------------------------------------


def test_accepted_is_one_beep_and_refused_is_two(factory):
    with GpioFeedback(buzzer_pin=12, pin_factory=factory, beep_time=0.001, wait=True) as fb:
        buzzer = factory.pin(12)
        buzzer.clear_states()
        fb.accepted()
        buzzer.assert_states([False, True, False])
        buzzer.clear_states()
        fb.refused()
        buzzer.assert_states([False, True, False, True, False])


def wait_for_states(pin, count, timeout=2.0):
    deadline = time.monotonic() + timeout
    while len(pin.states) < count and time.monotonic() < deadline:
        time.sleep(0.002)
    return [s.state for s in pin.states]


def test_the_led_is_on_while_the_reader_is_online_and_blinks_while_offline(factory):
    with GpioFeedback(led_pin=16, pin_factory=factory, blink_time=0.005) as fb:
        led = factory.pin(16)
        fb.reader_online(True)
        assert led.state is True
        fb.reader_online(False)
        states = wait_for_states(led, 6)
        assert states[:2] == [False, True] and states[2:6] == [False, True, False, True]
        fb.reader_online(True)
        assert led.state is True
        settled = len(led.states)
        time.sleep(0.03)
        assert len(led.states) == settled  # steady, no longer blinking


def test_a_pin_of_none_means_the_part_is_absent(factory):
    with GpioFeedback(buzzer_pin=None, led_pin=None, pin_factory=factory) as fb:
        fb.accepted()
        fb.refused()
        fb.reader_online(False)
        assert fb.buzzer is None and fb.led is None
        assert "buzzer=None led=None reader offline" in repr(fb)


def test_feedback_close_is_idempotent(factory):
    fb = GpioFeedback(buzzer_pin=12, led_pin=16, pin_factory=factory)
    fb.close()
    fb.close()
    fb.accepted()  # a closed feedback is silent, not an error
    assert "closed" in repr(fb)
