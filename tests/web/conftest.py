"""The web view's fixtures: a real table (`run --sim`) with the web view on, and headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY = "tablekey-1234567"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def chromium_missing() -> str:
    """Why the browser tests cannot run here ('' when they can)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        return (f"Debian's chromium and chromium-driver are not installed ({', '.join(missing)} missing); "
                f".ci/run installs them: apt-get install chromium chromium-driver")
    return ""


class RunningTable:
    """``munchkin-table run --sim`` in a process of its own, fed table-script lines on stdin."""

    def __init__(self, state_dir: Path, *, language: str = "en", port: int = 0, extra: str = "",
                 key: str = KEY) -> None:
        self.config = state_dir.parent / "web-config.toml"
        self.config.write_text(f'[storage]\nstate_dir = "{state_dir}"\n[display]\nlanguage = "{language}"\n'
                               f'sound = false\n[web]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\n'
                               f'key = "{key}"\n{extra}', encoding="utf-8")     # key "": the state directory's
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "table", "run", "--sim", "--config", str(self.config)],
                                     cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.url = ""
        found = threading.Event()

        def read() -> None:
            for line in self.proc.stderr:  # type: ignore[union-attr]
                self.lines.append(line)
                match = re.search(r"web view on (http://\S+/)", line)
                if match and not self.url:
                    self.url = match.group(1)
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(60) or not self.url:
            self.stop()
            raise AssertionError("the table did not start its web view:\n" + "".join(self.lines[-20:]))

    def page(self, path: str = "/", *, key: str | None = KEY) -> str:
        return self.url.rstrip("/") + path + (f"?key={key}" if key is not None else "")

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def state(self) -> dict:
        import json

        with urllib.request.urlopen(self.page("/api/state"), timeout=5) as response:
            return json.loads(response.read())

    def wait_state(self, check, timeout: float = 20.0) -> dict:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the table never reached the expected state; last: {state['phase']}")
            time.sleep(0.05)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode


@pytest.fixture
def running_table(tmp_path: Path):  # type: ignore[no-untyped-def]
    tables: list[RunningTable] = []

    def start(**kwargs) -> RunningTable:  # type: ignore[no-untyped-def]
        table = RunningTable(tmp_path / f"state-{len(tables)}", **kwargs)
        tables.append(table)
        return table

    yield start
    for table in tables:
        table.stop()


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    """Headless Chromium from Debian, through its chromedriver, on a fresh profile."""
    reason = chromium_missing()
    if reason and os.environ.get("CI"):
        pytest.fail(reason)             # CI installs it (.ci/run): missing there is a failure, not a skip
    if reason:
        pytest.skip(reason)
    os.environ.setdefault("SE_OFFLINE", "true")         # Selenium Manager: download nothing, ever
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="munchkin-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=412,915"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def http(url: str, *, method: str = "GET", headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of one request, errors included."""
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()
