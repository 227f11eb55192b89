"""Some tests run again and again while the rest of the suite runs beside them: a test that passes
only when its threads happen to be scheduled kindly fails here sooner or later.

    ./go shell python -m tests.repeat 20 tests/league tests/web

runs the named tests (files or folders) ``N`` times in a row, each time on two workers
(pytest-xdist), while the other tests of the suite run over and over beside them on one worker of
their own; it stops at the first pass that fails, and prints one line per pass: its number, its
outcome, how many tests passed, its time and how many runs of the rest had ended meanwhile. Exit 0
when every pass passed; 1 when one failed (its output follows); 2 on wrong arguments.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pytest(args: list[str], base: str) -> list[str]:
    """pytest with ``args``, its temporary files under ``base`` (two sessions at once never share them)."""
    return [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--basetemp={base}/t", *args]


def passed(output: str) -> int:
    found = re.search(r"(\d+) passed", output)
    return int(found.group(1)) if found else 0


class Beside:
    """The rest of the suite, run again and again on one worker until ``stop``."""

    def __init__(self, ignored: list[str]) -> None:
        self.ignored = ignored
        self.runs = 0
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._process: subprocess.Popen[str] | None = None
        self._thread = threading.Thread(target=self._loop, name="beside", daemon=True)

    def start(self) -> Beside:
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.is_set():
            with tempfile.TemporaryDirectory(prefix="repeat-rest-") as base:
                args = pytest(["-n", "1", "-x", *[f"--ignore={path}" for path in self.ignored]], base)
                self._process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                                 text=True, start_new_session=True)
                output, _ = self._process.communicate()
            if self._stop.is_set():
                return
            self.runs += 1
            if self._process.returncode != 0:
                self.failures.append(output[-4000:])

    def stop(self) -> None:
        self._stop.set()
        if self._process is not None and self._process.poll() is None:
            os.killpg(self._process.pid, signal.SIGTERM)      # pytest and its worker
            try:
                self._process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self._process.pid, signal.SIGKILL)
        self._thread.join(60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.repeat", description=__doc__.split("\n\n")[0])
    parser.add_argument("times", type=int, help="how many passes in a row")
    parser.add_argument("paths", nargs="+", help="the tests to repeat: files or folders under tests/")
    args = parser.parse_args(argv)
    if args.times < 1:
        parser.error("times: at least 1")
    for path in args.paths:
        if not (ROOT / path).exists():
            parser.error(f"no such test file or folder: {path}")
    beside = Beside(args.paths).start()
    try:
        for n in range(1, args.times + 1):
            started = time.monotonic()
            with tempfile.TemporaryDirectory(prefix="repeat-") as base:
                done = subprocess.run(pytest(["-n", "2", *args.paths], base), cwd=ROOT, capture_output=True, text=True,
                                      env=os.environ | {"PYTHONHASHSEED": str(n)})
            output = done.stdout + done.stderr
            outcome = "passed" if done.returncode == 0 else f"FAILED (exit {done.returncode})"
            print(f"pass {n}/{args.times}: {outcome}, {passed(output)} tests passed, "
                  f"{time.monotonic() - started:.0f} s, the rest of the suite run {beside.runs} times beside it",
                  flush=True)
            if done.returncode != 0:
                print(output[-8000:])
                return 1
    finally:
        beside.stop()
    for failure in beside.failures:     # the rest's own failures are said, but they are not this run's subject
        print(f"the rest of the suite failed once beside them:\n{failure}")
    print(f"{args.times} passes in a row of {' '.join(args.paths)}, the rest of the suite run {beside.runs} times "
          "beside them", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
