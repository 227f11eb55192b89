"""The voice: announcements spoken by espeak-ng and played through the table's own mixer.

SDL's disk audio driver writes what the mixer plays to a file (SDL_DISKAUDIOFILE): the tests listen
there, as a player at the table would hear it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from array import array
from pathlib import Path

import pytest

from table.config import VoiceConfig, load_config
from table.ui import voice as voice_module
from table.ui.voice import Voice, voice_check

ROOT = Path(__file__).resolve().parents[2]
KILL = ("tap player-1\ntap player-2\ntap player-3\npress next\ntap boots-of-butt-kicking\ntap potted-plant\n"
        "press next\nwait 3\n")
needs_espeak = pytest.mark.skipif(voice_module.espeak() is None, reason="espeak-ng is not installed (apt-get install espeak-ng)")


def loud_samples(path: Path, above: int = 2000) -> int:
    if not path.exists():
        return 0
    samples = array("h")
    data = path.read_bytes()
    samples.frombytes(data[: len(data) // 2 * 2])
    return sum(1 for v in samples if abs(v) > above)


def simulate_heard(tmp_path: Path, voice: str) -> int:
    """Loud samples SDL's disk driver recorded while ``simulate`` played a kill with ``[voice]`` as given."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "kill.txt").write_text(KILL, encoding="utf-8")
    # espeak-ng's fastest speech: simulate waits until what was said has been played, in real time
    (tmp_path / "config.toml").write_text(f"[voice]\nrate = 450\n{voice}\n", encoding="utf-8")
    heard = tmp_path / "heard.raw"
    env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(heard), "SDL_DISKAUDIODELAY": "0"}
    done = subprocess.run([sys.executable, "-m", "table", "simulate", str(tmp_path / "kill.txt"), "--config",
                           str(tmp_path / "config.toml")], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert '"level": 2' in done.stdout             # the kill happened
    return loud_samples(heard)


@needs_espeak
def test_a_kill_is_heard_with_the_voice_on_and_not_with_it_off(tmp_path: Path) -> None:
    assert simulate_heard(tmp_path / "on", "enabled = true") > 10_000
    assert simulate_heard(tmp_path / "off", "enabled = false") == 0


@needs_espeak
def test_the_volume_reaches_the_mixer(tmp_path: Path) -> None:
    assert simulate_heard(tmp_path / "mute", "enabled = true\nvolume = 0") == 0


@needs_espeak
def test_a_newer_announcement_replaces_one_not_yet_spoken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "disk")
    monkeypatch.setenv("SDL_DISKAUDIOFILE", str(tmp_path / "heard.raw"))
    monkeypatch.setenv("SDL_DISKAUDIODELAY", "0")
    import pygame

    started = threading.Event()
    release = threading.Event()
    real = Voice._synthesise

    def slow(self: Voice, words: str) -> bytes | None:
        started.set()
        release.wait(10)                # the first announcement is being made while the others come
        return real(self, words)

    monkeypatch.setattr(Voice, "_synthesise", slow)
    voice = Voice(VoiceConfig(enabled=True), "en")
    try:
        assert voice.enabled
        voice.say("one")
        assert started.wait(10)
        voice.say("two")
        voice.say("three")
        release.set()
        assert voice.wait(30)
        assert voice.spoken == ["one", "three"]
    finally:
        voice.close()
        pygame.mixer.quit()


def test_without_espeak_the_voice_says_so_once_and_stays_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(voice_module, "espeak", lambda: None)
    voice = Voice(VoiceConfig(enabled=True), "es")
    assert not voice.enabled and "espeak-ng" in voice.notice
    voice.say("hola")                   # nothing happens, nothing breaks
    assert voice.wait(1) and voice.spoken == []
    check = voice_check(VoiceConfig(enabled=True), "es")
    assert not check.ok and "apt-get install espeak-ng" in check.fix


@needs_espeak
def test_the_doctor_checks_the_voice_for_the_tables_language(tmp_path: Path) -> None:
    assert voice_check(VoiceConfig(enabled=False), "zh").ok
    check = voice_check(VoiceConfig(enabled=True), "zh")
    assert check.ok and "cmn" in check.detail
    (tmp_path / "c.toml").write_text("[voice]\nenabled = true\n[display]\nlanguage = \"es\"\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "table", "doctor", "--config", str(tmp_path / "c.toml")],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "[ok] voice: espeak-ng speaks es" in done.stdout


@pytest.mark.parametrize("bad", ["volume = 1.5", "rate = 10", "enabled = \"yes\"", "pitch = 3"])
def test_a_bad_voice_setting_is_named(tmp_path: Path, bad: str) -> None:
    from table.config import ConfigError

    (tmp_path / "c.toml").write_text(f"[voice]\n{bad}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[voice\]"):
        load_config(tmp_path / "c.toml")
