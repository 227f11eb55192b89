"""The journal keeps every accepted command, drops a torn tail, and survives a corrupt file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engine import commands as c
from engine.rules import Ruleset
from table.storage.journal import Journal


def test_commands_round_trip(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    game = j.new_game(5, Ruleset(winning_level=20))
    j.append(game.id, c.Join(player="player-1", at=1.5))
    j.append(game.id, c.PlayCard(player="player-1", card="huge-rock", at=2.0))
    j.close()
    again = Journal(tmp_path / "j.sqlite3")
    record = again.latest_game()
    assert record is not None and record.seed == 5 and record.ruleset.winning_level == 20
    assert again.commands(record.id) == [c.Join(player="player-1", at=1.5),
                                         c.PlayCard(player="player-1", card="huge-rock", at=2.0)]


def test_pop_drops_the_last_command(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    game = j.new_game(1, Ruleset())
    j.append(game.id, c.Join(player="player-1"))
    j.append(game.id, c.Join(player="player-2"))
    assert j.pop(game.id)
    assert j.commands(game.id) == [c.Join(player="player-1")]
    assert j.pop(game.id) and not j.pop(game.id)


def test_a_damaged_last_row_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    game = j.new_game(1, Ruleset())
    for n in (1, 2, 3):
        j.append(game.id, c.Join(player=f"player-{n}"))
    j.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE command SET body = substr(body, 1, 10) WHERE seq = 3")   # a torn write
    db.commit()
    db.close()
    j = Journal(path)
    assert j.commands(game.id) == [c.Join(player="player-1"), c.Join(player="player-2")]
    assert j.count(game.id) == 2 and j.dropped == 1
    assert j.damage is not None and j.damage.good == 2 and j.damage.total == 3 and j.damage.kept is not None


def test_a_corrupt_database_is_kept_aside_and_the_table_starts_clean(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    j = Journal(path)
    assert j.latest_game() is None
    assert j.moved_aside is not None and j.moved_aside.exists()
    assert j.moved_aside.read_bytes() == b"this is not a database" * 100


def test_a_write_that_fails_refuses_the_action_and_shows_nothing(tmp_path: Path) -> None:
    from drivers.base import ManualClock
    from drivers.events import Press, Tap
    from table.config import Config, StorageConfig
    from table.control.assembly import build_table

    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), ManualClock())
    ctl = table.controller
    ctl.handle(Tap("", 0.0, card="player-1"))
    # The disk turns read-only under the running table.
    table.journal.db.close()
    table.journal.db = sqlite3.connect(f"file:{tmp_path / 'journal.sqlite3'}?mode=ro", uri=True, isolation_level=None)
    table.journal.forget_cache()
    out = ctl.handle(Tap("", 0.0, card="player-2"))
    assert out is not None and not out.accepted
    assert ctl.message.kind == "refusal" and "could not be saved" in ctl.message.text
    assert [p.id for p in ctl.state.players] == ["player-1"] and ctl.history_len == 1
    undo = ctl.handle(Press("undo", 0.0))
    assert undo is not None and not undo.accepted and [p.id for p in ctl.state.players] == ["player-1"]
