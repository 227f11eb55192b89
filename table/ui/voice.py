"""The table's voice: turn starts, fights' verdicts, level ups, deaths and the winner, spoken aloud.

Off unless ``[voice] enabled = true``. The words are the catalogs' (the same sentences the message
line shows, in the table's language; names as the group wrote them); espeak-ng (Debian's package)
turns them into sound on a thread of the voice's own, and pygame's mixer plays it: the table's own
sound output, so ``[voice] volume`` (0 mutes) and SDL's audio drivers apply to it as to the die's
rattle. A newer announcement replaces an older one not yet spoken; the one being spoken finishes.
Without espeak-ng the table says so once and carries on silent; under SDL's dummy audio driver
(tests, simulate) there is nothing to hear, so nothing is synthesised.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
import threading
import wave
from array import array
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drivers.doctor import Check
from engine.cards import Catalog
from engine.events import (GameEvent, GameStarted, GameWon, LevelGained, LevelLost, MonstersKilled, PlayerDied, RunAwayFailed,
                           RunAwaySucceeded, TurnEnded)
from engine.messages import Msg, PlayerRef, msg
from engine.state import GameState
from table.config import VoiceConfig
from table.session.describe import describe
from table.ui.sound import RATE, native_stderr_to_log
from table.words.i18n import text

if TYPE_CHECKING:
    import pygame

log = logging.getLogger(__name__)

# The events worth saying aloud, for a table that looks at its cards rather than the screen.
# The message line's sentence for each, but a level said as a sentence rather than "1 → 2".
SPOKEN = (GameStarted, TurnEnded, MonstersKilled, RunAwaySucceeded, RunAwayFailed, LevelGained, LevelLost, PlayerDied,
          GameWon)

# espeak-ng's voice for each of the table's languages.
VOICES = {"en": "en", "es": "es", "zh": "cmn", "de": "de", "fr": "fr-fr", "it": "it", "pt": "pt-br", "ru": "ru",
          "pl": "pl", "ja": "ja", "ko": "ko"}

# espeak-ng runs below the table's priority: a frame a tap waits for comes before a sentence.
NICE = ["nice", "-n", "10"] if shutil.which("nice") else []
PLAY_MARGIN_S = 0.15        # after a sound's length, the mixer's buffer has played it out
SYNTH_SECONDS = 20          # an espeak-ng that takes longer than this is stuck: that announcement is dropped


def announcement(events: Iterable[GameEvent], state: GameState, catalog: Catalog) -> str:
    """What the voice says of an accepted action's events, in the current language ("" for nothing)."""
    said = [text(_sentence(event, state, catalog)) for event in events if isinstance(event, SPOKEN)]
    return ". ".join(s for s in said if s)


def _sentence(event: GameEvent, state: GameState, catalog: Catalog) -> Msg | str:
    if isinstance(event, (LevelGained, LevelLost)) and state.has_player(event.player):
        who = PlayerRef(event.player, state.player(event.player).name)
        return msg("{who} is now level {level}", who=who, level=event.to)
    return describe(event, state, catalog)


def espeak() -> str | None:
    """The espeak-ng program, or None where it is not installed."""
    return shutil.which("espeak-ng")


