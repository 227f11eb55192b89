"""A game's facts log stored an entry a row (``game_fact``): an action writes the entries it added
and takes out those an undo dropped, not the whole log, however long the game; the table resumes
from those rows without a replay; a row of an older journal (its log whole in ``game_record.log``)
still resumes, and rows that are not all there are rebuilt by replaying the game."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import table.session.facts as facts_module
from bench._games import long_script
from table.storage.journal import Journal
from tests.table.storage_helpers import close_table
from tests.table.test_records import controller, run


def long_game(seed: int = 3, lines: int = 300) -> str:
    rng = random.Random(seed)
    out = []
    for number, line in enumerate(long_script(lines, players=4, seed=seed)):
        out.append(line)
        if number > 6 and rng.random() < 0.1:           # undos, once the game has started
            out += ["press undo"] * rng.randint(1, 2)
    return "\n".join(out) + "\n"


def stored(state: Path) -> tuple[dict[str, Any], list[Any]]:
    """The current game's row's log and its stored entries, read from the file."""
    db = sqlite3.connect(state / "journal.sqlite3")
    try:
        game, text = db.execute("SELECT game, log FROM game_record ORDER BY game DESC LIMIT 1").fetchone()
        rows = db.execute("SELECT entry FROM game_fact WHERE game = ? ORDER BY n", (game,)).fetchall()
    finally:
        db.close()
    return json.loads(text), [json.loads(r[0]) for r in rows]


def no_replay(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the replays the facts are rebuilt by (``fold_commands``)."""
    calls: list[int] = []
    real = facts_module.fold_commands

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(facts_module, "fold_commands", counted)
    return calls


def test_each_action_writes_its_own_entries_not_the_whole_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[tuple[int, int, int]] = []        # per stored action: log text length, rows put, rows cut
    real = Journal.append

    def append(self: Journal, game: int, cmd: Any, snapshot: Any = None, facts: Any = None, outbox: Any = ()) -> None:
        statements = facts or []
        log_text = next((s[1][-1] for s in statements if s[0].startswith("INSERT INTO game_record")), "")
        written.append((len(log_text), sum(s[0].startswith("INSERT OR REPLACE INTO game_fact") for s in statements),
                        sum(s[0].startswith("DELETE FROM game_fact") for s in statements)))
        real(self, game, cmd, snapshot, facts, outbox)

    monkeypatch.setattr(Journal, "append", append)
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=700))
    entries = table.controller.records.facts.entries
    assert len(entries) > 150                               # a long game's log
    assert max(n for n, _put, _cut in written) < 160        # the row's log: the times and a count, never the entries
    assert max(put for _n, put, _cut in written) <= 4       # an action adds a few entries at most
    assert sum(put for _n, put, _cut in written) < 2 * len(entries)
    log, rows = stored(tmp_path / "state")
    assert rows == entries and log["kept"] == len(entries)
    close_table(table)


def test_an_undo_takes_its_entries_out_of_the_rows(tmp_path: Path) -> None:
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=80))
    before = list(table.controller.records.facts.entries)
    run(table, "tap net-troll\npress run\ndie 1\npress roll\n")
    assert len(table.controller.records.facts.entries) > len(before)
    run(table, "press undo\npress undo\npress undo\n")
    log, rows = stored(tmp_path / "state")
    assert rows == table.controller.records.facts.entries == before and log["kept"] == len(before)
    close_table(table)


def test_the_table_resumes_the_facts_from_their_rows_without_a_replay(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=120))
    ctl = table.controller
    entries, summary = ctl.records.facts.entries, ctl.records.summary(ctl.state, ctl.history_len)
    close_table(table)
    replays = no_replay(monkeypatch)
    again = controller(tmp_path, winning_level=10)
    ctl = again.controller
    assert ctl.records.facts.entries == entries and replays == []
    assert ctl.records.summary(ctl.state, ctl.history_len) == summary
    run(again, "tap net-troll\n")                          # and it goes on storing only what is new
    assert stored(tmp_path / "state")[1] == ctl.records.facts.entries
    close_table(again)


