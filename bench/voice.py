"""Tap to frame p99 with the voice on against off: does speaking slow the table down?

The bench's 6-player game (bench/_games.py: runs, rolls, lost levels, turns ending, ~40 cards in play)
is played through the simulated drivers at 800x480 under SDL's dummy video driver, with its journal on
a real disk, and each tap or press is timed from the driver's report to the end of the frame that
shows it; after each frame the run loop's ``speak`` hands the voice what to say, as the table does.
Sound goes to SDL's disk audio driver (a file, written at the pace of playback), so the mixer
plays for real, espeak-ng synthesises in its own process, and the voice's thread runs beside the
table's. Taps come PAUSE_S apart on the wall clock: faster than a real table, so the voice is busy
nearly all the time (every announcement that waits is replaced by a newer one) — a harsher scene
than play.

Baseline, in the same run: the same game with the voice off; the table's sound output (the die's
rattle, ``[display] sound``, on by default) is open on both sides, so what is measured is the voice. The games alternate on/off, GAMES each,
each in a process of its own, and their timed taps are pooled per side.

    ./go shell python bench/voice.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import logging  # noqa: E402

from bench._games import long_script  # noqa: E402
from bench._report import disk_dir, figure, report  # noqa: E402

ACTIONS = 700                 # script lines per game: ~500 timed taps
GAMES = 2                     # games per side, alternated, each in a process of its own
PAUSE_S = 0.05                # between taps, on the wall clock
SECONDS_BETWEEN_TAPS = 3.0    # on the game's clock: past the interference window
RATIO_TARGET = 1.05
SIZE = (800, 480)


def p(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def one_game(voice_on: bool, out: Path) -> None:
    """Play the game once, the voice on or off; write the timed taps (ms) and what was spoken to ``out``."""
    from drivers.base import ManualClock
    from drivers.sim import SimButtons, SimReader
    from table.config import Config, StorageConfig, VoiceConfig
    from table.control.assembly import build_table
    from table.sim.script import parse_script, tap_or_press
    from table.ui.display import Display
    from table.ui.view import build_view
    from table.ui.sound import Sounds
    from table.ui.voice import Voice, announcement

    state = disk_dir("voice")
    try:
        clock = ManualClock()
        table = build_table(Config(storage=StorageConfig(state_dir=str(state))), clock, seed_source=lambda: 1)
        ctl = table.controller
        display = Display(SIZE, clock=clock.monotonic)
        display.sounds = Sounds(True)           # the table's sound output, open either way, as with [display] sound
        if not display.sounds.enabled:
            raise SystemExit("the sound output did not open")
        voice = Voice(VoiceConfig(enabled=voice_on), "en")
        if voice_on and not voice.enabled:
            raise SystemExit(f"the voice did not start: {voice.notice or 'no sound output'}")
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        script = parse_script("\n".join(long_script(ACTIONS)), table.catalog)
        display.render(build_view(ctl))
        timed: list[float] = []
        said_at = ctl.history_len
        for action in script:
            clock.advance(SECONDS_BETWEEN_TAPS)
            shown = ctl.revision
            ctl.tick()
            if ctl.revision != shown or display.wants_frame():
                display.render(build_view(ctl))
            time.sleep(PAUSE_S)
            t0 = time.perf_counter()
            if not tap_or_press(action, reader, buttons):
                continue                        # waits: the real clock runs on its own
            for event in table.events.drain():
                if ctl.handle(event) is None:
                    continue
                display.render(build_view(ctl))
                timed.append((time.perf_counter() - t0) * 1000)
                if ctl.history_len > said_at:       # the run loop's speak, after the frame
                    voice.say(announcement(ctl.last_events, ctl.state, ctl.catalog))
                said_at = ctl.history_len
        spoken = len(voice.spoken)
        voice.close()
        display.close()
        table.journal.close()
        out.write_text(json.dumps({"timed": timed, "spoken": spoken}))
    finally:
        shutil.rmtree(state, ignore_errors=True)


def main() -> None:
    logging.disable(logging.WARNING)
    if sys.argv[1:2] == ["--game"]:
        one_game(sys.argv[2] == "on", Path(sys.argv[3]))
        return
    if shutil.which("espeak-ng") is None:
        print("voice: skipped: espeak-ng is not installed (apt-get install espeak-ng)")
        return
    runs: dict[str, list[float]] = {"on": [], "off": []}
    spoken = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(Path(tmp) / "heard.raw")}
        for n in range(GAMES):
            for side in ("on", "off") if n % 2 == 0 else ("off", "on"):
                out = Path(tmp) / f"{side}-{n}.json"
                subprocess.run([sys.executable, __file__, "--game", side, str(out)], check=True, env=env)
                game = json.loads(out.read_text())
                runs[side] += game["timed"]
                spoken += game["spoken"] if side == "on" else 0
    on, off = p(runs["on"], 0.99), p(runs["off"], 0.99)
    details = {"taps_on": len(runs["on"]), "taps_off": len(runs["off"]), "p50_on_ms": p(runs["on"], 0.5),
               "p50_off_ms": p(runs["off"], 0.5), "announcements_spoken": spoken, "size": "800x480",
               "video_driver": "dummy", "audio_driver": "disk", "pause_between_taps_s": PAUSE_S}
    print(f"voice: {details['taps_on']} + {details['taps_off']} taps, {spoken} announcements spoken while the "
          f"voice was on; p50 {details['p50_on_ms']:.2f} ms on, {details['p50_off_ms']:.2f} ms off")
    report("voice", [figure("tap -> frame p99, voice on, 800x480", on, "ms", baseline=off,
                            baseline_is="the same game with the voice off, games alternated",
                            target=f"ratio <= {RATIO_TARGET}", met=on <= RATIO_TARGET * off, details=details)])


if __name__ == "__main__":
    main()
