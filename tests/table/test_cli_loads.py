"""What the command line loads: the commands that only read (state, history, doctor ...) start
without pygame, paho-mqtt or Starlette; those come in with the commands that draw, publish or serve."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_command_line_starts_without_pygame_paho_or_starlette() -> None:
    probe = ("import sys, table.cli; "
             "print(sorted(m for m in ('pygame', 'paho', 'starlette', 'uvicorn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
