"""Soak: the journal deleted under a running table, and a second table started beside it, with kill -9; run by hand.

Each cycle starts a child ``munchkin-table run --sim`` on one state directory; after every action
its journal stores (and the screen then shows) it says ``game actions board-digest`` on a pipe
(bench/soak_child/sitecustomize.py). Its stdin gets a game's lines one every 40 ms (``wait``
lines between them), and, at a random moment, one or both of:

    delete   the journal deleted by its name (one time in three with its -wal and -shm), the child
             killed with SIGKILL 0 to 2 s later: a table notices within a second, or at its next commit
    second   a second ``munchkin-table run --sim`` started on the same directory (one time in two with
             ``table.lock`` deleted first): it must refuse with exit 2, naming the first by its pid

then the child is killed and a table started on the directory (as ``run`` opens it) is compared
with what the child last showed:

    lost     an action the screen showed that the restart does not have
    phantom  the restart holds an action the screen never showed
    wiped    the game the screen showed is not the restart's, or it is empty
    failed   the restart raised or found the journal damaged
    crowded  the second table started (or refused without naming the first)

The baseline is the same cycles with the same seed against a child whose journal is neither
watched nor locked (only ``table.lock``): the code before issue 44.

    .venv/bin/python bench/soak_journal.py [CYCLES] [--seed N]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._games import long_script  # noqa: E402
from bench._report import disk_dir, figure, report  # noqa: E402


@dataclass
class Counts:
    cycles: int = 0
    deletes: int = 0
    deletes_all: int = 0        # the -wal and -shm deleted too
    seconds: int = 0            # second tables tried
    lock_file_gone: int = 0     # of them with table.lock deleted first
    shown: int = 0              # actions the children acknowledged
    lost: int = 0
    phantom: int = 0
    wiped: int = 0
    failed: int = 0
    crowded: int = 0
    unanswered: int = 0         # killed inside a write not yet answered: the restart may hold it (allowed)
    notes: list[str] = field(default_factory=list)

    @property
    def bad(self) -> int:
        return self.lost + self.phantom + self.wiped + self.failed + self.crowded


def _env(cfg_dir: Path, ack: int | None, old: bool) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", MUNCHKIN_SOAK_FAULTS="",
               PYTHONPATH=f"{ROOT / 'bench' / 'soak_child'}{os.pathsep}{ROOT}")
    if ack is not None:
        env["MUNCHKIN_SOAK_ACK"] = str(ack)
    if old:
        env["MUNCHKIN_SOAK_OLD_JOURNAL"] = "1"
    return env


def restart(state: Path) -> tuple[int, int, str, str | None]:
    """A table on ``state`` as ``run`` opens it: (game, actions, board digest, what went wrong)."""
    from drivers.base import ManualClock
    from table.control.assembly import build_table
    from tests.table.storage_helpers import as_json, close_table, config_for

    table = build_table(config_for(state), ManualClock(), seed_source=lambda: 7)
    try:
        session = table.controller.session
        board = hashlib.sha1(as_json(session.state, table.catalog).encode()).hexdigest()
        trouble = session.journal.damage.report() if session.journal.damage is not None else None
        return session.game.id, len(session.history), board, trouble
    finally:
        close_table(table)


class Cycles:
    def __init__(self, base: Path, seed: int, old: bool) -> None:
        self.state = base / "state"
        self.cfg_dir = base / "cfg"
        self.rng = random.Random(seed)
        self.old = old
        self.counts = Counts()
        self.lines = long_script(4000, seed=seed)
        self.position = 0

    def config(self) -> Path:
        from tests.table.storage_helpers import config_file

        return config_file(self.state, self.cfg_dir)

    def cycle(self) -> None:
        c = self.counts
        c.cycles += 1
        read, write = os.pipe()
        child = subprocess.Popen([sys.executable, "-m", "table", "run", "--sim", "--config", str(self.config())],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 env=_env(self.cfg_dir, write, self.old), cwd=ROOT, pass_fds=(write,))
        os.close(write)
        acks: list[str] = []
        errors: list[bytes] = []
        readers = [threading.Thread(target=lambda: acks.extend(os.fdopen(read).read().split("\n")), daemon=True),
                   threading.Thread(target=lambda: errors.append(child.stderr.read() if child.stderr else b""),
                                    daemon=True)]
        for t in readers:
            t.start()
        batch = self.lines[self.position:self.position + 120]
        self.position = (self.position + len(batch)) % (len(self.lines) - 120)
        try:
            assert child.stdin is not None
            child.stdin.write(("\n".join(f"{line}\nwait 0.04" for line in batch) + "\n").encode())
            child.stdin.flush()
        except BrokenPipeError:
            pass
        self.wait_until_up(child)                          # its start-up (it holds the directory)
        time.sleep(self.rng.uniform(0.2, 1.5))             # then a moment of its play
        what = self.rng.choice(("delete", "second", "both"))
        if what in ("delete", "both"):
            self.delete()
        if what in ("second", "both"):
            self.second(child.pid)
        time.sleep(self.rng.uniform(0.0, 2.0))
        child.send_signal(signal.SIGKILL)
        child.wait()
        for t in readers:
            t.join(timeout=10)
        if b"Traceback" in b"".join(errors):
            c.failed += 1
            text = b"".join(errors).decode(errors="replace")
            c.notes.append("the child crashed: " + text[text.index("Traceback"):][:1500])
        self.compare([line.split() for line in acks if line.strip()], what)

    def wait_until_up(self, child: subprocess.Popen[bytes]) -> None:
        """Until the child holds the state directory (``table.lock`` names it), or it ended."""
        lock = self.state / "table.lock"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and child.poll() is None:
            try:
                if lock.read_text().startswith(f"pid {child.pid} "):
                    return
            except OSError:
                pass
            time.sleep(0.05)

    def delete(self) -> None:
        c = self.counts
        c.deletes += 1
        journal = self.state / "journal.sqlite3"
        journal.unlink(missing_ok=True)
        if self.rng.random() < 1 / 3:
            c.deletes_all += 1
            for extra in ("-wal", "-shm"):
                Path(f"{journal}{extra}").unlink(missing_ok=True)

    def second(self, first: int) -> None:
        c = self.counts
        c.seconds += 1
        if self.rng.random() < 0.5:
            c.lock_file_gone += 1
            (self.state / "table.lock").unlink(missing_ok=True)
        try:
            done = subprocess.run([sys.executable, "-m", "table", "run", "--sim", "--config", str(self.config())],
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=15, cwd=ROOT,
                                  env=_env(self.cfg_dir, None, self.old))
        except subprocess.TimeoutExpired:
            c.crowded += 1
            c.notes.append("a second table started beside the first (it ran on)")
            return
        if done.returncode != 2 or f"pid {first}" not in done.stderr:
            c.crowded += 1
            c.notes.append(f"second table: exit {done.returncode}: {done.stderr.strip()[-300:]}")

    def compare(self, lines: list[list[str]], what: str) -> None:
        c = self.counts
        told = [line for line in lines if len(line) == 3]
        c.shown += len(told)
        try:
            game, actions, board, trouble = restart(self.state)
        except Exception as exc:  # noqa: BLE001 - a restart that raises is what is counted
            c.failed += 1
            c.notes.append(f"restart raised {type(exc).__name__}: {exc}")
            return
        if trouble is not None:
            c.failed += 1
            c.notes.append(f"restart found damage: {trouble}")
        if not told:
            return
        seen = (int(told[-1][0]), int(told[-1][1]), told[-1][2])
        unanswered = bool(lines) and lines[-1] != ["refused"]
        found = (game, actions, board)
        if found == seen:
            return
        if unanswered and found[:2] in ((seen[0], seen[1] + 1), (seen[0], seen[1] - 1), (seen[0] + 1, 0)):
            c.unanswered += 1
            return
        c.notes.append(f"[{what}] the restart shows game {game} at {actions}; the screen showed game {seen[0]} "
                       f"at {seen[1]}{'' if board == seen[2] else ', another board'}")
        if game != seen[0] or (actions == 0 and seen[1] > 0):
            c.wiped += 1
        elif actions < seen[1]:
            c.lost += 1
        else:
            c.phantom += 1

    def run(self, cycles: int) -> Counts:
        from tests.table.storage_helpers import close_table, play_game

        close_table(play_game(self.state, 30))
        for _ in range(cycles):
            self.cycle()
        return self.counts


def soak(cycles: int, seed: int, old: bool) -> Counts:
    base = disk_dir("soak-journal")
    try:
        return Cycles(base, seed, old).run(cycles)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    import logging

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cycles", nargs="?", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    started = time.monotonic()
    now = soak(args.cycles, args.seed, old=False)
    before = soak(args.cycles, args.seed, old=True)
    seconds = time.monotonic() - started
    for label, c in (("now", now), ("baseline (journal neither watched nor locked)", before)):
        print(f"{label}: lost {c.lost}, phantom {c.phantom}, wiped {c.wiped}, failed {c.failed}, crowded {c.crowded} | "
              f"{c.cycles} kills, {c.deletes} deletes ({c.deletes_all} with -wal and -shm), {c.seconds} second tables "
              f"({c.lock_file_gone} with table.lock deleted), {c.shown} actions shown, "
              f"{c.unanswered} kills inside an unanswered write")
        for note in c.notes[:8]:
            print(f"  {note}")
    report("soak_journal", [figure(
        f"journal soak ({now.cycles} kill -9 of 'run', {now.deletes} journals deleted under it, {now.seconds} second "
        f"tables): lost + phantom + wiped + failed + crowded", now.bad, "cases", baseline=before.bad,
        baseline_is="the same cycles, the journal neither watched nor locked", target="0 of each", met=now.bad == 0,
        details={"now": {k: v for k, v in vars(now).items() if k != "notes"},
                 "baseline": {k: v for k, v in vars(before).items() if k != "notes"},
                 "seconds": round(seconds, 1), "seed": args.seed})])
    return 0 if now.bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
