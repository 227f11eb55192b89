"""``history`` and ``stats`` over 500 remembered games, beside recomputing them by replaying every game.

A 6-player game of about 200 actions is played through the table (the controller and the journal,
as on the box), then copied in the journal until it holds 500 games. Measured in the same run:
- history: reading every game's facts as ``history --json`` does (the stored rows);
- stats: the same for ``stats --json`` (per player and per monster over every game);
- baseline: what it would cost without kept facts: replaying every game's commands from the journal;
- the whole ``munchkin-table history --json`` and ``stats --json`` commands as processes.
Target (per call, in process): 500 games in under 100 ms, and at least 10x faster than the replay.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from bench._games import long_script  # noqa: E402
from bench._report import figure, report  # noqa: E402
from drivers.base import ManualClock  # noqa: E402
from drivers.sim import SimButtons, SimReader  # noqa: E402
from engine.commands import command_from_dict  # noqa: E402
from engine.rules import Ruleset  # noqa: E402
from table.config import Config, StorageConfig  # noqa: E402
from table.session.facts import fold_commands, history_rows, stats  # noqa: E402
from table.storage.facts import read_games, read_tallies  # noqa: E402
from table.storage.reading import open_read_only  # noqa: E402
from table.cli.records import print_history, print_stats  # noqa: E402
from table.sim.script import parse_script  # noqa: E402
from table.sim.harness import perform  # noqa: E402
from table.storage.paths import JOURNAL_FILE  # noqa: E402
from table.control.assembly import build_table  # noqa: E402

GAMES = 500
ACTIONS = 200
TARGET_MS = 100.0
TARGET_RATIO = 10.0


def timing(fn, into: list[float]):  # type: ignore[no-untyped-def]
    def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            into.append((time.perf_counter() - start) * 1000)
    return wrapped


def make_games(state_dir: Path) -> tuple[list[float], list[float]]:
    """Plays the game; returns the per-action times (ms) of keeping its facts and of the journal's append."""
    config = Config(storage=StorageConfig(state_dir=str(state_dir)))
    clock = ManualClock()
    table = build_table(config, clock, seed_source=lambda: 1, wall=lambda: 1_700_000_000 + clock.now)
    facts_ms: list[float] = []
    append_ms: list[float] = []
    records, journal = table.controller.records, table.controller.journal
    records.accepted = timing(records.accepted, facts_ms)  # type: ignore[method-assign]
    journal.append = timing(journal.append, append_ms)  # type: ignore[method-assign]
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("\n".join(long_script(ACTIONS * 2)), table.catalog):
        perform(action, table, reader, buttons, clock)
        if table.controller.history_len >= ACTIONS:
            break
    table.controller.records.close()
    table.journal.close()
    db = sqlite3.connect(state_dir / JOURNAL_FILE)
    with db:
        for gid in range(2, GAMES + 1):
            db.execute("INSERT INTO game (id, seed, ruleset, created) SELECT ?, seed, ruleset, created + ? FROM game "
                       "WHERE id = 1", (gid, gid * 3600))
            db.execute("INSERT INTO command (game, seq, body, crc) SELECT ?, seq, body, crc FROM command WHERE game = 1",
                       (gid,))
            db.execute("INSERT INTO game_record (game, status, started, ended, last, actions, brief, tally, log) "
                       "SELECT ?, 'abandoned', started + ?, last + ?, last + ?, actions, "
                       "json_set(brief, '$.id', ?, '$.status', 'abandoned', '$.started', started + ?, "
                       "'$.ended', last + ?), tally, log FROM game_record WHERE game = 1",
                       (gid, gid * 3600, gid * 3600, gid * 3600, gid, gid * 3600, gid * 3600))
    db.close()
    return facts_ms, append_ms


def timed(fn, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    import logging

    from cards.loader import load_catalog

    logging.disable(logging.WARNING)            # the long game's refused presses are not the point here
    catalog = load_catalog()
    with tempfile.TemporaryDirectory(prefix="munchkin-bench-history-") as tmp:
        state_dir = Path(tmp)
        facts_ms, append_ms = make_games(state_dir)
        path = state_dir / JOURNAL_FILE

        def history() -> None:
            db = open_read_only(path)
            print_history(read_games(db), "json", out=io.StringIO())
            db.close()

        def standings() -> None:
            db = open_read_only(path)
            print_stats(read_tallies(db), "json", catalog, out=io.StringIO())
            db.close()

        def replay_all() -> None:
            db = open_read_only(path)
            for gid, seed, ruleset in db.execute("SELECT id, seed, ruleset FROM game ORDER BY id").fetchall():
                rows = db.execute("SELECT body FROM command WHERE game = ? ORDER BY seq", (gid,)).fetchall()
                fold_commands(catalog, seed, Ruleset.from_dict(json.loads(ruleset)),
                              [command_from_dict(json.loads(b)) for (b,) in rows])
            db.close()

        db = open_read_only(path)
        briefs, tallies = read_games(db), read_tallies(db)
        db.close()
        games, actions = len(history_rows(briefs)), sum(s["actions"] for s in briefs)
        assert stats(tallies)["games"] == games
        t_history = timed(history)
        t_stats = timed(standings)
        t_replay = timed(replay_all, repeat=1)
        env = dict(os.environ, XDG_STATE_HOME=str(state_dir / "xdg"))
        config = state_dir / "config.toml"
        config.write_text(f'[storage]\nstate_dir = "{state_dir}"\n')

        def process(what: str) -> float:
            return timed(lambda: subprocess.run([sys.executable, "-m", "table", what, "--json", "--config", str(config)],
                                                env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL), repeat=3)

        p_history, p_stats = process("history"), process("stats")
        print(f"history/stats over {games} games ({actions} journaled actions); baseline: replaying every game")
        figures = []
        for name, value in (("history --json", t_history), ("stats --json", t_stats)):
            ratio = t_replay / value
            met = value < TARGET_MS and ratio >= TARGET_RATIO
            print(f"  {name:15} {value:8.1f} ms in process; replay baseline {t_replay:8.0f} ms; "
                  f"{ratio:6.0f}x faster; target < {TARGET_MS:.0f} ms and >= {TARGET_RATIO:.0f}x: "
                  f"{'met' if met else 'NOT met'}")
            figures.append(figure(f"{name} over {games} games, in process", value, "ms", baseline=t_replay,
                                  baseline_is="replaying every game's commands from the journal",
                                  target=f"< {TARGET_MS:.0f} ms and baseline / value >= {TARGET_RATIO:.0f}",
                                  ratio_is="baseline / value", met=met, details={"actions": actions}))
        def p99(values: list[float]) -> float:
            return sorted(values)[int(len(values) * 0.99)]

        print(f"  keeping the facts, per accepted action: median {statistics.median(facts_ms):.2f} ms, "
              f"p99 {p99(facts_ms):.2f} ms; beside the journal's append (synced): median "
              f"{statistics.median(append_ms):.2f} ms, p99 {p99(append_ms):.2f} ms ({len(facts_ms)} actions)")
        print(f"  whole commands (interpreter start included): history --json {p_history:.0f} ms, "
              f"stats --json {p_stats:.0f} ms")
        for f in figures:
            f.details.update(process_history_ms=round(p_history), process_stats_ms=round(p_stats),
                             facts_per_action_p99_ms=round(p99(facts_ms), 3))
        report("history", figures, quiet=True)


if __name__ == "__main__":
    main()
