"""`kill -9` at random moments, 200 times: no acknowledged action is lost, every restart works.

The table is a forked copy of this process (no interpreter start-up per cycle), playing a long game
through the controller and the journal exactly as `run` does; after each accepted action it tells
the parent how many actions the game holds. The parent kills it at a random moment and restarts.
"""

from __future__ import annotations

import gc
import os
import random
import select
import signal
import time
from pathlib import Path

from bench._games import long_script
from drivers.base import ManualClock
from drivers.sim import SimButtons, SimReader
from engine.game import replay
from table.storage.journal import Journal
from table.sim.script import parse_script
from table.sim.harness import perform
from table.control.assembly import build_table

from tests.table.storage_helpers import close_table, as_json, config_for

CYCLES = 200


def _table_child(directory: Path, catalog, actions, start: int, ack: int) -> None:  # type: ignore[no-untyped-def]
    try:
        clock = ManualClock()
        table = build_table(config_for(directory), clock, catalog=catalog, seed_source=lambda: 9)
        reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
        os.write(ack, f"{table.controller.history_len}\n".encode())
        n = start
        while True:
            perform(actions[n % len(actions)], table, reader, buttons, clock)
            os.write(ack, f"{table.controller.history_len}\n".encode())   # shown: it is in the journal
            n += 1
    except BaseException as exc:  # noqa: BLE001
        os.write(ack, f"ERR {exc!r}\n".encode())
    finally:
        os._exit(3)


def test_200_kills_lose_no_acknowledged_action(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    directory = tmp_path / "state"
    directory.mkdir()
    actions = parse_script("\n".join(long_script(2000, seed=9)), catalog)
    rng = random.Random(99)
    acked_total = 0
    gc.collect()
    gc.freeze()         # the forked tables' collections leave this process's objects alone: no copy of its heap each
    try:
        acked_total = _kill_and_restart(directory, catalog, actions, rng)
    finally:
        gc.unfreeze()
    assert acked_total > CYCLES          # the kills did land while the table was acting


def _kill_and_restart(directory: Path, catalog, actions, rng: random.Random) -> int:  # type: ignore[no-untyped-def]
    acked_total = 0
    for cycle in range(CYCLES):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            _table_child(directory, catalog, actions, cycle * 7, w)
        os.close(w)
        lines: list[str] = []
        buffer = b""
        deadline = time.monotonic() + rng.uniform(0.005, 0.08)
        started = False
        while True:
            timeout = max(0.0, deadline - time.monotonic()) if started else 10.0
            ready, _, _ = select.select([r], [], [], timeout)
            if not ready:
                break
            chunk = os.read(r, 65536)
            if not chunk:
                break
            buffer += chunk
            *done, buffer = buffer.split(b"\n")
            lines += [d.decode() for d in done]
            if lines and not started:
                started = True
                deadline = time.monotonic() + rng.uniform(0.0, 0.08)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        while True:                                  # what it said before it died
            chunk = os.read(r, 65536)
            if not chunk:
                break
            buffer += chunk
        os.close(r)
        lines += [d.decode() for d in buffer.split(b"\n") if d]
        errors = [line for line in lines if line.startswith("ERR")]
        assert not errors, f"cycle {cycle}: the table failed: {errors[0]}"
        assert lines, f"cycle {cycle}: the table never started"
        last = int(lines[-1])
        acked_total += len(lines) - 1
        journal = Journal(directory / "journal.sqlite3")       # the restart, as run opens it
        assert journal.damage is None, f"cycle {cycle}: {journal.damage.report()}"
        game = journal.latest_game()
        count = len(journal.commands(game.id))
        # the action in flight when the kill came may or may not be stored; none before it is lost
        assert abs(count - last) <= 1, f"cycle {cycle}: journal has {count}, the screen showed {last}"
        journal.close()
        if cycle % 50 == 49:
            table = build_table(config_for(directory), ManualClock(), catalog=catalog)
            ctl = table.controller
            full = replay(catalog, ctl.game.ruleset, ctl.game.seed, ctl.history.commands)
            assert as_json(ctl.state, catalog) == as_json(full, catalog)
            close_table(table)
    return acked_total
