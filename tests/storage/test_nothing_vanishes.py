"""A game never vanishes silently (issue 44, items 1 and 2).

The marker beside the journal says which game was there; a journal found empty (zero bytes, what
a power cut can leave on ext4) or missing is said on the screen, in ``state``'s warnings and in
``run``'s log, what is left is kept aside byte for byte, and the game is rebuilt from what survives.
A journal deleted or replaced under a running table is written anew from the open file.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from bench._games import long_script
from drivers.base import ManualClock
from drivers.events import Press
from drivers.sim import SimButtons, SimReader
from table.app.run import watch_journal
from table.control.assembly import build_table
from table.sim.harness import perform
from table.sim.script import parse_script
from table.storage import marker
from table.storage.journal import Journal
from table.storage.repair import kept_copies

from tests.table.storage_helpers import cli, close_table, config_file, config_for, play_game


def _count(directory: Path) -> int:
    journal = Journal(directory / "journal.sqlite3", read_only=True)
    try:
        game = journal.latest_game()
        return len(journal.commands(game.id)) if game is not None else 0
    finally:
        journal.close()


def _played(directory: Path, actions: int) -> tuple[int, int]:
    """A game of ``actions`` actions, the table closed cleanly: (game id, actions)."""
    table = play_game(directory, actions)
    game, count = table.controller.game_id, table.controller.history_len
    close_table(table)
    return game, count


def test_the_marker_names_the_game_and_a_clean_stop(tmp_path: Path) -> None:
    game, count = _played(tmp_path, 12)
    known = marker.read_known(tmp_path / "journal.sqlite3")
    assert known is not None and (known.game, known.actions, known.clean) == (game, count, True)


def test_a_zero_byte_journal_is_a_warning_in_state_and_a_notice_when_the_table_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    state_dir = tmp_path / "state"
    game, count = _played(state_dir, 30)
    journal = state_dir / "journal.sqlite3"
    journal.write_bytes(b"")                             # what a power cut can leave of it
    wal = Path(f"{journal}-wal")
    wal.write_bytes(b"frames a power cut left")          # anything beside it is kept too
    config = config_file(state_dir, tmp_path)

    code, out, err = cli("state", "--config", str(config))
    assert code == 0
    warnings = json.loads(out)["warnings"]
    assert len(warnings) == 1 and f"game {game} vanished" in warnings[0] and "0 bytes" in warnings[0]
    assert f"at least {count} actions" in warnings[0]
    assert "warning" in err and "journal.sqlite3" in err
    assert journal.read_bytes() == b"" and wal.read_bytes() == b"frames a power cut left"   # state only looks

    caplog.set_level(logging.WARNING)
    table = build_table(config_for(state_dir), ManualClock(), seed_source=lambda: 5)
    said = str(table.controller.message.text)
    assert table.controller.message.kind == "refusal"
    assert f"game {game} vanished" in said and "0 bytes" in said and "could not be rebuilt" in said
    logged = [r for r in caplog.records if r.levelno == logging.WARNING and "vanished" in r.getMessage()]
    assert logged and "journal.sqlite3" in logged[0].getMessage()
    kept = [p for p in kept_copies(journal) if ".vanished-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == b""
    assert Path(f"{kept[0]}-wal").read_bytes() == b"frames a power cut left"   # byte for byte
    assert kept[0].name in said
    close_table(table)


def test_a_missing_journal_is_rebuilt_from_a_kept_copy_that_holds_its_game(tmp_path: Path) -> None:
    game, count = _played(tmp_path, 40)
    journal = tmp_path / "journal.sqlite3"
    older = tmp_path / "journal.damaged-20260101-000000.sqlite3"
    shutil.copyfile(journal, older)                     # a copy an earlier repair kept
    table = play_game(tmp_path, count + 10)             # the game went on after it
    close_table(table)
    journal.unlink()
    marker.link_path(journal).unlink()                  # its second name gone too

    code, out, _err = cli("state", "--config", str(config_file(tmp_path, tmp_path / "cfg")))
    assert code == 0 and "is missing" in json.loads(out)["warnings"][0]

    table = build_table(config_for(tmp_path), ManualClock(), seed_source=lambda: 5)
    said = str(table.controller.message.text)
    assert f"rebuilt with {count} of at least {count + 10} actions from {older.name}" in said
    assert table.controller.game_id == game and table.controller.history_len == count
    close_table(table)


def test_without_a_marker_an_empty_journal_is_a_new_box(tmp_path: Path) -> None:
    (tmp_path / "journal.sqlite3").write_bytes(b"")
    table = build_table(config_for(tmp_path), ManualClock(), seed_source=lambda: 5)
    assert table.controller.message is None or "vanished" not in str(table.controller.message.text)
    assert not kept_copies(tmp_path / "journal.sqlite3")
    close_table(table)


@pytest.mark.parametrize("how", ["deleted", "deleted-with-wal", "replaced"])
def test_a_journal_deleted_or_replaced_under_the_table_is_written_anew(tmp_path: Path, how: str) -> None:
    other = tmp_path / "other"
    _played(other, 5)
    clock = ManualClock()
    table = play_game(tmp_path / "state", 40, clock=clock)
    ctl = table.controller
    count = ctl.history_len
    journal = tmp_path / "state" / "journal.sqlite3"
    journal.unlink()
    if how == "deleted-with-wal":
        for extra in ("-wal", "-shm"):
            Path(f"{journal}{extra}").unlink(missing_ok=True)
    if how == "replaced":
        shutil.copyfile(other / "journal.sqlite3", journal)
    watch_journal(ctl)                                   # the run loop's tick
    said = str(ctl.message.text)
    assert ctl.message.kind == "refusal" and "written anew" in said and how.split("-")[0] in said
    assert journal.exists() and _count(journal.parent) == count
    if how == "replaced":                                 # what was put in its place is kept, byte for byte
        kept = [p for p in kept_copies(journal) if ".replaced-" in p.name]
        assert kept and kept[0].read_bytes() == (other / "journal.sqlite3").read_bytes()
    reader, buttons = SimReader(table.events, clock=clock), SimButtons(table.events, clock=clock)
    for action in parse_script("\n".join(long_script(200, seed=1)), table.catalog)[count * 2:]:
        perform(action, table, reader, buttons, clock)
        if ctl.history_len >= count + 10:
            break
    total = ctl.history_len
    close_table(table)
    assert total > count and _count(journal.parent) == total      # nothing accepted is lost


def test_a_journal_deleted_between_two_taps_is_written_anew_before_the_next_is_stored(tmp_path: Path) -> None:
    clock = ManualClock()
    table = play_game(tmp_path, 30, clock=clock)
    ctl = table.controller
    journal = tmp_path / "journal.sqlite3"
    for name in ("journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    before = ctl.history_len
    ctl.handle(Press("undo", clock.monotonic()))          # a commit, with no tick between
    assert ctl.history_len == before - 1
    assert ctl.session.rewritten is not None and "deleted" in str(ctl.session.rewritten)
    assert _count(tmp_path) == before - 1                  # the undo went into the file at its name
    close_table(table)
    assert journal.exists()


def test_a_journal_deleted_by_its_name_while_no_table_runs_comes_back_whole(tmp_path: Path) -> None:
    clock = ManualClock()
    table = play_game(tmp_path, 60, clock=clock)
    game, count = table.controller.game_id, table.controller.history_len
    # killed (never closed): its last actions are in the -wal; then the journal is deleted by its name
    journal = tmp_path / "journal.sqlite3"
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    close_table(table)
    for name, data in files.items():                    # the files as the kill left them
        (tmp_path / name).write_bytes(data)
    journal.unlink()
    table = build_table(config_for(tmp_path), ManualClock(), seed_source=lambda: 5)
    said = str(table.controller.message.text)
    assert f"game {game} vanished" in said and "is missing" in said
    assert f"rebuilt with {count} of at least" in said and marker.link_path(journal).name in said
    assert table.controller.game_id == game and table.controller.history_len == count
    close_table(table)


def test_doctor_names_a_vanished_game(tmp_path: Path) -> None:
    game, count = _played(tmp_path, 15)
    (tmp_path / "journal.sqlite3").write_bytes(b"")
    code, out, _err = cli("doctor", "--config", str(config_file(tmp_path, tmp_path / "cfg")))
    line = next(line for line in out.splitlines() if "saved games" in line)
    assert "[FAIL]" in line and f"game {game} vanished" in out and f"at least {count} actions" in out
