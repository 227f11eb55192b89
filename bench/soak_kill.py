"""Soak: `kill -9` a running table 1,000 times at random moments; run by hand (takes a while).

Each cycle starts ``munchkin-table run --sim`` on one throw-away state directory, pipes it a few
lines of a long game, kills it with SIGKILL after a random time, then checks as a user would:
``munchkin-table state`` answers (exit 0, nothing reported), the journal opens clean, and no
action stored before the cycle is lost (the game shrinks by no more than the UNDOs it was sent).
The in-suite test (tests/table/test_storage_kill.py) checks each acknowledged action exactly.

    .venv/bin/python bench/soak_kill.py [CYCLES] [--seed N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._games import long_script  # noqa: E402


def journal_count(state_dir: Path) -> tuple[int, str | None]:
    from table.storage.journal import Journal

    journal = Journal(state_dir / "journal.sqlite3", read_only=True)
    try:
        game = journal.latest_game()
        count = len(journal.commands(game.id)) if game else 0
        return count, journal.damage.report() if journal.damage else None
    finally:
        journal.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cycles", nargs="?", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = long_script(20 * args.cycles + 100, seed=args.seed)
    failures = 0
    shown_lost = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="munchkin-soak-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_STATE_HOME=tmp,
                   PYTHONPATH=str(ROOT))
        state_dir = Path(tmp) / "munchkin-table"
        position = 0
        for cycle in range(args.cycles):
            proc = subprocess.Popen([sys.executable, "-m", "table", "run", "--sim"], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
            shown: list[str] = []

            def read(stream=proc.stderr, out=shown) -> None:  # type: ignore[no-untyped-def]
                for raw in stream:
                    out.append(raw.decode(errors="replace"))

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            before, _ = journal_count(state_dir) if (state_dir / "journal.sqlite3").exists() else (0, None)
            batch = lines[position:position + rng.randint(3, 20)]
            position += len(batch)
            try:
                assert proc.stdin is not None
                proc.stdin.write(("\n".join(batch) + "\n").encode())
                proc.stdin.flush()
            except BrokenPipeError:
                pass
            time.sleep(rng.uniform(0.3, 2.0))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            reader.join(timeout=5)
            count, damage = journal_count(state_dir) if (state_dir / "journal.sqlite3").exists() else (0, None)
            undos = sum(1 for line in batch if line == "press undo")
            if count < before - undos:
                shown_lost += before - undos - count
            state = subprocess.run([sys.executable, "-m", "table", "state"], capture_output=True, text=True,
                                   env=env, cwd=ROOT, timeout=60)
            problem = None
            if "Traceback" in "".join(shown):
                problem = "the table crashed:\n" + "".join(shown)[-2000:]
            elif state.returncode != 0 or state.stderr.strip():
                problem = f"state exit {state.returncode}: {state.stderr.strip()}"
            elif count < before - undos:
                problem = f"{before - undos - count} stored action(s) lost ({before} before, {count} after)"
            elif damage:
                problem = f"damage after a kill: {damage}"
            else:
                try:
                    json.loads(state.stdout)
                except ValueError:
                    problem = "state printed no JSON"
            if problem:
                failures += 1
                print(f"cycle {cycle}: {problem}", file=sys.stderr)
            if cycle % 50 == 49:
                print(f"{cycle + 1} kills, {count} actions stored, {failures} failure(s), "
                      f"{time.monotonic() - started:.0f} s", flush=True)
    print(f"soak: {args.cycles} kill -9 cycles: {failures} failure(s), {shown_lost} stored action(s) lost")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
