"""A damaged tags.csv never stops the table: good rows kept, bad ones skipped and named, file repaired."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from cards.tags import TagRegistry
from drivers.base import ManualClock
from drivers.events import Tap
from drivers.sim import NullFeedback
from table.config import Config, StorageConfig
from table.storage.paths import TAGS_FILE
from table.control.assembly import build_table

GOOD = "uid,card\n04A1B2C3,plutonium-dragon\n04000001,player-1\n"


def start(tmp_path: Path, content: bytes):
    (tmp_path / TAGS_FILE).write_bytes(content)
    table = build_table(Config(storage=StorageConfig(state_dir=str(tmp_path))), ManualClock(), seed_source=lambda: 1)
    table.controller.feedback = NullFeedback()
    return table


def asides(tmp_path: Path) -> list[Path]:
    return sorted(tmp_path.glob(f"{TAGS_FILE}.damaged-*"))


DAMAGED = {
    "malformed uid": (GOOD + "04A1ZZ,thief\n", 4, "is not a tag UID"),
    "torn last line": (GOOD + "04A1B2C4,plutoni", 4, "unknown card id 'plutoni'"),
    "torn uid": (GOOD + "04A1B", 4, "expected 2 columns"),
    "unknown card": (GOOD + "04A1B2C5,no-such-card\n", 4, "unknown card id 'no-such-card'"),
    "three columns": (GOOD + "04A1B2C6,thief,extra\n", 4, "expected 2 columns"),
    "uid bound twice": (GOOD + "04A1B2C3,thief\n", 4, "bound to 'plutonium-dragon' on line 2"),
}


@pytest.mark.parametrize("name", DAMAGED)
def test_a_damaged_row_is_skipped_and_the_table_starts_with_the_good_ones(tmp_path: Path, caplog, name: str) -> None:
    text, line, message = DAMAGED[name]
    with caplog.at_level(logging.WARNING, logger="cards.tags"):
        table = start(tmp_path, text.encode())
    assert table.registry.as_dict() == {"04A1B2C3": "plutonium-dragon", "04000001": "player-1"}
    [problem] = table.registry.problems
    assert problem.startswith(f"{TAGS_FILE}:{line}: ") and message in problem
    assert f"{TAGS_FILE}:{line}: " in caplog.text
    # the damaged file is kept aside byte for byte; a clean one replaces it
    [aside] = asides(tmp_path)
    assert aside.read_bytes() == text.encode()
    assert (tmp_path / TAGS_FILE).read_text() == GOOD.replace("04A1B2C3,plutonium-dragon\n04000001,player-1\n",
                                                              "04000001,player-1\n04A1B2C3,plutonium-dragon\n")
    # the one message at start says so, and the table plays on
    msg = table.controller.message
    assert msg is not None and msg.kind == "refusal"
    assert "tags.csv was damaged: skipped 1 bad row(s), kept 2 tag(s)" in msg.text and aside.name in msg.text
    table.controller.handle(Tap("04000001", 1.0))
    assert [p.id for p in table.controller.state.players] == ["player-1"]


def test_a_binary_garbage_file_starts_the_table_with_no_tags(tmp_path: Path) -> None:
    garbage = bytes(range(256)) * 8 + b"\x00\xff\xfe\n\x89PNG\r\n\x1a\n"
    table = start(tmp_path, garbage)
    assert len(table.registry) == 0
    assert table.registry.problems and all(p.startswith(f"{TAGS_FILE}:") for p in table.registry.problems)
    [aside] = asides(tmp_path)
    assert aside.read_bytes() == garbage
    assert (tmp_path / TAGS_FILE).read_text() == "uid,card\n"
    assert "skipped" in table.controller.message.text


def test_garbage_in_the_middle_keeps_the_rows_around_it(tmp_path: Path) -> None:
    table = start(tmp_path, GOOD.encode() + b"\x00\x00\xde\xad\xbe\xef\n04A1B2C3D4E5F6,thief\n")
    assert table.registry.lookup("04A1B2C3D4E5F6") == "thief" and len(table.registry) == 3
    assert [p.split(":")[1] for p in table.registry.problems] == ["4"]


def test_a_clean_file_is_left_alone_and_nothing_is_said(tmp_path: Path) -> None:
    table = start(tmp_path, GOOD.encode())
    assert table.registry.problems == [] and asides(tmp_path) == []
    assert (tmp_path / TAGS_FILE).read_text() == GOOD
    assert table.controller.message is None or table.controller.message.kind != "refusal"


def test_a_byte_order_mark_and_windows_line_ends_are_not_damage(tmp_path: Path) -> None:
    table = start(tmp_path, b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode())
    assert table.registry.problems == [] and len(table.registry) == 2


def test_the_repaired_file_loads_clean_next_time(tmp_path: Path) -> None:
    start(tmp_path, (GOOD + "junk\n").encode())
    again = TagRegistry(tmp_path / TAGS_FILE)
    assert again.problems == [] and len(again) == 2
    assert len(asides(tmp_path)) == 1


def test_a_second_damage_in_the_same_second_keeps_both_copies(tmp_path: Path) -> None:
    path = tmp_path / TAGS_FILE
    path.write_text(GOOD + "junk1\n")
    TagRegistry(path)
    path.write_text(GOOD + "junk2\n")
    TagRegistry(path)
    assert sorted(p.read_text().splitlines()[-1] for p in asides(tmp_path)) == ["junk1", "junk2"]


def test_an_unreadable_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / TAGS_FILE).mkdir()           # a directory where the file should be: reading fails
    reg = TagRegistry(tmp_path / TAGS_FILE)
    assert len(reg) == 0 and "cannot read it" in reg.problems[0]
    assert reg.damage_report() == reg.problems[0]


def test_a_read_only_state_directory_still_starts_with_the_good_rows(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / TAGS_FILE
    path.write_text(GOOD + "junk\n")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("cards.tags.write_atomically", refuse)
    monkeypatch.setattr(Path, "write_bytes", refuse)
    reg = TagRegistry(path)
    assert len(reg) == 2
    assert any("cannot keep the damaged file aside" in p for p in reg.problems)
    assert any("cannot write a clean copy" in p for p in reg.problems)
    assert path.read_text() == GOOD + "junk\n"      # untouched: nothing was lost


def test_the_enrollment_wizard_also_starts_and_says_so(tmp_path: Path) -> None:
    from table.app.enroll import EnrollApp

    (tmp_path / TAGS_FILE).write_bytes((GOOD + "04A1B2C3D4,nope\n").encode())
    app = EnrollApp(Config(storage=StorageConfig(state_dir=str(tmp_path))), sim=True, clock=ManualClock(),
                    state_dir=tmp_path, screen=False)
    assert app.line.kind == "refusal" and "skipped 1 bad row(s)" in app.line.text
    assert len(app.registry) == 2
