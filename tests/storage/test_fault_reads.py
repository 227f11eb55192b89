"""Case 1: failing reads while a healthy journal is opened are a fault, never damage."""

from __future__ import annotations

from pathlib import Path

import pytest

from table.storage.faults import JournalFault
from table.storage.journal import Journal
from table.storage.paths import JOURNAL_FILE
from table.storage.repair import kept_copies
from tests.storage.faulty import Faults
from tests.table.storage_helpers import close_table, listing, play_game

ACTIONS = 60


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of a healthy journal of ACTIONS actions, closed cleanly."""
    state = tmp_path_factory.mktemp("healthy")
    table = play_game(state, ACTIONS)
    close_table(table)
    return listing(state)


def lay_out(files: dict[str, bytes], where: Path) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (where / name).write_bytes(data)
    return where / JOURNAL_FILE


def stored_actions(path: Path) -> int:
    journal = Journal(path, read_only=True, fast=False)
    try:
        record = journal.latest_game()
        assert record is not None
        return len(journal.commands(record.id))
    finally:
        journal.close()


def open_under(faults: Faults, path: Path) -> tuple[Journal | None, str | None]:
    try:
        return Journal(path), None
    except JournalFault as exc:
        return None, str(exc)


@pytest.mark.parametrize("burst", [1, 2, 7])
@pytest.mark.parametrize("first", range(1, 9))      # a healthy opening reads 8 times
def test_a_burst_of_failing_reads_at_opening_repairs_nothing(healthy: dict[str, bytes], tmp_path: Path,
                                                             faults: Faults, first: int, burst: int) -> None:
    path = lay_out(healthy, tmp_path / "state")
    before = path.read_bytes()
    faults.fail("read", range(first, first + burst))
    journal, refused = open_under(faults, path)
    faults.active = False
    assert faults.fired, "the plan never fired: the test would prove nothing"
    assert kept_copies(path) == []                      # nothing moved aside, nothing replaced
    assert not (tmp_path / "state" / (JOURNAL_FILE + ".salvage")).exists()
    if journal is not None:
        assert journal.damage is None, journal.damage
        record = journal.latest_game()
        assert record is not None and len(journal.commands(record.id)) >= ACTIONS
        journal.close()
    else:
        assert refused is not None and "malformed" not in refused
        assert path.read_bytes() == before
    assert stored_actions(path) >= ACTIONS


def test_integrity_lines_from_a_failing_read_are_not_damage(healthy: dict[str, bytes], tmp_path: Path,
                                                            faults: Faults) -> None:
    path = lay_out(healthy, tmp_path / "state")
    faults.integrity = True
    faults.fail("read", [1])
    journal, _ = open_under(faults, path)
    assert faults.fired
    assert kept_copies(path) == []
    assert journal is not None and journal.damage is None
    journal.close()


def test_damage_that_every_read_agrees_on_is_still_repaired(healthy: dict[str, bytes], tmp_path: Path) -> None:
    """The retry does not hide real damage: a row whose bytes are wrong on every read is repaired."""
    import sqlite3

    path = lay_out(healthy, tmp_path / "state")
    db = sqlite3.connect(path)
    db.execute("UPDATE command SET body = body || ' ' WHERE seq = ?", (ACTIONS - 5,))
    db.commit()
    db.close()
    damaged = path.read_bytes()
    journal = Journal(path)
    assert journal.damage is not None and journal.damage.kept is not None
    assert journal.damage.kept.read_bytes() == damaged
    journal.close()


@pytest.mark.parametrize("burst", [1, 7, 15])
def test_nothing_is_cut_while_reads_are_failing(healthy: dict[str, bytes], tmp_path: Path, faults: Faults,
                                                burst: int) -> None:
    """A replay that was given too few rows (a read failed under it) never cuts the journal."""
    path = lay_out(healthy, tmp_path / "state")
    journal = Journal(path)
    record = journal.latest_game()
    assert record is not None
    faults.next_calls("read", n=burst)
    try:
        journal.cut(record.id, 5, "an action cannot be read", read=5)
    except JournalFault as exc:
        assert "malformed" not in str(exc)
    else:
        raise AssertionError("a journal of 60 sound actions was cut to 5")
    finally:
        journal.close()
    faults.active = False
    assert kept_copies(path) == []
    assert stored_actions(path) == ACTIONS


def test_a_cut_on_reads_that_agree_still_happens(healthy: dict[str, bytes], tmp_path: Path) -> None:
    """An action that really no longer replays (every read agrees on the rows): the cut goes ahead."""
    path = lay_out(healthy, tmp_path / "state")
    before = path.read_bytes()
    journal = Journal(path)
    record = journal.latest_game()
    assert record is not None
    damage = journal.cut(record.id, 5, "action 6 no longer replays", read=ACTIONS)
    journal.close()
    assert damage.kept is not None and damage.kept.read_bytes() == before
    assert stored_actions(path) == 5
