"""The heap settled once the table has started (table/app/heap.py): a full collection never scans
what start-up built; and the collector's passes run while the table idles, before a tap takes a
generation past its threshold."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import table.app.run as app_run
from table.app.heap import collect_while_idle, settle
from table.config import parse_config
from tests.table.loop_helpers import run_until_it_loops


def tracked(thing: object) -> bool:
    return any(o is thing for o in gc.get_objects())


def test_settle_takes_what_is_alive_out_of_the_collectors_passes() -> None:
    built = {"catalog": [1, 2, 3]}
    assert tracked(built)
    try:
        assert settle() > 0
        assert not tracked(built)                   # frozen: no pass looks at it
        later = {"game": [4]}
        assert tracked(later)                       # what comes after is collected as ever
    finally:
        gc.unfreeze()
    assert tracked(built)


def test_the_running_table_settles_its_heap_once_before_it_takes_a_tap(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    looping = threading.Event()
    monkeypatch.setattr(app_run, "settle", lambda: calls.append(looping.is_set()) or 0)
    run_until_it_loops(parse_config({"storage": {"state_dir": str(tmp_path)}}), monkeypatch, looping)
    assert calls == [False]                         # once, before the loop handled anything


@pytest.fixture
def quiet_collector() -> Iterator[None]:
    """Thresholds of 100, 10 and 10, and no pass on its own, so the counts move only as the test says."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    gc.disable()
    gc.collect()
    gc.set_threshold(100, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()


def test_nothing_is_collected_while_every_generation_is_far_from_its_threshold(quiet_collector: None) -> None:
    gc.collect()                    # what pytest allocated since the fixture's (dozens, under a profiler) is gone
    assert gc.get_count()[0] < 50
    assert collect_while_idle() is None


def test_the_youngest_generation_half_way_to_its_threshold_is_collected(quiet_collector: None) -> None:
    kept = [[n] for n in range(80)]                     # 80 containers made and alive: the count is past 50
    assert gc.get_count()[0] >= 50
    assert collect_while_idle() == 0
    assert gc.get_count()[0] < 10 and gc.get_count()[1] >= 1
    assert len(kept) == 80


def test_an_older_generation_half_way_there_goes_first_with_the_younger_ones(quiet_collector: None) -> None:
    for _ in range(5):
        gc.collect(0)                                   # five young passes: the middle one is half way
    assert gc.get_count()[1] >= 5
    assert collect_while_idle() == 1
    assert gc.get_count()[1] == 0
    for _ in range(5):
        gc.collect(1)                                   # five middle passes: the oldest is half way
    assert collect_while_idle() == 2
    assert gc.get_count()[2] == 0
