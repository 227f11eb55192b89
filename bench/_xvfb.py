"""A real display server for the benches: Xvfb on a display number of its own, and the
environment that sends SDL to it (``SDL_VIDEODRIVER=x11``). Without Xvfb on the machine a bench
says "skipped: no Xvfb" for that half, never silently.

    with display_server() as env:      # None when there is no Xvfb
        subprocess.run([...], env={**os.environ, **env})
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

SCREEN = "1920x1200x24"          # room for 1920x1080 and the simulator's strip


def drivers() -> list[tuple[str, str]]:
    """The passes a display bench makes: (name, what it is) — the dummy driver, then X11 through Xvfb."""
    return [("dummy", "SDL's dummy video driver (no display server)"), ("x11", "X11 through Xvfb (a real display server)")]


@contextmanager
def display_server(screen: str = SCREEN) -> Iterator[dict[str, str] | None]:
    """Xvfb started for the block (None when it is not installed); yields the environment for SDL."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        yield None
        return
    read, write = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        number = b""
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read], [], [], 15)
            chunk = os.read(read, 16) if ready else b""
            if not chunk:
                raise SystemExit(f"bench: Xvfb did not start (exit {proc.poll()})")
            number += chunk
        yield {"DISPLAY": f":{number.decode().strip()}", "SDL_VIDEODRIVER": "x11"}
    finally:
        os.close(read)
        stop(proc)


def stop(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    """End a process the bench started: politely, then for good after 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def environment(driver: str, server: dict[str, str] | None) -> dict[str, str] | None:
    """The environment for a bench process under ``driver`` ("dummy" or "x11"); None when x11 has
    no server to go to."""
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("DISPLAY", None)
    if driver == "dummy":
        env["SDL_VIDEODRIVER"] = "dummy"
        return env
    if server is None:
        return None
    env.update(server)
    return env


def each_display(label: str) -> Iterator[tuple[str, dict[str, str]]]:
    """(driver, environment) for the dummy driver, then X11 through an Xvfb started for the run;
    without Xvfb that half prints "<label>, X11 ...: skipped: no Xvfb" instead of being left out."""
    with display_server() as server:
        for driver, what in drivers():
            env = environment(driver, server)
            if env is None:
                print(f"{label}, {what}: skipped: no Xvfb", flush=True)
                continue
            yield driver, env
