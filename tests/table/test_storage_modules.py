"""The pieces table/storage is made of, each asked directly: checksums, the lock probe, games by
number, the facts store beside a journal, the read-only facts, and the type check of the package."""

from __future__ import annotations

import ast
import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from engine import commands as c
from engine.rules import Ruleset
from table.storage import schema
from table.storage.facts import FactsStore, FactsUnreadable, read_saved
from table.storage.faults import database_trouble
from table.storage.journal import Journal
from table.storage.paths import LOCK_FILE, hold_table_lock, table_running

ROOT = Path(__file__).resolve().parents[2]


def test_row_ok_takes_both_checksums_and_nothing_else() -> None:
    body = '{"name":"Join","player":"player-1"}'
    assert schema.row_ok(1, 2, body, zlib.crc32(b"1.2." + body.encode()))
    assert schema.row_ok(1, 2, body, zlib.crc32(body.encode()))          # a row of an older journal
    assert not schema.row_ok(1, 3, body, zlib.crc32(b"1.2." + body.encode()))   # moved to another seq
    assert not schema.row_ok(2, 2, body, zlib.crc32(b"1.2." + body.encode()))   # or another game
    assert not schema.row_ok(1, 2, body, "not a number")


def test_snapshot_ok_checks_the_checksum_and_the_types() -> None:
    crc = schema.snapshot_crc(1, 4, 1, "fp", 99, b"state")
    assert schema.snapshot_ok((1, 4, 1, "fp", 99, b"state", crc))
    assert not schema.snapshot_ok((1, 4, 1, "fp", 99, b"statf", crc))
    assert not schema.snapshot_ok((1, 4, 1, "fp", 99, "state", crc))        # text where bytes belong
    assert not schema.snapshot_ok((1, 5, 1, "fp", 99, b"state", crc))


def test_checksums_are_computed_only_in_the_schema_module() -> None:
    """One place says how a row is checked: no other module of table/ calls crc32 (or imports zlib)."""
    found = []
    for path in sorted((ROOT / "table").rglob("*.py")):
        if path == ROOT / "table" / "storage" / "schema.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(a.name == "zlib" for a in node.names):
                found.append(str(path.relative_to(ROOT)))
            if isinstance(node, ast.ImportFrom) and node.module == "zlib":
                found.append(str(path.relative_to(ROOT)))
    assert found == []


def test_both_schemas_are_created_from_the_schema_module(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "j.sqlite3")
    db.executescript(schema.JOURNAL_SCHEMA + schema.FACTS_SCHEMA)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == set(schema.JOURNAL_TABLES) | {"game_record", "game_fact"}


def test_table_running_sees_the_lock_only_while_it_is_held(tmp_path: Path) -> None:
    assert not table_running(tmp_path)                  # no lock file at all
    lock = hold_table_lock(tmp_path)
    assert lock is not None and (tmp_path / LOCK_FILE).exists()
    try:
        assert table_running(tmp_path)
    finally:
        lock.close()
    assert not table_running(tmp_path)


def test_a_game_is_found_by_its_number(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite3")
    first = j.new_game(7, Ruleset(winning_level=12))
    j.append(first.id, c.Join(player="player-1"))
    second = j.new_game(8, Ruleset())
    j.close()
    looking = Journal(tmp_path / "j.sqlite3", read_only=True)
    try:
        found = looking.game(first.id)
        assert found is not None and (found.seed, found.ruleset.winning_level) == (7, 12)
        assert looking.game(second.id) == second
        assert looking.game(second.id + 1) is None
    finally:
        looking.close()


def test_a_read_only_journal_s_facts_share_its_connection_and_write_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.new_game(1, Ruleset())
    j.close()
    before = path.read_bytes()
    looking = Journal(path, read_only=True)
    store = FactsStore.beside(path, looking.db, read_only=True)
    assert store.db is looking.db and store.read_only and not store.writable
    store.close()                                       # not its connection: the journal's stays open
    assert looking.db is not None and looking.db.execute("SELECT COUNT(*) FROM game").fetchone() == (1,)
    looking.close()
    assert path.read_bytes() == before and not Path(f"{path}-wal").exists()

    nothing = FactsStore.beside(path, None, read_only=True)     # a journal the disk refused: an empty store
    assert nothing.read_only and nothing.games() == [] and nothing.known_names() == []
    nothing.close()


def test_a_writing_journal_s_facts_have_their_own_connection(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    game = j.new_game(1, Ruleset())
    store = FactsStore.beside(path, j.db, read_only=False)
    try:
        assert store.writable and store.db is not j.db
        assert store.prepare()
        store.put(game.id, status="unfinished", started=1.0, ended=None, last=2.0, actions=3,
                  brief=json.dumps({"id": game.id, "status": "unfinished", "started": 1.0, "ended": None,
                                    "players": ["Ann"], "winners": [], "turns": 1, "actions": 3, "minutes": 0.0}),
                  tally=json.dumps({"per_player": [], "monsters": {}}), log_text="{}")
        store.touch(game.id, 5, 121.0)
        assert store.row(game.id) == (5, "{}", 1.0)
        assert [g["actions"] for g in store.games()] == [5] and store.known_names() == ["Ann"]
        assert read_saved(path, "games")[0]["minutes"] == 2.0     # unfinished: minutes to the last action
    finally:
        store.close()
        j.close()


def test_read_saved_reads_nothing_from_no_file_and_names_a_file_that_is_no_database(tmp_path: Path) -> None:
    assert read_saved(tmp_path / "none.sqlite3", "tallies") == []
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(b"not a database at all" * 200)
    with pytest.raises(FactsUnreadable):
        read_saved(bad, "games")


def test_database_trouble_answers_for_sqlite_errors_only() -> None:
    assert database_trouble(sqlite3.OperationalError("disk I/O error")) == \
        "the game journal cannot be used: disk I/O error"
    assert database_trouble(ValueError("a bug")) is None
