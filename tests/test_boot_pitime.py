"""The Pi-class bench's pieces without a boot (bench/boot/pitime.py): the game it taps, the tags the
image carries for it, the QEMU line with instruction counting, and the readings it parses."""

from __future__ import annotations

import pytest

from bench.boot import pitime, recipe
from bench.boot.guest import qemu_command
from cards.loader import load_catalog


def test_the_game_is_over_200_taps_of_known_tags_starting_with_six_joins():
    joins, rest = pitime.tap_game()
    assert joins == [f"player-{n}" for n in range(1, 7)]
    assert len(joins) + len(rest) >= 200
    tags = recipe.game_tags()
    assert set(joins + rest) <= set(tags)
    assert rest[rest.index("net-troll") - 1] == "player-1"      # the turn's player fights, not the last token


def test_the_game_is_the_same_every_time_and_grows_with_its_length():
    assert pitime.tap_game(50) == pitime.tap_game(50)
    assert len(pitime.tap_game(80)[1]) - len(pitime.tap_game(50)[1]) == 30


def test_the_games_tags_are_catalog_cards_and_tokens_each_with_a_uid_of_its_own():
    tags = recipe.game_tags()
    catalog = load_catalog()
    assert all(card in catalog or card.startswith("player-") for card in tags)
    assert len(set(tags.values())) == len(tags) and all(len(uid) == 8 for uid in tags.values())
    # the boot bench's own tags keep their cards: a UID names one card in both files
    assert all(tags.get(card, uid) == uid for card, uid in recipe.TAGS.items())
    assert not set(tags.values()) & {uid for card, uid in recipe.TAGS.items() if card not in tags}


def test_the_image_carries_the_games_tags(tmp_path):
    recipe.write_overlay(tmp_path, port="/dev/ttyS0", size=(800, 480), web=False)
    rows = (tmp_path / "etc/munchkin-table/pitime-tags.csv").read_text().splitlines()
    assert rows[0] == "uid,card" and len(rows) == len(recipe.game_tags()) + 1


def test_qemu_counts_instructions_and_passes_the_trace_on_the_kernel_line(tmp_path):
    cmd = qemu_command(cache=tmp_path, disk=tmp_path / "d", work=tmp_path, size=(800, 480), pn532=tmp_path / "p",
                       web_port=None, cpu="cortex-a53", memory_mb=512, icount="shift=1,sleep=on",
                       kernel_extra="systemd.setenv=X=/run/y")
    assert cmd[cmd.index("-cpu") + 1] == "cortex-a53" and cmd[cmd.index("-m") + 1] == "512"
    assert cmd[cmd.index("-icount") + 1] == "shift=1,sleep=on"
    assert cmd[cmd.index("-append") + 1].endswith(" systemd.setenv=X=/run/y")
    plain = qemu_command(cache=tmp_path, disk=tmp_path / "d", work=tmp_path, size=(800, 480), pn532=tmp_path / "p",
                         web_port=None)
    assert "-icount" not in plain and plain[plain.index("-cpu") + 1] == "cortex-a72"


def test_the_trace_reader_counts_what_it_cannot_read():
    trace = pitime.parse_trace("first 2.0\nfirst 9.0\nframe 3.0 2.5\nframe x 1\nhello\n\nunshown 4.0 4.1\n")
    assert trace.first == 2.0 and trace.latencies == [0.5] and trace.unshown == 2 and trace.bad_lines == 2


@pytest.mark.parametrize(("q", "expected"), [(0.5, 51), (0.99, 100), (0.0, 1), (1.0, 100)])
def test_percentile_is_the_nearest_rank(q, expected):
    assert pitime.percentile([float(n) for n in range(100, 0, -1)], q) == expected


def test_the_guests_readings_are_parsed_by_name():
    assert pitime.cpu_sample("a_now 12.5\na_table 1500\nnoise here\nb_plain -\n") == {"a_now": 12.5, "a_table": 1500.0}
    assert pitime.systemd_props("ActiveState=active\nMainPID=245\njunk\n") == {"ActiveState": "active", "MainPID": "245"}


def test_a_figure_is_met_at_its_target_and_says_when_it_has_none():
    assert pitime.verdict(16.7, 16.7) == "met" and pitime.verdict(16.8, 16.7) == "not met"
    assert pitime.verdict(99.0, None) == "no target"


def test_idle_is_each_sides_threads_time_on_a_cpu_in_ns_over_the_same_window():
    first = ("now 100.00\nthread table 300 1000000000 50 do_select\nthread table 301 20000000000 900 poll_schedule_timeout\n"
             "thread table 302 5 1 futex_wait_queue\nthread plain 400 30000000000 6000 hrtimer_nanosleep\n")
    # ns past 2^31 as the guest prints them (awk would have written 2.1e+10); thread 302 ended
    last = ("now 160.00\nthread table 300 1006000000 62 do_select\nthread table 301 20060000000 1500 poll_schedule_timeout\n"
            "thread plain 400 30240000000 9600 hrtimer_nanosleep\nthread plain 401 bad 1 x\n")
    fig = pitime.idle_figures(first, last)
    assert fig["window_s"] == 60.0 and fig["by_schedstat"] == 1.0
    assert fig["table_share"] == pytest.approx(0.066 / 60) and fig["plain_share"] == pytest.approx(0.24 / 60)
    assert fig["table_wakeups_per_s"] == pytest.approx(612 / 60) and fig["table_threads"] == 2.0
    assert fig["table_thread1_wakeups_per_s"] == pytest.approx(10.0)
    assert fig["table_thread1_sleeps_in"] == "poll_schedule_timeout"


def test_idle_refuses_readings_without_their_time_or_a_side():
    with pytest.raises(ValueError, match="times"):
        pitime.idle_figures("thread table 1 2 3 x\n", "now 5\nthread table 1 2 3 x\n")
    with pytest.raises(ValueError, match="plain"):
        pitime.idle_figures("now 1\nthread table 1 2 3 x\n", "now 5\nthread table 1 2 3 x\n")


def test_a_disk_dir_that_is_not_there_is_one_line_and_exit_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from bench.boot.pitime import main

    assert main(["--pi-time", "--disk-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such folder" in err
