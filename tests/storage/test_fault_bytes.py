"""Case 10: bytes overwritten anywhere in the file make ``state`` keep its one line, never an
"unexpected error"; a writing table keeps the copy and restores."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE
from tests.table.storage_helpers import cli, close_table, config_file, play_game


@pytest.fixture(scope="module")
def journal_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    state = tmp_path_factory.mktemp("bytes")
    close_table(play_game(state, 40))
    return (state / JOURNAL_FILE).read_bytes()


def overwritten(data: bytes, seed: int) -> bytes:
    """The random overwrite the soak makes: 1 to 7 bytes that are not text, somewhere past the header."""
    rnd = random.Random(seed)
    out = bytearray(data)
    pos, n = rnd.randrange(100, len(out)), rnd.randrange(1, 8)
    for k in range(n):
        if pos + k < len(out):
            out[pos + k] = rnd.choice([0xFF, 0xFE, 0xC3, 0x80])
    return bytes(out)


@pytest.mark.parametrize("block", range(4))
def test_state_survives_bytes_overwritten_anywhere(journal_bytes: bytes, tmp_path: Path, block: int) -> None:
    state = tmp_path / "state"
    state.mkdir()
    cfg = config_file(state, tmp_path / "cfg")
    for seed in range(150 + 12 * block, 162 + 12 * block):      # seed 183 once gave a TypeError on a check row
        (state / JOURNAL_FILE).write_bytes(overwritten(journal_bytes, seed))
        code, _out, err = cli("state", "--config", str(cfg))
        assert code in (0, 2) and "unexpected" not in err, (seed, err)
        assert (state / JOURNAL_FILE).read_bytes() == overwritten(journal_bytes, seed)   # it only looked


def test_a_damaged_check_table_entry_is_kept_aside_and_restored(journal_bytes: bytes, tmp_path: Path) -> None:
    # what seed 183 of the soak's overwrite once hit (a TypeError then): bytes that are not text inside
    # the schema's entry of the check table, found where it is (the file's layout moves with its tables)
    state = tmp_path / "state"
    state.mkdir()
    at = journal_bytes.index(b"CREATE TABLE game_check") + 36
    damaged = journal_bytes[:at] + bytes([0xFF, 0xC3, 0x80]) + journal_bytes[at + 3:]
    (state / JOURNAL_FILE).write_bytes(damaged)
    journal = Journal(state / JOURNAL_FILE)
    try:
        assert journal.damage is not None and journal.damage.kept is not None
        assert journal.damage.kept.read_bytes() == damaged
        record = journal.latest_game()
        assert record is not None and len(journal.commands(record.id)) >= 40
    finally:
        journal.close()


@pytest.mark.parametrize("where", [b"CREATE TABLE command", b"sqlite_autoindex_snapshot_1", b"game_record"])
def test_bytes_that_are_not_text_in_the_schema_keep_the_copy_and_restore_every_action(
        journal_bytes: bytes, tmp_path: Path, where: bytes) -> None:
    """SQLite quotes a damaged schema in its error, which Python cannot decode (UnicodeDecodeError,
    not a DatabaseError): ``state`` said "unexpected error" and exited 1, and nothing read."""
    state = tmp_path / "state"
    state.mkdir()
    at = journal_bytes.index(where) + 4
    damaged = journal_bytes[:at] + b"\xff\xc3\xfe" + journal_bytes[at + 3:]
    (state / JOURNAL_FILE).write_bytes(damaged)
    cfg = config_file(state, tmp_path / "cfg")
    code, out, err = cli("state", "--config", str(cfg))
    assert code == 0 and "unexpected" not in err and "damaged" in err, err
    assert (state / JOURNAL_FILE).read_bytes() == damaged            # it only looked
    journal = Journal(state / JOURNAL_FILE)
    try:
        assert journal.damage is not None and journal.damage.kept is not None
        assert journal.damage.kept.read_bytes() == damaged
        record = journal.latest_game()
        assert record is not None and len(journal.commands(record.id)) == journal.damage.total >= 40
    finally:
        journal.close()
