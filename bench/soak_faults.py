"""Soak: 1,000 random disk faults on a live table, with kill -9 among them; run by hand (a few minutes).

The faults are those of tests/storage/faulty.py, made inside SQLite's calls as a failing disk makes
them: reads that fail as "database disk image is malformed", integrity-check lines from a failing
read, writes that fail before anything is written, and syncs that fail after the WAL frame was
written (a restart recovers it). Each is aimed at one of the next few calls, while the table plays
(actions and undos), and at its opening after a kill.

A kill -9 is made as SIGKILL leaves the files: the state directory copied byte for byte while the
table has them open (past a commit SQLite keeps nothing of its own in memory), the table dropped
unclosed, and a new table started on the copy. Among them are real ones (``--real-kills``, one kill
in four by default): a child ``munchkin-table run --sim`` on the same state directory, pressed by a
scripted input on its stdin with faults of its own (bench/soak_child/sitecustomize.py), is killed
with SIGKILL at a random moment; what it last showed is what it said after each stored action. After every kill and at the end the restart is
compared with what the screen showed: the game, its number of actions and the board.

    lost     an action the screen showed that the restart does not have
    phantom  an action the screen refused that the restart has (or an undo refused that took effect)
    wiped    a game the screen showed with actions that the restart finds empty (or not at all)
    failed   a restart that raised, reported damage or could not open the journal once faults stopped

The baseline is the same run, with the same seed and faults, with the evidence rules switched off
(damage believed at the first read, a failed write never looked at again): what the old code did.

    .venv/bin/python bench/soak_faults.py [FAULTS] [--seed N] [--real-kills SHARE]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._report import disk_dir, figure, report  # noqa: E402

KINDS = ("read", "write", "sync", "integrity")


@dataclass
class Counts:
    lost: int = 0
    phantom: int = 0
    wiped: int = 0
    failed: int = 0
    crashed: int = 0
    faults: int = 0
    kills: int = 0
    real_kills: int = 0
    unanswered: int = 0     # a real kill inside a write not yet answered: stored, never shown (allowed)
    undecided: int = 0      # killed after a write whose outcome the table could not read back yet
    actions: int = 0
    refused: int = 0
    checks: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)

    @property
    def bad(self) -> int:
        return self.lost + self.phantom + self.wiped + self.failed + self.crashed


def shown(table: Any) -> tuple[int, int, str]:
    """(game, actions, board) as the screen has them."""
    from tests.table.storage_helpers import as_json

    session = table.controller.session
    return session.game.id, len(session.history), as_json(session.state, table.catalog)


@contextmanager
def old_rules() -> Iterator[None]:
    """The evidence rules switched off: what the code did before them (the baseline)."""
    from table.storage import evidence, journal

    saved = evidence.AGREEING_READS, evidence.SETTLE_READS, journal.evidence.may_be_stored
    evidence.AGREEING_READS, evidence.SETTLE_READS = 1, 1
    evidence.may_be_stored = lambda exc: False      # type: ignore[assignment]
    try:
        yield
    finally:
        evidence.AGREEING_READS, evidence.SETTLE_READS, evidence.may_be_stored = saved


class Soak:
    def __init__(self, state_dir: Path, seed: int, real_kills: float = 0.0) -> None:
        from tests.storage import faulty

        self.dir = state_dir
        self.rng = random.Random(seed)
        self.faults = faulty.Faults()
        faulty.FAULTS = self.faults
        sqlite3.connect = faulty.faulty_connect     # type: ignore[assignment]
        self.counts = Counts()
        self.table: Any = None
        self.real_kills = real_kills

    def start(self) -> Any:
        from drivers.base import ManualClock
        from table.control.assembly import build_table
        from tests.table.storage_helpers import config_for

        clock = ManualClock(1000.0)
        table = build_table(config_for(self.dir), clock, seed_source=lambda: 7, retry_faults=True)
        table.controller.session.begin()
        return table

    def aim(self) -> None:
        kind = self.rng.choice(KINDS)
        self.faults.integrity = kind == "integrity"
        self.faults.next_calls("read" if kind == "integrity" else kind, n=self.rng.choice((1, 1, 1, 2, 7)),
                               skip=self.rng.randrange(0, 4))
        self.counts.by_kind[kind] = self.counts.by_kind.get(kind, 0) + 1

    def step(self) -> None:
        from engine.legal import legal_commands
        from table.session.game import NotSaved

        session = self.table.controller.session
        session.clock.advance(self.rng.uniform(0.05, 0.6))
        if session.retry_due() is None and session.storage_fault is not None:
            pass
        state = session.state
        if self.rng.random() < 0.15 and len(session.history):
            result = session.undo()
        else:
            options = legal_commands(state, self.table.catalog, state.active_player or "player-1", session.now)
            if not options:
                result = session.start()
            else:
                result = session.submit(self.rng.choice(options))
        self.counts.actions += 1
        if isinstance(result, NotSaved):
            self.counts.refused += 1

    def kill_and_restart(self, *, at_opening: bool) -> None:
        """SIGKILL as it leaves the files, then a table on them; compared with what the screen showed."""
        from tests.table.storage_helpers import listing

        seen = shown(self.table)
        # a write failed and the file could not be read back: the table had not decided (it opens the
        # journal again on its backoff); a restart may hold that one change more, never shown
        undecided = self.table.controller.session.journal.db is None
        self.counts.undecided += undecided
        files = listing(self.dir)
        self.faults.active = False
        self.table = None                               # dropped, never closed
        self.counts.kills += 1
        scratch = self.dir.with_name(self.dir.name + "-old")
        shutil.rmtree(scratch, ignore_errors=True)
        self.dir.rename(scratch)                        # the killed table's open files go with it
        self.dir.mkdir()
        for name, data in files.items():
            (self.dir / name).write_bytes(data)
        self.faults.clear()
        self.faults.active = True
        if at_opening:
            self.aim()
        self.check(seen, one_more=undecided)

    def real_kill_and_restart(self) -> None:
        """A child ``munchkin-table run --sim`` on the state directory, with faults of its own and
        presses on its stdin, killed with SIGKILL; the restart compared with what it last showed."""
        import hashlib
        import os
        import signal
        import subprocess
        import threading

        from tests.table.storage_helpers import close_table, config_file

        seen = shown(self.table)
        self.faults.active = False
        close_table(self.table)                         # the child takes the table lock
        self.table = None
        kinds = [self.rng.choice(KINDS) for _ in range(self.rng.randint(1, 3))]
        plan = ";".join(f"{'read' if k == 'integrity' else k}:{self.rng.randrange(3, 80)}" for k in kinds)
        plan += ";integrity" if "integrity" in kinds else ""
        for kind in kinds:
            self.counts.by_kind[kind] = self.counts.by_kind.get(kind, 0) + 1
        read, write = os.pipe()
        cfg = config_file(self.dir, self.dir.with_name(self.dir.name + "-cfg"))
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", MUNCHKIN_SOAK_FAULTS=plan,
                   MUNCHKIN_SOAK_ACK=str(write), PYTHONPATH=f"{ROOT / 'bench' / 'soak_child'}{os.pathsep}{ROOT}")
        child = subprocess.Popen([sys.executable, "-m", "table", "run", "--sim", "--config", str(cfg)],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 env=env, cwd=ROOT, pass_fds=(write,))
        os.close(write)
        acks: list[str] = []
        errors: list[bytes] = []
        readers = [threading.Thread(target=lambda: acks.extend(os.fdopen(read).read().split("\n")), daemon=True),
                   threading.Thread(target=lambda: errors.append(child.stderr.read() if child.stderr else b""),
                                    daemon=True)]
        for t in readers:
            t.start()
        presses = [f"press {self.rng.choice(('next', 'next', 'next', 'roll', 'run', 'undo'))}" for _ in range(400)]
        try:
            assert child.stdin is not None
            child.stdin.write(("\n".join(presses) + "\n").encode())
            child.stdin.flush()
        except BrokenPipeError:
            pass
        time.sleep(self.rng.uniform(1.0, 3.0))           # its start-up, then a random moment of its play
        child.send_signal(signal.SIGKILL)
        child.wait()
        for t in readers:
            t.join(timeout=10)
        self.counts.kills += 1
        self.counts.real_kills += 1
        lines = [line.split() for line in acks if line.strip()]
        told = [line for line in lines if len(line) == 3]
        # killed inside a write it had not answered yet: the restart may hold that one change more
        unanswered = bool(lines) and lines[-1] != ["refused"]
        self.last_told = " | ".join(" ".join(line)[:20] for line in lines[-3:]) + f" | faults {plan}"
        self.counts.undecided += bool(lines) and lines[-1] == ["undecided"]
        if b"Traceback" in b"".join(errors):
            self.counts.crashed += 1
            text = b"".join(errors).decode(errors="replace")
            print("  the child crashed:\n" + text[text.index("Traceback"):][:3000], file=sys.stderr)
        self.faults.clear()
        self.faults.active = True
        if told:
            game, actions, board = told[-1]
            self.counts.actions += len(told)
            self.check((int(game), int(actions), board), digest=lambda text: hashlib.sha1(text.encode()).hexdigest(),
                       one_more=unanswered)
        else:
            self.check(seen)

    def check(self, seen: tuple[int, int, str], digest: Any = None, one_more: bool = False) -> None:
        """A table started on the files, compared with ``seen`` (``one_more``: a table killed inside a
        write it had not answered may have stored that one action or game more, never shown)."""
        self.counts.checks += 1
        try:
            table = self.start()
            session = table.controller.session
            for _ in range(20):                         # a fault at opening: the loop's retry opens it
                if session.storage_fault is None:
                    break
                self.faults.clear()
                session.clock.advance(2.5)
                session.retry_due()
        except Exception as exc:  # noqa: BLE001 - a restart that raises is what is counted
            import traceback

            where = traceback.extract_tb(exc.__traceback__)[-3:]
            print(f"  restart raised: {type(exc).__name__}: {exc} at "
                  f"{'; '.join(f'{Path(f.filename).name}:{f.lineno}' for f in where)}", file=sys.stderr)
            self.counts.failed += 1
            self.faults.clear()
            self.table = self.start()
            return
        self.table = table
        found = shown(table)
        if digest is not None:
            found = found[0], found[1], digest(found[2])
        damaged = session.journal.damage is not None or session.storage_fault is not None
        if damaged:
            self.counts.failed += 1
            print(f"  restart: {session.journal.damage.report() if session.journal.damage else session.storage_fault}",
                  file=sys.stderr)
        if one_more and found[:2] in ((seen[0], seen[1] + 1), (seen[0], seen[1] - 1), (seen[0] + 1, 0)):
            self.counts.unanswered += 1
            return
        if found[:2] != seen[:2] or found[2] != seen[2]:
            print(f"  the restart shows game {found[0]} at action {found[1]}; the screen showed game {seen[0]} "
                  f"at action {seen[1]}{'' if found[2] == seen[2] else ', another board'}"
                  f"{' (a real kill: ' + self.last_told + ')' if digest is not None else ''}", file=sys.stderr)
        if found[0] != seen[0] or (found[1] == 0 and seen[1] > 0):
            self.counts.wiped += 1
        elif found[1] < seen[1]:
            self.counts.lost += 1
        elif found[1] > seen[1] or found[2] != seen[2]:
            self.counts.phantom += 1

    def run(self, faults: int) -> Counts:
        from tests.table.storage_helpers import close_table, play_game

        close_table(play_game(self.dir, 30))
        self.table = self.start()
        while len(self.faults.fired) < faults:
            if self.rng.random() < 0.3:
                self.aim()
            try:
                self.step()
            except Exception as exc:  # noqa: BLE001 - a press that raises is a crash of the table
                print(f"  a press raised: {type(exc).__name__}: {exc}", file=sys.stderr)
                self.counts.crashed += 1
                self.kill_and_restart(at_opening=False)
                continue
            if self.rng.random() < 0.04:
                if self.rng.random() < self.real_kills:
                    self.real_kill_and_restart()
                else:
                    self.kill_and_restart(at_opening=self.rng.random() < 0.5)
        self.faults.clear()
        self.kill_and_restart(at_opening=False)
        self.counts.faults = len(self.faults.fired)
        close_table(self.table)
        return self.counts


def soak(faults: int, seed: int, real_kills: float = 0.0) -> Counts:
    base = disk_dir("soak-faults")
    try:
        state = base / "state"
        return Soak(state, seed, real_kills).run(faults)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main() -> int:
    import logging

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("faults", nargs="?", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--real-kills", type=float, default=0.25, metavar="SHARE",
                        help="the share of kills made as a real SIGKILL of a child 'munchkin-table run' (0 to 1)")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    started = time.monotonic()
    now = soak(args.faults, args.seed, args.real_kills)
    print("-- baseline --", file=sys.stderr, flush=True)
    with old_rules():
        before = soak(args.faults, args.seed)      # (the old rules live in this process: emulated kills only)
    seconds = time.monotonic() - started
    for label, c in (("now", now), ("baseline (old rules)", before)):
        print(f"{label}: lost {c.lost}, phantom {c.phantom}, wiped {c.wiped}, failed restarts {c.failed}, "
              f"crashed {c.crashed} | {c.faults} faults fired {c.by_kind}, {c.kills} kills ({c.real_kills} real: "
              f"{c.unanswered} inside an unanswered write, {c.undecided} after an undecided one), "
              f"{c.actions} presses "
              f"({c.refused} refused), {c.checks} restarts compared")
    report("soak_faults", [figure(
        f"storage faults soak ({now.faults} faults, {now.kills} kills, {now.real_kills} of them a real SIGKILL of "
        f"'run'): lost + phantom + wiped + failed restarts",
        now.bad, "cases", baseline=before.bad, baseline_is="the same faults with the evidence rules off",
        target="0 of each", met=now.bad == 0, details={"now": vars(now), "baseline": vars(before),
                                                       "seconds": round(seconds, 1), "seed": args.seed})])
    return 0 if now.bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
