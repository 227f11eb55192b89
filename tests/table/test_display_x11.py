"""Under X11 (a real display server: Xvfb) the window's surface is SDL's shared-memory image, not
an OpenGL texture behind a renderer: no GL library is loaded (a software GL costs ~110 MB at
1080p and uploads the whole window for every update), frames still reach the server, and a hint
given in the environment is kept. The server's socket is found, for the run loop to sleep on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[2]

FRAMES = """
import os, sys
from pathlib import Path
import pygame
from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from table.config import parse_config
from table.control.assembly import build_table
from table.sim.harness import perform
from table.sim.script import parse_script
from table.ui.display import Display, merged, whole_is_cheaper
from table.ui.scenes import SCENES
from table.ui.view import build_view

clock = ManualClock()
table = build_table(parse_config({"display": {"sound": False}}), clock, state_dir=Path(sys.argv[1]), seed_source=lambda: 1)
reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
display = Display((1920, 1080), clock=clock.monotonic)
pushes = []
switched = costed = 0               # another screen of the same size; pushed the way that costs the server less
for action in parse_script(SCENES["combat"], table.catalog):
    perform(action, table, reader, buttons, clock)
    last = display._layout
    display.render(build_view(table.controller))
    pushes.append("full" if display.pushed is None else "rects")
    now = display._layout
    if last is not None and now is not None and last != now:
        switched += 1
        whole = whole_is_cheaper(merged(display.frame.dirty), display.window.get_size(), display.narrow_cost)
        costed += (display.pushed is None) == whole
maps = Path("/proc/self/maps").read_text()
gl = sorted({line.split("/")[-1] for line in maps.splitlines() if any(k in line for k in ("libGL", "libEGL", "swrast", "llvmpipe", "libgallium"))})
import stat
fd = display.connection()
socket_ok = fd is not None and stat.S_ISSOCK(os.fstat(fd).st_mode)
print(pygame.display.get_driver(), os.environ.get("SDL_FRAMEBUFFER_ACCELERATION"), ",".join(gl) or "-", pushes.count("rects"),
      socket_ok, switched, costed, display.narrow_cost)
display.close()
table.journal.close()
"""


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("no Xvfb on this machine (.ci/run installs it)")
    read, write = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        number = pipe.readline().decode().strip()
    assert number, f"Xvfb did not start ({proc.poll()})"
    return proc, f":{number}"


def frames_through_x11(tmp_path: Path, **env: str) -> list[str]:
    proc, display = start_xvfb()
    try:
        run_env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy",
                       PYGAME_HIDE_SUPPORT_PROMPT="1", **env)
        if not env:
            run_env.pop("SDL_FRAMEBUFFER_ACCELERATION", None)
        out = subprocess.run([sys.executable, "-c", FRAMES, str(tmp_path)], cwd=ROOT, env=run_env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_under_x11_the_window_is_sdls_shared_memory_image_and_no_gl_is_loaded(tmp_path: Path) -> None:
    driver, hint, gl, partial, socket_ok, switched, costed, narrow_cost = frames_through_x11(tmp_path)
    assert (driver, hint, gl) == ("x11", "0", "-")
    assert int(partial) > 0, "no frame pushed its rectangles to the server"
    assert socket_ok == "True", "the X server's socket, for the run loop to wait on, was not found"
    # table -> fight: the phase's area pushed as rectangles or as the whole window, whichever the
    # window's own measure of this server (measure_narrow_cost) says costs it less
    assert 0.5 <= float(narrow_cost) <= 5.0
    assert int(switched) >= 1 and costed == switched, f"{costed} of {switched} screen switches pushed the cheaper way"


def test_without_x11_there_is_no_connection_to_wait_on() -> None:
    from table.ui.display import Display

    display = Display((800, 480))
    try:
        assert display.connection() is None
        pygame.event.get()                              # the window's own first events
        assert display.input_pending() is False
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1))
        assert display.input_pending() is True
    finally:
        display.close()


def test_a_framebuffer_hint_in_the_environment_is_kept(tmp_path: Path) -> None:
    driver, hint, *_ = frames_through_x11(tmp_path, SDL_FRAMEBUFFER_ACCELERATION="software")
    assert (driver, hint) == ("x11", "software")
