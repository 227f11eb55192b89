"""Shared helpers for the storage tests: a long game, the CLI in-process, small and read-only disks."""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

from bench._games import long_script
from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from engine.serialize import state_to_json
from table.config import Config, StorageConfig
from table.sim.script import parse_script
from table.sim.harness import perform
from table.control.assembly import build_table


def config_for(state_dir: Path) -> Config:
    return Config(storage=StorageConfig(state_dir=str(state_dir)))


def config_file(state_dir: Path, where: Path) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    path = where / "config.toml"
    path.write_text(f'[storage]\nstate_dir = "{state_dir}"\n', encoding="utf-8")
    return path


def as_json(state, catalog) -> str:  # type: ignore[no-untyped-def]
    """The board as the state JSON gives it (the screen's prompt aside: a resumed game adds one)."""
    data = state_to_json(state, catalog)
    data.pop("prompt", None)
    return json.dumps(data, sort_keys=True)


def play_game(state_dir: Path, actions: int, *, seed: int = 1, clock: ManualClock | None = None):  # type: ignore[no-untyped-def]
    """A game of at least ``actions`` accepted actions in ``state_dir``; returns the open table."""
    clock = clock or ManualClock()
    table = build_table(config_for(state_dir), clock, seed_source=lambda: seed)
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("\n".join(long_script(actions * 3, seed=seed)), table.catalog):
        perform(action, table, reader, buttons, clock)
        if table.controller.history_len >= actions:
            break
    return table


def cli(*argv: str) -> tuple[int, str, str]:
    """``munchkin-table ARGS`` in this process: (exit code, stdout, stderr). A traceback fails the test."""
    from table.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def listing(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def can_mount() -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    probe = Path(os.environ.get("TMPDIR", "/tmp")) / f"munchkin-mount-probe-{os.getpid()}"
    probe.mkdir(exist_ok=True)
    try:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe)],
                            capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", str(probe)], check=True)
        return ok
    finally:
        probe.rmdir()


class SmallDisk:
    """A state directory on a disk that can be filled up and freed again.

    ``tmpfs``: a 4 MB tmpfs mounted for the test (needs root). ``fsize``: a file-size limit
    (RLIMIT_FSIZE) of 1 KiB, which SQLite sees as a full disk too.
    """

    def __init__(self, root: Path, kind: str) -> None:
        self.kind = kind
        self.root = root
        self.mounted = False
        if kind == "tmpfs":
            root.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(root)], check=True)
            self.mounted = True
        self.dir = root / "state"
        self.dir.mkdir(parents=True, exist_ok=True)
        self._limit = resource.getrlimit(resource.RLIMIT_FSIZE)

    def fill(self) -> None:
        if self.kind == "tmpfs":
            fd = os.open(self.root / "filler", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            try:
                for size in (65536, 4096, 1):
                    try:
                        while True:
                            os.write(fd, b"\0" * size)
                    except OSError:
                        pass
            finally:
                os.close(fd)
        else:
            # no file may grow past 1 KiB: the journal's -wal cannot take another page
            resource.setrlimit(resource.RLIMIT_FSIZE, (1024, self._limit[1]))

    def free(self) -> None:
        if self.kind == "tmpfs":
            (self.root / "filler").unlink(missing_ok=True)
        else:
            resource.setrlimit(resource.RLIMIT_FSIZE, self._limit)

    def close(self) -> None:
        self.free()
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.root)], check=False)


DISK_KINDS = [pytest.param("tmpfs", marks=pytest.mark.skipif(not can_mount(), reason="needs root and mount")),
              "fsize"]


class ReadOnlyDir:
    """A state directory that turns read-only: a tmpfs remounted read-only (root), or chmod (anyone else)."""

    def __init__(self, root: Path, kind: str) -> None:
        self.kind = kind
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        if kind == "mount":
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(root)], check=True)
        self.dir = root / "state"
        self.dir.mkdir(exist_ok=True)

    def lock(self) -> None:
        if self.kind == "mount":
            subprocess.run(["mount", "-o", "remount,ro", str(self.root)], check=True)
        else:
            for p in self.dir.iterdir():
                p.chmod(0o444)
            self.dir.chmod(0o555)

    def unlock(self) -> None:
        if self.kind == "mount":
            subprocess.run(["mount", "-o", "remount,rw", str(self.root)], check=True)
        else:
            self.dir.chmod(0o755)
            for p in self.dir.iterdir():
                p.chmod(0o644)

    def close(self) -> None:
        if self.kind == "mount":
            subprocess.run(["umount", "-l", str(self.root)], check=False)
        else:
            self.unlock()


READ_ONLY_KINDS = [pytest.param("mount", marks=pytest.mark.skipif(not can_mount(), reason="needs root and mount")),
                   pytest.param("chmod", marks=pytest.mark.skipif(os.geteuid() == 0,
                                                                   reason="root writes through chmod"))]


def close_table(table) -> None:  # type: ignore[no-untyped-def]
    """Close what a table keeps open on the journal file (the journal and the per-game facts),
    as the process's end would: the last connection folds the -wal into the file."""
    records = getattr(table.controller, "records", None)
    if records is not None:
        records.close()             # (closes only a connection of its own, not the journal's)
    table.controller.journal.close()


def state_out(text: str) -> str:
    """`state`'s JSON as ``as_json`` gives it: the board, without the screen's prompt and what can be
    done now (both the table's, not the game's)."""
    data = json.loads(text)
    data.pop("prompt", None)
    data.pop("can", None)
    return json.dumps(data, sort_keys=True)
