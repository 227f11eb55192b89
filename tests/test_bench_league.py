"""bench/league.py's comparison of a box's CPU per tap with the league on and off: how the taps are
shared out between the two tables' roles, and how a single costly tap is kept from deciding it."""

from __future__ import annotations

import pytest

from bench.league import blocks, paired_extra, ratio_between


def test_the_blocks_cover_every_action_once_and_share_the_timed_ones_evenly() -> None:
    spans = blocks(40, 1840, 8)
    assert spans[0][0] == 0 and spans[-1][1] == 1840
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))       # no gap, no overlap
    timed = [stop - max(start, 40) for start, stop in spans]
    assert timed == [225] * 8


def test_a_collection_on_one_tap_of_either_table_does_not_decide_the_extra_cost() -> None:
    off = [1.0] * 1000
    on = [1.04] * 1000                     # the league costs 4 % a tap
    on[10] += 60.0                         # a full collection fell on the table with the league on
    assert paired_extra(on, off) == pytest.approx(0.04)
    assert sum(on) / sum(off) == pytest.approx(1.10)        # the plain means: 10 %, all of it that one tap
    off[500] += 75.0                                        # and one on the other table: 1.5 % cheaper
    assert paired_extra(on, off) == pytest.approx(0.04)
    assert sum(on) / sum(off) == pytest.approx(1100 / 1075)


def test_a_cost_on_one_tap_in_seven_is_kept_whole() -> None:
    off = [1.0] * 700
    on = [1.0 + (0.35 if n % 7 == 0 else 0.0) for n in range(700)]      # a state sent on one tap in seven
    # what the cut can take of a real cost: the cut's share of taps times the largest real difference
    assert 0.05 - 0.005 * 0.35 <= paired_extra(on, off) <= 0.05


def test_taps_that_are_not_the_same_actions_are_refused() -> None:
    with pytest.raises(ValueError, match="not the same actions"):
        paired_extra([1.0, 2.0], [1.0])


def test_a_blocks_ratio_is_its_own_taps_on_against_off() -> None:
    cpu = {"on": [1.0, 1.0, 2.0, 2.0], "off": [1.0, 1.0, 1.0, 1.0]}
    assert ratio_between(cpu, (0, 0), (2, 2)) == 1.0
    assert ratio_between(cpu, (2, 2), (4, 4)) == 2.0
