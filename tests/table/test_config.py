from __future__ import annotations

import socket
from pathlib import Path

import pytest

from table.config import ConfigError, load_config
from table.app.systemd import notify, watchdog_interval


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_every_key_is_optional(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""))
    assert config.reader.reset_pin == 25 and config.rules.winning_level == 10


def test_an_unknown_key_is_an_error_that_names_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown key\(s\) in \[reader\]: spi_bsu"):
        load_config(write(tmp_path, "[reader]\nspi_bsu = 1\n"))


def test_an_unknown_section_is_an_error_that_names_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown section.*raeder"):
        load_config(write(tmp_path, "[raeder]\ntype = 'sim'\n"))


def test_a_wrong_type_says_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"\[buttons\] roll must be a whole number, got 'five'"):
        load_config(write(tmp_path, "[buttons]\nroll = 'five'\n"))


def test_two_buttons_on_one_pin_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="share a pin"):
        load_config(write(tmp_path, "[buttons]\nroll = 6\n"))


def test_rule_options_reach_the_ruleset(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[rules]\nwinning_level = 20\ninterference_seconds = 0\n"))
    assert config.rules.winning_level == 20 and config.rules.interference_seconds == 0


def test_player_names_and_sexes(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[players.player-2]\nname = 'Ana'\nsex = 'female'\n"))
    assert config.players["player-2"].name == "Ana"
    with pytest.raises(ConfigError, match="player-1 … player-6"):
        load_config(write(tmp_path, "[players.player-9]\nname = 'X'\n"))


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[reader\n")
    with pytest.raises(ConfigError, match=str(path)):
        load_config(path)


def test_state_dir_follows_systemd_then_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "sd"))
    assert load_config(write(tmp_path, "")).state_dir == tmp_path / "sd"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert load_config(write(tmp_path, "")).state_dir == tmp_path / "xdg" / "munchkin-table"


def test_sd_notify_sends_one_datagram(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert notify("READY=1")
        assert server.recv(100) == b"READY=1"


def test_sd_notify_without_a_socket_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify("READY=1") is False


def test_watchdog_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    assert watchdog_interval() == 20.0
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert watchdog_interval() is None


def test_button_timing_from_the_config_reaches_the_gpio_buttons(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import queue

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from drivers.base import ManualClock
    from drivers.gpio import GpioButtons
    from table.app.drivers import open_drivers

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    Device.pin_factory = MockFactory()
    config = load_config(write(tmp_path, "[reader]\ntype = 'sim'\n[buttons]\nbounce_ms = 80\nhold_seconds = 2.5\n"
                                         "[feedback]\nbuzzer = false\nled = false\n"))
    drivers = open_drivers(config, queue.Queue(), ManualClock(), sim=False)
    try:
        assert isinstance(drivers.buttons, GpioButtons)
        assert (drivers.buttons.debounce, drivers.buttons.hold_time) == (0.08, 2.5)
    finally:
        drivers.close()
        Device.pin_factory.reset()


@pytest.mark.parametrize("line, says", [("halfling_run_away = 'maybe'", "penalty"), ("level_floor = 0", "level_floor = 0 is out of range: it must be 1"),
                                        ("winning_level = 1", "winning_level = 1 is out of range: it must be 2-99"),
                                        ("interference_seconds = -1", "interference_seconds = -1 is out of range")])
def test_rule_options_outside_the_rules_are_refused(tmp_path: Path, line: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        load_config(write(tmp_path, f"[rules]\n{line}\n"))
