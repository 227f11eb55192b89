"""Damaged journals: bad bytes, torn pages, hidden rows. Never a traceback, never a silent change,
the damaged file always kept byte for byte, and `state` never writes."""

from __future__ import annotations

import re

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from drivers.base import ManualClock
from table.storage.journal import Journal
from table.control.assembly import build_table

from tests.table.storage_helpers import close_table, state_out, as_json, cli, config_file, config_for, listing, play_game

ACTIONS = 323


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, int]:
    """A closed journal of a 323-action game (with snapshots in it), and its state JSON."""
    directory = tmp_path_factory.mktemp("long-game")
    table = play_game(directory, ACTIONS)
    ctl = table.controller
    assert ctl.history_len == ACTIONS
    expected = as_json(ctl.state, table.catalog)
    close_table(table)
    db = sqlite3.connect(directory / "journal.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM snapshot").fetchone()[0] >= 6
    db.close()
    return directory / "journal.sqlite3", expected, ACTIONS


def test_300_random_overwrites_never_crash_never_change_silently_and_keep_the_damaged_file(
        long_game: tuple[Path, str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cards.loader
    import table.control.assembly
    import table.storage.evidence

    catalog = cards.loader.load_catalog(config_for(tmp_path).card_set_files())
    monkeypatch.setattr(cards.loader, "load_catalog", lambda files: catalog)     # the same card files each time
    monkeypatch.setattr(table.control.assembly, "load_catalog", lambda files: catalog)
    # Damage here is in the file, not in a failing read: the pauses between the agreeing reads (for a
    # disk that recovers, tested in tests/storage) would only wait, 0.1 s a trial.
    monkeypatch.setattr(table.storage.evidence, "SETTLE_PAUSE", 0.0)
    source, expected, total = long_game
    raw = source.read_bytes()
    rng = random.Random(20261130)
    changed = damaged = 0
    for trial in range(300):
        directory = tmp_path / f"t{trial}" / "state"
        directory.mkdir(parents=True)
        data = bytearray(raw)
        at = rng.randrange(len(data))
        for i in range(rng.randint(1, 8)):
            if at + i < len(data):
                data[at + i] = rng.randrange(256)
        (directory / "journal.sqlite3").write_bytes(bytes(data))
        cfg = config_file(directory, tmp_path / f"t{trial}")
        before = listing(directory)

        # state: only reads, and says so when what it shows is not the whole game
        code, out, err = cli("state", "--config", str(cfg))
        assert code == 0, (trial, err)
        assert listing(directory) == before, f"trial {trial}: state changed the state directory"
        import json as _json

        shown = state_out(out)
        if shown != expected:
            assert "restored to action" in err or "damaged" in err, (trial, at, err)

        # run: repairs, keeps the damaged file byte for byte, and says where the game resumed
        table = build_table(config_for(directory), ManualClock(), retry_faults=True)
        ctl = table.controller
        now = as_json(ctl.state, table.catalog)
        assert now == shown, f"trial {trial}: run resumed elsewhere than state showed"
        if now != expected:
            changed += 1
            assert ctl.message is not None and re.search(r"restored (to action )?\d+ of", ctl.message.text), (trial, at)
        if table.journal.damage is not None:
            damaged += 1
            kept = table.journal.damage.kept
            assert kept is not None and kept.read_bytes() == bytes(data), f"trial {trial}: damaged copy not exact"
            assert kept.name in ctl.message.text
        close_table(table)
        if table.journal.damage is not None:       # the repaired journal opens clean and shows the same game
            again = build_table(config_for(directory), ManualClock())
            assert as_json(again.controller.state, again.catalog) == now
            assert again.journal.damage is None
            close_table(again)
        shutil.rmtree(tmp_path / f"t{trial}")
    assert damaged >= 15 and changed >= 5      # the overwrites did hit the game


def test_a_torn_last_page_costs_at_most_that_page(long_game: tuple[Path, str, int], tmp_path: Path) -> None:
    source, _expected, total = long_game
    raw = source.read_bytes()
    page = 4096
    directory = tmp_path / "state"
    directory.mkdir()
    torn = raw[: len(raw) - page // 2]         # the power went while the last page was written
    (directory / "journal.sqlite3").write_bytes(torn)
    table = build_table(config_for(directory), ManualClock())
    ctl = table.controller
    rows_per_page = 40
    assert ctl.history_len >= total - rows_per_page
    if ctl.history_len < total:
        assert f"restored to action {ctl.history_len} of" in ctl.message.text
    if table.journal.damage is not None:
        kept = table.journal.damage.kept
        assert kept is not None and kept.read_bytes() == torn
    else:                                      # the torn page held nothing of the game's actions
        assert ctl.history_len == total


def test_rows_hidden_by_a_damaged_index_are_found(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 120)
    expected = as_json(table.controller.state, table.catalog)
    game = table.controller.game.id
    close_table(table)
    path = directory / "journal.sqlite3"
    db = sqlite3.connect(path)
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_command_1'").fetchone()[0]
    db.close()
    # wipe the index's root page to an empty leaf: the table still holds every row, the index none
    data = bytearray(path.read_bytes())
    start = (root - 1) * 4096
    data[start:start + 12] = bytes([10, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0])
    path.write_bytes(bytes(data))
    code, out, err = cli("state", "--config", str(config_file(directory, tmp_path)))
    assert code == 0 and "damaged" in err
    table = build_table(config_for(directory), ManualClock())
    assert as_json(table.controller.state, table.catalog) == expected
    assert table.journal.count(game) == 120
    assert "restored to action 120 of 120" in table.controller.message.text


def test_state_reports_damage_and_touches_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 60)
    close_table(table)
    db = sqlite3.connect(directory / "journal.sqlite3")
    db.execute("UPDATE command SET body = CAST(X'80FF' AS TEXT) || body WHERE seq = 55")   # bytes that are not UTF-8
    db.commit()
    db.close()
    before = listing(directory)
    code, out, err = cli("state", "--config", str(config_file(directory, tmp_path)))
    assert code == 0 and "restored 54 of 60 actions; 1 unreadable (action 55); 5 after them no longer replay" in err and "run" in err
    assert listing(directory) == before


def test_damage_behind_the_newest_snapshot_keeps_the_game_and_stops_undo_there(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 60)
    expected = as_json(table.controller.state, table.catalog)
    close_table(table)
    db = sqlite3.connect(directory / "journal.sqlite3")
    db.execute("UPDATE command SET body = CAST(X'80FF' AS TEXT) || body WHERE seq = 40")
    db.commit()
    db.close()
    table = build_table(config_for(directory), ManualClock())
    ctl = table.controller
    assert as_json(ctl.state, table.catalog) == expected          # the snapshot at 50 holds the game
    ctl.prompt = None                                             # (the resumed game's notice)
    for _ in range(10):
        assert ctl.undo().accepted                                # back to the snapshot
    out = ctl.undo()                                              # further needs the damaged action
    assert not out.accepted and "damaged at action 40" in ctl.message.text
    assert ctl.history_len == 50 and table.journal.count(ctl.game.id) == 50
    close_table(table)
    code, out, err = cli("doctor", "--config", str(config_file(directory, tmp_path)))
    assert "[FAIL] saved games" in out


def test_an_empty_journal_next_to_a_kept_copy_is_reported(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 20)
    close_table(table)
    (directory / "journal.sqlite3").write_bytes(b"garbage" * 1000)
    table = build_table(config_for(directory), ManualClock())
    kept = table.journal.damage.kept
    close_table(table)
    (directory / "journal.sqlite3").write_bytes(b"")         # and then the file is emptied
    table = build_table(config_for(directory), ManualClock())
    assert table.controller.message is not None and kept.name in table.controller.message.text
    close_table(table)
    (directory / "journal.sqlite3").unlink()
    code, out, err = cli("state", "--config", str(config_file(directory, tmp_path)))
    assert code == 0 and "restore" in err and kept.name in err


def test_restore_brings_a_kept_game_back_and_keeps_the_current_one(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 80)
    expected = as_json(table.controller.state, table.catalog)
    close_table(table)
    path = directory / "journal.sqlite3"
    original = path.read_bytes()
    path.write_bytes(original[:100] + b"\xff" * 50 + original[150:])    # the header is damaged
    table = build_table(config_for(directory), ManualClock())
    kept = table.journal.damage.kept
    assert kept is not None and as_json(table.controller.state, table.catalog) != expected
    close_table(table)
    cfg = config_file(directory, tmp_path)
    # this kept copy has nothing left to read: restore says so, and leaves it as it is
    shutil.copyfile(kept, tmp_path / "exact-copy")
    code, out, err = cli("restore", str(kept), "--config", str(cfg))
    assert code == 2 and "holds no game" in err
    assert kept.read_bytes() == (tmp_path / "exact-copy").read_bytes()
    # with a good copy, restore gives the whole game back
    good = tmp_path / "good.sqlite3"
    good.write_bytes(original)
    code, out, err = cli("restore", str(good), "--config", str(cfg))
    assert code == 0 and "action 80" in out and "kept as" in out
    code, out, err = cli("state", "--config", str(cfg))
    import json as _json

    assert state_out(out) == expected
    assert len(list(directory.glob("journal.replaced-*.sqlite3"))) == 1


def test_restore_of_something_that_is_not_a_journal_says_so(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    directory.mkdir()
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(b"nothing here")
    cfg = config_file(directory, tmp_path)
    code, out, err = cli("restore", str(bogus), "--config", str(cfg))
    assert code == 2 and "holds no game" in err and len(err.strip().splitlines()) == 1
    code, out, err = cli("restore", str(tmp_path / "missing"), "--config", str(cfg))
    assert code == 2 and "not a file" in err


def test_a_kept_copy_has_the_wal_of_a_killed_table(tmp_path: Path) -> None:
    """A table killed with actions only in the -wal: the copy kept aside has them too."""
    directory = tmp_path / "state"
    table = play_game(directory, 150)
    table.journal.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for _ in range(5):
        table.controller.undo()                 # these live only in the -wal
    ruleset = table.journal.db.execute("SELECT ruleset FROM game").fetchone()[0].encode()
    # freeze the files as a kill -9 leaves them: main file, -wal and -shm, no checkpoint
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    for name in ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"):
        shutil.copyfile(directory / name, frozen / name)
    close_table(table)
    assert (frozen / "journal.sqlite3-wal").stat().st_size > 0
    data = bytearray((frozen / "journal.sqlite3").read_bytes())
    at = data.index(ruleset)
    data[at + len(ruleset) // 2] ^= 0x01    # and the game's own row in the main file is damaged
    (frozen / "journal.sqlite3").write_bytes(bytes(data))
    wal_bytes = (frozen / "journal.sqlite3-wal").read_bytes()
    table = build_table(config_for(frozen), ManualClock())
    kept = table.journal.damage.kept
    close_table(table)
    assert Path(str(kept) + "-wal").read_bytes() == wal_bytes
    assert kept.read_bytes() == bytes(data)


def test_a_wal_deleted_after_a_kill_loses_only_its_actions_and_never_crashes(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    table = play_game(directory, 40)
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    shutil.copyfile(directory / "journal.sqlite3", frozen / "journal.sqlite3")   # the -wal is gone
    close_table(table)
    code, out, err = cli("state", "--config", str(config_file(frozen, tmp_path)))
    assert code == 0
    table = build_table(config_for(frozen), ManualClock())
    assert table.controller.history_len <= 40
    close_table(table)


def test_old_journals_without_snapshots_or_checks_still_load(tmp_path: Path) -> None:
    import json
    import zlib

    from engine import commands as c
    from engine.commands import command_to_dict
    from engine.rules import Ruleset

    directory = tmp_path / "state"
    directory.mkdir()
    db = sqlite3.connect(directory / "journal.sqlite3")
    db.executescript("""
        CREATE TABLE game (id INTEGER PRIMARY KEY, seed INTEGER NOT NULL, ruleset TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE command (game INTEGER NOT NULL REFERENCES game(id), seq INTEGER NOT NULL, body TEXT NOT NULL,
                              crc INTEGER NOT NULL, PRIMARY KEY (game, seq));""")
    db.execute("INSERT INTO game VALUES (1, 7, ?, 0)", (json.dumps(Ruleset().to_dict()),))
    for seq, who in enumerate(("player-1", "player-2", "player-3"), 1):
        body = json.dumps(command_to_dict(c.Join(player=who, at=float(seq))), separators=(",", ":"))
        db.execute("INSERT INTO command VALUES (1, ?, ?, ?)", (seq, body, zlib.crc32(body.encode())))
    db.commit()
    db.close()
    table = build_table(config_for(directory), ManualClock())
    assert [p.id for p in table.controller.state.players] == ["player-1", "player-2", "player-3"]
    assert table.journal.damage is None and table.controller.now >= 3.0
    close_table(table)
    j = Journal(directory / "journal.sqlite3", read_only=True)
    assert j.damage is None
    j.close()
