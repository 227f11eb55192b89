"""Text drawn again is drawn from memory: the painter keeps one face open for every size, with
room for a screen's glyphs, so a frame drawn a second time reads nothing from the font file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: pygame.freetype's glyph cache size is fixed when the module is first
# initialised, which another test in this process may already have done.
DRAW_TWICE = """
import sys, tempfile
from pathlib import Path
from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import parse_config
from table.control.assembly import build_table
from table.sim.harness import perform
from table.sim.script import parse_script
from table.ui.display import Display
from table.ui.scenes import SCENES
from table.ui.view import build_view

def read_so_far():
    return int(dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())["rchar"])

language = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    config = parse_config({"display": {"width": 1920, "height": 1080, "language": language, "sound": False}})
    clock = ManualClock()
    table = build_table(config, clock, state_dir=Path(tmp), seed_source=lambda: 1)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    display = Display((1920, 1080), language=language, cache=False)
    for name in ("table", "combat"):
        for action in parse_script(SCENES[name], table.catalog, source="test"):
            perform(action, table, reader, buttons, clock)
        view = build_view(table.controller, language=language)
        before = read_so_far()
        display.render(view)
        first = read_so_far()
        display.render(view)
        again = read_so_far()
        print(name, len(display.drawn), first - before, again - first)
    table.journal.close()
    display.close()
"""


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs /proc/self/io (Linux)")
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_frame_drawn_again_reads_nothing_from_the_font_file(language: str) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", DRAW_TWICE, language], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["table"], ["combat"])]
    assert [r[0] for r in rows] == ["table", "combat"], out
    reading_io = 1024                # reading /proc/self/io itself is counted: ~120 bytes
    for name, texts, first, again in rows:
        assert int(texts) > 30, out
        assert int(again) < reading_io, f"the {name} screen drawn again read {again} bytes ({language})"
    # the count sees FreeType's reads: the first frame loads the font's tables and glyphs
    assert int(rows[0][2]) > 16 * reading_io, out
