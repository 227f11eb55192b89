"""The outbox in the journal: written in the transaction of the action, gone with it when it fails;
a newer row of a game replaces the older; the [league] config and its one-line problems."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from table.config import ConfigError, parse_config
from table.storage import writing
from table.storage.outbox import Outbox
from table.storage.schema import JOURNAL_SCHEMA


def journal(path: Path) -> sqlite3.Connection:
    db = writing.connect(path)
    writing.setup_fresh(db)
    assert JOURNAL_SCHEMA
    return db


def test_an_outbox_row_is_stored_with_its_action_and_never_without_it(tmp_path: Path, monkeypatch) -> None:
    db = journal(tmp_path / "j.sqlite3")
    game = writing.insert_game(db, 1, "{}")
    writing.insert_command(db, game, '{"a": 1}', outbox=[(game, '{"game": 1}')])
    box = Outbox(tmp_path / "j.sqlite3")
    assert [(w.game, w.body) for w in box.waiting()] == [(game, '{"game": 1}')]

    def broken(*_args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(writing, "put_snapshot", broken)     # the action's own write fails after the outbox row
    with pytest.raises(sqlite3.OperationalError):
        writing.insert_command(db, game, '{"a": 2}', snapshot=(2, "f", b"x"), outbox=[(game, '{"game": 2}')])
    assert writing.top(db, game) == 1
    assert [w.body for w in box.waiting()] == ['{"game": 1}']      # rolled back together
    writing.delete_last(db, game, outbox=[(game, '{"game": "undone"}')])
    assert [w.body for w in box.waiting()] == ['{"game": "undone"}']    # the newer replaces the older
    row = box.waiting()[0]
    assert box.acknowledged(row) and box.waiting() == []
    assert box.sent() == {game: '{"game": "undone"}'}            # what the broker took, kept
    other = writing.insert_game(db, 2, "{}", outbox=[(game, '{"game": "abandoned"}')])
    assert other != game and [w.game for w in box.waiting()] == [game]
    db.close()


def test_a_damaged_outbox_row_is_not_sent(tmp_path: Path) -> None:
    db = journal(tmp_path / "j.sqlite3")
    game = writing.insert_game(db, 1, "{}")
    writing.insert_command(db, game, "{}", outbox=[(game, '{"game": 1}')])
    db.execute("UPDATE league_outbox SET body = '{\"game\": 9}'")
    assert Outbox(tmp_path / "j.sqlite3").waiting() == []
    db.close()


def test_the_outbox_of_a_journal_that_has_none_is_empty(tmp_path: Path) -> None:
    assert Outbox(tmp_path / "none.sqlite3").waiting() == []
    db = journal(tmp_path / "j.sqlite3")
    assert Outbox(tmp_path / "j.sqlite3").waiting() == []          # no table yet: nothing, no error
    db.close()


def test_league_config_off_by_default_and_checked_when_on() -> None:
    assert not parse_config({}).league.enabled
    good = parse_config({"league": {"broker": "mqtts://broker.lan:8883", "league": "friday", "table": "table-3",
                                    "username": "table-3", "password": "x", "ca": "/etc/ca.crt"}})
    assert good.league.enabled and good.league.state_per_second == 4.0
    with pytest.raises(ConfigError) as caught:
        parse_config({"league": {"broker": "http://broker", "league": "a/b", "table": "", "cert": "c.crt",
                                 "password": "p", "colour": "red"}})
    problems = "\n".join(caught.value.problems)
    for words in ("unknown key", "broker must be an address such as", "[league] league must be 1-40",
                  "[league] table must be 1-40", "cert and key go together", "password without username"):
        assert words in problems, (words, problems)
    with pytest.raises(ConfigError, match="needs TLS"):
        parse_config({"league": {"broker": "mqtt://b:1883", "league": "l", "table": "t", "cert": "c", "key": "k"}})
    with pytest.raises(ConfigError, match="state_per_second"):
        parse_config({"league": {"state_per_second": 0}})


def test_an_acknowledged_row_is_recorded_and_can_be_queued_again(tmp_path: Path) -> None:
    db = journal(tmp_path / "j.sqlite3")
    one, two = writing.insert_game(db, 1, "{}"), writing.insert_game(db, 2, "{}")
    writing.insert_command(db, two, "{}", outbox=[(one, '{"game": 1}'), (two, '{"game": 2}')])
    box = Outbox(tmp_path / "j.sqlite3")
    for row in box.waiting():
        assert box.acknowledged(row)
    assert box.waiting() == [] and box.sent() == {one: '{"game": 1}', two: '{"game": 2}'}
    writing.insert_command(db, two, "{}", outbox=[(two, '{"game": "2 again"}')])    # a newer one waits
    assert box.resend([one, two, 99]) == 1                      # game 2 has its newer row waiting; 99 never went
    assert sorted((w.game, w.body) for w in box.waiting()) == [(one, '{"game": 1}'), (two, '{"game": "2 again"}')]
    db.execute("UPDATE league_sent SET body = '{\"game\": 7}' WHERE game = ?", (one,))
    assert box.sent() == {two: '{"game": 2}'}                   # a damaged record is not believed
    db.close()


def test_the_outbox_follows_a_journal_written_anew_under_it(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    db = journal(path)
    game = writing.insert_game(db, 1, "{}")
    writing.insert_command(db, game, "{}", outbox=[(game, '{"game": "old"}')])
    box = Outbox(path)
    assert [w.body for w in box.waiting()] == ['{"game": "old"}']
    db.close()
    fresh = journal(tmp_path / "new.sqlite3")
    game = writing.insert_game(fresh, 1, "{}")
    writing.insert_command(fresh, game, "{}", outbox=[(game, '{"game": "new"}')])
    fresh.close()
    (tmp_path / "new.sqlite3").replace(path)                     # the journal replaced by a new file
    assert [w.body for w in box.waiting()] == ['{"game": "new"}']
