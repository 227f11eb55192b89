"""Salvage reads every intact row past a damaged page (issue 44, item 4).

A journal of ~610 actions with 32 bytes flipped at 6 points of its middle third gives back at least
N − 60 actions, the game going on from the snapshot after each hole, with the board as it was; cut
to half its size, at least 40 % come back. The notice states true numbers.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from drivers.base import ManualClock
from drivers.events import Press
from table.control.assembly import build_table

from tests.table.storage_helpers import as_json, close_table, config_for, play_game

ACTIONS = 610


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A closed journal of 610 actions, and the board it ends at."""
    base = tmp_path_factory.mktemp("salvage") / "base"
    table = play_game(base, ACTIONS)
    assert table.controller.history_len == ACTIONS
    board = as_json(table.controller.state, table.catalog)
    close_table(table)
    return base, board


def _damaged(base: Path, where: Path, damage) -> Path:  # type: ignore[no-untyped-def]
    shutil.copytree(base, where)
    journal = where / "journal.sqlite3"
    journal.write_bytes(damage(bytearray(journal.read_bytes())))
    return journal


def _flipped(seed: int):  # type: ignore[no-untyped-def]
    def damage(data: bytearray) -> bytes:
        rng = random.Random(seed)
        third = len(data) // 3
        for _ in range(6):
            at = rng.randrange(third, 2 * third - 32)
            for i in range(32):
                data[at + i] ^= 0xFF
        return bytes(data)
    return damage


def _numbers(said: str) -> tuple[int, int]:
    found = re.search(r"restored (?:to action )?(\d+) of (\d+)", said)
    assert found, said
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("seed", [0, 3, 4, 5, 8, 11])
def test_flipped_bytes_in_the_middle_third_give_back_all_but_the_unreadable_rows(
        played: tuple[Path, str], tmp_path: Path, seed: int) -> None:
    base, board = played
    _damaged(base, tmp_path / "box", _flipped(seed))
    table = build_table(config_for(tmp_path / "box"), ManualClock(), seed_source=lambda: 5)
    ctl = table.controller
    said = str(ctl.message.text)
    restored, total = _numbers(said)
    assert total == ACTIONS                                   # what the journal held, not what was read
    assert ctl.history_len == restored >= ACTIONS - 60
    unreadable = re.search(r"; (\d+) unreadable", said)
    assert unreadable and int(unreadable.group(1)) == ACTIONS - restored   # true numbers
    assert as_json(ctl.state, table.catalog) == board        # the game goes on where it was: nothing phantom
    close_table(table)

    again = build_table(config_for(tmp_path / "box"), ManualClock(), seed_source=lambda: 5)   # the repair holds
    assert again.controller.history_len == restored
    assert as_json(again.controller.state, again.catalog) == board
    close_table(again)


def test_undo_stops_at_a_gap_the_repair_bridged(played: tuple[Path, str], tmp_path: Path) -> None:
    base, _board = played
    _damaged(base, tmp_path / "box", _flipped(5))
    clock = ManualClock()
    table = build_table(config_for(tmp_path / "box"), clock, seed_source=lambda: 5)
    ctl = table.controller
    gaps = sorted(ctl.history.gaps)
    assert gaps, "the damage of seed 5 leaves holes the snapshots bridge"
    ctl.handle(Press("undo", clock.monotonic()))             # closes the resume notice
    while ctl.history_len > gaps[-1]:
        assert ctl.handle(Press("undo", clock.monotonic())).accepted
    refused = ctl.handle(Press("undo", clock.monotonic()))
    assert not refused.accepted and ctl.history_len == gaps[-1]
    assert "cannot be taken back" in str(ctl.message.text)
    close_table(table)


def test_a_journal_cut_to_half_gives_back_at_least_40_percent(played: tuple[Path, str], tmp_path: Path) -> None:
    base, _board = played
    _damaged(base, tmp_path / "box", lambda data: bytes(data[:len(data) // 2]))
    table = build_table(config_for(tmp_path / "box"), ManualClock(), seed_source=lambda: 5)
    ctl = table.controller
    restored, total = _numbers(str(ctl.message.text))
    assert total == ACTIONS and ctl.history_len == restored >= 0.4 * ACTIONS
    close_table(table)
