"""A repair carries the league's outbox over (issue 25 beside case 3): a game the repair keeps whole
keeps its facts waiting for the broker; a game cut or replayed around a hole does not (its facts are
sent again when it ends), and a row that fails its check is never carried."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from table.storage import writing
from table.storage.outbox import Outbox
from table.storage.reading import read_content
from table.storage.repair import write_salvage


def _journal(path: Path) -> tuple[sqlite3.Connection, int, int]:
    db = writing.connect(path)
    writing.setup_fresh(db)
    whole = writing.insert_game(db, 1, "{}")
    for n in range(3):
        writing.insert_command(db, whole, f'{{"n": {n}}}')
    damaged = writing.insert_game(db, 2, "{}", outbox=[(whole, '{"game": "whole"}')])
    for n in range(3):
        writing.insert_command(db, damaged, f'{{"m": {n}}}', outbox=[(damaged, f'{{"game": {n}}}')] if n == 2 else ())
    return db, whole, damaged


def test_a_repair_keeps_the_outbox_of_the_games_it_keeps_whole(tmp_path: Path) -> None:
    db, whole, damaged = _journal(tmp_path / "j.sqlite3")
    db.execute("UPDATE command SET body = '{\"m\": 9}' WHERE game = ? AND seq = 2", (damaged,))   # a hole
    content = read_content(db)
    assert damaged in content.holes and whole not in content.holes
    write_salvage(tmp_path / "salvage.sqlite3", content)
    box = Outbox(tmp_path / "salvage.sqlite3")
    assert [(w.game, w.body) for w in box.waiting()] == [(whole, '{"game": "whole"}')]
    box.close()
    db.close()


def test_a_repair_never_carries_an_outbox_row_that_fails_its_check(tmp_path: Path) -> None:
    db, whole, _damaged = _journal(tmp_path / "j.sqlite3")
    db.execute("UPDATE league_outbox SET body = '{\"game\": \"changed\"}' WHERE game = ?", (whole,))
    content = read_content(db)
    assert [row[0] for row in content.outbox] == [_damaged]
    write_salvage(tmp_path / "salvage.sqlite3", content)
    box = Outbox(tmp_path / "salvage.sqlite3")
    assert [(w.game, w.body) for w in box.waiting()] == [(_damaged, '{"game": 2}')]
    box.close()
    db.close()
