"""Short die-roll and victory sounds, synthesised in code (no sound files to ship).

Off when the config says ``[display] sound = false``, under SDL's dummy audio
driver (tests, simulate), or when no audio device opens; never an error.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import random
import sys
import tempfile
from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygame

log = logging.getLogger(__name__)

RATE = 22050


def synth_die(seed: int = 7) -> array[int]:
    """About 0.4 s of a die rattling: a few decaying clicks of filtered noise."""
    rng = random.Random(seed)
    out = array("h", [0] * int(RATE * 0.42))
    at = 0
    for hit in range(6):
        length = int(RATE * 0.025)
        amp = 9000 * (0.8 ** hit)
        prev = 0.0
        for i in range(length):
            if at + i >= len(out):
                break
            prev = 0.55 * prev + 0.45 * rng.uniform(-1, 1)
            out[at + i] = int(amp * prev * math.exp(-i / (length / 4)))
        at += int(RATE * rng.uniform(0.045, 0.08))
    return out


def synth_victory() -> array[int]:
    """A rising arpeggio (C E G C), about 0.8 s."""
    notes = [523.25, 659.25, 783.99, 1046.5]
    out = array("h")
    for n, freq in enumerate(notes):
        length = int(RATE * (0.14 if n < 3 else 0.36))
        for i in range(length):
            env = min(1.0, i / 200) * math.exp(-i / (length * 0.8))
            value = math.sin(2 * math.pi * freq * i / RATE) + 0.3 * math.sin(4 * math.pi * freq * i / RATE)
            out.append(int(7000 * env * value))
    return out


@contextlib.contextmanager
def native_stderr_to_log() -> Iterator[None]:
    """Catch what C libraries write straight to fd 2 meanwhile (ALSA's nine ``ALSA lib …`` lines
    when there is no sound card) and log it at debug level instead of the terminal."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            said = sink.read(64 * 1024).decode("utf-8", errors="replace").strip()
            if said:
                log.debug("a native library said: %s", said)


class Sounds:
    def __init__(self, enabled: bool) -> None:
        self.enabled = False
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        if not enabled or os.environ.get("SDL_AUDIODRIVER") == "dummy":
            return
        try:
            import pygame

            with native_stderr_to_log():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512, allowedchanges=0)
            self._sounds = {"die": pygame.mixer.Sound(buffer=synth_die().tobytes()),
                            "victory": pygame.mixer.Sound(buffer=synth_victory().tobytes())}
            self.enabled = True
        except Exception as exc:  # no audio device is not a reason to stop the table
            log.warning("sound off: %s", exc)

    def play(self, name: str) -> None:
        sound = self._sounds.get(name)
        if self.enabled and sound is not None:
            sound.play()

    def __repr__(self) -> str:
        return f"<Sounds {'on' if self.enabled else 'off'}>"
