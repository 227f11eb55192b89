"""Every test runs headless, on a clean temporary state directory, in any order."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
# An installed box has /etc/munchkin-table/config.toml (its reader, its state directory): the tests,
# and the table processes they start, use their own config or the defaults, never that one.
os.environ["MUNCHKIN_SYSTEM_CONFIG"] = os.path.join(os.path.dirname(__file__), "no-system-config.toml")
os.environ["MUNCHKIN_UNIT_DIR"] = os.path.join(os.path.dirname(__file__), "no-systemd-units")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may touch the user's own state directory or config."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    # The command line speaks the user's language: the tests read its English unless they set one.
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(scope="session")
def catalog():
    from cards.loader import load_catalog

    return load_catalog()


# Property tests explore new examples on a developer's machine; in CI they run a fixed set, so a
# submission cannot fail on an example nobody saw (anything found locally is kept as a plain test).
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
