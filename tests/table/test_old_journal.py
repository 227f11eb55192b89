"""A journal written before table/ was laid out in layers resumes as the same game.

tests/data/journal-before-layers.sqlite3 was made by the code of that time (commit 8b94787):
``munchkin-table simulate tests/data/journal-before-layers.txt`` into a state directory, 108
actions with two stored snapshots, and journal-before-layers.state.json is what its ``state``
printed then. The snapshots carry the old rules code's fingerprint, so the new code must ignore
them and replay the game in full; the file format, the state JSON and undo must not have moved.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from drivers.base import ManualClock
from drivers.events import Press
from table.control.assembly import build_table
from tests.table.storage_helpers import cli, close_table, config_file, config_for

DATA = Path(__file__).resolve().parents[1] / "data"
JOURNAL = DATA / "journal-before-layers.sqlite3"
EXPECTED = json.loads((DATA / "journal-before-layers.state.json").read_text(encoding="utf-8"))


def state_dir_with_the_old_journal(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    state.mkdir()
    shutil.copyfile(JOURNAL, state / "journal.sqlite3")
    return state


def test_the_fixture_is_what_it_says() -> None:
    db = sqlite3.connect(f"file:{JOURNAL}?mode=ro", uri=True)
    try:
        assert db.execute("SELECT count(*) FROM command").fetchone()[0] == 108
        assert db.execute("SELECT count(*) FROM snapshot").fetchone()[0] == 2
    finally:
        db.close()


def test_state_prints_what_the_old_code_printed_and_changes_nothing(tmp_path: Path) -> None:
    state = state_dir_with_the_old_journal(tmp_path)
    before = (state / "journal.sqlite3").read_bytes()
    code, out, err = cli("state", "--config", str(config_file(state, tmp_path / "cfg")))
    assert code == 0, err
    printed = json.loads(out)
    assert printed.pop("can")               # what can be done now: a key the state JSON gained since
    assert printed == EXPECTED
    assert (state / "journal.sqlite3").read_bytes() == before          # a command that only reads, only reads
    assert sorted(p.name for p in state.iterdir()) == ["journal.sqlite3"]


def test_the_running_table_resumes_the_old_game_and_goes_on(tmp_path: Path) -> None:
    state = state_dir_with_the_old_journal(tmp_path)
    clock = ManualClock()
    table = build_table(config_for(state), clock)
    try:
        ctl = table.controller
        shown = ctl.state_json()
        shown.pop("prompt", None)
        shown.pop("can")
        expected = dict(EXPECTED)
        expected.pop("prompt", None)
        assert shown == expected
        assert ctl.history_len == 108
        assert ctl.prompt is not None and ctl.prompt.kind == "resume"   # the offer to resume, as then
        ctl.handle(Press("undo", clock.monotonic()))               # the first press closes the offer
        assert ctl.history_len == 108 and ctl.prompt is None
        ctl.handle(Press("undo", clock.monotonic()))               # then undo reaches back into the old actions
        assert ctl.history_len == 107, (ctl.message, ctl.prompt)
        assert table.journal.count(ctl.game.id) == 107
    finally:
        close_table(table)