def test_an_older_row_with_its_log_whole_resumes_and_moves_to_rows(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=120))
    facts = table.controller.records.facts
    entries, whole = list(facts.entries), facts.log_json()
    close_table(table)
    db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
    db.execute("UPDATE game_record SET log = ?", (whole,))          # as the rows of older journals are
    db.execute("DELETE FROM game_fact")
    db.commit()
    db.close()
    replays = no_replay(monkeypatch)
    again = controller(tmp_path, winning_level=10)
    assert again.controller.records.facts.entries == entries and replays == []
    run(again, "tap net-troll\npress run\ndie 1\npress roll\n")
    log, rows = stored(tmp_path / "state")
    assert rows == again.controller.records.facts.entries and log["kept"] == len(rows) > len(entries)
    close_table(again)


def test_rows_not_all_there_are_rebuilt_by_replaying_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=120))
    ctl = table.controller
    entries = list(ctl.records.facts.entries)
    close_table(table)
    db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
    db.execute("DELETE FROM game_fact WHERE n = 7")
    db.commit()
    db.close()
    replays = no_replay(monkeypatch)
    again = controller(tmp_path, winning_level=10)
    assert replays == [1]
    assert again.controller.records.facts.entries == entries
    run(again, "tap net-troll\n")                          # the next write stores every entry again
    assert stored(tmp_path / "state")[1] == again.controller.records.facts.entries
    close_table(again)


def test_after_a_resume_only_the_new_entries_are_encoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=120))
    close_table(table)
    again = controller(tmp_path, winning_level=10)
    facts = again.controller.records.facts
    resumed = len(facts.entries)
    encoded: list[Any] = []
    real = json.dumps
    monkeypatch.setattr(json, "dumps", lambda obj, **kw: encoded.append(obj) or real(obj, **kw))
    run(again, "tap net-troll\npress run\ndie 1\npress roll\n")
    assert len(facts.entries) > resumed
    assert [e for e in encoded if isinstance(e, list)] == facts.entries[resumed:]     # not the resumed ones again
    monkeypatch.undo()
    assert stored(tmp_path / "state")[1] == facts.entries
    assert facts.log_json() == json.dumps({"entries": facts.entries, "started": facts.started, "ended": facts.ended,
                                           "last": facts.last, "abandoned": facts.abandoned}, separators=(",", ":"))
    close_table(again)


@pytest.mark.parametrize("damage", ["{not json", '{"kind": "death"}', "[1, 2]"])
def test_an_entry_row_that_does_not_read_is_rebuilt_by_replaying_the_game(tmp_path: Path, damage: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    table = controller(tmp_path, winning_level=10)
    run(table, long_game(lines=120))
    entries = list(table.controller.records.facts.entries)
    close_table(table)
    db = sqlite3.connect(tmp_path / "state" / "journal.sqlite3")
    db.execute("UPDATE game_fact SET entry = ? WHERE n = 3", (damage,))
    db.commit()
    db.close()
    replays = no_replay(monkeypatch)
    again = controller(tmp_path, winning_level=10)
    assert replays == [1] and again.controller.records.facts.entries == entries
    close_table(again)


def test_the_entries_the_rows_hold_are_found_from_the_last_one_stored_or_one_by_one() -> None:
    from table.session.facts import held_prefix

    entries: list[list[Any]] = [["level", n, {"player": "player-1", "to": n}] for n in range(1, 9)]
    stored = list(entries)
    assert held_prefix(stored, entries) == 8
    entries.append(["death", 9, {"player": "player-2"}])          # an action adds one
    assert held_prefix(stored, entries) == 8
    del entries[5:]                                                # an undo cuts three
    assert held_prefix(stored, entries) == 5
    entries.extend([["level", 6, {"player": "player-3", "to": 2}], ["level", 7, {"player": "player-3", "to": 3}],
                    ["level", 8, {"player": "player-3", "to": 4}]])   # and other actions add as many again
    assert held_prefix(stored, entries) == 5
    assert held_prefix([], entries) == 0


def test_entries_only_added_to_are_found_held_with_one_look_not_one_per_entry() -> None:
    from table.session.facts import held_prefix

    class Counted(list):  # type: ignore[type-arg]
        looks = 0

        def __getitem__(self, i):  # type: ignore[no-untyped-def]
            Counted.looks += 1
            return super().__getitem__(i)

    entries = Counted([["level", n, {}] for n in range(10_000)])
    stored = Counted(entries)
    entries.append(["death", 10_000, {}])
    Counted.looks = 0
    assert held_prefix(stored, entries) == 10_000
    assert Counted.looks <= 2