def voice_check(config: VoiceConfig, language: str) -> Check:
    """The doctor's look at the voice: off, or espeak-ng there with a voice for the table's language."""
    if not config.enabled:
        return Check("voice", True, "off ([voice] enabled = false)")
    program = espeak()
    if program is None:
        return Check("voice", False, "[voice] is enabled but espeak-ng is not installed",
                     "sudo apt-get install espeak-ng (or set [voice] enabled = false)")
    voice = VOICES.get(language, "en")
    try:
        done = subprocess.run([program, "-v", voice, "-q", "--", "ok"], capture_output=True, timeout=SYNTH_SECONDS,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("voice", False, f"espeak-ng did not run: {exc}", "reinstall it: sudo apt-get install --reinstall espeak-ng")
    if done.returncode != 0 or done.stderr.strip():
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return Check("voice", False, f"espeak-ng has no voice {voice!r} for [display] language = {language!r}: "
                     f"{said[0] if said else done.returncode}", "sudo apt-get install espeak-ng-data")
    return Check("voice", True, f"espeak-ng speaks {language} (voice {voice}), volume {config.volume:g}, "
                 f"{config.rate} words a minute")


class Voice:
    """Speaks announcements off the table's thread; ``say`` never waits."""

    def __init__(self, config: VoiceConfig, language: str) -> None:
        self.enabled = False
        self.notice = ""                        # why the voice is off although enabled (one line, said once)
        self.spoken: list[str] = []             # what was played, in order (for the tests and the log)
        self._voice = VOICES.get(language, "en")
        self._rate, self._volume = config.rate, config.volume
        self._pending: str | None = None
        self._busy = False
        self._closing = False
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._channel: pygame.mixer.Channel | None = None
        self._program = espeak() if config.enabled else None
        if not config.enabled:
            return
        if self._program is None:
            self.notice = "voice off: espeak-ng is not installed (sudo apt-get install espeak-ng)"
            log.warning("%s", self.notice)
            return
        if os.environ.get("SDL_AUDIODRIVER") == "dummy":
            return
        try:
            self._channel = _open_channel()
        except Exception as exc:    # no audio device is not a reason to stop the table
            self.notice = f"voice off: no sound output ({exc})"
            log.warning("%s", self.notice)
            return
        self.enabled = True
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, words: str) -> None:
        """Speak ``words`` when the voice is free; an announcement still waiting is dropped for these."""
        if not self.enabled or not words:
            return
        with self._wake:
            self._pending = words
            self._wake.notify()

    def wait(self, timeout: float) -> bool:
        """Until everything said so far has been spoken (at most ``timeout`` seconds); whether it has."""
        with self._wake:
            return self._wake.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def close(self) -> None:
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._pending is not None or self._closing)
                if self._closing:
                    return
                words, self._pending, self._busy = self._pending, None, True
            try:
                self._speak(words or "")
            except Exception:       # a voice that fails once is logged, and the table goes on
                log.exception("the voice could not say %r", words)
            with self._wake:
                self._busy = False
                self._wake.notify_all()

    def _speak(self, words: str) -> None:
        samples = self._synthesise(words)
        if samples is None or self._channel is None:
            return
        import pygame

        sound = pygame.mixer.Sound(buffer=samples)
        sound.set_volume(self._volume)
        self._channel.play(sound)
        self.spoken.append(words)
        with self._wake:        # asleep while it plays (no polling: a wake-up takes the GIL from a tap's frame)
            self._wake.wait_for(lambda: self._closing, sound.get_length() + PLAY_MARGIN_S)

    def _synthesise(self, words: str) -> bytes | None:
        """``words`` as 16-bit samples in the mixer's format, or None when espeak-ng failed."""
        assert self._program is not None
        with tempfile.TemporaryDirectory(prefix="munchkin-voice-") as tmp:
            out = Path(tmp) / "said.wav"
            try:
                done = subprocess.run([*NICE, self._program, "-v", self._voice, "-s", str(self._rate), "-w", str(out), "--",
                                       words], capture_output=True, timeout=SYNTH_SECONDS, check=False)
            except (OSError, subprocess.TimeoutExpired) as exc:
                log.warning("espeak-ng failed: %s", exc)
                return None
            if done.returncode != 0 or not out.exists():
                log.warning("espeak-ng failed (%s): %s", done.returncode, done.stderr.decode(errors="replace").strip())
                return None
            with wave.open(str(out), "rb") as wav:
                rate, channels = wav.getframerate(), wav.getnchannels()
                frames = wav.readframes(wav.getnframes())
        return for_mixer(frames, rate, channels)


def _open_channel() -> Any:
    """The mixer (opened as the die's sounds open it, if nothing opened it yet) and a channel kept for the voice."""
    import pygame

    if not pygame.mixer.get_init():
        with native_stderr_to_log():
            pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512, allowedchanges=0)
    pygame.mixer.set_reserved(1)
    return pygame.mixer.Channel(0)


def for_mixer(frames: bytes, rate: int, channels: int) -> bytes:
    """Mono 16-bit samples at ``rate`` made into what the open mixer plays: its rate (nearest sample)
    and its number of channels."""
    import pygame

    init = pygame.mixer.get_init()
    mix_rate, _size, mix_channels = init if init else (RATE, -16, 1)
    samples = array("h")
    samples.frombytes(frames[: len(frames) // 2 * 2])
    if channels > 1:
        samples = samples[::channels]
    if mix_rate != rate:
        step = rate / mix_rate
        samples = array("h", (samples[int(i * step)] for i in range(int(len(samples) / step))))
    if mix_channels > 1:
        samples = array("h", (v for v in samples for _ in range(mix_channels)))
    return samples.tobytes()


__all__ = ["SPOKEN", "VOICES", "Voice", "announcement", "espeak", "for_mixer", "voice_check"]
