"""./go: its usage on --help, the commands on a mistyped one, and what each command installs (the
table alone and the extras its config turns on for ``run``; the developers' tools for ``test``), with a
stub environment that records what pip is asked for instead of installing it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUB = """#!/bin/sh
echo "$(basename "$0") $*" >> "$GO_LOG"
"""


def go(*args: str, venv: Path | None = None, log: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if venv is not None:
        env.update(MUNCHKIN_VENV=str(venv), GO_LOG=str(log))
    return subprocess.run([str(ROOT / "go"), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("flag", ["--help", "-h", "help"])
def test_help_prints_the_usage(flag: str) -> None:
    out = go(flag)
    assert out.returncode == 0 and out.stdout.startswith("usage: ./go COMMAND"), out
    for command in ("run", "test", "test --quick", "bench", "shell"):
        assert f"\n  {command} " in out.stdout


def test_an_unknown_command_lists_the_commands() -> None:
    out = go("tset")
    assert out.returncode == 2 and "unknown command 'tset'; the commands are run, test, bench, shell or help" in out.stderr


@pytest.fixture()
def stub_venv(tmp_path: Path) -> tuple[Path, Path]:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "munchkin-table"):
        (venv / "bin" / name).write_text(STUB)
        (venv / "bin" / name).chmod(0o755)
    return venv, tmp_path / "go.log"


def _installs(log: Path) -> list[str]:
    """What pip was asked to install, as ./go asks off a Pi (on a Pi it adds the extra "pi")."""
    asked = [line.split(" -e ", 1)[1] for line in log.read_text().splitlines() if " install -q -e " in line]
    return [a.replace(".[pi]", ".").replace(",pi]", "]") for a in asked]


@pytest.mark.parametrize(("config", "extras"), [
    ("", "."),
    ('[web]\nenabled = false\n[league]\nbroker = ""\n', "."),
    ("[web]\nenabled = true\n", ".[web]"),
    ('[league]\nbroker = "mqtt://broker.lan:1883"\nleague = "l"\ntable = "t"\n', ".[league]"),
    ('[web]\nenabled = true\n[league]\nbroker = "mqtts://b:8883"\n', ".[web,league]"),
])
def test_run_installs_the_table_and_the_extras_its_config_turns_on(stub_venv: tuple[Path, Path], tmp_path: Path,
                                                                   config: str, extras: str) -> None:
    venv, log = stub_venv
    (tmp_path / "config.toml").write_text(config)
    out = go("run", "--config", str(tmp_path / "config.toml"), venv=venv, log=log)
    assert out.returncode == 0, out.stderr
    assert _installs(log) == [extras]
    assert f"munchkin-table run --config {tmp_path / 'config.toml'}" in log.read_text()
    # Installed once: the next run finds its stamp and installs nothing.
    log.unlink()
    assert go("run", "--config", str(tmp_path / "config.toml"), venv=venv, log=log).returncode == 0
    assert _installs(log) == []


def test_run_reads_the_systems_config_without_config(stub_venv: tuple[Path, Path], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    venv, log = stub_venv
    (tmp_path / "system.toml").write_text("[web]\nenabled = true\n")
    monkeypatch.setenv("MUNCHKIN_SYSTEM_CONFIG", str(tmp_path / "system.toml"))
    assert go("run", "--sim", venv=venv, log=log).returncode == 0
    assert _installs(log) == [".[web]"]


def test_test_installs_the_developers_tools_and_runs_a_worker_more_than_the_cores(stub_venv: tuple[Path, Path]) -> None:
    venv, log = stub_venv
    assert go("test", venv=venv, log=log).returncode == 0
    assert _installs(log) == [".[dev]"]
    workers = len(os.sched_getaffinity(0)) + 1     # as nproc counts; the one more fills the time tests spend waiting
    assert log.read_text().splitlines()[-1] == f"python -m pytest -n {workers} --dist worksteal"
    assert go("test", "--quick", "-x", venv=venv, log=log).returncode == 0
    quick = log.read_text().splitlines()[-1]
    assert quick.startswith(f"python -m pytest -n {workers} --dist worksteal -m not slow tests/engine ") and quick.endswith(" -x")
    assert go("test", "tests/engine", "-n", "0", venv=venv, log=log).returncode == 0
    assert log.read_text().splitlines()[-1] == "python -m pytest tests/engine -n 0"
    # After the developers' install, run needs nothing more, whatever its config.
    log.unlink()
    assert go("run", venv=venv, log=log).returncode == 0 and _installs(log) == []


def test_shell_puts_the_environment_first_on_path(stub_venv: tuple[Path, Path]) -> None:
    venv, log = stub_venv
    assert go("test", venv=venv, log=log).returncode == 0          # installs, and leaves its stamp
    out = go("shell", "sh", "-c", "command -v munchkin-table", venv=venv, log=log)
    assert out.returncode == 0 and out.stdout.strip() == str(venv / "bin" / "munchkin-table"), out
