"""A box in a process of its own (``python -m tests.league.standalone STATE_DIR BROKER TABLE``): built
as the tests' ``Box``, it plays nothing and waits to be killed (a box that loses its power)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.league.rig import Box, league_config  # noqa: E402


def main() -> None:
    state, broker, table = sys.argv[1:4]
    Box(league_config(Path(state), broker, table))
    threading.Event().wait()


if __name__ == "__main__":
    main()
